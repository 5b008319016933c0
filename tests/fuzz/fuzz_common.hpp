// fuzz_common.hpp — what every gpuplan fuzz target treats as a finding (docs/reliability.md).
//
// libFuzzer reports crashes, sanitizer reports and timeouts itself. An exception other than
// gpuplan::InputError escapes the target and ends in std::terminate (abort): a finding. The
// targets add their own checks and call finding() when one fails: an accepted input that does
// not survive a round trip, a result holding NaN or infinity, partial output on an error.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace gpuplan::fuzz {

[[noreturn]] inline void finding(std::string_view what, std::string_view detail = "") {
    std::fprintf(stderr, "\n==gpuplan-fuzz== FINDING: %.*s\n%.*s\n", static_cast<int>(what.size()), what.data(),
                 static_cast<int>(detail.size()), detail.data());
    std::abort();
}

// Every number in `value` is finite (no NaN or infinity reaches a user).
inline void require_finite(const nlohmann::json& value, const std::string& path = "$") {
    if (value.is_number_float() && !std::isfinite(value.get<double>())) finding("non-finite number in a result", path);
    if (value.is_array())
        for (std::size_t k = 0; k < value.size(); ++k) require_finite(value[k], path + "[" + std::to_string(k) + "]");
    if (value.is_object())
        for (const auto& [key, item] : value.items()) require_finite(item, path + "." + key);
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

}  // namespace gpuplan::fuzz
