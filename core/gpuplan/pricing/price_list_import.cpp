// price_list_import.cpp — streaming reader for AWS EC2 offer files (price_list_import.hpp).
//
// The file is one JSON object (AWS writes products before terms; a file written the other way
// round is read twice, the second time for its terms only):
//   { "offerCode": "AmazonEC2", "version": "...", "publicationDate": "...",
//     "products": { SKU: { "sku", "productFamily", "attributes": { "instanceType", ... } } },
//     "terms": { "OnDemand" | "Reserved": { SKU: { TERM: { "priceDimensions": { RATE: {
//                "unit": "Hrs" | "Quantity", "pricePerUnit": { "USD": "1.23" } } },
//                "termAttributes": { "LeaseContractLength", "OfferingClass", "PurchaseOption" } } } } } }
// The SAX handler below tracks the key at each depth and keeps only what the catalog can use,
// so memory stays proportional to the rows kept, not to the file.
#include "gpuplan/pricing/price_list_import.hpp"

#include <cstdio>
#include <cstdlib>
#include <unordered_map>

#include "gpuplan/calendar.hpp"
#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/pricing/purchase_option.hpp"
#include "gpuplan/text.hpp"

namespace gpuplan {

namespace {

// No EC2 instance lists anywhere near these (the dearest on-demand type in the catalog is about
// $114 an hour): a larger figure is a corrupt file, not a price.
constexpr double kAbsurdUsdPerHour = 10000;
constexpr double kAbsurdUpfrontUsd = kAbsurdUsdPerHour * 3 * kHoursPerYear;

struct Product {
    std::string sku, family, instance, region, os, tenancy, software, capacity, location_type, instance_family, gpu, market;
    std::string purchase_option, purchase_term;  // Savings Plans products
};

struct Dimension {
    std::string rate_code, unit, usd;
};

struct OfferTerm {
    std::string code, lease, offering_class, purchase_option;
    std::vector<Dimension> dimensions;
};

struct KeptProduct {
    std::string instance, region;
};

// A Savings Plans product: which plan, term and payment ("compute-savings-plan", "1y", "no-upfront").
struct SavingsPlan {
    std::string kind, term, payment;
};

// One rate of a Savings Plans term that the catalog can use (Linux, shared tenancy, EC2).
struct PlanRate {
    std::string usage_type, operation, service, region, instance, rate_code, price, currency;
};

struct PlanTerm {
    std::string plan_sku;
    std::vector<PlanRate> rates;
};

// "No Upfront" -> "no-upfront", as purchase_option.hpp spells payments; "" for anything else.
std::string payment_key(const std::string& aws) {
    return aws == "No Upfront" ? "no-upfront" : aws == "Partial Upfront" ? "partial-upfront" : aws == "All Upfront" ? "all-upfront" : "";
}

class OfferSax {
public:
    OfferSax(const std::string& file, const std::set<std::string>& types, const std::set<std::string>& regions)
        : file_(file), types_(types), regions_(regions), keys_(32) {}

