// price_list_import.hpp — AWS Price List Bulk API offer files in, a catalog price overlay out.
//
// An EC2 offer file (offers/v1.0/aws/AmazonEC2/<version>/<region>/index.json, ~450 MB for a
// large region) lists products (a SKU per instance type, OS, tenancy, licence, capacity status
// and region) and terms (OnDemand and Reserved, each with price dimensions in "Hrs" or
// "Quantity"). The importer streams it through nlohmann's SAX interface, so only the rows it
// keeps are held in memory, and keeps the Linux, shared-tenancy, no-pre-installed-software,
// "Used" capacity rows of the catalog's instance types: their on-demand price and their Standard
// Reserved Instance prices (1 and 3 years; no, partial and all upfront). The result is a
// catalog document (docs/catalog.md, "Price overlays") whose prices cite the offer version and
// publication date. Format: AWS, "Reading the service price list files" (Price List Bulk API).
//
// A Savings Plans price-list file (savingsPlan/v1.0/aws/AWSComputeSavingsPlan/<version>/<region>/
// index.json: "products" and "terms.savingsPlan" as arrays; AWS, "Reading the service price list
// file for a Savings Plan") is read by the same call: each plan product (Compute or EC2 Instance
// Savings Plans, term, payment) and each of its rates for Linux ("RunInstances") shared-tenancy
// ("BoxUsage:<type>") usage of a catalog type becomes that type's Savings Plan price.
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpuplan {

struct ImportedPrice {
    std::string instance, region;
    std::string option;           // a catalog price key: "on-demand" or a commitment key "reserved-1y-all-upfront"
    double usd_per_hour = 0;      // on-demand price, or a commitment's recurring hourly price
    double upfront_usd = 0;       // commitments only
    std::string sku, file;        // where it came from
    std::string note;             // what the overlay entry says beyond its source ("" = the default)
    std::size_t offer = 0;        // index into PriceListImport::offers
};

// One offer file's header, for the overlay's source entry.
struct OfferHeader {
    std::string file, offer_code, version, publication_date;
    std::set<std::string> regions;  // region codes of the rows kept
};

struct PriceListImportStats {
    std::uint64_t bytes = 0;
    std::uint64_t products = 0, products_kept = 0;
    std::uint64_t convertible_skipped = 0;
};

class PriceListImport {
public:
    // instance_types: the catalog's types (rows of other types are counted, not kept);
    // known_regions: region codes gpuplan knows (rows of other regions are skipped with a warning).
    PriceListImport(std::set<std::string> instance_types, std::set<std::string> known_regions);

    // Reads one offer file (EC2, or Savings Plans) to its end. Throws InputError naming the file, SKU and field for a
    // file that is not an EC2 offer file, truncated or malformed JSON, a price that is not a
    // number, or a negative or absurd price. Nothing from a file that throws is kept.
    void add_offer_file(std::istream& in, const std::string& file_name);

    // The overlay document (schema gpuplan.catalog/1, top-level "sources" and "prices").
    nlohmann::json overlay() const;

    const std::vector<std::string>& warnings() const { return warnings_; }
    const PriceListImportStats& stats() const { return stats_; }
    const std::vector<OfferHeader>& offers() const { return offers_; }
    std::size_t price_count() const { return prices_.size(); }

private:
    std::set<std::string> instance_types_, known_regions_;
    std::vector<OfferHeader> offers_;
    // (instance, region, option) -> price: one per key; a second file that disagrees warns.
    std::map<std::tuple<std::string, std::string, std::string>, ImportedPrice> prices_;
    std::vector<std::string> warnings_;
    PriceListImportStats stats_;
};

// "AWS-PRICE-LIST-eu-west-2-20260701000000": the overlay's source key for an offer file.
std::string offer_source_key(const OfferHeader& offer);

}  // namespace gpuplan
