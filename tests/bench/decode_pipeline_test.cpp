// The decode-pipeline benchmark on the CPU backend: modes A-D run and verify every frame, the
// asynchronous modes really overlap their stages, a slow writer stays bounded, a failing or
// stuck writer stops the run with a clear message, bad input is refused before allocating,
// and the results document has the keys the planner reads. Sizes are small: each case runs
// in well under 5 s on 2 cores. Stage times come from sleeps, so they hold on a busy machine.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "bench_results.hpp"
#include "gpuplan/measurements/bench_results.hpp"
#include "decode_backend.hpp"
#include "decode_pipeline.hpp"
#include "frame_layout.hpp"

using namespace gpuplan::bench;
namespace fs = std::filesystem;

namespace {

const std::vector<Mode> kAllModes = {Mode::sync_pageable, Mode::sync_pinned, Mode::async, Mode::ring};

DecodeConfig small_config() {
    DecodeConfig c;
    c.layout = FrameLayout{2, 16, 24, 3, 4};  // 2 frames of 24x16x3 fp32 per chunk
    c.chunks = 8;
    c.compute_ms = 2;
    c.warmup = 1;
    c.videos = 2;
    return c;
}

// A fresh folder, removed with everything in it at the end of the test.
struct TempDir {
    fs::path path;
    TempDir() {
        std::string pattern = (fs::temp_directory_path() / "gpuplan-bench-test.XXXXXX").string();
        REQUIRE(mkdtemp(pattern.data()) != nullptr);
        path = pattern;
    }
    ~TempDir() {
        std::error_code ec;
        fs::permissions(path, fs::perms::owner_all, ec);
        fs::remove_all(path, ec);
    }
};

// The message of the BenchError that running `config` throws, and its kind.
std::pair<BenchError::Kind, std::string> run_error(const DecodeConfig& config, std::vector<Mode> modes) {
    try {
        (void)run_decode_bench(make_cpu_backend(), config, modes);
    } catch (const BenchError& e) {
        return {e.kind(), e.what()};
    }
    FAIL("the run did not fail");
    return {BenchError::Kind::failed, ""};
}

}  // namespace

TEST_CASE("frames carry the pattern's checksum and any change shows", "[pattern]") {
    for (const FrameLayout L : {FrameLayout{1, 16, 24, 3, 4}, FrameLayout{1, 3, 5, 1, 1}, FrameLayout{1, 7, 3, 1, 2}}) {
        std::vector<unsigned char> frame(L.frame_pitch());
        for (std::uint64_t k = 0; k < L.frame_words(); ++k) {
            const std::uint64_t w = frame_word(L, 5, k);
            std::memcpy(frame.data() + 8 * k, &w, std::min<std::uint64_t>(8, L.frame_bytes() - 8 * k));
        }
        const std::uint64_t sum = checksum_bytes(frame.data(), L.frame_bytes());
        CHECK(sum == expected_checksum(L, 5));
        CHECK(sum != expected_checksum(L, 6));  // another frame never checks out
        frame[L.frame_bytes() - 1] ^= 1;
        CHECK(checksum_bytes(frame.data(), L.frame_bytes()) != sum);
    }
    // Frames start on 4096-byte boundaries (O_DIRECT) and the trailer follows them.
    const FrameLayout L{4, 720, 1280, 3, 4};
    CHECK(L.frame_bytes() == 11059200);
    CHECK(L.frame_pitch() % 4096 == 0);
    CHECK(L.buffer_bytes() == L.frame_pitch() * 4 + 4096);
}

TEST_CASE("P99 is the nearest-rank 99th percentile", "[stats]") {
    std::vector<double> s;
    for (int k = 1; k <= 200; ++k) s.push_back(k);
    const SampleSummary r = summarize(s);
    CHECK(r.min == 1);
    CHECK(r.mean == Approx(100.5));
    CHECK(r.median == Approx(100.5));
    CHECK(r.p99 == 198);
    CHECK(summarize({3.0}).p99 == 3.0);
}

