// widgets.cpp — see widgets.hpp.
#include "ui/widgets.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "gpuplan/units.hpp"
#include "imgui_internal.h"  // the window's work rect and line start (same_line_if_fits, new_line_unless_fits)
#include "ui/theme.hpp"

namespace gpuplan::ui {

const nlohmann::json* find_json(const nlohmann::json& j, std::initializer_list<std::string_view> keys) {
    const nlohmann::json* at = &j;
    for (std::string_view key : keys) {
        if (!at->is_object()) return nullptr;
        const auto it = at->find(std::string(key));
        if (it == at->end()) return nullptr;
        at = &*it;
    }
    return at;
}

std::optional<double> figure_value(const nlohmann::json* figure) {
    if (!figure || !figure->is_object()) return std::nullopt;
    return json_number(find_json(*figure, {"value"}));
}

std::optional<double> json_number(const nlohmann::json* j) {
    if (!j || !j->is_number()) return std::nullopt;
    const double v = j->get<double>();
    if (!std::isfinite(v)) return std::nullopt;
    return v;
}

std::string json_string(const nlohmann::json* j, const std::string& fallback) {
    return j && j->is_string() ? j->get<std::string>() : fallback;
}

std::string group_thousands(double value, int decimals) {
    if (!std::isfinite(value)) return "unknown";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, std::fabs(value));
    std::string digits = buf, tail;
    if (const auto dot = digits.find('.'); dot != std::string::npos) tail = digits.substr(dot), digits.resize(dot);
    std::string out;
    for (std::size_t k = 0; k < digits.size(); ++k) {
        if (k > 0 && (digits.size() - k) % 3 == 0) out += ',';
        out += digits[k];
    }
    const bool negative = value < 0 && std::string(buf).find_first_not_of("0.") != std::string::npos;
    return (negative ? "-" : "") + out + tail;
}

namespace {

std::string significant(double v, int digits) {
    char buf[64];
    const double a = std::fabs(v);
    if (a >= 1e5) return group_thousands(v, 0);
    if (v == std::floor(v)) return group_thousands(v, 0);  // counts: "192", "8,192"
    if (a >= 100) std::snprintf(buf, sizeof buf, "%.1f", v);
    else std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return buf;
}

}  // namespace

std::string format_quantity(double v, std::string_view unit) {
    if (!std::isfinite(v)) return "unknown";
    const double a = std::fabs(v);
    if (unit == "USD") return (v < 0 ? "-$" : "$") + group_thousands(a, a >= 1000 ? 0 : 2);
    if (unit.rfind("USD/", 0) == 0) {
        // Hourly prices keep 4 decimals as price lists do; larger rates 2. "USD/" alone (a
        // table column whose header names the rate) prints the amount only.
        // Per-hour rates (USD/h, USD/GPU-h, ...) keep 4 decimals below $100 as price lists do;
        // other rates (per month, per 1M tokens) 2, or 4 below one dollar.
        const bool hourly = unit.size() >= 1 && unit.back() == 'h' && (unit == "USD/" + std::string("h") || unit.find("-h") != std::string_view::npos);
        const int decimals = a >= 100 ? 2 : (hourly || (a > 0 && a < 1)) ? 4 : 2;
        const std::string per = unit.size() > 4 ? "/" + std::string(unit.substr(4)) : "";
        return (v < 0 ? "-$" : "$") + group_thousands(a, decimals) + per;
    }
    if (unit.rfind("fraction", 0) == 0) {  // "fraction", "fraction of hours", "fraction of term hours"
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f %%", v * 100);
        return std::string(buf) + std::string(unit.substr(8));
    }
    if (unit == "bytes") {
        char buf[32];
        if (a >= 1e9) std::snprintf(buf, sizeof buf, "%.2f GB", v / 1e9);
        else if (a >= 1e6) std::snprintf(buf, sizeof buf, "%.1f MB", v / 1e6);
        else if (a >= 1e3) std::snprintf(buf, sizeof buf, "%.1f kB", v / 1e3);
        else std::snprintf(buf, sizeof buf, "%.0f B", v);
        return buf;
    }
    if (unit == "s" && a >= 3600) return significant(v / 3600, 4) + " h";
    const std::string number = significant(v, 4);
    // "1 instance", not "1 instances": a plural word unit (letters only, ending in s, longer
    // than "ms") loses its s for exactly one.
    const bool plural_word = unit.size() >= 4 && unit.back() == 's' &&
                             std::all_of(unit.begin(), unit.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; });
    if (plural_word && v == 1) return number + " " + std::string(unit.substr(0, unit.size() - 1));
    return unit.empty() ? number : number + " " + std::string(unit);
}

