// scenario_spellings.hpp — words scenarios used to spell differently, and what they are now.
//
// One concept has one spelling in scenarios, the CLI, links and the UI. Links and files written
// before a rename must keep opening, so their old spellings are rewritten to today's before the
// scenario is read, each with a note saying what it became (the reader itself knows only
// today's words). The renames, all of 2026-11-29:
//   "purchase": "on_demand" -> "on-demand", "spot_typical" -> "spot" (the purchase-option
//       keys; catalog/catalog.hpp)
//   in "train", "fit" and "infer": "data", "tensor", "pipeline", "expert" -> "data_parallel",
//       "tensor_parallel", "pipeline_parallel", "expert_parallel" (as the results and the core's
//       requests name them; the CLI's --tensor-parallel, with --tp short for it)
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpuplan {

// One rewrite: a value ("purchase": "on_demand") or a key ("tensor") in today's words.
struct SpellingChange {
    enum class Kind { value, key };
    Kind kind = Kind::value;
    std::string path;  // the value's ("$.recommend.purchase[1]") or the key's object ("$.train")
    std::string old_text, new_text;
    // "$.train.purchase: \"on_demand\" is now written \"on-demand\"",
    // "$.train: \"tensor\" is now written \"tensor_parallel\""
    std::string note() const;
};

// Rewrites every old spelling in `scenario` (a gpuplan.scenario/1 document) to today's and
// returns the changes in document order. A document without old spellings is left as it is;
// an old key beside its new one is left too, for the reader to refuse as unknown.
std::vector<SpellingChange> upgrade_spellings(nlohmann::json& scenario);

}  // namespace gpuplan
