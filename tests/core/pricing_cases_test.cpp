// The worked cases of shared/cases/pricing.md, reproduced to the cent (money) and to 4
// decimals (rates). Expected values are the case's own figures, not outputs of this code.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "gpuplan/input_error.hpp"
#include "gpuplan/pricing/fleet.hpp"
#include "gpuplan/pricing/idle_cost.hpp"
#include "gpuplan/pricing/purchase_options.hpp"
#include "gpuplan/pricing/spot_checkpoint.hpp"
#include "gpuplan/pricing/unit_cost.hpp"
#include "gpuplan/scenario/scenario_result.hpp"
#include "fixtures.hpp"

using namespace gpuplan;

namespace {
using test::p;
using test::cents;

// Every purchase option of a built-in catalog type in us-east-1.
std::vector<Quote> catalog_quotes(const std::string& instance, double hours, double count = 1) {
    QuoteRequest q;
    q.instance = instance;
    q.hours = hours;
    q.count = count;
    return quote_purchase_options(load_builtin_catalog(), q);
}

const Quote& quote_named(const std::vector<Quote>& quotes, const std::string& key) {
    for (const auto& x : quotes)
        if (x.key == key) return x;
    FAIL("no quote " << key);
    return quotes.front();
}
double dp4(double x) { return std::round(x * 1e4) / 1e4; }

const nlohmann::json& figure(const nlohmann::json& section, const char* name) { return section.at("figures").at(name); }

using test::eval_builtin;
PurchaseOption option(const char* key) {
    const auto o = purchase_option_named(key);
    REQUIRE(o);
    return *o;
}
}  // namespace

TEST_CASE("purchase option keys: one spelling each way", "[pricing][purchase-option]") {
    CHECK(key(option("on-demand")) == "on-demand");
    CHECK(option("reserved-3y") == PurchaseOption{PurchaseKind::reserved, Term::three_year, std::nullopt});
    CHECK(option("compute-savings-plan-1y-all-upfront") == PurchaseOption{PurchaseKind::compute_savings_plan, Term::one_year, Payment::all_upfront});
    CHECK(key({PurchaseKind::instance_savings_plan, Term::three_year, Payment::partial_upfront}) == "instance-savings-plan-3y-partial-upfront");
    CHECK(is_commitment(option("reserved-1y").kind));
    CHECK_FALSE(is_commitment(option("spot").kind));
    for (const char* bad : {"reserved", "reserved-2y", "spot-1y", "on_demand", "Reserved-3y", ""}) {
        INFO(bad);
        CHECK_FALSE(purchase_option_named(bad));
    }
}

TEST_CASE("P1 blended fleet rate", "[pricing][P1]") {
    FleetRequest r;
    r.on_demand_usd_per_gpu_hour = p(1.60);
    r.tiers = {{option("reserved-3y"), 4, p(0.96), 1, true}, {option("spot"), 6, p(0.80), 1, false}, {option("on-demand"), 2, p(1.60), 1, false}};
    const FleetResult f = evaluate_fleet(r);
    CHECK(dp4(*f.blended_usd_per_gpu_hour.value) == 0.9867);
    CHECK(std::round(*f.saving_vs_on_demand.value * 1e4) / 100 == 38.33);
    // The figure printed in circulation ($0.93, 42%) does not follow from the same inputs.
    CHECK(dp4(*f.blended_usd_per_gpu_hour.value) != 0.93);

    const auto j = eval_builtin("p1-blended-fleet.json").at("fleet");
    CHECK(dp4(figure(j, "blended_usd_per_gpu_hour").at("value").get<double>()) == 0.9867);
}

TEST_CASE("P2 reserved savings on 8 GPUs for a year", "[pricing][P2]") {
    auto saving = [](double reserved_price) {
        FleetRequest r;
        r.hours = 8760;
        r.on_demand_usd_per_gpu_hour = p(1.60);
        r.tiers = {{option("reserved-1y"), 8, p(reserved_price), 1, true}};
        const FleetResult f = evaluate_fleet(r);
        return cents(*f.all_on_demand_cost_usd.value - *f.total_cost_usd.value);
    };
    CHECK(saving(1.60 * (1 - 0.30)) == 33638.40);
    CHECK(saving(1.60 * (1 - 0.40)) == 44851.20);
    CHECK(cents(figure(eval_builtin("p2-reserved-1y.json").at("fleet"), "saving_usd").at("value").get<double>()) == 33638.40);
    CHECK(cents(figure(eval_builtin("p2-reserved-3y.json").at("fleet"), "saving_usd").at("value").get<double>()) == 44851.20);
}

