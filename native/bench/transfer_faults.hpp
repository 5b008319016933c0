// transfer_faults.hpp — fault injection for `gpuplan bench run` (--inject-fault), on either
// backend, so every failure path of the suite is tested without a faulty GPU:
//
//   alloc:N       the Nth buffer allocation fails, as a refused cudaMalloc would
//   copy:N        the Nth run (one sample's copies or kernels) fails, as a CUDA error would
//   verify:N      the Nth verification read finds one word wrong, as a bad link would
//   hang:copy:N   the Nth run never finishes: it gives up after its timeout, and the backend
//                 then refuses further work, as a real one does after a hung device
// N counts from 1 over the whole run (every case, calibration runs included).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "transfer_backend.hpp"

namespace gpuplan::bench {

struct TransferFault {
    enum class Stage { alloc, copy, verify };
    Stage stage = Stage::copy;
    std::uint64_t at = 1;
    bool hang = false;
};

// "copy:3", "hang:copy:2"; throws BenchError(bad_input) naming --inject-fault otherwise.
TransferFault parse_transfer_fault(const std::string& spec);
std::string to_string(const TransferFault& fault);

std::shared_ptr<TransferBackend> with_transfer_fault(std::shared_ptr<TransferBackend> inner, const TransferFault& fault);

}  // namespace gpuplan::bench
