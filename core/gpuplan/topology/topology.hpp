// topology.hpp — the link graph of one EC2 instance type, and collectives that cross it.
//
// Derived from catalog facts only (Instance + Accelerator); every default is a documented
// assumption (docs/models.md, "Topology"). Bandwidths are per GPU, per direction, in GB/s
// (10^9 bytes/s); latencies (alpha of the alpha-beta model) in microseconds per ring step.
//
// Link classes:
//   nvlink            NVLink / NVSwitch: peer_gbit_per_s_per_accelerator / 8 / 2 x 0.8 (NCCL's figure)
//   neuronlink        Trainium / Inferentia NeuronLink, same rule on its peer figure
//   pcie_host_bridge  PCIe peer traffic through the host bridge: gen x lanes x per-lane rate
//                     x pcie efficiency (also the GPU <-> host link used by CPU offload)
//   cross_socket      a ring over >= 8 PCIe GPUs crosses the two CPU sockets: pcie x penalty
//   efa_gdr           EFA with GPUDirect RDMA: network_gbit_per_s / 8 / GPUs in the node x 0.84
//                     (fitted on a calibration case, docs/accuracy.md)
//   efa_staged        EFA without (established) GPUDirect RDMA: the same x staged efficiency
//   ena_tcp           no EFA: network / 8 / GPUs x TCP efficiency
// A fact the catalog does not know (PCIe generation, network rate) gives a link whose
// bandwidth is unknown, with the reason; never an invented number.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/explain.hpp"
#include "gpuplan/workload/compute.hpp"

namespace gpuplan {

enum class LinkClass { none, nvlink, neuronlink, pcie_host_bridge, cross_socket, efa_gdr, efa_staged, ena_tcp, unknown };
std::string_view to_string(LinkClass c);
// "NVLink", "PCIe through the host bridge", "EFA", ... for sentences.
std::string_view link_words(LinkClass c);

struct Link {
    LinkClass cls = LinkClass::none;
    Param gb_per_s;              // per GPU, per direction, GB/s; 0 when none or unknown
    Param latency_us;            // alpha per ring step
    std::string description;     // how the figure was derived, in words
    std::string unknown_reason;  // non-empty: the bandwidth is unknown (and why)
    bool known() const { return unknown_reason.empty(); }
    bool measured() const;       // bandwidth came from a measured override
};

struct NodeTopology {
    std::string instance;
    double gpus = 0;                 // accelerators in one node (fractional for g6f slices)
    Link intra;                      // the slowest link a ring over all GPUs of the node crosses
    Link inter;                      // per GPU, to other nodes
    Link host;                       // GPU <-> host memory (PCIe), used by CPU offload
    std::vector<Link> links;         // every link class present in the node's graph
    bool multi_node_capable = false; // EFA present (ENA TCP works, but slowly: see notes)
    // NVLink SHARP: the NVSwitch reduces all-reduce traffic itself (Hopper and later on
    // NVSwitch; NCCL 2.17+ uses it inside a node). Its efficiency when present.
    std::optional<Param> nvls_efficiency;
    std::vector<std::string> notes;
};

// How nodes talk: auto (what the instance supports: EFA with GPUDirect RDMA, else EFA staged
// through host memory, else TCP over ENA), or one of them chosen (a cluster without the EFA
// plugin, a container without GPUDirect). Choosing one the instance lacks is an error.
enum class InterNodeTransport { automatic, efa_gdr, efa, tcp };
std::string_view to_string(InterNodeTransport t);  // "auto", "efa-gdr", "efa", "tcp"
std::optional<InterNodeTransport> parse_inter_node_transport(std::string_view text);

// Calibration and what-ifs: a given Param replaces the derived figure as is. Use measured_param() (explain.hpp)
// for a benchmark result so the output says "measured ...".
struct TopologyOverrides {
    std::optional<Param> intra_gb_per_s, intra_latency_us;
    std::optional<Param> inter_gb_per_s, inter_latency_us;
    std::optional<Param> host_gb_per_s;  // GPU <-> host PCIe (also same-socket peers when the ring crosses sockets)
    std::optional<Param> pcie_efficiency, cross_socket_factor, efa_staged_efficiency, ena_tcp_efficiency, nvlink_efficiency, efa_efficiency;
    InterNodeTransport transport = InterNodeTransport::automatic;