TEST_CASE("modes A-D run on the CPU backend and every checksum matches", "[modes]") {
    TempDir dir;
    for (HostStageKind stage : {HostStageKind::none, HostStageKind::memcpy, HostStageKind::convert, HostStageKind::write}) {
        DecodeConfig c = small_config();
        c.host_stage = stage;
        c.output_dir = dir.path.string();
        c.video_seconds = 0.5;
        INFO("host stage " << to_string(stage));
        const DecodeRun run = run_decode_bench(make_cpu_backend(), c, kAllModes);
        REQUIRE(run.cases.size() == 4);
        CHECK(run.waived.empty());
        CHECK(run.calibration.isolated_compute_ms >= 2.0);
        for (const CaseResult& r : run.cases) {
            INFO(r.case_name);
            CHECK(r.checksums_ok);
            CHECK(r.frames_verified == 8 * 2 * 3);  // chunks x frames x (warm-up + videos)
            CHECK(r.samples.size() == 2);
            CHECK(r.min <= r.mean);
            CHECK(r.mean <= r.p99);
            CHECK(r.chunk_compute_ms >= 2.0);
            CHECK(r.kernel_active_fraction > 0);
            CHECK(r.kernel_active_fraction <= 1.0);
            CHECK(r.max_buffers_in_flight <= r.buffers);
            REQUIRE(r.rtf);
            CHECK(*r.rtf == Approx(r.mean / 0.5));
        }
        CHECK(run.cases[0].buffers == 1);
        CHECK(run.cases[2].buffers == 2);
        CHECK(run.cases[3].buffers == 3);
        CHECK(run.frames_written == (stage == HostStageKind::write ? 4u * 8 * 2 * 3 : 0u));
    }
    CHECK(fs::is_empty(dir.path));  // the output file is removed afterwards
}

TEST_CASE("the compute-bound decoder keeps a core busy for its time, and every mode verifies", "[modes]") {
    DecodeConfig c = small_config();
    c.decoder = DecoderKind::compute_bound;
    const DecodeRun run = run_decode_bench(make_cpu_backend(), c, kAllModes);
    CHECK_THAT(run.calibration.method, Catch::Contains("multiply-adds"));
    // Spinning to the target, not sleeping: the decode alone takes at least the target.
    CHECK(run.calibration.isolated_compute_ms >= c.compute_ms * 0.95);
    for (const auto& r : run.cases) CHECK(r.checksums_ok);
    CHECK(results_json(machine_fingerprint("cpu", std::nullopt), c, run)["run"]["decoder"] == "compute");
}

TEST_CASE("fp16 and uint8 frames and an N-buffer ring verify too", "[modes]") {
    for (std::uint32_t bytes : {2u, 1u}) {
        DecodeConfig c = small_config();
        c.layout = FrameLayout{3, 7, 5, 3, bytes};  // odd sizes: frames end mid-word
        c.ring_buffers = 5;
        c.host_stage = bytes == 2 ? HostStageKind::convert : HostStageKind::memcpy;
        const DecodeRun run = run_decode_bench(make_cpu_backend(), c, {Mode::ring});
        REQUIRE(run.cases.size() == 1);
        CHECK(run.cases[0].checksums_ok);
        CHECK(run.cases[0].buffers == 5);
    }
}

TEST_CASE("the asynchronous pipeline overlaps its stages; the synchronous one does not", "[overlap]") {
    DecodeConfig c = small_config();
    c.chunks = 16;
    c.compute_ms = 8;
    c.inject_writer_delay_ms = 6;  // the host stage costs 6 ms per chunk
    c.videos = 2;
    const DecodeRun run = run_decode_bench(make_cpu_backend(), c, {Mode::sync_pinned, Mode::async});
    const CaseResult& sync = run.cases[0];
    const CaseResult& async = run.cases[1];
    INFO("sync: " << sync.mean << " s vs stage sum " << sync.stage_sum_seconds << " s; async: " << async.mean << " s vs "
                  << async.stage_sum_seconds << " s");
    // In order, a video is the sum of its stages; overlapped, about 16 x 8 + 6 = 134 ms
    // against a sum of about 16 x 14 = 224 ms. The margin asserted: 20% below the sum.
    CHECK(sync.mean >= 0.95 * sync.stage_sum_seconds);
    CHECK(async.mean < 0.8 * async.stage_sum_seconds);
    CHECK(async.mean < 0.8 * sync.mean);
    CHECK(async.kernel_active_fraction > sync.kernel_active_fraction + 0.2);
    CHECK(async.chunk_host_ms >= 6);
}

TEST_CASE("a slow writer holds the launcher back: memory stays bounded and the run is correct", "[slow-writer]") {
    DecodeConfig c = small_config();
    c.chunks = 12;
    c.compute_ms = 1;
    c.inject_writer_delay_ms = 10;
    c.warmup = 0;
    c.videos = 1;
    const DecodeRun run = run_decode_bench(make_cpu_backend(), c, {Mode::ring});
    const CaseResult& r = run.cases[0];
    CHECK(r.checksums_ok);
    CHECK(r.max_buffers_in_flight == 3);  // every buffer in use, never more
    CHECK(r.mean >= 12 * 0.010);          // paced by the writer
    CHECK(r.kernel_active_fraction < 0.3);
}

