// serving_traffic.cpp — replicas for a request rate and latency targets (serving_traffic.hpp).
#include "gpuplan/workload/serving_traffic.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "gpuplan/input_error.hpp"
#include "gpuplan/pricing/purchase_options.hpp"
#include "gpuplan/pricing/unit_cost.hpp"
#include "gpuplan/text.hpp"
#include "gpuplan/workload/compute.hpp"

namespace gpuplan {

std::string_view to_string(LatencyMetric metric) {
    switch (metric) {
    case LatencyMetric::time_to_first_token: return "time to first token";
    case LatencyMetric::time_per_output_token: return "time per output token";
    case LatencyMetric::end_to_end: return "end-to-end latency";
    }
    return "?";
}

namespace {

struct MetricSpelling {
    const char* word;
    LatencyMetric metric;
};
constexpr MetricSpelling kMetricSpellings[] = {{"ttft", LatencyMetric::time_to_first_token},
                                               {"tpot", LatencyMetric::time_per_output_token},
                                               {"e2e", LatencyMetric::end_to_end}};

std::string metric_word(LatencyMetric metric) {
    for (const MetricSpelling& s : kMetricSpellings)
        if (s.metric == metric) return s.word;
    return "?";
}

}  // namespace

std::string LatencyTarget::text() const { return "p" + format_number(percentile) + "-" + metric_word(metric) + "-ms=" + format_number(seconds * 1e3); }

std::string LatencyTarget::words() const {
    return "p" + format_number(percentile) + " " + std::string(to_string(metric)) + " <= " + format_number(seconds * 1e3) + " ms";
}

LatencyTarget parse_latency_target(const std::string& text, const std::string& field) {
    const std::string expected = "pNN-METRIC-ms=MS: a percentile in (0, 100), ttft, tpot or e2e, and a time in ms > 0 (e.g. p95-ttft-ms=1000)";
    const std::size_t eq = text.find('='), first = text.find('-'), last = text.rfind('-');
    if (eq == std::string::npos || first == std::string::npos || first == last || text.empty() || text[0] != 'p' ||
        text.substr(last, eq - last) != "-ms")
        throw InputError(field, "'" + text + "'", expected);
    LatencyTarget t;
    const auto percentile = decimal_number(text.substr(1, first - 1));
    const auto ms = decimal_number(text.substr(eq + 1));
    const std::string word = text.substr(first + 1, last - first - 1);
    const auto spelling = std::find_if(std::begin(kMetricSpellings), std::end(kMetricSpellings), [&](const MetricSpelling& s) { return word == s.word; });
    if (!percentile || !ms || spelling == std::end(kMetricSpellings)) throw InputError(field, "'" + text + "'", expected);
    if (!(*percentile > 0 && *percentile < 100)) throw InputError(field, "'" + text + "'", "a percentile between 0 and 100 (exclusive), such as p95");
    if (!(*ms > 0)) throw InputError(field, "'" + text + "'", "a time in ms > 0");
    t.metric = spelling->metric;
    t.percentile = *percentile;
    t.seconds = *ms / 1e3;
    return t;
}

std::optional<ReplicaCosts> replica_costs(const InferenceEstimate& e, double max_sequences, std::string& why) {
    if (!e.fit.fits) {
        why = e.fit.refusal;
        return std::nullopt;
    }
    if (!e.peak.tflops) {
        why = "prefill time unknown: " + e.peak.why;
        return std::nullopt;
    }
    const ModelSpec& model = *e.fit.serving.model;
    const InferenceMemoryRequest& memory = e.fit.request;
    const ParameterCount params = count_parameters(model);
    const double devices = e.tensor_parallel * e.pool.slice;
    const double bytes_per_second = devices * e.bandwidth.value * 1e9 * e.bandwidth_efficiency.value;
    const double flops_per_second = devices * e.peak.tflops->value * 1e12 * e.compute_efficiency.value;
    ReplicaCosts c;
    // The fixed step cost and the all-reduces at the estimate's batch (latency-bound at decode's
    // message sizes, so nearly the same at any batch).
    c.fixed_seconds = e.step_overhead_seconds.value.value_or(0) + e.tensor_parallel_seconds_per_step.value.value_or(0);
    const double kv_capacity_sequences = e.fit.max_batch.value.value_or(1);
    c.kv_capacity_tokens = kv_capacity_sequences * e.fit.serving.context;
    c.max_sequences = std::max(1.0, max_sequences);
    const std::size_t batches = model.moe ? static_cast<std::size_t>(std::min(c.max_sequences, 4096.0)) : 1;
    for (std::size_t b = 1; b <= batches; ++b)
        c.weights_seconds.push_back(decode_read_parameters(model, params, static_cast<double>(b)) * memory.weight_bytes / bytes_per_second);
    c.kv_seconds_per_token = kv_cache_bytes_per_token(model, memory.kv_bytes).value.value_or(0) / bytes_per_second;
    c.compute_seconds_per_token = 2 * params.active / flops_per_second;
    c.attention_seconds_per_token = 4 * model.layers * attention_width(model) / flops_per_second;
    c.prefill_seconds_per_token = 2 * params.active / flops_per_second;
    c.prefill_seconds_per_token_squared = 2 * model.layers * attention_width(model) / flops_per_second;
    c.prefill_floor_seconds = e.weight_read_seconds.value.value_or(0);
    return c;
}

namespace {

void check_request(const TrafficRequest& q) {
    if (!(q.requests_per_second > 0) || !std::isfinite(q.requests_per_second))
        throw InputError("requests_per_second", format_number(q.requests_per_second), "a request rate > 0 (requests per second)");
    if (!(q.max_replicas >= 1)) throw InputError("max_replicas", format_number(q.max_replicas), "at least 1");
}

double achieved(const SimulatedServing& s, std::size_t k, LatencyMetric metric) {
    switch (metric) {
    case LatencyMetric::time_to_first_token: return s.ttft_seconds.extra[k];
    case LatencyMetric::time_per_output_token: return s.tpot_seconds.extra[k];
    case LatencyMetric::end_to_end: return s.e2e_seconds.extra[k];
    }
    return 0;
}

std::string seconds_text(double s) { return s < 1 ? format_number(s * 1e3) + " ms" : format_number(s) + " s"; }

// One replica count tried: the simulation at rate / replicas and whether it meets the targets.
struct Trial {
    double replicas = 0;
    SimulatedServing sim;
    std::vector<double> achieved;
    bool met = false;
    std::string text;
};

Trial try_replicas(const ReplicaCosts& c, const TrafficRequest& q, double replicas) {
    TrafficSpec spec;
    spec.requests_per_second = q.requests_per_second / replicas;
    spec.prompt = q.prompt;
    spec.output = q.output;
    spec.requests = q.requests;
    spec.warmup = q.requests / 20;
    for (const LatencyTarget& t : q.targets) spec.extra_percentiles.push_back(t.percentile);
    Trial trial{replicas, simulate_serving(c, spec), {}, true, format_number(replicas) + " replica" + (replicas == 1 ? "" : "s") + ": "};
    if (!trial.sim.stable) {
        trial.met = false;
        trial.text += "cannot keep up (the queue grows)";
        return trial;
    }
    std::string parts;
    for (std::size_t k = 0; k < q.targets.size(); ++k) {
        const LatencyTarget& t = q.targets[k];
        const double v = achieved(trial.sim, k, t.metric);
        trial.achieved.push_back(v);
        const bool ok = v <= t.seconds;
        trial.met = trial.met && ok;
        parts += (parts.empty() ? "" : ", ") + ("p" + format_number(t.percentile) + " " + std::string(to_string(t.metric)) + " " + seconds_text(v) +
                                                 (ok ? " <= " : " > ") + seconds_text(t.seconds));
    }
    trial.text += parts.empty() ? "keeps up" : parts;
    return trial;
}

// Replicas no fewer than the throughput needs: every replica at its largest batch, ignoring
// prefills, delivers at most max_batch / step tokens/s.
double throughput_floor(const ReplicaCosts& c, const TrafficRequest& q) {
    const double per_request = q.prompt.mean() + q.output.mean();
    const double batch = std::max(1.0, std::min(c.max_sequences, std::floor(c.kv_capacity_tokens / per_request)));
    const double step = decode_step_seconds(c, batch, batch * (q.prompt.mean() + q.output.mean() / 2));
    const double tokens_per_second = batch / step;
    return std::max(1.0, std::ceil(q.requests_per_second * q.output.mean() / tokens_per_second));
}

// One percentile of the replica count shown (the plan's, or the closest tried when none meets).
Figure percentile_figure(const char* name, const char* what, double q, double value, double replicas, const TrafficPlan& plan, const TrafficRequest& r) {
    const std::string rate = format_number(r.requests_per_second) + " / " + format_number(replicas);
    return {.name = name, .value = value, .unit = "s",
            .formula = "the " + format_number(q) + "th percentile of " + what + " over the simulated requests of one replica (continuous batching, Poisson arrivals)",
            .worked = format_number(plan.per_replica.measured_requests) + " requests at " + rate + " requests/s each: " + seconds_text(value),
            .inputs = {plan.replicas_figure.as_input(), input("requests_per_second", "requests/s", user_given(r.requests_per_second))}};
}

}  // namespace

std::vector<const Figure*> TrafficPlan::figures() const { return {&replicas_figure, &ttft_p50, &ttft_p95, &ttft_p99, &tpot_p50, &tpot_p95, &e2e_p95}; }

TrafficPlan plan_for_traffic(const ReplicaCosts& c, const TrafficRequest& q) {
    check_request(q);
    TrafficPlan plan;
    const auto record = [&](const Trial& t) { plan.tried.push_back(t.text); };
    // Double from the throughput floor until a count meets the targets, then halve the gap.
    double high = std::min(q.max_replicas, throughput_floor(c, q)), low = high - 1;  // `low` fails (or is 0), `high` is next to try
    std::optional<Trial> best, last;
    if (!q.targets.empty() && high < q.max_replicas) {
        // The lightest load first: a target that the most replicas miss is missed by every count
        // (latency falls as each replica's share of the rate does), so no search is needed.
        Trial lightest = try_replicas(c, q, q.max_replicas);
        if (!lightest.met) {
            record(lightest);
            last = std::move(lightest);
            high = q.max_replicas + 1;  // skip the search
        }
    }
    while (high <= q.max_replicas) {
        Trial t = try_replicas(c, q, high);
        record(t);
        if (t.met) {
            best = std::move(t);
            break;
        }
        last = std::move(t);
        low = high;
        high = std::min(q.max_replicas, std::max(high + 1, std::floor(high * 2)));
        if (low == q.max_replicas) break;
    }
    while (best && high - low > 1) {
        const double mid = std::floor((low + high) / 2);
        Trial t = try_replicas(c, q, mid);
        record(t);
        if (t.met) {
            high = mid;
            best = std::move(t);
        } else {
            low = mid;
        }
    }
    const Trial& shown = best ? *best : *last;
    plan.met = best.has_value();
    plan.replicas = plan.met ? best->replicas : 0;
    plan.per_replica = shown.sim;
    plan.achieved_seconds = shown.achieved;
    if (!plan.met)
        plan.why_not = "no fleet of up to " + format_number(q.max_replicas) + " replicas meets the targets; the closest, " + shown.text;
    std::string targets;
    for (const LatencyTarget& t : q.targets) targets += (targets.empty() ? "" : ", ") + t.words();
    const std::string formula = "the fewest replicas R whose simulation at requests_per_second / R each " +
                                (targets.empty() ? std::string("keeps up") : "meets " + targets);
    std::string worked;
    for (const std::string& t : plan.tried) worked += (worked.empty() ? "" : "; ") + t;
    const std::vector<FigureInput> inputs = {input("requests_per_second", "requests/s", user_given(q.requests_per_second)),
                                             input("prompt_tokens_mean", "tokens", user_given(q.prompt.mean())),
                                             input("output_tokens_mean", "tokens", user_given(q.output.mean())),
                                             input("decode_step_seconds_batch_1", "s", derived_param(decode_step_seconds(c, 1, q.prompt.mean()), "the layout's step costs (inference estimate)"))};
    plan.replicas_figure = plan.met ? Figure{.name = "replicas", .value = plan.replicas, .unit = "replicas", .formula = formula, .worked = worked, .inputs = inputs}
                                    : unknown_figure("replicas", "replicas", formula, plan.why_not);
    plan.replicas_figure.inputs = inputs;
    plan.replicas_figure.inputs.back().rests_on_assumption = true;
    const SimulatedServing& s = plan.per_replica;
    const auto shown_figure = [&](const char* name, const char* what, double percentile, double value) {
        return percentile_figure(name, what, percentile, value, shown.replicas, plan, q);
    };
    plan.ttft_p50 = shown_figure("ttft_p50_seconds", "time to first token", 50, s.ttft_seconds.p50);
    plan.ttft_p95 = shown_figure("ttft_p95_seconds", "time to first token", 95, s.ttft_seconds.p95);
    plan.ttft_p99 = shown_figure("ttft_p99_seconds", "time to first token", 99, s.ttft_seconds.p99);
    plan.tpot_p50 = shown_figure("tpot_p50_seconds", "time per output token", 50, s.tpot_seconds.p50);
    plan.tpot_p95 = shown_figure("tpot_p95_seconds", "time per output token", 95, s.tpot_seconds.p95);
    plan.e2e_p95 = shown_figure("e2e_p95_seconds", "end-to-end latency", 95, s.e2e_seconds.p95);
    return plan;
}

namespace {

// The instances the replicas need and what they cost on demand: per hour, per month of 730
// hours (AWS's pricing month), and per 1M output tokens at the requested rate.
void price_fleet(const Catalog& catalog, const std::string& region, const TrafficRequest& q, ServingTrafficPlan& out) {
    const InferenceEstimate& e = out.estimate;
    const TrafficPlan& plan = *out.plan;
    const char* instances_formula = "ceil(replicas / replicas per instance)";
    if (!plan.met) {
        out.instances = unknown_figure("instances", "instances", instances_formula, plan.why_not);
    } else {
        const double v = std::ceil(plan.replicas / e.replicas);
        out.instances = {.name = "instances", .value = v, .unit = "instances", .formula = instances_formula,
                         .worked = "ceil(" + format_number(plan.replicas) + " / " + format_number(e.replicas) + ") = " + format_number(v),
                         .inputs = {plan.replicas_figure.as_input(), input("replicas_per_instance", "", derived_param(e.replicas, "floor(GPUs / tensor_parallel)"))}};
    }
    const auto price = catalog_price(catalog, *e.pool.instance, region, PriceKind::on_demand);
    const std::string why = !out.instances.value ? "instances unknown: " + out.instances.unknown_reason
                            : !price           ? price_unknown_reason(*e.pool.instance, region, PriceKind::on_demand)
                                               : std::string();
    if (!why.empty()) {
        out.usd_per_hour_on_demand = unknown_figure("usd_per_hour_on_demand", "USD/h", "instances x on-demand USD/h", why);
        out.usd_per_month_on_demand = unknown_figure("usd_per_month_on_demand", "USD/month", "usd_per_hour_on_demand x 730", why);
        out.usd_per_million_tokens_on_demand = unknown_figure("usd_per_million_tokens_on_demand", "USD/1M tokens", "usd_per_hour / (tokens/s x 3600) x 1e6", why);
        return;
    }
    const double instances = *out.instances.value, hourly = instances * price->value;
    out.usd_per_hour_on_demand = {.name = "usd_per_hour_on_demand", .value = hourly, .unit = "USD/h", .formula = "instances x on-demand USD/h",
                                  .worked = format_number(instances) + " x " + format_number(price->value) + " = " + format_number(hourly),
                                  .inputs = {out.instances.as_input(), input("on_demand_usd_per_hour", "USD/h", *price)}};
    out.usd_per_month_on_demand = {.name = "usd_per_month_on_demand", .value = hourly * 730, .unit = "USD/month",
                                   .formula = "usd_per_hour_on_demand x 730 (hours in AWS's pricing month)",
                                   .worked = format_number(hourly) + " x 730 = " + format_number(hourly * 730), .inputs = {out.usd_per_hour_on_demand.as_input()}};
    const double tokens_per_second = q.requests_per_second * q.output.mean();
    out.usd_per_million_tokens_on_demand = usd_per_million_tokens(
        {hourly, InputOrigin::derived, "the fleet: " + format_number(instances) + " x " + price->source},
        {tokens_per_second, InputOrigin::user, "requests_per_second x mean output tokens (" + format_number(q.requests_per_second) + " x " + format_number(q.output.mean()) + ")"});
    out.usd_per_million_tokens_on_demand.name = "usd_per_million_tokens_on_demand";
    if (explaining()) out.usd_per_million_tokens_on_demand.inputs.front().rests_on_assumption = out.usd_per_hour_on_demand.rests_on_assumption();
}

}  // namespace

std::vector<const Figure*> ServingTrafficPlan::figures() const {
    std::vector<const Figure*> v = plan ? plan->figures() : std::vector<const Figure*>{};
    v.insert(v.end(), {&instances, &usd_per_hour_on_demand, &usd_per_month_on_demand, &usd_per_million_tokens_on_demand});
    return v;
}

ServingTrafficPlan plan_serving_traffic(const Catalog& catalog, InferenceEstimateRequest request, const TrafficRequest& traffic, double max_sequences) {
    // One request of the longest prompt + output must fit; the fit's room for more of them
    // bounds the KV cache the simulation may fill.
    request.serving.batch = 1;
    request.serving.context = traffic.prompt.max() + traffic.output.max();
    request.prompt_tokens = traffic.prompt.max();
    request.output_tokens.reset();
    request.concurrency.reset();
    ServingTrafficPlan out;
    out.estimate = estimate_inference(catalog, request);
    if (!out.estimate.fit.fits) return out;
    const auto costs = replica_costs(out.estimate, max_sequences, out.why_unknown);
    if (costs) {
        out.plan = plan_for_traffic(*costs, traffic);
        price_fleet(catalog, request.region, traffic, out);
    } else {
        for (auto [f, name, unit] : {std::tuple{&out.instances, "instances", "instances"}, std::tuple{&out.usd_per_hour_on_demand, "usd_per_hour_on_demand", "USD/h"},
                                     std::tuple{&out.usd_per_month_on_demand, "usd_per_month_on_demand", "USD/month"},
                                     std::tuple{&out.usd_per_million_tokens_on_demand, "usd_per_million_tokens_on_demand", "USD/1M tokens"}})
            *f = unknown_figure(name, unit, "serving to the traffic (docs/models.md)", out.why_unknown);
    }
    return out;
}

nlohmann::json to_json(const ServingTrafficPlan& p, const TrafficRequest& q) {
    if (!p.estimate.fit.fits) return to_json(p.estimate);
    nlohmann::json j = p.plan ? to_json(*p.plan, q) : nlohmann::json{{"why_unknown", p.why_unknown}};
    j["model"] = p.estimate.fit.serving.model->name;
    j["instance"] = p.estimate.pool.instance->name;
    j["region"] = p.estimate.region;
    j["tensor_parallel"] = p.estimate.tensor_parallel;
    j["replicas_per_instance"] = p.estimate.replicas;
    for (const Figure* f : {&p.instances, &p.usd_per_hour_on_demand, &p.usd_per_month_on_demand, &p.usd_per_million_tokens_on_demand})
        j["figures"][f->name] = figure_json(*f);
    return j;
}

nlohmann::json to_json(const TrafficPlan& plan, const TrafficRequest& q) {
    nlohmann::json targets = nlohmann::json::array();
    for (std::size_t k = 0; k < q.targets.size(); ++k) {
        const LatencyTarget& t = q.targets[k];
        targets.push_back({{"metric", metric_word(t.metric)}, {"percentile", t.percentile}, {"seconds", t.seconds},
                           {"achieved_seconds", k < plan.achieved_seconds.size() ? nlohmann::json(plan.achieved_seconds[k]) : nlohmann::json(nullptr)}});
    }
    nlohmann::json figures = nlohmann::json::object();
    for (const Figure* f : plan.figures()) figures[f->name] = figure_json(*f);
    const SimulatedServing& s = plan.per_replica;
    return {{"requests_per_second", q.requests_per_second},
            {"prompt_tokens", q.prompt.text()},
            {"output_tokens", q.output.text()},
            {"targets", targets},
            {"met", plan.met},
            {"replicas", plan.met ? nlohmann::json(plan.replicas) : nlohmann::json(nullptr)},
            {"why_not", plan.why_not},
            {"tried", plan.tried},
            {"per_replica", {{"busy_fraction", s.busy_fraction}, {"mean_batch", s.mean_batch}, {"output_tokens_per_second", s.output_tokens_per_second},
                             {"simulated_requests", s.measured_requests}}},
            {"figures", figures}};
}

}  // namespace gpuplan
