// recommend_cmd.cpp — `gpuplan recommend`: the cheapest fast-enough way to serve a model.
// Sweeps every GPU instance type x tensor-parallel layout x purchase option (core:
// workload/recommend.hpp), prints the Pareto frontier of cost versus per-token latency, the
// picks with their working, and why the rest were dropped.
#include <map>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "gpuplan/scenario.hpp"
#include "gpuplan/workload/recommend.hpp"

namespace gpuplan::cli {

namespace {

struct RecommendOptions {
    std::string model, dtype = "bf16", kv_dtype = "bf16", region = "us-east-1";
    double context = 4096, tokens_per_second = 1000, max_batch = 256, max_instances = 16;
    std::vector<std::string> families, purchase{"on_demand"};
    std::optional<double> max_usd_per_hour, max_ms_per_token, bandwidth_efficiency;
    bool explain = false;
    Format format = Format::table;
};

std::string run_recommend(const Catalog& catalog, const RecommendOptions& o) {
    const ModelSpec* model = find_model(builtin_models(), o.model);
    if (!model) {
        std::vector<std::string> names;
        for (const auto& m : builtin_models()) names.push_back(m.name);
        throw InputError("--model", "'" + o.model + "'", "a model preset: " + join(names, ", ") + " (see `gpuplan models`)");
    }
    require_region(catalog, o.region, "--region");
    InferenceRecommendRequest q = default_inference_request(*model);
    q.weight_bytes = dtype_bytes(o.dtype, "--dtype");
    q.kv_bytes = dtype_bytes(o.kv_dtype, "--kv-dtype");
    q.context = o.context;
    q.tokens_per_second = o.tokens_per_second;
    q.max_batch = o.max_batch;
    q.max_instances = o.max_instances;
    q.region = o.region;
    for (const auto& f : o.families) {
        bool known = false;
        for (const auto& i : catalog.instances) known = known || i.family == f;
        if (!known) throw InputError("--family", "'" + f + "'", "an instance family in the catalog (see `gpuplan catalog`)");
    }
    q.families = o.families;
    for (const auto& p : o.purchase)
        if (p != "on_demand" && p != "spot_typical") throw InputError("--purchase", "'" + p + "'", "on_demand or spot_typical");
    q.purchase = o.purchase;
    q.max_usd_per_hour = o.max_usd_per_hour;
    if (o.max_ms_per_token) q.max_seconds_per_token = *o.max_ms_per_token / 1e3;
    if (o.bandwidth_efficiency) q.bandwidth_efficiency = {*o.bandwidth_efficiency, InputOrigin::user, ""};

    const Recommendation r = recommend_inference(catalog, q);
    const nlohmann::json j = to_json(r, catalog, q);
    if (o.format == Format::json) return dump_json(j);

    std::string out = fmt::format("{} ({}, KV {}) at {} tokens/s, {} tokens of context, {}: {} options evaluated, {} kept\n\n", model->name,
                                  o.dtype, o.kv_dtype, quantity(o.tokens_per_second), quantity(o.context), o.region, r.evaluated,
                                  j.at("kept").get<std::size_t>());
    Table t{{{"instance", "instance", false}, {"purchase", "purchase", false}, {"layout", "layout", false}, {"instances", "instances"},
             {"$/h (fleet)", "usd_per_hour"}, {"$/1M tokens", "usd_per_million_tokens"}, {"ms/token", "ms_per_token"}, {"pick", "pick", false}},
            {}};
    for (std::size_t i : r.frontier) {
        const Candidate& c = r.candidates[i];
        std::string pick;
        const char* names[] = {"cheapest", "fastest", "balanced"};
        for (std::size_t k = 0; k < r.picks.size(); ++k)
            if (r.picks[k] == i) pick += (pick.empty() ? "" : ", ") + std::string(names[k]);
        t.rows.push_back({text_cell(c.instance), text_cell(c.purchase), text_cell(c.layout), text_cell(quantity(c.instances)),
                          {rate(c.usd_per_hour), full_precision(c.usd_per_hour)},
                          {rate(c.usd_per_million_tokens), full_precision(c.usd_per_million_tokens)},
                          {decimals(c.seconds_per_token * 1e3, 2), full_precision(c.seconds_per_token * 1e3)}, text_cell(pick)});
    }
    if (r.frontier.empty()) {
        out += "Nothing fits these constraints.\n";
    } else {
        out += "Pareto frontier (no other option is both cheaper and faster):\n";
        out += render_table(t, o.format);
    }
    if (o.format == Format::csv) return out;
    out += "\nDropped, by reason:\n";
    std::vector<KeyValue> dropped;
    for (const auto& [reason, list] : j.at("dropped").items())
        dropped.push_back({fmt::format("{} option(s)", list.size()), reason});
    out += render_key_values(dropped);
    if (o.explain)
        for (const auto& [name, pick] : j.at("picks").items()) {
            out += fmt::format("\n{}: {} ({}, {})\n", name, pick.at("instance").get<std::string>(), pick.at("purchase").get<std::string>(),
                               pick.at("layout").get<std::string>());
            for (const auto& [figure_name, figure] : pick.at("figures").items())
                out += "  " + figure_name + "\n" + explain_figure_json(figure, "    ");
        }
    out += notes_block("\nms/token: one sequence's time per output token (1 / decode steps per second). $/1M tokens: the fleet's\n"
                       "hourly price over the target throughput. Decode is modelled memory-bound (docs/models.md); the\n"
                       "bandwidth efficiency default is an assumption (80%) unless --bandwidth-efficiency is given.\n",
                       o.format);
    return out;
}

}  // namespace

Command register_recommend(CLI::App& parent) {
    auto o = std::make_shared<RecommendOptions>();
    CLI::App* app = parent.add_subcommand("recommend", "The cheapest fast-enough fleet to serve a model: Pareto frontier of cost vs latency");
    app->add_option("--model", o->model, "Model preset (see `gpuplan models`)")->required();
    app->add_option("--tokens-per-second", o->tokens_per_second, "Aggregate decode throughput to serve")->capture_default_str()->check(number_rule(NumberRule::positive));
    app->add_option("--context", o->context, "Tokens of context (KV cache) per sequence")->capture_default_str()->check(number_rule(NumberRule::positive));
    app->add_option("--dtype", o->dtype, "Weight format: bf16, fp16, fp8, int8, int4")->capture_default_str();
    app->add_option("--kv-dtype", o->kv_dtype, "KV cache format: bf16, fp8")->capture_default_str();
    app->add_option("--family", o->families, "Only these instance families (comma-separated)")->delimiter(',');
    app->add_option("--purchase", o->purchase, "Purchase options: on_demand, spot_typical (comma-separated)")->delimiter(',')->capture_default_str();
    app->add_option("--max-batch", o->max_batch, "Largest batch per replica")->capture_default_str()->check(number_rule(NumberRule::positive));
    app->add_option("--max-instances", o->max_instances, "Most instances in the fleet")->capture_default_str()->check(number_rule(NumberRule::positive));
    app->add_option("--max-usd-per-hour", o->max_usd_per_hour, "Budget for the whole fleet, $/h")->check(number_rule(NumberRule::positive));
    app->add_option("--max-ms-per-token", o->max_ms_per_token, "Latency limit per output token, ms")->check(number_rule(NumberRule::positive));
    app->add_option("--bandwidth-efficiency", o->bandwidth_efficiency, "Achieved / datasheet memory bandwidth (default 0.8, an assumption)")
        ->check(number_rule(NumberRule::fraction));
    add_region_option(*app, o->region);
    app->add_flag("--explain", o->explain, "Show the working of each pick");
    add_format_option(*app, o->format, {Format::table, Format::json, Format::csv, Format::md});
    app->footer(R"(Every GPU instance type x tensor-parallel layout x purchase option is scored; options that do not fit, lack a
price, or break a limit are dropped with the reason. The same sweep is a scenario's "recommend" section.
Examples:
  gpuplan recommend --model llama-3.1-70b --dtype fp8 --context 8192 --tokens-per-second 2000 --purchase on_demand,spot_typical
  gpuplan recommend --model llama-3-8b --family g6,g6e --max-ms-per-token 30 --explain
  gpuplan recommend --model mixtral-8x7b --format json)");
    return {app, [o](const Catalog& c) { return run_recommend(c, *o); }};
}

}  // namespace gpuplan::cli
