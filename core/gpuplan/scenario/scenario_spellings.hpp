// scenario_spellings.hpp — words scenarios used to spell differently, and what they are now.
//
// One concept has one spelling in scenarios, the CLI, links and the UI. Links and files written
// before a rename must keep opening, so their old spellings are rewritten to today's before the
// scenario is read, each with a note saying what it became (the reader itself knows only
// today's words). The renames, with the date they happened:
//   2026-11-29  "purchase": "on_demand" -> "on-demand", "spot_typical" -> "spot"
//               (the purchase-option keys; catalog/catalog.hpp)
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpuplan {

// One value rewritten: where, what it said, what it says now.
struct SpellingChange {
    std::string path;  // "$.train.purchase", "$.recommend.purchase[1]"
    std::string old_text, new_text;
    std::string note() const;  // "$.train.purchase: \"on_demand\" is now written \"on-demand\""
};

// Rewrites every old spelling in `scenario` (a gpuplan.scenario/1 document) to today's and
// returns the changes in document order. A document without old spellings is left as it is.
std::vector<SpellingChange> upgrade_spellings(nlohmann::json& scenario);

}  // namespace gpuplan
