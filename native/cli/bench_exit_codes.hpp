// bench_exit_codes.hpp — the exit codes `gpuplan bench` and `gpuplan bench run` share
// (docs/reference/cli.md, "Exit codes"): a script on an EC2 instance tells "this machine has no
// GPU" from "the measurement failed" without reading the message.
#pragma once

namespace gpuplan::cli {

constexpr int kExitNoGpu = 3;
constexpr int kExitRunFailed = 4;

}  // namespace gpuplan::cli
