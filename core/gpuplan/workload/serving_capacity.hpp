// serving_capacity.hpp — what one instance serves at a target latency: the most requests in
// flight whose inter-token latency stays within the target (the continuous-batching model of
// serving.hpp through estimate_inference), and the requests per second that gives:
//   requests/s per instance = replicas x concurrency / request time
// Inter-token latency grows with the requests in flight (each decode step reads every
// sequence's KV cache), so the largest whole concurrency within the target is found by
// doubling, then bisection, up to what fits in memory (at most 4,096).
// docs/pricing.md, "Serving over a demand curve", uses it for serve-plan --model.
#pragma once

#include "gpuplan/explain.hpp"
#include "gpuplan/workload/inference.hpp"

namespace gpuplan {

struct ServingCapacity {
    double concurrency = 0;                    // requests in flight per replica
    double replicas = 1;
    Figure inter_token_latency_seconds;       // at that concurrency
    Figure time_to_first_token_seconds;
    Figure request_seconds;
    Figure requests_per_second;               // per instance
};

// `request` must ask for serving under load (output_tokens and prompt_tokens given); its
// concurrency is ignored. Throws InputError when even one request in flight misses the target
// or does not fit, naming what it got.
ServingCapacity capacity_at_latency(const Catalog& catalog, InferenceEstimateRequest request, double max_inter_token_seconds);

}  // namespace gpuplan
