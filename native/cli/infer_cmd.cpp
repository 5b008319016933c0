// infer_cmd.cpp — `gpuplan infer`: decode throughput, time to first token and cost per 1M
// tokens of one model on one instance type.
//
// Flags → InferenceEstimateRequest → estimate_inference (core/gpuplan/workload/inference.hpp:
// the memory-bound decode roofline capped by the compute ceiling, prefill, $ per 1M tokens) →
// a table and notes. A request that does not fit in the GPUs' memory is refused (exit 2) with
// the reason: see `gpuplan fit`.
#include <algorithm>
#include <memory>
#include "gpuplan/formula_text.hpp"

#include <fmt/format.h>

#include "commands.hpp"
#include "gpuplan/workload/inference.hpp"
#include "traffic_view.hpp"

namespace gpuplan::cli {

namespace {

double val_or0(const Figure& f) { return f.value.value_or(0); }

std::string two(double x) { return decimals(x, 2); }
std::string seconds(double s) {
    if (!std::isfinite(s)) return std::string(kUnknown);
    return s < 1 ? fmt::format("{:.4g} ms", s * 1e3) : fmt::format("{:.4g} s", s);
}
std::string gigabytes(double bytes) { return decimals(bytes / kBytesPerGB, 2) + " GB"; }

struct InferOptions {
    std::string model, instance, region = "us-east-1", dtype = "bf16", kv_dtype = "bf16";
    std::vector<std::string> models_files;
    Notes notes;  // the command's: what a config.json left out
    double batch = 1, context = 8192, prompt_tokens = 0, output_tokens = 0, tp = 0, overhead_gib = 0;
    std::string concurrency;
    double bandwidth_efficiency = 0, compute_efficiency = 0, measured_bandwidth = 0, step_overhead_seconds = 0, step_overhead_ms = 0;
    bool explain = false;
    Format format = Format::table;
    TrafficFlags traffic;
    std::vector<std::string> quotas;
    CLI::App* app = nullptr;
    bool given(const char* flag) const { return app->count(flag) > 0; }
    std::optional<double> if_given(const char* flag, double v) const { return given(flag) ? std::optional<double>(v) : std::nullopt; }
};

// Core request fields named as the flags that set them.
const std::vector<std::pair<std::string, std::string>> kInferFlagOf = {
    {"tensor_parallel", "--tp"}, {"prompt_tokens", "--prompt-tokens"}, {"instance", "--instance"}, {"region", "--region"}};

// --concurrency N|max: N requests in flight, or as many as fit (nullopt).
std::optional<double> concurrency_of(const std::string& text) {
    if (text == "max") return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !(v >= 1) || std::floor(v) != v || v > 1e9)
        throw InputError("--concurrency", "'" + text + "'", "a whole number of requests in flight >= 1, or max (as many as fit in memory)");
    return v;
}

// --rate: the replicas and instances that serve the traffic to its latency targets.
std::string run_infer_traffic(const Catalog& catalog, const InferOptions& o, const InferenceEstimateRequest& q) {
    for (const char* flag : {"--batch", "--context", "--prompt-tokens", "--output-tokens", "--concurrency"})
        if (o.given(flag))
            throw InputError(std::string(flag) + ": not with --rate (the traffic's lengths are --prompt-tokens-dist and --output-tokens-dist; the batch follows from the simulation)");
    const TrafficRequest traffic = traffic_request(o.traffic);
    ServingTrafficPlan plan;
    try {
        plan = plan_serving_traffic(catalog, q, traffic, o.traffic.max_batch);
    } catch (const InputError& error) {
        rethrow_for_flag(error, {{"tensor_parallel", "--tp"}, {"instance", "--instance"}, {"region", "--region"}, {"requests_per_second", "--rate"},
                                 {"prompt_tokens", "--prompt-tokens-dist"}, {"percentile", "--target"}});
    }
    if (!plan.estimate.fit.fits)
        throw InputError("--prompt-tokens-dist", q.serving.model->name + " with one request of the longest prompt + output (" +
                             n(traffic.prompt.max() + traffic.output.max()) + " tokens)",
                         "a request that fits: " + plan.estimate.fit.refusal);
    return render_traffic_plan(plan, traffic, account_quotas(o.quotas), o.format, o.explain);
}

std::string run_infer(const Catalog& catalog, const InferOptions& o) {
    const std::vector<ModelSpec> models = load_models_with_files(o.models_files, o.notes);
    InferenceEstimateRequest q;
    q.serving.model = &require_model(models, o.model, "--model");
    q.serving.dtype = o.dtype;
    q.serving.kv_dtype = o.kv_dtype;
    q.serving.batch = o.batch;
    q.serving.context = o.context;
    q.serving.tensor_parallel = o.if_given("--tp", o.tp);
    q.serving.overhead_gib = o.if_given("--overhead-gib", o.overhead_gib);
    q.instance = require_instance(catalog, o.instance, "--instance").name;
    q.region = o.region;
    q.prompt_tokens = o.if_given("--prompt-tokens", o.prompt_tokens);
    q.bandwidth_efficiency = o.if_given("--bandwidth-efficiency", o.bandwidth_efficiency);
    q.compute_efficiency = o.if_given("--compute-efficiency", o.compute_efficiency);
    q.measured_bandwidth_gb_per_s = o.if_given("--measured-bandwidth-gb-per-s", o.measured_bandwidth);
    q.step_overhead_seconds = o.if_given("--step-overhead-seconds", o.step_overhead_seconds);
    q.quotas = account_quotas(o.quotas);
    if (o.given("--step-overhead-ms")) q.step_overhead_seconds = o.step_overhead_ms / 1e3;  // the old spelling (a note says so)
    if (o.traffic.given()) return run_infer_traffic(catalog, o, q);
    traffic_request(o.traffic);  // refuses traffic flags without --rate
    if (o.given("--output-tokens")) {
        for (const char* flag : {"--batch", "--context"})
            if (o.given(flag))
                throw InputError(std::string(flag) + ": not with --output-tokens (under load the batch is --concurrency and the context --prompt-tokens + --output-tokens)");
        if (!o.given("--prompt-tokens")) throw InputError("--prompt-tokens: required with --output-tokens (serving under load)");
        q.output_tokens = o.output_tokens;
        q.concurrency = concurrency_of(o.concurrency.empty() ? std::string("1") : o.concurrency);
    } else if (o.given("--concurrency")) {
        throw InputError("--concurrency: needs --output-tokens and --prompt-tokens (serving under load)");
    }
    if (!o.given("--output-tokens") && o.given("--prompt-tokens") && o.prompt_tokens > o.context)
        throw InputError("--prompt-tokens", n(o.prompt_tokens), "at most --context (" + n(o.context) + "): the prompt is part of the context");
    InferenceEstimate e;
    try {
        e = estimate_inference(catalog, q);
    } catch (const InputError& error) {
        rethrow_for_flag(error, kInferFlagOf);
    }
    const GpuPool& pool = e.pool;
    const double tp = e.tensor_parallel, prompt = e.prompt_tokens;
    if (!e.fit.fits)
        throw InputError(e.fit.refusal + " (details: gpuplan fit --model " + q.serving.model->name + " --mode inference --instance " + pool.instance->name + " --tp " +
                         n(tp) + " --dtype " + o.dtype + " --kv-dtype " + o.kv_dtype + " --batch " + n(e.fit.serving.batch) + " --context " + n(e.fit.serving.context) + ")");

    NamedFigures named;
    for (const auto& [name, f] : e.figures()) named.emplace_back(name, figure_json(*f));
    if (o.format == Format::json) return dump_json(to_json(e));
    if (o.format == Format::csv) return figures_csv(named);

    const DecodeRoofline& dr = e.roofline;
    // An unknown figure shows "unknown (1)" and its reason once under the table: a reason is
    // often a sentence, and several figures share one.
    std::vector<std::string> reasons;
    const auto row = [&reasons](std::string label, const Figure& f, std::string (*format)(double), std::string unit = "") {
        const bool s = f.rests_on_assumption();
        if (!f.value) {
            auto at = std::find(reasons.begin(), reasons.end(), f.unknown_reason);
            if (at == reasons.end()) at = reasons.insert(at, f.unknown_reason);
            const std::string mark = " (" + std::to_string(at - reasons.begin() + 1) + ")";
            return std::vector<Cell>{text_cell(std::move(label)), text_cell(std::string(missing_text(f.unknown_reason)) + mark)};
        }
        return std::vector<Cell>{text_cell(std::move(label)), {format(*f.value) + unit + (s ? "*" : ""), full_precision(*f.value)}};
    };
    Table t;
    t.columns = {{"figure", "figure", false}, {"value", "value"}};
    t.rows.push_back(row("bytes read per decode step", dr.bytes_per_step, gigabytes));
    t.rows.push_back(row("decode steps/s, upper bound", dr.steps_per_second, two));
    t.rows.push_back(row(std::string("tokens/s upper bound (memory roofline, 100% of ") + (e.bandwidth_measured ? "measured" : "datasheet") + " bandwidth)",
                         dr.tokens_per_second, two));
    t.rows.push_back(row("tokens/s memory-bound at " + percent(e.bandwidth_efficiency.value) + " bandwidth", dr.tokens_per_second_expected, two));
    t.rows.push_back(row("tokens/s compute ceiling at " + percent(e.compute_efficiency.value) + " of dense " + (e.peak.basis.empty() ? "peak" : e.peak.basis),
                         e.compute_ceiling, two));
    if (e.replicas > 1 || tp > 1) t.rows.push_back(row("tokens/s expected per replica (tp " + n(tp) + ")", e.per_replica, two));
    t.rows.push_back(row("tokens/s expected per GPU", e.per_gpu, two));
    t.rows.push_back(row("tokens/s expected per instance", e.per_instance, two));
    if (e.under_load) {
        t.rows.push_back(row("decode step, " + quantity(e.concurrency) + " requests at " + quantity(e.decode_context) + " tokens (average)", e.decode_step_seconds, seconds));
        t.rows.push_back(row("share of time in prefills of arriving requests", e.prefill_share, [](double x) { return percent(x); }));
        t.rows.push_back(row("inter-token latency under load", e.inter_token_latency_seconds, seconds));
        t.rows.push_back(row("time to first token under load (" + quantity(prompt) + "-token prompt)", e.time_to_first_token_seconds, seconds));
        t.rows.push_back(row("request time (first token + " + quantity(e.output_tokens) + " output tokens)", e.request_seconds, seconds));
        t.rows.push_back(row("output tokens/s per instance, prefills included", e.output_tokens_per_second, two));
    } else {
        t.rows.push_back(row("inter-token latency (one decode step)", e.inter_token_latency_seconds, seconds));
        t.rows.push_back(row("time to first token (" + quantity(o.batch) + " x " + quantity(prompt) + "-token prompt" + (o.batch == 1 ? "" : "s") + ")",
                             e.time_to_first_token_seconds, seconds));
    }
    t.rows.push_back(row("$ per 1M tokens, on-demand", e.usd_per_million_tokens_on_demand, rate));
    t.rows.push_back(row("$ per 1M tokens, spot (typical)", e.usd_per_million_tokens_spot, rate));

    const std::string bw_text = n(e.bandwidth.value) + " GB/s per GPU" + (pool.slice < 1 ? " (x " + n(pool.slice) + " slice)" : "") +
                                (e.bandwidth_measured ? " (measured, --measured-bandwidth-gb-per-s)" : " (" + pool.accelerator_name + " datasheet, catalog)");
    std::string out = q.serving.model->name + " on " + pool.label + " in " + o.region + "\n";
    if (e.under_load)
        out += "serving under load: " + quantity(e.concurrency) + " request" + (e.concurrency == 1 ? "" : "s") + " in flight" +
               (o.concurrency == "max" ? " (as many as fit)" : "") + ", each " + quantity(prompt) + " prompt + " + quantity(e.output_tokens) +
               " output tokens (continuous batching, docs/models.md)\n";
    out += "serving: " + o.dtype + " weights, " + o.kv_dtype + " KV cache, batch " + quantity(e.fit.serving.batch) + " x context " + quantity(e.fit.serving.context) + " token" +
           (e.fit.serving.context == 1 ? "" : "s") + ", tensor parallel " + n(tp) + ", " + n(e.replicas) + " replica" + (e.replicas == 1 ? "" : "s") + " per instance\n";
    out += "memory bandwidth " + bw_text + "; dense " +
           (e.peak.tflops ? e.peak.basis + " " + n(e.peak.tflops->value) + " TFLOPS per GPU (catalog)" : "peak " + missing_with_reason(e.peak.why)) + "\n\n";
    out += render_table(t, o.format);

    std::string after = "\n";
    for (std::size_t k = 0; k < reasons.size(); ++k) after += "(" + std::to_string(k + 1) + ") " + missing_with_reason(reasons[k]) + "\n";
    if (!reasons.empty()) after += "\n";
    after += std::string("bound: ") +
             (e.compute_bound ? "compute — the compute ceiling is below the memory-bound rate at this batch."
                              : "memory bandwidth — each step reads every weight once plus the KV cache of every sequence.") +
             "\n";
    if (e.bandwidth_measured) after += "bandwidth: measured (" + n(e.bandwidth.value) + " GB/s, --measured-bandwidth-gb-per-s), in place of the datasheet figure.\n";
    std::string memory_line = e.fit.verdict.substr(0, e.fit.verdict.find('\n') + 1);
    if (memory_line.rfind("fits: yes — ", 0) == 0) memory_line = "fits — " + memory_line.substr(std::string("fits: yes — ").size());
    after += "memory: " + memory_line;
    after += e.quota.words + "\n";
    if (o.dtype == "int8" || o.dtype == "int4") after += "note: " + o.dtype + " is taken as weight-only quantization: the math runs at the bf16 peak.\n";
    if (o.dtype == "fp8" && e.peak.basis != "fp8") after += "note: no FP8 peak for " + pool.accelerator_name + " in the catalog; the bf16 peak is used.\n";
    if (tensor_parallel_over_pcie(tp, pool))
        after += "warning: tensor parallel " + n(tp) + " over PCIe (" + pool.instance->name + " has no NVLink): each layer's two all-reduces cross PCIe; the step time counts them at PCIe bandwidth "
                 "(tensor_parallel_seconds_per_step), and replicas of a smaller layout often serve more.\n";
    std::vector<KeyValue> used;
    const auto note_default = [&](const char* flag, const Param& p) {
        if (p.origin == InputOrigin::assumption) used.push_back({flag, fmt::format("{:<9} {}", n(p.value), p.source)});
    };
    note_default("--bandwidth-efficiency", e.bandwidth_efficiency);
    note_default("--compute-efficiency", e.compute_efficiency);
    if (e.step_overhead_seconds.rests_on_assumption())
        used.push_back({"--step-overhead-seconds", fmt::format("{:<9} {}", n(val_or0(e.step_overhead_seconds)), "default fixed cost per decode step (fitted on the calibration case V-I1, docs/accuracy.md)")});
    note_default("--overhead-gib", e.fit.request.runtime_overhead_gib);
    bool any_star = false;
    for (const auto& [name, f] : e.figures()) any_star = any_star || f->rests_on_assumption();
    if (any_star && !used.empty())
        after += "\n* rests on a default assumption (docs/models.md); override with the flag named:\n" + render_key_values(used, "    ");
    if (o.explain) after += explain_all(named);
    return out + notes_block(after, o.format);
}

}  // namespace

