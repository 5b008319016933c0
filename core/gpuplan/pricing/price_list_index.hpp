// price_list_index.hpp — where AWS's Price List Bulk API keeps each region's price files.
//
// `gpuplan prices update` walks three small JSON documents before it downloads any offer file
// (AWS, "Reading the price list files": the service index, the service Region index and the
// Region index for Savings Plans):
//   /offers/v1.0/aws/index.json            offers.AmazonEC2.currentRegionIndexUrl
//                                          offers.AmazonEC2.currentSavingsPlanIndexUrl
//   EC2's region_index.json                regions: { "<code>": { regionCode, currentVersionUrl } }
//   Savings Plans' region_index.json       regions: [ { regionCode, versionUrl } ]
// This module reads them (every error names the document's URL and the JSON path) and resolves
// their relative URLs; the download itself is the native shell's (native/net/).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpuplan {

// AWS's public Price List host and the service index on it (docs/pricing.md, "Refreshing prices").
inline constexpr const char* kPriceListBaseUrl = "https://pricing.us-east-1.amazonaws.com";
inline constexpr const char* kPriceListServiceIndexPath = "/offers/v1.0/aws/index.json";

struct PriceListIndexUrls {
    std::string ec2_region_index;            // absolute URL
    std::string savings_plans_region_index;  // absolute URL; "" when the index names none
};

// Reads the service index (`origin` names it in errors). Throws InputError for a document that
// is not AWS's service index (no offers.AmazonEC2.currentRegionIndexUrl).
PriceListIndexUrls read_service_index(const nlohmann::json& index, const std::string& origin);

// Reads a region index, EC2's (regions as an object, currentVersionUrl) or Savings Plans' (regions
// as an array, versionUrl): region code -> absolute URL of that region's file.
std::map<std::string, std::string> read_region_index(const nlohmann::json& index, const std::string& origin);

// An index's relative URL ("/offers/...") made absolute against `base` ("https://host[:port]"); an
// absolute URL is kept.
std::string resolve_price_list_url(const std::string& base, const std::string& ref);

// The regions to fetch: `asked` ("all" or codes) checked against the EC2 region index's codes and
// the regions gpuplan knows. "all" = every region both list. A code either does not list throws
// InputError naming --regions and the codes that would do.
std::vector<std::string> price_list_regions_to_fetch(const std::vector<std::string>& asked,
                                                     const std::map<std::string, std::string>& listed,
                                                     const std::set<std::string>& known);

}  // namespace gpuplan
