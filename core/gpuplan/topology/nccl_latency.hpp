// nccl_latency.hpp — the latency NCCL's own tuning model charges one collective call, and the
// protocols it chooses between by size.
//
// NCCL times every (algorithm, protocol) pair as latency + bytes / bandwidth and runs the
// fastest (NVIDIA/nccl src/graph/tuning.cc, ncclTopoTuneModel and ncclTopoGetAlgoTime, at
// commit 5067397c). The latency is a base per call plus a hardware latency per ring step,
// larger for a step that crosses the network; the protocols trade bandwidth for latency:
//   LL      8-byte stores of 4 data + 4 flag bytes: half the bandwidth, 0.6 us per NVLink step
//   LL128   128-byte lines with an 8-byte flag: 0.92 of it, 1.9 us per step (NVLink only)
//   Simple  all the bandwidth, 3.4 us per NVLink step and 8.4 us per call
// The constants below are NCCL's (tuning.cc, ncclTunerConstantsDefaults); the planner's
// bandwidth model (topology.hpp) supplies the bandwidth. Without this term a 1-64 MiB
// all-reduce came out 1.5-8x faster than nccl-tests measures (docs/accuracy.md).
#pragma once

#include <string_view>

#include "gpuplan/explain.hpp"
#include "gpuplan/topology/topology.hpp"

namespace gpuplan {

enum class NcclAlgorithm { ring, nvls };  // NVLS: NVLink SHARP (one node), NVLS tree (several)
enum class NcclProtocol { ll, ll128, simple };
std::string_view to_string(NcclAlgorithm a);  // "ring", "NVLS"
std::string_view to_string(NcclProtocol p);   // "LL", "LL128", "Simple"

// The share of the bandwidth model's rate a protocol delivers (tuning.cc: LL x 0.5, LL128 x 0.92).
double protocol_bandwidth_share(NcclProtocol p);

struct NcclCall {
    Collective kind = Collective::all_reduce;
    double ranks_per_node = 1, nodes = 1;
    LinkClass intra = LinkClass::none, inter = LinkClass::none;
    // The Simple protocol's latency per ring step on each link: NCCL's figure by default, or
    // the user's (a measured alpha), which then stands for the link.
    Param intra_step_us, inter_step_us;
};

// Whether NCCL would consider the pair for this call: NVLS only for an all-reduce over an
// NVSwitch with SHARP (checked by the caller), LL128 only when the node's link is NVLink.
bool protocol_enabled(NcclAlgorithm a, NcclProtocol p, const NcclCall& call);

// The latency of one call in seconds, with NCCL's formula for the algorithm and its inputs.
Figure nccl_latency_seconds(NcclAlgorithm a, NcclProtocol p, const NcclCall& call);

}  // namespace gpuplan
