// workloads.hpp — the operations the core benchmarks time, shared by the native (Google
// Benchmark) and wasm (timing loop) harnesses so both measure exactly the same work.
#pragma once

#include <cstddef>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/pricing/purchase_options.hpp"
#include "gpuplan/recommend/recommend.hpp"
#include "gpuplan/scenario/usage_sections.hpp"
#include "gpuplan/validation/validation.hpp"
#include "gpuplan/workload/serving_traffic.hpp"

namespace gpuplan::perf {

// Parse + validate the built-in catalog (84 records). Returns instances loaded.
inline std::size_t load_and_validate_catalog() { return load_builtin_catalog().instances.size(); }

// Every purchase option for every instance with an on-demand price in us-east-1.
// Returns the number of price evaluations (quotes) made.
inline std::size_t quote_every_instance(const Catalog& catalog) {
    std::size_t quotes = 0;
    QuoteRequest request;
    for (const auto& instance : catalog.instances) {
        const Price* od = instance.find_price("us-east-1", PriceKind::on_demand);
        if (!od || !od->usd_per_hour) continue;
        request.instance = instance.name;
        quotes += quote_purchase_options(catalog, request).size();
    }
    return quotes;
}

// The serving workload the sweeps time: llama-3.1-70b in bf16 at 8K context, 2,000 tokens/s,
// on-demand and spot.
inline InferenceRecommendRequest serving_workload() {
    InferenceRecommendRequest request = default_inference_request(*find_model(builtin_models(), "llama-3.1-70b"));
    request.context = 8192;
    request.tokens_per_second = 2000;
    request.purchase = {PurchaseOption{PurchaseKind::on_demand}, PurchaseOption{PurchaseKind::spot}};
    return request;
}

// The training workload: llama-3-8b on 20B tokens, up to 8 nodes, on-demand and spot.
inline TrainingRecommendRequest training_workload() {
    TrainingRecommendRequest request;
    request.model = find_model(builtin_models(), "llama-3-8b");
    request.token_budget = 2e10;
    request.max_nodes = 8;
    request.purchase = {PriceKind::on_demand, PriceKind::spot_typical};
    return request;
}

// One recommender sweep over the whole catalog in us-east-1. Returns the options evaluated.
inline std::size_t recommend_sweep(const Catalog& catalog) { return recommend_inference(catalog, serving_workload()).evaluated; }
inline std::size_t recommend_training_sweep(const Catalog& catalog) { return recommend_training(catalog, training_workload()).evaluated; }

// The cross-region rankings the any-model issue asks for (`recommend --regions all`): the same
// workloads in every region the catalog prices, each type's layouts estimated once and priced
// per region. Returns the options evaluated.
inline std::size_t recommend_sweep_all_regions(const Catalog& catalog) {
    std::size_t options = 0;
    for (const Recommendation& r : recommend_inference_in_regions(catalog, serving_workload(), catalog.regions())) options += r.evaluated;
    return options;
}
inline std::size_t recommend_training_sweep_all_regions(const Catalog& catalog) {
    std::size_t options = 0;
    for (const TrainingRecommendation& r : recommend_training_in_regions(catalog, training_workload(), catalog.regions())) options += r.evaluated;
    return options;
}

// `gpuplan validate`'s work: load the built-in validation corpus (every record's scenario
// checked) and run each through evaluate_scenario. Returns the cases run.
inline std::size_t validation_corpus(const Catalog& catalog) {
    return run_validation(load_validation_records(builtin_validation_documents(), catalog), catalog).size();
}

// A year of 5-minute samples (105,120) of GPUs in use: the scenario's usage section as the
// Usage view evaluates it on every edit (generate the history, cost every commitment level,
// write the result document with its chart series). Returns the samples analysed.
inline UsageSection usage_year_section() {
    UsageSection s;
    SyntheticUsageRequest g;
    g.days = 365;
    g.interval_minutes = 5;
    g.base = 40;
    g.daily_swing = 60;
    g.growth_per_week = 0.01;
    g.bursts = 20;
    g.burst_size = 30;
    s.history.synthetic = g;
    s.request.on_demand_usd_per_gpu_hour = {1.861, InputOrigin::user, ""};
    s.request.burst_usd_per_gpu_hour = s.request.on_demand_usd_per_gpu_hour;
    s.request.commit_usd_per_gpu_hour = {1.3027, InputOrigin::user, ""};
    s.request.spot = CommitmentPlanRequest::Spot{{0.9971, InputOrigin::user, ""}, {0.16, InputOrigin::user, ""}, 0.3};
    return s;
}
inline std::size_t usage_year_evaluate(const UsageSection& section) {
    const UsageSectionResult r = evaluate_usage_section(section);
    return to_json(r).at("curve").size() > 0 ? r.history.samples.size() : 0;
}
// The commitment analysis alone on that history (the load-duration curve and every level).
inline std::size_t usage_year_plan(const UsageHistory& history, const CommitmentPlanRequest& request) {
    return plan_commitment(history, request).curve_level.size() > 0 ? history.samples.size() : 0;
}

// A year of traffic at 1 request/s (31,536,000 requests) on one replica of llama-3.1-8b on
// g6e.xlarge, prompts uniform:200:2000 and outputs exponential:300:2000 (the any-model issue's
// goal: under 1 s natively). Returns the requests simulated.
inline double serving_year_of_traffic(const Catalog& catalog) {
    InferenceEstimateRequest request;
    request.serving.model = find_model(builtin_models(), "llama-3.1-8b");
    request.instance = "g6e.xlarge";
    request.serving.context = 4000;
    std::string why;
    const auto costs = replica_costs(estimate_inference(catalog, request), 256, why);
    TrafficSpec traffic;
    traffic.requests_per_second = 1;
    traffic.prompt = parse_length_distribution("uniform:200:2000", "prompt");
    traffic.output = parse_length_distribution("exponential:300:2000", "output");
    traffic.requests = 31536000;
    traffic.warmup = 1000;
    return simulate_serving(*costs, traffic).measured_requests;
}

}  // namespace gpuplan::perf
