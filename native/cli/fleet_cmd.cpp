// fleet_cmd.cpp — `gpuplan fleet`: a blended $/GPU-hour over purchase tiers (explicit tiers, or
// a usage profile split into a committed baseline and a burst), from the core's evaluate_fleet.
#include <cmath>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <tuple>

#include "commands.hpp"
#include "gpuplan/pricing/fleet.hpp"
#include "gpuplan/pricing/usage_formats.hpp"
#include "gpuplan/pricing/idle_cost.hpp"
#include "gpuplan/pricing/purchase_options.hpp"
#include "gpuplan/pricing/storage_transfer.hpp"
#include "gpuplan/scenario/scenario_result.hpp"
#include "gpuplan/text.hpp"

namespace gpuplan::cli {

namespace {

// ---- fleet --------------------------------------------------------------------------------

struct FleetOptions {
    double on_demand = 0, hours = kHoursPerMonth;
    std::string instance, region = "us-east-1";
    std::vector<std::string> tiers;
    std::string profile, commit, burst;  // --profile B:A:P --commit OPTION:USD [--burst OPTION:USD]
    std::string usage;                   // --usage FILE (a usage history) with --commit [--burst] [--spot ...]
    std::string usage_of;                // --usage-of gpus|instances, where the file does not say
    double gpus_per_instance = 0;        // --gpus-per-instance (else the --instance's count)
    std::string spot;                    // --spot USD | catalog
    double spot_rework = 0, spot_max_share = 0.5;
    bool explain = false;
    Format format = Format::table;
    CLI::App* app = nullptr;
};

const char* const kTierSyntax = "OPTION:GPUS:USD_PER_GPU_HOUR[:UTILIZATION], e.g. reserved-3y:4:0.96 or spot:6:0.80:0.5";

// One number of a colon-separated flag value ("reserved-3y:4:0.96"), checked by `rule`.
double colon_number(const std::string& flag, const std::string& spec, const std::string& part, const std::string& what, NumberRule rule,
                    const std::string& syntax) {
    std::string text = part;
    const std::string error = number_rule(rule)(text);
    if (!error.empty()) throw InputError(flag, "'" + spec + "'", what + " as " + error.substr(error.find("expected ") + 9) + " (" + syntax + ")");
    return std::strtod(part.c_str(), nullptr);
}

std::vector<std::string> split_colons(const std::string& spec) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t colon; (colon = spec.find(':', start)) != std::string::npos; start = colon + 1) parts.push_back(spec.substr(start, colon - start));
    parts.push_back(spec.substr(start));
    return parts;
}

FleetTier parse_tier(const std::string& spec) {
    const auto parts = split_colons(spec);
    if (parts.size() < 3 || parts.size() > 4 || parts[0].empty()) throw InputError("--tier", "'" + spec + "'", kTierSyntax);
    FleetTier t;
    const std::optional<PurchaseOption> option = purchase_option_named(parts[0]);
    if (!option) throw InputError("--tier", "'" + spec + "'", "OPTION one of " + purchase_option_keys());
    t.option = *option;
    t.gpus = colon_number("--tier", spec, parts[1], "GPUS", NumberRule::non_negative, kTierSyntax);
    t.usd_per_gpu_hour = {colon_number("--tier", spec, parts[2], "USD_PER_GPU_HOUR", NumberRule::positive, kTierSyntax), InputOrigin::user, ""};
    if (parts.size() == 4) t.utilization = colon_number("--tier", spec, parts[3], "UTILIZATION", NumberRule::fraction, kTierSyntax);
    t.committed = is_commitment(t.option.kind);
    return t;
}

const char* const kPriceSyntax = "OPTION:USD_PER_GPU_HOUR, e.g. reserved-3y:0.96";

// An instance's price for a purchase option, per GPU-hour, from the core's quotes (the catalog's
// own rate where it has one, else the documented discount, flagged as an assumption).
struct CatalogInstance {
    const Catalog* catalog = nullptr;
    const Instance* instance = nullptr;
    std::string region;
};

