// workloads.hpp — the operations the core benchmarks time, shared by the native (Google
// Benchmark) and wasm (timing loop) harnesses so both measure exactly the same work.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <string>
#include <vector>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/pricing/purchase_options.hpp"
#include "gpuplan/recommend/recommend.hpp"
#include "gpuplan/scenario/usage_sections.hpp"
#include "gpuplan/units.hpp"
#include "gpuplan/validation/validation.hpp"
#include "gpuplan/workload/model.hpp"
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

// The flat-arithmetic limit of the serving ranking (issue 32 asks for each sweep's ratio to
// it). The grid of recommend_sweep_all_regions (every region x GPU type x tensor-parallel
// layout that fits x {on-demand, spot}, the layouts chosen by the sweep's own rule) as bare
// arithmetic over arrays prepared once: a roofline decode step (the weights and every
// sequence's KV cache read once at the GPUs' memory bandwidth), the instances for the target
// rate, their price, the cheapest kept. No strings, no explanations, no look-ups, no step
// overhead or communication: a yardstick, not a model. A sweep's time over this one's says
// how much of the sweep is something other than its arithmetic.
struct FlatServingGrid {
    static constexpr std::size_t kKinds = std::size(kPriceKinds);  // on-demand, spot
    struct Type {
        double gpus = 0, memory_bytes_each = 0, bandwidth_bytes_per_s_each = 0;
        std::vector<double> usd_per_hour;  // [region x kKinds + price kind]; NaN when not priced
    };
    std::vector<Type> types;
    std::size_t regions = 0;
    double weight_bytes = 0, overhead_bytes = 0, kv_bytes_per_sequence = 0, tokens_per_second = 0, max_batch = 0;
};

inline FlatServingGrid flat_serving_grid(const Catalog& catalog) {
    const InferenceRecommendRequest request = serving_workload();
    FlatServingGrid grid;
    grid.regions = catalog.regions().size();
    grid.weight_bytes = count_parameters(*request.model).total * request.weight_bytes;
    grid.overhead_bytes = request.runtime_overhead_gib.value * kBytesPerGiB;
    grid.kv_bytes_per_sequence = kv_cache_bytes_per_token(*request.model, request.kv_bytes).value.value_or(0) *
                                 kv_cached_tokens(*request.model, request.context);
    grid.tokens_per_second = request.tokens_per_second;
    grid.max_batch = request.max_batch;
    for (const Instance& instance : catalog.instances) {
        const Accelerator* gpu = instance.accelerator ? catalog.find_accelerator(*instance.accelerator) : nullptr;
        FlatServingGrid::Type type;  // no GPUs: a type the sweep lists as unable to serve
        if (gpu && gpu->kind == AcceleratorKind::gpu && instance.accelerator_count && instance.accelerator_memory_gib_each &&
            gpu->memory_bandwidth_gb_per_s) {
            type.gpus = std::max(1.0, *instance.accelerator_count);
            type.memory_bytes_each = *instance.accelerator_memory_gib_each * kBytesPerGiB;
            type.bandwidth_bytes_per_s_each = *gpu->memory_bandwidth_gb_per_s * 1e9;
        }
        for (const std::string& region : catalog.regions())
            for (PriceKind kind : kPriceKinds) {
                const Price* price = instance.find_price(region, kind);
                type.usd_per_hour.push_back(price && price->usd_per_hour ? *price->usd_per_hour : NAN);
            }
        grid.types.push_back(std::move(type));
    }
    return grid;
}

// Returns the options counted as the sweep counts them (each layout that fits, or the type
// once when none does, for each way to buy, priced there or not); `cheapest_usd_per_hour` the
// cheapest fleet of all regions.
inline std::size_t flat_serving_ranking(const FlatServingGrid& grid, double& cheapest_usd_per_hour) {
    std::size_t options = 0;
    cheapest_usd_per_hour = INFINITY;
    for (std::size_t region = 0; region < grid.regions; ++region)
        for (const FlatServingGrid::Type& type : grid.types) {
            const std::size_t options_before = options;
            for (double tp = 1; tp <= type.gpus; ++tp) {
                if (std::fmod(type.gpus, tp) != 0) continue;
                const double room = type.memory_bytes_each - grid.weight_bytes / tp - grid.overhead_bytes;
                const double per_sequence = grid.kv_bytes_per_sequence / tp;
                if (room < per_sequence) continue;
                const double batch = std::min(grid.max_batch, std::floor(room / per_sequence));
                const double step_s = (grid.weight_bytes / tp + batch * per_sequence) / type.bandwidth_bytes_per_s_each;
                const double instances = std::ceil(grid.tokens_per_second / (batch / step_s * (type.gpus / tp)));
                for (std::size_t kind = 0; kind < FlatServingGrid::kKinds; ++kind) {
                    ++options;
                    const double usd_per_hour = type.usd_per_hour[region * FlatServingGrid::kKinds + kind];
                    if (std::isnan(usd_per_hour)) continue;
                    cheapest_usd_per_hour = std::min(cheapest_usd_per_hour, instances * usd_per_hour);
                }
            }
            if (options == options_before) options += FlatServingGrid::kKinds;
        }
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
