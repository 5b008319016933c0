// bench_cmd.cpp — `gpuplan bench decode`: the chunked video-decode pipeline, measured for
// real (native/bench, docs/decode-pipeline.md "The benchmark"). The CLI only translates:
// flags -> DecodeConfig, BenchError -> exit codes, DecodeRun -> a table or the
// gpuplan.bench/1 document. Progress goes to stderr (a TTY, or --progress); the result to
// stdout once the run has succeeded, and to --out FILE.
//
// Exit codes: 0 ok (WAIVED cases included); 2 bad input; 3 no usable GPU for --backend cuda
// (the message says to use --backend cpu); 4 the run failed: a checksum mismatch, a write
// error, a stuck writer or a failed CUDA call.
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "bench_exit_codes.hpp"
#include "bench_results.hpp"
#include "bench_suite_cmd.hpp"
#include "commands.hpp"
#include "decode_bench_view.hpp"
#include "decode_pipeline.hpp"
#include "output_file.hpp"

namespace gpuplan::cli {

namespace {

constexpr std::string_view kBenchExitCodes =
    "Exit codes: 0 ok (WAIVED cases included); 1 internal error; 2 bad input (a flag out of range,\n"
    "a resolution whose buffers do not fit in GPU or host memory, a missing --output-dir);\n"
    "3 no usable GPU for --backend cuda (run with --backend cpu); 4 the run failed: a checksum\n"
    "mismatch, a write error (the message says how many frames were written), a writer stuck\n"
    "past --writer-timeout-s, a device wait past --device-timeout-s or a failed CUDA call. Errors\n"
    "are one line on stderr, \"gpuplan: error: ...\". On exit 4, --out FILE and (with --format\n"
    "json) stdout hold the results so far: the cases that completed, and \"run\": {\"complete\":\n"
    "false, \"failed_case\", \"errors\"}; otherwise nothing is printed on stdout.";

struct BenchDecodeOptions {
    std::string backend;  // default set at registration: cuda when built with it
    double device = 0;
    std::string modes = "all";
    double chunks = 41, frames_per_chunk = 4, height = 720, width = 1280, channels = 3;
    std::string dtype = "fp32";
    double compute_ms = 5;
    std::string decoder = "memory";
    std::string host_stage = "none";
    std::string output_dir;
    double buffers = 3;
    std::string host_memory = "pinned";
    double numa_node = -1;
    double warmup = 1, videos = 10;
    double video_seconds = 0;
    double writer_timeout_s = 60;
    std::string instance_type;
    std::string out;
    bool progress = false;
    double inject_writer_delay_ms = 0;
    double inject_write_failure_at_frame = 0;
    std::string inject_fault;
    double device_timeout_s = 60;
    Format format = Format::table;
    CLI::App* app = nullptr;
};

bool given(const BenchDecodeOptions& o, const char* flag) { return o.app->count(flag) > 0; }

std::vector<bench::Mode> parse_modes(const std::string& text) {
    if (lower(text) == "all") return {bench::Mode::sync_pageable, bench::Mode::sync_pinned, bench::Mode::async, bench::Mode::ring};
    std::vector<bench::Mode> modes;
    std::string rest = text;
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        const std::string item = lower(rest.substr(0, comma));
        rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
        if (item.size() != 1 || item[0] < 'a' || item[0] > 'd')
            throw InputError("--mode", "'" + text + "'", "A, B, C, D, a comma list of them (A,C) or all");
        const auto m = static_cast<bench::Mode>(item[0] - 'a');
        if (std::find(modes.begin(), modes.end(), m) == modes.end()) modes.push_back(m);
    }
    if (modes.empty()) throw InputError("--mode", "''", "A, B, C, D, a comma list of them (A,C) or all");
    return modes;
}

bench::HostStageKind parse_stage(const std::string& s) {
    using bench::HostStageKind;
    for (HostStageKind k : {HostStageKind::none, HostStageKind::memcpy, HostStageKind::convert, HostStageKind::write, HostStageKind::odirect})
        if (s == bench::to_string(k)) return k;
    throw InputError("--host-stage", "'" + s + "'", "none, memcpy, convert, write or odirect");
}

// Flags that only some modes or stages use: refuse them where they would be ignored.
void check_combinations(const BenchDecodeOptions& o, const std::vector<bench::Mode>& modes, bench::HostStageKind stage) {
    const auto has = [&](bench::Mode m) { return std::find(modes.begin(), modes.end(), m) != modes.end(); };
    if (given(o, "--buffers") && !has(bench::Mode::ring))
        throw InputError("--buffers: applies to mode D (the N-buffer ring) only; mode C uses 2 buffers, A and B one; add D to --mode");
    if (given(o, "--host-memory") && !has(bench::Mode::async) && !has(bench::Mode::ring))
        throw InputError("--host-memory: applies to modes C and D; mode A is pageable and mode B pinned by definition");
    if (given(o, "--output-dir") && !bench::writes_files(stage))
        throw InputError("--output-dir: applies to --host-stage write or odirect only (got --host-stage " + std::string(bench::to_string(stage)) + ")");
    if (given(o, "--device") && o.backend != "cuda") throw InputError("--device: applies to --backend cuda only");
}

// One stderr line per video: rewritten in place on a terminal, one line each otherwise.
std::function<void(const bench::Progress&)> progress_printer(bool tty) {
    return [tty](const bench::Progress& p) {
        const std::string line = fmt::format("{} (mode {}) {} {}/{}: {:.3f} s", p.case_name, p.mode, p.warmup ? "warm-up video" : "video", p.video,
                                             p.videos, p.seconds);
        const bool last = !p.warmup && p.video == p.videos;
        if (tty)
            std::cerr << "\r" << line << "\033[K" << (last ? "\n" : "") << std::flush;
        else
            std::cerr << line << "\n" << std::flush;
    };
}

std::string run_bench_decode(const BenchDecodeOptions& o, const Catalog& catalog) {
    const std::vector<bench::Mode> modes = parse_modes(o.modes);
    const bench::HostStageKind stage = parse_stage(o.host_stage);
    check_combinations(o, modes, stage);
    std::optional<std::string> instance_type;
    if (!o.instance_type.empty()) instance_type = require_instance(catalog, o.instance_type, "--instance-type").name;

    bench::DecodeConfig c;
    c.layout.frames_per_chunk = static_cast<std::uint32_t>(o.frames_per_chunk);
    c.layout.height = static_cast<std::uint32_t>(o.height);
    c.layout.width = static_cast<std::uint32_t>(o.width);
    c.layout.channels = static_cast<std::uint32_t>(o.channels);
    c.layout.dtype_bytes = o.dtype == "fp32" ? 4 : o.dtype == "fp16" ? 2 : 1;
    c.chunks = static_cast<std::uint32_t>(o.chunks);
    c.compute_ms = o.compute_ms;
    c.decoder = o.decoder == "compute" ? bench::DecoderKind::compute_bound : bench::DecoderKind::memory_bound;
    c.host_stage = stage;
    c.output_dir = o.output_dir;
    if (bench::writes_files(stage) && c.output_dir.empty()) c.output_dir = std::filesystem::temp_directory_path().string();
    c.ring_buffers = static_cast<std::uint32_t>(o.buffers);
    c.async_host_memory = o.host_memory == "pageable" ? bench::HostMemory::pageable : bench::HostMemory::pinned;
    c.numa_node = static_cast<int>(o.numa_node);
    c.warmup = static_cast<std::uint32_t>(o.warmup);
    c.videos = static_cast<std::uint32_t>(o.videos);
    if (given(o, "--video-seconds")) c.video_seconds = o.video_seconds;
    c.writer_timeout_s = o.writer_timeout_s;
    c.inject_writer_delay_ms = o.inject_writer_delay_ms;
    c.inject_write_failure_at_frame = static_cast<std::uint64_t>(o.inject_write_failure_at_frame);
    c.device_timeout_s = o.device_timeout_s;
    if (o.progress || isatty(STDERR_FILENO)) c.progress = progress_printer(isatty(STDERR_FILENO) != 0);

    // A results file that cannot be written is refused before the run, not after it, and
    // checked without creating it: an interrupted run leaves no empty file behind. The file is
    // written whole or not at all (output_file.hpp), so a full disk keeps the old results.
    if (!o.out.empty())
        if (const std::string why = check_output_path(o.out); !why.empty()) throw InputError("--out: cannot write '" + o.out + "': " + why);

    try {
        if (!o.inject_fault.empty()) c.inject_fault = bench::parse_injected_fault(o.inject_fault);
        bench::validate(c);
        const std::shared_ptr<bench::DecodeBackend> backend =
            o.backend == "cuda" ? bench::make_cuda_backend(static_cast<int>(o.device)) : bench::make_cpu_backend();
        const bench::DecodeRun run = bench::run_decode_bench(backend, c, modes);
        const bench::Fingerprint fp = bench::machine_fingerprint(run.backend, instance_type);
        const nlohmann::json doc = bench::results_json(fp, c, run);
        if (!o.out.empty())
            if (const std::string why = write_output_file(o.out, dump_json(doc)); !why.empty())
                throw CommandFailure(kExitRunFailed, "--out: cannot write '" + o.out + "': " + why +
                                                         " (the benchmark itself succeeded; rerun with a writable --out)");
        if (o.format == Format::json) {
            for (const auto& w : run.waived) std::cerr << "gpuplan: note: WAIVED " << w.case_name << ": " << w.reason << "\n";
            return dump_json(doc);
        }
        return decode_bench_text(c, run, fp, modes, o.format, o.out);
    } catch (const bench::DecodeRunFailed& e) {
        // The results so far, with the failure named: the file (and stdout with --format json)
        // is a complete gpuplan.bench/1 document whose run says it is not complete.
        const bench::Fingerprint fp = bench::machine_fingerprint(e.partial.backend, instance_type);
        const nlohmann::json run = {{"complete", false}, {"failed_case", e.failed_case}, {"errors", nlohmann::json::array({e.failed_case + ": " + e.what()})}};
        const std::string body = dump_json(bench::results_json(fp, c, e.partial, run));
        if (!o.out.empty()) write_output_file(o.out, body);  // best effort: the failure below is what the user must see
        throw CommandFailure(kExitRunFailed, e.what(), o.format == Format::json ? body : "");
    } catch (const bench::BenchError& e) {
        switch (e.kind()) {
        case bench::BenchError::Kind::bad_input: throw InputError(e.what());
        case bench::BenchError::Kind::no_gpu: throw CommandFailure(kExitNoGpu, e.what());
        case bench::BenchError::Kind::failed: throw CommandFailure(kExitRunFailed, e.what());
        }
        throw;
    }
}

}  // namespace

