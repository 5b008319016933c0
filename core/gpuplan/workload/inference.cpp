// inference.cpp — decode throughput, TTFT and cost per 1M tokens (inference.hpp).
#include "gpuplan/workload/inference.hpp"
#include "gpuplan/formula_text.hpp"
#include "gpuplan/workload/inference_steps.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "gpuplan/input_error.hpp"
#include "gpuplan/pricing/purchase_options.hpp"
#include "gpuplan/pricing/unit_cost.hpp"
#include "gpuplan/text.hpp"
#include "gpuplan/topology/topology.hpp"
#include "gpuplan/workload/serving.hpp"
#include "gpuplan/calibrated_defaults.hpp"

namespace gpuplan {

namespace {


// 2 all-reduces per layer of `tokens` x hidden x 2 bytes over `tp` GPUs of `topo` (none: no
// tensor parallel).
Figure tensor_parallel_allreduce(const NodeTopology* topo, const ModelSpec& m, double tp, double tokens, std::string name) {
    if (!topo) return explained_figure(std::move(name), 0.0, "s", [] { return Explanation{"0 (no tensor parallel)", "0", {}}; });
    const double bytes = tokens * m.hidden * 2;
    const CollectiveCost c = hierarchical_collective(Collective::all_reduce, bytes, *topo, tp, 1, CollectiveLatency::per_step_alpha);
    if (!c.seconds.value)
        return unknown_figure(std::move(name), "s", "2 x layers x all-reduce(tokens x hidden x 2 bytes)", c.seconds.unknown_reason);
    const double v = 2 * m.layers * *c.seconds.value;
    return explained_figure(std::move(name), v, "s", [&] {
        return Explanation{"2 x layers x all-reduce of tokens x hidden x 2 bytes over tensor_parallel GPUs (Shoeybi et al. 2019)",
                           "2 x " + n(m.layers) + " x " + n(*c.seconds.value) + " = " + n(v), {c.seconds.as_input(c.seconds.worked)}};
    });
}

// A figure carried over under another name, formula and inputs (the decode-only latency and
// throughput are the step's own figures, said in serving words).
Figure same_as(const Figure& source, std::string name, const char* formula) {
    Figure f = source;
    f.name = std::move(name);
    if (!explaining()) return f;
    f.formula = formula;
    f.worked = n(val(source));
    f.inputs = {source.as_input()};
    return f;
}

}  // namespace

// Fitted on the calibration case V-I1 (calibrated_defaults.hpp).
Figure default_decode_step_overhead() {
    const double v = calibrated_value(CalibratedDefault::decode_step_overhead);
    const std::string why = refit_in_force(CalibratedDefault::decode_step_overhead)
                                ? "refitted by cross-validation without one source (gpuplan validate --cross-validate)"
                                : "fitted on the calibration case V-I1 (docs/accuracy.md)";
    return explained_figure("step_overhead_seconds", v, "s", [&] {
        return Explanation{"default fixed cost per decode step: scheduling, sampling and kernel-launch gaps outside the roofline",
                           n(v) + (refit_in_force(CalibratedDefault::decode_step_overhead) ? " (" + why + ")"
                                                                                           : " (fitted on the calibration case V-I1: NIM Llama-3.1-70B fp8 TP2, concurrency 1; docs/accuracy.md)"),
                           {input("step_overhead_seconds", "s", {v, InputOrigin::assumption, why})}};
    });
}

DensePeak dense_peak_for(const Accelerator* acc, const std::string& dtype) {
    DensePeak p;
    if (!acc) {
        p.why = "accelerator unknown";
        return p;
    }
    const auto take = [&](const std::optional<double>& v, const std::string& field) {
        if (!v) return false;
        p.tflops = Param{*v, InputOrigin::catalog, "catalog accelerator " + acc->name + " dense_tflops." + field};
        p.basis = field;
        return true;
    };
    if (dtype == "fp8" && take(acc->dense_tflops.fp8, "fp8")) return p;
    if (dtype == "fp16" && take(acc->dense_tflops.fp16, "fp16")) return p;
    if (take(acc->dense_tflops.bf16, "bf16")) return p;
    const auto it = acc->unknown.find("dense_tflops.bf16");
    p.why = it == acc->unknown.end() ? "dense bf16 TFLOPS of " + acc->name + " unknown" : it->second;
    return p;
}

namespace inference_steps {

InferenceFitRequest resolve_request(const Catalog& catalog, const InferenceEstimateRequest& q, InferenceEstimate& e) {
    e.region = q.region;
    e.pool = instance_pool(catalog, q.instance, 1, "instance");
    const GpuPool& pool = e.pool;
    require_region(catalog, q.region, "region", "'" + q.region + "'");
    const double tp = q.serving.tensor_parallel.value_or(pool.gpus_per_node);
    check_tensor_parallel(tp, pool, "tensor_parallel");
    e.tensor_parallel = tp;
    e.prompt_tokens = q.prompt_tokens.value_or(q.serving.context);
    if (!q.output_tokens && e.prompt_tokens > q.serving.context)
        throw InputError("prompt_tokens", n(e.prompt_tokens), "at most the context (" + n(q.serving.context) + "): the prompt is part of the context");

    // Under load the batch is the requests in flight and every one grows to prompt + output.
    InferenceFitRequest asked = q.serving;
    e.under_load = q.output_tokens.has_value();
    if (e.under_load) {
        if (!q.prompt_tokens) throw InputError("prompt_tokens", "nothing", "the prompt length, with output_tokens (serving under load)");
        e.output_tokens = *q.output_tokens;
        asked.context = e.prompt_tokens = *q.prompt_tokens;
        asked.context += e.output_tokens;
        asked.batch = 1;
        if (q.concurrency) {
            asked.batch = *q.concurrency;
        } else {  // as many as fit: a maximum-throughput run
            const InferenceFit one = check_inference_fit(asked, pool);
            if (one.fits && one.max_batch.value) asked.batch = std::max(1.0, *one.max_batch.value);
        }
        e.concurrency = asked.batch;
    }
    // Under load the KV cache of a request grows from the prompt to prompt + output: a decode
    // step reads the average.
    e.decode_context = e.under_load ? e.prompt_tokens + e.output_tokens / 2 : asked.context;
    return asked;
}

void rates_step(const InferenceEstimateRequest& q, InferenceEstimate& e) {
    const GpuPool& pool = e.pool;
    // Bandwidth: measured if given, else the datasheet figure from the catalog.
    e.bandwidth_measured = q.measured_bandwidth_gb_per_s.has_value();
    if (e.bandwidth_measured) {
        e.bandwidth = {*q.measured_bandwidth_gb_per_s, InputOrigin::user, "measured device-memory bandwidth (--measured-bandwidth-gb-per-s)"};
    } else if (pool.accelerator && pool.accelerator->memory_bandwidth_gb_per_s) {
        e.bandwidth = {*pool.accelerator->memory_bandwidth_gb_per_s, InputOrigin::catalog,
                       "catalog accelerator " + pool.accelerator->name + " memory_bandwidth_gb_per_s (datasheet)"};
    } else {
        const std::string why = !pool.accelerator ? std::string("accelerator unknown")
                                : pool.accelerator->unknown.count("memory_bandwidth_gb_per_s")
                                    ? pool.accelerator->unknown.at("memory_bandwidth_gb_per_s")
                                    : std::string("not in the catalog");
        throw InputError("instance", "'" + pool.instance->name + "'",
                         "an instance whose memory bandwidth is known (" + why + "), or give a measured memory bandwidth (--measured-bandwidth-gb-per-s)");
    }
    e.bandwidth_efficiency = default_bandwidth_efficiency();
    if (q.bandwidth_efficiency)
        e.bandwidth_efficiency = user_given(*q.bandwidth_efficiency);
    else if (e.bandwidth_measured)
        e.bandwidth_efficiency = {1.0, InputOrigin::user, "1: a measured bandwidth is already what the device achieves (--bandwidth-efficiency overrides)"};
    e.compute_efficiency = q.compute_efficiency ? user_given(*q.compute_efficiency) : default_compute_efficiency();
    e.peak = dense_peak_for(pool.accelerator, q.serving.dtype);
}

Figure compute_ceiling(const ModelSpec& model, const ParameterCount& c, double devices, double context, const DensePeak& peak, const Param& efficiency) {
    // Every token costs 2 x active parameters + attention over the context.
    const double attn_dim = attention_width(model);
    const double flops_per_token = 2 * c.active + 4 * model.layers * context * attn_dim;
    Figure f = unknown_figure("tokens_per_second_compute_ceiling", "tokens/s",
                              "devices x dense_peak_tflops x 1e12 x compute_efficiency / (2 x active_parameters + 4 x layers x context x heads x head_dim)", peak.why);
    if (!peak.tflops) return f;
    const double v = devices * peak.tflops->value * 1e12 * efficiency.value / flops_per_token;
    f.value = v;
    f.unknown_reason.clear();
    f.worked = n(devices) + " x " + n(peak.tflops->value) + "e12 x " + n(efficiency.value) + " / (2 x " + n(c.active) + " + 4 x " + n(model.layers) + " x " +
               n(context) + " x " + n(attn_dim) + ") = " + n(v);
    f.inputs = {c.active_figure.as_input(), input("dense_peak_tflops", "TFLOPS", *peak.tflops), input("compute_efficiency", "fraction", efficiency),
                input("context", "tokens", user_given(context))};
    return f;
}

void decode_step(const InferenceEstimateRequest& q, double batch, const NodeTopology* tp_topology, InferenceEstimate& e) {
    const double tp = e.tensor_parallel;
    const Figure& memory_expected = e.roofline.tokens_per_second_expected;
    const double memory_rate = val(memory_expected);
    e.compute_bound = e.compute_ceiling.value && *e.compute_ceiling.value < memory_rate;
    const double roofline_rate = e.compute_bound ? *e.compute_ceiling.value : memory_rate;
    const double roofline_step = batch / roofline_rate;
    // Tensor parallel: every layer ends its attention and its MLP with an all-reduce of the
    // batch's activations (batch x hidden x 2 bytes) over the replica's GPUs (Shoeybi et al.
    // 2019), on the critical path of every step.
    e.tensor_parallel_seconds_per_step = tensor_parallel_allreduce(tp_topology, *q.serving.model, tp, batch, "tensor_parallel_seconds_per_step");
    // Every step also pays a fixed cost outside the roofline: scheduling the batch, sampling,
    // and the gaps between kernel launches (fitted on a calibration case).
    e.step_overhead_seconds = q.step_overhead_seconds ? explained_figure("step_overhead_seconds", *q.step_overhead_seconds, "s", [&] {
        return Explanation{"given (step_overhead_seconds)", n(*q.step_overhead_seconds), {}};
    })
                                                      : default_decode_step_overhead();
    const double step = roofline_step + val(e.tensor_parallel_seconds_per_step) + val(e.step_overhead_seconds);
    const double replica_rate = batch / step;
    e.decode_step_seconds = explained_figure("decode_step_seconds", step, "s", [&] {
        return Explanation{"batch / min(tokens_per_second_memory_expected, tokens_per_second_compute_ceiling) + tensor-parallel all-reduces + step overhead",
                           n(batch) + " / " + n(roofline_rate) + (e.compute_bound ? " (compute-bound)" : " (memory-bound)") + " + " +
                               n(val(e.tensor_parallel_seconds_per_step)) + " + " + n(val(e.step_overhead_seconds)) + " = " + n(step),
                           {input("batch", "sequences", user_given(batch)), e.compute_bound ? e.compute_ceiling.as_input() : memory_expected.as_input(),
                            e.tensor_parallel_seconds_per_step.as_input(), e.step_overhead_seconds.as_input()}};
    });
    e.per_replica = explained_figure("tokens_per_second_per_replica", replica_rate, "tokens/s", [&] {
        return Explanation{"batch / decode_step_seconds", n(batch) + " / " + n(step) + " = " + n(replica_rate),
                           {input("batch", "sequences", user_given(batch)), e.decode_step_seconds.as_input()}};
    });
    e.per_gpu = explained_figure("tokens_per_second_per_gpu", replica_rate / tp, "tokens/s", [&] {
        return Explanation{"tokens_per_second_per_replica / tensor_parallel", n(replica_rate) + " / " + n(tp) + " = " + n(replica_rate / tp),
                           {e.per_replica.as_input(), input("tensor_parallel", "GPUs", user_or_default(e.fit.serving.tensor_parallel, tp, kDefaultTensorParallel))}};
    });
    e.per_instance = explained_figure("tokens_per_second_per_instance", replica_rate * e.replicas, "tokens/s", [&] {
        return Explanation{"tokens_per_second_per_replica x replicas (GPUs / tensor_parallel)", n(replica_rate) + " x " + n(e.replicas) + " = " + n(replica_rate * e.replicas),
                           {e.per_replica.as_input(), input("replicas", "", derived_param(e.replicas, "floor(GPUs / tensor_parallel)"))}};
    });
    e.inter_token_latency_seconds = same_as(e.decode_step_seconds, "inter_token_latency_seconds", "decode_step_seconds (no request arrives during decode)");
    e.output_tokens_per_second = same_as(e.per_instance, "output_tokens_per_second", "tokens_per_second_per_instance (every replica decoding)");
    e.output_tokens_per_second_per_replica = same_as(e.per_replica, "output_tokens_per_second_per_replica", "tokens_per_second_per_replica (decoding)");
}

Figure weight_read_seconds(const ParameterCount& c, double weight_bytes, double devices, const Param& bandwidth, const Param& efficiency) {
    const double bw = bandwidth.value, bw_eff = efficiency.value;
    const double v = c.active * weight_bytes / (devices * bw * 1e9 * bw_eff);
    return explained_figure("weight_read_seconds", v, "s", [&] {
        return Explanation{"active_parameters x bytes_per_weight / (devices x bandwidth x bandwidth_efficiency)",
                           n(c.active) + " x " + n(weight_bytes) + " / (" + n(devices) + " x " + n(bw) + "e9 x " + n(bw_eff) + ") = " + n(v),
                           {c.active_figure.as_input(), input("memory_bandwidth_gb_per_s", "GB/s", bandwidth), input("bandwidth_efficiency", "fraction", efficiency)}};
    });
}

void time_to_first_token_step(const ModelSpec& model, double batch, double devices, const NodeTopology* tp_topology, InferenceEstimate& e) {
    e.prefill_seconds = unknown_figure("prefill_seconds", "s", "prefill FLOPs / (devices x dense peak x efficiency)", e.peak.why);
    e.time_to_first_token_seconds = unknown_figure("time_to_first_token_seconds", "s", "max(prefill_seconds, weight_read_seconds)", e.peak.why);
    if (!e.peak.tflops) return;
    const double weight_read = val(e.weight_read_seconds);
    e.prefill_seconds = prefill_seconds(model, e.prompt_tokens, batch, devices, *e.peak.tflops, e.compute_efficiency);
    if (explaining()) {
        e.prefill_seconds.inputs.push_back(input("prompt_tokens", "tokens", user_given(e.prompt_tokens)));
        e.prefill_seconds.inputs.push_back(input("batch", "sequences", user_given(batch)));
    }
    const Figure tp_prefill = tensor_parallel_allreduce(tp_topology, model, e.tensor_parallel, batch * e.prompt_tokens, "tensor_parallel_prefill_seconds");
    const double v = std::max(val(e.prefill_seconds), weight_read) + val(tp_prefill);
    e.time_to_first_token_seconds = explained_figure("time_to_first_token_seconds", v, "s", [&] {
        return Explanation{"max(prefill_seconds, weight_read_seconds) + tensor-parallel all-reduces of the prompts: all prompts of the batch prefilled together",
                           "max(" + n(val(e.prefill_seconds)) + ", " + n(weight_read) + ") + " + n(val(tp_prefill)) + " = " + n(v),
                           {e.prefill_seconds.as_input(), e.weight_read_seconds.as_input(), tp_prefill.as_input(tp_prefill.worked)}};
    });
}

void under_load_step(const ModelSpec& model, double devices, const NodeTopology* tp_topology, InferenceEstimate& e) {
    if (!e.peak.tflops) {
        // Unknown, not "n/a": serving under load applies; its prefill time cannot be computed.
        const std::string_view peak_why = std::string_view(e.peak.why).substr(e.peak.why.rfind("n/a: ", 0) == 0 ? 5 : 0);
        const std::string why = "prefill time unknown: " + std::string(peak_why);
        for (auto [f, name, unit] : {std::tuple{&e.request_seconds, "request_seconds", "s"}, std::tuple{&e.prefill_share, "prefill_share", "fraction"},
                                     std::tuple{&e.inter_token_latency_seconds, "inter_token_latency_seconds", "s"},
                                     std::tuple{&e.output_tokens_per_second, "output_tokens_per_second", "tokens/s"},
                                     std::tuple{&e.output_tokens_per_second_per_replica, "output_tokens_per_second_per_replica", "tokens/s"}})
            *f = unknown_figure(name, unit, "closed-loop serving model (docs/models.md)", why);
        return;
    }
    const double weight_read = val(e.weight_read_seconds), step = val(e.decode_step_seconds);
    const Figure one_prefill = prefill_seconds(model, e.prompt_tokens, 1, devices, *e.peak.tflops, e.compute_efficiency);
    const Figure tp_prefill = tensor_parallel_allreduce(tp_topology, model, e.tensor_parallel, e.prompt_tokens, "tensor_parallel_prefill_seconds");
    const double prefill = std::max(val(one_prefill), weight_read) + val(tp_prefill);
    const ClosedLoop loop = closed_loop_serving({e.concurrency, e.output_tokens, prefill, step});
    e.request_seconds = loop.request_seconds;
    e.prefill_share = loop.prefill_share;
    e.inter_token_latency_seconds = loop.inter_token_latency_seconds;
    e.time_to_first_token_seconds = loop.time_to_first_token_seconds;
    const Param prefill_param{prefill, InputOrigin::derived, "max(one request's prefill " + n(val(one_prefill)) + " s, one weight read " + n(weight_read) +
                                                                 " s) + tensor-parallel all-reduces " + n(val(tp_prefill)) + " s"};
    for (Figure* f : {&e.request_seconds, &e.prefill_share, &e.inter_token_latency_seconds, &e.time_to_first_token_seconds})
        for (FigureInput& in : f->inputs) {
            if (in.name == "prefill_seconds") in = input("prefill_seconds", "s", prefill_param), in.rests_on_assumption = true;
            if (in.name == "decode_step_seconds") in = e.decode_step_seconds.as_input();
        }
    e.output_tokens_per_second_per_replica = loop.output_tokens_per_second;
    e.output_tokens_per_second_per_replica.name = "output_tokens_per_second_per_replica";
    if (!e.output_tokens_per_second_per_replica.inputs.empty()) e.output_tokens_per_second_per_replica.inputs.back().rests_on_assumption = true;
    const double per_instance = val(loop.output_tokens_per_second) * e.replicas;
    e.output_tokens_per_second = {.name = "output_tokens_per_second", .value = per_instance, .unit = "tokens/s",
                                  .formula = "concurrency x output_tokens / request_seconds x replicas (prefills included)",
                                  .worked = n(val(loop.output_tokens_per_second)) + " x " + n(e.replicas) + " = " + n(per_instance),
                                  .inputs = {loop.output_tokens_per_second.as_input(), input("replicas", "", derived_param(e.replicas, "floor(GPUs / tensor_parallel)"))}};
    if (!e.output_tokens_per_second.inputs.empty()) e.output_tokens_per_second.inputs.front().rests_on_assumption = true;
}

void cost_step(const Catalog& catalog, const std::string& region, InferenceEstimate& e) {
    const auto cost = [&](PriceKind option, const std::string& name) {
        const Instance& instance = *e.pool.instance;
        const std::optional<Param> price = catalog_price(catalog, instance, region, option);
        const char* formula = "usd_per_hour / (tokens_per_second x 3600) x 1e6";
        if (!price) return unknown_figure(name, "USD/1M tokens", formula, price_unknown_reason(instance, region, option));
        // An unknown rate (a GPU whose peak for this dtype is not published) makes the cost
        // unknown for the same reason, never a NaN refused as bad input.
        if (!e.output_tokens_per_second.value)
            return unknown_figure(name, "USD/1M tokens", formula, "tokens per second unknown: " + e.output_tokens_per_second.unknown_reason);
        Figure f = usd_per_million_tokens(*price, {val(e.output_tokens_per_second), InputOrigin::derived, ""});
        f.name = name;
        if (explaining()) f.inputs[1] = e.output_tokens_per_second.as_input();  // carries the assumption flag of the efficiencies
        return f;
    };
    e.usd_per_million_tokens_on_demand = cost(PriceKind::on_demand, "usd_per_million_tokens_on_demand");
    e.usd_per_million_tokens_spot = cost(PriceKind::spot_typical, "usd_per_million_tokens_spot");
}

}  // namespace inference_steps

// The steps (inference_steps.hpp), chained. Memory first: a request that does not fit has no
// throughput (the caller refuses it with e.fit.refusal).
InferenceEstimate estimate_inference(const Catalog& catalog, const InferenceEstimateRequest& q) {
    using namespace inference_steps;
    InferenceEstimate e;
    const ModelSpec& model = *q.serving.model;
    const InferenceFitRequest asked = resolve_request(catalog, q, e);
    e.quota = quota_line(*e.pool.instance, 1, PriceKind::on_demand, q.quotas);
    e.fit = check_inference_fit(asked, e.pool);
    if (!e.fit.fits) return e;
    const InferenceMemoryRequest& mq = e.fit.request;
    rates_step(q, e);

    // Devices one replica uses (a slice counts its share of the chip) and replicas per instance.
    const double tp = e.tensor_parallel, devices = tp * e.pool.slice, batch = asked.batch;
    e.replicas = std::floor(e.pool.gpus_per_node / tp);
    const ParameterCount c = count_parameters(model);
    e.roofline = decode_roofline(model, mq.weight_bytes, mq.kv_bytes, batch, e.decode_context, devices, e.bandwidth, e.bandwidth_efficiency);
    e.compute_ceiling = compute_ceiling(model, c, devices, e.decode_context, e.peak, e.compute_efficiency);
    // The node's links, built once for the decode step and the prefills.
    if (q.node && q.node->instance != e.pool.instance->name)
        throw std::logic_error("estimate_inference: the node given is not " + e.pool.instance->name + "'s");
    std::optional<NodeTopology> built_node;
    if (tp > 1 && !q.node) built_node = node_topology(catalog, *e.pool.instance);
    const NodeTopology* tp_topology = tp <= 1 ? nullptr : q.node ? q.node : &*built_node;
    decode_step(q, batch, tp_topology, e);
    e.weight_read_seconds = weight_read_seconds(c, mq.weight_bytes, devices, e.bandwidth, e.bandwidth_efficiency);
    time_to_first_token_step(model, batch, devices, tp_topology, e);
    if (e.under_load) under_load_step(model, devices, tp_topology, e);
    cost_step(catalog, q.region, e);
    return e;
}

std::vector<std::pair<std::string, const Figure*>> InferenceEstimate::figures() const {
    std::vector<std::pair<std::string, const Figure*>> v = {{fit.parameters.name, &fit.parameters},
            {roofline.bytes_per_step.name, &roofline.bytes_per_step},
            {roofline.steps_per_second.name, &roofline.steps_per_second},
            {roofline.tokens_per_second.name, &roofline.tokens_per_second},
            // decode_roofline names its expected figure "tokens_per_second": say it is the memory-bound one.
            {"tokens_per_second_memory_expected", &roofline.tokens_per_second_expected},
            {compute_ceiling.name, &compute_ceiling},
            {per_replica.name, &per_replica},
            {per_gpu.name, &per_gpu},
            {per_instance.name, &per_instance},
            {tensor_parallel_seconds_per_step.name, &tensor_parallel_seconds_per_step},
            {step_overhead_seconds.name, &step_overhead_seconds},
            {decode_step_seconds.name, &decode_step_seconds},
            {inter_token_latency_seconds.name, &inter_token_latency_seconds},
            {output_tokens_per_second.name, &output_tokens_per_second},
            {output_tokens_per_second_per_replica.name, &output_tokens_per_second_per_replica}};
    if (under_load) v.insert(v.end(), {{request_seconds.name, &request_seconds}, {prefill_share.name, &prefill_share}});
    v.insert(v.end(), {{prefill_seconds.name, &prefill_seconds},
            {weight_read_seconds.name, &weight_read_seconds},
            {time_to_first_token_seconds.name, &time_to_first_token_seconds},
            {usd_per_million_tokens_on_demand.name, &usd_per_million_tokens_on_demand},
            {usd_per_million_tokens_spot.name, &usd_per_million_tokens_spot},
            {fit.memory.weights_gb.name, &fit.memory.weights_gb},
            {fit.memory.kv_cache_gb.name, &fit.memory.kv_cache_gb},
            {fit.memory.overhead_gb.name, &fit.memory.overhead_gb},
            {fit.memory.total_gb.name, &fit.memory.total_gb},
            {fit.capacity_gb.name, &fit.capacity_gb},
            {fit.margin_gb.name, &fit.margin_gb},
            {fit.max_batch.name, &fit.max_batch}});
    return v;
}

nlohmann::json to_json(const InferenceEstimate& e) {
    if (!e.fit.fits)  // nothing but the memory answer was computed
        return {{"model", e.fit.serving.model->name}, {"instance", e.pool.instance->name}, {"region", e.region},
                {"fits", false}, {"refusal", e.fit.refusal}, {"memory_verdict", e.fit.verdict}};
    nlohmann::json figs = nlohmann::json::object();
    for (const auto& [name, f] : e.figures()) figs[name] = figure_json(*f);
    const InferenceFitRequest& s = e.fit.serving;
    return {{"model", s.model->name},
            {"instance", e.pool.instance->name},
            {"region", e.region},
            {"serving",
             {{"dtype", s.dtype}, {"kv_dtype", s.kv_dtype}, {"batch", s.batch}, {"context", s.context}, {"prompt_tokens", e.prompt_tokens},
              {"under_load", e.under_load}, {"concurrency", e.under_load ? nlohmann::json(e.concurrency) : nlohmann::json(nullptr)},
              {"output_tokens", e.under_load ? nlohmann::json(e.output_tokens) : nlohmann::json(nullptr)}, {"decode_context", e.decode_context},
              {"tensor_parallel", e.tensor_parallel}, {"replicas", e.replicas}}},
            {"bandwidth", {{"gb_per_s", e.bandwidth.value}, {"measured", e.bandwidth_measured}, {"source", e.bandwidth.source}}},
            {"bound", e.compute_bound ? "compute" : "memory bandwidth"},
            {"fits", true},
            {"memory_verdict", e.fit.verdict},
            {"figures", figs},
            {"quota", to_json(e.quota)}};
}

}  // namespace gpuplan
