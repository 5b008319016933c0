// machine_topology.hpp — what one machine says about its own links: NCCL's topology dump
// (NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS=GRAPH or INIT,GRAPH) or `nvidia-smi topo -m`, read into
// one link graph; what it means in words; how it differs from the catalog's model of the
// instance type; and the planner figures it replaces (docs/topology-import.md).
//
// NCCL prints, for each process, the system it detected ("=== System : maxBw B totalBw T ===",
// then each CPU and what hangs under it: "+ PCI[24.0] - GPU/0-101c0 (0)", "+ NVL[240.0] -
// NVS/0-0", "+ SYS[10.0] - CPU/0-1", up to "=====") and then, per GPU, the path it computed to
// every other node: "GPU/0-101c0 :GPU/0-101d0 (2/240.0/NVL) CPU/0-0 (1/24.0/PHB) ...", each
// entry (hops / bandwidth in GB/s / path type). The path types are NCCL's (src/graph/topo.h):
// LOC, NVL, NVB, C2C, PIX, PXB, PXN, P2C, PHB, SYS, NET, DIS. `nvidia-smi topo -m` gives the
// same path types between GPUs and NICs (its legend: NV#, PIX, PXB, PHB, NODE, SYS) and each
// GPU's CPU and NUMA affinity, but no bandwidths.
//
// The parsers take a string and do no I/O. Lines may carry NCCL's "host:pid:tid [dev] NCCL
// INFO " prefix or none; other lines may be interleaved; several processes' dumps may be
// concatenated (the first process's dump is read; others that disagree with it are named).
// A dump cut short, or without its path lines, comes back marked partial with what is missing.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/measurements/calibration.hpp"
#include "gpuplan/topology/topology.hpp"

namespace gpuplan {

enum class TopologyFormat { nccl_log, nvidia_smi };
std::string_view to_string(TopologyFormat f);  // "NCCL topology log", "nvidia-smi topo -m"

enum class TopoNodeKind { gpu, cpu, nic, net, nvswitch, pci_switch, other };
std::string_view to_string(TopoNodeKind k);  // "GPU", "CPU", "NIC", "NET", "NVSwitch", "PCIe switch", "other"

struct TopoNode {
    TopoNodeKind kind = TopoNodeKind::other;
    std::string name;            // as the source prints it: "GPU/0-101c0", "NIC0", "CPU/0-1"
    std::optional<int> index;    // GPUs: the rank / device number NCCL prints, or smi's GPU<n>
    std::string parent;          // the node it hangs under in the PCIe tree ("" for a CPU or unknown)
    std::string cpu;             // the CPU (socket) it hangs under, "" when unknown
    std::string detail;          // NCCL's parenthesised facts, smi's NIC name ("mlx5_0"), CPU affinity
};

// A link as the tree prints it: `from` is the node it is listed under.
struct TopoLink {
    std::string from, to;
    std::string type;  // NVL, PCI, SYS, NET, C2C, ...
    double gb_per_s = 0;
};

// A path between two nodes as NCCL computed it (or smi's connection type).
struct TopoPath {
    std::string from, to;
    std::string type;                 // LOC, NVL, PIX, PXB, PHB, NODE, SYS, ... ; smi's NV12 -> NVL
    std::optional<int> hops;          // NCCL only
    std::optional<double> gb_per_s;   // NCCL only; nullopt from nvidia-smi (it gives none)
    std::optional<int> nvlinks;       // smi's NV# bonded links
    bool derived = false;             // worked out from the tree, the log had no path line
};

struct MachineTopology {
    TopologyFormat format = TopologyFormat::nccl_log;
    std::string origin;                          // file name, for messages and sources
    std::optional<double> max_gb_per_s, total_gb_per_s;  // NCCL's header
    std::vector<TopoNode> nodes;
    std::vector<TopoLink> links;
    std::vector<TopoPath> paths;                 // from GPUs (and smi's NICs) to other nodes
    bool partial = false;
    std::vector<std::string> missing;            // what a complete import would have, in words
    std::vector<std::string> notes;              // how it was read (processes, lines skipped, ...)

    const TopoNode* find(std::string_view name) const;
    std::vector<const TopoNode*> of_kind(TopoNodeKind kind) const;  // GPUs by index, others in order
    const TopoPath* path(std::string_view from, std::string_view to) const;  // the first; a linear search
};

// path() in O(1), for loops over GPU pairs: MachineTopology::path's linear search inside an n²
// loop made importing a 600-GPU nvidia-smi matrix take minutes (issue 34, H1). Built over a
// topology whose paths only grow while it is used; add_last() indexes a path just appended.
class PathIndex {
public:
    explicit PathIndex(const MachineTopology& topology);
    const TopoPath* find(std::string_view from, std::string_view to) const;  // the first from -> to
    void add_last();  // after topology.paths.push_back(...)

private:
    const MachineTopology* topology_;
    std::unordered_map<std::string, std::size_t> positions_;  // "from\nto" -> position in paths
};

// Throws InputError naming `origin` (and the line) when the text has neither an NCCL topology
// dump nor an nvidia-smi matrix, or when what it has cannot be read.
MachineTopology parse_nccl_topology(std::string_view text, const std::string& origin);
MachineTopology parse_smi_topology(std::string_view text, const std::string& origin);
// Either format, recognised by its content.
MachineTopology import_topology(std::string_view text, const std::string& origin);
// The lines of `text` the import reads (the first process's dump and path lines, without
// NCCL's prefixes; an nvidia-smi matrix as is): what a scenario keeps, so that a shared link
// carries a 2 KB excerpt rather than a whole training log. Imports the same topology.
std::string topology_excerpt(std::string_view text, const std::string& origin);

// What the topology means, in figures and words.
struct GpuPair {
    std::string a, b;        // "GPU 0", "GPU 1"
    TopoPath path;
};
struct TopologySummary {
    int gpus = 0, cpus = 0, nics = 0, nvswitches = 0, pci_switches = 0;
    std::optional<GpuPair> slowest_pair, fastest_pair;   // over GPU pairs with a path
    std::optional<double> gpu_to_cpu_gb_per_s;          // the slowest GPU's path to its own CPU
    std::optional<double> nic_pci_gb_per_s;             // the slowest NIC's PCIe link
    std::optional<double> cross_socket_gb_per_s;        // SYS between CPUs
    std::vector<std::string> facts;                     // one line each: "4 GPUs on one NVSwitch", ...
    std::string bottleneck;                             // the sentence an engineer wants first
};
TopologySummary summarize(const MachineTopology& topology);

// How the imported machine differs from the catalog's model of `instance` (topology.hpp), one
// sentence per difference, and the agreements, so that "no difference" is said too.
struct TopologyComparison {
    std::string instance;
    std::vector<std::string> differences, agreements;
};
TopologyComparison compare_with_catalog(const MachineTopology& topology, const Catalog& catalog, const Instance& instance);

// The planner figures the import gives (per GPU, per direction, GB/s), for `train --topology`
// and the scenario's `topology` section; applied with apply_calibration (calibration.hpp):
//   intra_gb_per_s  the slowest path between two GPUs (a ring over the node's GPUs crosses it)
//   host_gb_per_s   the slowest GPU's path to its CPU (CPU offload)
// nvidia-smi gives no bandwidths, so it gives none (each says why in `skipped`).
BenchCalibration calibration_from_topology(const MachineTopology& topology);

nlohmann::json to_json(const MachineTopology& topology, const TopologySummary& summary,
                       const std::optional<TopologyComparison>& comparison);

}  // namespace gpuplan
