#include "gpuplan/topology/topology.hpp"
#include "gpuplan/calibrated_defaults.hpp"
#include "gpuplan/topology/nccl_latency.hpp"
#include "gpuplan/formula_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "gpuplan/input_error.hpp"

namespace gpuplan {

namespace {

// A derived bandwidth's origin: an assumption if any factor is one, catalog if all are
// catalog facts, otherwise derived (a user's factor went in).
InputOrigin combined_origin(std::initializer_list<const Param*> factors) {
    bool user = false;
    for (const Param* p : factors) {
        if (p->origin == InputOrigin::assumption) return InputOrigin::assumption;
        if (p->origin != InputOrigin::catalog) user = true;
    }
    return user ? InputOrigin::derived : InputOrigin::catalog;
}

Link unknown_link(LinkClass cls, std::string description, std::string reason) {
    Link l;
    l.cls = cls;
    l.gb_per_s = {0, InputOrigin::catalog, "unknown"};
    l.latency_us = default_latency_us(cls);
    l.description = std::move(description);
    l.unknown_reason = reason.empty() ? "not recorded in the catalog" : std::move(reason);
    return l;
}

std::string acc_reason(const Accelerator& a, const std::string& field) {
    const auto it = a.unknown.find(field);
    return it == a.unknown.end() ? "" : it->second;
}

// GPU <-> host PCIe link of one accelerator (also the peer path through the host bridge).
Link pcie_link(const Accelerator* acc, const Param& efficiency) {
    if (!acc) return unknown_link(LinkClass::pcie_host_bridge, "PCIe", "the instance names no accelerator in the catalog");
    if (!acc->pcie_gen || !acc->pcie_lanes) {
        const std::string reason = !acc->pcie_gen ? acc_reason(*acc, "pcie_gen") : acc_reason(*acc, "pcie_lanes");
        return unknown_link(LinkClass::pcie_host_bridge, "PCIe of " + acc->name, acc->name + ": " + (reason.empty() ? "PCIe generation or lanes unknown" : reason));
    }
    const double per_lane = pcie_gb_per_s_per_lane(*acc->pcie_gen);
    if (per_lane == 0)
        return unknown_link(LinkClass::pcie_host_bridge, "PCIe of " + acc->name, "PCIe generation " + n(*acc->pcie_gen) + " has no per-lane rate in gpuplan (3, 4 or 5)");
    const Param facts{*acc->pcie_gen, InputOrigin::catalog, ""};
    const double raw = per_lane * *acc->pcie_lanes;
    Link l;
    l.cls = LinkClass::pcie_host_bridge;
    l.gb_per_s = {raw * efficiency.value, combined_origin({&facts, &efficiency}),
                  "catalog " + acc->name + " PCIe gen" + n(*acc->pcie_gen) + " x" + n(*acc->pcie_lanes) + " = " + n(raw) +
                      " GB/s per direction x pcie efficiency " + n(efficiency.value) + (efficiency.source.empty() ? "" : " (" + efficiency.source + ")")};
    l.latency_us = default_latency_us(LinkClass::pcie_host_bridge);
    l.description = "PCIe gen" + n(*acc->pcie_gen) + " x" + n(*acc->pcie_lanes) + " through the host bridge: " + n(l.gb_per_s.value) + " GB/s per direction";
    return l;
}

void apply(Link& l, const std::optional<Param>& gb_per_s, const std::optional<Param>& latency_us) {
    if (gb_per_s) {
        l.gb_per_s = *gb_per_s;
        if (l.gb_per_s.source.empty()) l.gb_per_s.source = "override (user)";
        l.unknown_reason.clear();
        l.description += "; bandwidth replaced: " + n(gb_per_s->value) + " GB/s (" + l.gb_per_s.source + ")";
    }
    if (latency_us) {
        l.latency_us = *latency_us;
        if (l.latency_us.source.empty()) l.latency_us.source = "override (user)";
    }
}
}  // namespace

std::string_view to_string(LinkClass c) {
    switch (c) {
    case LinkClass::none: return "none";
    case LinkClass::nvlink: return "nvlink";
    case LinkClass::neuronlink: return "neuronlink";
    case LinkClass::pcie_host_bridge: return "pcie_host_bridge";
    case LinkClass::cross_socket: return "cross_socket";
    case LinkClass::efa_gdr: return "efa_gdr";
    case LinkClass::efa_staged: return "efa_staged";
    case LinkClass::ena_tcp: return "ena_tcp";
    case LinkClass::unknown: return "unknown";
    }
    return "?";
}

std::string_view link_words(LinkClass c) {
    switch (c) {
    case LinkClass::none: return "no link";
    case LinkClass::nvlink: return "NVLink";
    case LinkClass::neuronlink: return "NeuronLink";
    case LinkClass::pcie_host_bridge: return "PCIe through the host bridge";
    case LinkClass::cross_socket: return "PCIe across CPU sockets";
    case LinkClass::efa_gdr: return "EFA";
    case LinkClass::efa_staged: return "EFA staged through host memory";
    case LinkClass::ena_tcp: return "ENA TCP";
    case LinkClass::unknown: return "an unknown link";
    }
    return "?";
}

bool Link::measured() const { return gb_per_s.origin == InputOrigin::measured; }

double pcie_gb_per_s_per_lane(double generation) {
    // Per direction, after line encoding (PCI-SIG): gen3 8 GT/s x 128/130 / 8 bits, gen4 16 GT/s,
    // gen5 32 GT/s.
    if (generation == 3) return 0.985;
    if (generation == 4) return 1.969;
    if (generation == 5) return 3.938;
    return 0;
}

Param default_pcie_efficiency() {
    return {0.80, InputOrigin::assumption,
            "default pcie efficiency 0.8: TLP/DLLP protocol overhead; pinned-memory copies commonly reach ~80% of the raw rate "
            "(planning assumption, docs/models.md; replaced by a measured h2d/p2p figure)"};
}
Param default_cross_socket_factor() {
    return {0.5, InputOrigin::assumption,
            "default cross-socket factor 0.5: NCCL does not use PCIe peer-to-peer across the CPU interconnect and stages "
            "through host memory (two copies), halving bandwidth (planning assumption, docs/models.md)"};
}
Param default_efa_staged_efficiency() {
    return {0.6, InputOrigin::assumption,
            "default EFA staged efficiency 0.6: without GPUDirect RDMA every byte crosses PCIe and host memory twice "
            "(planning assumption, docs/models.md; replaced by a measured network figure)"};
}
Param default_ena_tcp_efficiency() {
    return {0.5, InputOrigin::assumption,
            "default ENA TCP efficiency 0.5: NCCL socket transport over TCP, AWS per-flow limits (5 Gbit/s, 10 in a cluster "
            "placement group) need many flows (planning assumption, docs/models.md)"};
}

std::string_view to_string(InterNodeTransport t) {
    switch (t) {
    case InterNodeTransport::automatic: return "auto";
    case InterNodeTransport::efa_gdr: return "efa-gdr";
    case InterNodeTransport::efa: return "efa";
    case InterNodeTransport::tcp: return "tcp";
    }
    return "?";
}

std::optional<InterNodeTransport> parse_inter_node_transport(std::string_view text) {
    for (InterNodeTransport t : {InterNodeTransport::automatic, InterNodeTransport::efa_gdr, InterNodeTransport::efa, InterNodeTransport::tcp})
        if (to_string(t) == text) return t;
    return std::nullopt;
}

Param default_nvlink_efficiency() {
    // NCCL models each NVLink at 20.0 GB/s (A100, SM80), 20.6 (H100, SM90) and 40.1 (Blackwell,
    // SM100) against a 25 / 25 / 50 GB/s per-direction signalling rate (NVIDIA/nccl
    // src/graph/topo.h, SM80_NVLINK_BW ...): 0.80, 0.82, 0.80. Its topology log on p4d agrees:
    // "NVL[240.0]" for 12 links (shared/cases/nccl-logs.md).
    return {0.8, InputOrigin::assumption,
            "default NVLink efficiency 0.8: NCCL's per-link bandwidth (NVIDIA/nccl src/graph/topo.h: 20.0, 20.6, 40.1 GB/s for A100, H100, Blackwell) "
            "over the 25/25/50 GB/s signalling rate; p4d's NCCL log shows NVL 240 GB/s for 300"};
}

Param default_efa_efficiency() {
    const double v = calibrated_value(CalibratedDefault::efa_efficiency);
    if (refit_in_force(CalibratedDefault::efa_efficiency))
        return {v, InputOrigin::assumption, "EFA efficiency " + n(v) + ": refitted by cross-validation without one source (gpuplan validate --cross-validate)"};
    return {v, InputOrigin::assumption,
            "default EFA efficiency 0.84: achieved / line rate, fitted on the calibration case NCCL-P4DE-2 (2 x p4de.24xlarge all-reduce, 2 GiB, "
            "78.33 GB/s bus bandwidth; aws-samples/awsome-distributed-training, docs/accuracy.md)"};
}

Param default_latency_us(LinkClass c) {
    switch (c) {
    case LinkClass::none: return {0, InputOrigin::assumption, "no link"};
    case LinkClass::nvlink:
    case LinkClass::neuronlink:
        return {3.4, InputOrigin::assumption, "default alpha 3.4 us per step: NCCL tuning model hwLat NVLink ring/Simple (src/graph/tuning.cc); NeuronLink assumed alike"};
    case LinkClass::pcie_host_bridge:
        return {5.7, InputOrigin::assumption, "default alpha 5.7 us per step: NCCL tuning model hwLat PCI ring/Simple (src/graph/tuning.cc)"};
    case LinkClass::cross_socket:
        return {11.4, InputOrigin::assumption, "default alpha 11.4 us per step: twice PCIe (staged through host memory; planning assumption)"};
    case LinkClass::efa_gdr:
        return {14.0, InputOrigin::assumption, "default alpha 14 us per step: NCCL tuning model hwLat NET ring/Simple (NVIDIA/nccl src/graph/tuning.cc at 5067397c)"};
    case LinkClass::efa_staged:
        return {28.0, InputOrigin::assumption, "default alpha 28 us per step: twice EFA with GPUDirect (extra host copy; planning assumption)"};
    case LinkClass::ena_tcp:
        return {50, InputOrigin::assumption, "default alpha 50 us per step: kernel TCP stack round trips (planning assumption)"};
    case LinkClass::unknown: return {0, InputOrigin::assumption, "unknown link"};
    }
    return {0, InputOrigin::assumption, ""};
}

namespace {

// NVLink, NVSwitch or NeuronLink between the node's accelerators: the instance's per-accelerator
// figure, else the accelerator's, at the link's efficiency.
Link fabric_link(const Instance& inst, const Accelerator* acc, const TopologyOverrides& o, const std::string& src) {
    const bool neuron = *inst.interconnect == Interconnect::neuronlink;
    const LinkClass cls = neuron ? LinkClass::neuronlink : LinkClass::nvlink;
    const std::string what = std::string(to_string(*inst.interconnect));
    // NVLink carries 80% of its signalling rate in NCCL's own model (below); NeuronLink has
    // no such published figure and keeps its datasheet rate.
    const Param eff = neuron ? Param{1.0, InputOrigin::catalog, "NeuronLink: datasheet rate (no published achieved figure)"}
                             : o.nvlink_efficiency.value_or(default_nvlink_efficiency());
    if (inst.peer_gbit_per_s_per_accelerator) {
        const double raw = *inst.peer_gbit_per_s_per_accelerator / 8 / 2, v = raw * eff.value;
        const Param datasheet{raw, InputOrigin::catalog, src + " peer_gbit_per_s_per_accelerator " + n(*inst.peer_gbit_per_s_per_accelerator) + " Gbit/s (both directions) / 8 / 2"};
        return {cls,
                {v, combined_origin({&datasheet, &eff}), datasheet.source + " x efficiency " + n(eff.value) + " (" + eff.source + ")"},
                default_latency_us(cls),
                what + ": " + n(*inst.peer_gbit_per_s_per_accelerator) + " Gbit/s per accelerator both ways = " + n(raw) + " GB/s per direction x " + n(eff.value) +
                    " = " + n(v) + " GB/s",
                ""};
    }
    if (acc && acc->peer_link_gb_per_s) {
        const double raw = *acc->peer_link_gb_per_s / 2, v = raw * eff.value;
        const Param datasheet{raw, InputOrigin::catalog, "catalog " + acc->name + " peer_link_gb_per_s " + n(*acc->peer_link_gb_per_s) + " GB/s (both directions) / 2"};
        return {cls, {v, combined_origin({&datasheet, &eff}), datasheet.source + " x efficiency " + n(eff.value) + " (" + eff.source + ")"},
                default_latency_us(cls), what + " (accelerator figure; the instance has none): " + n(raw) + " x " + n(eff.value) + " = " + n(v) + " GB/s per direction", ""};
    }
    return unknown_link(cls, what, inst.unknown_reason("peer_gbit_per_s_per_accelerator"));
}

// PCIe GPUs: the host bridge, and with 8 or more an assumed crossing between two CPU sockets.
Link pcie_peer_link(const NodeTopology& t, const Link& pcie, const TopologyOverrides& o, std::vector<std::string>& notes) {
    if (t.gpus < 8) return pcie;
    const Param factor = o.cross_socket_factor.value_or(default_cross_socket_factor());
    Link x = pcie;
    x.cls = LinkClass::cross_socket;
    x.latency_us = default_latency_us(LinkClass::cross_socket);
    if (pcie.known()) {
        x.gb_per_s = {pcie.gb_per_s.value * factor.value, combined_origin({&pcie.gb_per_s, &factor}),
                      pcie.gb_per_s.source + " x cross-socket factor " + n(factor.value) + " (" + factor.source + ")"};
        x.description = "PCIe across the two CPU sockets: " + n(pcie.gb_per_s.value) + " x " + n(factor.value) + " = " + n(x.gb_per_s.value) + " GB/s per direction";
    }
    notes.push_back("assumed two CPU sockets (" + n(t.gpus) + " PCIe GPUs): GPUs on one socket reach each other through the PCIe host bridge, "
                    "a ring over all of them crosses the sockets (the bottleneck inside the node)");
    return x;
}

// NVLink SHARP on Hopper and Blackwell NVSwitch nodes (compute capability sm_90 and up).
std::optional<Param> nvls_efficiency_of(const Instance& inst, const Accelerator* acc, LinkClass intra) {
    if (!(inst.interconnect && *inst.interconnect == Interconnect::nvswitch && acc && acc->compute_capability && intra == LinkClass::nvlink)) return std::nullopt;
    const std::string& cc = *acc->compute_capability;  // "sm_90"
    const int sm = cc.size() > 3 ? std::atoi(cc.c_str() + 3) : 0;
    if (sm < 90) return std::nullopt;
    return Param{sm >= 100 ? 0.74 : 0.85, InputOrigin::assumption,
                 std::string("NVLS efficiency ") + (sm >= 100 ? "0.74 (Blackwell)" : "0.85 (Hopper)") + ": NCCL's tuning model, nvlsEfficiency (NVIDIA/nccl src/graph/tuning.cc)"};
}

// What the instance's network offers between nodes, and the class the request asks for.
struct InterNodeChoice {
    bool efa = false, gdr = false, neuron = false;
    LinkClass cls = LinkClass::none;
};
InterNodeChoice inter_node_choice(const Instance& inst, const Accelerator* acc, InterNodeTransport transport) {
    InterNodeChoice c;
    c.neuron = acc && (acc->kind == AcceleratorKind::trainium || acc->kind == AcceleratorKind::inferentia);
    c.efa = (inst.efa_interfaces && *inst.efa_interfaces > 0) ||
            (!inst.efa_interfaces && inst.unknown_reason("efa_interfaces").find("EFA supported") != std::string::npos);
    c.gdr = inst.gpudirect_rdma.value_or(false) || (c.neuron && c.efa);
    c.cls = !c.efa ? LinkClass::ena_tcp : c.gdr ? LinkClass::efa_gdr : LinkClass::efa_staged;
    switch (transport) {
    case InterNodeTransport::automatic: break;
    case InterNodeTransport::tcp: c.cls = LinkClass::ena_tcp; break;
    case InterNodeTransport::efa:
        if (!c.efa) throw InputError("inter_node_transport", "\"efa\"", "a transport " + inst.name + " has: it has no EFA (tcp, or auto)");
        c.cls = LinkClass::efa_staged;
        break;
    case InterNodeTransport::efa_gdr:
        if (!c.efa || !c.gdr)
            throw InputError("inter_node_transport", "\"efa-gdr\"",
                             "a transport " + inst.name + " has: " +
                                 (!c.efa ? std::string("it has no EFA (tcp, or auto)")
                                         : "GPUDirect RDMA over EFA is not " + std::string(inst.gpudirect_rdma ? "supported" : "established") + " on it (efa, tcp, or auto)"));
        break;
    }
    return c;
}

// Per GPU, to other nodes: the line rate shared by the node's GPUs, at the transport's efficiency.
Link inter_node_link(const Instance& inst, const InterNodeChoice& c, const TopologyOverrides& o, double gpus, const std::string& src) {
    const LinkClass inter_cls = c.cls;
    const double share = std::max(gpus, 1.0);
    if (!inst.network_gbit_per_s) return unknown_link(inter_cls, std::string(link_words(inter_cls)), inst.unknown_reason("network_gbit_per_s"));
    // EFA carries a fitted share of its line rate (default_efa_efficiency); TCP over ENA
    // has its own factor against the line rate.
    const Param wire_eff = inter_cls == LinkClass::ena_tcp ? Param{1.0, InputOrigin::catalog, "line rate"} : o.efa_efficiency.value_or(default_efa_efficiency());
    const double line = *inst.network_gbit_per_s / 8 / share;
    const Param net{line * wire_eff.value, inter_cls == LinkClass::ena_tcp ? InputOrigin::catalog : wire_eff.origin,
                    src + " network_gbit_per_s " + n(*inst.network_gbit_per_s) + " / 8 / " + n(share) + " accelerators" +
                        (inter_cls == LinkClass::ena_tcp ? std::string() : " x EFA efficiency " + n(wire_eff.value) + " (" + wire_eff.source + ")")};
    const std::string base = n(*inst.network_gbit_per_s) + " Gbit/s / 8 / " + n(share) + " GPUs" +
                             (inter_cls == LinkClass::ena_tcp ? std::string() : " x " + n(wire_eff.value)) + " = " + n(net.value) + " GB/s per GPU";
    Link l{inter_cls, net, default_latency_us(inter_cls), "", ""};
    if (inter_cls == LinkClass::efa_gdr) {
        l.description = (c.neuron ? "EFA with RDMA to Neuron device memory: " : "EFA with GPUDirect RDMA: ") + base;
        return l;
    }
    const Param eff = inter_cls == LinkClass::efa_staged ? o.efa_staged_efficiency.value_or(default_efa_staged_efficiency())
                                                         : o.ena_tcp_efficiency.value_or(default_ena_tcp_efficiency());
    l.gb_per_s = {net.value * eff.value, combined_origin({&net, &eff}), net.source + " x efficiency " + n(eff.value) + " (" + eff.source + ")"};
    const std::string why = inter_cls == LinkClass::ena_tcp ? (c.efa ? "TCP over ENA (chosen: inter_node_transport tcp)" : "no EFA: ENA TCP")
                            : o.transport == InterNodeTransport::efa ? "EFA staged through host memory (chosen: inter_node_transport efa)"
                            : inst.gpudirect_rdma ? "EFA without GPUDirect RDMA (not supported), staged through host memory"
                                                  : "EFA, GPUDirect RDMA not established (" + inst.unknown_reason("gpudirect_rdma") + "), staged through host memory";
    l.description = why + ": " + base + " x " + n(eff.value) + " = " + n(l.gb_per_s.value) + " GB/s";
    return l;
}

// Measured figures replace the datasheet ones; then every link class once: the host's PCIe
// link (GPUs on one socket also peer over it), the link inside the node (it replaces the host
// entry when it is the same class), and the link across nodes.
void apply_measured(NodeTopology& t, const TopologyOverrides& o) {
    apply(t.intra, o.intra_gb_per_s, o.intra_latency_us);
    // A measured intra-node figure is a collective's bus bandwidth as NCCL ran it (NVLS
    // included): the ring formula over it reproduces the measurement, so NVLS is not added again.
    if (o.intra_gb_per_s && t.nvls_efficiency) {
        t.nvls_efficiency.reset();
        t.notes.push_back("NVLS not applied on top of the measured intra-node bandwidth (a measured bus bandwidth already includes it)");
    }
    apply(t.inter, o.inter_gb_per_s, o.inter_latency_us);
    apply(t.host, o.host_gb_per_s, std::nullopt);
    t.links = {t.host};
    if (t.intra.cls == LinkClass::pcie_host_bridge) t.links[0] = t.intra;
    else if (t.intra.cls != LinkClass::none) t.links.push_back(t.intra);
    t.links.push_back(t.inter);
}

}  // namespace

NodeTopology node_topology(const Catalog& catalog, const Instance& inst, const TopologyOverrides& o) {
    NodeTopology t;
    t.instance = inst.name;
    t.gpus = inst.accelerator_count.value_or(0);
    const Accelerator* acc = inst.accelerator ? catalog.find_accelerator(*inst.accelerator) : nullptr;
    const Param pcie_eff = o.pcie_efficiency.value_or(default_pcie_efficiency());
    const std::string src = "catalog " + inst.name;

    // GPU <-> host.
    t.host = pcie_link(acc, pcie_eff);

    // Inside the node.
    if (t.gpus <= 1)
        t.intra = Link{LinkClass::none, {0, InputOrigin::catalog, src + ": one accelerator or less"}, default_latency_us(LinkClass::none),
                       "one accelerator (or a slice of one): no peer traffic", ""};
    else if (!inst.interconnect)
        t.intra = unknown_link(LinkClass::unknown, "peer interconnect", inst.unknown_reason("interconnect"));
    else if (*inst.interconnect == Interconnect::nvswitch || *inst.interconnect == Interconnect::nvlink || *inst.interconnect == Interconnect::neuronlink)
        t.intra = fabric_link(inst, acc, o, src);
    else
        t.intra = pcie_peer_link(t, pcie_link(acc, pcie_eff), o, t.notes);
    t.nvls_efficiency = nvls_efficiency_of(inst, acc, t.intra.cls);

    // Across nodes.
    const InterNodeChoice choice = inter_node_choice(inst, acc, o.transport);
    t.inter = inter_node_link(inst, choice, o, t.gpus, src);
    t.multi_node_capable = choice.efa;
    if (o.transport != InterNodeTransport::automatic)
        t.notes.push_back("between nodes: " + std::string(link_words(choice.cls)) + ", as chosen (inter-node transport " + std::string(to_string(o.transport)) + ")");
    if (!choice.efa) t.notes.push_back("no EFA: collectives across nodes run over TCP on ENA (NCCL socket transport); multi-node training is possible but slow");
    if (choice.cls == LinkClass::efa_staged) t.notes.push_back("EFA without established GPUDirect RDMA: treated as staged through host memory");
    apply_measured(t, o);
    return t;
}

namespace {

// Sum of phase figures (all known), inputs are the phases.
Figure phases_sum(std::string name, const std::vector<Figure>& phases, const std::vector<std::string>& labels) {
    Figure f;
    f.name = std::move(name);
    f.unit = "s";
    double v = 0;
    if (!explaining()) {
        for (const Figure& phase : phases) v += *phase.value;
        f.value = v;
        return f;
    }
    std::string formula, worked;
    for (std::size_t i = 0; i < phases.size(); ++i) {
        v += *phases[i].value;
        formula += (i ? " + " : "") + labels[i];
        worked += (i ? " + " : "") + n(*phases[i].value);
        f.inputs.push_back(phases[i].as_input(labels[i] + ": " + phases[i].worked));
    }
    f.value = v;
    f.formula = phases.empty() ? "0 (one rank: no traffic)" : formula;
    f.worked = (phases.empty() ? "0" : worked) + " = " + n(v);
    return f;
}
}  // namespace

void use_gpus_of_node(NodeTopology& t, double gpus) {
    if (gpus >= t.gpus) return;
    if (t.intra.cls == LinkClass::cross_socket && gpus <= t.gpus / 2 && !t.links.empty() && t.links[0].cls == LinkClass::pcie_host_bridge) {
        t.intra = t.links[0];
        std::erase_if(t.notes, [](const std::string& note) { return note.find("a ring over all of them crosses the sockets") != std::string::npos; });
        t.notes.push_back(format_number(gpus) + " of the " + format_number(t.gpus) + " GPUs per node: one socket's GPUs, which peer through the host bridge");
    } else {
        t.notes.push_back(format_number(gpus) + " of the " + format_number(t.gpus) + " GPUs per node");
    }
    if (gpus <= 1) t.intra = Link{LinkClass::none, {0, InputOrigin::user, "one GPU per node"}, default_latency_us(LinkClass::none), "one GPU per node: no peer traffic", ""};
    t.gpus = gpus;
}

namespace {

// NVLS: each GPU sends its whole buffer to the switch, which reduces it (S out), takes back its
// reduced 1/g shard (S/g in), then writes that shard once for the switch to multicast (S/g out,
// S in): S (1 + 1/g) per direction, against a ring's 2 (g-1)/g S.
Figure nvls_phase(double bytes, const NodeTopology& t, double g, const Param& alpha) {
    const Param& eff = *t.nvls_efficiency;
    const double v = (1 + 1 / g) * bytes / (t.intra.gb_per_s.value * eff.value * 1e9) + 2 * alpha.value * 1e-6;
    return explained_figure("nvls_all_reduce_seconds", v, "s", [&] {
        return Explanation{"(1 + 1/g) x S / (B x nvls_efficiency) + 2 alpha (NVLink SHARP: the switch reduces)",
                           "(1 + 1/" + n(g) + ") x " + n(bytes) + " / (" + n(t.intra.gb_per_s.value) + "e9 x " + n(eff.value) + ") + 2 x " + n(alpha.value) + "e-6 = " + n(v),
                           {input("bytes", "bytes", {bytes, InputOrigin::user, ""}), input("bandwidth_gb_per_s", "GB/s", t.intra.gb_per_s),
                            input("nvls_efficiency", "fraction", eff), input("latency_us", "us", alpha)}};
    });
}

// One algorithm's phases inside and across nodes, summed (each a Figure; unknown links give
// unknown sums).
struct Phases {
    Figure intra, inter;
};

struct PhaseBuilder {
    Collective kind;
    double bytes, g, nodes;
    const NodeTopology& t;
    bool nccl;  // latency charged once per call: the phases carry bandwidth only

