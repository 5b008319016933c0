// catalog_table.cpp — see catalog_table.hpp.
#include "ui/catalog_table.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>
#include <set>
#include <string_view>

#include "gpuplan/catalog/region_names.hpp"
#include "gpuplan/catalog/catalog_metrics.hpp"
#include "gpuplan/pricing/purchase_option.hpp"
#include "imgui.h"
#include "imgui_internal.h"  // ImGuiTable::DisplayOrderToIndex: the columns as the user ordered them
#include "ui/catalog_filters.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace gpuplan::ui {
namespace {

// Prices come right after what is bought: they are what a planner compares first, and they
// must be visible without scrolling sideways on a laptop-width window.
using Column = CatalogColumn;
constexpr int kColumnCount = 18;
// Keys of the cached metric figures (CatalogTableState::metrics), by column.
const char* metric_key(Column c) {
    switch (c) {
    case Column::usd_per_gpu_hour: return "usd_per_accelerator_hour";
    case Column::usd_per_gib_hour: return "usd_per_accel_gib_hour";
    case Column::usd_per_pflop_hour: return "usd_per_dense_bf16_pflop_hour";
    default: return nullptr;
    }
}

// One cell's content: a number, a text, or unknown with the field path its reason is filed
// under. Built on demand (67 rows x 12 columns is cheap) so there is no cache to go stale.
struct Cell {
    const nlohmann::json* figure = nullptr;  // metric columns: the figure (value + explanation)
    std::optional<double> number;
    std::optional<std::string> text;
    std::string field;  // path in Instance::unknown, e.g. "prices[1].usd_per_hour"
    std::string missing_reason;  // used when the catalog has no entry at all for the field

    bool known() const { return number.has_value() || text.has_value(); }
};

Cell number_cell(const std::optional<double>& value, std::string field) {
    return Cell{nullptr, value, std::nullopt, std::move(field), {}};
}

// Price cells name their entry by index, because that is how unknown reasons are keyed. The
// value is in the table's price unit: the hourly price times the unit's hours.
Cell price_cell(const Instance& row, const CatalogTableState& state, PriceKind option) {
    const std::string& region = state.price_region;
    const Price* price = row.find_price(region, option);
    if (price == nullptr) {
        return Cell{nullptr, std::nullopt, std::nullopt, {},
                    "the catalog has no " + std::string(to_string(option)) + " price for " + region};
    }
    const auto index = static_cast<std::size_t>(price - row.prices.data());
    const double hours = hours_per(state.price_unit);
    std::optional<double> value = price->usd_per_hour;
    if (value) *value *= hours;
    return number_cell(value, "prices[" + std::to_string(index) + "].usd_per_hour");
}

// A 1-year no-upfront Standard Reserved Instance's or a Capacity Block's listed price per
// instance-hour (no upfront: the recurring rate is the whole price), in the table's unit. Not
// listed: "n/a" with the source's note when a source shows it not offered, else unknown.
Cell listed_option_cell(const Instance& row, const CatalogTableState& state, PurchaseKind kind) {
    const std::string& region = state.price_region;
    std::optional<double> usd_per_hour;
    if (kind == PurchaseKind::reserved) {
        if (const CommitmentPrice* p = row.find_commitment_price(region, {PurchaseKind::reserved, Term::one_year, Payment::no_upfront}))
            usd_per_hour = p->effective_usd_per_hour();
    } else if (const CapacityBlockPrice* p = row.find_capacity_block_price(region)) {
        usd_per_hour = p->usd_per_hour;
    }
    if (usd_per_hour) return Cell{nullptr, *usd_per_hour * hours_per(state.price_unit), std::nullopt, {}, {}};
    const char* what = kind == PurchaseKind::reserved ? "1-year no-upfront Standard Reserved Instance" : "Capacity Block";
    if (const OptionNotOffered* absent = row.option_not_offered(region, kind))
        return Cell{nullptr, std::nullopt, std::nullopt, {}, "n/a: " + absent->note + " (" + absent->source + ", " + absent->as_of + ")"};
    return Cell{nullptr, std::nullopt, std::nullopt, {},
                "the catalog lists no " + std::string(what) + " price for " + row.name + " in " + region +
                    " (gpuplan prices import adds AWS's current ones: docs/catalog.md)"};
}

Cell make_cell(const Instance& row, Column column, const CatalogTableState& state, const nlohmann::json* metrics) {
    switch (column) {
    case Column::compare: return Cell{nullptr, 0.0, std::nullopt, "", {}};
    case Column::instance: return Cell{nullptr, std::nullopt, row.name, "name", {}};
    case Column::family: return Cell{nullptr, std::nullopt, row.family, "family", {}};
    case Column::accelerator: return Cell{nullptr, std::nullopt, row.accelerator, "accelerator", {}};
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
        return Cell{nullptr, std::nullopt, std::move(text), "interconnect", {}};
    }
    case Column::usd_per_gpu_hour:
    case Column::usd_per_gib_hour:
    case Column::usd_per_pflop_hour: {
        const nlohmann::json* f = metrics ? find_json(*metrics, {metric_key(column)}) : nullptr;
        Cell c{f, figure_value(f), std::nullopt, {}, {}};
        c.missing_reason = f ? json_string(find_json(*f, {"unknown"}), "unknown") : "not computed";
        return c;
    }
    case Column::on_demand_usd_per_hour: return price_cell(row, state, PriceKind::on_demand);
    case Column::spot_usd_per_hour: return price_cell(row, state, PriceKind::spot_typical);
    case Column::reserved_1y_usd_per_hour: return listed_option_cell(row, state, PurchaseKind::reserved);
    case Column::capacity_block_usd_per_hour: return listed_option_cell(row, state, PurchaseKind::capacity_block);
    }
    return {};
}

