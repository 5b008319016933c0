// device_query_none.cpp — the build had no CUDA toolkit, so no GPU can be used.
#include "device_query.hpp"

namespace gpuplan::native {

DeviceQuery query_gpus() {
    DeviceQuery q;
    q.backend = "none";
    q.message = "this gpuplan was built without CUDA (nvcc not found at build time); GPU benchmarks are unavailable, "
                "the CPU backend still runs";
    return q;
}

}  // namespace gpuplan::native
