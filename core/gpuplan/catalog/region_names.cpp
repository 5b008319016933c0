#include "gpuplan/catalog/region_names.hpp"

#include <algorithm>
#include <iterator>

namespace gpuplan {

namespace {

struct RegionName {
    std::string_view code, name;
};

// Every region the built-in catalog prices, named as AWS names them. Sources (read 2026-12-02):
// "AWS Region billing codes", docs.aws.amazon.com/global-infrastructure/latest/regions/
// aws-region-billing-codes.html (the US, Canada, Africa and Asia Pacific rows), and the
// "Supported AWS Regions" table of docs.aws.amazon.com/solutions/latest/
// automated-security-response-on-aws/plan-your-deployment.html (Europe, the Middle East, South
// America, Israel and GovCloud, spelled as it spells them). Sorted by code.
constexpr RegionName kRegionNames[] = {
    {"af-south-1", "Africa (Cape Town)"},
    {"ap-east-1", "Asia Pacific (Hong Kong)"},
    {"ap-northeast-1", "Asia Pacific (Tokyo)"},
    {"ap-northeast-2", "Asia Pacific (Seoul)"},
    {"ap-northeast-3", "Asia Pacific (Osaka)"},
    {"ap-south-1", "Asia Pacific (Mumbai)"},
    {"ap-south-2", "Asia Pacific (Hyderabad)"},
    {"ap-southeast-1", "Asia Pacific (Singapore)"},
    {"ap-southeast-2", "Asia Pacific (Sydney)"},
    {"ap-southeast-3", "Asia Pacific (Jakarta)"},
    {"ap-southeast-4", "Asia Pacific (Melbourne)"},
    {"ap-southeast-5", "Asia Pacific (Malaysia)"},
    {"ca-central-1", "Canada (Central)"},
    {"eu-central-1", "Europe (Frankfurt)"},
    {"eu-central-2", "Europe (Zurich)"},
    {"eu-north-1", "Europe (Stockholm)"},
    {"eu-south-1", "Europe (Milan)"},
    {"eu-south-2", "Europe (Spain)"},
    {"eu-west-1", "Europe (Ireland)"},
    {"eu-west-2", "Europe (London)"},
    {"eu-west-3", "Europe (Paris)"},
    {"il-central-1", "Israel (Tel Aviv)"},
    {"me-central-1", "Middle East (UAE)"},
    {"me-south-1", "Middle East (Bahrain)"},
    {"sa-east-1", "South America (Sao Paulo)"},
    {"us-east-1", "US East (N. Virginia)"},
    {"us-east-2", "US East (Ohio)"},
    {"us-gov-east-1", "AWS GovCloud (US-East)"},
    {"us-gov-west-1", "AWS GovCloud (US-West)"},
    {"us-west-1", "US West (N. California)"},
    {"us-west-2", "US West (Oregon)"},
};

}  // namespace

std::string_view region_name(std::string_view code) {
    const auto at = std::lower_bound(std::begin(kRegionNames), std::end(kRegionNames), code,
                                     [](const RegionName& r, std::string_view c) { return r.code < c; });
    return at != std::end(kRegionNames) && at->code == code ? at->name : std::string_view();
}

std::string region_with_name(std::string_view code) {
    const std::string_view name = region_name(code);
    return name.empty() ? std::string(code) : std::string(code) + " \u00b7 " + std::string(name);
}

}  // namespace gpuplan
