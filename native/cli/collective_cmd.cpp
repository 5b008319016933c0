// collective_cmd.cpp — `gpuplan collective`: one bare collective on N nodes of an instance
// type, predicted as nccl-tests would print it (core/gpuplan/topology/collective.hpp):
// time, algorithm bandwidth and bus bandwidth, and which link is the bottleneck.
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "gpuplan/topology/collective.hpp"
#include "gpuplan/topology/machine_topology.hpp"

namespace gpuplan::cli {

namespace {

struct CollectiveOptions {
    std::string op = "all-reduce", instance, bytes_text, topology;
    double nodes = 1, gpus_per_node = 0;
    bool explain = false;
    Format format = Format::table;
    CLI::App* app = nullptr;
};

// "1G", "512M", "8K" or a plain number of bytes (powers of 1024, as nccl-tests' -b/-e take them).
double parse_bytes(const std::string& text) {
    const std::string expected = "a whole number of bytes > 0: a number, or with K, M or G (powers of 1024, as nccl-tests' -b and -e)";
    if (text.empty()) throw InputError("--bytes", "''", expected);
    double scale = 1;
    std::string digits = text;
    switch (text.back()) {
        case 'K': case 'k': scale = 1024.0; digits.pop_back(); break;
        case 'M': case 'm': scale = 1024.0 * 1024; digits.pop_back(); break;
        case 'G': case 'g': scale = 1024.0 * 1024 * 1024; digits.pop_back(); break;
        default: break;
    }
    char* end = nullptr;
    const double v = std::strtod(digits.c_str(), &end);
    // A buffer holds whole bytes: 1.5K is 1536, 1.5 is no size (issue 34).
    if (digits.empty() || *end != '\0' || !std::isfinite(v) || !(v > 0) || v * scale > kMaxCollectiveBytes || std::floor(v * scale) != v * scale)
        throw InputError("--bytes", "'" + text + "'", expected);
    return v * scale;
}

const std::vector<std::pair<std::string, std::string>> kCollectiveFlagOf = {
    {"instance", "--instance"}, {"nodes", "--nodes"}, {"bytes", "--bytes"}, {"gpus_per_node", "--gpus-per-node"}};

std::string run_collective(const CollectiveOptions& o, const Catalog& catalog) {
    CollectiveRequest q;
    q.op = *parse_collective(o.op);
    q.instance = require_instance(catalog, o.instance, "--instance").name;
    q.nodes = o.nodes;
    q.bytes = parse_bytes(o.bytes_text);
    if (o.app->count("--gpus-per-node")) q.gpus_per_node = o.gpus_per_node;
    std::string head;
    if (!o.topology.empty()) {
        const MachineTopology imported = read_topology_file(o.topology, "--topology");
        const BenchCalibration figures = calibration_from_topology(imported);
        head = measured_figures_text("topology from " + o.topology + " (" + std::string(to_string(imported.format)) + "):\n", figures,
                                     apply_calibration(figures, q.topology), "from the topology") + "\n";
    }
    CollectiveEstimate e;
    try {
        e = estimate_collective(catalog, q);
    } catch (const InputError& error) {
        rethrow_for_flag(error, kCollectiveFlagOf);
    }
    if (o.format == Format::json) return dump_json(to_json(e));
    const NamedFigures named = {{"seconds", figure_json(e.seconds)},
                                {"algorithm_bandwidth_gb_per_s", figure_json(e.algorithm_bandwidth_gb_per_s)},
                                {"bus_bandwidth_gb_per_s", figure_json(e.bus_bandwidth_gb_per_s)}};
    if (o.format == Format::csv) return figures_csv(named);
    std::string out = head + fmt::format("{} of {} bytes ({:.4g} GiB) on {} x {}: {} ranks, {} per node\n\n", o.op, format_number(q.bytes), q.bytes / 1073741824.0,
                                  format_number(q.nodes), q.instance, format_number(e.ranks), format_number(e.gpus_per_node));
    Table t;
    t.columns = {{"figure", "figure", false}, {"value", "value"}};
    const auto ms = [](double s) { return fmt::format("{:.4g} ms", s * 1e3); };
    const auto gbps = [](double v) { return fmt::format("{:.1f} GB/s", v); };
    t.rows.push_back({text_cell("time"), figure_cell(e.seconds, +ms, e.seconds.rests_on_assumption())});
    t.rows.push_back({text_cell("algorithm bandwidth (nccl-tests algbw)"), figure_cell(e.algorithm_bandwidth_gb_per_s, +gbps, e.algorithm_bandwidth_gb_per_s.rests_on_assumption())});
    t.rows.push_back({text_cell("bus bandwidth (nccl-tests busbw)"), figure_cell(e.bus_bandwidth_gb_per_s, +gbps, e.bus_bandwidth_gb_per_s.rests_on_assumption())});
    out += render_table(t, o.format);
    std::string after = "\nbottleneck: " + e.cost.bottleneck_text + "\n";
    after += "links: inside the node " + std::string(link_words(e.topology.intra.cls)) + " " + format_number(e.topology.intra.gb_per_s.value) +
             " GB/s per GPU per direction" + (q.nodes > 1 ? "; between nodes " + std::string(link_words(e.topology.inter.cls)) + " " +
                                                                 format_number(e.topology.inter.gb_per_s.value) + " GB/s per GPU" : std::string()) + " (gpuplan show " + q.instance + ")\n";
    if (o.explain) after += explain_all(named);
    return out + notes_block(after, o.format);
}

}  // namespace

Command register_collective(CLI::App& parent) {
    auto o = std::make_shared<CollectiveOptions>();
    CLI::App* app = parent.add_subcommand("collective", "Time one collective (all-reduce, ...) on N nodes, with nccl-tests' bus and algorithm bandwidth");
    o->app = app;
    app->add_option("--op", o->op, "all-reduce, all-gather, reduce-scatter or all-to-all")
        ->capture_default_str()
        ->transform(choice_rule({"all-reduce", "all-gather", "reduce-scatter", "all-to-all"}));
    app->add_option("--instance", o->instance, "Instance type (see `gpuplan catalog`)")->required()->type_name("TYPE");
    app->add_option("--nodes", o->nodes, "Nodes (instances)")->capture_default_str()->check(whole_rule(1));
    app->add_option("--bytes", o->bytes_text, "Buffer size per rank, as nccl-tests' size column: bytes, or 512M, 1G (powers of 1024)")
        ->required()
        ->type_name("SIZE");
    app->add_option("--gpus-per-node", o->gpus_per_node, "Ranks per node (default: every accelerator of the instance)")->check(whole_rule(1));
    app->add_option("--topology", o->topology,
                    "An NCCL topology log or `nvidia-smi topo -m` output: its slowest GPU pair's bandwidth replaces the catalog's link inside "
                    "the node (see `gpuplan topology import FILE`)")
        ->type_name("FILE");
    app->add_flag("--explain", o->explain, "Show each figure's formula, worked line and inputs");
    add_format_option(*app, o->format, {Format::table, Format::json, Format::csv, Format::md});
    app->footer(R"(Time: hierarchical collective (inside each node, then across nodes) in the alpha-beta model over
the instance's links (docs/models.md, "Topology"). algbw = size / time; busbw = algbw x 2(n-1)/n
for all-reduce, x (n-1)/n otherwise (nccl-tests doc/PERFORMANCE.md), n = ranks.
Examples:
  gpuplan collective --instance p4d.24xlarge --bytes 1G
  gpuplan collective --op all-gather --instance p5.48xlarge --nodes 4 --bytes 512M --format json
)");
    return {app, [o](const Catalog& catalog) { return run_collective(*o, catalog); }};
}

}  // namespace gpuplan::cli
