// The decode pipeline (core/gpuplan/decode): the event simulation checked by hand, its
// N-buffer properties, the fit that reproduces shared/cases/pipeline.md, pricing case P6 on
// top of it, bench-results import, and bad input named.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <string>

#include "gpuplan/input_error.hpp"
#include "gpuplan/measurements/bench_results.hpp"
#include "gpuplan/decode/decode_fit.hpp"
#include "gpuplan/decode/decode_plan.hpp"
#include "gpuplan/decode/decode_sim.hpp"
#include "gpuplan/scenario/scenario_result.hpp"
#include "gpuplan/topology/topology.hpp"
#include "fixtures.hpp"

using namespace gpuplan;

namespace {

using test::p;
using test::catalog;
using test::cents;
using test::eval_builtin;

// The InputError's `where` for a call that must throw one ("" if it does not throw).
std::string where_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.where().empty() ? e.what() : e.where();
    }
    return "";
}

// A request whose D2H is exactly `d2h_ms`: one frame of 1000 x (250 x d2h_ms) x 1 channel x
// 4 bytes = 1e6 bytes per millisecond of copy at 1 GB/s (1e6 bytes per ms), no latency.
DecodeSimRequest small(double chunks, double compute_ms, double d2h_ms, double host_ms, double buffers, double contention) {
    DecodeSimRequest r;
    r.chunks = p(chunks);
    r.frames_per_chunk = p(1);
    r.height = p(1000);
    r.width = p(250 * d2h_ms);
    r.channels = p(1);
    r.dtype_bytes = p(4);
    r.compute_ms = p(compute_ms);
    r.host_ms = p(host_ms);
    r.link_gb_per_s = p(1);
    r.link_latency_us = p(0);
    r.buffers = p(buffers);
    r.contention = p(contention);
    return r;
}

// The case: g7e.2xlarge, 41 chunks of 4 frames of 1280 x 720 x 3 fp32; the link is the
// instance's GPU-host PCIe figure from the catalog.
DecodeSimRequest case_shape() {
    const Instance* inst = catalog().find_instance("g7e.2xlarge");
    REQUIRE(inst);
    const NodeTopology topo = node_topology(catalog(), *inst);
    REQUIRE(topo.host.known());
    DecodeSimRequest r;
    r.chunks = p(41);
    r.frames_per_chunk = p(4);
    r.height = p(720);
    r.width = p(1280);
    r.channels = p(3);
    r.dtype_bytes = p(4);
    r.compute_ms = p(1);  // replaced by the fit
    r.host_ms = p(0);
    r.link_gb_per_s = topo.host.gb_per_s;
    r.link_latency_us = topo.host.latency_us;
    r.buffers = p(2);
    r.contention = p(0);
    return r;
}

DecodeMeasurement case_measurement() { return {p(21.99), p(20.17), p(0.82), p(0.999), "shared/cases/pipeline.md"}; }

double secs(const PipelineRun& r) { return *r.decode_seconds.value; }
double util(const PipelineRun& r) { return *r.kernel_utilization.value; }


}  // namespace

