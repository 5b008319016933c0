// AWS price-list import (pricing/price_list_import.hpp) and price overlays in the catalog: an
// offer file built here in AWS's layout, its overlay, and the commitment prices `price` then
// quotes, checked against hand-computed figures.
#include <catch2/catch.hpp>

#include <sstream>

#include "fixtures.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/pricing/price_list_import.hpp"
#include "gpuplan/pricing/purchase_options.hpp"

using namespace gpuplan;
using nlohmann::json;

namespace {

json offer_product(const std::string& sku, const std::string& type, const std::string& os = "Linux") {
    return {{"sku", sku},
            {"productFamily", "Compute Instance"},
            {"attributes",
             {{"instanceType", type}, {"regionCode", "eu-west-2"}, {"operatingSystem", os}, {"tenancy", "Shared"}, {"preInstalledSw", "NA"},
              {"capacitystatus", "Used"}, {"locationType", "AWS Region"}, {"marketoption", "OnDemand"}, {"instanceFamily", "GPU instance"}}}};
}

json offer_term(const std::string& sku, const std::string& code, const std::string& hourly, const std::string& upfront, json attributes) {
    json dims = {{sku + "." + code + ".H", {{"unit", "Hrs"}, {"pricePerUnit", {{"USD", hourly}}}}}};
    if (!upfront.empty()) dims[sku + "." + code + ".Q"] = {{"unit", "Quantity"}, {"pricePerUnit", {{"USD", upfront}}}};
    return {{sku + "." + code, {{"offerTermCode", code}, {"sku", sku}, {"priceDimensions", dims}, {"termAttributes", attributes}}}};
}

json reserved_attributes(const char* lease, const char* cls, const char* payment) {
    return {{"LeaseContractLength", lease}, {"OfferingClass", cls}, {"PurchaseOption", payment}};
}

// p5.48xlarge in eu-west-2: on-demand 71.552; Standard 1-year all upfront 330,000; 3-year
// partial upfront 420,000 + 16/h; a Convertible 1-year no upfront (skipped); a Windows SKU.
json offer_document() {
    json reserved = offer_term("P5", "A1", "0.0000000000", "330000", reserved_attributes("1yr", "standard", "All Upfront"));
    reserved.update(offer_term("P5", "P3", "16.0000000000", "420000", reserved_attributes("3yr", "standard", "Partial Upfront")));
    reserved.update(offer_term("P5", "C1", "50.1", "", reserved_attributes("1yr", "convertible", "No Upfront")));
    return {{"formatVersion", "v1.0"},
            {"offerCode", "AmazonEC2"},
            {"version", "20260701000000"},
            {"publicationDate", "2026-07-01T00:00:00Z"},
            {"products", {{"P5", offer_product("P5", "p5.48xlarge")}, {"WIN", offer_product("WIN", "p5.48xlarge", "Windows")}}},
            {"terms",
             {{"OnDemand", {{"P5", offer_term("P5", "OD", "71.5520000000", "", json::object())},
                            {"WIN", offer_term("WIN", "OD", "80.0", "", json::object())}}},
              {"Reserved", {{"P5", reserved}}}}}};
}

PriceListImport importer() {
    std::set<std::string> types, regions;
    for (const auto& i : test::builtin_catalog().instances) types.insert(i.name);
    for (const auto& r : test::builtin_catalog().regions()) regions.insert(r);
    return PriceListImport(types, regions);
}

void add(PriceListImport& import, const json& doc, const std::string& name) {
    std::istringstream in(doc.dump());
    import.add_offer_file(in, name);
}

Catalog with_overlay(const json& overlay) {
    std::vector<CatalogDocument> docs = builtin_catalog_documents();
    docs.push_back({"overlay.json", overlay.dump()});
    return load_catalog(docs);
}

const Quote& quote_for(const std::vector<Quote>& quotes, const std::string& key) {
    for (const auto& q : quotes)
        if (q.key == key) return q;
    FAIL("no quote " << key);
    return quotes.front();
}

}  // namespace