TEST_CASE("P3 cost per token", "[pricing][P3]") {
    CHECK(dp4(*usd_per_million_tokens(p(1.85), p(1000)).value) == 0.5139);
    CHECK(dp4(*usd_per_million_tokens(p(12.80), p(5000)).value) == 0.7111);
    CHECK(dp4(*usd_per_million_tokens(p(12.80), p(20000)).value) == 0.1778);
    const auto rows = eval_builtin("p3-cost-per-token.json").at("token_costs");
    REQUIRE(rows.size() == 3);
    CHECK(cents(figure(rows[0], "usd_per_billion_tokens").at("value").get<double>()) == 513.89);
    CHECK(cents(figure(rows[1], "usd_per_billion_tokens").at("value").get<double>()) == 711.11);
    CHECK(cents(figure(rows[2], "usd_per_billion_tokens").at("value").get<double>()) == 177.78);
}

TEST_CASE("P4 always-on versus ephemeral development instances", "[pricing][P4]") {
    IdleRequest q;
    q.engineers = 3;
    q.usd_per_hour = p(0.9776);
    const IdleResult r = evaluate_idle_cost(q);  // defaults: 730 h, 6 h/day, 22 days, 10 min boot
    CHECK(cents(*r.always_on_usd_per_instance.value) == 713.65);
    CHECK(cents(*r.always_on_usd_total.value) == 2140.94);
    CHECK(std::round(*r.ephemeral_hours_per_instance.value * 100) / 100 == 135.67);
    CHECK(cents(*r.ephemeral_usd_per_instance.value) == 132.63);
    CHECK(cents(*r.ephemeral_usd_total.value) == 397.88);
    CHECK(std::round(*r.saving_fraction_compute.value * 1e4) / 100 == 81.42);

    // The same through the scenario file, which takes the price from the catalog.
    const auto j = eval_builtin("p4-idle-dev-instances.json").at("idle");
    CHECK(cents(figure(j, "ephemeral_usd_total").at("value").get<double>()) == 397.88);
    CHECK(figure(j, "always_on_usd_per_instance").at("explain").at("inputs")[1].at("origin") == "catalog");
}

TEST_CASE("P5 spot with checkpoints (Young/Daly)", "[pricing][P5]") {
    SpotRisk risk{p(3.5), p(2), p(5), std::nullopt};
    const CheckpointPlan plan = plan_checkpoints(risk);
    CHECK(dp4(*plan.interval_hours.value) == 0.4830);
    CHECK(std::round(*plan.interval_hours.value * 60 * 100) / 100 == 28.98);
    CHECK(dp4(*plan.overhead_fraction.value) == 0.1618);
    // A user-chosen interval of 1 h: 1/30 + 1/7 + 1/42 = 0.2 exactly.
    risk.checkpoint_interval_hours = p(1.0);
    CHECK(std::fabs(*plan_checkpoints(risk).overhead_fraction.value - 0.2) < 1e-12);
}

TEST_CASE("P6 unit cost of decoded video", "[pricing][P6]") {
    const auto c = compare_video_pipelines(p(3.36), p(21.99), p(20.17), p(3.21));
    CHECK(dp4(*c.video_seconds.value) == 6.8505);
    CHECK(std::round(*c.rtf_b.value * 1000) / 1000 == 2.944);
    CHECK(cents(*c.saving_usd_per_1000_video_hours.value) == 892.67);
    CHECK(cents(*usd_per_video_hour(p(3.36), p(3.21)).value) == 10.79);  // 3.36 x 3.21 = 10.7856
    const auto j = eval_builtin("p6-video-decode.json").at("video");
    CHECK(cents(figure(j, "saving_usd_per_1000_video_hours").at("value").get<double>()) == 892.67);
}

