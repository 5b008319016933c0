// decode_bench_view.cpp — the text of a `gpuplan bench decode` run (decode_bench_view.hpp).
#include "decode_bench_view.hpp"

#include <fmt/format.h>

namespace gpuplan::cli {

namespace {

std::string dtype_of(std::uint32_t bytes) { return bytes == 4 ? "fp32" : bytes == 2 ? "fp16" : "uint8"; }

// "44.24 MB", "8.29 KB", "1.77 GB" (powers of 10, as the planner's figures are).
std::string bytes_text(std::uint64_t bytes) {
    const double b = static_cast<double>(bytes);
    if (b >= 1e9) return fmt::format("{:.2f} GB", b / 1e9);
    if (b >= 1e6) return fmt::format("{:.2f} MB", b / 1e6);
    return fmt::format("{:.2f} KB", b / 1e3);
}

}  // namespace

std::string decode_bench_text(const bench::DecodeConfig& c, const bench::DecodeRun& run, const bench::Fingerprint& fp,
                        const std::vector<bench::Mode>& modes, Format format, const std::string& out_file) {
    const bench::FrameLayout& L = c.layout;
    std::string text;
    if (format == Format::table) {
        text += fmt::format("gpuplan bench decode: {} backend on {}, host {}{}\n", run.backend, run.device_name, fp.host,
                            fp.instance_type ? " (" + *fp.instance_type + ")" : "");
        if (run.backend == "cuda")
            text += "note: the CUDA backend has run on one GPU (an H200) only; check these figures (docs/decode-pipeline.md)\n";
        text += fmt::format("video: {} chunks x {} frames of {}x{}x{} {} ({} per frame, {} per chunk); host stage {}{}; {} warm-up + {} timed videos\n",
                            c.chunks, L.frames_per_chunk, L.width, L.height, L.channels, dtype_of(L.dtype_bytes), bytes_text(L.frame_bytes()),
                            bytes_text(L.chunk_payload_bytes()), bench::to_string(c.host_stage),
                            bench::writes_files(c.host_stage) ? " to " + c.output_dir : "", c.warmup, c.videos);
        if (!run.cases.empty())
            text += fmt::format("decoder: {:.3f} ms per chunk requested, {:.3f} ms measured alone ({})\n\n", c.compute_ms,
                                run.calibration.isolated_compute_ms, run.calibration.method);
    }
    Table t;
    t.columns = {{"case", "case", false},         {"mode", "mode", false},        {"buffers", "buffers"},
                 {"host memory", "host_memory", false}, {"median s", "median_s"}, {"min s", "min_s"},
                 {"mean s", "mean_s"},             {"P99 s", "p99_s"},            {"kernel active", "kernel_active_fraction"},
                 {"compute ms", "chunk_compute_ms"}, {"D2H ms", "chunk_d2h_ms"},   {"host ms", "chunk_host_ms"},
                 {"slowdown", "compute_slowdown"}, {"RTF", "rtf"},                 {"checksums", "checksums_ok"}};
    const auto num = [](double v, int places) { return Cell{fmt::format("{:.{}f}", v, places), full_precision(v)}; };
    for (const auto& r : run.cases)
        t.rows.push_back({text_cell(r.case_name), text_cell(std::string(1, bench::mode_letter(r.mode))), text_cell(std::to_string(r.buffers)),
                          text_cell(r.host_memory == bench::HostMemory::pinned ? "pinned" : "pageable"), num(r.median, 4), num(r.min, 4),
                          num(r.mean, 4), num(r.p99, 4), Cell{percent(r.kernel_active_fraction), full_precision(r.kernel_active_fraction)},
                          num(r.chunk_compute_ms, 3), num(r.chunk_d2h_ms, 3), num(r.chunk_host_ms, 3), num(r.compute_slowdown, 3),
                          r.rtf ? num(*r.rtf, 3) : none_cell(),
                          Cell{r.checksums_ok ? fmt::format("ok ({} frames)", r.frames_verified) : "MISMATCH", r.checksums_ok ? "true" : "false"}});
    if (!t.rows.empty()) text += render_table(t, format);
    if (format == Format::csv) return text;
    std::string notes;
    for (const auto& w : run.waived) notes += fmt::format("WAIVED {}: {}\n", w.case_name, w.reason);
    const auto find = [&](bench::Mode m) -> const bench::CaseResult* {
        for (const auto& r : run.cases)
            if (r.mode == m) return &r;
        return nullptr;
    };
    const bench::CaseResult* sync = find(bench::Mode::sync_pinned);
    if (sync == nullptr) sync = find(bench::Mode::sync_pageable);
    for (bench::Mode m : {bench::Mode::async, bench::Mode::ring})
        if (const bench::CaseResult* a = find(m); a != nullptr && sync != nullptr && sync->mean > 0)
            notes += fmt::format("{} vs {}: {:+.2f}% mean video time, kernel active {} -> {}, compute slowed x{:.3f} under overlap\n", a->case_name,
                                 sync->case_name, (a->mean / sync->mean - 1) * 100, percent(sync->kernel_active_fraction),
                                 percent(a->kernel_active_fraction), a->compute_slowdown);
    if (!run.cases.empty()) {
        std::uint64_t frames = 0;
        for (const auto& r : run.cases) frames += r.frames_verified;
        notes += fmt::format("verified: all {} frames checksummed by their producer and again after the host stage, all matched\n",
                             group_thousands(std::to_string(frames)));
        if (bench::writes_files(c.host_stage)) notes += fmt::format("written: {} frames to {} (removed afterwards)\n", run.frames_written, c.output_dir);
    }
    for (const auto& n : run.notes) notes += "note: " + n + "\n";
    if (!out_file.empty()) notes += "results: " + out_file + " (gpuplan.bench/1)\n";
    if (fp.instance_type && c.video_seconds && !run.cases.empty())
        if (const bench::CaseResult* best = find(modes.back()); best != nullptr && best->rtf)
            notes += fmt::format("cost per hour of video, every purchase option: gpuplan price {} --rtf {:.4f}\n", *fp.instance_type, *best->rtf);
    // Markdown: notes_block opens its own fenced block with a blank line.
    return text + (notes.empty() ? "" : (t.rows.empty() || format == Format::md ? "" : "\n") + notes_block(notes, format));
}

}  // namespace gpuplan::cli
