// The model terms the validation corpus asked for (issue 12), each against hand arithmetic:
// serving under load (serving.hpp), tensor-parallel all-reduces and the fixed step cost in
// decode, MoE experts a batch touches, training FLOPs with attention and recompute, the
// calibrated efficiencies, GELU MLPs, fused-attention memory, a bare collective with
// nccl-tests' bandwidths; and the validation corpus itself (validation.hpp): it loads, runs,
// summarises, and refuses bad records by name.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "fixtures.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/topology/collective.hpp"
#include "gpuplan/workload/training_time.hpp"
#include "gpuplan/validation/validation.hpp"
#include "gpuplan/workload/compute.hpp"
#include "gpuplan/workload/inference.hpp"
#include "gpuplan/workload/memory.hpp"
#include "gpuplan/workload/serving.hpp"

using namespace gpuplan;
using Catch::Matchers::Contains;

namespace {
using test::catalog;
using test::error_of;
using test::model;
}  // namespace

TEST_CASE("closed-loop serving: one client solves a quadratic", "[serving]") {
    // C = 1, prefill P = 0.1 s, O = 10 tokens, step D = 0.01 s. R = P + O D / (1 - P / R)
    // => R^2 - 0.3 R + 0.01 = 0 => R = (0.3 + sqrt(0.05)) / 2 = 0.2618034 s.
    const ClosedLoop one = closed_loop_serving({1, 10, 0.1, 0.01});
    const double R = (0.3 + std::sqrt(0.05)) / 2;
    CHECK(*one.request_seconds.value == Approx(R).epsilon(1e-9));
    CHECK(*one.time_to_first_token_seconds.value == Approx(0.1));  // nothing else runs
    CHECK(*one.inter_token_latency_seconds.value == Approx(0.01 / (1 - 0.1 / R)));
    CHECK(*one.output_tokens_per_second.value == Approx(10 / R));

    // Many clients: the steady state satisfies its own equations, and prefills never take
    // all of the time.
    const ClosedLoop many = closed_loop_serving({50, 500, 0.4, 0.03});
    const double r = *many.request_seconds.value, rho = *many.prefill_share.value;
    CHECK(rho == Approx(50 * 0.4 / r));
    CHECK(rho < 1);
    const double others = rho * 49 / 50;
    CHECK(*many.time_to_first_token_seconds.value == Approx(0.4 + 0.03 / 2 + others * 0.4 / (2 * (1 - others))));
    CHECK(r == Approx(*many.time_to_first_token_seconds.value + 500 * *many.inter_token_latency_seconds.value).epsilon(1e-9));
}

TEST_CASE("decode step: roofline + tensor-parallel all-reduces + the fixed step cost", "[serving][inference]") {
    InferenceEstimateRequest q;
    q.serving.model = &model("llama-3.1-70b");
    q.serving.dtype = "fp8";
    q.serving.kv_dtype = "fp8";
    q.serving.tensor_parallel = 2;
    q.instance = "p5.48xlarge";
    q.prompt_tokens = 5000;
    q.output_tokens = 500;
    q.concurrency = 1;
    const InferenceEstimate e = estimate_inference(catalog(), q);
    REQUIRE(e.fit.fits);
    CHECK(e.under_load);
    CHECK(e.decode_context == 5250);  // the KV cache grows from 5,000 to 5,500 tokens
    // 2 x 80 layers x ring all-reduce of 1 x 8192 x 2 bytes over 2 GPUs at 360 GB/s, alpha 3.4 us
    // (NVLS would move 1.5 x the bytes: the ring wins at 2 ranks).
    const double ar = 16384 / 360e9 + 2 * 3.4e-6;
    CHECK(*e.tensor_parallel_seconds_per_step.value == Approx(2 * 80 * ar));
    const double roofline = 1 / *e.roofline.tokens_per_second_expected.value;
    CHECK(*e.decode_step_seconds.value == Approx(roofline + 2 * 80 * ar + 0.0032));
    // The closed loop over that step and one request's prefill gives the latencies.
    const double prefill = std::max(*prefill_seconds(model("llama-3.1-70b"), 5000, 1, 2, *e.peak.tflops, e.compute_efficiency).value,
                                    *e.weight_read_seconds.value) +
                           2 * 80 * (5000 * 16384 / 360e9 + 2 * 3.4e-6);
    const ClosedLoop loop = closed_loop_serving({1, 500, prefill, *e.decode_step_seconds.value});
    CHECK(*e.inter_token_latency_seconds.value == Approx(*loop.inter_token_latency_seconds.value));
    CHECK(*e.time_to_first_token_seconds.value == Approx(prefill));
    CHECK(*e.output_tokens_per_second_per_replica.value == Approx(*loop.output_tokens_per_second.value));
    CHECK(*e.output_tokens_per_second.value == Approx(4 * *loop.output_tokens_per_second.value));  // 4 replicas of TP2

    // "max": as many requests as fit at 5,500 tokens each.
    InferenceEstimateRequest most = q;
    most.concurrency.reset();
    const InferenceEstimate m = estimate_inference(catalog(), most);
    InferenceFitRequest one = q.serving;
    one.batch = 1, one.context = 5500;
    const InferenceFit f = check_inference_fit(one, m.pool);
    CHECK(m.concurrency == *f.max_batch.value);
    CHECK(m.fit.fits);
}

