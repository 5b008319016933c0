// costs_view.cpp — the Costs view: purchase options of the chosen instance, the cumulative
// cost over months with the reserved break-even points, the fleet mix (baseline / on-demand /
// spot) with its blended rate, always-on versus ephemeral, and storage and transfer.
// Every number comes from the scenario's results (gpuplan.result/1); the chart's lines are
// what each option has billed by each month (cumulative_cost_usd, pricing/purchase_options.hpp),
// from those same figures: commitments bill their whole term and renew.
#include <algorithm>
#include <cmath>

#include "gpuplan/pricing/purchase_options.hpp"
#include "imgui.h"
#include "ui/plot.hpp"
#include "ui/theme.hpp"
#include "ui/views/view_common.hpp"
#include "ui/names.hpp"
#include "ui/widgets.hpp"

namespace gpuplan::ui {
namespace {

constexpr double kHoursPerMonth = 730;  // AWS bills a month as 730 hours (docs/pricing.md)

void draw_price_controls(AppState& state) {
    nlohmann::json& price = scenario_section(state, "price");
    ImGui::AlignTextToFramePadding();
    ImGui::Text("Instance: %s", json_string(find_json(price, {"instance"}), "(none)").c_str());
    ImGui::SameLine();
    dim_text_beside("(choose another in the Catalog view)");
    edit_number(state, price, "hours", "hours", 730, 1, 1e6);
    ImGui::SameLine();
    edit_number(state, price, "instances", "instances", 1, 1, 1e5);
}

void draw_options_table(const nlohmann::json& options) {
    constexpr ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit |
                                      ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY;
    const float height = table_height(options.size(), 20);
    if (!ImGui::BeginTable("options", 9, flags, ImVec2(0, height))) return;
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("purchase option", ImGuiTableColumnFlags_WidthFixed, em(19));
    // "cost" is what is billed (a commitment: its whole term); "if the term is shared" is the
    // hours' part of it when other work uses the rest of the term.
    for (const char* h : {"effective $/h", "upfront", "recurring $/h", "cost", "if the term is shared", "saving", "break-even use", "unit cost"})
        ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const auto& o : options) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        // Each option in words: listed (a published price, its source on hover), not offered (a
        // source shows AWS does not sell it here), or assumed (priced at a default discount).
        const std::string status = json_string(find_json(o, {"status"}));
        const std::string label = json_string(find_json(o, {"label"}), json_string(find_json(o, {"key"}))) + (status == "assumed" ? " (assumed)" : "");
        const nlohmann::json* available = find_json(o, {"available"});
        if (available && available->is_boolean() && !available->get<bool>()) {
            ImGui::TextDisabled("%s", label.c_str());
            ImGui::TableSetColumnIndex(1);
            ImGui::TextDisabled(status == "not-offered" ? "not offered" : "unavailable");
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", json_string(find_json(o, {"unavailable_reason"})).c_str());
            continue;
        }
        ImGui::TextUnformatted(label.c_str());
        if (status == "listed" && ImGui::IsItemHovered()) ImGui::SetTooltip("listed price: source %s", json_string(find_json(o, {"status_source"})).c_str());
        const nlohmann::json* f = find_json(o, {"figures"});
        if (!f) continue;
        const char* keys[] = {"effective_usd_per_hour", "upfront_usd", "recurring_usd_per_hour", "cost_usd", "attributable_cost_usd",
                              "saving_vs_on_demand", "break_even_utilization"};
        for (int k = 0; k < 7; ++k) {
            ImGui::TableSetColumnIndex(k + 1);
            ImGui::PushID(k);
            figure_value_text(find_json(*f, {keys[k]}), true, false);
            ImGui::PopID();
        }
        ImGui::TableSetColumnIndex(8);
        for (const char* unit_key : {"usd_per_million_tokens", "usd_per_video_hour", "training_run_usd"})
            if (const nlohmann::json* u = find_json(*f, {unit_key})) figure_value_text(u);
    }
    ImGui::EndTable();
}

