// spot_advisor.cpp — interruption buckets and the Spot Advisor data file (spot_advisor.hpp).
#include "gpuplan/pricing/spot_advisor.hpp"

#include <cmath>

#include "gpuplan/input_error.hpp"
#include "gpuplan/pricing/purchase_option.hpp"
#include "gpuplan/json_reader.hpp"

namespace gpuplan {

std::string_view label(InterruptionBucket bucket) {
    switch (bucket) {
    case InterruptionBucket::under_5: return "<5%";
    case InterruptionBucket::from_5_to_10: return "5-10%";
    case InterruptionBucket::from_10_to_15: return "10-15%";
    case InterruptionBucket::from_15_to_20: return "15-20%";
    case InterruptionBucket::over_20: return ">20%";
    }
    return "?";
}

std::optional<InterruptionBucket> interruption_bucket_named(std::string_view text) {
    for (InterruptionBucket b : kInterruptionBuckets) {
        const std::string_view l = label(b);
        if (text == l || text == l.substr(0, l.size() - 1)) return b;
    }
    return std::nullopt;
}

std::string interruption_bucket_labels() { return "<5%, 5-10%, 10-15%, 15-20% or >20% (the Spot Instance Advisor's buckets)"; }

Param bucket_monthly_rate(InterruptionBucket bucket) {
    switch (bucket) {
    case InterruptionBucket::under_5: return {0.025, InputOrigin::assumption, "midpoint of the Spot Advisor bucket <5% per month"};
    case InterruptionBucket::from_5_to_10: return {0.075, InputOrigin::assumption, "midpoint of the Spot Advisor bucket 5-10% per month"};
    case InterruptionBucket::from_10_to_15: return {0.125, InputOrigin::assumption, "midpoint of the Spot Advisor bucket 10-15% per month"};
    case InterruptionBucket::from_15_to_20: return {0.175, InputOrigin::assumption, "midpoint of the Spot Advisor bucket 15-20% per month"};
    case InterruptionBucket::over_20:
        return {0.25, InputOrigin::assumption, "the Spot Advisor bucket >20% per month has no upper bound: 25% assumed"};
    }
    return {};
}

Figure mean_hours_between_interruptions(InterruptionBucket bucket, const std::string& source) {
    const Param f = bucket_monthly_rate(bucket);
    const double m = kHoursPerMonth / -std::log(1.0 - f.value);
    Figure fig;
    fig.name = "mean_hours_between_interruptions";
    fig.unit = "h";
    fig.value = m;
    fig.formula = format_number(kHoursPerMonth) + " / -ln(1 - monthly_interruption_rate): interruptions as a Poisson process (assumed) at the bucket's rate";
    fig.worked = format_number(kHoursPerMonth) + " / -ln(1 - " + format_number(f.value) + ") = " + format_number(m);
    fig.inputs = {input("monthly_interruption_rate", "fraction per month", {f.value, f.origin, f.source + "; bucket " + std::string(label(bucket)) + " from " + source}),
                  input("hours_per_month", "h", {kHoursPerMonth, InputOrigin::derived, "8760 h / 12"})};
    return fig;
}

Param interruption_param(InterruptionBucket bucket, const std::string& from) {
    const Figure m = mean_hours_between_interruptions(bucket, from);
    return {*m.value, InputOrigin::user,
            "interruptions " + std::string(label(bucket)) + " a month, from " + from + ": " + m.worked + " h (bucket midpoint, Poisson; docs/pricing.md)"};
}

const SpotAdvisorEntry* SpotAdvisorData::find(std::string_view region, std::string_view instance) const {
    const auto it = linux_entries.find(std::pair<std::string, std::string>(region, instance));
    return it == linux_entries.end() ? nullptr : &it->second;
}

SpotAdvisorData parse_spot_advisor(const std::string& text, const std::string& origin) {
    const Json j = parse_json_document(text, origin);
    const std::string root = origin + ": $";
    if (!j.is_object() || !j.contains("ranges") || !j.contains("spot_advisor"))
        throw InputError(root, json_preview(j), "the Spot Instance Advisor's data file (spot-advisor-data.json: \"ranges\" and \"spot_advisor\")");
    // "ranges": [{index, label, ...}]; "r" indexes it. Map each index to a bucket by its label.
    const Json& ranges = j["ranges"];
    if (!ranges.is_array()) throw InputError(root + ".ranges", json_preview(ranges), "an array of interruption ranges");
    std::map<std::int64_t, InterruptionBucket> by_index;
    for (std::size_t k = 0; k < ranges.size(); ++k) {
        ObjectReader r(ranges[k], index_path(root + ".ranges", k));
        const std::string l = r.string("label");
        const auto bucket = interruption_bucket_named(l);
        if (!bucket) throw InputError(r.child_path("label"), "\"" + l + "\"", interruption_bucket_labels());
        by_index[r.integer("index", 0)] = *bucket;
    }
    SpotAdvisorData data;
    data.origin = origin;
    const Json& regions = j["spot_advisor"];
    if (!regions.is_object()) throw InputError(root + ".spot_advisor", json_preview(regions), "an object keyed by region");
    for (const auto& [region, by_os] : regions.items()) {
        const std::string os_path = root + ".spot_advisor." + region;
        if (!by_os.is_object()) throw InputError(os_path, json_preview(by_os), "an object keyed by operating system");
        const auto linux_types = by_os.find("Linux");
        if (linux_types == by_os.end()) continue;
        if (!linux_types->is_object()) throw InputError(os_path + ".Linux", json_preview(*linux_types), "an object keyed by instance type");
        for (const auto& [type, entry] : linux_types->items()) {
            ObjectReader e(entry, os_path + ".Linux." + type);
            const std::int64_t r = e.integer("r", 0);
            const auto bucket = by_index.find(r);
            if (bucket == by_index.end())
                throw InputError(e.child_path("r"), std::to_string(r), "the index of one of the file's \"ranges\" (0 to " + std::to_string(ranges.size() - 1) + ")");
            data.linux_entries[{region, type}] = {bucket->second, e.number("s", NumberRule::finite)};
        }
    }
    return data;
}

}  // namespace gpuplan
