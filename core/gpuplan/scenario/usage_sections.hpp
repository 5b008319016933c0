// usage_sections.hpp — the scenario's `usage` and `serving` sections (docs/scenario.md):
// the cheapest commitment on a usage history, and serving fleets over a demand curve
// (pricing/usage_history.hpp, pricing/fleet_over_time.hpp). A history is given inline
// ("samples") or made by the synthetic generator ("synthetic", pricing/usage_synthetic.hpp),
// which keeps a what-if small enough for a link.
#pragma once

#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/json_reader.hpp"
#include "gpuplan/pricing/fleet_over_time.hpp"
#include "gpuplan/pricing/usage_history.hpp"
#include "gpuplan/pricing/usage_synthetic.hpp"

namespace gpuplan {

struct UsageSource {
    std::optional<SyntheticUsageRequest> synthetic;
    UsageHistory inline_history;  // when samples are given
};

struct UsageSection {
    UsageSource history;
    double gpus_per_instance = 0;  // for a history of instances
    CommitmentPlanRequest request;
};

struct ServingSection {
    UsageSource demand;
    ServingFleetRequest request;
};

struct UsageSectionResult {
    UsageHistory history;  // in GPUs
    CommitmentPlan plan;
    // The history for charts: at most ~1,000 points, each the largest count in its stretch.
    std::vector<double> series_hours, series_in_use;
};

struct ServingSectionResult {
    UsageHistory demand;
    ServingFleetPlan plan;
};

std::optional<UsageSection> parse_usage_section(ObjectReader& root);
std::optional<ServingSection> parse_serving_section(ObjectReader& root);

UsageSectionResult evaluate_usage_section(const UsageSection& section);
ServingSectionResult evaluate_serving_section(const ServingSection& section);

// The commitment plan with the history itself (at most ~1,000 points, each the largest count
// in its stretch) for the views' charts.
nlohmann::json to_json(const UsageSectionResult& result);
nlohmann::json to_json(const ServingSectionResult& result);

}  // namespace gpuplan