    // --- nlohmann SAX interface -------------------------------------------------------------
    bool null() { return true; }
    bool boolean(bool) { return true; }
    bool number_integer(std::int64_t) { return true; }
    bool number_unsigned(std::uint64_t) { return true; }
    bool number_float(double, const std::string&) { return true; }
    bool binary(nlohmann::json::binary_t&) { return true; }
    bool start_array(std::size_t) { return open(); }
    bool end_array() { return close(); }
    bool key(std::string& k) {
        keys_[depth_] = k;
        return true;
    }
    bool start_object(std::size_t) {
        if (!open()) return false;
        if (section_ == Section::products && depth_ == 3) { product_ = Product{}; product_.sku = keys_[2]; }
        if (section_ == Section::terms) {
            if (depth_ == 2 && !products_seen_) terms_before_products = true;
            if (savings_plan_terms_) {
                if (depth_ == 4) plan_term_ = PlanTerm{};
                if (depth_ == 6 && keys_[4] == "rates") plan_rate_ = PlanRate{};
                return true;
            }
            if (depth_ == 4) {
                auto it = kept_.find(keys_[3]);
                term_product_ = it == kept_.end() ? nullptr : &*it;
            }
            if (term_product_ && depth_ == 5) { term_ = OfferTerm{}; term_.code = keys_[4]; }
            if (term_product_ && depth_ == 7 && keys_[5] == "priceDimensions") { dimension_ = Dimension{}; dimension_.rate_code = keys_[6]; }
        }
        return true;
    }
    bool end_object() {
        if (section_ == Section::products && depth_ == 3 && !skip_products) finish_product();
        if (section_ == Section::terms && savings_plan_terms_) {
            if (depth_ == 6 && keys_[4] == "rates") keep_plan_rate();
            if (depth_ == 4) finish_plan_term();
        } else if (section_ == Section::terms && term_product_) {
            if (depth_ == 7 && keys_[5] == "priceDimensions") term_.dimensions.push_back(std::move(dimension_));
            if (depth_ == 5) finish_term();
        }
        return close();
    }
    bool string(std::string& value) {
        if (depth_ == 1) {
            const std::string& k = keys_[1];
            if (k == "offerCode") {
                if (value != "AmazonEC2")
                    throw InputError(file_ + ": $.offerCode", "\"" + value + "\"",
                                     "\"AmazonEC2\": an EC2 offer file from the AWS Price List Bulk API (this is another service's)");
                header.offer_code = value;
            } else if (k == "version") {
                header.version = value;
            } else if (k == "publicationDate") {
                header.publication_date = value;
            } else if (k == "regionCode") {  // a Savings Plans file's region
                file_region_ = value;
            }
        } else if (section_ == Section::products) {
            if (depth_ == 3 && keys_[3] == "sku") product_.sku = value;
            if (depth_ == 3 && keys_[3] == "productFamily") product_.family = value;
            if (depth_ == 4 && keys_[3] == "attributes") product_attribute(keys_[4], value);
        } else if (section_ == Section::terms && savings_plan_terms_) {
            if (depth_ == 4 && keys_[4] == "sku") plan_term_.plan_sku = value;
            if (depth_ == 6 && keys_[4] == "rates") {
                const std::string& k = keys_[6];
                if (k == "discountedUsageType") plan_rate_.usage_type = value;
                else if (k == "discountedOperation") plan_rate_.operation = value;
                else if (k == "discountedServiceCode") plan_rate_.service = value;
                else if (k == "discountedRegionCode") plan_rate_.region = value;
                else if (k == "discountedInstanceType") plan_rate_.instance = value;
                else if (k == "rateCode") plan_rate_.rate_code = value;
            }
            if (depth_ == 7 && keys_[4] == "rates" && keys_[6] == "discountedRate" && keys_[7] == "price") plan_rate_.price = value;
            if (depth_ == 7 && keys_[4] == "rates" && keys_[6] == "discountedRate" && keys_[7] == "currency") plan_rate_.currency = value;
        } else if (section_ == Section::terms && term_product_) {
            if (depth_ == 6 && keys_[5] == "termAttributes") {
                if (keys_[6] == "LeaseContractLength") term_.lease = value;
                if (keys_[6] == "OfferingClass") term_.offering_class = value;
                if (keys_[6] == "PurchaseOption") term_.purchase_option = value;
            }
            if (depth_ == 7 && keys_[5] == "priceDimensions" && keys_[7] == "unit") dimension_.unit = value;
            if (depth_ == 8 && keys_[5] == "priceDimensions" && keys_[7] == "pricePerUnit" && keys_[8] == "USD") dimension_.usd = value;
        }
        return true;
    }
    bool parse_error(std::size_t position, const std::string& last_token, const nlohmann::detail::exception& e) {
        throw InputError(file_ + ": byte " + std::to_string(position), "'" + last_token.substr(0, 40) + "'",
                         std::string("well-formed JSON to the end of the file (a truncated download?): ") + e.what());
    }