Param catalog_gpu_price(const CatalogInstance& at, const PurchaseOption& option, const std::string& flag) {
    QuoteRequest q;
    q.instance = at.instance->name;
    q.region = at.region;
    for (const Quote& quote : quote_purchase_options(*at.catalog, q)) {
        if (quote.option.kind != option.kind || quote.option.term != option.term || (option.payment && quote.option.payment != option.payment)) continue;
        if (!quote.available || !quote.effective_usd_per_hour.value)
            throw InputError(flag, "'" + key(option) + "'", "an option " + at.instance->name + " has a price for in " + at.region + " (" + quote.unavailable_reason + ")");
        const Param instance_price{*quote.effective_usd_per_hour.value,
                                   quote.effective_usd_per_hour.rests_on_assumption() ? InputOrigin::assumption : InputOrigin::catalog,
                                   quote.label + " in " + at.region};
        return usd_per_gpu_hour(instance_price, *at.instance->accelerator_count, at.instance->name);
    }
    throw InputError(flag, "'" + key(option) + "'", "an option quoted for " + at.instance->name);
}

// --commit / --burst OPTION:USD_PER_GPU_HOUR, or OPTION alone with --instance (its catalog price).
std::pair<PurchaseOption, Param> option_price(const std::string& flag, const std::string& spec, const CatalogInstance& at = {}) {
    const auto p = split_colons(spec);
    if (p.empty() || p.size() > 2 || p[0].empty()) throw InputError(flag, "'" + spec + "'", kPriceSyntax);
    const std::optional<PurchaseOption> option = purchase_option_named(p[0]);
    if (!option) throw InputError(flag, "'" + spec + "'", "OPTION one of " + purchase_option_keys());
    // --commit is the level billed every hour of a term; spot or on-demand there would be billed
    // as if committed (issue 34). --burst may be either: a committed burst tier is billed so.
    if (flag == "--commit" && !is_commitment(option->kind))
        throw InputError(flag, "'" + spec + "'",
                         "a commitment (reserved or a Savings Plan with its term, e.g. reserved-3y:0.96); " + key(*option) +
                             " is bought as used: give it to --burst");
    if (p.size() == 1) {
        if (!at.instance) throw InputError(flag, "'" + spec + "'", std::string(kPriceSyntax) + " (OPTION alone takes its price from --instance)");
        return {*option, catalog_gpu_price(at, *option, flag)};
    }
    return {*option, Param{colon_number(flag, spec, p[1], "USD_PER_GPU_HOUR", NumberRule::positive, kPriceSyntax), InputOrigin::user, flag}};
}

// --profile BASELINE:AVERAGE:PEAK with --commit OPTION:USD and optional --burst OPTION:USD
// (default: on-demand at the on-demand price) -> tiers (core: tiers_from_profile).
std::vector<FleetTier> tiers_from_profile_flags(const FleetOptions& o, const Param& on_demand) {
    const std::string syntax = "BASELINE:AVERAGE:PEAK GPUs, e.g. 4:8:12";
    const auto parts = split_colons(o.profile);
    if (parts.size() != 3) throw InputError("--profile", "'" + o.profile + "'", syntax);
    UsageProfile u;
    u.baseline_gpus = colon_number("--profile", o.profile, parts[0], "BASELINE", NumberRule::non_negative, syntax);
    u.average_gpus = colon_number("--profile", o.profile, parts[1], "AVERAGE", NumberRule::non_negative, syntax);
    u.peak_gpus = colon_number("--profile", o.profile, parts[2], "PEAK", NumberRule::positive, syntax);
    const std::string price_syntax = kPriceSyntax;
    if (o.commit.empty() && u.baseline_gpus > 0) throw InputError("--commit", "none", price_syntax + ", for the baseline GPUs");
    if (!o.commit.empty()) std::tie(u.commit_option, u.commit_usd_per_gpu_hour) = option_price("--commit", o.commit);
    if (!o.burst.empty())
        std::tie(u.burst_option, u.burst_usd_per_gpu_hour) = option_price("--burst", o.burst);
    else
        u.burst_usd_per_gpu_hour = on_demand;
    try {
        return tiers_from_profile(u);
    } catch (const InputError& e) {
        throw InputError("--profile", "'" + o.profile + "'", e.expected());
    }
}

