// spot_fleet_cmd.cpp — `gpuplan spot-fleet`: a weighted spot fleet over instance types and zones.
//
// Flags → SpotFleetRequest → plan_spot_fleet (core, pricing/spot_fleet.hpp) → table or JSON.
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "gpuplan/pricing/spot_advisor.hpp"
#include "gpuplan/pricing/spot_fleet.hpp"

namespace gpuplan::cli {

namespace {

struct SpotFleetOptions {
    std::string region = "us-east-1", allocation = "lowest-price", interruption_bucket;
    double capacity = 0, hours = kHoursPerMonth;
    std::vector<std::string> types;
    bool explain = false;
    Format format = Format::table;
    CLI::App* app = nullptr;
};

// "g6e.12xlarge:4" -> {g6e.12xlarge, 4}; a bare type weighs 1.
SpotFleetType parse_type(const std::string& spec) {
    const auto colon = spec.find(':');
    SpotFleetType t{spec.substr(0, colon), 1};
    if (colon == std::string::npos) return t;
    const std::string w = spec.substr(colon + 1);
    char* end = nullptr;
    t.weight = std::strtod(w.c_str(), &end);
    if (w.empty() || *end != '\0' || !(t.weight > 0) || !std::isfinite(t.weight))  // inf: "instances -0", $0.00
        throw InputError("--type", "'" + spec + "'", "TYPE or TYPE:WEIGHT with a finite weight above 0, e.g. g6e.12xlarge:4 (units one instance gives)");
    return t;
}

nlohmann::json line_json(const SpotFleetLine& l) {
    return {{"instance", l.instance},       {"weight", l.weight},
            {"zones", l.zones},             {"instances", l.instances},
            {"spot_min_usd_per_hour", l.spot_min.value}, {"spot_median_usd_per_hour", l.spot_median.value},
            {"spot_max_usd_per_hour", l.spot_max.value}, {"on_demand_usd_per_hour", l.on_demand.value},
            {"usd_per_unit_hour", to_json(l.usd_per_unit_hour)}};
}

std::string run_spot_fleet(const Catalog& catalog, const SpotFleetOptions& o) {
    SpotFleetRequest req;
    req.region = o.region;
    req.target_capacity = o.capacity;
    req.hours = o.hours;
    const auto allocation = spot_allocation_named(o.allocation);
    if (!allocation) throw InputError("--allocation", "'" + o.allocation + "'", "lowest-price or diversified");
    req.allocation = *allocation;
    for (const std::string& spec : o.types) req.types.push_back(parse_type(spec));
    if (o.app->count("--interruption-bucket")) {
        const auto bucket = interruption_bucket_named(o.interruption_bucket);
        if (!bucket) throw InputError("--interruption-bucket", "'" + o.interruption_bucket + "'", interruption_bucket_labels());
        req.spot_risk.mean_hours_between_interruptions = interruption_param(*bucket, "--interruption-bucket");
    }
    SpotFleetResult r;
    try {
        r = plan_spot_fleet(catalog, req);
    } catch (const InputError& e) {
        rethrow_for_flag(e, {{"types", "--type"}, {"region", "--region"}, {"target_capacity", "--capacity"}});
    }
    const std::vector<const Figure*> totals = {&r.capacity_units, &r.expected_usd_per_hour, &r.cheapest_zones_usd_per_hour,
                                               &r.dearest_zones_usd_per_hour, &r.on_demand_usd_per_hour, &r.saving_vs_on_demand,
                                               &r.cost_usd, &r.usd_per_useful_hour};
    if (o.format == Format::json) {
        nlohmann::json lines = nlohmann::json::array();
        for (const SpotFleetLine& l : r.lines) lines.push_back(line_json(l));
        nlohmann::json figures = nlohmann::json::object();
        for (const Figure* f : totals) figures[f->name] = to_json(*f);
        return dump_json({{"region", req.region}, {"allocation", to_string(req.allocation)}, {"target_capacity", req.target_capacity},
                          {"hours", req.hours}, {"types", lines}, {"not_used", r.not_used}, {"figures", figures}});
    }
    Table t{{{"type", "instance", false}, {"weight", "weight"}, {"zones", "zones"}, {"instances", "instances"}, {"cheapest zone $/h", "spot_min"},
             {"median $/h", "spot_median"}, {"dearest zone $/h", "spot_max"}, {"on-demand $/h", "on_demand"}, {"$/unit-h paid", "usd_per_unit_hour"}},
            {}};
    for (const SpotFleetLine& l : r.lines)
        t.rows.push_back({text_cell(l.instance), text_cell(quantity(l.weight)), text_cell(quantity(l.zones)), text_cell(quantity(l.instances)),
                          number_cell(l.spot_min.value, rate), number_cell(l.spot_median.value, rate), number_cell(l.spot_max.value, rate),
                          number_cell(l.on_demand.value, rate), figure_cell(l.usd_per_unit_hour, rate, false)});
    if (o.format == Format::csv) return render_csv(t);
    std::string out = fmt::format("Spot fleet in {}: {} units, {} allocation, over {} h\n\n", req.region, quantity(req.target_capacity),
                                  to_string(req.allocation), quantity(req.hours));
    out += render_table(t, o.format) + "\n";
    const bool rework_assumed = req.spot_risk.mean_hours_between_interruptions.origin == InputOrigin::assumption;
    out += summary_table({{"capacity", {quantity(*r.capacity_units.value) + " units", ""}},
                          {"expected", {rate(*r.expected_usd_per_hour.value) + "/h", ""}},
                          {"range over the snapshot's zones", {rate(*r.cheapest_zones_usd_per_hour.value) + " to " + rate(*r.dearest_zones_usd_per_hour.value) + "/h", ""}},
                          {"the same instances on-demand", {rate(*r.on_demand_usd_per_hour.value) + "/h", ""}},
                          {"saving vs on-demand", figure_cell(r.saving_vs_on_demand, percent, false)},
                          {"cost over the hours", figure_cell(r.cost_usd, money, false)},
                          {"per useful hour (checkpoint rework)", number_cell(*r.usd_per_useful_hour.value, rate, "", rework_assumed)}},
                         o.format);
    std::string after = "\n";
    after += req.allocation == SpotAllocation::lowest_price
                 ? "lowest-price: every unit from the pool with the lowest price per unit (a type's cheapest zone), as EC2 Fleet allocates.\n"
                 : "diversified: the units spread evenly over every pool (type x zone), each type at its typical (median) zone price.\n";
    after += "Zones and prices: the catalog's spot snapshot (one moment; spot moves hourly). Weight: units one instance gives.\n";
    for (const std::string& n : r.not_used) after += "not used: " + n + "\n";
    if (rework_assumed)
        after += "* rework assumes an interruption every " + format_number(req.spot_risk.mean_hours_between_interruptions.value) +
                 " h (docs/pricing.md); give --interruption-bucket from the Spot Advisor instead.\n";
    if (o.explain) {
        after += "\nHow each figure was computed:\n";
        for (const Figure* f : totals) after += "  " + f->name + "\n" + explain_figure(*f, "    ");
    }
    out += notes_block(after, o.format);
    return out;
}

}  // namespace

Command register_spot_fleet(CLI::App& parent) {
    auto o = std::make_shared<SpotFleetOptions>();
    CLI::App* app = parent.add_subcommand("spot-fleet", "A spot fleet spread over instance types and zones, weighted by capacity, priced from the zones' spot prices");
    o->app = app;
    app->add_option("--capacity", o->capacity, "Target capacity in units (e.g. GPUs), as EC2 Fleet's TargetCapacity")
        ->required()
        ->check(number_rule(NumberRule::positive));
    app->add_option("--type", o->types, "TYPE[:WEIGHT]: an instance type and the units one instance gives (default 1); repeatable")
        ->required()
        ->type_name("TYPE:WEIGHT");
    add_region_option(*app, o->region);
    app->add_option("--allocation", o->allocation, "lowest-price (the cheapest pool per unit) or diversified (even over every type x zone)")
        ->capture_default_str()
        ->check(CLI::IsMember({"lowest-price", "diversified"}));
    app->add_option("--hours", o->hours, "Hours to price (730 = a month)")->capture_default_str()->check(number_rule(NumberRule::positive));
    app->add_option("--interruption-bucket", o->interruption_bucket,
                    "The Spot Instance Advisor's frequency of interruption (<5%, 5-10%, 10-15%, 15-20%, >20% a month), for the checkpoint rework")
        ->type_name("BUCKET");
    app->add_flag("--explain", o->explain, "Show each total's formula, worked line and inputs");
    add_format_option(*app, o->format, {Format::table, Format::json, Format::csv, Format::md});
    app->footer(R"(Each type's zones and spot prices (cheapest, median, dearest zone) come from the catalog's snapshot for
the region. The fleet launches whole instances until the capacity is met, so it may deliver more.
Examples:
  gpuplan spot-fleet --capacity 8 --type g6e.4xlarge:1 --type g6e.8xlarge:1 --type g6e.12xlarge:4
  gpuplan spot-fleet --capacity 64 --type p5.48xlarge:8 --type p5en.48xlarge:8 --allocation diversified --region us-west-2
)");
    return {app, [o](const Catalog& c) { return run_spot_fleet(c, *o); }};
}

}  // namespace gpuplan::cli
