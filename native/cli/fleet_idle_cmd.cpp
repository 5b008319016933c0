// fleet_idle_cmd.cpp — `gpuplan fleet` (a blended rate over purchase tiers) and `gpuplan idle`
// (always-on versus ephemeral development instances).
#include <cmath>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <tuple>

#include "commands.hpp"
#include "gpuplan/pricing/fleet.hpp"
#include "gpuplan/pricing/idle_cost.hpp"
#include "gpuplan/pricing/purchase_options.hpp"
#include "gpuplan/pricing/storage_transfer.hpp"
#include "gpuplan/scenario/scenario.hpp"

namespace gpuplan::cli {

namespace {

// A catalog on-demand price as a Param, or an InputError naming `flag`.
Param catalog_on_demand(const Catalog& catalog, const Instance& inst, const std::string& region, const std::string& flag) {
    auto p = catalog_price(catalog, inst, region, PriceKind::on_demand);
    if (!p) throw InputError(flag, "'" + inst.name + "' in " + region, "a type with a known on-demand price in the catalog for that region");
    return *p;
}

// Label | value table (text/md) for summary figures; CSV writes every figure in full.
std::string summary(const std::vector<std::pair<std::string, Cell>>& lines, Format format) {
    Table t{{{"figure", "figure", false}, {"value", "value", true}}, {}};
    for (const auto& [label, cell] : lines) t.rows.push_back({text_cell(label), cell});
    return format == Format::md ? render_markdown_table(t) : render_key_values([&] {
        std::vector<KeyValue> kv;
        for (const auto& [label, cell] : lines) kv.push_back({label, cell.text});
        return kv;
    }(), "");
}

// A figure's value from its JSON (the figures below always have one).
double value_of(const NamedFigures& figures, const std::string& name) {
    for (const auto& [n, f] : figures)
        if (n == name) return f.at("value").get<double>();
    throw std::logic_error("no figure " + name);
}

// ---- fleet --------------------------------------------------------------------------------

struct FleetOptions {
    double on_demand = 0, hours = 730;
    std::string instance, region = "us-east-1";
    std::vector<std::string> tiers;
    std::string profile, commit, burst;  // --profile B:A:P --commit OPTION:USD [--burst OPTION:USD]
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
    const std::string price_syntax = "OPTION:USD_PER_GPU_HOUR, e.g. reserved-3y:0.96";
    const auto option_price = [&](const std::string& flag, const std::string& spec) {
        const auto p = split_colons(spec);
        if (p.size() != 2 || p[0].empty()) throw InputError(flag, "'" + spec + "'", price_syntax);
        const std::optional<PurchaseOption> option = purchase_option_named(p[0]);
        if (!option) throw InputError(flag, "'" + spec + "'", "OPTION one of " + purchase_option_keys());
        return std::make_pair(*option, Param{colon_number(flag, spec, p[1], "USD_PER_GPU_HOUR", NumberRule::positive, price_syntax),
                                             InputOrigin::user, ""});
    };
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

std::string run_fleet(const Catalog& catalog, const FleetOptions& o) {
    FleetRequest req;
    req.hours = o.hours;
    const bool by_price = o.app->count("--on-demand-usd-per-gpu-hour") > 0, by_instance = o.app->count("--instance") > 0;
    if (!by_price && !by_instance)
        throw InputError("--on-demand-usd-per-gpu-hour / --instance", "neither", "one of them: the on-demand $/GPU-h the saving is measured against");
    if (by_instance) {
        const Instance& inst = require_instance(catalog, o.instance, "--instance");
        require_region(catalog, o.region, "--region");
        const Param od = catalog_on_demand(catalog, inst, o.region, "--instance");
        if (!inst.accelerator_count) throw InputError("--instance", "'" + inst.name + "'", "a type with a known accelerator count");
        req.on_demand_usd_per_gpu_hour = {od.value / *inst.accelerator_count, InputOrigin::catalog,
                                          od.source + " / " + format_number(*inst.accelerator_count) + " accelerators"};
    } else {
        req.on_demand_usd_per_gpu_hour = {o.on_demand, InputOrigin::user, ""};
    }
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
    out += summary({{"total cost", figure_cell(r.total_cost_usd, money, false)},
                    {"used GPU-hours", figure_cell(r.used_gpu_hours, quantity, false)},
                    {"blended rate", {rate(*r.blended_usd_per_gpu_hour.value) + "/GPU-h", ""}},
                    {"all on-demand cost", figure_cell(r.all_on_demand_cost_usd, money, false)},
                    {"saving vs all on-demand", {money(value_of(all, "saving_usd")) + " (" + percent(*r.saving_vs_on_demand.value) + ")", ""}}},
                   o.format);
    std::string after = "\nA committed tier (reserved*, *savings-plan*) is billed every hour; the others only for the hours used.\n"
                        "break-even util.: below this share of the hours in use, that committed tier costs more than on-demand.\n";
    if (o.explain) after += explain_all(all);
    out += notes_block(after, o.format);
    return out;
}

// ---- idle ---------------------------------------------------------------------------------

struct IdleOptions {
    std::string instance, region = "us-east-1";
    double usd_per_hour = 0, storage_usd_per_gb_month = 0;
    IdleRequest req;  // holds the defaults and the parsed values
    bool explain = false;
    Format format = Format::table;
    CLI::App* app = nullptr;
};

std::string run_idle(const Catalog& catalog, const IdleOptions& o) {
    IdleRequest req = o.req;
    const bool by_price = o.app->count("--usd-per-hour") > 0, by_instance = o.app->count("--instance") > 0;
    if (!by_price && !by_instance) throw InputError("--usd-per-hour / --instance", "neither", "one of them: the instance's $/h");
    std::string what = "the given price";
    if (by_instance) {
        const Instance& inst = require_instance(catalog, o.instance, "--instance");
        require_region(catalog, o.region, "--region");
        req.usd_per_hour = catalog_on_demand(catalog, inst, o.region, "--instance");
        what = inst.name + " on-demand in " + o.region;
    } else {
        req.usd_per_hour = {o.usd_per_hour, InputOrigin::user, ""};
    }
    req.storage_usd_per_gb_month = default_storage_rates().ebs_gp3_usd_per_gb_month;
    if (o.app->count("--storage-usd-per-gb-month")) req.storage_usd_per_gb_month = {o.storage_usd_per_gb_month, InputOrigin::user, ""};
    IdleResult r;
    try {
        r = evaluate_idle_cost(req);
    } catch (const InputError& e) {
        rethrow_for_flag(e, {{"idle.active_hours_per_day", "--active-hours-per-day"}, {"idle.workdays_per_month", "--workdays"}});
    }
    const nlohmann::json j = to_json(r);
    if (o.format == Format::json) return dump_json(j);
    NamedFigures all;
    for (const Figure* f : {&r.always_on_usd_per_instance, &r.always_on_usd_total, &r.ephemeral_hours_per_instance, &r.ephemeral_usd_per_instance,
                            &r.ephemeral_usd_total, &r.storage_usd_total, &r.saving_fraction_compute})
        all.emplace_back(f->name, j.at("figures").at(f->name));
    if (o.format == Format::csv) return figures_csv(all);

    const std::string n = quantity(req.engineers);
    // The volume's rate only matters when there is a volume.
    const bool storage_assumed = r.storage_usd_total.rests_on_assumption() && req.storage_gb > 0;
    std::string out = n + " engineer" + (req.engineers == 1 ? "" : "s") + ", one instance each at " + rate(req.usd_per_hour.value) + "/h (" + what +
                      "), a month of " + quantity(req.hours_per_month) + " h;\nephemeral: " + quantity(req.workdays_per_month) + " workdays x (" +
                      quantity(req.active_hours_per_day) + " active h + " + quantity(req.boot_setup_minutes) + " min boot/set-up + " +
                      quantity(req.idle_shutdown_minutes) + " min before idle shutdown)\n\n";
    out += summary({{"always on, per instance", figure_cell(r.always_on_usd_per_instance, money, false)},
                    {"always on, " + n + " instances", figure_cell(r.always_on_usd_total, money, false)},
                    {"ephemeral hours per instance", {decimals(*r.ephemeral_hours_per_instance.value, 2) + " h", ""}},
                    {"ephemeral, per instance", figure_cell(r.ephemeral_usd_per_instance, money, false)},
                    {"ephemeral, " + n + " instances", figure_cell(r.ephemeral_usd_total, money, false)},
                    {"saving (compute only)", figure_cell(r.saving_fraction_compute, percent, false)},
                    {"storage kept while stopped (both cases)", figure_cell(r.storage_usd_total, money, storage_assumed)}},
                   o.format);
    std::string after;
    if (storage_assumed)
        after += assumption_footnote({{"--storage-usd-per-gb-month", format_number(req.storage_usd_per_gb_month.value) + "  " +
                                                                       req.storage_usd_per_gb_month.source}});
    if (o.explain) after += explain_all(all);
    return out + notes_block(after, o.format);
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
    app->add_option("--commit", o->commit, "With --profile: OPTION:USD_PER_GPU_HOUR for the baseline, e.g. reserved-3y:0.96")->needs(profile);
    app->add_option("--burst", o->burst, "With --profile: OPTION:USD_PER_GPU_HOUR above the baseline (default: on-demand at the on-demand price)")
        ->needs(profile);
    app->add_option("--hours", o->hours, "Hours in the period (730 = a month, 8760 = a year)")->capture_default_str()->check(number_rule(NumberRule::positive));
    app->add_flag("--explain", o->explain, "Show each figure's formula, worked line and inputs");
    add_format_option(*app, o->format, {Format::table, Format::json, Format::csv, Format::md});
    app->footer(R"(blended $/GPU-h = total cost / used GPU-hours; saving = 1 - total cost / (used GPU-hours x on-demand).
Examples:
  gpuplan fleet --on-demand-usd-per-gpu-hour 1.60 --tier reserved-3y:4:0.96 --tier spot:6:0.80 --tier on-demand:2:1.60
  gpuplan fleet --on-demand-usd-per-gpu-hour 1.60 --tier reserved-1y:8:1.12 --hours 8760
  gpuplan fleet --instance p5.48xlarge --tier reserved-1y:16:2.50 --tier spot:8:3.00:0.7 --format json
  gpuplan fleet --on-demand-usd-per-gpu-hour 1.60 --profile 4:8:12 --commit reserved-3y:0.96 --burst spot:0.80)");
    return {app, [o](const Catalog& c) { return run_fleet(c, *o); }};
}

Command register_idle(CLI::App& parent) {
    auto o = std::make_shared<IdleOptions>();
    CLI::App* app = parent.add_subcommand("idle", "Always-on versus ephemeral (stopped when not in use) development instances");
    o->app = app;
    IdleRequest& q = o->req;
    auto* price = app->add_option("--usd-per-hour", o->usd_per_hour, "Instance price, $/h")->check(number_rule(NumberRule::positive));
    auto* inst = app->add_option("--instance", o->instance, "Take the price from this catalog instance's on-demand price");
    price->excludes(inst);
    add_region_option(*app, o->region);
    const auto num = [&](const char* flag, double& slot, const char* help, NumberRule rule) {
        app->add_option(flag, slot, help)->capture_default_str()->check(number_rule(rule));
    };
    num("--engineers", q.engineers, "Engineers, one instance each", NumberRule::positive);
    num("--active-hours-per-day", q.active_hours_per_day, "Hours of real use per workday", NumberRule::non_negative);
    num("--workdays", q.workdays_per_month, "Workdays per month", NumberRule::non_negative);
    num("--boot-minutes", q.boot_setup_minutes, "Minutes of boot and set-up per workday", NumberRule::non_negative);
    num("--idle-shutdown-minutes", q.idle_shutdown_minutes, "Minutes an instance keeps running after the last activity, per day",
        NumberRule::non_negative);
    num("--storage-gb", q.storage_gb, "EBS volume kept while stopped, GB per engineer (its own line, paid in both cases)", NumberRule::non_negative);
    num("--hours-per-month", q.hours_per_month, "Hours in a month (AWS: 8760 / 12)", NumberRule::positive);
    app->add_option("--storage-usd-per-gb-month", o->storage_usd_per_gb_month,
                    "Volume price, $/GB-month (default " + format_number(default_storage_rates().ebs_gp3_usd_per_gb_month.value) +
                        ", EBS gp3, docs/pricing.md)")
        ->check(number_rule(NumberRule::non_negative));
    app->add_flag("--explain", o->explain, "Show each figure's formula, worked line and inputs");
    add_format_option(*app, o->format, {Format::table, Format::json, Format::csv, Format::md});
    app->footer(R"(always on = hours per month x price; ephemeral = workdays x (active hours + (boot + idle-shutdown
minutes) / 60) x price; saving = 1 - ephemeral / always on (compute only).
Examples:
  gpuplan idle --instance g6.2xlarge --engineers 3
  gpuplan idle --usd-per-hour 0.9776 --engineers 3 --storage-gb 200 --format md)");
    return {app, [o](const Catalog& c) { return run_idle(c, *o); }};
}

}  // namespace gpuplan::cli