TEST_CASE("Decode simulation: a 3-chunk case by hand", "[pipeline]") {
    // compute 10 ms, D2H 2 ms, host 5 ms per chunk, 3 chunks.
    // Synchronous: 3 x (10 + 2 + 5) = 51 ms; the GPU is busy 30 of them (30/51).
    // Asynchronous, 2 buffers, no contention:
    //   compute 0 [0,10]   copy 0 [10,12]  host 0 [12,17]
    //   compute 1 [10,20]  copy 1 [20,22]  host 1 [22,27]
    //   compute 2 [20,30] (buffer 0 released at 17)  copy 2 [30,32]  host 2 [32,37]  → 37 ms
    // Asynchronous, contention 1 (decode at half rate while a copy or host stage runs):
    //   compute 1 starts at 10, overlapped 10..17 (copy 0, host 0): 7 ms at half rate = 3.5 ms
    //   of work; the other 6.5 ms at full rate → ends 23.5. copy 1 [23.5,25.5], host 1
    //   [25.5,30.5]. compute 2 starts 23.5, overlapped 23.5..30.5 → 3.5 ms of work, ends
    //   30.5 + 6.5 = 37. copy 2 [37,39], host 2 [39,44] → 44 ms; busy 10 + 13.5 + 13.5 = 37.
    const DecodeSimResult free_run = simulate_decode(small(3, 10, 2, 5, 2, 0));
    CHECK(*free_run.d2h_ms.value == Approx(2.0));
    CHECK(secs(free_run.sync) == Approx(0.051));
    CHECK(util(free_run.sync) == Approx(30.0 / 51.0));
    CHECK(secs(free_run.async) == Approx(0.037));
    CHECK(free_run.async.timeline.compute[2].start_ms == Approx(20));
    CHECK(free_run.async.timeline.host[0].start_ms == Approx(12));
    CHECK(free_run.async.timeline.host[2].end_ms == Approx(37));

    const DecodeSimResult slowed = simulate_decode(small(3, 10, 2, 5, 2, 1));
    CHECK(secs(slowed.async) == Approx(0.044));
    CHECK(slowed.async.timeline.compute[1].end_ms == Approx(23.5));
    CHECK(slowed.async.timeline.compute[2].start_ms == Approx(23.5));
    CHECK(slowed.async.timeline.compute[2].end_ms == Approx(37));
    CHECK(slowed.async.timeline.host[2].start_ms == Approx(39));
    CHECK(*slowed.async.compute_busy_seconds.value == Approx(0.037));
    CHECK(util(slowed.async) == Approx(37.0 / 44.0));
    CHECK(*slowed.async.contention_seconds.value == Approx(0.007));
    // Where the time goes adds up to the wall time: work + contention + stall + tail.
    for (const PipelineRun* run : {&slowed.sync, &slowed.async})
        CHECK(*run->compute_work_seconds.value + *run->contention_seconds.value + *run->stall_seconds.value + *run->tail_seconds.value ==
              Approx(secs(*run)));
    // The synchronous pipeline overlaps nothing, so contention never touches it.
    CHECK(secs(slowed.sync) == Approx(0.051));

    // The buffer gate: host 10 ms outlasts compute 2 ms. compute 0 [0,2], copy 0 [2,3], host 0
    // [3,13]; compute 1 [2,4], copy 1 [4,5], host 1 [13,23] (writer busy); compute 2 must wait
    // for buffer 0, released at 13: [13,15], copy 2 [15,16], host 2 [23,33] → 33 ms.
    const DecodeSimResult gated = simulate_decode(small(3, 2, 1, 10, 2, 0));
    CHECK(gated.async.timeline.compute[2].start_ms == Approx(13));
    CHECK(gated.async.timeline.host[1].start_ms == Approx(13));
    CHECK(secs(gated.async) == Approx(0.033));
    CHECK(*gated.async.stall_seconds.value == Approx(0.009));  // 4..13
}

TEST_CASE("Decode simulation: N-buffer properties", "[pipeline]") {
    for (double compute : {1.0, 10.0, 50.0})
        for (double d2h : {0.5, 5.0})
            for (double host : {0.0, 3.0, 30.0})
                for (double chunks : {1.0, 2.0, 7.0}) {
                    INFO("compute " << compute << " d2h " << d2h << " host " << host << " chunks " << chunks);
                    const DecodeSimResult one = simulate_decode(small(chunks, compute, d2h, host, 1, 0));
                    // One buffer pair is the synchronous pipeline.
                    CHECK(secs(one.async) == Approx(secs(one.sync)));
                    double previous = secs(one.async);
                    for (double n = 2; n <= 5; ++n) {
                        const DecodeSimResult r = simulate_decode(small(chunks, compute, d2h, host, n, 0));
                        // Without contention, asynchronous is never slower than synchronous,
                        // and more buffers are never slower.
                        CHECK(secs(r.async) <= secs(r.sync) * (1 + 1e-12));
                        CHECK(secs(r.async) <= previous * (1 + 1e-12));
                        // Never faster than the busiest single resource.
                        CHECK(secs(r.async) * 1e3 >= chunks * std::max({compute, d2h, host}) * (1 - 1e-12));
                        previous = secs(r.async);
                    }
                    // With contention, overlap still never costs more than doing the stages in turn.
                    CHECK(secs(simulate_decode(small(chunks, compute, d2h, host, 2, 1.12)).async) <= secs(one.sync) * (1 + 1e-12));
                }
}

