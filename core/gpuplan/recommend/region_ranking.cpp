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
    std::string option;   // in words
    std::string why_none; // no option: why
    std::vector<FigureInput> inputs = {};  // the figure the cost is, where the option has one
};

Figure cost_figure(const std::string& region, const Cheapest& c, const std::string& unit, const std::string& what) {
    if (!c.index) return unknown_figure("cost", unit, what, c.why_none.empty() ? "no option is kept in " + region + " (its own recommendation says why each was dropped)" : c.why_none);
    return make_figure("cost", c.cost, unit, what, c.option + ": " + format_number(c.cost), c.inputs);
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
                       .purchase = cheapest[k].purchase, .layout = cheapest[k].layout, .option = cheapest[k].option,
                       .cost = cost_figure(regions[k], cheapest[k], unit, what)};
        const std::string formula = "1 - cost in " + regions[k] + " / cost in " + home;
        if (!cheapest[k].index || !at_home.index || at_home.cost <= 0) {
            row.saving_vs_home = unknown_figure("saving_vs_home", "fraction", formula,
                                                !cheapest[k].index ? row.cost.unknown_reason
                                                : !at_home.index   ? "the home region has no cost: " + cost_figure(home, at_home, unit, what).unknown_reason
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

// The key a candidate was bought by: serving sweeps any purchase option, training a price kind.
std::string purchase_key(PriceKind kind) { return std::string(to_string(kind)); }
std::string purchase_key(const PurchaseOption& option) { return key(option); }

template <class Sweep, class Cost>
std::vector<Cheapest> cheapest_of(const std::vector<Sweep>& by_region, const std::vector<std::string>& regions, Cost cost) {
    // `cost` gives a candidate's cost score and names it as the sweep's tables do.
    if (by_region.size() != regions.size()) throw InputError("regions", std::to_string(regions.size()) + " regions", std::to_string(by_region.size()) + ", one per recommendation");
    std::vector<Cheapest> out;
    for (const Sweep& s : by_region) {
        if (s.picks.empty()) out.push_back({});
        else {
            const auto& c = s.candidates[s.picks.front()];
            const std::string purchase = purchase_key(c.purchase);
            out.push_back({s.picks.front(), cost(c), c.instance, purchase, c.layout, c.instance + " (" + purchase + "), " + c.layout, ""});
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

RegionRanking rank_regions_for_price(const Catalog& catalog, const QuoteRequest& request, const std::vector<std::string>& regions,
                                     const std::string& home) {
    const Instance* instance = catalog.find_instance(request.instance);
    if (!instance) throw InputError("instance", "\"" + request.instance + "\"", "an instance type in the catalog (see `gpuplan catalog`)");
    std::vector<Cheapest> cheapest;
    for (std::size_t k = 0; k < regions.size(); ++k) {
        require_region(catalog, regions[k], "regions[" + std::to_string(k) + "]", "\"" + regions[k] + "\"");
        Cheapest c;
        if (!instance->offered_in(regions[k])) {
            c.why_none = instance->name + " is not offered in " + regions[k];
            cheapest.push_back(c);
            continue;
        }
        QuoteRequest q = request;
        q.region = regions[k];
        std::vector<Quote> quotes;
        try {
            quotes = quote_purchase_options(catalog, q);
        } catch (const InputError& e) {  // no on-demand price there to quote every option from
            c.why_none = e.what();
            cheapest.push_back(c);
            continue;
        }
        for (std::size_t i = 0; i < quotes.size(); ++i) {
            const Quote& quote = quotes[i];
            if (!quote.available || !quote.cost_usd.value || (c.index && *quote.cost_usd.value >= c.cost)) continue;
            // A commitment priced at a default discount says so (gpuplan price marks it "assumed").
            const bool assumed = quote.status == OptionStatus::assumed && is_commitment(quote.option.kind);
            c = {i, *quote.cost_usd.value, instance->name, quote.key, "", quote.label + (assumed ? " (assumed discount)" : ""), "",
                 {quote.cost_usd.as_input(quote.label + " in " + regions[k] + ": " + quote.cost_usd.formula)}};
        }
        if (!c.index) c.why_none = "no purchase option of " + instance->name + " has a known cost in " + regions[k];
        cheapest.push_back(c);
    }
    return rank(cheapest, regions, home, "USD", "the cheapest purchase option's cost for the hours and instances asked");
}

nlohmann::json to_json(const RegionRanking& ranking) {
    nlohmann::json rows = nlohmann::json::array();
    for (const RegionRank& r : ranking.ranks)
        rows.push_back({{"region", r.region}, {"instance", r.instance}, {"purchase", r.purchase}, {"layout", r.layout}, {"option", r.option}, {"cost", to_json(r.cost)},
                        {"saving_vs_home", to_json(r.saving_vs_home)}});
    return {{"home", ranking.home}, {"regions", rows}};
}

}  // namespace gpuplan
