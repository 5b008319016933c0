// traffic_view.cpp — the traffic flags and the plan's table (traffic_view.hpp).
#include "traffic_view.hpp"

#include <fmt/format.h>

#include "commands.hpp"
#include "gpuplan/input_error.hpp"

namespace gpuplan::cli {

void add_traffic_options(CLI::App& app, TrafficFlags& f, bool with_max_batch) {
    f.app = &app;
    const std::string group = "Traffic and latency targets";
    app.add_option("--rate", f.rate,
                   "Serve requests arriving at random (Poisson) at this many per second: the replicas and instances that meet the "
                   "latency targets, from a continuous-batching simulation (docs/models.md)")
        ->group(group)
        ->check(number_rule(NumberRule::positive));
    app.add_option("--prompt-tokens-dist", f.prompt_dist, "Prompt length of each request: N, uniform:LO:HI, exponential:MEAN[:MAX] (default 1000)")
        ->group(group)
        ->type_name("DIST");
    app.add_option("--output-tokens-dist", f.output_dist, "Output length of each request, as --prompt-tokens-dist (default 200)")->group(group)->type_name("DIST");
    app.add_option("--target", f.targets, "A latency target, pNN-METRIC-ms=MS with METRIC ttft (time to first token), tpot (time per output token) or e2e; repeatable")
        ->group(group)
        ->type_name("pNN-METRIC-ms=MS");
    app.add_option("--target-p95-ttft-ms", f.target_p95_ttft_ms, "The same as --target p95-ttft-ms=MS")->group(group)->check(number_rule(NumberRule::positive));
    if (with_max_batch)
        app.add_option("--max-batch", f.max_batch, "Sequences one replica keeps in flight at most (the engine's limit, as vLLM's max_num_seqs)")
            ->group(group)
            ->capture_default_str()
            ->check(whole_rule(1));
}

TrafficRequest traffic_request(const TrafficFlags& f) {
    TrafficRequest q;
    for (const char* flag : {"--prompt-tokens-dist", "--output-tokens-dist", "--target", "--target-p95-ttft-ms"})
        if (f.app->count(flag) && !f.given()) throw InputError(std::string(flag) + ": needs --rate (the requests per second to serve)");
    q.requests_per_second = f.rate;
    if (!f.prompt_dist.empty()) q.prompt = parse_length_distribution(f.prompt_dist, "--prompt-tokens-dist");
    if (!f.output_dist.empty()) q.output = parse_length_distribution(f.output_dist, "--output-tokens-dist");
    for (const std::string& t : f.targets) q.targets.push_back(parse_latency_target(t, "--target"));
    if (f.app->count("--target-p95-ttft-ms")) q.targets.push_back({LatencyMetric::time_to_first_token, 95, f.target_p95_ttft_ms / 1e3});
    return q;
}

namespace {

std::string seconds_text(double s) { return s < 1 ? fmt::format("{:.4g} ms", s * 1e3) : fmt::format("{:.4g} s", s); }
std::string count_text(double v) { return quantity(v); }

}  // namespace

std::string render_traffic_plan(const ServingTrafficPlan& p, const TrafficRequest& q, const AccountQuotas& quotas, Format format, bool explain) {
    NamedFigures named;
    for (const Figure* f : p.figures()) named.emplace_back(f->name, figure_json(*f));
    const std::optional<QuotaLine> quota = p.instances.value ? std::optional<QuotaLine>(quota_line(*p.estimate.pool.instance, *p.instances.value, PriceKind::on_demand, quotas))
                                                             : std::nullopt;
    if (format == Format::json) {
        nlohmann::json j = to_json(p, q);
        j["quota"] = quota ? to_json(*quota) : nlohmann::json(nullptr);
        return dump_json(j);
    }
    if (format == Format::csv) return figures_csv(named);
    const InferenceEstimate& e = p.estimate;
    std::string out = e.fit.serving.model->name + " on " + e.pool.label + " in " + e.region + ": " + quantity(q.requests_per_second) +
                      " requests/s arriving at random, prompts " + q.prompt.text() + " and outputs " + q.output.text() + " tokens\n";
    std::string targets;
    for (const LatencyTarget& t : q.targets) targets += (targets.empty() ? "" : ", ") + t.words();
    out += "targets: " + (targets.empty() ? std::string("none (the fewest replicas that keep up)") : targets) + "; tensor parallel " + quantity(e.tensor_parallel) +
           ", " + quantity(e.replicas) + " replica" + (e.replicas == 1 ? "" : "s") + " per instance\n\n";
    Table t;
    t.columns = {{"figure", "figure", false}, {"value", "value"}};
    const auto row = [&t](std::string label, const Figure& f, std::string (*fmt)(double)) {
        t.rows.push_back({text_cell(std::move(label)), figure_cell(f, fmt, f.rests_on_assumption())});
    };
    if (p.plan) {
        const TrafficPlan& plan = *p.plan;
        row("replicas", plan.replicas_figure, count_text);
        row("instances", p.instances, count_text);
        row("time to first token, p50", plan.ttft_p50, seconds_text);
        row("time to first token, p95", plan.ttft_p95, seconds_text);
        row("time to first token, p99", plan.ttft_p99, seconds_text);
        row("time per output token, p50", plan.tpot_p50, seconds_text);
        row("time per output token, p95", plan.tpot_p95, seconds_text);
        row("end-to-end latency, p95", plan.e2e_p95, seconds_text);
    } else {
        row("instances", p.instances, count_text);
    }
    row("$ per hour, on-demand", p.usd_per_hour_on_demand, money);
    row("$ per month (730 h), on-demand", p.usd_per_month_on_demand, money);
    row("$ per 1M output tokens, on-demand", p.usd_per_million_tokens_on_demand, rate);
    out += render_table(t, format);
    std::string after = "\n";
    if (!p.plan) after += "unknown: " + missing_with_reason(p.why_unknown) + "\n";
    if (p.plan) {
        const TrafficPlan& plan = *p.plan;
        if (!plan.met) after += "not met: " + plan.why_not + "\n";
        after += "how: each replica count was simulated at " + quantity(q.requests_per_second) + " requests/s split evenly (random routing):\n";
        for (const std::string& tried : plan.tried) after += "  " + tried + "\n";
        const SimulatedServing& s = plan.per_replica;
        after += "per replica: busy " + percent(s.busy_fraction) + " of the time, " + decimals(s.mean_batch, 1) + " sequences in flight on average, " +
                 quantity(s.measured_requests) + " requests measured.\n";
    }
    if (quota) after += quota->words + "\n";
    after += "model: continuous batching (waiting requests are admitted between decode steps and prefilled together; each reserves\n"
             "its prompt + output in the KV cache; no chunked prefill or preemption), step costs from the layout's inference estimate.\n"
             "Figures marked \"*\" rest on documented defaults (bandwidth and compute efficiency, step overhead: `gpuplan infer --help`).\n";
    if (explain) after += explain_all(named);
    return out + notes_block(after, format);
}

}  // namespace gpuplan::cli
