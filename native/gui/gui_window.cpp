// gui_window.cpp — see gui_window.hpp. One readable main loop:
//
//   while the window is open:
//       wait for input (or a benchmark progress event), unless frames are still pending
//       feed every pending event to ImGui
//       NewFrame → draw_app(state) (+ the Benchmarks panel) → Render → swap
//
// An idle window sleeps in SDL_WaitEvent and draws nothing; input draws a few frames so
// ImGui can settle hover and layout states.
#include "gui_window.hpp"

#include <SDL.h>
#include <SDL_opengl.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "benchmarks_panel.hpp"
#include "imgui.h"
#include "imgui_impl_opengl3.h"
#include "imgui_impl_sdl.h"
#include "png_writer.hpp"
#include "ui/app.hpp"

namespace gpuplan::gui {

namespace {

// Frames drawn after any event: ImGui settles auto-fit columns and hover states over 2-3.
constexpr int kFramesAfterChange = 3;
// The UI font on Debian (fonts-dejavu-core); the embedded font stands in when it is missing.
constexpr const char* kFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

struct Window {
    SDL_Window* window = nullptr;
    SDL_GLContext gl = nullptr;
    ~Window() {
        if (gl) SDL_GL_DeleteContext(gl);
        if (window) SDL_DestroyWindow(window);
        SDL_Quit();
    }
};

void open_window(Window& w, const GuiOptions& options) {
    const char* display = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    if ((display == nullptr || *display == '\0') && (wayland == nullptr || *wayland == '\0'))
        throw NoDisplay("no display to open a window on (DISPLAY and WAYLAND_DISPLAY are not set); run it in a desktop "
                        "session, or headless under `xvfb-run gpuplan gui ...`");
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0)
        throw NoDisplay(std::string("could not open the display (") + SDL_GetError() + "); is DISPLAY=" +
                        (display ? display : "") + " reachable?");
    // OpenGL 3.2 core: what ImGui's OpenGL3 backend needs with "#version 150"; every driver
    // of the last decade, and Mesa's software renderer (xvfb), offer it.
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 2);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    const auto flags = static_cast<SDL_WindowFlags>(SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    w.window = SDL_CreateWindow("gpuplan", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, options.width, options.height, flags);
    if (w.window == nullptr) throw std::runtime_error(std::string("could not create the window: ") + SDL_GetError());
    w.gl = SDL_GL_CreateContext(w.window);
    if (w.gl == nullptr)
        throw std::runtime_error(std::string("could not create an OpenGL 3.2 context: ") + SDL_GetError());
    SDL_GL_MakeCurrent(w.window, w.gl);
    SDL_GL_SetSwapInterval(1);  // vsync: never faster than the screen
}

float framebuffer_scale(SDL_Window* window) {
    int window_w = 0, drawable_w = 0, unused = 0;
    SDL_GetWindowSize(window, &window_w, &unused);
    SDL_GL_GetDrawableSize(window, &drawable_w, &unused);
    return window_w > 0 ? static_cast<float>(drawable_w) / static_cast<float>(window_w) : 1.0f;
}

// Reads the back buffer just drawn (before the swap) and writes it as a PNG, top row first.
void save_screenshot(SDL_Window* window, const std::string& path) {
    int width = 0, height = 0;
    SDL_GL_GetDrawableSize(window, &width, &height);
    std::vector<std::uint8_t> bottom_up(static_cast<std::size_t>(width) * height * 3);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, bottom_up.data());
    std::vector<std::uint8_t> top_down(bottom_up.size());
    const std::size_t stride = static_cast<std::size_t>(width) * 3;
    for (int y = 0; y < height; ++y)
        std::copy_n(bottom_up.begin() + static_cast<std::ptrdiff_t>((height - 1 - y) * stride), stride,
                    top_down.begin() + static_cast<std::ptrdiff_t>(y * stride));
    write_png_rgb(path, width, height, top_down);
}

}  // namespace

void run_gui(const GuiOptions& options, const Catalog& catalog) {
    Window w;
    open_window(w, options);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // layout is not persisted; the state is the scenario
    ImGui_ImplSDL2_InitForOpenGL(w.window, w.gl);
    ImGui_ImplOpenGL3_Init("#version 150");

    ui::AppState state;
    state.catalog = &catalog;
    state.view = options.app.view;
    state.embed = options.app.embed;
    state.dark_theme = options.app.dark_theme.value_or(false);
    state.show_frame_timing = options.app.debug;
    if (options.app.scenario) ui::set_scenario(state, *options.app.scenario);
    if (!options.app.catalog.empty()) ui::set_catalog_view_link(state, options.app.catalog);
    if (!options.app.chart_ranges.empty()) ui::set_chart_ranges_view_link(state, options.app.chart_ranges);
    if (!options.bench_text.empty()) ui::set_bench_results(state, options.bench_text, options.bench_source);
    ui::load_fonts(1.0f, std::filesystem::exists(kFontPath) ? kFontPath : "", framebuffer_scale(w.window));
    ui::apply_theme(state.dark_theme, 1.0f);
    bool applied_dark = state.dark_theme;

    BenchmarksPanel benchmarks;  // a panel of its own: it needs threads and the GPU, not the core
    const bool screenshot = !options.screenshot_path.empty();
    int frames_pending = screenshot ? options.frames : kFramesAfterChange;
    bool open = true;
    while (open) {
        SDL_Event event;
        // Idle: sleep until input arrives (benchmark progress arrives as an SDL user event).
        if (frames_pending == 0 && !benchmarks.running()) {
            if (SDL_WaitEvent(&event) == 0) break;
            SDL_PushEvent(&event);  // handled with the rest below
        }
        while (SDL_PollEvent(&event)) {
            ImGui_ImplSDL2_ProcessEvent(&event);
            if (event.type == SDL_QUIT) open = false;
            if (event.type == SDL_WINDOWEVENT && event.window.event == SDL_WINDOWEVENT_CLOSE) open = false;
            frames_pending = std::max(frames_pending, kFramesAfterChange);
        }
        if (frames_pending > 0) --frames_pending;

        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplSDL2_NewFrame();
        ImGui::NewFrame();
        ui::draw_app(state);
        if (!state.embed) benchmarks.draw(state);
        ImGui::Render();
        if (state.dark_theme != applied_dark) {  // the theme switch in draw_app's chrome
            ui::apply_theme(state.dark_theme, 1.0f);
            applied_dark = state.dark_theme;
        }
        state.scenario_changed = false;  // a desktop window has no URL to update

        int width_px = 0, height_px = 0;
        SDL_GL_GetDrawableSize(w.window, &width_px, &height_px);
        glViewport(0, 0, width_px, height_px);
        const ImVec4 background = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
        glClearColor(background.x, background.y, background.z, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        if (screenshot && frames_pending == 0) {
            save_screenshot(w.window, options.screenshot_path);
            open = false;
        }
        SDL_GL_SwapWindow(w.window);
    }

    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
}

}  // namespace gpuplan::gui
