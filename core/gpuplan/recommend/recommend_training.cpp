// recommend_training.cpp — the training sweep of recommend.hpp.
#include <algorithm>
#include <cmath>
#include <optional>

#include "gpuplan/input_error.hpp"
#include "gpuplan/pricing/purchase_options.hpp"
#include "gpuplan/recommend/recommend.hpp"
#include "gpuplan/recommend/picks.hpp"
#include "gpuplan/workload/training_time.hpp"

namespace gpuplan {

namespace {

struct LayoutChoice {
    double tensor = 1;
    int zero_stage = 0;
};

// Least communication first: data parallel only, then sharding, then tensor parallel.
std::vector<LayoutChoice> layout_order(double gpus_per_node) {
    std::vector<LayoutChoice> order = {{1, 0}, {1, 1}, {1, 2}, {1, 3}};
    if (gpus_per_node > 1) order.insert(order.end(), {{gpus_per_node, 1}, {gpus_per_node, 3}});
    return order;
}

bool fits(const TrainingRecommendRequest& q, const Instance& inst, double gpus, const LayoutChoice& c) {
    ParallelLayout layout;
    layout.tensor = c.tensor;
    layout.data = gpus / c.tensor;
    layout.zero_stage = c.zero_stage;
    layout.micro_batch = q.micro_batch;
    layout.sequence = q.sequence;
    layout.recompute = q.recompute;
    return *training_memory(training_memory_request(q.model, layout)).total_per_gpu_gb.value * 1e9 <=
           *inst.accelerator_memory_gib_each * kBytesPerGiB;
}

// Why an instance cannot take part in the sweep at all ("" when it can).
std::string why_not_trainable(const Instance& inst, const Accelerator* acc) {
    if (!acc) return "accelerator unknown";
    if (acc->kind != AcceleratorKind::gpu) return "not a GPU: the training model is for GPUs";
    if (!inst.accelerator_count || *inst.accelerator_count < 1 || !inst.accelerator_memory_gib_each) return "no whole GPUs (a fractional slice cannot train in parallel)";
    return "";
}

std::optional<LayoutChoice> first_fitting_layout(const TrainingRecommendRequest& q, const Instance& inst, double gpus_per_node, double nodes) {
    for (const auto& c : layout_order(gpus_per_node))
        if (fits(q, inst, gpus_per_node * nodes, c)) return c;
    return std::nullopt;
}

TrainingTimeRequest timing_request(const TrainingRecommendRequest& q, const Instance& inst, double nodes, const LayoutChoice& choice) {
    TrainingTimeRequest t;
    t.model = q.model;
    t.instance = &inst;
    t.nodes = nodes;
    t.layout.tensor = choice.tensor;
    t.layout.data = *inst.accelerator_count * nodes / choice.tensor;
    t.layout.zero_stage = choice.zero_stage;
    t.layout.micro_batch = q.micro_batch;
    t.layout.sequence = q.sequence;
    t.layout.global_batch_tokens = q.global_batch_tokens;
    t.layout.recompute = q.recompute;
    t.token_budget = q.token_budget;
    return t;
}

// One instance type at one node count, timed once (the step does not depend on the region or
// the way to buy), or why it takes no part.
struct TimedOption {
    const Instance* instance = nullptr;
    double nodes = 1;
    std::string dropped_because = {};          // the type or node count cannot train the model
    std::optional<LayoutChoice> choice = {};
    std::optional<TrainingTime> time = {};     // none: the step model refused the layout (time_error)
    std::string time_error = {};
    std::string layout_text = {};              // "2 node(s): dp 16, tp 1, ZeRO 1", worded once for every region
};

// Every instance type (of the families asked) x node count (1, 2, 4, ... max_nodes), timed.
std::vector<TimedOption> timed_options(const Catalog& catalog, const TrainingRecommendRequest& q) {
    // Only values, bottlenecks and refusals are read from the timings; each pick is timed again,
    // with its working, by priced_in_region (explain.hpp: figures first, explanations on demand).
    const FiguresOnly values_only;
    std::vector<TimedOption> out;
    for (const auto& inst : catalog.instances) {
        if (!q.families.empty() && std::find(q.families.begin(), q.families.end(), inst.family) == q.families.end()) continue;
        const std::string why = why_not_trainable(inst, inst.accelerator ? catalog.find_accelerator(*inst.accelerator) : nullptr);
        if (!why.empty()) {
            out.push_back({.instance = &inst, .nodes = 1, .dropped_because = why});
            continue;
        }
        std::optional<NodeTopology> node;  // the type's links, built once for its node counts
        for (double nodes = 1; nodes <= q.max_nodes; nodes *= 2) {
            TimedOption o{.instance = &inst, .nodes = nodes, .choice = first_fitting_layout(q, inst, *inst.accelerator_count, nodes)};
            if (!o.choice) {
                o.dropped_because = "does not fit: model states + activations exceed GPU memory with every layout tried";
            } else {
                try {
                    if (!node) node = node_topology(catalog, inst);
                    TrainingTimeRequest t = timing_request(q, inst, nodes, *o.choice);
                    t.node = &*node;
                    o.time = training_time(catalog, t);
                    o.layout_text = format_number(nodes) + " node(s): dp " + format_number(t.layout.data) + ", tp " + format_number(o.choice->tensor) +
                                    ", ZeRO " + std::to_string(o.choice->zero_stage);
                } catch (const InputError& e) {
                    o.time_error = e.what();
                }
            }
            out.push_back(std::move(o));
        }
    }
    return out;
}

// One timed option bought one way in q.region: a candidate, kept or dropped with the reason.
TrainingCandidate priced_candidate(const TrainingRecommendRequest& q, const TimedOption& o, PriceKind option) {
    const Instance& inst = *o.instance;
    TrainingCandidate c;
    c.instance = inst.name;
    c.purchase = option;
    c.nodes = o.nodes;
    c.kept = false;
    const Price* price = inst.find_price(q.region, option);
    if (!o.dropped_because.empty()) c.dropped_because = o.dropped_because;
    else if (!o.time) c.dropped_because = "layout rejected: " + o.time_error;
    else if (!o.time->total_hours.value) c.dropped_because = "time unknown: " + o.time->total_hours.unknown_reason;
    else if (!price || !price->usd_per_hour) c.dropped_because = "no " + std::string(to_string(option)) + " price in " + q.region;
    if (!c.dropped_because.empty()) return c;
    const TrainingTimeRequest t = timing_request(q, inst, o.nodes, *o.choice);
    c.kept = true;
    c.parallel = t.layout;
    c.layout = o.layout_text;
    c.hours = *o.time->total_hours.value;
    c.cost_usd = c.hours * o.nodes * *price->usd_per_hour;
    c.bottleneck = o.time->bottleneck;
    if (q.deadline_hours && c.hours > *q.deadline_hours) {
        c.kept = false;
        c.dropped_because = "misses the deadline of " + format_number(*q.deadline_hours) + " h";
    } else if (q.budget_usd && c.cost_usd > *q.budget_usd) {
        c.kept = false;
        c.dropped_because = "over the budget $" + format_number(*q.budget_usd);
    }
    return c;
}

void check_request(const TrainingRecommendRequest& q) {
    if (!q.model) throw InputError("model", "none", "a model preset or definition");
    if (!(q.token_budget > 0)) throw InputError("token_budget", format_number(q.token_budget), "tokens > 0");
    if (!(q.max_nodes >= 1)) throw InputError("max_nodes", format_number(q.max_nodes), "at least 1");
}

// The timed options priced in q.region at every way to buy: candidates, frontier and picks.
TrainingRecommendation priced_in_region(const Catalog& catalog, const TrainingRecommendRequest& q, const std::vector<TimedOption>& timed,
                                        PickWorking working) {
    const std::vector<PriceKind> purchase = q.purchase.empty() ? std::vector<PriceKind>{PriceKind::on_demand} : q.purchase;
    TrainingRecommendation r;
    for (const TimedOption& o : timed)
        for (const PriceKind option : purchase) r.candidates.push_back(priced_candidate(q, o, option));
    r.evaluated = r.candidates.size();
    frontier_and_picks(r, [](const TrainingCandidate& c) { return c.cost_usd; }, [](const TrainingCandidate& c) { return c.hours; });
    // Each pick's working: its step at its catalog price (the sweep above timed it without one).
    if (working == PickWorking::left_out) return r;
    for (std::size_t i : r.picks) {
        const TrainingCandidate& c = r.candidates[i];
        TrainingTimeRequest t;
        t.model = q.model;
        t.instance = catalog.find_instance(c.instance);
        t.nodes = c.nodes;
        t.layout = c.parallel;
        t.token_budget = q.token_budget;
        if (auto price = catalog_price(catalog, *t.instance, q.region, c.purchase)) t.usd_per_hour = *price;
        r.pick_times.push_back(training_time(catalog, t));
        r.pick_quotas.push_back(quota_line(*t.instance, c.nodes, c.purchase, q.quotas));
    }
    return r;
}

}  // namespace

TrainingRecommendation recommend_training(const Catalog& catalog, const TrainingRecommendRequest& q) {
    check_request(q);
    return priced_in_region(catalog, q, timed_options(catalog, q), PickWorking::built);
}

std::vector<TrainingRecommendation> recommend_training_in_regions(const Catalog& catalog, const TrainingRecommendRequest& request,
                                                                  const std::vector<std::string>& regions) {
    check_request(request);
    for (std::size_t k = 0; k < regions.size(); ++k)
        require_region(catalog, regions[k], "regions[" + std::to_string(k) + "]", "\"" + regions[k] + "\"");
    const std::vector<TimedOption> timed = timed_options(catalog, request);
    std::vector<TrainingRecommendation> out;
    TrainingRecommendRequest q = request;
    for (const std::string& region : regions) {
        q.region = region;
        out.push_back(priced_in_region(catalog, q, timed, PickWorking::left_out));
    }
    return out;
}

std::vector<const Figure*> training_pick_figures(const TrainingTime& t) {
    return {&t.compute_seconds, &t.step_seconds, &t.tokens_per_second, &t.total_hours, &t.cost_usd};
}

std::vector<DroppedOptions> dropped_by_reason(const TrainingRecommendation& r) {
    return detail::dropped_by_reason(r.candidates, [](const TrainingCandidate& c) {
        return c.instance + " x " + format_number(c.nodes) + " (" + std::string(to_string(c.purchase)) + ")";
    });
}
std::size_t kept_count(const TrainingRecommendation& r) { return detail::kept_count(r.candidates); }

}  // namespace gpuplan