// Unknowns go last in both directions: "cheapest first" must not start with rows we
// know nothing about. Ties (and two unknowns) fall back to the instance name.
bool row_less(const Instance& a, const Instance& b, Column column, bool descending, const CatalogTableState& state,
              const nlohmann::json* ma, const nlohmann::json* mb) {
    const Cell ca = make_cell(a, column, state, ma), cb = make_cell(b, column, state, mb);
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

bool matches_text(const Instance& row, std::string_view filter) {
    return filter.empty() || contains_ignoring_case(row.name, filter) ||
           contains_ignoring_case(row.family, filter) ||
           (row.accelerator && contains_ignoring_case(*row.accelerator, filter));
}

bool matches_filter(const Instance& row, const CatalogTableState& state, const nlohmann::json* metrics) {
    if (!row.offered_in(state.price_region)) return false;  // counted under the table as "not offered"
    if (!matches_text(row, state.filter)) return false;
    if (!state.family.empty() && row.family != state.family) return false;
    if (!state.accelerator.empty() && row.accelerator.value_or("") != state.accelerator) return false;
    if (!state.interconnect.empty() && (!row.interconnect || to_string(*row.interconnect) != state.interconnect)) return false;
    // A threshold excludes rows whose memory is unknown: they cannot be shown to meet it.
    if (state.min_memory_gib_each > 0 && row.accelerator_memory_gib_each.value_or(0) < state.min_memory_gib_each) return false;
    if (state.efa_only && row.efa_interfaces.value_or(0) <= 0) return false;
    for (const CatalogRange& range : state.ranges) {
        if (!range.min && !range.max) continue;
        const std::optional<double> value = make_cell(row, range.column, state, metrics).number;
        if (!value || (range.min && *value < *range.min) || (range.max && *value > *range.max)) return false;
    }
    return true;
}

void rebuild_metrics(const Catalog& catalog, CatalogTableState& state) {
    state.metrics.clear();
    for (const Instance& row : catalog.instances) {
        const InstanceMetrics m = instance_metrics(catalog, row, state.price_region);
        state.metrics.push_back(to_json(std::vector<Figure>{m.usd_per_accelerator_hour, m.usd_per_accel_gib_hour,
                                                            m.usd_per_dense_bf16_pflop_hour}));
    }
    state.metrics_region = state.price_region;
    state.metrics_built_for = &catalog;
    state.rows_dirty = true;
}

void sort_rows(const Catalog& catalog, CatalogTableState& state, Column column, bool descending) {
    state.row_order.clear();
    for (std::size_t i = 0; i < catalog.instances.size(); ++i)
        if (matches_filter(catalog.instances[i], state, &state.metrics[i])) state.row_order.push_back(i);
    std::stable_sort(state.row_order.begin(), state.row_order.end(), [&](std::size_t a, std::size_t b) {
        return row_less(catalog.instances[a], catalog.instances[b], column, descending, state, &state.metrics[a],
                        &state.metrics[b]);
    });
    state.rows_dirty = false;
    state.rows_built_for = &catalog;
}

void rebuild_rows(const Catalog& catalog, CatalogTableState& state, const ImGuiTableSortSpecs* specs) {
    if (specs != nullptr && specs->SpecsCount > 0) {
        const ImGuiTableColumnSortSpecs& spec = specs->Specs[0];
        sort_rows(catalog, state, static_cast<Column>(spec.ColumnUserID), spec.SortDirection == ImGuiSortDirection_Descending);
    } else {
        sort_rows(catalog, state, Column::instance, false);
    }
}

bool is_price_column(Column column) {
    return column == Column::on_demand_usd_per_hour || column == Column::spot_usd_per_hour || column == Column::reserved_1y_usd_per_hour ||
           column == Column::capacity_block_usd_per_hour;
}

// Hourly prices keep 4 decimals, as in the price list (g6e.xlarge is $1.861, not $1.86); a
// month's or a year's are shown to the cent, grouped ($71,773.45). Everything else shows as few
// digits as it needs, so fractional GPU slices (0.125) stay exact.
std::string format_cell_number(double value, Column column, CatalogPriceUnit unit) {
    if (is_price_column(column) && unit != CatalogPriceUnit::hour) return group_thousands(value, 2);
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, is_price_column(column) || metric_key(column) != nullptr ? "%.4f" : "%g", value);
    return buffer;
}

