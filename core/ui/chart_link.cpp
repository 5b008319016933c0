// chart_link.cpp — the charts' ranges as a link value (chart_link.hpp).
#include "ui/chart_link.hpp"

#include <cmath>

#include "gpuplan/explain.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/text.hpp"

namespace gpuplan::ui {
namespace {
constexpr const char* kChartFlag = "--chart-ranges";
}  // namespace

std::string chart_ranges_link(const ChartRanges& ranges) {
    std::vector<std::string> parts;
    if (ranges.costs_months != ChartRanges::kDefaultCostsMonths) parts.push_back("costs-months=" + std::to_string(ranges.costs_months));
    if (ranges.decode_shown_ms > 0) parts.push_back("decode-ms=" + format_number(ranges.decode_shown_ms));
    return join(parts, ";");
}

void apply_chart_ranges_link(ChartRanges& ranges, std::string_view text) {
    ChartRanges next;
    for (const std::string& part : nonempty_parts(text, ';')) {
        const std::size_t eq = part.find('=');
        const std::string key = part.substr(0, eq);
        const std::optional<double> number = eq == std::string::npos ? std::nullopt : decimal_number(part.substr(eq + 1));
        const auto bad = [&](const std::string& expected) { throw InputError(kChartFlag, "'" + part + "'", expected); };
        if (key == "costs-months") {
            if (!number || *number != std::floor(*number) || *number < ChartRanges::kMinCostsMonths || *number > ChartRanges::kMaxCostsMonths)
                bad("costs-months=N, N a whole number of months from " + std::to_string(ChartRanges::kMinCostsMonths) + " to " +
                    std::to_string(ChartRanges::kMaxCostsMonths));
            next.costs_months = static_cast<int>(*number);
        } else if (key == "decode-ms") {
            if (!number || *number <= 0) bad("decode-ms=N, N the milliseconds of decode timeline shown, above 0");
            next.decode_shown_ms = *number;
        } else {
            bad("costs-months or decode-ms (KEY=VALUE, separated by ;)");
        }
    }
    ranges = next;
}

}  // namespace gpuplan::ui
