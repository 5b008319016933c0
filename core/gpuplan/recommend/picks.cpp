// picks.cpp — see picks.hpp.
#include "gpuplan/recommend/picks.hpp"

#include <cmath>
#include <cstdio>

namespace gpuplan {

namespace {

// Rounder than text.hpp's percent (2 decimals): a reason reads "within 1.5%", "42% of its cost".
std::string rounded_percent(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, std::fabs(fraction) < 0.1 ? "%.1f%%" : "%.0f%%", fraction * 100.0);
    return text;
}
std::string times(double ratio) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1fx", ratio);
    return text;
}

}  // namespace

FrontierPicks choose_picks(const std::vector<FrontierPoint>& frontier) {
    FrontierPicks p;
    if (frontier.empty()) return p;
    const std::size_t last = frontier.size() - 1;
    p.cheapest = 0;
    p.cheapest_why = "the lowest cost of every option kept";

    // The cheapest of the options as fast as the quickest (within the time tolerance)...
    const double quickest = frontier[last].time;
    std::size_t cheapest_fast = last;
    for (std::size_t i = 0; i <= last; ++i)
        if (frontier[i].time <= quickest * (1.0 + kSameTimeTolerance)) {
            cheapest_fast = i;
            break;
        }
    // ...and the quickest option costing at most the cost tolerance more than it.
    const double price_limit = frontier[cheapest_fast].cost * (1.0 + kSameCostTolerance);
    p.fastest = cheapest_fast;
    for (std::size_t i = cheapest_fast; i <= last; ++i)
        if (frontier[i].cost <= price_limit) p.fastest = i;
    if (p.fastest == last) {
        p.fastest_why = "the shortest time of every option kept";
    } else {
        const FrontierPoint& f = frontier[p.fastest];
        p.fastest_why = "within " + rounded_percent(f.time / quickest - 1.0) + " of the shortest time for " +
                        rounded_percent(f.cost / frontier[last].cost) + " of its cost: the quickest option takes " + rounded_percent(quickest / f.time) +
                        " of this time at " + times(frontier[last].cost / f.cost) + " this cost (times within " +
                        rounded_percent(kSameTimeTolerance) + " of the shortest count as equal, and costs within " + rounded_percent(kSameCostTolerance) +
                        " of the cheapest such option as the same price)";
    }

    // The knee between cheapest and fastest.
    const FrontierPoint &a = frontier[p.cheapest], &b = frontier[p.fastest];
    const double cost_span = b.cost - a.cost, time_span = a.time - b.time;
    double best = -INFINITY;
    bool found = false;
    for (std::size_t i = p.cheapest + 1; i < p.fastest; ++i) {
        const double x = cost_span > 0 ? (frontier[i].cost - a.cost) / cost_span : 0.0;
        const double y = time_span > 0 ? (frontier[i].time - b.time) / time_span : 0.0;
        const double below_line = 1.0 - x - y;  // distance below the line x + y = 1, times sqrt(2)
        if (below_line > best) best = below_line, p.balanced = i, found = true;
    }
    if (!found) {
        p.balanced = p.cheapest;
        p.balanced_why = p.fastest == p.cheapest ? "the cheapest option is also the fastest, so all three picks are the same option"
                                                 : "no option lies between the cheapest and the fastest on the frontier, so there is "
                                                   "no trade-off to balance: the same option as cheapest";
    } else {
        const FrontierPoint& k = frontier[p.balanced];
        p.balanced_why = "the knee of the frontier: of the step from cheapest to fastest it pays " +
                         rounded_percent(cost_span > 0 ? (k.cost - a.cost) / cost_span : 0.0) + " of the extra cost and saves " +
                         rounded_percent(time_span > 0 ? (a.time - k.time) / time_span : 0.0) + " of the time";
    }
    return p;
}

}  // namespace gpuplan
