// scenario_spellings.cpp — old spellings in a scenario rewritten to today's (scenario_spellings.hpp).
#include "gpuplan/scenario/scenario_spellings.hpp"

#include "gpuplan/catalog/catalog.hpp"

namespace gpuplan {

namespace {

using Json = nlohmann::json;

std::string in_quotes(std::string_view text) { return "\"" + std::string(text) + "\""; }

// One "purchase" value (a string in price and train, a list in the recommenders).
void upgrade_price_kind(Json& value, const std::string& path, std::vector<SpellingChange>& notes) {
    if (!value.is_string()) return;  // not a spelling: the reader names what it expected
    const auto kind = price_kind_from_old_spelling(value.get<std::string>());
    if (!kind) return;
    notes.push_back({SpellingChange::Kind::value, path, std::string(old_spelling(*kind)), std::string(to_string(*kind))});
    value = std::string(to_string(*kind));
}

// The parallel sizes of a "train", "fit" or "infer" section, renamed to their *_parallel keys.
void upgrade_parallel_keys(Json& section, const std::string& path, std::vector<SpellingChange>& notes) {
    if (!section.is_object()) return;
    for (const char* old_key : {"data", "tensor", "pipeline", "expert"}) {
        const std::string new_key = std::string(old_key) + "_parallel";
        if (!section.contains(old_key) || section.contains(new_key)) continue;
        section[new_key] = std::move(section[old_key]);
        section.erase(old_key);
        notes.push_back({SpellingChange::Kind::key, path, old_key, new_key});
    }
}

void upgrade(Json& node, const std::string& path, std::vector<SpellingChange>& notes) {
    if (node.is_array()) {
        for (std::size_t k = 0; k < node.size(); ++k) upgrade(node[k], path + "[" + std::to_string(k) + "]", notes);
        return;
    }
    if (!node.is_object()) return;
    for (auto& [key, value] : node.items()) {
        const std::string child = path + "." + key;
        if (key == "purchase") {
            if (value.is_array())
                for (std::size_t k = 0; k < value.size(); ++k) upgrade_price_kind(value[k], child + "[" + std::to_string(k) + "]", notes);
            else
                upgrade_price_kind(value, child, notes);
            continue;
        }
        upgrade(value, child, notes);
    }
}

}  // namespace

std::string SpellingChange::note() const { return path + ": " + in_quotes(old_text) + " is now written " + in_quotes(new_text); }

std::vector<SpellingChange> upgrade_spellings(Json& scenario) {
    std::vector<SpellingChange> notes;
    if (scenario.is_object())
        for (const char* section : {"train", "fit", "infer"})
            if (scenario.contains(section)) upgrade_parallel_keys(scenario[section], std::string("$.") + section, notes);
    upgrade(scenario, "$", notes);
    return notes;
}

}  // namespace gpuplan
