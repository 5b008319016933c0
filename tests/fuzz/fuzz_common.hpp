// fuzz_common.hpp — what every gpuplan fuzz target treats as a finding (docs/reliability.md).
//
// libFuzzer reports crashes, sanitizer reports and timeouts itself. An exception other than
// gpuplan::InputError escapes the target and ends in std::terminate (abort): a finding. The
// targets add their own checks and call finding() when one fails: an accepted input that does
// not survive a round trip, a result holding NaN or infinity, partial output on an error.
#pragma once

#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

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

// Issue 34's strictness, checked on what a reader accepted, by means of its own (not the
// readers' code): no object of the accepted JSON text gives a key twice.
inline void require_no_duplicate_keys(std::string_view text) {
    struct Keys : nlohmann::json_sax<nlohmann::json> {
        std::vector<std::vector<std::string>> open;  // the keys of each object being read
        bool duplicate = false;
        bool null() override { return true; }
        bool boolean(bool) override { return true; }
        bool number_integer(number_integer_t) override { return true; }
        bool number_unsigned(number_unsigned_t) override { return true; }
        bool number_float(number_float_t, const string_t&) override { return true; }
        bool string(string_t&) override { return true; }
        bool binary(binary_t&) override { return true; }
        bool start_object(std::size_t) override { return open.emplace_back(), true; }
        bool key(string_t& k) override {
            for (const auto& seen : open.back()) duplicate = duplicate || seen == k;
            open.back().push_back(k);
            return true;
        }
        bool end_object() override { return open.pop_back(), true; }
        bool start_array(std::size_t) override { return true; }
        bool end_array() override { return true; }
        bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
    } keys;
    nlohmann::json::sax_parse(text, &keys, nlohmann::json::input_format_t::json, false);
    if (keys.duplicate) finding("accepted a JSON object that gives a key twice");
}

// A name others are matched against, as accepted: no space at either end, no control character.
inline void require_clean_name(const std::string& name, std::string_view what) {
    const bool spaced = !name.empty() && (std::isspace(static_cast<unsigned char>(name.front())) || std::isspace(static_cast<unsigned char>(name.back())));
    bool control = false;
    for (unsigned char c : name) control = control || c < 0x20 || c == 0x7f;
    if (name.empty() || spaced || control) finding("accepted a name with a space at an end or a control character", what);
}

// A date as accepted: "YYYY-MM" or "YYYY-MM-DD..." naming a day the calendar has (checked
// with <chrono>, year 1 or later).
inline void require_calendar_date(const std::string& date, std::string_view what) {
    const auto digits = [&](std::size_t at, std::size_t count) {
        int v = 0;
        for (std::size_t k = at; k < at + count; ++k) {
            if (k >= date.size() || !std::isdigit(static_cast<unsigned char>(date[k]))) finding("accepted a date that is not YYYY-MM(-DD)", what);
            v = v * 10 + (date[k] - '0');
        }
        return v;
    };
    const int year = digits(0, 4), month = digits(5, 2);
    const int day = date.size() >= 10 ? digits(8, 2) : 1;
    const std::chrono::year_month_day ymd{std::chrono::year{year}, std::chrono::month{static_cast<unsigned>(month)},
                                          std::chrono::day{static_cast<unsigned>(day)}};
    if (year < 1 || !ymd.ok()) finding("accepted a day the calendar does not have", std::string(what) + ": " + date);
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

}  // namespace gpuplan::fuzz
