// Bad input: each kind is refused with an InputError that names the place, the value and
// what was expected. Documents are built from a valid record with one thing broken.
#include <catch2/catch.hpp>

#include <string>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/json_reader.hpp"
#include "gpuplan/scenario/scenario_result.hpp"

using namespace gpuplan;

namespace {

const char* kValidInstance = R"({"name": "x1.big", "family": "x1", "accelerator": "L4", "accelerator_count": 1,
  "accelerator_memory_gib_each": 22.35, "vcpus": 8, "memory_gib": 32, "network_gbit_per_s": 10, "efa_interfaces": 0,
  "gpudirect_rdma": false, "interconnect": "none", "peer_gbit_per_s_per_accelerator": null, "local_nvme_gb": 0,
  "ebs_gbit_per_s": 5, "prices": [{"region": "us-east-1", "option": "on_demand", "usd_per_hour": 1.0, "as_of": "2026-07-20",
  "source": "KARP-PRICE"}], "source_notes": "test", "unknown": {"peer_gbit_per_s_per_accelerator": "n/a: single accelerator"}})";

std::string user_doc(const std::string& instance_json) {
    return R"({"schema": "gpuplan.catalog/1", "instances": [)" + instance_json + "]}";
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
    const auto pos = s.find(from);
    REQUIRE(pos != std::string::npos);
    return s.replace(pos, from.size(), to);
}

