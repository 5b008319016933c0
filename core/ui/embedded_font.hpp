// embedded_font.hpp — the UI font compiled into the binary and the characters the UI draws
// (cmake/EmbedFont.cmake writes both from core/ui/CMakeLists.txt's GPUPLAN_UI_FONT, cut down to
// GPUPLAN_UI_GLYPH_RANGES, at build time; size 0 when there is no font).
#pragma once

#include <cstddef>

#include <imgui.h>

namespace gpuplan::ui {

struct EmbeddedFont {
    const unsigned char* data = nullptr;
    std::size_t size = 0;
    const char* name = "";  // the file it came from, for the About line
};
EmbeddedFont embedded_font();

// The code point ranges the UI draws, as ImGui's atlas takes them (first, last, ..., 0): the
// same list the embedded font was cut down to.
const ImWchar* ui_glyph_ranges();

}  // namespace gpuplan::ui
