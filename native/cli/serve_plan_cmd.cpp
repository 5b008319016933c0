// serve_plan_cmd.cpp — `gpuplan serve-plan`: static, scheduled and autoscaled serving fleets over
// a demand curve, from the core's plan_serving_fleets (core/gpuplan/pricing/fleet_over_time.hpp).
#include <algorithm>
#include <memory>

#include "commands.hpp"
#include "gpuplan/pricing/fleet_over_time.hpp"
#include "gpuplan/pricing/usage_formats.hpp"
#include "gpuplan/workload/serving_capacity.hpp"

namespace gpuplan::cli {

namespace {

struct ServePlanOptions {
    std::string demand, instance, region = "us-east-1";
    double usd_per_instance_hour = 0;
    // Capacity from the inference model instead of --capacity-rps (serving_capacity.hpp).
    std::string model, dtype = "bf16";
    double prompt_tokens = 0, output_tokens = 0, max_ms_per_token = 0;
    ServingFleetRequest req;
    bool explain = false;
    Format format = Format::table;
    CLI::App* app = nullptr;
};

// The fleet's size over the history as a one-line picture: one character per column, its
// height the largest count in that column (" .:-=+*#%@" from none to the peak).
std::string sparkline(const std::vector<double>& values, double peak, std::size_t width) {
    static const char kLevels[] = " .:-=+*#%@";
    std::string line;
    const std::size_t per = std::max<std::size_t>(1, (values.size() + width - 1) / width);
    for (std::size_t k = 0; k < values.size(); k += per) {
        const double v = *std::max_element(values.begin() + static_cast<std::ptrdiff_t>(k), values.begin() + static_cast<std::ptrdiff_t>(std::min(values.size(), k + per)));
        line += kLevels[peak > 0 ? static_cast<std::size_t>(std::lround(v / peak * 9)) : 0];
    }
    return line;
}

std::string two_decimals(double v) { return decimals(v, 2); }

std::string run_serve_plan(const Catalog& catalog, const ServePlanOptions& o) {
    ServingFleetRequest q = o.req;
    std::string what = "the given price";
    const bool by_price = o.app->count("--usd-per-instance-hour") > 0, by_instance = o.app->count("--instance") > 0;
    if (!by_price && !by_instance) throw InputError("--usd-per-instance-hour / --instance", "neither", "one of them: what an instance-hour costs");
    if (by_instance) {
        const Instance& inst = require_instance(catalog, o.instance, "--instance");
        require_region(catalog, o.region, "--region");
        q.usd_per_instance_hour = catalog_on_demand(catalog, inst, o.region, "--instance");
        what = inst.name + " on-demand in " + o.region;
    } else {
        q.usd_per_instance_hour = {o.usd_per_instance_hour, InputOrigin::user, ""};
    }
    std::string capacity_line;
    const bool by_model = o.app->count("--model") > 0;
    if (by_model == (o.app->count("--capacity-rps") > 0))
        throw InputError("--capacity-rps / --model", by_model ? "both" : "neither", "one of them: what one instance serves");
    if (by_model) {
        if (!by_instance) throw InputError("--model", "'" + o.model + "' without --instance", "--instance TYPE: the instance the model is served on");
        if (!(o.prompt_tokens > 0) || !(o.output_tokens > 0) || !(o.max_ms_per_token > 0))
            throw InputError("--model", "'" + o.model + "'", "--prompt-tokens, --output-tokens and --max-ms-per-token with it");
        const std::vector<ModelSpec> models = load_models_with_files({});
        InferenceEstimateRequest r;
        r.serving.model = &require_model(models, o.model, "--model");
        r.serving.dtype = o.dtype;
        r.instance = o.instance;
        r.region = o.region;
        r.prompt_tokens = o.prompt_tokens;
        r.output_tokens = o.output_tokens;
        ServingCapacity c;
        try {
            c = capacity_at_latency(catalog, r, o.max_ms_per_token / 1000);
        } catch (const InputError& e) {
            rethrow_for_flag(e, {{"max_inter_token_seconds", "--max-ms-per-token"}, {"model", "--model"}, {"output_tokens", "--output-tokens"}});
        }
        q.capacity_requests_per_second = {*c.requests_per_second.value, InputOrigin::derived, c.requests_per_second.worked};
        capacity_line = "capacity: " + o.model + " (" + o.dtype + ") on " + o.instance + ", " + quantity(o.prompt_tokens) + " prompt + " + quantity(o.output_tokens) +
                        " output tokens: " + quantity(c.concurrency) + " requests in flight per replica x " + quantity(c.replicas) + " replica(s) keep " +
                        decimals(*c.inter_token_latency_seconds.value * 1000, 1) + " ms between tokens (target " + quantity(o.max_ms_per_token) + " ms), " +
                        decimals(*c.time_to_first_token_seconds.value * 1000, 0) + " ms to the first; each request takes " + decimals(*c.request_seconds.value, 2) +
                        " s: " + decimals(*c.requests_per_second.value, 3) + " requests/s per instance (gpuplan infer's model, docs/models.md)\n";
    }
    const UsageHistory demand = parse_usage(read_input_file(o.demand, "--demand"), o.demand, UsageUnit::requests_per_second);
    ServingFleetPlan plan;
    try {
        plan = plan_serving_fleets(demand, q);
    } catch (const InputError& e) {
        rethrow_for_flag(e, {{"target_utilization", "--target-utilization"}, {"min_instances", "--min-instances"}, {"warmup_minutes", "--warmup-minutes"},
                             {"scale_in_minutes", "--scale-in-minutes"}, {"capacity_requests_per_second", "--capacity-rps"}});
    }
    const nlohmann::json j = to_json(plan);
    if (o.format == Format::json) return dump_json(j);
    NamedFigures all;
    for (const auto& [name, fig] : j.at("figures").items()) all.emplace_back(name, fig);
    for (const auto& [policy, f] : j.at("fleets").items())
        for (const auto& [name, fig] : f.at("figures").items()) all.emplace_back(name, fig);
    if (o.format == Format::csv) return figures_csv(all);
    std::string out = "Demand " + o.demand + " (" + demand.format + "): " + quantity(demand.total_hours) + " h, peak " +
                      quantity(*plan.peak_requests_per_second.value) + " requests/s, " + quantity(*plan.total_requests.value) + " requests\n";
    out += "one instance serves " + quantity(q.capacity_requests_per_second.value) + " requests/s at the target latency, kept at most " +
           percent(q.target_utilization) + " busy; " + rate(q.usd_per_instance_hour.value) + "/h (" + what + "); warm-up " + quantity(q.warmup_minutes) +
           " min, scale-in after " + quantity(q.scale_in_minutes) + " min, at least " + quantity(q.min_instances) + "\n" + capacity_line + "\n";
    Table t{{{"fleet", "policy", false}, {"instance-hours", "instance_hours"}, {"cost", "cost_usd"}, {"mean", "mean_instances"}, {"peak", "peak_instances"},
             {"requests served late", "late_share"}},
            {}};
    double cheapest = HUGE_VAL;
    for (const ServingFleet& f : plan.fleets) cheapest = std::min(cheapest, *f.cost_usd.value);
    for (const ServingFleet& f : plan.fleets)
        t.rows.push_back({text_cell(std::string(policy_name(f.policy)) + (*f.cost_usd.value == cheapest ? " <- cheapest" : "")),
                          figure_cell(f.instance_hours, two_decimals, false), figure_cell(f.cost_usd, money, false), figure_cell(f.mean_instances, two_decimals, false),
                          figure_cell(f.peak_instances, quantity, false), figure_cell(f.late_share, percent, false)});
    out += render_table(t, o.format);
    if (o.format == Format::table) {
        const double peak = *std::max_element(plan.fleets.front().instances.begin(), plan.fleets.front().instances.end());
        out += "\nover the history (each column the most in that stretch; @ = " + quantity(peak) + " instances, or " +
               quantity(*plan.peak_requests_per_second.value) + " requests/s):\n";
        out += "  demand      |" + sparkline(plan.series_requests_per_second, *plan.peak_requests_per_second.value, 72) + "|\n";
        for (const ServingFleet& f : plan.fleets) {
            std::string label(policy_name(f.policy));
            label.resize(11, ' ');
            out += "  " + label + " |" + sparkline(f.instances, peak, 72) + "|\n";
        }
    }
    std::string after = "\nlate: requests above what the ready instances serve at full capacity (launched ones serve after the warm-up).\n";
    for (const auto& note : demand.notes) after += "note: " + note + "\n";
    if (o.explain) after += explain_all(all);
    return out + notes_block(after, o.format);
}

}  // namespace

Command register_serve_plan(CLI::App& parent) {
    auto o = std::make_shared<ServePlanOptions>();
    CLI::App* app = parent.add_subcommand("serve-plan", "Static, scheduled and autoscaled serving fleets over a demand curve: instance-hours, cost, requests served late");
    o->app = app;
    ServingFleetRequest& q = o->req;
    app->add_option("--demand", o->demand, "Demand curve: a timestamp,requests_per_second CSV (or CloudWatch JSON of a request-rate metric)")
        ->type_name("FILE")
        ->required();
    auto* capacity = app->add_option_function<double>("--capacity-rps", [o](double v) { o->req.capacity_requests_per_second = {v, InputOrigin::user, ""}; },
                                                      "Requests/s one instance serves at your target latency (or --model ... to compute it)")
                         ->type_name("RPS")
                         ->check(number_rule(NumberRule::positive));
    auto* model = app->add_option("--model", o->model, "Instead of --capacity-rps: serve this model preset on --instance; the capacity is the most requests/s "
                                                      "whose inter-token latency stays within --max-ms-per-token (gpuplan infer's serving model)");
    model->excludes(capacity);
    app->add_option("--dtype", o->dtype, "With --model: weight dtype")->capture_default_str()->transform(choice_rule({"bf16", "fp16", "fp8", "int8", "int4"}));
    app->add_option("--prompt-tokens", o->prompt_tokens, "With --model: prompt tokens per request")->check(whole_rule(1));
    app->add_option("--output-tokens", o->output_tokens, "With --model: output tokens per request")->check(whole_rule(1));
    app->add_option("--max-ms-per-token", o->max_ms_per_token, "With --model: the latency target between output tokens, ms")->check(number_rule(NumberRule::positive));
    auto* price = app->add_option("--usd-per-instance-hour", o->usd_per_instance_hour, "Instance price, $/h")->check(number_rule(NumberRule::positive));
    auto* inst = app->add_option("--instance", o->instance, "Take the price from this catalog instance's on-demand price");
    price->excludes(inst);
    add_region_option(*app, o->region);
    app->add_option("--target-utilization", q.target_utilization, "Share of capacity each policy keeps instances busy at most")
        ->capture_default_str()
        ->check(number_rule(NumberRule::fraction));
    app->add_option("--warmup-minutes", q.warmup_minutes, "Launch to serving: instance boot + model load")->capture_default_str()->check(number_rule(NumberRule::non_negative));
    app->add_option("--scale-in-minutes", q.scale_in_minutes, "Autoscaled: demand must stay lower this long before instances go")
        ->capture_default_str()
        ->check(number_rule(NumberRule::non_negative));
    app->add_option("--min-instances", q.min_instances, "Fewest instances any policy keeps")->capture_default_str()->check(whole_rule(0));
    app->add_flag("--explain", o->explain, "Show each figure's formula, worked line and inputs");
    add_format_option(*app, o->format, {Format::table, Format::json, Format::csv, Format::md});
    app->footer(R"(desired = max(min, ceil(demand / (capacity x target utilization))). static: the peak desired, always;
scheduled: per hour of the week (of the day for under a week) its largest desired, started a warm-up ahead;
autoscaled: launches at once (ready after the warm-up), removes after the scale-in delay. One-minute grid.
Examples:
  gpuplan serve-plan --demand requests-per-second.csv --capacity-rps 12 --instance g6e.xlarge
  gpuplan serve-plan --demand rps.csv --instance g6e.xlarge --model llama-3-8b --prompt-tokens 1000 --output-tokens 250 --max-ms-per-token 40
  gpuplan serve-plan --demand rps.csv --capacity-rps 12 --usd-per-instance-hour 1.86 --warmup-minutes 8 --format json)");
    return {app, [o](const Catalog& c) { return run_serve_plan(c, *o); }};
}

}  // namespace gpuplan::cli
