// gui_launcher.cpp — `gpuplan gui` in the command-line program: the desktop window is its own
// program, gpuplan-gui, built beside gpuplan, and this command hands it the whole command line
// (execv). Linked into gpuplan, SDL2 and OpenGL brought ~50 libraries (display and sound servers)
// that every command loaded and initialised: ~4 ms of each start, against ~1.5 ms for `true`
// (docs/performance.md, "The CLI's start"). gpuplan-gui is the same program with the window
// linked in (gui_cmd.cpp), so its `gui` options, help and exit codes are the ones users see.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "app.hpp"
#include "commands.hpp"

namespace gpuplan::cli {

namespace {

constexpr int kExitNoWindowProgram = 3;  // as a build without the window (gui_unavailable.cpp)

// gpuplan-gui beside the running program (/proc/self/exe: the file, whatever the PATH said).
std::filesystem::path window_program() {
    std::error_code error;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
    return (error ? std::filesystem::path("gpuplan") : self).parent_path() / "gpuplan-gui";
}

[[noreturn]] void run_window_program() {
    const std::filesystem::path program = window_program();
    std::vector<std::string> words = {program.string()};
    for (const std::string& a : invocation_arguments()) words.push_back(a);
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    execv(program.c_str(), argv.data());  // returns only when it could not start the program
    throw CommandFailure(kExitNoWindowProgram, "the desktop window is the program gpuplan-gui beside gpuplan, which could not be started (" +
                                                   program.string() + ": " + std::strerror(errno) + ")");
}

}  // namespace

Command register_gui(CLI::App& parent) {
    CLI::App* app = parent.add_subcommand("gui", "Open the planner's views in a desktop window (the browser app's views)");
    // Every word after `gui`, --help included, is gpuplan-gui's to read.
    app->set_help_flag();
    app->allow_extras();
    app->prefix_command();
    // gpuplan-gui loads the catalog (and any --catalog file) itself.
    return {.app = app, .run = [](const Catalog&) -> std::string { run_window_program(); }, .needs_catalog = false};
}

}  // namespace gpuplan::cli
