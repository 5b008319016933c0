// plot.cpp — see plot.hpp. One plot at a time (no nesting), state in a single static.
#include "ui/plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "ui/theme.hpp"

namespace gpuplan::ui::plot {
namespace {

enum class Kind { line, scatter, bars, rect, vline, hline };

struct Item {
    Kind kind;
    std::string label;
    ImU32 colour;
    std::vector<double> xs, ys;           // points; bars: xs = centres, ys = heights; rect: x0,x1 / y0,y1
    std::vector<std::string> tooltips;
    double width = 0;                     // bars
    float radius_em = 0.3f;
    bool legend = true;
};

struct Plot {
    bool open = false;
    ImVec2 pos, size;
    std::string x_label, y_label;
    std::string x_format = "%g", y_format = "%g";
    bool fixed_limits = false;
    double x_min = 0, x_max = 1, y_min = 0, y_max = 1;
    std::vector<std::string> y_ticks, x_ticks;
    std::vector<Item> items;
    int next_colour = 0;
};

Plot g;
int g_last_hovered = -1;

ImU32 auto_colour(ImU32 colour) {
    if (colour != 0) return colour;
    return palette().series[g.next_colour++ % 6];
}

std::string format_tick(const std::string& format, double v) {
    char buf[48];
    if (std::fabs(v) < 1e-12) v = 0;
    // Large values get thousands shortened so ticks stay narrow ("12k", "$1.5M"); a format's
    // text before its "%" (a currency sign) is kept.
    if (std::fabs(v) >= 10000) {
        const std::string prefix = format.substr(0, format.find('%'));
        if (std::fabs(v) >= 1e6) std::snprintf(buf, sizeof buf, "%s%gM", prefix.c_str(), v / 1e6);
        else std::snprintf(buf, sizeof buf, "%s%gk", prefix.c_str(), v / 1e3);
        return buf;
    }
    std::snprintf(buf, sizeof buf, format.c_str(), v);
    return buf;
}

void fit_limits() {
    if (g.fixed_limits) return;
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = 0, y1 = -x0;
    bool any_y = false;
    for (const Item& it : g.items) {
        for (std::size_t k = 0; k < it.xs.size(); ++k) {
            if (!std::isfinite(it.xs[k])) continue;
            const double half = it.kind == Kind::bars ? it.width / 2 : 0;
            if (it.kind != Kind::hline) {
                x0 = std::min(x0, it.xs[k] - half);
                x1 = std::max(x1, it.xs[k] + half);
            }
        }
        for (double y : it.ys) {
            if (!std::isfinite(y) || it.kind == Kind::vline) continue;
            y0 = std::min(y0, y);
            y1 = std::max(y1, y);
            any_y = true;
        }
    }
    if (!std::isfinite(x0) || !std::isfinite(x1)) x0 = 0, x1 = 1;
    // Points and lines get a margin so markers at the ends are not cut in half.
    const bool has_points = std::any_of(g.items.begin(), g.items.end(), [](const Item& it) { return it.kind == Kind::scatter; });
    if (has_points && x1 > x0) {
        const double pad = (x1 - x0) * 0.04;
        x0 -= pad, x1 += pad;
    }
    if (!any_y) y1 = 1;
    if (x1 <= x0) x1 = x0 + 1;
    if (y1 <= y0) y1 = y0 + 1;
    g.x_min = x0;
    g.x_max = x1;
    g.y_min = y0;
    g.y_max = y1 + (y1 - y0) * 0.08;  // headroom for the top point and its label
    if (!g.y_ticks.empty()) g.y_min = -0.5, g.y_max = static_cast<double>(g.y_ticks.size()) - 0.5;
    if (!g.x_ticks.empty()) g.x_min = -0.5, g.x_max = static_cast<double>(g.x_ticks.size()) - 0.5;
}

}  // namespace

double nice_step(double lo, double hi, int target) {
    const double span = hi - lo;
    if (!(span > 0) || target < 1) return 1;
    const double raw = span / target;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double r = raw / magnitude;
    const double nice = r < 1.5 ? 1 : r < 3 ? 2 : r < 7 ? 5 : 10;
    return nice * magnitude;
}

bool BeginPlot(const char* id, ImVec2 size) {
    IM_ASSERT(!g.open && "BeginPlot: EndPlot was not called for the previous plot");
    if (size.x <= 0) size.x = ImGui::GetContentRegionAvail().x;
    if (size.y <= 0) size.y = em(16);
    size.x = std::max(size.x, em(8));
    ImGui::PushID(id);
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##plot", size);
    if (!ImGui::IsItemVisible()) {
        ImGui::PopID();
        return false;
    }
    g = Plot{};
    g.open = true;
    g.pos = pos;
    g.size = size;
    return true;
}

void SetupAxes(const char* x_label, const char* y_label) {
    g.x_label = x_label ? x_label : "";
    g.y_label = y_label ? y_label : "";
}

void SetupAxisLimits(double x_min, double x_max, double y_min, double y_max) {
    if (!(x_max > x_min) || !(y_max > y_min)) return;  // keep auto-fit for a degenerate range
    g.fixed_limits = true;
    g.x_min = x_min, g.x_max = x_max, g.y_min = y_min, g.y_max = y_max;
}

void SetupAxisTicksY(const std::vector<std::string>& labels) { g.y_ticks = labels; }
void SetupAxisTicksX(const std::vector<std::string>& labels) { g.x_ticks = labels; }
void SetupAxisFormat(const char* x_format, const char* y_format) {
    if (x_format) g.x_format = x_format;
    if (y_format) g.y_format = y_format;
}

void PlotLine(const char* label, const double* xs, const double* ys, int count, ImU32 colour) {
    if (count <= 0 || !xs || !ys) return;
    g.items.push_back({Kind::line, label, auto_colour(colour), {xs, xs + count}, {ys, ys + count}, {}});
}

void PlotScatter(const char* label, const double* xs, const double* ys, int count, const std::vector<std::string>* tooltips,
                 ImU32 colour, float radius_em) {
    if (count <= 0 || !xs || !ys) return;
    Item it{Kind::scatter, label, auto_colour(colour), {xs, xs + count}, {ys, ys + count}, {}};
    if (tooltips) it.tooltips = *tooltips;
    it.radius_em = radius_em;
    g.items.push_back(std::move(it));
}

void PlotBars(const char* label, const double* values, int count, double width, ImU32 colour,
              const std::vector<std::string>* tooltips) {
    if (count <= 0 || !values) return;
    Item it{Kind::bars, label, auto_colour(colour), {}, {values, values + count}, {}};
    for (int k = 0; k < count; ++k) it.xs.push_back(k);
    it.width = width;
    if (tooltips) it.tooltips = *tooltips;
    g.items.push_back(std::move(it));
}

void PlotRect(const char* label, double x0, double x1, double y0, double y1, ImU32 colour, const std::string& tooltip) {
    // Rects of one label share a legend entry: only the first is listed.
    bool seen = false;
    for (const Item& it : g.items) seen = seen || (it.kind == Kind::rect && it.label == label);
    Item it{Kind::rect, label, colour, {x0, x1}, {y0, y1}, {tooltip}};
    it.legend = !seen;
    g.items.push_back(std::move(it));
}

void PlotVLine(const char* label, double x, ImU32 colour) {
    Item it{Kind::vline, label, colour ? colour : palette().accent, {x}, {}, {}};
    it.legend = false;
    g.items.push_back(std::move(it));
}

void PlotHLine(const char* label, double y, ImU32 colour) {
    Item it{Kind::hline, label, colour ? colour : palette().accent, {}, {y}, {}};
    it.legend = false;
    g.items.push_back(std::move(it));
}

int LastHoveredPoint() { return g_last_hovered; }

void EndPlot() {
    IM_ASSERT(g.open && "EndPlot without BeginPlot");
    g.open = false;
    fit_limits();
    const Palette& pal = palette();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float fs = ImGui::GetFontSize();

    // Plot area inside the frame: room for y tick labels on the left, x ticks + label below.
    float y_tick_width = 0;
    const double y_step = nice_step(g.y_min, g.y_max, 5);
    std::vector<std::pair<double, std::string>> y_ticks;
    if (!g.y_ticks.empty()) {
        for (std::size_t k = 0; k < g.y_ticks.size(); ++k) y_ticks.emplace_back(static_cast<double>(k), g.y_ticks[k]);
    } else {
        for (double v = std::ceil(g.y_min / y_step) * y_step; v <= g.y_max + y_step * 1e-9; v += y_step)
            y_ticks.emplace_back(v, format_tick(g.y_format, v));
    }
    for (const auto& t : y_ticks) y_tick_width = std::max(y_tick_width, ImGui::CalcTextSize(t.second.c_str()).x);
    const float left = g.pos.x + y_tick_width + fs * (g.y_label.empty() ? 0.6f : 1.8f);
    const float right = g.pos.x + g.size.x - fs * 0.6f;
    const bool has_legend = std::any_of(g.items.begin(), g.items.end(),
                                        [](const Item& it) { return it.legend && !it.label.empty() && it.label[0] != '#'; });
    const float top = g.pos.y + fs * (g.y_label.empty() && !has_legend ? 0.5f : 1.5f);
    const float bottom = g.pos.y + g.size.y - fs * (g.x_label.empty() ? 1.6f : 2.8f);
    if (right - left < fs * 2 || bottom - top < fs * 2) {
        ImGui::PopID();
        return;
    }
    const auto X = [&](double x) { return static_cast<float>(left + (x - g.x_min) / (g.x_max - g.x_min) * (right - left)); };
    const auto Y = [&](double y) { return static_cast<float>(bottom - (y - g.y_min) / (g.y_max - g.y_min) * (bottom - top)); };

    dl->AddRectFilled(ImVec2(left, top), ImVec2(right, bottom), pal.plot_bg);
    // Grid and ticks.
    for (const auto& [v, text] : y_ticks) {
        const float y = Y(v);
        if (y < top - 1 || y > bottom + 1) continue;
        dl->AddLine(ImVec2(left, y), ImVec2(right, y), pal.grid);
        const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
        dl->AddText(ImVec2(left - ts.x - fs * 0.3f, y - ts.y / 2), pal.text_dim, text.c_str());
    }
    if (!g.x_ticks.empty()) {
        for (std::size_t k = 0; k < g.x_ticks.size(); ++k) {
            const float x = X(static_cast<double>(k));
            const ImVec2 ts = ImGui::CalcTextSize(g.x_ticks[k].c_str());
            dl->AddText(ImVec2(x - ts.x / 2, bottom + fs * 0.25f), pal.text_dim, g.x_ticks[k].c_str());
        }
    } else {
        const int target = std::max(2, static_cast<int>((right - left) / (fs * 6)));
        const double x_step = nice_step(g.x_min, g.x_max, target);
        for (double v = std::ceil(g.x_min / x_step) * x_step; v <= g.x_max + x_step * 1e-9; v += x_step) {
            const float x = X(v);
            dl->AddLine(ImVec2(x, top), ImVec2(x, bottom), pal.grid);
            const std::string text = format_tick(g.x_format, v);
            const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
            dl->AddText(ImVec2(std::clamp(x - ts.x / 2, left - ts.x / 2, right - ts.x), bottom + fs * 0.25f), pal.text_dim, text.c_str());
        }
    }
    dl->AddLine(ImVec2(left, bottom), ImVec2(right, bottom), pal.axis);
    dl->AddLine(ImVec2(left, top), ImVec2(left, bottom), pal.axis);
    if (!g.x_label.empty()) {
        const ImVec2 ts = ImGui::CalcTextSize(g.x_label.c_str());
        dl->AddText(ImVec2((left + right - ts.x) / 2, bottom + fs * 1.45f), pal.text_dim, g.x_label.c_str());
    }
    if (!g.y_label.empty()) {
        // ImGui has no rotated text; the y label sits above the axis, left-aligned.
        dl->AddText(ImVec2(g.pos.x, g.pos.y), pal.text_dim, g.y_label.c_str());
    }

    // Items, clipped to the plot area; hover finds the nearest point / the rect under the mouse.
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const bool mouse_in = ImGui::IsItemHovered() && mouse.x >= left && mouse.x <= right && mouse.y >= top && mouse.y <= bottom;
    const Item* hovered_item = nullptr;
    std::size_t hovered_index = 0;
    float best = fs * 0.8f;
    int scatter_index = 0, hovered_scatter = -1;
    dl->PushClipRect(ImVec2(left, top), ImVec2(right + 1, bottom + 1), true);
    for (const Item& it : g.items) {
        switch (it.kind) {
        case Kind::line: {
            std::vector<ImVec2> pts;
            for (std::size_t k = 0; k < it.xs.size(); ++k)
                if (std::isfinite(it.xs[k]) && std::isfinite(it.ys[k])) pts.emplace_back(X(it.xs[k]), Y(it.ys[k]));
            if (pts.size() >= 2) dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), it.colour, 0, fs * 0.14f);
            for (std::size_t k = 0; k < it.xs.size() && mouse_in; ++k) {
                const float d = std::fabs(X(it.xs[k]) - mouse.x) + std::fabs(Y(it.ys[k]) - mouse.y) * 0.5f;
                if (d < best) best = d, hovered_item = &it, hovered_index = k;
            }
            break;
        }
        case Kind::scatter:
            for (std::size_t k = 0; k < it.xs.size(); ++k, ++scatter_index) {
                if (!std::isfinite(it.xs[k]) || !std::isfinite(it.ys[k])) continue;
                const ImVec2 p(X(it.xs[k]), Y(it.ys[k]));
                dl->AddCircleFilled(p, fs * it.radius_em, it.colour);
                if (!mouse_in) continue;
                const float d = std::hypot(p.x - mouse.x, p.y - mouse.y);
                if (d < best) best = d, hovered_item = &it, hovered_index = k, hovered_scatter = scatter_index;
            }
            break;
        case Kind::bars:
            for (std::size_t k = 0; k < it.xs.size(); ++k) {
                if (!std::isfinite(it.ys[k])) continue;
                const ImVec2 a(X(it.xs[k] - it.width / 2), Y(std::max(it.ys[k], 0.0))), b(X(it.xs[k] + it.width / 2), Y(std::min(it.ys[k], 0.0)));
                dl->AddRectFilled(a, b, it.colour, fs * 0.12f, ImDrawFlags_RoundCornersTop);
                if (mouse_in && mouse.x >= a.x && mouse.x <= b.x) hovered_item = &it, hovered_index = k, best = 0;
            }
            break;
        case Kind::rect: {
            const ImVec2 a(X(it.xs[0]), Y(it.ys[1])), b(X(it.xs[1]), Y(it.ys[0]));
            dl->AddRectFilled(a, ImVec2(std::max(b.x, a.x + 1.0f), b.y), it.colour);
            if (mouse_in && mouse.x >= a.x - 1 && mouse.x <= b.x + 1 && mouse.y >= a.y && mouse.y <= b.y) hovered_item = &it, hovered_index = 0, best = 0;
            break;
        }
        case Kind::vline: {
            const float x = X(it.xs[0]);
            dl->AddLine(ImVec2(x, top), ImVec2(x, bottom), it.colour, fs * 0.08f);
            dl->AddText(ImVec2(x + fs * 0.25f, top + fs * 0.1f), it.colour, it.label.c_str());
            break;
        }
        case Kind::hline: {
            const float y = Y(it.ys[0]);
            dl->AddLine(ImVec2(left, y), ImVec2(right, y), it.colour, fs * 0.08f);
            dl->AddText(ImVec2(left + fs * 0.3f, y - fs * 1.1f), it.colour, it.label.c_str());
            break;
        }
        }
    }
    dl->PopClipRect();
    g_last_hovered = hovered_scatter;

    // Legend: one line above the plot area, right-aligned, so it never covers the data.
    float legend_x = right;
    for (auto it = g.items.rbegin(); it != g.items.rend(); ++it) {
        if (!it->legend || it->label.empty() || it->label[0] == '#') continue;
        const ImVec2 ts = ImGui::CalcTextSize(it->label.c_str());
        legend_x -= ts.x + fs * 0.8f;
        const float y = g.pos.y;
        dl->AddRectFilled(ImVec2(legend_x, y + ts.y * 0.25f), ImVec2(legend_x + fs * 0.5f, y + ts.y * 0.75f), it->colour, 2);
        dl->AddText(ImVec2(legend_x + fs * 0.7f, y), pal.text, it->label.c_str());
        legend_x -= fs * 1.0f;
    }

    if (hovered_item) {
        const Item& it = *hovered_item;
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(fs * 30);
        if (!it.label.empty() && it.label[0] != '#') ImGui::TextUnformatted(it.label.c_str());
        if (it.kind == Kind::rect) {
            ImGui::Text("%s - %s", format_tick(g.x_format, it.xs[0]).c_str(), format_tick(g.x_format, it.xs[1]).c_str());
        } else if (it.kind == Kind::bars) {
            if (!g.x_ticks.empty() && hovered_index < g.x_ticks.size()) ImGui::TextUnformatted(g.x_ticks[hovered_index].c_str());
            ImGui::Text("%s: %s", g.y_label.c_str(), format_tick(g.y_format, it.ys[hovered_index]).c_str());
        } else {
            ImGui::Text("%s: %s", g.x_label.c_str(), format_tick(g.x_format, it.xs[hovered_index]).c_str());
            ImGui::Text("%s: %s", g.y_label.c_str(), format_tick(g.y_format, it.ys[hovered_index]).c_str());
        }
        const std::size_t tip = it.kind == Kind::rect ? 0 : hovered_index;
        if (tip < it.tooltips.size() && !it.tooltips[tip].empty()) ImGui::TextDisabled("%s", it.tooltips[tip].c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
        if (it.kind == Kind::scatter || it.kind == Kind::line) {
            const ImVec2 p(X(it.xs[hovered_index]), Y(it.ys[hovered_index]));
            dl->AddCircle(p, fs * 0.55f, pal.accent, 0, fs * 0.1f);
        }
    }
    ImGui::PopID();
}

}  // namespace gpuplan::ui::plot
