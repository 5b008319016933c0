// purchase_option.cpp — keys and names of the ways to buy (purchase_option.hpp).
#include "gpuplan/pricing/purchase_option.hpp"

namespace gpuplan {

double term_hours(Term term) { return term == Term::one_year ? kHoursPerYear : 3 * kHoursPerYear; }

std::string_view to_string(Term term) { return term == Term::one_year ? "1y" : "3y"; }

std::string_view to_string(Payment payment) {
    switch (payment) {
    case Payment::no_upfront: return "no-upfront";
    case Payment::partial_upfront: return "partial-upfront";
    case Payment::all_upfront: return "all-upfront";
    }
    return "?";
}

std::string_view to_string(PurchaseKind kind) {
    switch (kind) {
    case PurchaseKind::on_demand: return "on-demand";
    case PurchaseKind::reserved: return "reserved";
    case PurchaseKind::instance_savings_plan: return "instance-savings-plan";
    case PurchaseKind::compute_savings_plan: return "compute-savings-plan";
    case PurchaseKind::spot: return "spot";
    case PurchaseKind::capacity_block: return "capacity-block";
    }
    return "?";
}

bool is_commitment(PurchaseKind kind) {
    return kind == PurchaseKind::reserved || kind == PurchaseKind::instance_savings_plan || kind == PurchaseKind::compute_savings_plan;
}

std::string key(const PurchaseOption& o) {
    std::string k(to_string(o.kind));
    if (o.term) k += "-" + std::string(to_string(*o.term));
    if (o.payment) k += "-" + std::string(to_string(*o.payment));
    return k;
}

std::optional<PurchaseOption> purchase_option_named(std::string_view text) {
    constexpr PurchaseKind kinds[] = {PurchaseKind::on_demand, PurchaseKind::reserved, PurchaseKind::instance_savings_plan,
                                      PurchaseKind::compute_savings_plan, PurchaseKind::spot, PurchaseKind::capacity_block};
    constexpr Payment payments[] = {Payment::no_upfront, Payment::partial_upfront, Payment::all_upfront};
    // Every key there is: a few dozen, so comparing with each is simpler than parsing.
    for (PurchaseKind kind : kinds) {
        if (!is_commitment(kind)) {
            if (text == to_string(kind)) return PurchaseOption{kind, std::nullopt, std::nullopt};
            continue;
        }
        for (Term term : {Term::one_year, Term::three_year}) {
            const PurchaseOption any{kind, term, std::nullopt};
            if (text == key(any)) return any;
            for (Payment payment : payments)
                if (const PurchaseOption o{kind, term, payment}; text == key(o)) return o;
        }
    }
    return std::nullopt;
}

std::string purchase_option_keys() {
    return "on-demand, spot, capacity-block, or a commitment: reserved, instance-savings-plan or compute-savings-plan, then -1y or -3y, "
           "optionally -no-upfront, -partial-upfront or -all-upfront (e.g. reserved-3y, compute-savings-plan-1y-all-upfront)";
}

std::string purchase_option_words(const PurchaseOption& o) {
    std::string words;
    switch (o.kind) {
    case PurchaseKind::on_demand: return "on-demand";
    case PurchaseKind::spot: return "spot";
    case PurchaseKind::capacity_block: return "Capacity Block";
    case PurchaseKind::reserved: words = "reserved"; break;
    case PurchaseKind::instance_savings_plan: words = "EC2 Instance Savings Plan"; break;
    case PurchaseKind::compute_savings_plan: words = "Compute Savings Plan"; break;
    }
    if (o.term) words += *o.term == Term::one_year ? " 1-year" : " 3-year";
    if (o.payment)
        words += *o.payment == Payment::no_upfront ? ", no upfront" : *o.payment == Payment::partial_upfront ? ", partial upfront" : ", all upfront";
    return words;
}

}  // namespace gpuplan
