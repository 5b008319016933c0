// headless.hpp — Dear ImGui without a window: a context, a display size and a built font
// atlas are all NewFrame needs; Render() then produces draw lists that nothing displays.
// Shared by the frame tests and the frame-time benchmark (tests/ui).
#pragma once

#include <cfloat>
#include <stdexcept>
#include <string>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/scenario/scenario.hpp"
#include "imgui.h"
#include "ui/app.hpp"

namespace gpuplan::ui::test {

// The built-in catalog, loaded once for all the tests of a program.
inline const Catalog& builtin_catalog() {
    static const Catalog c = load_builtin_catalog();
    return c;
}
inline const Catalog& catalog() { return builtin_catalog(); }  // the short name the view tests use

// The built-in example scenario whose file name contains `file_part` (e.g. "t1-train").
inline nlohmann::json builtin_scenario(const std::string& file_part) {
    for (const CatalogDocument& doc : builtin_scenario_documents())
        if (doc.origin.find(file_part) != std::string::npos) return nlohmann::json::parse(doc.text);
    throw std::runtime_error("no built-in scenario matching " + file_part);
}

class Headless {
public:
    explicit Headless(bool dark = false, float scale = 1.0f, const std::string& font_path = "") {
        context_ = ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;  // no imgui.ini written by tests
        io.LogFilename = nullptr;
        io.DisplaySize = ImVec2(1440 * scale, 900 * scale);
        io.DeltaTime = 1.0f / 60.0f;
        configure_input();  // as every shell does (keyboard navigation)
        // Keyboard navigation needs every key mapped (Dear ImGui 1.86 asserts on Space); the
        // tests press key k as code 300 + k (words_test.cpp: press_key).
        for (int k = 0; k < ImGuiKey_COUNT; ++k) io.KeyMap[k] = 300 + k;
        font_ok_ = load_fonts(scale, font_path);
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // what a renderer backend would upload
        atlas_w_ = w;
        atlas_h_ = h;
        apply_theme(dark, scale);
    }
    ~Headless() { ImGui::DestroyContext(context_); }
    Headless(const Headless&) = delete;
    Headless& operator=(const Headless&) = delete;

    // One frame of the whole app; the mouse at (x, y) so hover paths (tooltips) run too.
    // Returns the number of vertices drawn.
    int frame(AppState& state, float mouse_x = -1, float mouse_y = -1) {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = mouse_x < 0 ? ImVec2(-FLT_MAX, -FLT_MAX) : ImVec2(mouse_x, mouse_y);
        ImGui::NewFrame();
        draw_app(state);
        ImGui::Render();
        return ImGui::GetDrawData() ? ImGui::GetDrawData()->TotalVtxCount : 0;
    }

    bool font_ok() const { return font_ok_; }
    int atlas_width() const { return atlas_w_; }
    int atlas_height() const { return atlas_h_; }

private:
    ImGuiContext* context_ = nullptr;
    bool font_ok_ = false;
    int atlas_w_ = 0, atlas_h_ = 0;
};

// Two frames of the app with ImGui's text log on in the second; returns the text drawn (table
// cells joined by " | ", as ImGui's log writes them).
inline std::string drawn_text(Headless& ui, AppState& state) {
    // ImGui's log (LogToClipboard) hands what it recorded to the clipboard; this is that clipboard.
    static std::string logged;
    ui.frame(state);
    ImGuiIO& io = ImGui::GetIO();
    io.SetClipboardTextFn = [](void*, const char* text) { logged = text; };
    logged.clear();
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui::NewFrame();
    ImGui::LogToClipboard();
    draw_app(state);
    ImGui::LogFinish();
    ImGui::Render();
    return logged;
}

// One frame with the left button pressed at (x, y), one with it released.
inline void click(Headless& ui, AppState& state, float x, float y) {
    ImGui::GetIO().MouseDown[0] = true;
    ui.frame(state, x, y);
    ImGui::GetIO().MouseDown[0] = false;
    ui.frame(state, x, y);
}

}  // namespace gpuplan::ui::test
