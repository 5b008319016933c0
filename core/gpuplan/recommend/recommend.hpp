// recommend.hpp — enumerate instance type x count x layout x purchase option for a workload,
// drop what does not fit (saying why), and return the Pareto frontier of time versus cost
// with the top picks. Fast enough to run on every keystroke in the browser: candidates are
// scored with plain arithmetic and only the picks are explained with Figures.
//
// Inference: serve `tokens_per_second` of decode throughput for a model at a context length.
// Per instance, the smallest tensor-parallel degree (a divisor of its GPU count) that holds the
// weights with room for at least one sequence's KV cache; every GPU group is one replica at the
// largest batch that fits (capped by `max_batch`); replica throughput is the memory-bound
// decode roofline (compute.hpp) x bandwidth efficiency; instances = ceil(target / per-instance).
// Time score: seconds per output token for one sequence (1 / steps per second); cost score:
// USD per 1M tokens at the chosen purchase option.
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/explain.hpp"
#include "gpuplan/workload/training_time.hpp"
#include "gpuplan/workload/fit.hpp"
#include "gpuplan/workload/memory.hpp"
#include "gpuplan/workload/model.hpp"
#include "gpuplan/workload/serving_traffic.hpp"
#include "gpuplan/pricing/purchase_options.hpp"
#include "gpuplan/pricing/quota.hpp"

