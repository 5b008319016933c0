// measurements_view.cpp — the Measurements view: an imported `gpuplan bench` results file
// (gpuplan.bench/1, read by gpuplan/measurements/bench_results.hpp), what it measured beside the
// datasheet figure, and a switch that plans the decode pipeline with the measured figures
// (the scenario's decode.fit.bench). The shells import files (file picker, drag and drop,
// --bench); a document can also be pasted here.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

#include "imgui.h"
#include "ui/theme.hpp"
#include "imgui_stdlib.h"
#include "ui/views/view_common.hpp"
#include "ui/widgets.hpp"

namespace gpuplan::ui {
namespace {

void draw_paste(AppState& state) {
    // Grows with what is pasted (imgui_stdlib): a whole bench document, never cut at a buffer's size.
    std::string& text = state.views->bench_paste;
    ImGui::InputTextMultiline("##bench_paste", &text, ImVec2(-1, em(8)));
    if (ImGui::Button("Import pasted document")) set_bench_results(state, text, "pasted document");
    if (!state.bench_error.empty()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(to_vec4(palette().bad), "%s", state.bench_error.c_str());
        ImGui::PopTextWrapPos();
    }
}

void draw_decode_records(const BenchResults& bench) {
    if (bench.decode.empty()) return;
    heading("Video decode pipeline runs");
    if (!ImGui::BeginTable("decode_records", 8, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit |
                                                    ImGuiTableFlags_ScrollX, ImVec2(0, table_height(bench.decode.size(), 12))))
        return;
    for (const char* h : {"case", "video", "buffers", "median", "samples", "kernel active", "RTF", "checksums"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const DecodeBenchRecord& r : bench.decode) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(r.case_name.c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.path.c_str());
        ImGui::TableSetColumnIndex(1);
        ImGui::Text("%g chunks x %g frames, %gx%gx%g", r.params.chunks, r.params.frames_per_chunk, r.params.width, r.params.height,
                    r.params.channels);
        ImGui::TableSetColumnIndex(2);
        text_right(format_quantity(r.buffers(), ""));
        ImGui::TableSetColumnIndex(3);
        text_right(format_quantity(r.median, "s"));
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("median of %d samples; min %s, mean %s, p99 %s", static_cast<int>(r.samples.size()),
                              format_quantity(r.stats.min, "s").c_str(), format_quantity(r.stats.mean, "s").c_str(),
                              format_quantity(r.stats.p99, "s").c_str());
        ImGui::TableSetColumnIndex(4);
        text_right(std::to_string(r.samples.size()));
        ImGui::TableSetColumnIndex(5);
        if (r.stats.kernel_active_fraction) text_right(format_quantity(*r.stats.kernel_active_fraction, "fraction"));
        else text_right("unknown");
        ImGui::TableSetColumnIndex(6);
        if (r.stats.rtf) text_right(format_quantity(*r.stats.rtf, ""));
        else text_right("unknown");
        ImGui::TableSetColumnIndex(7);
        ImGui::TextColored(to_vec4(r.stats.checksums_ok ? palette().good : palette().bad), "%s", r.stats.checksums_ok ? "ok" : "FAILED");
    }
    ImGui::EndTable();
}

// One row of the table below: a record's median beside its datasheet peak, as the file states them.
struct DatasheetRow {
    const std::string& case_name;
    double median;
    const std::string& unit;
    std::optional<double> peak, fraction;
};

void draw_datasheet_row(const DatasheetRow& r) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(r.case_name.c_str());
    ImGui::TableSetColumnIndex(1);
    text_right(format_quantity(r.median, r.unit));
    ImGui::TableSetColumnIndex(2);
    if (r.peak) text_right(format_quantity(*r.peak, r.unit));
    else {
        ImGui::TextDisabled("unknown");
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("The bench file records no datasheet peak for this case (a pipeline time has none; "
                              "a transfer on an unknown GPU has none either).");
    }
    ImGui::TableSetColumnIndex(3);
    if (r.fraction) text_right(format_quantity(*r.fraction, "fraction"));
    else ImGui::TextDisabled("unknown");
}

// Every record of the file beside its datasheet peak: the suite's figures, then the decode
// pipeline's times (a pipeline time has no datasheet peak).
void draw_vs_datasheet(const BenchResults& bench) {
    if (bench.figures.empty() && bench.decode.empty()) return;
    heading("Measured versus datasheet");
    if (!ImGui::BeginTable("vs_datasheet", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp))
        return;
    for (const char* h : {"case", "measured (median)", "datasheet peak", "fraction of peak"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    static const std::string seconds = "s";
    int id = 0;
    for (const BenchFigure& f : bench.figures) {
        ImGui::PushID(id++);
        draw_datasheet_row({f.case_name, f.median.value_or(NAN), f.unit, f.datasheet_peak, f.fraction_of_peak});
        ImGui::PopID();
    }
    for (const DecodeBenchRecord& d : bench.decode) {
        ImGui::PushID(id++);
        draw_datasheet_row({d.case_name, d.median, seconds, std::nullopt, std::nullopt});
        ImGui::PopID();
    }
    ImGui::EndTable();
}

// The measured device-to-host bandwidth beside the datasheet PCIe link of the instance.
void draw_link_check(const AppState& state, const BenchResults& bench) {
    try {
        const DecodeBenchCalibration cal = decode_calibration(bench);
        heading("What the planner would use");
        if (cal.measured_link_gb_per_s)
            ImGui::Text("measured device-to-host: %s", format_quantity(cal.measured_link_gb_per_s->value, "GB/s").c_str());
        const std::string instance = bench.fingerprint.instance_type.value_or(chosen_instance(state));
        if (const Instance* inst = state.catalog->find_instance(instance)) {
            const NodeTopology topo = node_topology(*state.catalog, *inst);
            ImGui::Text("datasheet PCIe link of %s: %s", inst->name.c_str(),
                        topo.host.known() ? format_quantity(topo.host.gb_per_s.value, "GB/s").c_str() : "unknown");
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", topo.host.known() ? topo.host.description.c_str() : topo.host.unknown_reason.c_str());
        }
        for (const std::string& n : cal.notes) note(("- " + n).c_str());
    } catch (const std::exception& e) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(to_vec4(palette().warn), "This file cannot calibrate the decode model: %s", e.what());
        ImGui::PopTextWrapPos();
    }
}

}  // namespace

void draw_measurements_view(AppState& state) {
    if (!state.bench) {
        note("No bench results imported. Run `gpuplan bench decode --out bench.json` on the instance, then open the file "
             "(drop it on the page, or `gpuplan gui --bench bench.json`), or paste its JSON below.");
        draw_paste(state);
        return;
    }
    const BenchResults& bench = *state.bench;
    heading("Imported bench results");
    ImGui::Text("%s", state.bench_source.c_str());
    ImGui::TextDisabled("backend %s, instance %s, %d GPU(s)%s", bench.fingerprint.backend.c_str(),
                        bench.fingerprint.instance_type.value_or("unknown (not on EC2 or not reported)").c_str(),
                        static_cast<int>(bench.fingerprint.gpu_names.size()),
                        bench.fingerprint.gpu_names.empty() ? "" : (": " + bench.fingerprint.gpu_names.front()).c_str());
    if (!bench.other_cases.empty()) {
        std::string list;
        for (const std::string& c : bench.other_cases) list += (list.empty() ? "" : ", ") + c;
        ImGui::TextDisabled("other cases (not used by the decode model): %s", list.c_str());
    }
    draw_decode_records(bench);
    draw_vs_datasheet(bench);
    draw_link_check(state, bench);

    heading("Plan with measured figures");
    const bool using_bench = find_json(state.scenario, {"decode", "fit", "bench"}) != nullptr;
    bool use = using_bench;
    if (ImGui::Checkbox("Plan the decode pipeline with these measurements", &use) && use != using_bench) {
        if (use) {
            nlohmann::json decode = {{"fit", {{"bench", state.views->bench_document}}}};
            const std::string instance = bench.fingerprint.instance_type.value_or(chosen_instance(state));
            if (state.catalog->find_instance(instance)) decode["instance"] = instance;
            state.scenario["decode"] = decode;
        } else {
            state.scenario.erase("decode");
        }
        scenario_edited(state);
    }
    note("On: the scenario's decode section fits its stage times to this file (decode.fit.bench) and the Video decode view "
         "shows the measured pipeline; off: the section is removed. The file travels inside the scenario (and its URL).");
    if (ImGui::Button("Forget this file")) {
        state.bench.reset();
        state.bench_source.clear();
    }
}

}  // namespace gpuplan::ui
