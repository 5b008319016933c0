// The steps of an inference estimate (inference_steps.hpp), one by one, each against its formula
// worked by hand here. estimate_inference chains them; inference_test.cpp and the accuracy
// corpus check the chain against published measurements.
#include <catch2/catch.hpp>

#include "fixtures.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/workload/inference_steps.hpp"

using namespace gpuplan;
using namespace gpuplan::inference_steps;
using test::p;

namespace {
Figure known(const char* name, double v, const char* unit) { return make_figure(name, v, unit, name, "", {}); }

ParameterCount active_params(double active) {
    ParameterCount c;
    c.active = active;
    c.active_figure = known("active_parameters", active, "");
    return c;
}

InferenceEstimateRequest request_with_overhead(double overhead_seconds) {
    InferenceEstimateRequest q;
    q.serving.model = &test::model("llama-3-8b");
    q.step_overhead_seconds = overhead_seconds;
    return q;
}
}  // namespace

TEST_CASE("compute ceiling: devices x peak x efficiency / (2 x active + 4 x layers x context x heads x head dim)", "[inference-steps]") {
    const ModelSpec& m = test::model("llama-3-8b");  // 32 layers, 32 heads x 128
    DensePeak peak;
    peak.tflops = p(989);
    const Figure f = compute_ceiling(m, active_params(8e9), 2, 4096, peak, p(0.4));
    const double per_token = 2 * 8e9 + 4 * 32 * 4096.0 * (32 * 128);
    CHECK(*f.value == Approx(2 * 989e12 * 0.4 / per_token));
    DensePeak none;
    none.why = "no dense figure";
    const Figure unknown = compute_ceiling(m, active_params(8e9), 2, 4096, none, p(0.4));
    CHECK_FALSE(unknown.value);
    CHECK(unknown.unknown_reason == "no dense figure");
}

TEST_CASE("weight read: active parameters x bytes / (devices x bandwidth x efficiency)", "[inference-steps]") {
    // 70e9 x 1 byte / (2 x 4800e9 x 0.8) = 9.1146 ms
    CHECK(*weight_read_seconds(active_params(70e9), 1, 2, p(4800), p(0.8)).value == Approx(70e9 / (2 * 4800e9 * 0.8)));
}

TEST_CASE("decode step: batch over the slower roofline, plus the fixed step cost; rates follow from it", "[inference-steps]") {
    InferenceEstimate e;
    e.tensor_parallel = 1, e.replicas = 4;
    e.roofline.tokens_per_second_expected = known("tokens_per_second", 100, "tokens/s");
    e.compute_ceiling = known("tokens_per_second_compute_ceiling", 1000, "tokens/s");
    decode_step(request_with_overhead(0.01), 8, nullptr, e);
    CHECK_FALSE(e.compute_bound);
    CHECK(*e.decode_step_seconds.value == Approx(8.0 / 100 + 0.01));
    CHECK(*e.per_replica.value == Approx(8 / 0.09));
    CHECK(*e.per_instance.value == Approx(4 * 8 / 0.09));
    CHECK(*e.tensor_parallel_seconds_per_step.value == 0);  // no tensor parallel, no all-reduce
    CHECK(*e.inter_token_latency_seconds.value == *e.decode_step_seconds.value);
    CHECK(*e.output_tokens_per_second.value == *e.per_instance.value);

    e.compute_ceiling = known("tokens_per_second_compute_ceiling", 50, "tokens/s");  // now the FLOPs are slower
    decode_step(request_with_overhead(0.01), 8, nullptr, e);
    CHECK(e.compute_bound);
    CHECK(*e.decode_step_seconds.value == Approx(8.0 / 50 + 0.01));
}

TEST_CASE("time to first token is never faster than one read of the weights", "[inference-steps]") {
    const ModelSpec& m = test::model("llama-3-8b");
    InferenceEstimate e;
    e.tensor_parallel = 1, e.prompt_tokens = 16;
    e.peak.tflops = p(989);
    e.compute_efficiency = p(0.4);
    e.weight_read_seconds = known("weight_read_seconds", 1.0, "s");  // far longer than 16 tokens' prefill
    time_to_first_token_step(m, 1, 1, nullptr, e);
    CHECK(*e.prefill_seconds.value < 1.0);
    CHECK(*e.time_to_first_token_seconds.value == 1.0);
    e.weight_read_seconds = known("weight_read_seconds", 1e-9, "s");
    time_to_first_token_step(m, 1, 1, nullptr, e);
    CHECK(*e.time_to_first_token_seconds.value == *e.prefill_seconds.value);
    e.peak = DensePeak{std::nullopt, "", "peak unknown"};
    time_to_first_token_step(m, 1, 1, nullptr, e);
    CHECK_FALSE(e.time_to_first_token_seconds.value);
}

TEST_CASE("resolve_request: under load the batch is the concurrency and the context grows by half the output", "[inference-steps]") {
    InferenceEstimateRequest q;
    q.serving.model = &test::model("llama-3-8b");
    q.instance = "p5.48xlarge";
    q.prompt_tokens = 1000, q.output_tokens = 200, q.concurrency = 16;
    InferenceEstimate e;
    const InferenceFitRequest asked = resolve_request(test::catalog(), q, e);
    CHECK(asked.batch == 16);
    CHECK(asked.context == 1200);
    CHECK(e.decode_context == 1100);
    CHECK(e.tensor_parallel == 8);  // every GPU of the instance by default
    q.output_tokens.reset(), q.concurrency.reset();
    q.serving.context = 500;
    CHECK_THROWS_WITH(resolve_request(test::catalog(), q, e), Catch::Contains("prompt_tokens"));
}
