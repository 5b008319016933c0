// topology_text.hpp — line scanning shared by the topology parsers (nccl_topology.cpp,
// smi_topology.cpp): by hand, not std::regex, so a 50 MB log stays one linear pass and a long
// line cannot recurse. Internal to core/gpuplan/topology.
#pragma once

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/text.hpp"

namespace gpuplan::topology_text {

using gpuplan::split_lines;  // text.hpp: shared with the usage-history readers

inline std::size_t indent_of(std::string_view s) {
    std::size_t n = 0;
    while (n < s.size() && s[n] == ' ') ++n;
    return n;
}

inline std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

// Digits and '.' only reach here (text.hpp: decimal_number).
inline std::optional<double> to_double(std::string_view s) { return decimal_number(s); }

inline std::optional<int> to_int(std::string_view s) {
    int v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
}

// A small cursor over one line.
struct Cursor {
    std::string_view s;
    std::size_t pos = 0;
    bool eat(std::string_view lit) {
        if (s.substr(pos, lit.size()) != lit) return false;
        pos += lit.size();
        return true;
    }
    std::string_view take_while(bool (*ok)(char)) {
        const std::size_t start = pos;
        while (pos < s.size() && ok(s[pos])) ++pos;
        return s.substr(start, pos - start);
    }
    bool done() const { return pos >= s.size(); }
};

inline bool is_alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
inline bool is_id(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0 || c == '-'; }
inline bool is_number(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '.'; }

// "file: line 12", for messages.
inline std::string where(const std::string& origin, std::size_t line) { return origin + ": line " + std::to_string(line); }

}  // namespace gpuplan::topology_text
