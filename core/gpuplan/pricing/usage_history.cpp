// usage_history.cpp — see usage_history.hpp.
#include "gpuplan/pricing/usage_history.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>

#include "gpuplan/input_error.hpp"
#include "gpuplan/text.hpp"

namespace gpuplan {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '"')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '"')) s.remove_suffix(1);
    return s;
}

std::optional<double> number(std::string_view s) { return decimal_number(s); }

// Days since 1970-01-01 of a proleptic Gregorian date (the civil-from-days inverse).
double days_from_civil(int y, int m, int d) {
    y -= m <= 2;
    const int era = (y >= 0 ? y : y - 399) / 400;
    const int yoe = y - era * 400;
    const int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097.0 + doe - 719468.0;
}

// "2026-01-05T14:00:00Z", "2026-01-05 14:00", "2026-01-05T14:00:00.000+00:00" or Unix seconds.
std::optional<double> seconds_since_epoch(std::string_view s) {
    if (auto v = number(s)) return v;
    const auto field = [&](std::size_t at, std::size_t len) -> std::optional<int> {
        if (at + len > s.size()) return std::nullopt;
        int v = 0;
        for (std::size_t k = at; k < at + len; ++k) {
            if (s[k] < '0' || s[k] > '9') return std::nullopt;
            v = v * 10 + (s[k] - '0');
        }
        return v;
    };
    const auto y = field(0, 4), mo = field(5, 2), d = field(8, 2), h = field(11, 2), mi = field(14, 2);
    if (!y || !mo || !d || !h || !mi || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != ' ') || s[13] != ':') return std::nullopt;
    if (*mo < 1 || *mo > 12 || *d < 1 || *d > 31 || *h > 23 || *mi > 59) return std::nullopt;
    double sec = 0;
    std::size_t rest = 16;
    if (s.size() > 16 && s[16] == ':') {
        const auto ss = field(17, 2);
        if (!ss || *ss > 60) return std::nullopt;
        sec = *ss;
        rest = 19;
        if (s.size() > rest && s[rest] == '.') {
            ++rest;
            while (rest < s.size() && s[rest] >= '0' && s[rest] <= '9') ++rest;
        }
    }
    const std::string_view zone = s.substr(rest);
    if (!(zone.empty() || zone == "Z" || zone == "+00:00" || zone == "UTC" || zone == " UTC")) return std::nullopt;
    return days_from_civil(*y, *mo, *d) * 86400.0 + *h * 3600.0 + *mi * 60.0 + sec;
}

std::string at_line(const std::string& origin, std::size_t line) { return origin + ": line " + std::to_string(line); }

}  // namespace

UsageHistory parse_usage_csv(std::string_view text, const std::string& origin) {
    UsageHistory h;
    h.origin = origin;
    std::vector<std::pair<double, UsageSample>> rows;  // seconds, sample
    std::size_t line_no = 0, start = 0;
    bool header = false;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view line = trim(text.substr(start, end - start));
        ++line_no;
        start = end + 1;
        if (line.empty() || line.front() == '#') {
            if (end == text.size()) break;
            continue;
        }
        const std::size_t comma = line.find(',');
        if (comma == std::string_view::npos || line.find(',', comma + 1) != std::string_view::npos)
            throw InputError(at_line(origin, line_no), "\"" + std::string(line.substr(0, 60)) + "\"", "two comma-separated columns: timestamp,gpus");
        const std::string_view a = trim(line.substr(0, comma)), b = trim(line.substr(comma + 1));
        if (!header) {
            std::string unit(b);
            std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            if (a != "timestamp" && a != "Timestamp" && a != "time")
                throw InputError(at_line(origin, line_no), "header \"" + std::string(line.substr(0, 60)) + "\"", "the header timestamp,gpus or timestamp,instances");
            if (unit == "gpus" || unit == "gpus_in_use") h.unit = "GPUs";
            else if (unit == "instances" || unit == "instances_in_use") h.unit = "instances";
            else throw InputError(at_line(origin, line_no), "a column \"" + std::string(b) + "\"", "gpus or instances (what the count is of)");
            header = true;
            continue;
        }
        const auto t = seconds_since_epoch(a);
        if (!t) throw InputError(at_line(origin, line_no), "timestamp \"" + std::string(a) + "\"", "ISO 8601 UTC (2026-01-05T14:00:00Z) or Unix seconds");
        const auto v = number(b);
        if (!v || *v < 0) throw InputError(at_line(origin, line_no), "count \"" + std::string(b) + "\"", "a number of " + h.unit + " in use >= 0");
        if (!rows.empty() && *t <= rows.back().first)
            throw InputError(at_line(origin, line_no), std::string(a),
                             *t == rows.back().first ? "a timestamp after the previous line's (this one repeats it)" : "timestamps in increasing order");
        rows.push_back({*t, {0, *v, line_no}});
        if (end == text.size()) break;
    }
    if (!header) throw InputError(origin, "no header", "a CSV with the header timestamp,gpus (or timestamp,instances) and one row per sample");
    if (rows.size() < 2) throw InputError(origin, std::to_string(rows.size()) + " sample(s)", "at least two samples (the interval between them is the resolution)");
    std::vector<double> gaps;
    for (std::size_t k = 1; k < rows.size(); ++k) gaps.push_back(rows[k].first - rows[k - 1].first);
    std::vector<double> sorted = gaps;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2), sorted.end());
    const double median_gap = sorted[sorted.size() / 2];
    for (std::size_t k = 0; k < gaps.size(); ++k)
        if (gaps[k] > 3 * median_gap)
            h.notes.push_back("a gap of " + format_number(gaps[k] / 3600) + " h after line " + std::to_string(rows[k].second.line) + " (the interval is " +
                              format_number(median_gap / 3600) + " h): its count, " + format_number(rows[k].second.in_use) + ", is taken as held");
    for (auto& [t, s] : rows) {
        s.hours = (t - rows.front().first) / 3600.0;
        h.samples.push_back(s);
    }
    h.total_hours = h.samples.back().hours + median_gap / 3600.0;
    h.notes.push_back("the last sample (line " + std::to_string(h.samples.back().line) + ") is taken to last one interval, " +
                      format_number(median_gap / 3600) + " h");
    return h;
}

