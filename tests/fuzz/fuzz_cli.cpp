// fuzz_cli — the command line's argument parsing and commands, in-process (run_gpuplan).
//
// The input is split at newlines into arguments (at most 24). Findings beyond crashes:
// exit code 1 (an internal error is a bug by definition), output on stdout with a failing
// exit code (no partial output), an error that is not exactly one "gpuplan: error: ..." line,
// or a success with no output. The harness runs from the source tree so the dictionary's
// relative paths (tests/cli/data/..., assets/scenarios/...) name real files.
// Skipped, as they act outside the process: `bench` (runs threads for seconds, writes files
// with --out / --output-dir), `gui` (opens a window) and any absolute or parent-relative path
// (a fuzzer must not read /dev or /proc).
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "app.hpp"
#include "fuzz_common.hpp"

namespace {

bool skipped(const std::string& arg) {
    return arg == "bench" || arg == "gui" || arg == "--out" || arg == "--output-dir" || arg.rfind("--out=", 0) == 0 ||
           arg.rfind("--output-dir=", 0) == 0 || arg.find('/') == 0 || arg.find("=/") != std::string::npos ||
           arg.find("..") != std::string::npos || arg.find('\0') != std::string::npos;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    if (chdir(GPUPLAN_SOURCE_DIR) != 0) gpuplan::fuzz::finding("cannot chdir to the source tree", GPUPLAN_SOURCE_DIR);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> args;
    std::string current;
    for (std::size_t k = 0; k < size; ++k) {
        if (data[k] == '\n') {
            args.push_back(current);
            current.clear();
        } else {
            current += static_cast<char>(data[k]);
        }
    }
    if (!current.empty()) args.push_back(current);
    if (args.size() > 24) return 0;
    for (const auto& a : args)
        if (skipped(a)) return 0;

    std::string out, err;
    const int code = gpuplan::cli::run_gpuplan(args, out, err);
    std::string shown;
    for (const auto& a : args) shown += "[" + a + "] ";
    shown += "\nexit " + std::to_string(code) + "\nstderr: " + err;
    if (code == 1) gpuplan::fuzz::finding("internal error (exit 1)", shown);
    if (code != 0) {
        if (!out.empty()) gpuplan::fuzz::finding("output on stdout with a failing exit code", shown);
        if (err.rfind("gpuplan: error: ", 0) != 0 || err.find('\n') != err.size() - 1)
            gpuplan::fuzz::finding("error is not one 'gpuplan: error:' line", shown);
    } else if (out.empty()) {
        gpuplan::fuzz::finding("success with no output", shown);
    }
    return 0;
}
