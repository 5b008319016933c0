// Memory fit on a pool of GPUs (core/gpuplan/workload/fit.hpp): capacity, margin, the largest
// batch and context, and the changes that would make a request fit — the answers `gpuplan fit`,
// `gpuplan infer`, `gpuplan train` and the scenario's `fit` section all take from here.
// Expected values are shared/cases/workloads.md (W1, W2) or the hand arithmetic beside them.
#include <catch2/catch.hpp>

#include <cmath>

#include "gpuplan/catalog/catalog.hpp"
#include "fixtures.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/workload/fit.hpp"

using namespace gpuplan;

namespace {
using test::catalog;
using test::model;
using test::dp2;
std::vector<std::string> changes(const std::vector<FitAlternative>& alternatives) {
    std::vector<std::string> out;
    for (const auto& a : alternatives) out.push_back(a.change);
    return out;
}
constexpr double kGiB = 1073741824.0;
}  // namespace

TEST_CASE("inference fit: llama-3-8b on one L40S, capacity, margin, largest batch and context", "[fit][inference]") {
    const GpuPool pool = instance_pool(catalog(), "g6e.xlarge", 1, "instance");
    CHECK(pool.gpus() == 1);
    CHECK(pool.gib_each == 44.7);  // catalog: 44.7 GiB per L40S as EC2 reports it
    InferenceFitRequest q;
    q.model = &model("llama-3-8b");
    q.batch = 1;
    q.context = 8192;
    const InferenceFit f = check_inference_fit(q, pool);
    // Hand arithmetic: capacity 44.7 GiB = 47.99626 GB; weights 2 x 8,030,261,248 B; KV
    // 2 x 32 layers x 8 heads x 128 x 2 B = 131,072 B/token x 8,192; overhead 2 GiB (default).
    const double cap = 44.7 * kGiB / 1e9, weights = 2 * 8030261248.0 / 1e9, kv = 131072.0 * 8192 / 1e9, over = 2 * kGiB / 1e9;
    CHECK(*f.capacity_gb.value == Approx(cap));
    CHECK(*f.memory.total_gb.value == Approx(weights + kv + over));
    CHECK(*f.margin_gb.value == Approx(cap - weights - kv - over));
    CHECK(f.fits);
    CHECK(f.alternatives.empty());
    // floor((47.99626 - 16.06052 - 2.14748) GB / (131,072 x 8,192 B)) = floor(27.74) = 27
    CHECK(*f.max_batch.value == 27);
    CHECK(*f.max_context.value == std::floor((cap - weights - over) * 1e9 / 131072.0));
    CHECK(f.verdict.rfind("fits: yes", 0) == 0);
}

TEST_CASE("inference fit W2: llama-3.1-70b on two L40S, why bf16 fails and what would fit", "[fit][inference]") {
    const GpuPool pool = instance_pool(catalog(), "g6e.12xlarge", 1, "instance");
    InferenceFitRequest q;
    q.model = &model("llama-3.1-70b");
    q.tensor_parallel = 2;
    q.batch = 1;
    q.context = 8192;
    const InferenceFit bf16 = check_inference_fit(q, pool);
    CHECK(dp2(*bf16.memory.weights_gb.value) == 141.11);  // W2
    CHECK_FALSE(bf16.fits);
    CHECK(bf16.weights_alone_too_big);
    CHECK(bf16.verdict.find("is therefore wrong") != std::string::npos);  // the claim W2 refutes
    // Three L40S: 141.11 + 2.68 + 3 x 2.15 = 150.23 GB > 3 x 48.00 = 143.99 GB; four fit, and
    // tensor parallel 4 divides the 4 GPUs of a g6e.12xlarge. fp8 and int4 weights fit on two;
    // a smaller KV cache cannot help while the weights alone are too big (so it is not offered).
    CHECK(changes(bf16.alternatives) == std::vector<std::string>{"--tp 4 on g6e.12xlarge", "--dtype fp8", "--dtype int4"});
    CHECK(bf16.alternatives[1].fits);
    CHECK(dp2(*bf16.alternatives[1].total_gb) == dp2(70.553706496 + 2.68435456 + 2 * 2 * kGiB / 1e9));

    q.dtype = "fp8";
    q.batch = 16;  // W2: fp8 with batch 16 x 8K does not fit (113.5 GB before overhead)
    const InferenceFit fp8 = check_inference_fit(q, pool);
    CHECK_FALSE(fp8.fits);
    CHECK_FALSE(fp8.weights_alone_too_big);
    CHECK(dp2(*fp8.memory.weights_gb.value + *fp8.memory.kv_cache_gb.value) == 113.5);
    CHECK(fp8.refusal.find("--batch / --context") == 0);
    const std::vector<std::string> fp8_changes = changes(fp8.alternatives);
    CHECK(std::find(fp8_changes.begin(), fp8_changes.end(), "--kv-dtype fp8") != fp8_changes.end());
}

TEST_CASE("inference fit refuses tensor parallel that does not divide the node", "[fit][inference][bad-input]") {
    const GpuPool pool = instance_pool(catalog(), "g6e.12xlarge", 1, "instance");
    InferenceFitRequest q;
    q.model = &model("llama-3-8b");
    q.tensor_parallel = 3;
    CHECK_THROWS_WITH(check_inference_fit(q, pool), Catch::Contains("tensor_parallel: got 3; expected a divisor of the 4 GPUs"));
    q.tensor_parallel = 8;
    CHECK_THROWS_WITH(check_inference_fit(q, pool), Catch::Contains("at most the 4 GPUs"));
}

