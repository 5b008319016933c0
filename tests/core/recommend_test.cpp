// The recommender: a hand-checked pick (its step as `gpuplan infer` models it), and its properties over real sweeps: the frontier has
// no dominated point, and nothing kept fails to fit (checked with inference_memory, not with
// the recommender's own arithmetic).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/workload/memory.hpp"
#include "gpuplan/recommend/pareto.hpp"
#include "gpuplan/recommend/picks.hpp"
#include "gpuplan/scenario/scenario_result.hpp"
#include "gpuplan/recommend/recommend.hpp"
#include "gpuplan/recommend/region_ranking.hpp"
#include "fixtures.hpp"

using namespace gpuplan;

namespace {
using test::catalog;
const PurchaseOption kOnDemand{PurchaseKind::on_demand}, kSpot{PurchaseKind::spot};
}  // namespace

TEST_CASE("pareto frontier of a small set", "[recommend]") {
    struct P { double cost, time; };
    const std::vector<P> pts = {{3, 1}, {1, 5}, {2, 2}, {2, 3}, {4, 1}, {1, 6}, {5, 0.5}};
    const auto f = pareto_frontier(pts, [](const P& p) { return p.cost; }, [](const P& p) { return p.time; });
    // (1,5), (2,2), (3,1), (5,0.5); (2,3) is beaten by (2,2), (4,1) by (3,1), (1,6) by (1,5).
    REQUIRE(f.size() == 4);
    CHECK(f[0] == 1);
    CHECK(f[1] == 2);
    CHECK(f[2] == 0);
    CHECK(f[3] == 6);
}

TEST_CASE("picks: fastest within the tolerances, balanced at the knee", "[recommend]") {
    // The case: $912 in 3 h against $5,315 for 32 s less. 32 s of 10,800 s is 0.3%,
    // inside the 2% time tolerance, so the $912 option is as fast and is "fastest".
    const std::vector<FrontierPoint> two = {{912, 3.0}, {5315, 3.0 - 32.0 / 3600}};
    FrontierPicks p = choose_picks(two);
    CHECK(p.cheapest == 0);
    CHECK(p.fastest == 0);
    CHECK(p.balanced == 0);
    CHECK(p.fastest_why.find("within 0.3% of the shortest time") != std::string::npos);
    CHECK(p.balanced_why.find("also the fastest") != std::string::npos);

    // A frontier with a clear knee. Cost 100..1000, time 10..1 h; scaled over that stretch
    // (x = (c - 100) / 900, y = (t - 1) / 9) the points (150, 4) -> x 0.056, y 0.333 (1 - x - y
    // = 0.611) and (400, 2) -> 0.333, 0.111 (0.556): the knee is (150, 4).
    const std::vector<FrontierPoint> knee = {{100, 10}, {150, 4}, {400, 2}, {1000, 1}};
    p = choose_picks(knee);
    CHECK(p.cheapest == 0);
    CHECK(p.fastest == 3);  // 1 h is 50% quicker than 2 h: not within the time tolerance
    CHECK(p.balanced == 1);
    CHECK(p.balanced_why.find("pays 5.6% of the extra cost and saves 67% of the time") != std::string::npos);

    // Two options within 2% of the quickest time: the cheaper of them sets the price, and the
    // quickest within 10% of it is "fastest" ($1,050 at 1.01 h), not $2,000 at 1.00 h.
    const std::vector<FrontierPoint> near = {{100, 10}, {1000, 1.015}, {1050, 1.01}, {2000, 1.0}};
    p = choose_picks(near);
    CHECK(p.fastest == 2);
    CHECK(p.balanced != p.fastest);
    CHECK(p.balanced == 1);  // the only point strictly between cheapest and fastest

    // No point between cheapest and fastest: balanced is the cheapest, and says so.
    p = choose_picks({{100, 10}, {1000, 1}});
    CHECK(p.fastest == 1);
    CHECK(p.balanced == 0);
    CHECK(p.balanced_why.find("no option lies between") != std::string::npos);
}

