// topology_cmd.cpp — `gpuplan topology import FILE [--instance TYPE]`: what a machine says about
// its own links (an NCCL_DEBUG=INFO topology dump or `nvidia-smi topo -m`), read by the core
// (core/gpuplan/topology/machine_topology.hpp) and drawn as a tree, a GPU path matrix, the
// bottleneck in words and, with --instance, the differences from the catalog's model.
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "gpuplan/topology/machine_topology.hpp"

namespace gpuplan::cli {

namespace {

struct TopologyOptions {
    std::string file, instance;
    Format format = Format::table;
};

std::string label(const TopoNode& n) {
    std::string s = n.kind == TopoNodeKind::gpu && n.index ? "GPU " + std::to_string(*n.index) + " (" + n.name + ")" : n.name;
    if (n.kind == TopoNodeKind::nvswitch || n.kind == TopoNodeKind::pci_switch) s += " " + std::string(to_string(n.kind));
    if (n.kind == TopoNodeKind::nic && !n.detail.empty() && n.detail.find('/') == std::string::npos) s += " " + n.detail;
    return s;
}

// The PCIe tree under each CPU, with each node's other links (NVLink, SYS, NET) on its line.
void draw_tree(const MachineTopology& t, const std::string& name, int depth, std::string& out) {
    const TopoNode* n = t.find(name);
    if (!n || depth > 8) return;
    std::string line(static_cast<std::size_t>(depth) * 2, ' ');
    line += label(*n);
    for (const TopoLink& l : t.links)
        if (l.to == name && l.type == "PCI" && l.from == n->parent) line += fmt::format("  [PCI {} GB/s]", format_number(l.gb_per_s));
    std::vector<std::string> others;
    for (const TopoLink& l : t.links)
        if (l.from == name && l.type != "PCI") others.push_back(l.type + " " + format_number(l.gb_per_s) + " GB/s to " + l.to);
    if (!others.empty()) line += "  " + join(others, "; ");
    out += line + "\n";
    for (const TopoNode& c : t.nodes)
        if (c.parent == name) draw_tree(t, c.name, depth + 1, out);
}

std::string path_cell(const TopoPath* p) {
    if (!p) return "?";
    std::string s = p->type == "NVL" && p->nvlinks ? "NV" + std::to_string(*p->nvlinks) : p->type;
    if (p->gb_per_s) s = format_number(*p->gb_per_s) + " " + s;
    return p->derived ? s + "~" : s;
}

std::string run_topology_import(const TopologyOptions& o, const Catalog& catalog) {
    const Instance* instance = o.instance.empty() ? nullptr : &require_instance(catalog, o.instance, "--instance");
    const MachineTopology t = read_topology_file(o.file, "FILE");
    const TopologySummary s = summarize(t);
    std::optional<TopologyComparison> comparison;
    if (instance) comparison = compare_with_catalog(t, catalog, *instance);
    if (o.format == Format::json) return dump_json(to_json(t, s, comparison));

    std::string out = fmt::format("{} {}{}: {}\n\n", to_string(t.format), o.file, t.partial ? " (partial)" : "", s.facts.front());
    if (t.format == TopologyFormat::nccl_log) {
        for (const TopoNode* cpu : t.of_kind(TopoNodeKind::cpu)) draw_tree(t, cpu->name, 0, out);
        out += "\n";
    }
    const auto gpus = t.of_kind(TopoNodeKind::gpu);
    if (gpus.size() > 1) {
        Table m;
        m.columns.push_back({"", "gpu", false});
        for (const TopoNode* g : gpus) m.columns.push_back({g->index ? "GPU " + std::to_string(*g->index) : g->name, g->name});
        const PathIndex index(t);
        for (const TopoNode* a : gpus) {
            std::vector<Cell> row = {text_cell(a->index ? "GPU " + std::to_string(*a->index) : a->name)};
            for (const TopoNode* b : gpus) row.push_back(text_cell(a == b ? "-" : path_cell(index.find(a->name, b->name))));
            m.rows.push_back(row);
        }
        out += "GPU to GPU (GB/s per direction as " + std::string(t.format == TopologyFormat::nccl_log ? "NCCL computed it" : "nvidia-smi names it") +
               ", path type" + (t.partial ? "; ~ worked out from the tree" : "") + ")\n" + render_table(m, o.format) + "\n";
    }
    std::string after;
    for (std::size_t k = 1; k < s.facts.size(); ++k) after += "  " + s.facts[k] + "\n";
    after += "\nbottleneck: " + s.bottleneck + "\n";
    if (comparison) {
        after += "\ncompared with the catalog's " + comparison->instance + ":\n";
        for (const auto& d : comparison->differences) after += "  differs: " + d + "\n";
        for (const auto& a : comparison->agreements) after += "  agrees:  " + a + "\n";
    }
    for (const auto& m : t.missing) after += "\nmissing: " + m;
    for (const auto& n : t.notes) after += "\nnote: " + n;
    if (!t.missing.empty() || !t.notes.empty()) after += "\n";
    const BenchCalibration cal = calibration_from_topology(t);
    if (!cal.figures.empty()) {
        after += "\nplanner figures it gives (gpuplan train --topology " + o.file + "):\n";
        for (const MeasuredFigure& f : cal.figures) after += "  " + f.flag.substr(11) + " " + format_number(f.value.value) + " GB/s: " + f.from + "\n";
    }
    return out + notes_block(after, o.format);
}

}  // namespace

Command register_topology(CLI::App& parent) {
    auto o = std::make_shared<TopologyOptions>();
    CLI::App* topology = parent.add_subcommand("topology", "Read a machine's own topology (NCCL log, nvidia-smi topo -m): links, bottleneck, catalog differences");
    topology->footer("Run `gpuplan topology import --help`. What is read and how: docs/topology-import.md.");
    CLI::App* app = topology->add_subcommand("import", "Read an NCCL_DEBUG=INFO topology dump or `nvidia-smi topo -m` output and say what it means");
    app->fallthrough();  // --catalog after `import` belongs to the main command
    app->add_option("FILE", o->file, "A log with NCCL's topology dump (NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,GRAPH), or saved `nvidia-smi topo -m` output")
        ->required()
        ->type_name("FILE");
    app->add_option("--instance", o->instance, "Compare with the catalog's model of this instance type")->type_name("TYPE");
    add_format_option(*app, o->format, {Format::table, Format::json, Format::md});
    app->footer(R"(Prints the PCIe tree under each CPU (NCCL logs), the path between every GPU pair with its
bandwidth and NCCL's path type (NVL, PIX, PXB, PHB, SYS, ...), the bottleneck in one sentence and,
with --instance, each difference from the catalog's model. `gpuplan train --topology FILE` plans
with the intra-node and GPU-host figures the file gives.
Examples:
  NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,GRAPH torchrun ... 2>&1 | tee nccl.log
  gpuplan topology import nccl.log --instance g6e.48xlarge
  nvidia-smi topo -m > topo.txt && gpuplan topology import topo.txt --format json
)" + std::string(kExitCodes));
    return {topology, [o, app](const Catalog& catalog) {
                if (!app->parsed()) throw InputError("gpuplan topology: name what to do: `gpuplan topology import FILE [--instance TYPE]`");
                return run_topology_import(*o, catalog);
            }};
}

}  // namespace gpuplan::cli
