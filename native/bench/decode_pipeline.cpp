// decode_pipeline.cpp — modes A-D and their measurement, over DecodeBackend.
//
// [SECTION] names, validation and memory check
// [SECTION] verification          (producer checksum vs pattern vs after the host stage)
// [SECTION] synchronous video     (modes A, B: everything in order on one engine)
// [SECTION] asynchronous video    (modes C, D: compute + copy engines, writer thread)
// [SECTION] measurement           (per case: warm-up, timed videos, statistics)
#include "decode_pipeline.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <semaphore>
#include <thread>

#include "decode_faults.hpp"
#include "host_memory.hpp"

namespace gpuplan::bench {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

[[noreturn]] void bad_input(const std::string& message) { throw BenchError(BenchError::Kind::bad_input, message); }
[[noreturn]] void failed(const std::string& message) { throw BenchError(BenchError::Kind::failed, message); }

// "44.24 GB", "1.44 TB", "4.50 PB": an oversized request reads at a glance.
std::string gb_text(double bytes) {
    char text[48];
    if (bytes >= 1e15)
        std::snprintf(text, sizeof text, "%.2f PB", bytes / 1e15);
    else if (bytes >= 1e12)
        std::snprintf(text, sizeof text, "%.2f TB", bytes / 1e12);
    else
        std::snprintf(text, sizeof text, "%.2f GB", bytes / 1e9);
    return text;
}

std::string hex(std::uint64_t v) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(v));
    return text;
}

std::string dtype_name(std::uint32_t bytes) { return bytes == 4 ? "fp32" : bytes == 2 ? "fp16" : "uint8"; }

struct ModePlan {
    Mode mode;
    std::uint32_t buffers;
    HostMemory host;
    bool async;
};

ModePlan plan_for(Mode mode, const DecodeConfig& c) {
    switch (mode) {
    case Mode::sync_pageable: return {mode, 1, HostMemory::pageable, false};
    case Mode::sync_pinned: return {mode, 1, HostMemory::pinned, false};
    case Mode::async: return {mode, 2, c.async_host_memory, true};
    case Mode::ring: return {mode, c.ring_buffers, c.async_host_memory, true};
    }
    return {mode, 1, HostMemory::pageable, false};
}

// Sleeps `ms`, or less if `cancelled` becomes true (checked every millisecond).
void cancellable_sleep(double ms, const std::atomic<bool>& cancelled) {
    const Clock::time_point end = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::milli>(ms));
    while (!cancelled.load() && Clock::now() < end)
        std::this_thread::sleep_for(std::min<Clock::duration>(std::chrono::milliseconds(1), end - Clock::now()));
}

}  // namespace

// ---- [SECTION] names, validation and memory check -------------------------------------------

std::string_view case_name(Mode mode) {
    switch (mode) {
    case Mode::sync_pageable: return "decode.sync_pageable";
    case Mode::sync_pinned: return "decode.sync_pinned";
    case Mode::async: return "decode.async";
    case Mode::ring: return "decode.ring";
    }
    return "decode.?";
}

char mode_letter(Mode mode) { return static_cast<char>('A' + static_cast<int>(mode)); }