// --usage FILE: the cheapest commitment level on a real usage history (core: usage_history.hpp).
std::string run_fleet_usage(const FleetOptions& o, const Param& on_demand, const CatalogInstance& at) {
    const std::optional<double> catalog_gpus_per_instance = at.instance ? at.instance->accelerator_count : std::nullopt;
    if (o.commit.empty()) throw InputError("--commit", "none", std::string(kPriceSyntax) + ": the commitment whose level --usage finds");
    std::optional<UsageUnit> unit;
    if (o.usage_of == "gpus") unit = UsageUnit::gpus;
    else if (o.usage_of == "instances") unit = UsageUnit::instances;
    else if (!o.usage_of.empty()) throw InputError("--usage-of", "'" + o.usage_of + "'", "gpus or instances: what the history's values count");
    UsageHistory history = parse_usage(read_input_file(o.usage, "--usage"), o.usage, unit);
    if (history.unit == UsageUnit::instances) {
        const double per = o.gpus_per_instance > 0 ? o.gpus_per_instance : catalog_gpus_per_instance.value_or(0);
        if (!(per > 0))
            throw InputError("--usage", o.usage + " (it counts instances)", "--gpus-per-instance N or --instance TYPE, to turn instances into the GPUs the prices are per");
        history = counted_in_gpus(history, per);
    } else if (history.unit != UsageUnit::gpus) {
        throw InputError("--usage", o.usage + " (it counts " + std::string(unit_name(history.unit)) + ")", "a history of GPUs or instances in use (a demand curve goes to serve-plan)");
    }
    CommitmentPlanRequest q;
    std::tie(q.commit_option, q.commit_usd_per_gpu_hour) = option_price("--commit", o.commit, at);
    if (!o.burst.empty()) std::tie(q.burst_option, q.burst_usd_per_gpu_hour) = option_price("--burst", o.burst, at);
    else q.burst_usd_per_gpu_hour = on_demand;
    q.on_demand_usd_per_gpu_hour = on_demand;
    if (!o.spot.empty()) {
        CommitmentPlanRequest::Spot spot;
        if (o.spot == "catalog") {
            if (!at.instance) throw InputError("--spot", "'catalog'", "--instance TYPE, whose typical spot price it takes (or a price, USD per GPU-hour)");
            spot.usd_per_gpu_hour = catalog_gpu_price(at, PurchaseOption{PurchaseKind::spot, std::nullopt, std::nullopt}, "--spot");
        } else {
            const auto v = decimal_number(o.spot);
            if (!v || !(*v > 0)) throw InputError("--spot", "'" + o.spot + "'", "a spot price in USD per GPU-hour > 0, or catalog (with --instance)");
            spot.usd_per_gpu_hour = {*v, InputOrigin::user, ""};
        }
        spot.rework_fraction = o.app->count("--spot-rework") > 0 ? Param{o.spot_rework, InputOrigin::user, ""} : default_spot_rework();
        spot.max_share_of_load = o.spot_max_share;
        q.spot = spot;
    }
    const CommitmentPlan p = plan_commitment(history, q);
    if (o.format == Format::json) return dump_json(to_json(p, history));
    std::vector<const Figure*> figs = {&p.optimal_level, &p.share_above_optimal, &p.break_even_utilization, &p.cost_at_optimal_usd,
                                       &p.all_on_demand_usd, &p.saving_vs_on_demand, &p.rule_level, &p.cost_at_rule_usd, &p.saving_vs_rule_usd};
    if (q.spot) figs.push_back(&p.spot_gpu_hours_at_optimal);
    NamedFigures named;
    for (const Figure* f : figs) named.emplace_back(f->name, figure_json(*f));
    if (o.format == Format::csv) return figures_csv(named);
    const std::string u(unit_name(history.unit));
    std::string out = "Usage history " + o.usage + " (" + history.format + "): " + std::to_string(history.samples.size()) + " samples over " + quantity(*p.total_hours.value) + " h; " + u +
                      " in use: min " + quantity(*p.minimum.value) + ", mean " + quantity(*p.mean.value) + ", peak " + quantity(*p.peak.value) + "\n";
    const auto from = [](const Param& price) {  // where a price came from, when not typed
        return price.origin == InputOrigin::user ? std::string()
                                                 : " [" + price.source + (price.origin == InputOrigin::assumption ? ", assumed discount" : "") + "]";
    };
    out += "commit " + key(q.commit_option) + " at " + rate(q.commit_usd_per_gpu_hour.value) + "/GPU-h" + from(q.commit_usd_per_gpu_hour) + " (billed every hour), burst " + key(q.burst_option) + " at " +
           rate(q.burst_usd_per_gpu_hour.value) + "/GPU-h (hours used): break-even utilisation " + percent(*p.break_even_utilization.value) + "\n";
    if (q.spot)
        out += "spot at " + rate(q.spot->usd_per_gpu_hour.value) + "/GPU-h" + from(q.spot->usd_per_gpu_hour) + " + " + percent(q.spot->rework_fraction.value) + " rework" +
               (q.spot->rework_fraction.origin == InputOrigin::assumption ? " (assumed; --spot-rework)" : "") + " for at most " + percent(q.spot->max_share_of_load) +
               " of the GPU-hours: " + quantity(*p.spot_gpu_hours_at_optimal.value) + " GPU-h on spot at the cheapest level\n";
    out += "\n";
    // The cost curve: every level up to 24, else about 24 rows spread over 0..peak plus the optimum.
    Table curve{{{"committed " + u, "level"}, {"hours with at least this many in use", "hours_at_or_above"}, {"share of hours", "share"}, {"cost", "cost_usd"}}, {}};
    const std::size_t n = p.curve_level.size(), step = std::max<std::size_t>(1, n / 24);
    for (std::size_t k = 0; k < n; ++k) {
        if (k % step != 0 && p.curve_level[k] != *p.optimal_level.value && k + 1 != n) continue;
        const bool best = p.curve_level[k] == *p.optimal_level.value;
        curve.rows.push_back({text_cell(quantity(p.curve_level[k]) + (best ? " <- cheapest" : "")), text_cell(quantity(p.duration_hours[k])),
                              text_cell(percent(p.duration_hours[k] / *p.total_hours.value)), text_cell(money(p.curve_cost_usd[k]))});
    }
    out += render_table(curve, o.format) + "\n";
    out += summary_table({{"commit", {quantity(*p.optimal_level.value) + " " + u + " (" + p.optimal_level.worked + ")", ""}},
                          {"cost", figure_cell(p.cost_at_optimal_usd, money, false)},
                          {"all on-demand", figure_cell(p.all_on_demand_usd, money, false)},
                          {"saving vs all on-demand", figure_cell(p.saving_vs_on_demand, percent, false)},
                          {"\"reserve 70% of the minimum\"", {quantity(*p.rule_level.value) + " " + u + ": " + money(*p.cost_at_rule_usd.value) + ", " +
                                                                  money(*p.saving_vs_rule_usd.value) + " more", ""}}},
                         o.format);
    std::string after;
    for (const auto& note : history.notes) after += "note: " + note + "\n";
    if (o.explain) after += explain_all(named);
    return out + notes_block(after.empty() ? "" : "\n" + after, o.format);
}