TEST_CASE("Decode fit reproduces the pipeline case (g7e.2xlarge)", "[pipeline][case]") {
    const DecodeFit fit = fit_decode(case_shape(), case_measurement());
    const DecodeSimResult sim = simulate_decode(fit.fitted);
    // Both video times within 1%, both utilisations within 1 percentage point.
    CHECK(std::fabs(secs(sim.sync) / 21.99 - 1) <= 0.01);
    CHECK(std::fabs(secs(sim.async) / 20.17 - 1) <= 0.01);
    CHECK(std::fabs(util(sim.sync) - 0.82) <= 0.01);
    CHECK(std::fabs(util(sim.async) - 0.999) <= 0.01);
    CHECK(fit.within_tolerance);
    // The fitted parameters: compute = 0.82 x 21.99 / 41 s; host = the rest of the sync chunk
    // less the copy (44.2 MB at the PCIe gen5 x16 figure, under 1 ms); contention ~1.12.
    CHECK(*fit.compute_ms.value == Approx(439.8));
    CHECK(*fit.host_ms.value == Approx(21990.0 / 41 - 439.8 - decode_d2h_ms(fit.fitted)));
    CHECK(decode_d2h_ms(fit.fitted) < 1.0);
    CHECK(*fit.host_ms.value == Approx(95.66).epsilon(0.001));
    CHECK(*fit.contention.value == Approx(default_decode_contention().value).margin(0.005));
    // Averaged over the whole decode, the kernels run about 11% slower (the case: ~12%).
    CHECK(*sim.async.compute_slowdown.value == Approx(0.113).margin(0.005));
    // The simulation agrees with the closed form in this compute-bound regime.
    CHECK(*sim.async_first_order_seconds.value == Approx(secs(sim.async)).epsilon(1e-9));
    // The fit is deterministic (the same bits twice), as the native/wasm parity test needs.
    CHECK(*fit_decode(case_shape(), case_measurement()).contention.value == *fit.contention.value);
}

TEST_CASE("Decode without contention overestimates the asynchronous gain (~18 s)", "[pipeline][case]") {
    const DecodeFit fit = fit_decode(case_shape(), case_measurement());
    const double free_s = *fit.contention_free_async_seconds.value;
    CHECK(free_s < 18.5);
    CHECK(free_s > 17.5);
    // The same by simulating the fitted stages with contention 0.
    DecodeSimRequest r = fit.fitted;
    r.contention = p(0);
    const DecodeSimResult sim = simulate_decode(r);
    CHECK(secs(sim.async) == Approx(free_s));
    // A gain of about 18% instead of the measured 8.2%: about twice the real gain.
    CHECK(*sim.async_time_saving.value > 0.16);
    CHECK(1 - 20.17 / 21.99 == Approx(0.0828).margin(0.0005));
}