// A price in a month or a year says how it was worked out from the hourly price.
void price_unit_tooltip(const Cell& cell, CatalogPriceUnit unit) {
    if (unit == CatalogPriceUnit::hour || !cell.number || !ImGui::IsItemHovered()) return;
    const double hours = hours_per(unit);
    ImGui::SetTooltip("$%s per %s = $%.4f/h x %s h (%s)", group_thousands(*cell.number, 2).c_str(), to_string(unit), *cell.number / hours,
                      group_thousands(hours, 0).c_str(),
                      unit == CatalogPriceUnit::month ? "AWS's pricing month: 8,760 h / 12" : "365 x 24 h, AWS's term year");
}

// What Export CSV writes for a cell and what right-clicking it copies: a text as it is, a number
// in full precision without grouping (as a spreadsheet reads it), "n/a" or "unknown".
std::string cell_plain_text(const Instance& row, const Cell& cell) {
    if (cell.text) return *cell.text;
    if (cell.number) {
        char text[64];
        std::snprintf(text, sizeof text, "%.10g", *cell.number);
        return text;
    }
    const std::string reason = cell.field.empty() ? cell.missing_reason : row.unknown_reason(cell.field);
    return reason.rfind("n/a: ", 0) == 0 ? "n/a" : "unknown";
}

// Right-clicking the item just drawn copies `text` (a catalog cell into a spreadsheet).
void copy_on_right_click(const std::string& text) {
    if (ImGui::IsItemHovered() && ImGui::IsMouseReleased(ImGuiMouseButton_Right)) ImGui::SetClipboardText(text.c_str());
}

