// suite_test.cpp — `gpuplan bench run` (native/bench/suite.hpp) on the CPU backend, and the
// planner's import of its results (core/gpuplan/measurements/calibration.hpp). No GPU needed.
//
// Expected values come from the definitions (bytes / seconds, nearest-rank percentiles, the
// documented case table), not from running the code: the statistics test feeds known
// durations; the verification, timeout and partial-result tests inject faults and check that
// the suite reports them rather than a number.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include <sched.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "gpuplan/measurements/calibration.hpp"
#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/measurements/bench_results.hpp"
#include "gpuplan/workload/model.hpp"
#include "gpuplan/workload/training_time.hpp"
#include "host_memory.hpp"
#include "suite.hpp"
#include "suite_json.hpp"
#include "transfer_faults.hpp"

using namespace gpuplan;
using namespace gpuplan::bench;
using Catch::Matchers::Contains;

namespace {

SuiteOptions small(std::vector<std::string> cases) {
    SuiteOptions o;
    o.depth = Depth::quick;
    o.size_bytes = 1 << 20;  // 1 MiB: fast, still many 4 MiB-chunk-free copies per sample
    o.samples = 3;
    o.warmup = 1;
    o.timeout_s = 20;
    o.selection = std::move(cases);
    return o;
}

const Record* find(const SuiteRun& run, const std::string& key) {
    for (const auto& r : run.records)
        if (r.case_key == key) return &r;
    return nullptr;
}

std::string temp_path(const char* name) { return (std::filesystem::temp_directory_path() / (std::string("gpuplan-suite-") + name)).string(); }

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("statistics follow their definitions", "[suite-stats]") {
    Record r;
    // 1e9 bytes in 1, 2 and 4 s: 1, 0.5 and 0.25 GB/s. Median of the durations is 2 s.
    fill_stats(r, {2.0, 1.0, 4.0}, 1e9, false);
    CHECK(*r.median == Approx(0.5));
    CHECK(*r.min == Approx(0.25));
    CHECK(*r.max == Approx(1.0));
    CHECK(*r.mean == Approx((1 + 0.5 + 0.25) / 3));
    CHECK(*r.p99 == Approx(0.25));  // the slowest sample, in GB/s
    CHECK(r.seconds_median == Approx(2.0));
    Record lat;
    fill_stats(lat, {3e-6, 1e-6, 2e-6, 4e-6}, 1, true);
    CHECK(*lat.median == Approx(2.5));  // even count: mean of the middle two, microseconds
    CHECK(*lat.p99 == Approx(4.0));
}

TEST_CASE("verdict bands and datasheet fractions", "[suite-stats]") {
    Record r;
    r.verified = true;
    r.median = 20;
    r.unit = "GB/s";
    r.expectation_kind = "pcie_host";
    const ExpectFn expect = [](const std::string&) { return Expectation{31.5, "test"}; };
    rate(r, expect);
    CHECK(*r.fraction == Approx(20 / 31.5));
    CHECK(*r.verdict == "ok");  // 0.635 >= 0.6
    r.median = 10;
    rate(r, expect);
    CHECK(*r.verdict == "low");  // 0.317
    r.median = 5;
    rate(r, expect);
    CHECK(*r.verdict == "broken");  // 0.159 < 0.2
    r.verified = false;
    r.median = 30;
    rate(r, expect);
    CHECK(*r.verdict == "broken");
    Record none;
    none.verified = true, none.median = 3, none.unit = "GB/s";
    rate(none, expect);  // no expectation kind: no verdict, and says why
    CHECK_FALSE(none.verdict.has_value());
    CHECK_FALSE(none.fraction.has_value());
}

TEST_CASE("sizes parse with units and refuse nonsense", "[suite-stats]") {
    CHECK(*parse_size("4096") == 4096);
    CHECK(*parse_size("64MiB") == 64ull << 20);
    CHECK(*parse_size("1GiB") == 1ull << 30);
    CHECK(*parse_size("500MB") == 500000000ull);
    CHECK_FALSE(parse_size("12 parsecs"));
    CHECK_FALSE(parse_size("-1MiB"));
    CHECK_FALSE(parse_size("4"));  // under one 8-byte word
    CHECK_FALSE(parse_size("0.5"));
}

TEST_CASE("the CPU backend runs every case a CPU can run, each verified", "[suite-cpu]") {
    auto be = make_cpu_transfer_backend();
    const SuiteRun run = run_suite(*be, small({}), {});
    CHECK(run.complete);
    CHECK(run.errors.empty());
    std::set<std::string> ran, waived;
    for (const auto& r : run.records) ran.insert(r.case_key);
    for (const auto& w : run.waived) waived.insert(w.case_key);
    for (const char* k : {"h2d_pageable", "h2d_pinned", "h2d_registered", "d2h_pageable", "d2h_pinned", "d2h_registered", "bidir_pinned",
                          "h2d_pinned_sm", "d2h_pinned_sm", "h2d_pinned_numa_local", "h2d_sweep", "dmem_copy", "dmem_scale", "dmem_add",
                          "dmem_triad", "dmem_read"})
        CHECK(ran.count(k) == 1);
    // What a CPU cannot run is WAIVED with a reason, never failed.
    for (const char* k : {"p2p_matrix", "p2p_bidir_matrix", "p2p_latency_matrix", "net_p2p_bw", "net_p2p_latency", "nccl_all_reduce",
                          "h2d_all_gpus", "d2h_all_gpus"})
        CHECK(waived.count(k) == 1);
    for (const auto& w : run.waived) CHECK_FALSE(w.reason.empty());
    for (const auto& r : run.records) {
        INFO(r.case_key);
        CHECK(r.status == "ok");
        CHECK(r.verified);
        CHECK(r.unit == "GB/s");
        REQUIRE(r.median.has_value());
        CHECK(*r.median > 0);
        CHECK(r.samples.size() == 3);
        CHECK(*r.min <= *r.median);
        CHECK(*r.median <= *r.max);
        CHECK(r.datasheet.value == std::nullopt);  // no catalog given: no made-up peak
    }
    // The sweep: 4 KiB, 16 KiB, 64 KiB, 256 KiB, then 1 MiB, and a knee among them.
    std::vector<std::uint64_t> sizes;
    for (const auto& r : run.records)
        if (r.case_key == "h2d_sweep") sizes.push_back(r.params["bytes"].get<std::uint64_t>());
    CHECK(sizes == std::vector<std::uint64_t>{4096, 16384, 65536, 262144, 1048576});
    CHECK(find(run, "h2d_sweep")->params["knee_bytes"].is_number());
    // STREAM arrays are at least 4 x the last-level cache.
    const Record* triad = find(run, "dmem_triad");
    CHECK(triad->params["array_bytes"].get<std::uint64_t>() >= 4 * triad->params["l2_bytes"].get<std::uint64_t>());
}

TEST_CASE("verification catches a corrupted transfer and reports no figure", "[suite-verify]") {
    auto faults = std::make_unique<CpuFaults>();
    auto be = make_cpu_transfer_backend(faults.get());
    SuiteOptions o = small({"h2d_pinned", "d2h_pinned"});
    o.faults = faults.get();
    o.inject_corrupt_case = "h2d_pinned";
    const SuiteRun run = run_suite(*be, o, {});
    const Record* bad = find(run, "h2d_pinned");
    REQUIRE(bad != nullptr);
    CHECK(bad->status == "failed");
    CHECK_FALSE(bad->verified);
    CHECK_FALSE(bad->median.has_value());
    CHECK(bad->samples.empty());
    CHECK_THAT(bad->verification, Contains("1 of 131072 8-byte words differ"));
    CHECK(*bad->verdict == "broken");
    REQUIRE(run.errors.size() == 1);
    CHECK_THAT(run.errors[0], Contains("h2d_pinned: failed: verification"));
    // The next case is unaffected.
    CHECK(find(run, "d2h_pinned")->verified);
}

TEST_CASE("a blocked case times out cleanly and the run goes on", "[suite-timeout]") {
    auto faults = std::make_unique<CpuFaults>();
    auto be = make_cpu_transfer_backend(faults.get());
    SuiteOptions o = small({"d2h_pinned", "h2d_pinned"});
    o.faults = faults.get();
    o.inject_hang_case = "d2h_pinned";
    o.timeout_s = 0.3;
    const auto t0 = std::chrono::steady_clock::now();
    const SuiteRun run = run_suite(*be, o, {});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const Record* hung = find(run, "d2h_pinned");
    REQUIRE(hung != nullptr);
    CHECK(hung->status == "timed_out");
    CHECK_THAT(hung->error, Contains("did not finish within 0.3"));
    CHECK_FALSE(hung->median.has_value());
    CHECK(seconds < 5);
    CHECK(find(run, "h2d_pinned")->status == "ok");
    CHECK(run.complete);
}

TEST_CASE("the JSON is complete after an injected failure, and the planner reads it", "[suite-partial]") {
    auto faults = std::make_unique<CpuFaults>();
    auto be = make_cpu_transfer_backend(faults.get());
    SuiteOptions o = small({"h2d_pinned", "dmem_copy", "dmem_triad", "p2p_matrix"});
    o.faults = faults.get();
    o.inject_throw_case = "dmem_copy";
    const std::string path = temp_path("partial.json");
    const nlohmann::json fp = suite_fingerprint(be.get(), "cpu", std::nullopt);
    RunInfo info{"test", "0", "quick", nlohmann::json::object(), utc_now_iso8601()};
    std::vector<bool> completes;
    std::vector<std::size_t> pending;
    const SuiteRun run = run_suite(*be, o, [&](const SuiteRun& r) {
        write_json_atomically(path, suite_document(fp, info, r));
        const nlohmann::json written = nlohmann::json::parse(slurp(path));
        completes.push_back(written["run"]["complete"].get<bool>());
        pending.push_back(written["run"]["cases_pending"].size());
    });
    // Rewritten after every case; "complete" only at the end. A file left by a signal says
    // which of the 4 selected cases had not finished (issue 34).
    CHECK(completes.size() == 5);
    CHECK(completes.front() == false);
    CHECK(completes.back() == true);
    CHECK(pending == std::vector<std::size_t>{3, 2, 1, 0, 0});
    CHECK_FALSE(std::filesystem::exists(path + ".tmp." + std::to_string(::getpid())));
    const BenchResults b = parse_bench_results(slurp(path), path);  // the strict reader is the schema
    CHECK(b.complete);
    REQUIRE(b.figures.size() == 3);
    CHECK(b.figures[0].case_name == "h2d_pinned");
    CHECK(b.figures[0].usable());
    CHECK(b.figures[1].case_name == "dmem_copy");
    CHECK(b.figures[1].status == "failed");
    CHECK_THAT(b.figures[1].error, Contains("injected failure"));
    CHECK_FALSE(b.figures[1].median.has_value());
    CHECK(b.figures[2].usable());
    REQUIRE(b.run_errors.size() == 1);
    CHECK_THAT(b.run_errors[0], Contains("dmem_copy"));
    const nlohmann::json doc = nlohmann::json::parse(slurp(path));
    CHECK(doc["run"]["waived"][0]["case"] == "p2p_matrix");
    CHECK(doc["fingerprint"]["cpu"]["logical_cpus"].get<int>() > 0);
    std::remove(path.c_str());
}

TEST_CASE("a malformed results file names the JSON path", "[suite-json]") {
    auto be = make_cpu_transfer_backend();
    const SuiteRun run = run_suite(*be, small({"h2d_pinned"}), {});
    nlohmann::json doc = suite_document(suite_fingerprint(be.get(), "cpu", std::nullopt), RunInfo{"t", "0", "quick", {}, "x"}, run);
    CHECK_NOTHROW(read_bench_results(doc, "r.json: $"));
    nlohmann::json typo = doc;
    typo["records"][0]["medain"] = 3;
    CHECK_THROWS_WITH(read_bench_results(typo, "r.json: $"), Contains("r.json: $.records[0].medain") && Contains("unknown key"));
    nlohmann::json unit = doc;
    unit["records"][0]["unit"] = "GiB/s";
    CHECK_THROWS_WITH(read_bench_results(unit, "r.json: $"), Contains("$.records[0].unit"));
    nlohmann::json nullmedian = doc;
    nullmedian["records"][0]["median"] = nullptr;
    CHECK_THROWS_WITH(read_bench_results(nullmedian, "r.json: $"), Contains("$.records[0].median"));
}

namespace {

// A results document as a GPU instance would write it: h2d/d2h on the cuda backend.
BenchResults cuda_results(double h2d, double d2h, std::optional<double> net) {
    auto rec = [](const char* c, double v, double bytes) {
        Record r;
        r.case_key = c, r.unit = "GB/s", r.verified = true, r.bytes_counted = "b", r.timing = "t", r.verification = "v";
        r.params = {{"bytes", bytes}};
        fill_stats(r, {bytes / (v * 1e9)}, bytes, false);
        return r;
    };
    SuiteRun run;
    run.backend = "cuda";
    run.records.push_back(rec("h2d_pinned", h2d, 1 << 26));
    run.records.push_back(rec("d2h_pinned", d2h, 1 << 26));
    if (net) run.records.push_back(rec("net_p2p_bw", *net, 1 << 24));
    run.complete = true;
    nlohmann::json fp = {{"backend", "cuda"}, {"instance_type", "p5.48xlarge"}, {"gpus", nlohmann::json::array()}};
    return read_bench_results(suite_document(fp, RunInfo{"t", "0", "quick", {}, "x"}, run), "fixture.json: $");
}

}  // namespace

TEST_CASE("measured figures replace datasheet ones in the training prediction", "[calibration]") {
    static const Catalog catalog = load_builtin_catalog();
    const BenchCalibration c = calibrate_from_bench(cuda_results(24, 20, 12.5), 8);
    REQUIRE(c.find("host_gb_per_s") != nullptr);
    CHECK(c.find("host_gb_per_s")->value.value == Approx(20));  // the slower direction
    CHECK_THAT(c.find("host_gb_per_s")->value.source, Contains("measured: fixture.json: $ d2h_pinned median 20"));
    REQUIRE(c.find("inter_gb_per_s") != nullptr);
    CHECK(c.find("inter_gb_per_s")->value.value == Approx(12.5 / 8));

    TrainingTimeRequest q;
    q.model = find_model(builtin_models(), "llama-3-8b");
    q.instance = catalog.find_instance("p5.48xlarge");
    REQUIRE(q.model != nullptr);
    q.nodes = 1;
    q.layout.data = 8;
    q.layout.zero_stage = 1;
    q.layout.offload_optimizer = true;
    q.layout.global_batch_tokens = 8 * 2048 * 8;
    const TrainingTime before = training_time(catalog, q);
    q.topology.host_gb_per_s = c.find("host_gb_per_s")->value;
    const TrainingTime after = training_time(catalog, q);
    // The offload moves the same bytes over a slower measured link than the datasheet's
    // 63 GB/s x 0.8: it must take longer, and the figure must name the measurement.
    CHECK(after.topology.host.gb_per_s.value == Approx(20));
    CHECK(*after.offload_seconds.value > *before.offload_seconds.value);
    CHECK(after.topology.host.measured());
}

TEST_CASE("cpu-backend copies never stand in for PCIe; unverified records are never used", "[calibration]") {
    BenchResults b = cuda_results(24, 20, std::nullopt);
    b.fingerprint.backend = "cpu";
    const BenchCalibration cpu = calibrate_from_bench(b, 8);
    CHECK(cpu.find("host_gb_per_s") == nullptr);
    CHECK_THAT(cpu.skipped.at(0), Contains("not a GPU-host figure"));
    BenchResults bad = cuda_results(24, 20, std::nullopt);
    bad.figures[1].verified = false;  // d2h did not verify: only h2d is left
    const BenchCalibration c = calibrate_from_bench(bad, 8);
    CHECK(c.find("host_gb_per_s")->value.value == Approx(24));
}

TEST_CASE("datasheet figures come from the catalog, unknown ones say why", "[calibration]") {
    static const Catalog catalog = load_builtin_catalog();
    const DatasheetFigure pcie = datasheet_figure(catalog, "g6e.xlarge", "pcie_host");  // L40S: PCIe gen4 x16
    CHECK(*pcie.gb_per_s == Approx(1.969 * 16));
    CHECK(*datasheet_figure(catalog, "g6e.xlarge", "device_memory").gb_per_s == Approx(864));
    CHECK(*datasheet_figure(catalog, "p5.48xlarge", "network").gb_per_s == Approx(400));
    const DatasheetFigure none = datasheet_figure(catalog, "no.such", "pcie_host");
    CHECK_FALSE(none.gb_per_s.has_value());
    CHECK_THAT(none.source, Contains("not in the catalog"));
}

// --- --inject-fault on `bench run` (transfer_faults.hpp): every failure path, either backend ---

namespace {

// The CPU backend seen as two "GPUs" with peer access, so the peer-to-peer case (and what it
// does after a hung probe) runs without a GPU. Every buffer is host memory either way.
class TwoDeviceCpu final : public TransferBackend {
public:
    explicit TwoDeviceCpu(bool peer = true) : peer_(peer) {}
    std::string name() const override { return inner_->name(); }
    std::string timing_method() const override { return inner_->timing_method(); }
    int device_count() const override { return 2; }
    DeviceFacts device_facts(int) override { return inner_->device_facts(0); }
    std::uint64_t device_free_bytes(int) override { return inner_->device_free_bytes(0); }
    std::optional<std::string> unsupported(HostKind k) const override { return inner_->unsupported(k); }
    std::optional<std::string> unsupported(CopyMethod m, Place p) const override { return inner_->unsupported(m, p); }
    bool peer_advertised(int, int) override { return peer_; }
    void enable_peer(int, int) override {}
    int allocate(const BufferSpec& spec) override {
        BufferSpec s = spec;
        s.device = 0;
        return inner_->allocate(s);
    }
    void release_all() override { inner_->release_all(); }
    void fill_pattern(int b, std::uint64_t seed) override { inner_->fill_pattern(b, seed); }
    std::uint64_t count_mismatches(int b, std::uint64_t seed, std::uint64_t bytes) override { return inner_->count_mismatches(b, seed, bytes); }
    void fill_value(int b, double v, std::uint64_t n) override { inner_->fill_value(b, v, n); }
    double max_abs_error(int b, double e, std::uint64_t n) override { return inner_->max_abs_error(b, e, n); }
    double last_read_sum() override { return inner_->last_read_sum(); }
    std::optional<double> run(const Op& op, int reps, double timeout_s, std::string& why) override {
        Op o = op;
        for (auto& t : o.transfers) t.device = 0;
        return inner_->run(o, reps, timeout_s, why);
    }
    std::optional<std::string> poisoned() const override { return inner_->poisoned(); }
    std::vector<std::string> notes() const override { return inner_->notes(); }

private:
    bool peer_;
    std::shared_ptr<TransferBackend> inner_ = make_cpu_transfer_backend();
};

SuiteRun run_with_fault(std::shared_ptr<TransferBackend> be, const std::string& fault, SuiteOptions o) {
    auto faulty = with_transfer_fault(std::move(be), parse_transfer_fault(fault));
    return run_suite(*faulty, o, {});
}

}  // namespace

TEST_CASE("an injected failure of a run, an allocation or a verification fails that case only", "[suite-faults]") {
    for (const char* fault : {"copy:1", "alloc:2", "verify:1"}) {
        CAPTURE(fault);
        const SuiteRun run = run_with_fault(make_cpu_transfer_backend(), fault, small({"h2d_pinned", "d2h_pinned"}));
        const Record* first = find(run, "h2d_pinned");
        REQUIRE(first != nullptr);
        CHECK(first->status == "failed");
        CHECK_FALSE(first->median.has_value());  // no figure for a case that failed
        if (std::string(fault) == "verify:1") CHECK_THAT(first->verification, Contains("MISMATCH"));
        else CHECK_THAT(first->error, Contains("--inject-fault " + std::string(fault)));
        REQUIRE(find(run, "d2h_pinned") != nullptr);
        CHECK(find(run, "d2h_pinned")->status == "ok");
        CHECK(run.errors.size() == 1);
        CHECK(run.complete);
    }
}

TEST_CASE("a hung run is stopped by its timeout and later cases are waived, not run against a stuck device", "[suite-faults]") {
    SuiteOptions o = small({"h2d_pinned", "d2h_pinned", "dmem_copy"});
    o.timeout_s = 0.3;
    const auto t0 = std::chrono::steady_clock::now();
    const SuiteRun run = run_with_fault(make_cpu_transfer_backend(), "hang:copy:1", o);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    REQUIRE(find(run, "h2d_pinned") != nullptr);
    CHECK(find(run, "h2d_pinned")->status == "timed_out");
    CHECK_THAT(find(run, "h2d_pinned")->error, Contains("did not finish within 0.3"));
    REQUIRE(run.waived.size() == 2);
    CHECK(run.waived[0].case_key == "d2h_pinned");
    CHECK_THAT(run.waived[1].reason, Contains("cannot be stopped"));
    CHECK(seconds < 3);  // one timeout, not one per case
    CHECK(run.complete);
}

TEST_CASE("after a hung peer probe the remaining GPU pairs are not tried", "[suite-faults]") {
    SuiteOptions o = small({"p2p_matrix"});
    o.p2p_probe_timeout_s = 0.2;
    const SuiteRun clean = run_suite(*std::make_shared<TwoDeviceCpu>(), o, {});
    CHECK(clean.records.size() == 2);  // 0 -> 1 and 1 -> 0, both measured
    for (const auto& r : clean.records) CHECK(r.status == "ok");
    const SuiteRun hung = run_with_fault(std::make_shared<TwoDeviceCpu>(), "hang:copy:1", o);
    REQUIRE(hung.records.size() == 1);  // the first probe; the pair after it is not tried
    CHECK(hung.records[0].status == "timed_out");
    bool said = false;
    for (const auto& e : hung.errors) said = said || e.find("were not run") != std::string::npos;
    CHECK(said);
}

TEST_CASE("a pair without peer access is measured as the host-staged path, never as a peer link", "[suite-faults]") {
    // Finding 7: cudaMemcpyDefault between GPUs without peer access stages through host memory;
    // that figure must not be recorded as verified peer access or rated against NVLink.
    const SuiteRun run = run_suite(*std::make_shared<TwoDeviceCpu>(false), small({"p2p_matrix"}), {});
    REQUIRE(run.records.size() == 2);
    for (const auto& r : run.records) {
        CHECK(r.status == "ok");
        CHECK(r.params["path"] == "host_staged");
        CHECK(r.params["advertised_peer_access"] == false);
        CHECK(r.params["verified_access"] == false);
        CHECK(r.expectation_kind.empty());
    }
    const SuiteRun peer = run_suite(*std::make_shared<TwoDeviceCpu>(true), small({"p2p_matrix"}), {});
    REQUIRE(peer.records.size() == 2);
    CHECK(peer.records[0].params["path"] == "peer");
    CHECK(peer.records[0].params["verified_access"] == true);
    CHECK(peer.records[0].expectation_kind == "peer");
}

TEST_CASE("--inject-fault specs for bench run", "[suite-faults]") {
    CHECK(to_string(parse_transfer_fault("copy:3")) == "copy:3");
    CHECK(to_string(parse_transfer_fault("hang:copy:12")) == "hang:copy:12");
    CHECK(parse_transfer_fault("alloc:1").stage == TransferFault::Stage::alloc);
    CHECK(parse_transfer_fault("verify:2").at == 2);
    for (const char* bad : {"copy", "copy:0", "copy:-1", "compute:1", "hang:alloc:1", "hang:verify:1", ":3", "copy:1x", ""}) {
        CAPTURE(bad);
        CHECK_THROWS_WITH(parse_transfer_fault(bad), Contains("--inject-fault") && Contains(std::string("'") + bad + "'"));
    }
}

TEST_CASE("CPU lists parse as sysfs writes them, and host buffers follow each GPU's NUMA node", "[suite-numa]") {
    CHECK(parse_cpu_list("0-3,8,10-11\n") == std::vector<int>{0, 1, 2, 3, 8, 10, 11});
    CHECK(parse_cpu_list("") == std::vector<int>{});
    CHECK(parse_cpu_list("5") == std::vector<int>{5});
    CHECK_FALSE(parse_cpu_list("3-1").has_value());
    CHECK_FALSE(parse_cpu_list("a").has_value());
    CHECK_FALSE(parse_cpu_list("1,,2").has_value());
    CHECK(format_cpu_list({0, 1, 2, 3, 8, 10, 11}) == "0-3,8,10-11");
    CHECK(format_cpu_list({}) == "");
    CHECK(format_cpu_list({5}) == "5");
    // The machine's own: libnuma's node list and CPUs read back as sysfs writes them.
    for (int node : numa_nodes()) {
        std::ifstream sysfs("/sys/devices/system/node/node" + std::to_string(node) + "/cpulist");
        std::string text;
        if (std::getline(sysfs, text)) CHECK(format_cpu_list(numa_node_cpus(node)) == text);
        CHECK(numa_node_memory_gib(node).value_or(0) > 0);
    }
    CHECK(numa_node_cpus(-1).empty());
    CHECK_FALSE(numa_node_memory_gib(100000).has_value());
    {
        const ScopedCpuAffinity on_cpu0({0});
        CHECK((on_cpu0.applied() || !on_cpu0.note().empty()));
        if (on_cpu0.applied()) CHECK(sched_getcpu() == 0);
    }
    const SuiteRun run = run_suite(*make_cpu_transfer_backend(), small({"h2d_pinned"}), {});
    REQUIRE(run.records.size() == 1);
    const nlohmann::json& p = run.records[0].params;
    CHECK(p["numa_nodes"] == nlohmann::json::array({make_cpu_transfer_backend()->device_facts(0).numa_node}));
    CHECK(p["numa_node"] == p["numa_nodes"][0]);
}
