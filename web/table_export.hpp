// table_export.hpp — the planner's tables as CSV (RFC 4180) for the page's "Export CSV".
//
// Platform-free text building; only the browser shell offers it today.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "gpuplan/catalog/catalog.hpp"

namespace gpuplan::web {

// Every figure of a gpuplan.result/1 document, one row each, in document order:
// path, value, unit, formula, worked, unknown (the reason when value is empty).
std::string results_csv(const nlohmann::json& results);

// The built-in catalog's instances as published (assets/catalog/instances.json): one row per
// instance, one column per scalar fact, then one column per price ("usd_per_hour
// us-east-1 on_demand"). Unknown facts are empty cells, as in the catalog's null.
std::string catalog_csv();

}  // namespace gpuplan::web