void validate(const DecodeConfig& c) {
    const auto range = [](const char* flag, double v, double lo, double hi, const char* what) {
        if (!(v >= lo && v <= hi)) {
            char text[64];
            std::snprintf(text, sizeof text, "%g", v);
            bad_input(std::string(flag) + ": got " + text + "; expected " + what);
        }
    };
    const FrameLayout& L = c.layout;
    range("--chunks", c.chunks, 1, 100000, "a whole number from 1 to 100,000");
    range("--frames-per-chunk", L.frames_per_chunk, 1, 1024, "a whole number from 1 to 1,024");
    range("--height", L.height, 1, 65536, "a whole number from 1 to 65,536");
    range("--width", L.width, 1, 65536, "a whole number from 1 to 65,536");
    range("--channels", L.channels, 1, 64, "a whole number from 1 to 64");
    if (L.dtype_bytes != 1 && L.dtype_bytes != 2 && L.dtype_bytes != 4) bad_input("--dtype: got " + std::to_string(L.dtype_bytes) + " bytes; expected fp32, fp16 or uint8");
    range("--compute-ms", c.compute_ms, 0.001, 60000, "milliseconds from 0.001 to 60,000");
    range("--buffers", c.ring_buffers, 2, 64, "a whole number from 2 to 64");
    range("--warmup", c.warmup, 0, 1000, "a whole number from 0 to 1,000");
    range("--videos", c.videos, 1, 100000, "a whole number from 1 to 100,000");
    if (c.video_seconds) range("--video-seconds", *c.video_seconds, 1e-6, 1e9, "a duration in seconds > 0");
    range("--writer-timeout-s", c.writer_timeout_s, 0.001, 86400, "seconds from 0.001 to 86,400");
    range("--inject-writer-delay-ms", c.inject_writer_delay_ms, 0, 3.6e6, "milliseconds >= 0");
    if (c.host_stage == HostStageKind::convert && L.dtype_bytes == 1)
        bad_input("--host-stage: got convert with --dtype uint8; expected fp32 or fp16 frames to convert to uint8 (uint8 frames need no conversion)");
    if (c.inject_write_failure_at_frame > 0 && !writes_files(c.host_stage))
        bad_input("--inject-write-failure-at-frame: got " + std::to_string(c.inject_write_failure_at_frame) +
                  " with --host-stage " + std::string(to_string(c.host_stage)) + "; expected --host-stage write or odirect");
    if (writes_files(c.host_stage) && c.output_dir.empty())
        bad_input("--output-dir: got nothing; expected a folder for --host-stage " + std::string(to_string(c.host_stage)));
    if (c.numa_node >= 0) {
        std::string nodes;
        if (!numa_node_exists(c.numa_node, &nodes))
            bad_input("--numa-node: got " + std::to_string(c.numa_node) + "; expected a NUMA node of this machine: " + nodes);
    }
}

void check_memory(DecodeBackend& backend, const DecodeConfig& c, const std::vector<Mode>& modes) {
    const FrameLayout& L = c.layout;
    const double buffer = static_cast<double>(L.buffer_bytes());
    const double decoder = static_cast<double>(backend.decoder_device_bytes(L));
    const double fixed_host = static_cast<double>(staging_bytes(c.host_stage, L)) + 8.0 * c.chunks * L.frames_per_chunk;
    const MemoryBudget budget = backend.memory_budget();
    // Leave 10% for everything else: the driver, the page cache, other processes.
    const double device_limit = 0.9 * static_cast<double>(budget.device_free_bytes);
    const double host_limit = 0.9 * static_cast<double>(budget.host_available_bytes);
    const std::string chunk = "a chunk of " + std::to_string(L.frames_per_chunk) + " frames of " + std::to_string(L.width) + "x" +
                              std::to_string(L.height) + "x" + std::to_string(L.channels) + " " + dtype_name(L.dtype_bytes) + " needs " +
                              gb_text(buffer) + " per buffer";
    for (Mode m : modes) {
        const ModePlan p = plan_for(m, c);
        const double device = p.buffers * buffer + decoder;
        const double host = p.buffers * buffer + fixed_host + (budget.device_is_host ? device : 0);
        const std::string who = std::string("mode ") + mode_letter(m) + " (" + std::string(case_name(m)) + ")";
        if (!budget.device_is_host && device > device_limit)
            bad_input("--height/--width/--channels/--frames-per-chunk/--dtype: " + chunk + "; " + who + " needs " + gb_text(device) +
                      " of GPU memory (" + std::to_string(p.buffers) + " buffers + the decoder's scratch) but " + gb_text(device_limit) +
                      " is usable (90% of the free memory); use a smaller resolution, fewer frames per chunk or fewer buffers");
        if (host > host_limit)
            bad_input("--height/--width/--channels/--frames-per-chunk/--dtype: " + chunk + "; " + who + " needs " + gb_text(host) +
                      " of host memory" + (budget.device_is_host ? " (the CPU backend's device buffers are host memory too)" : "") + " but " +
                      gb_text(host_limit) + " is usable (90% of MemAvailable); use a smaller resolution, fewer frames per chunk or fewer buffers");
    }
}

SampleSummary summarize(std::vector<double> s) {
    SampleSummary r;
    if (s.empty()) return r;
    std::sort(s.begin(), s.end());
    const std::size_t n = s.size();
    r.min = s.front();
    double sum = 0;
    for (double v : s) sum += v;
    r.mean = sum / static_cast<double>(n);
    r.median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    const auto rank = static_cast<std::size_t>(std::ceil(0.99 * static_cast<double>(n)));  // nearest rank
    r.p99 = s[std::clamp<std::size_t>(rank, 1, n) - 1];
    return r;
}