// The message of the InputError that loading the built-in catalog plus `text` throws.
std::string catalog_error(const std::string& text) {
    std::vector<CatalogDocument> docs = builtin_catalog_documents();
    docs.push_back({"user.json", text});
    try {
        (void)load_catalog(docs);
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

std::string scenario_error(const std::string& text) {
    static const Catalog catalog = load_builtin_catalog();
    try {
        (void)evaluate_scenario(parse_scenario(text, "s.json", catalog), catalog);
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("the valid test record loads", "[bad-input]") {
    CHECK(catalog_error(user_doc(kValidInstance)) == "(no error)");
}

TEST_CASE("catalog: each kind of bad input is named", "[bad-input][catalog]") {
    using Catch::Matchers::Contains;
    const std::string v = kValidInstance;
    CHECK_THAT(catalog_error(""), Contains("user.json") && Contains("empty"));
    CHECK_THAT(catalog_error("{\"schema\": "), Contains("user.json") && Contains("parse error"));
    CHECK_THAT(catalog_error("{\"schema\": \"gpuplan.catalog/1\", \"instances\": [NaN]}"), Contains("user.json"));
    CHECK_THAT(catalog_error("[1, 2]"), Contains("$") && Contains("a JSON object"));
    CHECK_THAT(catalog_error(R"({"schema": "gpuplan.catalog/9"})"), Contains("$.schema") && Contains("gpuplan.catalog/1"));
    CHECK_THAT(catalog_error(user_doc(replace(v, "\"vcpus\": 8", "\"vcpus\": 8, \"vcpu\": 8"))),
               Contains("$.instances[0].vcpu") && Contains("unknown key"));
    CHECK_THAT(catalog_error(user_doc(replace(v, "\"vcpus\": 8", "\"vcpus\": \"8\""))),
               Contains("$.instances[0].vcpus") && Contains("\"8\"") && Contains("a number"));
    CHECK_THAT(catalog_error(user_doc(replace(v, "\"vcpus\": 8", "\"vcpus\": -8"))),
               Contains("$.instances[0].vcpus: got -8; expected a number > 0"));
    CHECK_THAT(catalog_error(user_doc(replace(v, "\"memory_gib\": 32", "\"memory_gib\": 0"))),
               Contains("$.instances[0].memory_gib: got 0"));
    CHECK_THAT(catalog_error(user_doc(replace(v, "\"efa_interfaces\": 0", "\"efa_interfaces\": 1.5"))),
               Contains("efa_interfaces") && Contains("whole number"));
    CHECK_THAT(catalog_error(user_doc(v + "," + v)), Contains("$.instances[1].name") && Contains("\"x1.big\""));
    CHECK_THAT(catalog_error(user_doc(replace(v, "\"vcpus\": 8", "\"vcpus\": null"))),
               Contains("$.instances[0].vcpus") && Contains("reason"));
    CHECK_THAT(catalog_error(user_doc(replace(v, "\"n/a: single accelerator\"", "\"n/a: single\", \"vcpus\": \"why\""))),
               Contains("unknown.vcpus") && Contains("not null"));
    CHECK_THAT(catalog_error(user_doc(replace(v, "\"accelerator\": \"L4\"", "\"accelerator\": \"L5\""))),
               Contains("x1.big") && Contains("\"L5\"") && Contains("accelerator in the catalog"));
    // Inconsistent totals: an L4 has 22.35 GiB, not 40.
    CHECK_THAT(catalog_error(user_doc(replace(v, "\"accelerator_memory_gib_each\": 22.35", "\"accelerator_memory_gib_each\": 40"))),
               Contains("accelerator_memory_gib_each") && Contains("got 40") && Contains("22.35"));
    CHECK_THAT(catalog_error(user_doc(replace(v, "\"accelerator_count\": 1", "\"accelerator_count\": 4"))),
               Contains("$.instances[0].interconnect") && Contains("a link between"));
    CHECK_THAT(catalog_error(user_doc(replace(v, "\"family\": \"x1\"", "\"family\": \"x2\""))), Contains("$.instances[0].family"));
    // A name with a newline or a space at an end was a second type beside the first (issue 34).
    CHECK_THAT(catalog_error(user_doc(replace(v, "\"name\": \"x1.big\"", "\"name\": \"x1.big\\n\""))),
               Contains("$.instances[0].name: got \"x1.big\\n\"") && Contains("no space at either end and no control character"));
    CHECK_THAT(catalog_error(user_doc(replace(v, "\"name\": \"x1.big\"", "\"name\": \" x1.big\""))), Contains("$.instances[0].name"));
    CHECK_THAT(catalog_error(R"({"schema": "gpuplan.catalog/1", "prices": [{"instance": "p5.48xlarge\t", "region": "us-east-1",
        "option": "on_demand", "usd_per_hour": 1, "as_of": "2026-07-20", "source": "KARP-PRICE"}]})"),
               Contains("$.prices[0].instance: got \"p5.48xlarge\\t\""));
    CHECK_THAT(catalog_error(user_doc(replace(v, "\"region\": \"us-east-1\"", "\"region\": \"US East\""))),
               Contains("prices[0].region") && Contains("us-east-1"));
    CHECK_THAT(catalog_error(user_doc(replace(v, "\"as_of\": \"2026-07-20\"", "\"as_of\": \"July\""))), Contains("prices[0].as_of"));
    CHECK_THAT(catalog_error(user_doc(replace(v, "\"source\": \"KARP-PRICE\"", "\"source\": \"MY-GUESS\""))),
               Contains("MY-GUESS") && Contains("sources"));
    CHECK_THAT(catalog_error(user_doc(replace(v, "\"interconnect\": \"none\"", "\"interconnect\": \"infiniband\""))),
               Contains("interconnect") && Contains("infiniband"));
    // Spot zones: only on a spot price, whole counts, and around the typical price.
    const std::string spot = R"(, {"region": "us-east-1", "option": "spot_typical", "usd_per_hour": 0.4, "as_of": "2026-07",
        "source": "SKY", "zones": {"count": 3, "min_usd_per_hour": 0.35, "max_usd_per_hour": 0.45}}])";
    CHECK(catalog_error(user_doc(replace(v, "}], \"source_notes\"", "}" + spot + ", \"source_notes\""))) == "(no error)");
    CHECK_THAT(catalog_error(user_doc(replace(v, "}], \"source_notes\"", "}" + replace(spot, "0.35", "0.41") + ", \"source_notes\""))),
               Contains("prices[1].zones") && Contains("min_usd_per_hour <= the typical price (0.4) <= max_usd_per_hour"));
    CHECK_THAT(catalog_error(user_doc(replace(v, "}], \"source_notes\"", "}" + replace(spot, "\"count\": 3", "\"count\": 2.5") + ", \"source_notes\""))),
               Contains("prices[1].zones.count") && Contains("whole number"));
    CHECK_THAT(catalog_error(user_doc(replace(v, "\"source\": \"KARP-PRICE\"}", "\"source\": \"KARP-PRICE\", \"zones\": {}}"))),
               Contains("prices[0].zones") && Contains("only on a spot price"));
}

TEST_CASE("catalog: a 50 MB document is refused before parsing", "[bad-input][catalog]") {
    std::string huge = "{\"schema\": \"gpuplan.catalog/1\", \"x\": \"" + std::string(50u * 1000u * 1000u, 'a') + "\"}";
    using Catch::Matchers::Contains;
    CHECK_THAT(catalog_error(huge), Contains("user.json") && Contains("50000") && Contains("16 MiB"));
}