TEST_CASE("training fit W1: model states by ZeRO stage on 4 x 80 GiB, and host memory with offload", "[fit][training]") {
    const GpuPool pool = bare_pool(4, 80);
    TrainingFitRequest r;
    r.model = &model("llama-3-8b");
    r.zero_stage = 2;
    const TrainingFit f = check_training_fit(training_request(r, pool), pool);
    CHECK(f.request.data_parallel == 4);                  // GPUs / (tp x pp)
    CHECK(dp2(*f.memory.model_states_gb.value) == 44.17);  // W1, stage 2
    CHECK(*f.capacity_gb.value == Approx(80 * kGiB / 1e9));
    CHECK(f.fits);
    CHECK_FALSE(f.host_fits.has_value());  // nothing offloaded
    CHECK_FALSE(f.host_ram_gb.value);      // no instance: RAM unknown, with the reason
    CHECK(f.host_ram_gb.unknown_reason.find("host RAM unknown") != std::string::npos);

    r.zero_stage = 3;
    r.offload_optimizer = true;
    r.offload_parameters = true;
    const GpuPool p4d = instance_pool(catalog(), "p4d.24xlarge", 1, "instance");
    const TrainingFit off = check_training_fit(training_request(r, p4d), p4d);
    // Host: weights 2 B + optimizer 12 B per parameter, sharded over 8 ranks, x 8 GPUs per node
    // = 14 x 8,030,261,248 B = 112.42 GB per node, against the p4d's 1,152 GiB of RAM.
    CHECK(dp2(*off.host_per_node_gb.value) == dp2(14 * 8030261248.0 / 1e9));
    REQUIRE(off.host_fits.has_value());
    CHECK(*off.host_fits);
}

TEST_CASE("training fit: DDP of llama-3-8b on 4 x 80 GiB does not fit; each change that alone fits", "[fit][training]") {
    const GpuPool pool = bare_pool(4, 80);
    TrainingFitRequest r;
    // DDP, micro-batch 1 x 2,048, no recompute, eager attention (the scores are stored).
    static const ModelSpec eager = [] {
        ModelSpec m = model("llama-3-8b");
        m.flash_attention = false;
        return m;
    }();
    r.model = &eager;
    const TrainingFit f = check_training_fit(training_request(r, pool), pool);
    CHECK_FALSE(f.fits);
    // Activations (Korthikanti eq. 2): 32 layers x s b h (34 + 5 a s / h) = 32 x 2048 x 4096 x
    // (34 + 80) B = 30.60 GB; overhead 2.15 GB; capacity 85.90 GB. So, per GPU:
    //   ZeRO 1: 56.21 + 30.60 + 2.15 = 88.96 (no)   ZeRO 2: 76.92 (yes)   ZeRO 3: 64.87 (yes)
    //   recompute selective: 128.48 + 8.91 + 2.15 (no)   ZeRO 1 + optimizer offload: 32.12 + 32.75 (yes)
    //   tensor parallel 2: (128.48 + 30.60) / 2 + 2.15 = 81.69 (yes)
    CHECK_FALSE(f.alternatives_combined);
    CHECK(changes(f.alternatives) == std::vector<std::string>{"--zero 2", "--zero 3", "--zero 1 --offload-optimizer", "--tp 2"});
    for (const auto& a : f.alternatives) CHECK(*a.total_gb <= *f.capacity_gb.value);
    CHECK(dp2(*f.alternatives[0].total_gb) == dp2(5.5 * 8030261248.0 / 1e9 + 32 * 2048 * 4096 * 114.0 / 1e9 + 2 * kGiB / 1e9));
    CHECK(f.refusal.find("each of these alone fits: --zero 2 (") != std::string::npos);

    // The search can be skipped where only the verdict matters (sweeps).
    const TrainingFit quick = check_training_fit(training_request(r, pool), pool, FitSearch::verdict_only);
    CHECK_FALSE(quick.fits);
    CHECK(quick.alternatives.empty());
}

TEST_CASE("training fit: no single change fits, so one combination is offered", "[fit][training]") {
    const GpuPool pool = bare_pool(1, 24);  // one 24 GiB GPU: llama-3-8b needs ZeRO 3 across nodes
    TrainingFitRequest r;
    r.model = &model("llama-3-8b");
    r.zero_stage = 1;
    const TrainingFit f = check_training_fit(training_request(r, pool), pool);
    CHECK_FALSE(f.fits);
    REQUIRE(f.alternatives.size() == 1);
    CHECK(f.alternatives_combined);
    CHECK(f.alternatives[0].change.rfind("--zero 3", 0) == 0);
    CHECK(f.alternatives[0].change.find("--nodes") != std::string::npos);
    CHECK(*f.alternatives[0].total_gb <= *f.capacity_gb.value);
}

TEST_CASE("training fit refuses a layout that does not match the GPUs", "[fit][training][bad-input]") {
    const GpuPool pool = bare_pool(4, 80);
    TrainingFitRequest r;
    r.model = &model("llama-3-8b");
    r.data_parallel = 3;
    CHECK_THROWS_WITH(training_request(r, pool), Catch::Contains("data_parallel x tensor_parallel x pipeline_parallel: got 3 x 1 x 1 = 3"));
    r.data_parallel.reset();
    r.pipeline_parallel = 3;
    CHECK_THROWS_WITH(training_request(r, pool), Catch::Contains("a divisor of the 4 GPUs in all"));
    r.pipeline_parallel = 1;
    r.offload_parameters = true;
    CHECK_THROWS_WITH(training_request(r, pool), Catch::Contains("offload_parameters"));
}
