// names.hpp — the one table that turns the keys of scenario and result documents into the
// words the UI shows ("usd_per_million_tokens" -> "$ per 1M tokens", "spot" ->
// "spot (typical)"). Views never print a key; tests/ui's [words] test fails on any
// snake_case word drawn on screen.
#pragma once

#include <string>
#include <string_view>

#include "gpuplan/pricing/purchase_option.hpp"

namespace gpuplan::ui {

// Words for a key: a purchase option in the catalog's words, a known key from the table, or
// else the key with its unit suffix ("_usd", "_hours", "_gib", ...) turned into a unit in
// brackets and its underscores into spaces.
std::string human_name(std::string_view key);

// A purchase option in words: "Reserved 3-year", "Compute Savings Plan 1-year, all upfront",
// "Spot", "On-demand". Its key (key(), "reserved-3y") is for files, flags and links.
std::string option_label(const PurchaseOption& option);

// An InputError message ("layout.data: got 42.6667; expected a whole number >= 1") with its
// JSON path replaced by the words for its last key ("data-parallel size: got 42.6667; ...").
std::string human_error(std::string_view message);

}  // namespace gpuplan::ui
