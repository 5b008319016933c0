// usage_history.cpp — see usage_history.hpp.
#include "gpuplan/pricing/usage_history.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>

#include "gpuplan/input_error.hpp"
#include "gpuplan/text.hpp"

namespace gpuplan {

Param default_spot_rework() {
    return {*plan_checkpoints(default_spot_risk()).overhead_fraction.value, InputOrigin::assumption,
            "checkpoint overhead at the default interruption rate (docs/pricing.md, Spot checkpoints)"};
}

std::string_view unit_name(UsageUnit unit) {
    switch (unit) {
        case UsageUnit::gpus: return "GPUs";
        case UsageUnit::instances: return "instances";
        case UsageUnit::requests_per_second: return "requests/s";
    }
    return "unknown";
}

namespace {

void check_commitment_request(const UsageHistory& history, const CommitmentPlanRequest& q) {
    if (history.samples.empty() || !(history.total_hours > 0)) throw InputError("usage", "an empty history", "at least two samples");
    if (history.unit != UsageUnit::gpus)
        throw InputError(history.origin, "a history of " + std::string(unit_name(history.unit)), "GPUs in use (convert instances with their GPUs per instance)");
    if (q.spot) {
        if (!(q.spot->usd_per_gpu_hour.value > 0) || !std::isfinite(q.spot->usd_per_gpu_hour.value))
            throw InputError("spot_usd_per_gpu_hour", format_number(q.spot->usd_per_gpu_hour.value), "a price > 0 per GPU-hour");
        if (!(q.spot->rework_fraction.value >= 0) || !(q.spot->rework_fraction.value < 1))
            throw InputError("spot_rework_fraction", format_number(q.spot->rework_fraction.value), "a share of spot hours redone, 0 to below 1");
        if (!(q.spot->max_share_of_load >= 0) || !(q.spot->max_share_of_load <= 1))
            throw InputError("spot_max_share_of_load", format_number(q.spot->max_share_of_load), "a share of all GPU-hours, 0 to 1");
    }
    for (const auto& [key, p] : {std::pair{"commit_usd_per_gpu_hour", &q.commit_usd_per_gpu_hour}, std::pair{"burst_usd_per_gpu_hour", &q.burst_usd_per_gpu_hour},
                                 std::pair{"on_demand_usd_per_gpu_hour", &q.on_demand_usd_per_gpu_hour}})
        if (!(p->value > 0) || !std::isfinite(p->value)) throw InputError(key, format_number(p->value), "a price > 0 per GPU-hour");
}

// The load-duration curve: (load, hours) of every interval sorted by load, with suffix sums so
// that the GPU-hours above any level take one binary search.
struct LoadDuration {
    std::vector<std::pair<double, double>> spans;
    std::vector<double> hours_suffix, load_hours_suffix;  // over spans[i..]

    explicit LoadDuration(const UsageHistory& history) {
        const auto& s = history.samples;
        for (std::size_t k = 0; k < s.size(); ++k) spans.push_back({s[k].in_use, (k + 1 < s.size() ? s[k + 1].hours : history.total_hours) - s[k].hours});
        std::sort(spans.begin(), spans.end());
        hours_suffix.assign(spans.size() + 1, 0), load_hours_suffix.assign(spans.size() + 1, 0);
        for (std::size_t i = spans.size(); i-- > 0;) {
            hours_suffix[i] = hours_suffix[i + 1] + spans[i].second;
            load_hours_suffix[i] = load_hours_suffix[i + 1] + spans[i].first * spans[i].second;
        }
    }
    std::size_t first_above(double level) const {  // index of the first span with load > level
        return static_cast<std::size_t>(std::upper_bound(spans.begin(), spans.end(), std::pair<double, double>{level, HUGE_VAL}) - spans.begin());
    }
    double above(double level) const {  // GPU-hours above `level`: integral of max(load - L, 0)
        const std::size_t i = first_above(level);
        return load_hours_suffix[i] - level * hours_suffix[i];
    }
    double hours_above(double level) const { return hours_suffix[first_above(level)]; }
    double hours_at_or_above(double level) const {
        return hours_suffix[static_cast<std::size_t>(std::lower_bound(spans.begin(), spans.end(), std::pair<double, double>{level, -HUGE_VAL}) - spans.begin())];
    }
    double gpu_hours() const { return load_hours_suffix[0]; }
};

// cost(L) = commit x L x T + spot x (1 + rework) x spot GPU-hours + burst x the rest above L.
// Spot takes the load above the commitment up to its cap, when it is cheaper with its rework.
struct CommitmentCost {
    const LoadDuration& load;
    double commit, burst, hours, spot_effective = HUGE_VAL, spot_cap_gpu_hours = 0;

