// spot_fleet.hpp — a spot fleet spread over instance types and zones, priced from the catalog's
// per-zone spot statistics (each type's median over the region's zones, its cheapest and its
// dearest zone).
//
// EC2 Fleet counts capacity in units: each instance type has a weight (WeightedCapacity: the
// units one instance gives, e.g. its GPUs), and the fleet launches instances until the target is
// met. Its allocation strategies (EC2 User Guide, "Allocation strategies for Spot Instances"):
//   lowest-price  every unit from the pool (type x zone) with the lowest price per unit;
//   diversified   the units spread evenly over every pool (type x zone) of the request.
// A pool here is one of a type's zones in the snapshot; lowest-price pays that pool's price (the
// type's cheapest zone), diversified each type's typical (median) zone price. Spot prices move
// hourly: the snapshot's cheapest and dearest zones give the range around the expected cost.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/explain.hpp"
#include "gpuplan/pricing/purchase_option.hpp"
#include "gpuplan/pricing/spot_checkpoint.hpp"

namespace gpuplan {

enum class SpotAllocation { lowest_price, diversified };
std::string_view to_string(SpotAllocation allocation);  // "lowest-price", "diversified"
std::optional<SpotAllocation> spot_allocation_named(std::string_view text);

struct SpotFleetType {
    std::string instance;
    double weight = 1;  // capacity units one instance gives (EC2 Fleet's WeightedCapacity)
};

struct SpotFleetRequest {
    std::string region = "us-east-1";
    double target_capacity = 1;  // units
    std::vector<SpotFleetType> types;
    SpotAllocation allocation = SpotAllocation::lowest_price;
    double hours = kHoursPerMonth;
    SpotRisk spot_risk = default_spot_risk();
};

struct SpotFleetLine {
    std::string instance;
    double weight = 1;
    double zones = 0;          // the type's zones with a spot price (its pools)
    double instances = 0;      // launched by the allocation
    Param spot_min, spot_median, spot_max, on_demand;  // $/h per instance, from the catalog
    Figure usd_per_unit_hour;  // the price the allocation pays / weight
};

struct SpotFleetResult {
    std::vector<SpotFleetLine> lines;         // one per requested type, in order
    std::vector<std::string> not_used;        // "g6e.8xlarge: no spot price in ..." (skipped, with why)
    Figure capacity_units;                    // delivered: sum of instances x weight (>= target)
    Figure expected_usd_per_hour;             // what the allocation pays
    Figure cheapest_zones_usd_per_hour, dearest_zones_usd_per_hour;  // the snapshot's range
    Figure on_demand_usd_per_hour;            // the same instances on-demand
    Figure saving_vs_on_demand;
    Figure cost_usd;                          // expected x hours
    Figure usd_per_useful_hour;               // expected x (1 + checkpoint rework)
};

// Throws InputError for an unknown instance or region, a type not offered in the region, a
// weight or target that is not positive, an empty type list, or types none of which has a spot
// price there.
SpotFleetResult plan_spot_fleet(const Catalog& catalog, const SpotFleetRequest& request);

}  // namespace gpuplan
