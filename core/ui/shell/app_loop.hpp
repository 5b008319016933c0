// app_loop.hpp — the main loop the browser page (web/main.cpp) and the desktop window
// (native/gui/gui_window.cpp) share, as Tracy's profiler runs one loop over a small Backend:
//
//   each turn:  wait for input when idle (desktop only)
//               read all input into ImGui (a key released in the same turn is held to the next)
//               if a frame is pending: NewFrame → draw_app (+ what the shell draws beside it)
//                                      → Render → the theme → clear, draw → after_frame → swap
//
// What differs between the shells is a Platform: whether it sleeps when idle (the browser
// calls us once per animation frame instead), what it draws beside the views (the desktop's
// Benchmarks panel), whether it is busy (a benchmark running draws every frame), and what it
// does after a frame (the page updates its URL; the desktop writes a screenshot).
//
// Unlike core/ui, this folder uses SDL2 and OpenGL (gpuplan_imgui's backends): it is the shells'
// shared part, not the views'.
#pragma once

#include <SDL.h>

#include <string>
#include <string_view>
#include <vector>

#include "ui/app.hpp"
#include "ui/app_options.hpp"

namespace gpuplan::shell {

// ImGui settles auto-fitting columns and tab bars over its first two frames; input changes
// hover and active states that the next frame or two draw. After either, draw this many.
inline constexpr int kFramesAfterChange = 3;

// What the platform learns after each frame.
struct FrameInfo {
    int frames_drawn = 0;    // including this one
    int frames_pending = 0;  // still to draw before the loop goes idle
};

class Platform {
public:
    virtual ~Platform() = default;
    // True: wait for input in SDL_WaitEvent when no frame is pending (desktop). False: return
    // at once (the browser calls AppLoop::turn once per animation frame).
    virtual bool sleeps_when_idle() const = 0;
    // Something besides input changes what is drawn (a benchmark running): draw every turn.
    virtual bool busy() const { return false; }
    // After the backends read this frame's input, before ImGui::NewFrame (the browser's paste).
    virtual void before_new_frame() {}
    virtual void draw_beside_views(ui::AppState&) {}
    // After a frame is drawn, before the swap. False closes the window.
    virtual bool after_frame(ui::AppState&, const FrameInfo&) { return true; }
};

// Input events split the way the loop feeds them to ImGui. Dear ImGui 1.86 reads a key as held
// or not once per frame, so a key pressed and released within one turn (a quick tap, or an
// automated Tab) would never be seen pressed: such a release is held back to the next turn.
// (Mouse buttons have the same latch inside ImGui's SDL backend.)
struct SplitEvents {
    std::vector<SDL_Event> now;   // to feed to ImGui this turn, in order
    std::vector<SDL_Event> held;  // key releases to feed next turn
};
SplitEvents split_quick_key_releases(const std::vector<SDL_Event>& events);

class AppLoop {
public:
    AppLoop(SDL_Window* window, ui::AppState& state, Platform& platform);

    // One turn of the loop (the diagram above). False once the window is closed.
    bool turn();
    // Draw at least `frames` more frames (input, a resize, a change made from outside).
    void request_frames(int frames = kFramesAfterChange);
    int frames_pending() const { return frames_pending_; }
    int frames_drawn() const { return frames_drawn_; }

private:
    bool pump_input();  // true when any event arrived
    bool draw_frame();  // false when the platform closes the window

    SDL_Window* window_;
    ui::AppState& state_;
    Platform& platform_;
    std::vector<SDL_Event> held_key_ups_;
    int frames_pending_ = 0;
    int frames_drawn_ = 0;
    bool applied_dark_theme_;
    bool open_ = true;
};

// ImGui on this window: its context, the SDL and OpenGL 3 backends (`glsl_version` as the
// context needs: "#version 300 es" for WebGL2, "#version 150" for desktop GL 3.2), the fonts at
// the window's pixel ratio (`font_path` empty: the embedded font), and the state's theme.
void start_imgui(SDL_Window* window, SDL_GLContext gl, const char* glsl_version, const std::string& font_path, bool dark_theme);
void stop_imgui();

// Applies the start-up options (a link's, or `gpuplan gui`'s flags) to the state: light unless
// they ask for dark. Returns what could not be used, in words ("<scenario_label>: ..."; the
// scenario's own error also stays in state.error for the views); everything else still
// applies (a half-broken link keeps its readable half).
std::vector<std::string> apply_app_options(ui::AppState& state, const ui::AppOptions& options, std::string_view scenario_label);

}  // namespace gpuplan::shell
