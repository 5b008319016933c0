// nccl_common.cpp — collective names and nccl-tests' bus-bandwidth factors, shared by both
// NCCL implementations and the MPI runner (nccl_collectives.hpp).
#include "nccl_collectives.hpp"

namespace gpuplan::bench {

const char* collective_key(Collective c) {
    switch (c) {
    case Collective::all_reduce: return "nccl_all_reduce";
    case Collective::all_gather: return "nccl_all_gather";
    case Collective::reduce_scatter: return "nccl_reduce_scatter";
    case Collective::all_to_all: return "nccl_all_to_all";
    }
    return "?";
}

double bus_factor(Collective c, int ranks) {
    const double n = ranks;
    return c == Collective::all_reduce ? 2 * (n - 1) / n : (n - 1) / n;
}

}  // namespace gpuplan::bench