// This case races on purpose (the copy engine writes a buffer the writer is reading): under
// ThreadSanitizer it is the one expected report; every other case runs clean under TSan.
TEST_CASE("without the release wait the launcher overwrites buffers and verification catches it", "[verification]") {
    DecodeConfig c = small_config();
    c.compute_ms = 1;
    c.inject_writer_delay_ms = 10;
    c.unsafe_skip_release_wait = true;
    const auto [kind, message] = run_error(c, {Mode::async});
    CHECK(kind == BenchError::Kind::failed);
    CHECK_THAT(message, Catch::Contains("checksum mismatch") && Catch::Contains("decode.async (mode C)") &&
                            Catch::Contains("overwritten before the host stage finished"));
}

TEST_CASE("a failing write stops the run and says how many frames were written", "[failing-writer]") {
    TempDir dir;
    for (Mode mode : {Mode::sync_pageable, Mode::async}) {
        DecodeConfig c = small_config();
        c.host_stage = HostStageKind::write;
        c.output_dir = dir.path.string();
        c.inject_write_failure_at_frame = 7;
        const auto [kind, message] = run_error(c, {mode});
        CHECK(kind == BenchError::Kind::failed);
        CHECK_THAT(message, Catch::Contains("writing chunk 3 frame 0 (the run's frame #7)") && Catch::Contains("No space left on device") &&
                                Catch::Contains("6 frames were written in this run before the failure, the run stopped"));
    }
}

TEST_CASE("an output folder that cannot be written fails before the run: 0 frames written", "[failing-writer]") {
    TempDir dir;
    fs::path readonly = dir.path / "ro";
    fs::create_directory(readonly);
    fs::permissions(readonly, fs::perms::owner_read | fs::perms::owner_exec);
    // root ignores permissions: fall back to /proc, where no file can be created.
    const fs::path probe = readonly / "probe";
    if (std::ofstream(probe).good()) {
        fs::remove(probe);
        readonly = "/proc";
    }
    DecodeConfig c = small_config();
    c.host_stage = HostStageKind::write;
    c.output_dir = readonly.string();
    const auto [kind, message] = run_error(c, {Mode::async});
    CHECK(kind == BenchError::Kind::failed);
    CHECK_THAT(message, Catch::Contains("cannot write to --output-dir " + readonly.string()) && Catch::Contains("0 frames were written"));
}

TEST_CASE("a stuck writer becomes a clear error after --writer-timeout-s, never a hang", "[stuck-writer]") {
    DecodeConfig c = small_config();
    c.inject_writer_delay_ms = 60000;
    c.writer_timeout_s = 0.2;
    const auto start = std::chrono::steady_clock::now();
    const auto [kind, message] = run_error(c, {Mode::ring});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(kind == BenchError::Kind::failed);
    CHECK_THAT(message, Catch::Contains("the writer thread did not release a host buffer within 0.2 s (--writer-timeout-s)") &&
                            Catch::Contains("released 0 of 8 chunks"));
    CHECK(seconds < 3);
}

TEST_CASE("bad input is refused before anything is allocated", "[bad-input]") {
    const auto error_of = [](const DecodeConfig& c) { return run_error(c, {Mode::async}); };
    DecodeConfig c = small_config();
    c.chunks = 0;
    auto [kind, message] = error_of(c);
    CHECK(kind == BenchError::Kind::bad_input);
    CHECK_THAT(message, Catch::StartsWith("--chunks: got 0"));

    c = small_config();
    c.layout = FrameLayout{1024, 65536, 65536, 64, 4};  // 1 PB per chunk
    std::tie(kind, message) = error_of(c);
    CHECK(kind == BenchError::Kind::bad_input);
    CHECK_THAT(message, Catch::Contains("of host memory") && Catch::Contains("is usable (90% of MemAvailable)"));

    c = small_config();
    c.layout.dtype_bytes = 1;
    c.host_stage = HostStageKind::convert;
    std::tie(kind, message) = error_of(c);
    CHECK_THAT(message, Catch::StartsWith("--host-stage: got convert with --dtype uint8"));

    c = small_config();
    c.inject_write_failure_at_frame = 3;
    std::tie(kind, message) = error_of(c);
    CHECK_THAT(message, Catch::StartsWith("--inject-write-failure-at-frame: got 3 with --host-stage none"));

    c = small_config();
    c.numa_node = 63;
    std::tie(kind, message) = error_of(c);
    CHECK_THAT(message, Catch::StartsWith("--numa-node: got 63; expected a NUMA node of this machine"));

    c = small_config();
    c.host_stage = HostStageKind::write;
    c.output_dir = "/nonexistent/gpuplan";
    std::tie(kind, message) = error_of(c);
    CHECK(kind == BenchError::Kind::bad_input);
    CHECK_THAT(message, Catch::Contains("it does not exist"));
}