std::string run_fleet(const Catalog& catalog, const FleetOptions& o) {
    FleetRequest req;
    req.hours = o.hours;
    CatalogInstance usage_at;  // with --instance: prices --usage may take from the catalog
    const bool by_price = o.app->count("--on-demand-usd-per-gpu-hour") > 0, by_instance = o.app->count("--instance") > 0;
    if (!by_price && !by_instance)
        throw InputError("--on-demand-usd-per-gpu-hour / --instance", "neither", "one of them: the on-demand $/GPU-h the saving is measured against");
    if (by_instance) {
        const Instance& inst = require_instance(catalog, o.instance, "--instance");
        require_region(catalog, o.region, "--region");
        const Param od = catalog_on_demand(catalog, inst, o.region, "--instance");
        if (!inst.accelerator_count) throw InputError("--instance", "'" + inst.name + "'", "a type with a known accelerator count");
        usage_at = {&catalog, &inst, o.region};
        req.on_demand_usd_per_gpu_hour = usd_per_gpu_hour(od, *inst.accelerator_count, inst.name);
    } else {
        req.on_demand_usd_per_gpu_hour = {o.on_demand, InputOrigin::user, ""};
    }
    if (!o.usage.empty()) return run_fleet_usage(o, req.on_demand_usd_per_gpu_hour, usage_at);
    if ((!o.commit.empty() || !o.burst.empty()) && o.profile.empty())
        throw InputError(o.commit.empty() ? "--burst" : "--commit", "without --profile or --usage", "--profile B:A:P or --usage FILE, which say what it applies to");
    if (!o.profile.empty()) {
        req.tiers = tiers_from_profile_flags(o, req.on_demand_usd_per_gpu_hour);
    } else {
        if (o.tiers.empty()) throw InputError("--tier", "none", std::string("at least one tier (or --profile): ") + kTierSyntax);
        for (const auto& spec : o.tiers) req.tiers.push_back(parse_tier(spec));
    }
    FleetResult r;
    try {
        r = evaluate_fleet(req);
    } catch (const InputError& e) {
        rethrow_for_flag(e, {{"fleet.tiers", "--tier"}});
    }
    const nlohmann::json j = to_json(r, req);
    if (o.format == Format::json) return dump_json(j);
    NamedFigures all;
    for (const auto& t : j.at("tiers")) {
        all.emplace_back("tier_cost_usd." + t.at("option").get<std::string>(), t.at("cost_usd"));
        if (t.contains("break_even_utilization")) all.emplace_back("break_even_utilization." + t.at("option").get<std::string>(), t.at("break_even_utilization"));
    }
    for (const char* name : {"total_cost_usd", "used_gpu_hours", "blended_usd_per_gpu_hour", "all_on_demand_cost_usd", "saving_vs_on_demand", "saving_usd"})
        all.emplace_back(name, j.at("figures").at(name));
    if (o.format == Format::csv) return figures_csv(all);

    Table tiers{{{"tier", "option", false}, {"GPUs", "gpus"}, {"$/GPU-h", "usd_per_gpu_hour"}, {"utilization", "utilization"},
                 {"billed", "billed", false}, {"cost", "cost_usd"}, {"break-even util.", "break_even_utilization"}},
                {}};
    for (std::size_t k = 0; k < req.tiers.size(); ++k) {
        const FleetTier& t = req.tiers[k];
        const auto& b = r.tier_break_even_utilization[k];
        tiers.rows.push_back({text_cell(key(t.option)), text_cell(quantity(t.gpus)), text_cell(rate(t.usd_per_gpu_hour.value)),
                              text_cell(percent(t.utilization)), text_cell(t.committed ? "every hour" : "hours used"),
                              figure_cell(r.tier_cost_usd[k], money, false), b ? figure_cell(*b, percent, false) : none_cell()});
    }
    const Param& od = req.on_demand_usd_per_gpu_hour;
    std::string out = "Fleet over " + quantity(req.hours) + " h, against on-demand at " + rate(od.value) + "/GPU-h" +
                      (od.source.empty() ? "" : " (" + od.source + ")") + "\n\n";
    out += render_table(tiers, o.format) + "\n";
    out += summary_table({{"total cost", figure_cell(r.total_cost_usd, money, false)},
                    {"used GPU-hours", figure_cell(r.used_gpu_hours, quantity, false)},
                    {"blended rate", {rate(*r.blended_usd_per_gpu_hour.value) + "/GPU-h", ""}},
                    {"all on-demand cost", figure_cell(r.all_on_demand_cost_usd, money, false)},
                    {"saving vs all on-demand", {money(figure_value(all, "saving_usd")) + " (" + percent(*r.saving_vs_on_demand.value) + ")", ""}}},
                   o.format);
    std::string after = "\nA committed tier (reserved*, *savings-plan*) is billed every hour; the others only for the hours used.\n"
                        "break-even util.: below this share of the hours in use, that committed tier costs more than on-demand.\n";
    if (o.explain) after += explain_all(all);
    out += notes_block(after, o.format);
    return out;
}

}  // namespace