TEST_CASE("inference recommendation: a hand-checked candidate", "[recommend]") {
    const ModelSpec& m = *find_model(builtin_models(), "llama-3-8b");
    InferenceRecommendRequest q = default_inference_request(m);
    q.context = 4096;
    q.tokens_per_second = 1000;
    q.families = {"g6e"};
    const Recommendation r = recommend_inference(catalog(), q);
    const Candidate* c = nullptr;
    for (const auto& x : r.candidates)
        if (x.instance == "g6e.xlarge" && x.tensor_parallel == 1) c = &x;
    REQUIRE(c);
    REQUIRE(c->kept);
    // One L40S: 44.7 GiB = 47.996 GB; weights 16.061 GB; overhead 2 GiB = 2.147 GB;
    // KV per sequence 131,072 B x 4096 = 0.5369 GB -> batch floor(29.788 / 0.5369) = 55.
    CHECK(c->layout == "tp 1 x 1 replica(s), batch 55");
    // The step as `gpuplan infer` models it (inference.hpp): memory roofline 864e9 / (16.061e9 +
    // 55 x 0.5369e9) = 18.952 steps/s, x 0.8 bandwidth efficiency = 15.162 steps/s, so 1 / 15.162
    // = 65.96 ms, plus the 3.2 ms step overhead (tp 1: no all-reduce) = 69.16 ms a token; 55 / 0.06916
    // = 795.3 tokens/s -> 2 instances for 1,000 tokens/s at $1.861/h = $3.722/h = $1.0339 per 1M tokens.
    CHECK(c->instances == 2);
    CHECK(std::round(c->usd_per_hour * 1e4) / 1e4 == 3.722);
    CHECK(std::round(c->usd_per_million_tokens * 1e4) / 1e4 == 1.0339);
    CHECK(c->seconds_per_token == Approx(1 / (18.952 * 0.8) + 0.0032).epsilon(1e-3));
    CHECK(c->tokens_per_second == Approx(2 * 55 / (1 / (18.952 * 0.8) + 0.0032)).epsilon(1e-3));
}

TEST_CASE("recommender properties over full sweeps", "[recommend][property]") {
    for (const char* name : {"llama-3-8b", "llama-3.1-70b", "mixtral-8x7b"}) {
        const ModelSpec& m = *find_model(builtin_models(), name);
        for (double weight_bytes : {2.0, 1.0}) {
            InferenceRecommendRequest q = default_inference_request(m);
            q.weight_bytes = weight_bytes;
            q.context = 8192;
            q.tokens_per_second = 2000;
            q.purchase = {kOnDemand, kSpot};
            const Recommendation r = recommend_inference(catalog(), q);
            INFO(name << " weight bytes " << weight_bytes);
            CHECK(r.evaluated == r.candidates.size());
            // No frontier point is dominated by any kept candidate.
            for (std::size_t i : r.frontier)
                for (const auto& other : r.candidates) {
                    if (!other.kept) continue;
                    const auto& f = r.candidates[i];
                    const bool dominated = other.usd_per_million_tokens <= f.usd_per_million_tokens &&
                                           other.seconds_per_token <= f.seconds_per_token &&
                                           (other.usd_per_million_tokens < f.usd_per_million_tokens || other.seconds_per_token < f.seconds_per_token);
                    CHECK_FALSE(dominated);
                }
            // Every kept candidate fits: recheck with inference_memory per replica.
            for (const auto& c : r.candidates) {
                if (!c.kept) continue;
                const Instance& inst = *catalog().find_instance(c.instance);
                const double tp = c.tensor_parallel, batch = c.batch;
                CHECK(c.layout == "tp " + format_number(tp) + " x " + format_number(c.replicas) + " replica(s), batch " + format_number(batch));
                InferenceMemoryRequest mem;
                mem.model = &m;
                mem.weight_bytes = weight_bytes;
                mem.batch = batch;
                mem.context = q.context;
                mem.tensor_parallel = tp;
                const double per_gpu_gb = *inference_memory(mem).per_gpu_gb.value;
                CHECK(per_gpu_gb <= *inst.accelerator_memory_gib_each * kBytesPerGiB / 1e9 + 1e-9);
                CHECK(batch >= 1);
            }
            if (!r.frontier.empty()) {
                CHECK(r.picks.size() == 3);
                CHECK(r.pick_reasons.size() == 3);
                // The fastest pick is within the time tolerance of the frontier's quickest, or is it.
                const double quickest = r.candidates[r.frontier.back()].seconds_per_token;
                const Candidate& fastest = r.candidates[r.picks[1]];
                CHECK(fastest.seconds_per_token <= quickest * (1 + kSameTimeTolerance) * (1 + 1e-12));
                // Balanced is never dearer than fastest nor slower than cheapest.
                const Candidate& balanced = r.candidates[r.picks[2]];
                CHECK(balanced.usd_per_million_tokens <= fastest.usd_per_million_tokens);
                CHECK(balanced.seconds_per_token <= r.candidates[r.picks[0]].seconds_per_token);
            }
        }
    }
}