// Spot with checkpoints: the interruption rate and the checkpoint and restart costs (scenario
// section "spot_risk"; absent keys are the documented defaults), and what they do to the spot
// price (Young/Daly, pricing/spot_checkpoint.hpp).
void draw_spot_checkpoints(AppState& state, const nlohmann::json& options) {
    const nlohmann::json* spot = nullptr;
    for (const auto& o : options)
        if (find_json(o, {"figures", "spot_usd_per_useful_hour"})) spot = &o;
    if (!spot) return;
    heading("Spot with checkpoints");
    nlohmann::json& risk = scenario_section(state, "spot_risk");
    edit_optional_number(state, risk, "mean_hours_between_interruptions", "hours between interruptions", "default 3.5", 0.01, 1e5);
    ImGui::SameLine();
    edit_optional_number(state, risk, "checkpoint_minutes", "minutes to write a checkpoint", "default 2", 0.01, 1e4);
    ImGui::SameLine();
    edit_optional_number(state, risk, "restart_minutes", "minutes to restart", "default 5", 0, 1e4);
    edit_optional_number(state, risk, "checkpoint_interval_hours", "checkpoint every (hours)", "optimal", 0.001, 1e4);
    if (risk.empty()) state.scenario.erase("spot_risk");  // nothing set: keep the link as it was
    figure_table("spot_checkpoints", find_json(*spot, {"figures"}),
                 {{"Spot price", "effective_usd_per_hour"}, {"Checkpoint interval", "checkpoint_interval_hours"},
                  {"Rework (extra compute per useful hour)", "rework_overhead_fraction"},
                  {"Spot price per useful hour", "spot_usd_per_useful_hour"}});
    note("A job on spot capacity writes a checkpoint every interval and, when interrupted, loses on average half an interval "
         "and pays a restart: rework = checkpoint / interval + interval / (2 x hours between interruptions) + restart / hours "
         "between interruptions, with the interval sqrt(2 x checkpoint x hours between interruptions) unless you set one "
         "(Young 1974; Daly 2006). Leave a field empty for its default (docs/pricing.md).");
}

// Cumulative cost of running `instances` for `months` months at `hours_per_month`.
void draw_cumulative_chart(const nlohmann::json& price, int& months) {
    const double instances = json_number(find_json(price, {"instances"})).value_or(1);
    const double hours = json_number(find_json(price, {"hours"})).value_or(kHoursPerMonth);
    const double hours_per_month = std::min(hours, kHoursPerMonth);
    const nlohmann::json* options = find_json(price, {"options"});
    if (!options || !options->is_array()) return;
    ImGui::SetNextItemWidth(em(10));
    ImGui::SliderInt("months shown", &months, ChartRanges::kMinCostsMonths, ChartRanges::kMaxCostsMonths, "%d",
                     ImGuiSliderFlags_AlwaysClamp);
    mark_widget("months shown");
    ImGui::SameLine();
    dim_text_beside(format_quantity(instances, "instances") + " used " + format_quantity(hours_per_month, "hours") + " a month");
    const char* shown[] = {"on-demand", "spot", "reserved-1y-no-upfront", "reserved-1y-all-upfront", "reserved-3y-no-upfront",
                           "reserved-3y-all-upfront"};
    std::vector<double> xs;
    // Twenty points a month, so a renewal shows as a step rather than a month-long ramp.
    for (int k = 0; k <= months * 20; ++k) xs.push_back(k / 20.0);
    struct Line { std::string label; std::vector<double> ys; PurchaseOption option; double upfront, recurring; };
    const auto billed = [&](const Line& line, double month) {  // pricing/purchase_options.hpp
        return cumulative_cost_usd(line.option, line.upfront, line.recurring, hours_per_month, month, instances);
    };
    std::vector<Line> lines;
    const Line* on_demand = nullptr;
    for (const char* key : shown) {
        for (const auto& o : *options) {
            if (json_string(find_json(o, {"key"})) != key) continue;
            const auto upfront = figure_value(find_json(o, {"figures", "upfront_usd"}));
            const auto recurring = figure_value(find_json(o, {"figures", "recurring_usd_per_hour"}));
            const auto option = purchase_option_named(key);
            if (!upfront || !recurring || !option) continue;
            Line line{json_string(find_json(o, {"label"}), key), {}, *option, *upfront, *recurring};
            for (double m : xs) line.ys.push_back(billed(line, m));
            lines.push_back(std::move(line));
        }
    }
    for (const Line& line : lines)
        if (line.option.kind == PurchaseKind::on_demand) on_demand = &line;
    if (lines.empty()) return;
    if (plot::BeginPlot("##cumulative", ImVec2(-1, em(17)))) {
        plot::SetupAxes("months of use", "cumulative USD");
        plot::SetupAxisFormat("%g", "$%.0f");
        for (std::size_t k = 0; k < lines.size(); ++k)
            plot::PlotLine(lines[k].label.c_str(), xs.data(), lines[k].ys.data(), static_cast<int>(xs.size()), palette().series[k % 6]);
        // Break-even: the first month (to a tenth) by which on-demand has been billed as much
        // as a commitment, renewals included.
        if (on_demand) {
            for (const Line& line : lines) {
                if (!is_commitment(line.option.kind) || line.upfront <= 0) continue;  // no upfront: cheaper from the start, or never
                for (double month = 0.1; month <= months; month += 0.1)
                    if (billed(*on_demand, month) >= billed(line, month)) {
                        plot::PlotVLine(("break-even " + line.label).c_str(), month);
                        break;
                    }
            }
        }
        plot::EndPlot();
    }
    note("Each line is what has been billed by that month, from the option's figures above. On-demand and spot bill "
         "the hours used. A commitment bills every hour of its term (730 h a month, used or not) and its upfront at "
         "the start of each term: a 1-year commitment in use after month 12 or 24 renews, upfront again. A vertical "
         "line marks the first month by which on-demand has been billed as much as an upfront commitment.");
}