TEST_CASE("Decode scenario D1 reproduces the case and P6", "[pipeline][case][P6]") {
    const auto d = eval_builtin("d1-decode-g7e.json").at("decode");
    const auto& fig = d.at("figures");
    CHECK(std::fabs(fig.at("sync_decode_seconds").at("value").get<double>() / 21.99 - 1) <= 0.01);
    CHECK(std::fabs(fig.at("async_decode_seconds").at("value").get<double>() / 20.17 - 1) <= 0.01);
    CHECK(std::fabs(fig.at("sync_kernel_utilization").at("value").get<double>() - 0.82) <= 0.01);
    CHECK(std::fabs(fig.at("async_kernel_utilization").at("value").get<double>() - 0.999) <= 0.01);
    CHECK(d.at("fit").at("within_tolerance").get<bool>());
    // P6: video = 21.99 / 3.21 = 6.8505 s, RTF async 2.944, saving $892.67 per 1,000 video
    // hours at $3.36/h — from the measured times, and from the fitted simulation's.
    CHECK(d.at("video_seconds").at("value").get<double>() == Approx(6.8505).margin(5e-5));
    for (const char* basis : {"measured_cost", "cost"}) {
        INFO(basis);
        const auto& cost = d.at(basis);
        CHECK(std::round(cost.at("figures").at("rtf_async").at("value").get<double>() * 1000) / 1000 == 2.944);
        const auto& given = cost.at("options").at(0);
        CHECK(given.at("key") == "given");
        CHECK(cents(given.at("figures").at("saving_usd_per_1000_video_hours").at("value").get<double>()) == 892.67);
        // Every purchase option of the instance is priced too.
        bool on_demand = false;
        for (const auto& o : cost.at("options")) on_demand = on_demand || o.at("key") == "on-demand";
        CHECK(on_demand);
    }
    // The timeline for a Gantt chart: one interval per chunk per resource.
    CHECK(d.at("timeline").at("async").at("compute").size() == 41);
    CHECK(d.at("timeline").at("sync").at("host").size() == 41);
}

TEST_CASE("Decode bad input is named", "[pipeline][bad-input]") {
    const auto sim_where = [](const std::function<void(DecodeSimRequest&)>& change) {
        DecodeSimRequest r = small(3, 10, 2, 5, 2, 0);
        change(r);
        return where_of([&] { (void)simulate_decode(r); });
    };
    CHECK(sim_where([](DecodeSimRequest& r) { r.chunks = p(0); }) == "decode.chunks");
    CHECK(sim_where([](DecodeSimRequest& r) { r.chunks = p(2.5); }) == "decode.chunks");
    CHECK(sim_where([](DecodeSimRequest& r) { r.buffers = p(0); }) == "decode.buffers");
    CHECK(sim_where([](DecodeSimRequest& r) { r.compute_ms = p(NAN); }) == "decode.compute_ms");
    CHECK(sim_where([](DecodeSimRequest& r) { r.host_ms = p(-1); }) == "decode.host_ms");
    CHECK(sim_where([](DecodeSimRequest& r) { r.contention = p(INFINITY); }) == "decode.contention");
    CHECK(sim_where([](DecodeSimRequest& r) { r.link_gb_per_s = p(0); }) == "decode.link_gb_per_s");
    CHECK(sim_where([](DecodeSimRequest& r) { r.height = p(NAN); }) == "decode.height");
    CHECK(sim_where([](DecodeSimRequest&) {}).empty());

    DecodeMeasurement m = case_measurement();
    m.sync_utilization = p(0);
    CHECK(where_of([&] { (void)fit_decode(case_shape(), m); }) == "fit.sync_utilization");
    m = case_measurement();
    m.async_seconds = p(NAN);
    CHECK(where_of([&] { (void)fit_decode(case_shape(), m); }) == "fit.async_seconds");
    // A utilisation that leaves less stall per chunk than the copy takes contradicts the model.
    m = case_measurement();
    m.sync_utilization = p(0.99999);
    CHECK(where_of([&] { (void)fit_decode(case_shape(), m); }) == "fit.sync_utilization");

    // The request: what is missing or contradictory.
    DecodeRequest q;
    q.instance = "g7e.2xlarge";
    q.frames_per_chunk = p(4), q.height = p(720), q.width = p(1280), q.compute_ms = p(400), q.host_ms = p(90);
    CHECK(where_of([&] { (void)evaluate_decode(catalog(), q); }) == "decode.chunks");
    q.chunks = p(41);
    CHECK(where_of([&] { (void)evaluate_decode(catalog(), q); }).empty());
    DecodeRequest fitted = q;
    fitted.fit = case_measurement();
    CHECK(where_of([&] { (void)evaluate_decode(catalog(), fitted); }) == "decode.compute_ms");
    DecodeRequest no_link = q;
    no_link.instance.reset();
    CHECK(where_of([&] { (void)evaluate_decode(catalog(), no_link); }) == "decode.link_gb_per_s");

    // In a scenario the JSON path is named.
    const auto scenario_where = [](const std::string& decode) {
        const std::string text = R"({"schema": "gpuplan.scenario/1", "region": "us-east-2", "decode": )" + decode + "}";
        return where_of([&] { (void)parse_scenario(text, "s.json", catalog()); });
    };
    const std::string video = R"("frames_per_chunk": 4, "height": 720, "width": 1280)";
    const std::string ok = R"("instance": "g7e.2xlarge", )" + video;
    CHECK(scenario_where("{" + ok + R"(, "chunks": 41, "compute_ms": 400, "host_ms": 90})").empty());
    CHECK(scenario_where("{" + ok + R"(, "chunks": 0, "compute_ms": 400, "host_ms": 90})") == "s.json: $.decode.chunks");
    CHECK(scenario_where("{" + ok + R"(, "chunks": 2.5, "compute_ms": 400, "host_ms": 90})") == "s.json: $.decode.chunks");
    CHECK(scenario_where("{" + ok + R"(, "chunks": 41, "compute_ms": 400, "host_ms": 90, "buffers": 0})") == "s.json: $.decode.buffers");
    CHECK(scenario_where("{" + ok + R"(, "chunks": 41, "compute_ms": 400, "host_ms": 90, "bufers": 2})") == "s.json: $.decode.bufers");
    CHECK(scenario_where("{" + ok + R"(, "chunks": 41, "compute_ms": 400, "fit": {"sync_seconds": 21.99, "async_seconds": 20.17,
        "sync_utilization": 0.82, "async_utilization": 0.999}})") == "s.json: $.decode.compute_ms");
    CHECK(scenario_where("{" + ok + R"(, "chunks": 41, "fit": {"sync_seconds": 21.99, "async_seconds": 20.17,
        "sync_utilization": 1.82, "async_utilization": 0.999}})") == "s.json: $.decode.fit.sync_utilization");
    CHECK(scenario_where("{" + video + R"(, "chunks": 41, "compute_ms": 400, "host_ms": 90, "instance": "g7e.2xlarg"})") ==
          "s.json: $.decode.instance");
}

