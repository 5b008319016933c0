// gui_unavailable.cpp — `gpuplan gui` in a build without SDL2/OpenGL/Dear ImGui: the command
// exists (so `gpuplan --help` is the same everywhere) and says why it cannot open a window.
#include "commands.hpp"

namespace gpuplan::cli {

Command register_gui(CLI::App& parent) {
    CLI::App* app = parent.add_subcommand("gui", "Open the planner's views in a desktop window (not in this build)");
    app->allow_extras();
    return {app, [](const Catalog&) -> std::string {
                throw CommandFailure(3, "this gpuplan was built without the desktop GUI (SDL2, OpenGL or the Dear ImGui "
                                        "sources were missing at configure time; see scripts/setup.sh), so `gui` cannot "
                                        "open a window");
            }};
}

}  // namespace gpuplan::cli
