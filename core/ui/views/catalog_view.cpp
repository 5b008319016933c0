// catalog_view.cpp — the Catalog view: the instance table (filters, sort by any column
// including $/GPU-h, $/GiB-h, $/PFLOP-h), up to four instances side by side, and "plan with
// this instance" (sets price.instance in the scenario).
#include <algorithm>

#include "imgui.h"
#include "ui/theme.hpp"
#include "ui/views/view_common.hpp"
#include "ui/widgets.hpp"

namespace gpuplan::ui {

void draw_catalog_view(AppState& state) {
    CatalogTableState& table = state.views->catalog;
    // One region for the whole app: the table prices the scenario's region, and its own region
    // selector changes the scenario's (the toolbar's selector shows the same).
    const std::string region = scenario_region(state);
    if (region != state.views->catalog_region_seen) {
        table.price_region = region;
        state.views->catalog_region_seen = region;
    }
    table.highlighted = chosen_instance(state);

    // Wrapped: the dates of three price snapshots do not fit a phone's line.
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(describe_price_dates(*state.catalog, table.price_region).c_str());
    ImGui::PopTextWrapPos();
    ImGui::SameLine();
    new_line_unless_fits(em(1.5f));
    help_marker("unknown = the figure is not published; hover it for the reason the catalog records. "
                "$/GPU-h, $/GiB-h and $/PFLOP-h divide the on-demand price by the instance's accelerators, "
                "accelerator memory and dense BF16 PFLOPS; hover a value for its formula and inputs.");
    // The side-by-side panel goes under the table, which gives up room at its bottom: ticking a
    // box never moves the rows under the mouse.
    const float compare_height = table.compare.empty() ? 0.0f : std::min(ImGui::GetContentRegionAvail().y * 0.5f, em(19));
    draw_catalog_table(*state.catalog, table, table.compare.empty() ? 0.0f : -compare_height);
    if (!table.compare.empty()) {
        heading("Side by side");
        draw_catalog_compare(*state.catalog, table);
    }
    if (table.price_region != region && !table.price_region.empty()) {
        state.scenario["region"] = table.price_region;
        state.views->catalog_region_seen = table.price_region;
        scenario_edited(state);
    }
    if (!table.picked.empty()) {
        choose_instance(state, table.picked);
        table.picked.clear();
    }
}

}  // namespace gpuplan::ui
