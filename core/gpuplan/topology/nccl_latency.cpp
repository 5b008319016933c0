#include "gpuplan/topology/nccl_latency.hpp"

#include <cmath>

#include "gpuplan/formula_text.hpp"

namespace gpuplan {

namespace {

// NCCL's tuner constants, microseconds (src/graph/tuning.cc at 5067397c,
// ncclTunerConstantsDefaults), indexed by protocol: LL, LL128, Simple.
struct PerProtocol {
    double ll, ll128, simple;
    double at(NcclProtocol p) const { return p == NcclProtocol::ll ? ll : p == NcclProtocol::ll128 ? ll128 : simple; }
};
constexpr PerProtocol kRingBase{6.6, 14.0, 8.4};       // baseLatencies, Ring
constexpr PerProtocol kRingNvlink{0.6, 1.9, 3.4};      // hwLatencies NVLINK, Ring
constexpr PerProtocol kRingPci{1.0, 2.5, 5.7};         // hwLatencies PCI, Ring
constexpr PerProtocol kRingNet{2.7, 4.0, 14.0};        // hwLatencies NET, Ring
constexpr PerProtocol kTreeNet{5.0, 8.5, 14.0};        // hwLatencies NET, Tree: a ring step with one GPU per node
constexpr double kNvlsNvlinkUs = 25.0;                 // hwLatencies NVLINK, NVLS and NVLSTree (Simple)
constexpr double kNvlsTreeNetUs = 20.9;                // hwLatencies NET, NVLSTree (Simple)
constexpr double kNetOverheadUs = 1.0;                 // getNetOverhead: 1 us on Intel x86 (2 on AMD), x3 for Simple
constexpr double kRingPlateau = 1.4;                   // ncclTopoGetAlgoTime: inter-node Simple ring all-reduce, SM80 and later

const char* kSource = "NCCL tuning model (NVIDIA/nccl src/graph/tuning.cc at 5067397c)";

bool nvlink_like(LinkClass c) { return c == LinkClass::nvlink || c == LinkClass::neuronlink; }
// Links NCCL publishes LL and LL128 step latencies for; elsewhere only Simple is timed.
bool has_ll_latency(LinkClass c) { return nvlink_like(c) || c == LinkClass::pcie_host_bridge || c == LinkClass::efa_gdr || c == LinkClass::none; }

// NCCL's latency per ring step on a link inside the node.
Param intra_step(NcclProtocol p, const NcclCall& call) {
    if (p == NcclProtocol::simple) return call.intra_step_us;
    const PerProtocol& t = nvlink_like(call.intra) ? kRingNvlink : kRingPci;
    return {t.at(p), InputOrigin::assumption, std::string("hwLat ") + (nvlink_like(call.intra) ? "NVLINK" : "PCI") + " ring/" + std::string(to_string(p)) + ", " + kSource};
}

// NCCL's latency per ring step that crosses the network.
Param inter_step(NcclProtocol p, const NcclCall& call) {
    if (p == NcclProtocol::simple && call.inter_step_us.origin != InputOrigin::assumption) return call.inter_step_us;  // the user's alpha
    if (call.ranks_per_node <= 1)
        return {kTreeNet.at(p), InputOrigin::assumption, "hwLat NET tree/" + std::string(to_string(p)) + " (one GPU per node: the latency is fully exposed), " + kSource};
    if (p == NcclProtocol::simple) return call.inter_step_us;
    return {kRingNet.at(p), InputOrigin::assumption, "hwLat NET ring/" + std::string(to_string(p)) + ", " + kSource};
}

Figure ring_latency(NcclProtocol p, const NcclCall& call) {
    const double ranks = call.ranks_per_node * call.nodes, nodes = call.nodes;
    const bool all_reduce = call.kind == Collective::all_reduce;
    const double steps = all_reduce ? 2 * (ranks - 1) : ranks - 1;
    const double inter_steps = nodes <= 1 ? 0 : all_reduce ? 2 * (nodes - 1) : nodes - 1;
    const Param base{kRingBase.at(p), InputOrigin::assumption, "baseLat ring/" + std::string(to_string(p)) + ", " + kSource};
    Param intra = intra_step(p, call);
    // Across nodes every step also pays the network proxy's overhead (getNetOverhead).
    const double overhead = kNetOverheadUs * (p == NcclProtocol::simple ? 3 : 1);
    if (nodes > 1 && intra.value < overhead) intra = {overhead, InputOrigin::assumption, "network proxy overhead per step (getNetOverhead, Intel x86), " + std::string(kSource)};
    const Param inter = nodes > 1 ? inter_step(p, call) : Param{0, InputOrigin::derived, "one node"};
    const double plateau = nodes > 1 && all_reduce && p == NcclProtocol::simple ? kRingPlateau : 1.0;
    const double us = (base.value + (steps - inter_steps) * intra.value + inter_steps * inter.value) * plateau;
    return explained_figure("nccl_latency_seconds", us * 1e-6, "s", [&] {
        return Explanation{"(base + (steps - network steps) x step latency + network steps x network step latency)" +
                               std::string(plateau > 1 ? " x 1.4 (ring plateau across nodes)" : "") + ", ring/" + std::string(to_string(p)) + ", " + kSource,
                           "(" + n(base.value) + " + " + n(steps - inter_steps) + " x " + n(intra.value) + " + " + n(inter_steps) + " x " + n(inter.value) + ")" +
                               (plateau > 1 ? " x 1.4" : "") + " us = " + n(us * 1e-6),
                           {input("base_latency_us", "us", base), input("steps", "", derived_param(steps, all_reduce ? "2 (ranks - 1)" : "ranks - 1")),
                            input("step_latency_us", "us", intra), input("network_steps", "", derived_param(inter_steps, all_reduce ? "2 (nodes - 1)" : "nodes - 1")),
                            input("network_step_latency_us", "us", inter)}};
    });
}

Figure nvls_latency(const NcclCall& call) {
    const double levels = call.nodes > 1 ? std::floor(std::log2(call.nodes)) : 0;
    const double us = kNvlsNvlinkUs + 2 * levels * kNvlsTreeNetUs;
    const Param intra{kNvlsNvlinkUs, InputOrigin::assumption, "hwLat NVLINK NVLS/Simple, " + std::string(kSource)};
    if (call.nodes <= 1)
        return make_figure("nccl_latency_seconds", us * 1e-6, "s", "NVLS latency (the switch reduces: no per-rank steps), " + std::string(kSource),
                           n(kNvlsNvlinkUs) + " us = " + n(us * 1e-6), {input("nvls_latency_us", "us", intra)});
    const Param net{kNvlsTreeNetUs, InputOrigin::assumption, "hwLat NET NVLSTree/Simple, " + std::string(kSource)};
    return make_figure("nccl_latency_seconds", us * 1e-6, "s", "NVLS inside the node + 2 x floor(log2 nodes) x tree latency across nodes (NVLS tree), " + std::string(kSource),
                       n(kNvlsNvlinkUs) + " + 2 x " + n(levels) + " x " + n(kNvlsTreeNetUs) + " us = " + n(us * 1e-6),
                       {input("nvls_latency_us", "us", intra), input("tree_levels", "", derived_param(levels, "floor(log2 nodes)")),
                        input("network_latency_us", "us", net)});
}

}  // namespace

std::string_view to_string(NcclAlgorithm a) { return a == NcclAlgorithm::nvls ? "NVLS" : "ring"; }

std::string_view to_string(NcclProtocol p) {
    switch (p) {
    case NcclProtocol::ll: return "LL";
    case NcclProtocol::ll128: return "LL128";
    case NcclProtocol::simple: break;
    }
    return "Simple";
}

double protocol_bandwidth_share(NcclProtocol p) { return p == NcclProtocol::ll ? 0.5 : p == NcclProtocol::ll128 ? 0.92 : 1.0; }

bool protocol_enabled(NcclAlgorithm a, NcclProtocol p, const NcclCall& call) {
    if (a == NcclAlgorithm::nvls) return p == NcclProtocol::simple;
    if (p == NcclProtocol::simple) return true;
    const bool multi = call.nodes > 1;
    if (!has_ll_latency(call.ranks_per_node > 1 ? call.intra : LinkClass::none) || (multi && !has_ll_latency(call.inter))) return false;
    // LL128 needs NVLink inside the node (tuning.cc: typeIntra <= PATH_NVB).
    return p == NcclProtocol::ll || nvlink_like(call.intra) || call.ranks_per_node <= 1;
}

Figure nccl_latency_seconds(NcclAlgorithm a, NcclProtocol p, const NcclCall& call) {
    return a == NcclAlgorithm::nvls ? nvls_latency(call) : ring_latency(p, call);
}

}  // namespace gpuplan