    // --- results ---------------------------------------------------------------------------
    OfferHeader header;
    std::vector<ImportedPrice> rows;
    std::vector<std::string> warnings;
    std::set<std::string> accelerated_not_in_catalog;
    PriceListImportStats stats;
    bool products_seen_ = false;
    bool terms_before_products = false;  // then the file is read again for its terms
    bool skip_products = false;           // set on that second reading
    std::unordered_map<std::string, KeptProduct> kept_;  // SKU -> what it is
    std::unordered_map<std::string, SavingsPlan> plans_;  // Savings Plans SKU -> which plan

private:
    enum class Section { other, products, terms };

    bool open() {
        ++depth_;
        if (depth_ >= keys_.size()) keys_.resize(depth_ * 2);
        keys_[depth_].clear();
        if (depth_ == 2) section_ = keys_[1] == "products" ? Section::products : keys_[1] == "terms" ? Section::terms : Section::other;
        if (depth_ == 3 && section_ == Section::terms) savings_plan_terms_ = keys_[2] == "savingsPlan";  // decided once per term list
        if (depth_ == 2 && section_ == Section::products) products_seen_ = true;
        return true;
    }
    bool close() {
        if (depth_ == 4 && section_ == Section::terms) term_product_ = nullptr;
        if (depth_ == 2) section_ = Section::other;
        --depth_;
        return true;
    }

    void product_attribute(const std::string& name, const std::string& value) {
        if (name == "instanceType") product_.instance = value;
        else if (name == "regionCode") product_.region = value;
        else if (name == "operatingSystem") product_.os = value;
        else if (name == "tenancy") product_.tenancy = value;
        else if (name == "preInstalledSw") product_.software = value;
        else if (name == "capacitystatus") product_.capacity = value;
        else if (name == "locationType") product_.location_type = value;
        else if (name == "instanceFamily") product_.instance_family = value;
        else if (name == "gpu") product_.gpu = value;
        else if (name == "marketoption") product_.market = value;
        else if (name == "purchaseOption") product_.purchase_option = value;
        else if (name == "purchaseTerm") product_.purchase_term = value;
    }

    // Keeps a product that is a Linux, shared-tenancy, no-pre-installed-software, "Used"
    // capacity instance of a catalog type in an AWS Region (not a Local Zone).
    void finish_product() {
        ++stats.products;
        const Product& p = product_;
        if (p.family == "ComputeSavingsPlans" || p.family == "EC2InstanceSavingsPlans") {
            header.offer_code = "AWSSavingsPlans";
            const std::string term = p.purchase_term == "1yr" ? "1y" : p.purchase_term == "3yr" ? "3y" : "";
            const std::string payment = payment_key(p.purchase_option);
            if (term.empty() || payment.empty()) {
                warnings.push_back(file_ + ": Savings Plan SKU " + p.sku + ": purchaseTerm \"" + p.purchase_term + "\", purchaseOption \"" +
                                   p.purchase_option + "\" not understood (expected 1yr/3yr and No/Partial/All Upfront); skipped");
                return;
            }
            plans_[p.sku] = {p.family == "ComputeSavingsPlans" ? "compute-savings-plan" : "instance-savings-plan", term, payment};
            return;
        }
        if (p.instance.empty() || p.family.rfind("Compute Instance", 0) != 0) return;
        if (p.os != "Linux" || p.tenancy != "Shared" || p.software != "NA") return;
        if (!p.capacity.empty() && p.capacity != "Used") return;
        if (!p.location_type.empty() && p.location_type != "AWS Region") return;
        // Capacity Blocks are separate SKUs (marketoption "CapacityBlock", a $0 Linux fee: the
        // block's own price is quoted per offering, not in the price list).
        if (!p.market.empty() && p.market != "OnDemand") return;
        if (!types_.count(p.instance)) {
            const bool accelerated = p.instance_family == "GPU instance" || p.instance_family == "Machine Learning ASIC Instances" ||
                                     (!p.gpu.empty() && p.gpu != "0");
            if (accelerated) accelerated_not_in_catalog.insert(p.instance);
            return;
        }
        if (p.region.empty()) {
            warnings.push_back(file_ + ": SKU " + p.sku + " (" + p.instance + "): no regionCode attribute; skipped");
            return;
        }
        if (!regions_.count(p.region)) {
            if (unknown_regions_.insert(p.region).second)
                warnings.push_back(file_ + ": SKU " + p.sku + ": regionCode \"" + p.region +
                                   "\" is not a region gpuplan knows; its rows are skipped (regions: gpuplan catalog --help)");
            return;
        }
        kept_[p.sku] = {p.instance, p.region};
        ++stats.products_kept;
        header.regions.insert(p.region);
    }

