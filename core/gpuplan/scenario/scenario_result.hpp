// scenario_result.hpp — what a scenario evaluates to: one typed result per present section,
// each the domain module's own result type, and the one serialiser that writes them as the
// gpuplan.result/1 document (docs/scenario.md) for `gpuplan eval`, the JS API and the app.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/pricing/quota.hpp"
#include "gpuplan/pricing/unit_cost.hpp"
#include "gpuplan/scenario/scenario.hpp"

namespace gpuplan {

struct PriceSectionResult {
    std::string instance;
    double hours = 0, instances = 0;
    std::vector<Quote> quotes;  // every purchase option, unit costs included (purchase_options.hpp)
    QuotaLine quota_on_demand, quota_spot;  // the vCPUs the instances need of each quota class (every commitment runs on demand)
    // The instance is not sold in the scenario's region: no options, and why (issue 30: a region
    // change keeps the section, says so and prices the other sections, instead of refusing the
    // whole scenario). `gpuplan price --region` still refuses it, as asked for by name.
    std::string not_offered;
};

struct FleetSectionResult {
    FleetRequest request;  // the tiers the result's per-tier figures follow, in order
    FleetResult result;
};

struct TopologySectionResult {
    MachineTopology machine;
    TopologySummary summary;
    std::optional<TopologyComparison> comparison;  // with the section's instance, else the train's or price's
};

struct ScenarioResult {
    std::string name, region;
    std::optional<PriceSectionResult> price;
    std::optional<FleetSectionResult> fleet;
    std::optional<IdleResult> idle;
    std::optional<UsageSectionResult> usage;
    std::optional<ServingSectionResult> serving;
    std::optional<StorageResult> storage;
    std::vector<TokenCost> token_costs;  // one per token_costs row, in order
    std::optional<VideoPipelineComparison> video;
    std::optional<Recommendation> recommend;
    std::optional<TrainingPlan> train;
    std::optional<TrainingRecommendation> recommend_training;
    std::optional<DecodeReport> decode;
    std::optional<FitSectionResult> fit;
    std::optional<InferenceEstimate> infer;
    std::optional<CollectiveEstimate> collective;
    std::optional<TopologySectionResult> topology;
    std::vector<std::string> notes;  // the scenario's own (Scenario::notes), passed through
};

// Evaluates every present section of a parsed scenario (parse_scenario checked it).
ScenarioResult evaluate(const Scenario& scenario, const Catalog& catalog);

// The gpuplan.result/1 document: figures as the result carries them, nothing recomputed.
nlohmann::json to_json(const ScenarioResult& result);
// to_json(evaluate(scenario, catalog)): for the shells that want the document only. A number
// that is not finite anywhere in it (a figure's, or a candidate's price or speed) is refused
// as an InputError naming its place in the result, never written as null.
nlohmann::json evaluate_scenario(const Scenario& scenario, const Catalog& catalog);
// The document of an evaluated result with the same check (for shells that keep the typed
// result too: the app's views draw from it, its JSON editor shows the document).
nlohmann::json to_checked_json(const ScenarioResult& result);

// Serialisers of section results, shared by the commands that print one section.
nlohmann::json to_json(const FleetResult& result, const FleetRequest& request);
nlohmann::json to_json(const IdleResult& result);
nlohmann::json to_json(const StorageResult& result);
nlohmann::json to_json(const TrainingRecommendation& result);
// The frontier and picks with explanations; dropped options grouped by reason.
nlohmann::json to_json(const Recommendation& result);

}  // namespace gpuplan
