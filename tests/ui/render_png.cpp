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
#include "ui/app.hpp"

// GL entry points come from the OpenGL3 backend's loader (imgui_impl_opengl3_loader.h).
#include "imgui_impl_opengl3_loader.h"

namespace {

std::uint32_t crc32(const unsigned char* data, std::size_t n, std::uint32_t crc = 0xFFFFFFFFu) {
    for (std::size_t i = 0; i < n; ++i) {
        crc ^= data[i];
        for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return crc;
}

void put32(std::vector<unsigned char>& v, std::uint32_t x) {
    for (int s = 24; s >= 0; s -= 8) v.push_back(static_cast<unsigned char>(x >> s));
}

void chunk(std::ofstream& out, const char* type, const std::vector<unsigned char>& data) {
    std::vector<unsigned char> c;
    put32(c, static_cast<std::uint32_t>(data.size()));
    c.insert(c.end(), type, type + 4);
    c.insert(c.end(), data.begin(), data.end());
    const std::uint32_t crc = crc32(c.data() + 4, c.size() - 4) ^ 0xFFFFFFFFu;
    put32(c, crc);
    out.write(reinterpret_cast<const char*>(c.data()), static_cast<std::streamsize>(c.size()));
}

// RGB rows (top first) as a PNG with stored (uncompressed) deflate blocks: no zlib needed.
void write_png(const std::string& path, int w, int h, const std::vector<unsigned char>& rgb) {
    std::vector<unsigned char> raw;
    for (int y = 0; y < h; ++y) {
        raw.push_back(0);  // filter: none
        raw.insert(raw.end(), rgb.begin() + y * w * 3, rgb.begin() + (y + 1) * w * 3);
    }
    std::vector<unsigned char> z = {0x78, 0x01};
    std::uint32_t a = 1, b = 0;
    for (unsigned char c : raw) a = (a + c) % 65521, b = (b + a) % 65521;
    for (std::size_t pos = 0; pos < raw.size();) {
        const std::size_t n = std::min<std::size_t>(65535, raw.size() - pos);
        z.push_back(pos + n == raw.size() ? 1 : 0);
        z.push_back(static_cast<unsigned char>(n & 0xFF));
        z.push_back(static_cast<unsigned char>(n >> 8));
        z.push_back(static_cast<unsigned char>(~n & 0xFF));
        z.push_back(static_cast<unsigned char>((~n >> 8) & 0xFF));
        z.insert(z.end(), raw.begin() + static_cast<std::ptrdiff_t>(pos), raw.begin() + static_cast<std::ptrdiff_t>(pos + n));
        pos += n;
    }
    put32(z, (b << 16) | a);
    std::ofstream out(path, std::ios::binary);
    const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    out.write(reinterpret_cast<const char*>(sig), 8);
    std::vector<unsigned char> ihdr;
    put32(ihdr, static_cast<std::uint32_t>(w));
    put32(ihdr, static_cast<std::uint32_t>(h));
    ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0});
    chunk(out, "IHDR", ihdr);
    chunk(out, "IDAT", z);
    chunk(out, "IEND", {});
}

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
    write_png(argv[3], w, h, flipped);
    std::fprintf(stderr, "%s: %s, frame %.2f ms, error: %s\n", argv[3], argv[1], state.timing.last_ms, state.error.c_str());
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
    SDL_GL_DeleteContext(gl);
    SDL_DestroyWindow(window);
    SDL_Quit();
    return 0;
}
