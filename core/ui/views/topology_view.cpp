// topology_view.cpp — the Topology view: a drawn diagram of the chosen instance (GPUs, the
// NVSwitch / NVLink / PCIe fabric, host CPU socket(s), EFA or ENA network) with each link's
// bandwidth from the core's link graph (gpuplan/topology/topology.hpp), and, when the
// scenario trains on this instance, the exposed communication of its parallel layout on each
// link class (train.exposed_by_link). Nothing here is invented: a figure the catalog lacks is
// drawn as "unknown" with the reason on hover; the second CPU socket is drawn only where the
// topology model itself assumes it (its note says so).
#include <algorithm>
#include <cmath>

#include "gpuplan/input_error.hpp"
#include "gpuplan/scenario/scenario_result.hpp"
#include "gpuplan/workload/training_plan.hpp"
#include "imgui.h"
#include "ui/theme.hpp"
#include "ui/views/view_common.hpp"
#include "ui/widgets.hpp"

namespace gpuplan::ui {
namespace {

std::string link_text(const Link& link) {
    if (!link.known()) return "unknown";
    return format_quantity(link.gb_per_s.value, "GB/s") + (link.measured() ? " (measured)" : "");
}

void link_tooltip(const char* title, const Link& link, const std::string& traffic) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(em(32));
    ImGui::Text("%s: %s", title, std::string(link_words(link.cls)).c_str());
    if (link.known()) {
        ImGui::Text("%s per GPU per direction, latency %s", link_text(link).c_str(), format_quantity(link.latency_us.value, "us").c_str());
        ImGui::TextDisabled("%s", link.description.c_str());
        if (!link.gb_per_s.source.empty()) ImGui::TextDisabled("source: %s", link.gb_per_s.source.c_str());
    } else {
        ImGui::TextColored(to_vec4(palette().warn), "bandwidth unknown");
        ImGui::TextUnformatted(link.unknown_reason.c_str());
    }
    if (!traffic.empty()) {
        ImGui::Separator();
        ImGui::TextUnformatted(traffic.c_str());
    }
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}


bool near_segment(ImVec2 p, ImVec2 a, ImVec2 b, float tolerance) {
    const float dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
    float t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0;
    t = std::clamp(t, 0.0f, 1.0f);
    const float qx = a.x + t * dx - p.x, qy = a.y + t * dy - p.y;
    return qx * qx + qy * qy <= tolerance * tolerance;
}

void draw_diagram(const AppState& state, const Instance& inst, const NodeTopology& topo, const TrainingTime* traffic) {
    const Palette& pal = palette();
    const float width = std::max(ImGui::GetContentRegionAvail().x, em(30)), height = em(19.5f);
    const ImVec2 o = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##diagram", ImVec2(width, height));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(o, ImVec2(o.x + width, o.y + height), pal.plot_bg, em(0.3f));
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const bool hovered = ImGui::IsItemHovered();

    const double gpus_exact = topo.gpus > 0 ? topo.gpus : inst.accelerator_count.value_or(0);
    const int gpus = std::clamp(static_cast<int>(std::ceil(gpus_exact)), 1, 16);
    const auto gpus_f = static_cast<float>(gpus);
    const std::string accel = inst.accelerator.value_or("accelerator");
    const std::string mem = inst.accelerator_memory_gib_each ? format_quantity(*inst.accelerator_memory_gib_each, "GiB") : "memory unknown";
    const float margin = em(1.2f), gap = em(0.5f);
    const float gpu_w = std::min(em(7), (width - 2 * margin - gap * (gpus_f - 1)) / gpus_f), gpu_h = em(3);
    const float gpu_y = o.y + em(1.2f);
    const float row_w = gpus_f * gpu_w + (gpus_f - 1) * gap, x0 = o.x + (width - row_w) / 2;

    auto traffic_for = [&](LinkClass cls) -> std::string {
        if (!traffic) return "";
        const Figure* f = exposed_communication(*traffic, cls);
        const auto v = f ? f->value : std::nullopt;
        if (!v) return "";
        return "training layout: " + format_quantity(*v, "s") + " of exposed communication per step on this link";
    };
    auto link_colour = [&](LinkClass cls, const Link& link) {
        if (!link.known()) return pal.warn;
        return traffic_for(cls).empty() ? pal.axis : pal.series[1];
    };

    // Fabric between the GPUs.
    const float fabric_y = gpu_y + gpu_h + em(1.6f);
    const Link& intra = topo.intra;
    const bool switched = inst.interconnect && *inst.interconnect == Interconnect::nvswitch;
    const bool mesh = inst.interconnect && (*inst.interconnect == Interconnect::nvlink || *inst.interconnect == Interconnect::neuronlink);
    const std::string intra_traffic = traffic_for(intra.cls);
    bool show_intra = false;
    if (gpus > 1 || gpus_exact > 1) {
        const ImU32 c = link_colour(intra.cls, intra);
        const float thick = intra_traffic.empty() ? em(0.12f) : em(0.25f);
        if (switched || mesh) {
            const ImVec2 a(x0, fabric_y), b(x0 + row_w, fabric_y + em(1.4f));
            if (switched) {
                show_intra |= diagram_box(dl, a, b, (c & 0x00FFFFFF) | 0x30000000, c, "NVSwitch  " + link_text(intra) + " per GPU");
            } else {
                dl->AddLine(ImVec2(a.x, (a.y + b.y) / 2), ImVec2(b.x, (a.y + b.y) / 2), c, thick);
                const std::string t = std::string(link_words(intra.cls)) + "  " + link_text(intra) + " per GPU";
                dl->AddText(ImVec2(a.x, b.y), pal.text_dim, t.c_str());
                show_intra |= hovered && near_segment(mouse, ImVec2(a.x, (a.y + b.y) / 2), ImVec2(b.x, (a.y + b.y) / 2), em(0.6f));
            }
            for (int g = 0; g < gpus; ++g) {
                const float cx = x0 + static_cast<float>(g) * (gpu_w + gap) + gpu_w / 2;
                dl->AddLine(ImVec2(cx, gpu_y + gpu_h), ImVec2(cx, fabric_y), c, thick);
                show_intra |= hovered && near_segment(mouse, ImVec2(cx, gpu_y + gpu_h), ImVec2(cx, fabric_y), em(0.4f));
            }
        }
    }

    // Host: PCIe from every GPU to the CPU socket(s); two sockets where the model assumes them.
    const bool two_sockets = std::any_of(topo.links.begin(), topo.links.end(), [](const Link& l) { return l.cls == LinkClass::cross_socket; });
    const float host_y = fabric_y + em(3.6f), host_h = em(2.6f);
    const int sockets = two_sockets ? 2 : 1;
    const float sock_w = sockets == 1 ? em(14) : std::min(em(16), (row_w - gap) / 2);
    bool show_host = false, show_cross = false, show_cpu = false;
    std::vector<ImVec2> sock_centres;
    for (int s = 0; s < sockets; ++s) {
        const float sx = sockets == 1 ? o.x + (width - sock_w) / 2 : (s == 0 ? x0 : x0 + row_w - sock_w);
        const ImVec2 a(sx, host_y), b(sx + sock_w, host_y + host_h);
        sock_centres.emplace_back((a.x + b.x) / 2, (a.y + b.y) / 2);
        const std::string label = sockets == 1 ? "host CPU" : "CPU socket " + std::to_string(s);
        const std::string sub = inst.vcpus ? format_quantity(*inst.vcpus, "vCPUs") + (inst.memory_gib ? ", " + format_quantity(*inst.memory_gib, "GiB RAM") : "")
                                           : "vCPUs unknown";
        // The catalog's vCPUs and RAM are the instance's: written once, not per socket.
        show_cpu |= diagram_box(dl, a, b, (pal.series[2] & 0x00FFFFFF) | 0x26000000, pal.series[2], label, sockets == 1 ? sub : "");
        if (sockets == 2 && s == 0) {
            const ImVec2 ts = ImGui::CalcTextSize(sub.c_str());
            dl->AddText(ImVec2(o.x + (width - ts.x) / 2, host_y + host_h / 2 + em(0.2f)), pal.text_dim, sub.c_str());
        }
    }
    const ImU32 pcie_colour = link_colour(topo.host.cls, topo.host);
    for (int g = 0; g < gpus; ++g) {
        const float cx = x0 + static_cast<float>(g) * (gpu_w + gap) + gpu_w / 2;
        const int s = sockets == 1 ? 0 : (g < gpus / 2 ? 0 : 1);
        const ImVec2 a(cx, gpu_y + gpu_h), b(sock_centres[s].x + (cx - (x0 + row_w / 2)) * 0.15f, host_y);
        if (!(switched || mesh)) dl->AddLine(a, b, pcie_colour, em(0.1f));
        else dl->AddLine(ImVec2(cx, fabric_y + em(1.4f)), b, (pcie_colour & 0x00FFFFFF) | 0x80000000, em(0.06f));
        show_host |= hovered && near_segment(mouse, switched || mesh ? ImVec2(cx, fabric_y + em(1.4f)) : a, b, em(0.4f));
    }
    // The PCIe label sits left of the fan of GPU-to-host lines, clear of the socket boxes.
    const std::string pcie_label = "PCIe " + link_text(topo.host) + " per GPU";
    dl->AddText(ImVec2(std::max(o.x + em(0.5f), std::min(x0, sock_centres[0].x - sock_w / 2) - ImGui::CalcTextSize(pcie_label.c_str()).x - em(0.5f)),
                       host_y - em(1.6f)),
                pal.text_dim, pcie_label.c_str());
    if (sockets == 2) {
        const ImVec2 a(sock_centres[0].x + sock_w / 2, sock_centres[0].y), b(sock_centres[1].x - sock_w / 2, sock_centres[1].y);
        const ImU32 c = link_colour(LinkClass::cross_socket, intra);
        dl->AddLine(a, b, c, em(0.15f));
        const std::string cross = "cross-socket " + link_text(intra);
        dl->AddText(ImVec2((a.x + b.x - ImGui::CalcTextSize(cross.c_str()).x) / 2, a.y - em(1.2f)), pal.text_dim, cross.c_str());
        show_cross = hovered && near_segment(mouse, a, b, em(0.5f));
    }

    // Network: EFA interfaces (or ENA) to other nodes.
    const float net_y = host_y + host_h + em(2.2f);
    const int efa = static_cast<int>(inst.efa_interfaces.value_or(0));
    const std::string net_label = efa > 0 ? std::to_string(efa) + " x EFA" + (inst.gpudirect_rdma.value_or(false) ? " (GPUDirect RDMA)" : "")
                                          : "ENA (no EFA)";
    const std::string net_sub = (inst.network_gbit_per_s ? format_quantity(*inst.network_gbit_per_s, "Gbit/s") : std::string("network unknown")) +
                                ", " + link_text(topo.inter) + " per GPU";
    const ImVec2 na(o.x + (width - em(22)) / 2, net_y), nb(na.x + em(22), net_y + em(2.6f));
    const ImU32 net_colour = link_colour(topo.inter.cls, topo.inter);
    dl->AddLine(ImVec2((na.x + nb.x) / 2, host_y + host_h), ImVec2((na.x + nb.x) / 2, net_y), net_colour,
                traffic_for(topo.inter.cls).empty() ? em(0.12f) : em(0.25f));
    bool show_net = diagram_box(dl, na, nb, (net_colour & 0x00FFFFFF) | 0x26000000, net_colour, net_label, net_sub);
    show_net |= hovered && near_segment(mouse, ImVec2((na.x + nb.x) / 2, host_y + host_h), ImVec2((na.x + nb.x) / 2, net_y), em(0.4f));

    // The training layout's exposed communication, written beside the link that carries it.
    const auto traffic_label = [&](LinkClass cls, ImVec2 at) {
        if (!traffic) return;
        if (const Figure* f = exposed_communication(*traffic, cls); f && f->value)
            dl->AddText(at, pal.series[1], ("training: " + format_quantity(*f->value, "s") + " exposed per step").c_str());
    };
    traffic_label(intra.cls, ImVec2(x0 + row_w + em(0.5f), fabric_y + em(0.1f)));
    traffic_label(topo.inter.cls, ImVec2(nb.x + em(0.5f), net_y + em(0.7f)));

    // GPUs last, on top of the link ends.
    bool show_gpu = false;
    for (int g = 0; g < gpus; ++g) {
        const ImVec2 a(x0 + static_cast<float>(g) * (gpu_w + gap), gpu_y), b(a.x + gpu_w, gpu_y + gpu_h);
        const std::string name = gpus_exact < 1 ? format_quantity(gpus_exact, "") + " GPU" : "GPU " + std::to_string(g);
        show_gpu |= diagram_box(dl, a, b, (pal.series[0] & 0x00FFFFFF) | 0x30000000, pal.series[0], name, gpu_w > em(5) ? mem : "");
    }
    if (gpus_exact > 16) dl->AddText(ImVec2(x0, gpu_y - em(1.1f)), pal.text_dim, ("first 16 of " + format_quantity(gpus_exact, "") + " accelerators drawn").c_str());

    if (show_intra) link_tooltip("inside the node", intra, intra_traffic);
    else if (show_cross) link_tooltip("between the CPU sockets", intra, traffic_for(LinkClass::cross_socket));
    else if (show_host) link_tooltip("GPU to host (PCIe)", topo.host, traffic_for(topo.host.cls));
    else if (show_net) link_tooltip("to other nodes", topo.inter, traffic_for(topo.inter.cls));
    else if (show_gpu) {
        ImGui::BeginTooltip();
        ImGui::Text("%s, %s", accel.c_str(), mem.c_str());
        if (const Accelerator* a = state.catalog->find_accelerator(accel)) {
            if (a->memory_bandwidth_gb_per_s) ImGui::Text("memory bandwidth %s", format_quantity(*a->memory_bandwidth_gb_per_s, "GB/s").c_str());
            ImGui::Text("dense BF16 %s", a->dense_tflops.bf16 ? format_quantity(*a->dense_tflops.bf16, "TFLOPS").c_str() : "unknown");
        }
        ImGui::EndTooltip();
    } else if (show_cpu) {
        ImGui::SetTooltip("%s", two_sockets ? "Two sockets: assumed by the topology model for 8 or more PCIe GPUs (see notes)"
                                            : "The host: the catalog gives vCPUs and RAM, not the socket count");
    }
}

void draw_catalog_model(AppState& state) {
    ViewStates& vs = *state.views;
    const std::string name = chosen_instance(state);
    // Which instance: the train section's when it trains (its layout's traffic is drawn),
    // else price.instance; a combo changes that section's instance.
    const bool trains = find_json(state.scenario, {"train", "instance"}) != nullptr;
    const std::string shown = trains ? json_string(find_json(state.scenario, {"train", "instance"})) : name;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Instance");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(em(14));
    if (ImGui::BeginCombo("##topology_instance", shown.empty() ? "(choose)" : shown.c_str())) {
        for (const Instance& i : state.catalog->instances)
            if (ImGui::Selectable(i.name.c_str(), i.name == shown)) {
                if (trains) {
                    state.scenario["train"]["instance"] = i.name;
                    scenario_edited(state);
                } else {
                    choose_instance(state, i.name);
                }
            }
        ImGui::EndCombo();
    }
    if (shown.empty()) {
        empty_state("Choose an instance (here or in the Catalog view) to see its link graph.", nullptr);
        return;
    }
    const Instance* inst = state.catalog->find_instance(shown);
    if (!inst) {
        ImGui::TextColored(to_vec4(palette().bad), "%s is not in the catalog", shown.c_str());
        return;
    }
    if (vs.topology_generation != vs.generation || vs.topology_instance != shown) {
        vs.topology_generation = vs.generation;
        vs.topology_instance = shown;
        vs.topology_error.clear();
        vs.topology.reset();
        try {
            vs.topology = node_topology(*state.catalog, *inst);
        } catch (const std::exception& e) {
            vs.topology_error = e.what();
        }
    }
    if (!vs.topology) {
        ImGui::TextColored(to_vec4(palette().bad), "%s", vs.topology_error.c_str());
        return;
    }
    const TrainingTime* traffic = trains && state.result && state.result->train ? &state.result->train->time : nullptr;
    ImGui::SameLine();
    dim_text_beside(format_quantity(vs.topology->gpus, "") + " x " + inst->accelerator.value_or("?") + ", " +
                    (inst->interconnect ? std::string(to_string(*inst->interconnect)) : "interconnect unknown"));
    // The diagram needs about 30 em to keep its boxes readable; on a narrower screen (a phone)
    // it scrolls sideways in a frame of its own rather than being cut at the right edge.
    const bool scrolls = begin_sideways_scroll("##diagram_scroll", em(30), em(19.5f));
    draw_diagram(state, *inst, *vs.topology, traffic);
    end_sideways_scroll(scrolls);

    heading("Links");
    // Sized to its content and scrolling sideways when the window is narrower (a phone).
    if (ImGui::BeginTable("links", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX,
                          ImVec2(0, table_height(3, 12)))) {
        for (const char* h : {"link", "GB/s per GPU per direction", "latency", "exposed per training step"}) ImGui::TableSetupColumn(h);
        ImGui::TableHeadersRow();
        const struct { const char* role; const Link* link; } rows[] = {{"inside the node (ring bottleneck)", &vs.topology->intra},
                                                                       {"to other nodes", &vs.topology->inter},
                                                                       {"GPU to host", &vs.topology->host}};
        for (const auto& r : rows) {
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::Text("%s: %s", r.role, std::string(link_words(r.link->cls)).c_str());
            ImGui::TableSetColumnIndex(1);
            text_right(link_text(*r.link));
            if (ImGui::IsItemHovered()) link_tooltip(r.role, *r.link, "");
            ImGui::TableSetColumnIndex(2);
            text_right(r.link->known() ? format_quantity(r.link->latency_us.value, "us") : "unknown");
            ImGui::TableSetColumnIndex(3);
            const Figure* t = traffic ? exposed_communication(*traffic, r.link->cls) : nullptr;
            if (t) figure_value_text(*t, std::string("exposed per training step: ") + r.role);
            else text_right(trains ? "none" : "-");
        }
        ImGui::EndTable();
    }
    if (!trains) note("Add a train section (Training view) to see its parallel layout's traffic on each link.");
    for (const std::string& n : vs.topology->notes) note(("- " + n).c_str());
}

}  // namespace

void draw_topology_view(AppState& state) {
    // An imported machine (an NCCL log, nvidia-smi topo -m) first, then the catalog's model of
    // the instance to compare it with; without one, the model and how to import one.
    if (state.result && state.result->topology && find_json(state.scenario, {"topology"})) {
        draw_machine_topology(state);
        heading("The catalog's model");
        draw_catalog_model(state);
    } else {
        draw_catalog_model(state);
        heading("This machine");
        draw_machine_topology(state);
    }
}

}  // namespace gpuplan::ui
