// simulate_cmd.cpp — `gpuplan simulate decode`: the chunked video decode pipeline, synchronous
// and N-buffer asynchronous, simulated side by side (core/gpuplan/decode, docs/decode-pipeline.md).
//
// Inputs come from flags or from a scenario's "decode" section (--scenario); stage durations
// are given, or fitted to measured times and utilisations (--fit-*) or to a `gpuplan bench
// decode` results file (--fit-bench). The output: both pipelines' time per video, kernel
// utilisation, RTF and where the time goes; the fit and how close it lands; the cost per hour
// of video for every purchase option of the instance and the saving per 1,000 video hours;
// with --gantt, an ASCII Gantt chart of the first chunks.
#include <algorithm>
#include "gpuplan/formula_text.hpp"
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "decode_report_view.hpp"
#include "gpuplan/decode/decode_plan.hpp"
#include "gpuplan/scenario/scenario.hpp"

namespace gpuplan::cli {

namespace {

struct SimulateOptions {
    std::string scenario, instance, region = "us-east-1", bench_file;
    double chunks = 0, frames = 0, height = 0, width = 0, channels = 0, dtype_bytes = 0;
    double compute_ms = 0, host_ms = 0, buffers = 0, contention = 0, link = 0, latency_us = 0;
    double video_seconds = 0, sync_rtf = 0, usd_per_hour = 0;
    double fit_sync_s = 0, fit_async_s = 0, fit_sync_util = 0, fit_async_util = 0;
    bool gantt = false, explain = false;
    double gantt_chunks = 3;
    Format format = Format::table;
    CLI::App* app = nullptr;
    bool given(const char* flag) const { return app->count(flag) > 0; }
};

// Core fields ("decode.chunks") named as the flags that set them.
const std::vector<std::pair<std::string, std::string>> kSimulateFlagOf = {
    {"decode.chunks", "--chunks"},
    {"decode.frames_per_chunk", "--frames-per-chunk"},
    {"decode.height", "--height"},
    {"decode.width", "--width"},
    {"decode.channels", "--channels"},
    {"decode.dtype_bytes", "--dtype-bytes"},
    {"decode.compute_ms", "--compute-ms"},
    {"decode.host_ms", "--host-ms"},
    {"decode.buffers", "--buffers"},
    {"decode.contention", "--contention"},
    {"decode.link_gb_per_s", "--link-gb-per-s"},
    {"decode.link_latency_us", "--link-latency-us"},
    {"decode.video_seconds", "--video-seconds"},
    {"decode.sync_rtf", "--sync-rtf"},
    {"decode.usd_per_hour", "--usd-per-hour"},
    {"decode.instance", "--instance"},
    {"decode.fit", "--fit-bench / --fit-*"},
    {"fit.sync_seconds", "--fit-sync-s"},
    {"fit.async_seconds", "--fit-async-s"},
    {"fit.sync_utilization", "--fit-sync-util"},
    {"fit.async_utilization", "--fit-async-util"},
};

DecodeRequest request_from_flags(const SimulateOptions& o, const Catalog& catalog) {
    const auto user = [](double v) { return Param{v, InputOrigin::user, ""}; };
    DecodeRequest q;
    q.region = o.region;
    if (o.given("--instance")) q.instance = require_instance(catalog, o.instance, "--instance").name;
    const auto set = [&](const char* flag, std::optional<Param>& slot, double v) {
        if (o.given(flag)) slot = user(v);
    };
    set("--chunks", q.chunks, o.chunks);
    set("--frames-per-chunk", q.frames_per_chunk, o.frames);
    set("--height", q.height, o.height);
    set("--width", q.width, o.width);
    set("--channels", q.channels, o.channels);
    set("--dtype-bytes", q.dtype_bytes, o.dtype_bytes);
    set("--compute-ms", q.compute_ms, o.compute_ms);
    set("--host-ms", q.host_ms, o.host_ms);
    set("--buffers", q.buffers, o.buffers);
    set("--contention", q.contention, o.contention);
    if (o.given("--link-gb-per-s")) q.link_gb_per_s = measured_param(o.link, "device-to-host bandwidth (--link-gb-per-s)");
    set("--link-latency-us", q.link_latency_us, o.latency_us);
    set("--video-seconds", q.video_seconds, o.video_seconds);
    set("--sync-rtf", q.sync_rtf, o.sync_rtf);
    set("--usd-per-hour", q.usd_per_hour, o.usd_per_hour);
    if (o.given("--fit-sync-s"))
        q.fit = DecodeMeasurement{user(o.fit_sync_s), user(o.fit_async_s), user(o.fit_sync_util), user(o.fit_async_util), "the measurements given (--fit-*)"};
    if (o.given("--fit-bench")) q.bench = parse_bench_results(read_input_file(o.bench_file, "--fit-bench"), o.bench_file);
    return q;
}

// ---- text output -----------------------------------------------------------------------------

// One row per resource per pipeline; a column shows the chunk that occupies most of it.
std::string run_simulate_decode(const Catalog& catalog, const SimulateOptions& o) {
    DecodeReport report;
    if (o.given("--scenario")) {
        const Scenario s = parse_scenario(read_input_file(o.scenario, "--scenario"), o.scenario, catalog);
        if (!s.decode) throw InputError("--scenario", "'" + o.scenario + "'", "a scenario with a \"decode\" section (docs/decode-pipeline.md)");
        report = evaluate_decode(catalog, *s.decode);
    } else {
        require_region(catalog, o.region, "--region");
        try {
            report = evaluate_decode(catalog, request_from_flags(o, catalog));
        } catch (const InputError& e) {
            rethrow_for_flag(e, kSimulateFlagOf);
        }
    }
    if (o.format == Format::json) return dump_json(to_json(report));
    std::string out = decode_report_text(report, catalog, o.gantt ? static_cast<std::size_t>(o.gantt_chunks) : 0);
    if (o.explain) out += explain_all(decode_report_figures(report));
    return out;
}

}  // namespace

Command register_simulate(CLI::App& parent) {
    auto o = std::make_shared<SimulateOptions>();
    CLI::App* sim = parent.add_subcommand("simulate", "Simulate a GPU pipeline before building it (decode: chunked video decode, sync vs async)");
    // No require_subcommand: a bare `gpuplan simulate` gets a message naming what it could simulate.
    sim->footer("Run `gpuplan simulate decode --help` for the decode pipeline's options; the model: docs/decode-pipeline.md.");
    CLI::App* app = sim->add_subcommand("decode", "Chunked video decode: synchronous vs N-buffer asynchronous pipeline, fitted to measurements, "
                                                  "with the cost per hour of video");
    app->fallthrough();  // --catalog after `decode` belongs to `simulate`
    o->app = app;
    CLI::Option* scenario = app->add_option("--scenario", o->scenario, "Scenario file with a \"decode\" section (gpuplan.scenario/1)")->type_name("FILE");
    std::vector<CLI::Option*> inputs;
    const auto num = [&](const char* flag, double& slot, const std::string& help, CLI::Validator rule) {
        CLI::Option* opt = app->add_option(flag, slot, help)->check(rule);
        inputs.push_back(opt);
        return opt;
    };
    inputs.push_back(app->add_option("--instance", o->instance, "Instance type: its GPU-host PCIe link and its purchase options")->type_name("TYPE"));
    inputs.push_back(add_region_option(*app, o->region));
    CLI::Option* chunks = num("--chunks", o->chunks, "Chunks per video", whole_rule(1));
    CLI::Option* frames = num("--frames-per-chunk", o->frames, "Pixel frames per chunk", whole_rule(1));
    CLI::Option* height = num("--height", o->height, "Frame height in pixels", whole_rule(1));
    CLI::Option* width = num("--width", o->width, "Frame width in pixels", whole_rule(1));
    CLI::Option* channels = num("--channels", o->channels, "Channels per pixel (default 3, RGB)", whole_rule(1));
    CLI::Option* dtype = num("--dtype-bytes", o->dtype_bytes, "Bytes per value copied to the host (default 4, fp32; 2 fp16, 1 uint8)",
                             number_rule(NumberRule::positive));
    CLI::Option* compute = num("--compute-ms", o->compute_ms, "Decode time of one chunk with nothing beside it, ms", number_rule(NumberRule::positive));
    CLI::Option* host = num("--host-ms", o->host_ms, "Host stage of one chunk (conversion + write), ms", number_rule(NumberRule::non_negative));
    CLI::Option* buffers = num("--buffers", o->buffers, "Buffer pairs of the asynchronous pipeline (default 2)", whole_rule(1));
    CLI::Option* contention = num("--contention", o->contention,
                                  "Decode slowdown while a copy or host stage overlaps it: rate 1/(1 + c) (default " +
                                      n(default_decode_contention().value) + ", fitted to the g7e.2xlarge case)",
                                  number_rule(NumberRule::non_negative));
    CLI::Option* link = num("--link-gb-per-s", o->link, "Measured device-to-host bandwidth, GB/s (default: the instance's PCIe figure)",
                            number_rule(NumberRule::positive));
    num("--link-latency-us", o->latency_us, "Fixed cost of one copy, us (default: the instance's PCIe latency)", number_rule(NumberRule::non_negative));
    CLI::Option* video = num("--video-seconds", o->video_seconds, "Duration of the decoded video, s (for the RTF and the cost)",
                             number_rule(NumberRule::positive));
    num("--sync-rtf", o->sync_rtf, "Or: the synchronous RTF; duration = sync seconds (measured when fitting) / this", number_rule(NumberRule::positive))
        ->excludes(video);
    num("--usd-per-hour", o->usd_per_hour, "A price to cost beside the instance's purchase options, USD/h", number_rule(NumberRule::positive));
    CLI::Option* fs = num("--fit-sync-s", o->fit_sync_s, "Fit: measured synchronous seconds per video", number_rule(NumberRule::positive));
    CLI::Option* fa = num("--fit-async-s", o->fit_async_s, "Fit: measured asynchronous seconds per video", number_rule(NumberRule::positive));
    CLI::Option* fsu = num("--fit-sync-util", o->fit_sync_util, "Fit: measured synchronous kernel utilisation (0.82 = 82%)", number_rule(NumberRule::fraction));
    CLI::Option* fau = num("--fit-async-util", o->fit_async_util, "Fit: measured asynchronous kernel utilisation", number_rule(NumberRule::fraction));
    CLI::Option* bench = app->add_option("--fit-bench", o->bench_file, "Fit to a `gpuplan bench decode` results file (gpuplan.bench/1); it also gives the video")
                             ->type_name("FILE");
    inputs.push_back(bench);
    const std::vector<CLI::Option*> fit = {fs, fa, fsu, fau};
    for (CLI::Option* a : fit)
        for (CLI::Option* b : fit)
            if (a != b) a->needs(b);
    for (CLI::Option* f : fit) {
        f->excludes(bench);
        for (CLI::Option* stage : {compute, host, contention}) f->excludes(stage);
    }
    for (CLI::Option* x : {chunks, frames, height, width, channels, dtype, compute, host, contention, buffers}) bench->excludes(x);
    (void)link;
    for (CLI::Option* x : inputs) scenario->excludes(x);
    app->add_flag("--gantt", o->gantt, "Add an ASCII Gantt chart of the first chunks of both pipelines");
    app->add_option("--gantt-chunks", o->gantt_chunks, "Chunks in the Gantt chart")->capture_default_str()->check(whole_rule(1));
    app->add_flag("--explain", o->explain, "After the tables, show each figure's formula, worked line and inputs with their origins");
    add_format_option(*app, o->format, {Format::table, Format::json});
    app->footer(R"(Synchronous: decode chunk i -> copy it to the host -> host stage (convert, write) -> chunk i+1, one
stream. Asynchronous: a compute stream, a copy stream, N device + N pinned host buffers, events
between them and a writer thread; decode i waits until the writer released buffer i mod N.
While a copy or host stage overlaps a decode, the decode runs at 1/(1 + contention) of its rate.
Both are simulated event by event (docs/decode-pipeline.md). With --fit-* or --fit-bench, the
compute and host times come from the synchronous run and the contention from the asynchronous
one; the output shows how close the fitted simulation lands on all four measurements.
Cost: usd_per_hour x RTF per purchase option; saving per 1,000 video hours = 1000 x (RTF sync -
RTF async) x usd_per_hour. Figures marked "*" rest on a documented default.
Examples:
  gpuplan simulate decode --instance g7e.2xlarge --region us-east-2 --chunks 41 --frames-per-chunk 4 --height 720 --width 1280 \
    --fit-sync-s 21.99 --fit-async-s 20.17 --fit-sync-util 0.82 --fit-async-util 0.999 --sync-rtf 3.21 --usd-per-hour 3.36 --gantt
  gpuplan simulate decode --instance g6e.xlarge --chunks 21 --frames-per-chunk 4 --height 1080 --width 1920 --compute-ms 900 --host-ms 150 --video-seconds 5
  gpuplan simulate decode --scenario assets/scenarios/d1-decode-g7e.json --json
  gpuplan simulate decode --fit-bench bench-decode.json --sync-rtf 3.21)" "\n\n" + std::string(kExitCodes));
    return {sim, [o](const Catalog& c) {
                if (!o->app->parsed())
                    throw InputError("simulate: a subcommand is required: decode (see `gpuplan simulate decode --help`)");
                return run_simulate_decode(c, *o);
            }};
}

}  // namespace gpuplan::cli