// Whole numbers from lo to hi ("--chunks: got 0; expected a whole number from 1 to 100,000").
CLI::Validator whole_in(double lo, double hi) {
    const std::string expected = "; expected a whole number from " + group_thousands(fmt::format("{}", lo)) + " to " +
                                 group_thousands(fmt::format("{}", hi));
    return CLI::Validator(
        [lo, hi, expected](std::string& text) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            if (text.empty() || end == text.c_str() || *end != '\0') return "got '" + value_shown(text) + "'" + expected;
            if (!std::isfinite(v) || std::floor(v) != v || v < lo || v > hi) return "got " + value_shown(text) + expected;
            return "";
        },
        fmt::format("WHOLE IN [{}, {}]", lo, hi));
}

// A timeout in seconds, > 0 and at most a day: a larger one overflowed duration_cast to the clock's
// 64-bit nanoseconds (1e300 s; UBSan "value is outside the range of representable values").
CLI::Validator timeout_seconds_rule() {
    constexpr double max_s = 86400;
    const std::string expected = "; expected a number of seconds > 0 and at most 86,400 (one day)";
    return CLI::Validator(
        [expected](std::string& text) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            if (text.empty() || end == text.c_str() || *end != '\0') return "got '" + value_shown(text) + "'" + expected;
            if (!std::isfinite(v) || v <= 0 || v > max_s) return "got " + value_shown(text) + expected;
            return "";
        },
        "SECONDS IN (0, 86400]");
}

