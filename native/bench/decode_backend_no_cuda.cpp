// decode_backend_no_cuda.cpp — this gpuplan was built without CUDA (nvcc not found at build
// time): the CUDA backend cannot exist, and asking for it says so (exit 3 in the CLI).
#include "decode_backend.hpp"

namespace gpuplan::bench {

bool cuda_backend_built() { return false; }

std::shared_ptr<DecodeBackend> make_cuda_backend(int) {
    throw BenchError(BenchError::Kind::no_gpu,
                     "no usable GPU here: this gpuplan was built without CUDA (nvcc not found at build time); "
                     "run with --backend cpu, or rebuild with the CUDA toolkit installed");
}

}  // namespace gpuplan::bench
