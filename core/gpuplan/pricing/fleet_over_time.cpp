// fleet_over_time.cpp — see fleet_over_time.hpp.
#include "gpuplan/pricing/fleet_over_time.hpp"

#include <algorithm>
#include <cmath>
#include <deque>

#include "gpuplan/input_error.hpp"

namespace gpuplan {

namespace {

void require_price(const char* name, const Param& p, const char* what) {
    if (!(p.value > 0) || !std::isfinite(p.value)) throw InputError(name, format_number(p.value), what);
}

void require_minutes(const char* name, double minutes) {
    if (!(minutes >= 0) || !std::isfinite(minutes)) throw InputError(name, format_number(minutes), "minutes >= 0");
}

void require_unit(const UsageHistory& h, UsageUnit unit, const std::string& why) {
    if (h.unit != unit) throw InputError(h.origin, "a history of " + std::string(unit_name(h.unit)), std::string(unit_name(unit)) + " (" + why + ")");
}

double end_of(const UsageHistory& h, std::size_t k) { return k + 1 < h.samples.size() ? h.samples[k + 1].hours : h.total_hours; }

// Range maximum over a fixed array in O(1) after O(n log n) setup.
class RangeMax {
public:
    explicit RangeMax(std::vector<double> values) {
        table_.push_back(std::move(values));
        for (std::size_t w = 1; 2 * w <= table_[0].size(); w *= 2) {
            const auto& prev = table_.back();
            std::vector<double> next(prev.size() - w);
            for (std::size_t i = 0; i < next.size(); ++i) next[i] = std::max(prev[i], prev[i + w]);
            table_.push_back(std::move(next));
        }
    }
    double max(std::size_t first, std::size_t last) const {  // inclusive, first <= last
        std::size_t level = 0;
        while ((std::size_t{2} << level) <= last - first + 1) ++level;
        return std::max(table_[level][first], table_[level][last + 1 - (std::size_t{1} << level)]);
    }

private:
    std::vector<std::vector<double>> table_;
};

}  // namespace

EphemeralFromHistory ephemeral_from_history(const UsageHistory& h, const EphemeralFromHistoryRequest& q) {
    require_unit(h, UsageUnit::instances, "each ephemeral instance is started and stopped whole");
    require_price("usd_per_instance_hour", q.usd_per_instance_hour, "a price > 0 per instance-hour");
    require_minutes("boot_minutes", q.boot_minutes);
    require_minutes("idle_shutdown_minutes", q.idle_shutdown_minutes);
    if (h.samples.empty() || !(h.total_hours > 0)) throw InputError(h.origin, "an empty history", "at least two samples");
    const double boot = q.boot_minutes / 60, shutdown = q.idle_shutdown_minutes / 60, T = h.total_hours;
    const auto& s = h.samples;
    std::vector<double> values;
    double peak = 0, in_use_hours = 0;
    for (std::size_t k = 0; k < s.size(); ++k) {
        values.push_back(s[k].in_use);
        peak = std::max(peak, s[k].in_use);
        in_use_hours += s[k].in_use * (end_of(h, k) - s[k].hours);
    }
    const RangeMax range(values);
    // running(t) is constant between the times a sample's interval enters or leaves the
    // window [t - shutdown, t + boot]: its start - boot and its end + shutdown.
    std::vector<double> cuts = {0, T};
    for (std::size_t k = 0; k < s.size(); ++k) {
        cuts.push_back(std::clamp(s[k].hours - boot, 0.0, T));
        cuts.push_back(std::clamp(end_of(h, k) + shutdown, 0.0, T));
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    double running_hours = 0, starts = 0, previous = 0;
    for (std::size_t j = 0; j + 1 < cuts.size(); ++j) {
        const double mid = (cuts[j] + cuts[j + 1]) / 2;
        // Samples whose interval [start, end) meets [mid - shutdown, mid + boot].
        const auto first = static_cast<std::size_t>(
            std::upper_bound(s.begin(), s.end(), mid - shutdown, [&](double t, const UsageSample& x) { return t < end_of(h, static_cast<std::size_t>(&x - s.data())); }) - s.begin());
        const auto after = static_cast<std::size_t>(std::lower_bound(s.begin(), s.end(), mid + boot, [](const UsageSample& x, double t) { return x.hours < t; }) - s.begin());
        const double running = first < after ? range.max(first, after - 1) : 0;
        running_hours += running * (cuts[j + 1] - cuts[j]);
        starts += std::max(0.0, running - previous);
        previous = running;
    }
    const double price = q.usd_per_instance_hour.value;
    EphemeralFromHistory r;
    const FigureInput in_price = input("usd_per_instance_hour", "USD/h", q.usd_per_instance_hour);
    const FigureInput in_history{"usage_history_hours", T, "h", InputOrigin::user, h.origin + " (" + std::to_string(s.size()) + " samples)", false};
    const FigureInput in_boot{"boot_minutes", q.boot_minutes, "min", InputOrigin::user, "", false};
    const FigureInput in_shutdown{"idle_shutdown_minutes", q.idle_shutdown_minutes, "min", InputOrigin::user, "", false};
    r.always_on_instances = make_figure("always_on_instances", peak, "instances", "the peak count in use", format_number(peak), {in_history});
    r.always_on_usd = make_figure("always_on_usd", peak * T * price, "USD", "always_on_instances x hours x price",
                                  format_number(peak) + " x " + format_number(T) + " x " + format_number(price) + " = " + format_number(peak * T * price),
                                  {r.always_on_instances.as_input(), in_history, in_price});
    r.in_use_instance_hours = make_figure("in_use_instance_hours", in_use_hours, "instance-h", "the integral of the count in use", format_number(in_use_hours), {in_history});
    r.ephemeral_instance_hours = make_figure("ephemeral_instance_hours", running_hours, "instance-h",
                                             "integral of running(t) = max in use over [t - idle_shutdown_minutes, t + boot_minutes]",
                                             format_number(running_hours) + " (in use " + format_number(in_use_hours) + ")", {in_history, in_boot, in_shutdown});
    r.idle_instance_hours = make_figure("idle_instance_hours", running_hours - in_use_hours, "instance-h", "ephemeral_instance_hours - in_use_instance_hours",
                                        format_number(running_hours) + " - " + format_number(in_use_hours) + " = " + format_number(running_hours - in_use_hours),
                                        {r.ephemeral_instance_hours.as_input(), r.in_use_instance_hours.as_input()});
    r.instance_starts = make_figure("instance_starts", starts, "starts", "the rises of running(t), the first count included", format_number(starts), {in_history, in_boot, in_shutdown});
    r.ephemeral_usd = make_figure("ephemeral_usd", running_hours * price, "USD", "ephemeral_instance_hours x price",
                                  format_number(running_hours) + " x " + format_number(price) + " = " + format_number(running_hours * price),
                                  {r.ephemeral_instance_hours.as_input(), in_price});
    const double saving = peak > 0 ? 1 - running_hours / (peak * T) : 0;
    r.saving_fraction = make_figure("saving_fraction", saving, "fraction", "1 - ephemeral_usd / always_on_usd",
                                    "1 - " + format_number(running_hours * price) + " / " + format_number(peak * T * price) + " = " + format_number(saving),
                                    {r.ephemeral_usd.as_input(), r.always_on_usd.as_input()});
    return r;
}

std::string_view policy_name(ServingPolicy policy) {
    switch (policy) {
        case ServingPolicy::static_fleet: return "static";
        case ServingPolicy::scheduled: return "scheduled";
        case ServingPolicy::autoscaled: return "autoscaled";
    }
    return "unknown";
}

namespace {

void check_serving_request(const UsageHistory& h, const ServingFleetRequest& q) {
    require_unit(h, UsageUnit::requests_per_second, "a demand curve: the CSV header timestamp,requests_per_second");
    require_price("capacity_requests_per_second", q.capacity_requests_per_second, "requests/s one instance serves at the target latency, > 0");
    require_price("usd_per_instance_hour", q.usd_per_instance_hour, "a price > 0 per instance-hour");
    if (!(q.target_utilization > 0) || !(q.target_utilization <= 1)) throw InputError("target_utilization", format_number(q.target_utilization), "a share of capacity above 0, at most 1");
    require_minutes("warmup_minutes", q.warmup_minutes);
    require_minutes("scale_in_minutes", q.scale_in_minutes);
    if (!(q.min_instances >= 0) || q.min_instances != std::floor(q.min_instances)) throw InputError("min_instances", format_number(q.min_instances), "a whole number >= 0");
    if (h.samples.empty() || !(h.total_hours > 0)) throw InputError(h.origin, "an empty history", "at least two samples");
    if (h.total_hours > 2 * 8784) throw InputError(h.origin, format_number(h.total_hours) + " h", "a demand curve of at most two years (it is simulated minute by minute)");
}

// The one-minute grid: demand and desired count in each minute (the sample in force at its start).
struct MinuteGrid {
    std::size_t minutes = 0;
    std::vector<double> demand, desired;
    double most = 0;  // the largest desired count
};
MinuteGrid minute_grid(const UsageHistory& h, const ServingFleetRequest& q) {
    MinuteGrid g;
    g.minutes = static_cast<std::size_t>(std::ceil(h.total_hours * 60 - 1e-9));
    const double cap = q.capacity_requests_per_second.value, per_instance = cap * q.target_utilization;
    g.demand.resize(g.minutes), g.desired.resize(g.minutes);
    for (std::size_t m = 0, k = 0; m < g.minutes; ++m) {
        while (k + 1 < h.samples.size() && h.samples[k + 1].hours <= static_cast<double>(m) / 60.0 + 1e-12) ++k;
        g.demand[m] = h.samples[k].in_use;
        g.desired[m] = std::max(q.min_instances, std::ceil(g.demand[m] / per_instance - 1e-9));
    }
    g.most = *std::max_element(g.desired.begin(), g.desired.end());
    if (!(g.most <= 1e7))
        throw InputError("capacity_requests_per_second", format_number(cap), "a capacity that serves the peak with at most 10,000,000 instances (" + format_number(g.most) + " needed)");
    return g;
}

// Running (billed) and ready (serving) instances per minute under one policy.
struct Occupancy {
    std::vector<double> running, ready;
};

// Per hour of the week (a history of a week or more) or of the day, its largest desired count,
// launched a warm-up ahead of its hour.
Occupancy simulate_scheduled(const UsageHistory& h, const ServingFleetRequest& q, const MinuteGrid& g, std::size_t warmup) {
    Occupancy o{std::vector<double>(g.minutes, 0), std::vector<double>(g.minutes, 0)};
    const bool weekly = h.total_hours >= 168;
    const double period = weekly ? 168 * 3600.0 : 24 * 3600.0;
    const auto slot = [&](std::size_t m) {
        // +4 days: 1970-01-01 was a Thursday, slots start Monday. A floored modulo: a history
        // before 1970 has a negative time, whose fmod is negative (found by fuzz_usage).
        double t = std::fmod(h.start_unix_seconds + 345600.0 + static_cast<double>(m) * 60.0, period);
        if (t < 0) t += period;
        return std::min(static_cast<std::size_t>(t / 3600), static_cast<std::size_t>(period / 3600) - 1);
    };
    std::vector<double> schedule(weekly ? 168 : 24, q.min_instances);
    for (std::size_t m = 0; m < g.minutes; ++m) schedule[slot(m)] = std::max(schedule[slot(m)], g.desired[m]);
    for (std::size_t m = 0; m < g.minutes; ++m) {
        o.ready[m] = schedule[slot(m)];
        o.running[m] = std::max(o.ready[m], schedule[slot(m + warmup)]);
    }
    return o;
}

// Target tracking: window max of desired over the scale-in delay; launches ready after the warm-up.
Occupancy simulate_autoscaled(const MinuteGrid& g, std::size_t warmup, std::size_t scale_in) {
    Occupancy o{std::vector<double>(g.minutes, 0), std::vector<double>(g.minutes, 0)};
    const std::vector<double>& desired = g.desired;
    std::deque<std::size_t> window;                      // minutes with decreasing desired counts
    std::deque<std::pair<std::size_t, double>> pending;  // (ready minute, count), oldest first
    double serving = desired[0], booting = 0;
    for (std::size_t m = 0; m < g.minutes; ++m) {
        while (!window.empty() && desired[window.back()] <= desired[m]) window.pop_back();
        window.push_back(m);
        while (window.front() + scale_in < m) window.pop_front();
        const double target = desired[window.front()];
        if (target > serving + booting) {
            pending.push_back({m + warmup, target - serving - booting});
            booting = target - serving;
        } else if (target < serving + booting) {
            double excess = serving + booting - target;
            while (excess > 0 && !pending.empty()) {  // the newest launches go first
                const double cut = std::min(excess, pending.back().second);
                pending.back().second -= cut;
                booting -= cut;
                excess -= cut;
                if (pending.back().second <= 0) pending.pop_back();
            }
            serving -= excess;
        }
        while (!pending.empty() && pending.front().first <= m) {
            serving += pending.front().second;
            booting -= pending.front().second;
            pending.pop_front();
        }
        o.running[m] = serving + booting;
        o.ready[m] = serving;
    }
    return o;
}

Occupancy simulate(ServingPolicy policy, const UsageHistory& h, const ServingFleetRequest& q, const MinuteGrid& g) {
    const auto warmup = static_cast<std::size_t>(std::llround(q.warmup_minutes)), scale_in = static_cast<std::size_t>(std::llround(q.scale_in_minutes));
    if (policy == ServingPolicy::scheduled) return simulate_scheduled(h, q, g, warmup);
    if (policy == ServingPolicy::autoscaled) return simulate_autoscaled(g, warmup, scale_in);
    return {std::vector<double>(g.minutes, g.most), std::vector<double>(g.minutes, g.most)};  // static: the peak all the time
}

// What a request's figures rest on (the history and the request's settings).
struct ServingInputs {
    FigureInput demand, capacity, price, utilization, warmup, scale_in;
};

// One policy's instance-hours, cost, requests served late, peak and mean count, and its series.
ServingFleet fleet_under(ServingPolicy policy, const Occupancy& o, const MinuteGrid& g, const ServingFleetPlan& plan, const ServingInputs& in,
                         const ServingFleetRequest& q, double hours, std::size_t bucket) {
    const double cap = q.capacity_requests_per_second.value, total_requests = *plan.total_requests.value;
    double instance_minutes = 0, late = 0, peak = 0;
    for (std::size_t m = 0; m < g.minutes; ++m) {
        instance_minutes += o.running[m];
        late += std::max(0.0, g.demand[m] - o.ready[m] * cap) * 60;
        peak = std::max(peak, o.running[m]);
    }
    ServingFleet f;
    f.policy = policy;
    const std::string n(policy_name(policy));
    const std::vector<FigureInput> how = policy == ServingPolicy::static_fleet ? std::vector<FigureInput>{plan.desired_peak.as_input(), in.demand}
                                         : policy == ServingPolicy::scheduled ? std::vector<FigureInput>{in.demand, in.capacity, in.utilization, in.warmup}
                                                                              : std::vector<FigureInput>{in.demand, in.capacity, in.utilization, in.warmup, in.scale_in};
    const std::string rule = policy == ServingPolicy::static_fleet ? "the peak desired count all the time"
                             : policy == ServingPolicy::scheduled  ? "per hour of the " + std::string(hours >= 168 ? "week" : "day") + ", its largest desired count, started a warm-up ahead"
                                                                   : "launch what desired exceeds (ready after the warm-up), remove when desired stayed lower for the scale-in delay";
    f.instance_hours = make_figure(n + "_instance_hours", instance_minutes / 60, "instance-h", "sum over minutes of running instances / 60 (" + rule + ")",
                                   format_number(instance_minutes) + " / 60 = " + format_number(instance_minutes / 60), how);
    f.cost_usd = make_figure(n + "_cost_usd", instance_minutes / 60 * q.usd_per_instance_hour.value, "USD", "instance_hours x price",
                             format_number(instance_minutes / 60) + " x " + format_number(q.usd_per_instance_hour.value) + " = " + format_number(instance_minutes / 60 * q.usd_per_instance_hour.value),
                             {f.instance_hours.as_input(), in.price});
    f.late_share = make_figure(n + "_late_share", total_requests > 0 ? late / total_requests : 0, "fraction",
                               "requests above ready instances x capacity / all requests", format_number(late) + " / " + format_number(total_requests), {f.instance_hours.as_input(), in.capacity});
    f.peak_instances = make_figure(n + "_peak_instances", peak, "instances", "most instances running at once", format_number(peak), how);
    f.mean_instances = make_figure(n + "_mean_instances", instance_minutes / static_cast<double>(g.minutes), "instances", "instance_hours / hours",
                                   format_number(instance_minutes / 60) + " / " + format_number(static_cast<double>(g.minutes) / 60.0), {f.instance_hours.as_input()});
    for (std::size_t m = 0; m < g.minutes; m += bucket)
        f.instances.push_back(*std::max_element(o.running.begin() + static_cast<std::ptrdiff_t>(m), o.running.begin() + static_cast<std::ptrdiff_t>(std::min(g.minutes, m + bucket))));
    return f;
}

}  // namespace

ServingFleetPlan plan_serving_fleets(const UsageHistory& h, const ServingFleetRequest& q) {
    check_serving_request(h, q);
    const MinuteGrid g = minute_grid(h, q);
    const std::size_t minutes = g.minutes;
    const double cap = q.capacity_requests_per_second.value;
    ServingFleetPlan plan;
    const double T = h.total_hours;
    double total_requests = 0, peak_rps = 0;
    for (double d : g.demand) {
        total_requests += d * 60;
        peak_rps = std::max(peak_rps, d);
    }
    const ServingInputs in{{"demand_history_hours", T, "h", InputOrigin::user, h.origin + " (" + std::to_string(h.samples.size()) + " samples)", false},
                           input("capacity_requests_per_second", "requests/s", q.capacity_requests_per_second),
                           input("usd_per_instance_hour", "USD/h", q.usd_per_instance_hour),
                           {"target_utilization", q.target_utilization, "fraction", InputOrigin::user, "", false},
                           {"warmup_minutes", q.warmup_minutes, "min", InputOrigin::user, "", false},
                           {"scale_in_minutes", q.scale_in_minutes, "min", InputOrigin::user, "", false}};
    plan.total_requests = make_figure("total_requests", total_requests, "requests", "integral of demand over the history (one-minute grid)", format_number(total_requests), {in.demand});
    plan.peak_requests_per_second = make_figure("peak_requests_per_second", peak_rps, "requests/s", "largest demand", format_number(peak_rps), {in.demand});
    plan.desired_peak = make_figure("desired_peak", g.most, "instances", "max(min_instances, ceil(peak demand / (capacity x target utilization)))",
                                    "ceil(" + format_number(peak_rps) + " / (" + format_number(cap) + " x " + format_number(q.target_utilization) + ")) = " + format_number(g.most),
                                    {plan.peak_requests_per_second.as_input(), in.capacity, in.utilization});
    // The series grid: buckets of whole minutes, at most ~1,000, each showing its largest value.
    const std::size_t bucket = std::max<std::size_t>(1, (minutes + 999) / 1000);
    for (std::size_t m = 0; m < minutes; m += bucket) {
        plan.series_hours.push_back(static_cast<double>(m) / 60.0);
        plan.series_requests_per_second.push_back(*std::max_element(g.demand.begin() + static_cast<std::ptrdiff_t>(m), g.demand.begin() + static_cast<std::ptrdiff_t>(std::min(minutes, m + bucket))));
    }
    for (ServingPolicy policy : {ServingPolicy::static_fleet, ServingPolicy::scheduled, ServingPolicy::autoscaled})
        plan.fleets.push_back(fleet_under(policy, simulate(policy, h, q, g), g, plan, in, q, T, bucket));
    return plan;
}

nlohmann::json to_json(const EphemeralFromHistory& r) {
    return {{"figures", to_json(std::vector<Figure>{r.always_on_instances, r.always_on_usd, r.in_use_instance_hours, r.ephemeral_instance_hours,
                                                    r.idle_instance_hours, r.instance_starts, r.ephemeral_usd, r.saving_fraction})}};
}

nlohmann::json to_json(const ServingFleetPlan& plan) {
    nlohmann::json fleets = nlohmann::json::object();
    for (const ServingFleet& f : plan.fleets)
        fleets[std::string(policy_name(f.policy))] = {{"figures", to_json(std::vector<Figure>{f.instance_hours, f.cost_usd, f.late_share, f.peak_instances, f.mean_instances})},
                                                      {"instances", f.instances}};
    return {{"figures", to_json(std::vector<Figure>{plan.total_requests, plan.peak_requests_per_second, plan.desired_peak})},
            {"fleets", fleets},
            {"series", {{"hours", plan.series_hours}, {"requests_per_second", plan.series_requests_per_second}}}};
}

}  // namespace gpuplan