TEST_CASE("MoE decode reads the experts the batch touches", "[inference]") {
    const ModelSpec& mx = model("mixtral-8x7b");  // 8 experts, 2 per token, 32 MoE layers
    const ParameterCount c = count_parameters(mx);
    const Param bw{3350, InputOrigin::user, ""}, eff{1, InputOrigin::user, ""};
    const double kv_token = *kv_cache_bytes_per_token(mx, 2).value;
    // Batch 1: the active set.
    CHECK(*decode_roofline(mx, 2, 2, 1, 1000, 1, bw, eff).bytes_per_step.value == Approx(c.active * 2 + kv_token * 1000));
    // Batch 4: 8 x (1 - (3/4)^4) = 5.46875 experts per layer on average.
    const double expert = 3 * 4096 * 14336.0, touched = 8 * (1 - std::pow(0.75, 4));
    const double params = c.active + 32 * (touched - 2) * expert;
    CHECK(*decode_roofline(mx, 2, 2, 4, 1000, 1, bw, eff).bytes_per_step.value == Approx(params * 2 + kv_token * 4 * 1000));
    // A large batch reads every expert: all the weights.
    CHECK(*decode_roofline(mx, 2, 2, 256, 1, 1, bw, eff).bytes_per_step.value == Approx(c.total * 2 + kv_token * 256).epsilon(1e-6));
}

TEST_CASE("training FLOPs count causal attention and what recompute repeats", "[training]") {
    const ModelSpec& m = model("llama-3.2-1b");  // 16 layers, 32 heads x 64
    const double N = count_parameters(m).active, attn = 2 * 16 * 2048 * 2048.0, T = 1000;
    const TrainingFlops none = training_step_flops(m, T, 2048, RecomputeFlops::none);
    CHECK(*none.model.value == Approx(3 * (2 * N + attn) * T));
    CHECK(*none.hardware.value == Approx(*none.model.value));
    CHECK(*training_step_flops(m, T, 2048, RecomputeFlops::selective).hardware.value == Approx((3 * (2 * N + attn) + attn) * T));
    CHECK(*training_step_flops(m, T, 2048, RecomputeFlops::full).hardware.value == Approx(4 * (2 * N + attn) * T));
}

TEST_CASE("training efficiency defaults by GPU generation, from calibration cases", "[training]") {
    CHECK(default_training_efficiency(catalog().find_accelerator("A100-80GB")).value == 0.60);
    CHECK(default_training_efficiency(catalog().find_accelerator("A100-40GB")).value == 0.60);
    CHECK(default_training_efficiency(catalog().find_accelerator("H100-SXM")).value == 0.41);
    CHECK(default_training_efficiency(catalog().find_accelerator("H200")).value == 0.41);
    const Param l40s = default_training_efficiency(catalog().find_accelerator("L40S"));
    CHECK(l40s.value == 0.40);
    CHECK_THAT(l40s.source, Contains("no calibration case for L40S"));
    CHECK_THAT(default_training_efficiency(catalog().find_accelerator("A100-80GB")).source, Contains("LF-A100-13B-8"));
}

TEST_CASE("GELU MLP models and fused-attention memory", "[model][fit]") {
    // MPT-7B: tied embedding 50,368 x 4,096 + 32 x (4 x 4096^2 attention + 2 x 4096 x 16384 MLP)
    // + norm vectors 2 x 4096 x 32 + 4096.
    const double h = 4096;
    CHECK(count_parameters(model("mpt-7b")).total == 50368 * h + 32 * (4 * h * h + 2 * h * 16384) + 2 * h * 32 + h);
    // No recompute with fused attention: 34 s b h per layer (no s x s scores); eager adds 5 a s / h.
    TrainingMemoryRequest q;
    q.model = &model("llama-3-8b");
    q.sequence = 4096, q.micro_batch = 1, q.recompute = Recompute::none;
    const double flash = *training_memory(q).activations_gb.value;
    CHECK(flash == Approx(32 * 4096 * 4096 * 34.0 / 1e9));
    ModelSpec eager = model("llama-3-8b");
    eager.flash_attention = false;
    q.model = &eager;
    CHECK(*training_memory(q).activations_gb.value == Approx(32 * 4096 * 4096 * (34 + 5 * 32 * 4096 / 4096.0) / 1e9));
}

