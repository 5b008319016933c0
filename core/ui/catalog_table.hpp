// catalog_table.hpp — the instance catalog as a sortable, filterable Dear ImGui table.
//
// Shared by every GUI front-end (web page, native window); it only needs an ImGui frame to be
// open, never SDL, GL or the browser. Unknown figures are shown as "unknown" (or "n/a" when
// the catalog says the feature does not exist), always sort last, and explain themselves in a
// tooltip taken from the catalog's recorded reason.
#pragma once

#include <string>
#include <vector>

#include "gpuplan/catalog.hpp"

namespace gpuplan::ui {

// What the table remembers between frames. One per table on screen; plain data.
struct CatalogTableState {
    // Prices shown in the two price columns come from this region.
    std::string price_region = "us-east-1";
    // Case-insensitive substring matched against name, family and accelerator ("" = all).
    char filter[64] = "";
    // Indices into Catalog::instances after filtering and sorting; rebuilt only when the
    // sort specs, the filter or the catalog change (not every frame).
    std::vector<std::size_t> row_order;
    bool rows_dirty = true;
    const Catalog* rows_built_for = nullptr;
};

// Draws the filter box and the table into the current ImGui window; the table fills the
// remaining height and scrolls, with the header row and the instance column frozen.
void draw_catalog_table(const Catalog& catalog, CatalogTableState& state);

// "us-east-1 prices: on-demand as of 2026-07-20, spot as of 2026-07" — the dates of the price
// snapshots shown for `region`, for a line above the table (several dates are all listed).
std::string describe_price_dates(const Catalog& catalog, const std::string& region);

}  // namespace gpuplan::ui
