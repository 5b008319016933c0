// png_writer.hpp — writes RGB pixels as a PNG file, for `gpuplan gui --screenshot`.
//
// Uncompressed (stored) deflate blocks: no zlib dependency, files a few MB, and any viewer or
// test can read them. Good enough for a test artifact; not meant for sharing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpuplan::gui {

// `rgb` holds height rows of width x 3 bytes, top row first. Throws std::runtime_error naming
// the path when the file cannot be written.
void write_png_rgb(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgb);

}  // namespace gpuplan::gui