    std::string term_path(const Dimension& d) const {
        return file_ + ": SKU " + keys_[3] + ": $.terms." + keys_[2] + "." + keys_[3] + "." + term_.code + ".priceDimensions." + d.rate_code +
               ".pricePerUnit.USD";
    }

    // A price as the file writes it (a string), checked: a number, from 0 to `absurd`.
    double usd(const std::string& text, double absurd, bool upfront, const std::string& where) const {
        const char* begin = text.c_str();
        char* end = nullptr;
        const double v = std::strtod(begin, &end);
        if (text.empty() || end != begin + text.size() || v != v)
            throw InputError(where, "\"" + text.substr(0, 40) + "\"", "a price in USD written as a number, such as \"98.32\"");
        if (v < 0 || v > absurd)
            throw InputError(where, "\"" + text + "\"",
                             "a price from 0 to " + std::to_string(static_cast<long long>(absurd)) + " USD (" + (upfront ? "upfront" : "per hour") +
                                 "): a corrupt file otherwise");
        return v;
    }
    double usd(const Dimension& d, double absurd) const { return usd(d.usd, absurd, d.unit == "Quantity", term_path(d)); }

    void finish_term() {
        const auto& [sku, product] = *term_product_;
        ImportedPrice row;
        row.instance = product.instance;
        row.region = product.region;
        row.sku = sku;
        row.file = file_;
        const bool on_demand = keys_[2] == "OnDemand";
        if (!on_demand && keys_[2] != "Reserved") return;  // other term types (none today) are not read
        if (on_demand) {
            row.option = std::string(to_string(PriceKind::on_demand));
            for (const Dimension& d : term_.dimensions)
                if (d.unit == "Hrs") row.usd_per_hour = usd(d, kAbsurdUsdPerHour);
            if (row.usd_per_hour == 0) return;  // AWS lists $0 rows for capacity it does not sell this way
        } else {
            if (term_.offering_class != "standard") {
                ++stats.convertible_skipped;
                return;
            }
            const std::string lease = term_.lease == "1yr" ? "1y" : term_.lease == "3yr" ? "3y" : "";
            const std::string payment = term_.purchase_option == "No Upfront"        ? "no-upfront"
                                        : term_.purchase_option == "Partial Upfront" ? "partial-upfront"
                                        : term_.purchase_option == "All Upfront"     ? "all-upfront"
                                                                                     : "";
            if (lease.empty() || payment.empty()) {
                warnings.push_back(file_ + ": SKU " + sku + " term " + term_.code + ": LeaseContractLength \"" + term_.lease +
                                   "\", PurchaseOption \"" + term_.purchase_option + "\" not understood (expected 1yr/3yr and No/Partial/All Upfront); skipped");
                return;
            }
            row.option = "reserved-" + lease + "-" + payment;
            for (const Dimension& d : term_.dimensions) {
                if (d.unit == "Quantity") row.upfront_usd = usd(d, kAbsurdUpfrontUsd);
                if (d.unit == "Hrs") row.usd_per_hour = usd(d, kAbsurdUsdPerHour);
            }
            const bool consistent = (row.upfront_usd > 0 || row.usd_per_hour > 0) && (payment != "no-upfront" || row.upfront_usd == 0) &&
                                    (payment != "all-upfront" || row.usd_per_hour == 0);
            if (!consistent) {
                warnings.push_back(file_ + ": SKU " + sku + " term " + term_.code + ": " + term_.purchase_option + " with " +
                                   rate(row.upfront_usd) + " upfront and " + rate(row.usd_per_hour) +
                                   "/h does not add up (no upfront pays nothing upfront, all upfront nothing hourly); skipped");
                return;
            }
        }
        rows.push_back(std::move(row));
    }

