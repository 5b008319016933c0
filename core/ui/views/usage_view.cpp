// usage_view.cpp — the Usage & scaling view: how much to commit from a usage history (its
// load-duration curve with the chosen level, and the cost of every level), and serving fleets
// over a demand curve (fleet size over time for static, scheduled and autoscaled fleets).
// Figures come from the typed results (usage and serving sections, docs/pricing.md
// "Usage history" and "Fleets that follow the load"); the inputs edit the scenario.
#include <algorithm>
#include <cmath>

#include "gpuplan/pricing/fleet_over_time.hpp"
#include "gpuplan/scenario/scenario_result.hpp"
#include "imgui.h"
#include "ui/plot.hpp"
#include "ui/theme.hpp"
#include "ui/views/view_common.hpp"
#include "ui/widgets.hpp"

namespace gpuplan::ui {
namespace {

void add_example(AppState& state, const char* section) {
    for (const CatalogDocument& doc : builtin_scenario_documents()) {
        if (doc.origin.find("u1-usage") == std::string::npos) continue;
        const nlohmann::json d = nlohmann::json::parse(doc.text, nullptr, false);
        if (const nlohmann::json* s = d.is_discarded() ? nullptr : find_json(d, {section})) {
            state.scenario[section] = *s;
            scenario_edited(state);
        }
    }
}

// The generator's inputs, when the history is synthetic (a history given as samples has none).
void draw_synthetic_controls(AppState& state, nlohmann::json& source, const char* level_label) {
    if (!source.contains("synthetic") || !source["synthetic"].is_object()) {
        ImGui::TextDisabled("The history is given as %zu samples.", source.contains("samples") ? source["samples"].size() : 0);
        return;
    }
    nlohmann::json& g = source["synthetic"];
    edit_number(state, g, "days", "days", 28, 1, 366);
    ImGui::SameLine();
    edit_number(state, g, "base", level_label, 8, 0, 1e6, "%.4g");
    ImGui::SameLine();
    edit_number(state, g, "daily_swing", "daily swing", 8, 0, 1e6, "%.4g");
    ImGui::SameLine();
    edit_number(state, g, "peak_hour", "peak hour (UTC)", 14, 0, 23.99, "%.4g");
    edit_number(state, g, "weekend_factor", "weekend factor", 0.5, 0, 10, "%.3g");
    ImGui::SameLine();
    edit_number(state, g, "growth_per_week", "growth per week", 0, -0.99, 10, "%.3g");
    ImGui::SameLine();
    edit_number(state, g, "bursts", "bursts", 0, 0, 1000);
    ImGui::SameLine();
    edit_number(state, g, "seed", "seed", 1, 0, 4294967295.0);
}

void draw_commitment_figures(const CommitmentPlan& plan) {
    if (plan.spot_gpu_hours_at_optimal.value)
        figure_table("usage_figures", {{"Commit", plan.optimal_level}, {"Hours above it", plan.share_above_optimal},
                                       {"Break-even use", plan.break_even_utilization}, {"Cost", plan.cost_at_optimal_usd},
                                       {"All on-demand", plan.all_on_demand_usd}, {"Saving", plan.saving_vs_on_demand},
                                       {"\"Reserve 70% of the minimum\"", plan.rule_level}, {"Its cost", plan.cost_at_rule_usd},
                                       {"It costs more by", plan.saving_vs_rule_usd}, {"GPU-hours on spot", plan.spot_gpu_hours_at_optimal}});
    else  // no spot share: the spot figure is not computed (and not in the document)
        figure_table("usage_figures", {{"Commit", plan.optimal_level}, {"Hours above it", plan.share_above_optimal},
                                       {"Break-even use", plan.break_even_utilization}, {"Cost", plan.cost_at_optimal_usd},
                                       {"All on-demand", plan.all_on_demand_usd}, {"Saving", plan.saving_vs_on_demand},
                                       {"\"Reserve 70% of the minimum\"", plan.rule_level}, {"Its cost", plan.cost_at_rule_usd},
                                       {"It costs more by", plan.saving_vs_rule_usd}});
}

void draw_commitment(AppState& state) {
    nlohmann::json& usage = scenario_section(state, "usage");
    heading("How much to commit, from a usage history");
    if (usage.contains("history") && usage["history"].is_object()) draw_synthetic_controls(state, usage["history"], "GPUs at the quietest hour");
    edit_number(state, usage, "on_demand_usd_per_gpu_hour", "on-demand $/GPU-h", 1.861, 0.0001, 1e4, "%.4f");
    ImGui::SameLine();
    if (usage.contains("commit") && usage["commit"].is_object()) edit_number(state, usage["commit"], "usd_per_gpu_hour", "commitment $/GPU-h", 1.3, 0.0001, 1e4, "%.4f");
    if (usage.contains("spot") && usage["spot"].is_object()) {
        ImGui::SameLine();
        edit_number(state, usage["spot"], "usd_per_gpu_hour", "spot $/GPU-h", 1, 0.0001, 1e4, "%.4f");
        ImGui::SameLine();
        edit_number(state, usage["spot"], "max_share_of_load", "most load on spot", 0.5, 0, 1, "%.2f");
    }
    if (!state.result || !state.result->usage) return;
    const UsageSectionResult& usage_result = *state.result->usage;
    const CommitmentPlan& plan = usage_result.plan;
    const double level = plan.optimal_level.value.value_or(0), rule = plan.rule_level.value.value_or(0);
    const std::vector<double>& t = usage_result.series_hours;
    const std::vector<double>& in_use = usage_result.series_in_use;
    const std::vector<double>& levels = plan.curve_level;
    if (ImGui::BeginTable("usage_layout", side_by_side_columns(), ImGuiTableFlags_SizingStretchSame)) {
        ImGui::TableNextColumn();
        if (!t.empty() && plot::BeginPlot("##usage_history", ImVec2(-1, em(13)))) {
            plot::SetupAxes("hours", "GPUs in use");
            plot::PlotLine("in use", t.data(), in_use.data(), static_cast<int>(t.size()));
            plot::PlotHLine(("commit " + format_number(level)).c_str(), level, palette().series[1]);
            plot::EndPlot();
        }
        ImGui::TableNextColumn();
        if (!levels.empty() && plot::BeginPlot("##load_duration", ImVec2(-1, em(13)))) {
            // The load-duration curve: for each level, the hours with at least that many in use.
            plot::SetupAxes("hours with at least this many in use", "GPUs");
            plot::PlotLine("load duration", plan.duration_hours.data(), levels.data(), static_cast<int>(std::min(levels.size(), plan.duration_hours.size())));
            plot::PlotHLine("cheapest commitment", level, palette().series[1]);
            plot::EndPlot();
        }
        ImGui::TableNextColumn();
        if (!levels.empty() && plot::BeginPlot("##cost_by_level", ImVec2(-1, em(13)))) {
            plot::SetupAxes("GPUs committed", "cost over the history");
            plot::SetupAxisFormat("%g", "$%.0f");
            plot::PlotLine("cost", levels.data(), plan.curve_cost_usd.data(), static_cast<int>(std::min(levels.size(), plan.curve_cost_usd.size())));
            // Short labels: the two lines are often a few GPUs apart.
            plot::PlotVLine(("cheapest " + format_number(level)).c_str(), level, palette().series[1]);
            if (rule != level) plot::PlotVLine(("rule " + format_number(rule)).c_str(), rule, palette().series[2]);
            plot::EndPlot();
        }
        ImGui::TableNextColumn();
        draw_commitment_figures(plan);
        ImGui::EndTable();
    }
    note("Each GPU committed is billed every hour; the load above it is bought as used. The cheapest level is where the share of "
         "hours above it falls below the break-even use (commitment price / burst price). Hover a figure for its formula.");
}

void draw_serving(AppState& state) {
    nlohmann::json& serving = scenario_section(state, "serving");
    heading("Serving over a demand curve: static, scheduled, autoscaled");
    if (serving.contains("demand") && serving["demand"].is_object()) draw_synthetic_controls(state, serving["demand"], "requests/s at the quietest hour");
    edit_number(state, serving, "capacity_requests_per_second", "requests/s per instance", 10, 0.001, 1e7, "%.4g");
    ImGui::SameLine();
    edit_number(state, serving, "usd_per_instance_hour", "$/instance-h", 1.861, 0.0001, 1e4, "%.4f");
    ImGui::SameLine();
    edit_number(state, serving, "target_utilization", "target utilisation", 0.7, 0.01, 1, "%.2f");
    edit_number(state, serving, "warmup_minutes", "warm-up minutes", 10, 0, 1440, "%.4g");
    ImGui::SameLine();
    edit_number(state, serving, "scale_in_minutes", "scale-in delay minutes", 15, 0, 1440, "%.4g");
    ImGui::SameLine();
    edit_number(state, serving, "min_instances", "at least", 1, 0, 1e5);
    if (!state.result || !state.result->serving) return;
    const ServingFleetPlan& plan = state.result->serving->plan;
    const std::vector<double>& t = plan.series_hours;
    const std::vector<double>& demand = plan.series_requests_per_second;
    if (!t.empty() && plot::BeginPlot("##fleet_size", ImVec2(-1, em(14)))) {
        plot::SetupAxes("hours", "instances running");
        for (std::size_t k = 0; k < plan.fleets.size(); ++k) {
            const ServingFleet& f = plan.fleets[k];
            if (f.instances.size() == t.size())
                plot::PlotLine(std::string(policy_name(f.policy)).c_str(), t.data(), f.instances.data(), static_cast<int>(t.size()), palette().series[k % 6]);
        }
        plot::EndPlot();
    }
    constexpr ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit;
    if (ImGui::BeginTable("serving_fleets", 6, flags)) {
        ImGui::TableSetupColumn("fleet");
        const char* headers[] = {"instance-hours", "cost", "mean", "peak", "requests served late"};
        for (const char* h : headers) ImGui::TableSetupColumn(h);
        ImGui::TableHeadersRow();
        for (const ServingFleet& f : plan.fleets) {
            const std::string policy(policy_name(f.policy));
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::TextUnformatted(policy.c_str());
            const Figure* cells[] = {&f.instance_hours, &f.cost_usd, &f.mean_instances, &f.peak_instances, &f.late_share};
            for (int c = 0; c < 5; ++c) {
                ImGui::TableSetColumnIndex(c + 1);
                ImGui::PushID(c + 1);
                figure_value_text(*cells[c], policy + " fleet: " + headers[c]);
                ImGui::PopID();
            }
        }
        ImGui::EndTable();
    }
    if (!demand.empty() && plot::BeginPlot("##demand", ImVec2(-1, em(11)))) {
        plot::SetupAxes("hours", "requests/s");
        plot::PlotLine("demand", t.data(), demand.data(), static_cast<int>(std::min(t.size(), demand.size())), palette().series[4]);
        plot::EndPlot();
    }
    note("Static keeps the peak all the time; scheduled keeps, for each hour of the week, the most that hour needed, started a "
         "warm-up ahead; autoscaled launches when demand rises (ready after the warm-up, so some requests wait) and removes "
         "instances once demand has stayed lower for the scale-in delay. Late: requests above what ready instances serve.");
}

}  // namespace

void draw_usage_view(AppState& state) {
    const bool has_usage = find_json(state.scenario, {"usage"}) != nullptr, has_serving = find_json(state.scenario, {"serving"}) != nullptr;
    if (!has_usage && !has_serving) {
        if (empty_state("This scenario has no usage history (usage section) and no demand curve (serving section). The example "
                        "generates twelve weeks of GPUs in use and a week of requests for g6e.xlarge.",
                        "Add the usage and serving example")) {
            add_example(state, "usage");
            add_example(state, "serving");
        }
        return;
    }
    if (has_usage) draw_commitment(state);
    else if (ImGui::Button("Add a usage history example")) add_example(state, "usage");
    if (has_serving) draw_serving(state);
    else if (ImGui::Button("Add a serving example")) add_example(state, "serving");
}

}  // namespace gpuplan::ui