TEST_CASE("recommender says why options are dropped", "[recommend]") {
    const ModelSpec& m = *find_model(builtin_models(), "llama-3.1-405b");
    InferenceRecommendRequest q = default_inference_request(m);
    q.families = {"g6", "inf2"};
    const Recommendation r = recommend_inference(catalog(), q);
    REQUIRE_FALSE(r.candidates.empty());
    for (const auto& c : r.candidates) {
        CHECK_FALSE(c.kept);  // 811 GB of bf16 weights fit no g6, and inf2 is not a GPU
        CHECK_FALSE(c.dropped_because.empty());
    }
    CHECK(r.frontier.empty());
}

TEST_CASE("recommender skips weight formats the accelerator lacks", "[recommend]") {
    const ModelSpec& m = *find_model(builtin_models(), "llama-3-8b");
    InferenceRecommendRequest q = default_inference_request(m);
    q.weight_bytes = 1;  // fp8
    q.families = {"p3", "p4d", "p5"};
    const Recommendation r = recommend_inference(catalog(), q);
    for (const auto& c : r.candidates) {
        INFO(c.instance << ": " << c.dropped_because);
        if (c.instance.rfind("p3", 0) == 0 || c.instance.rfind("p4d", 0) == 0) {
            CHECK_FALSE(c.kept);  // V100 and A100 have no FP8 (catalog: n/a)
            CHECK(c.dropped_because.find("no FP8") != std::string::npos);
        }
    }
}

TEST_CASE("training recommendation: properties over a sweep", "[recommend][property]") {
    for (const char* name : {"llama-3.2-1b", "llama-3-8b", "llama-3.1-70b"}) {
        TrainingRecommendRequest q;
        q.model = find_model(builtin_models(), name);
        q.token_budget = 1e10;
        q.purchase = {PriceKind::on_demand, PriceKind::spot_typical};
        q.max_nodes = 8;
        const TrainingRecommendation r = recommend_training(catalog(), q);
        INFO(name);
        REQUIRE_FALSE(r.frontier.empty());
        CHECK(r.picks.size() == 3);
        for (std::size_t i : r.frontier)
            for (const auto& o : r.candidates) {
                if (!o.kept) continue;
                const auto& f = r.candidates[i];
                CHECK_FALSE((o.cost_usd <= f.cost_usd && o.hours <= f.hours && (o.cost_usd < f.cost_usd || o.hours < f.hours)));
            }
        for (const auto& c : r.candidates) {
            if (!c.kept) continue;
            // Re-check the fit from the layout text with the memory model directly.
            double nodes = 0, dp = 0, tp = 0;
            int zero = -1;
            REQUIRE(std::sscanf(c.layout.c_str(), "%lf node(s): dp %lf, tp %lf, ZeRO %d", &nodes, &dp, &tp, &zero) == 4);
            TrainingMemoryRequest m;
            m.model = q.model;
            m.data_parallel = dp;
            m.tensor_parallel = tp;
            m.zero_stage = zero;
            m.micro_batch = q.micro_batch;
            m.sequence = q.sequence;
            m.recompute = q.recompute;
            const Instance& inst = *catalog().find_instance(c.instance);
            CHECK(*training_memory(m).total_per_gpu_gb.value * 1e9 <= *inst.accelerator_memory_gib_each * kBytesPerGiB);
            CHECK(c.hours > 0);
            CHECK(c.cost_usd > 0);
        }
    }
}

