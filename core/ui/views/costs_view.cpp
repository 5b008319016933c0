// costs_view.cpp — the Costs view: purchase options of the chosen instance, the cumulative
// cost over months with the reserved break-even points, the fleet mix (baseline / on-demand /
// spot) with its blended rate, always-on versus ephemeral, and storage and transfer.
// Every number comes from the typed result (AppState::result, by member); the chart's lines are
// what each option has billed by each month (cumulative_cost_usd, pricing/purchase_options.hpp),
// from those same figures: commitments bill their whole term and renew.
#include <algorithm>
#include <cmath>

#include "gpuplan/pricing/purchase_options.hpp"
#include "gpuplan/scenario/scenario_result.hpp"
#include "gpuplan/text.hpp"
#include "imgui.h"
#include "ui/plot.hpp"
#include "ui/theme.hpp"
#include "ui/views/view_common.hpp"
#include "ui/names.hpp"
#include "ui/widgets.hpp"

namespace gpuplan::ui {
namespace {


void draw_price_controls(AppState& state) {
    nlohmann::json& price = scenario_section(state, "price");
    ImGui::AlignTextToFramePadding();
    ImGui::Text("Instance: %s", json_string(find_json(price, {"instance"}), "(none)").c_str());
    ImGui::SameLine();
    dim_text_beside("(choose another in the Catalog view)");
    edit_number(state, price, "hours", "hours", kHoursPerMonth, 1, 1e6);
    ImGui::SameLine();
    edit_number(state, price, "instances", "instances", 1, 1, 1e5);
}

// One option's row: its label in words (listed, not offered, assumed) and its figures.
// The table's column headings, each with its scope: one instance, or the whole request (issue 30:
// a row mixed per-instance prices with the fleet's cost over whole terms under bare headings).
std::vector<std::string> option_headers(const PriceSectionResult& price) {
    const std::string fleet = format_quantity(price.instances, price.instances == 1 ? "instance" : "instances") + ", " +
                              format_quantity(price.hours, "h");
    return {"effective $/h, per instance", "$/month, per instance", "upfront, per instance", "recurring $/h, per instance", "cost: " + fleet + " (whole terms)",
            "if the term is shared", "saving vs on-demand", "break-even use", "unit cost: " + fleet};
}

void draw_cost_option_row(const Quote& q, const std::vector<std::string>& headers) {
    ImGui::TableSetColumnIndex(0);
    // Each option in words: listed (a published price, its source on hover), not offered (a
    // source shows AWS does not sell it here), or assumed (priced at a default discount).
    // An option with no price (not offered, or unknown: no on-demand price to take an assumed
    // discount off) says which, with the reason on hover; it is not called "assumed".
    const std::string label = q.label + (q.status == OptionStatus::assumed && q.available ? " (assumed)" : "");
    if (!q.available) {
        ImGui::TextDisabled("%s", label.c_str());
        ImGui::TableSetColumnIndex(1);
        ImGui::TextDisabled("%s", q.status == OptionStatus::not_offered ? "not offered" : std::string(missing_text(q.unavailable_reason)).c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", q.unavailable_reason.c_str());
        return;
    }
    ImGui::TextUnformatted(label.c_str());
    if (q.status == OptionStatus::listed && ImGui::IsItemHovered()) ImGui::SetTooltip("listed price: source %s", q.status_source.c_str());
    const Figure* cells[] = {&q.effective_usd_per_hour, &q.effective_usd_per_month, &q.upfront_usd, &q.recurring_usd_per_hour, &q.cost_usd,
                             q.attributable_cost_usd ? &*q.attributable_cost_usd : nullptr, &q.saving_vs_on_demand,
                             q.break_even_utilization ? &*q.break_even_utilization : nullptr};
    const int kCells = static_cast<int>(sizeof cells / sizeof cells[0]);
    for (int k = 0; k < kCells; ++k) {
        ImGui::TableSetColumnIndex(k + 1);
        ImGui::PushID(k);
        if (cells[k]) figure_value_text(*cells[k], q.label + ": " + headers[k], true, false);
        else ImGui::TextDisabled("-");
        ImGui::PopID();
    }
    ImGui::TableSetColumnIndex(kCells + 1);
    for (const Figure& u : q.unit_costs) figure_value_text(u, q.label + ": " + human_name(u.name));
}

// Every option row is shown: no vertical scroll of its own. A table that scrolls inside the
// scrolling view traps the mouse wheel (Dear ImGui scrolls the innermost window that can, and
// passes the wheel on only when it cannot scroll at all), so a reader with the pointer on the
// table could not scroll the view down to the spot and chart sections. ScrollX stays: the
// columns do not fit a phone.
void draw_options_table(const PriceSectionResult& price) {
    const std::vector<Quote>& options = price.quotes;
    const std::vector<std::string> headers = option_headers(price);
    constexpr ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit |
                                      ImGuiTableFlags_ScrollX;
    const float height = table_height(options.size(), 1e6f);
    if (!ImGui::BeginTable("options", static_cast<int>(headers.size()) + 1, flags, ImVec2(0, height))) return;
    ImGui::TableSetupScrollFreeze(1, 1);
    // Wide enough for the longest name whole, "(assumed)" included ("EC2 Instance Savings Plan
    // 1-year, partial upfront (assumed)"): at 19 em the mark that says a row is assumed was cut off.
    ImGui::TableSetupColumn("purchase option", ImGuiTableColumnFlags_WidthFixed, em(29));
    // "cost" is what is billed (a commitment: its whole term); "if the term is shared" is the
    // hours' part of it when other work uses the rest of the term.
    for (const std::string& h : headers) ImGui::TableSetupColumn(h.c_str());
    ImGui::TableHeadersRow();
    for (std::size_t k = 0; k < options.size(); ++k) {
        ImGui::TableNextRow();
        ImGui::PushID(static_cast<int>(k));
        draw_cost_option_row(options[k], headers);
        ImGui::PopID();
    }
    ImGui::EndTable();
}

// Spot with checkpoints: the interruption rate and the checkpoint and restart costs (scenario
// section "spot_risk"; absent keys are the documented defaults), and what they do to the spot
// price (Young/Daly, pricing/spot_checkpoint.hpp).
void draw_spot_checkpoints(AppState& state, const std::vector<Quote>& options) {
    const Quote* spot = nullptr;
    for (const Quote& q : options)
        if (q.spot_effective_usd_per_useful_hour && q.spot_checkpoint_interval_hours && q.spot_rework_overhead_fraction) spot = &q;
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
    figure_table("spot_checkpoints", {{"Spot price", spot->effective_usd_per_hour}, {"Checkpoint interval", *spot->spot_checkpoint_interval_hours},
                                      {"Rework (extra compute per useful hour)", *spot->spot_rework_overhead_fraction},
                                      {"Spot price per useful hour", *spot->spot_effective_usd_per_useful_hour}});
    note("A job on spot capacity writes a checkpoint every interval and, when interrupted, loses on average half an interval "
         "and pays a restart: rework = checkpoint / interval + interval / (2 x hours between interruptions) + restart / hours "
         "between interruptions, with the interval sqrt(2 x checkpoint x hours between interruptions) unless you set one "
         "(Young 1974; Daly 2006). Leave a field empty for its default (docs/pricing.md).");
}

// Cumulative cost of running `instances` for `months` months at `hours_per_month`.
void draw_cumulative_chart(const PriceSectionResult& price, int& months) {
    const double instances = price.instances;
    const double hours_per_month = std::min(price.hours, kHoursPerMonth);
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
        for (const Quote& q : price.quotes) {
            if (q.key != key || !q.available || !q.upfront_usd.value || !q.recurring_usd_per_hour.value) continue;
            Line line{q.label, {}, q.option, *q.upfront_usd.value, *q.recurring_usd_per_hour.value};
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
    if (!state.result || !state.result->fleet) return;
    const FleetRequest& request = state.result->fleet->request;
    const FleetResult& fleet = state.result->fleet->result;
    heading("Fleet mix");
    nlohmann::json& fleet_in = scenario_section(state, "fleet");
    edit_number(state, fleet_in, "hours", "hours", kHoursPerMonth, 1, 1e6);
    if (json_number(find_json(fleet_in, {"on_demand_usd_per_gpu_hour"}))) {
        ImGui::SameLine();
        edit_number(state, fleet_in, "on_demand_usd_per_gpu_hour", "on-demand USD per GPU-hour", 1, 0.0001, 1e4, "%.4g");
    }
    const std::vector<FleetTier>& tiers = request.tiers;
    nlohmann::json* scenario_tiers = find_json(fleet_in, {"tiers"}) ? &fleet_in["tiers"] : nullptr;
    const auto editable = [&](std::size_t k) {
        return scenario_tiers && scenario_tiers->is_array() && k < scenario_tiers->size() && (*scenario_tiers)[k].is_object();
    };
    // Narrower than its columns (a phone), the table scrolls sideways instead of squeezing them.
    const bool narrow = ImGui::GetContentRegionAvail().x < em(40);
    if (!tiers.empty() &&
        ImGui::BeginTable("tiers", 7, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit |
                                          (narrow ? ImGuiTableFlags_ScrollX : 0),
                          ImVec2(0, narrow ? table_height(tiers.size(), 12) + em(0.8f) * static_cast<float>(tiers.size()) : 0.0f))) {
        for (const char* h : {"tier", "GPUs", "USD per GPU-hour", "utilization", "committed", "cost", "break-even use"}) ImGui::TableSetupColumn(h);
        ImGui::TableHeadersRow();
        for (std::size_t k = 0; k < tiers.size(); ++k) {
            const FleetTier& t = tiers[k];
            const std::string tier = option_label(t.option);  // words, not the key (reserved-3y)
            ImGui::TableNextRow();
            ImGui::PushID(static_cast<int>(k));
            ImGui::TableSetColumnIndex(0);
            ImGui::AlignTextToFramePadding();  // level with the fields beside it
            ImGui::TextUnformatted(tier.c_str());
            ImGui::TableSetColumnIndex(1);
            if (editable(k)) edit_number(state, (*scenario_tiers)[k], "gpus", "##tier GPUs", 0, 0, 1e6);
            else text_right(format_quantity(t.gpus, ""));
            ImGui::TableSetColumnIndex(2);
            if (editable(k)) edit_number(state, (*scenario_tiers)[k], "usd_per_gpu_hour", "##tier USD per GPU-hour", 1, 0.0001, 1e4, "%.4g");
            ImGui::TableSetColumnIndex(3);
            if (editable(k)) edit_number(state, (*scenario_tiers)[k], "utilization", "##tier utilization", 1, 0, 1, "%.3g");
            ImGui::TableSetColumnIndex(4);
            ImGui::TextUnformatted(t.committed ? "yes" : "no");
            ImGui::TableSetColumnIndex(5);
            // The document writes a tier's figures under the tier's own keys (fleet.tiers[k].cost_usd).
            if (k < fleet.tier_cost_usd.size()) figure_value_text(fleet.tier_cost_usd[k], tier + ": cost", true, true, "cost_usd");
            ImGui::TableSetColumnIndex(6);
            if (k < fleet.tier_break_even_utilization.size() && fleet.tier_break_even_utilization[k])
                figure_value_text(*fleet.tier_break_even_utilization[k], tier + ": break-even use", true, true, "break_even_utilization");
            else ImGui::TextDisabled("-");
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    note("Utilization is the share of the hours a tier's GPUs are busy (1 = always); a committed tier is billed for every hour "
         "whatever its utilization, the others only for the hours used.");
    figure_table("fleet_figures", {{"Blended rate", fleet.blended_usd_per_gpu_hour}, {"Total cost", fleet.total_cost_usd},
                                   {"GPU-hours used", fleet.used_gpu_hours}, {"All on-demand would cost", fleet.all_on_demand_cost_usd},
                                   {"Saving", fleet.saving_usd}, {"Saving vs on-demand", fleet.saving_vs_on_demand}});
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
    edit_number(state, idle, "hours_per_month", "always-on hours a month", kHoursPerMonth, 1, 744, "%.4g");
}

void draw_idle(AppState& state) {
    if (!state.result || !state.result->idle) return;
    const IdleResult& idle = *state.result->idle;
    heading("Always-on versus ephemeral");
    draw_idle_inputs(state);
    const double values[2] = {idle.always_on_usd_total.value.value_or(0), idle.ephemeral_usd_total.value.value_or(0)};
    if (ImGui::BeginTable("idle_layout", side_by_side_columns(), ImGuiTableFlags_SizingStretchSame)) {
        ImGui::TableNextColumn();
        figure_table("idle_figures", {{"Always-on, per instance", idle.always_on_usd_per_instance}, {"Always-on, total", idle.always_on_usd_total},
                                      {"Ephemeral hours per instance", idle.ephemeral_hours_per_instance},
                                      {"Ephemeral, per instance", idle.ephemeral_usd_per_instance}, {"Ephemeral, total", idle.ephemeral_usd_total},
                                      {"Storage kept between sessions", idle.storage_usd_total}, {"Compute saving", idle.saving_fraction_compute}});
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
    if (!state.result || !state.result->storage) return;
    const StorageResult& storage = *state.result->storage;
    heading("Storage and transfer");
    if (!ImGui::BeginTable("storage", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) return;
    const auto row = [](const std::string& label, const Figure& f) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(label.c_str());
        ImGui::TableSetColumnIndex(1);
        figure_value_text(f, "storage: " + label);
    };
    for (const Figure& line : storage.lines) row(human_name(line.name), line);
    row("total", storage.total_usd);
    ImGui::EndTable();
}

void draw_unit_costs(const AppState& state) {
    if (!state.result || (state.result->token_costs.empty() && !state.result->video)) return;
    heading("Unit costs");
    for (std::size_t k = 0; k < state.result->token_costs.size(); ++k) {
        const TokenCost& t = state.result->token_costs[k];
        ImGui::PushID(static_cast<int>(k));
        figure_table("tokens", {{"USD per million tokens at your rate", t.usd_per_million_tokens}, {"USD per billion tokens at your rate", t.usd_per_billion_tokens}});
        ImGui::PopID();
    }
    if (const auto& video = state.result->video)
        figure_table("video", {{"Video length", video->video_seconds}, {"RTF of pipeline B", video->rtf_b},
                               {"GPU-hours per 1000 video-hours (A)", video->gpu_hours_per_1000_video_hours_a},
                               {"GPU-hours per 1000 video-hours (B)", video->gpu_hours_per_1000_video_hours_b},
                               {"Saving per 1000 video-hours", video->saving_usd_per_1000_video_hours}});
}

}  // namespace

void draw_costs_view(AppState& state) {
    const ScenarioResult* r = state.result.get();
    const bool any = r && (r->price || r->fleet || r->idle || r->storage || !r->token_costs.empty() || r->video);
    if (!any) {
        const std::string instance = chosen_instance(state).empty() ? "p5.48xlarge" : chosen_instance(state);
        if (empty_state("This scenario has no cost sections (price, fleet, idle, storage). Pick an instance in the Catalog view, "
                        "or start from the instance below.",
                        ("Price " + instance).c_str()))
            choose_instance(state, instance);
        return;
    }
    if (r->price) {
        heading("Purchase options");
        draw_price_controls(state);
    }
    if (r->price && !r->price->not_offered.empty()) {
        // Kept through a region change: the section stays, the other sections are priced, and
        // picking a region that sells it (or another instance) brings its options back.
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(to_vec4(palette().warn), "Not priced here: %s. Choose a region that sells it, or another instance.",
                           r->price->not_offered.c_str());
        ImGui::PopTextWrapPos();
    } else if (r->price) {
        draw_options_table(*r->price);
        draw_quota_line(r->price->quota_on_demand);
        draw_quota_line(r->price->quota_spot);
        note("A price without a mark is listed: published, its source and date on hover. \"not offered\": a source shows AWS does "
             "not sell that option for this type here (hover for which). \"(assumed)\": no data either way, priced at a default "
             "discount off on-demand, partial and all upfront below no upfront by AWS's usual ratio (docs/pricing.md, \"Which "
             "options exist\" and \"Upfront payments\"; hover a figure for its inputs).");
        draw_spot_checkpoints(state, r->price->quotes);
        heading("Cumulative cost over months");
        draw_cumulative_chart(*r->price, state.views->charts.costs_months);
    }
    draw_fleet(state);
    draw_idle(state);
    draw_storage(state);
    draw_unit_costs(state);
}

}  // namespace gpuplan::ui
