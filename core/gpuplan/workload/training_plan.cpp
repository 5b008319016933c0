// training_plan.cpp — fit, step time, cost and sources of one training job (training_plan.hpp).
#include "gpuplan/workload/training_plan.hpp"
#include "gpuplan/formula_text.hpp"

#include "gpuplan/input_error.hpp"
#include "gpuplan/pricing/purchase_options.hpp"
#include "gpuplan/text.hpp"

namespace gpuplan {

namespace {

// The numbers a step time rests on: the dense peak, the compute efficiency, the links the
// layout uses (and those it does not, said so), GPU memory and the price.
std::vector<PlanSource> plan_sources(const TrainingPlan& p, const TrainingTimeRequest& q) {
    std::vector<PlanSource> sources;
    // Only when the step time used it: an FP8 step without a BF16 peak is unknown, and names none.
    if (const std::optional<Param>& peak = p.time.dense_peak_tflops; peak && p.time.compute_seconds.value)
        sources.push_back({"dense_peak_tflops", "dense peak per GPU", n(peak->value) + " TFLOPS", *peak, false, "", ""});
    sources.push_back({"compute_efficiency", "compute efficiency (share of dense peak)", percent(p.time.compute_efficiency.value), p.time.compute_efficiency, false, "", ""});
    const auto link_source = [&](const char* key, const char* what, const Link& l, const std::string& note) {
        if (l.cls == LinkClass::none) return;
        PlanSource s{key, what, "", l.gb_per_s, false, note, l.measured() ? "" : l.description};
        s.value_text = l.known() ? n(l.gb_per_s.value) + " GB/s per GPU, " + std::string(link_words(l.cls)) : "unknown (" + l.unknown_reason + ")";
        if (!l.known()) s.param.origin = InputOrigin::catalog, s.param.source = l.unknown_reason;
        sources.push_back(std::move(s));
    };
    const NodeTopology& topo = p.time.topology;
    link_source("intra_gb_per_s", "link inside a node", topo.intra, p.pool.gpus_per_node > 1 ? "" : "not used: one GPU per node");
    link_source("inter_gb_per_s", "link between nodes", topo.inter, p.pool.nodes > 1 ? "" : "not used: one node");
    if (q.layout.offload_optimizer || q.layout.offload_parameters) link_source("host_gb_per_s", "GPU-host link (offload)", topo.host, "");
    sources.push_back({"accelerator_memory_gib_each", "GPU memory", n(p.pool.gib_each) + " GiB",
                       {p.pool.gib_each, InputOrigin::catalog, p.pool.gib_each_input.source}, true, "", ""});
    if (p.price)
        sources.push_back({"usd_per_hour", "price per instance", rate(p.price->value) + "/h " + std::string(price_kind_words(p.purchase)), *p.price,
                           true, "", ""});
    return sources;
}

}  // namespace

TrainingPlan plan_training(const Catalog& catalog, const TrainingPlanRequest& r) {
    const TrainingTimeRequest& q0 = r.time;
    TrainingPlan p;
    p.region = r.region;
    p.purchase = r.purchase;
    p.token_budget = q0.token_budget.value_or(kDefaultTokenBudget);
    p.layout = q0.layout;
    p.pool = instance_pool(catalog, q0.instance->name, q0.nodes, "instance");
    const double all_gpus = p.pool.gpus_per_node;
    if (q0.gpus_per_node && *q0.gpus_per_node < all_gpus) p.pool.gpus_per_node = *q0.gpus_per_node;
    p.price = catalog_price(catalog, *q0.instance, r.region, r.purchase);
    p.quota = quota_line(*q0.instance, q0.nodes, r.purchase, r.quotas);
    TrainingTimeRequest q = q0;
    if (p.price) q.usd_per_hour = *p.price;

    // The layout first (training_time names the field), then memory, then time.
    p.time = training_time(catalog, q);
    TrainingMemoryRequest mq = training_memory_request(q.model, q.layout);
    if (r.overhead_gib) mq.runtime_overhead_gib = {*r.overhead_gib, InputOrigin::user, "--overhead-gib"};
    p.fit = check_training_fit(mq, p.pool);
    if (!p.price)  // the core multiplies by the price given; with no catalog price the cost is unknown
        p.time.cost_usd = Figure{.name = "cost_usd", .value = std::nullopt, .unit = "USD", .formula = "total_hours x usd_per_hour x nodes", .worked = "", .inputs = {},
                                 .unknown_reason = price_unknown_reason(*q.instance, r.region, r.purchase)};

    // A layout that does not fit in GPU memory cannot run: its step, time and cost would read as
    // a plan's (the Training view showed them in normal type), so they are unknown, with the
    // memory verdict as the reason; the memory breakdown stays, to show what to change.
    const bool refused_for_memory = !p.fit.fits && p.fit.memory.total_per_gpu_gb.value && p.fit.capacity_gb.value;
    if (refused_for_memory) {
        const std::string why = "the layout does not fit in GPU memory (" + gb_text(*p.fit.memory.total_per_gpu_gb.value) + " per GPU against the " +
                                gb_text(*p.fit.capacity_gb.value) + " of one " + q.instance->name +
                                "): not timed or priced; lower the micro-batch, recompute more, raise the ZeRO stage or add nodes";
        for (Figure* f : {&p.time.step_seconds, &p.time.tokens_per_second, &p.time.tokens_per_second_per_gpu, &p.time.mfu, &p.time.total_seconds,
                          &p.time.total_hours, &p.time.cost_usd})
            *f = unknown_figure(f->name, f->unit, f->formula, why);
    }
    p.warnings = p.time.warnings;
    // training_time's own "does not fit" says the same as those reasons, in flags: only where they are not given.
    if (!refused_for_memory && !p.time.does_not_fit.empty()) p.warnings.push_back(p.time.does_not_fit);
    if (p.fit.host_fits == false)
        p.warnings.push_back("offloaded states need " + gb_text(*p.fit.host_per_node_gb.value) + " of host memory per node, more than the " +
                             gb_text(*p.fit.host_ram_gb.value) + " of RAM of one " + q.instance->name);
    p.notes = p.time.notes;
    if (p.pool.gpus_per_node < all_gpus)
        p.notes.push_back("the cost is of whole instances; on a node shared with other jobs (Kubernetes) this job's share is " +
                          format_number(p.pool.gpus_per_node) + "/" + format_number(all_gpus) + " of it");
    if (q.layout.expert > 1)
        p.notes.push_back("the memory check does not split expert weights over --ep: model states per GPU are an upper bound");
    p.sources = plan_sources(p, q);
    if (!p.time.total_hours.value) {
        p.run_quotes_unavailable = "the run's hours are unknown: " + p.time.total_hours.unknown_reason;
    } else if (!q.instance->offered_in(r.region)) {
        p.run_quotes_unavailable = price_unknown_reason(*q.instance, r.region, PriceKind::on_demand);
    } else {
        QuoteRequest run;
        run.instance = q.instance->name;
        run.region = r.region;
        run.hours = *p.time.total_hours.value;
        run.count = q.nodes;
        p.run_quotes = quote_purchase_options(catalog, run);
    }
    return p;
}

std::vector<const Figure*> TrainingPlan::figures() const {
    const TrainingMemory& m = fit.memory;
    std::vector<const Figure*> out = {&m.model_states_gb, &m.activations_gb, &m.overhead_gb, &m.total_per_gpu_gb, &fit.capacity_gb, &fit.margin_gb};
    if (fit.request.offload_optimizer || fit.request.offload_parameters) out.push_back(&m.host_per_gpu_gb);
    for (const Figure* f : {&time.micro_batches, &time.compute_seconds, &time.data_parallel_comm_seconds, &time.data_parallel_exposed_seconds,
                            &time.tensor_parallel_seconds, &time.pipeline_p2p_seconds, &time.expert_parallel_seconds, &time.bubble_seconds,
                            &time.offload_seconds})
        out.push_back(f);
    for (const Figure& f : time.exposed_by_link) out.push_back(&f);
    for (const Figure* f : {&time.step_seconds, &time.tokens_per_second, &time.tokens_per_second_per_gpu, &time.mfu, &time.total_seconds, &time.total_hours, &time.cost_usd})
        out.push_back(f);
    return out;
}

const Figure* exposed_communication(const TrainingTime& time, LinkClass cls) {
    const std::string name = "exposed_" + std::string(to_string(cls)) + "_seconds";
    for (const Figure& f : time.exposed_by_link)
        if (f.name == name) return &f;
    return nullptr;
}

std::string_view source_kind(const PlanSource& s) { return s.catalog_record ? to_string(InputOrigin::catalog) : to_string(s.param.origin); }

nlohmann::json to_json(const TrainingPlan& p) {
    nlohmann::json figs = nlohmann::json::object();
    for (const Figure* f : p.figures()) figs[f->name] = figure_json(*f);
    nlohmann::json src = nlohmann::json::object();
    for (const PlanSource& s : p.sources) {
        nlohmann::json e = {{"what", s.what}, {"kind", source_kind(s)}, {"source", s.param.source}, {"value", s.param.value}};
        if (!s.note.empty()) e["note"] = s.note;
        if (!s.description.empty()) e["description"] = s.description;
        src[s.key] = e;
    }
    nlohmann::json links = nlohmann::json::array();
    for (const Figure& f : p.time.exposed_by_link) links.push_back(f.name);
    const ParallelLayout& L = p.layout;
    nlohmann::json options = nlohmann::json::array();
    for (const Quote& quote : p.run_quotes) options.push_back(to_json(quote));
    nlohmann::json purchase_options = {{"options", options}};
    if (!p.run_quotes_unavailable.empty()) purchase_options["unavailable_reason"] = p.run_quotes_unavailable;
    return {{"model", p.fit.request.model->name},
            {"instance", p.pool.instance->name},
            {"nodes", p.pool.nodes},
            {"gpus", p.pool.gpus()},
            {"region", p.region},
            {"purchase", to_string(p.purchase)},
            {"token_budget", p.token_budget},
            {"layout",
             {{"data_parallel", L.data}, {"tensor_parallel", L.tensor}, {"pipeline_parallel", L.pipeline}, {"expert_parallel", L.expert},
              {"zero_stage", L.zero_stage}, {"micro_batch", L.micro_batch}, {"sequence", L.sequence},
              {"global_batch_tokens", L.global_batch_tokens}, {"micro_batches", p.time.micro_batches.value.value_or(0)},
              {"recompute", to_string(L.recompute)}, {"offload_optimizer", L.offload_optimizer}, {"offload_parameters", L.offload_parameters},
              {"allow_cross_node_tensor_parallel", L.allow_cross_node_tensor_parallel}}},
            {"fits", p.fit.fits},
            {"memory_verdict", p.fit.verdict},
            {"bottleneck", p.time.bottleneck},
            {"warnings", p.warnings},
            {"notes", p.notes},
            {"exposed_by_link", links},
            {"sources", src},
            {"figures", figs},
            {"quota", to_json(p.quota)},
            {"purchase_options", purchase_options}};
}

}  // namespace gpuplan
