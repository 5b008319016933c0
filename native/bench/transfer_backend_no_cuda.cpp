// transfer_backend_no_cuda.cpp — this gpuplan was built without CUDA (nvcc not found at build
// time): `gpuplan bench run --backend cuda` says so and `bench list` shows it (exit 3).
#include "transfer_backend.hpp"

namespace gpuplan::bench {

std::shared_ptr<TransferBackend> make_cuda_transfer_backend() {
    throw BenchError(BenchError::Kind::no_gpu,
                     "no usable GPU here: this gpuplan was built without CUDA (nvcc not found at build time); "
                     "run with --backend cpu, or rebuild with the CUDA toolkit installed");
}

}  // namespace gpuplan::bench
