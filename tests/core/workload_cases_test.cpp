// The cases of shared/cases/workloads.md: exact figures (W1-W5) reproduced exactly (to the
// parameter, byte or 4 significant digits), and the measured W6 ratio within its tolerance.
// Expected values are the case's own numbers or hand arithmetic shown beside them.
#include <catch2/catch.hpp>

#include <cmath>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/workload/compute.hpp"
#include "gpuplan/workload/memory.hpp"
#include "gpuplan/workload/model.hpp"
#include "fixtures.hpp"

using namespace gpuplan;

namespace {
using test::model;
using test::sig4;
using test::dp2;
using test::p;
}  // namespace

TEST_CASE("parameter counts come out of the architecture", "[workload][params]") {
    CHECK(count_parameters(model("llama-3-8b")).total == 8030261248.0);
    CHECK(count_parameters(model("llama-3.1-8b")).total == 8030261248.0);
    CHECK(count_parameters(model("llama-3.1-70b")).total == 70553706496.0);
    CHECK(count_parameters(model("llama-3.2-1b")).total == 1235814400.0);
    // Published totals (model cards), to the precision they are published:
    CHECK(sig4(count_parameters(model("mixtral-8x7b")).total) == 4.670e10);   // 46.7B
    CHECK(sig4(count_parameters(model("mixtral-8x7b")).active) == 1.288e10);  // 12.9B
    CHECK(sig4(count_parameters(model("qwen2.5-72b")).total) == 7.271e10);    // 72.7B (72,706,203,648)
    CHECK(std::round(count_parameters(model("deepseek-v3")).total / 1e9) == 671);   // 671B
    CHECK(std::round(count_parameters(model("deepseek-v3")).active / 1e9) == 38);   // "37B activated" (37.5B)
    CHECK(std::round(count_parameters(model("llama-3.1-405b")).total / 1e9) == 406); // 405.9B
    CHECK(std::round(count_parameters(model("mistral-7b")).total / 1e7) == 724);    // 7.24B
}

TEST_CASE("W1 training memory by ZeRO stage", "[workload][W1]") {
    TrainingMemoryRequest q;
    q.model = &model("llama-3-8b");
    q.data_parallel = 4;
    auto states = [&](int stage) {
        q.zero_stage = stage;
        return training_memory(q);
    };
    CHECK(dp2(*states(0).model_states_gb.value) == 128.48);
    CHECK(dp2(*states(0).model_states_gb.value * 1e9 / kBytesPerGiB) == 119.66);
    CHECK(*states(0).bytes_per_parameter.value == 16);
    CHECK(dp2(*states(1).model_states_gb.value) == 56.21);
    CHECK(*states(1).bytes_per_parameter.value == 7);
    CHECK(dp2(*states(2).model_states_gb.value) == 44.17);
    CHECK(*states(2).bytes_per_parameter.value == 5.5);
    CHECK(dp2(*states(3).model_states_gb.value) == 32.12);
    CHECK(*states(3).bytes_per_parameter.value == 4);
    // Offloading the optimizer moves its 12/4 bytes per parameter to host memory.
    q.zero_stage = 1;
    q.offload_optimizer = true;
    const TrainingMemory off = training_memory(q);
    CHECK(dp2(*off.model_states_gb.value) == dp2(8030261248.0 * 4 / 1e9));
    CHECK(dp2(*off.host_per_gpu_gb.value) == dp2(8030261248.0 * 3 / 1e9));
    q.offload_parameters = true;  // only with stage 3
    CHECK_THROWS_AS(training_memory(q), InputError);
}

TEST_CASE("ZeRO-3: more GPUs never raise per-GPU model-state memory", "[workload][property]") {
    for (const auto& m : builtin_models()) {
        TrainingMemoryRequest q;
        q.model = &m;
        q.zero_stage = 3;
        double previous = INFINITY;
        for (double gpus = 1; gpus <= 1024; gpus *= 2) {
            q.data_parallel = gpus;
            const double now = *training_memory(q).model_states_gb.value;
            CHECK(now <= previous);
            previous = now;
        }
    }
}

