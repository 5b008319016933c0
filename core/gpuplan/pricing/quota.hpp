// quota.hpp — the vCPU quota a plan needs before it can launch: AWS counts running instances'
// vCPUs per account, per region and per quota class ("Running On-Demand P instances"; spot
// has its own classes), and a new account's default for every accelerator class is 0 vCPUs.
//
// Facts (docs/pricing.md "Quotas"): the classes, their Service Quotas codes and defaults are
// the EC2 User Guide's "On-Demand Instance quotas" and "Spot Instance quotas" tables and the
// Instance Types guide's "Amazon EC2 instance type quotas" (which splits P spot into P2/P3/P4
// and P5); "quotas are managed in terms of the number of vCPUs that your running On-Demand
// Instances are using, regardless of the instance type". AWS raises quotas with usage, so an
// account's applied value may be higher: `--quota CLASS=N` gives it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/explain.hpp"

namespace gpuplan {

enum class QuotaClass { standard, p, g_and_vt, inf, trn, dl, f, x, hpc, high_memory };

struct QuotaFacts {
    QuotaClass quota_class;
    std::string spelling;             // as --quota takes it: "p", "g", "inf", ...
    std::string on_demand_name, on_demand_code;
    double default_vcpus = 0;         // a new account's, on demand and spot alike
};

// The class an instance's family falls in (its letters: p5en is P, gr6 is G, trn2 is Trn).
const QuotaFacts& quota_facts_for(const Instance& instance);

// The account's own quotas, by class spelling (on demand: "p"; spot: "p-spot"), as --quota gives them.
using AccountQuotas = std::map<std::string, double>;
// "p=384" or "g-spot=64"; InputError naming `field` for an unknown class or a bad number.
std::pair<std::string, double> parse_quota(const std::string& text, const std::string& field);

struct QuotaLine {
    std::string quota_name, quota_code;  // the spot class where the plan buys spot ("" when not documented)
    std::string quota_key;               // the --quota spelling of that class
    Figure vcpus_needed;                 // instances x vCPUs per instance
    double quota_vcpus = 0;              // the account's (given) or AWS's default for a new account
    bool quota_given = false;
    double increase_vcpus = 0;           // what to request (0: covered)
    std::string words;                   // the line every plan shows
};

// The quota `instances` of `instance` need when bought as `purchase` (spot or anything else,
// which counts against the on-demand class: reserved instances and savings plans included).
QuotaLine quota_line(const Instance& instance, double instances, PriceKind purchase, const AccountQuotas& account);

nlohmann::json to_json(const QuotaLine& line);

}  // namespace gpuplan