Command register_infer(CLI::App& parent) {
    auto o = std::make_shared<InferOptions>();
    CLI::App* app = parent.add_subcommand("infer", "Decode tokens/s, time to first token and $ per 1M tokens of a model on an instance type");
    o->app = app;
    app->add_option("--model", o->model, "Model preset (see `gpuplan models`) or a model from --models-file / --model-config (required unless one config.json is given)")->type_name("NAME");
    add_models_file_option(*app, o->models_files);
    app->add_option("--instance", o->instance, "Instance type (see `gpuplan catalog`)")->required()->type_name("TYPE");
    add_region_option(*app, o->region);
    app->add_option("--dtype", o->dtype, "Weight dtype bf16|fp16|fp8|int8|int4")->capture_default_str()->transform(choice_rule({"bf16", "fp16", "fp8", "int8", "int4"}));
    app->add_option("--kv-dtype", o->kv_dtype, "KV cache dtype bf16|fp16|fp8")->capture_default_str()->transform(choice_rule({"bf16", "fp16", "fp8"}));
    app->add_option("--batch", o->batch, "Concurrent sequences decoded together")->capture_default_str()->check(whole_rule(1));
    app->add_option("--context", o->context, "Tokens of KV cache per sequence (prompt + output so far)")->capture_default_str()->check(whole_rule(1));
    app->add_option("--prompt-tokens", o->prompt_tokens, "Prompt length for time to first token (default: the whole --context)")->check(whole_rule(1));
    app->add_option("--output-tokens", o->output_tokens,
                    "Serving under load: tokens generated per request; with --prompt-tokens and --concurrency, latencies and throughput "
                    "come from the continuous-batching model (prefills of arriving requests interleave with decode)")
        ->check(whole_rule(1));
    app->add_option("--concurrency", o->concurrency, "Serving under load: requests in flight per replica (a whole number), or max: as many as fit in memory (default 1)")
        ->type_name("N|max");
    app->add_option("--tp,--tensor-parallel", o->tp, "Tensor parallel degree (default: every GPU of the instance); the instance runs GPUs / tp replicas")->check(whole_rule(1));
    app->add_option("--bandwidth-efficiency", o->bandwidth_efficiency,
                    "Achieved / datasheet memory bandwidth in decode (default " + n(default_bandwidth_efficiency().value) + "; 1 with a measured bandwidth)")
        ->check(efficiency_rule("0.8 = 80%"));
    app->add_option("--compute-efficiency", o->compute_efficiency,
                    "Achieved share of dense peak FLOPS in prefill (default " + n(default_compute_efficiency().value) + ")")
        ->check(efficiency_rule("0.8 = 80%"));
    Command command{app, nullptr};
    o->notes = command.notes;
    CLI::Option* seconds = app->add_option("--step-overhead-seconds", o->step_overhead_seconds,
                                           "Fixed cost of each decode step outside the roofline, in seconds (default " +
                                               n(default_decode_step_overhead().value.value_or(0)) + ", fitted on a calibration case: docs/accuracy.md)")
                               ->check(number_rule(NumberRule::non_negative));
    // The flag's spelling before 2026-11-29, in ms; the scenario's key was always in seconds.
    app->add_option("--step-overhead-ms", o->step_overhead_ms, "Old spelling of --step-overhead-seconds, in ms (still read, with a note)")
        ->check(number_rule(NumberRule::non_negative))
        ->excludes(seconds)
        ->each([notes = command.notes](const std::string& ms) {
            notes->push_back("--step-overhead-ms " + ms + " is now written --step-overhead-seconds " + n(std::stod(ms) / 1e3));
        });
    app->add_option("--measured-bandwidth-gb-per-s", o->measured_bandwidth, "Measured device-memory bandwidth (GB/s per GPU) in place of the datasheet figure")
        ->check(number_rule(NumberRule::positive));
    app->add_option("--overhead-gib", o->overhead_gib, "Runtime overhead per GPU in GiB for the memory check (default " + n(default_runtime_overhead_gib().value) + ")")
        ->check(number_rule(NumberRule::non_negative));
    add_traffic_options(*app, o->traffic, true);
    add_quota_option(*app, o->quotas);
    app->add_flag("--explain", o->explain, "After the table, show each figure's formula, worked line and inputs with their origins");
    add_format_option(*app, o->format, {Format::table, Format::json, Format::csv, Format::md});
    app->footer(R"(Decode is memory-bound: tokens/s <= bandwidth / (weights + KV cache of every sequence) x batch
(docs/models.md). The expected rate applies --bandwidth-efficiency and is capped by
the compute ceiling; time to first token is prefill at --compute-efficiency of the dense peak.
$ per 1M tokens = $/h / (tokens/s x 3600) x 1e6 at the catalog's on-demand and typical spot price.
A request that does not fit in GPU memory is refused (exit 2); `gpuplan fit` shows why.
Figures marked "*" rest on a documented default (docs/models.md).
Examples:
  gpuplan infer --model llama-3-8b --instance g6e.xlarge
  gpuplan infer --model llama-3-8b --instance g6e.xlarge --batch 32 --context 2048 --bandwidth-efficiency 1
  gpuplan infer --model llama-3.1-70b --instance g6e.12xlarge --dtype fp8 --tp 4 --explain
  gpuplan infer --model llama-3-8b --instance g6e.xlarge --measured-bandwidth-gb-per-s 700 --format json
  gpuplan infer --model llama-3.1-8b --instance g6e.xlarge --rate 5 --prompt-tokens-dist uniform:200:2000 --output-tokens-dist exponential:300:2000 --target-p95-ttft-ms 1000)");
    command.run = [o](const Catalog& c) { return run_infer(c, *o); };
    return command;
}

}  // namespace gpuplan::cli
