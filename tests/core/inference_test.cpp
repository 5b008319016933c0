// The inference estimate (core/gpuplan/workload/inference.hpp): the W3 decode roofline with its
// efficiency, the compute ceiling, time to first token and $ per 1M tokens, each against hand
// arithmetic on catalog facts; and the refusals `gpuplan infer` and the scenario share.
#include <catch2/catch.hpp>

#include <cmath>

#include "gpuplan/catalog/catalog.hpp"
#include "fixtures.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/workload/inference.hpp"

using namespace gpuplan;

namespace {
using test::catalog;
using test::model;
InferenceEstimateRequest w3(double batch, double context) {
    InferenceEstimateRequest q;
    q.serving.model = &model("llama-3-8b");
    q.serving.batch = batch;
    q.serving.context = context;
    q.instance = "g6e.xlarge";
    return q;
}
}  // namespace

TEST_CASE("W3 on one L40S: memory-bound decode at 80% of 864 GB/s, the compute ceiling above it", "[inference]") {
    const InferenceEstimate e = estimate_inference(catalog(), w3(32, 2048));
    REQUIRE(e.fit.fits);
    // W3: bytes per step = 16.06 GB weights + 32 x 2,048 x 131,072 B KV = 24.65 GB;
    // 864 / 24.65 = 35.05 steps/s -> 1,121.6 tokens/s upper bound; 80% of it expected.
    const double bytes = 2 * 8030261248.0 + 32 * 2048 * 131072.0;
    CHECK(*e.roofline.bytes_per_step.value == Approx(bytes));
    CHECK(std::round(*e.roofline.tokens_per_second.value * 10) / 10 == 1121.6);
    CHECK(*e.roofline.tokens_per_second_expected.value == Approx(864e9 / bytes * 32 * 0.8));
    // Compute ceiling: dense peak x 40% / (2 x 8.03e9 + 4 x 32 layers x 2,048 x 32 heads x 128).
    const double peak = *catalog().find_accelerator("L40S")->dense_tflops.bf16;
    const double ceiling = peak * 1e12 * 0.4 / (2 * 8030261248.0 + 4.0 * 32 * 2048 * 32 * 128);
    CHECK(*e.compute_ceiling.value == Approx(ceiling));
    CHECK_FALSE(e.compute_bound);  // the ceiling is far above 897 tokens/s
    // A step: 32 / 897.28 tokens/s = 35.66 ms of memory traffic, plus the fixed step cost (3.2 ms,
    // fitted on V-I1); no tensor parallel. 32 / 38.86 ms = 823.4 tokens/s.
    CHECK(*e.tensor_parallel_seconds_per_step.value == 0);
    CHECK(*e.step_overhead_seconds.value == 0.0032);
    CHECK(*e.decode_step_seconds.value == Approx(32 / *e.roofline.tokens_per_second_expected.value + 0.0032));
    CHECK(*e.per_instance.value == Approx(32 / *e.decode_step_seconds.value));
    CHECK(*e.inter_token_latency_seconds.value == Approx(*e.decode_step_seconds.value));
    CHECK(e.replicas == 1);
    // TTFT: prefill of 32 x 2,048 tokens at 40% of peak, never under one read of the weights
    // (16.06 GB / (864 GB/s x 0.8) = 23.2 ms).
    CHECK(*e.weight_read_seconds.value == Approx(2 * 8030261248.0 / (864e9 * 0.8)));
    CHECK(*e.time_to_first_token_seconds.value == Approx(std::max(*e.prefill_seconds.value, *e.weight_read_seconds.value)));
    // $ per 1M tokens at the catalog's us-east-1 on-demand price of a g6e.xlarge ($1.861/h).
    CHECK(*e.usd_per_million_tokens_on_demand.value == Approx(1.861 / (*e.per_instance.value * 3600) * 1e6));
    CHECK(e.per_instance.rests_on_assumption());  // the 80% default
}

TEST_CASE("a measured bandwidth replaces the datasheet and its efficiency is 1", "[inference]") {
    InferenceEstimateRequest q = w3(1, 2048);
    q.measured_bandwidth_gb_per_s = 700;
    const InferenceEstimate e = estimate_inference(catalog(), q);
    CHECK(e.bandwidth_measured);
    CHECK(e.bandwidth_efficiency.value == 1);
    CHECK(*e.roofline.tokens_per_second_expected.value == Approx(700e9 / (2 * 8030261248.0 + 2048 * 131072.0)));
}

