// The steps of a training step (training_steps.hpp), one by one, each against its formula worked
// by hand here. training_time chains them; topology_training_test.cpp checks the chain against
// published runs.
#include <catch2/catch.hpp>

#include "fixtures.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/workload/training_steps.hpp"

using namespace gpuplan;
using namespace gpuplan::training_steps;
using test::catalog;
using test::p;

namespace {
Link link_of(LinkClass cls, double gb_per_s, double latency_us) {
    Link l;
    l.cls = cls;
    l.gb_per_s = p(gb_per_s);
    l.latency_us = p(latency_us);
    return l;
}
Figure known_seconds(const char* name, double v) { return make_figure(name, v, "s", name, "", {}); }

TrainingTimeRequest llama8b_on_p5(double nodes, ParallelLayout layout) {
    TrainingTimeRequest q;
    q.model = &test::model("llama-3-8b");
    q.instance = catalog().find_instance("p5.48xlarge");
    q.nodes = nodes;
    q.layout = layout;
    q.usd_per_hour = p(98.32);
    q.token_budget = 1e10;
    return q;
}
}  // namespace

TEST_CASE("check_request returns the layout in numbers and names the field it refuses", "[training-steps]") {
    ParallelLayout L;
    L.data = 8, L.tensor = 2, L.pipeline = 1, L.micro_batch = 2, L.sequence = 4096, L.global_batch_tokens = 4194304;
    const TrainingShape shape = check_request(catalog(), llama8b_on_p5(2, L));
    CHECK(shape.gpus_per_node == 8);
    CHECK(shape.gpus == 16);
    CHECK(shape.micro_batches == 4194304.0 / (8 * 2 * 4096));  // 64
    CHECK(shape.hidden == 4096);

    L.data = 4;  // 4 x 2 x 1 = 8, not the 16 GPUs
    try {
        check_request(catalog(), llama8b_on_p5(2, L));
        FAIL("expected an InputError");
    } catch (const InputError& e) {
        CHECK_THAT(e.what(), Catch::Contains("layout.data x layout.tensor x layout.pipeline") && Catch::Contains("16"));
    }
    L.data = 8, L.global_batch_tokens = 1000;  // not a whole number of micro-batches
    CHECK_THROWS_WITH(check_request(catalog(), llama8b_on_p5(2, L)), Catch::Contains("layout.global_batch_tokens"));
}

TEST_CASE("pipeline point-to-point: 2 x micro-batches x (activation bytes / bandwidth + latency) x (1 - overlap)", "[training-steps]") {
    TrainingShape shape;
    shape.pipeline = 4, shape.micro_batches = 4, shape.micro_batch = 1, shape.sequence = 2048, shape.hidden = 4096;
    const Link efa = link_of(LinkClass::efa_gdr, 100, 10);
    // 2 x 4 x (2048 x 4096 x 2 / 100e9 + 10e-6) = 8 x 1.7777216e-4
    CHECK(*pipeline_p2p_seconds(shape, efa, p(0)).value == Approx(1.42217728e-3).epsilon(1e-12));
    CHECK(*pipeline_p2p_seconds(shape, efa, p(0.5)).value == Approx(0.71108864e-3).epsilon(1e-12));
    Link unknown = efa;
    unknown.unknown_reason = "no EFA figure";
    const Figure f = pipeline_p2p_seconds(shape, unknown, p(0));
    CHECK_FALSE(f.value);
    CHECK_THAT(f.unknown_reason, Catch::Contains("no EFA figure"));
    shape.pipeline = 1;
    CHECK(*pipeline_p2p_seconds(shape, unknown, p(0)).value == 0);  // no pipeline, no link needed
}

