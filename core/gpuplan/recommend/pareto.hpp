// pareto.hpp — the Pareto frontier of options scored on two costs (lower is better on both).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace gpuplan {

// Indices of the points no other point dominates (another is <= on both and < on one),
// sorted by the first score. Ties on both scores keep the first seen. O(n log n).
template <class Point, class ScoreA, class ScoreB>
std::vector<std::size_t> pareto_frontier(const std::vector<Point>& points, ScoreA a, ScoreB b) {
    std::vector<std::size_t> order(points.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
        if (a(points[x]) != a(points[y])) return a(points[x]) < a(points[y]);
        return b(points[x]) < b(points[y]);
    });
    std::vector<std::size_t> frontier;
    for (std::size_t i : order) {
        // Sorted by a, then b: a point joins only if it beats every kept point on b.
        if (frontier.empty() || b(points[i]) < b(points[frontier.back()])) frontier.push_back(i);
    }
    return frontier;
}

}  // namespace gpuplan
