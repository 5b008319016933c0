// decode_view.cpp — the Decode pipeline view: the synchronous versus asynchronous chunked
// decode as a Gantt chart (host, copy and compute lanes of each pipeline, from the core's
// discrete-event simulation: gpuplan/decode/decode_sim.hpp), utilisation, RTF, the fit to
// measurements, and the cost per hour of video for every purchase option (decode_plan.hpp).
#include <algorithm>
#include <cmath>

#include "imgui.h"
#include "ui/plot.hpp"
#include "ui/theme.hpp"
#include "ui/views/view_common.hpp"
#include "ui/widgets.hpp"

namespace gpuplan::ui {
namespace {

void draw_gantt(const nlohmann::json& timeline, double& shown_ms) {
    const char* pipelines[] = {"sync", "async"};
    const char* lanes[] = {"host", "copy", "compute"};
    std::vector<std::string> rows;  // top to bottom
    double end_ms = 0, first_chunk_ms = 0;
    for (const char* p : pipelines)
        for (const char* l : lanes) {
            rows.push_back(std::string(p) + " " + l);
            if (const nlohmann::json* segs = find_json(timeline, {p, l}); segs && segs->is_array() && !segs->empty())
                first_chunk_ms = std::max(first_chunk_ms, json_number(find_json((*segs)[0], {"end_ms"})).value_or(0));
            if (const nlohmann::json* segs = find_json(timeline, {p, l}); segs && segs->is_array())
                for (const auto& s : *segs) end_ms = std::max(end_ms, json_number(find_json(s, {"end_ms"})).value_or(0));
        }
    if (end_ms <= 0) return;
    ImGui::SetNextItemWidth(em(14));
    // By default about six chunks are shown, where the two pipelines' overlap is visible.
    // A range from a link is kept as given (it may be for a longer video) and only clamped here.
    const double lowest = std::min(end_ms, 50.0);
    const double wanted = shown_ms > 0 ? shown_ms : std::min(end_ms, std::max(50.0, first_chunk_ms * 6));
    float shown = static_cast<float>(std::clamp(wanted, lowest, end_ms));
    if (ImGui::SliderFloat("time shown", &shown, static_cast<float>(lowest), static_cast<float>(end_ms), "%.0f ms",
                           ImGuiSliderFlags_AlwaysClamp))
        shown_ms = std::round(shown);
    mark_widget("time shown");
    if (plot::BeginPlot("##gantt", ImVec2(-1, em(13)))) {
        plot::SetupAxes("ms from the start of the video", "");
        // Tick label k sits at y = k (bottom up), so the list is reversed to read top-down.
        plot::SetupAxisTicksY(std::vector<std::string>(rows.rbegin(), rows.rend()));
        // Lanes top to bottom as listed: row k is drawn at y = rows - 1 - k.
        plot::SetupAxisLimits(0, shown, -0.5, static_cast<double>(rows.size()) - 0.5);
        const ImU32 colours[] = {palette().series[2], palette().series[1], palette().series[0]};
        int row = 0;
        for (const char* p : pipelines)
            for (int l = 0; l < 3; ++l, ++row) {
                const nlohmann::json* segs = find_json(timeline, {p, lanes[l]});
                if (!segs || !segs->is_array()) continue;
                const double y = static_cast<double>(rows.size() - 1 - static_cast<std::size_t>(row));
                for (const auto& s : *segs) {
                    const auto a = json_number(find_json(s, {"start_ms"})), b = json_number(find_json(s, {"end_ms"}));
                    if (!a || !b || *a > shown) continue;
                    const int chunk = static_cast<int>(json_number(find_json(s, {"chunk"})).value_or(-1));
                    plot::PlotRect(lanes[l], *a, *b, y - 0.35, y + 0.35, colours[l],
                                   std::string(p) + " pipeline, chunk " + std::to_string(chunk) + ", " + format_quantity(*b - *a, "ms"));
                }
            }
        plot::EndPlot();
    }
}

void draw_figures(const nlohmann::json& figures) {
    if (!ImGui::BeginTable("decode_figures", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp))
        return;
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthStretch, 1.6f);
    ImGui::TableSetupColumn("synchronous");
    ImGui::TableSetupColumn("asynchronous");
    ImGui::TableHeadersRow();
    const struct { const char* label; const char* key; } rows[] = {
        {"decode time of the video", "decode_seconds"}, {"per chunk", "ms_per_chunk"}, {"kernel utilisation", "kernel_utilization"},
        {"real-time factor (decode s / video s)", "rtf"}, {"compute stalled waiting", "stall_seconds"},
        {"copy/compute contention", "contention_seconds"}, {"compute slowdown", "compute_slowdown"}, {"tail after the last chunk", "tail_seconds"}};
    for (const auto& r : rows) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(r.label);
        ImGui::PushID(r.key);
        ImGui::TableSetColumnIndex(1);
        figure_value_text(find_json(figures, {std::string("sync_") + r.key}));
        ImGui::TableSetColumnIndex(2);
        figure_value_text(find_json(figures, {std::string("async_") + r.key}));
        ImGui::PopID();
    }
    ImGui::EndTable();
    figure_table("decode_saving", &figures, {{"Time saved by the asynchronous pipeline", "async_time_saving"},
                                             {"Bytes per chunk (device to host)", "chunk_bytes"}, {"Copy per chunk", "d2h_ms"}});
}

