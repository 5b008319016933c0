// machine_topology.cpp — an imported topology in words, against the catalog, and as planner
// figures (machine_topology.hpp). The parsers are in nccl_topology.cpp and smi_topology.cpp.
#include "gpuplan/topology/machine_topology.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "gpuplan/text.hpp"

namespace gpuplan {

std::string_view to_string(TopologyFormat f) { return f == TopologyFormat::nccl_log ? "NCCL topology log" : "nvidia-smi topo -m"; }

std::string_view to_string(TopoNodeKind k) {
    switch (k) {
        case TopoNodeKind::gpu: return "GPU";
        case TopoNodeKind::cpu: return "CPU";
        case TopoNodeKind::nic: return "NIC";
        case TopoNodeKind::net: return "NET";
        case TopoNodeKind::nvswitch: return "NVSwitch";
        case TopoNodeKind::pci_switch: return "PCIe switch";
        case TopoNodeKind::other: break;
    }
    return "other";
}

const TopoNode* MachineTopology::find(std::string_view name) const {
    for (const TopoNode& n : nodes)
        if (n.name == name) return &n;
    return nullptr;
}

std::vector<const TopoNode*> MachineTopology::of_kind(TopoNodeKind kind) const {
    std::vector<const TopoNode*> out;
    for (const TopoNode& n : nodes)
        if (n.kind == kind) out.push_back(&n);
    if (kind == TopoNodeKind::gpu)
        std::stable_sort(out.begin(), out.end(), [](const TopoNode* a, const TopoNode* b) { return a->index.value_or(1 << 20) < b->index.value_or(1 << 20); });
    return out;
}

const TopoPath* MachineTopology::path(std::string_view from, std::string_view to) const {
    for (const TopoPath& p : paths)
        if (p.from == from && p.to == to) return &p;
    return nullptr;
}

namespace {
std::string path_key(std::string_view from, std::string_view to) { return std::string(from) + '\n' + std::string(to); }
}  // namespace

PathIndex::PathIndex(const MachineTopology& topology) : topology_(&topology) {
    positions_.reserve(topology.paths.size());
    for (std::size_t k = 0; k < topology.paths.size(); ++k)
        positions_.emplace(path_key(topology.paths[k].from, topology.paths[k].to), k);  // emplace keeps the first
}

void PathIndex::add_last() {
    const std::size_t k = topology_->paths.size() - 1;
    positions_.emplace(path_key(topology_->paths[k].from, topology_->paths[k].to), k);
}

const TopoPath* PathIndex::find(std::string_view from, std::string_view to) const {
    const auto it = positions_.find(path_key(from, to));
    return it == positions_.end() ? nullptr : &topology_->paths[it->second];
}

namespace {

std::string gpu_label(const TopoNode& n) { return n.index ? "GPU " + std::to_string(*n.index) : n.name; }

std::string gbps(double v) { return format_number(v) + " GB/s"; }

// A path type in words, for sentences (NCCL src/graph/topo.h; nvidia-smi's legend).
std::string path_words(const TopoPath& p) {
    if (p.type == "NVL") return p.nvlinks ? "over " + std::to_string(*p.nvlinks) + " bonded NVLinks (NV" + std::to_string(*p.nvlinks) + ")" : "over NVLink (NVL)";
    if (p.type == "NVB") return "over NVLink through another GPU (NVB)";
    if (p.type == "C2C") return "over the chip-to-chip link (C2C)";
    if (p.type == "PIX") return "through one PCIe switch (PIX)";
    if (p.type == "PXB") return "through several PCIe switches (PXB)";
    if (p.type == "PXN") return "through another GPU's PCIe switch (PXN)";
    if (p.type == "PHB") return "through the PCIe host bridge (PHB)";
    if (p.type == "NODE") return "between PCIe host bridges of one CPU socket (NODE)";
    if (p.type == "SYS") return "across CPU sockets (SYS)";
    return "over " + p.type;
}

// Better paths first when the source gives no bandwidth (nvidia-smi).
int type_rank(const TopoPath& p) {
    static const std::map<std::string, int> rank = {{"NVL", 0}, {"C2C", 1}, {"NVB", 2}, {"PIX", 3}, {"PXB", 4}, {"PXN", 5}, {"PHB", 6}, {"NODE", 7}, {"SYS", 8}};
    const auto it = rank.find(p.type);
    const int r = it == rank.end() ? 9 : it->second;
    return r * 1000 - p.nvlinks.value_or(0);
}

bool slower(const TopoPath& a, const TopoPath& b) {
    if (a.gb_per_s && b.gb_per_s && *a.gb_per_s != *b.gb_per_s) return *a.gb_per_s < *b.gb_per_s;
    return type_rank(a) > type_rank(b);
}

bool is_nvlink(const TopoPath& p) { return p.type == "NVL" || p.type == "NVB" || p.type == "C2C"; }

std::string path_rate(const TopoPath& p) { return p.gb_per_s ? " at " + gbps(*p.gb_per_s) : ""; }

std::vector<const TopoNode*> nics_of(const MachineTopology& t) {
    auto nics = t.of_kind(TopoNodeKind::nic);
    return nics.empty() ? t.of_kind(TopoNodeKind::net) : nics;
}

// NICs near a GPU: NCCL's tree puts both under one CPU; nvidia-smi's matrix says PIX/PXB/PHB/NODE.
bool near(const PathIndex& t, const TopoNode& gpu, const TopoNode& nic) {
    if (const TopoPath* p = t.find(gpu.name, nic.name)) return p->type != "SYS";
    if (const TopoPath* p = t.find(nic.name, gpu.name)) return p->type != "SYS";
    return !gpu.cpu.empty() && gpu.cpu == nic.cpu;
}

}  // namespace

TopologySummary summarize(const MachineTopology& t) {
    TopologySummary s;
    const auto gpus = t.of_kind(TopoNodeKind::gpu);
    const auto nics = nics_of(t);
    s.gpus = static_cast<int>(gpus.size());
    s.cpus = static_cast<int>(t.of_kind(TopoNodeKind::cpu).size());
    s.nics = static_cast<int>(nics.size());
    s.nvswitches = static_cast<int>(t.of_kind(TopoNodeKind::nvswitch).size());
    s.pci_switches = static_cast<int>(t.of_kind(TopoNodeKind::pci_switch).size());

    const PathIndex index(t);
    std::map<std::string, int> pair_types;  // "over NVLink (NVL) at 240 GB/s" -> pairs
    for (std::size_t i = 0; i < gpus.size(); ++i)
        for (std::size_t j = i + 1; j < gpus.size(); ++j) {
            const TopoPath* p = index.find(gpus[i]->name, gpus[j]->name);
            if (!p) p = index.find(gpus[j]->name, gpus[i]->name);
            if (!p) continue;
            const GpuPair pair{gpu_label(*gpus[i]), gpu_label(*gpus[j]), *p};
            if (!s.slowest_pair || slower(*p, s.slowest_pair->path)) s.slowest_pair = pair;
            if (!s.fastest_pair || slower(s.fastest_pair->path, *p)) s.fastest_pair = pair;
            ++pair_types[path_words(*p) + path_rate(*p)];
        }
    for (const TopoNode* g : gpus)
        if (const TopoPath* p = g->cpu.empty() ? nullptr : index.find(g->name, g->cpu); p && p->gb_per_s)
            s.gpu_to_cpu_gb_per_s = std::min(s.gpu_to_cpu_gb_per_s.value_or(*p->gb_per_s), *p->gb_per_s);
    for (const TopoLink& l : t.links) {
        const TopoNode* to = t.find(l.to);
        if (l.type == "PCI" && to && to->kind == TopoNodeKind::nic) s.nic_pci_gb_per_s = std::min(s.nic_pci_gb_per_s.value_or(l.gb_per_s), l.gb_per_s);
        if (l.type == "SYS") s.cross_socket_gb_per_s = std::min(s.cross_socket_gb_per_s.value_or(l.gb_per_s), l.gb_per_s);
    }

    const auto count = [](int n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); };
    const bool numa = t.format == TopologyFormat::nvidia_smi;  // smi names NUMA nodes, not sockets
    std::string inventory = count(s.gpus, "GPU", "GPUs") + ", " + count(s.cpus, numa ? "NUMA node" : "CPU socket", numa ? "NUMA nodes" : "CPU sockets") +
                            ", " + count(s.nics, "NIC", "NICs");
    if (s.nvswitches) inventory += ", " + count(s.nvswitches, "NVSwitch", "NVSwitches");
    if (s.pci_switches) inventory += ", " + count(s.pci_switches, "PCIe switch", "PCIe switches");
    s.facts.push_back(inventory);
    for (const auto& [words, n] : pair_types) s.facts.push_back("GPU pairs " + words + ": " + std::to_string(n));
    if (s.gpu_to_cpu_gb_per_s) s.facts.push_back("GPU to its CPU (PCIe): " + gbps(*s.gpu_to_cpu_gb_per_s));
    if (s.nic_pci_gb_per_s) s.facts.push_back("NIC PCIe links: " + gbps(*s.nic_pci_gb_per_s));
    if (s.cross_socket_gb_per_s) s.facts.push_back("between CPU sockets (SYS): " + gbps(*s.cross_socket_gb_per_s));
    if (!gpus.empty() && !nics.empty()) {
        std::map<std::size_t, std::vector<std::string>> by_near;  // NICs near -> GPUs
        for (const TopoNode* g : gpus) {
            std::size_t n = 0;
            for (const TopoNode* nic : nics) n += near(index, *g, *nic);
            by_near[n].push_back(gpu_label(*g));
        }
        for (const auto& [n, who] : by_near)
            s.facts.push_back((who.size() == gpus.size() ? std::string("each GPU") : join(who, ", ")) + ": " + std::to_string(n) + " of " +
                              std::to_string(nics.size()) + " NICs near (same CPU socket or PCIe switch)");
    }
    if (t.max_gb_per_s) s.facts.push_back("NCCL's fastest path in the node (maxBw): " + gbps(*t.max_gb_per_s));