namespace gpuplan {

// Requests simulated per replica count tried when a sweep serves a request rate: every layout
// is simulated, so fewer than `gpuplan infer --rate` (TrafficRequest's default) for one.
constexpr std::size_t kSweepTrafficRequests = 5000;

struct InferenceRecommendRequest {
    const ModelSpec* model = nullptr;
    std::string dtype = "bf16", kv_dtype = "bf16";  // names, for the picks' memory verdicts
    double weight_bytes = 2, kv_bytes = 2;          // dtype_bytes of the names (set_dtypes)
    double context = 4096;
    double tokens_per_second = 1000;          // aggregate decode throughput to serve
    double max_batch = 256;                   // per replica (latency and scheduler limits)
    double max_instances = 16;
    std::string region = "us-east-1";
    std::vector<std::string> families;        // empty = all GPU families
    // Every way to buy (purchase_option.hpp; empty = on-demand): on-demand and spot at the
    // catalog's price, Capacity Blocks and commitments at their effective hourly rate as
    // quote_purchase_options gives it (a listed price, else `pricing`'s discount off on-demand,
    // marked assumed), a commitment without a payment as no upfront. A serving fleet runs every
    // hour, so a commitment's term is used in full. An option a source shows is not sold for a
    // type and region is dropped with that source.
    std::vector<PurchaseOption> purchase;
    PricingAssumptions pricing = default_pricing_assumptions();
    std::optional<double> max_usd_per_hour;   // budget for the whole fleet
    std::optional<double> max_seconds_per_token;  // latency ceiling per sequence
    // Requests at a rate with latency targets (serving_traffic.hpp) in place of tokens_per_second:
    // each layout gets the replicas its simulation needs, and `context` must hold the longest
    // prompt + output.
    std::optional<TrafficRequest> traffic;    // its `requests`: kSweepTrafficRequests
    AccountQuotas quotas;                     // the account's vCPU quotas, by class (quota.hpp); none: AWS's defaults
    Param bandwidth_efficiency;               // default_bandwidth_efficiency() when not set by the user
    Param runtime_overhead_gib;
};

InferenceRecommendRequest default_inference_request(const ModelSpec& model);
// Sets the dtype names and their bytes together (InputError naming `where` for an unknown name).
void set_dtypes(InferenceRecommendRequest& request, const std::string& dtype, const std::string& kv_dtype, const std::string& dtype_where,
                const std::string& kv_dtype_where);

struct Candidate {
    std::string instance, layout;             // layout: "tp 2 x 4 replica(s), batch 37"
    PurchaseOption purchase;
    bool price_assumed = false;               // its hourly rate is a discount off on-demand, not a listed price
    double tensor_parallel = 0, replicas = 0, batch = 0;
    double instances = 0;
    double usd_per_hour = 0;                  // the whole fleet
    double usd_per_month = 0;                 // the same for AWS's month of 730 hours (kHoursPerMonth)
    double usd_per_million_tokens = 0;        // cost score
    double seconds_per_token = 0;             // time score (with traffic: the p95 time per output token)
    double tokens_per_second = 0;             // what the fleet delivers (with traffic: what it is asked for)
    std::vector<double> achieved_seconds;     // with traffic: the simulated figure of each target
    double fleet_replicas = 0;                // with traffic: the replicas the simulation needs
    bool kept = true;
    std::string dropped_because;              // why it was not kept
};

// The figures a pick comes with, one member each: a view shows `figures->instances`, so a
// figure the core stops computing is a compile error there, never a row that silently goes
// missing (as the pick's tokens/s rows did when they were looked up by name).
struct PickFigures {
    Figure bytes_per_step;                  // weights + KV cache read per decode step
    Figure decode_step_seconds;             // roofline + tensor-parallel all-reduces + fixed cost
    Figure tokens_per_second_per_instance;  // what one instance delivers
    Figure instances;                       // how many instances the throughput needs
    Figure usd_per_million_tokens;          // the fleet's hourly cost over its tokens
    Figure usd_per_month;                   // the fleet for a month of 730 hours
    // Every figure in the order the JSON lists them (under each Figure::name).
    std::vector<const Figure*> all() const;
};

// What a pick comes with: its figures (decode roofline, instances, cost; none when the layout
// could not be estimated again) and its memory fit on one instance (workload/fit.hpp), so no
// shell has to run a model again to show them.
struct PickDetail {
    std::optional<PickFigures> figures;
    GpuPool pool;
    InferenceFit fit;
    QuotaLine quota;  // the vCPUs the fleet needs of its quota class
};

struct Recommendation {
    std::vector<Candidate> candidates;        // every option considered, kept or dropped
    std::vector<std::size_t> frontier;        // indices into candidates: time vs cost, cheapest first
    std::vector<std::size_t> picks;           // cheapest, fastest, balanced (picks.hpp; may repeat)
    std::vector<std::string> pick_reasons;    // one per pick: why it was chosen, in words
    std::vector<PickDetail> pick_details;     // one per pick, in the same order
    std::size_t evaluated = 0;
    std::optional<TrafficRequest> traffic;    // the request rate served, when asked as one; its targets are
                                              // what each candidate's achieved_seconds follow
};

Recommendation recommend_inference(const Catalog& catalog, const InferenceRecommendRequest& request);
// The same recommendation in each of `regions` (request.region is not used), one per region in
// that order: what each instance type can run is estimated once, since the model does not
// depend on the region, and priced in every region. A cross-region ranking in the time of about
// one region's sweep (docs/performance.md). InputError for a region the catalog has no price in.
// A ranking reads values, so these come without pick_details (explanations on demand: the
// working of a region's picks is recommend_inference's for that region).
std::vector<Recommendation> recommend_inference_in_regions(const Catalog& catalog, const InferenceRecommendRequest& request,
                                                           const std::vector<std::string>& regions);

}  // namespace gpuplan

