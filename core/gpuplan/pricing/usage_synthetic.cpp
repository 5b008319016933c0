// usage_synthetic.cpp — see usage_synthetic.hpp.
#include "gpuplan/pricing/usage_synthetic.hpp"

#include <cmath>
#include <random>

#include "gpuplan/calendar.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/pricing/usage_formats.hpp"

namespace gpuplan {

namespace {

void require(bool ok, const char* field, double value, const char* expected) {
    if (!ok) throw InputError(field, format_number(value), expected);
}

// "2026-01-05T14:00:00Z" from Unix seconds (calendar.hpp; whole seconds).
std::string iso_time(double unix_seconds) { return utc_time_iso(static_cast<std::int64_t>(std::llround(unix_seconds))); }

}  // namespace

UsageHistory synthesize_usage(const SyntheticUsageRequest& q) {
    require(q.days > 0 && q.days <= 366, "days", q.days, "a length of 0 to 366 days");
    require(q.interval_minutes >= 1 && q.interval_minutes <= 1440, "interval_minutes", q.interval_minutes, "1 to 1440 minutes");
    require(q.base >= 0 && std::isfinite(q.base), "base", q.base, "a level >= 0");
    require(q.daily_swing >= 0 && std::isfinite(q.daily_swing), "daily_swing", q.daily_swing, "a swing >= 0");
    require(q.peak_hour >= 0 && q.peak_hour < 24, "peak_hour", q.peak_hour, "an hour 0 to below 24");
    require(q.weekend_factor >= 0 && q.weekend_factor <= 10, "weekend_factor", q.weekend_factor, "a factor 0 to 10");
    require(q.growth_per_week > -1 && q.growth_per_week <= 10, "growth_per_week", q.growth_per_week, "a weekly growth above -100%, at most 1000%");
    require(q.bursts >= 0 && q.bursts <= 1000, "bursts", q.bursts, "0 to 1000 bursts");
    require(q.burst_size >= 0 && std::isfinite(q.burst_size), "burst_size", q.burst_size, "a size >= 0");
    require(q.burst_hours > 0 && q.burst_hours <= 24 * 366, "burst_hours", q.burst_hours, "a length above 0 hours");
    const auto start = parse_unix_seconds(q.start);
    if (!start) throw InputError("start", "\"" + q.start + "\"", "an ISO 8601 UTC time such as 2026-01-05T00:00:00Z");
    const double hours = q.days * 24, step = q.interval_minutes / 60;
    std::mt19937 rng(q.seed);
    std::vector<double> burst_start;
    for (int k = 0; k < q.bursts; ++k) burst_start.push_back(static_cast<double>(rng()) / 4294967296.0 * hours);  // rng() is in [0, 2^32)
    UsageHistory h;
    h.origin = "synthetic (seed " + std::to_string(q.seed) + ")";
    h.format = "synthetic";
    h.unit = q.unit;
    h.start_unix_seconds = *start;
    const double pi = std::acos(-1.0);
    // Whole intervals only, counted rather than summed (adding 5 minutes 105,120 times drifts).
    const auto count = static_cast<std::size_t>(std::floor(hours / step + 1e-9));
    for (std::size_t k = 0; k < count; ++k) {
        const double t = static_cast<double>(k) * step;
        const double unix_t = *start + t * 3600;
        const double hour_of_day = std::fmod(unix_t / 3600, 24);
        const int weekday = static_cast<int>(std::fmod(std::floor(unix_t / 86400) + 3, 7));  // 0 = Monday (1970-01-01 was a Thursday)
        double level = q.base + q.daily_swing * (1 + std::cos(2 * pi * (hour_of_day - q.peak_hour) / 24)) / 2;
        if (weekday >= 5) level *= q.weekend_factor;
        level *= std::pow(1 + q.growth_per_week, t / 168);
        for (double b : burst_start)
            if (t >= b && t < b + q.burst_hours) level += q.burst_size;
        level = q.unit == UsageUnit::requests_per_second ? std::round(level * 100) / 100 : std::round(level);
        h.samples.push_back({t, level, h.samples.size() + 3});  // its CSV line (after the comment and the header)
    }
    h.total_hours = static_cast<double>(h.samples.size()) * step;
    h.notes.push_back("synthetic: base " + format_number(q.base) + ", daily swing " + format_number(q.daily_swing) + " peaking at " + format_number(q.peak_hour) +
                      ":00 UTC, weekends x " + format_number(q.weekend_factor) + ", growth " + format_number(q.growth_per_week * 100) + "%/week, " +
                      std::to_string(q.bursts) + " burst(s) of " + format_number(q.burst_size) + " for " + format_number(q.burst_hours) + " h");
    return h;
}

std::string to_csv(const UsageHistory& h) {
    std::string out = "# " + h.origin + (h.notes.empty() ? "" : ": " + h.notes.front()) + "\ntimestamp,";
    out += h.unit == UsageUnit::gpus ? "gpus" : h.unit == UsageUnit::instances ? "instances" : "requests_per_second";
    out += "\n";
    for (const UsageSample& s : h.samples) out += iso_time(h.start_unix_seconds + s.hours * 3600) + "," + format_number(s.in_use) + "\n";
    return out;
}

}  // namespace gpuplan