TEST_CASE("price import: an EC2 offer file becomes an overlay of on-demand and Standard RI prices") {
    PriceListImport import = importer();
    add(import, offer_document(), "eu-west-2.json");
    CHECK(import.stats().products == 2);
    CHECK(import.stats().products_kept == 1);
    CHECK(import.stats().convertible_skipped == 1);
    const json overlay = import.overlay();
    REQUIRE(overlay["prices"].size() == 3);
    const json& od = overlay["prices"][0];
    CHECK(od["option"] == "on-demand");
    CHECK(od["usd_per_hour"] == 71.552);
    CHECK(od["as_of"] == "2026-07-01");
    CHECK(od["source"] == "AWS-PRICE-LIST-eu-west-2-20260701000000");
    CHECK(overlay["sources"].contains("AWS-PRICE-LIST-eu-west-2-20260701000000"));
    CHECK(overlay["prices"][1]["option"] == "reserved-1y-all-upfront");
    CHECK(overlay["prices"][1]["upfront_usd"] == 330000.0);
    CHECK(overlay["prices"][2]["option"] == "reserved-3y-partial-upfront");
    CHECK(overlay["prices"][2]["usd_per_hour"] == 16.0);
}

TEST_CASE("price import: the overlay's commitments are priced over their whole term") {
    PriceListImport import = importer();
    add(import, offer_document(), "eu-west-2.json");
    const Catalog catalog = with_overlay(import.overlay());
    QuoteRequest request;
    request.instance = "p5.48xlarge";
    request.region = "eu-west-2";
    request.hours = 106;
    const auto quotes = quote_purchase_options(catalog, request);

    // 1-year all upfront: 330,000 / 8,760 h = 37.671233 $/h; 106 h are billed as the whole term.
    const Quote& all_1y = quote_for(quotes, "reserved-1y-all-upfront");
    CHECK(*all_1y.effective_usd_per_hour.value == Approx(330000.0 / 8760).epsilon(1e-12));
    CHECK(!all_1y.effective_usd_per_hour.rests_on_assumption());
    CHECK(*all_1y.cost_usd.value == Approx(330000.0));
    CHECK(*all_1y.attributable_cost_usd->value == Approx(330000.0 / 8760 * 106));
    CHECK(*all_1y.break_even_utilization->value == Approx(330000.0 / 8760 / 71.552));

    // 3-year partial upfront: 16 + 420,000 / 26,280 = 31.981735 $/h; cost = 16 x 26,280 + 420,000.
    const Quote& partial_3y = quote_for(quotes, "reserved-3y-partial-upfront");
    CHECK(*partial_3y.effective_usd_per_hour.value == Approx(16 + 420000.0 / 26280).epsilon(1e-12));
    CHECK(*partial_3y.upfront_usd.value == 420000.0);
    CHECK(*partial_3y.cost_usd.value == Approx(16 * 26280.0 + 420000));

    // Not in the file: still the assumed discount, and marked as such.
    CHECK(quote_for(quotes, "reserved-1y-partial-upfront").effective_usd_per_hour.rests_on_assumption());

    // Cumulative cost renews the 1-year term at month 12: two upfronts by month 13.
    CHECK(cumulative_cost_usd(all_1y.option, 330000, 0, 730, 13, 1) == Approx(660000.0));
    CHECK(cumulative_cost_usd(all_1y.option, 330000, 0, 730, 12, 1) == Approx(330000.0));
}

TEST_CASE("price import: offer files terms-first are read twice, with the same result") {
    json doc = offer_document();
    std::string text = "{\"offerCode\":\"AmazonEC2\",\"version\":\"20260701000000\",\"publicationDate\":\"2026-07-01T00:00:00Z\",\"terms\":" +
                       doc["terms"].dump() + ",\"products\":" + doc["products"].dump() + "}";
    PriceListImport first = importer(), second = importer();
    add(first, doc, "a.json");
    std::istringstream in(text);
    second.add_offer_file(in, "b.json");
    CHECK(second.overlay()["prices"] == first.overlay()["prices"]);
}

