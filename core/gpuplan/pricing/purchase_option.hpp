// purchase_option.hpp — the one vocabulary for the ways to buy an instance-hour.
//
// A PurchaseOption is a kind (on-demand, reserved, Savings Plans, spot, Capacity Block) and,
// for commitments, a term and a payment. Its key ("on-demand", "spot", "reserved-3y",
// "compute-savings-plan-1y-partial-upfront") is the one spelling used in JSON, CLI flags,
// URLs and figure names; purchase_option_named() is the one parser. The catalog's own price
// entries (on_demand, spot_typical) are a different thing: PriceKind, catalog/catalog.hpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpuplan {

enum class Term { one_year, three_year };
enum class Payment { no_upfront, partial_upfront, all_upfront };
enum class PurchaseKind { on_demand, reserved, instance_savings_plan, compute_savings_plan, spot, capacity_block };

inline constexpr double kHoursPerYear = 8760;  // 365 x 24, AWS's term length in hours
// AWS's billing month: 8760 / 12 = 730 h (the Pricing Calculator's "730 hours in a month").
// Every default "a month of hours" in the core, CLI and views is this one constant.
inline constexpr double kHoursPerMonth = kHoursPerYear / 12;
double term_hours(Term term);
std::string_view to_string(Term term);            // "1y", "3y"
std::string_view to_string(Payment payment);      // "no-upfront", "partial-upfront", "all-upfront"
std::string_view to_string(PurchaseKind kind);    // "on-demand", "reserved", "compute-savings-plan", ...

// Reserved instances and Savings Plans: billed for every hour of their term, used or not.
bool is_commitment(PurchaseKind kind);

struct PurchaseOption {
    PurchaseKind kind = PurchaseKind::on_demand;
    std::optional<Term> term;        // commitments: the term; absent for the others
    std::optional<Payment> payment;  // commitments: absent when any payment is meant ("reserved-3y")
    bool operator==(const PurchaseOption&) const = default;
};

// "on-demand", "spot", "capacity-block", "reserved-3y", "reserved-1y-all-upfront", ...
std::string key(const PurchaseOption& option);
// The inverse of key(); nullopt for any other text (a commitment needs its term).
std::optional<PurchaseOption> purchase_option_named(std::string_view key);
// The accepted keys in words, for error messages: "on-demand, spot, capacity-block, or a
// commitment reserved|instance-savings-plan|compute-savings-plan-1y|3y[-no-upfront|...]".
std::string purchase_option_keys();
// The option in words, as tables and views name it: "on-demand", "spot", "Capacity Block",
// "reserved 1-year, no upfront", "Compute Savings Plan 3-year" (a commitment of any payment).
std::string purchase_option_words(const PurchaseOption& option);

}  // namespace gpuplan