// The fleet's tiers: GPUs, price and utilisation are edited in place (scenario fleet.tiers),
// the on-demand rate and hours above them.
void draw_fleet(AppState& state) {
    const nlohmann::json* fleet = find_json(state.results, {"fleet"});
    if (!fleet) return;
    heading("Fleet mix");
    nlohmann::json& fleet_in = scenario_section(state, "fleet");
    edit_number(state, fleet_in, "hours", "hours", 730, 1, 1e6);
    if (json_number(find_json(fleet_in, {"on_demand_usd_per_gpu_hour"}))) {
        ImGui::SameLine();
        edit_number(state, fleet_in, "on_demand_usd_per_gpu_hour", "on-demand USD per GPU-hour", 1, 0.0001, 1e4, "%.4g");
    }
    const nlohmann::json* tiers = find_json(*fleet, {"tiers"});
    nlohmann::json* scenario_tiers = find_json(fleet_in, {"tiers"}) ? &fleet_in["tiers"] : nullptr;
    const auto editable = [&](std::size_t k) {
        return scenario_tiers && scenario_tiers->is_array() && k < scenario_tiers->size() && (*scenario_tiers)[k].is_object();
    };
    // Narrower than its columns (a phone), the table scrolls sideways instead of squeezing them.
    const bool narrow = ImGui::GetContentRegionAvail().x < em(40);
    if (tiers && tiers->is_array() &&
        ImGui::BeginTable("tiers", 7, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit |
                                          (narrow ? ImGuiTableFlags_ScrollX : 0),
                          ImVec2(0, narrow ? table_height(tiers->size(), 12) + em(0.8f) * static_cast<float>(tiers->size()) : 0.0f))) {
        for (const char* h : {"tier", "GPUs", "USD per GPU-hour", "utilization", "committed", "cost", "break-even use"}) ImGui::TableSetupColumn(h);
        ImGui::TableHeadersRow();
        for (std::size_t k = 0; k < tiers->size(); ++k) {
            const auto& t = (*tiers)[k];
            ImGui::TableNextRow();
            ImGui::PushID(static_cast<int>(k));
            ImGui::TableSetColumnIndex(0);
            ImGui::AlignTextToFramePadding();  // level with the fields beside it
            ImGui::TextUnformatted(json_string(find_json(t, {"option"})).c_str());
            ImGui::TableSetColumnIndex(1);
            if (editable(k)) edit_number(state, (*scenario_tiers)[k], "gpus", "##tier GPUs", 0, 0, 1e6);
            else text_right(format_quantity(json_number(find_json(t, {"gpus"})).value_or(0), ""));
            ImGui::TableSetColumnIndex(2);
            if (editable(k)) edit_number(state, (*scenario_tiers)[k], "usd_per_gpu_hour", "##tier USD per GPU-hour", 1, 0.0001, 1e4, "%.4g");
            ImGui::TableSetColumnIndex(3);
            if (editable(k)) edit_number(state, (*scenario_tiers)[k], "utilization", "##tier utilization", 1, 0, 1, "%.3g");
            ImGui::TableSetColumnIndex(4);
            const nlohmann::json* c = find_json(t, {"committed"});
            ImGui::TextUnformatted(c && c->is_boolean() && c->get<bool>() ? "yes" : "no");
            ImGui::TableSetColumnIndex(5);
            figure_value_text(find_json(t, {"cost_usd"}));
            ImGui::TableSetColumnIndex(6);
            figure_value_text(find_json(t, {"break_even_utilization"}));
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    note("Utilization is the share of the hours a tier's GPUs are busy (1 = always); a committed tier is billed for every hour "
         "whatever its utilization, the others only for the hours used.");
    figure_table("fleet_figures", find_json(*fleet, {"figures"}),
                 {{"Blended rate", "blended_usd_per_gpu_hour"}, {"Total cost", "total_cost_usd"}, {"GPU-hours used", "used_gpu_hours"},
                  {"All on-demand would cost", "all_on_demand_cost_usd"}, {"Saving", "saving_usd"},
                  {"Saving vs on-demand", "saving_vs_on_demand"}});
}

// Always-on versus ephemeral development instances (scenario section "idle"): the team and its
// working pattern are edited here; docs/pricing.md has the formulas.
void draw_idle_inputs(AppState& state) {
    nlohmann::json& idle = scenario_section(state, "idle");
    edit_number(state, idle, "engineers", "engineers", 1, 1, 1e5);
    ImGui::SameLine();
    edit_number(state, idle, "active_hours_per_day", "active hours a day", 6, 0, 24, "%.3g");
    ImGui::SameLine();
    edit_number(state, idle, "workdays_per_month", "workdays a month", 22, 0, 31, "%.3g");
    edit_number(state, idle, "boot_setup_minutes", "boot and setup (minutes a day)", 10, 0, 1440, "%.3g");
    ImGui::SameLine();
    edit_number(state, idle, "idle_shutdown_minutes", "idle before shutdown (minutes)", 0, 0, 1440, "%.3g");
    edit_number(state, idle, "storage_gb", "storage kept (GB per engineer)", 0, 0, 1e6, "%.6g");
    ImGui::SameLine();
    edit_optional_number(state, idle, "storage_usd_per_gb_month", "USD per GB-month", "EBS gp3", 0, 10);
    ImGui::SameLine();
    edit_number(state, idle, "hours_per_month", "always-on hours a month", 730, 1, 744, "%.4g");
}

void draw_idle(AppState& state) {
    const nlohmann::json* idle = find_json(state.results, {"idle", "figures"});
    if (!idle) return;
    heading("Always-on versus ephemeral");
    draw_idle_inputs(state);
    const double values[2] = {figure_value(find_json(*idle, {"always_on_usd_total"})).value_or(0),
                              figure_value(find_json(*idle, {"ephemeral_usd_total"})).value_or(0)};
    if (ImGui::BeginTable("idle_layout", side_by_side_columns(), ImGuiTableFlags_SizingStretchSame)) {
        ImGui::TableNextColumn();
        figure_table("idle_figures", idle,
                     {{"Always-on, per instance", "always_on_usd_per_instance"}, {"Always-on, total", "always_on_usd_total"},
                      {"Ephemeral hours per instance", "ephemeral_hours_per_instance"},
                      {"Ephemeral, per instance", "ephemeral_usd_per_instance"}, {"Ephemeral, total", "ephemeral_usd_total"},
                      {"Storage kept between sessions", "storage_usd_total"}, {"Compute saving", "saving_fraction_compute"}});
        ImGui::TableNextColumn();
        if (plot::BeginPlot("##idle", ImVec2(-1, em(11)))) {
            plot::SetupAxes("", "USD per month");
            plot::SetupAxisTicksX({"always-on", "ephemeral"});
            plot::SetupAxisFormat("%g", "$%.0f");
            plot::PlotBars("##monthly", values, 2, 0.55, palette().series[0]);
            plot::EndPlot();
        }
        ImGui::EndTable();
    }
}

void draw_storage(const AppState& state) {
    const nlohmann::json* figures = find_json(state.results, {"storage", "figures"});
    if (!figures || !figures->is_object()) return;
    heading("Storage and transfer");
    if (!ImGui::BeginTable("storage", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) return;
    for (auto it = figures->begin(); it != figures->end(); ++it) {
        if (it.key() == "total_usd") continue;
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(human_name(it.key()).c_str());
        ImGui::TableSetColumnIndex(1);
        figure_value_text(&it.value());
    }
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted("total");
    ImGui::TableSetColumnIndex(1);
    figure_value_text(find_json(*figures, {"total_usd"}));
    ImGui::EndTable();
}

void draw_unit_costs(const AppState& state) {
    const nlohmann::json* tokens = find_json(state.results, {"token_costs"});
    const nlohmann::json* video = find_json(state.results, {"video", "figures"});
    if (!tokens && !video) return;
    heading("Unit costs");
    if (tokens && tokens->is_array())
        for (std::size_t k = 0; k < tokens->size(); ++k) {
            ImGui::PushID(static_cast<int>(k));
            figure_table("tokens", find_json((*tokens)[k], {"figures"}),
                         {{"USD per million tokens", "usd_per_million_tokens"}, {"USD per billion tokens", "usd_per_billion_tokens"}});
            ImGui::PopID();
        }
    if (video)
        figure_table("video", video,
                     {{"Video length", "video_seconds"}, {"RTF of pipeline B", "rtf_b"},
                      {"GPU-hours per 1000 video-hours (A)", "gpu_hours_per_1000_video_hours_a"},
                      {"GPU-hours per 1000 video-hours (B)", "gpu_hours_per_1000_video_hours_b"},
                      {"Saving per 1000 video-hours", "saving_usd_per_1000_video_hours"}});
}

}  // namespace

void draw_costs_view(AppState& state) {
    const bool any = find_json(state.results, {"price"}) || find_json(state.results, {"fleet"}) || find_json(state.results, {"idle"}) ||
                     find_json(state.results, {"storage"}) || find_json(state.results, {"token_costs"}) ||
                     find_json(state.results, {"video"});
    if (!any) {
        const std::string instance = chosen_instance(state).empty() ? "p5.48xlarge" : chosen_instance(state);
        if (empty_state("This scenario has no cost sections (price, fleet, idle, storage). Pick an instance in the Catalog view, "
                        "or start from the instance below.",
                        ("Price " + instance).c_str()))
            choose_instance(state, instance);
        return;
    }
    if (const nlohmann::json* price = find_json(state.results, {"price"})) {
        heading("Purchase options");
        draw_price_controls(state);
        if (const nlohmann::json* options = find_json(*price, {"options"})) {
            draw_options_table(*options);
            note("A price without a mark is listed: published, its source and date on hover. \"not offered\": a source shows AWS does "
                 "not sell that option for this type here (hover for which). \"(assumed)\": no data either way, priced at a default "
                 "discount off on-demand (docs/pricing.md, \"Which options exist\").");
            draw_spot_checkpoints(state, *options);
        }
        heading("Cumulative cost over months");
        draw_cumulative_chart(*price, state.views->charts.costs_months);
    }
    draw_fleet(state);
    draw_idle(state);
    draw_storage(state);
    draw_unit_costs(state);
}

}  // namespace gpuplan::ui