namespace {

// ---- [SECTION] verification -------------------------------------------------------------------

// Checks one chunk in a host buffer after the host stage: the trailer names this chunk of
// this video, each frame's producer checksum equals the pattern's, and the data still sums
// to it now. Returns "" or what is wrong.
std::string verify_chunk(const std::byte* buffer, const FrameLayout& L, std::uint64_t chunk, std::uint64_t sequence,
                         const std::vector<std::uint64_t>& expected, std::uint64_t chunks) {
    std::uint64_t header[kTrailerHeaderWords];
    std::memcpy(header, buffer + L.trailer_offset(), sizeof header);
    if (header[0] != kTrailerMagic)
        return "chunk " + std::to_string(chunk) + ": the host buffer holds no chunk (trailer magic " + hex(header[0]) +
               "): it was never filled or was overwritten";
    if (header[1] != sequence)
        return "chunk " + std::to_string(chunk) + ": the host buffer holds chunk " + std::to_string(header[1] % chunks) + " of video #" +
               std::to_string(header[1] / chunks) + " instead of chunk " + std::to_string(chunk) + " of video #" + std::to_string(sequence / chunks) +
               ": a buffer was overwritten before the host stage finished with it";
    for (std::uint32_t f = 0; f < L.frames_per_chunk; ++f) {
        const std::uint64_t frame = chunk * L.frames_per_chunk + f;
        std::uint64_t produced;
        std::memcpy(&produced, buffer + L.trailer_offset() + 8 * (kTrailerHeaderWords + f), 8);
        const std::uint64_t now = checksum_bytes(buffer + f * L.frame_pitch(), L.frame_bytes());
        if (produced != expected[frame])
            return "frame " + std::to_string(f) + " of chunk " + std::to_string(chunk) + ": the decoder's checksum " + hex(produced) +
                   " differs from the pattern's " + hex(expected[frame]) + ": the decoder wrote wrong data";
        if (now != produced)
            return "frame " + std::to_string(f) + " of chunk " + std::to_string(chunk) + ": checksum after the host stage " + hex(now) +
                   " differs from the decoder's " + hex(produced) + ": the buffer changed before the host stage finished with it";
    }
    return "";
}

// Everything one case needs, shared with its writer thread (which may outlive a failed case
// when it is stuck in a system call: it then keeps the backend and buffers alive itself).
struct CaseContext {
    std::shared_ptr<DecodeBackend> backend;
    std::shared_ptr<HostStage> stage;
    std::shared_ptr<const std::vector<std::uint64_t>> expected;
    DecodeConfig config;
    ModePlan plan{};
    std::vector<int> device;
    std::vector<std::byte*> host;
    std::vector<int> compute_start, compute_end, copy_start, copy_end;  // events, one per chunk
    std::atomic<std::uint64_t> writer_chunks{0};  // chunks the host stage has taken (for writer:N faults)
    std::atomic<bool> writer_detached{false};     // a stuck writer was left running: keep the buffers
};

struct VideoTimes {
    double seconds = 0;
    std::vector<double> host_ms;
    std::uint32_t max_in_flight = 0;
};

// The host stage of one chunk plus its verification (both the writer's job), timed.
double host_stage_and_verify(CaseContext& ctx, std::size_t slot, std::uint64_t chunk, std::uint64_t sequence,
                             const std::atomic<bool>& cancelled) {
    const Clock::time_point t0 = Clock::now();
    if (const auto& f = ctx.config.inject_fault; f && f->stage == InjectedFault::Stage::writer && ++ctx.writer_chunks == f->at) {
        if (!f->hang) failed("injected fault (--inject-fault " + to_string(*f) + "): the host stage failed at chunk " + std::to_string(f->at) + " of the run");
        // Hung: until the launcher cancels (async), else for the writer timeout (sync: nobody else can).
        cancellable_sleep(ctx.config.writer_timeout_s * 1000, cancelled);
        if (!cancelled.load())
            failed("the host stage did not finish a chunk within " + std::to_string(ctx.config.writer_timeout_s) + " s (--writer-timeout-s; injected: --inject-fault " + to_string(*f) + ")");
    }
    ctx.stage->process(ctx.host[slot], chunk);
    if (ctx.config.inject_writer_delay_ms > 0) cancellable_sleep(ctx.config.inject_writer_delay_ms, cancelled);
    if (const std::string wrong = verify_chunk(ctx.host[slot], ctx.config.layout, chunk, sequence, *ctx.expected, ctx.config.chunks); !wrong.empty())
        failed("checksum mismatch: " + wrong + " (" + std::to_string(ctx.stage->frames_written()) + " frames were written in this run)");
    return seconds_since(t0) * 1000;
}

// ---- [SECTION] synchronous video ----------------------------------------------------------------

VideoTimes run_sync_video(CaseContext& ctx, std::uint64_t video_serial) {
    DecodeBackend& b = *ctx.backend;
    const std::uint64_t chunks = ctx.config.chunks;
    const std::atomic<bool> never{false};
    VideoTimes v;
    v.host_ms.resize(chunks);
    v.max_in_flight = 1;
    // The output file is (re)created before the clock starts, as in the asynchronous modes: the
    // O_TRUNC open is not part of either mode's video time (issue 17, finding 12).
    ctx.stage->begin_video();
    const Clock::time_point t0 = Clock::now();
    for (std::uint64_t i = 0; i < chunks; ++i) {
        // One stream: decode, copy, and the host waits for the copy before its own stage.
        b.record(ctx.compute_start[i], Engine::compute);
        b.enqueue_decode(ctx.device[0], i, video_serial * chunks + i);
        b.record(ctx.compute_end[i], Engine::compute);
        b.record(ctx.copy_start[i], Engine::compute);
        b.enqueue_copy_to_host(Engine::compute, ctx.host[0], ctx.device[0]);
        b.record(ctx.copy_end[i], Engine::compute);
        b.host_wait(ctx.copy_end[i]);
        v.host_ms[i] = host_stage_and_verify(ctx, 0, i, video_serial * chunks + i, never);
    }
    ctx.stage->end_video();
    v.seconds = seconds_since(t0);
    return v;
}

// ---- [SECTION] asynchronous video ---------------------------------------------------------------

struct WriterItem {
    std::uint64_t chunk;
    std::size_t slot;
};

// What the launching thread and the writer thread share for one video.
struct WriterState {
    explicit WriterState(std::ptrdiff_t buffers) : free_buffers(buffers) {}
    std::counting_semaphore<> free_buffers;  // host buffers the launcher may fill
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<WriterItem> queue;            // at most N items: the semaphore bounds it
    bool no_more = false, finished = false;
    std::atomic<bool> cancelled{false};
    std::uint64_t done = 0;                  // chunks released
    std::string error;                       // set once, by the writer
    std::atomic<int> in_flight{0};
    std::vector<double> host_ms;
};

void writer_loop(const std::shared_ptr<CaseContext>& ctx, const std::shared_ptr<WriterState>& w, std::uint64_t video_serial) {
    const std::uint64_t chunks = ctx->config.chunks;
    try {
        ctx->backend->attach_thread();  // CUDA: this thread on the benchmark's device (finding 12)
        for (;;) {
            WriterItem item{};
            {
                std::unique_lock lock(w->mutex);
                w->changed.wait(lock, [&] { return w->cancelled.load() || !w->queue.empty() || w->no_more; });
                if (w->cancelled.load() || w->queue.empty()) break;
                item = w->queue.front();
                w->queue.pop_front();
            }
            ctx->backend->host_wait(ctx->copy_end[item.chunk]);  // the copy engine has filled the buffer
            const double ms = host_stage_and_verify(*ctx, item.slot, item.chunk, video_serial * chunks + item.chunk, w->cancelled);
            w->in_flight.fetch_sub(1);
            {
                std::lock_guard lock(w->mutex);
                w->host_ms[item.chunk] = ms;
                ++w->done;
            }
            w->free_buffers.release();  // buffer item.slot may now be refilled
            w->changed.notify_all();
        }
    } catch (const std::exception& e) {
        std::lock_guard lock(w->mutex);
        w->error = e.what();
    }
    {
        std::lock_guard lock(w->mutex);
        w->finished = true;
    }
    w->free_buffers.release(static_cast<std::ptrdiff_t>(ctx->plan.buffers));  // wake a launcher waiting for a buffer
    w->changed.notify_all();
}

VideoTimes run_async_video(const std::shared_ptr<CaseContext>& ctx, std::uint64_t video_serial) {
    DecodeBackend& b = *ctx->backend;
    const std::uint64_t chunks = ctx->config.chunks, n = ctx->plan.buffers;
    const auto timeout = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(ctx->config.writer_timeout_s));
    auto w = std::make_shared<WriterState>(static_cast<std::ptrdiff_t>(n));
    w->host_ms.resize(chunks);
    VideoTimes v;

