// calendar.cpp — see calendar.hpp. year_month_day::ok() is the whole validity check: it knows
// month lengths and leap years (C++20 [time.cal.ymd]).
#include "gpuplan/calendar.hpp"

#include <chrono>
#include <cstdio>

namespace gpuplan {
namespace {

namespace ch = std::chrono;

std::optional<unsigned> digits(std::string_view text, std::size_t from, std::size_t count) {
    if (from + count > text.size()) return std::nullopt;
    unsigned value = 0;
    for (std::size_t k = from; k < from + count; ++k) {
        if (text[k] < '0' || text[k] > '9') return std::nullopt;
        value = value * 10 + static_cast<unsigned>(text[k] - '0');
    }
    return value;
}

// The "YYYY-MM" at the start of `text`, year 1 to 9999.
std::optional<ch::year_month> year_month_at_start(std::string_view text) {
    const auto y = digits(text, 0, 4), m = digits(text, 5, 2);
    if (!y || !m || text[4] != '-' || *y < 1) return std::nullopt;
    const ch::year_month ym{ch::year{static_cast<int>(*y)}, ch::month{*m}};
    return ym.ok() ? std::optional(ym) : std::nullopt;
}

// The "YYYY-MM-DD" at the start of `text`, as days since the epoch, if that day exists.
std::optional<std::int64_t> days_at_start(std::string_view text) {
    const auto ym = year_month_at_start(text);
    const auto d = digits(text, 8, 2);
    if (!ym || !d || text[7] != '-') return std::nullopt;
    const ch::year_month_day date{ym->year(), ym->month(), ch::day{*d}};
    if (!date.ok()) return std::nullopt;
    return ch::sys_days{date}.time_since_epoch().count();
}

}  // namespace

std::optional<std::int64_t> date_days(std::string_view text) {
    return text.size() == 10 ? days_at_start(text) : std::nullopt;
}

std::optional<std::int64_t> date_or_month_days(std::string_view text) {
    if (text.size() != 7) return date_days(text);
    const auto ym = year_month_at_start(text);
    if (!ym) return std::nullopt;
    return ch::sys_days{ch::year_month_day_last{ym->year(), ch::month_day_last{ym->month()}}}.time_since_epoch().count();
}

std::optional<double> utc_seconds(std::string_view text) {
    const auto days = days_at_start(text);
    if (!days) return std::nullopt;
    const double midnight = static_cast<double>(*days) * 86400.0;
    if (text.size() == 10) return midnight;
    const auto h = digits(text, 11, 2), mi = digits(text, 14, 2);
    if (!h || !mi || (text[10] != 'T' && text[10] != ' ') || text[13] != ':' || *h > 23 || *mi > 59) return std::nullopt;
    unsigned seconds = 0;
    std::size_t rest = 16;
    if (text.size() > rest && text[rest] == ':') {
        const auto s = digits(text, 17, 2);
        if (!s || *s > 59) return std::nullopt;
        seconds = *s;
        rest = 19;
        if (text.size() > rest && text[rest] == '.') {
            ++rest;
            const std::size_t first = rest;
            while (rest < text.size() && text[rest] >= '0' && text[rest] <= '9') ++rest;
            if (rest == first) return std::nullopt;
        }
    }
    const std::string_view zone = text.substr(rest);
    if (!(zone.empty() || zone == "Z" || zone == "+00:00" || zone == "UTC" || zone == " UTC")) return std::nullopt;
    return midnight + *h * 3600.0 + *mi * 60.0 + seconds;
}

std::string utc_date(std::int64_t seconds_since_epoch) {
    const ch::sys_days day = ch::floor<ch::days>(ch::sys_seconds{ch::seconds{seconds_since_epoch}});
    const ch::year_month_day date{day};
    char text[16];
    std::snprintf(text, sizeof text, "%04d-%02u-%02u", static_cast<int>(date.year()), static_cast<unsigned>(date.month()),
                  static_cast<unsigned>(date.day()));
    return text;
}

std::string utc_time_iso(std::int64_t seconds_since_epoch) {
    const ch::sys_seconds t{ch::seconds{seconds_since_epoch}};
    const ch::hh_mm_ss clock{t - ch::floor<ch::days>(t)};
    char text[16];
    std::snprintf(text, sizeof text, "T%02d:%02d:%02dZ", static_cast<int>(clock.hours().count()), static_cast<int>(clock.minutes().count()),
                  static_cast<int>(clock.seconds().count()));
    return utc_date(seconds_since_epoch) + text;
}

}  // namespace gpuplan
