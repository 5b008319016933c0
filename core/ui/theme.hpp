// theme.hpp — colours, spacing and the UI font (the declarations the shells call are in
// app.hpp: apply_theme, load_fonts). Views ask for semantic colours here instead of writing
// RGB values, so the light and dark themes stay consistent.
#pragma once

#include "imgui.h"

namespace gpuplan::ui {

// Semantic colours of the current theme (set by apply_theme).
struct Palette {
    ImU32 text, text_dim, grid, axis, plot_bg;
    ImU32 series[6];            // chart series, colour-blind-safe order (Okabe-Ito)
    ImU32 good, warn, bad;      // status text
    ImU32 accent;               // selection, highlighted point
};
const Palette& palette();
ImVec4 to_vec4(ImU32 colour);
// The scale of the last apply_theme call (draw_app re-applies the theme with it when the user
// switches between light and dark).
float theme_scale();

// Sizes in font units: em(2) = twice the current font height, so layouts scale with HiDPI.
inline float em(float n) { return ImGui::GetFontSize() * n; }

}  // namespace gpuplan::ui
