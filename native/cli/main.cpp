// main.cpp — the `gpuplan` program: argv to run_gpuplan (app.cpp), then its output to the
// process's stdout and stderr. All behaviour, exit codes included, lives in app.cpp.
#include <cstdio>
#include <string>
#include <vector>

#include "app.hpp"

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
    std::string out, err;
    int code = gpuplan::cli::run_gpuplan(args, out, err);
    // Writes everything or reports why not (a closed pipe is not our error to report loudly).
    if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size() || std::fflush(stdout) != 0) {
        err += "gpuplan: error: could not write the output to stdout\n";
        code = 1;
    }
    std::fwrite(err.data(), 1, err.size(), stderr);
    return code;
}
