// usage_view.cpp — the Usage & scaling view: how much to commit from a usage history (its
// load-duration curve with the chosen level, and the cost of every level), and serving fleets
// over a demand curve (fleet size over time for static, scheduled and autoscaled fleets).
// Figures come from the scenario's results (usage and serving sections, docs/pricing.md
// "Usage history" and "Fleets that follow the load"); the inputs edit the scenario.
#include <algorithm>
#include <cmath>

#include "imgui.h"
#include "ui/plot.hpp"
#include "ui/theme.hpp"
#include "ui/views/view_common.hpp"
#include "ui/widgets.hpp"

namespace gpuplan::ui {
namespace {

std::vector<double> numbers(const nlohmann::json* array) {
    std::vector<double> out;
    if (!array || !array->is_array()) return out;
    for (const auto& v : *array) out.push_back(v.is_number() ? v.get<double>() : 0.0);
    return out;
}

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

void draw_commitment(AppState& state) {
    nlohmann::json& usage = scenario_section(state, "usage");
    const nlohmann::json* result = find_json(state.results, {"usage"});
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
    if (!result) return;
    const nlohmann::json* figures = find_json(*result, {"figures"});
    const double level = figure_value(find_json(*result, {"figures", "optimal_level"})).value_or(0);
    const double rule = figure_value(find_json(*result, {"figures", "rule_level"})).value_or(0);
    std::vector<double> levels, costs, hours;
    if (const nlohmann::json* curve = find_json(*result, {"curve"}))
        for (const auto& row : *curve) {
            levels.push_back(json_number(find_json(row, {"level"})).value_or(0));
            costs.push_back(json_number(find_json(row, {"cost_usd"})).value_or(0));
            hours.push_back(json_number(find_json(row, {"hours_at_or_above"})).value_or(0));
        }
    const std::vector<double> t = numbers(find_json(*result, {"history", "hours"})), in_use = numbers(find_json(*result, {"history", "in_use"}));
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
            plot::PlotLine("load duration", hours.data(), levels.data(), static_cast<int>(levels.size()));
            plot::PlotHLine("cheapest commitment", level, palette().series[1]);
            plot::EndPlot();
        }
        ImGui::TableNextColumn();
        if (!levels.empty() && plot::BeginPlot("##cost_by_level", ImVec2(-1, em(13)))) {
            plot::SetupAxes("GPUs committed", "cost over the history");
            plot::SetupAxisFormat("%g", "$%.0f");
            plot::PlotLine("cost", levels.data(), costs.data(), static_cast<int>(levels.size()));
            // Short labels: the two lines are often a few GPUs apart.
            plot::PlotVLine(("cheapest " + format_number(level)).c_str(), level, palette().series[1]);
            if (rule != level) plot::PlotVLine(("rule " + format_number(rule)).c_str(), rule, palette().series[2]);
            plot::EndPlot();
        }
        ImGui::TableNextColumn();
        figure_table("usage_figures", figures,
                     {{"Commit", "optimal_level"}, {"Hours above it", "share_above_optimal"}, {"Break-even use", "break_even_utilization"},
                      {"Cost", "cost_at_optimal_usd"}, {"All on-demand", "all_on_demand_usd"}, {"Saving", "saving_vs_on_demand"},
                      {"\"Reserve 70% of the minimum\"", "rule_level"}, {"Its cost", "cost_at_rule_usd"}, {"It costs more by", "saving_vs_rule_usd"},
                      {"GPU-hours on spot", "spot_gpu_hours_at_optimal"}});
        ImGui::EndTable();
    }
    note("Each GPU committed is billed every hour; the load above it is bought as used. The cheapest level is where the share of "
         "hours above it falls below the break-even use (commitment price / burst price). Hover a figure for its formula.");
}

void draw_serving(AppState& state) {
    nlohmann::json& serving = scenario_section(state, "serving");
    const nlohmann::json* result = find_json(state.results, {"serving"});
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
    if (!result) return;
    const std::vector<double> t = numbers(find_json(*result, {"series", "hours"})), demand = numbers(find_json(*result, {"series", "requests_per_second"}));
    const char* policies[] = {"static", "scheduled", "autoscaled"};
    if (!t.empty() && plot::BeginPlot("##fleet_size", ImVec2(-1, em(14)))) {
        plot::SetupAxes("hours", "instances running");
        for (int k = 0; k < 3; ++k) {
            const std::vector<double> n = numbers(find_json(*result, {"fleets", policies[k], "instances"}));
            if (n.size() == t.size()) plot::PlotLine(policies[k], t.data(), n.data(), static_cast<int>(t.size()), palette().series[k]);
        }
        plot::EndPlot();
    }
    constexpr ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit;
    if (ImGui::BeginTable("serving_fleets", 6, flags)) {
        ImGui::TableSetupColumn("fleet");
        for (const char* h : {"instance-hours", "cost", "mean", "peak", "requests served late"}) ImGui::TableSetupColumn(h);
        ImGui::TableHeadersRow();
        for (const char* p : policies) {
            const nlohmann::json* f = find_json(*result, {"fleets", p, "figures"});
            if (!f) continue;
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::TextUnformatted(p);
            const std::string prefix(p);
            int column = 1;
            for (const char* suffix : {"_instance_hours", "_cost_usd", "_mean_instances", "_peak_instances", "_late_share"}) {
                ImGui::TableSetColumnIndex(column++);
                ImGui::PushID(column);
                figure_value_text(find_json(*f, {prefix + suffix}));
                ImGui::PopID();
            }
        }
        ImGui::EndTable();
    }
    if (!demand.empty() && plot::BeginPlot("##demand", ImVec2(-1, em(11)))) {
        plot::SetupAxes("hours", "requests/s");
        plot::PlotLine("demand", t.data(), demand.data(), static_cast<int>(t.size()), palette().series[4]);
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