void draw_cell(const Instance& row, Column column, const CatalogTableState& state, const nlohmann::json* metrics) {
    const Cell cell = make_cell(row, column, state, metrics);
    if (cell.figure) {  // metric: value with its formula on hover, or unknown with the reason
        figure_value_text(cell.figure, true, false);  // the header names the unit
        return;
    }
    if (cell.known()) {
        const std::string text = cell.text ? *cell.text : format_cell_number(*cell.number, column, state.price_unit);
        if (cell.number) {  // right-align numbers so magnitudes line up
            const float slack = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(text.c_str()).x;
            if (slack > 0) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + slack);
        }
        ImGui::TextUnformatted(text.c_str());
        copy_on_right_click(cell_plain_text(row, cell));
        if (is_price_column(column)) price_unit_tooltip(cell, state.price_unit);
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
        // The column in words ("on-demand $/h"), not the catalog field's path.
        const std::string words = catalog_column_words(column, state.price_unit);
        ImGui::Text("%s, %s:", row.name.c_str(), !words.empty() ? words.c_str() : cell.field.empty() ? "price" : cell.field.c_str());
        ImGui::TextUnformatted(reason.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

}  // namespace

void draw_catalog_table(const Catalog& catalog, CatalogTableState& state, float height) {
    if (state.metrics_built_for != &catalog || state.metrics_region != state.price_region ||
        state.metrics.size() != catalog.instances.size())
        rebuild_metrics(catalog, state);
    draw_catalog_filters(catalog, state);
    // Counted here rather than taken from row_order, which is only rebuilt inside the table.
    const auto shown = std::count_if(catalog.instances.begin(), catalog.instances.end(),
                                     [&](const Instance& row) { return matches_filter(row, state, &state.metrics[&row - catalog.instances.data()]); });
    const auto offered = std::count_if(catalog.instances.begin(), catalog.instances.end(),
                                       [&](const Instance& row) { return row.offered_in(state.price_region); });
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%d of the %d instance types offered in %s (%d not offered there) | tick up to %d to compare | click a name to plan with it | right-click a value to copy it",
                        static_cast<int>(shown), static_cast<int>(offered), state.price_region.c_str(),
                        static_cast<int>(catalog.instances.size() - offered), static_cast<int>(kMaxCompare));
    ImGui::PopTextWrapPos();

    // ScrollX as well as ScrollY: the columns do not fit a phone or a narrow window, and
    // without horizontal scrolling ImGui would squeeze them unreadable instead.
    constexpr ImGuiTableFlags flags =
        ImGuiTableFlags_Sortable | ImGuiTableFlags_Resizable | ImGuiTableFlags_Reorderable |
        ImGuiTableFlags_Hideable | ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY |
        ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersOuter | ImGuiTableFlags_BordersV |
        ImGuiTableFlags_SizingFixedFit;
    // outer height 0 with ScrollY = fill what is left of the window.
    // Compact rows: the compare checkbox would otherwise make every row a full button tall.
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(ImGui::GetStyle().FramePadding.x, 1.0f));
    if (!ImGui::BeginTable("catalog", kColumnCount, flags, ImVec2(0.0f, height))) {
        ImGui::PopStyleVar();
        return;
    }

    // Each header is the column in words (catalog_column_words, as the filters, tooltips and the
    // comparison name it); the prices of the region's own say which region. The ID after ###
    // keeps a column's width and sort stable when its label changes with the region or unit.
    std::vector<std::string> labels;
    for (int i = 0; i < kColumnCount; ++i) {
        const auto column = static_cast<Column>(i);
        const bool regional = column == Column::on_demand_usd_per_hour || column == Column::spot_usd_per_hour;
        // "cmp": the column is one checkbox wide
        labels.push_back((column == Column::compare ? std::string("cmp") : catalog_column_words(column, state.price_unit)) +
                         (regional ? " (" + state.price_region + ")" : "") + "###column" + std::to_string(i));
    }
    for (int i = 0; i < kColumnCount; ++i) {
        const auto column = static_cast<Column>(i);
        // Cheapest first is the question a planner asks first.
        const ImGuiTableColumnFlags column_flags = column == Column::compare ? ImGuiTableColumnFlags_NoSort | ImGuiTableColumnFlags_NoHide
                                            : column == Column::instance ? ImGuiTableColumnFlags_NoHide
                                            : column == Column::on_demand_usd_per_hour ? ImGuiTableColumnFlags_DefaultSort
                                                                                       : 0;
        ImGui::TableSetupColumn(labels[static_cast<std::size_t>(i)].c_str(), column_flags, 0.0f, static_cast<ImGuiID>(i));
    }
    ImGui::TableSetupScrollFreeze(2, 1);  // compare + instance columns and the header row stay visible
    // A link's sort and hidden columns (catalog_link.hpp), handed to the table once; it shows
    // the hidden ones hidden from the next frame on.
    const bool applying_link = state.apply_link_view;
    if (applying_link) {
        ImGui::TableSetColumnSortDirection(state.sort_column, state.sort_descending ? ImGuiSortDirection_Descending : ImGuiSortDirection_Ascending,
                                           false);
        for (int c = 0; c < kColumnCount; ++c)
            ImGui::TableSetColumnEnabled(c, std::find(state.hidden_columns.begin(), state.hidden_columns.end(), c) == state.hidden_columns.end());
        state.apply_link_view = false;
    }
    ImGui::TableHeadersRow();
    // Which columns are shown, in which order (for Export CSV). ImGui keeps the display order
    // in the table itself; only imgui_internal.h exposes it.
    if (const ImGuiTable* table = ImGui::GetCurrentTable()) {
        state.shown_columns.clear();
        state.shown_headers.clear();
        if (!applying_link) {
            state.hidden_columns.clear();
            for (int c = 0; c < kColumnCount; ++c)
                if (!(ImGui::TableGetColumnFlags(c) & ImGuiTableColumnFlags_IsEnabled)) state.hidden_columns.push_back(c);
        }
        for (int order = 0; order < kColumnCount; ++order) {
            const int column = table->DisplayOrderToIndex[order];
            if (!(ImGui::TableGetColumnFlags(column) & ImGuiTableColumnFlags_IsEnabled)) continue;
            const std::string& label = labels[static_cast<std::size_t>(column)];
            state.shown_columns.push_back(column);
            state.shown_headers.push_back(label.substr(0, label.find("###")));
        }
    }

    ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs();
    if (specs != nullptr && specs->SpecsDirty) {
        if (specs->SpecsCount > 0) {
            state.sort_column = static_cast<int>(specs->Specs[0].ColumnUserID);
            state.sort_descending = specs->Specs[0].SortDirection == ImGuiSortDirection_Descending;
        }
        state.rows_dirty = true;
        specs->SpecsDirty = false;
    }
    if (state.rows_dirty || state.rows_built_for != &catalog) rebuild_rows(catalog, state, specs);

    // Only visible rows are drawn (the clipper), so a long catalog costs the same per frame.
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(state.row_order.size()));
    while (clipper.Step()) {
        for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
            const std::size_t index = state.row_order[static_cast<std::size_t>(r)];
            const Instance& row = catalog.instances[index];
            ImGui::TableNextRow();
            ImGui::PushID(static_cast<int>(index));
            if (row.name == state.highlighted)
                ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, (palette().accent & 0x00FFFFFF) | 0x30000000);
            for (int column = 0; column < kColumnCount; ++column) {
                if (!ImGui::TableSetColumnIndex(column)) continue;  // hidden column
                const auto col = static_cast<Column>(column);
                if (col == Column::compare) {
                    const auto it = std::find(state.compare.begin(), state.compare.end(), row.name);
                    bool ticked = it != state.compare.end();
                    ImGui::BeginDisabled(!ticked && state.compare.size() >= kMaxCompare);
                    const bool tick_changed = ImGui::Checkbox("##cmp", &ticked);
                    mark_widget("Compare: " + row.name);
                    if (tick_changed) {
                        if (ticked) state.compare.push_back(row.name);
                        else state.compare.erase(it);
                    }
                    ImGui::EndDisabled();
                } else if (col == Column::instance) {
                    if (ImGui::Selectable(row.name.c_str(), row.name == state.highlighted)) state.picked = row.name;
                    copy_on_right_click(row.name);
                    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Plan with %s (sets price.instance in the scenario)", row.name.c_str());
                } else {
                    draw_cell(row, col, state, &state.metrics[index]);
                }
            }
            ImGui::PopID();
        }
    }
    ImGui::EndTable();
    ImGui::PopStyleVar();
}