void figure_tooltip(const nlohmann::json& figure, std::string_view title) {
    const float wrap = em(34);
    ImGui::PushTextWrapPos(wrap);
    if (!title.empty()) ImGui::TextUnformatted(title.data(), title.data() + title.size());
    const std::string unit = json_string(find_json(figure, {"unit"}));
    if (const auto v = figure_value(&figure)) {
        ImGui::Text("= %s", format_quantity(*v, unit).c_str());
    } else {
        ImGui::TextColored(to_vec4(palette().warn), "unknown");
        ImGui::TextUnformatted(json_string(find_json(figure, {"unknown"}), "no reason recorded").c_str());
    }
    const std::string formula = json_string(find_json(figure, {"explain", "formula"}));
    const std::string worked = json_string(find_json(figure, {"explain", "worked"}));
    if (!formula.empty()) {
        ImGui::Separator();
        ImGui::TextDisabled("formula");
        ImGui::TextUnformatted(formula.c_str());
    }
    if (!worked.empty()) {
        ImGui::TextDisabled("worked");
        ImGui::TextUnformatted(worked.c_str());
    }
    const nlohmann::json* inputs = find_json(figure, {"explain", "inputs"});
    if (inputs && inputs->is_array() && !inputs->empty()) {
        ImGui::TextDisabled("inputs");
        for (const auto& in : *inputs) {
            const auto value = json_number(find_json(in, {"value"}));
            const std::string origin = json_string(find_json(in, {"origin"}));
            ImGui::Bullet();
            ImGui::Text("%s = %s  [%s]", json_string(find_json(in, {"name"})).c_str(),
                        value ? format_quantity(*value, json_string(find_json(in, {"unit"}))).c_str() : "unknown", origin.c_str());
            const std::string source = json_string(find_json(in, {"source"}));
            if (!source.empty()) {
                ImGui::Indent();
                ImGui::TextDisabled("%s", source.c_str());
                ImGui::Unindent();
            }
        }
    }
    if (const auto* a = find_json(figure, {"assumption"}); a && a->is_boolean() && a->get<bool>())
        ImGui::TextColored(to_vec4(palette().warn), "* rests on a default assumption (docs/pricing.md, docs/models.md)");
    ImGui::PopTextWrapPos();
}

void text_right(const std::string& text) {
    const float slack = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(text.c_str()).x;
    if (slack > 0) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + slack);
    ImGui::TextUnformatted(text.c_str());
}

float table_height(std::size_t rows, float max_em) {
    const float row = ImGui::GetTextLineHeight() + ImGui::GetStyle().CellPadding.y * 2;
    return std::min(row * (static_cast<float>(rows) + 1.0f) + ImGui::GetStyle().ScrollbarSize + 2.0f, em(max_em));
}

namespace {
// The figure's text, hover and right-click copy; `id` keeps the "copied" note across frames
// (the figure's address in the result, stable while the result lives). Returns the text's
// width and the room there was for it, for the read-back.
struct TextFit {
    float text_w = 0, room_w = 0;
    std::string text;
    float x = 0, y = 0, h = 0;  // where the text was drawn (its top-left corner) and its height
};
TextFit draw_figure_json(const nlohmann::json& figure, const void* id, bool right_align, bool show_unit) {
    const auto v = figure_value(&figure);
    const bool assumption = find_json(figure, {"assumption"}) && find_json(figure, {"assumption"})->is_boolean() &&
                            find_json(figure, {"assumption"})->get<bool>();
    std::string unit = json_string(find_json(figure, {"unit"}));
    if (!show_unit) {
        // "USD/h" -> "USD" (prints "$1.2300"); "fraction..." keeps "%"; others drop the unit.
        if (unit.rfind("USD/", 0) == 0) unit = "USD/";
        else if (unit.rfind("fraction", 0) == 0) unit = "fraction";
        else if (unit != "USD" && unit != "bytes") unit.clear();
    }
    const std::string text = v ? format_quantity(*v, unit) + (assumption ? "*" : "") : "unknown";
    TextFit fit{ImGui::CalcTextSize(text.c_str()).x, ImGui::GetContentRegionAvail().x, text};
    if (right_align) {
        const float slack = fit.room_w - fit.text_w;
        if (slack > 0) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + slack);
    }
    if (v) ImGui::TextUnformatted(text.c_str());
    else ImGui::TextDisabled("%s", text.c_str());
    fit.x = ImGui::GetItemRectMin().x;
    fit.y = ImGui::GetItemRectMin().y;
    fit.h = ImGui::GetItemRectSize().y;
    // Right-click copies the figure (in the browser a touch screen's long press arrives as one:
    // web/shell/touch.js).
    if (ImGui::IsItemHovered() && ImGui::IsMouseReleased(ImGuiMouseButton_Right)) {
        ImGui::SetClipboardText(figure_clipboard_text(figure).c_str());
        ImGui::GetStateStorage()->SetFloat(ImGui::GetID(id), static_cast<float>(ImGui::GetTime()));
    }
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        const float copied_at = ImGui::GetStateStorage()->GetFloat(ImGui::GetID(id), -100.0f);
        if (ImGui::GetTime() - copied_at < 2.0) ImGui::TextColored(to_vec4(palette().good), "Copied the value and its explanation");
        else ImGui::TextDisabled("Right-click to copy the value and its explanation");
        figure_tooltip(figure);
        ImGui::EndTooltip();
    }
    return fit;
}

