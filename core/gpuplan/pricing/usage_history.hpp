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
#include "gpuplan/pricing/spot_checkpoint.hpp"

namespace gpuplan {

// What a history counts. One vocabulary: the readers set it, the plans check it.
enum class UsageUnit { gpus, instances, requests_per_second };
std::string_view unit_name(UsageUnit unit);  // "GPUs", "instances", "requests/s"

struct UsageSample {
    double hours = 0;   // since the first sample
    double in_use = 0;  // GPUs, instances or requests/s from this sample to the next
    std::size_t line = 0;  // where it came from: a line, or an index into the file's array
};

struct UsageHistory {
    std::string origin;      // the file name
    std::string format;      // which reader made it (usage_formats.hpp), in words
    UsageUnit unit = UsageUnit::gpus;
    double start_unix_seconds = 0;  // the first sample's time (for hour-of-day schedules)
    std::vector<UsageSample> samples;
    double total_hours = 0;  // first sample to the end of the last one's interval
    std::vector<std::string> notes;  // corrections made, each named with its line
};

// The readers (CSV, CloudWatch, Cost Explorer, Slurm) are in usage_formats.hpp.

struct CommitmentPlanRequest {
    PurchaseOption commit_option{PurchaseKind::reserved, Term::one_year, std::nullopt};
    Param commit_usd_per_gpu_hour;   // billed every hour of the period
    PurchaseOption burst_option{PurchaseKind::on_demand, std::nullopt, std::nullopt};
    Param burst_usd_per_gpu_hour;    // billed for the hours used
    Param on_demand_usd_per_gpu_hour;
    double rule_fraction = 0.7;      // the rule of thumb: commit this share of the minimum count
    // Spot for part of the load above the commitment: each spot GPU-hour costs
    // spot x (1 + rework), the rework being the checkpoint model's overhead (spot_checkpoint.hpp),
    // and spot takes at most max_share_of_load of all GPU-hours (the risk the team accepts).
    struct Spot {
        Param usd_per_gpu_hour;
        Param rework_fraction;
        double max_share_of_load = 0.5;
    };
    std::optional<Spot> spot;
};

// The rework a spot share costs when the user gives none: the checkpoint model's overhead at the
// default interruption rate (spot_checkpoint.hpp), marked as an assumption with its source.
Param default_spot_rework();

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
    Figure spot_gpu_hours_at_optimal;      // with a spot share: GPU-hours on spot at the optimal level
    std::vector<double> curve_level, curve_cost_usd;          // cost(L) for L = 0 .. ceil(peak)
    std::vector<double> duration_level, duration_hours;       // hours with load >= level (the load-duration curve)
};

// The history must count GPUs (counted_in_gpus converts instances). Throws InputError when a
// price is not positive, a share is outside 0..1 or the history is empty.
CommitmentPlan plan_commitment(const UsageHistory& history, const CommitmentPlanRequest& request);

// {"figures": {...}, "curve": [{"level", "cost_usd", "hours_at_or_above"}], "notes": [...]}
nlohmann::json to_json(const CommitmentPlan& plan, const UsageHistory& history);

}  // namespace gpuplan
