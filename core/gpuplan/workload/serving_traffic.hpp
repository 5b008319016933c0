// serving_traffic.hpp — serving a request rate to latency targets: how many replicas of one
// layout keep, say, the 95th-percentile time to first token under 1 s when requests arrive at
// random at R per second with prompts and outputs of mixed lengths.
//
// A replica's step costs come from the same terms as the inference estimate of its layout
// (inference.hpp: the memory roofline and compute ceiling at the achieved bandwidth and
// compute efficiency, the fixed step cost, the tensor-parallel all-reduces), and the
// continuous-batching simulation (serving_sim.hpp) gives the percentiles. Requests routed at
// random split the rate evenly over the replicas, so R replicas each see rate / R; the
// replica count is the smallest whose simulated percentiles meet every target.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/explain.hpp"
#include "gpuplan/workload/inference.hpp"
#include "gpuplan/workload/serving_sim.hpp"

namespace gpuplan {

enum class LatencyMetric { time_to_first_token, time_per_output_token, end_to_end };
std::string_view to_string(LatencyMetric metric);  // "time to first token"

// "95th-percentile time to first token at most 1 s". Spelled p95-ttft-ms=1000 (ttft, tpot or
// e2e; any percentile in (0, 100)); InputError naming `field` otherwise.
struct LatencyTarget {
    LatencyMetric metric = LatencyMetric::time_to_first_token;
    double percentile = 95;
    double seconds = 1;
    std::string text() const;   // the spelling parse_latency_target reads
    std::string words() const;  // "p95 time to first token <= 1,000 ms"
};
LatencyTarget parse_latency_target(const std::string& text, const std::string& field);

struct TrafficRequest {
    double requests_per_second = 1;
    LengthDistribution prompt{LengthDistribution::Kind::fixed, 1000, 0}, output{LengthDistribution::Kind::fixed, 200, 0};
    std::vector<LatencyTarget> targets;  // none: the fewest replicas that keep up
    std::size_t requests = 20000;        // simulated per replica count tried
    double max_replicas = 4096;
};

// One replica's step costs from the estimate of its layout (estimate_inference at any batch
// that fits; its KV capacity bounds the sequences in flight, and so does `max_sequences`).
// nullopt with `why` when the estimate has no dense peak (prefill time unknown).
std::optional<ReplicaCosts> replica_costs(const InferenceEstimate& estimate, double max_sequences, std::string& why);

struct TrafficPlan {
    double replicas = 0;          // the smallest count that meets every target (0: none up to max_replicas)
    bool met = false;
    std::string why_not;          // when not met: what the largest count tried still missed
    SimulatedServing per_replica; // at rate / replicas (or at the largest count tried)
    std::vector<double> achieved_seconds;  // one per target, in the order given
    std::vector<std::string> tried;        // "2 replicas: p95 time to first token 1.73 s > 1 s", in the order tried
    Figure replicas_figure;       // the count, with the search in its worked line
    Figure ttft_p50, ttft_p95, ttft_p99, tpot_p50, tpot_p95, e2e_p95;  // seconds, per replica at that count
    std::vector<const Figure*> figures() const;
};

// InputError naming the field for a bad request (rate, lengths, percentiles).
TrafficPlan plan_for_traffic(const ReplicaCosts& costs, const TrafficRequest& request);

// The whole answer for one instance type and layout: the estimate (at one request of the
// longest prompt + output, to check it fits), the replicas for the traffic, and the fleet of
// instances they need priced on demand in the request's region.
struct ServingTrafficPlan {
    InferenceEstimate estimate;      // fit.fits false: refused (fit.refusal), nothing else computed
    std::optional<TrafficPlan> plan; // none with `why_unknown` when the step costs are unknown
    std::string why_unknown;
    Figure instances, usd_per_hour_on_demand, usd_per_month_on_demand, usd_per_million_tokens_on_demand;
    std::vector<const Figure*> figures() const;  // the plan's, then the fleet's
};
ServingTrafficPlan plan_serving_traffic(const Catalog& catalog, InferenceEstimateRequest request, const TrafficRequest& traffic,
                                        double max_sequences);

nlohmann::json to_json(const TrafficPlan& plan, const TrafficRequest& request);
nlohmann::json to_json(const ServingTrafficPlan& plan, const TrafficRequest& request);

}  // namespace gpuplan
