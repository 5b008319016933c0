// Fleets that follow the load (core/gpuplan/pricing/fleet_over_time.hpp): ephemeral against
// always-on from a history of instances in use, and static, scheduled and autoscaled serving
// fleets on a step-shaped demand curve, each worked by hand here.
#include "fixtures.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/pricing/fleet_over_time.hpp"
#include "gpuplan/pricing/usage_formats.hpp"
#include "gpuplan/workload/serving_capacity.hpp"
#include "test_inputs.hpp"

using namespace gpuplan;

namespace {

Param user(double v) { return {v, InputOrigin::user, ""}; }

const ServingFleet& fleet(const ServingFleetPlan& p, ServingPolicy policy) {
    for (const auto& f : p.fleets)
        if (f.policy == policy) return f;
    FAIL("no fleet " << policy_name(policy));
    return p.fleets.front();
}

}  // namespace

TEST_CASE("ephemeral from history: running(t) is the in-use count widened by the boot and the shutdown delay") {
    // dev-sessions.csv: 2 instances in use 1:00-2:00, 1 in use 2:30-3:00, over 4 h.
    const UsageHistory h = parse_usage(usage_test_file("dev-sessions.csv"), "dev.csv");
    EphemeralFromHistoryRequest q;
    q.usd_per_instance_hour = user(2);
    q.boot_minutes = 15;
    q.idle_shutdown_minutes = 30;
    const EphemeralFromHistory r = ephemeral_from_history(h, q);
    // The 2 count over [1, 2) keeps 2 running over [1 - 0.25, 2 + 0.5) = [0.75, 2.5); the 1 over
    // [2.5, 3) keeps 1 over [2.25, 3.5): 2 x 1.75 + 1 x 1 = 4.5 instance-hours. The drop from 2
    // to 1 at 2.5 h reuses a running instance: 2 starts, not 3.
    CHECK(*r.always_on_instances.value == 2);
    CHECK(*r.always_on_usd.value == Approx(2 * 4 * 2));
    CHECK(*r.in_use_instance_hours.value == Approx(2.5));
    CHECK(*r.ephemeral_instance_hours.value == Approx(4.5));
    CHECK(*r.idle_instance_hours.value == Approx(2));
    CHECK(*r.instance_starts.value == 2);
    CHECK(*r.ephemeral_usd.value == Approx(9));
    CHECK(*r.saving_fraction.value == Approx(1 - 4.5 / 8));
    // No boot, no delay: exactly the in-use hours; the gap between sessions needs a new start.
    q.boot_minutes = 0;
    q.idle_shutdown_minutes = 0;
    const EphemeralFromHistory bare = ephemeral_from_history(h, q);
    CHECK(*bare.ephemeral_instance_hours.value == Approx(2.5));
    CHECK(*bare.instance_starts.value == 3);
    // A history of GPUs is not a count of instances to start and stop.
    CHECK_THROWS_WITH(ephemeral_from_history(parse_usage(usage_test_file("four-hours-4-6-12.csv"), "g.csv"), q), Catch::Contains("instances"));
    q.usd_per_instance_hour = user(0);
    CHECK_THROWS_WITH(ephemeral_from_history(h, q), Catch::Contains("usd_per_instance_hour"));
}

TEST_CASE("serving fleets on a step of demand: static, scheduled and autoscaled, worked by hand") {
    // demand-step.csv: 10 requests/s for an hour, 50 for an hour, 10 for an hour. One instance
    // serves 10/s; at 100% target utilisation desired = 1, 5, 1. Warm-up 10 min, scale-in 15 min.
    const UsageHistory demand = parse_usage(usage_test_file("demand-step.csv"), "demand.csv");
    ServingFleetRequest q;
    q.capacity_requests_per_second = user(10);
    q.usd_per_instance_hour = user(3);
    q.target_utilization = 1;
    q.warmup_minutes = 10;
    q.scale_in_minutes = 15;
    const ServingFleetPlan p = plan_serving_fleets(demand, q);
    const double requests = (10 + 50 + 10) * 3600.0;  // 252,000
    CHECK(*p.total_requests.value == Approx(requests));
    CHECK(*p.desired_peak.value == 5);
    // Static: 5 instances for 3 h, nothing late.
    const ServingFleet& st = fleet(p, ServingPolicy::static_fleet);
    CHECK(*st.instance_hours.value == Approx(15));
    CHECK(*st.cost_usd.value == Approx(45));
    CHECK(*st.late_share.value == 0);
    // Scheduled by hour of the day (a 3 h history): 1, 5, 1, the 5 started 10 min before 1:00:
    // 50 min x 1 + 70 min x 5 + 60 min x 1 = 460 instance-minutes; nothing late.
    const ServingFleet& sc = fleet(p, ServingPolicy::scheduled);
    CHECK(*sc.instance_hours.value == Approx(460.0 / 60));
    CHECK(*sc.late_share.value == 0);
    // Autoscaled: at 1:00 four more launch, ready at 1:10; until then one instance serves 10 of
    // the 50/s: 40/s x 600 s = 24,000 requests late. At 2:00 desired falls to 1; the five stay
    // until it has been 1 for 15 min (2:15). Running: 60 x 1 + 75 x 5 + 45 x 1 = 480 minutes.
    const ServingFleet& au = fleet(p, ServingPolicy::autoscaled);
    CHECK(*au.instance_hours.value == Approx(8));
    CHECK(*au.cost_usd.value == Approx(24));
    CHECK(*au.late_share.value == Approx(24000.0 / requests));
    CHECK(*au.peak_instances.value == 5);
    // The series follows the step (at most ~1,000 points; here one per minute).
    REQUIRE(p.series_hours.size() == 180);
    CHECK(au.instances[59] == 1);
    CHECK(au.instances[60] == 5);
    CHECK(au.instances[134] == 5);
    CHECK(au.instances[135] == 1);
    // No warm-up: nothing late; a 70% target utilisation needs ceil(50 / 7) = 8 at the peak.
    q.warmup_minutes = 0;
    CHECK(*fleet(plan_serving_fleets(demand, q), ServingPolicy::autoscaled).late_share.value == 0);
    q.target_utilization = 0.7;
    CHECK(*plan_serving_fleets(demand, q).desired_peak.value == 8);
}