TEST_CASE("a bare collective with nccl-tests' bandwidths", "[topology][collective]") {
    const double S = 1073741824.0;
    CollectiveRequest q;
    q.instance = "p4d.24xlarge";
    q.bytes = S;
    const CollectiveEstimate one = estimate_collective(catalog(), q);
    // Ring over 8 A100 at 240 GB/s: 2 x 7/8 x S / 240e9 + NCCL's Simple latency 8.4 + 14 x 3.4 us.
    const double t = 2 * 7.0 / 8 * S / 240e9 + (8.4 + 14 * 3.4) * 1e-6;
    CHECK(*one.seconds.value == Approx(t));
    CHECK(*one.algorithm_bandwidth_gb_per_s.value == Approx(S / t / 1e9));
    CHECK(*one.bus_bandwidth_gb_per_s.value == Approx(S / t / 1e9 * 2 * 7 / 8));
    // All-gather over 2 nodes: busbw = algbw x (n-1)/n with n = 16 ranks.
    q.op = Collective::all_gather;
    q.nodes = 2;
    const CollectiveEstimate ag = estimate_collective(catalog(), q);
    CHECK(ag.ranks == 16);
    CHECK(*ag.bus_bandwidth_gb_per_s.value == Approx(*ag.algorithm_bandwidth_gb_per_s.value * 15 / 16));
    // Bad input names the field.
    CollectiveRequest bad = q;
    bad.nodes = 1, bad.gpus_per_node = 1;
    CHECK_THAT(error_of([&] { estimate_collective(catalog(), bad); }), Contains("at least 2 ranks"));
    bad = q, bad.bytes = 0;
    CHECK_THAT(error_of([&] { estimate_collective(catalog(), bad); }), Contains("bytes: got 0"));
    bad = q, bad.gpus_per_node = 9;
    CHECK_THAT(error_of([&] { estimate_collective(catalog(), bad); }), Contains("gpus_per_node: got 9"));
    CHECK(parse_collective("all-to-all") == Collective::all_to_all);
    CHECK_FALSE(parse_collective("broadcast"));
}

TEST_CASE("the validation corpus loads, runs and summarises", "[validation]") {
    const std::vector<ValidationRecord> records = load_validation_records(builtin_validation_documents(), catalog());
    CHECK(records.size() >= 40);
    for (ValidationCategory c : kValidationCategories)
        CHECK(std::count_if(records.begin(), records.end(), [&](const ValidationRecord& r) { return r.category == c; }) >= 1);
    CHECK(std::count_if(records.begin(), records.end(), [](const ValidationRecord& r) { return r.split == ValidationSplit::calibration; }) >= 3);
    const std::vector<ValidationResult> results = run_validation(records, catalog());
    REQUIRE(results.size() == records.size());
    for (const ValidationResult& r : results) {
        INFO(r.record->id);
        CHECK(r.predicted > 0);
        CHECK(std::isfinite(r.ratio()));
        CHECK_FALSE(r.record->source.url.empty());
    }
    // The summary is the median and the worst of |ratio - 1|, computed here again.
    for (const AccuracySummary& a : summarize_accuracy(results)) {
        std::vector<double> errors;
        for (const ValidationResult& r : results)
            if (r.record->category == *a.category && r.record->split == a.split) errors.push_back(std::abs(r.ratio() - 1));
        std::sort(errors.begin(), errors.end());
        const std::size_t n = errors.size();
        CHECK(a.cases == static_cast<int>(n));
        CHECK(a.median_abs_error == Approx(n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2));
        CHECK(a.worst_abs_error == Approx(errors.back()));
    }
    CHECK_THAT(accuracy_sentence(ValidationCategory::decode_latency, summarize_accuracy(results)), Contains("Decode latency predictions were within"));
}

