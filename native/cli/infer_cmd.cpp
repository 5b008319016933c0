// infer_cmd.cpp — `gpuplan infer`: decode throughput, time to first token and cost per 1M
// tokens of one model on one instance type.
//
// Decode is memory-bound: each step reads every weight once plus the KV cache of every
// sequence (decode_roofline, core/gpuplan/workload/compute.hpp; shared/cases/workloads.md W3).
// The expected rate applies a bandwidth efficiency (a documented default, or 1 with a measured
// bandwidth) and is capped by the compute ceiling; time to first token is prefill (compute-
// bound, prefill_seconds) but never less than one read of the weights. Cost per 1M tokens
// uses the catalog's on-demand and spot prices (usd_per_million_tokens). A request that does
// not fit in the GPUs' memory is refused (exit 2) with the reason: see `gpuplan fit`.
#include <algorithm>
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "gpuplan/pricing/purchase_options.hpp"
#include "gpuplan/pricing/unit_cost.hpp"
#include "gpuplan/workload/compute.hpp"

namespace gpuplan::cli {

namespace {

std::string n(double x) { return format_number(x); }
Param user(double v) { return {v, InputOrigin::user, ""}; }
double val(const Figure& f) { return f.value.value_or(NAN); }

std::string two(double x) { return decimals(x, 2); }
std::string seconds(double s) {
    if (!std::isfinite(s)) return std::string(kUnknown);
    return s < 1 ? fmt::format("{:.4g} ms", s * 1e3) : fmt::format("{:.4g} s", s);
}
std::string gigabytes(double bytes) { return decimals(bytes / kBytesPerGB, 2) + " GB"; }

struct InferOptions {
    std::string model, instance, region = "us-east-1", dtype = "bf16", kv_dtype = "bf16";
    std::vector<std::string> models_files;
    double batch = 1, context = 8192, prompt_tokens = 0, tp = 0, overhead_gib = 0;
    double bandwidth_efficiency = 0, compute_efficiency = 0, measured_bandwidth = 0;
    bool explain = false;
    Format format = Format::table;
    CLI::App* app = nullptr;
    bool given(const char* flag) const { return app->count(flag) > 0; }
};

// Dense peak for the dtype the matrix multiplies run in: bf16/fp16 as named, fp8 on FP8
// tensor cores; int8/int4 are weight-only quantization, dequantized to bf16 for the math.
struct Peak {
    std::optional<Param> tflops;
    std::string basis;  // "bf16", "fp8"
    std::string why;    // when unknown
};

Peak peak_for(const Accelerator* acc, const std::string& dtype) {
    Peak p;
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
    const auto reason = [&](const std::string& field) {
        const auto it = acc->unknown.find("dense_tflops." + field);
        return it == acc->unknown.end() ? "dense " + field + " TFLOPS of " + acc->name + " unknown" : it->second;
    };
    if (dtype == "fp8" && take(acc->dense_tflops.fp8, "fp8")) return p;
    if (dtype == "fp16" && take(acc->dense_tflops.fp16, "fp16")) return p;
    if (take(acc->dense_tflops.bf16, "bf16")) return p;
    p.why = reason("bf16");
    return p;
}

std::string run_infer(const Catalog& catalog, const InferOptions& o) {
    const std::vector<ModelSpec> models = load_models_with_files(o.models_files);
    const ModelSpec& model = require_model(models, o.model, "--model");
    const GpuPool pool = instance_pool(catalog, o.instance, 1, "--instance");
    require_region(catalog, o.region, "--region");
    const double tp = o.given("--tp") ? o.tp : pool.gpus_per_node;
    check_tensor_parallel(tp, pool, "--tp");
    const double prompt = o.given("--prompt-tokens") ? o.prompt_tokens : o.context;
    if (prompt > o.context) throw InputError("--prompt-tokens", n(prompt), "at most --context (" + n(o.context) + "): the prompt is part of the context");

    // Memory first: a request that does not fit is refused with the reason.
    const InferenceMemoryRequest mq = inference_request(model, o.dtype, o.kv_dtype, o.batch, o.context, tp,
                                                        o.given("--overhead-gib") ? std::optional<double>(o.overhead_gib) : std::nullopt);
    const InferenceFit fit = check_inference_fit(mq, pool, o.dtype, o.kv_dtype);
    if (!fit.fits)
        throw InputError(fit.refusal + " (details: gpuplan fit --model " + model.name + " --mode inference --instance " + pool.instance->name + " --tp " +
                         n(tp) + " --dtype " + o.dtype + " --kv-dtype " + o.kv_dtype + " --batch " + n(o.batch) + " --context " + n(o.context) + ")");

    // Bandwidth: measured if given, else the datasheet figure from the catalog.
    const bool measured = o.given("--measured-bandwidth-gb-per-s");
    Param bandwidth;
    if (measured) {
        bandwidth = {o.measured_bandwidth, InputOrigin::user, "measured device-memory bandwidth (--measured-bandwidth-gb-per-s)"};
    } else if (pool.accelerator && pool.accelerator->memory_bandwidth_gb_per_s) {
        bandwidth = {*pool.accelerator->memory_bandwidth_gb_per_s, InputOrigin::catalog,
                     "catalog accelerator " + pool.accelerator->name + " memory_bandwidth_gb_per_s (datasheet)"};
    } else {
        const std::string why = pool.accelerator ? pool.accelerator->unknown.count("memory_bandwidth_gb_per_s")
                                                       ? pool.accelerator->unknown.at("memory_bandwidth_gb_per_s")
                                                       : std::string("not in the catalog")
                                                 : std::string("accelerator unknown");
        throw InputError("--instance", "'" + pool.instance->name + "'",
                         "an instance whose memory bandwidth is known (" + why + "), or give --measured-bandwidth-gb-per-s");
    }
    Param bw_eff = default_bandwidth_efficiency();
    if (o.given("--bandwidth-efficiency"))
        bw_eff = user(o.bandwidth_efficiency);
    else if (measured)
        bw_eff = {1.0, InputOrigin::user, "1: a measured bandwidth is already what the device achieves (--bandwidth-efficiency overrides)"};
    const Param compute_eff = o.given("--compute-efficiency") ? user(o.compute_efficiency) : default_compute_efficiency();
    const Peak peak = peak_for(pool.accelerator, o.dtype);

    // Devices one replica uses (a slice counts its share of the chip) and replicas per instance.
    const double devices = tp * pool.slice;
    const double replicas = std::floor(pool.gpus_per_node / tp);
    const ParameterCount c = count_parameters(model);

    const DecodeRoofline dr = decode_roofline(model, mq.weight_bytes, mq.kv_bytes, o.batch, o.context, devices, bandwidth, bw_eff);

    // Compute ceiling of decode: every token costs 2 x active parameters + attention over the context.
    const double attn_dim = model.mla ? model.heads * (model.mla->qk_nope_head_dim + model.mla->qk_rope_head_dim) : model.heads * model.head_dim;
    const double flops_per_token = 2 * c.active + 4 * model.layers * o.context * attn_dim;
    Figure ceiling = unknown_figure("tokens_per_second_compute_ceiling", "tokens/s",
                                    "devices x dense_peak_tflops x 1e12 x compute_efficiency / (2 x active_parameters + 4 x layers x context x heads x head_dim)",
                                    peak.why);
    if (peak.tflops) {
        const double v = devices * peak.tflops->value * 1e12 * compute_eff.value / flops_per_token;
        ceiling.value = v;
        ceiling.unknown_reason.clear();
        ceiling.worked = n(devices) + " x " + n(peak.tflops->value) + "e12 x " + n(compute_eff.value) + " / (2 x " + n(c.active) + " + 4 x " + n(model.layers) +
                         " x " + n(o.context) + " x " + n(attn_dim) + ") = " + n(v);
        ceiling.inputs = {c.active_figure.as_input(), input("dense_peak_tflops", "TFLOPS", *peak.tflops), input("compute_efficiency", "fraction", compute_eff),
                          input("context", "tokens", user(o.context))};
    }
    const double memory_rate = val(dr.tokens_per_second_expected);
    const bool compute_bound = ceiling.value && *ceiling.value < memory_rate;
    const double replica_rate = compute_bound ? *ceiling.value : memory_rate;
    Figure per_replica = {"tokens_per_second_per_replica", replica_rate, "tokens/s",
                          "min(tokens_per_second_memory_expected, tokens_per_second_compute_ceiling)",
                          "min(" + n(memory_rate) + ", " + (ceiling.value ? n(*ceiling.value) : std::string("unknown")) + ") = " + n(replica_rate) +
                              (compute_bound ? " (compute-bound)" : " (memory-bound)"),
                          {compute_bound ? ceiling.as_input() : dr.tokens_per_second_expected.as_input()}, ""};
    Figure per_gpu = {"tokens_per_second_per_gpu", replica_rate / tp, "tokens/s", "tokens_per_second_per_replica / tensor_parallel",
                      n(replica_rate) + " / " + n(tp) + " = " + n(replica_rate / tp), {per_replica.as_input(), input("tensor_parallel", "GPUs", user(tp))}, ""};
    Figure per_instance = {"tokens_per_second_per_instance", replica_rate * replicas, "tokens/s", "tokens_per_second_per_replica x replicas (GPUs / tensor_parallel)",
                           n(replica_rate) + " x " + n(replicas) + " = " + n(replica_rate * replicas),
                           {per_replica.as_input(), input("replicas", "", user(replicas))}, ""};

    // Time to first token: prefill compute, but never less than one read of the weights.
    const double weight_read = c.active * mq.weight_bytes / (devices * bandwidth.value * 1e9 * bw_eff.value);
    Figure read = {"weight_read_seconds", weight_read, "s", "active_parameters x bytes_per_weight / (devices x bandwidth x bandwidth_efficiency)",
                   n(c.active) + " x " + n(mq.weight_bytes) + " / (" + n(devices) + " x " + n(bandwidth.value) + "e9 x " + n(bw_eff.value) + ") = " + n(weight_read),
                   {c.active_figure.as_input(), input("memory_bandwidth_gb_per_s", "GB/s", bandwidth), input("bandwidth_efficiency", "fraction", bw_eff)}, ""};
    Figure prefill = unknown_figure("prefill_seconds", "s", "prefill FLOPs / (devices x dense peak x efficiency)", peak.why);
    Figure ttft = unknown_figure("time_to_first_token_seconds", "s", "max(prefill_seconds, weight_read_seconds)", peak.why);
    if (peak.tflops) {
        prefill = prefill_seconds(model, prompt, o.batch, devices, *peak.tflops, compute_eff);
        prefill.inputs.push_back(input("prompt_tokens", "tokens", user(prompt)));
        prefill.inputs.push_back(input("batch", "sequences", user(o.batch)));
        const double v = std::max(val(prefill), weight_read);
        ttft = {"time_to_first_token_seconds", v, "s", "max(prefill_seconds, weight_read_seconds): all prompts of the batch prefilled together",
                "max(" + n(val(prefill)) + ", " + n(weight_read) + ") = " + n(v), {prefill.as_input(), read.as_input()}, ""};
    }

    // Cost per 1M tokens at the instance's expected rate.
    const auto cost = [&](const std::string& option, const std::string& name) {
        const std::optional<Param> price = catalog_price(catalog, *pool.instance, o.region, option);
        if (!price) {
            std::string why = "no " + option + " price for " + pool.instance->name + " in " + o.region + " in the catalog";
            for (std::size_t k = 0; k < pool.instance->prices.size(); ++k) {
                const Price& p = pool.instance->prices[k];
                if (p.region == o.region && p.option == option && !p.usd_per_hour)
                    why = pool.instance->unknown_reason("prices[" + std::to_string(k) + "].usd_per_hour");
            }
            return unknown_figure(name, "USD/1M tokens", "usd_per_hour / (tokens_per_second x 3600) x 1e6", why);
        }
        Figure f = usd_per_million_tokens(*price, {val(per_instance), InputOrigin::derived, ""});
        f.name = name;
        f.inputs[1] = per_instance.as_input();  // carries the assumption flag of the efficiencies
        return f;
    };
    const Figure od_cost = cost("on_demand", "usd_per_million_tokens_on_demand");
    const Figure spot_cost = cost("spot_typical", "usd_per_million_tokens_spot");

    const std::vector<const Figure*> figures = {&c.total_figure,
                                                &dr.bytes_per_step,
                                                &dr.steps_per_second,
                                                &dr.tokens_per_second,
                                                &dr.tokens_per_second_expected,
                                                &ceiling,
                                                &per_replica,
                                                &per_gpu,
                                                &per_instance,
                                                &prefill,
                                                &read,
                                                &ttft,
                                                &od_cost,
                                                &spot_cost,
                                                &fit.memory.weights_gb,
                                                &fit.memory.kv_cache_gb,
                                                &fit.memory.overhead_gb,
                                                &fit.memory.total_gb,
                                                &fit.capacity_gb,
                                                &fit.margin_gb,
                                                &fit.max_batch};
    NamedFigures named;
    for (const Figure* f : figures) named.emplace_back(f->name, figure_json(*f));
    // decode_roofline names its expected figure "tokens_per_second": say it is the memory-bound one.
    named[4].first = "tokens_per_second_memory_expected";

    const std::string bw_text = n(bandwidth.value) + " GB/s per GPU" + (pool.slice < 1 ? " (x " + n(pool.slice) + " slice)" : "") +
                                (measured ? " (measured, --measured-bandwidth-gb-per-s)" : " (" + pool.accelerator_name + " datasheet, catalog)");
    if (o.format == Format::json) {
        nlohmann::json figs = nlohmann::json::object();
        for (const auto& [name, f] : named) figs[name] = f;
        return dump_json({{"model", model.name},
                          {"instance", pool.instance->name},
                          {"region", o.region},
                          {"serving",
                           {{"dtype", o.dtype}, {"kv_dtype", o.kv_dtype}, {"batch", o.batch}, {"context", o.context}, {"prompt_tokens", prompt},
                            {"tensor_parallel", tp}, {"replicas", replicas}}},
                          {"bandwidth", {{"gb_per_s", bandwidth.value}, {"measured", measured}, {"source", bandwidth.source}}},
                          {"bound", compute_bound ? "compute" : "memory bandwidth"},
                          {"fits", true},
                          {"memory_verdict", fit.verdict},
                          {"figures", figs}});
    }
    if (o.format == Format::csv) return figures_csv(named);

    const auto row = [](std::string label, const Figure& f, std::string (*fmt)(double), std::string unit = "") {
        const bool s = f.rests_on_assumption();
        if (!f.value) return std::vector<Cell>{text_cell(std::move(label)), text_cell(missing_with_reason(f.unknown_reason))};
        return std::vector<Cell>{text_cell(std::move(label)), {fmt(*f.value) + unit + (s ? "*" : ""), full_precision(*f.value)}};
    };
    Table t;
    t.columns = {{"figure", "figure", false}, {"value", "value"}};
    t.rows.push_back(row("bytes read per decode step", dr.bytes_per_step, gigabytes));
    t.rows.push_back(row("decode steps/s, upper bound", dr.steps_per_second, two));
    t.rows.push_back(row(std::string("tokens/s upper bound (memory roofline, 100% of ") + (measured ? "measured" : "datasheet") + " bandwidth)", dr.tokens_per_second, two));
    t.rows.push_back(row("tokens/s memory-bound at " + percent(bw_eff.value) + " bandwidth", dr.tokens_per_second_expected, two));
    t.rows.push_back(row("tokens/s compute ceiling at " + percent(compute_eff.value) + " of dense " + (peak.basis.empty() ? "peak" : peak.basis), ceiling, two));
    if (replicas > 1 || tp > 1) t.rows.push_back(row("tokens/s expected per replica (tp " + n(tp) + ")", per_replica, two));
    t.rows.push_back(row("tokens/s expected per GPU", per_gpu, two));
    t.rows.push_back(row("tokens/s expected per instance", per_instance, two));
    t.rows.push_back(row("time to first token (" + quantity(o.batch) + " x " + quantity(prompt) + "-token prompt" + (o.batch == 1 ? "" : "s") + ")", ttft, seconds));
    t.rows.push_back(row("$ per 1M tokens, on-demand", od_cost, rate));
    t.rows.push_back(row("$ per 1M tokens, spot (typical)", spot_cost, rate));

    std::string out = model.name + " on " + pool.label + " in " + o.region + "\n";
    out += "serving: " + o.dtype + " weights, " + o.kv_dtype + " KV cache, batch " + quantity(o.batch) + " x context " + quantity(o.context) +
           " token" + (o.context == 1 ? "" : "s") + ", tensor parallel " + n(tp) + ", " + n(replicas) + " replica" + (replicas == 1 ? "" : "s") + " per instance\n";
    out += "memory bandwidth " + bw_text + "; dense " + (peak.tflops ? peak.basis + " " + n(peak.tflops->value) + " TFLOPS per GPU (catalog)" : "peak unknown") + "\n\n";
    out += render_table(t, o.format);

    std::string after = "\n";
    after += std::string("bound: ") +
             (compute_bound ? "compute — the compute ceiling is below the memory-bound rate at this batch."
                            : "memory bandwidth — each step reads every weight once plus the KV cache of every sequence.") +
             "\n";
    if (measured) after += "bandwidth: measured (" + n(bandwidth.value) + " GB/s, --measured-bandwidth-gb-per-s), in place of the datasheet figure.\n";
    std::string memory_line = fit.verdict.substr(0, fit.verdict.find('\n') + 1);
    if (memory_line.rfind("fits: yes — ", 0) == 0) memory_line = "fits — " + memory_line.substr(std::string("fits: yes — ").size());
    after += "memory: " + memory_line;
    if (o.dtype == "int8" || o.dtype == "int4")
        after += "note: " + o.dtype + " is taken as weight-only quantization: the math runs at the bf16 peak.\n";
    if (o.dtype == "fp8" && peak.basis != "fp8") after += "note: no FP8 peak for " + pool.accelerator_name + " in the catalog; the bf16 peak is used.\n";
    if (tp > 1 && pool.instance->interconnect && (*pool.instance->interconnect == Interconnect::pcie || *pool.instance->interconnect == Interconnect::none))
        after += "warning: tensor parallel " + n(tp) + " over PCIe (" + pool.instance->name +
                 " has no NVLink): the all-reduces per layer are not in this roofline.\n";
    std::vector<KeyValue> used;
    const auto note_default = [&](const char* flag, const Param& p) {
        if (p.origin == InputOrigin::assumption) used.push_back({flag, fmt::format("{:<9} {}", n(p.value), p.source)});
    };
    note_default("--bandwidth-efficiency", bw_eff);
    note_default("--compute-efficiency", compute_eff);
    note_default("--overhead-gib", mq.runtime_overhead_gib);
    bool any_star = false;
    for (const Figure* f : figures) any_star = any_star || f->rests_on_assumption();
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
    app->add_option("--model", o->model, "Model preset (see `gpuplan models`) or a model from --models-file")->required()->type_name("NAME");
    add_models_file_option(*app, o->models_files);
    app->add_option("--instance", o->instance, "Instance type (see `gpuplan catalog`)")->required()->type_name("TYPE");
    add_region_option(*app, o->region);
    app->add_option("--dtype", o->dtype, "Weight dtype bf16|fp16|fp8|int8|int4")->capture_default_str()->check(choice_rule({"bf16", "fp16", "fp8", "int8", "int4"}));
    app->add_option("--kv-dtype", o->kv_dtype, "KV cache dtype bf16|fp16|fp8")->capture_default_str()->check(choice_rule({"bf16", "fp16", "fp8"}));
    app->add_option("--batch", o->batch, "Concurrent sequences decoded together")->capture_default_str()->check(whole_rule(1));
    app->add_option("--context", o->context, "Tokens of KV cache per sequence (prompt + output so far)")->capture_default_str()->check(whole_rule(1));
    app->add_option("--prompt-tokens", o->prompt_tokens, "Prompt length for time to first token (default: the whole --context)")->check(whole_rule(1));
    app->add_option("--tp", o->tp, "Tensor parallel degree (default: every GPU of the instance); the instance runs GPUs / tp replicas")->check(whole_rule(1));
    app->add_option("--bandwidth-efficiency", o->bandwidth_efficiency,
                    "Achieved / datasheet memory bandwidth in decode (default " + n(default_bandwidth_efficiency().value) + "; 1 with a measured bandwidth)")
        ->check(efficiency_rule("0.8 = 80%"));
    app->add_option("--compute-efficiency", o->compute_efficiency,
                    "Achieved share of dense peak FLOPS in prefill (default " + n(default_compute_efficiency().value) + ")")
        ->check(efficiency_rule("0.8 = 80%"));
    app->add_option("--measured-bandwidth-gb-per-s", o->measured_bandwidth, "Measured device-memory bandwidth (GB/s per GPU) in place of the datasheet figure")
        ->check(number_rule(NumberRule::positive));
    app->add_option("--overhead-gib", o->overhead_gib, "Runtime overhead per GPU in GiB for the memory check (default " + n(default_runtime_overhead_gib().value) + ")")
        ->check(number_rule(NumberRule::non_negative));
    app->add_flag("--explain", o->explain, "After the table, show each figure's formula, worked line and inputs with their origins");
    add_format_option(*app, o->format, {Format::table, Format::json, Format::csv, Format::md});
    app->footer(R"(Decode is memory-bound: tokens/s <= bandwidth / (weights + KV cache of every sequence) x batch
(shared/cases/workloads.md W3). The expected rate applies --bandwidth-efficiency and is capped by
the compute ceiling; time to first token is prefill at --compute-efficiency of the dense peak.
$ per 1M tokens = $/h / (tokens/s x 3600) x 1e6 at the catalog's on-demand and typical spot price.
A request that does not fit in GPU memory is refused (exit 2); `gpuplan fit` shows why.
Figures marked "*" rest on a documented default (docs/models.md).
Examples:
  gpuplan infer --model llama-3-8b --instance g6e.xlarge
  gpuplan infer --model llama-3-8b --instance g6e.xlarge --batch 32 --context 2048 --bandwidth-efficiency 1
  gpuplan infer --model llama-3.1-70b --instance g6e.12xlarge --dtype fp8 --tp 4 --explain
  gpuplan infer --model llama-3-8b --instance g6e.xlarge --measured-bandwidth-gb-per-s 700 --format json)");
    return {app, [o](const Catalog& c) { return run_infer(c, *o); }};
}

}  // namespace gpuplan::cli