std::vector<DrawnFigure>& drawn_list() {
    static std::vector<DrawnFigure> drawn;
    return drawn;
}
// The title of the section being drawn (heading()), for the figures under it.
std::string& current_section() {
    static std::string section;
    return section;
}
}  // namespace

void figure_value_text(const nlohmann::json* figure, bool right_align, bool show_unit) {
    if (!figure || !figure->is_object()) {
        ImGui::TextDisabled("-");
        return;
    }
    draw_figure_json(*figure, figure, right_align, show_unit);
}

void figure_value_text(const Figure& figure, std::string_view label, bool right_align, bool show_unit, std::string_view document_name) {
    nlohmann::json document = figure_json(figure);
    TextFit fit = draw_figure_json(document, &figure, right_align, show_unit);
    drawn_list().push_back({document_name.empty() ? figure.name : std::string(document_name), std::string(label), figure.value, figure.unit,
                            fit.text_w, fit.room_w, std::move(fit.text), current_section(), std::move(document), fit.x, fit.y, fit.h});
}

const std::vector<DrawnFigure>& drawn_figures() { return drawn_list(); }
void clear_drawn_figures() {
    drawn_list().clear();
    current_section().clear();
}

std::string figure_clipboard_text(const nlohmann::json& figure) {
    const auto v = figure_value(&figure);
    const std::string unit = json_string(find_json(figure, {"unit"}));
    const std::string text = v ? format_quantity(*v, unit) : "unknown: " + json_string(find_json(figure, {"unknown"}), "no reason recorded");
    const std::string explanation = figure_explanation_text(figure);
    return text + (explanation.empty() ? "" : "\n") + explanation + "\n";
}

std::string figure_explanation_text(const nlohmann::json& figure) {
    std::vector<std::string> lines;
    const std::string formula = json_string(find_json(figure, {"explain", "formula"}));
    const std::string worked = json_string(find_json(figure, {"explain", "worked"}));
    if (!formula.empty()) lines.push_back("formula: " + formula);
    if (!worked.empty()) lines.push_back("worked: " + worked);
    if (const nlohmann::json* inputs = find_json(figure, {"explain", "inputs"}); inputs && inputs->is_array())
        for (const auto& in : *inputs) {
            const auto value = json_number(find_json(in, {"value"}));
            std::string line = "- " + json_string(find_json(in, {"name"})) + " = " +
                               (value ? format_quantity(*value, json_string(find_json(in, {"unit"}))) : std::string("unknown")) + " [" +
                               json_string(find_json(in, {"origin"})) + "]";
            if (const std::string source = json_string(find_json(in, {"source"})); !source.empty()) line += " " + source;
            lines.push_back(std::move(line));
        }
    std::string text;
    for (const std::string& line : lines) text += (text.empty() ? "" : "\n") + line;
    return text;
}

namespace {
// A label | value table. No wider than a reader's eye travels from a label to its value: on a
// wide window the table keeps its width instead of pushing the values to the far edge.
bool begin_figure_table(const char* id) {
    const float width = std::min(ImGui::GetContentRegionAvail().x, em(44));
    if (!ImGui::BeginTable(id, 2, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH, ImVec2(width, 0)))
        return false;
    ImGui::TableSetupColumn("figure", ImGuiTableColumnFlags_WidthStretch, 1.4f);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    return true;
}
}  // namespace

