// The continuous-batching simulation (serving_sim.hpp) against closed forms: queueing theory's
// M/D/1 waiting time where one request is served at a time, and the step-by-step sum of decode
// steps for a request served alone.
#include <catch2/catch.hpp>

#include <cmath>

#include "gpuplan/input_error.hpp"
#include "gpuplan/workload/serving_sim.hpp"
#include "gpuplan/workload/serving_traffic.hpp"

using namespace gpuplan;

namespace {

// P(W <= t) of the M/D/1 queue's waiting time, arrival rate lambda, service time D (Erlang 1909;
// e.g. Iversen, "Teletraffic Engineering and Network Planning", DTU 2015, eq. 13.27):
//   (1 - rho) sum_{k=0}^{floor(t/D)} (lambda (k D - t))^k / k! e^{-lambda (k D - t)}
double md1_waiting_cdf(double lambda, double D, double t) {
    const double rho = lambda * D;
    double sum = 0;
    for (int k = 0; k <= static_cast<int>(std::floor(t / D)); ++k) {
        const double x = lambda * (k * D - t);
        sum += std::pow(x, k) / std::tgamma(k + 1.0) * std::exp(-x);
    }
    return (1 - rho) * sum;
}

double md1_waiting_percentile(double lambda, double D, double q) {
    double lo = 0, hi = 100 * D;
    for (int i = 0; i < 100; ++i) {
        const double mid = (lo + hi) / 2;
        (md1_waiting_cdf(lambda, D, mid) >= q ? hi : lo) = mid;
    }
    return hi;
}

// One request in flight at a time, no prefill cost: a request's service is its (output - 1)
// decode steps of `step` seconds, and its time to first token is its wait in the queue.
ReplicaCosts one_at_a_time(double step) {
    ReplicaCosts c;
    c.weights_seconds = {step};
    c.max_sequences = 1;
    c.kv_capacity_tokens = 1e9;
    return c;
}

TrafficSpec fixed_lengths(double rate, double prompt, double output, std::size_t requests) {
    TrafficSpec t;
    t.requests_per_second = rate;
    t.prompt = {LengthDistribution::Kind::fixed, prompt, 0};
    t.output = {LengthDistribution::Kind::fixed, output, 0};
    t.requests = requests;
    t.warmup = requests / 50;
    return t;
}

}  // namespace

TEST_CASE("one request at a time is an M/D/1 queue: the waiting time's mean and percentiles match the closed form") {
    const double step = 0.01, output = 11, D = (output - 1) * step;  // 0.1 s of service
    for (const double rho : {0.5, 0.8}) {
        const double lambda = rho / D;
        const SimulatedServing s = simulate_serving(one_at_a_time(step), fixed_lengths(lambda, 1, output, 400000));
        CAPTURE(rho);
        REQUIRE(s.stable);
        // Pollaczek-Khinchine: mean wait rho D / (2 (1 - rho)).
        CHECK(s.ttft_seconds.mean == Approx(rho * D / (2 * (1 - rho))).epsilon(0.03));
        CHECK(s.ttft_seconds.p95 == Approx(md1_waiting_percentile(lambda, D, 0.95)).epsilon(0.03));
        CHECK(s.ttft_seconds.p99 == Approx(md1_waiting_percentile(lambda, D, 0.99)).epsilon(0.04));
        // The server is busy rho of the time, and every request takes its service after its wait.
        CHECK(s.busy_fraction == Approx(rho).epsilon(0.02));
        CHECK(s.e2e_seconds.mean == Approx(rho * D / (2 * (1 - rho)) + D).epsilon(0.03));
        CHECK(s.tpot_seconds.p50 == Approx(step).epsilon(0.001));
    }
    // At rho 0.4, 60% of the requests never wait: the median wait is 0.
    CHECK(simulate_serving(one_at_a_time(step), fixed_lengths(0.4 / D, 1, output, 100000)).ttft_seconds.p50 == 0);
}