    // Anything above given (a field added above belongs here too).
    bool any() const {
        return intra_gb_per_s || intra_latency_us || inter_gb_per_s || inter_latency_us || host_gb_per_s || pcie_efficiency || cross_socket_factor ||
               efa_staged_efficiency || ena_tcp_efficiency || nvlink_efficiency || efa_efficiency || transport != InterNodeTransport::automatic;
    }
};

// Documented defaults (docs/models.md), each an InputOrigin::assumption Param.
double pcie_gb_per_s_per_lane(double generation);      // 0 for an unknown generation
Param default_pcie_efficiency();       // achieved / raw PCIe payload rate
Param default_nvlink_efficiency();     // NCCL's NVLink bandwidth / signalling rate
Param default_efa_efficiency();        // achieved / line rate of EFA (fitted on a calibration case)
Param default_cross_socket_factor();   // cross-socket / same-socket PCIe peer bandwidth
Param default_efa_staged_efficiency(); // EFA through host bounce buffers vs GPUDirect RDMA
Param default_ena_tcp_efficiency();    // NCCL socket transport over ENA vs line rate
Param default_latency_us(LinkClass c);

// Only `gpus` of the node's accelerators take part (a pod, a partial job): a ring over half
// of 8 PCIe GPUs or fewer stays on one socket (the host bridge, not the socket link); the
// network share per GPU is unchanged (each GPU keeps the NIC it sits next to).
void use_gpus_of_node(NodeTopology& topology, double gpus);

// Throws InputError at "inter_node_transport" for a transport the instance lacks.
NodeTopology node_topology(const Catalog& catalog, const Instance& instance, const TopologyOverrides& overrides = {});

// A collective over `ranks_per_node` GPUs in each of `nodes` nodes, built from
// collective_seconds (W5); the phases inside and across nodes run pipelined, so the time is
// the larger of the two (max, not their sum):
//   all-reduce      reduce-scatter inside (S) + all-reduce across nodes (S / g) + all-gather inside (S)
//   all-gather      all-gather across nodes (S / g) + all-gather inside (S)
//   reduce-scatter  reduce-scatter inside (S) + reduce-scatter across nodes (S / g)
//   all-to-all      inside (S / N over g ranks) + across nodes (S over N ranks)
// S is the full buffer per GPU in bytes; g = ranks_per_node, N = nodes.
struct CollectiveCost {
    Figure seconds;          // max(intra, inter): pipelined
    Figure intra_seconds;    // phases inside the node
    Figure inter_seconds;    // phases across nodes
    LinkClass intra_class = LinkClass::none, inter_class = LinkClass::none;
    LinkClass bottleneck = LinkClass::none;  // the class of the slower part
    std::string bottleneck_text;             // "across nodes over EFA (efa_gdr): 82% of the all-reduce"
};
// How a call's latency is charged. nccl_tuning_model: NCCL's base and per-step latencies, once
// per call, for the algorithm (ring, NVLS) and protocol (LL, LL128, Simple) its tuning model
// picks as fastest (nccl_latency.hpp); what nccl-tests and training's collectives run.
// per_step_alpha: the link's alpha per ring step inside each phase, Simple protocol only; the
// serving engines' tensor-parallel all-reduces use it (their own all-reduce kernels, not NCCL's
// tuning, decide their latency; issue 29's per-engine model will replace it).
enum class CollectiveLatency { nccl_tuning_model, per_step_alpha };
CollectiveCost hierarchical_collective(Collective kind, double bytes, const NodeTopology& topology, double ranks_per_node,
                                       double nodes, CollectiveLatency latency = CollectiveLatency::nccl_tuning_model);

// All ranks of every node take part (ranks_per_node = topology.gpus); the worked line names
// the bottleneck link.
Figure hierarchical_all_reduce_seconds(double bytes, const NodeTopology& topology, double nodes);
Figure hierarchical_all_gather_seconds(double bytes, const NodeTopology& topology, double nodes);
Figure hierarchical_reduce_scatter_seconds(double bytes, const NodeTopology& topology, double nodes);

}  // namespace gpuplan
