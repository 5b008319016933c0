// machine_topology_view.cpp — the Topology view's imported machine: what an NCCL topology
// dump or `nvidia-smi topo -m` says about the machine's own links (the scenario's `topology`
// section, evaluated by core/gpuplan/topology/machine_topology.hpp), drawn as a PCIe tree per
// CPU socket, a GPU-pair matrix and the bottleneck in words, with each difference from the
// catalog's model of the instance named. Everything shown comes from the typed result
// (AppState::result->topology: MachineTopology, its summary and the comparison).
#include <algorithm>
#include <cstring>
#include <map>

#include "gpuplan/input_error.hpp"
#include "gpuplan/scenario/scenario_result.hpp"
#include "gpuplan/topology/machine_topology.hpp"
#include "imgui_stdlib.h"
#include "imgui.h"
#include "ui/theme.hpp"
#include "ui/views/view_common.hpp"
#include "ui/widgets.hpp"

namespace gpuplan::ui {
namespace {

struct TreeRow {
    const TopoNode* node;
    int depth;
};

// The nodes under `name` in the order the source printed them, depth first.
void collect(const MachineTopology& topo, const std::string& name, int depth, std::vector<TreeRow>& rows) {
    if (depth > 8) return;
    for (const TopoNode& n : topo.nodes)
        if (n.parent == name) {
            rows.push_back({&n, depth});
            collect(topo, n.name, depth + 1, rows);
        }
}

std::string node_label(const TopoNode& n) {
    if (n.kind == TopoNodeKind::gpu && n.index) return "GPU " + std::to_string(*n.index);
    if (n.kind == TopoNodeKind::nic || n.kind == TopoNodeKind::net) return "NIC " + (n.name.size() > 4 ? n.name.substr(4) : n.name);
    if (n.kind == TopoNodeKind::pci_switch) return "PCIe switch";
    return n.name;
}

// What each node's links say, keyed by node name: its PCI uplink and its other links.
struct NodeLinks {
    std::optional<double> pci_gb_per_s;
    std::vector<std::string> others;  // "NVL 240 GB/s to NVS/0-0"
};

std::map<std::string, NodeLinks> links_by_node(const MachineTopology& topo) {
    std::map<std::string, NodeLinks> out;
    for (const TopoLink& l : topo.links) {
        if (l.type == "PCI") out[l.to].pci_gb_per_s = l.gb_per_s;
        else out[l.from].others.push_back(l.type + " " + format_quantity(l.gb_per_s, "GB/s") + " to " + l.to);
    }
    return out;
}

// One node of the tree: its box under its parent's line, and what hovering it says.
void draw_tree_node(ImDrawList* dl, const TreeRow& row, ImVec2 at, float box_w, const std::map<std::string, NodeLinks>& links, std::string& hover) {
    const Palette& pal = palette();
    const TopoNode& n = *row.node;
    const float row_h = em(2.4f), box_h = em(2.0f), indent = em(1.4f);
    const ImU32 colour = n.kind == TopoNodeKind::gpu ? pal.series[0] : n.kind == TopoNodeKind::nic || n.kind == TopoNodeKind::net ? pal.series[4] : pal.axis;
    const auto it = links.find(n.name);
    std::string sub;
    if (it != links.end() && it->second.pci_gb_per_s) sub = "PCIe " + format_quantity(*it->second.pci_gb_per_s, "GB/s");
    dl->AddLine(ImVec2(at.x - indent / 2, at.y - (row_h - box_h)), ImVec2(at.x - indent / 2, at.y + box_h / 2), pal.axis, 1.0f);
    dl->AddLine(ImVec2(at.x - indent / 2, at.y + box_h / 2), ImVec2(at.x, at.y + box_h / 2), pal.axis, 1.0f);
    if (diagram_box(dl, at, ImVec2(at.x + box_w - indent * static_cast<float>(row.depth - 1), at.y + box_h), (colour & 0x00FFFFFF) | 0x30000000, colour,
                    node_label(n), sub)) {
        hover = n.name + " (" + std::string(to_string(n.kind)) + ")";
        if (!n.detail.empty()) hover += "  " + n.detail;
        if (it != links.end())
            for (const auto& other : it->second.others) hover += "\n" + other;
    }
}

// One column per CPU socket: the socket, then what hangs under it, indented by depth.
void draw_tree(const MachineTopology& topo) {
    const std::vector<const TopoNode*> cpus = topo.of_kind(TopoNodeKind::cpu);
    if (cpus.empty()) return;
    const auto links = links_by_node(topo);
    std::vector<std::vector<TreeRow>> columns;
    std::size_t tallest = 0;
    for (const TopoNode* cpu : cpus) {
        std::vector<TreeRow> rows;
        collect(topo, cpu->name, 1, rows);
        tallest = std::max(tallest, rows.size());
        columns.push_back(rows);
    }
    const Palette& pal = palette();
    const float row_h = em(2.4f), box_h = em(2.0f), indent = em(1.4f);
    const float width = std::max(ImGui::GetContentRegionAvail().x, em(30));
    const float col_w = width / static_cast<float>(cpus.size());
    const float height = row_h * static_cast<float>(tallest + 1) + em(1.0f);
    // Narrower than 30 em (a phone), the tree scrolls sideways in a frame of its own.
    const bool scrolls = begin_sideways_scroll("##tree_scroll", em(30), height);
    const ImVec2 o = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##machine_tree", ImVec2(width, height));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(o, ImVec2(o.x + width, o.y + height), pal.plot_bg, em(0.3f));
    std::string hover;
    for (std::size_t c = 0; c < cpus.size(); ++c) {
        const float x = o.x + col_w * static_cast<float>(c) + em(0.5f), box_w = std::min(em(13), col_w - em(6));
        const std::string& cpu_name = cpus[c]->name;
        std::string sys;
        if (auto it = links.find(cpu_name); it != links.end())
            for (const auto& o2 : it->second.others)
                if (o2.rfind("SYS", 0) == 0) sys = o2;
        if (diagram_box(dl, ImVec2(x, o.y + em(0.4f)), ImVec2(x + box_w, o.y + em(0.4f) + box_h), (pal.series[2] & 0x00FFFFFF) | 0x26000000, pal.series[2],
                        "CPU " + (cpu_name.size() > 4 ? cpu_name.substr(4) : cpu_name), sys))
            hover = cpu_name + (sys.empty() ? "" : ": " + sys);
        for (std::size_t r = 0; r < columns[c].size(); ++r) {
            const ImVec2 at(x + indent * static_cast<float>(columns[c][r].depth), o.y + em(0.4f) + row_h * static_cast<float>(r + 1));
            draw_tree_node(dl, columns[c][r], at, box_w, links, hover);
        }
    }
    end_sideways_scroll(scrolls);
    if (!hover.empty()) ImGui::SetTooltip("%s", hover.c_str());
}

// One cell of the GPU-pair matrix: bandwidth and path type, shaded against the fastest pair.
void draw_pair_cell(const TopoPath& p, double fastest) {
    std::string type = p.type;
    if (p.nvlinks) type = "NV" + std::to_string(*p.nvlinks);
    if (p.gb_per_s && fastest > 0) {
        const float share = static_cast<float>(*p.gb_per_s / fastest);
        ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, (palette().series[0] & 0x00FFFFFF) | (static_cast<ImU32>(20 + 90 * share) << 24));
    }
    ImGui::Text("%s%s%s", p.gb_per_s ? (format_quantity(*p.gb_per_s, "") + " ").c_str() : "", type.c_str(), p.derived ? "~" : "");
}

// GPU pairs: bandwidth and NCCL's path type, shaded by bandwidth against the fastest pair.
void draw_pair_matrix(const MachineTopology& topo) {
    std::vector<const TopoNode*> gpus = topo.of_kind(TopoNodeKind::gpu);  // by index
    if (gpus.size() < 2 || gpus.size() > 32) return;
    double fastest = 0;
    for (const TopoPath& p : topo.paths) fastest = std::max(fastest, p.gb_per_s.value_or(0));
    heading("GPU to GPU");
    if (!ImGui::BeginTable("gpu_pairs", static_cast<int>(gpus.size()) + 1, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) return;
    ImGui::TableSetupColumn("");
    std::vector<std::string> labels;
    for (const TopoNode* g : gpus) labels.push_back(node_label(*g));
    for (const std::string& l : labels) ImGui::TableSetupColumn(l.c_str());
    ImGui::TableHeadersRow();
    const PathIndex index(topo);
    for (std::size_t a = 0; a < gpus.size(); ++a) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(labels[a].c_str());
        for (std::size_t k = 0; k < gpus.size(); ++k) {
            ImGui::TableSetColumnIndex(static_cast<int>(k) + 1);
            if (a == k) ImGui::TextDisabled("-");
            else if (const TopoPath* p = index.find(gpus[a]->name, gpus[k]->name)) draw_pair_cell(*p, fastest);
            else ImGui::TextDisabled("?");
        }
    }
    ImGui::EndTable();
    note("GB/s per direction as NCCL computed each path (none from nvidia-smi, which names the connection only); ~ worked out from the tree.");
}

void draw_paste(AppState& state) {
    if (!ImGui::CollapsingHeader("Paste an NCCL log or nvidia-smi topo -m output")) return;
    // Grows with what is pasted (imgui_stdlib): a large machine's NCCL log is never cut.
    std::string& text = state.views->topology_paste;
    std::string& error = state.views->topology_paste_error;
    ImGui::InputTextMultiline("##topology_paste", &text, ImVec2(-1, em(7)));
    if (ImGui::Button("Import pasted topology")) {
        try {
            nlohmann::json& s = scenario_section(state, "topology");
            s["name"] = "pasted log";
            s["text"] = topology_excerpt(text, "pasted log");
            error.clear();
            scenario_edited(state);
        } catch (const InputError& e) {
            error = e.what();
        }
    }
    if (!error.empty()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(to_vec4(palette().bad), "%s", error.c_str());
        ImGui::PopTextWrapPos();
    }
}

// The instance type to compare with (the section's; else the core takes the train's or price's).
void draw_compare_picker(AppState& state, const std::string& compared) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Compare with the catalog's");
    ImGui::SameLine();
    new_line_unless_fits(em(14));
    ImGui::SetNextItemWidth(em(14));
    if (ImGui::BeginCombo("##compare_instance", compared.empty() ? "(choose an instance type)" : compared.c_str())) {
        for (const Instance& i : state.catalog->instances)
            if (i.accelerator_count && *i.accelerator_count >= 2 && ImGui::Selectable(i.name.c_str(), i.name == compared)) {
                state.scenario["topology"]["instance"] = i.name;
                scenario_edited(state);
            }
        ImGui::EndCombo();
    }
}