void figure_table(const char* id, std::initializer_list<TypedFigureRow> rows) {
    if (!begin_figure_table(id)) return;
    for (const TypedFigureRow& row : rows) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(row.label);
        ImGui::TableSetColumnIndex(1);
        figure_value_text(row.figure, row.label);
    }
    ImGui::EndTable();
}

void heading(const char* text) {
    current_section() = text;
    ImGui::Dummy(ImVec2(0, em(0.35f)));
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette().text));
    ImGui::PushTextWrapPos(0);  // a long title wraps on a phone
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::GetWindowDrawList()->AddLine(ImVec2(p.x, p.y - em(0.15f)), ImVec2(p.x + ImGui::GetContentRegionAvail().x, p.y - em(0.15f)),
                                        palette().grid, 1.0f);
    ImGui::Dummy(ImVec2(0, em(0.1f)));
}

void note(const char* text) {
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette().text_dim));
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
}

void help_marker(const char* text) {
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(em(30));
        ImGui::TextUnformatted(text);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

bool empty_state(const char* what, const char* button_label) {
    ImGui::Dummy(ImVec2(0, em(1)));
    note(what);
    ImGui::Dummy(ImVec2(0, em(0.3f)));
    if (!button_label) return false;
    const bool pressed = ImGui::Button(button_label);
    mark_widget(button_label);
    return pressed;
}

void stacked_bar(const char* id, const std::vector<Segment>& segments, double capacity, const char* unit,
                 const char* capacity_label) {
    ImGui::PushID(id);
    double total = 0;
    for (const Segment& s : segments) total += std::max(0.0, s.value);
    const double scale_max = std::max({capacity, total, 1e-9});
    const float width = ImGui::GetContentRegionAvail().x, height = em(1.5f);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##bar", ImVec2(std::max(width, em(4)), height));
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(p, ImVec2(p.x + width, p.y + height), palette().plot_bg, em(0.2f));
    float x = p.x;
    const float mouse_x = ImGui::GetIO().MousePos.x;
    const Segment* under = nullptr;
    for (const Segment& s : segments) {
        const float w = static_cast<float>(std::max(0.0, s.value) / scale_max * width);
        if (w <= 0) continue;
        dl->AddRectFilled(ImVec2(x, p.y), ImVec2(x + w, p.y + height), s.colour);
        if (hovered && mouse_x >= x && mouse_x < x + w) under = &s;
        x += w;
    }
    if (capacity > 0) {
        const float cx = p.x + static_cast<float>(capacity / scale_max * width);
        dl->AddLine(ImVec2(cx, p.y - em(0.2f)), ImVec2(cx, p.y + height + em(0.2f)), total > capacity ? palette().bad : palette().axis, em(0.12f));
    }
    if (hovered) {
        ImGui::BeginTooltip();
        if (under) {
            ImGui::Text("%s: %s", under->label.c_str(), format_quantity(under->value, unit).c_str());
            if (!under->tooltip.empty()) {
                ImGui::PushTextWrapPos(em(30));
                ImGui::TextDisabled("%s", under->tooltip.c_str());
                ImGui::PopTextWrapPos();
            }
        }
        ImGui::Text("total %s of %s %s", format_quantity(total, unit).c_str(), format_quantity(capacity, unit).c_str(), capacity_label);
        ImGui::EndTooltip();
    }
    // Legend under the bar: entries side by side while they fit, else on the next line.
    bool first = true;
    for (const Segment& s : segments) {
        if (s.value <= 0) continue;
        const std::string entry = s.label + " " + format_quantity(s.value, unit);
        if (!first) same_line_if_fits(em(0.9f) + ImGui::CalcTextSize(entry.c_str()).x, em(1));
        first = false;
        const ImVec2 q = ImGui::GetCursorScreenPos();
        dl->AddRectFilled(ImVec2(q.x, q.y + em(0.25f)), ImVec2(q.x + em(0.6f), q.y + em(0.85f)), s.colour, 2);
        ImGui::Dummy(ImVec2(em(0.7f), em(1)));
        ImGui::SameLine(0, em(0.2f));
        ImGui::TextDisabled("%s", entry.c_str());
    }
    ImGui::PopID();
}


namespace {
std::vector<WidgetRect>& widget_marks() {
    static std::vector<WidgetRect> marks;
    return marks;
}
}  // namespace

void mark_widget(const std::string& label) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    // "words##id" is marked as "words"; "##words" (a field with no visible label, such as a
    // table cell) as "words".
    const std::size_t hashes = label.find("##");
    const std::string name = hashes == 0 ? label.substr(2) : label.substr(0, hashes);
    widget_marks().push_back({name, a.x, a.y, b.x - a.x, b.y - a.y});
}
namespace {
// Whether an item `width` wide starting at screen x `left` ends before the right edge of the
// window's work area (where the window clips it).
bool fits_before_right_edge(float left, float width) { return left + width <= ImGui::GetCurrentWindow()->WorkRect.Max.x; }
}  // namespace

