// Fleet plans from a usage history (core/gpuplan/pricing/usage_history.hpp): the cheapest
// commitment level on small histories whose costs are worked by hand here, and what bad input gets.
#include "fixtures.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/pricing/usage_formats.hpp"
#include "gpuplan/pricing/usage_history.hpp"

using namespace gpuplan;

namespace {

CommitmentPlanRequest prices(double commit, double burst, double on_demand) {
    CommitmentPlanRequest q;
    q.commit_usd_per_gpu_hour = {commit, InputOrigin::user, ""};
    q.burst_usd_per_gpu_hour = {burst, InputOrigin::user, ""};
    q.on_demand_usd_per_gpu_hour = {on_demand, InputOrigin::user, ""};
    return q;
}

// 4 GPUs for 3 hours, 12 for 1: baseline 4, mean 6, peak 12.
const char* const kFourSixTwelve = "timestamp,gpus\n2026-01-05T00:00:00Z,4\n2026-01-05T01:00:00Z,4\n2026-01-05T02:00:00Z,4\n2026-01-05T03:00:00Z,12\n";

}  // namespace

TEST_CASE("usage history 4/6/12: commit the baseline of 4 at a 60% break-even") {
    const UsageHistory h = parse_usage_csv(kFourSixTwelve, "h.csv");
    CHECK(h.unit == UsageUnit::gpus);
    CHECK(h.total_hours == 4);
    // cost(L) = 0.96 x L x 4 + 1.60 x (3 x max(4 - L, 0) + max(12 - L, 0)):
    //   L <= 4: 38.40 - 2.56 L (falls), 4 <= L <= 12: 19.20 + 2.24 L (rises) -> L = 4, $28.16.
    const CommitmentPlan p = plan_commitment(h, prices(0.96, 1.60, 1.60));
    CHECK(*p.mean.value == 6);
    CHECK(*p.peak.value == 12);
    CHECK(*p.break_even_utilization.value == Approx(0.6));
    CHECK(*p.optimal_level.value == 4);
    CHECK(*p.share_above_optimal.value == Approx(0.25));
    CHECK(*p.cost_at_optimal_usd.value == Approx(28.16));
    CHECK(*p.all_on_demand_usd.value == Approx(38.40));
    CHECK(*p.saving_vs_on_demand.value == Approx(1 - 28.16 / 38.40));
    // The rule of thumb: 70% of the minimum (4) -> 2 GPUs: 38.40 - 2.56 x 2 = $33.28.
    CHECK(*p.rule_level.value == 2);
    CHECK(*p.cost_at_rule_usd.value == Approx(33.28));
    CHECK(*p.saving_vs_rule_usd.value == Approx(5.12));
    REQUIRE(p.curve_level.size() == 13);
    for (std::size_t L = 0; L <= 12; ++L) {
        const double l = static_cast<double>(L);
        CHECK(p.curve_cost_usd[L] == Approx(0.96 * l * 4 + 1.60 * (3 * std::max(4 - l, 0.0) + std::max(12 - l, 0.0))));
        CHECK(p.duration_hours[L] == (L <= 4 ? 4 : 1));
    }
}

TEST_CASE("usage history: a burst price below the commitment's commits nothing") {
    // Spot at $0.80 against a commitment at $0.96: break-even 120%, no hour can pay for it.
    const CommitmentPlan p = plan_commitment(parse_usage_csv(kFourSixTwelve, "h.csv"), prices(0.96, 0.80, 1.60));
    CHECK(*p.optimal_level.value == 0);
    CHECK(*p.cost_at_optimal_usd.value == Approx(0.80 * 24));
}

TEST_CASE("usage history: irregular intervals, a gap named, a fractional break-even") {
    // Samples at 0, 0.5, 1 h and 5 h (a 4 h gap: over 3 x the 0.5 h median, named, count held);
    // the last lasts one median interval. Load: 2 for 0.5 h, 6 for 0.5 h, 2 for 4 h, 8 for 0.5 h.
    const UsageHistory h = parse_usage_csv("timestamp,gpus\n0,2\n1800,6\n3600,2\n18000,8\n", "irregular.csv");
    CHECK(h.total_hours == Approx(5.5));
    REQUIRE(h.notes.size() == 2);
    CHECK(h.notes[0].find("a gap of 4 h after irregular.csv: line 4") != std::string::npos);
    // Commit $1, burst $2: break-even 50%. Above 2: 1 h of 5.5 (18%) -> commit 2.
    const CommitmentPlan p = plan_commitment(h, prices(1, 2, 2));
    CHECK(*p.optimal_level.value == 2);
    // 1 x 2 x 5.5 + 2 x ((6 - 2) x 0.5 + (8 - 2) x 0.5) = 11 + 10 = 21
    CHECK(*p.cost_at_optimal_usd.value == Approx(21));
}

TEST_CASE("usage history: instances as the unit, ISO timestamps with a space") {
    const UsageHistory h = parse_usage_csv("time,instances\n2026-03-01 00:00,1\n2026-03-01 00:05,3\n", "i.csv");
    CHECK(h.unit == UsageUnit::instances);
    CHECK(h.total_hours == Approx(10.0 / 60));
}

TEST_CASE("usage history bad input: the line and what was expected") {
    CHECK_THROWS_WITH(parse_usage_csv("timestamp,gpus\n10,1\n5,2\n", "u.csv"), Catch::Contains("u.csv: line 3") && Catch::Contains("increasing order") && Catch::Contains("line 2 is later"));
    CHECK_THROWS_WITH(parse_usage_csv("timestamp,gpus\n10,1\n10,2\n", "d.csv"), Catch::Contains("d.csv: line 3") && Catch::Contains("repeats"));
    CHECK_THROWS_WITH(parse_usage_csv("timestamp,gpus\n10,1\n20,-2\n", "n.csv"), Catch::Contains("n.csv: line 3") && Catch::Contains(">= 0"));
    CHECK_THROWS_WITH(parse_usage_csv("timestamp,cpus\n10,1\n", "c.csv"), Catch::Contains("gpus, instances or requests_per_second"));
    CHECK_THROWS_WITH(parse_usage_csv("timestamp,gpus\n10,1\n", "one.csv"), Catch::Contains("at least two"));
    CHECK_THROWS_WITH(parse_usage_csv("timestamp,gpus\nyesterday,1\n20,1\n", "t.csv"), Catch::Contains("ISO 8601"));
    CHECK_THROWS_WITH(parse_usage_csv("{\"schema\": \"gpuplan.bench/1\"}", "j.json"), Catch::Contains("j.json: line 1"));
    CHECK_THROWS_AS(plan_commitment(parse_usage_csv(kFourSixTwelve, "h.csv"), prices(0, 1, 1)), InputError);
}