TEST_CASE("a request served alone takes its prefill, then decode steps that read a growing KV cache") {
    ReplicaCosts c;
    c.fixed_seconds = 0.002;
    c.per_sequence_seconds = 0.0001;
    c.weights_seconds = {0.010, 0.011};
    c.kv_seconds_per_token = 2e-6;
    // Compute per token 0.013 s: above the memory time at first, below it after 1,500 cached
    // tokens, so the run crosses from compute-bound to memory-bound.
    c.compute_seconds_per_token = 0.013;
    c.attention_seconds_per_token = 0;
    c.prefill_seconds_per_token = 1e-4;
    c.prefill_seconds_per_token_squared = 1e-8;
    c.prefill_floor_seconds = 0.05;
    c.max_sequences = 8;
    c.kv_capacity_tokens = 100000;
    const double prompt = 1000, output = 1200;
    // Arrivals 1,000 s apart on average: nearly every request is alone.
    const SimulatedServing s = simulate_serving(c, fixed_lengths(0.001, prompt, output, 400));
    const double prefill = c.fixed_seconds + std::max(c.prefill_floor_seconds, 1e-4 * prompt + 1e-8 * prompt * prompt);
    double decode = 0;
    for (double i = 0; i < output - 1; ++i) {
        const double cached = prompt + i;
        decode += c.fixed_seconds + c.per_sequence_seconds + std::max(0.010 + 2e-6 * cached, 0.013);
    }
    CHECK(s.ttft_seconds.p50 == Approx(prefill).epsilon(0.001));
    CHECK(s.e2e_seconds.p50 == Approx(prefill + decode).epsilon(0.001));
    CHECK(s.tpot_seconds.p50 == Approx(decode / (output - 1)).epsilon(0.001));
    CHECK(decode_step_seconds(c, 1, 2000) == Approx(0.002 + 0.0001 + 0.010 + 2e-6 * 2000));
}

TEST_CASE("continuous batching serves more than one at a time: the same traffic waits far less than one at a time") {
    const double step = 0.01, output = 11;
    ReplicaCosts batched = one_at_a_time(step);
    batched.max_sequences = 64;
    const TrafficSpec t = fixed_lengths(0.95 / ((output - 1) * step), 1, output, 50000);
    const SimulatedServing alone = simulate_serving(one_at_a_time(step), t), together = simulate_serving(batched, t);
    CHECK(together.ttft_seconds.p95 < alone.ttft_seconds.p95 / 10);
    CHECK(together.mean_batch > 1);
    // With the weights read once per step whatever the batch, steps serve more tokens each.
    CHECK(together.busy_fraction < alone.busy_fraction);
}

TEST_CASE("a replica that cannot keep up is said to be unstable, with the queue it left") {
    const double step = 0.01, output = 11;
    const SimulatedServing s = simulate_serving(one_at_a_time(step), fixed_lengths(1.2 / ((output - 1) * step), 1, output, 20000));
    CHECK_FALSE(s.stable);
    CHECK(s.why_unstable.find("queue grows without bound") != std::string::npos);
}

TEST_CASE("the same seed gives the same simulation; lengths follow their distribution") {
    ReplicaCosts c = one_at_a_time(0.001);
    c.max_sequences = 16;
    TrafficSpec t = fixed_lengths(50, 100, 100, 20000);
    t.output = parse_length_distribution("exponential:100:1000", "output");
    t.prompt = parse_length_distribution("uniform:10:30", "prompt");
    const SimulatedServing a = simulate_serving(c, t), b = simulate_serving(c, t);
    CHECK(a.e2e_seconds.p95 == b.e2e_seconds.p95);
    CHECK(a.ttft_seconds.mean == b.ttft_seconds.mean);
    // Output tokens per second = rate x mean output (every request finishes).
    CHECK(a.output_tokens_per_second == Approx(50 * t.output.mean()).epsilon(0.03));
    CHECK(t.output.mean() == Approx(100 * (1 - std::exp(-10.0))));
    CHECK(t.prompt.mean() == 20);
}

