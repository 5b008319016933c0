// chart_link.hpp — the charts' ranges as one link value, so a shared link shows the charts as
// they were: how many months the Costs view's cumulative chart spans and how much of the
// decode timeline the Video decode view's chart shows.
//
//   costs-months=24;decode-ms=300
//
// Parts are separated by ';'; a range left at its default is omitted, so the default charts'
// link value is "". It rides in the app's arguments as --chart-ranges=VALUE (app_options.hpp),
// so in the page's URL as #chart-ranges=..., next to the catalog table's (catalog_link.hpp).
#pragma once

#include <string>
#include <string_view>

namespace gpuplan::ui {

struct ChartRanges {
    static constexpr int kDefaultCostsMonths = 36;
    static constexpr int kMinCostsMonths = 6, kMaxCostsMonths = 48;  // the slider's range
    int costs_months = kDefaultCostsMonths;
    // How much of the decode timeline the Gantt chart shows, in ms; 0 = the view's default
    // (about six chunks, where the two pipelines' overlap is visible).
    double decode_shown_ms = 0;
};

std::string chart_ranges_link(const ChartRanges& ranges);

// Applies a link value. Throws InputError naming "--chart-ranges" and the part that could not
// be read; `ranges` is then unchanged. A part not given goes back to its default.
void apply_chart_ranges_link(ChartRanges& ranges, std::string_view text);

}  // namespace gpuplan::ui
