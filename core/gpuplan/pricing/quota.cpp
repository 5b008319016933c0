// quota.cpp — vCPU quota classes and the line each plan shows (quota.hpp).
#include "gpuplan/pricing/quota.hpp"

#include <cmath>

#include "gpuplan/input_error.hpp"
#include "gpuplan/text.hpp"

namespace gpuplan {

namespace {

// EC2 User Guide, "On-Demand Instance quotas" (Name, Default): every accelerator class 0, Standard 5.
const std::vector<QuotaFacts>& all_facts() {
    static const std::vector<QuotaFacts> facts = {
        {QuotaClass::standard, "standard", "Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) instances", "L-1216C47A", 5},
        {QuotaClass::p, "p", "Running On-Demand P instances", "L-417A185B", 0},
        {QuotaClass::g_and_vt, "g", "Running On-Demand G and VT instances", "L-DB2E81BA", 0},
        {QuotaClass::inf, "inf", "Running On-Demand Inf instances", "L-1945791B", 0},
        {QuotaClass::trn, "trn", "Running On-Demand Trn instances", "L-2C3B7624", 0},
        {QuotaClass::dl, "dl", "Running On-Demand DL instances", "L-6E869C2A", 0},
        {QuotaClass::f, "f", "Running On-Demand F instances", "L-74FC7D96", 0},
        {QuotaClass::x, "x", "Running On-Demand X instances", "L-7295265B", 0},
        {QuotaClass::hpc, "hpc", "Running On-Demand HPC instances", "L-F7808C92", 0},
        {QuotaClass::high_memory, "high-memory", "Running On-Demand High Memory instances", "L-43DA4232", 0}};
    return facts;
}

const QuotaFacts& facts_of(QuotaClass c) {
    for (const QuotaFacts& f : all_facts())
        if (f.quota_class == c) return f;
    return all_facts().front();
}

bool starts_with(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

// The spot class (EC2 User Guide, "Spot Instance quotas"; the Instance Types guide splits P
// into P2/P3/P4 and P5). Empty name: AWS documents none for this family.
std::pair<std::string, std::string> spot_class(const Instance& instance, QuotaClass c) {
    const std::string& family = instance.family;
    switch (c) {
    case QuotaClass::standard: return {"All Standard (A, C, D, H, I, M, R, T, Z) Spot Instance Requests", "L-34B43A08"};
    case QuotaClass::p:
        if (starts_with(family, "p5")) return {"All P5 Spot Instance Requests", "L-C4BD4855"};
        if (starts_with(family, "p2") || starts_with(family, "p3") || starts_with(family, "p4")) return {"All P4, P3 and P2 Spot Instance Requests", "L-7212CCBC"};
        return {"", ""};
    case QuotaClass::g_and_vt: return {"All G and VT Spot Instance Requests", "L-3819A6DF"};
    case QuotaClass::inf: return {"All Inf Spot Instance Requests", "L-B5D1601B"};
    case QuotaClass::trn: return {"All Trn Spot Instance Requests", "L-6B0D517C"};
    case QuotaClass::dl: return {"All DL Spot Instance Requests", "L-85EED4F7"};
    case QuotaClass::f: return {"All F Spot Instance Requests", "L-88CF9481"};
    case QuotaClass::x: return {"All X Spot Instance Requests", "L-E3A00192"};
    case QuotaClass::hpc:
    case QuotaClass::high_memory: return {"", ""};
    }
    return {"", ""};
}

}  // namespace

const QuotaFacts& quota_facts_for(const Instance& instance) {
    const std::string& f = instance.family;
    for (const auto& [prefix, c] : std::vector<std::pair<const char*, QuotaClass>>{
             {"inf", QuotaClass::inf}, {"trn", QuotaClass::trn}, {"dl", QuotaClass::dl}, {"hpc", QuotaClass::hpc}, {"vt", QuotaClass::g_and_vt},
             {"p", QuotaClass::p}, {"g", QuotaClass::g_and_vt}, {"f", QuotaClass::f}, {"x", QuotaClass::x}, {"u", QuotaClass::high_memory}})
        if (starts_with(f, prefix)) return facts_of(c);
    return facts_of(QuotaClass::standard);
}

std::pair<std::string, double> parse_quota(const std::string& text, const std::string& field) {
    std::string names;
    for (const QuotaFacts& f : all_facts()) names += (names.empty() ? "" : ", ") + f.spelling;
    const std::string expected = "CLASS=vCPUs with CLASS one of " + names + " (add -spot for the spot class, as g-spot=64)";
    const std::size_t eq = text.find('=');
    if (eq == std::string::npos) throw InputError(field, "'" + text + "'", expected);
    const std::string name = lower(text.substr(0, eq));
    const std::string base = name.size() > 5 && name.substr(name.size() - 5) == "-spot" ? name.substr(0, name.size() - 5) : name;
    bool known = false;
    for (const QuotaFacts& f : all_facts()) known = known || f.spelling == base;
    if (!known) throw InputError(field, "'" + text + "'", expected);
    const auto v = decimal_number(text.substr(eq + 1));
    if (!v || *v < 0 || std::floor(*v) != *v || *v > 1e9) throw InputError(field, "'" + text + "'", "a whole number of vCPUs >= 0 after '='");
    return {name, *v};
}

QuotaLine quota_line(const Instance& instance, double instances, PriceKind purchase, const AccountQuotas& account) {
    const QuotaFacts& facts = quota_facts_for(instance);
    const bool spot = purchase == PriceKind::spot_typical;
    QuotaLine line;
    line.quota_key = facts.spelling + (spot ? "-spot" : "");
    if (spot) std::tie(line.quota_name, line.quota_code) = spot_class(instance, facts.quota_class);
    else line.quota_name = facts.on_demand_name, line.quota_code = facts.on_demand_code;
    const char* formula = "instances x vCPUs per instance (quotas count running instances' vCPUs)";
    if (!instance.vcpus) {
        line.vcpus_needed = unknown_figure("quota_vcpus_needed", "vCPUs", formula, "vCPUs of " + instance.name + " unknown (" + instance.unknown_reason("vcpus") + ")");
    } else {
        const double v = instances * *instance.vcpus;
        line.vcpus_needed = {.name = "quota_vcpus_needed", .value = v, .unit = "vCPUs", .formula = formula,
                             .worked = format_number(instances) + " x " + format_number(*instance.vcpus) + " = " + format_number(v),
                             .inputs = {input("instances", "", user_given(instances)),
                                        input("vcpus", "vCPUs", Param{*instance.vcpus, InputOrigin::catalog, "catalog " + instance.name + " vcpus"})}};
    }
    const auto given = account.find(line.quota_key);
    line.quota_given = given != account.end();
    line.quota_vcpus = line.quota_given ? given->second : facts.default_vcpus;
    const std::string class_words = line.quota_name.empty() ? std::string("the spot quota class of ") + instance.family + " (not documented by AWS)"
                                                            : "\"" + line.quota_name + "\" (" + line.quota_code + ")";
    const std::string quota_words = line.quota_given ? "your quota is " + format_number(line.quota_vcpus) + " (--quota " + line.quota_key + "=)"
                                                     : "a new account's default is " + format_number(line.quota_vcpus) +
                                                           " (EC2 User Guide; AWS raises it with use: give yours with --quota " + line.quota_key + "=N)";
    if (!line.vcpus_needed.value) {
        line.words = "quota: vCPUs unknown for " + class_words + ": " + line.vcpus_needed.unknown_reason;
        return line;
    }
    const double needed = *line.vcpus_needed.value;
    line.increase_vcpus = std::max(0.0, needed - line.quota_vcpus);
    line.words = "quota: " + format_number(needed) + " vCPUs of " + class_words + " in the region; " + quota_words +
                 (line.increase_vcpus > 0 ? " — request a quota increase of " + format_number(line.increase_vcpus) + " vCPUs before launching"
                                          : " — covered");
    return line;
}

nlohmann::json to_json(const QuotaLine& line) {
    return {{"quota_name", line.quota_name.empty() ? nlohmann::json(nullptr) : nlohmann::json(line.quota_name)},
            {"quota_code", line.quota_code.empty() ? nlohmann::json(nullptr) : nlohmann::json(line.quota_code)},
            {"quota_key", line.quota_key},
            {"vcpus_needed", figure_json(line.vcpus_needed)},
            {"quota_vcpus", line.quota_vcpus},
            {"quota_given", line.quota_given},
            {"increase_vcpus", line.vcpus_needed.value ? nlohmann::json(line.increase_vcpus) : nlohmann::json(nullptr)},
            {"words", line.words}};
}

}  // namespace gpuplan
