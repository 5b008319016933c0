// plot.hpp — small charts in the ImPlot style (ImPlot is not packaged for Debian), drawn with
// ImDrawList:
//
//   if (plot::BeginPlot("##cost", ImVec2(-1, em(16)))) {
//       plot::SetupAxes("months", "USD");
//       plot::PlotLine("on-demand", xs, ys, n);
//       plot::PlotScatter("frontier", xs, ys, n, tips);
//       plot::EndPlot();                          // axes, ticks, legend, hover are drawn here
//   }
//
// Items are collected between BeginPlot and EndPlot and drawn at EndPlot, so the axis limits
// fit the data of this frame (unless SetupAxisLimits fixed them). Hovering a point, bar or
// rectangle shows its label and values (and the tooltip text given with it).
#pragma once

#include <string>
#include <vector>

#include "imgui.h"

namespace gpuplan::ui::plot {

// size.x <= 0: the available width; size.y <= 0: 16 em. Returns false when clipped away
// (then do not call EndPlot), like ImGui::BeginChild's visible result in ImPlot.
bool BeginPlot(const char* id, ImVec2 size = ImVec2(-1, 0));
void SetupAxes(const char* x_label, const char* y_label);
void SetupAxisLimits(double x_min, double x_max, double y_min, double y_max);
// Category labels on the y axis at y = 0, 1, ... (Gantt rows) or the x axis (bar groups).
void SetupAxisTicksY(const std::vector<std::string>& labels);
void SetupAxisTicksX(const std::vector<std::string>& labels);
// Formats tick values: "%g" by default; "$%.0f" for money, etc.
void SetupAxisFormat(const char* x_format, const char* y_format);

// colour 0 = the next series colour of the palette.
void PlotLine(const char* label, const double* xs, const double* ys, int count, ImU32 colour = 0);
// tooltips: optional, one text per point (shown on hover under the values).
void PlotScatter(const char* label, const double* xs, const double* ys, int count,
                 const std::vector<std::string>* tooltips = nullptr, ImU32 colour = 0, float radius_em = 0.3f);
// Vertical bars at x = 0, 1, ... (or xs), width in x units.
void PlotBars(const char* label, const double* values, int count, double width = 0.6, ImU32 colour = 0,
              const std::vector<std::string>* tooltips = nullptr);
// One rectangle [x0, x1] x [y0, y1] (Gantt segments, stacked bars).
void PlotRect(const char* label, double x0, double x1, double y0, double y1, ImU32 colour, const std::string& tooltip = "");
// A vertical line across the plot with a label at its top (break-even, deadline, ...).
void PlotVLine(const char* label, double x, ImU32 colour = 0);
void PlotHLine(const char* label, double y, ImU32 colour = 0);
void EndPlot();

// Index (in submission order of PlotScatter points) that the mouse hovered during the last
// EndPlot of the plot with this id's label, or -1. Lets views link a chart to a table row.
int LastHoveredPoint();

// A "nice" axis step (1, 2, 5 x 10^k) for about `target` ticks over [lo, hi]; exposed for tests.
double nice_step(double lo, double hi, int target);

}  // namespace gpuplan::ui::plot