TEST_CASE("purchase options for a catalog instance", "[pricing]") {
    const auto quotes = catalog_quotes("p5.48xlarge", 100);
    const auto find = [&](const std::string& key) -> const Quote& { return quote_named(quotes, key); };
    // On-demand is the catalog price (p5.48xlarge us-east-1, $55.04/h, 2026-07-20).
    CHECK(*find("on-demand").effective_usd_per_hour.value == 55.04);
    CHECK(cents(*find("on-demand").cost_usd.value) == 5504.00);
    // No Standard RI for p5 ([RI-VANTAGE] lists its on-demand price and no reserved rate):
    // shown as not offered, never priced.
    for (const char* k : {"reserved-1y-no-upfront", "reserved-1y-all-upfront", "reserved-3y-partial-upfront"}) {
        CHECK_FALSE(find(k).available);
        CHECK(find(k).status == OptionStatus::not_offered);
        CHECK(find(k).unavailable_reason.find("source RI-VANTAGE, as of 2026-01-21") != std::string::npos);
    }
    // Capacity Block: AWS's published $41.528/h in us-east-1 ([CB-PRICING], 2026-07-22), not
    // on-demand; 100 h cost 4,152.80 and save 1 - 41.528 / 55.04 = 24.55%.
    const Quote& block = find("capacity-block");
    CHECK(block.status == OptionStatus::listed);
    CHECK(*block.effective_usd_per_hour.value == 41.528);
    CHECK_FALSE(block.effective_usd_per_hour.rests_on_assumption());
    CHECK(block.status_source == "CB-PRICING, as of 2026-07-22");
    CHECK(cents(*block.cost_usd.value) == 4152.80);
    CHECK(dp4(*block.saving_vs_on_demand.value) == 0.2455);
    // EC2 Instance Savings Plan 1y (no data either way) at the default 30%: 55.04 x 0.7 =
    // 38.528 no upfront; all upfront x 0.9333 (the Standard 1-year ratio, docs/pricing.md) =
    // 35.9582 an hour, the whole term paid upfront.
    CHECK(std::fabs(*find("instance-savings-plan-1y-no-upfront").effective_usd_per_hour.value - 38.528) < 1e-9);
    const Quote& all = find("instance-savings-plan-1y-all-upfront");
    CHECK(all.status == OptionStatus::assumed);
    CHECK(std::fabs(*all.effective_usd_per_hour.value - 35.9581824) < 1e-9);
    CHECK(cents(*all.upfront_usd.value) == cents(35.9581824 * 8760));
    CHECK(*all.recurring_usd_per_hour.value == 0);
    CHECK(all.effective_usd_per_hour.rests_on_assumption());
    CHECK(std::fabs(all.break_even_utilization->value.value() - 0.7 * 0.9333) < 1e-12);
    // 3-year partial upfront: 55.04 x 0.6 x 0.9259 = 30.5769, half of the term upfront.
    const Quote& partial = find("instance-savings-plan-3y-partial-upfront");
    CHECK(cents(*partial.upfront_usd.value) == cents(55.04 * 0.6 * 0.9259 * 26280 * 0.5));
    CHECK(std::fabs(*partial.recurring_usd_per_hour.value - 55.04 * 0.6 * 0.9259 * 0.5) < 1e-9);
    // Compute Savings Plan 3-year all upfront takes the Convertible ratio, 0.9074:
    // 55.04 x (1 - 0.4 x 66/72) x 0.9074 = 31.6308.
    CHECK(std::fabs(*find("compute-savings-plan-3y-all-upfront").effective_usd_per_hour.value - 31.6308) < 1e-4);
    // Spot: the catalog's typical price, the median of p5's five us-east-1 zones with a spot price
    // (10.1808, 17.2517, 18.766, 19.197, 22.9825; two more at the $55.04 on-demand placeholder),
    // then x (1 + rework) at the default risk (P5 figures).
    const Quote& spot = find("spot");
    CHECK(*spot.effective_usd_per_hour.value == 18.766);
    CHECK(dp4(spot.spot_effective_usd_per_useful_hour->value.value() / 18.766 - 1) == 0.1618);
    CHECK(quotes.size() == 1 + 2 * 9 + 1 + 1);
}

