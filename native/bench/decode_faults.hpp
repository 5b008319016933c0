// decode_faults.hpp — fault injection for the decode benchmark (`bench decode --inject-fault`),
// so every failure path can be tested without a faulty GPU: a chosen backend call fails the way
// a CUDA error would, or never completes the way a hung GPU would.
//
//   compute:N       the Nth decode launched in the run fails (BenchError, failed)
//   copy:N          the Nth device-to-host copy fails
//   writer:N        the writer's host stage fails at the Nth chunk it handles
//   hang:compute:N  the Nth decode never completes: nothing later on its engine, nor on an
//   hang:copy:N     engine that waits for it, is ever reached; a host wait on such a point, or
//                   synchronize(), gives up after the device timeout (set_wait_timeout)
//   hang:writer:N   the writer stops at its Nth chunk until cancelled (the writer timeout)
// N counts from 1, over the whole run after calibration (warm-up videos included).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "decode_backend.hpp"

namespace gpuplan::bench {

struct InjectedFault {
    enum class Stage { compute, copy, writer };
    Stage stage = Stage::compute;
    std::uint64_t at = 1;
    bool hang = false;
};

// "copy:3", "hang:compute:5"; throws BenchError(bad_input) naming --inject-fault otherwise.
InjectedFault parse_injected_fault(const std::string& spec);
std::string to_string(const InjectedFault& fault);  // back to the spec

// `inner` with a compute or copy fault applied (a writer fault is the pipeline's own: it
// returns `inner` unchanged for those).
std::shared_ptr<DecodeBackend> with_injected_fault(std::shared_ptr<DecodeBackend> inner, const InjectedFault& fault);

}  // namespace gpuplan::bench