namespace {

// The compared instances that exist in the catalog, with their rows' indices (for metrics).
struct Compared {
    std::vector<const Instance*> rows;
    std::vector<std::size_t> indices;
};

Compared compared_rows(const Catalog& catalog, CatalogTableState& state) {
    Compared c;
    for (const std::string& name : state.compare)
        if (const Instance* i = catalog.find_instance(name)) {
            c.rows.push_back(i);
            c.indices.push_back(static_cast<std::size_t>(i - catalog.instances.data()));
        }
    if (state.metrics.size() != catalog.instances.size()) rebuild_metrics(catalog, state);
    return c;
}

// +1 when more is better, -1 when less is, 0 when neither (a name, a link type).
int better_direction(Column column) {
    switch (column) {
    case Column::on_demand_usd_per_hour:
    case Column::spot_usd_per_hour:
    case Column::reserved_1y_usd_per_hour:
    case Column::capacity_block_usd_per_hour:
    case Column::usd_per_gpu_hour:
    case Column::usd_per_gib_hour:
    case Column::usd_per_pflop_hour: return -1;
    case Column::count:
    case Column::memory_gib_each:
    case Column::vcpus:
    case Column::ram_gib:
    case Column::network_gbit_per_s:
    case Column::efa: return +1;
    default: return 0;
    }
}

// For each compared row, whether its value of `column` is the best (see compare_best).
std::vector<bool> best_flags(const Compared& c, Column column, const CatalogTableState& state) {
    std::vector<bool> best(c.rows.size(), false);
    const int direction = better_direction(column);
    if (direction == 0) return best;
    std::vector<std::optional<double>> values;
    for (std::size_t k = 0; k < c.rows.size(); ++k)
        values.push_back(make_cell(*c.rows[k], column, state, &state.metrics[c.indices[k]]).number);
    std::optional<double> top, bottom;
    for (const auto& v : values)
        if (v) {
            top = top ? std::max(*top, *v) : *v;
            bottom = bottom ? std::min(*bottom, *v) : *v;
        }
    const auto known = std::count_if(values.begin(), values.end(), [](const auto& v) { return v.has_value(); });
    if (known < 2 || *top == *bottom) return best;  // nothing to choose between
    const double target = direction > 0 ? *top : *bottom;
    for (std::size_t k = 0; k < values.size(); ++k) best[k] = values[k] && *values[k] == target;
    return best;
}

}  // namespace

