// The built-in catalog: every reference row is there, unknowns carry reasons, and derived
// metrics follow from the facts (expected values worked by hand from the reference CSV).
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include <cmath>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/catalog/catalog_metrics.hpp"
#include "gpuplan/catalog/region_names.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/json_reader.hpp"
#include "gpuplan/pricing/purchase_options.hpp"

using namespace gpuplan;

TEST_CASE("built-in catalog holds every reference row", "[catalog]") {
    const Catalog c = load_builtin_catalog();
    // shared/reference: aws-gpu-instances.csv has 67 rows, accelerators.csv 17; the project's own
    // sheets (assets/catalog/additions/) add 23 instance types and 6 accelerators.
    CHECK(c.instances.size() == 67 + 23);
    CHECK(c.accelerators.size() == 17 + 7);
    CHECK(c.overrides.empty());
    for (const char* name : {"p3.2xlarge", "p4d.24xlarge", "p5.48xlarge", "p5en.48xlarge", "p6-b200.48xlarge", "p6e-gb200.36xlarge",
                             "g4dn.xlarge", "g5.48xlarge", "g6.2xlarge", "g6e.xlarge", "g6f.large", "gr6f.4xlarge", "g7e.48xlarge",
                             "inf2.48xlarge", "trn1n.32xlarge", "trn2.48xlarge", "trn2u.48xlarge", "inf1.24xlarge", "g5g.metal",
                             "g4ad.16xlarge", "dl1.24xlarge", "dl2q.24xlarge", "g7.2xlarge", "g7.48xlarge"})
        CHECK(c.find_instance(name) != nullptr);
}

TEST_CASE("the added families keep their kinds, gaps and regions", "[catalog]") {
    const Catalog c = load_builtin_catalog();
    CHECK(c.find_accelerator("Gaudi HL-205")->kind == AcceleratorKind::asic);
    CHECK(c.find_accelerator("Qualcomm Cloud AI 100 Standard")->kind == AcceleratorKind::asic);
    CHECK(c.find_accelerator("Inferentia")->kind == AcceleratorKind::inferentia);
    // An AMD GPU has no CUDA compute capability: unknown, with the reason.
    const Accelerator& v520 = *c.find_accelerator("Radeon Pro V520");
    CHECK(v520.kind == AcceleratorKind::gpu);
    CHECK_FALSE(v520.compute_capability);
    CHECK(v520.unknown.at("compute_capability").rfind("n/a: ", 0) == 0);
    // dl2q is not offered in us-east-1: no entry there at all, and priced where it is.
    const Instance& dl2q = *c.find_instance("dl2q.24xlarge");
    CHECK_FALSE(dl2q.offered_in("us-east-1"));
    CHECK(dl2q.offered_regions() == std::vector<std::string>{"eu-central-1", "us-west-2"});
    CHECK(*dl2q.find_price("us-west-2", PriceKind::on_demand)->usd_per_hour == 8.9194);
    // G7: AWS's us-east-1 price list, no spot price yet (newer than the snapshots).
    const Instance& g7 = *c.find_instance("g7.2xlarge");
    CHECK(*g7.find_price("us-east-1", PriceKind::on_demand)->usd_per_hour == 2.52);
    CHECK_FALSE(g7.find_price("us-east-1", PriceKind::spot_typical)->usd_per_hour);
    CHECK(g7.null_price_reason("us-east-1", PriceKind::spot_typical).find("newer than the SkyPilot") != std::string::npos);
    // dl1: the chips' link is not established; said so rather than guessed.
    CHECK_FALSE(c.find_instance("dl1.24xlarge")->interconnect);
}