TEST_CASE("price import: bad files are refused whole, naming file, SKU and field") {
    PriceListImport import = importer();
    const auto refused = [&](json doc, const std::string& needle) {
        std::istringstream in(doc.is_string() ? doc.get<std::string>() : doc.dump());
        try {
            import.add_offer_file(in, "bad.json");
            FAIL("accepted a bad offer file; expected an error with " << needle);
        } catch (const InputError& e) {
            INFO(e.what());
            CHECK(std::string(e.what()).find("bad.json") != std::string::npos);
            CHECK(std::string(e.what()).find(needle) != std::string::npos);
        }
    };
    json other = offer_document();
    other["offerCode"] = "AmazonS3";
    refused(other, "AmazonEC2");
    refused(json(offer_document().dump().substr(0, 300)), "truncated");
    json text_price = offer_document();
    text_price["terms"]["OnDemand"]["P5"]["P5.OD"]["priceDimensions"]["P5.OD.H"]["pricePerUnit"]["USD"] = "abc";
    refused(text_price, "SKU P5");
    json negative = offer_document();
    negative["terms"]["Reserved"]["P5"]["P5.A1"]["priceDimensions"]["P5.A1.Q"]["pricePerUnit"]["USD"] = "-5";
    refused(negative, "\"-5\"");
    json absurd = offer_document();
    absurd["terms"]["OnDemand"]["P5"]["P5.OD"]["priceDimensions"]["P5.OD.H"]["pricePerUnit"]["USD"] = "71552000";
    refused(absurd, "pricePerUnit.USD");
    // Nothing of the refused files was kept.
    CHECK(import.price_count() == 0);
    CHECK(import.offers().empty());
}

TEST_CASE("price import: an unknown region is skipped with a warning; two files that disagree warn") {
    PriceListImport import = importer();
    json elsewhere = offer_document();
    elsewhere["products"]["P5"]["attributes"]["regionCode"] = "eu-north-9";
    add(import, elsewhere, "north.json");
    CHECK(import.price_count() == 0);
    REQUIRE(import.warnings().size() == 1);
    CHECK(import.warnings()[0].find("\"eu-north-9\"") != std::string::npos);

    add(import, offer_document(), "july.json");
    json august = offer_document();
    august["version"] = "20260801000000";
    august["terms"]["OnDemand"]["P5"]["P5.OD"]["priceDimensions"]["P5.OD.H"]["pricePerUnit"]["USD"] = "70.00";
    add(import, august, "august.json");
    CHECK(import.warnings().back().find("july.json") != std::string::npos);
    CHECK(import.warnings().back().find("august.json") != std::string::npos);
    CHECK(import.overlay()["prices"][0]["usd_per_hour"] == 70.0);
}

TEST_CASE("price overlay: loading checks entries and lists what each overlay changed") {
    json overlay = {{"schema", "gpuplan.catalog/1"},
                    {"sources", {{"MINE", {{"title", "my quote"}, {"url", nullptr}}}}},
                    {"prices", json::array({{{"instance", "g6.xlarge"}, {"region", "us-east-1"}, {"option", "on_demand"}, {"usd_per_hour", 0.75},
                                             {"as_of", "2026-11-01"}, {"source", "MINE"}},
                                            {{"instance", "g6.xlarge"}, {"region", "us-east-1"}, {"option", "reserved-3y-all-upfront"},
                                             {"upfront_usd", 9000}, {"usd_per_hour", 0}, {"as_of", "2026-11-01"}, {"source", "MINE"}}})}};
    const Catalog catalog = with_overlay(overlay);
    const Instance* g6 = catalog.find_instance("g6.xlarge");
    CHECK(*g6->find_price("us-east-1", PriceKind::on_demand)->usd_per_hour == 0.75);
    const CommitmentPrice* c = g6->find_commitment_price("us-east-1", *purchase_option_named("reserved-3y-all-upfront"));
    REQUIRE(c);
    CHECK(c->effective_usd_per_hour() == Approx(9000.0 / 26280));
    bool listed = false;
    for (const auto& o : catalog.overrides) listed = listed || o.find("g6.xlarge us-east-1 on-demand: $0.8048") != std::string::npos;
    CHECK(listed);

    const auto refused = [](json doc, const std::string& needle) {
        try {
            with_overlay(doc);
            FAIL("accepted a bad overlay; expected " << needle);
        } catch (const InputError& e) {
            INFO(e.what());
            CHECK(std::string(e.what()).find(needle) != std::string::npos);
        }
    };
    json unknown_type = overlay;
    unknown_type["prices"][0]["instance"] = "zz9.huge";
    refused(unknown_type, "$.prices[0].instance");
    json hourly_all_upfront = overlay;
    hourly_all_upfront["prices"][1]["usd_per_hour"] = 1.5;
    refused(hourly_all_upfront, "0 for an all-upfront commitment");
    json no_payment = overlay;
    no_payment["prices"][1]["option"] = "reserved-3y";
    refused(no_payment, "a commitment with its term and payment");
    json bad_source = overlay;
    bad_source["prices"][1]["source"] = "NOPE";
    refused(bad_source, "source \"NOPE\"");

    // A second overlay that disagrees with the first: the later wins, and says so.
    json second = overlay;
    second["prices"][1]["upfront_usd"] = 9500;
    std::vector<CatalogDocument> docs = builtin_catalog_documents();
    docs.push_back({"first.json", overlay.dump()});
    docs.push_back({"second.json", second.dump()});
    const Catalog both = load_catalog(docs);
    CHECK(both.find_instance("g6.xlarge")->find_commitment_price("us-east-1", *purchase_option_named("reserved-3y-all-upfront"))->upfront_usd ==
          9500);
    CHECK(both.overrides.back().find("first.json) replaced by upfront $9,500.0000") != std::string::npos);
}

