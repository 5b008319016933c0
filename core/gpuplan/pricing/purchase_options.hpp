// purchase_options.hpp — every way to buy an instance-hour, side by side.
//
// Each option is listed (a price from the catalog: on-demand, typical spot, a Capacity Block or
// a commitment's rate from a shipped or imported overlay), not offered (a source shows AWS does
// not sell it for that type and region), or assumed (no data either way): then it is priced as
// a discount off on-demand, each discount a parameter with a documented default
// (docs/pricing.md), and every figure that rests on a default says so ("assumption": true).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/explain.hpp"
#include "gpuplan/pricing/purchase_option.hpp"
#include "gpuplan/pricing/spot_checkpoint.hpp"

namespace gpuplan {


// Discounts off on-demand (fractions, 0 <= d < 1), indexed by term [1y, 3y].
struct PricingAssumptions {
    Param reserved_discount[2];
    Param instance_savings_plan_discount[2];
    Param compute_savings_plan_discount[2];
    Param capacity_block_discount;
    // Share of the term's cost paid at purchase with "partial upfront".
    Param partial_upfront_share;
    // Spot discount used only when the catalog has no spot price for the type and region.
    std::optional<Param> spot_discount;
};

// The documented defaults (docs/pricing.md explains each choice).
PricingAssumptions default_pricing_assumptions();

// Median of (1 - spot / on-demand) over every catalog type with both prices in `region`;
// the fallback spot discount, computed from catalog facts rather than typed in.
Figure median_spot_discount(const Catalog& catalog, const std::string& region);

// Where an option's price comes from (docs/pricing.md, "Which options exist").
enum class OptionStatus { listed, assumed, not_offered };
std::string_view to_string(OptionStatus status);  // "listed", "assumed", "not-offered"

struct Quote {
    PurchaseOption option;
    OptionStatus status = OptionStatus::assumed;
    // listed / not offered: "CB-PRICING, as of 2026-07-22" (a key of Catalog::sources and a date)
    std::string status_source;
    std::string key;    // key(option), "reserved-1y-partial-upfront": stable, for JSON and the CLI
    std::string label;  // "Reserved 1-year, partial upfront"
    bool available = true;
    std::string unavailable_reason;
    Figure effective_usd_per_hour;   // amortised price of one instance-hour
    Figure effective_usd_per_month;  // the same for a month of 730 hours (AWS's pricing month), beside it
    Figure upfront_usd;              // paid at purchase, per instance (commitments)
    Figure recurring_usd_per_hour;   // billed every hour of the term, per instance
    // For the requested hours and instance count. A commitment is billed every hour of its
    // term, so its cost is whole terms: as many as the hours need (renewed back to back).
    Figure cost_usd;
    Figure saving_vs_on_demand;      // fraction
    std::optional<Figure> break_even_utilization;  // commitments: below this, on-demand is cheaper
    // Commitments: the share of cost_usd this usage carries if other work uses the rest of the
    // term (effective rate x hours x instances), and the share of the billed hours it fills.
    std::optional<Figure> attributable_cost_usd, term_utilization;
    std::optional<Figure> spot_effective_usd_per_useful_hour;  // spot: price x (1 + rework)
    // Spot: the checkpoint plan behind that price (spot_checkpoint.hpp), the interval and the
    // rework, as figures of their own so a view can show them beside their inputs.
    std::optional<Figure> spot_checkpoint_interval_hours, spot_rework_overhead_fraction;
    // The request's unit costs at this option's price for the whole fleet (unit_cost.hpp):
    // USD per 1M tokens, per video hour, per training run, as asked.
    std::vector<Figure> unit_costs;
};

// Unit costs computed for every purchase option (price --tokens-per-second etc., the
// scenario's price section).
struct UnitCostOptions {
    std::optional<double> tokens_per_second;
    std::optional<double> real_time_factor;
    std::optional<double> training_hours;
};

struct QuoteRequest {
    std::string instance;
    std::string region = "us-east-1";
    double hours = kHoursPerMonth;   // usage hours to price (a month by default)
    double count = 1;     // instances
    PricingAssumptions assumptions = default_pricing_assumptions();
    SpotRisk spot_risk = default_spot_risk();
    UnitCostOptions unit_costs;  // none by default
};

// Throws InputError for an unknown instance or region, or a type not offered in the region.
// A type offered there without a known on-demand price (p5e.48xlarge sells as Capacity Blocks
// only) is quoted all the same: its listed options priced, the ones that would be a discount
// off on-demand unknown with that reason (available false), and every saving unknown.
std::vector<Quote> quote_purchase_options(const Catalog& catalog, const QuoteRequest& request);

// An assumed partial- or all-upfront commitment costs the no-upfront rate of the same kind and
// term times this (below 1: paying upfront buys a lower rate), with its source; docs/pricing.md.
Param payment_multiplier(PurchaseKind kind, Term term, Payment payment);

// Catalog price as a Param citing its source; nullopt when unknown or absent.
std::optional<Param> catalog_price(const Catalog& catalog, const Instance& instance, const std::string& region, PriceKind option);
// Why catalog_price has nothing: the catalog's reason for a null price, or "no <option> price
// for <type> in <region> in the catalog" when there is no entry at all.
std::string price_unknown_reason(const Instance& instance, const std::string& region, PriceKind option);

// What is billed after `months` months of use at `used_hours_per_month`, for `instances`
// instances bought as `option` (upfront and recurring as its Quote gives them). On-demand,
// spot and Capacity Blocks bill the hours used. A commitment bills every hour of its term
// (a month is 730 h), used or not, and its upfront at the start of each term; a 1-year
// commitment still in use after month 12 is renewed, upfront again. Term length: 8760 h.
double cumulative_cost_usd(const PurchaseOption& option, double upfront_usd, double recurring_usd_per_hour, double used_hours_per_month,
                           double months, double instances);

// {key, label, status, status_source?, available, figures | unavailable_reason}: one serialiser
// for every shell.
nlohmann::json to_json(const Quote& quote);

}  // namespace gpuplan