TEST_CASE("W2 inference memory of llama-3.1-70b", "[workload][W2]") {
    InferenceMemoryRequest q;
    q.model = &model("llama-3.1-70b");
    q.batch = 16;
    q.context = 8192;
    CHECK(dp2(*inference_memory(q).weights_gb.value) == 141.11);
    CHECK(*kv_cache_bytes_per_token(*q.model, 2).value == 327680);
    CHECK(dp2(*inference_memory(q).kv_cache_gb.value) == 42.95);
    CHECK(dp2(*inference_memory(q).kv_cache_gb.value * 1e9 / kBytesPerGiB) == 40.00);
    q.weight_bytes = 1;
    CHECK(dp2(*inference_memory(q).weights_gb.value) == 70.55);
    q.batch = 1;
    CHECK(dp2(*inference_memory(q).kv_cache_gb.value) == 2.68);

    // Two L40S (catalog: 44.7 GiB each as EC2 reports it = 48.0 GB), tensor parallel.
    const Catalog catalog = load_builtin_catalog();
    const double capacity_gb = 2 * *catalog.find_accelerator("L40S")->memory_gib * kBytesPerGiB / 1e9;
    auto fits = [&](double weight_bytes, double batch) {
        InferenceMemoryRequest r = q;
        r.weight_bytes = weight_bytes;
        r.batch = batch;
        r.tensor_parallel = 2;
        return *inference_memory(r).total_gb.value <= capacity_gb;
    };
    CHECK_FALSE(fits(2, 1));  // bf16: weights alone are 141 GB: the "70B on 2 x 48 GB without quantization" claim is wrong
    CHECK_FALSE(fits(1, 16)); // fp8, 16 x 8K: 113.5 GB before overhead
    CHECK(fits(1, 1));        // fp8, 1 x 8K: 73.2 GB plus overhead
    q.weight_bytes = 1;
    q.tensor_parallel = 2;
    const double max_batch = max_batch_that_fits(q, capacity_gb);
    CHECK(max_batch >= 1);
    CHECK(max_batch < 16);
}

TEST_CASE("W3 decode roofline of llama-3-8b on one L40S", "[workload][W3]") {
    const Param bw = p(864);
    const auto one = decode_roofline(model("llama-3-8b"), 2, 2, 1, 0, 1, bw, p(1));
    CHECK(dp2(*one.tokens_per_second.value) == 53.80);
    const auto many = decode_roofline(model("llama-3-8b"), 2, 2, 32, 2048, 1, bw, p(1));
    CHECK(dp2(*many.bytes_per_step.value / 1e9) == 24.65);
    CHECK(dp2(*many.steps_per_second.value) == 35.05);
    CHECK(sig4(*many.tokens_per_second.value) == 1122);  // 1,121.6
    // Expected throughput applies the bandwidth efficiency.
    const auto eff = decode_roofline(model("llama-3-8b"), 2, 2, 32, 2048, 1, bw, default_bandwidth_efficiency());
    CHECK(*eff.tokens_per_second_expected.value == Approx(*many.tokens_per_second.value * 0.8));
    CHECK(eff.tokens_per_second_expected.rests_on_assumption());
}

TEST_CASE("W4 training compute", "[workload][W4]") {
    // 6N: with no sequence term (sequence 0), the step model counts 3 x 2N per token.
    const TrainingFlops six_n = training_step_flops(model("llama-3-8b"), 1e6, 0, RecomputeFlops::none);
    CHECK(sig4(*six_n.hardware.value) == 4.818e16);
    // Full recompute adds one forward: 8N.
    CHECK(*training_step_flops(model("llama-3-8b"), 1e6, 0, RecomputeFlops::full).hardware.value == Approx(*six_n.hardware.value * 8 / 6));
    // W4's per-layer count adds 4 x layers x seq x heads x head_dim per token forward (all the
    // scores): 3 x (2 x 8,030,261,248 + 4 x 32 x 8192 x 4096) x 1e6 = 6.107e16 (6.1066e16). The
    // step model counts causal attention, half of that term: 4.818e16 + (6.1066e16 - 4.818e16) / 2.
    const double w4_per_layer = 3 * (2 * 8030261248.0 + 4 * 32 * 8192 * 4096.0) * 1e6;
    CHECK(sig4(w4_per_layer) == 6.107e16);
    const TrainingFlops causal = training_step_flops(model("llama-3-8b"), 1e6, 8192, RecomputeFlops::none);
    CHECK(*causal.hardware.value == Approx(*six_n.hardware.value + (w4_per_layer - *six_n.hardware.value) / 2).epsilon(1e-12));
}