    // A Savings Plans rate for Linux (RunInstances) on shared tenancy (BoxUsage) of a catalog type.
    void keep_plan_rate() {
        PlanRate& r = plan_rate_;
        if (r.operation != "RunInstances" || (!r.service.empty() && r.service != "AmazonEC2")) return;
        const auto box = r.usage_type.find("BoxUsage:");
        if (box == std::string::npos) return;
        if (r.instance.empty()) r.instance = r.usage_type.substr(box + 9);
        if (types_.count(r.instance)) plan_term_.rates.push_back(std::move(r));
    }

    // A Savings Plan's rate is the effective hourly price of a covered instance-hour; how it is
    // paid follows the plan: all upfront (rate x term hours at purchase), no upfront (the rate
    // every hour), partial (AWS: at least half upfront; half is taken, and said).
    void finish_plan_term() {
        header.offer_code = "AWSSavingsPlans";
        if (plan_term_.rates.empty()) return;
        const auto plan = plans_.find(plan_term_.plan_sku);
        if (plan == plans_.end()) {
            if (products_seen_)
                warnings.push_back(file_ + ": Savings Plans term for SKU " + plan_term_.plan_sku + " has no product in the file; skipped");
            return;
        }
        const double term_hours = (plan->second.term == "1y" ? 1 : 3) * kHoursPerYear;
        for (const PlanRate& r : plan_term_.rates) {
            const std::string region = r.region.empty() ? file_region_ : r.region;
            if (!regions_.count(region)) continue;  // a Local Zone or a region gpuplan does not know
            const std::string where = file_ + ": SKU " + plan_term_.plan_sku + ": rate " + r.rate_code + ": discountedRate.";
            // AWS writes every Savings Plans rate with its currency; one in EUR (the plans sold
            // by AWS EMEA) read as USD would be a wrong price, not a converted one (issue 34).
            if (!r.currency.empty() && r.currency != "USD")
                throw InputError(where + "currency", "\"" + r.currency.substr(0, 40) + "\"",
                                 "\"USD\": gpuplan's prices are in US dollars and it converts no currency (download the USD offer file)");
            const double price = usd(r.price, kAbsurdUsdPerHour, false, where + "price");
            ImportedPrice row;
            row.instance = r.instance;
            row.region = region;
            row.sku = plan_term_.plan_sku;
            row.file = file_;
            row.option = plan->second.kind + "-" + plan->second.term + "-" + plan->second.payment;
            const std::string& pay = plan->second.payment;
            row.upfront_usd = pay == "all-upfront" ? price * term_hours : pay == "partial-upfront" ? 0.5 * price * term_hours : 0;
            row.usd_per_hour = pay == "all-upfront" ? 0 : pay == "partial-upfront" ? 0.5 * price : price;
            row.note = "AWS Savings Plans rate " + rate(price) + "/h, plan SKU " + plan_term_.plan_sku + ", Linux shared tenancy" +
                       (pay == "partial-upfront" ? "; partial upfront split half upfront, half hourly (AWS: at least half upfront)" : "");
            rows.push_back(std::move(row));
            header.regions.insert(region);
        }
    }

