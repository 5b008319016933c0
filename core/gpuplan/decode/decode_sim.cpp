// decode_sim.cpp — the event loop for both decode pipelines and the figures it yields.
#include "gpuplan/decode/decode_sim.hpp"
#include "gpuplan/formula_text.hpp"

#include <cassert>
#include <cmath>
#include <limits>

#include "gpuplan/input_error.hpp"

namespace gpuplan {

namespace {

Param assumed(double v, std::string source) { return {v, InputOrigin::assumption, std::move(source)}; }

// ---- validation -------------------------------------------------------------------------------

void check(const Param& p, const char* field, double min_value, bool inclusive, bool whole, double max_value, const char* what) {
    const std::string where = std::string("decode.") + field;
    const bool ok = std::isfinite(p.value) && (inclusive ? p.value >= min_value : p.value > min_value) && p.value <= max_value &&
                    (!whole || std::floor(p.value) == p.value);
    if (!ok) throw InputError(where, std::isfinite(p.value) ? n(p.value) : std::string(std::isnan(p.value) ? "nan" : "inf"), what);
}

// ---- the event loop -----------------------------------------------------------------------------

struct Stages {
    std::size_t chunks = 0;
    double compute_ms = 0, d2h_ms = 0, host_ms = 0;
    double contention = 0;
};

struct Trace {
    DecodeTimeline timeline;
    double wall_ms = 0, compute_busy_ms = 0, copy_busy_ms = 0, host_busy_ms = 0;
};

// `gate` is the number of buffer pairs: decode i may start only once host stage i - gate is
// done. gate = 1 is the synchronous pipeline.
Trace run_events(const Stages& s, std::size_t gate) {
    constexpr double kNever = std::numeric_limits<double>::infinity();
    const std::size_t count = s.chunks;
    Trace out;
    out.timeline.compute.resize(count);
    out.timeline.copy.resize(count);
    out.timeline.host.resize(count);
    const double slow_factor = 1.0 + s.contention;

    // Each stage handles chunks in order, so a counter per stage is its whole queue.
    std::size_t computed = 0, copied = 0, hosted = 0;  // finished
    bool compute_on = false, copy_on = false, host_on = false;
    double compute_left = 0;            // uncontended ms of decode work still to do
    double copy_end = 0, host_end = 0;  // fixed durations: known at start
    double t = 0;
    for (;;) {
        // Start whatever may start at t (a zero-length stage ends at the next pass, same t).
        if (!compute_on && computed < count && (computed < gate || hosted >= computed - gate + 1)) {
            compute_on = true;
            compute_left = s.compute_ms;
            out.timeline.compute[computed].start_ms = t;
        }
        if (!copy_on && copied < computed) {
            copy_on = true;
            copy_end = t + s.d2h_ms;
            out.timeline.copy[copied].start_ms = t;
        }
        if (!host_on && hosted < copied) {
            host_on = true;
            host_end = t + s.host_ms;
            out.timeline.host[hosted].start_ms = t;
        }
        if (!compute_on && !copy_on && !host_on) break;

        // The decode runs slowed while a copy or a host stage runs beside it.
        const double slow = (copy_on || host_on) ? slow_factor : 1.0;
        const double compute_end = compute_on ? t + compute_left * slow : kNever;
        double next = compute_end;
        if (copy_on && copy_end < next) next = copy_end;
        if (host_on && host_end < next) next = host_end;

        if (compute_on) {
            if (compute_end <= next) {
                compute_on = false;
                compute_left = 0;
                out.timeline.compute[computed].end_ms = next;
                ++computed;
            } else {
                compute_left -= (next - t) / slow;
                if (compute_left < 0) compute_left = 0;  // rounding only: it ends at the next pass
            }
        }
        if (copy_on && copy_end <= next) {
            copy_on = false;
            out.timeline.copy[copied].end_ms = next;
            ++copied;
        }
        if (host_on && host_end <= next) {
            host_on = false;
            out.timeline.host[hosted].end_ms = next;
            ++hosted;
        }
        t = next;
    }
    assert(computed == count && copied == count && hosted == count);
    out.wall_ms = t;
    for (std::size_t i = 0; i < count; ++i) {
        out.compute_busy_ms += out.timeline.compute[i].end_ms - out.timeline.compute[i].start_ms;
        out.copy_busy_ms += out.timeline.copy[i].end_ms - out.timeline.copy[i].start_ms;
        out.host_busy_ms += out.timeline.host[i].end_ms - out.timeline.host[i].start_ms;
    }
    return out;
}

double frame_bytes_of(const DecodeSimRequest& r) { return r.height.value * r.width.value * r.channels.value * r.dtype_bytes.value; }
double chunk_bytes_of(const DecodeSimRequest& r) { return frame_bytes_of(r) * r.frames_per_chunk.value; }

Stages stages_of(const DecodeSimRequest& r) {
    return {static_cast<std::size_t>(r.chunks.value), r.compute_ms.value, decode_d2h_ms(r), r.host_ms.value, r.contention.value};
}

std::size_t gate_of(const DecodeSimRequest& r) { return static_cast<std::size_t>(r.buffers.value); }

// ---- figures --------------------------------------------------------------------------------

PipelineRun make_run(const DecodeSimRequest& r, DecodePipeline p, const Trace& tr, const Figure& d2h) {
    const std::string pre = std::string(to_string(p)) + "_";
    const bool sync = p == DecodePipeline::sync;
    const double chunks = r.chunks.value;
    PipelineRun run;
    run.pipeline = p;
    run.buffers = sync ? 1 : r.buffers.value;
    run.timeline = tr.timeline;
    const std::vector<FigureInput> stage_inputs = {input("chunks", "", r.chunks), input("compute_ms", "ms", r.compute_ms), d2h.as_input(),
                                                   input("host_ms", "ms", r.host_ms)};
    std::vector<FigureInput> sim_inputs = stage_inputs;
    if (!sync) {
        sim_inputs.push_back(input("buffers", "", r.buffers));
        sim_inputs.push_back(input("contention", "", r.contention));
    }
    const double wall_s = tr.wall_ms / 1e3;
    if (sync) {
        run.decode_seconds = make_figure(pre + "decode_seconds", wall_s, "s", "chunks x (compute_ms + d2h_ms + host_ms) / 1000 (one stream, host stage inline)",
                                 n(chunks) + " x (" + n(r.compute_ms.value) + " + " + n(*d2h.value) + " + " + n(r.host_ms.value) + ") / 1000 = " + n(wall_s),
                                 sim_inputs);
    } else {
        run.decode_seconds = make_figure(pre + "decode_seconds", wall_s, "s",
                                 "end of the last host stage in the event simulation: compute and copy streams, N buffer pairs, one writer; "
                                 "decode slowed to 1/(1 + contention) while a copy or host stage overlaps it",
                                 "simulated " + n(chunks) + " chunks (compute " + n(r.compute_ms.value) + " ms, D2H " + n(*d2h.value) + " ms, host " +
                                     n(r.host_ms.value) + " ms), " + n(r.buffers.value) + " buffers, contention " + n(r.contention.value) +
                                     ": last host stage ends at " + n(tr.wall_ms) + " ms = " + n(wall_s) + " s",
                                 sim_inputs);
    }
    const double per_chunk = tr.wall_ms / chunks;
    run.ms_per_chunk = make_figure(pre + "ms_per_chunk", per_chunk, "ms", pre + "decode_seconds x 1000 / chunks",
                           n(wall_s) + " x 1000 / " + n(chunks) + " = " + n(per_chunk), {run.decode_seconds.as_input(), input("chunks", "", r.chunks)});
    const double busy_s = tr.compute_busy_ms / 1e3;
    run.compute_busy_seconds = make_figure(pre + "compute_busy_seconds", busy_s, "s", "sum over chunks of the decode interval (end - start), slowed parts included",
                                   "simulated: " + n(tr.compute_busy_ms) + " ms = " + n(busy_s) + " s", sim_inputs);
    const double util = busy_s / wall_s;
    run.kernel_utilization = make_figure(pre + "kernel_utilization", util, "fraction", pre + "compute_busy_seconds / " + pre + "decode_seconds",
                                 n(busy_s) + " / " + n(wall_s) + " = " + n(util), {run.compute_busy_seconds.as_input(), run.decode_seconds.as_input()});
    const double work_s = chunks * r.compute_ms.value / 1e3;
    run.compute_work_seconds = make_figure(pre + "compute_work_seconds", work_s, "s", "chunks x compute_ms / 1000 (decode work at the uncontended rate)",
                                   n(chunks) + " x " + n(r.compute_ms.value) + " / 1000 = " + n(work_s),
                                   {input("chunks", "", r.chunks), input("compute_ms", "ms", r.compute_ms)});
    double slowed_s = busy_s - work_s;
    if (std::fabs(slowed_s) <= 1e-9 * work_s) slowed_s = 0;  // summing intervals vs chunks x compute: rounding only
    run.contention_seconds = make_figure(pre + "contention_seconds", slowed_s, "s", pre + "compute_busy_seconds - " + pre + "compute_work_seconds",
                                 n(busy_s) + " - " + n(work_s) + " = " + n(slowed_s), {run.compute_busy_seconds.as_input(), run.compute_work_seconds.as_input()});
    const double slowdown = slowed_s / work_s;
    run.compute_slowdown = make_figure(pre + "compute_slowdown", slowdown, "fraction", pre + "contention_seconds / " + pre + "compute_work_seconds",
                               n(slowed_s) + " / " + n(work_s) + " = " + n(slowdown), {run.contention_seconds.as_input(), run.compute_work_seconds.as_input()});
    const double last_decode_end_ms = tr.timeline.compute.back().end_ms;
    const double stall_s = (last_decode_end_ms - tr.compute_busy_ms) / 1e3;
    run.stall_seconds = make_figure(pre + "stall_seconds", stall_s, "s", "(end of the last decode - compute busy time) / 1000: GPU idle between decodes",
                            "(" + n(last_decode_end_ms) + " - " + n(tr.compute_busy_ms) + ") / 1000 = " + n(stall_s), {run.compute_busy_seconds.as_input()});
    const double tail_s = (tr.wall_ms - last_decode_end_ms) / 1e3;
    run.tail_seconds = make_figure(pre + "tail_seconds", tail_s, "s", "(end of the last host stage - end of the last decode) / 1000",
                           "(" + n(tr.wall_ms) + " - " + n(last_decode_end_ms) + ") / 1000 = " + n(tail_s), {run.decode_seconds.as_input()});
    run.copy_busy_seconds = make_figure(pre + "copy_busy_seconds", tr.copy_busy_ms / 1e3, "s", "chunks x d2h_ms / 1000",
                                n(chunks) + " x " + n(*d2h.value) + " / 1000 = " + n(tr.copy_busy_ms / 1e3), {input("chunks", "", r.chunks), d2h.as_input()});
    run.host_busy_seconds = make_figure(pre + "host_busy_seconds", tr.host_busy_ms / 1e3, "s", "chunks x host_ms / 1000",
                                n(chunks) + " x " + n(r.host_ms.value) + " / 1000 = " + n(tr.host_busy_ms / 1e3),
                                {input("chunks", "", r.chunks), input("host_ms", "ms", r.host_ms)});
    if (r.video_seconds) {
        const double rtf = wall_s / r.video_seconds->value;
        run.rtf = make_figure(pre + "rtf", rtf, "decode s / video s", pre + "decode_seconds / video_seconds",
                      n(wall_s) + " / " + n(r.video_seconds->value) + " = " + n(rtf), {run.decode_seconds.as_input(), input("video_seconds", "s", *r.video_seconds)});
    }
    return run;
}

}  // namespace

double decode_d2h_ms(const DecodeSimRequest& r) {
    return chunk_bytes_of(r) / (r.link_gb_per_s.value * 1e9) * 1e3 + r.link_latency_us.value / 1e3;
}

Param default_decode_buffers() {
    return assumed(2, "default 2 buffer pairs: double buffering, 2 device + 2 pinned host buffers (docs/decode-pipeline.md)");
}
Param default_decode_channels() { return assumed(3, "default 3 channels: RGB frames"); }
Param default_decode_dtype_bytes() {
    return assumed(4, "default 4 bytes per value: fp32, what the Diffusers VAE decoder returns before conversion to uint8");
}
Param default_decode_contention() {
    return assumed(1.12, "default contention 1.12: fitted to the g7e.2xlarge case (docs/decode-pipeline.md, "
                         "\"Fitting to measurements\"); decode runs at 1/2.12 of its rate while a copy or host stage overlaps it");
}

void validate(const DecodeSimRequest& r) {
    check(r.chunks, "chunks", 1, true, true, kMaxDecodeChunks, "a whole number of chunks from 1 to 100000");
    check(r.frames_per_chunk, "frames_per_chunk", 1, true, true, 1e6, "a whole number of frames per chunk >= 1");
    check(r.height, "height", 1, true, true, 1e6, "a whole number of pixels >= 1");
    check(r.width, "width", 1, true, true, 1e6, "a whole number of pixels >= 1");
    check(r.channels, "channels", 1, true, true, 1e3, "a whole number of channels >= 1 (3 = RGB)");
    check(r.dtype_bytes, "dtype_bytes", 0, false, false, 64, "bytes per value above 0 (4 = fp32, 2 = fp16, 1 = uint8)");
    check(r.compute_ms, "compute_ms", 0, false, false, 1e9, "a finite number of milliseconds > 0");
    check(r.host_ms, "host_ms", 0, true, false, 1e9, "a finite number of milliseconds >= 0");
    check(r.link_gb_per_s, "link_gb_per_s", 0, false, false, 1e6, "a finite bandwidth in GB/s > 0");
    check(r.link_latency_us, "link_latency_us", 0, true, false, 1e9, "a finite latency in microseconds >= 0");
    check(r.buffers, "buffers", 1, true, true, kMaxDecodeBuffers, "a whole number of buffer pairs from 1 to 1024");
    check(r.contention, "contention", 0, true, false, kMaxDecodeContention, "a contention factor from 0 to 1000 (0 = none)");
    if (r.video_seconds) check(*r.video_seconds, "video_seconds", 0, false, false, 1e12, "a video duration in seconds > 0");
}

std::string_view to_string(DecodePipeline p) { return p == DecodePipeline::sync ? "sync" : "async"; }
std::string_view to_string(PipelineResource r) {
    switch (r) {
    case PipelineResource::compute: return "compute";
    case PipelineResource::copy: return "copy";
    case PipelineResource::host: return "host";
    }
    return "?";
}

const std::vector<Span>& DecodeTimeline::of(PipelineResource r) const {
    return r == PipelineResource::compute ? compute : r == PipelineResource::copy ? copy : host;
}

std::vector<Figure> PipelineRun::all() const {
    std::vector<Figure> v = {decode_seconds,       ms_per_chunk,  compute_busy_seconds, kernel_utilization, compute_work_seconds,
                             contention_seconds,   stall_seconds, tail_seconds,         compute_slowdown,   copy_busy_seconds,
                             host_busy_seconds};
    if (rtf) v.push_back(*rtf);
    return v;
}

std::vector<Figure> DecodeSimResult::all() const {
    std::vector<Figure> v = {frame_bytes, chunk_bytes, d2h_ms};
    for (const auto& f : sync.all()) v.push_back(f);
    for (const auto& f : async.all()) v.push_back(f);
    v.push_back(async_time_saving);
    v.push_back(async_first_order_seconds);
    return v;
}

DecodeSimResult simulate_decode(const DecodeSimRequest& r) {
    validate(r);
    DecodeSimResult out;
    const double fb = frame_bytes_of(r), cb = chunk_bytes_of(r), d2h = decode_d2h_ms(r);
    out.frame_bytes = make_figure("frame_bytes", fb, "bytes", "height x width x channels x dtype_bytes",
                          n(r.height.value) + " x " + n(r.width.value) + " x " + n(r.channels.value) + " x " + n(r.dtype_bytes.value) + " = " + n(fb),
                          {input("height", "px", r.height), input("width", "px", r.width), input("channels", "", r.channels),
                           input("dtype_bytes", "bytes", r.dtype_bytes)});
    out.chunk_bytes = make_figure("chunk_bytes", cb, "bytes", "frame_bytes x frames_per_chunk", n(fb) + " x " + n(r.frames_per_chunk.value) + " = " + n(cb),
                          {out.frame_bytes.as_input(), input("frames_per_chunk", "", r.frames_per_chunk)});
    out.d2h_ms = make_figure("d2h_ms", d2h, "ms", "chunk_bytes / (link_gb_per_s x 1e9) x 1000 + link_latency_us / 1000",
                     n(cb) + " / (" + n(r.link_gb_per_s.value) + " x 1e9) x 1000 + " + n(r.link_latency_us.value) + " / 1000 = " + n(d2h),
                     {out.chunk_bytes.as_input(), input("link_gb_per_s", "GB/s", r.link_gb_per_s), input("link_latency_us", "us", r.link_latency_us)});
    const Stages s = stages_of(r);
    out.sync = make_run(r, DecodePipeline::sync, run_events(s, 1), out.d2h_ms);
    out.async = make_run(r, DecodePipeline::async, run_events(s, gate_of(r)), out.d2h_ms);
    const double a = *out.async.decode_seconds.value, b = *out.sync.decode_seconds.value;
    out.async_time_saving = make_figure("async_time_saving", 1 - a / b, "fraction", "1 - async_decode_seconds / sync_decode_seconds",
                                "1 - " + n(a) + " / " + n(b) + " = " + n(1 - a / b), {out.async.decode_seconds.as_input(), out.sync.decode_seconds.as_input()});
    // The closed form the simulation must agree with when the decode is the bottleneck.
    const double stall = d2h + r.host_ms.value, c = r.contention.value, chunks = r.chunks.value;
    Figure& fo = out.async_first_order_seconds;
    fo.name = "async_first_order_seconds";
    fo.unit = "s";
    fo.formula = "(chunks x compute_ms + (chunks - 1) x (d2h_ms + host_ms) x c / (1 + c) + d2h_ms + host_ms) / 1000, valid when compute_ms >= "
                 "d2h_ms + host_ms and buffers >= 2";
    fo.inputs = {input("chunks", "", r.chunks), input("compute_ms", "ms", r.compute_ms), out.d2h_ms.as_input(), input("host_ms", "ms", r.host_ms),
                 input("contention", "", r.contention), input("buffers", "", r.buffers)};
    if (r.compute_ms.value >= stall && r.buffers.value >= 2) {
        const double v = (chunks * r.compute_ms.value + (chunks - 1) * stall * c / (1 + c) + stall) / 1e3;
        fo.value = v;
        fo.worked = "(" + n(chunks) + " x " + n(r.compute_ms.value) + " + " + n(chunks - 1) + " x " + n(stall) + " x " + n(c) + " / " + n(1 + c) +
                    " + " + n(stall) + ") / 1000 = " + n(v);
    } else {
        fo.unknown_reason = r.buffers.value < 2 ? "one buffer pair: nothing overlaps" : "the copy and host stage outlast the decode: not compute-bound";
    }
    return out;
}

AsyncOutcome simulate_async_only(const DecodeSimRequest& r) {
    validate(r);
    const Trace tr = run_events(stages_of(r), gate_of(r));
    return {tr.wall_ms / 1e3, tr.compute_busy_ms / tr.wall_ms};
}

nlohmann::json to_json(const DecodeTimeline& t) {
    nlohmann::json out = nlohmann::json::object();
    for (PipelineResource res : {PipelineResource::compute, PipelineResource::copy, PipelineResource::host}) {
        nlohmann::json rows = nlohmann::json::array();
        const auto& spans = t.of(res);
        for (std::size_t i = 0; i < spans.size(); ++i)
            rows.push_back({{"chunk", i}, {"start_ms", spans[i].start_ms}, {"end_ms", spans[i].end_ms}});
        out[std::string(to_string(res))] = rows;
    }
    return out;
}

}  // namespace gpuplan
