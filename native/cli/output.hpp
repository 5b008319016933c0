// output.hpp — how the CLI renders results: tables (text / Markdown / CSV), JSON, money and
// number formatting, "unknown" figures and figure explanations.
//
// Every command builds its whole output as one string with these helpers and main prints it
// at the end, so an error never leaves partial output on stdout.
//
// Formatting rules (docs/cli.md): money 2 decimals with thousands separators ($2,140.94),
// hourly rates 4 decimals ($0.9867), percentages 2 decimals (38.33%). CSV and JSON keep full
// precision. A missing figure prints "unknown", or "n/a" when its reason says the feature
// does not exist on that hardware (catalog reasons starting "n/a: ").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/explain.hpp"
#include "gpuplan/text.hpp"  // money, rate, percent, quantity, decimals, gb_text, missing_text, join

namespace gpuplan::cli {

enum class Format { table, json, csv, md };

std::string_view to_string(Format format);

// ---- numbers ------------------------------------------------------------------------------

std::string full_precision(double value);        // shortest text that round-trips (CSV)

inline constexpr std::string_view kNone = "-";


// ---- tables -------------------------------------------------------------------------------

// One cell: the text people read and the raw value CSV writes (full precision, no "$").
struct Cell {
    std::string text;
    std::string raw;
};

Cell text_cell(std::string text);                                  // same text both ways
Cell number_cell(const std::optional<double>& value, std::string (*format)(double),
                 std::string_view missing_reason = "", bool assumed = false);
Cell figure_cell(const Figure& figure, std::string (*format)(double), bool assumed);
Cell none_cell();                                                  // "-" / "" (not applicable)

struct Column {
    std::string header;   // shown in text and Markdown tables
    std::string key;      // CSV header (snake_case)
    bool right_align = true;
};

struct Table {
    std::vector<Column> columns;
    std::vector<std::vector<Cell>> rows;
};

std::string render_text_table(const Table& table);      // aligned, 2 spaces between columns
std::string render_markdown_table(const Table& table);  // GitHub pipe table
std::string render_csv(const Table& table);             // RFC 4180, raw values
std::string render_table(const Table& table, Format format);  // table / md / csv

// Two-column "label  value" lines (summaries, `show` sections).
struct KeyValue {
    std::string label;
    std::string value;
};
std::string render_key_values(const std::vector<KeyValue>& lines, std::string_view indent = "  ");

// ---- JSON and explanations ----------------------------------------------------------------

std::string dump_json(const nlohmann::json& value);  // 2-space indent, trailing newline

// Lines "formula: ...", "worked: ...", "inputs:" then one line per input with its origin.
// The JSON form reads a figure as gpuplan::to_json(Figure) writes it.
std::string explain_figure(const Figure& figure, std::string_view indent);
std::string explain_figure_json(const nlohmann::json& figure, std::string_view indent);

// Figures as gpuplan::to_json(Figure) writes them, in a chosen order, keyed by name.
using NamedFigures = std::vector<std::pair<std::string, nlohmann::json>>;

// Every figure as CSV rows: name,value,unit,assumption,formula (full precision).
std::string figures_csv(const NamedFigures& figures);
// "How each figure was computed:" then each figure's explanation.
std::string explain_all(const NamedFigures& figures);

// Free text under a table (notes, footnotes, explanations): as is, or fenced for Markdown so
// its alignment survives.
std::string notes_block(const std::string& text, Format format);

// The footnote printed under any table with a "*" figure.
std::string assumption_footnote(const std::vector<KeyValue>& defaults_used);

}  // namespace gpuplan::cli
