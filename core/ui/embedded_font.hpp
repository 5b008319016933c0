// embedded_font.hpp — the UI font compiled into the binary (cmake/EmbedFont.cmake writes the
// definition from the file named by GPUPLAN_UI_FONT at build time; size 0 when none).
#pragma once

#include <cstddef>

namespace gpuplan::ui {

struct EmbeddedFont {
    const unsigned char* data = nullptr;
    std::size_t size = 0;
    const char* name = "";  // the file it came from, for the About line
};
EmbeddedFont embedded_font();

}  // namespace gpuplan::ui
