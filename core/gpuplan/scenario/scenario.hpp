// scenario.hpp — the one JSON document that captures a what-if (schema gpuplan.scenario/1).
//
// The same document drives `gpuplan eval`, the browser app and its URL, so a link from the
// browser reproduces exactly in the terminal. Every section is optional; each present section
// is evaluated and its results come back with their explanations. Format: docs/scenario.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/decode/decode_plan.hpp"
#include "gpuplan/pricing/fleet.hpp"
#include "gpuplan/pricing/idle_cost.hpp"
#include "gpuplan/pricing/purchase_options.hpp"
#include "gpuplan/pricing/storage_transfer.hpp"
#include "gpuplan/scenario/usage_sections.hpp"
#include "gpuplan/scenario/workload_sections.hpp"
#include "gpuplan/recommend/recommend.hpp"
#include "gpuplan/workload/training_plan.hpp"

namespace gpuplan {

struct TokenCostRequest { Param usd_per_hour; Param tokens_per_second; };
struct VideoCostRequest { Param usd_per_hour; Param decode_seconds_a, decode_seconds_b, rtf_a; };

struct Scenario {
    std::string name;
    std::string region = "us-east-1";
    std::optional<QuoteRequest> price;
    std::optional<FleetRequest> fleet;
    std::optional<IdleRequest> idle;
    std::optional<UsageSection> usage;                  // the cheapest commitment on a usage history (usage_sections.hpp)
    std::optional<ServingSection> serving;              // serving fleets over a demand curve
    std::optional<StorageRequest> storage;
    std::vector<TokenCostRequest> token_costs;
    std::optional<VideoCostRequest> video;
    std::optional<InferenceRecommendRequest> recommend;
    std::optional<TrainingPlanRequest> train;            // as `gpuplan train` (workload/training_plan.hpp)
    std::optional<TrainingRecommendRequest> recommend_training;
    std::optional<DecodeRequest> decode;  // docs/decode-pipeline.md
    std::optional<FitSection> fit;                      // as `gpuplan fit` (workload_sections.hpp)
    std::optional<InferenceEstimateRequest> infer;      // as `gpuplan infer`
    std::optional<CollectiveRequest> collective;        // as `gpuplan collective`
    std::optional<TopologySection> topology;            // the machine's own links; train and collective plan with them
    // What an old spelling in the document became ("$.train.purchase: \"on_demand\" is now
    // written \"on-demand\""; scenario_spellings.hpp), for the shells to show.
    std::vector<std::string> notes;
};

// Parses and validates a scenario against the catalog (instances and regions must exist).
// Throws InputError naming `origin`, the JSON path, the value and what was expected.
Scenario parse_scenario(std::string_view text, const std::string& origin, const Catalog& catalog);

// The example scenarios compiled into the program (assets/scenarios/*.json), by file name.
const std::vector<CatalogDocument>& builtin_scenario_documents();

}  // namespace gpuplan