// p5e.48xlarge has no on-demand price anywhere (AWS sells it as Capacity Blocks); in eu-west-2
// AWS's Capacity Blocks page lists it at $47.76/h ([CB-PRICING], 2026-07-22, one price in all
// 11 regions). `gpuplan price` refused the type outright; it now quotes what is known.
TEST_CASE("a type with no on-demand price: listed options priced, options off on-demand unknown", "[pricing][unknown]") {
    QuoteRequest q;
    q.instance = "p5e.48xlarge";
    q.region = "eu-west-2";
    q.hours = 100;
    const auto quotes = quote_purchase_options(load_builtin_catalog(), q);
    const auto find = [&](const char* k) -> const Quote& { return quote_named(quotes, k); };
    const Quote& od = find("on-demand");
    CHECK_FALSE(od.available);
    CHECK(od.unavailable_reason.find("no on-demand price") != std::string::npos);
    const Quote& block = find("capacity-block");
    REQUIRE(block.available);
    CHECK(block.status == OptionStatus::listed);
    CHECK(*block.effective_usd_per_hour.value == 47.76);
    CHECK(cents(*block.cost_usd.value) == 4776.00);
    CHECK_FALSE(block.saving_vs_on_demand.value);
    CHECK(block.saving_vs_on_demand.unknown_reason.rfind("on-demand price unknown: ", 0) == 0);
    for (const char* k : {"instance-savings-plan-1y-no-upfront", "compute-savings-plan-3y-all-upfront"}) {
        CHECK_FALSE(find(k).available);
        CHECK(find(k).unavailable_reason.find("no on-demand price to take a discount off") != std::string::npos);
    }
    CHECK(find("reserved-1y-no-upfront").status == OptionStatus::not_offered);
    CHECK_FALSE(find("spot").available);
    for (const Quote& x : quotes) CHECK_NOTHROW(to_json(x));
    // In us-east-1 nothing is priced (no Capacity Block there either): still quoted, not refused.
    q.region = "us-east-1";
    const auto east = quote_purchase_options(load_builtin_catalog(), q);
    CHECK(std::none_of(east.begin(), east.end(), [](const Quote& x) { return x.available; }));
}

TEST_CASE("spot without a catalog price falls back to the catalog median discount", "[pricing]") {
    const Catalog catalog = load_builtin_catalog();
    const Figure median = median_spot_discount(catalog, "us-east-1");
    REQUIRE(median.value);
    CHECK(*median.value > 0.0);
    CHECK(*median.value < 1.0);
    QuoteRequest q;
    q.instance = "p6-b300.48xlarge";  // no us-east-1 spot in either SkyPilot snapshot (only us-west-2)
    const auto quotes = quote_purchase_options(catalog, q);
    const Quote& spot = quotes[quotes.size() - 2];
    REQUIRE(spot.key == "spot");
    CHECK(spot.effective_usd_per_hour.rests_on_assumption());
    CHECK(std::fabs(*spot.effective_usd_per_hour.value - 142.416 * (1 - *median.value)) < 1e-12);
    // p6e-gb200 has no Spot at all (AWS), so spot is marked unavailable, not estimated.
    const Instance* gb200 = catalog.find_instance("p6e-gb200.36xlarge");
    REQUIRE(gb200);
    CHECK(gb200->find_price("us-east-1", PriceKind::on_demand)->usd_per_hour == std::nullopt);
}