namespace {

// A bench results document like `gpuplan bench decode` writes, with the case's figures.
nlohmann::json bench_doc() {
    const auto record = [](const char* case_name, double median, double util, double buffers) {
        return nlohmann::json{
            {"case", case_name},
            {"params",
             {{"chunks", 41}, {"frames_per_chunk", 4}, {"height", 720}, {"width", 1280}, {"channels", 3}, {"dtype_bytes", 4},
              {"compute_ms", 440}, {"host_stage", "convert"}, {"buffers", buffers}, {"memory", "pinned"}}},
            {"samples", {median, median}},
            {"median", median},
            {"unit", "s"},
            {"datasheet_peak", nullptr},
            {"fraction_of_peak", nullptr},
            {"stats",
             {{"min", median}, {"mean", median}, {"p99", median}, {"kernel_active_fraction", util}, {"chunk_compute_ms", 440},
              {"chunk_d2h_ms", 0.8833}, {"chunk_host_ms", 95.6}, {"compute_slowdown", nullptr}, {"rtf", nullptr}, {"checksums_ok", true}}}};
    };
    return {{"schema", "gpuplan.bench/1"},
            {"fingerprint",
             {{"backend", "cuda"}, {"instance_type", "g7e.2xlarge"},
              {"gpus", {{{"name", "NVIDIA RTX PRO 6000 Blackwell Server Edition"}, {"memory_gib", 96}, {"compute_capability", "12.0"},
                         {"pci_bus_id", "0000:00:1e.0"}}}},
              {"driver_version", "580"}, {"runtime_version", "13.0"}, {"host", "ip-10-0-0-1"}, {"numa_nodes", 1}}},
            {"records",
             {record("decode.sync_pinned", 21.99, 0.82, 1), record("decode.async", 20.17, 0.999, 2), record("decode.ring", 20.15, 0.999, 3),
              {{"case", "d2h"}, {"params", {{"bytes", 1}}}, {"anything", 1}}}}};
}

std::string bench_where(const std::function<void(nlohmann::json&)>& change) {
    nlohmann::json j = bench_doc();
    change(j);
    return where_of([&] { (void)decode_calibration(parse_bench_results(j.dump(), "b.json")); });
}

}  // namespace

