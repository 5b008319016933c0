// page_link.cpp — see page_link.hpp.
#include "page_link.hpp"

#include <zlib.h>

#include "gpuplan/input_error.hpp"
#include "gpuplan/scenario/scenario_url.hpp"

namespace gpuplan::gui {
namespace {

// Raw deflate (no zlib or gzip header), at most `limit` bytes out.
std::string inflate_raw(const std::string& deflated, std::size_t limit, const std::string& field) {
    z_stream s{};
    if (inflateInit2(&s, -15) != Z_OK) throw InputError(field, "(zlib)", "a working zlib (inflateInit2 failed)");
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(deflated.data()));
    s.avail_in = static_cast<uInt>(deflated.size());
    std::string out;
    char buffer[16384];
    int rc = Z_OK;
    while (rc == Z_OK) {
        s.next_out = reinterpret_cast<Bytef*>(buffer);
        s.avail_out = sizeof buffer;
        rc = inflate(&s, Z_NO_FLUSH);
        out.append(buffer, sizeof buffer - s.avail_out);
        if (out.size() > limit) rc = Z_MEM_ERROR;
        if (rc == Z_BUF_ERROR && s.avail_in == 0) break;  // the input ended before the stream did
    }
    inflateEnd(&s);
    if (out.size() > limit)
        throw InputError(field, "(" + std::to_string(deflated.size()) + " bytes)", "a scenario of at most " + std::to_string(limit) + " bytes once inflated");
    if (rc != Z_STREAM_END)
        throw InputError(field, "(" + std::to_string(deflated.size()) + " bytes)",
                         "raw deflate data (RFC 1951) as the page writes it; it is " + std::string(rc == Z_BUF_ERROR ? "cut short" : "not deflate"));
    return out;
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// application/x-www-form-urlencoded, as URLSearchParams reads it: '+' is a space, %XX a byte
// (a '%' not followed by two hex digits stays as it is).
std::string form_decode(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '+') out += ' ';
        else if (text[i] == '%' && i + 2 < text.size() && hex_digit(text[i + 1]) >= 0 && hex_digit(text[i + 2]) >= 0) {
            out += static_cast<char>(hex_digit(text[i + 1]) * 16 + hex_digit(text[i + 2]));
            i += 2;
        } else out += text[i];
    }
    return out;
}

void add_parameters(std::string_view part, std::vector<std::pair<std::string, std::string>>& out) {
    while (!part.empty()) {
        const std::size_t amp = part.find('&');
        const std::string_view pair = part.substr(0, amp);
        part = amp == std::string_view::npos ? std::string_view{} : part.substr(amp + 1);
        if (pair.empty()) continue;
        const std::size_t eq = pair.find('=');
        out.emplace_back(form_decode(pair.substr(0, eq)), eq == std::string_view::npos ? "" : form_decode(pair.substr(eq + 1)));
    }
}

}  // namespace

std::string scenario_param_from_z(std::string_view z, const std::string& field) {
    std::string deflated;
    try {
        deflated = base64url_decode(z);
    } catch (const InputError&) {
        // A link cut inside its last base64url group (a chat client's limit) ends in stray bits.
        throw InputError(field, "'" + std::string(z.substr(0, 24)) + (z.size() > 24 ? "...' (" + std::to_string(z.size()) + " characters)" : "'"),
                         "base64url text as the page writes it (A-Z, a-z, 0-9, '-', '_'); the link may be cut short");
    }
    return base64url_encode(inflate_raw(deflated, kMaxInputBytes, field));
}

std::vector<std::string> arguments_from_page_link(std::string_view link) {
    const std::size_t hash = link.find('#');
    const std::string_view before_hash = link.substr(0, hash);
    const std::size_t question = before_hash.find('?');
    std::vector<std::pair<std::string, std::string>> parameters;
    if (question != std::string_view::npos) add_parameters(before_hash.substr(question + 1), parameters);
    if (hash != std::string_view::npos) add_parameters(link.substr(hash + 1), parameters);
    if (parameters.empty())
        throw InputError("--link", "'" + std::string(link.substr(0, 120)) + "'",
                         "a link the page wrote, with its state after '#' (view=..., z=...) or '?' (scenario=..., embed=1)");
    std::vector<std::string> arguments;
    for (const auto& [name, value] : parameters) {
        if (name == "host_origin") continue;
        if (name == "z") arguments.push_back("--scenario=" + scenario_param_from_z(value));
        else arguments.push_back("--" + name + "=" + value);
    }
    return arguments;
}

}  // namespace gpuplan::gui
