// nccl_collectives.hpp — NCCL collectives timed as nccl-tests times them (docs/benchmarks.md,
// "Collectives"). Two implementations, chosen by CMake: nccl_collectives.cpp (CUDA found:
// links -lnccl; NOT YET RUN ON A REAL GPU) and nccl_none.cpp (says "built without CUDA").
//
// Conventions (nccl-tests, doc/PERFORMANCE.md): S is the buffer each rank contributes or
// receives (all-reduce: the whole array; all-gather: the output; reduce-scatter: the input;
// all-to-all: the whole send buffer). algbw = S / t; busbw = algbw x factor with n ranks:
// all-reduce 2(n-1)/n, all-gather and reduce-scatter (n-1)/n, all-to-all (n-1)/n.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::bench {

enum class Collective { all_reduce, all_gather, reduce_scatter, all_to_all };
const char* collective_key(Collective c);  // "nccl_all_reduce", ...
double bus_factor(Collective c, int ranks);

struct CollectiveTiming {
    std::vector<double> seconds;  // one per sample (the mean over that sample's iterations)
    bool verified = false;
    std::string verification, error;  // error non-empty: failed or timed out (nothing timed)
    bool timed_out = false;
};

bool nccl_built();
std::string nccl_version();  // "2.28.3", or "" when not built

// Why NCCL cannot run in this process over `local_gpus` GPUs (nullopt: it can).
std::optional<std::string> nccl_unavailable(int local_gpus);

// One process, every local GPU a rank (ncclCommInitAll). bytes = S above, a multiple of
// 4 x ranks x ranks (float elements split evenly).
CollectiveTiming nccl_single_process(Collective c, std::uint64_t bytes, int gpus, int warmup, int samples, int iters, double timeout_s);

// How the ranks of a multi-process run agree, as nccl-tests does (common.cu): every rank
// reaches a barrier before each sample, a sample's time is the mean over ranks, and wrong
// elements are summed over ranks. The MPI runner fills these with MPI_Barrier/MPI_Allreduce.
struct RankAgreement {
    std::function<void()> barrier;
    std::function<double(double)> mean_over_ranks;
    std::function<std::uint64_t(std::uint64_t)> sum_over_ranks;
};

// Multi-process (one rank per process, under MPI): `broadcast` sends `bytes` bytes from rank
// 0 to all ranks (the caller does it with MPI_Bcast): the 128-byte unique id and whether rank
// 0 could make it, so no rank waits for an id that never comes. Blocking communicators, as
// nccl-tests uses, so every collective is queued when its call returns.
CollectiveTiming nccl_multi_process(Collective c, std::uint64_t bytes, int rank, int ranks, int local_device,
                                    const std::function<void(void* data, int bytes)>& broadcast, const RankAgreement& agree, int warmup,
                                    int samples, int iters, double timeout_s);

}  // namespace gpuplan::bench
