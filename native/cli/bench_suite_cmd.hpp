// bench_suite_cmd.hpp — `gpuplan bench run` and `gpuplan bench list` (bench_suite_cmd.cpp),
// registered under `gpuplan bench` next to `bench decode` (bench_cmd.cpp).
#pragma once

#include "commands.hpp"

namespace gpuplan::cli {

struct BenchSuiteCommands {
    CLI::App* run = nullptr;
    CLI::App* list = nullptr;
    Runner run_runner, list_runner;
};
BenchSuiteCommands register_bench_suite(CLI::App& bench);

}  // namespace gpuplan::cli