TEST_CASE("O_DIRECT writes verify, or the cases are WAIVED when the file system refuses them", "[odirect]") {
    TempDir dir;
    DecodeConfig c = small_config();
    c.host_stage = HostStageKind::odirect;
    c.output_dir = dir.path.string();
    const DecodeRun run = run_decode_bench(make_cpu_backend(), c, {Mode::async, Mode::ring});
    if (run.waived.empty()) {
        REQUIRE(run.cases.size() == 2);
        CHECK(run.cases[0].checksums_ok);
        CHECK(run.frames_written == 2u * 8 * 2 * 3);
    } else {
        CHECK(run.cases.empty());
        CHECK_THAT(run.waived[0].reason, Catch::Contains("O_DIRECT refused"));
    }
}

TEST_CASE("NUMA node 0 binds or says why not, and the run verifies", "[numa]") {
    DecodeConfig c = small_config();
    c.numa_node = 0;
    c.warmup = 0;
    c.videos = 1;
    const DecodeRun run = run_decode_bench(make_cpu_backend(), c, {Mode::async});
    CHECK(run.cases.at(0).checksums_ok);
}

TEST_CASE("the results document has the keys the planner reads", "[json]") {
    DecodeConfig c = small_config();
    c.video_seconds = 2;
    const DecodeRun run = run_decode_bench(make_cpu_backend(), c, kAllModes);
    const nlohmann::json j = results_json(machine_fingerprint("cpu", std::string("g7e.2xlarge")), c, run);
    CHECK(j["schema"] == "gpuplan.bench/1");
    CHECK(j["fingerprint"]["backend"] == "cpu");
    CHECK(j["fingerprint"]["instance_type"] == "g7e.2xlarge");
    CHECK(j["fingerprint"]["gpus"].is_array());
    CHECK(j["fingerprint"].contains("driver_version"));
    CHECK(j["fingerprint"].contains("runtime_version"));
    CHECK(j["fingerprint"]["host"].is_string());
    CHECK(j.size() == 4);  // schema, fingerprint, records, run: the planner's reader accepts exactly these
    CHECK(j["run"]["decoder"] == "memory");  // which synthetic decoder ran, and how it was sized
    CHECK_THAT(j["run"]["decoder_calibration"].get<std::string>(), Catch::Contains("sleeps"));
    CHECK_NOTHROW(gpuplan::parse_bench_results(j.dump(), "decode.json"));
    REQUIRE(j["records"].size() == 4);
    std::vector<std::string> cases;
    for (const auto& r : j["records"]) {
        cases.push_back(r["case"]);
        for (const char* key : {"chunks", "frames_per_chunk", "height", "width", "channels", "dtype_bytes", "compute_ms", "host_stage", "buffers"})
            CHECK(r["params"].contains(key));
        for (const char* key : {"min", "mean", "p99", "kernel_active_fraction", "chunk_compute_ms", "chunk_d2h_ms", "chunk_host_ms",
                                "compute_slowdown", "rtf", "checksums_ok"})
            CHECK(r["stats"].contains(key));
        CHECK(r["samples"].size() == 2);
        CHECK(r["unit"] == "s");
        CHECK(r["datasheet_peak"].is_null());
        CHECK(r["fraction_of_peak"].is_null());
        CHECK(r["median"].get<double>() > 0);
        CHECK(r["stats"]["checksums_ok"] == true);
        CHECK(r["stats"]["rtf"].get<double>() == Approx(r["stats"]["mean"].get<double>() / 2));
    }
    CHECK(cases == std::vector<std::string>{"decode.sync_pageable", "decode.sync_pinned", "decode.async", "decode.ring"});
}

// ---- injected faults (decode_faults.hpp): every failure path ends with the results so far -----