    ctx->stage->begin_video();
    const Clock::time_point t0 = Clock::now();
    // The writer thread, joined on every way out of this function: an exception from a backend
    // call below (a CUDA error) used to destroy it joinable, which is std::terminate: no results
    // file (issue 17, finding 9). The guard cancels it and waits up to the timeout; a writer
    // stuck inside a system call is left running detached, holding the buffers.
    struct WriterThread {
        std::thread thread;
        std::shared_ptr<WriterState> state;
        std::shared_ptr<CaseContext> ctx;
        Clock::duration timeout;
        ~WriterThread() {
            if (!thread.joinable()) return;
            {
                std::lock_guard lock(state->mutex);
                state->cancelled = true;
                state->no_more = true;
            }
            state->changed.notify_all();
            std::unique_lock lock(state->mutex);
            if (state->changed.wait_for(lock, timeout, [&] { return state->finished; })) {
                lock.unlock();
                thread.join();
            } else {
                lock.unlock();
                ctx->writer_detached = true;
                thread.detach();
            }
        }
    } writer{std::thread(writer_loop, ctx, w, video_serial), w, ctx, timeout};

    std::string stop_reason;  // why the launcher stopped early
    const auto writer_error = [&] {
        std::lock_guard lock(w->mutex);
        return w->error;
    };
    const auto stuck = [&](const char* waiting_for) {
        std::lock_guard lock(w->mutex);
        char text[64];
        std::snprintf(text, sizeof text, "%g", ctx->config.writer_timeout_s);
        return std::string("the writer thread did not ") + waiting_for + " within " + text + " s (--writer-timeout-s): it had released " +
               std::to_string(w->done) + " of " + std::to_string(chunks) + " chunks of this video and " +
               std::to_string(ctx->stage->frames_written()) + " frames were written in this run; it is stuck or far slower than the decoder";
    };

