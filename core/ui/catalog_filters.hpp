// catalog_filters.hpp — the bar above the catalog table: search, the choice filters, the
// thresholds, range filters on any numeric column, the price unit and the price region.
// Internal to the catalog table (catalog_table.cpp draws it; catalog_link.cpp reads the names).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ui/catalog_table.hpp"

namespace gpuplan::ui {

// Draws the bar; marks the table's rows for rebuilding when a filter changes.
void draw_catalog_filters(const Catalog& catalog, CatalogTableState& state);

// "h", "month", "year": how a price column's header names its unit ("on-demand $/month").
std::string price_unit_short(CatalogPriceUnit unit);
std::optional<CatalogPriceUnit> catalog_price_unit_named(std::string_view name);

// The columns a range can bound (those holding numbers), and what the bar calls each.
const std::vector<CatalogColumn>& catalog_numeric_columns();
// Every column in words, the one name the header, the comparison, the filters and the
// tooltips use ("on-demand $/month", "accel GiB each").
std::string catalog_column_words(CatalogColumn column, CatalogPriceUnit unit);

}  // namespace gpuplan::ui
