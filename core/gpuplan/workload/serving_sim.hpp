// serving_sim.hpp — requests that arrive at random, served by continuous batching on one
// replica: a discrete-event simulation that gives time to first token, time per output token
// and end-to-end latency as percentiles.
//
// The engine model is the one serving.hpp states in closed form (Yu et al., "Orca", OSDI 2022;
// Kwon et al., "vLLM", SOSP 2023): between decode steps the scheduler admits waiting requests
// in arrival order (while sequences and KV cache allow) and prefills them together, and every
// request in flight decodes one token per step. A step's time follows the batch and the KV
// cache it reads (ReplicaCosts). Decode steps are not simulated one by one: between two events
// (an arrival that can be admitted, a request finishing) the steps form an arithmetic series
// whose time has a closed form, so a year of traffic is millions of events, not billions of
// steps. Arrivals are Poisson; lengths are fixed or drawn from a distribution, from one seeded
// generator (std::mt19937_64, whose output the C++ standard fixes), so native and wasm agree.
// A fleet that routes requests at random gives each of R replicas a Poisson stream at
// rate / R (the splitting property), which is how serving_traffic.hpp sizes fleets.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpuplan {

// Prompt or output length in tokens: "256" (every request), "uniform:LO:HI" (integers),
// "exponential:MEAN" (rounded, at least 1) or "exponential:MEAN:MAX" (also capped at MAX).
struct LengthDistribution {
    enum class Kind { fixed, uniform, exponential } kind = Kind::fixed;
    double a = 1, b = 0;  // fixed: a; uniform: a..b; exponential: mean a, cap b (0: none)
    double mean() const;
    double max() const;   // the longest a request can be (exponential without a cap: 20 x mean)
    std::string text() const;  // the spelling parse_length_distribution reads
};
// InputError naming `field` for a bad spelling or a length below 1.
LengthDistribution parse_length_distribution(const std::string& text, const std::string& field);

// What one replica's steps cost. Decode step of b sequences holding K cached tokens:
//   fixed + per_sequence x b + max(weights(b) + kv_per_token x K, compute_per_token x b + attention_per_token x K)
// (the memory roofline against the compute ceiling, inference.hpp). Prefill of prompts p_i
// admitted together: fixed + max(prefill_floor, sum(prefill_per_token x p_i + prefill_per_token_squared x p_i^2)).
struct ReplicaCosts {
    double fixed_seconds = 0;               // step overhead (+ tensor-parallel all-reduce latency)
    double per_sequence_seconds = 0;        // tensor-parallel all-reduce bandwidth per sequence
    std::vector<double> weights_seconds;    // [b - 1]: reading the weights a step of b sequences touches
    double kv_seconds_per_token = 0;        // reading one cached token's K and V
    double compute_seconds_per_token = 0;   // 2 x active parameters of FLOPs
    double attention_seconds_per_token = 0; // per decoded token per cached token of context
    double prefill_seconds_per_token = 0, prefill_seconds_per_token_squared = 0;
    double prefill_floor_seconds = 0;       // one read of the weights
    double max_sequences = 1;               // the engine's limit on requests in flight
    double kv_capacity_tokens = 0;          // cached tokens that fit beside the weights
    double max_prefill_tokens = 8192;       // prompt tokens prefilled in one step (vLLM's max_num_batched_tokens)
};
double decode_step_seconds(const ReplicaCosts& costs, double batch, double cached_tokens);

struct TrafficSpec {
    double requests_per_second = 1;  // to this replica
    LengthDistribution prompt, output;
    std::size_t requests = 20000;    // arrivals simulated
    std::size_t warmup = 1000;       // the first arrivals, left out of the percentiles
    std::uint64_t seed = 1;
    std::vector<double> extra_percentiles;  // also reported (Percentiles::extra), each in (0, 100)
};

struct Percentiles {
    double p50 = 0, p95 = 0, p99 = 0, mean = 0;
    std::vector<double> extra;  // at TrafficSpec::extra_percentiles, in that order
};

struct SimulatedServing {
    bool stable = true;        // false: requests queue without bound (the replica is too slow)
    std::string why_unstable;
    Percentiles ttft_seconds, tpot_seconds, e2e_seconds;  // tpot: (last token - first) / (output - 1)
    double measured_requests = 0;     // requests in the percentiles
    double simulated_seconds = 0;     // from the first arrival to the last completion
    double busy_fraction = 0;         // time the replica was prefilling or decoding
    double mean_batch = 0;            // sequences in flight, averaged over decode time
    double output_tokens_per_second = 0;
    std::size_t events = 0;           // prefills + decode runs between events
};

// InputError naming requests_per_second, the lengths (prompt + output over the KV capacity)
// or the costs for a request the replica can never serve.
SimulatedServing simulate_serving(const ReplicaCosts& costs, const TrafficSpec& traffic);

// Nearest-rank percentile of `sorted` (ascending), q in (0, 100].
double percentile_of_sorted(const std::vector<double>& sorted, double q);

}  // namespace gpuplan