std::vector<std::string> compare_best(const Catalog& catalog, CatalogTableState& state, CatalogColumn column) {
    const Compared c = compared_rows(catalog, state);
    const std::vector<bool> best = best_flags(c, column, state);
    std::vector<std::string> names;
    for (std::size_t k = 0; k < best.size(); ++k)
        if (best[k]) names.push_back(c.rows[k]->name);
    return names;
}

void draw_catalog_compare(const Catalog& catalog, CatalogTableState& state) {
    const Compared compared = compared_rows(catalog, state);
    const std::vector<const Instance*>& rows = compared.rows;
    if (rows.empty()) return;
    const int columns = static_cast<int>(rows.size()) + 1;
    if (!ImGui::BeginTable("compare", columns, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchSame))
        return;
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, em(11));
    for (const Instance* r : rows) ImGui::TableSetupColumn(r->name.c_str());
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    ImGui::TableSetColumnIndex(0);
    ImGui::TextDisabled("side by side");
    for (std::size_t k = 0; k < rows.size(); ++k) {
        ImGui::TableSetColumnIndex(static_cast<int>(k) + 1);
        ImGui::PushID(static_cast<int>(k));
        ImGui::TextUnformatted(rows[k]->name.c_str());
        ImGui::SameLine();
        if (ImGui::SmallButton("x")) {
            state.compare.erase(std::find(state.compare.begin(), state.compare.end(), rows[k]->name));
            ImGui::PopID();
            ImGui::EndTable();
            return;
        }
        ImGui::PopID();
    }
    // Every column but the checkbox and the name, each named as its header names it.
    std::vector<Column> facts;
    for (int i = static_cast<int>(Column::family) + 1; i < kColumnCount; ++i) facts.push_back(static_cast<Column>(i));
    // The best value of a row gets a tinted cell: the good colour, faint enough to read through.
    const ImU32 best_tint = (palette().good & ~IM_COL32_A_MASK) | (static_cast<ImU32>(0x38) << IM_COL32_A_SHIFT);
    for (const Column fact : facts) {
        const std::vector<bool> best = best_flags(compared, fact, state);
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextDisabled("%s", catalog_column_words(fact, state.price_unit).c_str());
        for (std::size_t k = 0; k < rows.size(); ++k) {
            ImGui::TableSetColumnIndex(static_cast<int>(k) + 1);
            if (best[k]) ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, best_tint);
            ImGui::PushID(static_cast<int>(k * 100 + static_cast<int>(fact)));
            draw_cell(*rows[k], fact, state, &state.metrics[compared.indices[k]]);
            ImGui::PopID();
        }
    }
    ImGui::EndTable();
    if (rows.size() >= 2)
        ImGui::TextDisabled("Tinted: the best of those compared (the lowest price, the most GPUs, memory, vCPUs, network).");
}

