// names.cpp — see names.hpp.
#include "ui/names.hpp"

#include <cctype>
#include <utility>

#include "gpuplan/catalog/catalog.hpp"

namespace gpuplan::ui {

namespace {

// Keys whose words are not their parts read aloud.
constexpr std::pair<std::string_view, std::string_view> kNames[] = {
    {"usd_per_hour", "$/h"},
    {"usd_per_million_tokens", "$ per 1M tokens at your rate"},  // the throughput given, not full load
    {"usd_per_billion_tokens", "$ per 1B tokens at your rate"},
    {"seconds_per_token", "seconds per token"},
    {"ms_per_token", "ms per token"},
    {"tokens_per_second", "tokens/s"},
    {"tokens_per_second_per_gpu", "tokens/s per GPU"},
    {"tokens_per_second_compute_ceiling", "tokens/s compute ceiling"},
    {"time_to_first_token_seconds", "time to first token (s)"},
    {"mfu", "model FLOPs utilisation"},
    {"cost_usd", "cost ($)"},
    {"total_usd", "total ($)"},
    {"total_hours", "total hours"},
    {"step_seconds", "step time (s)"},
    {"compute_seconds", "compute per step (s)"},
    {"effective_usd_per_hour", "effective $/h"},
    {"on_demand_usd_per_hour", "on-demand $/h"},
    {"upfront_usd", "upfront ($)"},
    {"recurring_usd_per_hour", "recurring $/h"},
    {"usd_per_accelerator_hour", "$ per GPU-hour"},
    {"usd_per_dense_bf16_pflop_hour", "$ per dense BF16 PFLOP-hour"},
    {"usd_per_tb_per_s_hour", "$ per TB/s-hour of memory bandwidth"},
    {"algorithm_bandwidth_gb_per_s", "algorithm bandwidth (GB/s)"},
    {"bus_bandwidth_gb_per_s", "bus bandwidth (GB/s)"},
    {"bytes_per_step", "bytes per step"},
    {"max_batch", "largest batch that fits"},
    {"data_parallel", "data-parallel size"},
    {"tensor_parallel", "tensor-parallel size"},
    {"pipeline_parallel", "pipeline-parallel size"},
    {"expert_parallel", "expert-parallel size"},
    // The core's ParallelLayout fields, as its errors name them ("layout.data: got ...").
    {"data", "data-parallel size"},
    {"tensor", "tensor-parallel size"},
    {"pipeline", "pipeline-parallel size"},
    {"expert", "expert-parallel size"},
    {"zero_stage", "ZeRO stage"},
    {"gpus_per_node", "GPUs per node"},
    {"kv_precision", "KV cache precision"},
    {"tp", "tensor parallel"},
};

// Unit suffixes, longest first: "_usd_per_hour" before "_hour".
constexpr std::pair<std::string_view, std::string_view> kUnitSuffixes[] = {
    {"_usd_per_hour", "$/h"}, {"_gb_per_s", "GB/s"}, {"_usd", "$"},     {"_hours", "hours"}, {"_seconds", "s"},
    {"_gib", "GiB"},         {"_gb", "GB"},         {"_percent", "%"}, {"_ms", "ms"},
};

std::string spaced(std::string_view key) {
    std::string words(key);
    for (char& c : words)
        if (c == '_') c = ' ';
    // "usd" on its own reads as "$"
    for (std::size_t at = words.find("usd"); at != std::string::npos; at = words.find("usd", at + 1)) {
        const bool start = at == 0 || words[at - 1] == ' ', end = at + 3 == words.size() || words[at + 3] == ' ';
        if (start && end) words.replace(at, 3, "$");
    }
    return words;
}

}  // namespace

std::string human_name(std::string_view key) {
    if (const auto kind = price_kind_named(key)) return std::string(price_kind_words(*kind));
    for (const auto& [k, words] : kNames)
        if (k == key) return std::string(words);
    for (const auto& [suffix, unit] : kUnitSuffixes)
        if (key.size() > suffix.size() && key.ends_with(suffix)) return spaced(key.substr(0, key.size() - suffix.size())) + " (" + std::string(unit) + ")";
    return spaced(key);
}

std::string human_error(std::string_view message) {
    // "<source>: <path>: <what>" or "<path>: <what>" (input_error.hpp): the leading parts made
    // of keys, dots, [n] and $ are where; the last of them names the field.
    const auto path_like = [](std::string_view part) {
        if (part.empty()) return false;
        for (char c : part)
            if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_' || c == '.' ||
                  c == '[' || c == ']' || c == '$'))
                return false;
        return true;
    };
    std::string_view rest = message, path;
    for (std::size_t colon = rest.find(": "); colon != std::string_view::npos && path_like(rest.substr(0, colon));
         colon = rest.find(": ")) {
        path = rest.substr(0, colon);
        rest = rest.substr(colon + 2);
    }
    if (path.empty()) return std::string(message);
    std::string_view last = path;
    if (const std::size_t dot = last.rfind('.'); dot != std::string_view::npos) last = last.substr(dot + 1);
    if (const std::size_t bracket = last.find('['); bracket != std::string_view::npos) last = last.substr(0, bracket);
    if (last.empty() || last == "$") return std::string(rest);
    return human_name(last) + ": " + std::string(rest);
}

std::string option_label(const PurchaseOption& o) {
    std::string text;
    switch (o.kind) {
    case PurchaseKind::on_demand: text = "On-demand"; break;
    case PurchaseKind::reserved: text = "Reserved"; break;
    case PurchaseKind::instance_savings_plan: text = "EC2 Instance Savings Plan"; break;
    case PurchaseKind::compute_savings_plan: text = "Compute Savings Plan"; break;
    case PurchaseKind::spot: text = "Spot"; break;
    case PurchaseKind::capacity_block: text = "Capacity Block"; break;
    }
    if (o.term) text += *o.term == Term::one_year ? " 1-year" : " 3-year";
    if (o.payment)
        text += *o.payment == Payment::no_upfront ? ", no upfront" : *o.payment == Payment::partial_upfront ? ", partial upfront" : ", all upfront";
    return text;
}

}  // namespace gpuplan::ui