    if (!s.slowest_pair) {
        s.bottleneck = s.gpus < 2 ? "One GPU: no GPU-to-GPU path to judge." : "No path between GPUs is known.";
    } else if (is_nvlink(s.slowest_pair->path)) {
        s.bottleneck = "GPU pairs talk " + path_words(s.slowest_pair->path) + path_rate(s.slowest_pair->path) + "; the bottleneck is leaving the GPUs";
        std::vector<std::string> exits;
        if (s.gpu_to_cpu_gb_per_s) exits.push_back("each GPU reaches its CPU at " + gbps(*s.gpu_to_cpu_gb_per_s));
        if (s.nic_pci_gb_per_s) exits.push_back("each NIC sits on PCIe at " + gbps(*s.nic_pci_gb_per_s));
        if (s.cross_socket_gb_per_s) exits.push_back("the sockets are joined at " + gbps(*s.cross_socket_gb_per_s) + " (SYS)");
        s.bottleneck += exits.empty() ? "." : ": " + join(exits, ", ") + ".";
    } else {
        const GpuPair& p = *s.slowest_pair;
        const bool all_same = pair_types.size() == 1;
        s.bottleneck = (all_same ? "Every GPU pair goes " : "The slowest GPU pair, " + p.a + " and " + p.b + ", goes ") + path_words(p.path) +
                       path_rate(p.path) + ": no NVLink between " + (all_same ? "them" : "these two") +
                       ", so collectives inside the node run at PCIe speed" + (all_same ? "" : " (a ring over all GPUs crosses this path)") + ".";
    }
    return s;
}