namespace {

// The DecodeRunFailed that running `config` throws (the run before it, and the failed case).
DecodeRunFailed run_failure(const DecodeConfig& config, std::vector<Mode> modes) {
    try {
        (void)run_decode_bench(make_cpu_backend(), config, modes);
    } catch (const DecodeRunFailed& e) {
        return e;
    }
    FAIL("the run did not fail with its partial results");
    return DecodeRunFailed("", "", DecodeRun{});
}

DecodeConfig fault_config(const std::string& spec) {
    DecodeConfig c = small_config();
    c.warmup = 0;
    c.videos = 1;
    c.inject_fault = parse_injected_fault(spec);
    return c;
}

}  // namespace

TEST_CASE("a failed compute call in mode C ends the run with the cases before it, not std::terminate", "[faults]") {
    // Mode B decodes chunks 1-8 of its one video, mode C's second chunk is the 10th call. Before
    // the fix, the exception unwound past a joinable writer thread: std::terminate, no results.
    const DecodeRunFailed f = run_failure(fault_config("compute:10"), {Mode::sync_pinned, Mode::async});
    CHECK(f.failed_case == "decode.async");
    REQUIRE(f.partial.cases.size() == 1);
    CHECK(f.partial.cases[0].case_name == "decode.sync_pinned");
    CHECK(f.partial.cases[0].checksums_ok);
    CHECK_THAT(std::string(f.what()), Catch::Contains("decode.async (mode C), video 1 of 1") && Catch::Contains("the 10th compute call failed"));
}

TEST_CASE("a failed copy, in each mode, names the case and the call", "[faults]") {
    for (Mode mode : {Mode::sync_pageable, Mode::sync_pinned, Mode::async, Mode::ring}) {
        const DecodeRunFailed f = run_failure(fault_config("copy:3"), {mode});
        CHECK(f.failed_case == case_name(mode));
        CHECK(f.partial.cases.empty());
        CHECK_THAT(std::string(f.what()), Catch::Contains("the 3rd copy call failed"));
    }
}

TEST_CASE("a hung copy is stopped by the device timeout, in the writer thread and in the launching one", "[faults]") {
    for (Mode mode : {Mode::sync_pageable, Mode::async, Mode::ring}) {
        DecodeConfig c = fault_config("hang:copy:2");
        c.device_timeout_s = 0.3;
        c.writer_timeout_s = 20;  // the device timeout, not the writer's, must stop it
        const auto start = std::chrono::steady_clock::now();
        const DecodeRunFailed f = run_failure(c, {mode});
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        CHECK(f.failed_case == case_name(mode));
        CHECK_THAT(std::string(f.what()), Catch::Contains("was not reached within 0.3 s (--device-timeout-s)") && Catch::Contains("hang:copy:2"));
        CHECK(seconds < 5);
    }
}

TEST_CASE("a failing or hung writer stops the run; a hung compute stalls the copy that waits for it", "[faults]") {
    const DecodeRunFailed failing = run_failure(fault_config("writer:2"), {Mode::ring});
    CHECK_THAT(std::string(failing.what()), Catch::Contains("the host stage failed at chunk 2 of the run"));
    DecodeConfig hung = fault_config("hang:writer:2");
    hung.writer_timeout_s = 0.3;
    for (Mode mode : {Mode::sync_pinned, Mode::async}) {
        const auto start = std::chrono::steady_clock::now();
        const DecodeRunFailed f = run_failure(hung, {mode});
        CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 5);
        CHECK_THAT(std::string(f.what()), Catch::Contains("0.3") && Catch::Contains("--writer-timeout-s"));
    }
    // Mode C: the copy engine waits for each decode, so a hung 3rd decode leaves copy 3 unreached.
    DecodeConfig compute = fault_config("hang:compute:3");
    compute.device_timeout_s = 0.3;
    const DecodeRunFailed f = run_failure(compute, {Mode::async});
    CHECK_THAT(std::string(f.what()), Catch::Contains("was not reached within 0.3 s"));
}

TEST_CASE("--inject-fault specs", "[faults]") {
    CHECK(to_string(parse_injected_fault("hang:copy:3")) == "hang:copy:3");
    CHECK(parse_injected_fault("writer:12").at == 12);
    for (const char* bad : {"copy", "copy:0", "copy:x", "disk:3", "hang:copy", "hang:hang:copy:1", ""})
        CHECK_THROWS_WITH(parse_injected_fault(bad), Catch::Contains("--inject-fault") && Catch::Contains("[hang:]STAGE:N"));
}
