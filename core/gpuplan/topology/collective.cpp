// collective.cpp — a bare collective and its nccl-tests bandwidths (collective.hpp).
#include "gpuplan/topology/collective.hpp"
#include "gpuplan/formula_text.hpp"

#include <cmath>

#include "gpuplan/input_error.hpp"
#include "gpuplan/text.hpp"

namespace gpuplan {

std::optional<Collective> parse_collective(std::string_view text) {
    for (Collective c : {Collective::all_reduce, Collective::all_gather, Collective::reduce_scatter, Collective::all_to_all})
        if (to_string(c) == text) return c;
    return std::nullopt;
}

CollectiveEstimate estimate_collective(const Catalog& catalog, const CollectiveRequest& q) {
    CollectiveEstimate e;
    e.request = q;
    const Instance* inst = catalog.find_instance(q.instance);
    if (!inst) throw InputError("instance", "\"" + q.instance + "\"", "an instance type in the catalog (see `gpuplan catalog`)");
    if (!(q.bytes > 0) || !std::isfinite(q.bytes)) throw InputError("bytes", n(q.bytes), "a buffer size in bytes > 0 (nccl-tests' size column)");
    if (!(q.nodes >= 1) || std::floor(q.nodes) != q.nodes) throw InputError("nodes", n(q.nodes), "a whole number of nodes >= 1");
    e.topology = node_topology(catalog, *inst, q.topology);
    const double gpus = std::max(1.0, std::floor(e.topology.gpus));
    e.gpus_per_node = q.gpus_per_node.value_or(gpus);
    if (e.gpus_per_node < 1 || e.gpus_per_node > gpus || std::floor(e.gpus_per_node) != e.gpus_per_node)
        throw InputError("gpus_per_node", n(e.gpus_per_node), "a whole number from 1 to the " + n(gpus) + " accelerators of " + inst->name);
    // Part of a node takes the same links `gpuplan train --gpus-per-node` gives it (half of 8
    // PCIe GPUs stay on one socket: the host bridge, not the socket link).
    use_gpus_of_node(e.topology, e.gpus_per_node);
    e.ranks = e.gpus_per_node * q.nodes;
    if (e.ranks < 2)
        throw InputError("nodes", n(q.nodes) + " node of " + n(e.gpus_per_node) + " GPU", "at least 2 ranks in all: a collective over one GPU moves nothing");
    e.cost = hierarchical_collective(q.op, q.bytes, e.topology, e.gpus_per_node, q.nodes);
    e.seconds = e.cost.seconds;
    e.seconds.name = "seconds";
    const std::string why = e.cost.seconds.unknown_reason;
    const double r = e.ranks;
    const double factor = q.op == Collective::all_reduce ? 2 * (r - 1) / r : (r - 1) / r;
    const std::string factor_text = q.op == Collective::all_reduce ? "2 (n-1)/n" : "(n-1)/n";
    if (!e.seconds.value) {
        e.algorithm_bandwidth_gb_per_s = unknown_figure("algorithm_bandwidth_gb_per_s", "GB/s", "S / seconds", why);
        e.bus_bandwidth_gb_per_s = unknown_figure("bus_bandwidth_gb_per_s", "GB/s", "algorithm_bandwidth x " + factor_text, why);
        return e;
    }
    const double t = *e.seconds.value, alg = q.bytes / t / 1e9, bus = alg * factor;
    e.algorithm_bandwidth_gb_per_s = {.name = "algorithm_bandwidth_gb_per_s", .value = alg, .unit = "GB/s", .formula = "S / seconds (nccl-tests algbw)",
                                      .worked = n(q.bytes) + " / " + n(t) + " / 1e9 = " + n(alg), .inputs = {input("bytes", "bytes", user_given(q.bytes)), e.seconds.as_input()}};
    e.bus_bandwidth_gb_per_s = {.name = "bus_bandwidth_gb_per_s", .value = bus, .unit = "GB/s",
                                .formula = "algorithm_bandwidth x " + factor_text + ", n = " + n(r) + " ranks (nccl-tests busbw for " + std::string(to_string(q.op)) + ")",
                                .worked = n(alg) + " x " + n(factor) + " = " + n(bus), .inputs = {e.algorithm_bandwidth_gb_per_s.as_input(), input("ranks", "", user_given(r))}};
    return e;
}

nlohmann::json to_json(const CollectiveEstimate& e) {
    nlohmann::json figs = nlohmann::json::object();
    for (const Figure* f : {&e.seconds, &e.algorithm_bandwidth_gb_per_s, &e.bus_bandwidth_gb_per_s, &e.cost.intra_seconds, &e.cost.inter_seconds})
        figs[f->name] = figure_json(*f);
    return {{"op", to_string(e.request.op)},
            {"instance", e.request.instance},
            {"nodes", e.request.nodes},
            {"gpus_per_node", e.gpus_per_node},
            {"ranks", e.ranks},
            {"bytes", e.request.bytes},
            {"intra_node_link", to_string(e.cost.intra_class)},
            {"inter_node_link", to_string(e.cost.inter_class)},
            {"bottleneck", e.cost.bottleneck_text},
            {"figures", figs}};
}

}  // namespace gpuplan
