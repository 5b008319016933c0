// machine_topology_view.cpp — the Topology view's imported machine: what an NCCL topology
// dump or `nvidia-smi topo -m` says about the machine's own links (the scenario's `topology`
// section, evaluated by core/gpuplan/topology/machine_topology.hpp), drawn as a PCIe tree per
// CPU socket, a GPU-pair matrix and the bottleneck in words, with each difference from the
// catalog's model of the instance named. Every figure comes from results.topology.
#include <algorithm>
#include <cstring>
#include <map>

#include "gpuplan/input_error.hpp"
#include "gpuplan/topology/machine_topology.hpp"
#include "imgui.h"
#include "ui/theme.hpp"
#include "ui/views/view_common.hpp"
#include "ui/widgets.hpp"

namespace gpuplan::ui {
namespace {

struct TreeRow {
    const nlohmann::json* node;
    int depth;
};

// The nodes under `name` in the order NCCL printed them, depth first.
void collect(const nlohmann::json& nodes, const std::string& name, int depth, std::vector<TreeRow>& rows) {
    if (depth > 8) return;
    for (const auto& n : nodes)
        if (json_string(find_json(n, {"parent"})) == name) {
            rows.push_back({&n, depth});
            collect(nodes, json_string(find_json(n, {"name"})), depth + 1, rows);
        }
}

std::string node_label(const nlohmann::json& n) {
    const std::string kind = json_string(find_json(n, {"kind"}));
    const auto index = json_number(find_json(n, {"index"}));
    if (kind == "GPU" && index) return "GPU " + format_quantity(*index, "");
    if (kind == "NIC" || kind == "NET") return "NIC " + json_string(find_json(n, {"name"})).substr(4);
    if (kind == "PCIe switch") return "PCIe switch";
    return json_string(find_json(n, {"name"}));
}

// What each node's links say, keyed by node name: its PCI uplink and its other links.
struct NodeLinks {
    std::optional<double> pci_gb_per_s;
    std::vector<std::string> others;  // "NVL 240 GB/s to NVS/0-0"
};

std::map<std::string, NodeLinks> links_by_node(const nlohmann::json& topo) {
    std::map<std::string, NodeLinks> out;
    const nlohmann::json* links = find_json(topo, {"links"});
    if (!links || !links->is_array()) return out;
    for (const auto& l : *links) {
        const std::string type = json_string(find_json(l, {"type"}));
        const double gbps = json_number(find_json(l, {"gb_per_s"})).value_or(0);
        if (type == "PCI") out[json_string(find_json(l, {"to"}))].pci_gb_per_s = gbps;
        else out[json_string(find_json(l, {"from"}))].others.push_back(type + " " + format_quantity(gbps, "GB/s") + " to " + json_string(find_json(l, {"to"})));
    }
    return out;
}

// One column per CPU socket: the socket, then what hangs under it, indented by depth.
void draw_tree(const nlohmann::json& topo) {
    const nlohmann::json* nodes = find_json(topo, {"nodes"});
    if (!nodes || !nodes->is_array()) return;
    std::vector<const nlohmann::json*> cpus;
    for (const auto& n : *nodes)
        if (json_string(find_json(n, {"kind"})) == "CPU") cpus.push_back(&n);
    if (cpus.empty()) return;
    const auto links = links_by_node(topo);
    std::vector<std::vector<TreeRow>> columns;
    std::size_t tallest = 0;
    for (const auto* cpu : cpus) {
        std::vector<TreeRow> rows;
        collect(*nodes, json_string(find_json(*cpu, {"name"})), 1, rows);
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
        const std::string cpu_name = json_string(find_json(*cpus[c], {"name"}));
        std::string sys;
        if (auto it = links.find(cpu_name); it != links.end())
            for (const auto& o2 : it->second.others)
                if (o2.rfind("SYS", 0) == 0) sys = o2;
        if (diagram_box(dl, ImVec2(x, o.y + em(0.4f)), ImVec2(x + box_w, o.y + em(0.4f) + box_h), (pal.series[2] & 0x00FFFFFF) | 0x26000000, pal.series[2],
                        "CPU " + cpu_name.substr(4), sys))
            hover = cpu_name + (sys.empty() ? "" : ": " + sys);
        for (std::size_t r = 0; r < columns[c].size(); ++r) {
            const nlohmann::json& n = *columns[c][r].node;
            const std::string name = json_string(find_json(n, {"name"})), kind = json_string(find_json(n, {"kind"}));
            const float bx = x + indent * static_cast<float>(columns[c][r].depth), by = o.y + em(0.4f) + row_h * static_cast<float>(r + 1);
            const ImU32 colour = kind == "GPU" ? pal.series[0] : kind == "NIC" || kind == "NET" ? pal.series[4] : pal.axis;
            const auto it = links.find(name);
            std::string sub;
            if (it != links.end() && it->second.pci_gb_per_s) sub = "PCIe " + format_quantity(*it->second.pci_gb_per_s, "GB/s");
            dl->AddLine(ImVec2(bx - indent / 2, by - (row_h - box_h)), ImVec2(bx - indent / 2, by + box_h / 2), pal.axis, 1.0f);
            dl->AddLine(ImVec2(bx - indent / 2, by + box_h / 2), ImVec2(bx, by + box_h / 2), pal.axis, 1.0f);
            if (diagram_box(dl, ImVec2(bx, by), ImVec2(bx + box_w - indent * static_cast<float>(columns[c][r].depth - 1), by + box_h),
                            (colour & 0x00FFFFFF) | 0x30000000, colour, node_label(n), sub)) {
                hover = name + " (" + kind + ")";
                if (!json_string(find_json(n, {"detail"})).empty()) hover += "  " + json_string(find_json(n, {"detail"}));
                if (it != links.end())
                    for (const auto& other : it->second.others) hover += "\n" + other;
            }
        }
    }
    end_sideways_scroll(scrolls);
    if (!hover.empty()) ImGui::SetTooltip("%s", hover.c_str());
}

// GPU pairs: bandwidth and NCCL's path type, shaded by bandwidth against the fastest pair.
void draw_pair_matrix(const nlohmann::json& topo) {
    const nlohmann::json* nodes = find_json(topo, {"nodes"});
    const nlohmann::json* paths = find_json(topo, {"paths"});
    if (!nodes || !paths) return;
    std::vector<std::pair<std::string, std::string>> gpus;  // name, label
    for (const auto& n : *nodes)
        if (json_string(find_json(n, {"kind"})) == "GPU") gpus.emplace_back(json_string(find_json(n, {"name"})), node_label(n));
    std::sort(gpus.begin(), gpus.end(), [](const auto& a, const auto& b) { return a.second.size() != b.second.size() ? a.second.size() < b.second.size() : a.second < b.second; });
    if (gpus.size() < 2 || gpus.size() > 32) return;
    std::map<std::pair<std::string, std::string>, const nlohmann::json*> by_pair;
    double fastest = 0;
    for (const auto& p : *paths) {
        by_pair[{json_string(find_json(p, {"from"})), json_string(find_json(p, {"to"}))}] = &p;
        fastest = std::max(fastest, json_number(find_json(p, {"gb_per_s"})).value_or(0));
    }
    heading("GPU to GPU");
    if (!ImGui::BeginTable("gpu_pairs", static_cast<int>(gpus.size()) + 1, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) return;
    ImGui::TableSetupColumn("");
    for (const auto& g : gpus) ImGui::TableSetupColumn(g.second.c_str());
    ImGui::TableHeadersRow();
    for (const auto& a : gpus) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(a.second.c_str());
        for (std::size_t k = 0; k < gpus.size(); ++k) {
            ImGui::TableSetColumnIndex(static_cast<int>(k) + 1);
            if (a.first == gpus[k].first) {
                ImGui::TextDisabled("-");
                continue;
            }
            const auto it = by_pair.find({a.first, gpus[k].first});
            if (it == by_pair.end()) {
                ImGui::TextDisabled("?");
                continue;
            }
            const nlohmann::json& p = *it->second;
            const auto gbps = json_number(find_json(p, {"gb_per_s"}));
            const auto nvlinks = json_number(find_json(p, {"nvlinks"}));
            std::string type = json_string(find_json(p, {"type"}));
            if (nvlinks) type = "NV" + format_quantity(*nvlinks, "");
            if (gbps && fastest > 0) {
                const float share = static_cast<float>(*gbps / fastest);
                ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, (palette().series[0] & 0x00FFFFFF) | (static_cast<ImU32>(20 + 90 * share) << 24));
            }
            ImGui::Text("%s%s%s", gbps ? (format_quantity(*gbps, "") + " ").c_str() : "", type.c_str(),
                        find_json(p, {"derived"}) && find_json(p, {"derived"})->is_boolean() && find_json(p, {"derived"})->get<bool>() ? "~" : "");
        }
    }
    ImGui::EndTable();
    note("GB/s per direction as NCCL computed each path (none from nvidia-smi, which names the connection only); ~ worked out from the tree.");
}

void draw_paste(AppState& state) {
    static char buffer[65536];  // widget memory only (what the user is pasting)
    static std::string error;
    if (!ImGui::CollapsingHeader("Paste an NCCL log or nvidia-smi topo -m output")) return;
    ImGui::InputTextMultiline("##topology_paste", buffer, sizeof buffer, ImVec2(-1, em(7)));
    if (ImGui::Button("Import pasted topology")) {
        try {
            nlohmann::json& s = scenario_section(state, "topology");
            s["name"] = "pasted log";
            s["text"] = topology_excerpt(std::string_view(buffer, std::strlen(buffer)), "pasted log");
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

}  // namespace

void draw_machine_topology(AppState& state) {
    const nlohmann::json* topo = find_json(state.results, {"topology"});
    if (!topo || !find_json(state.scenario, {"topology"})) {
        note("Import file… (or drop) an NCCL_DEBUG=INFO log or `nvidia-smi topo -m` output to see this machine's own links beside the catalog's model.");
        draw_paste(state);
        return;
    }
    const nlohmann::json* summary = find_json(*topo, {"summary"});
    heading("This machine, as it reports itself");
    const bool partial = find_json(*topo, {"partial"}) && find_json(*topo, {"partial"})->get<bool>();
    ImGui::Text("%s (%s)%s", json_string(find_json(state.scenario, {"topology", "name"})).c_str(), json_string(find_json(*topo, {"format"})).c_str(),
                partial ? "  — partial" : "");
    ImGui::SameLine();
    if (ImGui::SmallButton("Remove")) {
        state.scenario.erase("topology");
        scenario_edited(state);
        return;
    }
    // The instance type to compare with (the section's; else the core takes the train's or price's).
    const nlohmann::json* comparison = find_json(*topo, {"comparison"});
    const std::string compared = comparison ? json_string(find_json(*comparison, {"instance"})) : "";
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
    ImGui::PushTextWrapPos(0);
    if (summary) {
        const std::string bottleneck = json_string(find_json(*summary, {"bottleneck"}));
        ImGui::TextColored(to_vec4(bottleneck.find("no NVLink") != std::string::npos ? palette().warn : palette().text), "%s", bottleneck.c_str());
    }
    ImGui::PopTextWrapPos();
    draw_tree(*topo);
    draw_pair_matrix(*topo);
    if (summary)
        if (const nlohmann::json* facts = find_json(*summary, {"facts"}); facts && facts->is_array())
            for (const auto& f : *facts) note(("- " + f.get<std::string>()).c_str());
    if (comparison) {
        heading(("Compared with the catalog's " + json_string(find_json(*comparison, {"instance"}))).c_str());
        ImGui::PushTextWrapPos(0);
        for (const char* key : {"differences", "agreements"})
            if (const nlohmann::json* lines = find_json(*comparison, {key}); lines && lines->is_array())
                for (const auto& l : *lines)
                    ImGui::TextColored(to_vec4(std::strcmp(key, "differences") == 0 ? palette().warn : palette().good), "%s %s",
                                       std::strcmp(key, "differences") == 0 ? "differs:" : "agrees:", l.get<std::string>().c_str());
        ImGui::PopTextWrapPos();
    }
    for (const char* key : {"missing", "notes"})
        if (const nlohmann::json* lines = find_json(*topo, {key}); lines && lines->is_array())
            for (const auto& l : *lines) note(((std::strcmp(key, "missing") == 0 ? "missing: " : "note: ") + l.get<std::string>()).c_str());
    if (find_json(state.scenario, {"train"})) note("The Training view plans with this machine's intra-node and GPU-host figures (they replace the catalog's).");
    draw_paste(state);
}

}  // namespace gpuplan::ui
