// calibration.cpp — see calibration.hpp.
#include "gpuplan/measurements/calibration.hpp"
#include "gpuplan/formula_text.hpp"

#include <algorithm>

#include "gpuplan/topology/topology.hpp"

namespace gpuplan {

namespace {

double bytes_of(const BenchFigure& f) {
    const Json& p = f.params;
    if (p.is_object() && p.contains("bytes") && p["bytes"].is_number()) return p["bytes"].get<double>();
    return 0;
}

double nodes_of(const BenchFigure& f) {
    const Json& p = f.params;
    if (p.is_object() && p.contains("nodes") && p["nodes"].is_number()) return p["nodes"].get<double>();
    return 1;
}

// The usable record of `case_name` with the largest params.bytes (a sweep's plateau).
const BenchFigure* largest(const BenchResults& b, const std::string& case_name, bool multi_node = false) {
    const BenchFigure* best = nullptr;
    for (const auto& f : b.figures)
        if (f.case_name == case_name && f.usable() && f.unit == "GB/s" && (nodes_of(f) > 1) == multi_node)
            if (best == nullptr || bytes_of(f) > bytes_of(*best)) best = &f;
    return best;
}

}  // namespace

const MeasuredFigure* BenchCalibration::find(const std::string& planner_figure) const {
    for (const auto& f : figures)
        if (f.planner_figure == planner_figure) return &f;
    return nullptr;
}

BenchCalibration calibrate_from_bench(const BenchResults& b, double gpus_per_node) {
    BenchCalibration c;
    const std::string file = b.origin;
    const bool cuda = b.fingerprint.backend == "cuda";
    for (const auto& f : b.figures)
        if (!f.usable())
            c.skipped.push_back(f.path + " (" + f.case_name + "): not used, " +
                                (f.status != "ok" ? f.status + (f.error.empty() ? "" : ": " + f.error) : std::string("its data did not verify")));
    const auto add = [&](const char* figure, const char* flag, double value, const std::string& from) {
        c.figures.push_back({figure, flag, measured_param(value, file + " " + from), from});
    };

    // GPU <-> host: offload moves gradients down and parameters up, so the slower direction bounds it.
    const BenchFigure* h2d = largest(b, "h2d_pinned");
    const BenchFigure* d2h = largest(b, "d2h_pinned");
    if ((h2d || d2h) && !cuda) {
        c.skipped.push_back("h2d_pinned/d2h_pinned: measured by the " + b.fingerprint.backend +
                            " backend (host memory copies, no PCIe): not a GPU-host figure");
    } else if (h2d || d2h) {
        const BenchFigure* slow = !h2d ? d2h : !d2h ? h2d : (*d2h->median < *h2d->median ? d2h : h2d);
        add("host_gb_per_s", "--measured-host-gb-per-s", *slow->median,
            slow->case_name + " median " + n(*slow->median) + " GB/s" + (h2d && d2h ? " (the slower of h2d_pinned and d2h_pinned)" : ""));
    }

    // Inside a node: what NCCL reaches, else the slowest GPU pair.
    if (const BenchFigure* ar = largest(b, "nccl_all_reduce"); ar && cuda) {
        add("intra_gb_per_s", "--measured-intra-gb-per-s", *ar->median, "nccl_all_reduce bus bandwidth " + n(*ar->median) + " GB/s at " + n(bytes_of(*ar)) + " bytes");
    } else if (cuda) {
        const BenchFigure* slowest = nullptr;
        for (const auto& f : b.figures)
            if (f.case_name == "p2p_matrix" && f.usable() && (!slowest || *f.median < *slowest->median)) slowest = &f;
        if (slowest) add("intra_gb_per_s", "--measured-intra-gb-per-s", *slowest->median, "p2p_matrix slowest pair " + n(*slowest->median) + " GB/s (" + slowest->path + ")");
    }

    // Between nodes: NCCL over more than one node, else one MPI flow shared by the node's GPUs.
    const BenchFigure* multi = nullptr;
    for (const char* k : {"nccl_all_reduce", "nccl_all_gather", "nccl_reduce_scatter"})
        if (!multi) multi = largest(b, k, true);
    if (multi) {
        add("inter_gb_per_s", "--measured-inter-gb-per-s", *multi->median,
            multi->case_name + " bus bandwidth over " + n(nodes_of(*multi)) + " nodes " + n(*multi->median) + " GB/s");
    } else if (const BenchFigure* net = largest(b, "net_p2p_bw")) {
        const double g = gpus_per_node > 0 ? gpus_per_node : 1;
        add("inter_gb_per_s", "--measured-inter-gb-per-s", *net->median / g,
            "net_p2p_bw median " + n(*net->median) + " GB/s at " + n(bytes_of(*net)) + " bytes / " + n(g) +
                " GPU(s) per node (one MPI flow per node: a lower bound)");
    }

    if (const BenchFigure* triad = largest(b, "dmem_triad"); triad && cuda) {
        const Json& p = triad->params;
        (void)p;
        add("device_memory_gb_per_s", "", *triad->median, "dmem_triad median " + n(*triad->median) + " GB/s");
    } else if (triad) {
        c.skipped.push_back("dmem_triad: measured by the " + b.fingerprint.backend + " backend (host memory), not GPU memory");
    }
    return c;
}

DatasheetFigure datasheet_figure(const Catalog& catalog, const std::string& instance_type, const std::string& kind) {
    const Instance* inst = catalog.find_instance(instance_type);
    if (inst == nullptr) return {std::nullopt, "instance type '" + instance_type + "' is not in the catalog"};
    const Accelerator* acc = inst->accelerator ? catalog.find_accelerator(*inst->accelerator) : nullptr;
    if (kind == "network") {
        if (!inst->network_gbit_per_s) return {std::nullopt, instance_type + ": network rate unknown in the catalog"};
        return {*inst->network_gbit_per_s / 8, instance_type + " network " + n(*inst->network_gbit_per_s) + " Gbit/s / 8 = " +
                                                   n(*inst->network_gbit_per_s / 8) + " GB/s (catalog)"};
    }
    if (acc == nullptr) return {std::nullopt, instance_type + " has no accelerator in the catalog"};
    if (kind == "pcie_host") {
        if (!acc->pcie_gen || !acc->pcie_lanes) return {std::nullopt, acc->name + ": PCIe generation or lanes unknown in the catalog"};
        const double per_lane = pcie_gb_per_s_per_lane(*acc->pcie_gen);
        if (per_lane == 0) return {std::nullopt, acc->name + ": PCIe generation " + n(*acc->pcie_gen) + " has no per-lane rate in gpuplan"};
        const double raw = per_lane * *acc->pcie_lanes;
        return {raw, acc->name + " PCIe gen" + n(*acc->pcie_gen) + " x" + n(*acc->pcie_lanes) + " = " + n(raw) + " GB/s per direction (raw, after line encoding)"};
    }
    if (kind == "device_memory") {
        if (!acc->memory_bandwidth_gb_per_s) return {std::nullopt, acc->name + ": memory bandwidth unknown in the catalog"};
        return {*acc->memory_bandwidth_gb_per_s, acc->name + " memory bandwidth " + n(*acc->memory_bandwidth_gb_per_s) + " GB/s (datasheet)"};
    }
    if (kind == "peer") {
        if (acc->peer_link_gb_per_s)
            return {*acc->peer_link_gb_per_s / 2, acc->name + " " + acc->peer_link.value_or("peer link") + " " + n(*acc->peer_link_gb_per_s) +
                                                      " GB/s bidirectional / 2 = " + n(*acc->peer_link_gb_per_s / 2) + " GB/s per direction"};
        if (inst->peer_gbit_per_s_per_accelerator)
            return {*inst->peer_gbit_per_s_per_accelerator / 16, instance_type + " peer " + n(*inst->peer_gbit_per_s_per_accelerator) +
                                                                   " Gbit/s per accelerator / 8 / 2 per direction"};
        // No peer link: peers talk over PCIe, so the expectation is the host link's.
        const DatasheetFigure over_pcie = datasheet_figure(catalog, instance_type, "pcie_host");
        if (over_pcie.gb_per_s) return {over_pcie.gb_per_s, "no peer link, peers talk over PCIe: " + over_pcie.source};
        return {std::nullopt, acc->name + ": no peer-link or PCIe figure in the catalog"};
    }
    return {std::nullopt, "no datasheet figure for '" + kind + "'"};
}

CalibrationUse apply_calibration(const BenchCalibration& c, TopologyOverrides& overrides) {
    const struct { const char* figure; const char* what; std::optional<Param> TopologyOverrides::*slot; } slots[] = {
        {"host_gb_per_s", "GPU-host bandwidth", &TopologyOverrides::host_gb_per_s},
        {"intra_gb_per_s", "intra-node bandwidth", &TopologyOverrides::intra_gb_per_s},
        {"inter_gb_per_s", "inter-node bandwidth", &TopologyOverrides::inter_gb_per_s}};
    CalibrationUse use;
    for (const auto& s : slots) {
        const MeasuredFigure* f = c.find(s.figure);
        if (!f) continue;
        std::optional<Param>& slot = overrides.*(s.slot);
        if (slot) {
            use.not_applied.push_back(f);
            continue;
        }
        // "measured: GPU-host bandwidth, <file> d2h_pinned median 20 GB/s (...)": what, then where.
        slot = measured_param(f->value.value, std::string(s.what) + ", " + f->value.source.substr(std::string("measured: ").size()));
        use.applied.push_back(f);
    }
    return use;
}

nlohmann::json to_json(const BenchResults& b, const BenchCalibration& c) {
    nlohmann::json figs = nlohmann::json::array();
    for (const auto& f : c.figures)
        figs.push_back({{"planner_figure", f.planner_figure}, {"flag", f.flag.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.flag)},
                        {"gb_per_s", f.value.value}, {"source", f.value.source}, {"from", f.from}});
    return {{"file", b.origin}, {"backend", b.fingerprint.backend},
            {"instance_type", b.fingerprint.instance_type ? nlohmann::json(*b.fingerprint.instance_type) : nlohmann::json(nullptr)},
            {"complete", b.complete}, {"figures", figs}, {"not_used", c.skipped}};
}

}  // namespace gpuplan
