// recommend_cmd.cpp — `gpuplan recommend`: the cheapest fast-enough way to serve a model, or
// (with --training) to train one on a token budget.
// Inference sweeps every GPU instance type x tensor-parallel layout x purchase option (core:
// recommend/recommend.hpp) and prints the Pareto frontier of cost versus per-token latency;
// training sweeps instance type x node count x purchase option, each with the first layout
// that fits, and prints the frontier of total cost versus total hours. Both print the picks
// with their working and why the rest were dropped.
#include <cmath>
#include "gpuplan/formula_text.hpp"
#include <cstdio>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "recommend_training_view.hpp"
#include "gpuplan/pricing/purchase_options.hpp"
#include "gpuplan/scenario/scenario_result.hpp"
#include "gpuplan/recommend/recommend.hpp"
#include "gpuplan/recommend/region_ranking.hpp"
#include "region_ranking_view.hpp"
#include "traffic_view.hpp"
#include "gpuplan/workload/training_time.hpp"

namespace gpuplan::cli {

namespace {

struct RecommendOptions {
    std::string model, dtype = "bf16", kv_dtype = "bf16", region = "us-east-1";
    std::vector<std::string> models_files;
    Notes notes;  // the command's: what a config.json left out
    double context = 4096, tokens_per_second = 1000, max_batch = 256, max_instances = 16;
    std::vector<std::string> families, purchase{std::string(to_string(PriceKind::on_demand))};
    std::optional<double> max_usd_per_hour, max_ms_per_token, bandwidth_efficiency;
    // --training
    bool training = false;
    double tokens = 0;
    TrainingRecommendRequest train;  // its defaults are the flags' defaults
    std::string recompute = std::string(to_string(TrainingRecommendRequest{}.recompute));
    std::optional<double> deadline_hours, budget_usd;
    std::vector<std::string> regions;  // --regions: rank these (or "all") against --region
    bool explain = false;
    Format format = Format::table;
    TrafficFlags traffic;
    std::vector<std::string> quotas;
    CLI::App* app = nullptr;
    bool given(const char* flag) const { return app->count(flag) > 0; }
};

const std::vector<const char*> kInferenceOnly = {"--tokens-per-second", "--context",      "--dtype",          "--kv-dtype",
                                                 "--max-batch",         "--max-instances", "--max-usd-per-hour", "--max-ms-per-token",
                                                 "--bandwidth-efficiency", "--rate", "--prompt-tokens-dist", "--output-tokens-dist", "--target",
                                                 "--target-p95-ttft-ms"};
const std::vector<const char*> kTrainingOnly = {"--tokens", "--sequence", "--micro-batch", "--global-batch-tokens", "--recompute",
                                                "--max-nodes", "--deadline-hours", "--budget-usd"};

// The flags both modes share, checked the same way.
// --purchase as purchase options (purchase_option_rule checked each key and rewrote an old one).
std::vector<PurchaseOption> purchase_options(const RecommendOptions& o) {
    std::vector<PurchaseOption> options;
    for (const auto& p : o.purchase) options.push_back(purchase_option_named(p).value());
    return options;
}
// --purchase with --training: the catalog's price kinds, which a run's hours are priced at (a
// commitment is billed for its whole term, which a run of days does not fill).
std::vector<PriceKind> training_price_kinds(const RecommendOptions& o) {
    std::vector<PriceKind> kinds;
    for (const auto& p : o.purchase) {
        const std::optional<PriceKind> kind = price_kind_named(p);
        if (!kind)
            throw InputError("--purchase", "'" + p + "'",
                             "on-demand or spot with --training (a commitment is billed for its whole term; `gpuplan price` quotes every option)");
        kinds.push_back(*kind);
    }
    return kinds;
}

void check_common(const Catalog& catalog, const RecommendOptions& o) {
    require_region(catalog, o.region, "--region");
    for (const auto& f : o.families) {
        bool known = false;
        for (const auto& i : catalog.instances) known = known || i.family == f;
        if (!known) throw InputError("--family", "'" + f + "'", "an instance family in the catalog (see `gpuplan catalog`)");
    }
    if (o.training) (void)training_price_kinds(o);  // each --purchase key is checked here, before any sweep
}

std::string run_inference(const Catalog& catalog, const RecommendOptions& o, const ModelSpec* model) {
    InferenceRecommendRequest q = default_inference_request(*model);
    set_dtypes(q, o.dtype, o.kv_dtype, "--dtype", "--kv-dtype");
    q.context = o.context;
    q.tokens_per_second = o.tokens_per_second;
    q.max_batch = o.max_batch;
    q.max_instances = o.max_instances;
    q.region = o.region;
    q.families = o.families;
    q.purchase = purchase_options(o);
    q.max_usd_per_hour = o.max_usd_per_hour;
    if (o.max_ms_per_token) q.max_seconds_per_token = *o.max_ms_per_token / 1e3;
    if (o.bandwidth_efficiency) q.bandwidth_efficiency = {*o.bandwidth_efficiency, InputOrigin::user, ""};
    q.quotas = account_quotas(o.quotas);
    std::string asked = fmt::format("{} tokens/s, {} tokens of context", quantity(o.tokens_per_second), quantity(o.context));
    if (o.traffic.given()) {
        if (o.given("--tokens-per-second")) throw InputError("--tokens-per-second: not with --rate (the throughput follows from the requests and their output lengths)");
        q.traffic = traffic_request(o.traffic);
        q.traffic->requests = kSweepTrafficRequests;
        const double longest = q.traffic->prompt.max() + q.traffic->output.max();
        if (!o.given("--context")) q.context = longest;
        else if (o.context < longest)
            throw InputError("--context", n(o.context), "at least the longest prompt + output (" + n(longest) + " tokens) with --rate");
        std::string targets;
        for (const LatencyTarget& t : q.traffic->targets) targets += (targets.empty() ? "" : ", ") + t.words();
        asked = fmt::format("{} requests/s (prompts {}, outputs {} tokens){}", quantity(o.traffic.rate), q.traffic->prompt.text(), q.traffic->output.text(),
                            targets.empty() ? "" : ", " + targets);
    } else {
        traffic_request(o.traffic);  // refuses traffic flags without --rate
    }

    if (!o.regions.empty()) {
        const std::vector<std::string> regions = ranked_regions(catalog, o.regions, o.region);
        const RegionRanking ranking = rank_regions(recommend_inference_in_regions(catalog, q, regions), regions, o.region);
        return render_region_ranking(ranking, kSweepRankingNote,
                              fmt::format("{} ({}, KV {}) at {}: the cheapest option in each of {} regions\n\n", model->name, o.dtype, o.kv_dtype, asked,
                                          regions.size()),
                              "$/1M tokens", rate, o.format, o.explain);
    }
    const Recommendation r = recommend_inference(catalog, q);
    const nlohmann::json j = to_json(r);
    if (o.format == Format::json) return dump_json(j);

    std::string out = fmt::format("{} ({}, KV {}) at {}, {}: {} options evaluated, {} kept\n\n", model->name, o.dtype, o.kv_dtype, asked, o.region,
                                  r.evaluated, j.at("kept").get<std::size_t>());
    Table t{{{"instance", "instance", false}, {"purchase", "purchase", false}, {"layout", "layout", false}, {"instances", "instances"},
             {"$/h (fleet)", "usd_per_hour"}, {"$/month (fleet)", "usd_per_month"}, {"$/1M tokens", "usd_per_million_tokens"},
             {q.traffic ? "p95 ms/token" : "ms/token", "ms_per_token"}},
            {}};
    const std::vector<LatencyTarget> targets = q.traffic ? q.traffic->targets : std::vector<LatencyTarget>{};
    for (const LatencyTarget& target : targets)
        t.columns.push_back({"p" + n(target.percentile) + " " + (target.metric == LatencyMetric::time_to_first_token ? "TTFT"
                                                                  : target.metric == LatencyMetric::time_per_output_token ? "TPOT" : "e2e") + " ms",
                             target.text()});
    t.columns.push_back({"pick", "pick", false});
    bool any_assumed = false;  // a rate on the frontier is an assumed discount off on-demand
    for (std::size_t i : r.frontier) {
        const Candidate& c = r.candidates[i];
        std::string pick;
        const char* names[] = {"cheapest", "fastest", "balanced"};
        for (std::size_t k = 0; k < r.picks.size(); ++k)
            if (r.picks[k] == i) pick += (pick.empty() ? "" : ", ") + std::string(names[k]);
        any_assumed = any_assumed || c.price_assumed;
        t.rows.push_back({text_cell(c.instance), text_cell(key(c.purchase) + (c.price_assumed ? "*" : "")), text_cell(c.layout), text_cell(quantity(c.instances)),
                          {rate(c.usd_per_hour), full_precision(c.usd_per_hour)},
                          {money(c.usd_per_month), full_precision(c.usd_per_month)},
                          {rate(c.usd_per_million_tokens), full_precision(c.usd_per_million_tokens)},
                          {decimals(c.seconds_per_token * 1e3, 2), full_precision(c.seconds_per_token * 1e3)}});
        for (std::size_t k = 0; k < targets.size(); ++k)
            t.rows.back().push_back(k < c.achieved_seconds.size() ? Cell{decimals(c.achieved_seconds[k] * 1e3, 1), full_precision(c.achieved_seconds[k] * 1e3)} : none_cell());
        t.rows.back().push_back(text_cell(pick));
    }
    if (r.frontier.empty()) {
        out += "Nothing fits these constraints.\n";
    } else {
        out += "Pareto frontier (no other option is both cheaper and faster):\n";
        out += render_table(t, o.format);
        if (o.format != Format::csv) {
            const char* pick_names[] = {"cheapest", "fastest", "balanced"};
            out += "\nWhy these picks:\n";
            for (std::size_t k = 0; k < r.pick_reasons.size() && k < 3; ++k) out += fmt::format("  {}: {}\n", pick_names[k], r.pick_reasons[k]);
            out += "\nQuotas (vCPUs each pick's fleet needs before it can launch):\n";
            for (std::size_t k = 0; k < r.pick_details.size() && k < 3; ++k) out += fmt::format("  {}: {}\n", pick_names[k], r.pick_details[k].quota.words);
        }
    }
    if (o.format == Format::csv) return render_csv(t);  // the frontier alone: CSV readers want no prose
    if (any_assumed)
        out += notes_block("\n*: priced at an assumed discount off on-demand (no listed price for the type and region; docs/pricing.md).\n"
                           "`gpuplan price TYPE` shows every purchase option with its source.\n", o.format);
    out += "\nDropped, by reason:\n";
    std::vector<KeyValue> dropped;
    for (const auto& [reason, list] : j.at("dropped").items())
        dropped.push_back({fmt::format("{} option(s)", list.size()), reason});
    out += dropped.empty() ? "  none\n" : render_key_values(dropped);
    if (o.explain)
        for (const auto& [name, pick] : j.at("picks").items()) {
            out += fmt::format("\n{}: {} ({}, {})\n", name, pick.at("instance").get<std::string>(), pick.at("purchase").get<std::string>(),
                               pick.at("layout").get<std::string>());
            for (const auto& [figure_name, figure] : pick.at("figures").items())
                out += "  " + figure_name + "\n" + explain_figure_json(figure, "    ");
        }
    if (q.traffic)
        out += notes_block("\nWith --rate each layout's replicas are the fewest whose continuous-batching simulation (5,000 requests per count\n"
                           "tried, Poisson arrivals split evenly over the replicas) meets every target; `gpuplan infer --rate` shows one\n"
                           "layout's search. p95 ms/token: the simulated 95th percentile of each request's time per output token.\n",
                           o.format);
    else
    out += notes_block("\nms/token: one sequence's time per output token (1 / decode steps per second). $/1M tokens: the fleet's\n"
                       "hourly price over the target throughput. Decode is modelled memory-bound (docs/models.md); the\n"
                       "bandwidth efficiency default is an assumption (80%) unless --bandwidth-efficiency is given.\n",
                       o.format);
    return out;
}

// ---- --training -------------------------------------------------------------------------------

std::string run_training(const Catalog& catalog, const RecommendOptions& o, const ModelSpec* model) {
    if (!o.given("--tokens")) throw InputError("--tokens: required with --training (the token budget to train on, e.g. --tokens 1e11)");
    TrainingRecommendRequest q = o.train;
    q.model = model;
    q.token_budget = o.tokens;
    q.recompute = o.recompute == "full" ? Recompute::full : o.recompute == "none" ? Recompute::none : Recompute::selective;
    q.region = o.region;
    q.families = o.families;
    q.purchase = training_price_kinds(o);
    q.deadline_hours = o.deadline_hours;
    q.budget_usd = o.budget_usd;
    q.quotas = account_quotas(o.quotas);
    const double per_step = q.micro_batch * q.sequence;
    if (std::fmod(q.global_batch_tokens, per_step) != 0)
        throw InputError("--global-batch-tokens", n(q.global_batch_tokens),
                         "a whole multiple of --micro-batch x --sequence = " + n(q.micro_batch) + " x " + n(q.sequence) + " = " + n(per_step) +
                             " (and of data parallel x that, for each option)");
    if (!o.regions.empty()) {
        const std::vector<std::string> regions = ranked_regions(catalog, o.regions, o.region);
        RegionRanking ranking;
        try {
            ranking = rank_regions(recommend_training_in_regions(catalog, q, regions), regions, o.region);
        } catch (const InputError& e) {
            rethrow_for_flag(e, {{"token_budget", "--tokens"}, {"max_nodes", "--max-nodes"}, {"model", "--model"}});
        }
        return render_region_ranking(ranking, kSweepRankingNote,
                              fmt::format("Training {} on {} tokens: the cheapest option in each of {} regions\n\n", model->name, quantity(q.token_budget),
                                          regions.size()),
                              "$ (whole run)", money, o.format, o.explain);
    }
    TrainingRecommendation r;
    try {
        r = recommend_training(catalog, q);
    } catch (const InputError& e) {
        rethrow_for_flag(e, {{"token_budget", "--tokens"}, {"max_nodes", "--max-nodes"}, {"model", "--model"}});
    }
    nlohmann::json j = to_json(r);  // the scenario's "recommend_training" result, each pick with its working
    for (std::size_t k = 0; k < r.picks.size(); ++k) j["picks"][kTrainingPickNames[k]]["train_command"] = train_command(q, r.candidates[r.picks[k]]);
    j["request"] = {{"model", model->name}, {"tokens", q.token_budget}, {"sequence", q.sequence}, {"micro_batch", q.micro_batch},
                    {"global_batch_tokens", q.global_batch_tokens}, {"recompute", std::string(to_string(q.recompute))}, {"max_nodes", q.max_nodes},
                    {"region", q.region}, {"families", q.families}, {"purchase", o.purchase},
                    {"deadline_hours", q.deadline_hours ? nlohmann::json(*q.deadline_hours) : nlohmann::json(nullptr)},
                    {"budget_usd", q.budget_usd ? nlohmann::json(*q.budget_usd) : nlohmann::json(nullptr)}};
    if (o.format == Format::json) return dump_json(j);

    return render_training_recommendation(q, r, j, o.format, o.explain);
}

std::string run_recommend(const Catalog& catalog, const RecommendOptions& o) {
    for (const char* flag : o.training ? kInferenceOnly : kTrainingOnly)
        if (o.given(flag))
            throw InputError(std::string(flag) + ": applies to " + (o.training ? "inference only, not with --training" : "--training only (add --training to plan a training run)"));
    const std::vector<ModelSpec> models = load_models_with_files(o.models_files, o.notes);
    const ModelSpec& model = require_model(models, o.model, "--model");
    check_common(catalog, o);
    return o.training ? run_training(catalog, o, &model) : run_inference(catalog, o, &model);
}

}  // namespace

Command register_recommend(CLI::App& parent) {
    auto o = std::make_shared<RecommendOptions>();
    CLI::App* app = parent.add_subcommand(
        "recommend", "The cheapest fast-enough fleet to serve a model (or, with --training, to train one): Pareto frontier of cost vs time");
    o->app = app;
    app->add_option("--model", o->model, "Model preset (see `gpuplan models`) or a model from --models-file / --model-config (required unless one config.json is given)")->type_name("NAME");
    add_models_file_option(*app, o->models_files);
    app->add_flag("--training", o->training, "Plan a training run on a token budget (--tokens) instead of serving");
    // Inference
    app->add_option("--tokens-per-second", o->tokens_per_second, "Inference: aggregate decode throughput to serve")->capture_default_str()->check(number_rule(NumberRule::positive));
    app->add_option("--context", o->context, "Inference: tokens of context (KV cache) per sequence")->capture_default_str()->check(number_rule(NumberRule::positive));
    app->add_option("--dtype", o->dtype, "Inference: weight format: bf16, fp16, fp8, int8, int4")->capture_default_str();
    app->add_option("--kv-dtype", o->kv_dtype, "Inference: KV cache format: bf16, fp8")->capture_default_str();
    app->add_option("--max-batch", o->max_batch, "Inference: largest batch per replica")->capture_default_str()->check(number_rule(NumberRule::positive));
    app->add_option("--max-instances", o->max_instances, "Inference: most instances in the fleet")->capture_default_str()->check(number_rule(NumberRule::positive));
    app->add_option("--max-usd-per-hour", o->max_usd_per_hour, "Inference: budget for the whole fleet, $/h")->check(number_rule(NumberRule::positive));
    app->add_option("--max-ms-per-token", o->max_ms_per_token, "Inference: latency limit per output token, ms")->check(number_rule(NumberRule::positive));
    app->add_option("--bandwidth-efficiency", o->bandwidth_efficiency, "Inference: achieved / datasheet memory bandwidth (default 0.8, an assumption)")
        ->check(efficiency_rule("0.8 = 80%"));
    // Training
    app->add_option("--tokens", o->tokens, "Training: token budget (required with --training)")->check(whole_rule(1));
    app->add_option("--sequence", o->train.sequence, "Training: tokens per sequence")->capture_default_str()->check(whole_rule(1));
    app->add_option("--micro-batch", o->train.micro_batch, "Training: sequences per micro-batch per GPU")->capture_default_str()->check(whole_rule(1));
    app->add_option("--global-batch-tokens", o->train.global_batch_tokens, "Training: tokens per optimizer step over all replicas")
        ->capture_default_str()
        ->check(whole_rule(1));
    app->add_option("--recompute", o->recompute, "Training: activation recomputation none|selective|full")
        ->capture_default_str()
        ->transform(choice_rule({"none", "selective", "full"}));
    app->add_option("--max-nodes", o->train.max_nodes, "Training: most instances (node counts 1, 2, 4, ... up to this)")->capture_default_str()->check(whole_rule(1));
    app->add_option("--deadline-hours", o->deadline_hours, "Training: drop options that take longer (hours)")->check(number_rule(NumberRule::positive));
    app->add_option("--budget-usd", o->budget_usd, "Training: drop options that cost more (USD for the whole run)")->check(number_rule(NumberRule::positive));
    // Both
    app->add_option("--family", o->families, "Only these instance families (comma-separated)")->delimiter(',');
    Command command{app, nullptr};
    o->notes = command.notes;
    app->add_option("--purchase", o->purchase,
                    "Purchase options (comma-separated): on-demand, spot; serving also capacity-block and commitments such as reserved-1y, "
                    "compute-savings-plan-3y-all-upfront (no payment given: no upfront)")
        ->delimiter(',')
        ->capture_default_str()
        ->transform(purchase_option_rule(command.notes, "--purchase"));
    add_region_option(*app, o->region);
    app->add_option("--regions", o->regions,
                    "Rank regions instead: 'all' or a comma-separated list; each region's cheapest option, with the saving against --region")
        ->delimiter(',')
        ->type_name("all|REGION,...");
    add_traffic_options(*app, o->traffic, false);
    add_quota_option(*app, o->quotas);
    app->add_flag("--explain", o->explain, "Show the working of each pick");
    add_format_option(*app, o->format, {Format::table, Format::json, Format::csv, Format::md});
    app->footer(R"(Inference: every GPU instance type x tensor-parallel layout x purchase option is scored on cost per 1M tokens
and latency per token. Training (--training): every GPU instance type x node count x purchase option, each with
the first layout that fits in memory, is scored on total cost and total hours for --tokens. Options that do not
fit, lack a price, or break a limit are dropped with the reason. Flags of the other mode are refused. The same
sweeps are a scenario's "recommend" and "recommend_training" sections.
Examples:
  gpuplan recommend --model llama-3.1-70b --dtype fp8 --context 8192 --tokens-per-second 2000 --purchase on-demand,spot
  gpuplan recommend --model llama-3.1-70b --dtype fp8 --tokens-per-second 2000 --purchase on-demand,reserved-1y,reserved-3y,spot
  gpuplan recommend --model llama-3-8b --family g6,g6e --max-ms-per-token 30 --explain
  gpuplan recommend --model mixtral-8x7b --format json
  gpuplan recommend --model llama-3.1-70b --tokens-per-second 2000 --purchase on-demand,spot --regions all
  gpuplan recommend --model llama-3.1-8b --rate 10 --prompt-tokens-dist uniform:500:1500 --output-tokens-dist 300 --target-p95-ttft-ms 1000
  gpuplan recommend --training --model llama-3-8b --tokens 1e11 --family p4d,p5,p5en --purchase on-demand,spot
  gpuplan recommend --training --model llama-3.1-70b --tokens 1e11 --deadline-hours 200 --explain)");
    command.run = [o](const Catalog& c) { return run_recommend(c, *o); };
    return command;
}

}  // namespace gpuplan::cli
