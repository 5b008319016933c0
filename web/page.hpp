// page.hpp — what the browser page keeps between frames, shared by the main loop (main.cpp)
// and the JavaScript bridge (page_bridge.cpp).
#pragma once

#include <SDL.h>

#include <optional>
#include <string>
#include <vector>

#include "gpuplan/catalog/catalog.hpp"
#include "ui/app.hpp"
#include "ui/shell/app_loop.hpp"

namespace gpuplan::web {

struct Page {
    SDL_Window* window = nullptr;
    SDL_GLContext gl_context = nullptr;
    std::optional<Catalog> catalog;  // empty when the built-in catalog failed to load
    ui::AppState state;              // the planner: scenario, results, view (core/ui/app.hpp)

    // Why parts of the URL were not used (app_options' errors, a scenario that did not
    // validate); shown in the page's notice banner. Empty when the link was fine.
    std::vector<std::string> url_errors;

    // Text pasted from the browser (gpuplan_page_paste_text) is queued as typed characters;
    // the frame that takes them sees Ctrl and Cmd up (see PagePlatform::before_new_frame).
    bool paste_pending = false;

    // The main loop shared with the desktop (ui/shell/app_loop.hpp); made once graphics start.
    // Input, resizes and bridge calls ask it for frames; an idle page draws nothing (the canvas
    // keeps showing its last frame).
    std::optional<shell::AppLoop> loop;
    bool ready_published = false;

    // What the URL and the host page last heard, to notice changes made inside draw_app.
    ui::View published_view = ui::View::catalog;
    std::string published_catalog;  // the catalog table's link value last put in the URL
    std::string published_charts;   // the charts' ranges last put in the URL
    bool published_dark_theme = false;
};

// Before graphics start there is no loop yet: the first frames draw whatever the bridge set.
inline void request_frames(Page& page, int frames = shell::kFramesAfterChange) {
    if (page.loop) page.loop->request_frames(frames);
}

}  // namespace gpuplan::web