TEST_CASE("a scheduled fleet keys its hours the same way before 1970 as after it") {
    // The same 3-hour step a whole number of weeks earlier, before 1970: the hour-of-the-day
    // slots, hence the scheduled fleet, must not change (fuzz_usage found a negative
    // slot there: corpus/usage/crash-before-1970.json).
    const UsageHistory demand = parse_usage(usage_test_file("demand-step.csv"), "demand.csv");
    UsageHistory early = demand;
    const double week = 7.0 * 86400;
    early.start_unix_seconds = demand.start_unix_seconds - (std::floor(demand.start_unix_seconds / week) + 2) * week;
    REQUIRE(early.start_unix_seconds < 0);
    ServingFleetRequest q;
    q.capacity_requests_per_second = user(10);
    q.usd_per_instance_hour = user(3);
    q.target_utilization = 1;
    q.warmup_minutes = 10;
    const ServingFleetPlan now = plan_serving_fleets(demand, q), before = plan_serving_fleets(early, q);
    CHECK(*fleet(before, ServingPolicy::scheduled).instance_hours.value == Approx(*fleet(now, ServingPolicy::scheduled).instance_hours.value));
    CHECK(*fleet(before, ServingPolicy::scheduled).instance_hours.value == Approx(460.0 / 60));  // worked above
}

TEST_CASE("serving fleets bad input") {
    const UsageHistory demand = parse_usage(usage_test_file("demand-step.csv"), "demand.csv");
    ServingFleetRequest q;
    q.capacity_requests_per_second = user(10);
    q.usd_per_instance_hour = user(3);
    q.target_utilization = 1.5;
    CHECK_THROWS_WITH(plan_serving_fleets(demand, q), Catch::Contains("target_utilization") && Catch::Contains("1.5"));
    q.target_utilization = 0.7;
    q.capacity_requests_per_second = user(-1);
    CHECK_THROWS_WITH(plan_serving_fleets(demand, q), Catch::Contains("capacity_requests_per_second"));
    q.capacity_requests_per_second = user(10);
    q.min_instances = 1.5;
    CHECK_THROWS_WITH(plan_serving_fleets(demand, q), Catch::Contains("min_instances"));
    q.min_instances = 1;
    CHECK_THROWS_WITH(plan_serving_fleets(parse_usage(usage_test_file("four-hours-4-6-12.csv"), "g.csv"), q), Catch::Contains("requests/s"));
}

TEST_CASE("serving capacity at a latency target: the most requests in flight within it, from the inference model") {
    // llama-3-8b in bf16 on g6e.xlarge, 1,000 prompt + 250 output tokens, at most 40 ms between tokens.
    InferenceEstimateRequest r;
    r.serving.model = &test::preset("llama-3-8b");
    r.instance = "g6e.xlarge";
    r.prompt_tokens = 1000;
    r.output_tokens = 250;
    const ServingCapacity c = capacity_at_latency(test::builtin_catalog(), r, 0.040);
    REQUIRE(c.concurrency >= 1);
    // Independently: the model at that concurrency is within the target, one more is not.
    r.concurrency = c.concurrency;
    const InferenceEstimate at = estimate_inference(test::builtin_catalog(), r);
    CHECK(*at.inter_token_latency_seconds.value <= 0.040);
    r.concurrency = c.concurrency + 1;
    const InferenceEstimate above = estimate_inference(test::builtin_catalog(), r);
    CHECK((!above.fit.fits || *above.inter_token_latency_seconds.value > 0.040));
    CHECK(*c.requests_per_second.value == Approx(at.replicas * c.concurrency / *at.request_seconds.value));
    // A target below one request's latency cannot be met, and says what one request gets.
    CHECK_THROWS_WITH(capacity_at_latency(test::builtin_catalog(), r, 0.005), Catch::Contains("max_inter_token_seconds") && Catch::Contains("one request in flight"));
}
