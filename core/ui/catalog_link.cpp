// catalog_link.cpp — the catalog table's view as a link value (catalog_link.hpp).
#include "ui/catalog_link.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>

#include "gpuplan/explain.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/text.hpp"
#include "ui/catalog_filters.hpp"

namespace gpuplan::ui {
namespace {

constexpr const char* kCatalogFlag = "--catalog-table";

// Keys by CatalogColumn, in the enum's order.
constexpr const char* kColumnKeys[] = {"compare", "instance", "family", "accelerator", "accelerators", "on-demand",
                                       "spot", "reserved-1y", "capacity-block", "usd-per-gpu-hour", "usd-per-gib-hour", "usd-per-pflop-hour", "memory-gib",
                                       "vcpus", "ram-gib", "network-gbit", "efa", "interconnect"};
constexpr int kColumns = static_cast<int>(sizeof kColumnKeys / sizeof kColumnKeys[0]);

bool unreserved(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
}

std::string encode(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (unreserved(c)) {
            out += c;
        } else {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X", static_cast<unsigned char>(c));
            out += hex;
        }
    }
    return out;
}

std::string decode(std::string_view text, const std::string& part) {
    std::string out;
    for (std::size_t k = 0; k < text.size(); ++k) {
        if (text[k] != '%') {
            out += text[k];
            continue;
        }
        const auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
        if (k + 2 >= text.size() || !hex(text[k + 1]) || !hex(text[k + 2]))
            throw InputError(kCatalogFlag, "'" + part + "'", "a value whose % escapes are two hexadecimal digits (%20 for a space)");
        out += static_cast<char>(std::strtol(std::string(text.substr(k + 1, 2)).c_str(), nullptr, 16));
        k += 2;
    }
    return out;
}

// "a::b" -> {"a", "", "b"}: empty fields kept (a range's missing bound).
std::vector<std::string> split(std::string_view text, char separator) {
    std::vector<std::string> fields(1);
    for (char c : text) {
        if (c == separator) fields.emplace_back();
        else fields.back() += c;
    }
    return fields;
}

std::string column_keys() { return join({std::begin(kColumnKeys), std::end(kColumnKeys)}, ", "); }

}  // namespace

const char* catalog_column_key(CatalogColumn column) {
    const int k = static_cast<int>(column);
    return k >= 0 && k < kColumns ? kColumnKeys[k] : "";
}

std::optional<CatalogColumn> catalog_column_named(std::string_view key) {
    for (int k = 0; k < kColumns; ++k)
        if (key == kColumnKeys[k]) return static_cast<CatalogColumn>(k);
    return std::nullopt;
}

std::string catalog_table_link(const CatalogTableState& state) {
    std::vector<std::string> parts;
    if (state.filter[0] != '\0') parts.push_back("search=" + encode(state.filter));
    if (!state.family.empty()) parts.push_back("family=" + encode(state.family));
    if (!state.accelerator.empty()) parts.push_back("accelerator=" + encode(state.accelerator));
    if (!state.interconnect.empty()) parts.push_back("interconnect=" + encode(state.interconnect));
    if (state.min_memory_gib_each > 0) parts.push_back("min-memory-gib=" + encode(format_number(state.min_memory_gib_each)));
    if (state.efa_only) parts.push_back("efa=1");
    // A range as typed (the text, even one that is not a number, so nothing typed is lost).
    for (const CatalogRange& range : state.ranges)
        parts.push_back(std::string("range=") + catalog_column_key(range.column) + ":" + encode(range.min_text) + ":" + encode(range.max_text));
    if (state.price_unit != CatalogPriceUnit::hour) parts.push_back(std::string("unit=") + to_string(state.price_unit));
    if (!state.compare.empty()) {
        std::vector<std::string> names;
        for (const std::string& n : state.compare) names.push_back(encode(n));
        parts.push_back("compare=" + join(names, ","));
    }
    if (state.sort_column != static_cast<int>(CatalogColumn::on_demand_usd_per_hour) || state.sort_descending)
        parts.push_back(std::string("sort=") + catalog_column_key(static_cast<CatalogColumn>(state.sort_column)) +
                        (state.sort_descending ? "-desc" : ""));
    if (!state.hidden_columns.empty()) {
        std::vector<std::string> keys;
        for (int c : state.hidden_columns) keys.emplace_back(catalog_column_key(static_cast<CatalogColumn>(c)));
        parts.push_back("hide=" + join(keys, ","));
    }
    return join(parts, ";");
}

