// training_plan_view.cpp — a training plan as `gpuplan train` prints it (training_plan_view.hpp).
#include "training_plan_view.hpp"
#include "gpuplan/formula_text.hpp"

#include <cmath>

#include <fmt/format.h>

namespace gpuplan::cli {

namespace {

std::string star(const Figure& f) { return f.rests_on_assumption() ? "*" : ""; }
std::string two(double x) { return decimals(x, 2); }
std::string whole(double x) { return decimals(x, 0); }
// Seconds with 4 significant digits, trailing zeros kept ("0.3070"); 0 as "0".
std::string step_seconds_text(double s) { return s == 0 ? std::string("0") : fmt::format("{:#.4g}", s); }
std::string hours_text(double h) { return decimals(h, h < 10 ? 4 : 2) + " h" + (h > 48 ? " (" + decimals(h / 24, 1) + " days)" : std::string()); }

// Where a figure's number came from, in words: measured, datasheet (catalog), default, given.
std::string origin_words(const Param& p) {
    switch (p.origin) {
    case InputOrigin::measured: return "measured";
    case InputOrigin::catalog: return "datasheet (catalog)";
    case InputOrigin::assumption: return "default assumption";
    case InputOrigin::user: return "given";
    case InputOrigin::derived: return "derived from catalog facts and given figures";
    }
    return "";
}

LinkClass link_class_named(const std::string& figure_name) {  // "exposed_nvlink_seconds"
    for (LinkClass c : {LinkClass::nvlink, LinkClass::neuronlink, LinkClass::pcie_host_bridge, LinkClass::cross_socket, LinkClass::efa_gdr,
                        LinkClass::efa_staged, LinkClass::ena_tcp, LinkClass::unknown})
        if (figure_name == "exposed_" + std::string(to_string(c)) + "_seconds") return c;
    return LinkClass::none;
}

}  // namespace

std::string training_plan_text(const TrainingPlan& plan, const TrainingTimeRequest& q, Format format, bool explain) {
    const GpuPool& pool = plan.pool;
    const ModelSpec& model = *plan.fit.request.model;
    const ParallelLayout& L = plan.layout;
    const TrainingFit& fit = plan.fit;
    const TrainingMemoryRequest& mq = fit.request;
    const TrainingMemory& m = fit.memory;
    const TrainingTime& t = plan.time;
    const NodeTopology& topo = t.topology;
    const double gpn = pool.gpus_per_node, gpus = pool.gpus(), dp = L.data, tp = L.tensor, pp = L.pipeline, each_gb = pool.gb_each();
    const bool offload = L.offload_optimizer || L.offload_parameters, crosses_nodes = pool.nodes > 1;
    const PriceKind purchase = plan.purchase;
    const std::optional<Param>& price = plan.price;
    const std::vector<const Figure*> figures = plan.figures();
    NamedFigures named;
    for (const Figure* f : figures) named.emplace_back(f->name, figure_json(*f));
    const std::string zero_words = L.zero_stage == 0 ? " (DDP)" : L.zero_stage == 3 ? " (FSDP full shard)" : "";
    const std::string recompute(to_string(L.recompute));
    const double mb = val(t.micro_batches);

    std::string out = model.name + " training on " + pool.label + " in " + plan.region + ", " + std::string(price_kind_words(purchase)) + "\n";
    out += "layout: data parallel " + n(dp) + " x tensor parallel " + n(tp) + " x pipeline parallel " + n(pp) + " = " + n(gpus) +
           (gpus == 1 ? " GPU" : " GPUs") + (L.expert > 1 ? ", expert parallel " + n(L.expert) + " within data parallel" : "") + "; ZeRO stage " +
           std::to_string(L.zero_stage) + zero_words +
           (q.precision == TrainingPrecision::fp8 ? "; FP8 linear layers (bf16 attention and states) with Adam\n" : "; bf16 mixed precision with Adam\n");
    out += "batch: micro-batch " + quantity(L.micro_batch) + " x sequence " + quantity(L.sequence) + " tokens, " + quantity(mb) + " micro-batch" +
           (mb == 1 ? "" : "es") + " per replica per step = " + quantity(L.global_batch_tokens) + " tokens per step; recompute " + recompute +
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
    mem_row("activations (recompute " + recompute + ")", m.activations_gb);
    mem_row("runtime overhead", m.overhead_gb);
    mem_row("total", m.total_per_gpu_gb);
    mem_row("capacity (" + pool.accelerator_name + ")", fit.capacity_gb);
    mem_row("margin", fit.margin_gb);
    if (offload) mem_row("host memory for offload (per GPU)", m.host_per_gpu_gb);
    out += render_table(mt, format);
    out += notes_block("memory: fits — " + gb_gib_text(val(m.total_per_gpu_gb)) + star(m.total_per_gpu_gb) + " per GPU of the " + gb_gib_text(each_gb) +
                           " each " + pool.accelerator_name + " holds; " + gb_text(val(fit.margin_gb)) + star(fit.margin_gb) + " to spare.\n",
                       format) +
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
        st.rows.push_back({text_cell(std::move(label)), {step_seconds_text(*f.value) + (s && *f.value != 0 ? "*" : ""), full_precision(*f.value)}, share});
    };
    step_row("compute (" + n(gpus) + " x " + pool.accelerator_name + " at " + percent(t.compute_efficiency.value) + " of dense peak)", t.compute_seconds);
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
    out += render_table(st, format);

    // 3. Throughput, time and cost.
    Table rt;
    rt.columns = {{"run", "figure", false}, {"value", "value"}};
    const auto run_row = [&](std::string label, const Figure& f, std::string (*format_value)(double)) {
        if (!f.value) {
            rt.rows.push_back({text_cell(std::move(label)), text_cell(missing_with_reason(f.unknown_reason))});
            return;
        }
        rt.rows.push_back({text_cell(std::move(label)), {format_value(*f.value) + star(f), full_precision(*f.value)}});
    };
    run_row("tokens/s", t.tokens_per_second, whole);
    run_row("tokens/s per GPU", t.tokens_per_second_per_gpu, whole);
    run_row("MFU (model FLOPs / step / dense peak)", t.mfu, [](double x) { return percent(x); });
    run_row("time for " + quantity(plan.token_budget) + " tokens", t.total_hours, hours_text);
    run_row("cost, " + std::string(price_kind_words(purchase)) + (price ? " at " + rate(price->value) + "/h x " + n(pool.nodes) + (pool.nodes == 1 ? " node" : " nodes") : ""),
            t.cost_usd, money);
    out += "\n" + render_table(rt, format);

    std::string after = "\nbottleneck: " + t.bottleneck + ".\n";
    for (const auto& w : plan.warnings) after += "warning: " + w + "\n";
    for (const auto& note : plan.notes) after += "note: " + note + "\n";
    after += "\nwhere the numbers come from:\n";
    std::vector<KeyValue> kv;
    for (const PlanSource& s : plan.sources) {
        std::string source = s.description.empty() ? s.param.source : s.description;
        if (source.rfind("catalog ", 0) == 0) source = source.substr(8);
        std::string line = s.value_text + " — ";
        if (s.catalog_record) line += "catalog: " + source;
        else if (s.param.origin == InputOrigin::measured) line += "measured (" + source.substr(std::string("measured: ").size()) + ")";
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
    note_default("--compute-efficiency", t.compute_efficiency);
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
    if (explain) after += explain_all(named);
    return out + notes_block(after, format);
}

}  // namespace gpuplan::cli
