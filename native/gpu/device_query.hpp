// device_query.hpp — which GPUs this machine has, behind one interface.
//
// Two implementations, chosen by CMake (cmake/Cuda.cmake), never by #ifdef in callers:
//   device_query_cuda.cu   the CUDA runtime (built when nvcc is found)
//   device_query_none.cpp  no CUDA toolkit at build time: reports that plainly
// Having no GPU or no driver at run time is an expected answer, not an error: `available`
// is false and `message` says why in words a user can act on.
#pragma once

#include <string>
#include <vector>

namespace gpuplan::native {

struct GpuDevice {
    int index = 0;
    std::string name;
    double memory_gib = 0;
    int compute_capability_major = 0, compute_capability_minor = 0;
    int multiprocessors = 0;
    std::string pci_bus_id;  // "0000:10:1c.0"
};

struct DeviceQuery {
    bool available = false;
    std::string backend;          // "cuda" or "none"
    std::string runtime_version;  // "13.0" (CUDA runtime the binary was built with)
    std::string driver_version;   // "" when there is no driver
    std::string message;          // why no GPU is usable, or a one-line summary
    std::vector<GpuDevice> devices;
};

DeviceQuery query_gpus();

}  // namespace gpuplan::native