    std::uint64_t pushed = 0;
    for (std::uint64_t i = 0; i < chunks && stop_reason.empty(); ++i) {
        const std::size_t k = i % n;
        // Buffer pair k (device and host) is free once the writer released chunk i - N: the
        // semaphore, since a CPU thread cannot record an event. The compute engine still has
        // chunks i - N + 1 .. i - 1 queued meanwhile, so it keeps working while we wait.
        if (!ctx->config.unsafe_skip_release_wait && !w->free_buffers.try_acquire_for(timeout)) {
            stop_reason = stuck("release a host buffer");
            break;
        }
        if (!writer_error().empty()) break;
        const int now_in_flight = w->in_flight.fetch_add(1) + 1;
        v.max_in_flight = std::max<std::uint32_t>(v.max_in_flight, static_cast<std::uint32_t>(now_in_flight));
        // The device side of that rule, as the engines see it: the copy of chunk i - N out of
        // device buffer k has finished (implied by the release; stated so it never depends on it).
        if (i >= n) b.engine_wait(Engine::compute, ctx->copy_end[i - n]);
        b.record(ctx->compute_start[i], Engine::compute);
        b.enqueue_decode(ctx->device[k], i, video_serial * chunks + i);
        b.record(ctx->compute_end[i], Engine::compute);
        b.engine_wait(Engine::copy, ctx->compute_end[i]);
        b.record(ctx->copy_start[i], Engine::copy);
        b.enqueue_copy_to_host(Engine::copy, ctx->host[k], ctx->device[k]);
        b.record(ctx->copy_end[i], Engine::copy);
        {
            std::lock_guard lock(w->mutex);
            w->queue.push_back({i, k});
            ++pushed;
        }
        w->changed.notify_all();
    }
    {
        std::lock_guard lock(w->mutex);
        w->no_more = true;
    }
    w->changed.notify_all();

    // Wait for the writer to release every chunk; no progress for the timeout is an error.
    if (stop_reason.empty()) {
        std::unique_lock lock(w->mutex);
        std::uint64_t seen = w->done;
        while (w->done < pushed && w->error.empty()) {
            if (!w->changed.wait_for(lock, timeout, [&] { return w->done != seen || !w->error.empty(); })) {
                lock.unlock();
                stop_reason = stuck("finish the video's last chunks");
                lock.lock();
                break;
            }
            seen = w->done;
        }
    }
    v.seconds = seconds_since(t0);