TEST_CASE("Decode bench results calibrate the simulation", "[pipeline][bench]") {
    const BenchResults b = parse_bench_results(bench_doc().dump(), "b.json");
    CHECK(b.fingerprint.backend == "cuda");
    CHECK(b.decode.size() == 3);
    CHECK(b.other_cases == std::vector<std::string>{"d2h"});
    const DecodeBenchCalibration c = decode_calibration(b);
    CHECK(c.sync->case_name == "decode.sync_pinned");
    CHECK(c.async->case_name == "decode.async");
    REQUIRE(c.measured_link_gb_per_s);
    CHECK(c.measured_link_gb_per_s->value == Approx(44236800 / 0.8833e6));

    DecodeRequest q;
    q.region = "us-east-2";
    q.bench = b;
    q.sync_rtf = p(3.21);
    q.usd_per_hour = p(3.36);
    const DecodeReport r = evaluate_decode(catalog(), q);
    CHECK(r.instance == "g7e.2xlarge");  // from the fingerprint
    REQUIRE(r.fit);
    CHECK(r.fit->within_tolerance);
    CHECK(*r.fit->compute_ms.value == Approx(439.8));
    CHECK(r.inputs.link_gb_per_s.origin == InputOrigin::measured);
    REQUIRE(r.bench_checks.size() == 3);
    CHECK(r.bench_checks[2].case_name == "decode.ring");
    CHECK(r.bench_checks[2].buffers == 3);
    CHECK(r.bench_checks[2].simulated_seconds <= r.bench_checks[1].simulated_seconds);
    REQUIRE(r.measured_cost);
    CHECK(cents(*r.measured_cost->options.at(0).saving_usd_per_1000_video_hours.value) == 892.67);
}

// On a busy host the asynchronous run's copies overlap decodes and host work and slow down;
// the model's copies are never slowed, so the link comes from the pinned synchronous copies.
// Here the asynchronous copy (200 ms) is longer than the synchronous stall per chunk
// ((1 - 0.82) x 21.99 s x 1000 / 41 = 96.5 ms), as on CI's CPU backend (31 ms vs 24 ms).
TEST_CASE("Decode bench results: the link is the copy measured alone", "[pipeline][bench]") {
    nlohmann::json j = bench_doc();
    j["records"][1]["stats"]["chunk_d2h_ms"] = 200;
    DecodeRequest q;
    q.region = "us-east-2";
    q.sync_rtf = p(3.21);
    q.usd_per_hour = p(3.36);

    q.bench = parse_bench_results(j.dump(), "b.json");
    const DecodeBenchCalibration c = decode_calibration(*q.bench);
    REQUIRE(c.measured_link_gb_per_s);
    CHECK(c.measured_link_gb_per_s->value == Approx(44236800 / 0.8833e6));
    CHECK(c.measured_link_gb_per_s->source.find("decode.sync_pinned chunk_d2h_ms") != std::string::npos);
    const DecodeReport r = evaluate_decode(catalog(), q);
    REQUIRE(r.fit);
    CHECK(*r.fit->compute_ms.value == Approx(439.8));

    // Without a pinned synchronous record the asynchronous copy is the only pinned measurement;
    // here it contradicts the synchronous stall, and the fit says so instead of fitting.
    j["records"][0]["case"] = "decode.sync_pageable";
    q.bench = parse_bench_results(j.dump(), "b.json");
    const DecodeBenchCalibration pageable = decode_calibration(*q.bench);
    REQUIRE(pageable.measured_link_gb_per_s);
    CHECK(pageable.measured_link_gb_per_s->value == Approx(44236800 / 200e6));
    CHECK(where_of([&] { (void)evaluate_decode(catalog(), q); }) == "fit.sync_utilization");
}

