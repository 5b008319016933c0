#include "gpuplan/text.hpp"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "gpuplan/explain.hpp"
#include "gpuplan/units.hpp"

namespace gpuplan {

std::string group_thousands(std::string text) {
    // Only plain decimals ("-1234.5"); leave "1e+20" and words alone.
    if (text.find_first_of("eEn") != std::string::npos) return text;
    const std::size_t start = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
    std::size_t end = text.find('.');
    if (end == std::string::npos) end = text.size();
    for (std::size_t pos = end; pos > start + 3; pos -= 3) text.insert(pos - 3, ",");
    return text;
}

namespace {

// Fixed decimals with separators; a value that rounds to zero loses its minus sign.
std::string fixed(double value, int places) {
    char buffer[400];  // %.*f of the largest double is 309 digits before the point
    std::snprintf(buffer, sizeof buffer, "%.*f", places, value);
    std::string s = buffer;
    if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);
    return group_thousands(s);
}

std::string dollars(double value, int places) {
    std::string s = fixed(value, places);
    return s[0] == '-' ? "-$" + s.substr(1) : "$" + s;
}

}  // namespace

std::string money(double usd) { return std::isfinite(usd) ? dollars(usd, 2) : std::string(kUnknown); }
std::string rate(double usd) { return std::isfinite(usd) ? dollars(usd, 4) : std::string(kUnknown); }
std::string percent(double fraction) { return std::isfinite(fraction) ? fixed(fraction * 100.0, 2) + "%" : std::string(kUnknown); }
std::string quantity(double value) { return group_thousands(format_number(value)); }
std::string decimals(double value, int places) { return std::isfinite(value) ? fixed(value, places) : std::string(kUnknown); }

std::string gb_text(double gb) { return decimals(gb, 2) + " GB"; }
std::string gb_gib_text(double gb) { return decimals(gb, 2) + " GB (" + decimals(gb_to_gib(gb), 2) + " GiB)"; }

std::string_view missing_text(std::string_view reason) {
    return reason.find("n/a: ") != std::string_view::npos || reason.rfind("n/a", 0) == 0 ? kNotApplicable : kUnknown;
}

std::string missing_with_reason(std::string_view reason) {
    // A reason that starts with its own word ("n/a: ...", "unknown: ...") is not said twice.
    const std::string_view why = reason.rfind("n/a: ", 0) == 0 ? reason.substr(5) : reason.rfind("unknown: ", 0) == 0 ? reason.substr(9) : reason;
    return std::string(missing_text(reason)) + (why.empty() ? "" : " — " + std::string(why));
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
    std::string out;
    for (std::size_t k = 0; k < parts.size(); ++k) out += (k ? std::string(separator) : std::string()) + parts[k];
    return out;
}

std::optional<double> decimal_number(std::string_view text) {
    if (text.empty() || text.size() > 40) return std::nullopt;
    const std::string copy(text);
    char* end = nullptr;
    const double v = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

std::string valid_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    std::size_t k = 0;
    while (k < text.size()) {
        const auto c = static_cast<unsigned char>(text[k]);
        // Sequence length and the smallest code point it may encode (no overlong forms).
        const std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        bool ok = len > 0 && k + len <= text.size();
        std::uint32_t cp = len == 1 ? c : len == 2 ? (c & 0x1Fu) : len == 3 ? (c & 0x0Fu) : (c & 0x07u);
        for (std::size_t j = 1; ok && j < len; ++j) {
            const auto t = static_cast<unsigned char>(text[k + j]);
            ok = (t & 0xC0) == 0x80;
            cp = (cp << 6) | (t & 0x3Fu);
        }
        const std::uint32_t min_cp[] = {0, 0, 0x80, 0x800, 0x10000};
        ok = ok && cp >= min_cp[len] && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
        if (ok) {
            out.append(text.substr(k, len));
            k += len;
        } else {
            out += '?';
            ++k;
        }
    }
    return out;
}

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::vector<std::string> nonempty_parts(std::string_view text, char separator) {
    std::vector<std::string> parts;
    std::size_t from = 0;
    while (from <= text.size()) {
        const std::size_t at = text.find(separator, from);
        const std::size_t end = at == std::string_view::npos ? text.size() : at;
        if (end > from) parts.emplace_back(text.substr(from, end - from));
        if (at == std::string_view::npos) break;
        from = at + 1;
    }
    return parts;
}

std::vector<std::string_view> split_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        lines.push_back(line);
        if (end == text.size()) break;
        start = end + 1;
    }
    return lines;
}

}  // namespace gpuplan
