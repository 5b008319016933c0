// table_export.cpp — see table_export.hpp.
#include "table_export.hpp"

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

std::string table_csv(const std::vector<std::vector<std::string>>& cells) {
    std::string out;
    for (const auto& line : cells) out += csv_line(line);
    return out;
}

}  // namespace gpuplan::web
