// device_query_cuda.cu — GPUs as the CUDA runtime sees them.
//
// On a machine without a driver (CI, this project's build machines) cudaGetDeviceCount
// returns cudaErrorInsufficientDriver or cudaErrorNoDevice: that is reported as "no GPU
// here", not as a failure. Ran on one H200 (see docs/benchmarks.md).
#include <cuda_runtime.h>

#include <cstdio>

#include "device_query.hpp"

namespace gpuplan::native {

namespace {
std::string version_text(int v) {  // 13000 -> "13.0"
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}
}  // namespace

DeviceQuery query_gpus() {
    DeviceQuery q;
    q.backend = "cuda";
    int runtime = 0, driver = 0;
    if (cudaRuntimeGetVersion(&runtime) == cudaSuccess) q.runtime_version = version_text(runtime);
    if (cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0) q.driver_version = version_text(driver);
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        q.message = std::string("no usable GPU here: ") + cudaGetErrorString(err) + " (" + cudaGetErrorName(err) + ")";
        if (err == cudaErrorInsufficientDriver || err == cudaErrorNoDevice)
            q.message += "; this is expected on a machine without an NVIDIA driver";
        return q;
    }
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp p{};
        if (cudaGetDeviceProperties(&p, i) != cudaSuccess) continue;
        GpuDevice d;
        d.index = i;
        d.name = p.name;
        d.memory_gib = static_cast<double>(p.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0);
        d.compute_capability_major = p.major;
        d.compute_capability_minor = p.minor;
        d.multiprocessors = p.multiProcessorCount;
        char bus[32];
        std::snprintf(bus, sizeof bus, "%04x:%02x:%02x.0", p.pciDomainID, p.pciBusID, p.pciDeviceID);
        d.pci_bus_id = bus;
        q.devices.push_back(d);
    }
    q.available = !q.devices.empty();
    q.message = std::to_string(q.devices.size()) + " GPU(s) visible to CUDA " + q.runtime_version;
    return q;
}

}  // namespace gpuplan::native
