// gui_window.cpp — see gui_window.hpp. The main loop is the one the browser page runs too
// (core/ui/shell/app_loop.hpp); this file opens the window and says what the desktop does
// differently (DesktopPlatform): an idle window sleeps in SDL_WaitEvent and draws nothing,
// the Benchmarks panel is drawn beside the views, and --screenshot writes the last frame.
#include "gui_window.hpp"

#include <SDL.h>
#include <SDL_opengl.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "benchmarks_panel.hpp"
#include "png_writer.hpp"
#include "ui/app.hpp"
#include "ui/shell/app_loop.hpp"

namespace gpuplan::gui {

namespace {

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

// The desktop's side of the shared loop (ui/shell/app_loop.hpp): it sleeps in SDL_WaitEvent
// when idle, draws the Benchmarks panel beside the views (and every frame while one runs, as
// its progress arrives), and with --screenshot writes the last of its frames and closes.
class DesktopPlatform final : public shell::Platform {
public:
    DesktopPlatform(SDL_Window* window, BenchmarksPanel& benchmarks, std::string screenshot_path)
        : window_(window), benchmarks_(benchmarks), screenshot_path_(std::move(screenshot_path)) {}
    bool sleeps_when_idle() const override { return true; }
    bool busy() const override { return benchmarks_.running(); }
    void draw_beside_views(ui::AppState& state) override {
        if (!state.embed) benchmarks_.draw(state);
    }
    bool after_frame(ui::AppState& state, const shell::FrameInfo& frame) override {
        state.scenario_changed = false;  // a desktop window has no URL to update
        if (screenshot_path_.empty() || frame.frames_pending > 0) return true;
        save_screenshot(window_, screenshot_path_);
        return false;
    }

private:
    SDL_Window* window_;
    BenchmarksPanel& benchmarks_;
    std::string screenshot_path_;
};

}  // namespace

void run_gui(const GuiOptions& options, const Catalog& catalog) {
    Window w;
    open_window(w, options);

    ui::AppState state;
    state.catalog = &catalog;
    shell::apply_app_options(state, options.app, "--scenario");  // a scenario's error stays in state.error, shown in the window
    if (!options.bench_text.empty()) ui::set_bench_results(state, options.bench_text, options.bench_source);
    shell::start_imgui(w.window, w.gl, "#version 150", std::filesystem::exists(kFontPath) ? kFontPath : "", state.dark_theme);

    BenchmarksPanel benchmarks;  // a panel of its own: it needs threads and the GPU, not the core
    DesktopPlatform platform(w.window, benchmarks, options.screenshot_path);
    shell::AppLoop loop(w.window, state, platform);
    loop.request_frames(options.screenshot_path.empty() ? shell::kFramesAfterChange : options.frames);
    while (loop.turn()) {
    }
    shell::stop_imgui();
}

}  // namespace gpuplan::gui