TEST_CASE("scenario: each kind of bad input is named", "[bad-input][scenario]") {
    using Catch::Matchers::Contains;
    const std::string head = R"({"schema": "gpuplan.scenario/1", )";
    CHECK_THAT(scenario_error("   "), Contains("s.json") && Contains("empty"));
    CHECK_THAT(scenario_error(head + R"("price": {"instance": "p9.huge"}})"), Contains("$.price.instance") && Contains("p9.huge"));
    CHECK_THAT(scenario_error(head + R"("region": "mars-1", "price": {"instance": "p5.48xlarge"}})"),
               Contains("$.region") && Contains("mars-1") && Contains("us-east-1"));
    CHECK_THAT(scenario_error(head + R"("price": {"instance": "p5.48xlarge", "hours": -5}})"),
               Contains("$.price.hours: got -5; expected a number > 0"));
    CHECK_THAT(scenario_error(head + R"("assumptions": {"reserved_discount": {"1y": 1.5}}})"),
               Contains("$.assumptions.reserved_discount.1y: got 1.5") && Contains("discount"));
    CHECK_THAT(scenario_error(head + R"("price": {"instance": "p5.48xlarge", "hour": 5}})"),
               Contains("$.price.hour") && Contains("unknown key") && Contains("hours"));
    CHECK_THAT(scenario_error(head + R"("price": {"instance": "p5.48xlarge", "hours": NaN}})"), Contains("s.json"));
    CHECK_THAT(scenario_error(head + R"("fleet": {"on_demand_usd_per_gpu_hour": 1.6, "tiers": []}})"),
               Contains("fleet.tiers") && Contains("at least one"));
    CHECK_THAT(scenario_error(head + R"("idle": {"usd_per_hour": 1, "active_hours_per_day": 30}})"),
               Contains("active_hours_per_day") && Contains("24"));
    CHECK_THAT(scenario_error(head + R"("idle": {"usd_per_hour": 1, "instance": "g6.2xlarge"}})"),
               Contains("$.idle") && Contains("exactly one"));
}

TEST_CASE("scenario: a price given as a number takes no purchase option", "[bad-input][scenario]") {
    using Catch::Matchers::Contains;
    CHECK_THAT(scenario_error(R"({"schema": "gpuplan.scenario/1", "idle": {"usd_per_hour": 1, "purchase": "spot_typical"}})"),
               Contains("$.idle.purchase") && Contains("unknown key"));
    CHECK_THAT(scenario_error(R"({"schema": "gpuplan.scenario/1", "fleet": {"on_demand_usd_per_gpu_hour": 1.6, "tiers": [],
               "profile": {"baseline_gpus": 1, "average_gpus": 1, "peak_gpus": 1, "commit_usd_per_gpu_hour": 1}}})"),
               Contains("$.fleet.tiers") && Contains("profile"));
}

TEST_CASE("scenario: workload sections name their bad fields", "[bad-input][scenario][workload]") {
    using Catch::Matchers::Contains;
    const std::string head = R"({"schema": "gpuplan.scenario/1", )";
    CHECK_THAT(scenario_error(head + R"("train": {"model": "gpt-5", "instance": "p5.48xlarge"}})"),
               Contains("$.train.model") && Contains("gpt-5") && Contains("llama-3-8b"));
    CHECK_THAT(scenario_error(head + R"("train": {"model": "llama-3-8b", "instance": "p5.48xlarge", "data_parallel": 3, "tensor_parallel": 2}})"),
               Contains("layout.data x layout.tensor x layout.pipeline") && Contains("6"));
    CHECK_THAT(scenario_error(head + R"("train": {"model": "llama-3-8b", "instance": "p5.48xlarge", "nodes": 2, "tensor_parallel": 16}})"),
               Contains("layout.tensor") && Contains("allow_cross_node_tensor_parallel"));
    CHECK_THAT(scenario_error(head + R"("train": {"model": "llama-3-8b", "instance": "p5.48xlarge", "tokens": -5}})"),
               Contains("$.train.tokens: got -5"));
    CHECK_THAT(scenario_error(head + R"("train": {"model": "llama-3-8b", "instance": "p5.48xlarge", "recompute": "some"}})"),
               Contains("$.train.recompute") && Contains("selective"));
    CHECK_THAT(scenario_error(head + R"("recommend": {"model": "llama-3-8b", "families": ["p9"]}})"),
               Contains("$.recommend.families[0]") && Contains("p9"));
    CHECK_THAT(scenario_error(head + R"("recommend": {"model": "llama-3-8b", "dtype": "fp6"}})"),
               Contains("$.recommend.dtype") && Contains("int4"));
    CHECK_THAT(scenario_error(head + R"("recommend_training": {"model": "llama-3-8b"}})"),
               Contains("$.recommend_training.tokens") && Contains("missing"));
}