    Param alpha(const Link& l) const { return nccl ? Param{0, InputOrigin::derived, "latency charged once per call (NCCL tuning model)"} : l.latency_us; }
    Figure on(Collective k, double s, double ranks, const Link& l) const { return collective_seconds(k, s, ranks, l.gb_per_s, alpha(l)); }

    Phases build(bool nvls) const {
        const std::string kname(to_string(kind));
        // The phases' labels are their explanation's words (phases_sum).
        const std::string in_where = explaining() ? " inside the node over " + std::string(link_words(t.intra.cls)) + " (" + n(g) + " ranks)" : "";
        const std::string out_where = explaining() ? " across " + n(nodes) + " nodes over " + std::string(link_words(t.inter.cls)) : "";
        std::vector<Figure> in, out;
        std::vector<std::string> in_labels, out_labels;
        Phases p;
        if (g > 1 && !t.intra.known()) {
            p.intra = unknown_figure("intra_node_seconds", "s", "", "link inside " + t.instance + " unknown: " + t.intra.unknown_reason);
        } else if (g > 1) {
            if (nvls) in = {nvls_phase(bytes, t, g, alpha(t.intra))}, in_labels = {"NVLS all-reduce of S" + in_where};
            else if (kind == Collective::all_reduce && nodes <= 1) in = {on(Collective::all_reduce, bytes, g, t.intra)}, in_labels = {"all-reduce of S" + in_where};
            else if (kind == Collective::all_reduce)
                in = {on(Collective::reduce_scatter, bytes, g, t.intra), on(Collective::all_gather, bytes, g, t.intra)},
                in_labels = {"reduce-scatter of S" + in_where, "all-gather of S" + in_where};
            else if (kind == Collective::all_to_all) in = {on(kind, bytes / nodes, g, t.intra)}, in_labels = {"all-to-all of S / N" + in_where};
            else in = {on(kind, bytes, g, t.intra)}, in_labels = {kname + " of S" + in_where};
        }
        if (nodes > 1 && !t.inter.known()) {
            p.inter = unknown_figure("inter_node_seconds", "s", "", "link between " + t.instance + " nodes unknown: " + t.inter.unknown_reason);
        } else if (nodes > 1) {
            if (kind == Collective::all_to_all) out = {on(kind, bytes, nodes, t.inter)}, out_labels = {"all-to-all of S" + out_where};
            else out = {on(kind, bytes / g, nodes, t.inter)}, out_labels = {kname + " of S / g" + out_where};
        }
        if (p.intra.unknown_reason.empty()) p.intra = phases_sum("intra_node_seconds", in, in_labels);
        if (p.inter.unknown_reason.empty()) p.inter = phases_sum("inter_node_seconds", out, out_labels);
        return p;
    }
};

// The algorithm and protocol NCCL would run: the fastest of latency + bandwidth time.
struct Choice {
    NcclAlgorithm algorithm = NcclAlgorithm::ring;
    NcclProtocol protocol = NcclProtocol::simple;
    Figure latency;
    double seconds = 0;
};

Choice fastest_nccl(const Phases& ring, const std::optional<Phases>& nvls, const NcclCall& call) {
    std::optional<Choice> best;
    for (NcclAlgorithm a : {NcclAlgorithm::ring, NcclAlgorithm::nvls}) {
        const Phases* p = a == NcclAlgorithm::nvls ? (nvls ? &*nvls : nullptr) : &ring;
        if (!p) continue;
        const double bandwidth_seconds = std::max(*p->intra.value, *p->inter.value);
        for (NcclProtocol proto : {NcclProtocol::ll, NcclProtocol::ll128, NcclProtocol::simple}) {
            if (!protocol_enabled(a, proto, call)) continue;
            Figure lat = nccl_latency_seconds(a, proto, call);
            const double v = bandwidth_seconds / protocol_bandwidth_share(proto) + *lat.value;
            if (!best || v < best->seconds) best = Choice{a, proto, std::move(lat), v};
        }
    }
    return *best;
}

}  // namespace

CollectiveCost hierarchical_collective(Collective kind, double bytes, const NodeTopology& t, double g, double nodes, CollectiveLatency latency) {
    if (g < 1 || g > std::max(t.gpus, 1.0)) throw InputError("ranks_per_node", n(g), "1 to the " + n(t.gpus) + " accelerators of " + t.instance);
    if (nodes < 1) throw InputError("nodes", n(nodes), ">= 1");
    CollectiveCost c;
    c.intra_class = g > 1 ? t.intra.cls : LinkClass::none;
    c.inter_class = nodes > 1 ? t.inter.cls : LinkClass::none;
    const std::string kname(to_string(kind));
    const bool nccl = latency == CollectiveLatency::nccl_tuning_model;
    const PhaseBuilder builder{kind, bytes, g, nodes, t, nccl};
    const Phases ring = builder.build(false);
    const bool nvls_possible = kind == Collective::all_reduce && t.nvls_efficiency && g > 1 && t.intra.known();
    std::optional<Phases> nvls = nvls_possible ? std::optional<Phases>(builder.build(true)) : std::nullopt;
    const std::string total_name = "hierarchical_" + kname + "_seconds";
    if (!ring.intra.value || !ring.inter.value) {
        c.intra_seconds = ring.intra, c.inter_seconds = ring.inter;
        c.seconds = unknown_figure(total_name, "s", "", !ring.intra.value ? ring.intra.unknown_reason : ring.inter.unknown_reason);
        c.bottleneck = !ring.intra.value ? t.intra.cls : t.inter.cls;
        c.bottleneck_text = "unknown: " + c.seconds.unknown_reason;
        return c;
    }
    std::optional<Choice> choice;
    if (nccl) {
        choice = fastest_nccl(ring, nvls, {kind, g, nodes, c.intra_class, c.inter_class, t.intra.latency_us, t.inter.latency_us});
    } else if (nvls && *nvls->intra.value >= *ring.intra.value) {
        nvls.reset();  // a per-step alpha: NVLS where it is faster, as before
    }
    const Phases& used = (choice ? choice->algorithm == NcclAlgorithm::nvls : nvls.has_value()) ? *nvls : ring;
    c.intra_seconds = used.intra, c.inter_seconds = used.inter;
    // NCCL pipelines a collective that spans nodes: the buffer goes in chunks, and while one
    // chunk crosses the network the next moves over NVLink, so the slower of the two segments
    // sets the pace rather than their sum (NCCL's rings and trees span nodes and stream chunks
    // through every hop: Jeaugey, "Massively Scale Your Deep Learning Training with NCCL 2.4",
    // NVIDIA technical blog, 2019).
    const double a = *c.intra_seconds.value, b = *c.inter_seconds.value, pace = std::max(a, b);
    if (pace > 0) {
        const bool inter_worse = b > a;
        c.bottleneck = inter_worse ? c.inter_class : c.intra_class;
        c.bottleneck_text = std::string(inter_worse ? "across nodes over " : "inside the node over ") + std::string(link_words(c.bottleneck)) +
                            (a > 0 && b > 0 ? ": sets the pace; the other segment runs at the same time (" + n(std::round(100 * std::min(a, b) / pace)) + "% of it)"
                                            : ": all of the " + kname);
    } else {
        c.bottleneck_text = "no traffic (one rank)";
    }
    const std::string run = choice ? std::string(to_string(choice->algorithm)) + "/" + std::string(to_string(choice->protocol)) : "";
    if (choice && pace > 0) c.bottleneck_text += "; NCCL's " + run;
    if (!explaining()) {
        c.seconds = Figure{.name = total_name, .value = choice ? choice->seconds : pace, .unit = "s"};
        return c;
    }
    const std::string shape = "S = " + n(bytes) + " bytes, g = " + n(g) + ", N = " + n(nodes);
    if (!choice) {
        c.seconds = {total_name, pace, "s", "max(inside the node, across nodes): pipelined hierarchical " + kname + ", alpha-beta ring phases; " + shape,
                     "max(" + n(a) + ", " + n(b) + ") = " + n(pace) + "; bottleneck: " + c.bottleneck_text,
                     {c.intra_seconds.as_input(c.intra_seconds.formula), c.inter_seconds.as_input(c.inter_seconds.formula)}, ""};
        return c;
    }
    const double share = protocol_bandwidth_share(choice->protocol), lat = *choice->latency.value;
    c.seconds = {total_name, choice->seconds, "s",
                 "max(inside the node, across nodes) / protocol bandwidth share + NCCL latency: pipelined hierarchical " + kname + " as " + run +
                     ", the fastest algorithm and protocol by NCCL's tuning model; " + shape,
                 "max(" + n(a) + ", " + n(b) + ") / " + n(share) + " + " + n(lat) + " = " + n(choice->seconds) + "; bottleneck: " + c.bottleneck_text,
                 {c.intra_seconds.as_input(c.intra_seconds.formula), c.inter_seconds.as_input(c.inter_seconds.formula),
                  input("protocol_bandwidth_share", "fraction", {share, InputOrigin::assumption, std::string(to_string(choice->protocol)) + ": NCCL tuning model (src/graph/tuning.cc)"}),
                  choice->latency.as_input(choice->latency.worked)},
                 ""};
    return c;
}

Figure hierarchical_all_reduce_seconds(double bytes, const NodeTopology& t, double nodes) {
    return hierarchical_collective(Collective::all_reduce, bytes, t, std::max(t.gpus, 1.0), nodes).seconds;
}
Figure hierarchical_all_gather_seconds(double bytes, const NodeTopology& t, double nodes) {
    return hierarchical_collective(Collective::all_gather, bytes, t, std::max(t.gpus, 1.0), nodes).seconds;
}
Figure hierarchical_reduce_scatter_seconds(double bytes, const NodeTopology& t, double nodes) {
    return hierarchical_collective(Collective::reduce_scatter, bytes, t, std::max(t.gpus, 1.0), nodes).seconds;
}

}  // namespace gpuplan