void draw_cost(const nlohmann::json& cost, const char* id) {
    const nlohmann::json* options = find_json(cost, {"options"});
    if (!options || !options->is_array()) return;
    ImGui::TextDisabled("basis: %s decode times", json_string(find_json(cost, {"basis"}), "?").c_str());
    const float height = table_height(options->size(), 16);
    if (!ImGui::BeginTable(id, 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_ScrollY,
                           ImVec2(0, height)))
        return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("purchase option", ImGuiTableColumnFlags_WidthStretch, 2.0f);
    for (const char* h : {"$/h", "sync $/video-hour", "async $/video-hour", "saved per 1000 video-h"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (std::size_t k = 0; k < options->size(); ++k) {
        const auto& o = (*options)[k];
        ImGui::TableNextRow();
        ImGui::PushID(static_cast<int>(k));
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(json_string(find_json(o, {"label"}), json_string(find_json(o, {"key"}))).c_str());
        const nlohmann::json* available = find_json(o, {"available"});
        if (available && available->is_boolean() && !available->get<bool>()) {
            ImGui::TableSetColumnIndex(1);
            ImGui::TextDisabled("unavailable");
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", json_string(find_json(o, {"unavailable_reason"})).c_str());
        } else {
            const char* keys[] = {"usd_per_hour", "sync_usd_per_video_hour", "async_usd_per_video_hour", "saving_usd_per_1000_video_hours"};
            for (int c = 0; c < 4; ++c) {
                ImGui::TableSetColumnIndex(c + 1);
                ImGui::PushID(c);
                figure_value_text(find_json(o, {"figures", keys[c]}), true, false);
                ImGui::PopID();
            }
        }
        ImGui::PopID();
    }
    ImGui::EndTable();
}

}  // namespace

void draw_decode_view(AppState& state) {
    const nlohmann::json* decode = find_json(state.results, {"decode"});
    if (!find_json(state.scenario, {"decode"}) || !decode) {
        if (empty_state("This scenario has no decode pipeline (decode section). The example below is pricing case P6's "
                        "g7e.2xlarge video decode, fitted to its measured times.",
                        "Add the g7e.2xlarge decode example")) {
            for (const CatalogDocument& doc : builtin_scenario_documents()) {
                if (doc.origin.find("d1-decode") == std::string::npos) continue;
                const nlohmann::json d = nlohmann::json::parse(doc.text, nullptr, false);
                if (const nlohmann::json* section = d.is_discarded() ? nullptr : find_json(d, {"decode"})) {
                    state.scenario["decode"] = *section;
                    if (const nlohmann::json* region = find_json(d, {"region"})) state.scenario["region"] = *region;
                    scenario_edited(state);
                }
            }
        }
        return;
    }
    nlohmann::json& section = scenario_section(state, "decode");
    ImGui::AlignTextToFramePadding();
    ImGui::TextWrapped("%s, %s", json_string(find_json(*decode, {"instance"}), "no instance").c_str(),
                       json_string(find_json(*decode, {"link", "description"})).c_str());
    edit_number(state, section, "buffers", "buffers (1 = synchronous)", 2, 1, 64);
    ImGui::SameLine();
    // With a bench document the video is the one measured (decode_plan.cpp refuses these).
    if (!find_json(section, {"fit", "bench"})) {
        edit_number(state, section, "frames_per_chunk", "frames per chunk", 16, 1, 100000);
        ImGui::SameLine();
        edit_number(state, section, "chunks", "chunks", 41, 1, 100000);
    }

    heading("Synchronous versus asynchronous");
    if (const nlohmann::json* timeline = find_json(*decode, {"timeline"})) draw_gantt(*timeline, state.views->charts.decode_shown_ms);
    if (const nlohmann::json* figures = find_json(*decode, {"figures"})) draw_figures(*figures);
    if (const nlohmann::json* fit = find_json(*decode, {"fit"})) {
        heading("Fit to the measurements");
        // The core names typed-in measurements by their JSON path (as the CLI prints them); the
        // view says it in words and keeps the path for the tooltip.
        const std::string source = json_string(find_json(*fit, {"source"}));
        const bool typed_in = source.find("$.") != std::string::npos;
        ImGui::PushTextWrapPos(0);
        const std::string fitted_to = typed_in        ? "Fitted to the measured times given in the scenario"
                                      : source.empty() ? "Fitted to the measurements"
                                                       : "Fitted to " + source;
        ImGui::TextDisabled("%s", fitted_to.c_str());
        if (typed_in && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", source.c_str());
        const nlohmann::json* ok = find_json(*fit, {"within_tolerance"});
        if (ok && ok->is_boolean())
            ImGui::TextColored(to_vec4(ok->get<bool>() ? palette().good : palette().warn), "%s",
                               ok->get<bool>() ? "the fitted model reproduces the measurements within tolerance"
                                               : "the fitted model misses the measurements by more than the tolerance");
        ImGui::PopTextWrapPos();
        figure_table("fit", find_json(*fit, {"figures"}),
                     {{"Fitted compute per chunk", "fitted_compute_ms"}, {"Fitted host stage per chunk", "fitted_host_ms"},
                      {"Fitted contention", "fitted_contention"}, {"Sync time error", "fit_sync_seconds_error"},
                      {"Async time error", "fit_async_seconds_error"}});
    }
    if (const nlohmann::json* cost = find_json(*decode, {"cost"})) {
        heading("Cost per hour of video");
        draw_cost(*cost, "decode_cost");
    }
    if (const nlohmann::json* notes = find_json(*decode, {"notes"}); notes && notes->is_array())
        for (const auto& n : *notes)
            if (n.is_string()) note(("- " + n.get<std::string>()).c_str());
}

}  // namespace gpuplan::ui