TEST_CASE("the bubble is the pipelined work x (p - 1) / m", "[training-steps]") {
    TrainingShape shape;
    shape.pipeline = 4, shape.micro_batches = 8;
    TrainingTime so_far;
    so_far.compute_seconds = known_seconds("compute_seconds", 10);
    so_far.tensor_parallel_seconds = known_seconds("tensor_parallel_seconds", 1);
    so_far.expert_parallel_seconds = known_seconds("expert_parallel_seconds", 0.5);
    so_far.pipeline_p2p_seconds = known_seconds("pipeline_p2p_seconds", 0.5);
    CHECK(*bubble_seconds(shape, so_far).value == Approx(12.0 * 3 / 8));
    shape.pipeline = 1;
    CHECK(*bubble_seconds(shape, so_far).value == 0);
}

TEST_CASE("offload: shard bytes over PCIe plus CPU Adam over the node's shards", "[training-steps]") {
    TrainingShape shape;
    shape.data = 8, shape.gpus_per_node = 8;
    const Link pcie = link_of(LinkClass::pcie_host_bridge, 25, 1);
    // shard 8e9 / 8 = 1e9 parameters: 4e9 bytes / 25e9 = 0.16 s; Adam 1e9 x 8 / 2e9 = 4 s
    ParallelLayout optimizer;
    optimizer.offload_optimizer = true;
    ParallelLayout both = optimizer;
    both.offload_parameters = true;
    CHECK(*offload_seconds(shape, 8e9, optimizer, pcie, p(2e9), p(0)).value == Approx(4.16));
    CHECK(*offload_seconds(shape, 8e9, both, pcie, p(2e9), p(0)).value == Approx(4.32));  // parameters too: 8 bytes
    CHECK(*offload_seconds(shape, 8e9, optimizer, pcie, p(2e9), p(0.25)).value == Approx(4.16 * 0.75));
    CHECK(*offload_seconds(shape, 8e9, ParallelLayout{}, pcie, p(2e9), p(0)).value == 0);  // no offload: nothing to move
    Link unknown_host;
    unknown_host.unknown_reason = "no PCIe figure";
    CHECK(!offload_seconds(shape, 8e9, optimizer, unknown_host, p(2e9), p(0)).value);
    CHECK(*offload_seconds(shape, 8e9, ParallelLayout{}, unknown_host, p(2e9), p(0)).value == 0);  // no offload: the link does not matter
}

TEST_CASE("exposed communication adds up per link class, and a bubble is not communication", "[training-steps]") {
    const std::vector<ExposedPart> parts = {{"dp over EFA", LinkClass::efa_gdr, 1.0, false},
                                            {"tp over NVLink", LinkClass::nvlink, 2.0, false},
                                            {"pp over EFA", LinkClass::efa_gdr, 0.5, true},
                                            {"bubble", LinkClass::none, 3.0, false}};
    const std::vector<Figure> by_link = exposed_by_link(parts);
    REQUIRE(by_link.size() == 2);
    double sum = 0;
    for (const Figure& f : by_link) {
        sum += *f.value;
        if (f.name == "exposed_" + std::string(to_string(LinkClass::efa_gdr)) + "_seconds") {
            CHECK(*f.value == 1.5);
            CHECK(f.inputs.size() == 2);
            CHECK(f.rests_on_assumption());  // the pipeline part rests on a default
        } else {
            CHECK(f.name == "exposed_" + std::string(to_string(LinkClass::nvlink)) + "_seconds");
            CHECK(*f.value == 2.0);
        }
    }
    CHECK(sum == 3.5);
}

TEST_CASE("a collective's exposed time is shared between its links by their own times", "[training-steps]") {
    CollectiveCost c;
    c.seconds = known_seconds("seconds", 3);
    c.intra_seconds = known_seconds("intra", 1);
    c.inter_seconds = known_seconds("inter", 3);
    c.intra_class = LinkClass::nvlink, c.inter_class = LinkClass::efa_gdr;
    StepParts parts;
    parts.add_collective("all-reduce", c, 2.0, known_seconds("exposed", 2));
    REQUIRE(parts.parts.size() == 2);
    CHECK(parts.parts[0].seconds == Approx(0.5));  // 2 x 1 / 4
    CHECK(parts.parts[1].seconds == Approx(1.5));  // 2 x 3 / 4
    CHECK(parts.parts[1].cls == LinkClass::efa_gdr);
    CHECK(parts.need(c.seconds));
    CHECK(parts.unknown_reason.empty());
    CHECK_FALSE(parts.need(unknown_figure("link_seconds", "s", "", "no figure")));
    CHECK_FALSE(parts.need(unknown_figure("other_seconds", "s", "", "another")));
    CHECK(parts.unknown_reason == "link_seconds: no figure");  // the first one is kept
}

