// fit_cmd.cpp — `gpuplan fit`: does a model fit, for training or for inference, on an
// instance type (x nodes) or on a given number and size of GPUs?
//
// Flags → the core's request → check_inference_fit / check_training_fit
// (core/gpuplan/workload/fit.hpp) → a table, the verdict and the figures. Every size is
// printed in GB (10^9 bytes) and GiB (2^30 bytes), each labelled.
#include <memory>
#include "gpuplan/formula_text.hpp"

#include <fmt/format.h>

#include "commands.hpp"
#include "gpuplan/workload/fit.hpp"

namespace gpuplan::cli {

namespace {

struct FitOptions {
    std::string model, instance, mode, recompute = "none", dtype = "bf16", kv_dtype = "bf16";
    std::vector<std::string> models_files;
    Notes notes;  // the command's: what a config.json left out
    double nodes = 1, gpus = 0, gpu_memory_gib = 0;
    double zero = 0, dp = 0, tp = 0, pp = 1, micro_batch = 1, sequence = 2048, overhead_gib = 0;
    double batch = 1, context = 8192;
    bool offload_optimizer = false, offload_parameters = false, explain = false;
    Format format = Format::table;
    CLI::App* app = nullptr;
    bool given(const char* flag) const { return app->count(flag) > 0; }
    std::optional<double> if_given(const char* flag, double v) const { return given(flag) ? std::optional<double>(v) : std::nullopt; }
};

const std::vector<const char*> kTrainingOnly = {"--zero",      "--dp",        "--pp",
                                               "--micro-batch", "--sequence", "--recompute", "--offload-optimizer", "--offload-parameters"};
const std::vector<const char*> kInferenceOnly = {"--dtype", "--kv-dtype", "--batch", "--context"};

// Core request fields named as the flags that set them (longest first: prefixes match).
const std::vector<std::pair<std::string, std::string>> kFitFlagOf = {
    {"data_parallel x tensor_parallel x pipeline_parallel", "--dp / --tp / --pp"},
    {"tensor_parallel x pipeline_parallel", "--tp / --pp"},
    {"tensor_parallel", "--tp"},
    {"pipeline_parallel", "--pp"},
    {"zero_stage", "--zero"},
    {"offload_parameters", "--offload-parameters"},
};

struct Row {
    std::string label;
    const Figure* figure;
};

// Rows of sizes in GB: "GB" and "GiB" columns (and a GB-per-GPU column when `per_gpu` > 0).
Table size_table(const std::vector<Row>& rows, const std::string& first_header, double per_gpu) {
    const auto two = [](double x) { return decimals(x, 2); };
    Table t;
    t.columns = {{first_header, "figure", false}, {"GB", "gb"}, {"GiB", "gib"}};
    if (per_gpu > 0) t.columns.push_back({"GB per GPU", "per_gpu_gb"});
    for (const auto& r : rows) {
        const bool s = r.figure->rests_on_assumption();
        const std::optional<double> gb = r.figure->value;
        std::vector<Cell> row = {text_cell(r.label), number_cell(gb, two, r.figure->unknown_reason, s),
                                 number_cell(gb ? std::optional<double>(gb_to_gib(*gb)) : std::nullopt, two, r.figure->unknown_reason, s)};
        if (per_gpu > 0) row.push_back(number_cell(gb ? std::optional<double>(*gb / per_gpu) : std::nullopt, two, "", s));
        t.rows.push_back(std::move(row));
    }
    return t;
}

std::string defaults_footnote(const std::vector<const Figure*>& figures, const Param& overhead) {
    bool any = false;
    for (const Figure* f : figures) any = any || f->rests_on_assumption();
    if (!any || overhead.origin != InputOrigin::assumption) return "";
    return "\n* rests on a default assumption (docs/models.md); override with the flag named:\n" +
           render_key_values({{"--overhead-gib", fmt::format("{:<9} {}", n(overhead.value), overhead.source)}}, "    ");
}

NamedFigures named(const std::vector<const Figure*>& figures) {
    NamedFigures out;
    for (const Figure* f : figures) out.emplace_back(f->name, figure_json(*f));
    return out;
}

std::string render(const FitOptions& o, const std::string& header, const Table& table, const std::string& after,
                   const std::vector<const Figure*>& figures, const nlohmann::json& json) {
    if (o.format == Format::json) return dump_json(json);
    if (o.format == Format::csv) return figures_csv(named(figures));
    std::string notes = after;
    if (o.explain) notes += explain_all(named(figures));
    return header + "\n" + render_table(table, o.format) + notes_block(notes, o.format);
}

std::string run_training(const FitOptions& o, const ModelSpec& model, const GpuPool& pool) {
    if (o.offload_parameters && o.zero != 3)
        throw InputError("--offload-parameters: needs --zero 3 (only ZeRO stage 3 shards the weights, so only it can offload them); got --zero " + n(o.zero));
    TrainingFitRequest r;
    r.model = &model;
    r.data_parallel = o.if_given("--dp", o.dp);
    r.tensor_parallel = o.given("--tp") ? o.tp : 1;
    r.pipeline_parallel = o.pp;
    r.zero_stage = static_cast<int>(o.zero);
    r.micro_batch = o.micro_batch;
    r.sequence = o.sequence;
    r.recompute = recompute_named(o.recompute);
    r.offload_optimizer = o.offload_optimizer;
    r.offload_parameters = o.offload_parameters;
    r.overhead_gib = o.if_given("--overhead-gib", o.overhead_gib);
    TrainingFit fit;
    try {
        fit = check_training_fit(training_request(r, pool), pool);
    } catch (const InputError& e) {
        rethrow_for_flag(e, kFitFlagOf);
    }
    const TrainingMemoryRequest& q = fit.request;
    const TrainingMemory& m = fit.memory;
    const bool offload = q.offload_optimizer || q.offload_parameters;
    const double gpus = pool.gpus();

    std::vector<Row> rows = {{q.offload_parameters ? "weights (bf16, offloaded to host)" : "weights (bf16)", &m.weights_gb},
                             {"gradients (bf16)", &m.gradients_gb},
                             {q.offload_optimizer ? "optimizer: fp32 master, m, v (offloaded)" : "optimizer: fp32 master, m, v", &m.optimizer_gb},
                             {"model states", &m.model_states_gb},
                             {"activations (recompute " + o.recompute + ")", &m.activations_gb},
                             {"runtime overhead", &m.overhead_gb},
                             {"total", &m.total_per_gpu_gb},
                             {"capacity (" + pool.accelerator_name + ")", &fit.capacity_gb},
                             {"margin", &fit.margin_gb}};
    if (offload) rows.push_back({"host memory for offload (per GPU)", &m.host_per_gpu_gb});

    std::string header = model.name + " (" + quantity(val(fit.parameters)) + " parameters): training memory per GPU on " + pool.label + "\n";
    header += "layout: data parallel " + n(q.data_parallel) + " x tensor parallel " + n(q.tensor_parallel) + " x pipeline parallel " +
              n(q.pipeline_parallel) + " = " + n(gpus) + (gpus == 1 ? " GPU" : " GPUs") + "; ZeRO stage " + n(o.zero) +
              (o.zero == 3 ? " (FSDP full shard)" : o.zero == 0 ? " (DDP)" : "") + "; bf16 mixed precision with Adam (2 + 2 + 12 bytes per parameter)\n";
    header += "work: micro-batch " + quantity(o.micro_batch) + " x sequence " + quantity(o.sequence) + " tokens, activation recompute " + o.recompute +
              (offload ? std::string("; offload: ") + (q.offload_optimizer ? "optimizer" : "") + (q.offload_optimizer && q.offload_parameters ? " + " : "") +
                             (q.offload_parameters ? "parameters" : "")
                       : "") +
              "\nGB = 10^9 bytes, GiB = 2^30 bytes; GPU memory in GiB as EC2 reports it\n";

    std::string after = "\n" + fit.verdict + "\n";
    if (!fit.fits) after += "  Options: a higher --zero stage, --recompute selective or full, --offload-optimizer, more GPUs or a larger micro-batch split.\n";
    after += "model states: " + n(val(m.bytes_per_parameter)) + " bytes per parameter per GPU (" + quantity(val(fit.parameters)) + " parameters; ZeRO stage " +
             n(o.zero) + " over data parallel " + n(q.data_parallel) +
             (q.tensor_parallel * q.pipeline_parallel > 1 ? ", split " + n(q.tensor_parallel * q.pipeline_parallel) + " ways by tensor x pipeline parallel"
                                                          : std::string()) +
             ").\n";
    if (offload) {
        after += "host memory: " + gb_text(val(m.host_per_gpu_gb)) + " per GPU x " + n(pool.gpus_per_node) + " GPUs per node = " +
                 gb_gib_text(val(fit.host_per_node_gb)) + " needed per node";
        if (fit.host_ram_gb.value)
            after += ", against the " + gb_gib_text(*fit.host_ram_gb.value) + " of RAM of one " + pool.instance->name + ": " +
                     (fit.host_fits.value_or(true) ? "fits" : "does NOT fit") + " (before the OS, data loaders and pinned buffers).\n";
        else
            after += "; " + fit.host_ram_gb.unknown_reason + ".\n";
    } else {
        after += "host memory: nothing offloaded (--offload-optimizer, --offload-parameters move states to host RAM).\n";
    }
    if (tensor_parallel_over_pcie(q.tensor_parallel, pool))
        after += "warning: tensor parallel " + n(q.tensor_parallel) + " over PCIe (" + pool.instance->name +
                 " has no NVLink): allowed, but every layer's all-reduces cross PCIe.\n";
    after += "activations: Korthikanti et al. 2022 (docs/models.md), for the layers one pipeline stage holds.\n";
    const std::vector<const Figure*> figures = fit.figures();
    after += defaults_footnote(figures, q.runtime_overhead_gib);
    return render(o, header, size_table(rows, "per GPU", 0), after, figures, to_json(fit, pool));
}

std::string run_inference(const FitOptions& o, const ModelSpec& model, const GpuPool& pool) {
    InferenceFitRequest r;
    r.model = &model;
    r.dtype = o.dtype;
    r.kv_dtype = o.kv_dtype;
    r.batch = o.batch;
    r.context = o.context;
    r.tensor_parallel = o.if_given("--tp", o.tp);
    r.overhead_gib = o.if_given("--overhead-gib", o.overhead_gib);
    InferenceFit fit;
    try {
        fit = check_inference_fit(r, pool);
    } catch (const InputError& e) {
        rethrow_for_flag(e, kFitFlagOf);
    }
    const InferenceMemory& m = fit.memory;
    const double tp = fit.request.tensor_parallel;

    const std::vector<Row> rows = {{"weights (" + o.dtype + ")", &m.weights_gb},
                                   {"KV cache (" + o.kv_dtype + ", " + quantity(o.batch) + " x " + quantity(o.context) + " tokens)", &m.kv_cache_gb},
                                   {"runtime overhead", &m.overhead_gb},
                                   {"total", &m.total_gb},
                                   {"capacity (" + gpus_text(tp, pool) + ")", &fit.capacity_gb},
                                   {"margin", &fit.margin_gb}};
    std::string header = model.name + " (" + quantity(val(fit.parameters)) + " parameters): inference memory on " + pool.label + "\n";
    header += "serving: " + o.dtype + " weights, " + o.kv_dtype + " KV cache, batch " + quantity(o.batch) + " x context " + quantity(o.context) + " token" +
              (o.context == 1 ? "" : "s") + ", tensor parallel " + n(tp) +
              (fit.replicas > 1 ? " (" + n(fit.replicas) + " replicas on " + n(pool.gpus()) + " GPUs)" : "") + "\n";
    header += "GB = 10^9 bytes, GiB = 2^30 bytes; GPU memory in GiB as EC2 reports it\n";
    std::string after = "\n" + fit.verdict;
    after += "KV cache per token: " + quantity(val(fit.kv_bytes_per_token)) + " bytes (" + fit.kv_bytes_per_token.formula + ").\n";
    if (tensor_parallel_over_pcie(tp, pool))
        after += "warning: tensor parallel " + n(tp) + " over PCIe (" + pool.instance->name +
                 " has no NVLink): allowed, but every layer's all-reduces cross PCIe.\n";
    if (fit.kv_heads_replicated)
        after += "note: tensor parallel " + n(tp) + " exceeds the " + n(model.kv_heads) +
                 " KV heads; real engines replicate KV heads then, so the KV cache per GPU is larger than shown.\n";
    const std::vector<const Figure*> figures = fit.figures();
    after += defaults_footnote(figures, fit.request.runtime_overhead_gib);
    const Table table = size_table(rows, "on " + n(tp) + " GPU" + (tp == 1 ? "" : "s") + " together", tp);
    return render(o, header, table, after, figures, to_json(fit, pool));
}

std::string run_fit(const Catalog& catalog, const FitOptions& o) {
    const std::vector<ModelSpec> models = load_models_with_files(o.models_files, o.notes);
    const ModelSpec& model = require_model(models, o.model, "--model");
    const bool training = o.mode == "training";
    for (const char* flag : training ? kInferenceOnly : kTrainingOnly)
        if (o.given(flag)) throw InputError(std::string(flag) + ": applies to --mode " + (training ? "inference" : "training") + " only, not --mode " + o.mode);
    GpuPool pool;
    if (!o.instance.empty()) {
        require_instance(catalog, o.instance, "--instance");
        pool = instance_pool(catalog, o.instance, o.nodes, "--instance");
    } else if (o.given("--gpus") && o.given("--gpu-memory-gib")) {
        if (o.given("--nodes")) throw InputError("--nodes: applies with --instance only; with --gpus give the total GPU count");
        pool = bare_pool(o.gpus, o.gpu_memory_gib);
    } else if (o.given("--gpus") || o.given("--gpu-memory-gib")) {
        throw InputError(std::string(o.given("--gpus") ? "--gpus" : "--gpu-memory-gib") + ": needs --gpus and --gpu-memory-gib together (or --instance)");
    } else {
        throw InputError("--instance / --gpus: give an instance type (--instance TYPE [--nodes N]) or a GPU count and size (--gpus N --gpu-memory-gib X)");
    }
    return training ? run_training(o, model, pool) : run_inference(o, model, pool);
}

}  // namespace

Command register_fit(CLI::App& parent) {
    auto o = std::make_shared<FitOptions>();
    CLI::App* app = parent.add_subcommand("fit", "Does a model fit in GPU memory, for training or inference? Every size in GB and GiB");
    o->app = app;
    app->add_option("--model", o->model, "Model preset (see `gpuplan models`) or a model from --models-file / --model-config (required unless one config.json is given)")->type_name("NAME");
    add_models_file_option(*app, o->models_files);
    auto* inst = app->add_option("--instance", o->instance, "Instance type whose GPUs to use (see `gpuplan catalog`)")->type_name("TYPE");
    app->add_option("--nodes", o->nodes, "Number of instances (training across nodes)")->capture_default_str()->check(whole_rule(1));
    auto* gpus = app->add_option("--gpus", o->gpus, "Instead of --instance: number of GPUs")->check(whole_rule(1));
    auto* mem = app->add_option("--gpu-memory-gib", o->gpu_memory_gib, "Instead of --instance: memory per GPU in GiB")->check(number_rule(NumberRule::positive));
    gpus->excludes(inst);
    mem->excludes(inst);
    app->add_option("--mode", o->mode, "training or inference")->required()->transform(choice_rule({"training", "inference"}))->type_name("MODE");
    app->add_option("--tp,--tensor-parallel", o->tp, "Tensor parallel degree (training default 1; inference default: every GPU of the instance)")->check(whole_rule(1));
    app->add_option("--overhead-gib", o->overhead_gib,
                    "Runtime overhead per GPU in GiB: CUDA context, library workspaces, fragmentation (default " +
                        n(default_runtime_overhead_gib().value) + ")")
        ->check(number_rule(NumberRule::non_negative));
    // Training
    app->add_option("--zero", o->zero, "Training: ZeRO stage 0 (DDP), 1, 2 or 3 (FSDP full shard)")
        ->capture_default_str()
        ->check(CLI::Validator(
            [](std::string& t) -> std::string { return t == "0" || t == "1" || t == "2" || t == "3" ? "" : "got " + t + "; expected 0, 1, 2 or 3"; },
            "0..3"));
    app->add_option("--dp,--data-parallel", o->dp, "Training: data parallel degree (default: GPUs / (tp x pp))")->check(whole_rule(1));
    app->add_option("--pp,--pipeline-parallel", o->pp, "Training: pipeline parallel degree")->capture_default_str()->check(whole_rule(1));
    app->add_option("--micro-batch", o->micro_batch, "Training: micro-batch per GPU (sequences)")->capture_default_str()->check(whole_rule(1));
    app->add_option("--sequence", o->sequence, "Training: sequence length (tokens)")->capture_default_str()->check(whole_rule(1));
    app->add_option("--recompute", o->recompute, "Training: activation recomputation none|selective|full")
        ->capture_default_str()
        ->transform(choice_rule({"none", "selective", "full"}));
    app->add_flag("--offload-optimizer", o->offload_optimizer, "Training: keep optimizer states in host memory (ZeRO-Offload)");
    app->add_flag("--offload-parameters", o->offload_parameters, "Training, ZeRO stage 3 only: keep the weights in host memory too");
    // Inference
    app->add_option("--dtype", o->dtype, "Inference: weight dtype bf16|fp16|fp8|int8|int4")
        ->capture_default_str()
        ->transform(choice_rule({"bf16", "fp16", "fp8", "int8", "int4"}));
    app->add_option("--kv-dtype", o->kv_dtype, "Inference: KV cache dtype bf16|fp16|fp8")->capture_default_str()->transform(choice_rule({"bf16", "fp16", "fp8"}));
    app->add_option("--batch", o->batch, "Inference: concurrent sequences")->capture_default_str()->check(whole_rule(1));
    app->add_option("--context", o->context, "Inference: tokens of KV cache per sequence (prompt + output)")->capture_default_str()->check(whole_rule(1));
    app->add_flag("--explain", o->explain, "After the table, show each figure's formula, worked line and inputs with their origins");
    add_format_option(*app, o->format, {Format::table, Format::json, Format::csv, Format::md});
    app->footer(R"(Training: bf16 mixed precision with Adam, 16 bytes per parameter (ZeRO paper, K = 12) sharded by the
ZeRO stage over data parallel, plus activations (Korthikanti et al. 2022) and runtime overhead.
Inference: weights by dtype + KV cache (2 x layers x kv_heads x head_dim x bytes per token) + overhead
per GPU, split over tensor parallel; the largest batch and longest context that fit.
Capacity is the catalog's accelerator_memory_gib_each (GiB as EC2 reports it). Sizes print in GB
(10^9 bytes) and GiB (2^30 bytes). Figures marked "*" rest on the default runtime overhead.
Examples:
  gpuplan fit --model llama-3-8b --mode training --gpus 4 --gpu-memory-gib 80 --zero 2
  gpuplan fit --model llama-3-8b --mode training --instance p4d.24xlarge --zero 3 --offload-optimizer
  gpuplan fit --model llama-3.1-70b --mode inference --instance g6e.12xlarge --tp 2 --dtype bf16
  gpuplan fit --model llama-3.1-70b --mode inference --instance g6e.12xlarge --tp 2 --dtype fp8 --batch 16 --context 8192
  gpuplan fit --model llama-3-8b --mode inference --instance g6e.xlarge --format json)");
    Command command{app, [o](const Catalog& c) { return run_fit(c, *o); }};
    o->notes = command.notes;
    return command;
}

}  // namespace gpuplan::cli
