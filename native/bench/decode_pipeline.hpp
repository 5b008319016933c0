// decode_pipeline.hpp — the chunked video-decode pipeline benchmark (modes A-D of
// ../shared/cases/pipeline.md), written once over DecodeBackend (decode_backend.hpp).
//
//   A decode.sync_pageable  one stream, pageable host buffer, host stage inline
//   B decode.sync_pinned    the same with a pinned host buffer
//   C decode.async          compute + copy engines, 2 device + 2 host buffers, writer thread
//   D decode.ring           the same with N buffers (--buffers)
//
// The launching thread never reuses buffer pair k (device + host) before the writer released
// it: a std::counting_semaphore of N free pairs, acquired before decode i is enqueued, with a
// timeout (--writer-timeout-s) so a stuck writer becomes a clear error, never a hang. These
// are the dependencies core/gpuplan/decode simulates (docs/decode-pipeline.md). Every frame is
// checksummed by its producer and again after the host stage, against the pattern's own
// checksum: a mismatch fails the run. Measurement (warm-up, timed videos, min/mean/P99,
// per-chunk stage times from engine events, kernel-active fraction, compute slowdown, RTF)
// is written once here, for every backend. Method: docs/decode-pipeline.md.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "decode_backend.hpp"
#include "decode_faults.hpp"
#include "host_stage.hpp"

namespace gpuplan::bench {

enum class Mode { sync_pageable, sync_pinned, async, ring };  // A, B, C, D
std::string_view case_name(Mode mode);                      // "decode.sync_pageable", ...
char mode_letter(Mode mode);                                // 'A' ... 'D'

struct Progress {
    std::string case_name;
    char mode = 'A';
    bool warmup = false;
    std::uint32_t video = 0, videos = 0;  // 1-based, within warm-up or timed videos
    double seconds = 0;                   // this video's time
};

// Every knob, with its default (the CLI's defaults match these).
struct DecodeConfig {
    FrameLayout layout;                  // frames per chunk, height x width x channels, dtype bytes
    std::uint32_t chunks = 41;           // chunks per video (41 latent frames in the case)
    double compute_ms = 5;               // target decode time per chunk
    DecoderKind decoder = DecoderKind::memory_bound;  // --decoder memory|compute
    HostStageKind host_stage = HostStageKind::none;
    std::string output_dir;              // write / odirect: where the file goes
    std::uint32_t ring_buffers = 3;      // mode D's N (C always uses 2)
    HostMemory async_host_memory = HostMemory::pinned;  // C and D (A is pageable, B pinned)
    int numa_node = -1;                  // bind host buffers to this node; -1: no binding
    std::uint32_t warmup = 1, videos = 10;
    std::optional<double> video_seconds;  // duration of the video, for RTF
    double writer_timeout_s = 60;         // longest wait for the writer to release a buffer
    double device_timeout_s = 60;         // longest host wait for the device (DecodeBackend::set_wait_timeout)
    std::function<void(const Progress&)> progress;  // after each video (may be empty)

    // Fault injection, for tests (the CLI exposes the first two as --inject-* flags).
    double inject_writer_delay_ms = 0;          // the host stage takes this much longer per chunk
    std::uint64_t inject_write_failure_at_frame = 0;  // that frame's write fails (ENOSPC); 0 = off
    bool unsafe_skip_release_wait = false;      // launcher ignores the semaphore: verification must fail
    std::optional<InjectedFault> inject_fault;  // --inject-fault (decode_faults.hpp)
};

struct CaseResult {
    Mode mode = Mode::sync_pageable;
    std::string case_name;
    std::uint32_t buffers = 1;
    HostMemory host_memory = HostMemory::pageable;
    std::vector<double> samples;  // seconds per timed video
    double median = 0, min = 0, mean = 0, p99 = 0;
    double kernel_active_fraction = 0;  // sum of decode intervals (engine events) / video time
    double chunk_compute_ms = 0, chunk_d2h_ms = 0, chunk_host_ms = 0;  // means per chunk
    double compute_slowdown = 1;        // chunk_compute_ms / decode time measured alone
    std::optional<double> rtf;          // mean video time / --video-seconds
    bool checksums_ok = false;
    std::uint64_t frames_verified = 0;  // warm-up and timed videos
    std::uint32_t max_buffers_in_flight = 0;  // host buffers filled and not yet released
    double stage_sum_seconds = 0;       // mean per video of the sum of every chunk's stage times
};

struct Waived {
    std::string case_name;
    std::string reason;
};

struct DecodeRun {
    std::string backend, device_name;
    Calibration calibration;
    std::vector<CaseResult> cases;
    std::vector<Waived> waived;
    std::vector<std::string> notes;
    std::uint64_t frames_written = 0;  // to --output-dir, whole run
};

// Throws BenchError(bad_input) naming the CLI flag for a value out of range or a combination
// that cannot run (convert of uint8 frames, a failure injected into a stage that writes
// nothing, a NUMA node that does not exist).
void validate(const DecodeConfig& config);

// Bytes each buffer, mode and backend needs, checked against MemoryBudget before anything is
// allocated: BenchError(bad_input) saying what would not fit and how much there is.
void check_memory(DecodeBackend& backend, const DecodeConfig& config, const std::vector<Mode>& modes);

// A case failed: what ran before it, for the results file (the cases completed, and the failed
// one named), with the message of the failure.
class DecodeRunFailed : public BenchError {
public:
    DecodeRunFailed(const std::string& message, std::string failed, DecodeRun run_so_far)
        : BenchError(Kind::failed, message), failed_case(std::move(failed)), partial(std::move(run_so_far)) {}
    std::string failed_case;
    DecodeRun partial;
};

// validate, check_memory, probe --output-dir, calibrate, then each mode in order.
// A failure in a case (verification, I/O, a stuck writer or device, a backend call) throws
// DecodeRunFailed naming the case, the video and how many frames were written.
DecodeRun run_decode_bench(const std::shared_ptr<DecodeBackend>& backend, const DecodeConfig& config, const std::vector<Mode>& modes);

// min, mean, median and nearest-rank P99 of samples (not empty).
struct SampleSummary {
    double min = 0, mean = 0, median = 0, p99 = 0;
};
SampleSummary summarize(std::vector<double> samples);

}  // namespace gpuplan::bench