// The limits every JSON document is held to (json_reader.hpp, docs/reliability.md), each with
// its exact message; the first was a crash found by tests/fuzz/fuzz_scenario.
TEST_CASE("JSON limits: overflowing numbers, depth, string and array sizes", "[bad-input][limits]") {
    const std::string head = R"({"schema": "gpuplan.scenario/1", )";
    CHECK(scenario_error(head + R"("fleet": {"hours": 8761e308}})") ==
          "s.json: got the number 8761e308; expected a number a double can hold (magnitude below 1.8e308)");
    CHECK(catalog_error(R"({"schema": "gpuplan.catalog/1", "instances": [-1e999]})") ==
          "user.json: got the number -1e999; expected a number a double can hold (magnitude below 1.8e308)");
    CHECK(scenario_error(head + R"("name": )" + std::string(33, '[') + std::string(33, ']') + "}") ==
          "s.json: got arrays/objects nested more than 32 deep (at byte 73); expected at most 32 levels of nesting");
    CHECK(scenario_error(head + R"("name": ")" + std::string(kMaxJsonStringBytes + 1, 'n') + "\"}") ==
          "s.json: $.name: got a string of 65537 bytes; expected at most 65536 bytes per string");
    std::string items = "0";
    for (std::size_t k = 0; k < kMaxJsonArrayItems; ++k) items += ",0";
    CHECK(catalog_error(R"({"schema": "gpuplan.catalog/1", "instances": [)" + items + "]}") ==
          "user.json: $.instances: got an array of 100001 items; expected at most 100000 items per array");
    // At the limits exactly, the JSON layer lets the document through to the reader.
    CHECK(scenario_error(head + R"("name": ")" + std::string(kMaxJsonStringBytes, 'n') + "\"}").find("65536 bytes per string") ==
          std::string::npos);
}

TEST_CASE("a key given twice is refused with its path, never last-one-wins", "[bad-input][limits]") {
    // Before: nlohmann kept the last value, so this scenario priced 1 hour, not 730.
    const std::string head = R"({"schema": "gpuplan.scenario/1", )";
    CHECK(scenario_error(head + R"("price": {"instance": "p5.48xlarge", "hours": 730, "hours": 1}})") ==
          "s.json: $.price.hours: got the key \"hours\" given twice in one object; expected each key once (the second would "
          "silently replace the first)");
    CHECK(scenario_error(R"({"schema": "gpuplan.scenario/1", "schema": "gpuplan.scenario/1"})").find("s.json: $.schema: got the key") == 0);
    // Inside arrays the path carries the index; the same key in two objects is fine.
    CHECK(catalog_error(R"({"schema": "gpuplan.catalog/1", "instances": [{"name": "a"}, {"name": "b", "vcpus": 1, "vcpus": 2}]})")
              .find("user.json: $.instances[1].vcpus: got the key \"vcpus\" given twice") == 0);
    CHECK(catalog_error(user_doc(kValidInstance)) == "(no error)");
}

TEST_CASE("a result beyond a double is refused with the inputs that made it", "[bad-input][limits]") {
    // Found by fuzz_scenario in CI (corpus/scenario/crash-fleet-overflow.json): every input is
    // a finite positive number, but 8 GPUs x 8,760 h = 70,080 GPU-hours at 1.61e308 $/GPU-h is
    // beyond a double, and JSON wrote the cost as null, shown as "unknown".
    const std::string fleet = R"({"schema": "gpuplan.scenario/1", "fleet": {"hours": 8760, "on_demand_usd_per_gpu_hour": 1.61e308,
        "tiers": [{"option": "reserved-1y", "gpus": 8, "usd_per_gpu_hour": 1.12}]}})";
    CHECK(scenario_error(fleet) ==
          "$.fleet, figure all_on_demand_cost_usd: got used_gpu_hours = 70080 GPU-h, on_demand_usd_per_gpu_hour = 1.61e+308 USD/GPU-h, "
          "which give a result beyond a double; expected inputs of a size whose figures a double can hold (magnitude below 1.8e308)");
    // At 2.2e303 $/GPU-h the cost, 2.2e303 x 70,080 = 1.54e308, is within a double: no error.
    CHECK(scenario_error(replace(fleet, "1.61e308", "2.2e303")) == "(no error)");
}
