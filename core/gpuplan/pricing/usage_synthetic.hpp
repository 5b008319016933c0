// usage_synthetic.hpp — a made-up usage history for what-ifs, when no real one is at hand.
//
//   level(t) = (base + daily_swing x (1 + cos(2 pi (hour_of_day - peak_hour) / 24)) / 2)
//              x (weekend_factor on Saturdays and Sundays, else 1)
//              x (1 + growth_per_week) ^ (t / 168 h)
//              + burst_size while one of the bursts lasts
// rounded to whole GPUs or instances (requests/s keep two decimals). The bursts start at times
// drawn from a seeded generator (std::mt19937, whose sequence the C++ standard fixes), so the
// same request gives the same history on every machine, native or wasm.
#pragma once

#include <cstdint>

#include "gpuplan/pricing/usage_history.hpp"

namespace gpuplan {

struct SyntheticUsageRequest {
    UsageUnit unit = UsageUnit::gpus;
    double days = 28;
    double interval_minutes = 60;
    std::string start = "2026-01-05T00:00:00Z";  // a Monday
    double base = 8;
    double daily_swing = 8;
    double peak_hour = 14;        // UTC
    double weekend_factor = 0.5;
    double growth_per_week = 0;
    int bursts = 0;
    double burst_size = 8;
    double burst_hours = 4;
    std::uint32_t seed = 1;
};

// Throws InputError naming the field for a value out of range (days <= 0, an interval under a
// minute, more than a year of one-minute samples, negative levels).
UsageHistory synthesize_usage(const SyntheticUsageRequest& request);

// The history as the CSV parse_usage reads back (timestamp,gpus|instances|requests_per_second).
std::string to_csv(const UsageHistory& history);

}  // namespace gpuplan