    CommitmentCost(const LoadDuration& l, const CommitmentPlanRequest& q, double T)
        : load(l), commit(q.commit_usd_per_gpu_hour.value), burst(q.burst_usd_per_gpu_hour.value), hours(T) {
        if (q.spot) spot_effective = q.spot->usd_per_gpu_hour.value * (1 + q.spot->rework_fraction.value);
        spot_cap_gpu_hours = q.spot && spot_effective < burst ? q.spot->max_share_of_load * load.gpu_hours() : 0;
    }
    double spot_hours(double level) const { return std::min(load.above(level), spot_cap_gpu_hours); }
    double operator()(double level) const {
        const double on_spot = spot_hours(level);
        return commit * level * hours + (on_spot > 0 ? spot_effective * on_spot : 0) + burst * (load.above(level) - on_spot);
    }
};

// The cost of every whole level up to the peak, the duration curve beside it; returns the
// cheapest level's index.
std::size_t cost_curves(const LoadDuration& load, const CommitmentCost& cost, double peak, CommitmentPlan& p) {
    std::size_t best = 0;
    for (double level = 0; level <= std::ceil(peak); level += 1) {
        p.curve_level.push_back(level);
        p.curve_cost_usd.push_back(cost(level));
        if (p.curve_cost_usd.back() < p.curve_cost_usd[best] - 1e-9) best = p.curve_level.size() - 1;
    }
    for (double level = 0; level <= std::ceil(peak); level += 1) {
        p.duration_level.push_back(level);
        p.duration_hours.push_back(load.hours_at_or_above(level));
    }
    return best;
}

// The optimal level, its share of hours above, its spot hours and its cost.
// The request's prices and the history, as figure inputs.
struct CommitmentInputs {
    FigureInput commit, burst, history;
};

void optimal_figures(const LoadDuration& load, const CommitmentCost& cost, const CommitmentPlanRequest& q, std::size_t best, const std::string& unit,
                     const CommitmentInputs& in, CommitmentPlan& p) {
    const double c = cost.commit, b = cost.burst, T = cost.hours, gpu_hours = load.gpu_hours();
    const FigureInput &in_c = in.commit, &in_b = in.burst, &in_history = in.history;
    const double L = p.curve_level[best];
    const double share_above = load.hours_above(L) / T;
    p.share_above_optimal = make_figure("share_above_optimal", share_above, "fraction", "hours with more than optimal_level in use / total_hours",
                                        format_number(load.hours_above(L)) + " / " + format_number(T) + " = " + format_number(share_above), {in_history});
    const double next_above = load.hours_above(L + 1) / T;
    p.optimal_level = make_figure("optimal_level", L, unit, "the whole level L with the least cost(L) = commit x L x T + burst x integral of max(load - L, 0)",
                                  "more than " + format_number(L) + " in use " + format_number(share_above * 100) + "% of the hours, more than " + format_number(L + 1) + " " +
                                      format_number(next_above * 100) + "%; break-even " + format_number(c / b * 100) + "%",
                                  {in_c, in_b, in_history});
    const double on_spot = cost.spot_hours(L);
    std::vector<FigureInput> cost_inputs = {in_c, in_b, p.optimal_level.as_input()};
    if (q.spot) {
        cost_inputs.push_back(input("spot_usd_per_gpu_hour", "USD/GPU-h", q.spot->usd_per_gpu_hour));
        cost_inputs.push_back(input("spot_rework_fraction", "fraction", q.spot->rework_fraction));
        p.spot_gpu_hours_at_optimal = make_figure("spot_gpu_hours_at_optimal", on_spot, "GPU-h", "min(GPU-hours above L, spot cap x all GPU-hours) when spot x (1 + rework) < burst, else 0",
                                                  "min(" + format_number(load.above(L)) + ", " + format_number(q.spot->max_share_of_load) + " x " + format_number(gpu_hours) + ") = " +
                                                      format_number(on_spot) + (cost.spot_cap_gpu_hours > 0 ? "" : " (spot with its rework costs more than the burst)"),
                                                  {cost_inputs[3], cost_inputs[4], p.optimal_level.as_input()});
    }
    p.cost_at_optimal_usd = make_figure("cost_at_optimal_usd", p.curve_cost_usd[best], "USD",
                                        q.spot ? "commit x L x T + spot x (1 + rework) x spot GPU-hours + burst x the other GPU-hours above L" : "commit x L x T + burst x GPU-hours above L",
                                        format_number(c) + " x " + format_number(L) + " x " + format_number(T) +
                                            (on_spot > 0 ? " + " + format_number(cost.spot_effective) + " x " + format_number(on_spot) : std::string()) + " + " + format_number(b) +
                                            " x " + format_number(load.above(L) - on_spot) + " = " + format_number(p.curve_cost_usd[best]),
                                        cost_inputs);
}

}  // namespace

CommitmentPlan plan_commitment(const UsageHistory& history, const CommitmentPlanRequest& q) {
    check_commitment_request(history, q);
    const LoadDuration load(history);
    const double T = history.total_hours;
    const double c = q.commit_usd_per_gpu_hour.value, b = q.burst_usd_per_gpu_hour.value, od = q.on_demand_usd_per_gpu_hour.value;
    const double peak = load.spans.back().first, minimum = load.spans.front().first, gpu_hours = load.gpu_hours();
    if (!(peak <= 1e6))  // every whole level up to the peak is costed
        throw InputError(history.origin, "a peak of " + format_number(peak) + " GPUs in use", "at most 1,000,000 (is this the right column?)");
    const CommitmentCost cost(load, q, T);
    CommitmentPlan p;
    const std::string unit(unit_name(history.unit));
    const CommitmentInputs in{input("commit_usd_per_gpu_hour", "USD/GPU-h", q.commit_usd_per_gpu_hour), input("burst_usd_per_gpu_hour", "USD/GPU-h", q.burst_usd_per_gpu_hour),
                              {"usage_history_hours", T, "h", InputOrigin::user, history.origin + " (" + std::to_string(history.samples.size()) + " samples)", false}};
    const FigureInput& in_history = in.history;
    p.peak = make_figure("peak", peak, unit, "largest count in the history", format_number(peak), {in_history});
    p.minimum = make_figure("minimum", minimum, unit, "smallest count in the history", format_number(minimum), {in_history});
    p.mean = make_figure("mean", gpu_hours / T, unit, "GPU-hours / hours", format_number(gpu_hours) + " / " + format_number(T) + " = " + format_number(gpu_hours / T), {in_history});
    p.total_hours = make_figure("total_hours", T, "h", "first sample to the end of the last interval", format_number(T), {in_history});
    p.break_even_utilization = make_figure("break_even_utilization", c / b, "fraction", "commit_usd_per_gpu_hour / burst_usd_per_gpu_hour",
                                           format_number(c) + " / " + format_number(b) + " = " + format_number(c / b),
                                           {in.commit, in.burst});
    const std::size_t best = cost_curves(load, cost, peak, p);
    optimal_figures(load, cost, q, best, unit, in, p);
    p.all_on_demand_usd = make_figure("all_on_demand_usd", od * gpu_hours, "USD", "on_demand x GPU-hours", format_number(od) + " x " + format_number(gpu_hours) + " = " + format_number(od * gpu_hours),
                                      {input("on_demand_usd_per_gpu_hour", "USD/GPU-h", q.on_demand_usd_per_gpu_hour), in_history});
    const double saving = 1 - p.curve_cost_usd[best] / (od * gpu_hours);
    p.saving_vs_on_demand = make_figure("saving_vs_on_demand", saving, "fraction", "1 - cost_at_optimal_usd / all_on_demand_usd",
                                        "1 - " + format_number(p.curve_cost_usd[best]) + " / " + format_number(od * gpu_hours) + " = " + format_number(saving),
                                        {p.cost_at_optimal_usd.as_input(), p.all_on_demand_usd.as_input()});
    const double rule = std::floor(q.rule_fraction * minimum);
    p.rule_level = make_figure("rule_level", rule, unit, "floor(rule fraction x minimum count) (\"reserve 70% of baseline\")",
                               "floor(" + format_number(q.rule_fraction) + " x " + format_number(minimum) + ") = " + format_number(rule), {p.minimum.as_input()});
    p.cost_at_rule_usd = make_figure("cost_at_rule_usd", cost(rule), "USD", "cost(rule_level)", format_number(cost(rule)),
                                     {p.rule_level.as_input(), in.commit, in.burst});
    p.saving_vs_rule_usd = make_figure("saving_vs_rule_usd", cost(rule) - p.curve_cost_usd[best], "USD", "cost_at_rule_usd - cost_at_optimal_usd",
                                       format_number(cost(rule)) + " - " + format_number(p.curve_cost_usd[best]) + " = " + format_number(cost(rule) - p.curve_cost_usd[best]),
                                       {p.cost_at_rule_usd.as_input(), p.cost_at_optimal_usd.as_input()});
    return p;
}

nlohmann::json to_json(const CommitmentPlan& p, const UsageHistory& history) {
    nlohmann::json curve = nlohmann::json::array();
    for (std::size_t k = 0; k < p.curve_level.size(); ++k)
        curve.push_back({{"level", p.curve_level[k]}, {"cost_usd", p.curve_cost_usd[k]}, {"hours_at_or_above", p.duration_hours[k]}});
    std::vector<Figure> figures{p.peak, p.minimum, p.mean, p.total_hours, p.break_even_utilization, p.optimal_level,
                                p.share_above_optimal, p.cost_at_optimal_usd, p.all_on_demand_usd, p.saving_vs_on_demand,
                                p.rule_level, p.cost_at_rule_usd, p.saving_vs_rule_usd};
    if (p.spot_gpu_hours_at_optimal.value) figures.push_back(p.spot_gpu_hours_at_optimal);
    return {{"unit", unit_name(history.unit)},
            {"format", history.format},
            {"samples", history.samples.size()},
            {"figures", to_json(figures)},
            {"curve", curve},
            {"notes", history.notes}};
}

}  // namespace gpuplan