Command register_fleet(CLI::App& parent) {
    auto o = std::make_shared<FleetOptions>();
    CLI::App* app = parent.add_subcommand("fleet", "Blended $/GPU-hour of a fleet bought through several purchase options");
    o->app = app;
    auto* od = app->add_option("--on-demand-usd-per-gpu-hour", o->on_demand, "On-demand $/GPU-h the saving is measured against")
                   ->check(number_rule(NumberRule::positive));
    auto* inst = app->add_option("--instance", o->instance, "Take the on-demand $/GPU-h from this catalog instance (price / accelerator count)");
    od->excludes(inst);
    add_region_option(*app, o->region);
    app->add_option("--tier", o->tiers, std::string("A tier of GPUs: ") + kTierSyntax + ". Repeatable. OPTION is on-demand, spot, capacity-block "
                                        "or a commitment (reserved-1y, reserved-3y, compute-savings-plan-3y, ...: billed every hour); "
                                        "UTILIZATION defaults to 1")
        ->type_name("TIER")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    auto* profile = app->add_option("--profile", o->profile, "Usage profile BASELINE:AVERAGE:PEAK GPUs instead of --tier: the baseline "
                                                        "is committed (--commit), the rest bought as used (--burst)")
                        ->type_name("B:A:P");
    profile->excludes(app->get_option("--tier"));
    auto* usage = app->add_option("--usage", o->usage, "A usage history instead of --tier or --profile: the cheapest level to commit (--commit) on it, "
                                                      "the rest bought as used (--burst, --spot). Read from a timestamp,gpus CSV, aws cloudwatch "
                                                      "get-metric-data or get-metric-statistics JSON, aws ce get-cost-and-usage JSON or Slurm sacct --parsable2")
                      ->type_name("FILE");
    app->add_option("--usage-of", o->usage_of, "With --usage: what the values count where the file does not say (CloudWatch): gpus or instances")->type_name("UNIT");
    app->add_option("--gpus-per-instance", o->gpus_per_instance, "With --usage counting instances: GPUs in each (default: --instance's count)")
        ->check(number_rule(NumberRule::positive));
    app->add_option("--spot", o->spot, "With --usage: spot $/GPU-h for part of the load above the commitment, or catalog: --instance's typical spot price")
        ->type_name("USD|catalog");
    app->add_option("--spot-rework", o->spot_rework, "With --spot: share of spot hours redone after interruptions (default: the checkpoint model's overhead)")
        ->check(number_rule(NumberRule::fraction));
    app->add_option("--spot-max-share", o->spot_max_share, "With --spot: most of all GPU-hours you accept on spot")->capture_default_str()->check(number_rule(NumberRule::fraction));
    usage->excludes(app->get_option("--tier"));
    usage->excludes(profile);
    app->add_option("--commit", o->commit, "With --profile or --usage: OPTION:USD_PER_GPU_HOUR of the commitment, e.g. reserved-3y:0.96; with --usage "
                                          "and --instance, OPTION alone takes the instance's price for it (e.g. reserved-1y)");
    app->add_option("--burst", o->burst, "With --profile or --usage: OPTION:USD_PER_GPU_HOUR above the commitment (default: on-demand at the on-demand price)");
    app->add_option("--hours", o->hours, "Hours in the period (730 = a month, 8760 = a year)")->capture_default_str()->check(number_rule(NumberRule::positive));
    app->add_flag("--explain", o->explain, "Show each figure's formula, worked line and inputs");
    add_format_option(*app, o->format, {Format::table, Format::json, Format::csv, Format::md});
    app->footer(R"(blended $/GPU-h = total cost / used GPU-hours; saving = 1 - total cost / (used GPU-hours x on-demand).
Examples:
  gpuplan fleet --on-demand-usd-per-gpu-hour 1.60 --tier reserved-3y:4:0.96 --tier spot:6:0.80 --tier on-demand:2:1.60
  gpuplan fleet --on-demand-usd-per-gpu-hour 1.60 --tier reserved-1y:8:1.12 --hours 8760
  gpuplan fleet --instance p5.48xlarge --tier reserved-1y:16:2.50 --tier spot:8:3.00:0.7 --format json
  gpuplan fleet --on-demand-usd-per-gpu-hour 1.60 --profile 4:8:12 --commit reserved-3y:0.96 --burst spot:0.80
  gpuplan fleet --on-demand-usd-per-gpu-hour 1.60 --usage gpus-in-use.csv --commit reserved-3y:0.96
  gpuplan fleet --instance g6e.12xlarge --usage cost-explorer.json --commit reserved-1y --spot catalog --spot-max-share 0.3)");
    return {app, [o](const Catalog& c) { return run_fleet(c, *o); }};
}

}  // namespace gpuplan::cli
