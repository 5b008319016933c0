// main.cpp — the browser front-end: SDL2 on the page's <canvas id="canvas">, WebGL2 (GL ES 3.0),
// Dear ImGui, and the catalog table from core/ui.
//
// The browser owns the main loop: main() sets everything up, hands run_frame() to
// emscripten_set_main_loop_arg (one call per requestAnimationFrame) and returns to the page.
// All browser-only code (EM_ASM, emscripten.h) stays in this file.
#include <emscripten.h>
#include <GLES3/gl3.h>
#include <SDL.h>

#include <cstdio>
#include <optional>
#include <string>

#include "gpuplan/catalog.hpp"
#include "gpuplan/input_error.hpp"
#include "imgui.h"
#include "imgui_impl_opengl3.h"
#include "imgui_impl_sdl.h"
#include "ui/catalog_table.hpp"

namespace {

// Everything the page keeps between frames. Lives in main()'s static storage because
// emscripten_set_main_loop_arg(..., simulate_infinite_loop=true) unwinds main's stack.
struct App {
    SDL_Window* window = nullptr;
    SDL_GLContext gl_context = nullptr;
    std::optional<gpuplan::Catalog> catalog;  // empty when the built-in catalog failed to load
    std::string load_error;                   // the InputError message in that case
    gpuplan::ui::CatalogTableState table;
    std::string price_line;                   // "us-east-1 prices: on-demand as of ..."
    int frames_drawn = 0;
};

// ImGui measures auto-fitting table columns during a table's first frame and lays them out
// from the second, so tests are told "ready" only once a settled frame has been drawn.
constexpr int kFramesBeforeReady = 2;

void load_catalog(App& app) {
    try {
        app.catalog = gpuplan::load_builtin_catalog();
        app.price_line = gpuplan::ui::describe_price_dates(*app.catalog, app.table.price_region);
    } catch (const gpuplan::InputError& error) {
        // Bad data must not abort the page: the message is shown on screen instead.
        app.load_error = error.what();
        std::fprintf(stderr, "gpuplan: built-in catalog rejected: %s\n", error.what());
    }
}

void draw_ui(App& app) {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport->WorkPos);
    ImGui::SetNextWindowSize(viewport->WorkSize);
    constexpr ImGuiWindowFlags flags = ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                                       ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                                       ImGuiWindowFlags_NoBringToFrontOnFocus;
    // The default ImGui font has no em dash, so the on-canvas title uses ASCII; the page
    // <title> carries the typographic one.
    ImGui::Begin("gpuplan - EC2 accelerator catalog", nullptr, flags);
    if (app.catalog) {
        ImGui::TextUnformatted(app.price_line.c_str());
        ImGui::SameLine();
        ImGui::TextDisabled("(unknown = not published; hover for why)");
        gpuplan::ui::draw_catalog_table(*app.catalog, app.table);
    } else {
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "The built-in catalog could not be loaded:");
        ImGui::TextWrapped("%s", app.load_error.c_str());
    }
    ImGui::End();
}

// Tells the page (loading indicator) and browser tests that a full frame is on screen.
void publish_ready(const App& app) {
    const int instances = app.catalog ? static_cast<int>(app.catalog->instances.size()) : 0;
    const int accelerators = app.catalog ? static_cast<int>(app.catalog->accelerators.size()) : 0;
    // The object literal is in parentheses because EM_ASM is a macro: a bare comma would
    // split its code argument.
    EM_ASM(
        {
            window.gpuplan = ({ready: true, instances: $0, accelerators: $1, error: UTF8ToString($2)});
            window.dispatchEvent(new Event('gpuplan-ready'));
        },
        instances, accelerators, app.load_error.c_str());
}

// One frame: input, UI, render. Called by the browser once per animation frame.
void run_frame(void* app_pointer) {
    App& app = *static_cast<App*>(app_pointer);

    SDL_Event event;
    while (SDL_PollEvent(&event)) ImGui_ImplSDL2_ProcessEvent(&event);

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    ImGui::NewFrame();
    draw_ui(app);
    ImGui::Render();

    // The drawable is the canvas in device pixels (SDL applies devicePixelRatio).
    int width_px = 0, height_px = 0;
    SDL_GL_GetDrawableSize(app.window, &width_px, &height_px);
    glViewport(0, 0, width_px, height_px);
    glClearColor(0.1f, 0.1f, 0.12f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    SDL_GL_SwapWindow(app.window);  // a no-op in the browser; kept so the loop reads as usual

    if (++app.frames_drawn == kFramesBeforeReady) publish_ready(app);
}

}  // namespace

int main(int, char**) {
    static App app;
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        std::fprintf(stderr, "gpuplan: SDL_Init failed: %s\n", SDL_GetError());
        return 1;
    }
    // GL ES 3.0 is what WebGL2 offers; it must match "#version 300 es" below and the
    // IMGUI_IMPL_OPENGL_ES3 that gpuplan_imgui is built with.
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    // RESIZABLE + a CSS-sized canvas: SDL follows the page size. ALLOW_HIGHDPI: SDL sizes
    // the canvas in device pixels (CSS size x devicePixelRatio), so text stays sharp.
    constexpr auto window_flags = static_cast<SDL_WindowFlags>(
        SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    app.window = SDL_CreateWindow("gpuplan", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED,
                                  1280, 720, window_flags);
    app.gl_context = app.window ? SDL_GL_CreateContext(app.window) : nullptr;
    if (app.gl_context == nullptr) {
        std::fprintf(stderr, "gpuplan: no WebGL2 context: %s\n", SDL_GetError());
        return 1;
    }

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // no filesystem in the page; layout is not persisted
    ImGui::StyleColorsDark();
    ImGui_ImplSDL2_InitForOpenGL(app.window, app.gl_context);
    ImGui_ImplOpenGL3_Init("#version 300 es");

    load_catalog(app);
    // fps 0 = follow requestAnimationFrame; true = never return here (state is in `app`).
    emscripten_set_main_loop_arg(run_frame, &app, 0, true);
    return 0;
}