TEST_CASE("catalog facts keep their values, kinds and sources", "[catalog]") {
    const Catalog c = load_builtin_catalog();
    const Instance& p5 = *c.find_instance("p5.48xlarge");
    CHECK(p5.accelerator == "H100-SXM");
    CHECK(p5.accelerator_count == 8.0);
    CHECK(p5.efa_interfaces == 32.0);
    CHECK(p5.gpudirect_rdma == true);
    CHECK(p5.interconnect == Interconnect::nvswitch);
    const Price* od = p5.find_price("us-east-1", PriceKind::on_demand);
    REQUIRE(od);
    CHECK(od->usd_per_hour == 55.04);
    CHECK(od->as_of == "2026-07-20");
    CHECK(c.sources.count(od->source) == 1);

    CHECK(c.find_accelerator("Trainium2")->kind == AcceleratorKind::trainium);
    CHECK(c.find_accelerator("Inferentia2")->kind == AcceleratorKind::inferentia);
    CHECK(c.find_accelerator("Trainium2")->compute_capability == std::nullopt);
    CHECK(c.find_accelerator("L40S")->compute_capability == "sm_89");

    // g6e.2xlarge: AWS lists 1 L40S; a figure in circulation says 2. The catalog keeps AWS's
    // and records the claim as a correction.
    const Instance& g6e = *c.find_instance("g6e.2xlarge");
    CHECK(g6e.accelerator_count == 1.0);
    bool found = false;
    for (const auto& corr : g6e.corrections) found = found || (corr.field == "accelerator_count" && corr.claimed == "2");
    CHECK(found);
}

TEST_CASE("unknown figures are null with a reason", "[catalog]") {
    const Catalog c = load_builtin_catalog();
    std::size_t nulls = 0;
    for (const auto& i : c.instances) {
        for (std::size_t k = 0; k < i.prices.size(); ++k)
            if (!i.prices[k].usd_per_hour) {
                ++nulls;
                CHECK_FALSE(i.unknown_reason("prices[" + std::to_string(k) + "].usd_per_hour").empty());
            }
        if (!i.peer_gbit_per_s_per_accelerator) CHECK_FALSE(i.unknown_reason("peer_gbit_per_s_per_accelerator").empty());
    }
    CHECK(nulls > 0);
    const Instance& p5e = *c.find_instance("p5e.48xlarge");
    CHECK(p5e.find_price("us-east-1", PriceKind::on_demand)->usd_per_hour == std::nullopt);
    const Accelerator& a100 = *c.find_accelerator("A100-40GB");
    CHECK(a100.dense_tflops.fp8 == std::nullopt);
    CHECK(a100.unknown.at("dense_tflops.fp8").rfind("n/a", 0) == 0);
}

TEST_CASE("derived metrics per instance", "[catalog][metrics]") {
    const Catalog c = load_builtin_catalog();
    // p5.48xlarge: $55.04/h, 8 x H100 (80 GiB, 989.4 dense BF16 TFLOPS, 3350 GB/s).
    const InstanceMetrics m = instance_metrics(c, *c.find_instance("p5.48xlarge"), "us-east-1");
    CHECK(*m.usd_per_accelerator_hour.value == Approx(6.88).epsilon(1e-12));
    CHECK(*m.usd_per_accel_gib_hour.value == Approx(55.04 / 640).epsilon(1e-12));
    CHECK(*m.usd_per_dense_bf16_pflop_hour.value == Approx(55.04 / (8 * 0.9894)).epsilon(1e-12));
    CHECK(*m.usd_per_tb_per_s_hour.value == Approx(55.04 / (8 * 3.35)).epsilon(1e-12));
    CHECK(m.usd_per_dense_bf16_pflop_hour.inputs.size() == 3);

    // g6f.large: 1/8 of an L4 with 2.79 GiB for $0.202/h.
    const InstanceMetrics g6f = instance_metrics(c, *c.find_instance("g6f.large"), "us-east-1");
    CHECK(*g6f.usd_per_accelerator_hour.value == Approx(0.202 / 0.125).epsilon(1e-12));
    CHECK(*g6f.usd_per_accel_gib_hour.value == Approx(0.202 / 2.79).epsilon(1e-12));

    // Unknown inputs give unknown outputs, with the reason passed through.
    const InstanceMetrics p5e = instance_metrics(c, *c.find_instance("p5e.48xlarge"), "us-east-1");
    CHECK_FALSE(p5e.usd_per_accelerator_hour.value);
    CHECK(p5e.usd_per_accelerator_hour.unknown_reason.find("price") != std::string::npos);
    // Qualcomm Cloud AI 100 (dl2q): no BF16 figure published, so no $ per dense PFLOP/s-hour.
    const InstanceMetrics dl2q = instance_metrics(c, *c.find_instance("dl2q.24xlarge"), "us-west-2");
    CHECK_FALSE(dl2q.usd_per_dense_bf16_pflop_hour.value);
    CHECK(dl2q.usd_per_dense_bf16_pflop_hour.unknown_reason.find("FP16 and INT8 only") != std::string::npos);
    CHECK(dl2q.usd_per_tb_per_s_hour.value);
    // RTX PRO 4500 Server Edition (g7): 200 dense BF16 TFLOPS derived from NVIDIA's 1,600 sparse FP4
    // TOPS (82 SMs x 1,024 FLOP per clock x 2.382 GHz), so g7.2xlarge's $2.52/h buys 0.2 PFLOPS.
    const InstanceMetrics g7 = instance_metrics(c, *c.find_instance("g7.2xlarge"), "us-east-1");
    CHECK(*g7.usd_per_dense_bf16_pflop_hour.value == Approx(2.52 / 0.200).epsilon(1e-12));
    // RTX PRO 6000 Server Edition (g7e): 480 dense BF16 TFLOPS derived (a sheet correction: 188 SMs x
    // 1,024 FLOP per clock x 2.493 GHz), so g7e.2xlarge's $3.36312/h buys 0.48 PFLOPS.
    const InstanceMetrics g7e = instance_metrics(c, *c.find_instance("g7e.2xlarge"), "us-east-1");
    CHECK(*g7e.usd_per_dense_bf16_pflop_hour.value == Approx(3.36312 / 0.480).epsilon(1e-12));
    // A10G: 70 dense BF16 TFLOPS derived from its SMs and clock (a sheet correction, docs/catalog.md):
    // $1.006/h / 0.070 PFLOPS = $14.3714 per PFLOP/s-hour.
    const InstanceMetrics g5 = instance_metrics(c, *c.find_instance("g5.xlarge"), "us-east-1");
    CHECK(*g5.usd_per_dense_bf16_pflop_hour.value == Approx(1.006 / 0.070).epsilon(1e-12));
}