    if (!stop_reason.empty()) {
        w->cancelled = true;
        w->changed.notify_all();
        // Give it the same time again to notice; if it is stuck inside a system call, leave it
        // running detached: it holds the backend and buffers, so nothing is freed under it.
        std::unique_lock lock(w->mutex);
        if (w->changed.wait_for(lock, timeout, [&] { return w->finished; })) {
            lock.unlock();
            writer.thread.join();
        } else {
            lock.unlock();
            ctx->writer_detached = true;
            writer.thread.detach();
            throw BenchError(BenchError::Kind::failed, stop_reason + " (the writer thread was left running)");
        }
        failed(stop_reason);  // run_case synchronizes (with its deadline) as it releases the buffers
    }
    writer.thread.join();
    if (const std::string error = writer_error(); !error.empty()) failed(error);  // before synchronize: the first cause is the one to name
    b.synchronize();
    ctx->stage->end_video();
    v.host_ms = w->host_ms;
    return v;
}

// ---- [SECTION] measurement ----------------------------------------------------------------------

CaseResult run_case(const std::shared_ptr<DecodeBackend>& backend, const std::shared_ptr<HostStage>& stage,
                    const std::shared_ptr<const std::vector<std::uint64_t>>& expected, const DecodeConfig& config, Mode mode,
                    const Calibration& calibration, std::uint64_t& video_serial) {
    auto ctx = std::make_shared<CaseContext>();
    ctx->backend = backend;
    ctx->stage = stage;
    ctx->expected = expected;
    ctx->config = config;
    ctx->plan = plan_for(mode, config);
    const FrameLayout& L = config.layout;
    const std::uint64_t chunks = config.chunks;
    DecodeBackend& b = *backend;

    CaseResult r;
    r.mode = mode;
    r.case_name = std::string(case_name(mode));
    r.buffers = ctx->plan.buffers;
    r.host_memory = ctx->plan.host;
    const std::string label = r.case_name + " (mode " + mode_letter(mode) + ")";

    try {
        for (std::uint32_t k = 0; k < ctx->plan.buffers; ++k) {
            ctx->device.push_back(b.allocate_device(L.buffer_bytes()));
            ctx->host.push_back(b.allocate_host(L.buffer_bytes(), ctx->plan.host, config.numa_node));
        }
        for (std::uint64_t i = 0; i < chunks; ++i) {
            ctx->compute_start.push_back(b.create_event());
            ctx->compute_end.push_back(b.create_event());
            ctx->copy_start.push_back(b.create_event());
            ctx->copy_end.push_back(b.create_event());
        }
    } catch (const BenchError& e) {
        b.release();
        failed(label + ": allocating buffers: " + e.what());
    }

    std::vector<double> compute_ms, d2h_ms, host_ms, active, stage_sums;
    const std::uint32_t total = config.warmup + config.videos;
    for (std::uint32_t video = 0; video < total; ++video) {
        const bool warmup = video < config.warmup;
        const std::uint32_t number = warmup ? video + 1 : video - config.warmup + 1;
        VideoTimes v;
        try {
            v = ctx->plan.async ? run_async_video(ctx, video_serial) : run_sync_video(*ctx, video_serial);
        } catch (const BenchError& e) {
            // A detached writer may still use the buffers: only release them when it is not.
            // Releasing synchronizes, which a hung engine makes throw: then the buffers stay.
            const std::string what = e.what();
            if (!ctx->writer_detached.load()) {
                try {
                    b.release();
                } catch (const BenchError&) {
                }
            }
            failed(label + ", " + (warmup ? "warm-up video " : "video ") + std::to_string(number) + " of " +
                   std::to_string(warmup ? config.warmup : config.videos) + ": " + what);
        }
        ++video_serial;
        r.frames_verified += chunks * L.frames_per_chunk;
        r.max_buffers_in_flight = std::max(r.max_buffers_in_flight, v.max_in_flight);
        if (config.progress) config.progress({r.case_name, mode_letter(mode), warmup, number, warmup ? config.warmup : config.videos, v.seconds});
        if (warmup) continue;
        r.samples.push_back(v.seconds);
        double busy_ms = 0, stage_sum_ms = 0;
        for (std::uint64_t i = 0; i < chunks; ++i) {
            const double c = b.elapsed_ms(ctx->compute_start[i], ctx->compute_end[i]);
            const double d = b.elapsed_ms(ctx->copy_start[i], ctx->copy_end[i]);
            compute_ms.push_back(c);
            d2h_ms.push_back(d);
            host_ms.push_back(v.host_ms[i]);
            busy_ms += c;
            stage_sum_ms += c + d + v.host_ms[i];
        }
        // Engine clocks and the host clock are read separately: the share can round past 1.
        active.push_back(std::min(1.0, busy_ms / (v.seconds * 1000)));
        stage_sums.push_back(stage_sum_ms / 1000);
    }
    b.release();

    const auto mean = [](const std::vector<double>& xs) {
        double s = 0;
        for (double x : xs) s += x;
        return xs.empty() ? 0.0 : s / static_cast<double>(xs.size());
    };
    const SampleSummary s = summarize(r.samples);
    r.min = s.min;
    r.mean = s.mean;
    r.median = s.median;
    r.p99 = s.p99;
    r.kernel_active_fraction = mean(active);
    r.chunk_compute_ms = mean(compute_ms);
    r.chunk_d2h_ms = mean(d2h_ms);
    r.chunk_host_ms = mean(host_ms);
    r.compute_slowdown = calibration.isolated_compute_ms > 0 ? r.chunk_compute_ms / calibration.isolated_compute_ms : 1;
    if (config.video_seconds) r.rtf = r.mean / *config.video_seconds;
    r.stage_sum_seconds = mean(stage_sums);
    r.checksums_ok = true;  // every frame was verified; any mismatch threw above
    return r;
}

}  // namespace