TEST_CASE("Decode bench results: errors are named", "[pipeline][bench][bad-input]") {
    CHECK(bench_where([](nlohmann::json&) {}).empty());
    CHECK(bench_where([](nlohmann::json& j) { j["schema"] = "gpuplan.bench/2"; }) == "b.json: $.schema");
    CHECK(bench_where([](nlohmann::json& j) { j["extra"] = 1; }) == "b.json: $.extra");
    CHECK(bench_where([](nlohmann::json& j) { j["fingerprint"]["backend"] = "rocm"; }) == "b.json: $.fingerprint.backend");
    CHECK(bench_where([](nlohmann::json& j) { j["records"][0]["medain"] = 1; }) == "b.json: $.records[0].medain");
    CHECK(bench_where([](nlohmann::json& j) { j["records"][0]["stats"]["p50"] = 1; }) == "b.json: $.records[0].stats.p50");
    CHECK(bench_where([](nlohmann::json& j) { j["records"][1]["case"] = "decode.pipelined"; }) == "b.json: $.records[1].case");
    CHECK(bench_where([](nlohmann::json& j) { j["records"][1]["unit"] = "ms"; }) == "b.json: $.records[1].unit");
    CHECK(bench_where([](nlohmann::json& j) { j["records"][1]["samples"] = nlohmann::json::array(); }) == "b.json: $.records[1].samples");
    CHECK(bench_where([](nlohmann::json& j) { j["records"][1]["samples"][1] = -1; }) == "b.json: $.records[1].samples[1]");
    CHECK(bench_where([](nlohmann::json& j) { j["records"][0]["params"]["chunks"] = 0; }) == "b.json: $.records[0].params.chunks");
    CHECK(bench_where([](nlohmann::json& j) { j["records"][2]["params"].erase("buffers"); }) == "b.json: $.records[2].params.buffers");
    CHECK(bench_where([](nlohmann::json& j) { j["records"][1]["stats"].erase("checksums_ok"); }) == "b.json: $.records[1].stats.checksums_ok");
    // Runs that cannot calibrate: frames that failed their checksum, no utilisation, two videos.
    CHECK(bench_where([](nlohmann::json& j) { j["records"][1]["stats"]["checksums_ok"] = false; }) == "b.json: $.records[1].stats.checksums_ok");
    CHECK(bench_where([](nlohmann::json& j) { j["records"][0]["stats"]["kernel_active_fraction"] = nullptr; }) ==
          "b.json: $.records[0].stats.kernel_active_fraction");
    CHECK(bench_where([](nlohmann::json& j) { j["records"][1]["params"]["height"] = 1080; }) == "b.json: $.records[1].params");
    CHECK(bench_where([](nlohmann::json& j) { j["records"].erase(0); }) == "b.json: $.records");
    // Descriptive extras are accepted where documented: a record's params.
    CHECK(bench_where([](nlohmann::json& j) { j["records"][0]["params"]["numa_node"] = 0; }).empty());
    // The fingerprint and the run take the writers' keys only (issue 34): a key no writer writes
    // is refused with its path.
    CHECK(bench_where([](nlohmann::json& j) { j["fingerprint"]["pcie_gen"] = "gen5 x16"; }) == "b.json: $.fingerprint.pcie_gen");
    CHECK(bench_where([](nlohmann::json& j) { j["run"] = {{"complet", false}}; }) == "b.json: $.run.complet");
    CHECK(bench_where([](nlohmann::json& j) { j["fingerprint"]["gpus"][0]["memory_gb"] = 80; }) == "b.json: $.fingerprint.gpus[0].memory_gb");
    CHECK(where_of([] { (void)parse_bench_results("{", "b.json"); }).find("b.json") != std::string::npos);
}
