#include "output.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace gpuplan::cli {

std::string_view to_string(Format format) {
    switch (format) {
    case Format::table: return "table";
    case Format::json: return "json";
    case Format::csv: return "csv";
    case Format::md: return "md";
    }
    return "?";
}

// ---- numbers ------------------------------------------------------------------------------

std::string full_precision(double value) { return std::isfinite(value) ? fmt::format("{}", value) : std::string(kUnknown); }

// ---- tables -------------------------------------------------------------------------------

Cell text_cell(std::string text) { return {text, text}; }

Cell number_cell(const std::optional<double>& value, std::string (*format)(double), std::string_view missing_reason, bool assumed) {
    if (!value) {
        const std::string t(missing_text(missing_reason));
        return {t, t};
    }
    return {format(*value) + (assumed ? "*" : ""), full_precision(*value)};
}

Cell figure_cell(const Figure& figure, std::string (*format)(double), bool assumed) {
    return number_cell(figure.value, format, figure.unknown_reason, assumed);
}

Cell none_cell() { return {std::string(kNone), ""}; }

namespace {

// Display width of UTF-8 text: count code points, not bytes.
std::size_t width(std::string_view s) {
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string pad(const std::string& s, std::size_t w, bool right) {
    const std::size_t n = width(s);
    if (n >= w) return s;
    return right ? std::string(w - n, ' ') + s : s + std::string(w - n, ' ');
}

std::string rstrip(std::string s) {
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
}

std::string md_escape(std::string s) {
    std::string out;
    for (char c : s) {
        if (c == '|') out += '\\';
        out += c == '\n' ? ' ' : c;
    }
    return out;
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

}  // namespace

std::string render_text_table(const Table& t) {
    std::vector<std::size_t> w(t.columns.size(), 0);
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
        w[c] = width(t.columns[c].header);
        for (const auto& row : t.rows) w[c] = std::max(w[c], width(row[c].text));
    }
    const auto line = [&](auto cell_text, bool header) {
        std::string s;
        for (std::size_t c = 0; c < t.columns.size(); ++c) {
            const bool right = c > 0 && t.columns[c].right_align && !header;
            s += (c ? "  " : "") + pad(cell_text(c), w[c], right || (header && c > 0 && t.columns[c].right_align));
        }
        return rstrip(s) + "\n";
    };
    std::string out = line([&](std::size_t c) { return t.columns[c].header; }, true);
    out += line([&](std::size_t c) { return std::string(w[c], '-'); }, true);
    for (const auto& row : t.rows) out += line([&](std::size_t c) { return row[c].text; }, false);
    return out;
}

std::string render_markdown_table(const Table& t) {
    std::string out = "|", rule = "|";
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
        out += " " + md_escape(t.columns[c].header) + " |";
        rule += c > 0 && t.columns[c].right_align ? " --: |" : " --- |";
    }
    out += "\n" + rule + "\n";
    for (const auto& row : t.rows) {
        out += "|";
        for (const auto& cell : row) out += " " + md_escape(cell.text) + " |";
        out += "\n";
    }
    return out;
}

std::string render_csv(const Table& t) {
    std::string out;
    for (std::size_t c = 0; c < t.columns.size(); ++c) out += (c ? "," : "") + csv_field(t.columns[c].key);
    out += "\n";
    for (const auto& row : t.rows) {
        for (std::size_t c = 0; c < row.size(); ++c) out += (c ? "," : "") + csv_field(row[c].raw);
        out += "\n";
    }
    return out;
}

std::string render_table(const Table& table, Format format) {
    switch (format) {
    case Format::md: return render_markdown_table(table);
    case Format::csv: return render_csv(table);
    default: return render_text_table(table);
    }
}

std::string render_key_values(const std::vector<KeyValue>& lines, std::string_view indent) {
    std::size_t w = 0;
    for (const auto& kv : lines) w = std::max(w, width(kv.label));
    std::string out;
    for (const auto& kv : lines) out += rstrip(std::string(indent) + pad(kv.label, w, false) + "  " + kv.value) + "\n";
    return out;
}

// ---- JSON and explanations ----------------------------------------------------------------

std::string dump_json(const nlohmann::json& value) { return value.dump(2) + "\n"; }

std::string explain_figure_json(const nlohmann::json& f, std::string_view indent) {
    const std::string in(indent);
    const auto& e = f.at("explain");
    const std::string unit = f.value("unit", "");
    std::string out;
    if (!e.value("formula", "").empty()) out += in + "formula: " + e.value("formula", "") + "\n";
    if (f.at("value").is_number())
        out += in + "worked:  " + e.value("worked", "") + (unit.empty() ? "" : " " + unit) + "\n";
    else
        out += in + std::string(missing_text(f.value("unknown", ""))) + ": " + f.value("unknown", "") + "\n";
    if (!e.at("inputs").empty()) {
        out += in + "inputs:\n";
        for (const auto& i : e.at("inputs")) {
            const std::string iu = i.value("unit", ""), src = i.value("source", "");
            const std::string value = i.at("value").is_number() ? format_number(i.at("value").get<double>()) : std::string(kUnknown);
            out += in + "  " + i.value("name", "") + " = " + value + (iu.empty() ? "" : " " + iu) + "  [" + i.value("origin", "") +
                   (src.empty() ? "" : ": " + src) + "]\n";
        }
    }
    return out;
}

std::string explain_figure(const Figure& f, std::string_view indent) { return explain_figure_json(to_json(f), indent); }

std::string figures_csv(const NamedFigures& figures) {
    Table t{{{"", "name"}, {"", "value"}, {"", "unit"}, {"", "assumption"}, {"", "formula"}}, {}};
    for (const auto& [name, f] : figures) {
        const std::optional<double> v = f.at("value").is_number() ? std::optional<double>(f.at("value").get<double>()) : std::nullopt;
        t.rows.push_back({text_cell(name), number_cell(v, full_precision, f.value("unknown", "")), text_cell(f.value("unit", "")),
                          text_cell(f.value("assumption", false) ? "true" : "false"), text_cell(f.at("explain").value("formula", ""))});
    }
    return render_csv(t);
}

std::string explain_all(const NamedFigures& figures) {
    std::string out = "\nHow each figure was computed:\n";
    for (const auto& [name, f] : figures) out += "\n  " + name + "\n" + explain_figure_json(f, "    ");
    return out;
}

std::string notes_block(const std::string& text, Format format) {
    if (format != Format::md || text.empty()) return text;
    const std::size_t first = text.find_first_not_of('\n');
    if (first == std::string::npos) return text;
    return "\n```\n" + text.substr(first) + (text.back() == '\n' ? "" : "\n") + "```\n";
}

std::string assumption_footnote(const std::vector<KeyValue>& defaults_used) {
    std::string out =
        "\n* rests on a default assumption, not a catalog fact (why each default: docs/pricing.md);\n"
        "  override with the flag named:\n";
    out += render_key_values(defaults_used, "    ");
    return out;
}

}  // namespace gpuplan::cli
