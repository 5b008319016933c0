// catalog_filters.cpp — see catalog_filters.hpp.
#include "ui/catalog_filters.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>

#include "gpuplan/catalog/region_names.hpp"
#include "gpuplan/pricing/purchase_option.hpp"
#include "imgui.h"
#include "imgui_stdlib.h"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace gpuplan::ui {

const char* to_string(CatalogPriceUnit unit) {
    switch (unit) {
    case CatalogPriceUnit::hour: return "hour";
    case CatalogPriceUnit::month: return "month";
    case CatalogPriceUnit::year: return "year";
    }
    return "hour";
}

double hours_per(CatalogPriceUnit unit) {
    switch (unit) {
    case CatalogPriceUnit::hour: return 1;
    case CatalogPriceUnit::month: return kHoursPerMonth;
    case CatalogPriceUnit::year: return kHoursPerYear;
    }
    return 1;
}

std::string price_unit_short(CatalogPriceUnit unit) { return unit == CatalogPriceUnit::hour ? "h" : to_string(unit); }

std::optional<CatalogPriceUnit> catalog_price_unit_named(std::string_view name) {
    for (CatalogPriceUnit unit : {CatalogPriceUnit::hour, CatalogPriceUnit::month, CatalogPriceUnit::year})
        if (name == to_string(unit)) return unit;
    return std::nullopt;
}

const std::vector<CatalogColumn>& catalog_numeric_columns() {
    using C = CatalogColumn;
    static const std::vector<CatalogColumn> columns{C::on_demand_usd_per_hour, C::spot_usd_per_hour, C::reserved_1y_usd_per_hour,
                                                    C::capacity_block_usd_per_hour, C::usd_per_gpu_hour, C::usd_per_gib_hour,
                                                    C::usd_per_pflop_hour,     C::count,             C::memory_gib_each,  C::vcpus,
                                                    C::ram_gib,                C::network_gbit_per_s, C::efa};
    return columns;
}

std::string catalog_column_words(CatalogColumn column, CatalogPriceUnit unit) {
    using C = CatalogColumn;
    switch (column) {
    case C::on_demand_usd_per_hour: return "on-demand $/" + price_unit_short(unit);
    case C::spot_usd_per_hour: return "spot $/" + price_unit_short(unit);
    case C::reserved_1y_usd_per_hour: return "reserved 1y no upfront $/" + price_unit_short(unit);
    case C::capacity_block_usd_per_hour: return "Capacity Block $/" + price_unit_short(unit);
    case C::usd_per_gpu_hour: return "$/GPU-h";
    case C::usd_per_gib_hour: return "$/GiB-h";
    case C::usd_per_pflop_hour: return "$/PFLOP-h (BF16)";
    case C::count: return "accelerators";
    case C::memory_gib_each: return "accel GiB each";
    case C::vcpus: return "vCPUs";
    case C::ram_gib: return "RAM GiB";
    case C::network_gbit_per_s: return "network Gbit/s";
    case C::efa: return "EFA interfaces";
    case C::compare: return "compare";
    case C::instance: return "instance";
    case C::family: return "family";
    case C::accelerator: return "accelerator";
    case C::interconnect: return "interconnect";
    }
    return "";
}

void read_range_bounds(CatalogRange& range) {
    range.error.clear();
    const auto read = [&](const std::string& text, const char* which) -> std::optional<double> {
        const std::size_t start = text.find_first_not_of(" \t");
        if (start == std::string::npos) return std::nullopt;  // empty: no bound
        errno = 0;
        char* end = nullptr;
        const double value = std::strtod(text.c_str() + start, &end);
        if (end == text.c_str() + start || text.find_first_not_of(" \t", static_cast<std::size_t>(end - text.c_str())) != std::string::npos ||
            errno == ERANGE || !std::isfinite(value)) {
            if (range.error.empty()) range.error = std::string(which) + " \"" + text + "\" is not a number";
            return std::nullopt;
        }
        return value;
    };
    range.min = read(range.min_text, "from");
    range.max = read(range.max_text, "to");
    if (range.min && range.max && *range.min > *range.max && range.error.empty())
        range.error = "from is above to: no row can be in this range";
}