void apply_catalog_table_link(CatalogTableState& state, std::string_view text) {
    CatalogTableState next = state;
    next.filter[0] = '\0';
    next.family.clear();
    next.accelerator.clear();
    next.interconnect.clear();
    next.min_memory_gib_each = 0;
    next.efa_only = false;
    next.ranges.clear();
    next.price_unit = CatalogPriceUnit::hour;
    next.compare.clear();
    next.sort_column = static_cast<int>(CatalogColumn::on_demand_usd_per_hour);
    next.sort_descending = false;
    next.hidden_columns.clear();
    for (const std::string& part : nonempty_parts(text, ';')) {
        const std::size_t eq = part.find('=');
        const std::string key = part.substr(0, eq);
        const std::string raw = eq == std::string::npos ? "" : part.substr(eq + 1);
        const auto bad = [&](const std::string& expected) { throw InputError(kCatalogFlag, "'" + part + "'", expected); };
        if (key == "search") {
            const std::string value = decode(raw, part);
            if (value.size() >= sizeof next.filter) bad("a search of at most " + std::to_string(sizeof next.filter - 1) + " characters");
            std::snprintf(next.filter, sizeof next.filter, "%s", value.c_str());
        } else if (key == "family") {
            next.family = decode(raw, part);
        } else if (key == "accelerator") {
            next.accelerator = decode(raw, part);
        } else if (key == "interconnect") {
            next.interconnect = decode(raw, part);
        } else if (key == "min-memory-gib") {
            const std::optional<double> gib = decimal_number(decode(raw, part));
            if (!gib || *gib < 0) bad("min-memory-gib=N with N a number of GiB >= 0");
            next.min_memory_gib_each = *gib;
        } else if (key == "efa") {
            if (raw != "1" && raw != "0") bad("efa=1 (only instances with EFA) or efa=0");
            next.efa_only = raw == "1";
        } else if (key == "range") {
            const std::vector<std::string> fields = split(raw, ':');
            const auto column = fields.size() == 3 ? catalog_column_named(fields[0]) : std::nullopt;
            const auto& numeric = catalog_numeric_columns();
            if (!column || std::find(numeric.begin(), numeric.end(), *column) == numeric.end())
                bad("range=COLUMN:FROM:TO (either bound may be empty), COLUMN a column of numbers: on-demand, spot, reserved-1y, capacity-block, usd-per-gpu-hour, "
                    "usd-per-gib-hour, usd-per-pflop-hour, accelerators, memory-gib, vcpus, ram-gib, network-gbit or efa");
            CatalogRange range{*column, decode(fields[1], part), decode(fields[2], part), {}, {}, {}};
            read_range_bounds(range);
            next.ranges.push_back(std::move(range));
        } else if (key == "unit") {
            const auto unit = catalog_price_unit_named(raw);
            if (!unit) bad("unit=hour, unit=month or unit=year (the price columns' unit)");
            next.price_unit = *unit;
        } else if (key == "compare") {
            for (const std::string& name : nonempty_parts(raw, ',')) next.compare.push_back(decode(name, part));
            if (next.compare.size() > kMaxCompare) bad("at most " + std::to_string(kMaxCompare) + " instances to compare");
        } else if (key == "sort") {
            const bool descending = raw.size() > 5 && raw.compare(raw.size() - 5, 5, "-desc") == 0;
            const auto column = catalog_column_named(descending ? raw.substr(0, raw.size() - 5) : raw);
            if (!column || *column == CatalogColumn::compare) bad("sort=COLUMN or sort=COLUMN-desc, COLUMN one of: " + column_keys().substr(9));
            next.sort_column = static_cast<int>(*column);
            next.sort_descending = descending;
        } else if (key == "hide") {
            for (const std::string& name : nonempty_parts(raw, ',')) {
                const auto column = catalog_column_named(name);
                if (!column || *column == CatalogColumn::compare || *column == CatalogColumn::instance)
                    bad("hide=COLUMN[,COLUMN...], COLUMN one of: " + column_keys().substr(std::strlen("compare, instance, ")));
                next.hidden_columns.push_back(static_cast<int>(*column));
            }
        } else {
            bad("search, family, accelerator, interconnect, min-memory-gib, efa, range, unit, compare, sort or hide (KEY=VALUE, separated by ;)");
        }
    }
    next.apply_link_view = true;
    next.rows_dirty = true;
    state = std::move(next);
}

}  // namespace gpuplan::ui
