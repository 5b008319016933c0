// usage_sections.cpp — see usage_sections.hpp.
#include "gpuplan/scenario/usage_sections.hpp"

#include <algorithm>

#include "gpuplan/input_error.hpp"
#include "gpuplan/pricing/usage_formats.hpp"

namespace gpuplan {

namespace {

Param user_price(ObjectReader& r, const char* key) { return {r.number(key, NumberRule::positive), InputOrigin::user, ""}; }

// {"synthetic": {...}} or {"of": "gpus", "samples": [["2026-01-05T00:00:00Z", 4], ...]}
UsageSource parse_source(ObjectReader& r, UsageUnit default_unit) {
    UsageSource s;
    const bool synthetic = r.has("synthetic"), samples = r.has("samples");
    if (synthetic == samples)
        throw InputError(r.path(), synthetic ? "both \"synthetic\" and \"samples\"" : "neither", "exactly one of \"synthetic\" (a generated history) or \"samples\"");
    UsageUnit unit = default_unit;
    if (auto of = r.optional_string("of")) {
        if (*of == "gpus") unit = UsageUnit::gpus;
        else if (*of == "instances") unit = UsageUnit::instances;
        else if (*of == "requests_per_second") unit = UsageUnit::requests_per_second;
        else throw InputError(r.child_path("of"), "\"" + *of + "\"", "gpus, instances or requests_per_second");
    }
    if (synthetic) {
        ObjectReader g = r.object("synthetic");
        SyntheticUsageRequest q;
        q.unit = unit;
        const auto number = [&](const char* key, double& slot, NumberRule rule) { slot = g.optional_number(key, rule).value_or(slot); };
        number("days", q.days, NumberRule::positive);
        number("interval_minutes", q.interval_minutes, NumberRule::positive);
        number("base", q.base, NumberRule::non_negative);
        number("daily_swing", q.daily_swing, NumberRule::non_negative);
        number("peak_hour", q.peak_hour, NumberRule::non_negative);
        number("weekend_factor", q.weekend_factor, NumberRule::non_negative);
        number("growth_per_week", q.growth_per_week, NumberRule::finite);
        number("burst_size", q.burst_size, NumberRule::non_negative);
        number("burst_hours", q.burst_hours, NumberRule::positive);
        if (g.has("bursts")) q.bursts = static_cast<int>(g.integer("bursts", 0));
        if (g.has("seed")) q.seed = static_cast<std::uint32_t>(g.integer("seed", 0));
        q.start = g.optional_string("start").value_or(q.start);
        g.finish();
        try {
            (void)synthesize_usage(q);  // its range checks, under this section's path
        } catch (const InputError& e) {
            throw InputError(g.child_path(e.where()), e.value(), e.expected());
        }
        s.synthetic = q;
        return s;
    }
    const Json& rows = r.array("samples");
    std::vector<UsagePoint> points;
    const std::string path = r.child_path("samples");
    for (std::size_t k = 0; k < rows.size(); ++k) {
        const std::string at = index_path(path, k);
        const Json& row = rows[k];
        if (!row.is_array() || row.size() != 2 || !row[0].is_string() || !row[1].is_number())
            throw InputError(at, json_preview(row), "[\"2026-01-05T14:00:00Z\", count]");
        const auto t = parse_unix_seconds(row[0].get<std::string>());
        if (!t) throw InputError(at, json_preview(row[0]), "an ISO 8601 UTC time such as 2026-01-05T14:00:00Z");
        const double v = row[1].get<double>();
        if (!(v >= 0)) throw InputError(at, json_preview(row[1]), "a count >= 0");
        points.push_back({*t, v, k});
    }
    UsagePointsMeta meta;
    meta.origin = path;
    meta.format = "scenario samples";
    meta.unit = unit;
    meta.where = [path](std::size_t k) { return index_path(path, k); };
    s.inline_history = history_from_points(points, std::move(meta));
    return s;
}

UsageHistory history_of(const UsageSource& s) { return s.synthetic ? synthesize_usage(*s.synthetic) : s.inline_history; }

// At most ~1,000 points of (hours, count), each the largest count in its stretch.
void chart_series(const UsageHistory& h, std::vector<double>& hours, std::vector<double>& values) {
    const std::size_t n = h.samples.size(), per = std::max<std::size_t>(1, (n + 999) / 1000);
    for (std::size_t k = 0; k < n; k += per) {
        double v = 0;
        for (std::size_t i = k; i < std::min(n, k + per); ++i) v = std::max(v, h.samples[i].in_use);
        hours.push_back(h.samples[k].hours);
        values.push_back(v);
    }
}

// The section's "option": a commitment (commit) or an option bought as used (burst).
PurchaseOption option_of(ObjectReader& section, bool commitment) {
    const std::string name = section.string("option");
    const auto option = purchase_option_named(name);
    if (!option || is_commitment(option->kind) != commitment)
        throw InputError(section.child_path("option"), "\"" + name + "\"",
                         commitment ? "a commitment: " + purchase_option_keys() : "an option bought as used: on-demand, spot or capacity-block");
    return *option;
}

}  // namespace

std::optional<UsageSection> parse_usage_section(ObjectReader& root) {
    const Json* j = root.optional_value("usage");
    if (!j) return std::nullopt;
    ObjectReader r(*j, root.child_path("usage"));
    UsageSection s;
    ObjectReader h = r.object("history");
    s.history = parse_source(h, UsageUnit::gpus);
    h.finish();
    s.gpus_per_instance = r.optional_number("gpus_per_instance", NumberRule::positive).value_or(0);
    const UsageUnit unit = s.history.synthetic ? s.history.synthetic->unit : s.history.inline_history.unit;
    if (unit == UsageUnit::requests_per_second)
        throw InputError(h.child_path("of"), "\"requests_per_second\"", "gpus or instances (a demand curve goes in the serving section)");
    if (unit == UsageUnit::instances && s.gpus_per_instance <= 0)
        throw InputError(r.child_path("gpus_per_instance"), "nothing", "the GPUs in each instance, for a history of instances");
    s.request.on_demand_usd_per_gpu_hour = user_price(r, "on_demand_usd_per_gpu_hour");
    ObjectReader c = r.object("commit");
    s.request.commit_option = option_of(c, true);
    s.request.commit_usd_per_gpu_hour = user_price(c, "usd_per_gpu_hour");
    c.finish();
    s.request.burst_usd_per_gpu_hour = s.request.on_demand_usd_per_gpu_hour;
    if (r.has("burst")) {
        ObjectReader b = r.object("burst");
        s.request.burst_option = option_of(b, false);
        s.request.burst_usd_per_gpu_hour = user_price(b, "usd_per_gpu_hour");
        b.finish();
    }
    if (r.has("spot")) {
        ObjectReader p = r.object("spot");
        CommitmentPlanRequest::Spot spot;
        spot.usd_per_gpu_hour = user_price(p, "usd_per_gpu_hour");
        if (auto rework = p.optional_number("rework_fraction", NumberRule::discount)) spot.rework_fraction = {*rework, InputOrigin::user, ""};
        else spot.rework_fraction = default_spot_rework();
        spot.max_share_of_load = p.optional_number("max_share_of_load", NumberRule::fraction).value_or(spot.max_share_of_load);
        p.finish();
        s.request.spot = spot;
    }
    r.finish();
    return s;
}

std::optional<ServingSection> parse_serving_section(ObjectReader& root) {
    const Json* j = root.optional_value("serving");
    if (!j) return std::nullopt;
    ObjectReader r(*j, root.child_path("serving"));
    ServingSection s;
    ObjectReader d = r.object("demand");
    s.demand = parse_source(d, UsageUnit::requests_per_second);
    d.finish();
    const UsageUnit unit = s.demand.synthetic ? s.demand.synthetic->unit : s.demand.inline_history.unit;
    if (unit != UsageUnit::requests_per_second) throw InputError(d.child_path("of"), std::string(unit_name(unit)), "requests_per_second (a demand curve)");
    ServingFleetRequest& q = s.request;
    q.capacity_requests_per_second = user_price(r, "capacity_requests_per_second");
    q.usd_per_instance_hour = user_price(r, "usd_per_instance_hour");
    q.target_utilization = r.optional_number("target_utilization", NumberRule::fraction).value_or(q.target_utilization);
    if (!(q.target_utilization > 0)) throw InputError(r.child_path("target_utilization"), "0", "a share of capacity above 0, at most 1");
    q.warmup_minutes = r.optional_number("warmup_minutes", NumberRule::non_negative).value_or(q.warmup_minutes);
    q.scale_in_minutes = r.optional_number("scale_in_minutes", NumberRule::non_negative).value_or(q.scale_in_minutes);
    if (r.has("min_instances")) q.min_instances = static_cast<double>(r.integer("min_instances", 0));
    r.finish();
    return s;
}

UsageSectionResult evaluate_usage_section(const UsageSection& section) {
    UsageSectionResult r;
    r.history = history_of(section.history);
    if (r.history.unit == UsageUnit::instances) r.history = counted_in_gpus(r.history, section.gpus_per_instance);
    r.plan = plan_commitment(r.history, section.request);
    chart_series(r.history, r.series_hours, r.series_in_use);
    return r;
}

ServingSectionResult evaluate_serving_section(const ServingSection& section) {
    ServingSectionResult r;
    r.demand = history_of(section.demand);
    r.plan = plan_serving_fleets(r.demand, section.request);
    return r;
}

nlohmann::json to_json(const UsageSectionResult& result) {
    nlohmann::json out = to_json(result.plan, result.history);
    out["history"] = {{"hours", result.series_hours}, {"in_use", result.series_in_use}, {"total_hours", result.history.total_hours}};
    return out;
}

nlohmann::json to_json(const ServingSectionResult& result) {
    nlohmann::json out = to_json(result.plan);
    out["notes"] = result.demand.notes;
    return out;
}

}  // namespace gpuplan