TEST_CASE("validation records with bad fields are refused by record and path", "[validation][bad-input]") {
    const auto load = [](const std::string& record) {
        return error_of([&] {
            load_validation_records({{"mine.json", R"({"schema": "gpuplan.validation/1", "records": [)" + record + "]}"}}, catalog());
        });
    };
    const std::string good_scenario = R"("scenario": {"schema": "gpuplan.scenario/1", "collective": {"op": "all-reduce", "instance": "p4d.24xlarge", "bytes": 1e9}})";
    const std::string source = R"("source": {"citation": "c", "url": "u", "date": "d", "location": "l"})";
    const std::string head = R"({"id": "X1", "title": "t", "category": "collective_bandwidth", "split": "validation", )";
    const std::string figure = R"("figure": "/collective/figures/bus_bandwidth_gb_per_s", )";
    const std::string ok = head + source + ", " + figure + R"("measured": {"value": 200, "unit": "GB/s"}, )" + good_scenario + "}";
    CHECK(load(ok) == "(no error)");
    // Sources kept apart for independent checks (issue 29) are refused, whatever the case of the address.
    for (const char* url : {"https://mlcommons.org/benchmarks/inference-datacenter/", "https://developers.redhat.com/articles/2025/x",
                            "https://huggingface.co/blog/some-post", "https://github.com/Stas00/ml-engineering/blob/master/network/README.md",
                            "https://docs.skypilot.co/en/latest/examples/x.html", "https://github.com/pytorch/torchtune/blob/main/README.md"}) {
        const std::string kept = head + R"("source": {"citation": "c", "url": ")" + url + R"(", "date": "d", "location": "l"}, )" + figure +
                                 R"("measured": {"value": 200, "unit": "GB/s"}, )" + good_scenario + "}";
        CHECK_THAT(load(kept), Contains("source.url (record X1)") && Contains("a source not kept apart for independent checks"));
    }
    CHECK_THAT(load(head + figure + R"("measured": {"value": 200, "unit": "GB/s"}, )" + good_scenario + "}"),
               Contains("records[0].source (record X1)") && Contains("the source"));
    CHECK_THAT(load(head + source + ", " + figure + R"("measured": {"value": 200, "unit": "furlongs"}, )" + good_scenario + "}"),
               Contains("(record X1)") && Contains("\"furlongs\"") && Contains("GB/s"));
    std::string unknown_model = ok;
    unknown_model.replace(unknown_model.find(good_scenario), good_scenario.size(),
                          R"("scenario": {"schema": "gpuplan.scenario/1", "infer": {"model": "llama-9", "instance": "p5.48xlarge"}})");
    CHECK_THAT(load(unknown_model), Contains("record X1 scenario") && Contains("infer.model") && Contains("llama-9"));
    CHECK_THAT(load(ok + ", " + ok), Contains("an id no other record uses"));
    std::string category = ok;
    category.replace(category.find("collective_bandwidth"), 20, "vibes");
    CHECK_THAT(load(category), Contains("category (record X1)") && Contains("decode_latency"));

    // A pointer that names no figure, or a unit the figure does not convert to, fails at run.
    std::string pointer = ok;
    pointer.replace(pointer.find("bus_bandwidth_gb_per_s"), 22, "warp_factor");
    const auto run = [](const std::string& record) {
        return error_of([&] {
            const auto recs = load_validation_records({{"mine.json", R"({"schema": "gpuplan.validation/1", "records": [)" + record + "]}"}}, catalog());
            (void)run_validation(recs, catalog());
        });
    };
    CHECK_THAT(run(pointer), Contains("(record X1).figure") && Contains("warp_factor"));
    std::string unit = ok;
    unit.replace(unit.find("\"GB/s\""), 6, "\"ms\"");
    CHECK_THAT(run(unit), Contains("(record X1).measured.unit") && Contains("GB/s"));
    // A setup that does not fit in memory is refused with the memory verdict.
    std::string unfit = ok;
    unfit.replace(unfit.find(good_scenario), good_scenario.size(),
                  R"("scenario": {"schema": "gpuplan.scenario/1", "fit": {"model": "llama-3.1-405b", "mode": "training", "gpus": 1, "gpu_memory_gib": 24}})");
    unfit.replace(unfit.find("/collective/figures/bus_bandwidth_gb_per_s"), 42, "/fit/figures/total_per_gpu_gb");
    unfit.replace(unfit.find("\"GB/s\""), 6, "\"GiB\"");
    CHECK_THAT(run(unfit), Contains("(record X1).scenario") && Contains("does not fit"));
}

