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
#include <cmath>
#include <functional>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "gpuplan/pricing/purchase_options.hpp"
#include "gpuplan/topology/training_time.hpp"
#include "gpuplan/workload/fit.hpp"

namespace gpuplan::cli {

namespace {

std::string n(double x) { return format_number(x); }
double val(const Figure& f) { return f.value.value_or(NAN); }
std::string star(const Figure& f) { return f.rests_on_assumption() ? "*" : ""; }
std::string two(double x) { return decimals(x, 2); }
std::string whole(double x) { return decimals(x, 0); }
// Seconds with 4 significant digits, trailing zeros kept ("0.3070"); 0 as "0".
std::string secs(double s) { return s == 0 ? std::string("0") : fmt::format("{:#.4g}", s); }
std::string hours_text(double h) { return decimals(h, h < 10 ? 4 : 2) + " h" + (h > 48 ? " (" + decimals(h / 24, 1) + " days)" : std::string()); }

struct TrainOptions {
    std::string model, instance, region = "us-east-1", purchase = "on_demand", recompute = "none";
    std::vector<std::string> models_files;
    double nodes = 1, dp = 0, tp = 1, pp = 1, ep = 1, zero = 0, micro_batch = 1, sequence = 2048, global_batch_tokens = 0;
    double tokens = 1e9, compute_efficiency = 0, measured_intra = 0, measured_inter = 0, measured_host = 0, measured_mfu = 0, overhead_gib = 0;
    bool offload_optimizer = false, offload_parameters = false, allow_cross_node_tp = false, explain = false;
    Format format = Format::table;
    CLI::App* app = nullptr;
    bool given(const char* flag) const { return app->count(flag) > 0; }
};

std::string purchase_words(const std::string& p) { return p == "spot_typical" ? "spot (typical)" : "on-demand"; }

// Core request fields ("layout.tensor") named as the flags that set them.
const std::vector<std::pair<std::string, std::string>> kFlagOf = {
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
};

// Where a figure's number came from, in words: measured, datasheet (catalog), default, given.
std::string origin_words(const Param& p) {
    if (p.source.rfind("measured", 0) == 0) return "measured";
    switch (p.origin) {
    case InputOrigin::catalog: return "datasheet (catalog)";
    case InputOrigin::assumption: return "default assumption";
    case InputOrigin::user: return "given";
    case InputOrigin::derived: return "derived from catalog facts and given figures";
    }
    return "";
}
std::string origin_key(const Param& p) {
    if (p.source.rfind("measured", 0) == 0) return "measured";
    switch (p.origin) {
    case InputOrigin::catalog: return "datasheet";
    case InputOrigin::assumption: return "assumption";
    case InputOrigin::user: return "given";
    case InputOrigin::derived: return "derived";
    }
    return "";
}

LinkClass link_class_named(const std::string& figure_name) {  // "exposed_nvlink_seconds"
    for (LinkClass c : {LinkClass::nvlink, LinkClass::neuronlink, LinkClass::pcie_host_bridge, LinkClass::cross_socket, LinkClass::efa_gdr,
                        LinkClass::efa_staged, LinkClass::ena_tcp, LinkClass::unknown})
        if (figure_name == "exposed_" + std::string(to_string(c)) + "_seconds") return c;
    return LinkClass::none;
}

struct Source {
    std::string key, what, value;
    Param param;
    std::string note;     // "not used: one node"
    std::string display;  // shorter than param.source for the text output (a link's description)
};

std::string run_train(const Catalog& catalog, const TrainOptions& o) {
    const std::vector<ModelSpec> models = load_models_with_files(o.models_files);
    const ModelSpec& model = require_model(models, o.model, "--model");
    require_instance(catalog, o.instance, "--instance");  // "did you mean" for a misspelt name
    const GpuPool pool = instance_pool(catalog, o.instance, o.nodes, "--instance");
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
    if (o.given("--measured-intra-gb-per-s")) q.topology.intra_gb_per_s = measured(o.measured_intra, "intra-node bandwidth, --measured-intra-gb-per-s");
    if (o.given("--measured-inter-gb-per-s")) q.topology.inter_gb_per_s = measured(o.measured_inter, "inter-node bandwidth, --measured-inter-gb-per-s");
    if (o.given("--measured-host-gb-per-s")) q.topology.host_gb_per_s = measured(o.measured_host, "GPU-host bandwidth, --measured-host-gb-per-s");
    if (o.given("--measured-mfu")) q.compute_efficiency = measured(o.measured_mfu, "model FLOPs utilisation, --measured-mfu");
    if (o.given("--compute-efficiency")) q.compute_efficiency = {o.compute_efficiency, InputOrigin::user, "--compute-efficiency"};
    const std::optional<Param> price = catalog_price(catalog, *pool.instance, o.region, o.purchase);
    if (price) q.usd_per_hour = *price;
    q.token_budget = o.tokens;

    // The layout first (the core names the field; say the flag), then memory, then time.
    TrainingTime t;
    try {
        t = training_time(catalog, q);
    } catch (const InputError& e) {
        rethrow_for_flag(e, kFlagOf);
    }

    TrainingMemoryRequest mq = training_memory_request(&model, L);
    if (o.given("--overhead-gib")) mq.runtime_overhead_gib = {o.overhead_gib, InputOrigin::user, "--overhead-gib"};
    TrainingFit fit;
    try {
        fit = check_training_fit(mq, pool);
    } catch (const InputError& e) {
        rethrow_for_flag(e, kFlagOf);
    }
    if (!fit.fits)
        throw InputError(fit.refusal + " (details: gpuplan fit --model " + model.name + " --mode training --instance " + pool.instance->name + " --nodes " +
                         n(o.nodes) + " --dp " + n(mq.data_parallel) + " --tp " + n(mq.tensor_parallel) + " --pp " + n(mq.pipeline_parallel) + " --zero " +
                         std::to_string(mq.zero_stage) + " --micro-batch " + n(mq.micro_batch) + " --sequence " + n(mq.sequence) + " --recompute " +
                         std::string(to_string(mq.recompute)) + ")");
    const TrainingMemory& m = fit.memory;
    const Figure& capacity = fit.capacity_gb;
    const double each_gb = pool.gb_each();
    const bool offload = L.offload_optimizer || L.offload_parameters;

    // Cost: the core multiplies by the price given; with no catalog price it is unknown.
    if (!price)
        t.cost_usd = Figure{"cost_usd", std::nullopt, "USD", "total_hours x usd_per_hour x nodes", "", {}, price_unknown_reason(*pool.instance, o.region, o.purchase)};

    // Warnings the core does not give: host RAM for offloaded states.
    std::vector<std::string> warnings = t.warnings;
    if (offload && fit.host_fits == false)
        warnings.push_back("offloaded states need " + gb_text(val(fit.host_per_node_gb)) + " of host memory per node, more than the " +
                           gb_text(*fit.host_ram_gb.value) + " of RAM of one " + pool.instance->name);
    std::vector<std::string> notes = t.notes;
    if (o.ep > 1) notes.push_back("the memory check does not split expert weights over --ep: model states per GPU are an upper bound");

    // Where the numbers come from.
    std::vector<Source> sources;
    for (const auto& in : t.compute_seconds.inputs)
        if (in.name == "dense_peak_tflops")
            sources.push_back({"dense_peak_tflops", "dense peak per GPU", n(in.value) + " TFLOPS", {in.value, in.origin, in.source}, "", ""});
    sources.push_back({"compute_efficiency", "compute efficiency (MFU)", percent(q.compute_efficiency.value), q.compute_efficiency, "", ""});
    const NodeTopology& topo = t.topology;
    const bool crosses_nodes = o.nodes > 1;
    const auto link_source = [&](const char* key, const char* what, const Link& l, const std::string& note) {
        if (l.cls == LinkClass::none) return;
        Source s{key, what, "", l.gb_per_s, note, l.measured() ? "" : l.description};
        s.value = l.known() ? n(l.gb_per_s.value) + " GB/s per GPU, " + std::string(link_words(l.cls)) : "unknown (" + l.unknown_reason + ")";
        if (!l.known()) s.param.origin = InputOrigin::catalog, s.param.source = l.unknown_reason;
        sources.push_back(std::move(s));
    };
    link_source("intra_gb_per_s", "link inside a node", topo.intra, gpn > 1 ? "" : "not used: one GPU per node");
    link_source("inter_gb_per_s", "link between nodes", topo.inter, crosses_nodes ? "" : "not used: one node");
    if (offload) link_source("host_gb_per_s", "GPU-host link (offload)", topo.host, "");
    sources.push_back({"accelerator_memory_gib_each", "GPU memory", n(pool.gib_each) + " GiB",
                       {pool.gib_each, InputOrigin::catalog, pool.gib_each_input.source}, "", ""});
    if (price)
        sources.push_back({"usd_per_hour", "price per instance", rate(price->value) + "/h " + purchase_words(o.purchase), *price, "", ""});

    // Figures, in order: memory, then time.
    std::vector<const Figure*> figures = {&m.model_states_gb, &m.activations_gb, &m.overhead_gb, &m.total_per_gpu_gb, &capacity, &fit.margin_gb};
    if (offload) figures.push_back(&m.host_per_gpu_gb);
    const std::vector<Figure> time_figures = t.all();
    for (const Figure& f : time_figures) figures.push_back(&f);
    NamedFigures named;
    for (const Figure* f : figures) named.emplace_back(f->name, figure_json(*f));

    const std::string zero_words = L.zero_stage == 0 ? " (DDP)" : L.zero_stage == 3 ? " (FSDP full shard)" : "";
    const double mb = val(t.micro_batches);
    if (o.format == Format::json) {
        nlohmann::json figs = nlohmann::json::object();
        for (const auto& [name, f] : named) figs[name] = f;
        nlohmann::json src = nlohmann::json::object();
        for (const auto& s : sources) {
            const bool catalog_record = s.key == "usd_per_hour" || s.key == "accelerator_memory_gib_each";
            nlohmann::json e = {{"what", s.what}, {"kind", catalog_record ? std::string("catalog") : origin_key(s.param)}, {"source", s.param.source}};
            e["value"] = s.param.value;
            if (!s.note.empty()) e["note"] = s.note;
            if (!s.display.empty()) e["description"] = s.display;
            src[s.key] = e;
        }
        nlohmann::json links = nlohmann::json::array();
        for (const auto& f : t.exposed_by_link) links.push_back(f.name);
        return dump_json({{"model", model.name},
                          {"instance", pool.instance->name},
                          {"nodes", o.nodes},
                          {"gpus", gpus},
                          {"region", o.region},
                          {"purchase", o.purchase},
                          {"token_budget", o.tokens},
                          {"layout",
                           {{"data_parallel", dp}, {"tensor_parallel", tp}, {"pipeline_parallel", pp}, {"expert_parallel", o.ep},
                            {"zero_stage", L.zero_stage}, {"micro_batch", L.micro_batch}, {"sequence", L.sequence},
                            {"global_batch_tokens", L.global_batch_tokens}, {"micro_batches", mb}, {"recompute", o.recompute},
                            {"offload_optimizer", L.offload_optimizer}, {"offload_parameters", L.offload_parameters},
                            {"allow_cross_node_tensor_parallel", L.allow_cross_node_tensor_parallel}}},
                          {"fits", true},
                          {"bottleneck", t.bottleneck},
                          {"warnings", warnings},
                          {"notes", notes},
                          {"exposed_by_link", links},
                          {"sources", src},
                          {"figures", figs}});
    }
    if (o.format == Format::csv) return figures_csv(named);

    std::string out = model.name + " training on " + pool.label + " in " + o.region + ", " + purchase_words(o.purchase) + "\n";
    out += "layout: data parallel " + n(dp) + " x tensor parallel " + n(tp) + " x pipeline parallel " + n(pp) + " = " + n(gpus) +
           (gpus == 1 ? " GPU" : " GPUs") + (o.ep > 1 ? ", expert parallel " + n(o.ep) + " within data parallel" : "") + "; ZeRO stage " +
           std::to_string(L.zero_stage) + zero_words + "; bf16 mixed precision with Adam\n";
    out += "batch: micro-batch " + quantity(L.micro_batch) + " x sequence " + quantity(L.sequence) + " tokens, " + quantity(mb) + " micro-batch" +
           (mb == 1 ? "" : "es") + " per replica per step = " + quantity(L.global_batch_tokens) + " tokens per step; recompute " + o.recompute +
           (offload ? std::string("; offload: ") + (L.offload_parameters ? "optimizer + parameters" : "optimizer") : "") + "\n\n";

    // 1. Memory.
    Table mt;
    mt.columns = {{"memory per GPU", "figure", false}, {"GB", "gb"}, {"GiB", "gib"}};
    const auto mem_row = [&](std::string label, const Figure& f) {
        const bool s = f.rests_on_assumption();
        mt.rows.push_back({text_cell(std::move(label)), number_cell(f.value, two, f.unknown_reason, s),
                           number_cell(f.value ? std::optional<double>(gb_to_gib(*f.value)) : std::nullopt, two, f.unknown_reason, s)});
    };
    mem_row("model states (" + n(val(m.bytes_per_parameter)) + " bytes per parameter)", m.model_states_gb);
    mem_row("activations (recompute " + o.recompute + ")", m.activations_gb);
    mem_row("runtime overhead", m.overhead_gb);
    mem_row("total", m.total_per_gpu_gb);
    mem_row("capacity (" + pool.accelerator_name + ")", capacity);
    mem_row("margin", fit.margin_gb);
    if (offload) mem_row("host memory for offload (per GPU)", m.host_per_gpu_gb);
    out += render_table(mt, o.format);
    out += notes_block("memory: fits — " + gb_gib_text(val(m.total_per_gpu_gb)) + star(m.total_per_gpu_gb) + " per GPU of the " + gb_gib_text(each_gb) +
                           " each " + pool.accelerator_name + " holds; " + gb_text(val(fit.margin_gb)) + star(fit.margin_gb) + " to spare.\n",
                       o.format) +
           "\n";

    // 2. Step time.
    const double step = val(t.step_seconds);
    Table st;
    st.columns = {{"step time", "figure", false}, {"seconds", "seconds"}, {"share", "share"}};
    const auto step_row = [&](std::string label, const Figure& f) {
        const bool s = f.rests_on_assumption();
        Cell share = none_cell();
        if (f.value && std::isfinite(step) && step > 0 && *f.value > 0) share = {percent(*f.value / step), full_precision(*f.value / step)};
        if (!f.value) {
            st.rows.push_back({text_cell(std::move(label)), text_cell(missing_with_reason(f.unknown_reason)), none_cell()});
            return;
        }
        st.rows.push_back({text_cell(std::move(label)), {secs(*f.value) + (s && *f.value != 0 ? "*" : ""), full_precision(*f.value)}, share});
    };
    step_row("compute (" + n(gpus) + " x " + pool.accelerator_name + " at " + percent(q.compute_efficiency.value) + " of dense peak)", t.compute_seconds);
    step_row("exposed data-parallel communication (ZeRO " + std::to_string(L.zero_stage) + ")", t.data_parallel_exposed_seconds);
    step_row("tensor-parallel all-reduces", t.tensor_parallel_seconds);
    step_row("pipeline point-to-point", t.pipeline_p2p_seconds);
    step_row("expert-parallel all-to-alls", t.expert_parallel_seconds);
    step_row("pipeline bubble", t.bubble_seconds);
    step_row("CPU offload (PCIe + CPU Adam)", t.offload_seconds);
    step_row("step", t.step_seconds);
    for (const Figure& f : t.exposed_by_link) {
        const LinkClass c = link_class_named(f.name);
        step_row("exposed communication over " + std::string(link_words(c)) + " (" + std::string(to_string(c)) + ")", f);
    }
    out += render_table(st, o.format);

    // 3. Throughput, time and cost.
    Table rt;
    rt.columns = {{"run", "figure", false}, {"value", "value"}};
    const auto run_row = [&](std::string label, const Figure& f, std::string (*format)(double)) {
        if (!f.value) {
            rt.rows.push_back({text_cell(std::move(label)), text_cell(missing_with_reason(f.unknown_reason))});
            return;
        }
        rt.rows.push_back({text_cell(std::move(label)), {format(*f.value) + star(f), full_precision(*f.value)}});
    };
    run_row("tokens/s", t.tokens_per_second, whole);
    run_row("time for " + quantity(o.tokens) + " tokens", t.total_hours, hours_text);
    run_row("cost, " + purchase_words(o.purchase) + (price ? " at " + rate(price->value) + "/h x " + n(o.nodes) + (o.nodes == 1 ? " node" : " nodes") : ""),
            t.cost_usd, money);
    out += "\n" + render_table(rt, o.format);

    std::string after = "\nbottleneck: " + t.bottleneck + ".\n";
    for (const auto& w : warnings) after += "warning: " + w + "\n";
    for (const auto& note : notes) after += "note: " + note + "\n";
    after += "\nwhere the numbers come from:\n";
    std::vector<KeyValue> kv;
    for (const auto& s : sources) {
        std::string source = s.display.empty() ? s.param.source : s.display;
        if (source.rfind("catalog ", 0) == 0) source = source.substr(8);
        std::string line = s.value + " — ";
        if (s.key == "usd_per_hour" || s.key == "accelerator_memory_gib_each") line += "catalog: " + source;
        else if (s.param.source.rfind("measured", 0) == 0) line += "measured (" + source.substr(std::string("measured: ").size()) + ")";
        else if (s.param.origin == InputOrigin::assumption)
            line += "default assumption (" + (source.rfind("default ", 0) == 0 ? source.substr(8) : source) + ")";
        else if (s.param.origin == InputOrigin::user) line += "given" + (source.empty() ? std::string() : " (" + source + ")");
        else line += origin_words(s.param) + (source.empty() ? std::string() : ": " + source);
        if (!s.note.empty()) line += " [" + s.note + "]";
        kv.push_back({s.what, line});
    }
    kv.push_back({"latencies, overlaps", "default assumptions (docs/models.md): alpha per ring step by link class; share of each strategy's "
                                          "communication hidden under compute"});
    after += render_key_values(kv);

    std::vector<KeyValue> used;
    const auto note_default = [&](const char* flag, const Param& p) {
        if (p.origin == InputOrigin::assumption) used.push_back({flag, fmt::format("{:<9} {}", n(p.value), p.source)});
    };
    note_default("--compute-efficiency", q.compute_efficiency);
    note_default("--overhead-gib", mq.runtime_overhead_gib);
    if (topo.intra.gb_per_s.origin == InputOrigin::assumption && gpn > 1)
        used.push_back({"--measured-intra-gb-per-s", fmt::format("{:<9} {}", n(topo.intra.gb_per_s.value), topo.intra.description)});
    if (topo.inter.gb_per_s.origin == InputOrigin::assumption && crosses_nodes)
        used.push_back({"--measured-inter-gb-per-s", fmt::format("{:<9} {}", n(topo.inter.gb_per_s.value), topo.inter.description)});
    if (L.offload_optimizer) note_default("(no flag)", q.cpu_adam_params_per_s);
    bool any_star = false;
    for (const Figure* f : figures) any_star = any_star || f->rests_on_assumption();
    if (any_star)
        after += "\n* rests on a default assumption (docs/models.md)" + std::string(used.empty() ? ".\n" : "; override with the flag named:\n") +
                 render_key_values(used, "    ");
    if (o.explain) after += explain_all(named);
    return out + notes_block(after, o.format);
}

}  // namespace

Command register_train(CLI::App& parent) {
    auto o = std::make_shared<TrainOptions>();
    CLI::App* app = parent.add_subcommand("train", "Training step time, hours and cost of a model on N x an instance type with a parallel layout");
    o->app = app;
    app->add_option("--model", o->model, "Model preset (see `gpuplan models`) or a model from --models-file")->required()->type_name("NAME");
    add_models_file_option(*app, o->models_files);
    app->add_option("--instance", o->instance, "Instance type (see `gpuplan catalog`)")->required()->type_name("TYPE");
    app->add_option("--nodes", o->nodes, "Number of instances")->capture_default_str()->check(whole_rule(1));
    app->add_option("--dp", o->dp, "Data parallel degree (default: all GPUs / (tp x pp)); dp x tp x pp must equal the GPUs")->check(whole_rule(1));
    app->add_option("--tp", o->tp, "Tensor parallel degree: a divisor of the GPUs of one node")->capture_default_str()->check(whole_rule(1));
    app->add_option("--pp", o->pp, "Pipeline parallel degree")->capture_default_str()->check(whole_rule(1));
    app->add_option("--ep", o->ep, "Expert parallel degree (MoE models), within data parallel")->capture_default_str()->check(whole_rule(1));
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
        ->check(choice_rule({"none", "selective", "full"}));
    app->add_flag("--offload-optimizer", o->offload_optimizer, "ZeRO-Offload: optimizer states and Adam on the host (needs --zero 1, 2 or 3)");
    app->add_flag("--offload-parameters", o->offload_parameters, "Weights in host memory too (needs --zero 3 and --offload-optimizer)");
    app->add_flag("--allow-cross-node-tp", o->allow_cross_node_tp, "Allow tensor parallel across nodes (a multiple of the GPUs per node)");
    app->add_option("--tokens", o->tokens, "Token budget: tokens to train on")->capture_default_str()->check(whole_rule(1));
    add_region_option(*app, o->region);
    app->add_option("--purchase", o->purchase, "Purchase option whose catalog price to use: on_demand|spot_typical")
        ->capture_default_str()
        ->check(choice_rule({"on_demand", "spot_typical"}));
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
  gpuplan train --model llama-3-8b --instance p5.48xlarge --nodes 2 --zero 1 --tokens 1e11 --purchase spot_typical
  gpuplan train --model llama-3.1-70b --instance p5.48xlarge --nodes 4 --tp 8 --zero 1 --recompute selective --global-batch-tokens 1048576
  gpuplan train --model llama-3-8b --instance p5.48xlarge --nodes 2 --zero 1 --measured-inter-gb-per-s 38.5 --measured-mfu 0.45 --format json)");
    return {app, [o](const Catalog& c) { return run_train(c, *o); }};
}

}  // namespace gpuplan::cli
