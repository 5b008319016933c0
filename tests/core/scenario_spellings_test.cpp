// Old spellings in scenarios written before a rename (links in the wild, saved files) still
// open, read as today's words, with a note saying what each became (scenario_spellings.hpp).
#include <catch2/catch.hpp>

#include <string>

#include "fixtures.hpp"
#include "gpuplan/scenario/scenario.hpp"
#include "gpuplan/scenario/scenario_result.hpp"
#include "gpuplan/scenario/scenario_spellings.hpp"

using namespace gpuplan;
using gpuplan::test::catalog;

namespace {

// A training plan and a serving recommendation, the two places "purchase" is a price kind.
std::string scenario_with(const std::string& train_purchase, const std::string& recommend_purchase) {
    return R"({"schema": "gpuplan.scenario/1",
               "train": {"model": "llama-3-8b", "instance": "p5.48xlarge", "nodes": 2, "tokens": 1e10, "purchase": )" +
           train_purchase + R"(},
               "recommend": {"model": "llama-3-8b", "tokens_per_second": 500, "purchase": )" +
           recommend_purchase + R"(}})";
}

}  // namespace

TEST_CASE("old purchase spellings read as today's, each with a note", "[scenario][spellings]") {
    const std::string old_text = scenario_with(R"("spot_typical")", R"(["on_demand", "spot_typical"])");
    const std::string new_text = scenario_with(R"("spot")", R"(["on-demand", "spot"])");
    const Scenario old_scenario = parse_scenario(old_text, "old.json", catalog());
    const Scenario new_scenario = parse_scenario(new_text, "new.json", catalog());

    REQUIRE(old_scenario.train);
    CHECK(old_scenario.train->purchase == PriceKind::spot_typical);
    REQUIRE(old_scenario.recommend);
    CHECK(old_scenario.recommend->purchase ==
          std::vector<PurchaseOption>{PurchaseOption{PurchaseKind::on_demand}, PurchaseOption{PurchaseKind::spot}});
    CHECK(old_scenario.notes == std::vector<std::string>{
                                    R"(old.json: $.recommend.purchase[0]: "on_demand" is now written "on-demand")",
                                    R"(old.json: $.recommend.purchase[1]: "spot_typical" is now written "spot")",
                                    R"(old.json: $.train.purchase: "spot_typical" is now written "spot")"});
    CHECK(new_scenario.notes.empty());

    // The same plan either way: only the notes differ.
    nlohmann::json old_result = to_json(evaluate(old_scenario, catalog()));
    const nlohmann::json new_result = to_json(evaluate(new_scenario, catalog()));
    CHECK(old_result.at("notes").size() == 3);
    old_result.erase("notes");
    CHECK(old_result == new_result);
    CHECK(new_result.at("train").at("purchase") == "spot");
}

TEST_CASE("upgrade_spellings rewrites the document and leaves what is not a spelling", "[scenario][spellings]") {
    nlohmann::json doc = nlohmann::json::parse(R"({"price": {"instance": "p5.48xlarge", "purchase": "on_demand"},
                                                   "fleet": {"tiers": [{"option": "on_demand"}]},
                                                   "idle": {"purchase": 3}})");
    const std::vector<SpellingChange> changes = upgrade_spellings(doc);
    REQUIRE(changes.size() == 1);
    CHECK(changes[0].path == "$.price.purchase");
    CHECK(changes[0].old_text == "on_demand");
    CHECK(changes[0].new_text == "on-demand");
    CHECK(doc["price"]["purchase"] == "on-demand");
    // Only "purchase" was ever spelled the catalog's way in a scenario: a fleet tier's option
    // was always a purchase-option key, so "on_demand" there stays an error for the reader.
    CHECK(doc["fleet"]["tiers"][0]["option"] == "on_demand");
    CHECK(doc["idle"]["purchase"] == 3);
    CHECK(upgrade_spellings(doc).empty());  // today's words are left alone
}

TEST_CASE("old parallel-size keys read as the *_parallel keys, with a note each", "[scenario][spellings]") {
    const auto train = [](const std::string& sizes) {
        return R"({"schema": "gpuplan.scenario/1", "train": {"model": "mixtral-8x7b", "instance": "p5.48xlarge", "nodes": 4, "tokens": 1e10, )" +
               sizes + "}}";
    };
    const Scenario old_scenario = parse_scenario(train(R"("data": 8, "tensor": 2, "pipeline": 2, "expert": 2)"), "old.json", catalog());
    const Scenario new_scenario =
        parse_scenario(train(R"("data_parallel": 8, "tensor_parallel": 2, "pipeline_parallel": 2, "expert_parallel": 2)"), "new.json", catalog());
    REQUIRE(old_scenario.train);
    const ParallelLayout& L = old_scenario.train->time.layout;
    CHECK((L.data == 8 && L.tensor == 2 && L.pipeline == 2 && L.expert == 2));
    CHECK(old_scenario.notes == std::vector<std::string>{R"(old.json: $.train: "data" is now written "data_parallel")",
                                                         R"(old.json: $.train: "tensor" is now written "tensor_parallel")",
                                                         R"(old.json: $.train: "pipeline" is now written "pipeline_parallel")",
                                                         R"(old.json: $.train: "expert" is now written "expert_parallel")"});
    CHECK(new_scenario.notes.empty());
    nlohmann::json old_result = to_json(evaluate(old_scenario, catalog()));
    old_result.erase("notes");
    CHECK(old_result == to_json(evaluate(new_scenario, catalog())));

    // An old key beside its new one is not guessed at: the reader refuses the unknown key.
    CHECK_THROWS_WITH(parse_scenario(train(R"("tensor": 2, "tensor_parallel": 4)"), "both.json", catalog()),
                      Catch::Contains("$.train.tensor: got an unknown key"));
}

TEST_CASE("a catalog file's price option is read in either spelling", "[catalog][spellings]") {
    for (const std::string option : {"on_demand", "on-demand"}) {
        std::vector<CatalogDocument> docs = builtin_catalog_documents();
        docs.push_back({"overlay.json", R"({"schema": "gpuplan.catalog/1", "sources": {"MINE": {"title": "my quote", "url": null}},
            "prices": [{"instance": "p5.48xlarge", "region": "us-east-1", "option": ")" +
                                            option + R"(", "usd_per_hour": 40, "as_of": "2026-11-01", "source": "MINE"}]})"});
        const Catalog c = load_catalog(docs);
        const Price* p = c.find_instance("p5.48xlarge")->find_price("us-east-1", PriceKind::on_demand);
        REQUIRE(p);
        CHECK(p->usd_per_hour == 40);
    }
}
