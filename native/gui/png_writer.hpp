// png_writer.hpp — writes RGB pixels as a PNG file, for `gpuplan gui --screenshot`.
//
// The encoding is stb_image_write's (Debian's libstb-dev, found with pkg-config); this file only
// routes its bytes through write_output_file so a failure names the path and the reason.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpuplan::gui {

// `rgb` holds height rows of width x 3 bytes, top row first. Throws std::runtime_error naming
// the path when the pixels cannot be encoded or the file cannot be written.
void write_png_rgb(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgb);

}  // namespace gpuplan::gui
