// render_png.cpp — a test-only helper that renders one view of core/ui with the real OpenGL 3
// backend into an offscreen-able SDL window and saves it as a PNG, so a person can look at
// the views (run it under xvfb-run on a machine without a display):
//   xvfb-run -a -s "-screen 0 1600x1000x24" gpuplan_ui_render_png VIEW SCENARIO.json OUT.png [dark] [embed] [bench.json]
// Not a test: the frame tests (frame_test.cpp) need no GL at all. The desktop app is
// `gpuplan gui` (native/gui); this helper only exists to review the UI's look.
#include <SDL.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gpuplan/catalog/catalog.hpp"
#include "imgui.h"
#include "imgui_impl_opengl3.h"
#include "imgui_impl_sdl.h"
#include "stb_image_write.h"
#include "ui/app.hpp"

// GL entry points come from the OpenGL3 backend's loader (imgui_impl_opengl3_loader.h).
#include "imgui_impl_opengl3_loader.h"

namespace {

std::string read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s VIEW SCENARIO.json OUT.png [dark] [embed] [bench.json] [WxH]\n", argv[0]);
        return 2;
    }
    const auto view = gpuplan::ui::view_from_name(argv[1]);
    if (!view) return std::fprintf(stderr, "unknown view %s\n", argv[1]), 2;
    bool dark = false, embed = false;
    std::string bench;
    int w = 1440, h = 900;
    for (int i = 4; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "dark") dark = true;
        else if (a == "embed") embed = true;
        else if (a.find('x') != std::string::npos && a.find(".json") == std::string::npos) std::sscanf(a.c_str(), "%dx%d", &w, &h);
        else bench = a;
    }
    if (SDL_Init(SDL_INIT_VIDEO) != 0) return std::fprintf(stderr, "SDL_Init: %s\n", SDL_GetError()), 1;
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
    SDL_Window* window = SDL_CreateWindow("gpuplan ui", 0, 0, w, h, SDL_WINDOW_OPENGL | SDL_WINDOW_HIDDEN);
    if (!window) return std::fprintf(stderr, "SDL_CreateWindow: %s\n", SDL_GetError()), 1;
    SDL_GLContext gl = SDL_GL_CreateContext(window);
    SDL_GL_MakeCurrent(window, gl);
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    ImGui_ImplSDL2_InitForOpenGL(window, gl);
    ImGui_ImplOpenGL3_Init("#version 130");
    gpuplan::ui::load_fonts(1.0f);
    gpuplan::ui::apply_theme(dark, 1.0f);

    const gpuplan::Catalog catalog = gpuplan::load_builtin_catalog();
    gpuplan::ui::AppState state;
    state.catalog = &catalog;
    state.view = *view;
    state.dark_theme = dark;
    state.embed = embed;
    gpuplan::ui::set_scenario(state, nlohmann::json::parse(read_file(argv[2])));
    if (!bench.empty()) gpuplan::ui::set_bench_results(state, read_file(bench), bench);
    std::vector<unsigned char> rgba(static_cast<std::size_t>(w * h * 4)), flipped(static_cast<std::size_t>(w * h * 3));
    for (int frame = 0; frame < 6; ++frame) {
        SDL_Event e;
        while (SDL_PollEvent(&e)) ImGui_ImplSDL2_ProcessEvent(&e);
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplSDL2_NewFrame();
        ImGui::NewFrame();
        gpuplan::ui::draw_app(state);
        ImGui::Render();
        glViewport(0, 0, w, h);
        glClearColor(0, 0, 0, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    }
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < 3; ++c)
                flipped[static_cast<std::size_t>((y * w + x) * 3 + c)] = rgba[static_cast<std::size_t>(((h - 1 - y) * w + x) * 4 + c)];
    if (!stbi_write_png(argv[3], w, h, 3, flipped.data(), w * 3)) {
        std::fprintf(stderr, "could not write %s\n", argv[3]);
        return 1;
    }
    std::fprintf(stderr, "%s: %s, frame %.2f ms, error: %s\n", argv[3], argv[1], state.timing.last_ms, state.error.c_str());
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
    SDL_GL_DeleteContext(gl);
    SDL_DestroyWindow(window);
    SDL_Quit();
    return 0;
}
