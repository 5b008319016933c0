#include "gpuplan/pricing/purchase_options.hpp"

#include <algorithm>
#include <cmath>

#include "gpuplan/input_error.hpp"
#include "gpuplan/pricing/unit_cost.hpp"
#include "gpuplan/text.hpp"

namespace gpuplan {

PricingAssumptions default_pricing_assumptions() {
    auto a = [](double v, const char* why) { return Param{v, InputOrigin::assumption, why}; };
    PricingAssumptions p;
    // Reserved: the term discounts of shared/cases/pricing.md P2 (30% 1-year, 40% 3-year).
    // AWS's real discount varies by type, region and payment; override with your quote.
    p.reserved_discount[0] = a(0.30, "default reserved 1-year discount (docs/pricing.md)");
    p.reserved_discount[1] = a(0.40, "default reserved 3-year discount (docs/pricing.md)");
    // EC2 Instance Savings Plans are priced like Standard Reserved Instances (AWS advertises
    // "up to 72%" for both), so they default to the reserved discounts.
    p.instance_savings_plan_discount[0] = a(0.30, "default = reserved 1-year discount (docs/pricing.md)");
    p.instance_savings_plan_discount[1] = a(0.40, "default = reserved 3-year discount (docs/pricing.md)");
    // Compute Savings Plans trade discount for flexibility: AWS advertises "up to 66%" against
    // "up to 72%", so the default scales the reserved discount by 66/72.
    p.compute_savings_plan_discount[0] = a(0.30 * 66.0 / 72.0, "default = reserved 1-year x 66/72 (docs/pricing.md)");
    p.compute_savings_plan_discount[1] = a(0.40 * 66.0 / 72.0, "default = reserved 3-year x 66/72 (docs/pricing.md)");
    // Capacity Blocks have their own schedule-dependent price; with no figure we price them
    // as on-demand rather than invent a discount.
    p.capacity_block_discount = a(0.0, "default: no discount assumed for Capacity Blocks (docs/pricing.md)");
    p.partial_upfront_share = a(0.5, "default: half the term cost paid upfront (docs/pricing.md)");
    return p;
}

std::optional<Param> catalog_price(const Catalog& catalog, const Instance& instance, const std::string& region, PriceKind option) {
    const Price* p = instance.find_price(region, option);
    if (!p || !p->usd_per_hour) return std::nullopt;
    return Param{*p->usd_per_hour, InputOrigin::catalog,
                 "catalog " + instance.name + " " + region + " " + std::string(to_string(option)) + ", source " + p->source + ", as of " + p->as_of +
                     stale_price_note(catalog, *p)};
}

std::string price_unknown_reason(const Instance& instance, const std::string& region, PriceKind option) {
    if (!instance.offered_in(region))
        return "not offered in " + region + ": the catalog's price snapshot lists no " + instance.name + " there (offered in " +
               join(instance.offered_regions(), ", ") + ")";
    const std::string why = instance.null_price_reason(region, option);
    return !why.empty() ? why : "no " + std::string(to_string(option)) + " price for " + instance.name + " in " + region + " in the catalog";
}

Figure median_spot_discount(const Catalog& catalog, const std::string& region) {
    std::vector<double> discounts;
    for (const auto& i : catalog.instances) {
        const Price* od = i.find_price(region, PriceKind::on_demand);
        const Price* spot = i.find_price(region, PriceKind::spot_typical);
        if (od && spot && od->usd_per_hour && spot->usd_per_hour) discounts.push_back(1.0 - *spot->usd_per_hour / *od->usd_per_hour);
    }
    Figure f;
    f.name = "median_spot_discount";
    f.unit = "fraction";
    f.formula = "median over catalog types of (1 - spot_typical / on_demand) in " + region;
    if (discounts.empty()) {
        f.unknown_reason = "the catalog has no type with both spot and on-demand prices in " + region;
        return f;
    }
    std::sort(discounts.begin(), discounts.end());
    const std::size_t n = discounts.size();
    const double median = n % 2 ? discounts[n / 2] : 0.5 * (discounts[n / 2 - 1] + discounts[n / 2]);
    f.value = median;
    f.worked = "median of " + std::to_string(n) + " types = " + format_number(median);
    return f;
}

// Paying upfront buys a lower effective rate, and in AWS's price list by a nearly fixed ratio
// to the no-upfront rate of the same commitment: these are the medians over every GPU type and
// region in the instances.vantage.sh-derived dataset (tsaol/aws-gpu data/gpu_instances_raw.json
// at 2d0108c, 2025-11-30, 785-807 pairs each, 10th to 90th percentile within 0.0002 of the
// median; scripts/payment_multipliers.py recomputes them). EC2 Instance Savings Plans take the
// Standard Reserved ratios, Compute Savings Plans the Convertible ones: each plan is sold at the
// discounts of the reservation it replaces ("up to 72%" and "up to 66%", AWS's Savings Plans page).
Param payment_multiplier(PurchaseKind kind, Term term, Payment payment) {
    const bool one_year = term == Term::one_year, partial = payment == Payment::partial_upfront;
    const bool convertible = kind == PurchaseKind::compute_savings_plan;
    const double m = one_year ? (partial ? 0.9524 : 0.9333) : partial ? 0.9259 : convertible ? 0.9074 : 0.8704;
    return {m, InputOrigin::assumption,
            std::string("assumed: ") + (partial ? "partial" : "all") + " upfront at the median ratio to the no-upfront rate of " +
                (convertible ? "Convertible" : "Standard") + (one_year ? " 1-year" : " 3-year") +
                " Reserved Instances for GPU types in AWS's price list (instances.vantage.sh via tsaol/aws-gpu at 2d0108c, 2025-11-30; "
                "docs/pricing.md)"};
}

namespace {

struct Context {
    const Instance& instance;
    const QuoteRequest& request;
    // Unknown for a type AWS sells without an on-demand price (p5e.48xlarge: Capacity Blocks
    // only); then the options priced off it are unknown too and the listed ones still stand.
    std::optional<Param> on_demand;
    std::string on_demand_unknown;  // why, when on_demand is unknown
};

// Why an option priced as a discount off on-demand is unknown here: `first` (what is missing
// besides), then the on-demand price's own reason. One wording for spot, Capacity Blocks and
// commitments.
std::string no_on_demand_reason(const Context& ctx, const std::string& first) {
    return "unknown: " + first + ", and no on-demand price to take a discount off (" + ctx.on_demand_unknown + ")";
}

// Fills cost and saving from the effective hourly price.
void finish_quote(Quote& q, const Context& ctx) {
    const double eff = *q.effective_usd_per_hour.value;
    const FigureInput in_eff = q.effective_usd_per_hour.as_input();
    const FigureInput in_hours = input("hours", "h", {ctx.request.hours, InputOrigin::user, ""});
    const FigureInput in_count = input("instances", "", {ctx.request.count, InputOrigin::user, ""});
    const double used = eff * ctx.request.hours * ctx.request.count;
    q.cost_usd = make_figure("cost_usd", used, "USD", "effective_usd_per_hour x hours x instances",
                       format_number(eff) + " x " + format_number(ctx.request.hours) + " x " + format_number(ctx.request.count) +
                           " = " + format_number(used),
                       {in_eff, in_hours, in_count});
    if (is_commitment(q.option.kind) && q.option.term) {
        // AWS bills a Reserved Instance or Savings Plan for every hour of its term, used or not
        // (EC2 User Guide, "Reserved Instances": "you pay for the entire term"); usage longer
        // than one term needs the commitment renewed.
        const double term = term_hours(*q.option.term);
        const double terms = std::max(1.0, std::ceil(ctx.request.hours / term - 1e-9));
        const FigureInput in_term = input("term_hours", "h", {term, InputOrigin::derived, "AWS term: 8760 h a year"});
        const FigureInput in_terms = input("terms", "", {terms, InputOrigin::derived, "ceil(hours / term_hours), at least 1"});
        q.attributable_cost_usd = q.cost_usd;
        q.attributable_cost_usd->name = "attributable_cost_usd";
        q.attributable_cost_usd->formula += ", if other work uses the rest of the term";
        const double billed = eff * term * terms * ctx.request.count;
        q.cost_usd = make_figure("cost_usd", billed, "USD", "effective_usd_per_hour x term_hours x terms x instances",
                           format_number(eff) + " x " + format_number(term) + " x " + format_number(terms) + " x " +
                               format_number(ctx.request.count) + " = " + format_number(billed),
                           {in_eff, in_term, in_terms, in_count});
        const double filled = ctx.request.hours / (term * terms);
        q.term_utilization = make_figure("term_utilization", filled, "fraction of term hours", "hours / (term_hours x terms)",
                                   format_number(ctx.request.hours) + " / (" + format_number(term) + " x " + format_number(terms) +
                                       ") = " + format_number(filled),
                                   {in_hours, in_term, in_terms});
    }
    if (!ctx.on_demand) {
        const std::string why = "on-demand price unknown: " + ctx.on_demand_unknown;
        q.saving_vs_on_demand = unknown_figure("saving_vs_on_demand", "fraction", "1 - effective_usd_per_hour / on_demand_usd_per_hour", why);
        if (is_commitment(q.option.kind))
            q.break_even_utilization = unknown_figure("break_even_utilization", "fraction of term hours", "effective_usd_per_hour / on_demand_usd_per_hour", why);
        return;
    }
    const double od = ctx.on_demand->value;
    const FigureInput in_od = input("on_demand_usd_per_hour", "USD/h", *ctx.on_demand);
    const double saving = 1.0 - eff / od;
    q.saving_vs_on_demand = make_figure("saving_vs_on_demand", saving, "fraction", "1 - effective_usd_per_hour / on_demand_usd_per_hour",
                                  "1 - " + format_number(eff) + " / " + format_number(od) + " = " + format_number(saving),
                                  {in_eff, in_od});
    if (is_commitment(q.option.kind)) {
        // A commitment is billed for every hour of the term; used a fraction u of the hours,
        // each used hour costs eff / u, which equals on-demand at u = eff / od.
        const double u = eff / od;
        q.break_even_utilization = make_figure("break_even_utilization", u, "fraction of term hours",
                                         "effective_usd_per_hour / on_demand_usd_per_hour",
                                         format_number(eff) + " / " + format_number(od) + " = " + format_number(u), {in_eff, in_od});
    }
}

Quote flat_quote(const Context& ctx, std::string label, PurchaseKind kind, const Param& price, std::string formula, std::string worked,
                 std::vector<FigureInput> inputs) {
    Quote q;
    q.option = {kind, std::nullopt, std::nullopt};
    q.key = key(q.option);
    q.label = std::move(label);
    q.effective_usd_per_hour = make_figure("effective_usd_per_hour", price.value, "USD/h", std::move(formula), std::move(worked), std::move(inputs));
    q.upfront_usd = make_figure("upfront_usd", 0, "USD", "no upfront payment", "0", {});
    q.recurring_usd_per_hour = q.effective_usd_per_hour;
    q.recurring_usd_per_hour.name = "recurring_usd_per_hour";
    finish_quote(q, ctx);
    return q;
}

std::string commitment_label(const char* prefix, Term term, Payment payment) {
    return std::string(prefix) + (term == Term::one_year ? " 1-year, " : " 3-year, ") +
           (payment == Payment::no_upfront ? "no upfront" : payment == Payment::partial_upfront ? "partial upfront" : "all upfront");
}

// Reserved instances and Savings Plans: one discount off on-demand, then (for partial and all
// upfront) the payment's multiplier, paid per `payment`.
Quote commitment_quote(const Context& ctx, PurchaseKind kind, const char* label_prefix, Term term, Payment payment,
                       const Param& discount, const std::optional<Param>& multiplier) {
    const PricingAssumptions& a = ctx.request.assumptions;
    const double od = ctx.on_demand->value;
    const double m = multiplier ? multiplier->value : 1.0;
    const double eff = od * (1.0 - discount.value) * m;
    const double hours = term_hours(term);
    const double share = payment == Payment::all_upfront ? 1.0 : payment == Payment::partial_upfront ? a.partial_upfront_share.value : 0.0;
    std::vector<FigureInput> rate_inputs = {input("on_demand_usd_per_hour", "USD/h", *ctx.on_demand), input("discount", "fraction", discount)};
    if (multiplier) rate_inputs.push_back(input("payment_multiplier", "ratio to the no-upfront rate", *multiplier));
    const FigureInput in_term = input("term_hours", "h", {hours, InputOrigin::derived, "AWS term: 8760 h a year"});

    Quote q;
    q.option = {kind, term, payment};
    q.key = key(q.option);
    q.label = commitment_label(label_prefix, term, payment);
    q.effective_usd_per_hour =
        multiplier ? make_figure("effective_usd_per_hour", eff, "USD/h", "on_demand_usd_per_hour x (1 - discount) x payment_multiplier",
                                 format_number(od) + " x (1 - " + format_number(discount.value) + ") x " + format_number(m) + " = " + format_number(eff),
                                 rate_inputs)
                   : make_figure("effective_usd_per_hour", eff, "USD/h", "on_demand_usd_per_hour x (1 - discount)",
                                 format_number(od) + " x (1 - " + format_number(discount.value) + ") = " + format_number(eff), rate_inputs);
    const double upfront = eff * hours * share;
    std::vector<FigureInput> upfront_inputs = {q.effective_usd_per_hour.as_input(), in_term};
    if (payment == Payment::partial_upfront) upfront_inputs.push_back(input("partial_upfront_share", "fraction", a.partial_upfront_share));
    q.upfront_usd = make_figure("upfront_usd", upfront, "USD", "effective_usd_per_hour x term_hours x upfront_share",
                          format_number(eff) + " x " + format_number(hours) + " x " + format_number(share) + " = " + format_number(upfront),
                          upfront_inputs);
    const double recurring = eff * (1.0 - share);
    q.recurring_usd_per_hour = make_figure("recurring_usd_per_hour", recurring, "USD/h", "effective_usd_per_hour x (1 - upfront_share)",
                                     format_number(eff) + " x (1 - " + format_number(share) + ") = " + format_number(recurring),
                                     upfront_inputs);
    finish_quote(q, ctx);
    return q;
}

// A commitment with its real price in the catalog (a price overlay): upfront and hourly as AWS
// lists them, so the effective rate is the recurring price plus the upfront spread over the term.
Quote listed_commitment_quote(const Catalog& catalog, const Context& ctx, const char* label_prefix, const CommitmentPrice& listed) {
    const Term term = *listed.option.term;
    const double hours = term_hours(term);
    const std::string cite = "catalog " + ctx.instance.name + " " + listed.region + " " + key(listed.option) + ", source " + listed.source +
                             ", as of " + listed.as_of +
                             stale_price_note(catalog, listed.as_of);
    const Param upfront{listed.upfront_usd, InputOrigin::catalog, cite};
    const Param recurring{listed.usd_per_hour, InputOrigin::catalog, cite};
    const FigureInput in_term = input("term_hours", "h", {hours, InputOrigin::derived, "AWS term: 8760 h a year"});
    const FigureInput in_up = input("upfront_usd", "USD", upfront), in_rec = input("recurring_usd_per_hour", "USD/h", recurring);

    Quote q;
    q.option = listed.option;
    q.key = key(q.option);
    q.status = OptionStatus::listed;
    q.status_source = listed.source + ", as of " + listed.as_of;
    q.label = commitment_label(label_prefix, term, *listed.option.payment);
    const double eff = listed.effective_usd_per_hour();
    q.effective_usd_per_hour = make_figure("effective_usd_per_hour", eff, "USD/h", "recurring_usd_per_hour + upfront_usd / term_hours",
                                     format_number(listed.usd_per_hour) + " + " + format_number(listed.upfront_usd) + " / " +
                                         format_number(hours) + " = " + format_number(eff),
                                     {in_rec, in_up, in_term});
    q.upfront_usd = make_figure("upfront_usd", listed.upfront_usd, "USD", "listed upfront price", format_number(listed.upfront_usd), {in_up});
    q.recurring_usd_per_hour =
        make_figure("recurring_usd_per_hour", listed.usd_per_hour, "USD/h", "listed hourly price", format_number(listed.usd_per_hour), {in_rec});
    finish_quote(q, ctx);
    return q;
}

Quote unavailable_quote(PurchaseOption option, std::string label, std::string reason) {
    Quote q;
    q.option = option;
    q.key = key(q.option);
    q.label = std::move(label);
    q.available = false;
    q.unavailable_reason = std::move(reason);
    return q;
}

Quote unavailable_spot(std::string reason) {
    const bool not_applicable = reason.rfind("n/a", 0) == 0;
    Quote q = unavailable_quote({PurchaseKind::spot, std::nullopt, std::nullopt}, "Spot", std::move(reason));
    if (not_applicable) q.status = OptionStatus::not_offered;
    return q;
}

// An option a source shows AWS does not sell for this type and region: shown, never priced.
Quote not_offered_quote(PurchaseOption option, std::string label, const OptionNotOffered& absent) {
    Quote q = unavailable_quote(option, std::move(label), "not offered: " + absent.note + " (source " + absent.source + ", as of " + absent.as_of + ")");
    q.status = OptionStatus::not_offered;
    q.status_source = absent.source + ", as of " + absent.as_of;
    return q;
}

// A Capacity Block at its published price per instance-hour (the block's hours are paid when
// it is booked; docs/pricing.md "Capacity Blocks").
Quote listed_block_quote(const Catalog& catalog, const Context& ctx, const CapacityBlockPrice& listed) {
    const Param price{listed.usd_per_hour, InputOrigin::catalog,
                      "catalog " + ctx.instance.name + " " + listed.region + " capacity-block, source " + listed.source + ", as of " + listed.as_of +
                          stale_price_note(catalog, listed.as_of)};
    Quote q = flat_quote(ctx, "Capacity Block", PurchaseKind::capacity_block, price, "listed Capacity Block price", format_number(price.value),
                         {input("capacity_block_usd_per_hour", "USD/h", price)});
    q.status = OptionStatus::listed;
    q.status_source = listed.source + ", as of " + listed.as_of;
    return q;
}

// Spot: the catalog's typical price; else a discount (the user's, or the catalog median in the
// region); else unknown. Then the price per useful hour after checkpoint rework.
Quote spot_quote(const Catalog& catalog, const Context& ctx) {
    const Instance& instance = ctx.instance;
    const QuoteRequest& request = ctx.request;
    const std::string no_spot = instance.null_price_reason(request.region, PriceKind::spot_typical);  // "" unless null
    if (no_spot.rfind("n/a", 0) == 0) return unavailable_spot(no_spot);

    Quote q;
    if (const auto spot = catalog_price(catalog, instance, request.region, PriceKind::spot_typical)) {
        q = flat_quote(ctx, "Spot (typical)", PurchaseKind::spot, *spot, "catalog typical spot price", format_number(spot->value),
                       {input("spot_usd_per_hour", "USD/h", *spot)});
        const Price* p = instance.find_price(request.region, PriceKind::spot_typical);
        q.status = OptionStatus::listed;
        q.status_source = p->source + ", as of " + p->as_of;
    } else {
        const std::string why = "no catalog spot price for this type" + (no_spot.empty() ? "" : " (" + no_spot + ")");
        if (!ctx.on_demand) return unavailable_spot(no_on_demand_reason(ctx, why));
        const Param& od = *ctx.on_demand;
        Param d;
        if (request.assumptions.spot_discount) {
            d = *request.assumptions.spot_discount;
        } else {
            const Figure median = median_spot_discount(catalog, request.region);
            // Nothing to take a median from: unknown, never silently priced as on-demand.
            if (!median.value) return unavailable_spot("unknown: " + why + ", and " + median.unknown_reason + "; give a spot discount to estimate it");
            d = {*median.value, InputOrigin::assumption, why + "; default = catalog median spot discount in " + request.region + ", " + median.worked};
        }
        const double price = od.value * (1.0 - d.value);
        q = flat_quote(ctx, "Spot (estimated)", PurchaseKind::spot, {price, d.origin, d.source}, "on_demand_usd_per_hour x (1 - spot_discount)",
                       format_number(od.value) + " x (1 - " + format_number(d.value) + ") = " + format_number(price),
                       {input("on_demand_usd_per_hour", "USD/h", od), input("spot_discount", "fraction", d)});
    }
    const CheckpointPlan plan = plan_checkpoints(request.spot_risk);
    const double eff = *q.effective_usd_per_hour.value;
    const double per_useful = eff * (1.0 + *plan.overhead_fraction.value);
    q.spot_effective_usd_per_useful_hour =
        make_figure("spot_usd_per_useful_hour", per_useful, "USD/h", "spot_usd_per_hour x (1 + rework_overhead_fraction)",
              format_number(eff) + " x (1 + " + format_number(*plan.overhead_fraction.value) + ") = " + format_number(per_useful),
              {q.effective_usd_per_hour.as_input(), plan.overhead_fraction.as_input(plan.overhead_fraction.worked)});
    q.spot_checkpoint_interval_hours = plan.interval_hours;
    q.spot_rework_overhead_fraction = plan.overhead_fraction;
    return q;
}

// The no-upfront discount an assumed commitment starts from: the listed no-upfront rate of the
// same kind and term where the catalog has one (g6e.xlarge's shipped 1-year Reserved rate), else
// the default.
Param no_upfront_discount(const Instance& instance, const Context& ctx, const PurchaseOption& option, const Param& discount) {
    if (option.payment == Payment::no_upfront) return discount;
    const CommitmentPrice* none = instance.find_commitment_price(ctx.request.region, {option.kind, option.term, Payment::no_upfront});
    if (!none) return discount;
    const double od = ctx.on_demand->value;
    return {1.0 - none->effective_usd_per_hour() / od, InputOrigin::derived,
            "the listed no-upfront discount 1 - " + format_number(none->effective_usd_per_hour()) + " / " + format_number(od) + " (source " +
                none->source + ", as of " + none->as_of + ")"};
}

// Capacity Block: its published price; else not offered where AWS's list shows none; else the
// assumed discount off on-demand. A discount the user gave wins, as for commitments.
Quote capacity_block_quote(const Catalog& catalog, const Context& ctx) {
    const Param& d = ctx.request.assumptions.capacity_block_discount;
    const PurchaseOption option{PurchaseKind::capacity_block, std::nullopt, std::nullopt};
    if (d.origin != InputOrigin::user) {
        if (const CapacityBlockPrice* listed = ctx.instance.find_capacity_block_price(ctx.request.region))
            return listed_block_quote(catalog, ctx, *listed);
        if (const OptionNotOffered* absent = ctx.instance.option_not_offered(ctx.request.region, PurchaseKind::capacity_block))
            return not_offered_quote(option, "Capacity Block", *absent);
    }
    if (!ctx.on_demand)
        return unavailable_quote(option, "Capacity Block", no_on_demand_reason(ctx, "no listed Capacity Block price here"));
    const Param& od = *ctx.on_demand;
    const double cb = od.value * (1.0 - d.value);
    return flat_quote(ctx, "Capacity Block", PurchaseKind::capacity_block, {cb, d.origin, d.source},
                      "on_demand_usd_per_hour x (1 - capacity_block_discount)",
                      format_number(od.value) + " x (1 - " + format_number(d.value) + ") = " + format_number(cb),
                      {input("on_demand_usd_per_hour", "USD/h", od), input("capacity_block_discount", "fraction", d)});
}

// Unit costs use the price of the whole fleet of `instances` per hour; a training run is
// priced per instance-hour times the instances (unit_cost.hpp).
std::vector<Figure> unit_costs_at(const Quote& q, const UnitCostOptions& units, double instances) {
    const Param fleet_hourly{*q.effective_usd_per_hour.value * instances, InputOrigin::derived,
                             "effective_usd_per_hour x " + format_number(instances) + " instances"};
    std::vector<Figure> figures;
    if (units.tokens_per_second) figures.push_back(usd_per_million_tokens(fleet_hourly, user_given(*units.tokens_per_second)));
    if (units.real_time_factor) figures.push_back(usd_per_video_hour(fleet_hourly, user_given(*units.real_time_factor)));
    if (units.training_hours)
        figures.push_back(training_run_usd({*q.effective_usd_per_hour.value, InputOrigin::derived, "effective_usd_per_hour"},
                                           user_given(*units.training_hours), user_given(instances)));
    return figures;
}

// One instance for a month at an hourly rate: people budget by the month (issue 30), and AWS's
// price pages use 730 hours for one.
Figure usd_per_month(const Figure& per_hour) {
    if (!per_hour.value) return unknown_figure("effective_usd_per_month", "USD/month", "effective_usd_per_hour x 730", per_hour.unknown_reason);
    const double v = *per_hour.value * kHoursPerMonth;
    return {.name = "effective_usd_per_month", .value = v, .unit = "USD/month", .formula = "effective_usd_per_hour x 730 (hours in AWS's pricing month)",
            .worked = format_number(*per_hour.value) + " x 730 = " + format_number(v), .inputs = {per_hour.as_input()}};
}

}  // namespace

std::vector<Quote> quote_purchase_options(const Catalog& catalog, const QuoteRequest& request) {
    const Instance* instance = catalog.find_instance(request.instance);
    if (!instance) throw InputError("instance", "\"" + request.instance + "\"", "an instance type in the catalog (see `gpuplan catalog`)");
    require_region(catalog, request.region, "region", "\"" + request.region + "\"");
    if (!instance->offered_in(request.region))
        throw InputError("instance", "\"" + request.instance + "\" in " + request.region,
                         "a type offered in " + request.region + " (the catalog's price snapshot lists " + request.instance + " in " +
                             join(instance->offered_regions(), ", ") + ")");
    const auto od = catalog_price(catalog, *instance, request.region, PriceKind::on_demand);
    const Context ctx{*instance, request, od, od ? "" : price_unknown_reason(*instance, request.region, PriceKind::on_demand)};
    const PricingAssumptions& a = request.assumptions;
    std::vector<Quote> quotes;
    if (od) {
        quotes.push_back(flat_quote(ctx, "On-demand", PurchaseKind::on_demand, *od, "catalog on-demand price", format_number(od->value),
                                    {input("on_demand_usd_per_hour", "USD/h", *od)}));
        const Price* od_price = instance->find_price(request.region, PriceKind::on_demand);
        quotes.back().status = OptionStatus::listed;
        quotes.back().status_source = od_price->source + ", as of " + od_price->as_of;
    } else {
        quotes.push_back(unavailable_quote({PurchaseKind::on_demand, std::nullopt, std::nullopt}, "On-demand", "unknown: " + ctx.on_demand_unknown));
    }
    // Each commitment at its listed price when the catalog has one (a price overlay), else at
    // the assumed discount off on-demand.
    struct Commitment {
        PurchaseKind kind;
        const char* label;
        const Param* discount;  // [1y, 3y]
    };
    const Commitment commitments[] = {{PurchaseKind::reserved, "Reserved", a.reserved_discount},
                                      {PurchaseKind::instance_savings_plan, "EC2 Instance Savings Plan", a.instance_savings_plan_discount},
                                      {PurchaseKind::compute_savings_plan, "Compute Savings Plan", a.compute_savings_plan_discount}};
    // A discount the user gave is their quote: it wins over a listed price and a record of absence.
    for (Term term : {Term::one_year, Term::three_year})
        for (const Commitment& c : commitments)
            for (Payment pay : {Payment::no_upfront, Payment::partial_upfront, Payment::all_upfront}) {
                const Param& discount = c.discount[term == Term::one_year ? 0 : 1];
                const bool users = discount.origin == InputOrigin::user;
                const CommitmentPrice* listed = users ? nullptr : instance->find_commitment_price(request.region, {c.kind, term, pay});
                const OptionNotOffered* absent = users || listed ? nullptr : instance->option_not_offered(request.region, c.kind);
                if (listed)
                    quotes.push_back(listed_commitment_quote(catalog, ctx, c.label, *listed));
                else if (absent)
                    quotes.push_back(not_offered_quote({c.kind, term, pay}, commitment_label(c.label, term, pay), *absent));
                else if (!od)
                    quotes.push_back(unavailable_quote({c.kind, term, pay}, commitment_label(c.label, term, pay),
                                                       no_on_demand_reason(ctx, "no listed price here")));
                else if (users || pay == Payment::no_upfront)  // the user's discount is their quote for every payment
                    quotes.push_back(commitment_quote(ctx, c.kind, c.label, term, pay, discount, std::nullopt));
                else
                    quotes.push_back(commitment_quote(ctx, c.kind, c.label, term, pay, no_upfront_discount(*instance, ctx, {c.kind, term, pay}, discount),
                                                      payment_multiplier(c.kind, term, pay)));
            }

    quotes.push_back(spot_quote(catalog, ctx));
    quotes.push_back(capacity_block_quote(catalog, ctx));
    for (Quote& quote : quotes) {
        if (!quote.available) continue;
        quote.effective_usd_per_month = usd_per_month(quote.effective_usd_per_hour);
        quote.unit_costs = unit_costs_at(quote, request.unit_costs, request.count);
    }
    return quotes;
}

double cumulative_cost_usd(const PurchaseOption& option, double upfront_usd, double recurring_usd_per_hour, double used_hours_per_month,
                           double months, double instances) {
    if (!is_commitment(option.kind) || !option.term) return instances * recurring_usd_per_hour * used_hours_per_month * months;
    const double elapsed_hours = kHoursPerMonth * months;
    // Terms started by now: the first at month 0, then a renewal whenever use goes on past the
    // end of a term (so 12 months of use is one 1-year term, 12.1 months two).
    const double terms_started = std::max(1.0, std::ceil(elapsed_hours / term_hours(*option.term) - 1e-9));
    return instances * (upfront_usd * terms_started + recurring_usd_per_hour * elapsed_hours);
}

std::string_view to_string(OptionStatus status) {
    switch (status) {
        case OptionStatus::listed: return "listed";
        case OptionStatus::not_offered: return "not-offered";
        case OptionStatus::assumed: break;
    }
    return "assumed";
}

nlohmann::json to_json(const Quote& q) {
    nlohmann::json j = {{"key", q.key}, {"label", q.label}, {"status", to_string(q.status)}, {"available", q.available}};
    if (!q.status_source.empty()) j["status_source"] = q.status_source;
    if (!q.available) {
        j["unavailable_reason"] = q.unavailable_reason;
        return j;
    }
    std::vector<Figure> figures = {q.effective_usd_per_hour, q.effective_usd_per_month, q.upfront_usd, q.recurring_usd_per_hour, q.cost_usd,
                                   q.saving_vs_on_demand};
    for (const std::optional<Figure>* f : {&q.break_even_utilization, &q.attributable_cost_usd, &q.term_utilization, &q.spot_effective_usd_per_useful_hour,
                                             &q.spot_checkpoint_interval_hours, &q.spot_rework_overhead_fraction})
        if (*f) figures.push_back(**f);
    figures.insert(figures.end(), q.unit_costs.begin(), q.unit_costs.end());
    j["figures"] = to_json(figures);
    return j;
}

}  // namespace gpuplan
