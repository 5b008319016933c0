// widgets.hpp — shared pieces every view uses: figures with their "how was this computed"
// hover, number formatting with units, section headings, stacked bars, empty states.
//
// A figure is the JSON the core writes for a Figure (explain.hpp, docs/scenario.md):
// {"value": 38.5 | null, "unit": "USD/h", "unknown": "<reason>", "assumption": true,
//  "explain": {"formula", "worked", "inputs": [{"name", "value", "unit", "origin", "source"}]}}
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/explain.hpp"
#include "imgui.h"

namespace gpuplan::ui {

// j[k0][k1]... or nullptr when any step is missing (never throws).
const nlohmann::json* find_json(const nlohmann::json& j, std::initializer_list<std::string_view> keys);
// The value of a figure object, or nullopt for a missing or unknown figure.
std::optional<double> figure_value(const nlohmann::json* figure);
// A number or nullopt (for plain JSON numbers in results, such as a candidate's "hours").
std::optional<double> json_number(const nlohmann::json* j);
std::string json_string(const nlohmann::json* j, const std::string& fallback = "");

// "1,234,567" grouping for readability; `decimals` after the point.
std::string group_thousands(double value, int decimals);
// A value with its unit in the form people read: "$78,489.60", "$1.1200/h", "30.0 %",
// "106.2 h", "16.03 s", "261,638 tokens/s", "44.2 MB".
std::string format_quantity(double value, std::string_view unit);

// The figure's value (right-aligned in the current column when asked) with its explanation
// on hover, copied with it by a right-click; "unknown" in the dim colour with the reason on hover for a null value; a small
// "*" marks a figure that rests on a default assumption.
// show_unit = false drops a "/h"-style rate suffix and plain units, for table columns whose
// header already names the unit ("$/h", "hours").
void figure_value_text(const nlohmann::json* figure, bool right_align = true, bool show_unit = true);
// The same for a figure of the typed result (the way views should show figures: by member,
// so a figure the core does not return cannot be asked for). `label` is what the view calls it;
// the figure is recorded for the read-back (drawn_figures).
// `document_name`: the key the result document writes the figure under when it is not the
// figure's own name (a fleet tier's "cost_usd"), for the read-back.
void figure_value_text(const Figure& figure, std::string_view label, bool right_align = true, bool show_unit = true,
                       std::string_view document_name = {});

// What the views drew this frame, for the read-back tests (getState().figures in the page,
// tests/ui natively): each figure under the name the result document gives it, with its value
// as drawn. draw_app clears the list at the start of a frame.
struct DrawnFigure {
    std::string name;   // "tokens_per_second_per_instance"
    std::string label;  // "Tokens/s per instance"
    std::optional<double> value;
    std::string unit;
    // The drawn text's width and the room it had (in a table: its cell's width), in pixels:
    // text wider than its room is cut off, as in a table column not yet sized to its content.
    float text_w = 0, room_w = 0;
    // For the page's text mirror of the view (screen readers, find in page): the text as
    // drawn ("$98.32/h", "unknown"), the section title drawn above it (heading(); "" before
    // the first), and the figure document its explanation is written from when asked for
    // (figure_explanation_text): the one the figure was drawn from, moved here, not copied.
    std::string text;
    std::string section;
    nlohmann::json figure;
    // Where the text was drawn, in the window's pixels (as marked_widgets): its top-left corner
    // and height, for a test's mouse or finger.
    float x = 0, y = 0, h = 0;
};
const std::vector<DrawnFigure>& drawn_figures();
void clear_drawn_figures();
// What right-clicking a figure copies: the value with its unit, then its explanation.
std::string figure_clipboard_text(const nlohmann::json& figure);
// A figure's explanation in lines: its formula, the worked line and its inputs with their
// origin and source, one per line ("" when the figure carries none).
std::string figure_explanation_text(const nlohmann::json& figure);
// The outer height for a scrolling table of `rows` rows, at most `max_em` font heights (a
// scrolling table given height 0 would take the whole window).
float table_height(std::size_t rows, float max_em);
// The tooltip body for a figure: formula, worked line, inputs with their origin.
void figure_tooltip(const nlohmann::json& figure, std::string_view title = "");

// A two-column table over figures of the typed result: label | value (right-aligned, hover
// explains). Nothing can be skipped: an unknown figure shows "unknown" with its reason.
struct TypedFigureRow {
    const char* label;     // "Tokens/s per instance"
    const Figure& figure;  // a member of the typed result
};
void figure_table(const char* id, std::initializer_list<TypedFigureRow> rows);

// Where the labelled controls were drawn in the current frame (the browser tests move the
// real mouse there: getState().widgets). draw_app clears the list at the start of a frame.
struct WidgetRect {
    std::string label;
    float x = 0, y = 0, w = 0, h = 0;
};
// Records the last item's rectangle under `label` (the text from "##" on dropped).
void mark_widget(const std::string& label);
// ImGui::SameLine(0, spacing) when an item `next_width` wide still fits before the window's
// right edge after the last item; otherwise nothing, so the next item starts a new line (rows
// of controls and figures reflow in a narrow embed or on a phone instead of being clipped).
// spacing < 0: the style's item spacing.
void same_line_if_fits(float next_width, float spacing = -1.0f);
// The same decision made after the caller has already said ImGui::SameLine(): if an item
// `next_width` wide would run past the right edge, the cursor moves to a new line. Nothing
// happens at the start of a line or inside a table (the table sizes its cells).
void new_line_unless_fits(float next_width);
// After ImGui::SameLine(): dimmed text beside the last item, or on the next line where it
// would run past the right edge (a phone).
void dim_text_beside(const std::string& text);
// Columns for a layout table of two charts or figure tables side by side: 2 where each gets
// about 22 em, else 1, so on a phone they stack.
int side_by_side_columns();
// A drawing that needs `min_width` to stay readable and is `height` tall: on a narrower window
// (a phone) it goes into a frame of its own that scrolls sideways, instead of being cut at the
// right edge. Returns whether the frame was opened; pass that to end_sideways_scroll.
bool begin_sideways_scroll(const char* id, float min_width, float height);
void end_sideways_scroll(bool opened);
const std::vector<WidgetRect>& marked_widgets();
void clear_marked_widgets();
// The label of the marked widget that the keyboard's focus frame is on in the last frame (the
// one holding the centre of Dear ImGui's navigation rectangle); "" when the keyboard has put
// the frame on nothing, "(unmarked)" on a widget with no label.
std::string keyboard_framed_widget();

// A section title with spacing above and a thin rule under it.
void heading(const char* text);
// Dimmed explanatory text, wrapped.
void note(const char* text);
// Right-aligned text in the current table column / line.
void text_right(const std::string& text);
// "(?)" that shows `text` on hover.
void help_marker(const char* text);
// What to do when a view's scenario section is missing; returns true when the button to add
// an example section was pressed.
bool empty_state(const char* what, const char* button_label);

// "39.2 GiB of 80 GiB per GPU: fits" (GiB: memory_text) in green; "tight" in amber above kTightMemoryShare of the
// capacity (allocator fragmentation and CUDA graphs' workspace take a few percent the model
// does not count: docs/models.md); "does not fit" in red above it.
inline constexpr double kTightMemoryShare = 0.90;
void memory_verdict(double used_gb, double capacity_gb);

// One horizontal bar of stacked segments against a capacity (memory per GPU).
struct Segment {
    std::string label;
    double value = 0;
    ImU32 colour = 0;
    std::string tooltip;  // shown on hover under "label: value unit"
};
void stacked_bar(const char* id, const std::vector<Segment>& segments, double capacity, const char* unit,
                 const char* capacity_label);

// GPU memory per GPU as a stacked bar, in GiB. The app shows every memory size in GiB, the
// unit EC2 and the catalog state GPU and host memory in; the core's memory model works in GB
// (10^9 bytes, as the worked cases do), so its figures are converted here for display only
// (gpuplan/units.hpp) and each segment's tooltip says so.
void memory_bar(const char* id, std::vector<Segment> segments_gb, double capacity_gb);
// A memory size the core gives in GB, as the app shows it: "39.1 GiB".
std::string memory_text(double gb);

}  // namespace gpuplan::ui