TEST_CASE("fleet from a usage profile", "[pricing][fleet]") {
    // 4 GPUs always busy on a commitment, peaks of 12, 8 on average: the 8 burst GPUs are
    // busy (8 - 4) / (12 - 4) = 50% of the hours.
    UsageProfile u;
    u.baseline_gpus = 4;
    u.average_gpus = 8;
    u.peak_gpus = 12;
    u.commit_usd_per_gpu_hour = p(0.96);
    u.burst_usd_per_gpu_hour = p(1.60);
    FleetRequest r;
    r.on_demand_usd_per_gpu_hour = p(1.60);
    r.tiers = tiers_from_profile(u);
    REQUIRE(r.tiers.size() == 2);
    CHECK(r.tiers[1].utilization == 0.5);
    const FleetResult f = evaluate_fleet(r);
    // cost = 4 x 0.96 x 730 + 8 x 1.60 x 730 x 0.5 = 2803.20 + 4672.00; used = 8 x 730 GPU-h
    CHECK(cents(*f.total_cost_usd.value) == 7475.20);
    CHECK(*f.used_gpu_hours.value == 8 * 730);
    CHECK(dp4(*f.blended_usd_per_gpu_hour.value) == 1.28);
    // Break-even for the commitment: 0.96 / 1.60 = 60% of the hours.
    CHECK(std::fabs(f.tier_break_even_utilization[0]->value.value() - 0.6) < 1e-12);

    u.average_gpus = 13;
    CHECK_THROWS_AS(tiers_from_profile(u), InputError);
    const Catalog catalog = load_builtin_catalog();
    const auto s = parse_scenario(R"({"schema": "gpuplan.scenario/1", "fleet": {"on_demand_usd_per_gpu_hour": 1.6,
        "profile": {"baseline_gpus": 4, "average_gpus": 8, "peak_gpus": 12, "commit_usd_per_gpu_hour": 0.96}}})", "s.json", catalog);
    CHECK(cents(evaluate_scenario(s, catalog).at("fleet").at("figures").at("total_cost_usd").at("value").get<double>()) == 7475.20);
}

TEST_CASE("spot with no price and no regional median is unknown, not on-demand", "[pricing]") {
    // A region with on-demand prices but no spot price at all: us-east-2 with its spot removed.
    Catalog catalog = load_builtin_catalog();
    for (Instance& i : catalog.instances)
        i.prices.erase(std::remove_if(i.prices.begin(), i.prices.end(),
                                      [](const Price& p) { return p.region == "us-east-2" && p.option == PriceKind::spot_typical; }),
                       i.prices.end());
    QuoteRequest q;
    q.instance = "g7e.2xlarge";
    q.region = "us-east-2";
    const auto quotes = quote_purchase_options(catalog, q);
    const Quote* spot = nullptr;
    for (const auto& x : quotes)
        if (x.key == "spot") spot = &x;
    REQUIRE(spot);
    CHECK_FALSE(spot->available);
    CHECK(spot->unavailable_reason.find("unknown") == 0);
    // With the user's discount it is estimated again.
    q.assumptions.spot_discount = Param{0.5, InputOrigin::user, ""};
    for (const auto& x : quote_purchase_options(catalog, q))
        if (x.key == "spot") CHECK(*x.effective_usd_per_hour.value == Approx(3.36312 * 0.5));
}

