// theme.cpp — apply_theme and load_fonts (declared in app.hpp), and the semantic palette.
#include "ui/theme.hpp"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#include "ui/app.hpp"
#include "ui/embedded_font.hpp"

namespace gpuplan::ui {
namespace {

Palette g_palette{};
float g_theme_scale = 1.0f;

ImU32 rgb(int r, int g, int b, int a = 255) { return IM_COL32(r, g, b, a); }

// Okabe & Ito (2008), "Color Universal Design": distinguishable with the common colour-vision
// deficiencies; the dark theme uses lighter variants of the same hues.
void set_palette(bool dark) {
    Palette& p = g_palette;
    if (dark) {
        p.text = rgb(230, 232, 236);
        p.text_dim = rgb(150, 156, 166);
        p.grid = rgb(255, 255, 255, 28);
        p.axis = rgb(170, 175, 185);
        p.plot_bg = rgb(30, 33, 39);
        const ImU32 s[6] = {rgb(86, 180, 233), rgb(230, 159, 0), rgb(0, 178, 140), rgb(240, 228, 66),
                            rgb(204, 121, 167), rgb(213, 94, 0)};
        std::copy(std::begin(s), std::end(s), p.series);
        p.good = rgb(80, 200, 140);
        p.warn = rgb(240, 180, 60);
        p.bad = rgb(255, 110, 100);
        p.accent = rgb(110, 160, 255);
    } else {
        p.text = rgb(28, 31, 36);
        p.text_dim = rgb(105, 112, 122);
        p.grid = rgb(0, 0, 0, 22);
        p.axis = rgb(90, 96, 106);
        p.plot_bg = rgb(252, 252, 253);
        const ImU32 s[6] = {rgb(0, 114, 178), rgb(230, 159, 0), rgb(0, 158, 115), rgb(204, 170, 0),
                            rgb(204, 121, 167), rgb(213, 94, 0)};
        std::copy(std::begin(s), std::end(s), p.series);
        p.good = rgb(0, 130, 80);
        p.warn = rgb(170, 110, 0);
        p.bad = rgb(200, 40, 30);
        p.accent = rgb(40, 100, 220);
    }
}

}  // namespace

const Palette& palette() {
    if (g_palette.text == 0) set_palette(false);
    return g_palette;
}

ImVec4 to_vec4(ImU32 colour) { return ImGui::ColorConvertU32ToFloat4(colour); }
float theme_scale() { return g_theme_scale; }

void apply_theme(bool dark, float scale) {
    ImGuiStyle style;  // start from defaults so repeated calls do not compound the scale
    if (dark) ImGui::StyleColorsDark(&style);
    else ImGui::StyleColorsLight(&style);
    set_palette(dark);
    g_theme_scale = scale > 0 ? scale : 1.0f;

    // Calm, flat metrics: generous padding, small rounding, thin borders.
    style.WindowPadding = ImVec2(14, 12);
    style.FramePadding = ImVec2(8, 5);
    style.CellPadding = ImVec2(8, 4);
    style.ItemSpacing = ImVec2(10, 7);
    style.ItemInnerSpacing = ImVec2(6, 5);
    style.ScrollbarSize = 13;
    style.GrabMinSize = 10;
    style.WindowBorderSize = 0;
    style.ChildBorderSize = 1;
    style.PopupBorderSize = 1;
    style.FrameBorderSize = 0;
    style.TabBorderSize = 0;
    style.WindowRounding = 0;
    style.ChildRounding = 5;
    style.FrameRounding = 4;
    style.PopupRounding = 5;
    style.ScrollbarRounding = 6;
    style.GrabRounding = 4;
    style.TabRounding = 4;

    ImVec4* c = style.Colors;
    const auto v = [](float r, float g, float b, float a = 1.0f) { return ImVec4(r / 255.0f, g / 255.0f, b / 255.0f, a); };
    if (dark) {
        c[ImGuiCol_Text] = v(230, 232, 236);
        c[ImGuiCol_TextDisabled] = v(140, 146, 156);
        c[ImGuiCol_WindowBg] = v(22, 24, 29);
        c[ImGuiCol_ChildBg] = v(27, 30, 36);
        c[ImGuiCol_PopupBg] = v(34, 37, 44, 0.98f);
        c[ImGuiCol_Border] = v(60, 65, 75);
        c[ImGuiCol_FrameBg] = v(40, 44, 52);
        c[ImGuiCol_FrameBgHovered] = v(52, 57, 67);
        c[ImGuiCol_FrameBgActive] = v(60, 66, 78);
        c[ImGuiCol_TitleBg] = c[ImGuiCol_TitleBgActive] = v(22, 24, 29);
        c[ImGuiCol_MenuBarBg] = v(27, 30, 36);
        c[ImGuiCol_Header] = v(55, 90, 160, 0.55f);
        c[ImGuiCol_HeaderHovered] = v(70, 110, 190, 0.65f);
        c[ImGuiCol_HeaderActive] = v(80, 125, 210, 0.8f);
        c[ImGuiCol_Button] = v(48, 53, 63);
        c[ImGuiCol_ButtonHovered] = v(62, 69, 82);
        c[ImGuiCol_ButtonActive] = v(75, 84, 100);
        c[ImGuiCol_Tab] = v(27, 30, 36);
        c[ImGuiCol_TabHovered] = v(40, 45, 56);  // a shade, not the selected tab's blue
        c[ImGuiCol_TabActive] = v(48, 78, 140);
        c[ImGuiCol_TableHeaderBg] = v(34, 37, 44);
        c[ImGuiCol_TableRowBgAlt] = v(255, 255, 255, 0.025f);
        c[ImGuiCol_TableBorderStrong] = v(60, 65, 75);
        c[ImGuiCol_TableBorderLight] = v(45, 49, 57);
        c[ImGuiCol_CheckMark] = v(120, 170, 255);
        c[ImGuiCol_SliderGrab] = v(100, 150, 240);
    } else {
        c[ImGuiCol_Text] = v(28, 31, 36);
        c[ImGuiCol_TextDisabled] = v(115, 121, 131);
        c[ImGuiCol_WindowBg] = v(246, 247, 249);
        c[ImGuiCol_ChildBg] = v(255, 255, 255);
        c[ImGuiCol_PopupBg] = v(255, 255, 255, 0.99f);
        c[ImGuiCol_Border] = v(215, 219, 226);
        c[ImGuiCol_FrameBg] = v(232, 235, 240);
        c[ImGuiCol_FrameBgHovered] = v(222, 227, 235);
        c[ImGuiCol_FrameBgActive] = v(210, 217, 228);
        c[ImGuiCol_TitleBg] = c[ImGuiCol_TitleBgActive] = v(246, 247, 249);
        c[ImGuiCol_MenuBarBg] = v(238, 240, 244);
        c[ImGuiCol_Header] = v(60, 110, 220, 0.18f);
        c[ImGuiCol_HeaderHovered] = v(60, 110, 220, 0.26f);
        c[ImGuiCol_HeaderActive] = v(60, 110, 220, 0.36f);
        c[ImGuiCol_Button] = v(226, 230, 237);
        c[ImGuiCol_ButtonHovered] = v(210, 217, 230);
        c[ImGuiCol_ButtonActive] = v(195, 205, 222);
        // The selected tab is the blue one; a hovered tab only darkens a shade (a blue hover
        // over a white selected tab made the hovered one look selected: issue 30).
        c[ImGuiCol_Tab] = v(232, 235, 240);
        c[ImGuiCol_TabHovered] = v(216, 221, 230);
        c[ImGuiCol_TabActive] = v(196, 213, 247);
        c[ImGuiCol_TableHeaderBg] = v(236, 239, 244);
        c[ImGuiCol_TableRowBgAlt] = v(0, 0, 0, 0.022f);
        c[ImGuiCol_TableBorderStrong] = v(210, 214, 222);
        c[ImGuiCol_TableBorderLight] = v(228, 231, 236);
        c[ImGuiCol_CheckMark] = v(40, 100, 220);
        c[ImGuiCol_SliderGrab] = v(60, 120, 230);
    }
    style.ScaleAllSizes(scale > 0 ? scale : 1.0f);
    ImGui::GetStyle() = style;
}

bool load_fonts(float scale, const std::string& font_path, float framebuffer_scale) {
    ImGuiIO& io = ImGui::GetIO();
    if (!(scale > 0)) scale = 1.0f;
    if (!(framebuffer_scale > 0)) framebuffer_scale = 1.0f;
    io.Fonts->Clear();
    ImFontConfig config;
    config.OversampleH = 2;  // sharper horizontal positioning of a proportional font
    config.OversampleV = 1;
    config.PixelSnapH = false;
    const float pixels = kBaseFontPx * scale * framebuffer_scale;
    ImFont* font = nullptr;
    bool from_file = false;
    if (!font_path.empty()) {
        std::ifstream file(font_path, std::ios::binary);
        std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
        // A TrueType/OpenType file starts with 00 01 00 00, "true" or "OTTO"; anything else
        // would make stb_truetype read garbage, so it is refused here.
        const bool looks_like_font = bytes.size() > 12 &&
            ((bytes[0] == 0 && bytes[1] == 1 && bytes[2] == 0 && bytes[3] == 0) ||
             std::string(bytes.data(), 4) == "OTTO" || std::string(bytes.data(), 4) == "true");
        if (looks_like_font) {
            // The atlas owns and frees this copy (IM_ALLOC'd, as ImGui expects).
            void* data = IM_ALLOC(bytes.size());
            std::copy(bytes.begin(), bytes.end(), static_cast<char*>(data));
            font = io.Fonts->AddFontFromMemoryTTF(data, static_cast<int>(bytes.size()), pixels, &config, ui_glyph_ranges());
            from_file = font != nullptr;
        } else {
            std::fprintf(stderr, "gpuplan: %s is not a readable TrueType/OpenType font; using the built-in font\n", font_path.c_str());
        }
    }
    const EmbeddedFont embedded = embedded_font();
    if (!font && embedded.size > 0) {
        config.FontDataOwnedByAtlas = false;  // static data in the binary
        font = io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(embedded.data), static_cast<int>(embedded.size),
                                              pixels, &config, ui_glyph_ranges());
    }
    const bool ok = font != nullptr && (font_path.empty() || from_file);
    if (!font) {
        ImFontConfig fallback;
        fallback.SizePixels = 13.0f * scale * framebuffer_scale;
        io.Fonts->AddFontDefault(&fallback);
    }
    io.FontGlobalScale = 1.0f / framebuffer_scale;
    return ok;
}

}  // namespace gpuplan::ui