TEST_CASE("workload scenarios evaluate with explanations", "[recommend][scenario]") {
    const Catalog& c = catalog();
    for (const char* file : {"t1-train-llama-3-8b.json", "r1-serve-llama-70b.json", "r2-train-recommend-llama-3-8b.json"}) {
        INFO(file);
        const CatalogDocument* doc = nullptr;
        for (const auto& d : builtin_scenario_documents())
            if (d.origin == std::string("assets/scenarios/") + file) doc = &d;
        REQUIRE(doc);
        const auto result = evaluate_scenario(parse_scenario(doc->text, doc->origin, c), c);
        if (result.contains("train")) {
            const auto& f = result.at("train").at("figures");
            // hours = tokens / tokens_per_second / 3600; cost = hours x 4 nodes x $55.04
            const double hours = 1e11 / f.at("tokens_per_second").at("value").get<double>() / 3600;
            CHECK(f.at("total_hours").at("value").get<double>() == Approx(hours));
            CHECK(f.at("cost_usd").at("value").get<double>() == Approx(hours * 4 * 55.04));
            CHECK_FALSE(f.at("compute_seconds").at("explain").at("formula").get<std::string>().empty());
        }
        if (result.contains("recommend")) CHECK(result.at("recommend").at("picks").contains("cheapest"));
        if (result.contains("recommend_training")) {
            const auto& r = result.at("recommend_training");
            REQUIRE_FALSE(r.at("frontier").empty());
            for (const auto& f : r.at("frontier")) CHECK(f.at("hours").get<double>() <= 168);
        }
    }
}

TEST_CASE("a ranking across regions is each region's own recommendation", "[recommend][regions]") {
    // recommend_inference_in_regions estimates each instance type's layouts once and prices them
    // per region; it must give, region by region, what recommend_inference gives there.
    InferenceRecommendRequest q = default_inference_request(*find_model(builtin_models(), "llama-3.1-70b"));
    q.context = 8192;
    q.tokens_per_second = 2000;
    q.purchase = {kOnDemand, kSpot};
    const std::vector<std::string>& regions = catalog().regions();
    REQUIRE(regions.size() > 10);
    const std::vector<Recommendation> all = recommend_inference_in_regions(catalog(), q, regions);
    REQUIRE(all.size() == regions.size());
    std::size_t picks_seen = 0;
    for (std::size_t k = 0; k < regions.size(); ++k) {
        INFO(regions[k]);
        q.region = regions[k];
        const Recommendation one = recommend_inference(catalog(), q);
        const Recommendation& shared = all[k];
        REQUIRE(shared.candidates.size() == one.candidates.size());
        for (std::size_t i = 0; i < one.candidates.size(); ++i) {
            const Candidate &a = shared.candidates[i], &b = one.candidates[i];
            CHECK(a.instance + " " + a.layout + " " + a.dropped_because == b.instance + " " + b.layout + " " + b.dropped_because);
            CHECK(a.purchase == b.purchase);
            CHECK(a.usd_per_hour == b.usd_per_hour);
            CHECK(a.seconds_per_token == b.seconds_per_token);
            CHECK(a.kept == b.kept);
        }
        CHECK(shared.frontier == one.frontier);
        CHECK(shared.picks == one.picks);
        CHECK(shared.pick_reasons == one.pick_reasons);
        // A ranking reads values: the picks' working is the one region's recommendation's.
        CHECK(shared.pick_details.empty());
        REQUIRE(one.pick_details.size() == one.picks.size());
        for (const PickDetail& detail : one.pick_details) {
            if (!detail.figures) continue;
            ++picks_seen;
            CHECK_FALSE(detail.figures->usd_per_million_tokens.worked.empty());
        }
    }
    CHECK(picks_seen > regions.size());  // most regions price some layout
    CHECK_THROWS_WITH(recommend_inference_in_regions(catalog(), q, {"us-east-1", "mars-north-1"}),
                      Catch::Contains("regions[1]") && Catch::Contains("mars-north-1"));
}

