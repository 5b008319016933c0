// region_ranking.hpp — where a plan is cheapest: the recommendation in each region (from
// recommend_inference_in_regions or recommend_training_in_regions), ranked by its cheapest
// kept option, each with what it saves against the user's home region.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/explain.hpp"
#include "gpuplan/recommend/recommend.hpp"

namespace gpuplan {

struct RegionRank {
    std::string region;
    std::size_t recommendation = 0;       // index into the recommendations ranked (their region order)
    std::optional<std::size_t> cheapest;  // index into that recommendation's candidates; none: nothing kept there
    std::string instance, purchase, layout;  // the cheapest option, as the sweep's tables name it ("" when none)
    Figure cost = {};                     // the cheapest's cost: USD per 1M tokens (serving) or USD for the run (training)
    Figure saving_vs_home = {};           // 1 - cost / the home region's cost (fraction; negative: dearer than home)
};

struct RegionRanking {
    std::string home;
    std::vector<RegionRank> ranks;  // cheapest first; the regions that keep nothing last, in the order given
};

// `by_region[k]` is the recommendation in `regions[k]`; `home` must be one of them (InputError
// naming "home region" otherwise).
RegionRanking rank_regions(const std::vector<Recommendation>& by_region, const std::vector<std::string>& regions, const std::string& home);
RegionRanking rank_regions(const std::vector<TrainingRecommendation>& by_region, const std::vector<std::string>& regions,
                           const std::string& home);

nlohmann::json to_json(const RegionRanking& ranking);

}  // namespace gpuplan