// A commitment is billed every hour of its term (AWS: "you pay for the entire term"). The
// issue's example: g6.xlarge (us-east-1 on-demand $0.8048/h) for a 106-hour run.
TEST_CASE("commitments cost their whole term; the attributable share is separate", "[pricing][term]") {
    const auto quotes = catalog_quotes("g6.xlarge", 106);
    const auto find = [&](const std::string& key) -> const Quote& { return quote_named(quotes, key); };
    // 1-year EC2 Instance Savings Plan at the default 30% (no data either way): 0.8048 x 0.7 =
    // 0.56336 $/h, billed 8,760 h.
    const Quote& r1 = find("instance-savings-plan-1y-no-upfront");
    CHECK(cents(*r1.cost_usd.value) == 4935.03);  // 0.56336 x 8760 = 4935.0336
    REQUIRE(r1.attributable_cost_usd);
    CHECK(cents(*r1.attributable_cost_usd->value) == 59.72);  // 0.56336 x 106 = 59.71616
    REQUIRE(r1.term_utilization);
    CHECK(*r1.term_utilization->value == Approx(106.0 / 8760));
    // Paid all upfront, the term's cost is the upfront, at 0.9333 of the rate: 0.56336 x 0.9333 x 8760.
    CHECK(cents(*find("instance-savings-plan-1y-all-upfront").upfront_usd.value) == 4605.87);  // 4605.8669
    // The shipped 1-year Standard no-upfront RI ([RI-VANTAGE]): $0.52392/h, 8,760 h = 4,589.54.
    const Quote& listed = find("reserved-1y-no-upfront");
    CHECK(listed.status == OptionStatus::listed);
    CHECK(*listed.effective_usd_per_hour.value == 0.52392);
    CHECK(cents(*listed.cost_usd.value) == 4589.54);
    // Partial and all upfront are not listed: assumed at the listed no-upfront rate times the
    // payment's ratio, 0.52392 x 0.9524 = 0.49898 and 0.52392 x 0.9333 = 0.48897, not at the
    // default 30% (which would be 0.56336, dearer than paying nothing upfront).
    const Quote& r1_all = find("reserved-1y-all-upfront");
    CHECK(r1_all.status == OptionStatus::assumed);
    CHECK(std::fabs(*r1_all.effective_usd_per_hour.value - 0.48897) < 1e-5);
    CHECK(std::fabs(*find("reserved-1y-partial-upfront").effective_usd_per_hour.value - 0.49898) < 1e-5);
    // 3-year at 40%: 0.8048 x 0.6 = 0.48288 $/h x 26,280 h = 12,690.0864.
    CHECK(cents(*find("reserved-3y-no-upfront").cost_usd.value) == 12690.09);
    // On-demand and spot bill the hours used: 0.8048 x 106 = 85.3088.
    CHECK(cents(*find("on-demand").cost_usd.value) == 85.31);
    CHECK_FALSE(find("on-demand").attributable_cost_usd);

    // Two instances for 20,000 h: three 1-year terms each (26,280 h), one 3-year term.
    const auto longer = catalog_quotes("g6.xlarge", 20000, 2);
    for (const auto& x : longer) {
        if (x.key == "instance-savings-plan-1y-no-upfront") {
            CHECK(cents(*x.cost_usd.value) == 29610.20);  // 0.56336 x 8760 x 3 x 2 = 29610.2016
            CHECK(*x.term_utilization->value == Approx(20000.0 / 26280));
        }
        if (x.key == "reserved-3y-no-upfront") CHECK(cents(*x.cost_usd.value) == 25380.17);  // 0.48288 x 26280 x 2 = 25380.1728
    }
}

TEST_CASE("cumulative cost: commitments bill their term and renew", "[pricing][term]") {
    const PurchaseOption on_demand{PurchaseKind::on_demand, std::nullopt, std::nullopt};
    const PurchaseOption r1_all{PurchaseKind::reserved, Term::one_year, Payment::all_upfront};
    const PurchaseOption r3_all{PurchaseKind::reserved, Term::three_year, Payment::all_upfront};
    const PurchaseOption r1_none{PurchaseKind::reserved, Term::one_year, Payment::no_upfront};
    // On-demand: 2 instances x $1/h x 100 h a month x 5 months.
    CHECK(cumulative_cost_usd(on_demand, 0, 1.0, 100, 5, 2) == Approx(1000));
    // 1-year all upfront $6,132 (0.7 x 8760): once for months 0-12, renewed after 12 and 24.
    CHECK(cumulative_cost_usd(r1_all, 6132, 0, 100, 12, 1) == Approx(6132));
    CHECK(cumulative_cost_usd(r1_all, 6132, 0, 100, 12.1, 1) == Approx(2 * 6132));
    CHECK(cumulative_cost_usd(r1_all, 6132, 0, 100, 36, 1) == Approx(3 * 6132));
    // 3-year all upfront $15,768 (0.6 x 26,280): flat to month 36, so cheaper than 1-year renewed.
    CHECK(cumulative_cost_usd(r3_all, 15768, 0, 100, 36, 1) == Approx(15768));
    CHECK(cumulative_cost_usd(r3_all, 15768, 0, 100, 30, 1) < cumulative_cost_usd(r1_all, 6132, 0, 100, 30, 1));
    // No upfront: every calendar hour at $0.70, used or not: 730 x 3 x 0.7 = 1,533 after 3 months.
    CHECK(cumulative_cost_usd(r1_none, 0, 0.7, 100, 3, 1) == Approx(1533));
}
