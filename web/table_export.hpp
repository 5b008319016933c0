// table_export.hpp — the planner's tables as CSV (RFC 4180) for the page's "Export CSV".
//
// Platform-free text building; only the browser shell offers it today.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/catalog/catalog.hpp"

namespace gpuplan::web {

// Every figure of a gpuplan.result/1 document, one row each, in document order:
// path, value, unit, formula, worked, unknown (the reason when value is empty).
std::string results_csv(const nlohmann::json& results);

// A table as the view shows it (a header row, then the rows; ui::catalog_table_cells) as CSV.
std::string table_csv(const std::vector<std::vector<std::string>>& cells);

}  // namespace gpuplan::web