// The built-in catalog is read without the user-file checks at each start (CatalogDocument::
// built_in): they are applied here instead, to every built-in document, so a key given twice
// or an oversized value in assets/catalog/ fails this test rather than loading silently.
TEST_CASE("every built-in catalog document passes the checks a user's file gets", "[catalog][limits]") {
    const std::vector<CatalogDocument>& docs = builtin_catalog_documents();
    REQUIRE(docs.size() >= 3);
    for (const CatalogDocument& doc : docs) {
        INFO(doc.origin);
        CHECK(doc.built_in);
        CHECK_NOTHROW(parse_json_document(doc.text, doc.origin));
    }
    // The same text given as a user's file is checked: a key given twice is refused.
    CatalogDocument user = docs.front();
    user.built_in = false;
    const std::size_t schema = user.text.find("\"schema\"");
    REQUIRE(schema != std::string::npos);
    user.text.insert(schema, "\"schema\": \"gpuplan.catalog/1\", ");
    CHECK_THROWS_WITH(load_catalog({user}), Catch::Contains("given twice"));
}

TEST_CASE("a user's catalog file extends and overrides the built-in one", "[catalog]") {
    std::vector<CatalogDocument> docs = builtin_catalog_documents();
    docs.push_back({"user.json", R"({"schema": "gpuplan.catalog/1", "instances": [
      {"name": "g6.2xlarge", "family": "g6", "accelerator": "L4", "accelerator_count": 1, "accelerator_memory_gib_each": 22.35,
       "vcpus": 8, "memory_gib": 32, "network_gbit_per_s": 10, "efa_interfaces": 0, "gpudirect_rdma": false, "interconnect": "none",
       "peer_gbit_per_s_per_accelerator": null, "local_nvme_gb": 450, "ebs_gbit_per_s": 5,
       "prices": [{"region": "eu-west-1", "option": "on_demand", "usd_per_hour": 1.1, "as_of": "2026-11-01", "source": "KARP-PRICE"}],
       "source_notes": "my quote", "unknown": {"peer_gbit_per_s_per_accelerator": "n/a: single accelerator"}}]})"});
    const Catalog c = load_catalog(docs);
    CHECK(c.instances.size() == 67 + 23);
    REQUIRE(c.overrides.size() == 1);
    CHECK(c.overrides[0].find("g6.2xlarge") != std::string::npos);
    CHECK(c.find_instance("g6.2xlarge")->find_price("eu-west-1", PriceKind::on_demand)->usd_per_hour == 1.1);
    const auto regions = c.regions();
    CHECK(std::find(regions.begin(), regions.end(), "eu-west-1") != regions.end());
}

