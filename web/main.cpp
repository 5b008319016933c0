// main.cpp — the browser shell: SDL2 on the page's <canvas id="canvas">, WebGL2 (GL ES 3.0),
// Dear ImGui, and the planner's views from core/ui (draw_app).
//
// Start-up: the link's parameters arrive as arguments (web/shell/shell.js turns
// `?embed=1#view=costs&z=...` into `--embed=1 --view=costs --scenario=...`), parsed by the same CLI11 parser as
// `gpuplan gui` (core/ui/app_options.hpp). Then the browser owns the main loop: main() hands
// run_frame() to emscripten_set_main_loop_arg (one call per requestAnimationFrame) and
// returns. An idle page draws nothing: run_frame only draws after input, a resize or a
// change made through the page bridge (page_bridge.hpp, the only JavaScript interop).
#include <emscripten.h>
#include <GLES3/gl3.h>
#include <SDL.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/input_error.hpp"
#include "imgui.h"
#include "imgui_impl_opengl3.h"
#include "imgui_impl_sdl.h"
#include "page.hpp"
#include "page_bridge.hpp"
#include "ui/app.hpp"
#include "ui/app_options.hpp"
#include "ui/names.hpp"

namespace {

using gpuplan::web::Page;

// Applies the start-up options. What could not be used is kept in url_errors for the notice
// banner; everything else still applies (a half-broken link keeps its readable half).
void apply_options(Page& page, const std::vector<std::string>& args) {
    gpuplan::ui::ParsedAppOptions parsed = gpuplan::ui::parse_app_arguments(args);
    page.url_errors = parsed.errors;
    auto& state = page.state;
    state.view = parsed.options.view;
    state.embed = parsed.options.embed;
    // Light unless the link asks for dark (the docs pages embed views on a light background).
    state.dark_theme = parsed.options.dark_theme.value_or(false);
    state.show_frame_timing = parsed.options.debug;
    if (parsed.options.scenario) {
        gpuplan::ui::set_scenario(state, *parsed.options.scenario);
        if (!state.error.empty()) page.url_errors.push_back("scenario (URL): " + gpuplan::ui::human_error(state.error));
    }
    if (!parsed.options.catalog.empty()) gpuplan::ui::set_catalog_view_link(state, parsed.options.catalog);  // resolved: it reads
    if (!parsed.options.chart_ranges.empty()) gpuplan::ui::set_chart_ranges_view_link(state, parsed.options.chart_ranges);
    page.published_view = state.view;
    page.published_catalog = gpuplan::ui::catalog_view_link(state);
    page.published_charts = gpuplan::ui::chart_ranges_view_link(state);
}

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

// Reads all pending input into ImGui; true when anything arrived. Dear ImGui 1.86 reads a key
// as held or not once per frame, so a key pressed and released between two frames (a quick
// tap, or an automated Tab) would never be seen pressed: such a release is held back to the
// next frame. (Mouse buttons have the same latch inside ImGui's SDL backend.)
bool pump_events(std::vector<SDL_Event>& held_key_ups) {
    bool any = !held_key_ups.empty();
    for (SDL_Event& held : held_key_ups) ImGui_ImplSDL2_ProcessEvent(&held);
    held_key_ups.clear();
    std::vector<SDL_Keycode> pressed_now;
    SDL_Event event;
    while (SDL_PollEvent(&event)) {
        any = true;
        if (event.type == SDL_KEYDOWN) pressed_now.push_back(event.key.keysym.sym);
        if (event.type == SDL_KEYUP &&
            std::find(pressed_now.begin(), pressed_now.end(), event.key.keysym.sym) != pressed_now.end()) {
            held_key_ups.push_back(event);
            continue;
        }
        ImGui_ImplSDL2_ProcessEvent(&event);
    }
    return any;
}

// After a frame: tell the URL and an embedding host what the views changed.
void publish_changes(Page& page) {
    auto& state = page.state;
    bool theme_changed = false;
    if (state.dark_theme != page.applied_dark_theme) {
        gpuplan::ui::apply_theme(state.dark_theme, 1.0f);
        page.applied_dark_theme = state.dark_theme;
        gpuplan::web::request_frames(page);
        theme_changed = true;  // the link and the page around the canvas follow the theme
    }
    // The catalog table's filters, compare selection and sort, and the charts' ranges, are
    // part of the link too.
    const std::string catalog = gpuplan::ui::catalog_view_link(state);
    const std::string charts = gpuplan::ui::chart_ranges_view_link(state);
    if (theme_changed || state.scenario_changed || state.view != page.published_view || catalog != page.published_catalog ||
        charts != page.published_charts) {
        state.scenario_changed = false;
        page.published_view = state.view;
        page.published_catalog = catalog;
        page.published_charts = charts;
        gpuplan::web::publish_state_change(page);
    }
}

// One animation frame: input, then (only if something changed) UI and render.
void run_frame(void* page_pointer) {
    Page& page = *static_cast<Page*>(page_pointer);
    if (pump_events(page.held_key_ups)) gpuplan::web::request_frames(page);
    if (page.frames_pending == 0) return;  // idle: the canvas keeps showing the last frame
    --page.frames_pending;

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    ImGui::NewFrame();
    gpuplan::ui::draw_app(page.state);
    ImGui::Render();

    // The drawable is the canvas in device pixels (SDL applies devicePixelRatio).
    int width_px = 0, height_px = 0;
    SDL_GL_GetDrawableSize(page.window, &width_px, &height_px);
    glViewport(0, 0, width_px, height_px);
    const ImVec4 background = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(background.x, background.y, background.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    SDL_GL_SwapWindow(page.window);  // a no-op in the browser; kept so the loop reads as usual

    ++page.frames_drawn;
    publish_changes(page);
    // Ready once a settled frame is on screen (ImGui lays out auto-fit columns on frame 2).
    if (!page.ready_published && page.frames_drawn >= gpuplan::web::kFramesAfterChange) {
        page.ready_published = true;
        gpuplan::web::publish_ready(page);
    }
}

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

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // no filesystem in the page; layout is not persisted
    ImGui_ImplSDL2_InitForOpenGL(page.window, page.gl_context);
    // Copying (a figure's right-click) goes to the system clipboard through the page: SDL's
    // clipboard in the browser stays inside the program.
    ImGui::GetIO().SetClipboardTextFn = [](void*, const char* text) {
        EM_ASM({ Module.gpuplanShell.copyText(UTF8ToString($0)); }, text);
    };
    ImGui_ImplOpenGL3_Init("#version 300 es");

    // ImGui works in CSS pixels; the font is rasterised at the device pixel ratio.
    int window_w = 0, drawable_w = 0, unused = 0;
    SDL_GetWindowSize(page.window, &window_w, &unused);
    SDL_GL_GetDrawableSize(page.window, &drawable_w, &unused);
    const float pixel_ratio = window_w > 0 ? static_cast<float>(drawable_w) / static_cast<float>(window_w) : 1.0f;
    gpuplan::ui::load_fonts(1.0f, "", pixel_ratio);
    gpuplan::ui::apply_theme(page.state.dark_theme, 1.0f);
    page.applied_dark_theme = page.state.dark_theme;
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    // Lives in static storage: emscripten_set_main_loop_arg(..., true) unwinds main's stack.
    static Page page;
    gpuplan::web::attach_page_bridge(page);
    load_catalog(page);
    apply_options(page, std::vector<std::string>(argv + 1, argv + argc));
    if (!start_graphics(page)) return 1;
    gpuplan::web::request_frames(page);
    // fps 0 = follow requestAnimationFrame; true = never return here (state is in `page`).
    emscripten_set_main_loop_arg(run_frame, &page, 0, true);
    return 0;
}