TEST_CASE("a training ranking across regions is each region's own recommendation", "[recommend][regions]") {
    TrainingRecommendRequest q;
    q.model = find_model(builtin_models(), "llama-3-8b");
    q.token_budget = 2e10;
    q.max_nodes = 4;
    q.purchase = {PriceKind::on_demand, PriceKind::spot_typical};
    const std::vector<std::string> regions = {"us-east-1", "eu-west-2", "ap-northeast-1", "us-west-2"};
    const std::vector<TrainingRecommendation> all = recommend_training_in_regions(catalog(), q, regions);
    REQUIRE(all.size() == regions.size());
    for (std::size_t k = 0; k < regions.size(); ++k) {
        INFO(regions[k]);
        q.region = regions[k];
        const TrainingRecommendation one = recommend_training(catalog(), q);
        const TrainingRecommendation& shared = all[k];
        REQUIRE(shared.candidates.size() == one.candidates.size());
        CHECK(shared.evaluated == one.evaluated);
        for (std::size_t i = 0; i < one.candidates.size(); ++i) {
            const TrainingCandidate &a = shared.candidates[i], &b = one.candidates[i];
            CHECK(a.instance + " " + a.layout + " " + a.dropped_because + " " + a.bottleneck == b.instance + " " + b.layout + " " + b.dropped_because + " " + b.bottleneck);
            CHECK(a.purchase == b.purchase);
            CHECK(a.cost_usd == b.cost_usd);
            CHECK(a.hours == b.hours);
            CHECK(a.kept == b.kept);
        }
        CHECK(shared.picks == one.picks);
        CHECK(shared.pick_times.empty());  // a ranking reads values; the working is the region's own
        CHECK(shared.pick_quotas.empty());
        REQUIRE(one.pick_times.size() == one.picks.size());
    }
    CHECK(all[0].candidates.size() > 100);
    CHECK_THROWS_WITH(recommend_training_in_regions(catalog(), q, {"nowhere-1"}), Catch::Contains("regions[0]"));
}

TEST_CASE("regions ranked by their cheapest option, with the saving against home", "[recommend][regions]") {
    InferenceRecommendRequest q = default_inference_request(*find_model(builtin_models(), "llama-3.1-70b"));
    q.tokens_per_second = 2000;
    q.purchase = {kOnDemand, kSpot};
    const std::vector<std::string> regions = {"us-east-1", "eu-west-2", "ap-south-1", "ca-central-1", "us-west-2"};
    const RegionRanking ranking = rank_regions(recommend_inference_in_regions(catalog(), q, regions), regions, "eu-west-2");
    REQUIRE(ranking.ranks.size() == regions.size());
    CHECK(ranking.home == "eu-west-2");
    // Each region's cost, from its own recommendation's cheapest kept candidate (searched here
    // over every candidate, not taken from the picks).
    std::map<std::string, double> cheapest;
    for (const std::string& region : regions) {
        q.region = region;
        const Recommendation r = recommend_inference(catalog(), q);
        for (const Candidate& c : r.candidates)
            if (c.kept && (!cheapest.count(region) || c.usd_per_million_tokens < cheapest[region])) cheapest[region] = c.usd_per_million_tokens;
    }
    REQUIRE(cheapest.count("eu-west-2"));
    double previous = 0;
    for (const RegionRank& row : ranking.ranks) {
        INFO(row.region);
        REQUIRE(row.cost.value);
        CHECK(*row.cost.value == Approx(cheapest.at(row.region)).epsilon(1e-12));
        CHECK(*row.cost.value >= previous);  // cheapest first
        previous = *row.cost.value;
        CHECK(*row.saving_vs_home.value == Approx(1 - cheapest.at(row.region) / cheapest.at("eu-west-2")).epsilon(1e-12));
        CHECK(row.cost.worked.find(row.instance + " (" + row.purchase + ")") == 0);
    }
    const auto home = std::find_if(ranking.ranks.begin(), ranking.ranks.end(), [](const RegionRank& r) { return r.region == "eu-west-2"; });
    CHECK(*home->saving_vs_home.value == 0);
    CHECK_THROWS_WITH(rank_regions(recommend_inference_in_regions(catalog(), q, regions), regions, "eu-north-1"), Catch::Contains("home region"));
}

