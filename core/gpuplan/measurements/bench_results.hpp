// bench_results.hpp — the `gpuplan bench` results document (schema gpuplan.bench/1): read and
// written here, by the same types, so the benchmarks (native/bench: the decode benchmark and
// the suite) and the planner can never disagree on a key; and the decode records turned into
// fit inputs (docs/decode-pipeline.md, "Fitting to measurements").
//
// Strictness: the top level, each decode record and its "stats" reject unknown keys (a typo
// must not silently drop a measurement). Two places accept extra keys, because they describe
// rather than measure and grow with the benchmark: "fingerprint" (machine facts) and a
// record's "params" (knobs such as memory kind or NUMA node). Records whose case does not
// start with "decode." belong to other benchmarks: a record with a "status" key is a
// `gpuplan bench run` / gpuplan-bench-mpi figure (docs/benchmarks.md, "Results file") and is
// read strictly into BenchResults::figures; any other is kept by name only. An unknown
// "decode.*" case is an error. The optional top-level "run" object (how the run went) is
// read for "complete" and "errors"; its other keys describe the run and are allowed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/json_reader.hpp"
#include "gpuplan/decode/decode_fit.hpp"
#include "gpuplan/decode/decode_sim.hpp"

namespace gpuplan {

inline constexpr std::string_view kBenchSchema = "gpuplan.bench/1";

struct BenchFingerprint {
    std::string backend;                       // "cpu" | "cuda"
    std::optional<std::string> instance_type;  // null when not on EC2 or unknown
    std::vector<std::string> gpu_names;
};

struct DecodeBenchParams {
    double chunks = 0, frames_per_chunk = 0, height = 0, width = 0, channels = 0, dtype_bytes = 0;
    std::optional<double> compute_ms;  // the synthetic kernel's target per chunk (null: not set)
    std::string host_stage;            // as the benchmark names it ("none", "memcpy", ...); "" if absent
    std::optional<double> buffers;     // null or absent: 1 for sync cases, 2 for decode.async

    // The same video: chunks, frames, frame size and element size (not the kernel or host stage).
    bool same_video(const DecodeBenchParams& o) const {
        return chunks == o.chunks && frames_per_chunk == o.frames_per_chunk && height == o.height && width == o.width &&
               channels == o.channels && dtype_bytes == o.dtype_bytes;
    }
};

struct DecodeBenchStats {
    double min = 0, mean = 0, p99 = 0;
    std::optional<double> kernel_active_fraction, chunk_compute_ms, chunk_d2h_ms, chunk_host_ms, compute_slowdown, rtf;
    bool checksums_ok = false;
};

struct DecodeBenchRecord {
    std::string case_name;  // decode.sync_pageable | decode.sync_pinned | decode.async | decode.ring
    std::string path;       // JSON path of the record, for errors
    DecodeBenchParams params;
    std::vector<double> samples;  // seconds per video
    double median = 0;
    DecodeBenchStats stats;
    bool synchronous() const { return case_name.rfind("decode.sync", 0) == 0; }
    double buffers() const;  // params.buffers, or the case's default
};

// A suite record's statistics over its samples (in the record's unit), and how they were taken.
struct BenchFigureStats {
    std::optional<double> min, mean, max, p99;
    std::optional<double> seconds_median;  // one rep's time at the median sample
    std::int64_t reps_per_sample = 0, warmup = 0;
};

// One figure of `gpuplan bench run` or gpuplan-bench-mpi (GB/s = 10^9 B/s, or us).
struct BenchFigure {
    std::string case_name;  // "h2d_pinned", "net_p2p_bw", "nccl_all_reduce", ...
    std::string path;       // JSON path of the record, for errors and sources
    std::string status;     // ok | failed | timed_out
    std::string unit;       // "GB/s" | "us"
    Json params;
    std::vector<double> samples;
    std::optional<double> median, datasheet_peak, fraction_of_peak;
    std::optional<std::string> verdict;  // ok | low | broken; null without a datasheet figure
    bool verified = false;
    std::string error;           // "" when none (null in the file)
    std::string datasheet_source;  // what the datasheet figure is, or why there is none ("" = null)
    std::string verdict_reason;
    double ok_at_least = 0.6, broken_below = 0.2;  // the case's verdict bands (fractions of peak)
    BenchFigureStats stats;
    std::string bytes_counted, timing, verification;  // conventions and checks, in words
    bool usable() const { return status == "ok" && verified && median.has_value(); }
};

struct BenchResults {
    std::string origin;  // the file (or scenario path) it came from, for messages
    std::string path;    // JSON path of the document's root, for errors ("b.json: $")
    BenchFingerprint fingerprint;
    std::vector<DecodeBenchRecord> decode;
    std::vector<std::string> other_cases;  // records of other benchmarks, by case name
    std::vector<BenchFigure> figures;      // `gpuplan bench run` / gpuplan-bench-mpi records
    bool complete = true;                  // run.complete (absent: true)
    std::vector<std::string> run_errors;   // run.errors
    Json fingerprint_document;             // the fingerprint as written (machine facts beyond the typed ones)
    Json run_document;                     // the "run" object as written; null when absent
};

// Throws InputError naming `origin`, the JSON path, the value and what was expected.
BenchResults parse_bench_results(std::string_view text, const std::string& origin);

// The writers: exactly the keys the readers read. A benchmark builds typed records and the
// document through these (native/bench/bench_results.cpp, suite_json.cpp); whole numbers are
// written as JSON integers.
Json to_json(const DecodeBenchRecord& record);
Json to_json(const BenchFigure& figure);
// {"schema", "fingerprint", "records"[, "run"]}: `run` null leaves it out.
Json bench_document(const Json& fingerprint, const std::vector<Json>& records, const Json& run);
// The document of parsed results, as read (a round trip: parse(dump(bench_document(r))) == r).
Json to_json(const BenchResults& results);
// The same for a document already parsed (a scenario may embed one); `path` names it.
BenchResults read_bench_results(const Json& document, const std::string& path);

// What a bench file gives the fit: the shape of the video, the measurements, and a measured
// D2H bandwidth when the run timed its copies (the pinned synchronous copies, which run alone;
// else the asynchronous record's).
struct DecodeBenchCalibration {
    const DecodeBenchRecord* sync = nullptr;   // decode.sync_pinned, else decode.sync_pageable
    const DecodeBenchRecord* async = nullptr;  // decode.async, else the first decode.ring
    Param chunks, frames_per_chunk, height, width, channels, dtype_bytes, buffers;
    DecodeMeasurement measurement;
    std::optional<Param> measured_link_gb_per_s;  // chunk bytes / chunk_d2h_ms of sync_pinned, else of async
    std::optional<double> sync_rtf;               // the sync record's stats.rtf, if any
    std::vector<std::string> notes;
};

// Throws InputError (naming the record's path) when a needed record is missing, a run's
// checksums failed, a utilisation is null, or the sync and async records decode different
// videos. `bench` must outlive the result (it points into bench.decode).
DecodeBenchCalibration decode_calibration(const BenchResults& bench);

}  // namespace gpuplan