TopologyComparison compare_with_catalog(const MachineTopology& t, const Catalog& catalog, const Instance& instance) {
    TopologyComparison c;
    c.instance = instance.name;
    const TopologySummary s = summarize(t);
    NodeTopology model = node_topology(catalog, instance);
    const double catalog_gpus = instance.accelerator_count.value_or(0);
    const std::string model_name = "the catalog's model of " + instance.name;
    if (s.gpus > 0 && catalog_gpus > 0) {
        if (s.gpus < catalog_gpus) {
            c.differences.push_back("the import shows " + std::to_string(s.gpus) + " GPUs; a " + instance.name + " has " + format_number(catalog_gpus) +
                                    ": compared as a job on " + std::to_string(s.gpus) + " of them");
            use_gpus_of_node(model, s.gpus);
        } else if (s.gpus > catalog_gpus) {
            c.differences.push_back("the import shows " + std::to_string(s.gpus) + " GPUs; a " + instance.name + " has only " + format_number(catalog_gpus) +
                                    ": is this log from another instance type?");
        } else {
            c.agreements.push_back(std::to_string(s.gpus) + " GPUs, as a " + instance.name);
        }
    }
    if (s.slowest_pair) {
        const TopoPath& p = s.slowest_pair->path;
        const auto bare = [](const std::string& label) { return label.rfind("GPU ", 0) == 0 ? label.substr(4) : label; };
        const std::string pair = "GPU pair " + bare(s.slowest_pair->a) + "-" + bare(s.slowest_pair->b);
        const std::string theirs = model.intra.known() ? gbps(model.intra.gb_per_s.value) + " (" + std::string(link_words(model.intra.cls)) + ")"
                                                       : "an unknown bandwidth (" + model.intra.unknown_reason + ")";
        if (p.gb_per_s && model.intra.known()) {
            const double ratio = *p.gb_per_s / model.intra.gb_per_s.value;
            if (std::fabs(ratio - 1) <= 0.05)
                c.agreements.push_back("GPU pairs: " + gbps(*p.gb_per_s) + ", " + model_name + " gives " + theirs);
            else
                c.differences.push_back(pair + " goes " + path_words(p) + ": " + gbps(*p.gb_per_s) + " where " + model_name + " gives " + theirs + " (" +
                                        format_number(std::round(ratio * 100)) + "%)");
        } else {
            const bool same_kind = is_nvlink(p) == (model.intra.cls == LinkClass::nvlink || model.intra.cls == LinkClass::neuronlink);
            (same_kind ? c.agreements : c.differences).push_back(pair + " goes " + path_words(p) + "; " + model_name + " has " + theirs);
        }
    }
    if (s.gpu_to_cpu_gb_per_s && model.host.known()) {
        const double ratio = *s.gpu_to_cpu_gb_per_s / model.host.gb_per_s.value;
        const std::string text = "GPU to host: " + gbps(*s.gpu_to_cpu_gb_per_s) + "; " + model_name + " gives " + gbps(model.host.gb_per_s.value) + " (" +
                                 std::string(link_words(model.host.cls)) + ")";
        (std::fabs(ratio - 1) <= 0.05 ? c.agreements : c.differences).push_back(text);
    }
    if (instance.efa_interfaces && s.nics > 0) {
        const std::string text = std::to_string(s.nics) + " NICs in the import; the catalog lists " + format_number(*instance.efa_interfaces) + " EFA interfaces";
        (std::fabs(*instance.efa_interfaces - s.nics) < 0.5 ? c.agreements : c.differences).push_back(text);
    }
    return c;
}

