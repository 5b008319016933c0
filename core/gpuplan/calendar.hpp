// calendar.hpp — every date and UTC time gpuplan reads or writes, through the C++20 calendar
// (<chrono>): catalog and overlay `as_of`, GPUPLAN_TODAY, usage timestamps (CSV, CloudWatch,
// Slurm), `usage generate --start`, price-list publication dates. A date that does not exist
// (2026-02-31, month 13, year 0000) or a time past 23:59:59 (24:00:01; the leap second
// 23:59:60, which Unix time does not count) is refused, never carried into the next day as
// the old hand-written day counts did (issue 34).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpuplan {

// "YYYY-MM-DD" -> days since 1970-01-01.
std::optional<std::int64_t> date_days(std::string_view text);
// "YYYY-MM-DD", or "YYYY-MM" meaning the month's last day (a catalog `as_of` may name a month).
std::optional<std::int64_t> date_or_month_days(std::string_view text);
// "YYYY-MM-DD" (its midnight) or "YYYY-MM-DD[T or space]HH:MM[:SS[.fraction]]" followed by
// nothing, "Z", "+00:00" or " UTC" -> Unix seconds. The fraction is read and dropped.
std::optional<double> utc_seconds(std::string_view text);

// Unix seconds -> "YYYY-MM-DD" and "YYYY-MM-DDTHH:MM:SSZ".
std::string utc_date(std::int64_t seconds_since_epoch);
std::string utc_time_iso(std::int64_t seconds_since_epoch);

}  // namespace gpuplan
