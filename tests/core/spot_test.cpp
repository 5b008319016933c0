// Spot that knows its zones: interruption buckets (pricing/spot_advisor.hpp) and a weighted
// spot fleet over types and zones (pricing/spot_fleet.hpp), against hand-computed figures from
// the catalog's us-east-1 zones (assets/catalog/additions/spot-zones.csv: g6e.4xlarge $1.0256-$1.1982,
// median $1.17765; g6e.8xlarge $1.2427-$1.4069, median $1.3121; g6e.12xlarge $3.7062-$5.7655, median
// $5.2999; each over 4 zones; on-demand $3.0042, $4.5286, $10.49264).
#include <catch2/catch.hpp>

#include <cmath>

#include "fixtures.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/pricing/spot_advisor.hpp"
#include "gpuplan/pricing/spot_fleet.hpp"

using namespace gpuplan;

TEST_CASE("interruption buckets: labels, rates and the mean time between interruptions") {
    CHECK(interruption_bucket_named("<5%") == InterruptionBucket::under_5);
    CHECK(interruption_bucket_named("10-15") == InterruptionBucket::from_10_to_15);
    CHECK(interruption_bucket_named(">20%") == InterruptionBucket::over_20);
    CHECK_FALSE(interruption_bucket_named("7%"));
    // 10-15%: midpoint 12.5%; 730 / -ln(0.875) = 730 / 0.1335314 = 5,466.88 h.
    const Figure m = mean_hours_between_interruptions(InterruptionBucket::from_10_to_15, "test");
    CHECK(*m.value == Approx(5466.88).epsilon(1e-5));
    CHECK(m.rests_on_assumption());  // the midpoint stands in for the bucket
    // >20%: 25% assumed; 730 / -ln(0.75) = 730 / 0.2876821 = 2,537.52 h.
    CHECK(*mean_hours_between_interruptions(InterruptionBucket::over_20, "test").value == Approx(2537.52).epsilon(1e-5));
}

TEST_CASE("Spot Advisor data: Linux entries by region and type; bad files named") {
    const std::string text = R"({"ranges": [{"index": 0, "label": "<5%"}, {"index": 1, "label": "5-10%"}, {"index": 2, "label": "10-15%"},
        {"index": 3, "label": "15-20%"}, {"index": 4, "label": ">20%"}],
      "spot_advisor": {"us-east-1": {"Linux": {"g6e.12xlarge": {"s": 55, "r": 2}}, "Windows": {"g6e.12xlarge": {"s": 40, "r": 0}}}}})";
    const SpotAdvisorData d = parse_spot_advisor(text, "advisor.json");
    REQUIRE(d.find("us-east-1", "g6e.12xlarge"));
    CHECK(d.find("us-east-1", "g6e.12xlarge")->bucket == InterruptionBucket::from_10_to_15);
    CHECK(d.find("us-east-1", "g6e.12xlarge")->saving_percent == 55);
    CHECK_FALSE(d.find("eu-west-2", "g6e.12xlarge"));
    CHECK(d.linux_entries.size() == 1);  // Windows is not read

    const auto refused = [](const std::string& doc, const std::string& needle) {
        try {
            parse_spot_advisor(doc, "advisor.json");
            FAIL("accepted " << doc);
        } catch (const InputError& e) {
            INFO(e.what());
            CHECK(std::string(e.what()).find(needle) != std::string::npos);
        }
    };
    refused(R"({"offerCode": "AmazonEC2"})", "spot-advisor-data.json");
    refused(R"({"ranges": [{"index": 0, "label": "rare"}], "spot_advisor": {}})", "advisor.json: $.ranges[0].label");
    refused(R"({"ranges": [{"index": 0, "label": "<5%"}], "spot_advisor": {"us-east-1": {"Linux": {"m5.large": {"s": 1, "r": 3}}}}})",
            "$.spot_advisor.us-east-1.Linux.m5.large.r");
}

namespace {
SpotFleetRequest g6e_fleet(SpotAllocation allocation) {
    SpotFleetRequest r;
    r.region = "us-east-1";
    r.target_capacity = 8;  // GPUs
    r.types = {{"g6e.4xlarge", 1}, {"g6e.8xlarge", 1}, {"g6e.12xlarge", 4}};
    r.allocation = allocation;
    return r;
}
}  // namespace

