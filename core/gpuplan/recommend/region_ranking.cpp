// region_ranking.cpp — see region_ranking.hpp.
#include "gpuplan/recommend/region_ranking.hpp"

#include <algorithm>

#include "gpuplan/input_error.hpp"

namespace gpuplan {

namespace {

// What ranks one region: its cheapest kept option (the first pick: the frontier's cheapest
// point, picks.hpp) and that option's cost score.
struct Cheapest {
    std::optional<std::size_t> index;
    double cost = 0;
    std::string instance, purchase, layout;
    std::string option() const { return instance + " (" + purchase + "), " + layout; }
};

Figure cost_figure(const std::string& region, const Cheapest& c, const std::string& unit, const std::string& what) {
    if (!c.index) return unknown_figure("cost", unit, what, "no option is kept in " + region);
    return make_figure("cost", c.cost, unit, what, c.option() + ": " + format_number(c.cost), {});
}

RegionRanking rank(const std::vector<Cheapest>& cheapest, const std::vector<std::string>& regions, const std::string& home,
                   const std::string& unit, const std::string& what) {
    const auto home_at = std::find(regions.begin(), regions.end(), home);
    if (home_at == regions.end()) throw InputError("home region", "\"" + home + "\"", "one of the regions ranked");
    const Cheapest& at_home = cheapest[static_cast<std::size_t>(home_at - regions.begin())];
    RegionRanking r;
    r.home = home;
    for (std::size_t k = 0; k < regions.size(); ++k) {
        RegionRank row{.region = regions[k], .recommendation = k, .cheapest = cheapest[k].index, .instance = cheapest[k].instance,
                       .purchase = cheapest[k].purchase, .layout = cheapest[k].layout, .cost = cost_figure(regions[k], cheapest[k], unit, what)};
        const std::string formula = "1 - cost in " + regions[k] + " / cost in " + home;
        if (!cheapest[k].index || !at_home.index || at_home.cost <= 0) {
            row.saving_vs_home = unknown_figure("saving_vs_home", "fraction", formula,
                                                !cheapest[k].index ? "no option is kept in " + regions[k]
                                                : !at_home.index   ? "no option is kept in the home region " + home
                                                                   : "the home region's cheapest option costs nothing");
        } else {
            const double saving = 1 - cheapest[k].cost / at_home.cost;
            row.saving_vs_home = make_figure("saving_vs_home", saving, "fraction", formula,
                                             "1 - " + format_number(cheapest[k].cost) + " / " + format_number(at_home.cost) + " = " + format_number(saving),
                                             {row.cost.as_input(what + " in " + regions[k]), cost_figure(home, at_home, unit, what).as_input(what + " in " + home)});
        }
        r.ranks.push_back(std::move(row));
    }
    // Cheapest first; a region with nothing kept goes last, keeping the order it was given in.
    std::stable_sort(r.ranks.begin(), r.ranks.end(), [&](const RegionRank& a, const RegionRank& b) {
        if (a.cheapest.has_value() != b.cheapest.has_value()) return a.cheapest.has_value();
        return a.cheapest && cheapest[a.recommendation].cost < cheapest[b.recommendation].cost;
    });
    return r;
}

template <class Sweep, class Cost>
std::vector<Cheapest> cheapest_of(const std::vector<Sweep>& by_region, const std::vector<std::string>& regions, Cost cost) {
    // `cost` gives a candidate's cost score and names it as the sweep's tables do.
    if (by_region.size() != regions.size()) throw InputError("regions", std::to_string(regions.size()) + " regions", std::to_string(by_region.size()) + ", one per recommendation");
    std::vector<Cheapest> out;
    for (const Sweep& s : by_region) {
        if (s.picks.empty()) out.push_back({});
        else {
            const auto& c = s.candidates[s.picks.front()];
            out.push_back({s.picks.front(), cost(c), c.instance, std::string(to_string(c.purchase)), c.layout});
        }
    }
    return out;
}

}  // namespace

RegionRanking rank_regions(const std::vector<Recommendation>& by_region, const std::vector<std::string>& regions, const std::string& home) {
    return rank(cheapest_of(by_region, regions, [](const Candidate& c) { return c.usd_per_million_tokens; }), regions, home, "USD/1M tokens",
                "the cheapest option's USD per 1M tokens");
}

RegionRanking rank_regions(const std::vector<TrainingRecommendation>& by_region, const std::vector<std::string>& regions, const std::string& home) {
    return rank(cheapest_of(by_region, regions, [](const TrainingCandidate& c) { return c.cost_usd; }), regions, home, "USD",
                "the cheapest option's USD for the whole run");
}

nlohmann::json to_json(const RegionRanking& ranking) {
    nlohmann::json rows = nlohmann::json::array();
    for (const RegionRank& r : ranking.ranks)
        rows.push_back({{"region", r.region}, {"instance", r.instance}, {"purchase", r.purchase}, {"layout", r.layout}, {"cost", to_json(r.cost)},
                        {"saving_vs_home", to_json(r.saving_vs_home)}});
    return {{"home", ranking.home}, {"regions", rows}};
}

}  // namespace gpuplan
