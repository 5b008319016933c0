// workloads.hpp — the operations the core benchmarks time, shared by the native (Google
// Benchmark) and wasm (timing loop) harnesses so both measure exactly the same work.
#pragma once

#include <cstddef>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/pricing/purchase_options.hpp"
#include "gpuplan/recommend/recommend.hpp"
#include "gpuplan/validation/validation.hpp"

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

// One recommender sweep over the whole catalog: llama-3.1-70b in bf16 at 8K context, 2,000
// tokens/s, on-demand and spot. Returns the number of options evaluated.
inline std::size_t recommend_sweep(const Catalog& catalog) {
    InferenceRecommendRequest request = default_inference_request(*find_model(builtin_models(), "llama-3.1-70b"));
    request.context = 8192;
    request.tokens_per_second = 2000;
    request.purchase = {PriceKind::on_demand, PriceKind::spot_typical};
    return recommend_inference(catalog, request).evaluated;
}

// One training sweep: llama-3-8b on 20B tokens, up to 8 nodes, on-demand and spot.
// Returns the number of options evaluated.
inline std::size_t recommend_training_sweep(const Catalog& catalog) {
    TrainingRecommendRequest request;
    request.model = find_model(builtin_models(), "llama-3-8b");
    request.token_budget = 2e10;
    request.max_nodes = 8;
    request.purchase = {PriceKind::on_demand, PriceKind::spot_typical};
    return recommend_training(catalog, request).evaluated;
}

// `gpuplan validate`'s work: load the built-in validation corpus (every record's scenario
// checked) and run each through evaluate_scenario. Returns the cases run.
inline std::size_t validation_corpus(const Catalog& catalog) {
    return run_validation(load_validation_records(builtin_validation_documents(), catalog), catalog).size();
}

}  // namespace gpuplan::perf
