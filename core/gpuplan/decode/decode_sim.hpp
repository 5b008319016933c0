// decode_sim.hpp — chunked video decode on one GPU: the synchronous pipeline and the N-buffer
// asynchronous pipeline, as a discrete-event simulation (docs/decode-pipeline.md).
//
// A video is decoded in `chunks` pieces. Each chunk passes three stages:
//   compute  the decoder kernels on the GPU (compute_ms when nothing else runs beside them)
//   copy     device-to-host copy of the chunk: chunk_bytes / link + latency (d2h_ms)
//   host     host-side work on the copied frames: conversion and write (host_ms)
//
// Synchronous (one stream, host stage inline): compute i → copy i → host i → compute i+1.
// Asynchronous (shared/cases/pipeline.md): a compute stream, a copy stream, N device buffers
// and N pinned host buffers, and a writer thread:
//   compute i starts when compute i-1 is done (same stream) and the writer has released
//             buffer i mod N, i.e. host i-N is done (the launching thread waits on a host
//             semaphore before it enqueues decode i and copy i into that buffer pair);
//   copy i    starts when compute i is done (event) and copy i-1 is done (same stream);
//   host i    starts when copy i is done (event) and host i-1 is done (one writer thread).
// The synchronous pipeline is the N = 1 case of the same rules: each decode waits for the
// previous chunk's host stage, so nothing overlaps.
//
// Contention: while a copy or a host stage runs beside a decode, the decode progresses at
// 1 / (1 + contention) of its rate (memory, PCIe and CPU contention; the case measured it).
// Copies and host stages are not slowed. The simulation is exact for this model: compute
// keeps its remaining work and the event loop changes its rate whenever a copy or host
// stage starts or ends. It uses + - x / only, so native and wasm builds agree to the bit.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/explain.hpp"

namespace gpuplan {

// Bounds that keep one simulation small (a timeline of 3 intervals per chunk per pipeline).
inline constexpr double kMaxDecodeChunks = 100000;
inline constexpr double kMaxDecodeBuffers = 1024;
inline constexpr double kMaxDecodeContention = 1000;

struct DecodeSimRequest {
    Param chunks;            // chunks per video, a whole number >= 1
    Param frames_per_chunk;  // pixel frames per chunk, a whole number >= 1
    Param height, width, channels;  // pixels and channels per frame, whole numbers >= 1
    Param dtype_bytes;       // bytes per value (4 = fp32, 2 = fp16/bf16, 1 = uint8)
    Param compute_ms;        // decode time of one chunk with nothing beside it, > 0
    Param host_ms;           // host stage of one chunk (conversion + write), >= 0
    Param link_gb_per_s;     // device-to-host bandwidth, GB/s (10^9 bytes/s), > 0
    Param link_latency_us;   // fixed cost of one copy, >= 0
    Param buffers;           // N device + N pinned host buffers (asynchronous), whole, >= 1
    Param contention;        // compute slowdown while overlapped: rate 1 / (1 + c), >= 0
    std::optional<Param> video_seconds;  // duration of the decoded video, for the RTF
};

// Documented defaults (docs/decode-pipeline.md), each an InputOrigin::assumption Param.
Param default_decode_buffers();     // 2: the case's double buffering
Param default_decode_channels();    // 3: RGB
Param default_decode_dtype_bytes(); // 4: fp32, what the Diffusers VAE decoder returns
Param default_decode_contention();  // fitted to the pipeline case (g7e.2xlarge)

// Throws InputError naming the field ("decode.chunks", "decode.buffers", ...) for a value
// that is not finite, out of range or not whole where it must be.
void validate(const DecodeSimRequest& request);

enum class DecodePipeline { sync, async };
enum class PipelineResource { compute, copy, host };
std::string_view to_string(DecodePipeline p);
std::string_view to_string(PipelineResource r);

struct Span {
    double start_ms = 0, end_ms = 0;
};

// One interval per chunk per resource, indexed by chunk (for a Gantt chart).
struct DecodeTimeline {
    std::vector<Span> compute, copy, host;
    const std::vector<Span>& of(PipelineResource r) const;
};

struct PipelineRun {
    DecodePipeline pipeline = DecodePipeline::sync;
    double buffers = 1;
    DecodeTimeline timeline;
    // Figures are named "<sync|async>_<what>".
    Figure decode_seconds;        // wall time of one video: end of the last host stage
    Figure ms_per_chunk;          // decode_seconds / chunks
    Figure compute_busy_seconds;  // sum of decode intervals (slowed parts included)
    Figure kernel_utilization;    // compute_busy / decode_seconds
    // Where the time goes, from the GPU's view; these four add up to decode_seconds.
    Figure compute_work_seconds;  // chunks x compute_ms: decode work at the uncontended rate
    Figure contention_seconds;    // compute_busy - compute_work: decode time lost to contention
    Figure stall_seconds;         // GPU idle between decodes (waiting for the stream or a buffer)
    Figure tail_seconds;          // after the last decode: its copy and host stage
    Figure compute_slowdown;      // compute_busy / compute_work - 1 (what the bench reports as compute_slowdown)
    Figure copy_busy_seconds;     // sum of copy intervals
    Figure host_busy_seconds;     // sum of host-stage intervals
    std::optional<Figure> rtf;    // decode_seconds / video_seconds
    std::vector<Figure> all() const;
};

struct DecodeSimResult {
    Figure frame_bytes;   // height x width x channels x dtype_bytes
    Figure chunk_bytes;   // frame_bytes x frames_per_chunk
    Figure d2h_ms;        // chunk_bytes / link + latency
    PipelineRun sync, async;
    Figure async_time_saving;  // 1 - async / sync decode seconds (fraction)
    // First-order check of the event simulation when the decode is the bottleneck
    // (compute_ms >= d2h + host): chunks x compute + (chunks - 1) x (d2h + host) x c/(1+c)
    // + d2h + host. Unknown (with the reason) outside that regime.
    Figure async_first_order_seconds;
    std::vector<Figure> all() const;
};

// chunk bytes / (link_gb_per_s x 1e9) x 1000 + link_latency_us / 1000 (no validation).
double decode_d2h_ms(const DecodeSimRequest& request);

// Validates, then simulates both pipelines.
DecodeSimResult simulate_decode(const DecodeSimRequest& request);

// Only the asynchronous wall time and kernel utilisation, for searches (the fit).
struct AsyncOutcome {
    double decode_seconds = 0, kernel_utilization = 0;
};
AsyncOutcome simulate_async_only(const DecodeSimRequest& request);

nlohmann::json to_json(const DecodeTimeline& timeline);

}  // namespace gpuplan
