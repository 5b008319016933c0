// page.hpp — what the browser page keeps between frames, shared by the main loop (main.cpp)
// and the JavaScript bridge (page_bridge.cpp).
#pragma once

#include <SDL.h>

#include <optional>
#include <string>
#include <vector>

#include "gpuplan/catalog/catalog.hpp"
#include "ui/app.hpp"

namespace gpuplan::web {

struct Page {
    SDL_Window* window = nullptr;
    SDL_GLContext gl_context = nullptr;
    std::optional<Catalog> catalog;  // empty when the built-in catalog failed to load
    ui::AppState state;              // the planner: scenario, results, view (core/ui/app.hpp)

    // Why parts of the URL were not used (app_options' errors, a scenario that did not
    // validate); shown in the page's notice banner. Empty when the link was fine.
    std::vector<std::string> url_errors;

    // Frames still to draw before the page goes idle. Input, resizes and bridge calls raise
    // it; an idle page draws nothing (the canvas keeps showing its last frame).
    int frames_pending = 0;
    std::vector<SDL_Event> held_key_ups;  // key releases held back a frame (main.cpp, pump_events)
    int frames_drawn = 0;
    bool ready_published = false;

    // What the URL and the host page last heard, to notice changes made inside draw_app.
    ui::View published_view = ui::View::catalog;
    std::string published_catalog;  // the catalog table's link value last put in the URL
    std::string published_charts;   // the charts' ranges last put in the URL
    bool applied_dark_theme = false;
};

// ImGui settles auto-fitting columns and tab bars over its first two frames; input changes
// hover and active states that the next frame or two draw. After either, draw this many.
inline constexpr int kFramesAfterChange = 3;

inline void request_frames(Page& page, int frames = kFramesAfterChange) {
    if (page.frames_pending < frames) page.frames_pending = frames;
}

}  // namespace gpuplan::web