namespace {

// A filter combo over the distinct values of one field ("" = all).
// `shown` is how an option reads in the list (a region code with its place name).
bool filter_combo(const char* label, std::string& value, const std::vector<std::string>& options, float width_em,
                  std::string (*shown)(std::string_view) = nullptr) {
    bool changed = false;
    // Label first, as people read a filter bar ("family [all]").
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(label);
    ImGui::SameLine(0, em(0.35f));
    ImGui::SetNextItemWidth(em(width_em));
    ImGui::PushID(label);
    if (ImGui::BeginCombo("##combo", value.empty() ? "all" : value.c_str())) {
        if (ImGui::Selectable("all", value.empty())) value.clear(), changed = true;
        for (const std::string& o : options)
            if (ImGui::Selectable(shown ? shown(o).c_str() : o.c_str(), o == value)) value = o, changed = true;
        ImGui::EndCombo();
    }
    ImGui::PopID();
    return changed;
}

void draw_filters(const Catalog& catalog, CatalogTableState& state) {
    std::set<std::string> families, accelerators, links;
    for (const Instance& row : catalog.instances) {
        families.insert(row.family);
        if (row.accelerator) accelerators.insert(*row.accelerator);
        if (row.interconnect) links.insert(std::string(to_string(*row.interconnect)));
    }
    ImGui::SetNextItemWidth(em(14));
    if (ImGui::InputTextWithHint("##filter", "search name, family, accelerator", state.filter, sizeof state.filter))
        state.rows_dirty = true;
    mark_widget("Search");
    // Each filter goes beside the last while it fits, else on the next line (narrow embeds).
    const auto next = [](const char* label, float width_em) { same_line_if_fits(ImGui::CalcTextSize(label).x + em(0.35f + width_em), em(1)); };
    next("family", 6);
    state.rows_dirty |= filter_combo("family", state.family, {families.begin(), families.end()}, 6);
    next("accelerator", 8);
    state.rows_dirty |= filter_combo("accelerator", state.accelerator, {accelerators.begin(), accelerators.end()}, 8);
    next("interconnect", 6);
    state.rows_dirty |= filter_combo("interconnect", state.interconnect, {links.begin(), links.end()}, 6);
    next("min GiB per accelerator", 4);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("min GiB per accelerator");
    ImGui::SameLine(0, em(0.35f));
    ImGui::SetNextItemWidth(em(4));
    if (ImGui::InputDouble("##min_gib", &state.min_memory_gib_each, 0, 0, "%.0f")) {
        state.min_memory_gib_each = std::max(0.0, state.min_memory_gib_each);
        state.rows_dirty = true;
    }
    next("EFA only", 1.6f);
    state.rows_dirty |= ImGui::Checkbox("EFA only", &state.efa_only);
    next("price region", 8);
    std::vector<std::string> regions = catalog.regions();
    std::string region = state.price_region;
    if (filter_combo("price region", region, regions, 8, region_with_name) && !region.empty()) state.price_region = region;
    next("prices per", 4.5f);
    std::string unit = to_string(state.price_unit);
    if (filter_combo("prices per", unit, {"hour", "month", "year"}, 4.5f) && !unit.empty()) {
        state.price_unit = catalog_price_unit_named(unit).value_or(CatalogPriceUnit::hour);
        // A bound on a price column was typed in the old unit: it is kept as typed and still
        // bounds the column, now in the new unit (the field's label says which).
        state.rows_dirty = true;
    }
}

// "add a range" lists the numeric columns not bounded yet; picking one adds an empty range.
void draw_add_range(CatalogTableState& state) {
    ImGui::SetNextItemWidth(em(9));
    if (ImGui::BeginCombo("##add_range", "add a range on...")) {
        for (CatalogColumn column : catalog_numeric_columns()) {
            const bool taken = std::any_of(state.ranges.begin(), state.ranges.end(), [&](const CatalogRange& r) { return r.column == column; });
            if (taken) continue;
            const std::string words = catalog_column_words(column, state.price_unit);
            const bool picked = ImGui::Selectable(words.c_str());
            mark_widget("Range on: " + words);
            if (picked) state.ranges.push_back({column, "", "", {}, {}, {}});
        }
        ImGui::EndCombo();
    }
    mark_widget("Add a range");
}

// One line per range: "<column> from [ ] to [ ] remove", the reason beside a bound that is not
// a number (the text stays in its field, outlined).
void draw_ranges(CatalogTableState& state) {
    for (std::size_t k = 0; k < state.ranges.size(); ++k) {
        CatalogRange& range = state.ranges[k];
        const std::string words = catalog_column_words(range.column, state.price_unit);
        ImGui::PushID(static_cast<int>(k));
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(words.c_str());
        const bool bad = !range.error.empty();
        if (bad) {
            ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, 1.0f);
            ImGui::PushStyleColor(ImGuiCol_Border, to_vec4(palette().bad));
        }
        bool edited = false;
        ImGui::SameLine(0, em(0.35f));
        ImGui::SetNextItemWidth(em(5));
        edited |= ImGui::InputTextWithHint("##from", "from", &range.min_text);
        mark_widget("Range from: " + words);
        ImGui::SameLine(0, em(0.35f));
        ImGui::TextUnformatted("to");
        ImGui::SameLine(0, em(0.35f));
        ImGui::SetNextItemWidth(em(5));
        edited |= ImGui::InputTextWithHint("##to", "to", &range.max_text);
        mark_widget("Range to: " + words);
        if (bad) {
            ImGui::PopStyleColor();
            ImGui::PopStyleVar();
        }
        ImGui::SameLine();
        const bool remove = ImGui::SmallButton("remove");
        mark_widget("Remove range: " + words);
        if (bad) {
            same_line_if_fits(ImGui::CalcTextSize(range.error.c_str()).x, em(0.5f));
            ImGui::TextColored(to_vec4(palette().bad), "%s", range.error.c_str());
        }
        ImGui::PopID();
        if (edited) {
            read_range_bounds(range);
            state.rows_dirty = true;
        }
        if (remove) {
            state.ranges.erase(state.ranges.begin() + static_cast<std::ptrdiff_t>(k));
            state.rows_dirty = true;
            break;
        }
    }
}

}  // namespace

void draw_catalog_filters(const Catalog& catalog, CatalogTableState& state) {
    draw_filters(catalog, state);
    same_line_if_fits(em(9), em(1));
    draw_add_range(state);
    draw_ranges(state);
}

}  // namespace gpuplan::ui
