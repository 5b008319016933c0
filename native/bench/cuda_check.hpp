// cuda_check.hpp — every CUDA runtime call goes through GPUPLAN_CUDA_CHECK (only .cu files
// include this). A failure throws BenchError(failed) naming the expression, file:line and
// CUDA's own words, e.g.
//   CUDA call failed: cudaMallocHost(&p, bytes) at decode_backend_cuda.cu:212:
//   out of memory (cudaErrorMemoryAllocation)
// Kernel launches are checked with GPUPLAN_CUDA_CHECK(cudaGetLastError()) right after.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "decode_backend.hpp"

namespace gpuplan::bench {

[[noreturn]] inline void cuda_fail(cudaError_t err, const char* expression, const char* file, int line) {
    std::string where = file;
    if (const auto slash = where.find_last_of('/'); slash != std::string::npos) where = where.substr(slash + 1);
    throw BenchError(BenchError::Kind::failed, std::string("CUDA call failed: ") + expression + " at " + where + ":" +
                                                   std::to_string(line) + ": " + cudaGetErrorString(err) + " (" +
                                                   cudaGetErrorName(err) + ")");
}

}  // namespace gpuplan::bench

#define GPUPLAN_CUDA_CHECK(expression)                                                           \
    do {                                                                                         \
        const cudaError_t gpuplan_cuda_err_ = (expression);                                      \
        if (gpuplan_cuda_err_ != cudaSuccess)                                                    \
            ::gpuplan::bench::cuda_fail(gpuplan_cuda_err_, #expression, __FILE__, __LINE__);     \
    } while (0)
