// text.hpp — numbers and sizes in words, for every shell and for the core's own verdicts.
//
// Rules (docs/cli.md): money 2 decimals with thousands separators ($2,140.94), hourly rates
// 4 decimals ($0.9867), percentages 2 decimals (38.33%). A missing figure reads "unknown", or
// "n/a" when its reason says the feature does not exist on that hardware (catalog reasons
// starting "n/a: "). Sizes print in GB (10^9 bytes) and, where both matter, GiB (2^30 bytes).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan {

inline constexpr std::string_view kUnknown = "unknown";
inline constexpr std::string_view kNotApplicable = "n/a";

// "1234567.891" → "1,234,567.891": separators in the integer part of a plain decimal text.
std::string group_thousands(std::string text);
std::string money(double usd);           // "$2,140.94" (2 decimals)
std::string rate(double usd);            // "$0.9867"   (4 decimals, for $/h and other rates)
std::string percent(double fraction);    // "38.33%"    (0.3833 in, 2 decimals)
std::string quantity(double value);      // "2,048", "0.125" (up to 6 significant digits)
std::string decimals(double value, int places);  // "135.67" with separators

// "44.17 GB" and "44.17 GB (41.14 GiB)" from a value in GB.
std::string gb_text(double gb);
std::string gb_gib_text(double gb);

// "n/a" when the reason says the feature does not exist, else "unknown".
std::string_view missing_text(std::string_view reason);
// "n/a — single accelerator", "unknown — not in the snapshot": the word and the reason.
std::string missing_with_reason(std::string_view reason);

std::string join(const std::vector<std::string>& parts, std::string_view separator);
// The non-empty parts of `text` between `separator`s (link values; CSV keeps empty fields) ("a;;b;" -> "a", "b").
std::vector<std::string> nonempty_parts(std::string_view text, char separator);

// `text` with every byte that is not part of a valid UTF-8 sequence replaced by '?': input text
// (a log, a matrix) can hold any bytes, and a JSON document may only hold UTF-8.
std::string valid_utf8(std::string_view text);

// The whole of `text` as a finite decimal number ("12.0", "5000.000000", "-3e2"), else nullopt.
// strtod, not from_chars: the libc++ Emscripten ships (LLVM 14) has no floating-point from_chars.
std::optional<double> decimal_number(std::string_view text);

// ASCII lower case ("GPUs" -> "gpus"): keys, units and flags, never prose.
std::string lower(std::string_view text);

// The lines of `text` (views into it), split at '\n' with a trailing '\r' removed; a text that
// ends with '\n' gives a last empty line.
std::vector<std::string_view> split_lines(std::string_view text);

}  // namespace gpuplan