// ---- training -----------------------------------------------------------------------------
// For a training job (model, token budget, batch shape): every GPU instance type x node count
// (1, 2, 4, ... max_nodes) x purchase option, each with the first layout in order of least
// communication that fits in GPU memory (training_memory, memory.hpp): plain data parallel
// with ZeRO 0, 1, 2, 3, then tensor parallel across the node's GPUs with ZeRO 1, 3. Time from
// training_time (training_time.hpp); cost = hours x nodes x price. Scores: total hours and
// total USD.
namespace gpuplan {

struct TrainingRecommendRequest {
    const ModelSpec* model = nullptr;
    double token_budget = kDefaultTokenBudget;  // training_time.hpp
    double sequence = 4096, micro_batch = 1, global_batch_tokens = 4194304;  // 4M tokens per step
    Recompute recompute = Recompute::selective;
    double max_nodes = 16;
    std::string region = "us-east-1";
    std::vector<std::string> families;       // empty = all GPU families
    std::vector<PriceKind> purchase;         // empty = on-demand
    std::optional<double> deadline_hours, budget_usd;
    AccountQuotas quotas;                    // the account's vCPU quotas, by class (quota.hpp)
};

struct TrainingCandidate {
    std::string instance, layout;            // "8 nodes: dp 64, ZeRO 1"
    PriceKind purchase = PriceKind::on_demand;
    ParallelLayout parallel;                 // the same layout, in numbers
    double nodes = 0, hours = 0, cost_usd = 0;
    std::string bottleneck;
    bool kept = true;
    std::string dropped_because;
};

struct TrainingRecommendation {
    std::vector<TrainingCandidate> candidates;
    std::vector<std::size_t> frontier, picks;  // picks: cheapest, fastest, balanced (picks.hpp)
    std::vector<std::string> pick_reasons;     // one per pick: why it was chosen, in words
    std::vector<TrainingTime> pick_times;      // one per pick: its step, hours and cost at its price
    std::vector<QuotaLine> pick_quotas;        // one per pick: the vCPUs its nodes need of their quota class
    std::size_t evaluated = 0;
};

TrainingRecommendation recommend_training(const Catalog& catalog, const TrainingRecommendRequest& request);
// The same in each of `regions` (request.region is not used), in that order: every step is
// timed once and priced in every region, as recommend_inference_in_regions does, and without
// the picks' working (pick_times, pick_quotas), as there.
std::vector<TrainingRecommendation> recommend_training_in_regions(const Catalog& catalog, const TrainingRecommendRequest& request,
                                                                  const std::vector<std::string>& regions);

// The figures a training pick is shown with (its compute, step, tokens/s, hours and cost), in
// order: the one list the serialiser and the Recommend view both use.
std::vector<const Figure*> training_pick_figures(const TrainingTime& time);

// ---- what a sweep dropped ---------------------------------------------------------------------
// The options a sweep did not keep, grouped by the reason they were dropped (reasons in
// alphabetical order), each named as the serialiser and the Recommend view both show it:
// "p5.48xlarge (on-demand)" for serving (the option in words: "p5.48xlarge (reserved 1-year,
// no upfront)"), "p5.48xlarge x 2 (on-demand)" for training.
struct DroppedOptions {
    std::string reason;
    std::vector<std::string> options;
};
namespace detail {
// One grouping for both sweeps; `name` says how an option is named.
template <class Candidate, class Name>
std::vector<DroppedOptions> dropped_by_reason(const std::vector<Candidate>& candidates, Name name) {
    std::map<std::string, std::vector<std::string>> by_reason;  // sorted by reason
    for (const Candidate& c : candidates)
        if (!c.kept) by_reason[c.dropped_because].push_back(name(c));
    std::vector<DroppedOptions> out;
    for (auto& [reason, options] : by_reason) out.push_back({reason, std::move(options)});
    return out;
}
template <class Candidate>
std::size_t kept_count(const std::vector<Candidate>& candidates) {
    return static_cast<std::size_t>(std::count_if(candidates.begin(), candidates.end(), [](const Candidate& c) { return c.kept; }));
}
}  // namespace detail
std::vector<DroppedOptions> dropped_by_reason(const Recommendation& r);
std::vector<DroppedOptions> dropped_by_reason(const TrainingRecommendation& r);
std::size_t kept_count(const Recommendation& r);
std::size_t kept_count(const TrainingRecommendation& r);

}  // namespace gpuplan
