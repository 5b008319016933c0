// The vCPU quota line every plan shows (pricing/quota.hpp), against the EC2 User Guide's quota
// tables: the class of each family, its Service Quotas code and a new account's default of 0.
#include <catch2/catch.hpp>

#include "fixtures.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/pricing/quota.hpp"

using namespace gpuplan;

TEST_CASE("four p5.48xlarge on demand need 768 vCPUs of the P class, which a new account has none of") {
    const Catalog& catalog = test::catalog();
    const Instance& p5 = *catalog.find_instance("p5.48xlarge");
    const QuotaLine line = quota_line(p5, 4, PriceKind::on_demand, {});
    CHECK(*line.vcpus_needed.value == 4 * 192);  // 192 vCPUs each (shared/reference)
    CHECK(line.quota_name == "Running On-Demand P instances");
    CHECK(line.quota_code == "L-417A185B");
    CHECK(line.quota_vcpus == 0);
    CHECK(line.increase_vcpus == 768);
    CHECK(line.words.find("request a quota increase of 768 vCPUs") != std::string::npos);
    // The account's own quota replaces the default.
    const QuotaLine covered = quota_line(p5, 4, PriceKind::on_demand, {{"p", 1000}});
    CHECK(covered.quota_code == "L-417A185B");
    CHECK(covered.increase_vcpus == 0);
    CHECK(covered.words.find("covered") != std::string::npos);
    CHECK(quota_line(p5, 4, PriceKind::on_demand, {{"p", 500}}).increase_vcpus == 268);
}

TEST_CASE("spot has its own classes: G and VT, P5, and none documented for P6") {
    const Catalog& catalog = test::catalog();
    const QuotaLine g = quota_line(*catalog.find_instance("g6e.xlarge"), 3, PriceKind::spot_typical, {{"g", 64}});
    CHECK(g.quota_code == "L-3819A6DF");
    CHECK(g.quota_key == "g-spot");
    CHECK_FALSE(g.quota_given);  // the on-demand quota given does not count for spot
    CHECK(*g.vcpus_needed.value == 3 * 4);
    CHECK(quota_line(*catalog.find_instance("p5en.48xlarge"), 1, PriceKind::spot_typical, {}).quota_code == "L-C4BD4855");
    CHECK(quota_line(*catalog.find_instance("p4d.24xlarge"), 1, PriceKind::spot_typical, {}).quota_code == "L-7212CCBC");
    const QuotaLine p6 = quota_line(*catalog.find_instance("p6-b200.48xlarge"), 1, PriceKind::spot_typical, {});
    CHECK(p6.quota_name.empty());
    CHECK(p6.words.find("not documented by AWS") != std::string::npos);
    CHECK(quota_facts_for(*catalog.find_instance("trn2.48xlarge")).on_demand_code == "L-2C3B7624");
    CHECK(quota_facts_for(*catalog.find_instance("inf2.xlarge")).on_demand_code == "L-1945791B");
    CHECK(quota_facts_for(*catalog.find_instance("gr6.4xlarge")).on_demand_code == "L-DB2E81BA");
    CHECK(quota_facts_for(*catalog.find_instance("dl1.24xlarge")).on_demand_code == "L-6E869C2A");
}

TEST_CASE("a quota is given as CLASS=N") {
    CHECK(parse_quota("P=384", "--quota") == std::pair<std::string, double>{"p", 384});
    CHECK(parse_quota("g-spot=64", "--quota") == std::pair<std::string, double>{"g-spot", 64});
    CHECK_THROWS_WITH(parse_quota("gpu=8", "--quota"), Catch::Contains("--quota") && Catch::Contains("standard"));
    CHECK_THROWS_WITH(parse_quota("p=-1", "--quota"), Catch::Contains("whole number"));
    CHECK_THROWS_AS(parse_quota("p", "--quota"), InputError);
    CHECK_THROWS_AS(parse_quota("p=1.5", "--quota"), InputError);
}
