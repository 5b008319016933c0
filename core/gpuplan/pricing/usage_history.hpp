// usage_history.hpp — a fleet's real usage over time, and the commitment that costs least on it.
//
// A history is (timestamp, GPUs in use) samples; each count holds until the next sample (the
// last one for the median interval). Its load-duration curve says, for each level L, for how
// many hours at least L GPUs were in use. A commitment of level L is billed every hour; the load
// above it is bought as used (on-demand, or spot):
//   cost(L) = commit_price x L x T + burst_price x integral of max(load - L, 0) dt
// Raising L by one GPU adds commit_price x T and saves burst_price x (hours the load exceeds L),
// so the cheapest whole level is where the share of hours above it falls below the break-even
// utilisation commit_price / burst_price. Every whole level from 0 to the peak is costed (the
// curve the chart draws) and the cheapest is taken. Compared with all on-demand and with the
// rule of thumb "reserve 70% of the minimum concurrent count" (docs/pricing.md, "Usage history").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/explain.hpp"
#include "gpuplan/pricing/purchase_option.hpp"

namespace gpuplan {

struct UsageSample {
    double hours = 0;   // since the first sample
    double in_use = 0;  // GPUs (or instances) in use from this sample to the next
    std::size_t line = 0;
};

struct UsageHistory {
    std::string origin;
    std::string unit;        // "GPUs" or "instances", from the value column's header
    std::vector<UsageSample> samples;
    double total_hours = 0;  // first sample to the end of the last one's interval
    std::vector<std::string> notes;  // corrections made, each named with its line
};

// CSV with a header: `timestamp,gpus` or `timestamp,instances` (a CloudWatch or scheduler export
// reduced to those two columns). Timestamps: ISO 8601 UTC ("2026-01-05T14:00:00Z", "2026-01-05
// 14:00") or Unix seconds; any interval, regular or not. Throws InputError naming the line for
// an unsorted or duplicate timestamp, a negative or non-numeric count, an unknown header, fewer
// than two samples. A gap over 3 x the median interval is kept (the count holds) and named in
// `notes`.
UsageHistory parse_usage_csv(std::string_view text, const std::string& origin);

struct CommitmentPlanRequest {
    PurchaseOption commit_option{PurchaseKind::reserved, Term::one_year, std::nullopt};
    Param commit_usd_per_gpu_hour;   // billed every hour of the period
    PurchaseOption burst_option{PurchaseKind::on_demand, std::nullopt, std::nullopt};
    Param burst_usd_per_gpu_hour;    // billed for the hours used
    Param on_demand_usd_per_gpu_hour;
    double rule_fraction = 0.7;      // the rule of thumb: commit this share of the minimum count
};

struct CommitmentPlan {
    Figure peak, minimum, mean;            // GPUs in use
    Figure total_hours;
    Figure break_even_utilization;         // commit price / burst price
    Figure optimal_level;                  // GPUs to commit
    Figure share_above_optimal;            // share of hours the load exceeds the optimal level
    Figure cost_at_optimal_usd;
    Figure all_on_demand_usd;
    Figure saving_vs_on_demand;            // fraction
    Figure rule_level, cost_at_rule_usd, saving_vs_rule_usd;
    std::vector<double> curve_level, curve_cost_usd;          // cost(L) for L = 0 .. ceil(peak)
    std::vector<double> duration_level, duration_hours;       // hours with load >= level (the load-duration curve)
};

// Throws InputError when a price is not positive or the history is empty.
CommitmentPlan plan_commitment(const UsageHistory& history, const CommitmentPlanRequest& request);

// {"figures": {...}, "curve": [{"level", "cost_usd", "hours_at_or_above"}], "notes": [...]}
nlohmann::json to_json(const CommitmentPlan& plan, const UsageHistory& history);

}  // namespace gpuplan
