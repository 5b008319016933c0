// picks.hpp — the three options a recommendation names on its Pareto frontier (cost versus
// time, cheapest first), shared by the serving and the training sweeps.
//
// - cheapest: the frontier's first point.
// - fastest: not blindly the quickest point. Points within kSameTimeTolerance of the quickest
//   time count as equally fast (the model's own error on published measurements is far larger,
//   docs/accuracy.md), and of those the cheapest sets the price; "fastest" is then the quickest
//   point costing at most kSameCostTolerance more than that price. A $5,315 option that is
//   32 s quicker than a $912 one on a 3-hour job is not what a person would pick.
// - balanced: the knee of the frontier between those two: after scaling cost and time to
//   [0, 1] over that stretch, the point farthest below the straight line joining them (the
//   "Kneedle" idea: Satopaa et al., "Finding a 'Kneedle' in a Haystack", ICDCS workshops 2011).
//   Without a point strictly between them there is no knee, and balanced names the cheapest
//   with that reason.
// Each pick carries a sentence saying why, in words.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "gpuplan/recommend/pareto.hpp"

namespace gpuplan {

inline constexpr double kSameTimeTolerance = 0.02;  // within 2% of the quickest time: as fast
inline constexpr double kSameCostTolerance = 0.10;  // within 10% of that price: the same price

// Whether a recommendation comes with its picks' working (their figures, explained): a
// ranking across regions reads values only, so it leaves the working out.
enum class PickWorking { built, left_out };

struct FrontierPoint {
    double cost = 0;  // lower is better (USD, or USD per 1M tokens)
    double time = 0;  // lower is better (hours, or seconds per token)
};

struct FrontierPicks {
    std::size_t cheapest = 0, fastest = 0, balanced = 0;  // indices into the frontier
    std::string cheapest_why, fastest_why, balanced_why;
};

// `frontier` as pareto_frontier orders it: cost ascending, time descending; not empty.
FrontierPicks choose_picks(const std::vector<FrontierPoint>& frontier);

// Fills a recommendation's frontier (indices of its kept candidates on the Pareto frontier of
// cost versus time), its three picks and their reasons. `Sweep` is Recommendation or
// TrainingRecommendation; `cost` and `time` score one candidate.
template <class Sweep, class Cost, class Time>
void frontier_and_picks(Sweep& r, Cost cost, Time time) {
    using Item = typename decltype(r.candidates)::value_type;
    std::vector<std::size_t> kept;
    std::vector<Item> points;
    for (std::size_t i = 0; i < r.candidates.size(); ++i)
        if (r.candidates[i].kept) kept.push_back(i), points.push_back(r.candidates[i]);
    for (std::size_t k : pareto_frontier(points, cost, time)) r.frontier.push_back(kept[k]);
    if (r.frontier.empty()) return;
    std::vector<FrontierPoint> frontier_points;
    for (std::size_t i : r.frontier) frontier_points.push_back({cost(r.candidates[i]), time(r.candidates[i])});
    const FrontierPicks p = choose_picks(frontier_points);
    r.picks = {r.frontier[p.cheapest], r.frontier[p.fastest], r.frontier[p.balanced]};
    r.pick_reasons = {p.cheapest_why, p.fastest_why, p.balanced_why};
}

}  // namespace gpuplan