TEST_CASE("a region that keeps nothing ranks last, with its costs unknown", "[recommend][regions]") {
    // 4 instances at most of one family only offered in some regions: a region without the family keeps nothing.
    InferenceRecommendRequest q = default_inference_request(*find_model(builtin_models(), "llama-3-8b"));
    q.families = {"p5"};
    const std::vector<std::string> regions = catalog().regions();
    const std::vector<Recommendation> all = recommend_inference_in_regions(catalog(), q, regions);
    const RegionRanking ranking = rank_regions(all, regions, "us-east-1");
    bool seen_empty = false;
    std::size_t empty = 0;
    for (const RegionRank& row : ranking.ranks) {
        if (!row.cheapest) {
            seen_empty = true;
            ++empty;
            CHECK_FALSE(row.cost.value);
            CHECK_FALSE(row.saving_vs_home.value);
            CHECK(row.saving_vs_home.unknown_reason.find(row.region) != std::string::npos);
        } else {
            CHECK_FALSE(seen_empty);  // every region with a cost comes before the first without
        }
    }
    std::size_t expected_empty = 0;
    for (const Recommendation& r : all) expected_empty += r.picks.empty() ? 1 : 0;
    CHECK(empty == expected_empty);
    CHECK(empty > 0);
    CHECK(empty < regions.size());
}

TEST_CASE("an instance type's cheapest way to buy, ranked across regions", "[recommend][regions][pricing]") {
    QuoteRequest q;
    q.instance = "p5.48xlarge";
    q.hours = 8760;
    const std::vector<std::string>& regions = catalog().regions();
    const RegionRanking ranking = rank_regions_for_price(catalog(), q, regions, "us-east-1");
    REQUIRE(ranking.ranks.size() == regions.size());
    const Instance& p5 = *catalog().find_instance("p5.48xlarge");
    std::map<std::string, double> cheapest;  // each offered region's least cost over every available option, found here
    for (const std::string& region : regions) {
        if (!p5.offered_in(region)) continue;
        q.region = region;
        for (const Quote& quote : quote_purchase_options(catalog(), q))
            if (quote.available && quote.cost_usd.value && (!cheapest.count(region) || *quote.cost_usd.value < cheapest[region]))
                cheapest[region] = *quote.cost_usd.value;
    }
    REQUIRE(cheapest.size() > 5);
    REQUIRE(cheapest.size() < regions.size());
    std::size_t priced = 0;
    for (const RegionRank& row : ranking.ranks) {
        INFO(row.region);
        if (!cheapest.count(row.region)) {
            CHECK_FALSE(row.cost.value);
            CHECK(row.cost.unknown_reason == "p5.48xlarge is not offered in " + row.region);
            continue;
        }
        CHECK(priced++ == static_cast<std::size_t>(&row - ranking.ranks.data()));  // every priced region before the first unpriced
        CHECK(*row.cost.value == cheapest.at(row.region));
        CHECK(*row.saving_vs_home.value == Approx(1 - cheapest.at(row.region) / cheapest.at("us-east-1")).epsilon(1e-12));
        REQUIRE(row.cost.inputs.size() == 1);  // the quote's own cost figure, cited
        CHECK(row.cost.inputs[0].value == *row.cost.value);
    }
    CHECK(priced == cheapest.size());
    CHECK_THROWS_WITH(rank_regions_for_price(catalog(), q, {"us-east-1", "nowhere-2"}, "us-east-1"), Catch::Contains("regions[1]"));
}

