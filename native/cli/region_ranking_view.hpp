// region_ranking_view.hpp — `--regions`: the list of regions a command ranks, and the ranking
// (core: recommend/region_ranking.hpp) as a table, shared by `recommend` and `price`.
#pragma once

#include <string>
#include <vector>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/recommend/region_ranking.hpp"
#include "output.hpp"

namespace gpuplan::cli {

// --regions as the list to rank: "all" is every region the catalog prices; the home region
// (--region) is always among them, first when the user did not name it. InputError naming
// --regions for an unknown region or "all" among others.
std::vector<std::string> ranked_regions(const Catalog& catalog, const std::vector<std::string>& regions_flag, const std::string& home);

// What a ranking's rows are, said under its table.
inline constexpr const char* kSweepRankingNote =
    "Each region's cheapest kept option (the first pick of its own recommendation: the same sweep priced at that\n"
    "region's prices).";
inline constexpr const char* kPriceRankingNote =
    "Each region's cheapest purchase option for the hours and instances asked (every option quoted as `gpuplan price`\n"
    "quotes it there). Spot is its price x the hours; interruptions add rework (`gpuplan price --region R` shows $/useful-h).";

// One row per region, cheapest first: its cheapest option, the cost (cost_text formats it) and
// the saving against the home region; json is to_json(ranking), csv the table's raw values;
// explain: after the table, each region's cost and saving with their working (--explain).
std::string render_region_ranking(const RegionRanking& ranking, const std::string& note, const std::string& heading, const std::string& cost_header,
                                  std::string (*cost_text)(double), Format format, bool explain);

}  // namespace gpuplan::cli