TEST_CASE("price import: a Savings Plans file gives Compute and EC2 Instance Savings Plan prices") {
    const auto plan = [](const char* sku, const char* family, const char* term, const char* payment) {
        return json{{"sku", sku}, {"productFamily", family}, {"attributes", {{"purchaseTerm", term}, {"purchaseOption", payment}}}};
    };
    const auto rate = [](const char* usage, const char* operation, const char* price) {
        return json{{"discountedUsageType", usage}, {"discountedOperation", operation}, {"discountedServiceCode", "AmazonEC2"},
                    {"rateCode", std::string("R.") + usage}, {"discountedRate", {{"price", price}, {"currency", "USD"}}}};
    };
    json doc = {{"version", "20260701000000"}, {"publicationDate", "2026-07-01T00:00:00Z"}, {"regionCode", "eu-west-2"},
                {"products", json::array({plan("C1", "ComputeSavingsPlans", "1yr", "No Upfront"),
                                          plan("I3", "EC2InstanceSavingsPlans", "3yr", "Partial Upfront")})},
                {"terms", {{"savingsPlan", json::array({{{"sku", "C1"}, {"rates", json::array({rate("EUW2-BoxUsage:p5.48xlarge", "RunInstances", "51.5"),
                                                                                                 rate("EUW2-BoxUsage:p5.48xlarge", "RunInstances:0002", "60")})}},
                                                        {{"rates", json::array({rate("EUW2-BoxUsage:p5.48xlarge", "RunInstances", "30")})}, {"sku", "I3"}}})}}}};
    PriceListImport import = importer();
    add(import, doc, "sp.json");
    const json overlay = import.overlay();
    REQUIRE(overlay["prices"].size() == 2);  // the Windows rate (RunInstances:0002) is not kept
    CHECK(overlay["prices"][0]["option"] == "compute-savings-plan-1y-no-upfront");
    CHECK(overlay["prices"][0]["usd_per_hour"] == 51.5);
    CHECK(overlay["prices"][0]["source"] == "AWS-SAVINGS-PLANS-eu-west-2-20260701000000");
    // 3-year partial upfront at $30/h: half upfront, 0.5 x 30 x 26,280 = 394,200, and $15/h.
    CHECK(overlay["prices"][1]["option"] == "instance-savings-plan-3y-partial-upfront");
    CHECK(overlay["prices"][1]["upfront_usd"].get<double>() == Approx(394200));
    CHECK(overlay["prices"][1]["usd_per_hour"].get<double>() == Approx(15));
    const Catalog catalog = with_overlay(overlay);
    QuoteRequest request;
    request.instance = "p5.48xlarge";
    request.region = "eu-west-2";
    const auto quotes = quote_purchase_options(catalog, request);
    CHECK(*quote_for(quotes, "instance-savings-plan-3y-partial-upfront").effective_usd_per_hour.value == Approx(30));

    // A rate that is not a number names the plan SKU and rate.
    json bad = doc;
    bad["terms"]["savingsPlan"][0]["rates"][0]["discountedRate"]["price"] = "cheap";
    PriceListImport other = importer();
    std::istringstream in(bad.dump());
    try {
        other.add_offer_file(in, "sp.json");
        FAIL("accepted a rate that is not a number");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()).find("sp.json: SKU C1: rate R.EUW2-BoxUsage:p5.48xlarge") != std::string::npos);
    }
}
