// png_writer.cpp — see png_writer.hpp.
#include "png_writer.hpp"

#include <stdexcept>
#include <string_view>

#include "output_file.hpp"
#include "stb_image_write.h"

namespace gpuplan::gui {

void write_png_rgb(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgb) {
    std::string png;
    const auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
    };
    if (!stbi_write_png_to_func(append, &png, width, height, 3, rgb.data(), width * 3))
        throw std::runtime_error("could not encode the " + std::to_string(width) + " x " + std::to_string(height) + " screenshot as PNG for " + path);
    const std::string why = write_output_file(path, std::string_view(png));
    if (!why.empty()) throw std::runtime_error("could not write the screenshot to " + path + ": " + why);
}

}  // namespace gpuplan::gui