TEST_CASE("spot fleet, lowest-price: every unit from the cheapest pool per unit") {
    const SpotFleetResult r = plan_spot_fleet(test::builtin_catalog(), g6e_fleet(SpotAllocation::lowest_price));
    // us-east-1 zones (spot-zones.csv, SkyPilot at 3e9a175): the cheapest per unit 1.0256, 1.2427 and
    // 3.7062 / 4 = 0.92655 -> g6e.12xlarge, ceil(8 / 4) = 2; its dearest zone 5.7655.
    REQUIRE(r.lines.size() == 3);
    CHECK(r.lines[0].instances == 0);
    CHECK(r.lines[1].instances == 0);
    CHECK(r.lines[2].instances == 2);
    CHECK(*r.capacity_units.value == 8);
    CHECK(*r.expected_usd_per_hour.value == Approx(2 * 3.7062));
    CHECK(*r.dearest_zones_usd_per_hour.value == Approx(2 * 5.7655));
    CHECK(*r.on_demand_usd_per_hour.value == Approx(2 * 10.49264));
    CHECK(*r.saving_vs_on_demand.value == Approx(1 - 3.7062 / 10.49264));
    CHECK(*r.cost_usd.value == Approx(2 * 3.7062 * 730));
}

TEST_CASE("spot fleet, diversified: the units spread over every type x zone") {
    const SpotFleetResult r = plan_spot_fleet(test::builtin_catalog(), g6e_fleet(SpotAllocation::diversified));
    // 12 pools share 8 units; each type's 4 zones take 8 x 4/12 = 2.67 units: ceil(2.67 / 1) = 3,
    // 3 and ceil(2.67 / 4) = 1 instances, 3 + 3 + 4 = 10 units, at each type's median zone price:
    // (1.1615 + 1.1938) / 2, (1.2581 + 1.3661) / 2 and (5.1378 + 5.4620) / 2.
    CHECK(r.lines[0].instances == 3);
    CHECK(r.lines[1].instances == 3);
    CHECK(r.lines[2].instances == 1);
    CHECK(*r.capacity_units.value == 10);
    CHECK(*r.expected_usd_per_hour.value == Approx(3 * 1.17765 + 3 * 1.3121 + 5.2999));
    CHECK(*r.cheapest_zones_usd_per_hour.value == Approx(3 * 1.0256 + 3 * 1.2427 + 3.7062));
}

TEST_CASE("spot fleet: the checkpoint rework follows the interruption bucket") {
    SpotFleetRequest req = g6e_fleet(SpotAllocation::lowest_price);
    const Figure m = mean_hours_between_interruptions(InterruptionBucket::from_10_to_15, "test");
    req.spot_risk.mean_hours_between_interruptions = {*m.value, InputOrigin::user, m.worked};
    const SpotFleetResult r = plan_spot_fleet(test::builtin_catalog(), req);
    // Young/Daly with C = 2 min, R = 5 min, M = 5,466.88 h: tau = sqrt(2 C M), overhead = C/tau + tau/2M + R/M.
    const double c = 2.0 / 60, rr = 5.0 / 60, mm = *m.value, tau = std::sqrt(2 * c * mm);
    CHECK(*r.usd_per_useful_hour.value == Approx(2 * 3.7062 * (1 + c / tau + tau / (2 * mm) + rr / mm)));
}

TEST_CASE("spot fleet: bad requests are named") {
    const auto refused = [](SpotFleetRequest req, const std::string& needle) {
        try {
            plan_spot_fleet(test::builtin_catalog(), req);
            FAIL("accepted a bad fleet; expected " << needle);
        } catch (const InputError& e) {
            INFO(e.what());
            CHECK(std::string(e.what()).find(needle) != std::string::npos);
        }
    };
    SpotFleetRequest unknown = g6e_fleet(SpotAllocation::lowest_price);
    unknown.types.push_back({"zz9.huge", 1});
    refused(unknown, "\"zz9.huge\"");
    SpotFleetRequest elsewhere = g6e_fleet(SpotAllocation::lowest_price);
    elsewhere.types = {{"dl2q.24xlarge", 8}};
    refused(elsewhere, "a type offered in us-east-1");
    SpotFleetRequest no_spot = g6e_fleet(SpotAllocation::lowest_price);
    no_spot.types = {{"g7.2xlarge", 1}};
    refused(no_spot, "newer than the SkyPilot");
    SpotFleetRequest zero = g6e_fleet(SpotAllocation::lowest_price);
    zero.target_capacity = 0;
    refused(zero, "a capacity above 0");
}
