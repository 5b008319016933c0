// table_export.cpp — see table_export.hpp.
#include "table_export.hpp"

#include <map>
#include <vector>

#include "gpuplan/explain.hpp"

namespace gpuplan::web {

namespace {

using nlohmann::json;

// RFC 4180: quote a field when it holds a comma, quote or line break; double inner quotes.
std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

std::string csv_line(const std::vector<std::string>& fields) {
    std::string line;
    for (std::size_t k = 0; k < fields.size(); ++k) line += (k ? "," : "") + csv_field(fields[k]);
    return line + "\r\n";
}

// Full precision (the JSON number text), so a spreadsheet gets what `gpuplan eval` prints.
std::string cell(const json& value) {
    if (value.is_null()) return "";
    if (value.is_string()) return value.get<std::string>();
    return value.dump();
}

bool is_figure(const json& node) { return node.is_object() && node.contains("value") && node.contains("explain"); }

void collect_figures(const json& node, const std::string& path, std::string& out) {
    if (is_figure(node)) {
        const json& e = node.at("explain");
        out += csv_line({path, cell(node.at("value")), node.value("unit", ""), e.value("formula", ""),
                         e.value("worked", ""), node.value("unknown", "")});
        return;
    }
    if (node.is_object())
        for (const auto& [key, child] : node.items()) collect_figures(child, path + "." + key, out);
    else if (node.is_array())
        for (std::size_t k = 0; k < node.size(); ++k) collect_figures(node[k], path + "[" + std::to_string(k) + "]", out);
}

}  // namespace

std::string results_csv(const json& results) {
    std::string out = csv_line({"path", "value", "unit", "formula", "worked", "unknown"});
    collect_figures(results, "$", out);
    return out;
}

std::string catalog_csv() {
    std::vector<json> instances;
    for (const auto& document : builtin_catalog_documents()) {
        const json parsed = json::parse(document.text);
        if (parsed.contains("instances"))
            for (const json& record : parsed.at("instances")) instances.push_back(record);
    }
    // Columns in order of first appearance: scalar facts, then prices.
    std::vector<std::string> columns;
    std::map<std::string, bool> seen;
    auto add_column = [&](const std::string& name) {
        if (!seen[name]) {
            seen[name] = true;
            columns.push_back(name);
        }
    };
    auto price_column = [](const json& p) {
        return "usd_per_hour " + p.value("region", "") + " " + p.value("option", "");
    };
    for (const json& record : instances)
        for (const auto& [key, value] : record.items())
            if (!value.is_structured()) add_column(key);
    for (const json& record : instances)
        if (record.contains("prices"))
            for (const json& p : record.at("prices")) add_column(price_column(p));

    std::string out = csv_line(columns);
    for (const json& record : instances) {
        std::map<std::string, std::string> row;
        for (const auto& [key, value] : record.items())
            if (!value.is_structured()) row[key] = cell(value);
        if (record.contains("prices"))
            for (const json& p : record.at("prices")) row[price_column(p)] = cell(p.value("usd_per_hour", json()));
        std::vector<std::string> fields;
        for (const std::string& c : columns) fields.push_back(row.count(c) ? row[c] : "");
        out += csv_line(fields);
    }
    return out;
}

}  // namespace gpuplan::web