BenchCalibration calibration_from_topology(const MachineTopology& t) {
    BenchCalibration cal;
    const TopologySummary s = summarize(t);
    const std::string from = std::string(to_string(t.format)) + " " + t.origin;
    if (s.slowest_pair && s.slowest_pair->path.gb_per_s) {
        const GpuPair& p = *s.slowest_pair;
        const std::string what = from + ": slowest GPU pair " + p.a + "-" + p.b + " " + p.path.type + " " + gbps(*p.path.gb_per_s) +
                                 (p.path.derived ? " (worked out from the tree)" : " (NCCL's path)");
        cal.figures.push_back({"intra_gb_per_s", "--measured-intra-gb-per-s", measured_param(*p.path.gb_per_s, what), "the slowest GPU pair's path bandwidth"});
    } else {
        cal.skipped.push_back(s.slowest_pair ? "intra-node bandwidth: " + std::string(to_string(t.format)) + " gives path types, not bandwidths"
                                             : "intra-node bandwidth: no path between two GPUs");
    }
    if (s.gpu_to_cpu_gb_per_s) {
        cal.figures.push_back({"host_gb_per_s", "--measured-host-gb-per-s", measured_param(*s.gpu_to_cpu_gb_per_s, from + ": slowest GPU-to-CPU path"),
                               "the slowest GPU's path to its CPU"});
    } else {
        cal.skipped.push_back("GPU-host bandwidth: no GPU-to-CPU path bandwidth in the import");
    }
    cal.skipped.push_back("inter-node bandwidth: a topology import describes one node (the NICs' rate comes from the catalog)");
    return cal;
}