TEST_CASE("the catalog's regions are every region some type has a price in, kept from load", "[catalog]") {
    Catalog c = load_builtin_catalog();
    std::set<std::string> priced;
    for (const Instance& i : c.instances)
        for (const Price& p : i.prices) priced.insert(p.region);
    CHECK(c.regions() == std::vector<std::string>(priced.begin(), priced.end()));
    CHECK(c.has_region("eu-west-2"));
    CHECK_FALSE(c.has_region("eu-west-9"));
    CHECK_FALSE(c.has_region(""));
    // An edit to a loaded catalog's prices shows once it is indexed again.
    for (Instance& i : c.instances) i.prices.erase(std::remove_if(i.prices.begin(), i.prices.end(), [](const Price& p) { return p.region == "eu-west-2"; }), i.prices.end());
    CHECK(c.has_region("eu-west-2"));
    c.index_regions();
    CHECK_FALSE(c.has_region("eu-west-2"));
    CHECK(c.regions().size() == priced.size() - 1);
}

// Ages counted by hand (and with Python's datetime): 2026-07-20 -> 2026-11-24 is 11 + 31 + 30
// + 31 + 24 = 127 days; a month-dated snapshot counts from the month's last day.
TEST_CASE("price ages and the 180-day flag", "[catalog][freshness]") {
    CHECK(price_age_days("2026-07-20", "2026-11-24") == 127);
    CHECK(price_age_days("2026-07", "2026-11-24") == 116);     // from 2026-07-31
    CHECK(price_age_days("2026-12", "2027-01-01") == 1);       // from 2026-12-31
    CHECK(price_age_days("2024-02-28", "2024-03-01") == 2);    // a leap year
    CHECK(price_age_days("2026-07-20", "2027-03-01") == 224);
    CHECK_FALSE(price_age_days("2026-13", "2026-11-24"));
    CHECK_FALSE(price_age_days("July", "2026-11-24"));
    CHECK_FALSE(price_age_days("2026-07-20", ""));
    CHECK(utc_date(0) == "1970-01-01");
    CHECK(utc_date(1795525500) == "2026-11-24");  // 2026-11-24T13:05:00Z
    CHECK(utc_date(951782400) == "2000-02-29");

    Catalog c = load_builtin_catalog();
    const Price& p5 = *c.find_instance("p5.48xlarge")->find_price("us-east-1", PriceKind::on_demand);  // as of 2026-07-20
    CHECK(stale_price_note(c, p5).empty());  // no date to judge by
    c.today = "2027-01-16";                   // 180 days: not yet
    CHECK(stale_price_note(c, p5).empty());
    c.today = "2027-01-17";                   // 181 days
    CHECK(stale_price_note(c, p5) == "; 181 days old on 2027-01-17 (gpuplan flags prices over 180 days: check the current one)");
    CHECK(catalog_price(c, *c.find_instance("p5.48xlarge"), "us-east-1", PriceKind::on_demand)->source.find("181 days old") !=
          std::string::npos);
}