TEST_CASE("K of a node's GPUs, and a chosen inter-node transport", "[topology][training]") {
    // 4 of g6e.48xlarge's 8 PCIe L40S: one socket, the host bridge (16 x 1.969 x 0.8 GB/s).
    NodeTopology g6e = node_topology(catalog(), *catalog().find_instance("g6e.48xlarge"));
    CHECK(g6e.intra.cls == LinkClass::cross_socket);
    use_gpus_of_node(g6e, 4);
    CHECK(g6e.gpus == 4);
    CHECK(g6e.intra.cls == LinkClass::pcie_host_bridge);
    CHECK(g6e.intra.gb_per_s.value == Approx(25.2032));
    CHECK(g6e.inter.gb_per_s.value == Approx(400.0 / 8 / 8 * 0.84 * 0.6));  // the network share per GPU is unchanged
    // A training layout over 2 nodes x 4 GPUs; more GPUs than the instance has is refused.
    TrainingTimeRequest q;
    q.model = &model("llama-3.2-1b");
    q.instance = catalog().find_instance("p4d.24xlarge");
    q.nodes = 2;
    q.gpus_per_node = 4;
    q.layout.data = 8;
    q.layout.global_batch_tokens = 8 * 2048;
    CHECK(training_time(catalog(), q).gpus_per_node == 4);
    q.gpus_per_node = 9;
    CHECK_THAT(error_of([&] { training_time(catalog(), q); }), Contains("gpus_per_node: got 9") && Contains("8 accelerators of p4d.24xlarge"));

    // TCP chosen on p5: 3200 / 8 / 8 x 0.5; EFA with GPUDirect on an instance without it is refused.
    TopologyOverrides tcp;
    tcp.transport = InterNodeTransport::tcp;
    const NodeTopology p5 = node_topology(catalog(), *catalog().find_instance("p5.48xlarge"), tcp);
    CHECK(p5.inter.cls == LinkClass::ena_tcp);
    CHECK(p5.inter.gb_per_s.value == Approx(3200.0 / 8 / 8 * 0.5));
    TopologyOverrides gdr;
    gdr.transport = InterNodeTransport::efa_gdr;
    CHECK_THAT(error_of([&] { node_topology(catalog(), *catalog().find_instance("g6.xlarge"), gdr); }),
               Contains("inter_node_transport") && Contains("it has no EFA"));
    CHECK(parse_inter_node_transport("efa-gdr") == InterNodeTransport::efa_gdr);
    CHECK_FALSE(parse_inter_node_transport("infiniband"));
}

TEST_CASE("FP8 training: linear layers at the FP8 peak, attention at bf16", "[training]") {
    const ModelSpec& m = model("llama-3.2-1b");
    const double N = count_parameters(m).active, attn = 2 * 16 * 2048 * 2048.0, T = 131072;
    const TrainingFlops f = training_step_flops(m, T, 2048, RecomputeFlops::full);
    CHECK(f.hardware_dense == Approx(8 * N * T));           // 6N + the recomputed 2N
    CHECK(f.hardware_attention == Approx(4 * attn * T));    // 3 x attention + the recomputed one
    CHECK(f.hardware_dense + f.hardware_attention == Approx(*f.hardware.value));

    TrainingTimeRequest q;
    q.model = &m;
    q.instance = catalog().find_instance("p5.48xlarge");
    q.layout.data = 8;
    q.layout.micro_batch = 4;
    q.layout.global_batch_tokens = T;
    q.precision = TrainingPrecision::fp8;
    const TrainingTime t = training_time(catalog(), q);
    const double eff = default_training_efficiency(catalog().find_accelerator("H100-SXM"), TrainingPrecision::fp8).value;
    const TrainingFlops none = training_step_flops(m, T, 2048, RecomputeFlops::none);
    const double fp8_peak = *catalog().find_accelerator("H100-SXM")->dense_tflops.fp8, bf16_peak = *catalog().find_accelerator("H100-SXM")->dense_tflops.bf16;
    CHECK(*t.compute_seconds.value == Approx(none.hardware_dense / (8 * fp8_peak * 1e12 * eff) + none.hardware_attention / (8 * bf16_peak * 1e12 * eff)));
    CHECK_THAT(t.compute_efficiency.source, Contains("NEMO-H100-8B-FP8"));
    // A100 has no FP8 tensor cores: refused at the precision.
    q.instance = catalog().find_instance("p4d.24xlarge");
    CHECK_THAT(error_of([&] { training_time(catalog(), q); }), Contains("precision: got \"fp8\"") && Contains("FP8 tensor cores"));
    CHECK(parse_training_precision("fp8") == TrainingPrecision::fp8);
    CHECK_FALSE(parse_training_precision("fp4"));
}