std::vector<std::vector<std::string>> catalog_table_cells(const Catalog& catalog, const CatalogTableState& state) {
    std::vector<std::vector<std::string>> cells(1);
    std::vector<Column> columns;
    for (std::size_t k = 0; k < state.shown_columns.size(); ++k) {
        const auto column = static_cast<Column>(state.shown_columns[k]);
        if (column == Column::compare) continue;
        columns.push_back(column);
        cells[0].push_back(state.shown_headers[k]);
    }
    for (std::size_t index : state.row_order) {
        const Instance& row = catalog.instances[index];
        const nlohmann::json* metrics = index < state.metrics.size() ? &state.metrics[index] : nullptr;
        std::vector<std::string> line;
        for (Column column : columns) {
            line.push_back(cell_plain_text(row, make_cell(row, column, state, metrics)));
        }
        cells.push_back(std::move(line));
    }
    return cells;
}

std::optional<double> catalog_cell_number(const Instance& row, CatalogColumn column, const CatalogTableState& state,
                                          const nlohmann::json* metrics) {
    return make_cell(row, column, state, metrics).number;
}

std::vector<std::string> catalog_rows(const Catalog& catalog, CatalogTableState& state, CatalogColumn column, bool descending) {
    if (state.metrics_built_for != &catalog || state.metrics_region != state.price_region ||
        state.metrics.size() != catalog.instances.size())
        rebuild_metrics(catalog, state);
    sort_rows(catalog, state, column, descending);
    state.rows_dirty = true;  // the on-screen table re-sorts by its own header next frame
    std::vector<std::string> names;
    for (std::size_t i : state.row_order) names.push_back(catalog.instances[i].name);
    return names;
}

std::string describe_price_dates(const Catalog& catalog, const std::string& region) {
    std::set<std::string> on_demand, spot;
    const Price* oldest = nullptr;  // flagged below when older than kStalePriceDays
    for (const Instance& row : catalog.instances)
        for (const Price& price : row.prices)
            if (price.region == region && !price.as_of.empty()) {
                (price.option == PriceKind::on_demand ? on_demand : spot).insert(price.as_of);
                if (!oldest || price_age_days(price.as_of, catalog.today) > price_age_days(oldest->as_of, catalog.today)) oldest = &price;
            }
    const std::string stale = oldest ? stale_price_note(catalog, *oldest) : "";
    const auto join = [](const std::set<std::string>& dates) {
        std::string text;
        for (const std::string& date : dates) text += (text.empty() ? "" : ", ") + date;
        return text.empty() ? std::string("no date") : text;
    };
    return region + " prices: on-demand as of " + join(on_demand) + ", spot as of " + join(spot) + stale;
}

}  // namespace gpuplan::ui