CommitmentPlan plan_commitment(const UsageHistory& history, const CommitmentPlanRequest& q) {
    if (history.samples.empty() || !(history.total_hours > 0)) throw InputError("usage", "an empty history", "at least two samples");
    for (const auto& [key, p] : {std::pair{"commit_usd_per_gpu_hour", &q.commit_usd_per_gpu_hour}, std::pair{"burst_usd_per_gpu_hour", &q.burst_usd_per_gpu_hour},
                                 std::pair{"on_demand_usd_per_gpu_hour", &q.on_demand_usd_per_gpu_hour}})
        if (!(p->value > 0) || !std::isfinite(p->value)) throw InputError(key, format_number(p->value), "a price > 0 per GPU-hour");
    // (load, hours) of every interval, by load: the load-duration curve and its prefix sums.
    std::vector<std::pair<double, double>> spans;
    const auto& s = history.samples;
    for (std::size_t k = 0; k < s.size(); ++k) spans.push_back({s[k].in_use, (k + 1 < s.size() ? s[k + 1].hours : history.total_hours) - s[k].hours});
    std::sort(spans.begin(), spans.end());
    const double T = history.total_hours;
    std::vector<double> hours_suffix(spans.size() + 1, 0), load_hours_suffix(spans.size() + 1, 0);  // over spans[i..]
    for (std::size_t i = spans.size(); i-- > 0;) {
        hours_suffix[i] = hours_suffix[i + 1] + spans[i].second;
        load_hours_suffix[i] = load_hours_suffix[i + 1] + spans[i].first * spans[i].second;
    }
    const auto first_above = [&](double level) {  // index of the first span with load > level
        return static_cast<std::size_t>(std::upper_bound(spans.begin(), spans.end(), std::pair<double, double>{level, HUGE_VAL}) - spans.begin());
    };
    const double c = q.commit_usd_per_gpu_hour.value, b = q.burst_usd_per_gpu_hour.value, od = q.on_demand_usd_per_gpu_hour.value;
    const auto cost = [&](double level) {  // c L T + b x integral of max(load - L, 0)
        const std::size_t i = first_above(level);
        return c * level * T + b * (load_hours_suffix[i] - level * hours_suffix[i]);
    };
    const double peak = spans.back().first, minimum = spans.front().first, gpu_hours = load_hours_suffix[0];
    CommitmentPlan p;
    const FigureInput in_c = input("commit_usd_per_gpu_hour", "USD/GPU-h", q.commit_usd_per_gpu_hour);
    const FigureInput in_b = input("burst_usd_per_gpu_hour", "USD/GPU-h", q.burst_usd_per_gpu_hour);
    const FigureInput in_od = input("on_demand_usd_per_gpu_hour", "USD/GPU-h", q.on_demand_usd_per_gpu_hour);
    const std::string from = history.origin + " (" + std::to_string(s.size()) + " samples)";
    const FigureInput in_history{"usage_history_hours", T, "h", InputOrigin::user, from, false};
    p.peak = make_figure("peak", peak, history.unit, "largest count in the history", format_number(peak), {in_history});
    p.minimum = make_figure("minimum", minimum, history.unit, "smallest count in the history", format_number(minimum), {in_history});
    p.mean = make_figure("mean", gpu_hours / T, history.unit, "GPU-hours / hours", format_number(gpu_hours) + " / " + format_number(T) + " = " + format_number(gpu_hours / T), {in_history});
    p.total_hours = make_figure("total_hours", T, "h", "first sample to the end of the last interval", format_number(T), {in_history});
    p.break_even_utilization = make_figure("break_even_utilization", c / b, "fraction", "commit_usd_per_gpu_hour / burst_usd_per_gpu_hour",
                                           format_number(c) + " / " + format_number(b) + " = " + format_number(c / b), {in_c, in_b});
    std::size_t best = 0;
    for (double level = 0; level <= std::ceil(peak); level += 1) {
        p.curve_level.push_back(level);
        p.curve_cost_usd.push_back(cost(level));
        if (p.curve_cost_usd.back() < p.curve_cost_usd[best] - 1e-9) best = p.curve_level.size() - 1;
    }
    const double L = p.curve_level[best];
    for (double level = 0; level <= std::ceil(peak); level += 1) {
        p.duration_level.push_back(level);
        p.duration_hours.push_back(hours_suffix[static_cast<std::size_t>(std::lower_bound(spans.begin(), spans.end(), std::pair<double, double>{level, -HUGE_VAL}) - spans.begin())]);
    }
    const double above = hours_suffix[first_above(L)] / T;
    p.share_above_optimal = make_figure("share_above_optimal", above, "fraction", "hours with more than optimal_level in use / total_hours",
                                        format_number(hours_suffix[first_above(L)]) + " / " + format_number(T) + " = " + format_number(above), {in_history});
    const double next_above = hours_suffix[first_above(L + 1)] / T;
    p.optimal_level = make_figure("optimal_level", L, history.unit, "the whole level L with the least cost(L) = commit x L x T + burst x integral of max(load - L, 0)",
                                  "more than " + format_number(L) + " in use " + format_number(above * 100) + "% of the hours, more than " + format_number(L + 1) + " " +
                                      format_number(next_above * 100) + "%; break-even " + format_number(c / b * 100) + "%",
                                  {in_c, in_b, in_history});
    p.cost_at_optimal_usd = make_figure("cost_at_optimal_usd", p.curve_cost_usd[best], "USD", "commit x L x T + burst x GPU-hours above L",
                                        format_number(c) + " x " + format_number(L) + " x " + format_number(T) + " + " + format_number(b) + " x " +
                                            format_number(load_hours_suffix[first_above(L)] - L * hours_suffix[first_above(L)]) + " = " + format_number(p.curve_cost_usd[best]),
                                        {in_c, in_b, p.optimal_level.as_input()});
    p.all_on_demand_usd = make_figure("all_on_demand_usd", od * gpu_hours, "USD", "on_demand x GPU-hours",
                                      format_number(od) + " x " + format_number(gpu_hours) + " = " + format_number(od * gpu_hours), {in_od, in_history});
    const double saving = 1 - p.curve_cost_usd[best] / (od * gpu_hours);
    p.saving_vs_on_demand = make_figure("saving_vs_on_demand", saving, "fraction", "1 - cost_at_optimal_usd / all_on_demand_usd",
                                        "1 - " + format_number(p.curve_cost_usd[best]) + " / " + format_number(od * gpu_hours) + " = " + format_number(saving),
                                        {p.cost_at_optimal_usd.as_input(), p.all_on_demand_usd.as_input()});
    const double rule = std::floor(q.rule_fraction * minimum);
    p.rule_level = make_figure("rule_level", rule, history.unit, "floor(rule fraction x minimum count) (\"reserve 70% of baseline\")",
                               "floor(" + format_number(q.rule_fraction) + " x " + format_number(minimum) + ") = " + format_number(rule), {p.minimum.as_input()});
    p.cost_at_rule_usd = make_figure("cost_at_rule_usd", cost(rule), "USD", "cost(rule_level)", format_number(cost(rule)), {p.rule_level.as_input(), in_c, in_b});
    p.saving_vs_rule_usd = make_figure("saving_vs_rule_usd", cost(rule) - p.curve_cost_usd[best], "USD", "cost_at_rule_usd - cost_at_optimal_usd",
                                       format_number(cost(rule)) + " - " + format_number(p.curve_cost_usd[best]) + " = " + format_number(cost(rule) - p.curve_cost_usd[best]),
                                       {p.cost_at_rule_usd.as_input(), p.cost_at_optimal_usd.as_input()});
    return p;
}

nlohmann::json to_json(const CommitmentPlan& p, const UsageHistory& history) {
    nlohmann::json curve = nlohmann::json::array();
    for (std::size_t k = 0; k < p.curve_level.size(); ++k)
        curve.push_back({{"level", p.curve_level[k]}, {"cost_usd", p.curve_cost_usd[k]}, {"hours_at_or_above", p.duration_hours[k]}});
    return {{"unit", history.unit},
            {"samples", history.samples.size()},
            {"figures", to_json(std::vector<Figure>{p.peak, p.minimum, p.mean, p.total_hours, p.break_even_utilization, p.optimal_level,
                                                    p.share_above_optimal, p.cost_at_optimal_usd, p.all_on_demand_usd, p.saving_vs_on_demand,
                                                    p.rule_level, p.cost_at_rule_usd, p.saving_vs_rule_usd})},
            {"curve", curve},
            {"notes", history.notes}};
}

}  // namespace gpuplan
