// catalog_table.hpp — the instance catalog as a sortable, filterable Dear ImGui table.
//
// Shared by every GUI front-end (web page, native window); it only needs an ImGui frame to be
// open, never SDL, GL or the browser. Unknown figures are shown as "unknown" (or "n/a" when
// the catalog says the feature does not exist), always sort last, and explain themselves in a
// tooltip taken from the catalog's recorded reason. The price-normalised columns ($/GPU-h,
// $/GiB-h, $/PFLOP-h; gpuplan/catalog/catalog_metrics.hpp) explain their formula on hover.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/catalog/catalog.hpp"

namespace gpuplan::ui {

// The table's columns, in display order (also the sort keys of catalog_rows).
enum class CatalogColumn {
    compare, instance, family, accelerator, count, on_demand_usd_per_hour, spot_usd_per_hour,
    reserved_1y_usd_per_hour, capacity_block_usd_per_hour,
    usd_per_gpu_hour, usd_per_gib_hour, usd_per_pflop_hour, memory_gib_each,
    vcpus, ram_gib, network_gbit_per_s, efa, interconnect
};

// The unit of the price columns (on-demand, spot): an hourly price, or the same times AWS's
// 730-hour month or 8,760-hour year (kHoursPerMonth, kHoursPerYear), as ec2instances.info
// offers. The price-per-GPU, -GiB and -PFLOP columns stay hourly rates.
// The price columns: on-demand, spot (typical), a 1-year no-upfront Standard Reserved Instance
// and a Capacity Block, each as the catalog lists it for the region (the built-in
// purchase-options.json or a price overlay); one a source shows not offered reads "n/a".
enum class CatalogPriceUnit { hour, month, year };
const char* to_string(CatalogPriceUnit unit);  // "hour", "month", "year" (also the link's spelling)
double hours_per(CatalogPriceUnit unit);        // 1, 730, 8760

// A range filter on one numeric column, in the unit the column shows: rows whose value is
// below `min` or above `max` are left out, and so are rows whose value is unknown (they cannot
// be shown to be in range). The bounds are kept as typed; a text that is not a number sets
// `error` and bounds nothing (it stays in its field, outlined, until corrected).
struct CatalogRange {
    CatalogColumn column;
    std::string min_text, max_text;  // "" = no bound
    std::optional<double> min, max;
    std::string error;
};

// What the table remembers between frames. One per table on screen; plain data.
struct CatalogTableState {
    // Prices shown in the price columns come from this region.
    std::string price_region = "us-east-1";
    // Case-insensitive substring matched against name, family and accelerator ("" = all).
    char filter[64] = "";
    // Exact-match filters ("" = all) and thresholds.
    std::string family, accelerator, interconnect;
    double min_memory_gib_each = 0;  // accelerator memory per chip, GiB
    bool efa_only = false;
    std::vector<CatalogRange> ranges;
    CatalogPriceUnit price_unit = CatalogPriceUnit::hour;
    // Instances ticked for the side-by-side comparison (at most kMaxCompare).
    std::vector<std::string> compare;
    // The row drawn highlighted (the scenario's chosen instance), and the one the user picked
    // this frame with "plan" ("" = none; the caller reads and clears it).
    std::string highlighted, picked;
    // The columns as the table last showed them: indices (CatalogColumn) of the visible
    // columns in display order (the user can hide and reorder them), and their headers.
    std::vector<int> shown_columns;
    std::vector<std::string> shown_headers;
    // The sort as the table last applied it, and the columns hidden (CatalogColumn indices),
    // for the link (catalog_link.hpp). A link sets them and `apply_link_view`; the next frame
    // hands them to the table.
    int sort_column = static_cast<int>(CatalogColumn::on_demand_usd_per_hour);  // the table's default sort
    bool sort_descending = false;
    std::vector<int> hidden_columns;
    bool apply_link_view = false;

    // Indices into Catalog::instances after filtering and sorting; rebuilt only when the
    // sort specs, the filters or the catalog change (not every frame).
    std::vector<std::size_t> row_order;
    bool rows_dirty = true;
    const Catalog* rows_built_for = nullptr;
    // Price-normalised metrics per instance (figures as JSON, for the hover), per region.
    std::vector<nlohmann::json> metrics;
    std::string metrics_region;
    const Catalog* metrics_built_for = nullptr;
};
inline constexpr std::size_t kMaxCompare = 4;


// The instance names the table shows with the state's filters, sorted by `column` the way a
// click on its header sorts (unknown values last in both directions). For tests and exports.
std::vector<std::string> catalog_rows(const Catalog& catalog, CatalogTableState& state, CatalogColumn column, bool descending);

// The number a cell of `column` shows for `row` (a price in the state's unit and region), or
// nullopt when it is unknown or not a number. `metrics`: the row's entry of state.metrics.
std::optional<double> catalog_cell_number(const Instance& row, CatalogColumn column, const CatalogTableState& state,
                                          const nlohmann::json* metrics);
// Reads a range's typed bounds into min, max and error (catalog_filters.cpp).
void read_range_bounds(CatalogRange& range);

// Draws the filter bar and the table into the current ImGui window; the table is
// `height` pixels tall (0 = fill the remaining height) and scrolls, with the header row and
// the instance column frozen.
void draw_catalog_table(const Catalog& catalog, CatalogTableState& state, float height = 0.0f);

// The table as it is on screen, for Export CSV: a header row, then one row per instance in the
// order shown (filters and sort applied), with the visible columns in display order (the
// compare tick left out). Numbers in full precision; an unknown figure is "unknown".
std::vector<std::vector<std::string>> catalog_table_cells(const Catalog& catalog, const CatalogTableState& state);

// The side-by-side comparison of state.compare (every catalog fact and metric as rows), with
// the best value of each row highlighted (compare_best).
void draw_catalog_compare(const Catalog& catalog, CatalogTableState& state);

// Which of the compared instances (state.compare) have the best known value of `column`: the
// lowest price or price per GPU, GiB or PFLOP; the most GPUs, memory, vCPUs, RAM, network or
// EFA interfaces. Ties are all best. Empty when fewer than two values are known, when all
// known values are equal, or for a column with no better direction (accelerator, interconnect).
std::vector<std::string> compare_best(const Catalog& catalog, CatalogTableState& state, CatalogColumn column);

// "us-east-1 prices: on-demand as of 2026-07-20, spot as of 2026-07" — the dates of the price
// snapshots shown for `region`, for a line above the table (several dates are all listed).
std::string describe_price_dates(const Catalog& catalog, const std::string& region);

}  // namespace gpuplan::ui
