// catalog_table.cpp — see catalog_table.hpp.
#include "ui/catalog_table.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>
#include <set>
#include <string_view>

#include "imgui.h"

namespace gpuplan::ui {
namespace {

// Prices come right after what is bought: they are what a planner compares first, and they
// must be visible without scrolling sideways on a laptop-width window.
enum class Column {
    instance, family, accelerator, count, on_demand_usd_per_hour, spot_usd_per_hour, memory_gib_each,
    vcpus, ram_gib, network_gbit_per_s, efa, interconnect
};
constexpr int kColumnCount = 12;

// One cell's content: a number, a text, or unknown with the field path its reason is filed
// under. Built on demand (67 rows x 12 columns is cheap) so there is no cache to go stale.
struct Cell {
    std::optional<double> number;
    std::optional<std::string> text;
    std::string field;  // path in Instance::unknown, e.g. "prices[1].usd_per_hour"
    std::string missing_reason;  // used when the catalog has no entry at all for the field

    bool known() const { return number.has_value() || text.has_value(); }
};

Cell number_cell(const std::optional<double>& value, std::string field) {
    return Cell{value, std::nullopt, std::move(field), {}};
}

// Price cells name their entry by index, because that is how unknown reasons are keyed.
Cell price_cell(const Instance& row, const std::string& region, std::string_view option) {
    const Price* price = row.find_price(region, option);
    if (price == nullptr) {
        return Cell{std::nullopt, std::nullopt, {},
                    "the catalog has no " + std::string(option) + " price for " + region};
    }
    const auto index = static_cast<std::size_t>(price - row.prices.data());
    return number_cell(price->usd_per_hour, "prices[" + std::to_string(index) + "].usd_per_hour");
}

Cell make_cell(const Instance& row, Column column, const std::string& region) {
    switch (column) {
    case Column::instance: return Cell{std::nullopt, row.name, "name", {}};
    case Column::family: return Cell{std::nullopt, row.family, "family", {}};
    case Column::accelerator: return Cell{std::nullopt, row.accelerator, "accelerator", {}};
    case Column::count: return number_cell(row.accelerator_count, "accelerator_count");
    case Column::memory_gib_each:
        return number_cell(row.accelerator_memory_gib_each, "accelerator_memory_gib_each");
    case Column::vcpus: return number_cell(row.vcpus, "vcpus");
    case Column::ram_gib: return number_cell(row.memory_gib, "memory_gib");
    case Column::network_gbit_per_s: return number_cell(row.network_gbit_per_s, "network_gbit_per_s");
    case Column::efa: return number_cell(row.efa_interfaces, "efa_interfaces");
    case Column::interconnect: {
        std::optional<std::string> text;
        if (row.interconnect) text = std::string(to_string(*row.interconnect));
        return Cell{std::nullopt, std::move(text), "interconnect", {}};
    }
    case Column::on_demand_usd_per_hour: return price_cell(row, region, "on_demand");
    case Column::spot_usd_per_hour: return price_cell(row, region, "spot_typical");
    }
    return {};
}

// Unknowns go last in both directions: "cheapest first" must not start with rows we
// know nothing about. Ties (and two unknowns) fall back to the instance name.
bool row_less(const Instance& a, const Instance& b, Column column, bool descending,
              const std::string& region) {
    const Cell ca = make_cell(a, column, region), cb = make_cell(b, column, region);
    if (ca.known() != cb.known()) return ca.known();
    if (ca.known()) {
        if (ca.number && cb.number && *ca.number != *cb.number)
            return descending ? *ca.number > *cb.number : *ca.number < *cb.number;
        if (ca.text && cb.text && *ca.text != *cb.text)
            return descending ? *ca.text > *cb.text : *ca.text < *cb.text;
    }
    return a.name < b.name;
}

bool contains_ignoring_case(std::string_view haystack, std::string_view needle) {
    const auto lower = [](char c) { return std::tolower(static_cast<unsigned char>(c)); };
    return std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(),
                       [&](char x, char y) { return lower(x) == lower(y); }) != haystack.end();
}

bool matches_filter(const Instance& row, std::string_view filter) {
    return filter.empty() || contains_ignoring_case(row.name, filter) ||
           contains_ignoring_case(row.family, filter) ||
           (row.accelerator && contains_ignoring_case(*row.accelerator, filter));
}

void rebuild_rows(const Catalog& catalog, CatalogTableState& state, const ImGuiTableSortSpecs* specs) {
    state.row_order.clear();
    for (std::size_t i = 0; i < catalog.instances.size(); ++i)
        if (matches_filter(catalog.instances[i], state.filter)) state.row_order.push_back(i);
    if (specs != nullptr && specs->SpecsCount > 0) {
        const ImGuiTableColumnSortSpecs& spec = specs->Specs[0];
        const auto column = static_cast<Column>(spec.ColumnUserID);
        const bool descending = spec.SortDirection == ImGuiSortDirection_Descending;
        std::stable_sort(state.row_order.begin(), state.row_order.end(),
                         [&](std::size_t a, std::size_t b) {
                             return row_less(catalog.instances[a], catalog.instances[b], column,
                                             descending, state.price_region);
                         });
    }
    state.rows_dirty = false;
    state.rows_built_for = &catalog;
}

// Hourly prices keep 4 decimals, as in the price list (g6e.xlarge is $1.861, not $1.86);
// everything else shows as few digits as it needs, so fractional GPU slices (0.125) stay exact.
std::string format_number(double value, Column column) {
    char buffer[32];
    const bool price = column == Column::on_demand_usd_per_hour || column == Column::spot_usd_per_hour;
    std::snprintf(buffer, sizeof buffer, price ? "%.4f" : "%g", value);
    return buffer;
}

void draw_cell(const Instance& row, Column column, const std::string& region) {
    const Cell cell = make_cell(row, column, region);
    if (cell.known()) {
        const std::string text = cell.text ? *cell.text : format_number(*cell.number, column);
        if (cell.number) {  // right-align numbers so magnitudes line up
            const float slack = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(text.c_str()).x;
            if (slack > 0) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + slack);
        }
        ImGui::TextUnformatted(text.c_str());
        return;
    }
    std::string reason = cell.field.empty() ? cell.missing_reason : row.unknown_reason(cell.field);
    // The catalog marks features that do not exist on the hardware with "n/a: ".
    const bool not_applicable = reason.rfind("n/a: ", 0) == 0;
    if (reason.empty()) reason = "no reason recorded in the catalog";
    ImGui::TextDisabled("%s", not_applicable ? "n/a" : "unknown");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 35.0f);  // about 70 characters a line
        // ASCII only: the default ImGui font has no em dash.
        ImGui::Text("%s, %s:", row.name.c_str(), cell.field.empty() ? "price" : cell.field.c_str());
        ImGui::TextUnformatted(reason.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

}  // namespace

