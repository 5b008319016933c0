// scenario_result.cpp — evaluating a scenario into typed results, and the one serialiser of
// those results (schema gpuplan.result/1, docs/scenario.md). Nothing here computes a figure:
// each comes from its domain module; the JSON functions only name and arrange them.
#include "gpuplan/scenario/scenario_result.hpp"

#include <cmath>

#include "gpuplan/input_error.hpp"

namespace gpuplan {

namespace {
constexpr std::string_view kResultSchema = "gpuplan.result/1";

// A recommender's "kept" count and its dropped options grouped by the reason they were dropped.
template <class Sweep>
void add_kept_and_dropped(nlohmann::json& doc, const Sweep& r) {
    nlohmann::json dropped = nlohmann::json::object();
    for (const DroppedOptions& d : dropped_by_reason(r)) dropped[d.reason] = d.options;
    doc["kept"] = kept_count(r);
    doc["dropped"] = dropped;
}
}  // namespace

ScenarioResult evaluate(const Scenario& s, const Catalog& catalog) {
    ScenarioResult r;
    r.name = s.name;
    r.region = s.region;
    r.notes = s.notes;
    if (s.price) {
        const Instance& instance = *catalog.find_instance(s.price->instance);  // parse_scenario checked it
        const bool offered = instance.offered_in(s.price->region);
        r.price = PriceSectionResult{s.price->instance, s.price->hours, s.price->count,
                                     offered ? quote_purchase_options(catalog, *s.price) : std::vector<Quote>{},
                                     quota_line(instance, s.price->count, PriceKind::on_demand, {}),
                                     quota_line(instance, s.price->count, PriceKind::spot_typical, {})};
        if (!offered) r.price->not_offered = price_unknown_reason(instance, s.price->region, PriceKind::on_demand);
    }
    if (s.fleet) r.fleet = FleetSectionResult{*s.fleet, evaluate_fleet(*s.fleet)};
    if (s.idle) r.idle = evaluate_idle_cost(*s.idle);
    if (s.usage) r.usage = evaluate_usage_section(*s.usage);
    if (s.serving) r.serving = evaluate_serving_section(*s.serving);
    if (s.storage) r.storage = evaluate_storage(*s.storage);
    for (const auto& t : s.token_costs) r.token_costs.push_back(token_cost(t.usd_per_hour, t.tokens_per_second));
    if (s.video) r.video = compare_video_pipelines(s.video->usd_per_hour, s.video->decode_seconds_a, s.video->decode_seconds_b, s.video->rtf_a);
    if (s.recommend) r.recommend = recommend_inference(catalog, *s.recommend);
    if (s.train) r.train = plan_training(catalog, *s.train);
    if (s.recommend_training) r.recommend_training = recommend_training(catalog, *s.recommend_training);
    if (s.decode) r.decode = evaluate_decode(catalog, *s.decode);
    if (s.fit) r.fit = evaluate_fit_section(*s.fit, catalog);
    if (s.infer) r.infer = estimate_inference(catalog, *s.infer);
    if (s.collective) r.collective = estimate_collective(catalog, *s.collective);
    if (s.topology) {
        const TopologySection& t = *s.topology;
        r.topology = TopologySectionResult{t.machine, summarize(t.machine), std::nullopt};
        const std::string compare_with = !t.instance.empty() ? t.instance : s.train ? s.train->time.instance->name : s.price ? s.price->instance : "";
        if (const Instance* inst = catalog.find_instance(compare_with)) r.topology->comparison = compare_with_catalog(t.machine, catalog, *inst);
    }
    return r;
}

nlohmann::json to_json(const FleetResult& r, const FleetRequest& request) {
    nlohmann::json tiers = nlohmann::json::array();
    for (std::size_t k = 0; k < r.tier_cost_usd.size(); ++k) {
        nlohmann::json t = {{"option", key(request.tiers[k].option)}, {"gpus", request.tiers[k].gpus},
                            {"committed", request.tiers[k].committed}, {"cost_usd", to_json(r.tier_cost_usd[k])}};
        if (r.tier_break_even_utilization[k]) t["break_even_utilization"] = to_json(*r.tier_break_even_utilization[k]);
        tiers.push_back(t);
    }
    return {{"tiers", tiers},
            {"figures", to_json(std::vector<Figure>{r.total_cost_usd, r.used_gpu_hours, r.blended_usd_per_gpu_hour,
                                                    r.all_on_demand_cost_usd, r.saving_vs_on_demand, r.saving_usd})}};
}

nlohmann::json to_json(const IdleResult& r) {
    return {{"figures", to_json(std::vector<Figure>{r.always_on_usd_per_instance, r.always_on_usd_total, r.ephemeral_hours_per_instance,
                                                    r.ephemeral_usd_per_instance, r.ephemeral_usd_total, r.storage_usd_total,
                                                    r.saving_fraction_compute})}};
}

nlohmann::json to_json(const StorageResult& r) {
    std::vector<Figure> all = r.lines;
    all.push_back(r.total_usd);
    return {{"figures", to_json(all)}};
}

nlohmann::json to_json(const TrainingRecommendation& r) {
    auto candidate = [](const TrainingCandidate& c) {
        return nlohmann::json{{"instance", c.instance}, {"purchase", to_string(c.purchase)}, {"layout", c.layout}, {"nodes", c.nodes},
                              {"hours", c.hours}, {"cost_usd", c.cost_usd}, {"bottleneck", c.bottleneck}};
    };
    nlohmann::json frontier = nlohmann::json::array();
    for (std::size_t i : r.frontier) frontier.push_back(candidate(r.candidates[i]));
    nlohmann::json picks = nlohmann::json::object();
    const char* names[] = {"cheapest", "fastest", "balanced"};
    for (std::size_t k = 0; k < r.picks.size(); ++k) {
        nlohmann::json p = candidate(r.candidates[r.picks[k]]);
        const TrainingTime& t = r.pick_times[k];
        nlohmann::json figs = nlohmann::json::object();
        for (const Figure* f : training_pick_figures(t)) figs[f->name] = figure_json(*f);
        p["figures"] = figs;
        if (k < r.pick_quotas.size()) p["quota"] = to_json(r.pick_quotas[k]);
        p["why"] = k < r.pick_reasons.size() ? r.pick_reasons[k] : "";
        picks[names[k]] = p;
    }
    nlohmann::json doc = {{"evaluated", r.evaluated}, {"frontier", frontier}, {"picks", picks}};
    add_kept_and_dropped(doc, r);
    return doc;
}

nlohmann::json to_json(const Recommendation& r) {
    auto candidate = [](const Candidate& c) {
        nlohmann::json j{{"instance", c.instance}, {"purchase", key(c.purchase)}, {"layout", c.layout}, {"instances", c.instances},
                         {"usd_per_hour", c.usd_per_hour}, {"usd_per_month", c.usd_per_month},
                         {"usd_per_million_tokens", c.usd_per_million_tokens},
                         {"seconds_per_token", c.seconds_per_token}, {"tokens_per_second", c.tokens_per_second}};
        if (c.price_assumed) j["price_assumed"] = true;  // its rate is an assumed discount off on-demand
        if (!c.achieved_seconds.empty()) {  // serving a request rate: the replicas and each target's simulated figure
            j["fleet_replicas"] = c.fleet_replicas;
            j["achieved_seconds"] = c.achieved_seconds;
        }
        return j;
    };
    nlohmann::json frontier = nlohmann::json::array();
    for (std::size_t i : r.frontier) frontier.push_back(candidate(r.candidates[i]));
    nlohmann::json picks = nlohmann::json::object();
    const char* names[] = {"cheapest", "fastest", "balanced"};
    for (std::size_t k = 0; k < r.picks.size(); ++k) {
        const Candidate& c = r.candidates[r.picks[k]];
        nlohmann::json p = candidate(c);
        p["tensor_parallel"] = c.tensor_parallel;
        p["replicas"] = c.replicas;
        p["batch"] = c.batch;
        nlohmann::json figures = nlohmann::json::object();
        if (const auto& f = r.pick_details[k].figures)
            for (const Figure* figure : f->all()) figures[figure->name] = to_json(*figure);
        p["figures"] = figures;
        p["fit"] = to_json(r.pick_details[k].fit, r.pick_details[k].pool);
        p["quota"] = to_json(r.pick_details[k].quota);
        p["why"] = k < r.pick_reasons.size() ? r.pick_reasons[k] : "";
        picks[names[k]] = p;
    }
    nlohmann::json doc = {{"evaluated", r.evaluated}, {"frontier", frontier}, {"picks", picks}};
    if (r.traffic) {  // the order of every candidate's achieved_seconds
        nlohmann::json targets = nlohmann::json::array();
        for (const LatencyTarget& t : r.traffic->targets) targets.push_back(t.text());
        doc["targets"] = targets;
    }
    add_kept_and_dropped(doc, r);
    return doc;
}

nlohmann::json to_json(const ScenarioResult& r) {
    nlohmann::json out = {{"schema", std::string(kResultSchema)}, {"name", r.name}, {"region", r.region}};
    if (!r.notes.empty()) out["notes"] = r.notes;
    // Each section written under its key; a figure it refuses (explain.cpp) is named with the
    // scenario section it came from, e.g. "$.fleet, figure all_on_demand_cost_usd".
    auto put = [&out](const char* key, auto&& write) {
        try {
            out[key] = write();
        } catch (const InputError& e) {
            if (e.where().empty()) throw;
            throw InputError(std::string("$.") + key + ", figure " + e.where(), e.value(), e.expected());
        }
    };
    if (r.price)
        put("price", [&] {
            nlohmann::json quotes = nlohmann::json::array();
            for (const Quote& q : r.price->quotes) quotes.push_back(to_json(q));
            nlohmann::json price{{"instance", r.price->instance}, {"hours", r.price->hours}, {"instances", r.price->instances}, {"options", quotes},
                                 {"quota", {{"on_demand", to_json(r.price->quota_on_demand)}, {"spot", to_json(r.price->quota_spot)}}}};
            if (!r.price->not_offered.empty()) price["not_offered"] = r.price->not_offered;
            return price;
        });
    if (r.fleet) put("fleet", [&] { return to_json(r.fleet->result, r.fleet->request); });
    if (r.idle) put("idle", [&] { return to_json(*r.idle); });
    if (r.usage) put("usage", [&] { return to_json(*r.usage); });
    if (r.serving) put("serving", [&] { return to_json(*r.serving); });
    if (r.storage) put("storage", [&] { return to_json(*r.storage); });
    if (!r.token_costs.empty())
        put("token_costs", [&] {
            nlohmann::json rows = nlohmann::json::array();
            for (const TokenCost& t : r.token_costs) rows.push_back({{"figures", to_json(std::vector<Figure>{t.usd_per_million_tokens, t.usd_per_billion_tokens})}});
            return rows;
        });
    if (r.video)
        put("video", [&] {
            return nlohmann::json{{"figures", to_json(std::vector<Figure>{r.video->video_seconds, r.video->rtf_b, r.video->gpu_hours_per_1000_video_hours_a,
                                                                          r.video->gpu_hours_per_1000_video_hours_b, r.video->saving_usd_per_1000_video_hours})}};
        });
    if (r.recommend) put("recommend", [&] { return to_json(*r.recommend); });
    if (r.train) put("train", [&] { return to_json(*r.train); });
    if (r.recommend_training) put("recommend_training", [&] { return to_json(*r.recommend_training); });
    if (r.decode) put("decode", [&] { return to_json(*r.decode); });
    if (r.fit) put("fit", [&] { return to_json(*r.fit); });
    if (r.infer) put("infer", [&] { return to_json(*r.infer); });
    if (r.collective) put("collective", [&] { return to_json(*r.collective); });
    if (r.topology) put("topology", [&] { return to_json(r.topology->machine, r.topology->summary, r.topology->comparison); });
    return out;
}

namespace {

// Figures refuse a value beyond a double themselves (explain.cpp); this catches the other
// numbers of a result, e.g. a recommender candidate's $/h or tokens/s. `path` starts with the
// section's key, which is also where its inputs are in the scenario.
void require_finite_numbers(const nlohmann::json& value, const std::string& path) {
    if (value.is_number_float() && !std::isfinite(value.get<double>()))
        throw InputError("$." + path.substr(0, path.find_first_of(".[")) + ", result " + path,
                         std::isnan(value.get<double>()) ? "no number" : "a result beyond a double",
                         "inputs of a size whose results a double can hold (magnitude below 1.8e308)");
    if (value.is_array())
        for (std::size_t k = 0; k < value.size(); ++k) require_finite_numbers(value[k], path + "[" + std::to_string(k) + "]");
    if (value.is_object())
        for (const auto& [key, item] : value.items()) require_finite_numbers(item, path + "." + key);
}

}  // namespace

nlohmann::json to_checked_json(const ScenarioResult& evaluated) {
    nlohmann::json result = to_json(evaluated);
    for (const auto& [key, section] : result.items()) require_finite_numbers(section, key);
    return result;
}

nlohmann::json evaluate_scenario(const Scenario& scenario, const Catalog& catalog) { return to_checked_json(evaluate(scenario, catalog)); }

}  // namespace gpuplan
