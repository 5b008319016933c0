// fleet.hpp — a GPU fleet served by a mix of purchase options, and its blended rate.
//
// Each tier is a number of GPUs bought one way, at a $/GPU-hour, in use a fraction of the
// hours. Committed tiers (reserved, Savings Plans) are billed for every hour whether used or
// not; on-demand and spot are billed only for the hours used.
//   tier cost        = gpus x price x hours x (committed ? 1 : utilization)
//   used GPU-hours   = sum over tiers of gpus x utilization x hours
//   blended rate     = total cost / used GPU-hours
//   saving           = 1 - total cost / (used GPU-hours x on-demand price), and in dollars
//   break-even util. = committed price / on-demand price (per committed tier)
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpuplan/explain.hpp"
#include "gpuplan/pricing/purchase_option.hpp"

namespace gpuplan {

struct FleetTier {
    PurchaseOption option;    // reserved-3y, spot, on-demand, ... (its key names the tier's figures)
    double gpus = 0;
    Param usd_per_gpu_hour;
    double utilization = 1;   // fraction of the hours these GPUs are in use
    bool committed = false;   // billed for every hour regardless of use
};

// The most tiers one fleet may have: a tier per purchase option (21 for a p5) a few times over.
// A scenario with 100,000 tiers took 14-18 s and 1.3 GB before any answer (issue 34, P1).
inline constexpr std::size_t kMaxFleetTiers = 100;
std::string max_fleet_tiers_text();  // what the refusal expects, in words

struct FleetRequest {
    double hours = kHoursPerMonth;       // hours in the period (a month by default)
    Param on_demand_usd_per_gpu_hour;
    std::vector<FleetTier> tiers;
};

struct FleetResult {
    std::vector<Figure> tier_cost_usd;              // one per tier, in order
    std::vector<std::optional<Figure>> tier_break_even_utilization;
    Figure total_cost_usd;
    Figure used_gpu_hours;
    Figure blended_usd_per_gpu_hour;
    Figure all_on_demand_cost_usd;
    Figure saving_vs_on_demand;
    Figure saving_usd;  // all_on_demand_cost_usd - total_cost_usd
};

// A usage profile: `baseline` GPUs busy every hour, up to `peak` at times, `average` over
// the period. The baseline is bought as a commitment; the rest (peak - baseline GPUs) is
// bought as it is used, on-demand or spot, busy (average - baseline) / (peak - baseline) of
// the hours on average.
struct UsageProfile {
    double baseline_gpus = 0, average_gpus = 0, peak_gpus = 0;
    PurchaseOption commit_option{PurchaseKind::reserved, Term::one_year, std::nullopt};
    Param commit_usd_per_gpu_hour;
    PurchaseOption burst_option{PurchaseKind::on_demand, std::nullopt, std::nullopt};
    Param burst_usd_per_gpu_hour;
};

// One GPU-hour of an instance bought at `usd_per_instance_hour`: that price over the instance's
// `accelerator_count` GPUs, keeping the price's origin. The one place the scenario's fleet, the
// `fleet` command and its tier prices turn an instance price into a $/GPU-h (the catalog's
// table figure is catalog_metrics.cpp's usd_per_accelerator_hour, the same division).
Param usd_per_gpu_hour(const Param& usd_per_instance_hour, double accelerator_count, const std::string& instance_name);

// Throws InputError unless 0 <= baseline <= average <= peak and peak > 0.
std::vector<FleetTier> tiers_from_profile(const UsageProfile& profile);

// Throws InputError (naming the tier) for no tiers, negative GPUs or a zero-use fleet.
FleetResult evaluate_fleet(const FleetRequest& request);


}  // namespace gpuplan