TEST_CASE("a scenario's recommend serves a request rate to latency targets, as recommend --rate", "[recommend][scenario][traffic]") {
    const Catalog& c = catalog();
    const auto parse = [&c](const nlohmann::json& recommend) {
        return parse_scenario(nlohmann::json{{"schema", "gpuplan.scenario/1"}, {"recommend", recommend}}.dump(), "s.json", c);
    };
    const nlohmann::json asked = {{"model", "llama-3.1-8b"}, {"families", nlohmann::json::array({"g6e"})}, {"requests_per_second", 10},
                                  {"prompt_tokens", "uniform:500:1500"}, {"output_tokens", 300}, {"targets", nlohmann::json::array({"p99-e2e-ms=20000"})},
                                  {"target_p95_ttft_ms", 1000}};
    const Scenario s = parse(asked);
    REQUIRE(s.recommend);
    REQUIRE(s.recommend->traffic);
    const TrafficRequest& t = *s.recommend->traffic;
    CHECK(t.requests_per_second == 10);
    CHECK(t.prompt.text() == "uniform:500:1500");
    CHECK(t.output.text() == "300");
    CHECK(t.requests == kSweepTrafficRequests);
    REQUIRE(t.targets.size() == 2);  // the list first, then target_p95_ttft_ms, as --target then --target-p95-ttft-ms
    CHECK(t.targets[0].text() == "p99-e2e-ms=20000");
    CHECK(t.targets[1].text() == "p95-ttft-ms=1000");
    CHECK(s.recommend->context == 1500 + 300);  // the longest prompt + output when no context is given

    const Recommendation r = recommend_inference(c, *s.recommend);
    REQUIRE(r.traffic);
    REQUIRE_FALSE(r.frontier.empty());
    for (std::size_t i : r.frontier) {
        const Candidate& k = r.candidates[i];
        CAPTURE(k.instance, k.layout);
        REQUIRE(k.achieved_seconds.size() == 2);
        CHECK(k.achieved_seconds[0] <= 20.0);
        CHECK(k.achieved_seconds[1] <= 1.0);
        CHECK(k.instances == std::ceil(k.fleet_replicas / k.replicas));  // replicas per instance x instances hold the fleet
    }
    const nlohmann::json doc = to_json(r);
    CHECK(doc.at("targets") == nlohmann::json::array({"p99-e2e-ms=20000", "p95-ttft-ms=1000"}));

    // Refused by JSON path, in words.
    nlohmann::json both = asked;
    both["tokens_per_second"] = 1000;
    CHECK_THROWS_WITH(parse(both), Catch::Contains("$.recommend.tokens_per_second") && Catch::Contains("no tokens_per_second with requests_per_second"));
    nlohmann::json short_context = asked;
    short_context["context"] = 1024;
    CHECK_THROWS_WITH(parse(short_context), Catch::Contains("$.recommend.context") && Catch::Contains("at least the longest prompt + output (1,800 tokens)"));
    CHECK_THROWS_WITH(parse({{"model", "llama-3.1-8b"}, {"prompt_tokens", 500}}),
                      Catch::Contains("$.recommend.prompt_tokens") && Catch::Contains("only with requests_per_second"));
    nlohmann::json bad_length = asked;
    bad_length["prompt_tokens"] = "uniform:900:100";
    CHECK_THROWS_WITH(parse(bad_length), Catch::Contains("$.recommend.prompt_tokens"));
    nlohmann::json bad_target = asked;
    bad_target["targets"] = nlohmann::json::array({"p95-ttft=1000"});
    CHECK_THROWS_WITH(parse(bad_target), Catch::Contains("$.recommend.targets[0]"));
}