TEST_CASE("tensor parallel on a 4-GPU node: replicas, per GPU and per instance", "[inference]") {
    InferenceEstimateRequest q = w3(8, 4096);
    q.instance = "g6e.12xlarge";
    q.serving.tensor_parallel = 2;
    const InferenceEstimate e = estimate_inference(catalog(), q);
    CHECK(e.replicas == 2);
    CHECK(*e.per_gpu.value == Approx(*e.per_replica.value / 2));
    CHECK(*e.per_instance.value == Approx(*e.per_replica.value * 2));
}

TEST_CASE("inference refusals: a request that does not fit comes back unfit; bad fields are named", "[inference][bad-input]") {
    InferenceEstimateRequest q = w3(1, 8192);
    q.serving.model = &model("llama-3.1-70b");
    const InferenceEstimate e = estimate_inference(catalog(), q);
    CHECK_FALSE(e.fit.fits);
    CHECK(e.fit.refusal.find("does not fit on 1 x L40S") != std::string::npos);
    CHECK_FALSE(e.per_instance.value);  // nothing else computed

    q = w3(1, 1024);
    q.prompt_tokens = 2048;
    CHECK_THROWS_WITH(estimate_inference(catalog(), q), Catch::Contains("prompt_tokens: got 2048; expected at most the context (1024)"));
    q = w3(1, 1024);
    q.region = "mars-1";
    CHECK_THROWS_WITH(estimate_inference(catalog(), q), Catch::Contains("region: got 'mars-1'"));
    q = w3(1, 1024);
    q.instance = "g6e.12xlarge";
    q.serving.tensor_parallel = 3;
    CHECK_THROWS_WITH(estimate_inference(catalog(), q), Catch::Contains("tensor_parallel: got 3"));
}

// An unknown peak (Qualcomm publishes no BF16 figure for the Cloud AI 100 Standard, dl2q's
// accelerator) makes the prefill, every figure under load and their $ per 1M tokens unknown
// with that reason, never a NaN refused as an overflow (issue 29: `infer --concurrency` on g7e
// exited 2).
TEST_CASE("an unknown dense peak makes the under-load figures and their cost unknown, with the reason", "[inference][unknown]") {
    const Accelerator* chip = catalog().find_accelerator(catalog().find_instance("dl2q.24xlarge")->accelerator.value());
    REQUIRE(chip);
    REQUIRE_FALSE(chip->dense_tflops.bf16);  // the premise: no published dense BF16 figure
    InferenceEstimateRequest q;
    q.serving.model = &model("llama-3-8b");
    q.instance = "dl2q.24xlarge";
    q.region = "us-west-2";
    q.prompt_tokens = 1000;
    q.output_tokens = 200;
    q.concurrency = 8;
    const InferenceEstimate e = estimate_inference(catalog(), q);
    REQUIRE(e.fit.fits);
    CHECK(e.roofline.tokens_per_second.value);  // the memory roofline needs no peak
    for (const Figure* f : {&e.time_to_first_token_seconds, &e.inter_token_latency_seconds, &e.output_tokens_per_second})
        CHECK_FALSE(f->value);
    CHECK_FALSE(e.usd_per_million_tokens_on_demand.value);
    CHECK(e.usd_per_million_tokens_on_demand.unknown_reason.find("tokens per second unknown: prefill time unknown") == 0);
    CHECK_FALSE(e.usd_per_million_tokens_spot.value);  // whatever the spot price, the rate is unknown
    const nlohmann::json j = to_json(e);  // threw "which give no number" before
    CHECK(j.dump().find("NaN") == std::string::npos);
}

// T4 has no BF16: the peak is "n/a", but the derived figures are unknown (serving applies; its
// time cannot be computed), so the chain does not say "n/a" again.
TEST_CASE("a peak that does not apply leaves the derived under-load figures unknown, not n/a", "[inference][unknown]") {
    InferenceEstimateRequest q;
    q.serving.model = &model("llama-3.2-1b");
    q.instance = "g4dn.xlarge";
    q.prompt_tokens = 500;
    q.output_tokens = 100;
    q.concurrency = 4;
    const InferenceEstimate e = estimate_inference(catalog(), q);
    REQUIRE(e.fit.fits);
    CHECK(e.peak.why.rfind("n/a: ", 0) == 0);
    CHECK(e.output_tokens_per_second.unknown_reason.find("n/a") == std::string::npos);
    CHECK_FALSE(e.usd_per_million_tokens_on_demand.value);
}
