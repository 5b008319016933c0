// recommend.cpp — see recommend.hpp for the method.
#include "gpuplan/recommend/recommend.hpp"
#include "gpuplan/recommend/picks.hpp"

#include <algorithm>
#include <cmath>

#include "gpuplan/input_error.hpp"
#include "gpuplan/pricing/purchase_options.hpp"
#include "gpuplan/pricing/unit_cost.hpp"
#include "gpuplan/topology/topology.hpp"
#include "gpuplan/workload/compute.hpp"
#include "gpuplan/workload/inference.hpp"
#include "gpuplan/workload/memory.hpp"

namespace gpuplan {

InferenceRecommendRequest default_inference_request(const ModelSpec& model) {
    InferenceRecommendRequest r;
    r.model = &model;
    r.bandwidth_efficiency = default_bandwidth_efficiency();
    r.runtime_overhead_gib = default_runtime_overhead_gib();
    return r;
}

void set_dtypes(InferenceRecommendRequest& q, const std::string& dtype, const std::string& kv_dtype, const std::string& dtype_where,
                const std::string& kv_dtype_where) {
    q.weight_bytes = dtype_bytes(dtype, dtype_where);
    q.kv_bytes = dtype_bytes(kv_dtype, kv_dtype_where);
    q.dtype = dtype;
    q.kv_dtype = kv_dtype;
}

namespace {

// What one instance type offers a replica: GPUs and memory per GPU (the throughput of a layout
// is estimate_inference's, which reads the bandwidth itself).
struct Hardware {
    double gpus = 0;             // whole GPUs (a fractional slice counts as one small GPU)
    double memory_bytes = 0;     // per GPU
    std::string why_not;         // non-empty: cannot be used
};

Hardware hardware_of(const Catalog& catalog, const Instance& inst) {
    Hardware h;
    const Accelerator* a = inst.accelerator ? catalog.find_accelerator(*inst.accelerator) : nullptr;
    if (!a) return {0, 0, "accelerator unknown (" + inst.unknown_reason("accelerator") + ")"};
    if (a->kind != AcceleratorKind::gpu) return {0, 0, "not a GPU (" + std::string(to_string(a->kind)) + "): decode model is for GPUs"};
    if (!inst.accelerator_count || !inst.accelerator_memory_gib_each) return {0, 0, "accelerator count or memory unknown"};
    if (!a->memory_bandwidth_gb_per_s) return {0, 0, "memory bandwidth unknown"};
    const double count = *inst.accelerator_count;
    h.gpus = count < 1 ? 1 : count;
    h.memory_bytes = *inst.accelerator_memory_gib_each * kBytesPerGiB;
    return h;
}

struct Layout {
    double tp = 0, replicas = 0, batch = 0;
    double seconds_per_token = 0, tokens_per_second_per_instance = 0;
    // With traffic: the replicas its simulation needs (0: none up to the maximum, `traffic_why`).
    double traffic_replicas = 0;
    std::vector<double> achieved_seconds;
    std::string traffic_why;
    std::string text;  // layout_text(): "tp 2 x 4 replica(s), batch 64", worded once for every region and way to buy
};

// With traffic: the replicas this layout needs, from its own step costs (serving_traffic.hpp).
void size_for_traffic(const InferenceEstimate& e, const InferenceRecommendRequest& q, Layout& l) {
    std::string why;
    const auto costs = replica_costs(e, q.max_batch, why);
    if (!costs) {
        l.traffic_why = why;
        return;
    }
    const TrafficPlan plan = plan_for_traffic(*costs, *q.traffic);
    if (!plan.met) {
        l.traffic_why = plan.why_not;
        return;
    }
    l.traffic_replicas = plan.replicas;
    l.achieved_seconds = plan.achieved_seconds;
    l.seconds_per_token = plan.per_replica.tpot_seconds.p95;
}

// What `gpuplan infer` says about one layout: the same estimate (roofline, tensor-parallel
// all-reduces, step overhead, compute ceiling; inference.hpp), so the recommender and the
// Inference view never disagree. nullopt (with `why`) when the estimate refuses it.
std::optional<InferenceEstimate> layout_estimate(const Catalog& catalog, const Instance& inst, const InferenceRecommendRequest& q, double tp,
                                                 double batch, std::string& why, const NodeTopology* node = nullptr) {
    InferenceEstimateRequest r;
    r.node = node;
    r.serving.model = q.model;
    r.serving.dtype = q.dtype;
    r.serving.kv_dtype = q.kv_dtype;
    r.serving.batch = batch;
    r.serving.context = q.context;
    r.serving.tensor_parallel = tp;
    if (q.runtime_overhead_gib.origin != InputOrigin::assumption) r.serving.overhead_gib = q.runtime_overhead_gib.value;
    r.instance = inst.name;
    // The estimate's own prices are not used (the recommender prices each purchase option), but
    // it wants a region the type is offered in.
    r.region = inst.offered_in(q.region) || inst.prices.empty() ? q.region : inst.offered_regions().front();
    if (q.bandwidth_efficiency.origin != InputOrigin::assumption) r.bandwidth_efficiency = q.bandwidth_efficiency.value;
    try {
        InferenceEstimate e = estimate_inference(catalog, r);
        if (!e.fit.fits) {
            why = "does not fit at batch " + format_number(batch) + ": " + e.fit.refusal;
            return std::nullopt;
        }
        if (!e.per_instance.value || !e.inter_token_latency_seconds.value) {
            why = "throughput unknown: " + e.per_instance.unknown_reason;
            return std::nullopt;
        }
        return e;
    } catch (const InputError& err) {
        why = err.what();
        return std::nullopt;
    }
}

std::string layout_text(const Layout& l) {
    return "tp " + format_number(l.tp) + " x " + format_number(l.replicas) + " replica(s), batch " + format_number(l.batch);
}

// Every tensor-parallel degree (a divisor of the GPU count) that leaves room for at least one
// sequence, each at the largest batch that fits (capped), with its throughput and latency as
// estimate_inference gives them.
std::vector<Layout> feasible_layouts(const Catalog& catalog, const Instance& inst, const Hardware& hw, const InferenceRecommendRequest& q,
                                     double weight_total, double kv_per_token, std::string& why) {
    std::vector<Layout> out;
    // Only the layouts' values and refusals are read here; the picks are estimated again, with
    // their explanations, by pick_detail (explain.hpp: figures first, explanations on demand).
    const FiguresOnly values_only;
    const double overhead = q.runtime_overhead_gib.value * kBytesPerGiB;
    std::optional<NodeTopology> node;  // the type's links, built once for its tensor-parallel layouts
    for (double tp = 1; tp <= hw.gpus; ++tp) {
        if (std::fmod(hw.gpus, tp) != 0) continue;
        const double room = hw.memory_bytes - weight_total / tp - overhead;
        const double per_sequence = kv_per_token * kv_cached_tokens(*q.model, q.context) / tp;
        if (room < per_sequence) continue;
        Layout l;
        l.tp = tp;
        l.replicas = hw.gpus / tp;
        l.batch = std::min(q.max_batch, std::floor(room / per_sequence));
        if (tp > 1 && !node) node = node_topology(catalog, inst);
        const auto e = layout_estimate(catalog, inst, q, tp, l.batch, why, node ? &*node : nullptr);
        if (!e) continue;
        l.tokens_per_second_per_instance = *e->per_instance.value;
        l.seconds_per_token = *e->inter_token_latency_seconds.value;
        if (q.traffic) size_for_traffic(*e, q, l);
        l.text = layout_text(l);
        out.push_back(std::move(l));
    }
    return out;
}

// Weight formats an accelerator cannot compute in, from the catalog's dense TFLOPS facts:
// a dtype whose figure is "n/a" there (V100 has no BF16, Ampere no FP8) is not offered.
std::string unsupported_dtype(const Accelerator& a, double weight_bytes) {
    const auto na = [&](const char* field) {
        const auto it = a.unknown.find(field);
        return it != a.unknown.end() && it->second.rfind("n/a", 0) == 0;
    };
    if (weight_bytes == 2 && na("dense_tflops.bf16")) return a.name + " has no BF16 (catalog: dense_tflops.bf16 n/a); use fp16";
    if (weight_bytes == 1 && na("dense_tflops.fp8")) return a.name + " has no FP8 (catalog: dense_tflops.fp8 n/a)";
    return "";
}

}  // namespace

namespace {

// One instance-hour of a type bought one way in the request's region, or why it has no price.
struct HourlyRate {
    std::optional<double> usd_per_hour;
    std::string why_not;   // when usd_per_hour is absent
    bool assumed = false;  // a discount off on-demand (PricingAssumptions), not a listed price
};

// On-demand and spot are the catalog's prices; the sweep reads them without building a quote.
bool catalog_priced(const PurchaseOption& option) { return option.kind == PurchaseKind::on_demand || option.kind == PurchaseKind::spot; }
PriceKind price_kind_of(const PurchaseOption& option) { return option.kind == PurchaseKind::spot ? PriceKind::spot_typical : PriceKind::on_demand; }

// The quote that answers `option` among a type's quotes (a commitment without a payment: no upfront).
const Quote* quote_for(const std::vector<Quote>& quotes, PurchaseOption option) {
    if (is_commitment(option.kind) && !option.payment) option.payment = Payment::no_upfront;
    for (const Quote& quote : quotes)
        if (quote.option == option) return &quote;
    return nullptr;
}

std::vector<Quote> quotes_in_region(const Catalog& catalog, const Instance& inst, const InferenceRecommendRequest& q) {
    QuoteRequest r;
    r.instance = inst.name;
    r.region = q.region;
    r.assumptions = q.pricing;
    return quote_purchase_options(catalog, r);
}

// Each of `options`' hourly rate for one type; its purchase options are quoted once, and only
// when an option other than on-demand and spot asks for them.
std::vector<HourlyRate> hourly_rates(const Catalog& catalog, const Instance& inst, const InferenceRecommendRequest& q,
                                     const std::vector<PurchaseOption>& options) {
    std::vector<HourlyRate> rates;
    std::optional<std::vector<Quote>> quotes;
    const bool offered = inst.offered_in(q.region);
    for (const PurchaseOption& option : options) {
        if (catalog_priced(option) || !offered) {
            const Price* price = inst.find_price(q.region, price_kind_of(option));
            if (price && price->usd_per_hour) rates.push_back({.usd_per_hour = *price->usd_per_hour});
            else rates.push_back({.why_not = offered ? "no " + key(option) + " price in " + q.region : "not offered in " + q.region});
            continue;
        }
        if (!quotes) quotes = quotes_in_region(catalog, inst, q);
        const Quote* quote = quote_for(*quotes, option);
        if (!quote || !quote->available || !quote->effective_usd_per_hour.value)
            rates.push_back({.why_not = quote ? quote->unavailable_reason : "no " + key(option) + " price in " + q.region});
        else
            rates.push_back({.usd_per_hour = *quote->effective_usd_per_hour.value, .assumed = quote->status == OptionStatus::assumed});
    }
    return rates;
}

// The fleet's hourly price and where its rate comes from, for a pick's working.
Param fleet_usd_per_hour(const Catalog& catalog, const Instance& inst, const Candidate& pick, const InferenceRecommendRequest& q) {
    std::string source = "price";
    if (catalog_priced(pick.purchase)) {
        if (const auto price = catalog_price(catalog, inst, q.region, price_kind_of(pick.purchase))) source = price->source;
    } else if (inst.offered_in(q.region)) {
        const std::vector<Quote> quotes = quotes_in_region(catalog, inst, q);
        if (const Quote* quote = quote_for(quotes, pick.purchase); quote && quote->available)
            source = quote->label + " at " + quote->effective_usd_per_hour.worked + " USD/h (" +
                     (quote->status == OptionStatus::listed ? "listed, " + quote->status_source
                                                            : std::string("assumed: a discount off on-demand, docs/pricing.md")) + ")";
    }
    return {pick.usd_per_hour, InputOrigin::derived, format_number(pick.instances) + " x " + source};
}

// A pick's figures from its layout's explained estimate `e`: the estimate's own, and the fleet's.
PickFigures pick_figures(const Candidate& pick, const Instance& inst, const InferenceEstimate& e, const Catalog& catalog,
                         const InferenceRecommendRequest& q) {
    const Param fleet_hourly = fleet_usd_per_hour(catalog, inst, pick, q);
    Figure instances{.name = "instances", .value = pick.instances, .unit = "instances", .formula = "ceil(target_tokens_per_second / tokens_per_second_per_instance)",
                     .worked = "ceil(" + format_number(q.tokens_per_second) + " / " + format_number(*e.per_instance.value) + ") = " + format_number(pick.instances),
                     .inputs = {e.per_instance.as_input()}};
    Param served{q.tokens_per_second, InputOrigin::user, ""};
    if (q.traffic) {
        instances = {.name = "instances", .value = pick.instances, .unit = "instances",
                     .formula = "ceil(replicas the traffic's simulation needs / replicas per instance)",
                     .worked = "ceil(" + format_number(pick.fleet_replicas) + " / " + format_number(pick.replicas) + ") = " + format_number(pick.instances),
                     .inputs = {input("replicas", "replicas", derived_param(pick.fleet_replicas, "the fewest replicas that meet the latency targets in simulation"))}};
        instances.inputs.front().rests_on_assumption = true;
        served = {q.traffic->requests_per_second * q.traffic->output.mean(), InputOrigin::user,
                  "requests_per_second x mean output tokens"};
    }
    Figure cost = usd_per_million_tokens(fleet_hourly, served);
    if ((q.traffic || pick.price_assumed) && !cost.inputs.empty()) cost.inputs.front().rests_on_assumption = true;
    // People budget by the month; AWS's price pages use 730 hours for one (purchase_option.hpp).
    Figure month{.name = "usd_per_month", .value = pick.usd_per_month, .unit = "USD/month",
                 .formula = "fleet_usd_per_hour x 730 (hours in AWS's pricing month)",
                 .worked = format_number(pick.usd_per_hour) + " x 730 = " + format_number(pick.usd_per_month),
                 .inputs = {input("fleet_usd_per_hour", "USD/h", fleet_hourly)}};
    month.inputs.front().rests_on_assumption = pick.price_assumed;
    return PickFigures{.bytes_per_step = e.roofline.bytes_per_step,
                       .decode_step_seconds = e.decode_step_seconds,
                       .tokens_per_second_per_instance = e.per_instance,
                       .instances = std::move(instances),
                       .usd_per_million_tokens = std::move(cost),
                       .usd_per_month = std::move(month)};
}

// The figures and memory fit a pick comes with (Recommendation::pick_details): its layout
// estimated again, with its working.
PickDetail pick_detail(const Candidate& pick, const Catalog& catalog, const InferenceRecommendRequest& q) {
    PickDetail d;
    const Instance& inst = *catalog.find_instance(pick.instance);
    d.quota = quota_line(inst, pick.instances, price_kind_of(pick.purchase), q.quotas);
    std::string why;
    if (const auto e = layout_estimate(catalog, inst, q, pick.tensor_parallel, pick.batch, why)) {
        // The estimate's own pool and fit are the ones asked below (the same model, dtypes,
        // batch, context, tensor-parallel degree and overhead on one instance).
        d.figures = pick_figures(pick, inst, *e, catalog, q);
        d.pool = e->pool;
        d.fit = e->fit;
        return d;
    }
    d.pool = instance_pool(catalog, pick.instance, 1, "instance");
    InferenceFitRequest f;
    f.model = q.model;
    f.dtype = q.dtype;
    f.kv_dtype = q.kv_dtype;
    f.batch = pick.batch;
    f.context = q.context;
    f.tensor_parallel = pick.tensor_parallel;
    if (q.runtime_overhead_gib.origin != InputOrigin::assumption) f.overhead_gib = q.runtime_overhead_gib.value;
    d.fit = check_inference_fit(f, d.pool);
    return d;
}

}  // namespace

std::vector<const Figure*> PickFigures::all() const {
    return {&bytes_per_step, &decode_step_seconds, &tokens_per_second_per_instance, &instances, &usd_per_million_tokens, &usd_per_month};
}

namespace {

void check_request(const InferenceRecommendRequest& q) {
    if (!q.model) throw InputError("model", "none", "a model preset or definition");
    if (q.tokens_per_second <= 0) throw InputError("tokens_per_second", format_number(q.tokens_per_second), "a throughput > 0");
    if (q.context <= 0) throw InputError("context", format_number(q.context), "a context length > 0");
    if (q.max_instances < 1) throw InputError("max_instances", format_number(q.max_instances), "at least 1");
}

// The serving layouts one instance could run, or why it cannot serve the model at all.
struct InstanceLayouts {
    std::vector<Layout> layouts;
    std::string dropped;  // empty when layouts holds at least one
};

InstanceLayouts instance_layouts(const Catalog& catalog, const Instance& inst, const InferenceRecommendRequest& q, double weight_total,
                                 double kv_per_token) {
    const Hardware hw = hardware_of(catalog, inst);
    InstanceLayouts out;
    out.dropped = hw.why_not;
    if (out.dropped.empty()) out.dropped = unsupported_dtype(*catalog.find_accelerator(*inst.accelerator), q.weight_bytes);
    if (!out.dropped.empty()) return out;
    std::string why;
    out.layouts = feasible_layouts(catalog, inst, hw, q, weight_total, kv_per_token, why);
    if (out.layouts.empty())
        out.dropped = !why.empty() ? why
                                   : "does not fit: weights + one sequence's KV cache exceed " + format_number(hw.gpus) + " x " +
                                         format_number(hw.memory_bytes / kBytesPerGiB) + " GiB";
    return out;
}

// Why a priced candidate is not kept (empty when it is): the request's limits, in words.
std::string over_a_limit(const Candidate& c, const InferenceRecommendRequest& q) {
    if (c.instances > q.max_instances) return "needs more instances than the maximum " + format_number(q.max_instances);
    if (q.max_usd_per_hour && c.usd_per_hour > *q.max_usd_per_hour) return "over the budget $" + format_number(*q.max_usd_per_hour) + "/h";
    if (q.max_seconds_per_token && c.seconds_per_token > *q.max_seconds_per_token)
        return "slower than the limit of " + format_number(*q.max_seconds_per_token * 1e3) + " ms per token";
    return "";
}

Candidate dropped_candidate(const Instance& inst, const PurchaseOption& option, const std::string& why) {
    Candidate c;
    c.instance = inst.name;
    c.purchase = option;
    c.kept = false;
    c.dropped_because = why;
    return c;
}

// One layout of one instance bought one way: the fleet it needs and what that costs.
Candidate layout_candidate(const Instance& inst, const PurchaseOption& option, const HourlyRate& rate, const Layout& layout,
                           const InferenceRecommendRequest& q) {
    Candidate c;
    c.instance = inst.name;
    c.purchase = option;
    c.layout = layout.text;
    c.tensor_parallel = layout.tp;
    c.replicas = layout.replicas;
    c.batch = layout.batch;
    c.instances = std::ceil(q.tokens_per_second / layout.tokens_per_second_per_instance);
    c.tokens_per_second = c.instances * layout.tokens_per_second_per_instance;
    c.seconds_per_token = layout.seconds_per_token;
    double served_tokens_per_second = q.tokens_per_second;
    if (q.traffic) {
        if (!layout.traffic_why.empty()) return dropped_candidate(inst, option, layout.traffic_why);
        c.instances = std::ceil(layout.traffic_replicas / layout.replicas);
        c.tokens_per_second = served_tokens_per_second = q.traffic->requests_per_second * q.traffic->output.mean();
        c.achieved_seconds = layout.achieved_seconds;
        c.fleet_replicas = layout.traffic_replicas;
    }
    if (!rate.usd_per_hour) {
        c.kept = false;
        c.dropped_because = rate.why_not;
        return c;
    }
    c.price_assumed = rate.assumed;
    c.usd_per_hour = c.instances * *rate.usd_per_hour;
    c.usd_per_month = c.usd_per_hour * kHoursPerMonth;
    // The fleet is paid for every hour; the workload uses the target throughput.
    c.usd_per_million_tokens = c.usd_per_hour / (served_tokens_per_second * 3600.0) * 1e6;
    c.dropped_because = over_a_limit(c, q);
    c.kept = c.dropped_because.empty();
    return c;
}

}  // namespace

namespace {

// What one instance type can run: its layouts, or why it cannot serve the model.
struct InstanceFit {
    const Instance* instance = nullptr;
    InstanceLayouts fit;
};

// Every instance type's layouts for the request (the families it names). Region-independent:
// the estimate reads no price (layout_estimate).
std::vector<InstanceFit> instance_fits(const Catalog& catalog, const InferenceRecommendRequest& q) {
    check_request(q);
    const double weight_total = count_parameters(*q.model).total * q.weight_bytes;
    const double kv_per_token = *kv_cache_bytes_per_token(*q.model, q.kv_bytes).value;
    std::vector<InstanceFit> fits;
    for (const auto& inst : catalog.instances) {
        if (!q.families.empty() && std::find(q.families.begin(), q.families.end(), inst.family) == q.families.end()) continue;
        fits.push_back({&inst, instance_layouts(catalog, inst, q, weight_total, kv_per_token)});
    }
    return fits;
}

// The fits priced in q.region, each way to buy: the candidates, frontier and picks.
Recommendation priced_in_region(const Catalog& catalog, const InferenceRecommendRequest& q, const std::vector<InstanceFit>& fits,
                                PickWorking working) {
    const std::vector<PurchaseOption> purchase = q.purchase.empty() ? std::vector<PurchaseOption>{PurchaseOption{}} : q.purchase;
    Recommendation r;
    for (const InstanceFit& f : fits) {
        const std::vector<HourlyRate> rates = f.fit.dropped.empty() ? hourly_rates(catalog, *f.instance, q, purchase) : std::vector<HourlyRate>{};
        for (std::size_t k = 0; k < purchase.size(); ++k) {
            if (!f.fit.dropped.empty()) r.candidates.push_back(dropped_candidate(*f.instance, purchase[k], f.fit.dropped));
            for (const Layout& layout : f.fit.layouts) r.candidates.push_back(layout_candidate(*f.instance, purchase[k], rates[k], layout, q));
        }
    }
    r.evaluated = r.candidates.size();
    r.traffic = q.traffic;
    frontier_and_picks(r, [](const Candidate& c) { return c.usd_per_million_tokens; }, [](const Candidate& c) { return c.seconds_per_token; });
    if (working == PickWorking::built)
        for (std::size_t k = 0; k < r.picks.size(); ++k) {
            // The same candidate can be more than one pick (cheapest and balanced): worked once.
            const auto earlier = std::find(r.picks.begin(), r.picks.begin() + k, r.picks[k]);
            PickDetail d = earlier != r.picks.begin() + k ? r.pick_details[earlier - r.picks.begin()] : pick_detail(r.candidates[r.picks[k]], catalog, q);
            r.pick_details.push_back(std::move(d));
        }
    return r;
}

}  // namespace

Recommendation recommend_inference(const Catalog& catalog, const InferenceRecommendRequest& q) {
    return priced_in_region(catalog, q, instance_fits(catalog, q), PickWorking::built);
}

std::vector<Recommendation> recommend_inference_in_regions(const Catalog& catalog, const InferenceRecommendRequest& request,
                                                           const std::vector<std::string>& regions) {
    for (std::size_t k = 0; k < regions.size(); ++k)
        require_region(catalog, regions[k], "regions[" + std::to_string(k) + "]", "\"" + regions[k] + "\"");
    std::vector<Recommendation> out;
    if (regions.empty()) return out;
    InferenceRecommendRequest q = request;
    q.region = regions.front();
    const std::vector<InstanceFit> fits = instance_fits(catalog, q);
    for (const std::string& region : regions) {
        q.region = region;
        out.push_back(priced_in_region(catalog, q, fits, PickWorking::left_out));
    }
    return out;
}

std::vector<DroppedOptions> dropped_by_reason(const Recommendation& r) {
    return detail::dropped_by_reason(r.candidates, [](const Candidate& c) { return c.instance + " (" + purchase_option_words(c.purchase) + ")"; });
}
std::size_t kept_count(const Recommendation& r) { return detail::kept_count(r.candidates); }

}  // namespace gpuplan
