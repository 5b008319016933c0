// inference.hpp — what one model delivers served on one instance type: decode tokens/s, the
// compute ceiling, time to first token and $ per 1M tokens.
//
// Decode is memory-bound: each step reads every weight once plus the KV cache of every
// sequence (decode_roofline, compute.hpp; shared/cases/workloads.md W3). The expected rate
// applies a bandwidth efficiency (a documented default, or 1 with a measured bandwidth) and is
// capped by the compute ceiling; time to first token is prefill (compute-bound,
// prefill_seconds) but never less than one read of the weights. Cost per 1M tokens uses the
// catalog's on-demand and spot prices (usd_per_million_tokens). A request that does not fit
// in the GPUs' memory is refused with the reason (fit.hpp). `gpuplan infer`, the scenario's
// `infer` section and the app's Inference view all ask here. Formulas: docs/models.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/pricing/quota.hpp"
#include "gpuplan/workload/compute.hpp"
#include "gpuplan/workload/fit.hpp"

namespace gpuplan {

struct NodeTopology;  // topology/topology.hpp

struct InferenceEstimateRequest {
    InferenceFitRequest serving;                  // model, dtypes, batch, context, tensor parallel
    std::string instance;
    std::string region = "us-east-1";
    std::optional<double> prompt_tokens;          // default: the whole context
    // Serving under load (serving.hpp): given output_tokens, each of `concurrency` clients
    // keeps one request of prompt_tokens + output_tokens in flight, and latencies and
    // throughput come from the closed-loop model; batch and context follow from them.
    // No concurrency: as many requests as fit in memory (a maximum-throughput run).
    std::optional<double> output_tokens;
    std::optional<double> concurrency;
    std::optional<double> bandwidth_efficiency;   // default: documented, or 1 with a measured bandwidth
    std::optional<double> compute_efficiency;     // default: documented
    std::optional<double> measured_bandwidth_gb_per_s;  // replaces the datasheet bandwidth
    std::optional<double> step_overhead_seconds;        // replaces the fitted per-step fixed cost
    AccountQuotas quotas;                               // the account's vCPU quotas (pricing/quota.hpp)
    // The instance's node as topology.hpp's node_topology(catalog, instance) builds it, when the
    // caller has it already (a sweep estimating several layouts of one type); else built here.
    // Another instance's node is a std::logic_error.
    const NodeTopology* node = nullptr;
};

// The fixed cost of one decode step outside the roofline (scheduling, sampling, launch gaps),
// fitted on a calibration case of the validation corpus (docs/accuracy.md).
Figure default_decode_step_overhead();

// The dense peak the matrix multiplies run at: bf16/fp16 as named, fp8 on FP8 tensor cores;
// int8/int4 are weight-only quantization, dequantized to bf16 for the math.
struct DensePeak {
    std::optional<Param> tflops;
    std::string basis;  // "bf16", "fp8"
    std::string why;    // when unknown
};
DensePeak dense_peak_for(const Accelerator* accelerator, const std::string& dtype);

struct InferenceEstimate {
    GpuPool pool;
    std::string region;
    InferenceFit fit;
    double tensor_parallel = 1, replicas = 1, prompt_tokens = 0;
    bool under_load = false;             // output_tokens given: the closed-loop serving model
    double output_tokens = 0, concurrency = 0, decode_context = 0;
    Param bandwidth, bandwidth_efficiency, compute_efficiency;
    bool bandwidth_measured = false;
    DensePeak peak;
    DecodeRoofline roofline;
    Figure compute_ceiling;              // tokens/s per replica the FLOPs allow
    Figure per_replica, per_gpu, per_instance;  // tokens/s expected
    bool compute_bound = false;
    Figure tensor_parallel_seconds_per_step;  // 2 all-reduces per layer
    Figure step_overhead_seconds;        // fixed cost per step
    Figure decode_step_seconds;          // one decode step of the batch: roofline + the two above
    Figure inter_token_latency_seconds;  // time between two output tokens of one sequence
    Figure output_tokens_per_second;     // all replicas of the instance (under load: with prefills)
    Figure output_tokens_per_second_per_replica;  // one tensor-parallel group (how serving benchmarks report)
    Figure request_seconds, prefill_share;  // under load only
    Figure weight_read_seconds, prefill_seconds, time_to_first_token_seconds;
    Figure usd_per_million_tokens_on_demand, usd_per_million_tokens_spot;
    QuotaLine quota;                     // one instance on demand: the vCPUs of its quota class

    // Every figure, in the order the CLI and the JSON list them, under its output name
    // (decode_roofline's expected rate is "tokens_per_second_memory_expected" here).
    std::vector<std::pair<std::string, const Figure*>> figures() const;
};

// Throws InputError naming the field (instance, region, tensor_parallel, prompt_tokens) for
// an invalid request. A request that does not fit in memory comes back with `fit.fits` false
// and nothing else computed: the caller refuses it with `fit.refusal`.
InferenceEstimate estimate_inference(const Catalog& catalog, const InferenceEstimateRequest& request);

// The scenario result and `gpuplan infer --format json`: one serialiser.
nlohmann::json to_json(const InferenceEstimate& estimate);

}  // namespace gpuplan