// assets/catalog/purchase-options.json, written from the two public datasets
// (docs/pricing.md "Which options exist"); figures read by hand from the datasets.
TEST_CASE("shipped purchase options: listed, not offered, or no data", "[catalog][options]") {
    const Catalog c = load_builtin_catalog();
    const Instance* p5 = c.find_instance("p5.48xlarge");
    REQUIRE(p5);
    // Capacity Blocks page, 2026-07-22: p5.48xlarge $41.528 in us-east-1, $37.76 in eu-west-2,
    // none in eu-central-1 (the page names 12 regions and Local Zones, not it).
    REQUIRE(p5->find_capacity_block_price("us-east-1"));
    CHECK(p5->find_capacity_block_price("us-east-1")->usd_per_hour == 41.528);
    CHECK(p5->find_capacity_block_price("us-east-1")->note.find("us-east-1-atl-2a") != std::string::npos);
    CHECK(p5->find_capacity_block_price("eu-west-2")->usd_per_hour == 37.76);
    CHECK(p5->option_not_offered("us-east-1", PurchaseKind::capacity_block) == nullptr);
    REQUIRE(p5->option_not_offered("eu-central-1", PurchaseKind::capacity_block));
    CHECK(p5->option_not_offered("eu-central-1", PurchaseKind::capacity_block)->source == "CB-PRICING");
    // No Standard RI for p5 in any region of the vantage-derived file (2026-01-21).
    const OptionNotOffered* no_ri = p5->option_not_offered("us-east-1", PurchaseKind::reserved);
    REQUIRE(no_ri);
    CHECK(no_ri->source == "RI-VANTAGE");
    CHECK(no_ri->as_of == "2026-01-21");
    // g6e.xlarge: a 1-year Standard no-upfront rate of $1.17243 in us-east-1; no Capacity Block.
    const Instance* g6e = c.find_instance("g6e.xlarge");
    const CommitmentPrice* ri = g6e->find_commitment_price("us-east-1", *purchase_option_named("reserved-1y-no-upfront"));
    REQUIRE(ri);
    CHECK(ri->usd_per_hour == 1.17243);
    CHECK(ri->upfront_usd == 0);
    CHECK(g6e->option_not_offered("us-east-1", PurchaseKind::reserved) == nullptr);
    CHECK(g6e->option_not_offered("us-east-1", PurchaseKind::capacity_block) != nullptr);
    // g7 is not in the vantage-derived file: its reservations stay assumed (no record).
    CHECK(c.find_instance("g7.2xlarge")->option_not_offered("us-east-1", PurchaseKind::reserved) == nullptr);
    // Every type the catalog holds says something about Capacity Blocks.
    for (const Instance& i : c.instances)
        CHECK((i.option_not_offered("us-east-1", PurchaseKind::capacity_block) || i.find_capacity_block_price("us-east-1")));
}

TEST_CASE("a bad Capacity Block or not-offered entry is refused with its path", "[catalog][options]") {
    const auto load_with = [](const std::string& body) {
        std::vector<CatalogDocument> docs = builtin_catalog_documents();
        docs.push_back({"mine.json", R"({"schema": "gpuplan.catalog/1", "sources": {"MINE": {"title": "my quote", "url": null}}, )" + body + "}"});
        return load_catalog(docs);
    };
    const auto error_of = [&](const std::string& body) {
        try {
            load_with(body);
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("loaded");
    };
    CHECK(error_of(R"("prices": [{"instance": "p5.48xlarge", "region": "us-east-1", "option": "capacity-block", "usd_per_hour": 0,
        "as_of": "2026-08-01", "source": "MINE"}])").find("$.prices[0].usd_per_hour") != std::string::npos);
    CHECK(error_of(R"("not_offered": [{"instance": "g6.xlarge", "option": "spot", "as_of": "2026-08-01", "source": "MINE", "note": "x"}])")
              .find("$.not_offered[0].option") != std::string::npos);
    CHECK(error_of(R"("not_offered": [{"instance": "g6.xlarge", "option": "reserved", "as_of": "2026-08-01", "source": "THEIRS", "note": "x"}])")
              .find("$.not_offered[0].source") != std::string::npos);
    // A user's block price replaces the shipped one, and says so.
    const Catalog c = load_with(R"("prices": [{"instance": "p5.48xlarge", "region": "us-east-1", "option": "capacity-block", "usd_per_hour": 40,
        "as_of": "2026-08-01", "source": "MINE"}])");
    CHECK(c.find_instance("p5.48xlarge")->find_capacity_block_price("us-east-1")->usd_per_hour == 40);
    REQUIRE(c.overrides.size() == 1);
    CHECK(c.overrides[0].find("$41.5280 (CB-PRICING) replaced by $40.0000 (MINE, mine.json)") != std::string::npos);
}

// Issue 30: regions are chosen by place, not only by code. Every region the built-in catalog
// prices has AWS's name; a code the table does not know is shown alone, never given a name.
TEST_CASE("every region the catalog prices has AWS's name for it", "[catalog]") {
    const Catalog c = load_builtin_catalog();
    REQUIRE(c.regions().size() >= 24);
    for (const std::string& r : c.regions()) {
        INFO(r);
        CHECK_FALSE(region_name(r).empty());
    }
    CHECK(region_name("us-east-1") == "US East (N. Virginia)");
    CHECK(region_name("eu-west-2") == "Europe (London)");
    CHECK(region_with_name("ap-southeast-5") == "ap-southeast-5 \u00b7 Asia Pacific (Malaysia)");
    CHECK(region_name("xx-nowhere-9").empty());
    CHECK(region_with_name("xx-nowhere-9") == "xx-nowhere-9");
}