    const std::string& file_;
    const std::set<std::string>& types_;
    const std::set<std::string>& regions_;
    std::vector<std::string> keys_;  // keys_[d]: the current key in the object at depth d (1 = the root)
    std::size_t depth_ = 0;
    Section section_ = Section::other;
    Product product_;
    const std::pair<const std::string, KeptProduct>* term_product_ = nullptr;
    OfferTerm term_;
    Dimension dimension_;
    PlanTerm plan_term_;
    PlanRate plan_rate_;
    std::string file_region_;
    bool savings_plan_terms_ = false;  // inside terms.savingsPlan (else OnDemand / Reserved)
    std::set<std::string> unknown_regions_;
};

// Counts the bytes the parser reads, for the import's statistics.
class CountingBuffer : public std::streambuf {
public:
    explicit CountingBuffer(std::streambuf* source) : source_(source), buffer_(1 << 16) {}
    std::uint64_t bytes() const { return bytes_; }

protected:
    int_type underflow() override {
        const std::streamsize n = source_->sgetn(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
        if (n <= 0) return traits_type::eof();
        bytes_ += static_cast<std::uint64_t>(n);
        setg(buffer_.data(), buffer_.data(), buffer_.data() + n);
        return traits_type::to_int_type(buffer_[0]);
    }

private:
    std::streambuf* source_;
    std::vector<char> buffer_;
    std::uint64_t bytes_ = 0;
};

}  // namespace

std::string offer_source_key(const OfferHeader& offer) {
    std::string k = offer.offer_code == "AWSSavingsPlans" ? "AWS-SAVINGS-PLANS" : "AWS-PRICE-LIST";
    if (offer.regions.size() == 1) k += "-" + *offer.regions.begin();
    return k + "-" + offer.version;
}

PriceListImport::PriceListImport(std::set<std::string> instance_types, std::set<std::string> known_regions)
    : instance_types_(std::move(instance_types)), known_regions_(std::move(known_regions)) {}

void PriceListImport::add_offer_file(std::istream& in, const std::string& file_name) {
    OfferSax sax(file_name, instance_types_, known_regions_);
    CountingBuffer counting(in.rdbuf());
    std::istream counted(&counting);
    nlohmann::json::sax_parse(counted, &sax);
    if (sax.terms_before_products && sax.products_seen_) {
        // Terms came first, when no product was known yet: read the file again for its terms.
        in.clear();
        if (!in.seekg(0)) throw InputError(file_name, "terms before products in a stream that cannot be read twice", "a file (not a pipe)");
        OfferSax terms(file_name, instance_types_, known_regions_);
        terms.header = sax.header;
        terms.kept_ = std::move(sax.kept_);
        terms.plans_ = std::move(sax.plans_);
        terms.products_seen_ = terms.skip_products = true;
        CountingBuffer again(in.rdbuf());
        std::istream counted_again(&again);
        nlohmann::json::sax_parse(counted_again, &terms);
        sax.rows = std::move(terms.rows);
        sax.header = terms.header;
        for (auto& w : terms.warnings) sax.warnings.push_back(std::move(w));
        sax.stats.convertible_skipped = terms.stats.convertible_skipped;
    }
    if (sax.header.offer_code.empty())
        throw InputError(file_name + ": $.offerCode", "nothing (key missing)",
                         "\"AmazonEC2\": an EC2 offer file from the AWS Price List Bulk API (offers/v1.0/aws/AmazonEC2/.../index.json), "
                         "or a Savings Plans price-list file (savingsPlan/v1.0/aws/AWSComputeSavingsPlan/.../index.json)");
    if (!sax.products_seen_) throw InputError(file_name + ": $.products", "nothing (key missing)", "the offer file's products");
    const std::string& date = sax.header.publication_date;
    if (!utc_seconds(date) && !(date.size() > 10 && date_days(date.substr(0, 10))))  // calendar.hpp: the day must exist
        throw InputError(file_name + ": $.publicationDate", "\"" + date + "\"", "the offer's publication date, such as \"2026-07-01T00:00:00Z\"");
    if (sax.header.version.empty()) throw InputError(file_name + ": $.version", "nothing (key missing)", "the offer file's version");

    // The whole file read without error: now its rows join the import.
    sax.header.file = file_name;
    const std::size_t offer = offers_.size();
    offers_.push_back(sax.header);
    for (auto& w : sax.warnings) warnings_.push_back(std::move(w));
    if (!sax.accelerated_not_in_catalog.empty()) {
        std::string names;
        for (const auto& n : sax.accelerated_not_in_catalog) names += (names.empty() ? "" : ", ") + n;
        const bool one = sax.accelerated_not_in_catalog.size() == 1;
        warnings_.push_back(file_name + ": " + std::to_string(sax.accelerated_not_in_catalog.size()) + " accelerated instance type" +
                            (one ? " is" : "s are") + " not in the catalog, so skipped: " + names +
                            " (add " + (one ? "it" : "them") + " in a --catalog file to import " + (one ? "its" : "their") + " prices)");
    }
    for (ImportedPrice& row : sax.rows) {
        row.offer = offer;
        auto [it, added] = prices_.try_emplace({row.instance, row.region, row.option}, row);
        if (added) continue;
        const ImportedPrice& old = it->second;
        if (old.usd_per_hour != row.usd_per_hour || old.upfront_usd != row.upfront_usd)
            warnings_.push_back(row.instance + " " + row.region + " " + row.option + ": " + old.file + " (SKU " + old.sku + ") gives " +
                                rate(old.usd_per_hour) + "/h + " + rate(old.upfront_usd) + " upfront, " + row.file + " (SKU " +
                                row.sku + ") " + rate(row.usd_per_hour) + "/h + " + rate(row.upfront_usd) +
                                " upfront; the later file's is kept");
        it->second = row;
    }
    stats_.bytes += counting.bytes();
    stats_.products += sax.stats.products;
    stats_.products_kept += sax.stats.products_kept;
    stats_.convertible_skipped += sax.stats.convertible_skipped;
}

nlohmann::json PriceListImport::overlay() const {
    nlohmann::json sources = nlohmann::json::object();
    for (const OfferHeader& o : offers_) {
        std::string regions;
        for (const auto& r : o.regions) regions += (regions.empty() ? "" : ", ") + r;
        sources[offer_source_key(o)] = {
            {"title", "AWS Price List Bulk API, " + o.offer_code + " offer file version " + o.version + ", published " + o.publication_date +
                          (regions.empty() ? "" : ", for " + regions) + " (imported by gpuplan prices import from " + o.file + ")"},
            {"url", nullptr}};
    }
    nlohmann::json prices = nlohmann::json::array();
    for (const auto& [k, p] : prices_) {
        const OfferHeader& o = offers_[p.offer];
        nlohmann::json entry = {{"instance", p.instance}, {"region", p.region}, {"option", p.option}, {"usd_per_hour", p.usd_per_hour}};
        if (p.option != to_string(PriceKind::on_demand)) entry["upfront_usd"] = p.upfront_usd;
        entry["as_of"] = o.publication_date.substr(0, 10);
        entry["source"] = offer_source_key(o);
        entry["note"] = p.note.empty() ? "AWS price list SKU " + p.sku + " (Linux, shared tenancy, no pre-installed software)" : p.note;
        prices.push_back(std::move(entry));
    }
    return {{"schema", "gpuplan.catalog/1"}, {"sources", std::move(sources)}, {"prices", std::move(prices)}};
}

}  // namespace gpuplan
