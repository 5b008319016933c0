// main.cpp — the browser shell: SDL2 on the page's <canvas id="canvas">, WebGL2 (GL ES 3.0),
// Dear ImGui, and the planner's views from core/ui (draw_app).
//
// Start-up: the link's parameters arrive as arguments (web/shell/shell.js turns
// `?embed=1#view=costs&z=...` into `--embed=1 --view=costs --scenario=...`), parsed by the same CLI11 parser as
// `gpuplan gui` (core/ui/app_options.hpp). Then the browser owns the main loop: main() hands
// run_frame() to emscripten_set_main_loop_arg (one call per requestAnimationFrame) and
// returns. Each call is one turn of the loop the desktop shares (core/ui/shell/app_loop.hpp).
// An idle page draws nothing: a frame is drawn only after input, a resize or a change made
// through the page bridge (page_bridge.hpp, the only JavaScript interop).
#include <emscripten.h>
#include <SDL.h>

#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/input_error.hpp"
#include "imgui.h"
#include "page.hpp"
#include "page_bridge.hpp"
#include "ui/app.hpp"
#include "ui/app_options.hpp"
#include "ui/names.hpp"
#include "ui/shell/app_loop.hpp"

namespace {

using gpuplan::web::Page;

void load_catalog(Page& page) {
    try {
        page.catalog = gpuplan::load_builtin_catalog();
        page.catalog->today = gpuplan::utc_date(static_cast<std::int64_t>(std::time(nullptr)));  // prices older than 180 days are flagged
        page.state.catalog = &*page.catalog;
    } catch (const gpuplan::InputError& error) {
        // Bad data must not abort the page: draw_app shows the message instead of the views.
        page.state.error = std::string("The built-in catalog could not be loaded: ") + error.what();
        std::fprintf(stderr, "gpuplan: built-in catalog rejected: %s\n", error.what());
    }
}

// After a frame: tell the URL and an embedding host what the views changed.
void publish_changes(Page& page) {
    auto& state = page.state;
    // The theme, the catalog table's filters, compare selection and sort, and the charts'
    // ranges, are part of the link too.
    const std::string catalog = gpuplan::ui::catalog_view_link(state);
    const std::string charts = gpuplan::ui::chart_ranges_view_link(state);
    if (state.dark_theme != page.published_dark_theme || state.scenario_changed || state.view != page.published_view ||
        catalog != page.published_catalog || charts != page.published_charts) {
        state.scenario_changed = false;
        page.published_dark_theme = state.dark_theme;
        page.published_view = state.view;
        page.published_catalog = catalog;
        page.published_charts = charts;
        gpuplan::web::publish_state_change(page);
    }
}

// The browser's side of the shared loop: it never sleeps (the browser calls once per animation
// frame), draws nothing beside the views, and after a frame updates the URL and the host.
class PagePlatform final : public gpuplan::shell::Platform {
public:
    explicit PagePlatform(Page& page) : page_(page) {}
    bool sleeps_when_idle() const override { return false; }
    // The pasted text arrives while Ctrl (or Cmd) is still held for Ctrl+V, and Dear ImGui 1.86
    // drops typed characters while it is (so that Ctrl+letter types nothing): the frame that
    // takes a paste sees it released.
    void before_new_frame() override {
        if (!page_.paste_pending) return;
        page_.paste_pending = false;
        ImGuiIO& io = ImGui::GetIO();
        io.KeyCtrl = io.KeySuper = false;
    }
    bool after_frame(gpuplan::ui::AppState&, const gpuplan::shell::FrameInfo& frame) override {
        publish_changes(page_);
        // Ready once a settled frame is on screen (ImGui lays out auto-fit columns on frame 2).
        if (!page_.ready_published && frame.frames_drawn >= gpuplan::shell::kFramesAfterChange) {
            page_.ready_published = true;
            gpuplan::web::publish_ready(page_);
        }
        return true;
    }

private:
    Page& page_;
};

// One animation frame: input, then (only if something changed) UI and render.
void run_frame(void* page_pointer) { static_cast<Page*>(page_pointer)->loop->turn(); }

// SDL + WebGL2 + ImGui; false (with the message shown on the page) when WebGL2 is missing.
bool start_graphics(Page& page) {
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        gpuplan::web::publish_start_failure(std::string("SDL could not start: ") + SDL_GetError());
        return false;
    }
    // Keyboard events go to the canvas only: the page's buttons keep their keys, and an
    // embedded view never takes keys meant for the host page.
    SDL_SetHint(SDL_HINT_EMSCRIPTEN_KEYBOARD_ELEMENT, "#canvas");
    // GL ES 3.0 is what WebGL2 offers; it must match "#version 300 es" below and the
    // IMGUI_IMPL_OPENGL_ES3 that gpuplan_imgui is built with.
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    // RESIZABLE + a CSS-sized canvas: SDL follows the page (or iframe) size. ALLOW_HIGHDPI:
    // the canvas has CSS size x devicePixelRatio pixels, so text stays sharp.
    constexpr auto window_flags = static_cast<SDL_WindowFlags>(
        SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    page.window = SDL_CreateWindow("gpuplan", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED,
                                   1280, 720, window_flags);
    page.gl_context = page.window ? SDL_GL_CreateContext(page.window) : nullptr;
    if (page.gl_context == nullptr) {
        gpuplan::web::publish_start_failure(std::string("This browser could not create a WebGL2 context (") +
                                            SDL_GetError() + ").");
        return false;
    }

    gpuplan::shell::start_imgui(page.window, page.gl_context, "#version 300 es", "", page.state.dark_theme);
    // Copying (a figure's right-click) goes to the system clipboard through the page: SDL's
    // clipboard in the browser stays inside the program.
    ImGui::GetIO().SetClipboardTextFn = [](void*, const char* text) {
        EM_ASM({ Module.gpuplanShell.copyText(UTF8ToString($0)); }, text);
    };
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    // Lives in static storage: emscripten_set_main_loop_arg(..., true) unwinds main's stack.
    static Page page;
    gpuplan::web::attach_page_bridge(page);
    load_catalog(page);
    gpuplan::web::open_link(page, std::vector<std::string>(argv + 1, argv + argc));
    if (!start_graphics(page)) return 1;
    static PagePlatform platform(page);
    page.loop.emplace(page.window, page.state, platform);
    gpuplan::web::request_frames(page);
    // fps 0 = follow requestAnimationFrame; true = never return here (state is in `page`).
    emscripten_set_main_loop_arg(run_frame, &page, 0, true);
    return 0;
}