void same_line_if_fits(float next_width, float spacing) {
    const float gap = spacing < 0 ? ImGui::GetStyle().ItemSpacing.x : spacing;
    if (fits_before_right_edge(ImGui::GetItemRectMax().x + gap, next_width)) ImGui::SameLine(0, gap);
}

void new_line_unless_fits(float next_width) {
    if (ImGui::TableGetColumnCount() > 0) return;  // a table sizes its cells
    const ImGuiWindow* window = ImGui::GetCurrentWindow();
    const float line_start = window->Pos.x + window->DC.Indent.x + window->DC.ColumnsOffset.x;
    if (window->DC.CursorPos.x <= line_start + 1.0f) return;  // already at the start of a line
    if (!fits_before_right_edge(window->DC.CursorPos.x, next_width)) ImGui::NewLine();
}
void dim_text_beside(const std::string& text) {
    new_line_unless_fits(ImGui::CalcTextSize(text.c_str()).x);
    ImGui::TextDisabled("%s", text.c_str());
}

int side_by_side_columns() { return ImGui::GetContentRegionAvail().x >= em(44) ? 2 : 1; }

bool begin_sideways_scroll(const char* id, float min_width, float height) {
    if (ImGui::GetContentRegionAvail().x >= min_width) return false;
    ImGui::BeginChild(id, ImVec2(0, height + ImGui::GetStyle().ScrollbarSize + 4), false, ImGuiWindowFlags_HorizontalScrollbar);
    return true;
}

void end_sideways_scroll(bool opened) {
    if (opened) ImGui::EndChild();
}

const std::vector<WidgetRect>& marked_widgets() { return widget_marks(); }
void clear_marked_widgets() { widget_marks().clear(); }

std::string keyboard_framed_widget() {
    const ImGuiContext* g = ImGui::GetCurrentContext();
    if (!g || !g->NavWindow || g->NavId == 0) return "";
    const ImVec2 c = ImGui::WindowRectRelToAbs(g->NavWindow, g->NavWindow->NavRectRel[g->NavLayer]).GetCenter();
    for (const auto& w : widget_marks())
        if (c.x >= w.x && c.x <= w.x + w.w && c.y >= w.y && c.y <= w.y + w.h) return w.label;
    return "(unmarked)";
}

void memory_verdict(double used_gb, double capacity_gb) {
    const Palette& pal = palette();
    const bool fits = used_gb <= capacity_gb;
    const bool tight = fits && used_gb > kTightMemoryShare * capacity_gb;
    const char* verdict = !fits ? "does not fit" : tight ? "tight: over 90% full" : "fits";
    ImGui::PushTextWrapPos(0);  // wraps on a phone
    ImGui::TextColored(to_vec4(!fits ? pal.bad : tight ? pal.warn : pal.good), "%s of %s per GPU (%.1f%% full): %s",
                       memory_text(used_gb).c_str(), memory_text(capacity_gb).c_str(),
                       capacity_gb > 0 ? 100.0 * used_gb / capacity_gb : 0.0, verdict);
    ImGui::PopTextWrapPos();
}

std::string memory_text(double gb) { return format_quantity(gb_to_gib(gb), "GiB"); }

void memory_bar(const char* id, std::vector<Segment> segments_gb, double capacity_gb) {
    for (Segment& s : segments_gb) {
        s.tooltip += (s.tooltip.empty() ? "" : "\n") + std::string("(the model works in GB = 10^9 bytes: ") +
                     format_quantity(s.value, "GB") + "; shown in GiB = 2^30 bytes, as EC2 states GPU memory)";
        s.value = gb_to_gib(s.value);
    }
    stacked_bar(id, segments_gb, gb_to_gib(capacity_gb), "GiB", "GPU memory");
}

}  // namespace gpuplan::ui
