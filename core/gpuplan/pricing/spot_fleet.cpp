// spot_fleet.cpp — a weighted spot fleet over types and zones (spot_fleet.hpp).
#include "gpuplan/pricing/spot_fleet.hpp"

#include <cmath>

#include "gpuplan/input_error.hpp"
#include "gpuplan/pricing/purchase_options.hpp"
#include "gpuplan/text.hpp"

namespace gpuplan {

std::string_view to_string(SpotAllocation allocation) {
    return allocation == SpotAllocation::lowest_price ? "lowest-price" : "diversified";
}

std::optional<SpotAllocation> spot_allocation_named(std::string_view text) {
    for (SpotAllocation a : {SpotAllocation::lowest_price, SpotAllocation::diversified})
        if (text == to_string(a)) return a;
    return std::nullopt;
}

namespace {

// Σ instances x price over the lines, with the sum written out.
Figure fleet_sum(std::string name, const std::vector<SpotFleetLine>& lines, const Param SpotFleetLine::*price, const std::string& what) {
    double total = 0;
    std::string worked;
    std::vector<FigureInput> inputs;
    for (const SpotFleetLine& l : lines) {
        if (l.instances == 0) continue;
        const Param& p = l.*price;
        total += l.instances * p.value;
        worked += (worked.empty() ? "" : " + ") + format_number(l.instances) + " x " + format_number(p.value);
        inputs.push_back(input(l.instance + " " + what, "USD/h", p));
    }
    return make_figure(std::move(name), total, "USD/h", "sum over types of instances x " + what, worked + " = " + format_number(total),
                  std::move(inputs));
}

// The request's types with their spot and on-demand prices; a type without them goes to not_used.
void spot_fleet_lines(const Catalog& catalog, const SpotFleetRequest& request, SpotFleetResult& result) {
    if (request.types.empty()) throw InputError("types", "none", "at least one instance type with its weight (TYPE:WEIGHT)");
    if (!(request.target_capacity > 0)) throw InputError("target_capacity", format_number(request.target_capacity), "a capacity above 0 units");
    require_region(catalog, request.region, "region", "\"" + request.region + "\"");
    for (const SpotFleetType& t : request.types) {
        const Instance* inst = catalog.find_instance(t.instance);
        if (!inst) throw InputError("types", "\"" + t.instance + "\"", "an instance type in the catalog (see `gpuplan catalog`)");
        if (!(t.weight > 0)) throw InputError("types", t.instance + " weight " + format_number(t.weight), "a weight above 0 (units one instance gives)");
        if (!inst->offered_in(request.region))
            throw InputError("types", "\"" + t.instance + "\" in " + request.region,
                             "a type offered in " + request.region + " (offered in " + join(inst->offered_regions(), ", ") + ")");
        const Price* spot = inst->find_price(request.region, PriceKind::spot_typical);
        const auto od = catalog_price(catalog, *inst, request.region, PriceKind::on_demand);
        const auto median = catalog_price(catalog, *inst, request.region, PriceKind::spot_typical);
        if (!median || !od || !spot->zones) {
            result.not_used.push_back(t.instance + ": " +
                                      (!od ? price_unknown_reason(*inst, request.region, PriceKind::on_demand)
                                           : !median ? price_unknown_reason(*inst, request.region, PriceKind::spot_typical)
                                                     : "the catalog's spot price for it lists no zones"));
            continue;
        }
        SpotFleetLine line;
        line.instance = t.instance;
        line.weight = t.weight;
        line.zones = spot->zones->count;
        line.spot_median = *median;
        line.spot_min = {spot->zones->min_usd_per_hour, InputOrigin::catalog, median->source + "; its cheapest zone"};
        line.spot_max = {spot->zones->max_usd_per_hour, InputOrigin::catalog, median->source + "; its dearest zone"};
        line.on_demand = *od;
        result.lines.push_back(std::move(line));
    }
    if (result.lines.empty())
        throw InputError("types", join(result.not_used, "; "), "at least one type with a spot price and its zones in " + request.region);
}

// How many instances of each type the allocation strategy launches, and its price per unit.
void allocate_spot_units(const SpotFleetRequest& request, SpotFleetResult& result) {
    const double target = request.target_capacity;
    if (request.allocation == SpotAllocation::lowest_price) {
        // The pool with the lowest price per unit: each type's cheapest zone, per weight unit.
        SpotFleetLine* best = nullptr;
        for (SpotFleetLine& l : result.lines)
            if (!best || l.spot_min.value / l.weight < best->spot_min.value / best->weight) best = &l;
        best->instances = std::ceil(target / best->weight - 1e-9);
        for (SpotFleetLine& l : result.lines)
            l.usd_per_unit_hour = make_figure("usd_per_unit_hour", l.spot_min.value / l.weight, "USD/unit-h", "cheapest zone's spot price / weight",
                                         format_number(l.spot_min.value) + " / " + format_number(l.weight) + " = " +
                                             format_number(l.spot_min.value / l.weight),
                                         {input("spot_cheapest_zone_usd_per_hour", "USD/h", l.spot_min)});
    } else {
        // Every pool (type x zone) an equal share of the units; a type's share is its zones'.
        double pools = 0;
        for (const SpotFleetLine& l : result.lines) pools += l.zones;
        for (SpotFleetLine& l : result.lines) {
            l.instances = std::ceil(target * l.zones / pools / l.weight - 1e-9);
            l.usd_per_unit_hour = make_figure("usd_per_unit_hour", l.spot_median.value / l.weight, "USD/unit-h", "typical (median) zone's spot price / weight",
                                         format_number(l.spot_median.value) + " / " + format_number(l.weight) + " = " +
                                             format_number(l.spot_median.value / l.weight),
                                         {input("spot_median_usd_per_hour", "USD/h", l.spot_median)});
        }
    }
}

// The fleet's figures: capacity, its price per hour three ways, saving, cost and rework.
void spot_fleet_figures(const SpotFleetRequest& request, SpotFleetResult& result) {
    const double target = request.target_capacity;
    double units = 0;
    std::string units_worked;
    for (const SpotFleetLine& l : result.lines) {
        if (l.instances == 0) continue;
        units += l.instances * l.weight;
        units_worked += (units_worked.empty() ? "" : " + ") + format_number(l.instances) + " x " + format_number(l.weight);
    }
    result.capacity_units = make_figure("capacity_units", units, "units", "sum over types of instances x weight (at least the target)",
                                   units_worked + " = " + format_number(units), {input("target_capacity", "units", {target, InputOrigin::user, ""})});
    const bool lowest = request.allocation == SpotAllocation::lowest_price;
    result.expected_usd_per_hour = fleet_sum("expected_usd_per_hour", result.lines, lowest ? &SpotFleetLine::spot_min : &SpotFleetLine::spot_median,
                                             lowest ? "cheapest-zone spot price" : "median-zone spot price");
    result.cheapest_zones_usd_per_hour = fleet_sum("cheapest_zones_usd_per_hour", result.lines, &SpotFleetLine::spot_min, "cheapest-zone spot price");
    result.dearest_zones_usd_per_hour = fleet_sum("dearest_zones_usd_per_hour", result.lines, &SpotFleetLine::spot_max, "dearest-zone spot price");
    result.on_demand_usd_per_hour = fleet_sum("on_demand_usd_per_hour", result.lines, &SpotFleetLine::on_demand, "on-demand price");
    const double expected = *result.expected_usd_per_hour.value, od = *result.on_demand_usd_per_hour.value;
    result.saving_vs_on_demand = make_figure("saving_vs_on_demand", 1 - expected / od, "fraction", "1 - expected_usd_per_hour / on_demand_usd_per_hour",
                                        "1 - " + format_number(expected) + " / " + format_number(od) + " = " + format_number(1 - expected / od),
                                        {result.expected_usd_per_hour.as_input(), result.on_demand_usd_per_hour.as_input()});
    result.cost_usd = make_figure("cost_usd", expected * request.hours, "USD", "expected_usd_per_hour x hours",
                             format_number(expected) + " x " + format_number(request.hours) + " = " + format_number(expected * request.hours),
                             {result.expected_usd_per_hour.as_input(), input("hours", "h", {request.hours, InputOrigin::user, ""})});
    const CheckpointPlan plan = plan_checkpoints(request.spot_risk);
    const double rework = *plan.overhead_fraction.value;
    result.usd_per_useful_hour = make_figure("usd_per_useful_hour", expected * (1 + rework), "USD/h", "expected_usd_per_hour x (1 + rework_overhead_fraction)",
                                        format_number(expected) + " x (1 + " + format_number(rework) + ") = " + format_number(expected * (1 + rework)),
                                        {result.expected_usd_per_hour.as_input(), plan.overhead_fraction.as_input(plan.overhead_fraction.worked)});
}

}  // namespace

SpotFleetResult plan_spot_fleet(const Catalog& catalog, const SpotFleetRequest& request) {
    SpotFleetResult result;
    spot_fleet_lines(catalog, request, result);
    allocate_spot_units(request, result);
    spot_fleet_figures(request, result);
    return result;
}

}  // namespace gpuplan