DecodeRun run_decode_bench(const std::shared_ptr<DecodeBackend>& backend, const DecodeConfig& config, const std::vector<Mode>& modes) {
    validate(config);
    if (modes.empty()) bad_input("--mode: got no mode; expected A, B, C, D or all");
    check_memory(*backend, config, modes);
    const FrameLayout& L = config.layout;

    DecodeRun run;
    run.backend = backend->name();
    run.device_name = backend->device_name();
    const std::optional<std::string> waiver =
        probe_output_dir(config.host_stage, config.output_dir, bytes_written_per_video(config.host_stage, L, config.chunks));
    if (waiver) {
        for (Mode m : modes) run.waived.push_back({std::string(case_name(m)), *waiver});
        return run;
    }

    // What every frame's checksum must be, from the pattern alone (the same every video).
    // Spread over the cores: at 1280x720x3 fp32 this is a second or two of hashing.
    auto expected = std::make_shared<std::vector<std::uint64_t>>(std::uint64_t{config.chunks} * L.frames_per_chunk);
    {
        const unsigned workers = std::max(1u, std::min(std::thread::hardware_concurrency(), 16u));
        std::vector<std::thread> pool;
        for (unsigned t = 0; t < workers; ++t)
            pool.emplace_back([&, t] {
                for (std::uint64_t g = t; g < expected->size(); g += workers) (*expected)[g] = expected_checksum(L, g);
            });
        for (auto& th : pool) th.join();
    }

    backend->set_wait_timeout(config.device_timeout_s);
    run.calibration = backend->prepare(L, config.compute_ms, config.decoder);
    // A fault counts the benchmark's own calls, not the calibration's.
    const std::shared_ptr<DecodeBackend> b = config.inject_fault ? with_injected_fault(backend, *config.inject_fault) : backend;
    b->set_wait_timeout(config.device_timeout_s);
    auto stage = std::make_shared<HostStage>(config.host_stage, L, config.output_dir, config.inject_write_failure_at_frame);
    std::uint64_t video_serial = 0;
    for (Mode m : modes) {
        try {
            run.cases.push_back(run_case(b, stage, expected, config, m, run.calibration, video_serial));
        } catch (const BenchError& e) {
            if (e.kind() != BenchError::Kind::failed) throw;
            run.frames_written = stage->frames_written();
            run.notes = b->notes();
            throw DecodeRunFailed(e.what(), std::string(case_name(m)), run);
        }
    }
    run.frames_written = stage->frames_written();
    run.notes = b->notes();
    return run;
}

}  // namespace gpuplan::bench
