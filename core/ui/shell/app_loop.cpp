// app_loop.cpp — see app_loop.hpp.
#include "ui/shell/app_loop.hpp"

#include <algorithm>

#include "imgui.h"
#include "imgui_impl_opengl3.h"
#include "imgui_impl_sdl.h"
#include "ui/names.hpp"

// The GL calls a frame makes (viewport, clear): WebGL2's GL ES 3.0, or desktop GL through SDL.
#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#include <SDL_opengl.h>
#endif

namespace gpuplan::shell {

SplitEvents split_quick_key_releases(const std::vector<SDL_Event>& events) {
    SplitEvents out;
    std::vector<SDL_Keycode> pressed_now;
    for (const SDL_Event& event : events) {
        if (event.type == SDL_KEYDOWN) pressed_now.push_back(event.key.keysym.sym);
        const bool quick_release =
            event.type == SDL_KEYUP && std::find(pressed_now.begin(), pressed_now.end(), event.key.keysym.sym) != pressed_now.end();
        (quick_release ? out.held : out.now).push_back(event);
    }
    return out;
}

AppLoop::AppLoop(SDL_Window* window, ui::AppState& state, Platform& platform)
    : window_(window), state_(state), platform_(platform), applied_dark_theme_(state.dark_theme) {}

void AppLoop::request_frames(int frames) { frames_pending_ = std::max(frames_pending_, frames); }

bool AppLoop::pump_input() {
    std::vector<SDL_Event> events = std::move(held_key_ups_);
    held_key_ups_.clear();
    SDL_Event event;
    while (SDL_PollEvent(&event)) events.push_back(event);
    // Releases held from the last turn go first; their presses were fed then, so they are not held again.
    SplitEvents split = split_quick_key_releases(events);
    for (SDL_Event& e : split.now) {
        ImGui_ImplSDL2_ProcessEvent(&e);
        if (e.type == SDL_QUIT || (e.type == SDL_WINDOWEVENT && e.window.event == SDL_WINDOWEVENT_CLOSE)) open_ = false;
    }
    held_key_ups_ = std::move(split.held);
    return !events.empty();
}

bool AppLoop::turn() {
    if (frames_pending_ == 0 && !platform_.busy() && platform_.sleeps_when_idle()) {
        SDL_Event event;
        if (SDL_WaitEvent(&event) == 0) return false;
        SDL_PushEvent(&event);  // read with the rest below
    }
    if (pump_input()) request_frames();
    if (platform_.busy()) request_frames(1);
    if (!open_) return false;
    if (frames_pending_ == 0) return true;  // idle: the window keeps showing the last frame
    --frames_pending_;
    open_ = draw_frame();
    return open_;
}

bool AppLoop::draw_frame() {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    platform_.before_new_frame();
    ImGui::NewFrame();
    ui::draw_app(state_);
    // A change made in this frame (a button that sets a scenario) brings new tables: their
    // auto-fit columns settle over the next frames, not the ones the click already asked for.
    if (state_.scenario_changed) request_frames();
    platform_.draw_beside_views(state_);
    ImGui::Render();
    if (state_.dark_theme != applied_dark_theme_) {  // the theme switch in draw_app's chrome
        ui::apply_theme(state_.dark_theme, 1.0f);
        applied_dark_theme_ = state_.dark_theme;
        request_frames();
    }

    // The drawable is in device pixels (SDL applies the page's devicePixelRatio or the screen's scale).
    int width_px = 0, height_px = 0;
    SDL_GL_GetDrawableSize(window_, &width_px, &height_px);
    glViewport(0, 0, width_px, height_px);
    const ImVec4 background = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(background.x, background.y, background.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    ++frames_drawn_;
    const bool keep_open = platform_.after_frame(state_, FrameInfo{.frames_drawn = frames_drawn_, .frames_pending = frames_pending_});
    SDL_GL_SwapWindow(window_);  // a no-op in the browser; kept so the loop reads as usual
    return keep_open;
}

void start_imgui(SDL_Window* window, SDL_GLContext gl, const char* glsl_version, const std::string& font_path, bool dark_theme) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // layout is not persisted; the state is the scenario
    ui::configure_input();
    ImGui_ImplSDL2_InitForOpenGL(window, gl);
    ImGui_ImplOpenGL3_Init(glsl_version);
    // ImGui works in window (CSS) pixels; the font is rasterised at the pixel ratio.
    int window_w = 0, drawable_w = 0, unused = 0;
    SDL_GetWindowSize(window, &window_w, &unused);
    SDL_GL_GetDrawableSize(window, &drawable_w, &unused);
    const float pixel_ratio = window_w > 0 ? static_cast<float>(drawable_w) / static_cast<float>(window_w) : 1.0f;
    ui::load_fonts(1.0f, font_path, pixel_ratio);
    ui::apply_theme(dark_theme, 1.0f);
}

void stop_imgui() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
}

std::vector<std::string> apply_app_options(ui::AppState& state, const ui::AppOptions& options, std::string_view scenario_label) {
    std::vector<std::string> errors;
    state.view = options.view;
    state.embed = options.embed;
    // Light unless asked for dark (the docs pages embed views on a light background).
    state.dark_theme = options.dark_theme.value_or(false);
    state.show_frame_timing = options.debug;
    if (options.scenario) {
        ui::set_scenario(state, *options.scenario);
        if (!state.error.empty()) errors.push_back(std::string(scenario_label) + ": " + ui::human_error(state.error));
    }
    if (!options.catalog.empty()) ui::set_catalog_view_link(state, options.catalog);  // resolved: it reads the catalog
    if (!options.chart_ranges.empty()) ui::set_chart_ranges_view_link(state, options.chart_ranges);
    return errors;
}

}  // namespace gpuplan::shell
