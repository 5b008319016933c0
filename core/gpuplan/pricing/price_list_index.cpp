// price_list_index.cpp — reading AWS's Price List service and region indexes (see the header).
#include "gpuplan/pricing/price_list_index.hpp"

#include <algorithm>

#include "gpuplan/input_error.hpp"
#include "gpuplan/json_reader.hpp"
#include "gpuplan/text.hpp"

namespace gpuplan {

namespace {

// A string member at `path`, or an InputError naming the document and the path.
const std::string& required_string(const Json& object, const char* key, const std::string& origin, const std::string& path,
                                   const char* expected) {
    const auto it = object.find(key);
    if (it == object.end()) throw InputError(origin + ": " + path + "." + key, "nothing (key missing)", expected);
    if (!it->is_string() || it->get_ref<const std::string&>().empty())
        throw InputError(origin + ": " + path + "." + key, json_preview(*it), expected);
    return it->get_ref<const std::string&>();
}

const Json& required_object(const Json& parent, const char* key, const std::string& origin, const std::string& path,
                            const char* expected) {
    const auto it = parent.find(key);
    if (it == parent.end()) throw InputError(origin + ": " + path + "." + key, "nothing (key missing)", expected);
    if (!it->is_object()) throw InputError(origin + ": " + path + "." + key, json_preview(*it), expected);
    return *it;
}

// The host part of an absolute URL: "https://host:port/a/b" -> "https://host:port".
std::string url_origin(const std::string& url) {
    const std::size_t scheme = url.find("://");
    if (scheme == std::string::npos) return url;
    const std::size_t slash = url.find('/', scheme + 3);
    return slash == std::string::npos ? url : url.substr(0, slash);
}

}  // namespace

PriceListIndexUrls read_service_index(const Json& index, const std::string& origin) {
    const char* what = "AWS's Price List service index (/offers/v1.0/aws/index.json), with offers.AmazonEC2";
    if (!index.is_object()) throw InputError(origin + ": $", json_preview(index), what);
    const Json& offers = required_object(index, "offers", origin, "$", what);
    const Json& ec2 = required_object(offers, "AmazonEC2", origin, "$.offers", what);
    PriceListIndexUrls urls;
    urls.ec2_region_index = resolve_price_list_url(
        url_origin(origin), required_string(ec2, "currentRegionIndexUrl", origin, "$.offers.AmazonEC2",
                                            "the URL of EC2's region index, such as \"/offers/v1.0/aws/AmazonEC2/current/region_index.json\""));
    if (const auto sp = ec2.find("currentSavingsPlanIndexUrl"); sp != ec2.end()) {
        if (!sp->is_string() || sp->get_ref<const std::string&>().empty())
            throw InputError(origin + ": $.offers.AmazonEC2.currentSavingsPlanIndexUrl", json_preview(*sp),
                             "the URL of the Savings Plans region index");
        urls.savings_plans_region_index = resolve_price_list_url(url_origin(origin), sp->get<std::string>());
    }
    return urls;
}

std::map<std::string, std::string> read_region_index(const Json& index, const std::string& origin) {
    const char* what = "a Price List region index: \"regions\" listing each region's regionCode and its file's URL";
    if (!index.is_object()) throw InputError(origin + ": $", json_preview(index), what);
    const auto regions = index.find("regions");
    if (regions == index.end()) throw InputError(origin + ": $.regions", "nothing (key missing)", what);
    std::map<std::string, std::string> files;
    auto add = [&](const Json& entry, const std::string& path, const char* url_key) {
        if (!entry.is_object()) throw InputError(origin + ": " + path, json_preview(entry), "{\"regionCode\": ..., \"" + std::string(url_key) + "\": ...}");
        const std::string& code = required_string(entry, "regionCode", origin, path, "a region code such as \"eu-west-2\"");
        const std::string& url = required_string(entry, url_key, origin, path, "the relative URL of the region's price file");
        files[code] = resolve_price_list_url(url_origin(origin), url);
    };
    if (regions->is_object()) {  // EC2: { "eu-west-2": { "regionCode", "currentVersionUrl" } }
        for (const auto& [key, entry] : regions->items()) add(entry, "$.regions." + key, "currentVersionUrl");
    } else if (regions->is_array()) {  // Savings Plans: [ { "regionCode", "versionUrl" } ]
        for (std::size_t i = 0; i < regions->size(); ++i) add((*regions)[i], index_path("$.regions", i), "versionUrl");
    } else {
        throw InputError(origin + ": $.regions", json_preview(*regions), what);
    }
    if (files.empty()) throw InputError(origin + ": $.regions", "no region", what);
    return files;
}

std::string resolve_price_list_url(const std::string& base, const std::string& ref) {
    if (ref.find("://") != std::string::npos) return ref;
    std::string root = base;
    while (!root.empty() && root.back() == '/') root.pop_back();
    return root + (ref.empty() || ref.front() != '/' ? "/" : "") + ref;
}

std::vector<std::string> price_list_regions_to_fetch(const std::vector<std::string>& asked,
                                                     const std::map<std::string, std::string>& listed,
                                                     const std::set<std::string>& known) {
    std::vector<std::string> both;
    for (const auto& [code, url] : listed)
        if (known.count(code)) both.push_back(code);
    if (asked.size() == 1 && asked.front() == "all") return both;
    std::vector<std::string> regions;
    for (const std::string& code : asked) {
        if (!listed.count(code))
            throw InputError("--regions", "'" + code + "'",
                             "a region AWS's EC2 region index lists and gpuplan knows: all, or " + join(both, ", "));
        if (!known.count(code))
            throw InputError("--regions", "'" + code + "'",
                             "a region gpuplan knows (AWS lists it, but the catalog has no region of that name): all, or " + join(both, ", "));
        if (std::find(regions.begin(), regions.end(), code) == regions.end()) regions.push_back(code);
    }
    return regions;
}

}  // namespace gpuplan