TEST_CASE("data parallel: exposed = comm - min(overlap x comm, backward share of compute)", "[training-steps]") {
    TrainingShape shape;
    shape.nodes = 2, shape.gpus_per_node = 8, shape.gpus = 16, shape.data = 16, shape.micro_batches = 1;
    const NodeTopology topo = node_topology(catalog(), *catalog().find_instance("p5.48xlarge"));
    const OverlapDefaults overlap = default_overlap();
    for (const double compute : {0.01, 100.0}) {  // the window smaller, then larger, than the overlapped comm
        TrainingTime r;
        r.compute_seconds = known_seconds("compute_seconds", compute);
        StepParts parts;
        data_parallel_step(shape, 8e9, topo, overlap, r, parts);
        const double comm = *r.data_parallel_comm_seconds.value, window = compute * 4.0 / 6;  // ZeRO 0, no full recompute
        CHECK(comm > 0);
        CHECK(*r.data_parallel_exposed_seconds.value == Approx(comm - std::min(0.8 * comm, window)));
        double parts_sum = 0;
        for (const ExposedPart& part : parts.parts) parts_sum += part.seconds;
        CHECK(parts_sum == Approx(*r.data_parallel_exposed_seconds.value));
    }
    shape.data = 1;
    TrainingTime single;
    StepParts none;
    data_parallel_step(shape, 8e9, topo, overlap, single, none);
    CHECK(*single.data_parallel_comm_seconds.value == 0);
    CHECK(none.parts.empty());
}

TEST_CASE("totals: step is the sum of its terms; tokens/s, hours and cost follow from it", "[training-steps]") {
    TrainingShape shape;
    shape.gpus = 16, shape.global_batch_tokens = 4e6;
    TrainingTimeRequest q = llama8b_on_p5(2, {});
    TrainingTime r;
    r.compute_seconds = known_seconds("compute_seconds", 10);
    r.bubble_seconds = known_seconds("bubble_seconds", 1);
    r.data_parallel_exposed_seconds = known_seconds("data_parallel_exposed_seconds", 2);
    r.tensor_parallel_seconds = known_seconds("tensor_parallel_seconds", 3);
    r.pipeline_p2p_seconds = known_seconds("pipeline_p2p_seconds", 0.5);
    r.expert_parallel_seconds = known_seconds("expert_parallel_seconds", 0);
    r.offload_seconds = known_seconds("offload_seconds", 3.5);
    ComputeStep compute;
    compute.bf16_peak = p(1000);
    compute.flops.model = make_figure("model_flops", 4e16, "FLOP", "", "", {});
    totals_step(shape, q, compute, "dp 16", r);
    CHECK(*r.step_seconds.value == 20);
    CHECK(*r.tokens_per_second.value == 2e5);
    CHECK(*r.tokens_per_second_per_gpu.value == 2e5 / 16);
    CHECK(*r.mfu.value == Approx(4e16 / (20 * 16 * 1000e12)));
    CHECK(*r.total_hours.value == Approx(1e10 / 2e5 / 3600));
    CHECK(*r.cost_usd.value == Approx(1e10 / 2e5 / 3600 * 98.32 * 2));
    CHECK(bottleneck_words(r, {{"tp over NVLink", LinkClass::nvlink, 3, false}}).starts_with("compute is 50% of the step"));
    CHECK(bottleneck_words(r, {{"tp over NVLink", LinkClass::nvlink, 12, false}}) == "tp over NVLink is 60% of the step");
}
