// app.hpp — the whole `gpuplan` command line as one in-process call.
//
// main.cpp is a thin wrapper over run_gpuplan; tests and the fuzzer (tests/fuzz) call it
// directly, so argument parsing is exercised without starting a process.
#pragma once

#include <string>
#include <vector>

namespace gpuplan::cli {

// Runs `gpuplan ARGS...` (args without argv[0]). Whatever the command would print on stdout
// is appended to `out` only when it succeeded (never partial output); error and note lines
// ("gpuplan: error: ..." / "gpuplan: note: ...") go to `err`. Returns the exit code: 0 ok,
// 1 internal error, 2 bad input, or a command's own code (bench: 3, 4). Never throws.
// (`bench decode` progress lines still go straight to the process's stderr while it runs.)
int run_gpuplan(const std::vector<std::string>& args, std::string& out, std::string& err);

// The arguments of the run_gpuplan call in progress: what `gpuplan gui` hands the window
// program whole (gui_launcher.cpp), global options such as --catalog included.
const std::vector<std::string>& invocation_arguments();

}  // namespace gpuplan::cli