nlohmann::json to_json(const MachineTopology& t, const TopologySummary& s, const std::optional<TopologyComparison>& comparison) {
    using nlohmann::json;
    const auto opt = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
    json nodes = json::array();
    for (const TopoNode& n : t.nodes) {
        json j = {{"kind", std::string(to_string(n.kind))}, {"name", n.name}, {"parent", n.parent}, {"cpu", n.cpu}, {"detail", n.detail}};
        j["index"] = n.index ? json(*n.index) : json(nullptr);
        nodes.push_back(j);
    }
    json links = json::array();
    for (const TopoLink& l : t.links) links.push_back({{"from", l.from}, {"to", l.to}, {"type", l.type}, {"gb_per_s", l.gb_per_s}});
    json paths = json::array();
    for (const TopoPath& p : t.paths) {
        json j = {{"from", p.from}, {"to", p.to}, {"type", p.type}, {"gb_per_s", opt(p.gb_per_s)}, {"derived", p.derived}};
        j["hops"] = p.hops ? json(*p.hops) : json(nullptr);
        j["nvlinks"] = p.nvlinks ? json(*p.nvlinks) : json(nullptr);
        paths.push_back(j);
    }
    const auto pair = [&](const std::optional<GpuPair>& p) {
        return p ? json{{"a", p->a}, {"b", p->b}, {"type", p->path.type}, {"gb_per_s", opt(p->path.gb_per_s)}} : json(nullptr);
    };
    json summary = {{"gpus", s.gpus}, {"cpus", s.cpus}, {"nics", s.nics}, {"nvswitches", s.nvswitches}, {"pci_switches", s.pci_switches},
                    {"slowest_gpu_pair", pair(s.slowest_pair)}, {"fastest_gpu_pair", pair(s.fastest_pair)},
                    {"gpu_to_cpu_gb_per_s", opt(s.gpu_to_cpu_gb_per_s)}, {"nic_pci_gb_per_s", opt(s.nic_pci_gb_per_s)},
                    {"cross_socket_gb_per_s", opt(s.cross_socket_gb_per_s)}, {"facts", s.facts}, {"bottleneck", s.bottleneck}};
    json out = {{"format", std::string(to_string(t.format))}, {"origin", t.origin}, {"partial", t.partial}, {"missing", t.missing},
                {"notes", t.notes}, {"max_gb_per_s", opt(t.max_gb_per_s)}, {"total_gb_per_s", opt(t.total_gb_per_s)},
                {"nodes", nodes}, {"links", links}, {"paths", paths}, {"summary", summary}};
    if (comparison)
        out["comparison"] = {{"instance", comparison->instance}, {"differences", comparison->differences}, {"agreements", comparison->agreements}};
    return out;
}

}  // namespace gpuplan
