// gui_window.hpp — `gpuplan gui`: the planner's views (core/ui draw_app) in a desktop window,
// SDL2 + OpenGL 3.2 core + Dear ImGui. Desktop-only code lives in native/gui/.
#pragma once

#include <stdexcept>
#include <string>

#include "gpuplan/catalog/catalog.hpp"
#include "ui/app_options.hpp"

namespace gpuplan::gui {

struct GuiOptions {
    ui::AppOptions app;                 // --view, --scenario, --embed, --theme (as in a link)
    std::string bench_text, bench_source;  // --results FILE: a gpuplan.bench/1 file to import
    std::string screenshot_path;        // --screenshot FILE: draw `frames` frames, save a PNG, exit
    int frames = 5;                     // --frames N (with --screenshot)
    int width = 1280, height = 800;     // --size WxH, in screen coordinates
};

// There is no display to open a window on (no DISPLAY / WAYLAND_DISPLAY, or SDL could not
// open one); the message says what was tried and what to do.
class NoDisplay : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Opens the window and runs until it is closed (or, with a screenshot path, until the
// screenshot is written). Throws NoDisplay, or std::runtime_error for a GL/SDL failure.
void run_gui(const GuiOptions& options, const Catalog& catalog);

}  // namespace gpuplan::gui
