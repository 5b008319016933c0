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

// The sweep's candidates as they are found, kept or dropped with the reason.
struct TrainingSweep {
    const TrainingRecommendRequest& q;
    TrainingRecommendation& r;

    void drop(const Instance& inst, PriceKind option, double nodes, std::string why) {
        TrainingCandidate c;
        c.instance = inst.name;
        c.purchase = option;
        c.nodes = nodes;
        c.kept = false;
        c.dropped_because = std::move(why);
        r.candidates.push_back(std::move(c));
        ++r.evaluated;
    }

    // One node count of one instance type, timed once, priced at every purchase option.
    void price(const Instance& inst, double nodes, const LayoutChoice& choice, const TrainingTimeRequest& t, const std::optional<TrainingTime>& time,
               const std::string& time_error) {
        for (const PriceKind option : purchase()) {
            if (!time) {
                drop(inst, option, nodes, "layout rejected: " + time_error);
                continue;
            }
            if (!time->total_hours.value) {
                drop(inst, option, nodes, "time unknown: " + time->total_hours.unknown_reason);
                continue;
            }
            const Price* price = inst.find_price(q.region, option);
            if (!price || !price->usd_per_hour) {
                drop(inst, option, nodes, "no " + std::string(to_string(option)) + " price in " + q.region);
                continue;
            }
            ++r.evaluated;
            TrainingCandidate c;
            c.instance = inst.name;
            c.purchase = option;
            c.nodes = nodes;
            c.parallel = t.layout;
            c.layout = format_number(nodes) + " node(s): dp " + format_number(t.layout.data) + ", tp " + format_number(choice.tensor) + ", ZeRO " +
                       std::to_string(choice.zero_stage);
            c.hours = *time->total_hours.value;
            c.cost_usd = c.hours * nodes * *price->usd_per_hour;
            c.bottleneck = time->bottleneck;
            if (q.deadline_hours && c.hours > *q.deadline_hours) {
                c.kept = false;
                c.dropped_because = "misses the deadline of " + format_number(*q.deadline_hours) + " h";
            } else if (q.budget_usd && c.cost_usd > *q.budget_usd) {
                c.kept = false;
                c.dropped_because = "over the budget $" + format_number(*q.budget_usd);
            }
            r.candidates.push_back(std::move(c));
        }
    }

    std::vector<PriceKind> purchase() const { return q.purchase.empty() ? std::vector<PriceKind>{PriceKind::on_demand} : q.purchase; }

    // Every node count of one instance type (1, 2, 4, ... max_nodes).
    void instance(const Catalog& catalog, const Instance& inst) {
        const std::string why = why_not_trainable(inst, inst.accelerator ? catalog.find_accelerator(*inst.accelerator) : nullptr);
        if (!why.empty()) {
            for (const PriceKind option : purchase()) drop(inst, option, 1, why);
            return;
        }
        for (double nodes = 1; nodes <= q.max_nodes; nodes *= 2) {
            const std::optional<LayoutChoice> choice = first_fitting_layout(q, inst, *inst.accelerator_count, nodes);
            if (!choice) {
                for (const PriceKind option : purchase()) drop(inst, option, nodes, "does not fit: model states + activations exceed GPU memory with every layout tried");
                continue;
            }
            const TrainingTimeRequest t = timing_request(q, inst, nodes, *choice);
            std::optional<TrainingTime> time;
            std::string time_error;
            try {
                time = training_time(catalog, t);
            } catch (const InputError& e) {
                time_error = e.what();
            }
            price(inst, nodes, *choice, t, time, time_error);
        }
    }
};

}  // namespace

TrainingRecommendation recommend_training(const Catalog& catalog, const TrainingRecommendRequest& q) {
    if (!q.model) throw InputError("model", "none", "a model preset or definition");
    if (!(q.token_budget > 0)) throw InputError("token_budget", format_number(q.token_budget), "tokens > 0");
    if (!(q.max_nodes >= 1)) throw InputError("max_nodes", format_number(q.max_nodes), "at least 1");
    TrainingRecommendation r;
    TrainingSweep sweep{q, r};
    for (const auto& inst : catalog.instances)
        if (q.families.empty() || std::find(q.families.begin(), q.families.end(), inst.family) != q.families.end()) sweep.instance(catalog, inst);
    frontier_and_picks(r, [](const TrainingCandidate& c) { return c.cost_usd; }, [](const TrainingCandidate& c) { return c.hours; });
    // Each pick's working: its step at its catalog price (the sweep above timed it without one).
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
    }
    return r;
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