TEST_CASE("bad traffic is refused naming the field") {
    const ReplicaCosts c = one_at_a_time(0.01);
    CHECK_THROWS_AS(simulate_serving(c, fixed_lengths(0, 1, 10, 1000)), InputError);
    ReplicaCosts small = c;
    small.kv_capacity_tokens = 100;
    CHECK_THROWS_WITH(simulate_serving(small, fixed_lengths(1, 64, 64, 1000)), Catch::Contains("fits the replica's KV cache"));
    CHECK_THROWS_WITH(parse_length_distribution("uniform:50:10", "--output-tokens-dist"), Catch::Contains("--output-tokens-dist"));
    CHECK_THROWS_AS(parse_length_distribution("normal:5", "x"), InputError);
    CHECK_THROWS_AS(parse_length_distribution("0", "x"), InputError);
    CHECK(parse_length_distribution("exponential:200", "x").text() == "exponential:200");
}

TEST_CASE("the replicas for a rate are the fewest whose own simulation meets the target, and one fewer does not") {
    ReplicaCosts c = one_at_a_time(0.01);
    c.max_sequences = 4;
    c.prefill_seconds_per_token = 1e-4;
    TrafficRequest q;
    q.requests_per_second = 40;
    q.prompt = parse_length_distribution("uniform:100:500", "prompt");
    q.output = parse_length_distribution("exponential:50:400", "output");
    q.targets = {parse_latency_target("p95-ttft-ms=200", "target")};
    q.requests = 8000;
    const TrafficPlan plan = plan_for_traffic(c, q);
    REQUIRE(plan.met);
    REQUIRE(plan.replicas > 1);
    // The same simulation, run here at R and R - 1 replicas' share of the rate.
    const auto p95_ttft = [&](double replicas) {
        TrafficSpec t;
        t.requests_per_second = q.requests_per_second / replicas;
        t.prompt = q.prompt;
        t.output = q.output;
        t.requests = q.requests;
        t.warmup = q.requests / 20;
        t.extra_percentiles = {95};
        const SimulatedServing s = simulate_serving(c, t);
        return s.stable ? s.ttft_seconds.extra[0] : 1e9;
    };
    CHECK(p95_ttft(plan.replicas) <= 0.2);
    CHECK(p95_ttft(plan.replicas - 1) > 0.2);
    CHECK(plan.achieved_seconds.at(0) == p95_ttft(plan.replicas));
    CHECK(plan.replicas_figure.value == plan.replicas);
    CHECK(plan.ttft_p95.value == Approx(plan.per_replica.ttft_seconds.p95));
}

TEST_CASE("a target below what one request alone takes is not met by any fleet, and says the closest") {
    ReplicaCosts c = one_at_a_time(0.01);
    c.prefill_floor_seconds = 0.05;
    TrafficRequest q;
    q.requests_per_second = 2;
    q.targets = {parse_latency_target("p50-ttft-ms=10", "target")};
    q.requests = 4000;
    q.max_replicas = 64;
    const TrafficPlan plan = plan_for_traffic(c, q);
    CHECK_FALSE(plan.met);
    CHECK_FALSE(plan.replicas_figure.value.has_value());
    CHECK(plan.why_not.find("the closest, 64 replicas: p50 time to first token 50") != std::string::npos);
    CHECK_THROWS_WITH(parse_latency_target("p0-ttft-ms=10", "--target"), Catch::Contains("between 0 and 100"));
    CHECK_THROWS_WITH(parse_latency_target("p95-ttft-ms=0", "--target"), Catch::Contains("> 0"));
    CHECK(parse_latency_target("p99.9-e2e-ms=30000", "x").text() == "p99.9-e2e-ms=30000");
}