TEST_CASE("W5 collective cost (alpha-beta)", "[workload][W5]") {
    const Figure ar = collective_seconds(Collective::all_reduce, 1073741824.0, 8, p(450), p(0));
    CHECK(sig4(*ar.value * 1e3) == 4.176);
    const Figure ag = collective_seconds(Collective::all_gather, 1073741824.0, 8, p(450), p(0));
    CHECK(*ag.value == Approx(*ar.value / 2));
    // Latency: 2 (n-1) steps of alpha.
    CHECK(*collective_seconds(Collective::all_reduce, 0, 8, p(450), p(10)).value == Approx(14 * 10e-6));
    CHECK(*collective_seconds(Collective::all_reduce, 1e9, 1, p(450), p(10)).value == 0);
}

TEST_CASE("W6 single-GPU training: L40S/A100 time ratio with default efficiencies", "[workload][W6]") {
    // Llama-3.2-1B, same tokens on each GPU: time ratio = (peak_A100 x eff) / (peak_L40S x eff).
    const Catalog catalog = load_builtin_catalog();
    const Figure flops = training_step_flops(model("llama-3.2-1b"), 1e9, 0, RecomputeFlops::full).hardware;  // 8N: gradient checkpointing
    const Param eff = default_compute_efficiency();
    const Param a100{*catalog.find_accelerator("A100-40GB")->dense_tflops.bf16, InputOrigin::catalog, "A100-40GB"};
    const Param l40s{*catalog.find_accelerator("L40S")->dense_tflops.bf16, InputOrigin::catalog, "L40S"};
    const double ratio = *compute_seconds(flops, 1, l40s, eff).value / *compute_seconds(flops, 1, a100, eff).value;
    // Measured: 19 min 26 s / 20 min 40 s = 0.940; tolerance +-15%.
    const double measured = (19 * 60 + 26) / (20.0 * 60 + 40);
    CHECK(std::round(measured * 1000) / 1000 == 0.940);
    CHECK(ratio > measured * 0.85);
    CHECK(ratio < measured * 1.15);
}

TEST_CASE("model documents: bad architectures are named", "[workload][bad-input]") {
    using Catch::Matchers::Contains;
    auto error = [](const std::string& model_json) -> std::string {
        try {
            (void)load_models({{"m.json", R"({"schema": "gpuplan.models/1", "models": [)" + model_json + "]}"}});
        } catch (const InputError& e) {
            return e.what();
        }
        return "(no error)";
    };
    const std::string ok = R"({"name": "x", "family": "llama", "layers": 2, "hidden": 64, "heads": 4, "kv_heads": 2, "head_dim": 16,
                               "ffn": 128, "vocab": 100, "tied_embeddings": true, "source": "test"})";
    CHECK(error(ok) == "(no error)");
    auto with = [&](const std::string& from, const std::string& to) {
        std::string s = ok;
        return s.replace(s.find(from), from.size(), to);
    };
    CHECK_THAT(error(with("\"layers\": 2", "\"layers\": 0")), Contains("$.models[0].layers") && Contains("from 1 to 10,000"));
    // Sizes no model has (issue 34: these were read, and figures overflowed or became inf).
    CHECK_THAT(error(with("\"layers\": 2", "\"layers\": 1e15")), Contains("$.models[0].layers: got 1") && Contains("from 1 to 10,000"));
    CHECK_THAT(error(with("\"hidden\": 64", "\"hidden\": 1e300")), Contains("$.models[0].hidden") && Contains("from 1 to 10,000,000"));
    CHECK_THAT(error(with("\"vocab\": 100", "\"vocab\": 1e9")), Contains("$.models[0].vocab") && Contains("to 100,000,000"));
    CHECK(error(with("\"layers\": 2", "\"layers\": 10000")) == "(no error)");
    CHECK_THAT(error(with("\"kv_heads\": 2", "\"kv_heads\": 8")), Contains("$.models[0].kv_heads") && Contains("at most heads"));
    CHECK_THAT(error(with("\"kv_heads\": 2", "\"kv_heads\": 3")), Contains("kv_heads") && Contains("divisor of heads"));
    // heads x head_dim need not be hidden (Gemma 3 1B: 4 x 256 against 1,152): the projections map between them.
    CHECK(error(with("\"head_dim\": 16", "\"head_dim\": 24")) == "(no error)");
    CHECK_THAT(error(with("\"layers\": 2", "\"layers\": 2.5")), Contains("layers") && Contains("whole number"));
    CHECK_THAT(error(with("\"vocab\": 100", "\"vocab\": 100, \"vocabulary\": 5")), Contains("vocabulary") && Contains("unknown key"));
}
