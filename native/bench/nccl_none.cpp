// nccl_none.cpp — this gpuplan was built without CUDA, hence without NCCL: the collective cases
// are WAIVED with that reason (nccl_collectives.hpp).
#include "nccl_collectives.hpp"

namespace gpuplan::bench {

bool nccl_built() { return false; }
std::string nccl_version() { return ""; }
std::optional<std::string> nccl_unavailable(int) { return std::string("this gpuplan was built without CUDA, so without NCCL"); }

CollectiveTiming nccl_single_process(Collective, std::uint64_t, int, int, int, int, double) {
    CollectiveTiming t;
    t.error = "this gpuplan was built without NCCL";
    return t;
}

CollectiveTiming nccl_multi_process(Collective, std::uint64_t, int, int, int, const std::function<void(void*, int)>&, const RankAgreement&, int, int, int,
                                    double) {
    CollectiveTiming t;
    t.error = "this gpuplan was built without NCCL";
    return t;
}

}  // namespace gpuplan::bench
