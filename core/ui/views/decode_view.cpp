// decode_view.cpp — the Video decode view: the synchronous versus asynchronous chunked
// decode as a Gantt chart (host, copy and compute lanes of each pipeline, from the core's
// discrete-event simulation: gpuplan/decode/decode_sim.hpp), utilisation, RTF, the fit to
// measurements, and the cost per hour of video for every purchase option (decode_plan.hpp).
#include <algorithm>
#include <cmath>

#include "gpuplan/decode/decode_plan.hpp"
#include "gpuplan/scenario/scenario_result.hpp"
#include "imgui.h"
#include "ui/plot.hpp"
#include "ui/theme.hpp"
#include "ui/views/view_common.hpp"
#include "ui/widgets.hpp"

namespace gpuplan::ui {
namespace {

// Both pipelines' lanes, top to bottom: sync host, copy, compute, then async.
struct Lane {
    std::string name;  // "sync host"
    const std::vector<Span>* spans;
    int colour;        // index into the palette's series
};
std::vector<Lane> lanes_of(const DecodeSimResult& sim) {
    std::vector<Lane> lanes;
    for (const PipelineRun* run : {&sim.sync, &sim.async}) {
        const std::string pipeline = run == &sim.sync ? "sync" : "async";
        lanes.push_back({pipeline + " host", &run->timeline.host, 2});
        lanes.push_back({pipeline + " copy", &run->timeline.copy, 1});
        lanes.push_back({pipeline + " compute", &run->timeline.compute, 0});
    }
    return lanes;
}

void draw_gantt(const DecodeSimResult& sim, double& shown_ms) {
    const std::vector<Lane> lanes = lanes_of(sim);
    double end_ms = 0, first_chunk_ms = 0;
    for (const Lane& lane : lanes) {
        if (!lane.spans->empty()) first_chunk_ms = std::max(first_chunk_ms, lane.spans->front().end_ms);
        for (const Span& span : *lane.spans) end_ms = std::max(end_ms, span.end_ms);
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
    if (!plot::BeginPlot("##gantt", ImVec2(-1, em(13)))) return;
    plot::SetupAxes("ms from the start of the video", "");
    // Tick label k sits at y = k (bottom up), so the list is reversed to read top-down.
    std::vector<std::string> ticks;
    for (auto it = lanes.rbegin(); it != lanes.rend(); ++it) ticks.push_back(it->name);
    plot::SetupAxisTicksY(ticks);
    // Lanes top to bottom as listed: lane k is drawn at y = lanes - 1 - k.
    plot::SetupAxisLimits(0, shown, -0.5, static_cast<double>(lanes.size()) - 0.5);
    for (std::size_t k = 0; k < lanes.size(); ++k) {
        const Lane& lane = lanes[k];
        const double y = static_cast<double>(lanes.size() - 1 - k);
        const std::string pipeline = lane.name.substr(0, lane.name.find(' '));
        const std::string resource = lane.name.substr(lane.name.find(' ') + 1);
        for (std::size_t chunk = 0; chunk < lane.spans->size(); ++chunk) {
            const Span& span = (*lane.spans)[chunk];
            if (span.start_ms > shown) continue;
            plot::PlotRect(resource.c_str(), span.start_ms, span.end_ms, y - 0.35, y + 0.35, palette().series[lane.colour],
                           pipeline + " pipeline, chunk " + std::to_string(chunk) + ", " + format_quantity(span.end_ms - span.start_ms, "ms"));
        }
    }
    plot::EndPlot();
}

void draw_figures(const DecodeSimResult& sim) {
    if (!ImGui::BeginTable("decode_figures", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp))
        return;
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthStretch, 1.6f);
    ImGui::TableSetupColumn("synchronous");
    ImGui::TableSetupColumn("asynchronous");
    ImGui::TableHeadersRow();
    // Each row: the same figure of both pipelines (rtf only with a video length).
    const struct { const char* label; Figure PipelineRun::*figure; } rows[] = {
        {"decode time of the video", &PipelineRun::decode_seconds}, {"per chunk", &PipelineRun::ms_per_chunk},
        {"kernel utilisation", &PipelineRun::kernel_utilization}, {"compute stalled waiting", &PipelineRun::stall_seconds},
        {"copy/compute contention", &PipelineRun::contention_seconds}, {"compute slowdown", &PipelineRun::compute_slowdown},
        {"tail after the last chunk", &PipelineRun::tail_seconds}};
    const auto row = [](const char* label, const Figure* sync, const Figure* async) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(label);
        ImGui::PushID(label);
        ImGui::TableSetColumnIndex(1);
        if (sync) figure_value_text(*sync, std::string("synchronous: ") + label);
        ImGui::TableSetColumnIndex(2);
        if (async) figure_value_text(*async, std::string("asynchronous: ") + label);
        ImGui::PopID();
    };
    for (const auto& r : rows) {
        row(r.label, &(sim.sync.*r.figure), &(sim.async.*r.figure));
        if (r.figure == &PipelineRun::kernel_utilization && (sim.sync.rtf || sim.async.rtf))
            row("real-time factor (decode s / video s)", sim.sync.rtf ? &*sim.sync.rtf : nullptr, sim.async.rtf ? &*sim.async.rtf : nullptr);
    }
    ImGui::EndTable();
    figure_table("decode_saving", {{"Time saved by the asynchronous pipeline", sim.async_time_saving},
                                   {"Bytes per chunk (device to host)", sim.chunk_bytes}, {"Copy per chunk", sim.d2h_ms}});
}

void draw_cost(const DecodeCost& cost, const char* id) {
    ImGui::TextDisabled("basis: %s decode times", cost.basis.c_str());
    // Every row shown, no scroll of its own: a table that scrolls inside the scrolling view
    // traps the mouse wheel (costs_view.cpp, draw_options_table).
    if (!ImGui::BeginTable(id, 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp))
        return;
    ImGui::TableSetupColumn("purchase option", ImGuiTableColumnFlags_WidthStretch, 2.0f);
    const char* headers[] = {"$/h", "sync $/video-hour", "async $/video-hour", "saved per 1000 video-h"};
    for (const char* h : headers) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (std::size_t k = 0; k < cost.options.size(); ++k) {
        const DecodeCostOption& o = cost.options[k];
        ImGui::TableNextRow();
        ImGui::PushID(static_cast<int>(k));
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted((o.label.empty() ? o.key : o.label).c_str());
        if (!o.available) {
            ImGui::TableSetColumnIndex(1);
            ImGui::TextDisabled("unavailable");
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", o.unavailable_reason.c_str());
        } else {
            const Figure* cells[] = {&o.usd_per_hour, &o.sync_usd_per_video_hour, &o.async_usd_per_video_hour, &o.saving_usd_per_1000_video_hours};
            for (int c = 0; c < 4; ++c) {
                ImGui::TableSetColumnIndex(c + 1);
                ImGui::PushID(c);
                figure_value_text(*cells[c], (o.label.empty() ? o.key : o.label) + ": " + headers[c], true, false);
                ImGui::PopID();
            }
        }
        ImGui::PopID();
    }
    ImGui::EndTable();
}

void draw_fit(const DecodeReport& report) {
    if (!report.fit || !report.measured) return;
    const DecodeFit& fit = *report.fit;
    heading("Fit to the measurements");
    // The core names typed-in measurements by their JSON path (as the CLI prints them); the
    // view says it in words and keeps the path for the tooltip.
    const std::string& source = report.measured->source;
    const bool typed_in = source.find("$.") != std::string::npos;
    ImGui::PushTextWrapPos(0);
    const std::string fitted_to = typed_in        ? "Fitted to the measured times given in the scenario"
                                  : source.empty() ? "Fitted to the measurements"
                                                   : "Fitted to " + source;
    ImGui::TextDisabled("%s", fitted_to.c_str());
    if (typed_in && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", source.c_str());
    ImGui::TextColored(to_vec4(fit.within_tolerance ? palette().good : palette().warn), "%s",
                       fit.within_tolerance ? "the fitted model reproduces the measurements within tolerance"
                                            : "the fitted model misses the measurements by more than the tolerance");
    ImGui::PopTextWrapPos();
    figure_table("fit", {{"Fitted compute per chunk", fit.compute_ms}, {"Fitted host stage per chunk", fit.host_ms},
                         {"Fitted contention", fit.contention}, {"Sync time error", fit.sync_seconds_error},
                         {"Async time error", fit.async_seconds_error}});
}

}  // namespace

void draw_decode_view(AppState& state) {
    const DecodeReport* report = state.result && state.result->decode ? &*state.result->decode : nullptr;
    if (!find_json(state.scenario, {"decode"}) || !report) {
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
    ImGui::TextWrapped("%s, %s", report->instance.empty() ? "no instance" : report->instance.c_str(), report->link_description.c_str());
    edit_number(state, section, "buffers", "buffers (1 = synchronous)", 2, 1, 64);
    ImGui::SameLine();
    // With a bench document the video is the one measured (decode_plan.cpp refuses these).
    if (!find_json(section, {"fit", "bench"})) {
        edit_number(state, section, "frames_per_chunk", "frames per chunk", 16, 1, 100000);
        ImGui::SameLine();
        edit_number(state, section, "chunks", "chunks", 41, 1, 100000);
    }

    heading("Synchronous versus asynchronous");
    draw_gantt(report->sim, state.views->charts.decode_shown_ms);
    draw_figures(report->sim);
    draw_fit(*report);
    if (report->cost) {
        heading("Cost per hour of video");
        draw_cost(*report->cost, "decode_cost");
    }
    for (const std::string& n : report->notes) note(("- " + n).c_str());
}

}  // namespace gpuplan::ui
