// training_plan.hpp — one training job planned whole: does the layout fit in GPU memory
// (workload/fit.hpp), how long is a step and the run (training_time.hpp), what the hours cost
// at a catalog price, which warnings apply, and where every number it rests on comes from
// (datasheet, measured, default, given). `gpuplan train` and the scenario's `train` section
// both ask here; `to_json` is the one serialiser of the answer.
#pragma once

#include "gpuplan/pricing/quota.hpp"

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/pricing/purchase_options.hpp"
#include "gpuplan/workload/training_time.hpp"
#include "gpuplan/workload/fit.hpp"

namespace gpuplan {

struct TrainingPlanRequest {
    TrainingTimeRequest time;                 // model, instance, nodes, layout, overrides, token budget
    std::string region = "us-east-1";
    PriceKind purchase = PriceKind::on_demand;  // whose catalog price the hours cost
    std::optional<double> overhead_gib;       // replaces the default runtime overhead when given
    AccountQuotas quotas;                     // the account's vCPU quotas (pricing/quota.hpp); none: AWS's defaults
};

// One number the plan rests on, and where it comes from.
struct PlanSource {
    std::string key;           // "compute_efficiency", "intra_gb_per_s", "usd_per_hour", ...
    std::string what;          // "compute efficiency (MFU)"
    std::string value_text;    // "40.00%", "450 GB/s per GPU, NVLink/NVSwitch"
    Param param;
    bool catalog_record = false;  // a catalog fact as such (a price, a memory size)
    std::string note;          // "not used: one node"
    std::string description;   // a link's description, when shorter than its source
};

struct TrainingPlan {
    GpuPool pool;
    TrainingFit fit;
    TrainingTime time;                        // the cost is unknown (with the reason) without a price
    std::optional<Param> price;
    std::string region;
    PriceKind purchase = PriceKind::on_demand;
    double token_budget = 0;
    ParallelLayout layout;
    std::vector<std::string> warnings, notes;  // the step's and the plan's own
    std::vector<PlanSource> sources;
    // The run's hours on its nodes under every way to buy them (pricing/purchase_options.hpp):
    // commitments cost their whole term. Empty, with the reason, when the run's hours or the
    // type's on-demand price are unknown.
    std::vector<Quote> run_quotes;
    std::string run_quotes_unavailable;
    QuotaLine quota;                          // the vCPUs the nodes need of their quota class

    std::vector<const Figure*> figures() const;  // memory, then time
};

// Throws InputError naming the field (layout.*, instance, region) for an invalid request. A
// layout that does not fit comes back with fit.fits false; the step time is computed anyway
// and a warning says it does not fit (a command refuses it with fit.refusal).
TrainingPlan plan_training(const Catalog& catalog, const TrainingPlanRequest& request);

// The `gpuplan train --format json` document.
nlohmann::json to_json(const TrainingPlan& plan);

// The step's exposed communication over links of class `cls` (training_time.cpp names each
// "exposed_<class>_seconds"), or null when the layout sends nothing over that class.
const Figure* exposed_communication(const TrainingTime& time, LinkClass cls);

// A source's kind in one word, the figures' own origin words (explain.hpp's to_string):
// "user", "catalog", "assumption", "derived", "measured".
std::string_view source_kind(const PlanSource& source);

}  // namespace gpuplan