void draw_comparison(const TopologyComparison& comparison) {
    heading(("Compared with the catalog's " + comparison.instance).c_str());
    ImGui::PushTextWrapPos(0);
    for (const std::string& l : comparison.differences) ImGui::TextColored(to_vec4(palette().warn), "differs: %s", l.c_str());
    for (const std::string& l : comparison.agreements) ImGui::TextColored(to_vec4(palette().good), "agrees: %s", l.c_str());
    ImGui::PopTextWrapPos();
}

}  // namespace

void draw_machine_topology(AppState& state) {
    const TopologySectionResult* imported = state.result && state.result->topology ? &*state.result->topology : nullptr;
    if (!imported || !find_json(state.scenario, {"topology"})) {
        note("Import file… (or drop) an NCCL_DEBUG=INFO log or `nvidia-smi topo -m` output to see this machine's own links beside the catalog's model.");
        draw_paste(state);
        return;
    }
    const MachineTopology& topo = imported->machine;
    const TopologySummary& summary = imported->summary;
    heading("This machine, as it reports itself");
    ImGui::Text("%s (%s)%s", json_string(find_json(state.scenario, {"topology", "name"})).c_str(), std::string(to_string(topo.format)).c_str(),
                topo.partial ? "  — partial" : "");
    ImGui::SameLine();
    if (ImGui::SmallButton("Remove")) {
        state.scenario.erase("topology");
        scenario_edited(state);
        return;
    }
    draw_compare_picker(state, imported->comparison ? imported->comparison->instance : "");
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(to_vec4(summary.bottleneck.find("no NVLink") != std::string::npos ? palette().warn : palette().text), "%s",
                       summary.bottleneck.c_str());
    ImGui::PopTextWrapPos();
    draw_tree(topo);
    draw_pair_matrix(topo);
    for (const std::string& f : summary.facts) note(("- " + f).c_str());
    if (imported->comparison) draw_comparison(*imported->comparison);
    for (const std::string& l : topo.missing) note(("missing: " + l).c_str());
    for (const std::string& l : topo.notes) note(("note: " + l).c_str());
    if (find_json(state.scenario, {"train"})) note("The Training view plans with this machine's intra-node and GPU-host figures (they replace the catalog's).");
    draw_paste(state);
}

}  // namespace gpuplan::ui
