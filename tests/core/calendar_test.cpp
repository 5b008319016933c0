// calendar_test.cpp — dates and UTC times (core/gpuplan/calendar.hpp). The day counts were
// computed apart with Python's datetime ((date(y, m, d) - date(1970, 1, 1)).days and
// datetime(..., tzinfo=timezone.utc).timestamp()), not with this code.
#include <catch2/catch.hpp>

#include "gpuplan/calendar.hpp"
#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/pricing/usage_formats.hpp"

using namespace gpuplan;

TEST_CASE("dates that exist are counted from 1970-01-01", "[calendar]") {
    CHECK(date_days("2026-07-20") == 20654);
    CHECK(date_days("2024-02-29") == 19782);  // a leap day
    CHECK(date_days("2000-03-01") == 11017);  // 2000 is a leap year (divisible by 400)
    CHECK(date_days("1969-12-31") == -1);
    CHECK(date_days("0001-01-01") == -719162);
    CHECK(date_days("9999-12-31") == 2932896);
    CHECK(date_or_month_days("2026-02") == 20512);  // a month means its last day: 2026-02-28
    CHECK(date_or_month_days("2024-02") == 19782);  // 2024-02-29
    CHECK(utc_seconds("2026-01-05T14:00:00Z") == 1767621600.0);
    CHECK(utc_seconds("2026-01-05 14:00") == 1767621600.0);
    CHECK(utc_seconds("2026-01-05T14:00:00.250+00:00") == 1767621600.0);  // the fraction is dropped
    CHECK(utc_seconds("2026-12-31T23:59:59 UTC") == 1798761599.0);
}

TEST_CASE("a date or time that does not exist is refused, never carried into the next day", "[calendar]") {
    for (const char* bad : {"2026-02-31", "2026-02-29", "1900-02-29", "2026-04-31", "2026-13-01", "2026-00-10", "2026-01-00",
                            "0000-06-01", "2026-1-05", "2026/01/05", "", "2026-01-05x"})
        CHECK_FALSE(date_days(bad));
    for (const char* bad : {"2026-13", "0000-01", "2026-1"}) CHECK_FALSE(date_or_month_days(bad));
    for (const char* bad : {"2026-01-05T24:00:01Z", "2026-01-05T24:00", "2026-01-05T23:60", "2026-12-31T23:59:60Z",
                            "2026-02-31T10:00:00Z", "2026-01-05T10:00:00.Z", "2026-01-05T10:00:00+02:00"})
        CHECK_FALSE(utc_seconds(bad));
}

TEST_CASE("dates are printed back as they were read", "[calendar]") {
    CHECK(utc_date(20654LL * 86400) == "2026-07-20");
    CHECK(utc_date(-1) == "1969-12-31");
    CHECK(utc_time_iso(1767621600) == "2026-01-05T14:00:00Z");
    CHECK(utc_time_iso(1798761599) == "2026-12-31T23:59:59Z");
}

TEST_CASE("every reader of dates goes through the calendar", "[calendar]") {
    CHECK(price_age_days("2026-07-20", "2026-11-28") == 131);  // Python: (date(2026,11,28) - date(2026,7,20)).days
    CHECK_FALSE(price_age_days("2026-02-31", "2026-11-28"));
    CHECK_FALSE(price_age_days("2026-07-20", "2026-11-31"));
    CHECK(parse_unix_seconds("1767621600") == 1767621600.0);  // a Unix time stays a number
    CHECK_FALSE(parse_unix_seconds("2026-02-31T00:00:00Z"));
}
