// idle_cmd.cpp — `gpuplan idle`: always-on versus ephemeral development instances, from the
// core's evaluate_idle_cost.
#include <cmath>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <tuple>

#include "commands.hpp"
#include "gpuplan/pricing/fleet.hpp"
#include "gpuplan/pricing/fleet_over_time.hpp"
#include "gpuplan/pricing/usage_formats.hpp"
#include "gpuplan/pricing/idle_cost.hpp"
#include "gpuplan/pricing/purchase_options.hpp"
#include "gpuplan/pricing/storage_transfer.hpp"
#include "gpuplan/scenario/scenario_result.hpp"

namespace gpuplan::cli {

namespace {

// ---- idle ---------------------------------------------------------------------------------

struct IdleOptions {
    std::string instance, region = "us-east-1";
    std::string usage;  // --usage FILE: instances in use over time, in place of the assumed day
    double usd_per_hour = 0, storage_usd_per_gb_month = 0;
    IdleRequest req;  // holds the defaults and the parsed values
    bool explain = false;
    Format format = Format::table;
    CLI::App* app = nullptr;
};

// --usage FILE: the same comparison on a real history of instances in use (fleet_over_time.hpp).
std::string run_idle_usage(const IdleOptions& o, const Param& price, const std::string& what) {
    const UsageHistory h = parse_usage(read_input_file(o.usage, "--usage"), o.usage, UsageUnit::instances);
    EphemeralFromHistoryRequest q;
    q.usd_per_instance_hour = price;
    q.boot_minutes = o.req.boot_setup_minutes;
    q.idle_shutdown_minutes = o.req.idle_shutdown_minutes;
    const EphemeralFromHistory r = ephemeral_from_history(h, q);
    const nlohmann::json j = to_json(r);
    if (o.format == Format::json) return dump_json(j);
    NamedFigures all;
    for (const auto& [name, fig] : j.at("figures").items()) all.emplace_back(name, fig);
    if (o.format == Format::csv) return figures_csv(all);
    std::string out = "Usage history " + o.usage + " (" + h.format + "): " + std::to_string(h.samples.size()) + " samples over " + quantity(h.total_hours) +
                      " h, instances at " + rate(price.value) + "/h (" + what + ");\nephemeral: started " + quantity(q.boot_minutes) +
                      " min before each use, stopped " + quantity(q.idle_shutdown_minutes) + " min after\n\n";
    out += summary_table({{"always on (the peak count)", {quantity(*r.always_on_instances.value) + " instances: " + money(*r.always_on_usd.value), ""}},
                          {"in use", {quantity(*r.in_use_instance_hours.value) + " instance-h", ""}},
                          {"ephemeral", {quantity(*r.ephemeral_instance_hours.value) + " instance-h, " + quantity(*r.instance_starts.value) + " starts: " +
                                             money(*r.ephemeral_usd.value), ""}},
                          {"idle while running (boots, shutdown delays)", {quantity(*r.idle_instance_hours.value) + " instance-h", ""}},
                          {"saving", figure_cell(r.saving_fraction, percent, false)}},
                         o.format);
    std::string after;
    for (const auto& note : h.notes) after += "note: " + note + "\n";
    if (o.explain) after += explain_all(all);
    return out + notes_block(after.empty() ? "" : "\n" + after, o.format);
}

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
    if (!o.usage.empty()) return run_idle_usage(o, req.usd_per_hour, what);
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
    out += summary_table({{"always on, per instance", figure_cell(r.always_on_usd_per_instance, money, false)},
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
    auto* usage = app->add_option("--usage", o->usage, "A history of instances in use (timestamp,instances CSV or another --usage format of "
                                                      "`gpuplan fleet`) in place of --engineers, --active-hours-per-day and --workdays: each "
                                                      "ephemeral instance starts --boot-minutes before a use and stops --idle-shutdown-minutes after")
                      ->type_name("FILE");

    num("--boot-minutes", q.boot_setup_minutes, "Minutes of boot and set-up per workday", NumberRule::non_negative);
    num("--idle-shutdown-minutes", q.idle_shutdown_minutes, "Minutes an instance keeps running after the last activity, per day",
        NumberRule::non_negative);
    num("--storage-gb", q.storage_gb, "EBS volume kept while stopped, GB per engineer (its own line, paid in both cases)", NumberRule::non_negative);
    num("--hours-per-month", q.hours_per_month, "Hours in a month (AWS: 8760 / 12)", NumberRule::positive);
    app->add_option("--storage-usd-per-gb-month", o->storage_usd_per_gb_month,
                    "Volume price, $/GB-month (default " + format_number(default_storage_rates().ebs_gp3_usd_per_gb_month.value) +
                        ", EBS gp3, docs/pricing.md)")
        ->check(number_rule(NumberRule::non_negative));
    // With a history these describe an assumed day it replaces: refused rather than ignored.
    for (const char* flag : {"--engineers", "--active-hours-per-day", "--workdays", "--storage-gb", "--hours-per-month", "--storage-usd-per-gb-month"})
        usage->excludes(app->get_option(flag));
    app->add_flag("--explain", o->explain, "Show each figure's formula, worked line and inputs");
    add_format_option(*app, o->format, {Format::table, Format::json, Format::csv, Format::md});
    app->footer(R"(always on = hours per month x price; ephemeral = workdays x (active hours + (boot + idle-shutdown
minutes) / 60) x price; saving = 1 - ephemeral / always on (compute only).
Examples:
  gpuplan idle --instance g6.2xlarge --engineers 3
  gpuplan idle --usd-per-hour 0.9776 --engineers 3 --storage-gb 200 --format md
  gpuplan idle --instance g6.2xlarge --usage dev-instances-in-use.csv --boot-minutes 5 --idle-shutdown-minutes 30)");
    return {app, [o](const Catalog& c) { return run_idle(c, *o); }};
}

}  // namespace gpuplan::cli
