// train_cmd.cpp — `gpuplan train`: one training job on N x an instance type with a parallel
// layout: does it fit in GPU memory, how long is a step and where does the time go, and what
// do the hours cost for a token budget.
//
// Memory comes from training_memory (core/gpuplan/workload/memory.hpp), the step time from
// training_time (training_time.hpp: compute, exposed communication per link class over the
// instance's link graph, pipeline bubble, CPU offload), the price from the catalog. A layout
// that does not fit in GPU memory is refused (exit 2) with the flags that would make it fit.
// Every bandwidth and the compute efficiency can be replaced by a measured figure; the output
// says which figures are measured, which come from datasheets and which rest on defaults.
#include <algorithm>
#include "gpuplan/formula_text.hpp"
#include <cmath>
#include <functional>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "training_plan_view.hpp"
#include "gpuplan/pricing/purchase_options.hpp"
#include "gpuplan/topology/machine_topology.hpp"
#include "gpuplan/workload/training_plan.hpp"
#include "gpuplan/workload/fit.hpp"

namespace gpuplan::cli {

namespace {

struct TrainOptions {
    std::string model, instance, region = "us-east-1", purchase = std::string(to_string(PriceKind::on_demand)), recompute = "none", calibration, topology, transport = "auto", precision = "bf16";
    std::vector<std::string> models_files;
    std::vector<std::string> quotas;
    Notes notes;  // the command's: what a config.json left out
    double nodes = 1, gpus_per_node = 0, dp = 0, tp = 1, pp = 1, ep = 1, zero = 0, micro_batch = 1, sequence = 2048, global_batch_tokens = 0;
    double tokens = 1e9, compute_efficiency = 0, measured_intra = 0, measured_inter = 0, measured_host = 0, measured_mfu = 0, overhead_gib = 0;
    bool offload_optimizer = false, offload_parameters = false, allow_cross_node_tp = false, explain = false;
    Format format = Format::table;
    CLI::App* app = nullptr;
    bool given(const char* flag) const { return app->count(flag) > 0; }
};

// Core request fields ("layout.tensor") named as the flags that set them.
const std::vector<std::pair<std::string, std::string>> kTrainFlagOf = {
    {"layout.data x layout.tensor x layout.pipeline", "--dp / --tp / --pp"},
    {"layout.data", "--dp"},
    {"layout.tensor", "--tp"},
    {"layout.pipeline", "--pp"},
    {"layout.expert", "--ep"},
    {"layout.zero_stage", "--zero"},
    {"layout.offload_optimizer", "--offload-optimizer"},
    {"layout.offload_parameters", "--offload-parameters"},
    {"layout.micro_batch", "--micro-batch"},
    {"layout.sequence", "--sequence"},
    {"layout.global_batch_tokens", "--global-batch-tokens"},
    {"nodes", "--nodes"},
    {"instance", "--instance"},
    {"model", "--model"},
    {"token_budget", "--tokens"},
    {"compute_efficiency", "--compute-efficiency"},
    {"zero_stage", "--zero"},
    {"offload_parameters", "--offload-parameters"},
    {"inter_node_transport", "--inter-node-transport"},
    {"gpus_per_node", "--gpus-per-node"},
    {"precision", "--precision"},
};

std::string run_train(const Catalog& catalog, const TrainOptions& o) {
    const std::vector<ModelSpec> models = load_models_with_files(o.models_files, o.notes);
    const ModelSpec& model = require_model(models, o.model, "--model");
    require_instance(catalog, o.instance, "--instance");  // "did you mean" for a misspelt name
    GpuPool pool = instance_pool(catalog, o.instance, o.nodes, "--instance");
    if (o.given("--gpus-per-node")) {
        if (o.gpus_per_node > pool.gpus_per_node)
            throw InputError("--gpus-per-node", n(o.gpus_per_node), "at most the " + n(pool.gpus_per_node) + " accelerators of " + pool.instance->name);
        pool.gpus_per_node = o.gpus_per_node;
    }
    if (pool.slice < 1)
        throw InputError("--instance", "'" + o.instance + "' (a " + n(pool.slice) + " slice of one " + pool.accelerator_name + ")",
                         "an instance type with whole GPUs: a fractional slice cannot train in parallel");
    require_region(catalog, o.region, "--region");
    const double gpn = pool.gpus_per_node, gpus = pool.gpus(), tp = o.tp, pp = o.pp;
    const std::string node_text = n(o.nodes) + (o.nodes == 1 ? " node" : " nodes") + " x " + n(gpn) + " GPUs of " + pool.instance->name;
    if (tp > gpn && !o.allow_cross_node_tp)
        throw InputError("--tp", n(tp),
                         "at most the " + n(gpn) + " GPUs of one " + pool.instance->name +
                             "; tensor parallel across nodes needs --allow-cross-node-tp (its per-layer all-reduces then cross the network)");
    double dp = o.dp;
    if (o.given("--dp")) {
        if (dp * tp * pp != gpus)
            throw InputError("--dp / --tp / --pp", n(dp) + " x " + n(tp) + " x " + n(pp) + " = " + n(dp * tp * pp),
                             "a product equal to the " + n(gpus) + " GPUs in all (" + node_text + ")");
    } else {
        if (std::fmod(gpus, tp * pp) != 0)
            throw InputError("--tp / --pp", n(tp) + " x " + n(pp) + " = " + n(tp * pp),
                             "a divisor of the " + n(gpus) + " GPUs in all (" + node_text + "; data parallel = GPUs / (tp x pp))");
        dp = gpus / (tp * pp);
    }
    if (o.given("--measured-mfu") && o.given("--compute-efficiency"))
        throw InputError("--measured-mfu: give --measured-mfu or --compute-efficiency, not both (each sets the share of dense peak reached)");

    TrainingTimeRequest q;
    q.model = &model;
    q.instance = pool.instance;
    q.nodes = o.nodes;
    if (o.given("--gpus-per-node")) q.gpus_per_node = o.gpus_per_node;
    ParallelLayout& L = q.layout;
    L.data = dp, L.tensor = tp, L.pipeline = pp, L.expert = o.ep;
    L.zero_stage = static_cast<int>(o.zero);
    L.micro_batch = o.micro_batch;
    L.sequence = o.sequence;
    L.global_batch_tokens = o.given("--global-batch-tokens") ? o.global_batch_tokens : dp * o.micro_batch * o.sequence;
    L.recompute = recompute_named(o.recompute);
    L.offload_optimizer = o.offload_optimizer;
    L.offload_parameters = o.offload_parameters;
    L.allow_cross_node_tensor_parallel = o.allow_cross_node_tp;
    if (o.given("--measured-intra-gb-per-s")) q.topology.intra_gb_per_s = measured_param(o.measured_intra, "intra-node bandwidth, --measured-intra-gb-per-s");
    q.topology.transport = *parse_inter_node_transport(o.transport);
    q.precision = *parse_training_precision(o.precision);
    if (o.given("--measured-inter-gb-per-s")) q.topology.inter_gb_per_s = measured_param(o.measured_inter, "inter-node bandwidth, --measured-inter-gb-per-s");
    if (o.given("--measured-host-gb-per-s")) q.topology.host_gb_per_s = measured_param(o.measured_host, "GPU-host bandwidth, --measured-host-gb-per-s");
    if (o.given("--measured-mfu")) q.compute_efficiency = measured_param(o.measured_mfu, "model FLOPs utilisation, --measured-mfu");
    if (o.given("--compute-efficiency")) q.compute_efficiency = {o.compute_efficiency, InputOrigin::user, "--compute-efficiency"};
    if (o.given("--tokens")) q.token_budget = o.tokens;
    // Measured figures from a `gpuplan bench` results file, where no --measured-* flag gave one.
    std::string calibration_head;
    nlohmann::json calibration_doc;
    if (!o.calibration.empty()) {
        const BenchResults bench = parse_bench_results(read_input_file(o.calibration, "--calibration"), o.calibration);
        const BenchCalibration cal = calibrate_from_bench(bench, gpn);
        calibration_head = calibration_text(bench, cal, apply_calibration(cal, q.topology)) + "\n";
        calibration_doc = to_json(bench, cal);
    }
    // The machine's own topology (an NCCL log or nvidia-smi topo -m): its intra-node and
    // GPU-host figures, where neither a --measured-* flag nor --calibration gave one.
    nlohmann::json topology_doc;
    if (!o.topology.empty()) {
        const MachineTopology imported = read_topology_file(o.topology, "--topology");
        const BenchCalibration cal = calibration_from_topology(imported);
        calibration_head += measured_figures_text("topology from " + o.topology + " (" + std::string(to_string(imported.format)) + "):\n", cal,
                                                  apply_calibration(cal, q.topology), "from the topology") + "\n";
        topology_doc = to_json(imported, summarize(imported), std::nullopt);
    }
    TrainingPlanRequest pr;
    pr.time = q;
    pr.region = o.region;
    pr.purchase = price_kind_named(o.purchase).value();  // price_kind_rule allowed only these (old ones rewritten)
    if (o.given("--overhead-gib")) pr.overhead_gib = o.overhead_gib;
    pr.quotas = account_quotas(o.quotas);

    // The layout first (the core names the field; say the flag), then memory, then time.
    TrainingPlan plan;
    try {
        plan = plan_training(catalog, pr);
    } catch (const InputError& e) {
        rethrow_for_flag(e, kTrainFlagOf);
    }
    const TrainingFit& fit = plan.fit;
    const TrainingMemoryRequest& mq = fit.request;
    if (!fit.fits)
        throw InputError(fit.refusal + " (details: gpuplan fit --model " + model.name + " --mode training --instance " + pool.instance->name + " --nodes " +
                         n(o.nodes) + " --dp " + n(mq.data_parallel) + " --tp " + n(mq.tensor_parallel) + " --pp " + n(mq.pipeline_parallel) + " --zero " +
                         std::to_string(mq.zero_stage) + " --micro-batch " + n(mq.micro_batch) + " --sequence " + n(mq.sequence) + " --recompute " +
                         std::string(to_string(mq.recompute)) + ")");

    if (o.format == Format::json) {
        nlohmann::json j = to_json(plan);
        if (!calibration_doc.is_null()) j["calibration"] = calibration_doc;
        if (!topology_doc.is_null()) j["topology"] = topology_doc;
        return dump_json(j);
    }
    if (o.format == Format::csv) {
        NamedFigures named;
        for (const Figure* f : plan.figures()) named.emplace_back(f->name, figure_json(*f));
        return figures_csv(named);
    }

    return calibration_head + training_plan_text(plan, q, o.format, o.explain) + notes_block(plan.quota.words + "\n", o.format);
}

}  // namespace

Command register_train(CLI::App& parent) {
    auto o = std::make_shared<TrainOptions>();
    CLI::App* app = parent.add_subcommand("train", "Training step time, hours and cost of a model on N x an instance type with a parallel layout");
    o->app = app;
    app->add_option("--model", o->model, "Model preset (see `gpuplan models`) or a model from --models-file / --model-config (required unless one config.json is given)")->type_name("NAME");
    add_models_file_option(*app, o->models_files);
    add_quota_option(*app, o->quotas);
    app->add_option("--instance", o->instance, "Instance type (see `gpuplan catalog`)")->required()->type_name("TYPE");
    app->add_option("--nodes", o->nodes, "Number of instances")->capture_default_str()->check(whole_rule(1));
    app->add_option("--precision", o->precision,
                    "Training precision of the linear layers: bf16 (mixed precision) or fp8 (Transformer Engine / torchao float8 on FP8 tensor cores; "
                    "attention stays bf16)")
        ->capture_default_str()
        ->transform(choice_rule({"bf16", "fp8"}));
    app->add_option("--gpus-per-node", o->gpus_per_node,
                    "Use K of the instance's GPUs per node (a Kubernetes pod, a partial job); the links are those the K GPUs use (default: all)")
        ->check(whole_rule(1));
    app->add_option("--inter-node-transport", o->transport,
                    "How nodes talk: auto (what the instance supports), efa-gdr (EFA with GPUDirect RDMA), efa (EFA staged through host memory), "
                    "tcp (TCP over ENA); one the instance lacks is refused")
        ->capture_default_str()
        ->transform(choice_rule({"auto", "efa-gdr", "efa", "tcp"}));
    app->add_option("--dp,--data-parallel", o->dp, "Data parallel degree (default: all GPUs / (tp x pp)); dp x tp x pp must equal the GPUs")->check(whole_rule(1));
    app->add_option("--tp,--tensor-parallel", o->tp, "Tensor parallel degree: a divisor of the GPUs of one node")->capture_default_str()->check(whole_rule(1));
    app->add_option("--pp,--pipeline-parallel", o->pp, "Pipeline parallel degree")->capture_default_str()->check(whole_rule(1));
    app->add_option("--ep,--expert-parallel", o->ep, "Expert parallel degree (MoE models), within data parallel")->capture_default_str()->check(whole_rule(1));
    app->add_option("--zero", o->zero, "ZeRO stage 0 (DDP), 1, 2 or 3 (FSDP full shard)")
        ->capture_default_str()
        ->check(CLI::Validator(
            [](std::string& t) -> std::string { return t == "0" || t == "1" || t == "2" || t == "3" ? "" : "got " + t + "; expected 0, 1, 2 or 3"; },
            "0..3"));
    app->add_option("--micro-batch", o->micro_batch, "Sequences per micro-batch per GPU")->capture_default_str()->check(whole_rule(1));
    app->add_option("--sequence", o->sequence, "Tokens per sequence")->capture_default_str()->check(whole_rule(1));
    app->add_option("--global-batch-tokens", o->global_batch_tokens,
                    "Tokens per optimizer step over all replicas, a whole multiple of dp x micro-batch x sequence "
                    "(default: dp x micro-batch x sequence, one micro-batch per replica)")
        ->check(whole_rule(1));
    app->add_option("--recompute", o->recompute, "Activation recomputation none|selective|full")
        ->capture_default_str()
        ->transform(choice_rule({"none", "selective", "full"}));
    app->add_flag("--offload-optimizer", o->offload_optimizer, "ZeRO-Offload: optimizer states and Adam on the host (needs --zero 1, 2 or 3)");
    app->add_flag("--offload-parameters", o->offload_parameters, "Weights in host memory too (needs --zero 3 and --offload-optimizer)");
    app->add_flag("--allow-cross-node-tp", o->allow_cross_node_tp, "Allow tensor parallel across nodes (a multiple of the GPUs per node)");
    app->add_option("--tokens", o->tokens, "Token budget: tokens to train on")->capture_default_str()->check(whole_rule(1));
    add_region_option(*app, o->region);
    Command command{app, nullptr};
    o->notes = command.notes;
    app->add_option("--purchase", o->purchase, "Purchase option whose catalog price to use: on-demand|spot")
        ->capture_default_str()
        ->transform(price_kind_rule(command.notes, "--purchase"));
    app->add_option("--compute-efficiency", o->compute_efficiency,
                    "Share of dense peak reached (default " + format_number(default_compute_efficiency().value) + ", an assumption)")
        ->check(efficiency_rule("0.4 = 40%"));
    app->add_option("--measured-mfu", o->measured_mfu, "Measured model FLOPs utilisation, in place of the default compute efficiency")
        ->check(efficiency_rule("0.4 = 40%"));
    app->add_option("--measured-intra-gb-per-s", o->measured_intra, "Measured bandwidth inside a node (GB/s per GPU, per direction), in place of the derived figure")
        ->check(number_rule(NumberRule::positive));
    app->add_option("--measured-inter-gb-per-s", o->measured_inter, "Measured bandwidth between nodes (GB/s per GPU, per direction), in place of the derived figure")
        ->check(number_rule(NumberRule::positive));
    app->add_option("--measured-host-gb-per-s", o->measured_host, "Measured GPU <-> host bandwidth (GB/s per GPU, per direction; CPU offload), in place of the derived figure")
        ->check(number_rule(NumberRule::positive));
    app->add_option("--calibration", o->calibration,
                    "A `gpuplan bench run` results file (gpuplan.bench/1): its measured host, intra- and inter-node bandwidths replace the "
                    "datasheet figures (a --measured-* flag you give wins); see `gpuplan calibrate FILE`")
        ->type_name("FILE");
    app->add_option("--topology", o->topology,
                    "An NCCL_DEBUG=INFO log with NCCL's topology dump, or `nvidia-smi topo -m` output: its slowest GPU pair and GPU-to-CPU "
                    "path replace the catalog's intra-node and host bandwidths (a --measured-* flag or --calibration wins); see "
                    "`gpuplan topology import FILE`")
        ->type_name("FILE");
    app->add_option("--overhead-gib", o->overhead_gib,
                    "Runtime overhead per GPU in GiB for the memory check (default " + format_number(default_runtime_overhead_gib().value) + ")")
        ->check(number_rule(NumberRule::non_negative));
    app->add_flag("--explain", o->explain, "After the tables, show each figure's formula, worked line and inputs with their origins");
    add_format_option(*app, o->format, {Format::table, Format::json, Format::csv, Format::md});
    app->footer(R"(First the memory per GPU (as `gpuplan fit --mode training`): a layout that does not fit is refused
(exit 2) with the changes that would make it fit. Then the step: compute (6N, 8N with full
recompute, per token over GPUs x dense peak x efficiency) + exposed data-parallel communication
+ tensor-parallel all-reduces + pipeline point-to-point + expert all-to-alls + pipeline bubble +
CPU offload, each collective costed on the links it crosses (docs/models.md, "Training time").
Hours = tokens / tokens per second; cost = hours x nodes x the catalog price of --purchase.
Figures marked "*" rest on a documented default; --measured-* replace defaults and datasheet
figures with measured ones, and the output says which is which.
Examples:
  gpuplan train --model llama-3.2-1b --instance p5.48xlarge --micro-batch 4 --global-batch-tokens 131072
  gpuplan train --model llama-3-8b --instance p5.48xlarge --nodes 2 --zero 1 --tokens 1e11 --purchase spot
  gpuplan train --model llama-3.1-70b --instance p5.48xlarge --nodes 4 --tp 8 --zero 1 --recompute selective --global-batch-tokens 1048576
  gpuplan train --model llama-3-8b --instance p5.48xlarge --nodes 2 --zero 1 --measured-inter-gb-per-s 38.5 --measured-mfu 0.45 --format json
  gpuplan train --model llama-3-8b --instance p5.48xlarge --nodes 2 --zero 1 --calibration results.json)");
    command.run = [o](const Catalog& c) { return run_train(c, *o); };
    return command;
}

}  // namespace gpuplan::cli