// Issue 30: "Serve 70B at 2,000 tok/s: per month, per 1M tokens, reserved vs spot" needs the
// serving sweep to buy any way there is. The rates below are the catalog's own listings
// (assets/catalog/purchase-options.json: CB-PRICING as of 2026-07-22, RI-VANTAGE as of
// 2026-01-21), not the code's; an unlisted commitment is the documented discount off on-demand.
TEST_CASE("a serving sweep prices Capacity Blocks and commitments at their listed or assumed rates", "[recommend][purchase]") {
    InferenceRecommendRequest q = default_inference_request(*find_model(builtin_models(), "llama-3.1-70b"));
    q.tokens_per_second = 2000;
    q.families = {"p4d", "p5", "g6e"};
    q.purchase = {*purchase_option_named("reserved-1y"), *purchase_option_named("capacity-block"), *purchase_option_named("reserved-3y")};
    const Recommendation r = recommend_inference(catalog(), q);
    const double reserved_3y_discount = default_pricing_assumptions().reserved_discount[1].value;
    std::set<std::string> seen;
    for (const Candidate& c : r.candidates) {
        if (c.layout.empty()) continue;  // dropped before any layout (does not fit)
        const std::string option = key(c.purchase);
        INFO(c.instance << " " << option << " " << c.layout << " " << c.dropped_because);
        const bool listed_reserved = c.instance == "p4d.24xlarge" && option == "reserved-1y";
        const bool listed_block = c.instance == "p5.48xlarge" && option == "capacity-block";
        if (listed_reserved || listed_block) {
            CHECK(c.usd_per_hour == Approx(c.instances * (listed_reserved ? 13.921094 : 41.528)).epsilon(1e-12));
            CHECK_FALSE(c.price_assumed);
            seen.insert(listed_reserved ? "listed reserved" : "listed block");
        } else if (c.instance.rfind("g6e.", 0) == 0 && option == "reserved-3y") {
            const Price* od = catalog().find_instance(c.instance)->find_price("us-east-1", PriceKind::on_demand);
            REQUIRE(od);
            CHECK(c.usd_per_hour == Approx(c.instances * *od->usd_per_hour * (1 - reserved_3y_discount)).epsilon(1e-12));
            CHECK(c.price_assumed);
            seen.insert("assumed reserved");
        } else if (c.instance == "p5.48xlarge" && option != "capacity-block") {
            // The RI dataset lists p5.48xlarge with no Standard Reserved Instance rate anywhere.
            CHECK_FALSE(c.kept);
            CHECK(c.dropped_because.rfind("not offered: ", 0) == 0);
            CHECK(c.dropped_because.find("RI-VANTAGE") != std::string::npos);
            seen.insert("reserved not offered");
        } else if (c.instance.rfind("g6e.", 0) == 0 && option == "capacity-block") {
            CHECK_FALSE(c.kept);
            CHECK(c.dropped_because.find("CB-PRICING") != std::string::npos);
            seen.insert("block not offered");
        }
        if (c.usd_per_hour > 0) CHECK(c.usd_per_month == Approx(c.usd_per_hour * 730).epsilon(1e-12));
    }
    CHECK(seen == std::set<std::string>{"listed reserved", "listed block", "assumed reserved", "reserved not offered", "block not offered"});
    // Each pick says what it costs a month, from the same fleet rate as its cost per 1M tokens.
    REQUIRE_FALSE(r.picks.empty());
    for (std::size_t k = 0; k < r.picks.size(); ++k) {
        const Candidate& pick = r.candidates[r.picks[k]];
        REQUIRE(r.pick_details[k].figures);
        const Figure& month = r.pick_details[k].figures->usd_per_month;
        CHECK(month.value.value() == Approx(pick.usd_per_hour * 730).epsilon(1e-12));
        CHECK(month.rests_on_assumption() == pick.price_assumed);
        CHECK(r.pick_details[k].figures->usd_per_million_tokens.inputs.front().source.find(pick.price_assumed ? "assumed" : "listed") !=
              std::string::npos);
    }
}
