// explain_test.cpp — the text of numbers in explanations (core/gpuplan/explain.hpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "gpuplan/explain.hpp"

using namespace gpuplan;

namespace {

// What C's printf writes, the reference format_number keeps to ("%.0f" for whole numbers
// from a million below 1e15, "%.6g" otherwise).
std::string printf_text(double value) {
    char buf[64];
    const double magnitude = std::fabs(value);
    std::snprintf(buf, sizeof buf, magnitude >= 1e6 && magnitude < 1e15 && std::floor(value) == value ? "%.0f" : "%.6g", value);
    return buf;
}

}  // namespace

TEST_CASE("format_number writes six significant digits, as the explanations always have", "[explain]") {
    CHECK(format_number(38.528) == "38.528");
    CHECK(format_number(0.986666666) == "0.986667");
    CHECK(format_number(8760) == "8760");
    CHECK(format_number(55.04 * 0.7) == "38.528");
    CHECK(format_number(1234567) == "1234567");        // whole numbers keep every digit up to 1e15
    CHECK(format_number(1234567.5) == "1.23457e+06");
    CHECK(format_number(1e15) == "1e+15");
    CHECK(format_number(-2.5e-7) == "-2.5e-07");
    CHECK(format_number(0) == "0");
    CHECK(format_number(0.125) == "0.125");
    CHECK(format_number(2.0000005) == "2");            // rounds, and drops the zeros it leaves
    CHECK(format_number(NAN) == "unknown");
    CHECK(format_number(INFINITY) == "unknown");
}

TEST_CASE("format_number writes what printf writes, for numbers of every size", "[explain]") {
    // The fast path (std::to_chars) must give today's text byte for byte: explanations are
    // compared and cited, and a changed digit would be a changed explanation.
    std::mt19937_64 random(20261129);
    std::uniform_real_distribution<double> mantissa(-10.0, 10.0);
    std::uniform_int_distribution<int> exponent(-12, 17);
    std::uniform_int_distribution<long long> whole(-2'000'000'000'000'000LL, 2'000'000'000'000'000LL);
    int differ = 0;
    for (int k = 0; k < 200000; ++k) {
        const double values[] = {mantissa(random) * std::pow(10.0, exponent(random)), static_cast<double>(whole(random)),
                                 std::round(mantissa(random) * 1e6) / 1e6, std::round(mantissa(random) * 1e7) / 2};
        for (double v : values)
            if (format_number(v) != printf_text(v)) {
                if (++differ <= 5) FAIL_CHECK(v << ": " << format_number(v) << " against printf's " << printf_text(v));
            }
    }
    CHECK(differ == 0);
}
