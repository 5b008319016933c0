// AWS Price List indexes (pricing/price_list_index.hpp): the service index and both kinds of
// region index in AWS's documented layout ("Reading the price list files"), their relative URLs
// resolved, and documents not in that layout refused with the URL and JSON path named.
#include <catch2/catch.hpp>

#include "fixtures.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/pricing/price_list_index.hpp"

using namespace gpuplan;
using nlohmann::json;
using test::error_of;

namespace {

const std::string kIndexUrl = "https://pricing.example.test:8443/offers/v1.0/aws/index.json";

}  // namespace

TEST_CASE("the service index names EC2's and the Savings Plans region indexes, resolved against its host", "[price-list-index]") {
    const json index = {{"formatVersion", "v1.0"},
                        {"offers",
                         {{"AmazonS3", {{"offerCode", "AmazonS3"}}},
                          {"AmazonEC2",
                           {{"offerCode", "AmazonEC2"},
                            {"currentRegionIndexUrl", "/offers/v1.0/aws/AmazonEC2/current/region_index.json"},
                            {"currentSavingsPlanIndexUrl", "/savingsPlan/v1.0/aws/AWSComputeSavingsPlan/current/region_index.json"}}}}}};
    const PriceListIndexUrls urls = read_service_index(index, kIndexUrl);
    CHECK(urls.ec2_region_index == "https://pricing.example.test:8443/offers/v1.0/aws/AmazonEC2/current/region_index.json");
    CHECK(urls.savings_plans_region_index ==
          "https://pricing.example.test:8443/savingsPlan/v1.0/aws/AWSComputeSavingsPlan/current/region_index.json");

    json no_plans = index;
    no_plans["offers"]["AmazonEC2"].erase("currentSavingsPlanIndexUrl");
    CHECK(read_service_index(no_plans, kIndexUrl).savings_plans_region_index.empty());
}

TEST_CASE("a service index not in AWS's layout is refused with the path named", "[price-list-index]") {
    CHECK(error_of([] { read_service_index(json{{"offers", {{"AmazonS3", json::object()}}}}, kIndexUrl); }) ==
          kIndexUrl + ": $.offers.AmazonEC2: got nothing (key missing); expected AWS's Price List service index "
                      "(/offers/v1.0/aws/index.json), with offers.AmazonEC2");
    CHECK_THAT(error_of([] { read_service_index(json{{"offers", {{"AmazonEC2", {{"currentRegionIndexUrl", 7}}}}}}, kIndexUrl); }),
               Catch::Contains("$.offers.AmazonEC2.currentRegionIndexUrl: got 7"));
    CHECK_THAT(error_of([] { read_service_index(json::array(), kIndexUrl); }), Catch::Contains(kIndexUrl + ": $: got []"));
}

TEST_CASE("EC2's region index (an object) and the Savings Plans one (an array) give each region's file", "[price-list-index]") {
    const std::string ec2_url = "https://h/offers/v1.0/aws/AmazonEC2/current/region_index.json";
    const json ec2 = {{"regions",
                       {{"eu-west-2", {{"regionCode", "eu-west-2"}, {"currentVersionUrl", "/offers/v1.0/aws/AmazonEC2/20260701000000/eu-west-2/index.json"}}},
                        {"us-east-1", {{"regionCode", "us-east-1"}, {"currentVersionUrl", "/offers/v1.0/aws/AmazonEC2/20260701000000/us-east-1/index.json"}}}}}};
    const auto files = read_region_index(ec2, ec2_url);
    REQUIRE(files.size() == 2);
    CHECK(files.at("eu-west-2") == "https://h/offers/v1.0/aws/AmazonEC2/20260701000000/eu-west-2/index.json");

    const json plans = {{"regions", json::array({{{"regionCode", "eu-west-2"}, {"versionUrl", "/savingsPlan/v1.0/aws/AWSComputeSavingsPlan/2026/eu-west-2/index.json"}}})}};
    CHECK(read_region_index(plans, "http://127.0.0.1:9/sp.json").at("eu-west-2") ==
          "http://127.0.0.1:9/savingsPlan/v1.0/aws/AWSComputeSavingsPlan/2026/eu-west-2/index.json");

    CHECK_THAT(error_of([] { read_region_index(json{{"regions", json::array({{{"regionCode", "eu-west-2"}}})}}, "u"); }),
               Catch::Contains("u: $.regions[0].versionUrl: got nothing (key missing)"));
    CHECK_THAT(error_of([] { read_region_index(json{{"regions", "all"}}, "u"); }), Catch::Contains("u: $.regions: got \"all\""));
    CHECK_THAT(error_of([] { read_region_index(json{{"regions", json::object()}}, "u"); }), Catch::Contains("u: $.regions: got no region"));
}

TEST_CASE("the regions to fetch: all = those AWS lists and gpuplan knows; a named one must be both", "[price-list-index]") {
    const std::map<std::string, std::string> listed = {{"eu-west-2", "a"}, {"us-east-1", "b"}, {"xx-new-1", "c"}};
    const std::set<std::string> known = {"eu-west-2", "us-east-1", "ap-south-1"};
    CHECK(price_list_regions_to_fetch({"all"}, listed, known) == std::vector<std::string>{"eu-west-2", "us-east-1"});
    CHECK(price_list_regions_to_fetch({"us-east-1", "eu-west-2", "us-east-1"}, listed, known) ==
          std::vector<std::string>{"us-east-1", "eu-west-2"});
    CHECK_THAT(error_of([&] { price_list_regions_to_fetch({"ap-south-1"}, listed, known); }),
               Catch::Contains("--regions: got 'ap-south-1'; expected a region AWS's EC2 region index lists and gpuplan knows: all, or eu-west-2, us-east-1"));
    CHECK_THAT(error_of([&] { price_list_regions_to_fetch({"xx-new-1"}, listed, known); }),
               Catch::Contains("--regions: got 'xx-new-1'; expected a region gpuplan knows"));
}

TEST_CASE("relative URLs resolve against the base; absolute ones are kept", "[price-list-index]") {
    CHECK(resolve_price_list_url("http://127.0.0.1:8080/", "/offers/v1.0/aws/index.json") == "http://127.0.0.1:8080/offers/v1.0/aws/index.json");
    CHECK(resolve_price_list_url("http://h", "a/b.json") == "http://h/a/b.json");
    CHECK(resolve_price_list_url("http://h", "https://mirror/x.json") == "https://mirror/x.json");
}
