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
#include "gpuplan/pricing/purchase_options.hpp"
#include "gpuplan/recommend/recommend.hpp"

namespace gpuplan {

struct RegionRank {
    std::string region;
    std::size_t recommendation = 0;       // index into the recommendations ranked (their region order)
    std::optional<std::size_t> cheapest;  // index into that recommendation's candidates; none: nothing kept there
    std::string instance, purchase, layout;  // the cheapest option, as the sweep's tables name it ("" when none)
    std::string option;                      // the same in words: "g7e.2xlarge (spot), tp 1 x 1 replica(s), batch 158"
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

// The cheapest way to buy one instance type in each region: every purchase option quoted
// (quote_purchase_options, at the request's hours, count and assumptions; request.region is
// not used) and the one that costs least for those hours ranked, with the saving against
// `home`. A region that does not offer the type, or has no on-demand price to quote it from,
// ranks last with the reason.
RegionRanking rank_regions_for_price(const Catalog& catalog, const QuoteRequest& request, const std::vector<std::string>& regions,
                                     const std::string& home);

nlohmann::json to_json(const RegionRanking& ranking);

}  // namespace gpuplan
