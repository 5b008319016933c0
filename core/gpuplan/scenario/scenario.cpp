// scenario.cpp — parsing (strict, path-named errors) and evaluation of scenario documents.
#include "gpuplan/scenario/scenario.hpp"

#include "gpuplan/json_reader.hpp"
#include "gpuplan/scenario/scenario_spellings.hpp"
#include "gpuplan/scenario/workload_sections.hpp"
#include "gpuplan/text.hpp"
#include "gpuplan/workload/serving_traffic.hpp"
#include "gpuplan/pricing/unit_cost.hpp"
#include "gpuplan/workload/memory.hpp"

namespace gpuplan {

namespace {

constexpr std::string_view kScenarioSchema = "gpuplan.scenario/1";

Param user_param(double v) { return {v, InputOrigin::user, ""}; }

// A user override of a default: same value slot, now marked as the user's.
void read_override(ObjectReader& r, const char* key, Param& slot, NumberRule rule) {
    if (auto v = r.optional_number(key, rule)) slot = user_param(*v);
}

void read_term_pair(ObjectReader& r, const char* key, Param (&slots)[2]) {
    const Json* j = r.optional_value(key);
    if (!j) return;
    ObjectReader terms(*j, r.child_path(key));
    read_override(terms, "1y", slots[0], NumberRule::discount);
    read_override(terms, "3y", slots[1], NumberRule::discount);
    terms.finish();
}

PricingAssumptions parse_assumptions(ObjectReader& root) {
    PricingAssumptions a = default_pricing_assumptions();
    const Json* j = root.optional_value("assumptions");
    if (!j) return a;
    ObjectReader r(*j, root.child_path("assumptions"));
    read_term_pair(r, "reserved_discount", a.reserved_discount);
    read_term_pair(r, "instance_savings_plan_discount", a.instance_savings_plan_discount);
    read_term_pair(r, "compute_savings_plan_discount", a.compute_savings_plan_discount);
    read_override(r, "capacity_block_discount", a.capacity_block_discount, NumberRule::discount);
    read_override(r, "partial_upfront_share", a.partial_upfront_share, NumberRule::fraction);
    if (auto d = r.optional_number("spot_discount", NumberRule::discount)) a.spot_discount = user_param(*d);
    r.finish();
    return a;
}

SpotRisk parse_spot_risk(ObjectReader& root) {
    SpotRisk s = default_spot_risk();
    const Json* j = root.optional_value("spot_risk");
    if (!j) return s;
    ObjectReader r(*j, root.child_path("spot_risk"));
    read_override(r, "mean_hours_between_interruptions", s.mean_hours_between_interruptions, NumberRule::positive);
    read_override(r, "checkpoint_minutes", s.checkpoint_minutes, NumberRule::positive);
    read_override(r, "restart_minutes", s.restart_minutes, NumberRule::non_negative);
    if (auto t = r.optional_number("checkpoint_interval_hours", NumberRule::positive)) s.checkpoint_interval_hours = user_param(*t);
    r.finish();
    return s;
}

const Instance& require_instance(const Catalog& catalog, ObjectReader& r, const char* key) {
    const std::string name = r.string(key);
    const Instance* i = catalog.find_instance(name);
    if (!i) throw InputError(r.child_path(key), "\"" + name + "\"", "an instance type in the catalog (see `gpuplan catalog`)");
    return *i;
}

// "purchase": one of the catalog's price kinds (default on-demand).
PriceKind price_kind(ObjectReader& r, const char* key) {
    const std::string text = r.optional_string(key).value_or(std::string(to_string(PriceKind::on_demand)));
    const std::optional<PriceKind> kind = price_kind_named(text);
    if (!kind) throw InputError(r.child_path(key), "\"" + text + "\"", price_kind_keys());
    return *kind;
}

// A purchase option by its key ("reserved-3y", "spot"; purchase_option.hpp); `fallback` when
// the key is absent, and without one, absent is an error.
PurchaseOption purchase_option(ObjectReader& r, const char* key, std::optional<PurchaseOption> fallback = std::nullopt) {
    if (fallback && !r.has(key)) return *fallback;
    const std::string text = r.string(key);
    const std::optional<PurchaseOption> option = purchase_option_named(text);
    if (!option) throw InputError(r.child_path(key), "\"" + text + "\"", purchase_option_keys());
    return *option;
}

// A price given directly ("usd_per_hour") or looked up ("instance" + option in the region).
Param price_param(const Catalog& catalog, ObjectReader& r, const std::string& region, const char* price_key) {
    const bool has_price = r.has(price_key), has_instance = r.has("instance");
    if (has_price == has_instance)
        throw InputError(r.path(), has_price ? "both \"" + std::string(price_key) + "\" and \"instance\"" : "neither",
                         "exactly one of \"" + std::string(price_key) + "\" or \"instance\"");
    // With a number given, "purchase" has nothing to choose from: finish() rejects it.
    if (has_price) return user_param(r.number(price_key, NumberRule::positive));
    const Instance& inst = require_instance(catalog, r, "instance");
    const PriceKind option = price_kind(r, "purchase");
    auto p = catalog_price(catalog, inst, region, option);
    if (!p)
        throw InputError(r.child_path("instance"), "\"" + inst.name + "\"", "a type with a known " + std::string(to_string(option)) + " price in " + region);
    return *p;
}

std::optional<QuoteRequest> parse_price(ObjectReader& root, const Catalog& catalog, const Scenario& s, const PricingAssumptions& a,
                                        const SpotRisk& risk) {
    const Json* j = root.optional_value("price");
    if (!j) return std::nullopt;
    ObjectReader r(*j, root.child_path("price"));
    QuoteRequest q;
    q.instance = require_instance(catalog, r, "instance").name;
    q.region = s.region;
    q.hours = r.optional_number("hours", NumberRule::positive).value_or(kHoursPerMonth);
    q.count = r.optional_number("instances", NumberRule::positive).value_or(1);
    q.assumptions = a;
    q.spot_risk = risk;
    q.unit_costs.tokens_per_second = r.optional_number("tokens_per_second", NumberRule::positive);
    q.unit_costs.real_time_factor = r.optional_number("real_time_factor", NumberRule::positive);
    q.unit_costs.training_hours = r.optional_number("training_hours", NumberRule::positive);
    r.finish();
    return q;
}

std::optional<FleetRequest> parse_fleet(ObjectReader& root, const Catalog& catalog, const std::string& region) {
    const Json* j = root.optional_value("fleet");
    if (!j) return std::nullopt;
    ObjectReader r(*j, root.child_path("fleet"));
    FleetRequest f;
    f.hours = r.optional_number("hours", NumberRule::positive).value_or(kHoursPerMonth);
    if (r.has("instance")) {
        // On-demand $/GPU-hour from the catalog: the instance price over its accelerators.
        const Param od = price_param(catalog, r, region, "on_demand_usd_per_gpu_hour");
        const Instance& inst = *catalog.find_instance(j->at("instance").get<std::string>());
        if (!inst.accelerator_count) throw InputError(r.child_path("instance"), "\"" + inst.name + "\"", "a type with a known accelerator count");
        f.on_demand_usd_per_gpu_hour = usd_per_gpu_hour(od, *inst.accelerator_count, inst.name);
    } else {
        f.on_demand_usd_per_gpu_hour = price_param(catalog, r, region, "on_demand_usd_per_gpu_hour");
    }
    if (const Json* profile = r.optional_value("profile")) {
        // A usage profile instead of explicit tiers (fleet.hpp: tiers_from_profile).
        if (r.has("tiers")) throw InputError(r.child_path("tiers"), "tiers and a profile", "one of \"tiers\" or \"profile\"");
        ObjectReader p(*profile, r.child_path("profile"));
        UsageProfile u;
        u.baseline_gpus = p.number("baseline_gpus", NumberRule::non_negative);
        u.average_gpus = p.number("average_gpus", NumberRule::non_negative);
        u.peak_gpus = p.number("peak_gpus", NumberRule::positive);
        u.commit_option = purchase_option(p, "commit_option", u.commit_option);
        if (!is_commitment(u.commit_option.kind))  // billed every hour: only a reservation or a Savings Plan
            throw InputError(p.child_path("commit_option"), "\"" + key(u.commit_option) + "\"",
                             "a commitment (reserved or a Savings Plan with its term, e.g. \"reserved-3y\"); burst_option takes " +
                                 key(u.commit_option));
        u.commit_usd_per_gpu_hour = user_param(p.number("commit_usd_per_gpu_hour", NumberRule::positive));
        u.burst_option = purchase_option(p, "burst_option", u.burst_option);
        u.burst_usd_per_gpu_hour = p.has("burst_usd_per_gpu_hour") ? user_param(p.number("burst_usd_per_gpu_hour", NumberRule::positive))
                                                                   : f.on_demand_usd_per_gpu_hour;
        p.finish();
        f.tiers = tiers_from_profile(u);
        r.finish();
        return f;
    }
    const Json& tiers = r.array("tiers");
    if (tiers.size() > kMaxFleetTiers)  // refused before reading them (issue 34, P1)
        throw InputError(r.child_path("tiers"), std::to_string(tiers.size()) + " tiers", max_fleet_tiers_text());
    for (std::size_t k = 0; k < tiers.size(); ++k) {
        ObjectReader t(tiers[k], index_path(r.child_path("tiers"), k));
        FleetTier tier;
        tier.option = purchase_option(t, "option");
        tier.gpus = t.number("gpus", NumberRule::non_negative);
        tier.usd_per_gpu_hour = user_param(t.number("usd_per_gpu_hour", NumberRule::positive));
        tier.utilization = t.optional_number("utilization", NumberRule::fraction).value_or(1.0);
        if (auto committed = t.optional_value("committed")) {
            if (!committed->is_boolean()) throw InputError(t.child_path("committed"), json_preview(*committed), "true or false");
            tier.committed = committed->get<bool>();
        } else {
            tier.committed = is_commitment(tier.option.kind);
        }
        t.finish();
        f.tiers.push_back(tier);
    }
    r.finish();
    return f;
}

std::optional<IdleRequest> parse_idle(ObjectReader& root, const Catalog& catalog, const std::string& region) {
    const Json* j = root.optional_value("idle");
    if (!j) return std::nullopt;
    ObjectReader r(*j, root.child_path("idle"));
    IdleRequest q;
    q.usd_per_hour = price_param(catalog, r, region, "usd_per_hour");
    q.engineers = r.optional_number("engineers", NumberRule::positive).value_or(q.engineers);
    q.hours_per_month = r.optional_number("hours_per_month", NumberRule::positive).value_or(q.hours_per_month);
    q.active_hours_per_day = r.optional_number("active_hours_per_day", NumberRule::non_negative).value_or(q.active_hours_per_day);
    q.workdays_per_month = r.optional_number("workdays_per_month", NumberRule::non_negative).value_or(q.workdays_per_month);
    q.boot_setup_minutes = r.optional_number("boot_setup_minutes", NumberRule::non_negative).value_or(q.boot_setup_minutes);
    q.idle_shutdown_minutes = r.optional_number("idle_shutdown_minutes", NumberRule::non_negative).value_or(q.idle_shutdown_minutes);
    q.storage_gb = r.optional_number("storage_gb", NumberRule::non_negative).value_or(0);
    q.storage_usd_per_gb_month = default_storage_rates().ebs_gp3_usd_per_gb_month;
    read_override(r, "storage_usd_per_gb_month", q.storage_usd_per_gb_month, NumberRule::non_negative);
    r.finish();
    return q;
}

std::optional<StorageRequest> parse_storage(ObjectReader& root) {
    const Json* j = root.optional_value("storage");
    if (!j) return std::nullopt;
    ObjectReader r(*j, root.child_path("storage"));
    StorageRequest q;
    q.months = r.optional_number("months", NumberRule::positive).value_or(1);
    q.s3_gb = r.optional_number("s3_gb", NumberRule::non_negative).value_or(0);
    q.ebs_gb = r.optional_number("ebs_gb", NumberRule::non_negative).value_or(0);
    q.fsx_lustre_gb = r.optional_number("fsx_lustre_gb", NumberRule::non_negative).value_or(0);
    q.same_az_gb = r.optional_number("same_az_gb", NumberRule::non_negative).value_or(0);
    q.cross_az_gb = r.optional_number("cross_az_gb", NumberRule::non_negative).value_or(0);
    q.cross_region_gb = r.optional_number("cross_region_gb", NumberRule::non_negative).value_or(0);
    q.internet_gb = r.optional_number("internet_gb", NumberRule::non_negative).value_or(0);
    if (const Json* rates = r.optional_value("rates")) {
        ObjectReader rr(*rates, r.child_path("rates"));
        read_override(rr, "s3_standard_usd_per_gb_month", q.rates.s3_standard_usd_per_gb_month, NumberRule::non_negative);
        read_override(rr, "ebs_gp3_usd_per_gb_month", q.rates.ebs_gp3_usd_per_gb_month, NumberRule::non_negative);
        read_override(rr, "fsx_lustre_usd_per_gb_month", q.rates.fsx_lustre_usd_per_gb_month, NumberRule::non_negative);
        read_override(rr, "transfer_same_az_usd_per_gb", q.rates.transfer_same_az_usd_per_gb, NumberRule::non_negative);
        read_override(rr, "transfer_cross_az_usd_per_gb", q.rates.transfer_cross_az_usd_per_gb, NumberRule::non_negative);
        read_override(rr, "transfer_cross_region_usd_per_gb", q.rates.transfer_cross_region_usd_per_gb, NumberRule::non_negative);
        read_override(rr, "transfer_internet_usd_per_gb", q.rates.transfer_internet_usd_per_gb, NumberRule::non_negative);
        rr.finish();
    }
    r.finish();
    return q;
}

std::vector<TokenCostRequest> parse_token_costs(ObjectReader& root, const Catalog& catalog, const std::string& region) {
    std::vector<TokenCostRequest> out;
    const Json* j = root.optional_value("token_costs");
    if (!j) return out;
    if (!j->is_array()) throw InputError(root.child_path("token_costs"), json_preview(*j), "an array");
    for (std::size_t k = 0; k < j->size(); ++k) {
        ObjectReader r((*j)[k], index_path(root.child_path("token_costs"), k));
        TokenCostRequest t;
        t.usd_per_hour = price_param(catalog, r, region, "usd_per_hour");
        t.tokens_per_second = user_param(r.number("tokens_per_second", NumberRule::positive));
        r.finish();
        out.push_back(t);
    }
    return out;
}

std::optional<VideoCostRequest> parse_video(ObjectReader& root, const Catalog& catalog, const std::string& region) {
    const Json* j = root.optional_value("video");
    if (!j) return std::nullopt;
    ObjectReader r(*j, root.child_path("video"));
    VideoCostRequest v;
    v.usd_per_hour = price_param(catalog, r, region, "usd_per_hour");
    v.decode_seconds_a = user_param(r.number("decode_seconds_a", NumberRule::positive));
    v.decode_seconds_b = user_param(r.number("decode_seconds_b", NumberRule::positive));
    v.rtf_a = user_param(r.number("rtf_a", NumberRule::positive));
    r.finish();
    return v;
}

// "families": names that must exist in the catalog.
std::vector<std::string> family_list(ObjectReader& r, const Catalog& catalog) {
    std::vector<std::string> families = r.optional_string_list("families");
    for (std::size_t k = 0; k < families.size(); ++k) {
        bool known = false;
        for (const auto& i : catalog.instances) known = known || i.family == families[k];
        if (!known) throw InputError(index_path(r.child_path("families"), k), "\"" + families[k] + "\"", "an instance family in the catalog");
    }
    return families;
}

// "purchase": a list of keys, each read by `named` (nullopt: refused, expecting `keys`).
template <class Key, class Named>
std::vector<Key> key_list(ObjectReader& r, Named named, const std::string& keys) {
    const std::vector<std::string> names = r.optional_string_list("purchase");
    std::vector<Key> out;
    for (std::size_t k = 0; k < names.size(); ++k) {
        const std::optional<Key> key = named(names[k]);
        if (!key) throw InputError(index_path(r.child_path("purchase"), k), "\"" + names[k] + "\"", keys);
        out.push_back(*key);
    }
    return out;
}
// The catalog's price kinds (a training run's hours).
std::vector<PriceKind> purchase_list(ObjectReader& r) {
    return key_list<PriceKind>(r, [](std::string_view name) { return price_kind_named(name); }, price_kind_keys());
}
// Any purchase option (a serving sweep prices every way to buy).
std::vector<PurchaseOption> purchase_option_list(ObjectReader& r) {
    return key_list<PurchaseOption>(r, [](std::string_view name) { return purchase_option_named(name); }, purchase_option_keys());
}

// A prompt or output length: a whole number of tokens, or a distribution's spelling
// ("uniform:500:1500", "exponential:300:2000"), as --prompt-tokens-dist reads it.
LengthDistribution length_key(ObjectReader& r, const char* key, const LengthDistribution& fallback) {
    const Json* v = r.optional_value(key);
    if (!v) return fallback;
    if (v->is_string()) return parse_length_distribution(v->get<std::string>(), r.child_path(key));
    (void)read_number(*v, r.child_path(key), NumberRule::positive);  // a number, or an error naming the key
    return parse_length_distribution(v->dump(), r.child_path(key));
}

// recommend's traffic keys (as `gpuplan recommend --rate`): requests_per_second in place of
// tokens_per_second, prompt_tokens and output_tokens (a number or a distribution), targets
// ["p95-ttft-ms=1000", ...] and target_p95_ttft_ms. Without requests_per_second none of them.
std::optional<TrafficRequest> parse_recommend_traffic(ObjectReader& r, InferenceRecommendRequest& q) {
    const char* traffic_keys[] = {"prompt_tokens", "output_tokens", "targets", "target_p95_ttft_ms"};
    if (!r.has("requests_per_second")) {
        for (const char* key : traffic_keys)
            if (r.has(key)) throw InputError(r.child_path(key), json_preview(r.value(key)), "only with requests_per_second (the requests per second to serve)");
        return std::nullopt;
    }
    if (r.has("tokens_per_second"))
        throw InputError(r.child_path("tokens_per_second"), json_preview(r.value("tokens_per_second")),
                         "no tokens_per_second with requests_per_second (the throughput follows from the requests and their output lengths)");
    TrafficRequest t;
    t.requests_per_second = r.number("requests_per_second", NumberRule::positive);
    t.prompt = length_key(r, "prompt_tokens", t.prompt);
    t.output = length_key(r, "output_tokens", t.output);
    const std::vector<std::string> targets = r.optional_string_list("targets");
    for (std::size_t k = 0; k < targets.size(); ++k) t.targets.push_back(parse_latency_target(targets[k], index_path(r.child_path("targets"), k)));
    if (auto ms = r.optional_number("target_p95_ttft_ms", NumberRule::positive)) t.targets.push_back({LatencyMetric::time_to_first_token, 95, *ms / 1e3});
    t.requests = kSweepTrafficRequests;
    const double longest = t.prompt.max() + t.output.max();
    if (!r.has("context")) q.context = longest;
    else if (q.context < longest)
        throw InputError(r.child_path("context"), json_preview(r.value("context")),
                         "at least the longest prompt + output (" + quantity(longest) + " tokens) with requests_per_second");
    return t;
}

std::optional<InferenceRecommendRequest> parse_recommend(ObjectReader& root, const Catalog& catalog, const std::string& region,
                                                          const PricingAssumptions& assumptions) {
    const Json* j = root.optional_value("recommend");
    if (!j) return std::nullopt;
    ObjectReader r(*j, root.child_path("recommend"));
    InferenceRecommendRequest q = default_inference_request(require_model_preset(r, "model"));
    q.region = region;
    set_dtypes(q, r.optional_string("dtype").value_or(q.dtype), r.optional_string("kv_dtype").value_or(q.kv_dtype), r.child_path("dtype"),
               r.child_path("kv_dtype"));
    q.context = r.optional_number("context", NumberRule::positive).value_or(q.context);
    q.tokens_per_second = r.optional_number("tokens_per_second", NumberRule::positive).value_or(q.tokens_per_second);
    q.max_batch = r.optional_number("max_batch", NumberRule::positive).value_or(q.max_batch);
    q.max_instances = r.optional_number("max_instances", NumberRule::positive).value_or(q.max_instances);
    q.families = family_list(r, catalog);
    q.purchase = purchase_option_list(r);
    q.pricing = assumptions;
    q.max_usd_per_hour = r.optional_number("max_usd_per_hour", NumberRule::positive);
    if (auto ms = r.optional_number("max_ms_per_token", NumberRule::positive)) q.max_seconds_per_token = *ms / 1e3;
    read_override(r, "bandwidth_efficiency", q.bandwidth_efficiency, NumberRule::fraction);
    read_override(r, "runtime_overhead_gib", q.runtime_overhead_gib, NumberRule::non_negative);
    q.traffic = parse_recommend_traffic(r, q);
    r.finish();
    return q;
}

Recompute parse_recompute(ObjectReader& r, Recompute fallback) {
    const auto text = r.optional_string("recompute");
    return text ? recompute_named(*text, r.child_path("recompute")) : fallback;
}

// "train": one training job on `nodes` x an instance with a parallel layout.
std::optional<TrainingPlanRequest> parse_train(ObjectReader& root, const Catalog& catalog, const std::string& region) {
    const Json* j = root.optional_value("train");
    if (!j) return std::nullopt;
    ObjectReader r(*j, root.child_path("train"));
    TrainingTimeRequest t;
    t.model = &require_model_preset(r, "model");
    t.instance = &require_instance(catalog, r, "instance");
    t.nodes = r.optional_number("nodes", NumberRule::positive).value_or(1);
    t.token_budget = r.optional_number("tokens", NumberRule::positive);
    const PriceKind purchase = price_kind(r, "purchase");
    ParallelLayout& L = t.layout;
    if (r.has("gpus_per_node")) t.gpus_per_node = static_cast<double>(r.integer("gpus_per_node", 1));
    const double gpus = t.gpus_per_node.value_or(t.instance->accelerator_count.value_or(1)) * t.nodes;
    L.tensor = r.optional_number("tensor_parallel", NumberRule::positive).value_or(1);
    L.pipeline = r.optional_number("pipeline_parallel", NumberRule::positive).value_or(1);
    L.expert = r.optional_number("expert_parallel", NumberRule::positive).value_or(1);
    L.data = r.optional_number("data_parallel", NumberRule::positive).value_or(gpus / (L.tensor * L.pipeline));
    if (r.has("zero_stage")) L.zero_stage = static_cast<int>(r.integer("zero_stage", 0));
    else (void)r.optional_value("zero_stage");
    L.micro_batch = r.optional_number("micro_batch", NumberRule::positive).value_or(L.micro_batch);
    L.sequence = r.optional_number("sequence", NumberRule::positive).value_or(L.sequence);
    L.global_batch_tokens = r.optional_number("global_batch_tokens", NumberRule::positive).value_or(L.data * L.micro_batch * L.sequence);
    L.recompute = parse_recompute(r, L.recompute);
    for (auto [key, flag] : {std::pair{"offload_optimizer", &L.offload_optimizer}, std::pair{"offload_parameters", &L.offload_parameters},
                             std::pair{"allow_cross_node_tensor_parallel", &L.allow_cross_node_tensor_parallel}}) {
        if (r.has(key)) *flag = r.boolean(key);
        else (void)r.optional_value(key);
    }
    if (auto v = r.optional_number("compute_efficiency", NumberRule::fraction)) t.compute_efficiency = user_param(*v);
    // Measured figures (from `gpuplan bench` on a real instance) replace datasheet ones.
    if (auto v = r.optional_number("measured_intra_gb_per_s", NumberRule::positive)) t.topology.intra_gb_per_s = measured_param(*v, "intra-node bandwidth");
    if (auto v = r.optional_string("precision")) {
        const auto precision = parse_training_precision(*v);
        if (!precision) throw InputError(r.child_path("precision"), "\"" + *v + "\"", "bf16 or fp8 (FP8 linear layers, bf16 attention)");
        t.precision = *precision;
    }
    if (auto v = r.optional_string("inter_node_transport")) {
        const auto transport = parse_inter_node_transport(*v);
        if (!transport) throw InputError(r.child_path("inter_node_transport"), "\"" + *v + "\"", "auto, efa-gdr, efa or tcp");
        t.topology.transport = *transport;
    }
    if (auto v = r.optional_number("measured_inter_gb_per_s", NumberRule::positive)) t.topology.inter_gb_per_s = measured_param(*v, "inter-node bandwidth");
    if (auto v = r.optional_number("measured_mfu", NumberRule::fraction)) t.compute_efficiency = measured_param(*v, "model FLOPs utilisation");
    r.finish();
    TrainingPlanRequest plan;
    plan.time = t;
    plan.region = region;
    plan.purchase = purchase;
    return plan;
}

std::optional<TrainingRecommendRequest> parse_recommend_training(ObjectReader& root, const Catalog& catalog, const std::string& region) {
    const Json* j = root.optional_value("recommend_training");
    if (!j) return std::nullopt;
    ObjectReader r(*j, root.child_path("recommend_training"));
    TrainingRecommendRequest q;
    q.model = &require_model_preset(r, "model");
    q.region = region;
    q.token_budget = r.number("tokens", NumberRule::positive);
    q.sequence = r.optional_number("sequence", NumberRule::positive).value_or(q.sequence);
    q.micro_batch = r.optional_number("micro_batch", NumberRule::positive).value_or(q.micro_batch);
    q.global_batch_tokens = r.optional_number("global_batch_tokens", NumberRule::positive).value_or(q.global_batch_tokens);
    q.recompute = parse_recompute(r, q.recompute);
    q.max_nodes = r.optional_number("max_nodes", NumberRule::positive).value_or(q.max_nodes);
    q.families = family_list(r, catalog);
    q.purchase = purchase_list(r);
    q.deadline_hours = r.optional_number("deadline_hours", NumberRule::positive);
    q.budget_usd = r.optional_number("budget_usd", NumberRule::positive);
    r.finish();
    return q;
}

}  // namespace

Scenario parse_scenario(std::string_view text, const std::string& origin, const Catalog& catalog) {
    Json j = parse_json_document(text, origin);
    const std::vector<SpellingChange> renamed = upgrade_spellings(j);
    ObjectReader root(j, origin + ": $");
    const std::string schema = root.string("schema");
    if (schema != kScenarioSchema)
        throw InputError(root.child_path("schema"), "\"" + schema + "\"", "\"" + std::string(kScenarioSchema) + "\"");
    Scenario s;
    s.name = root.optional_string("name").value_or("");
    if (auto region = root.optional_string("region")) {
        require_region(catalog, *region, root.child_path("region"), "\"" + *region + "\"");
        s.region = *region;
    }
    const ScenarioModels models(root);  // before the sections that name a model
    const PricingAssumptions assumptions = parse_assumptions(root);
    const SpotRisk risk = parse_spot_risk(root);
    s.price = parse_price(root, catalog, s, assumptions, risk);
    s.fleet = parse_fleet(root, catalog, s.region);
    s.idle = parse_idle(root, catalog, s.region);
    s.usage = parse_usage_section(root);
    s.serving = parse_serving_section(root);
    s.storage = parse_storage(root);
    s.token_costs = parse_token_costs(root, catalog, s.region);
    s.video = parse_video(root, catalog, s.region);
    s.recommend = parse_recommend(root, catalog, s.region, assumptions);
    s.train = parse_train(root, catalog, s.region);
    s.recommend_training = parse_recommend_training(root, catalog, s.region);
    if (const Json* d = root.optional_value("decode")) s.decode = parse_decode_request(*d, root.child_path("decode"), catalog, s.region);
    s.fit = parse_fit_section(root, catalog);
    s.infer = parse_infer_section(root, catalog, s.region);
    s.collective = parse_collective_section(root, catalog);
    s.topology = parse_topology_section(root, catalog);
    if (s.topology) {
        // Its figures stand in for the catalog's where the section gave none (as train --topology).
        const BenchCalibration figures = calibration_from_topology(s.topology->machine);
        if (s.train) apply_calibration(figures, s.train->time.topology);
        if (s.collective) apply_calibration(figures, s.collective->topology);
    }
    root.finish();
    for (const SpellingChange& change : renamed) s.notes.push_back(origin + ": " + change.note());
    return s;
}

}  // namespace gpuplan