Command register_bench(CLI::App& parent) {
    CLI::App* bench = parent.add_subcommand(
        "bench", "Measure on this machine: copies, memory, peers, collectives (bench run) and the decode pipeline (bench decode); CUDA, or a CPU backend without a GPU");
    bench->require_subcommand(1);
    bench->footer(R"(Examples:
  gpuplan bench list
  gpuplan bench run --quick --json results.json
  gpuplan calibrate results.json train --model llama-3-8b --instance p5.48xlarge --zero 1 --offload-optimizer
  gpuplan bench decode --backend cpu --chunks 8 --videos 3
  gpuplan bench decode --mode all --video-seconds 6.83 --out results.json

Run `gpuplan bench run --help` or `gpuplan bench decode --help` for their options; methods:
docs/benchmarks.md (run, list) and docs/decode-pipeline.md (decode).)");

    auto o = std::make_shared<BenchDecodeOptions>();
    o->backend = bench::cuda_backend_built() ? "cuda" : "cpu";
    CLI::App* app = bench->add_subcommand(
        "decode",
        "The chunked video-decode pipeline: (A) synchronous, pageable host memory; (B) synchronous, pinned; (C) asynchronous with "
        "compute + copy streams, 2 device + 2 pinned buffers and a writer thread; (D) the same with an N-buffer ring. Every frame is "
        "checksummed where it is produced and again after the host stage.");
    o->app = app;
    app->add_option("--backend", o->backend, "cuda (a GPU: streams, events, pinned memory) or cpu (threads stand in for the GPU engines)")
        ->capture_default_str()
        ->transform(choice_rule({"cuda", "cpu"}))
        ->type_name("BACKEND");
    app->add_option("--device", o->device, "CUDA device index")->capture_default_str()->check(whole_in(0, 1023));
    app->add_option("--mode", o->modes, "A, B, C, D, a comma list (A,C) or all")->capture_default_str()->type_name("MODE");
    app->add_option("--chunks", o->chunks, "Chunks per video (the case: 41 latent frames)")->capture_default_str()->check(whole_in(1, 100000));
    app->add_option("--frames-per-chunk", o->frames_per_chunk, "Pixel frames each chunk decodes to")->capture_default_str()->check(whole_in(1, 1024));
    app->add_option("--height", o->height, "Frame height, pixels")->capture_default_str()->check(whole_in(1, 65536));
    app->add_option("--width", o->width, "Frame width, pixels")->capture_default_str()->check(whole_in(1, 65536));
    app->add_option("--channels", o->channels, "Channels per pixel")->capture_default_str()->check(whole_in(1, 64));
    app->add_option("--dtype", o->dtype, "Frame element type")->capture_default_str()->transform(choice_rule({"fp32", "fp16", "uint8"}))->type_name("DTYPE");
    app->add_option("--compute-ms", o->compute_ms, "Decode time per chunk the synthetic decoder is sized to (measured alone)")
        ->capture_default_str()
        ->check(number_rule(NumberRule::positive));
    app->add_option("--decoder", o->decoder,
                    "What bounds the synthetic decoder: memory (streaming passes, like a convolutional VAE decoder) or compute (multiply-adds on "
                    "registers, like a transformer at large batch); fit the contention term from a run of each")
        ->capture_default_str()
        ->transform(choice_rule({"memory", "compute"}))
        ->type_name("KIND");
    app->add_option("--host-stage", o->host_stage, "Host work per chunk: none, memcpy, convert (fp32/fp16 -> uint8), write (buffered), odirect")
        ->capture_default_str()
        ->transform(choice_rule({"none", "memcpy", "convert", "write", "odirect"}))
        ->type_name("STAGE");
    app->add_option("--output-dir", o->output_dir, "Folder for --host-stage write/odirect (default: the temp folder); the file is removed afterwards")
        ->type_name("DIR");
    app->add_option("--buffers", o->buffers, "Mode D: buffers in the ring")->capture_default_str()->check(whole_in(2, 64));
    app->add_option("--host-memory", o->host_memory, "Modes C and D: pinned or pageable host buffers")
        ->capture_default_str()
        ->transform(choice_rule({"pinned", "pageable"}))
        ->type_name("KIND");
    app->add_option("--numa-node", o->numa_node, "Bind host buffers to this NUMA node (mbind)")->check(whole_in(0, 63));
    app->add_option("--warmup", o->warmup, "Untimed videos first")->capture_default_str()->check(whole_in(0, 1000));
    app->add_option("--videos", o->videos, "Timed videos (min, mean, P99 over them)")->capture_default_str()->check(whole_in(1, 100000));
    app->add_option("--video-seconds", o->video_seconds, "Duration of the video, for RTF = decode time / duration")->check(number_rule(NumberRule::positive));
    app->add_option("--writer-timeout-s", o->writer_timeout_s, "Longest wait for the writer to release a buffer before the run fails")
        ->capture_default_str()
        ->check(timeout_seconds_rule());
    app->add_option("--device-timeout-s", o->device_timeout_s, "Longest wait for the device (an event, a stream) before the run fails, as on a hung GPU")
        ->capture_default_str()
        ->check(timeout_seconds_rule());
    app->add_option("--instance-type", o->instance_type, "EC2 instance type for the results (default: read from local EC2 metadata, if any)")
        ->type_name("INSTANCE");
    app->add_option("--out", o->out, "Also write the results (gpuplan.bench/1 JSON) to FILE")->type_name("FILE");
    app->add_flag("--progress", o->progress, "Progress on stderr even when it is not a terminal");
    add_format_option(*app, o->format, {Format::table, Format::json, Format::md, Format::csv});
    const std::string faults = "Fault injection (tests)";
    app->add_option("--inject-writer-delay-ms", o->inject_writer_delay_ms, "The host stage takes this much longer per chunk (a slow writer)")
        ->check(number_rule(NumberRule::non_negative))
        ->group(faults);
    app->add_option("--inject-write-failure-at-frame", o->inject_write_failure_at_frame,
                    "The write of this frame (1-based, counted over the run) fails with ENOSPC, as on a full disk")
        ->check(whole_in(1, 1e15))
        ->group(faults);
    app->add_option("--inject-fault", o->inject_fault, "[hang:]STAGE:N: the Nth compute or copy call, or the writer's Nth chunk, fails (or hangs); "
                                                      "e.g. copy:3, hang:copy:3, writer:2 (docs/decode-pipeline.md)")
        ->type_name("SPEC")
        ->check(non_empty_rule("[hang:]STAGE:N, such as copy:3"))
        ->group(faults);
    app->footer(std::string(R"(Modes run in order A, B, C, D; each: buffers allocated, warm-up videos, timed videos, buffers freed.
Without a GPU, --backend cuda stops with "no usable GPU here" (exit 3): use --backend cpu.
Examples:
  gpuplan bench decode --backend cpu --chunks 8 --height 180 --width 320 --videos 3
  gpuplan bench decode --mode B,C --host-stage convert --video-seconds 6.83 --instance-type g7e.2xlarge
  gpuplan bench decode --mode D --buffers 4 --host-stage odirect --output-dir /mnt/nvme --out ring.json
  gpuplan bench decode --backend cpu --mode C --host-stage write --inject-write-failure-at-frame 5   (exit 4)
  gpuplan bench decode --backend cpu --mode C --inject-fault hang:copy:3 --device-timeout-s 2 --format json   (exit 4, JSON)

)") + std::string(kBenchExitCodes));
    const BenchSuiteCommands suite = register_bench_suite(*bench);
    return {bench, [o, suite](const Catalog& catalog) {
                if (suite.run->parsed()) return suite.run_runner(catalog);
                if (suite.list->parsed()) return suite.list_runner(catalog);
                return run_bench_decode(*o, catalog);
            }};
}

}  // namespace gpuplan::cli