void draw_catalog_table(const Catalog& catalog, CatalogTableState& state) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 20.0f);
    if (ImGui::InputTextWithHint("##filter", "filter: name, family or accelerator", state.filter,
                                 sizeof state.filter))
        state.rows_dirty = true;
    // Counted here rather than taken from row_order, which is only rebuilt inside the table.
    const auto shown = std::count_if(catalog.instances.begin(), catalog.instances.end(),
                                     [&](const Instance& row) { return matches_filter(row, state.filter); });
    ImGui::SameLine();
    ImGui::Text("%d of %d instance types", static_cast<int>(shown),
                static_cast<int>(catalog.instances.size()));

    // ScrollX as well as ScrollY: twelve columns do not fit a phone or a narrow window, and
    // without horizontal scrolling ImGui would squeeze them unreadable instead.
    constexpr ImGuiTableFlags flags =
        ImGuiTableFlags_Sortable | ImGuiTableFlags_Resizable | ImGuiTableFlags_Reorderable |
        ImGuiTableFlags_Hideable | ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY |
        ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersOuter | ImGuiTableFlags_BordersV |
        ImGuiTableFlags_SizingFixedFit;
    // outer height 0 with ScrollY = fill what is left of the window.
    if (!ImGui::BeginTable("catalog", kColumnCount, flags, ImVec2(0.0f, 0.0f))) return;

    const std::string on_demand = "on-demand $/h (" + state.price_region + ")###on_demand";
    const std::string spot = "spot $/h (" + state.price_region + ")###spot";
    // The ID after ### keeps a column's width and sort stable if the region label changes.
    struct Header { const char* label; ImGuiTableColumnFlags flags; };
    const Header headers[kColumnCount] = {
        {"instance", ImGuiTableColumnFlags_NoHide},
        {"family", 0},
        {"accelerator", 0},
        {"count", 0},
        // Cheapest first is the question a planner asks first.
        {on_demand.c_str(), ImGuiTableColumnFlags_DefaultSort},
        {spot.c_str(), 0},
        {"accel GiB each", 0},
        {"vCPUs", 0},
        {"RAM GiB", 0},
        {"network Gbit/s", 0},
        {"EFA", 0},
        {"interconnect", 0},
    };
    for (int i = 0; i < kColumnCount; ++i)
        ImGui::TableSetupColumn(headers[i].label, headers[i].flags, 0.0f, static_cast<ImGuiID>(i));
    ImGui::TableSetupScrollFreeze(1, 1);  // instance column + header row stay visible
    ImGui::TableHeadersRow();

    ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs();
    if (specs != nullptr && specs->SpecsDirty) {
        state.rows_dirty = true;
        specs->SpecsDirty = false;
    }
    if (state.rows_dirty || state.rows_built_for != &catalog) rebuild_rows(catalog, state, specs);

    for (const std::size_t index : state.row_order) {
        const Instance& row = catalog.instances[index];
        ImGui::TableNextRow();
        for (int column = 0; column < kColumnCount; ++column) {
            if (!ImGui::TableSetColumnIndex(column)) continue;  // hidden column
            draw_cell(row, static_cast<Column>(column), state.price_region);
        }
    }
    ImGui::EndTable();
}

std::string describe_price_dates(const Catalog& catalog, const std::string& region) {
    std::set<std::string> on_demand, spot;
    for (const Instance& row : catalog.instances)
        for (const Price& price : row.prices)
            if (price.region == region && !price.as_of.empty())
                (price.option == "on_demand" ? on_demand : spot).insert(price.as_of);
    const auto join = [](const std::set<std::string>& dates) {
        std::string text;
        for (const std::string& date : dates) text += (text.empty() ? "" : ", ") + date;
        return text.empty() ? std::string("no date") : text;
    };
    return region + " prices: on-demand as of " + join(on_demand) + ", spot as of " + join(spot);
}

}  // namespace gpuplan::ui
