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
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
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
const std::vector<std::pair<std::string, std::string>> kFlagOf = {
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

double val(const Figure& f) { return f.value.value_or(NAN); }
std::string n(double x) { return format_number(x); }
std::string sig(double x, int digits) { return x == 0 ? std::string("0") : fmt::format("{:.{}g}", x, digits); }
std::string secs(double s) { return decimals(s, std::fabs(s) < 1 ? 4 : 3); }
std::string ms(double v) { return decimals(v, std::fabs(v) < 10 ? 3 : 2); }
// "+1.25%", "-0.38 points"; a difference that rounds to zero shows as "0.00%" (no sign).
std::string signed_percent(double fraction) {
    if (std::fabs(fraction) < 5e-5) return "0.00%";
    return (fraction > 0 ? "+" : "") + percent(fraction);
}
std::string signed_points(double p) {
    if (std::fabs(p) < 5e-3) return "0.00 points";
    return (p > 0 ? "+" : "") + decimals(p, 2) + " points";
}

bool fitted(const Param& p) { return p.source.rfind("fitted", 0) == 0; }
std::string origin_tag(const Param& p) {
    if (fitted(p)) return " (fitted)";
    if (p.source.rfind("measured", 0) == 0) return " (measured)";
    if (p.origin == InputOrigin::assumption) return "*";
    return "";
}

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
    if (o.given("--link-gb-per-s")) q.link_gb_per_s = measured(o.link, "device-to-host bandwidth (--link-gb-per-s)");
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
std::string gantt(const DecodeReport& r, std::size_t chunks) {
    const DecodeTimeline& st = r.sim.sync.timeline;
    chunks = std::min(chunks, st.compute.size());
    if (chunks == 0) return "";
    const double end_ms = st.host[chunks - 1].end_ms;  // the synchronous pipeline is the longer
    constexpr int kWidth = 72;
    const double step = end_ms / kWidth;
    std::string out = "Gantt of the first " + std::to_string(chunks) + " chunk" + (chunks == 1 ? "" : "s") + " (one column = " + ms(step) +
                      " ms; digits are chunk numbers mod 10, '.' idle; a column shows the chunk that fills most of it):\n";
    for (const PipelineRun* run : {&r.sim.sync, &r.sim.async}) {
        const std::string name = run->pipeline == DecodePipeline::sync ? "sync" : "async";
        for (PipelineResource res : {PipelineResource::compute, PipelineResource::copy, PipelineResource::host}) {
            const auto& spans = run->timeline.of(res);
            std::string row(kWidth, '.');
            for (int col = 0; col < kWidth; ++col) {
                const double a = col * step, b = a + step;
                double best = 0;
                for (std::size_t i = 0; i < chunks; ++i) {
                    const double overlap = std::min(b, spans[i].end_ms) - std::max(a, spans[i].start_ms);
                    if (overlap > best) best = overlap, row[col] = static_cast<char>('0' + i % 10);
                }
            }
            out += fmt::format("  {:<6}{:<8}|{}|\n", res == PipelineResource::compute ? name : "", to_string(res), row);
        }
    }
    out += fmt::format("  {:<14}0{:>{}}\n", "", ms(end_ms) + " ms", kWidth);
    return out;
}

std::string render(const DecodeReport& r, const SimulateOptions& o, const Catalog& catalog) {
    const DecodeSimRequest& in = r.inputs;
    const DecodeSimResult& sim = r.sim;
    std::string out = "Decode pipeline";
    if (!r.instance.empty()) {
        const Instance* inst = catalog.find_instance(r.instance);
        out += " on " + r.instance;
        if (inst && inst->accelerator) out += " (" + n(inst->accelerator_count.value_or(1)) + " x " + *inst->accelerator + ")";
        out += " in " + r.region;
    }
    out += "\n";
    if (!r.bench_summary.empty()) out += "calibrated on: " + r.bench_summary + "\n";
    out += "video: " + n(in.chunks.value) + " chunks x " + n(in.frames_per_chunk.value) + " frames of " + n(in.width.value) + "x" + n(in.height.value) + "x" +
           n(in.channels.value) + origin_tag(in.channels) + " at " + n(in.dtype_bytes.value) + origin_tag(in.dtype_bytes) + " bytes = " +
           decimals(val(sim.chunk_bytes) / 1e6, 2) + " MB per chunk\n";
    out += "link: " + r.link_description + origin_tag(in.link_gb_per_s) + ", " + n(in.link_latency_us.value) + " us per copy" +
           origin_tag(in.link_latency_us) + "\n";
    out += "per chunk: compute " + ms(in.compute_ms.value) + " ms" + origin_tag(in.compute_ms) + ", D2H " + ms(val(sim.d2h_ms)) + " ms, host stage " +
           ms(in.host_ms.value) + " ms" + origin_tag(in.host_ms) + "; contention " + sig(in.contention.value, 5) + origin_tag(in.contention) +
           " (decode at 1/" + sig(1 + in.contention.value, 5) + " of its rate while a copy or host stage overlaps it); " + n(in.buffers.value) +
           " buffer pair" + (in.buffers.value == 1 ? "" : "s") + origin_tag(in.buffers) + "\n\n";

    Table t;
    t.columns = {{"per video", "figure", false}, {"synchronous", "sync"}, {"asynchronous (" + n(in.buffers.value) + " buffers)", "async"}};
    const auto row = [&](std::string label, const Figure& s, const Figure& a, std::string (*f)(double)) {
        t.rows.push_back({text_cell(std::move(label)), {f(val(s)), full_precision(val(s))}, {f(val(a)), full_precision(val(a))}});
    };
    row("seconds per video", sim.sync.decode_seconds, sim.async.decode_seconds, secs);
    row("ms per chunk", sim.sync.ms_per_chunk, sim.async.ms_per_chunk, ms);
    row("kernel utilisation", sim.sync.kernel_utilization, sim.async.kernel_utilization, percent);
    if (sim.sync.rtf && sim.async.rtf) row("RTF (decode s / video s)", *sim.sync.rtf, *sim.async.rtf, [](double x) { return decimals(x, 4); });
    t.rows.push_back({text_cell("where the time goes (s):"), text_cell(""), text_cell("")});
    row("  decode work, uncontended", sim.sync.compute_work_seconds, sim.async.compute_work_seconds, secs);
    row("  decode slowed by contention", sim.sync.contention_seconds, sim.async.contention_seconds, secs);
    row("  GPU idle between decodes", sim.sync.stall_seconds, sim.async.stall_seconds, secs);
    row("  after the last decode", sim.sync.tail_seconds, sim.async.tail_seconds, secs);
    row("copy engine busy (s)", sim.sync.copy_busy_seconds, sim.async.copy_busy_seconds, secs);
    row("host stage busy (s)", sim.sync.host_busy_seconds, sim.async.host_busy_seconds, secs);
    row("decode slowdown (busy / work - 1)", sim.sync.compute_slowdown, sim.async.compute_slowdown, percent);
    out += render_text_table(t);
    out += "\nasynchronous: " + percent(val(sim.async_time_saving)) + " less time per video than synchronous";
    if (sim.async_first_order_seconds.value)
        out += " (first-order check: " + secs(val(sim.async_first_order_seconds)) + " s asynchronous)";
    out += ".\n";

    if (r.fit && r.measured) {
        const DecodeFit& f = *r.fit;
        const DecodeMeasurement& m = *r.measured;
        out += "\nfit to " + m.source + ":\n";
        Table ft;
        ft.columns = {{"measurement", "figure", false}, {"measured", "measured"}, {"simulated", "simulated"}, {"difference", "difference"}};
        ft.rows.push_back({text_cell("sync seconds per video"), text_cell(secs(m.sync_seconds.value)), text_cell(secs(val(sim.sync.decode_seconds))),
                           text_cell(signed_percent(val(f.sync_seconds_error)))});
        ft.rows.push_back({text_cell("async seconds per video"), text_cell(secs(m.async_seconds.value)), text_cell(secs(val(sim.async.decode_seconds))),
                           text_cell(signed_percent(val(f.async_seconds_error)))});
        ft.rows.push_back({text_cell("sync kernel utilisation"), text_cell(percent(m.sync_utilization.value)),
                           text_cell(percent(val(sim.sync.kernel_utilization))), text_cell(signed_points(val(f.sync_utilization_error_points)))});
        ft.rows.push_back({text_cell("async kernel utilisation"), text_cell(percent(m.async_utilization.value)),
                           text_cell(percent(val(sim.async.kernel_utilization))), text_cell(signed_points(val(f.async_utilization_error_points)))});
        out += render_text_table(ft);
        out += "fitted: compute " + ms(val(f.compute_ms)) + " ms per chunk, host stage " + ms(val(f.host_ms)) + " ms per chunk, contention " +
               sig(val(f.contention), 5) + " (D2H " + ms(val(sim.d2h_ms)) + " ms kept from the link)\n";
        out += std::string("within 1% (times) and 1 point (utilisations): ") + (f.within_tolerance ? "yes" : "no") + "\n";
        const double free_s = val(f.contention_free_async_seconds);
        out += "without contention the same stages give " + secs(free_s) + " s asynchronously (" +
               percent(1 - free_s / m.sync_seconds.value) + " faster than measured sync; measured " + percent(1 - m.async_seconds.value / m.sync_seconds.value) +
               ").\n";
    }
    if (!r.bench_checks.empty()) {
        out += "\nbench records beside the fitted simulation:\n";
        Table bt;
        bt.columns = {{"case", "case", false}, {"buffers", "buffers"}, {"measured s", "measured"}, {"simulated s", "simulated"}, {"difference", "diff"},
                      {"measured util", "mu"}, {"simulated util", "su"}};
        for (const auto& c : r.bench_checks)
            bt.rows.push_back({text_cell(c.case_name), text_cell(n(c.buffers)), text_cell(secs(c.measured_seconds)), text_cell(secs(c.simulated_seconds)),
                               text_cell(signed_percent(c.simulated_seconds / c.measured_seconds - 1)),
                               text_cell(c.measured_utilization ? percent(*c.measured_utilization) : std::string(kUnknown)),
                               text_cell(percent(c.simulated_utilization))});
        out += render_text_table(bt);
    }

    if (r.cost && r.video_seconds) {
        const DecodeCost& c = *r.cost;
        out += "\ncost per hour of video (video " + secs(val(*r.video_seconds)) + " s: " + r.video_seconds->formula + " = " + r.video_seconds->worked +
               "), from the simulated times:\n";
        Table ct;
        ct.columns = {{"purchase option", "option", false}, {"$/h", "usd_per_hour"}, {"sync $/video-h", "sync"}, {"async $/video-h", "async"},
                      {"saving per 1,000 video-h", "saving"}};
        for (const auto& opt : c.options) {
            if (!opt.available) {
                ct.rows.push_back({text_cell(opt.label), text_cell(std::string(missing_text(opt.unavailable_reason))), none_cell(), none_cell(), none_cell()});
                continue;
            }
            const bool star = opt.usd_per_hour.rests_on_assumption();
            ct.rows.push_back({text_cell(opt.label), figure_cell(opt.usd_per_hour, rate, star), figure_cell(opt.sync_usd_per_video_hour, money, star),
                               figure_cell(opt.async_usd_per_video_hour, money, star), figure_cell(opt.saving_usd_per_1000_video_hours, money, star)});
        }
        out += render_text_table(ct);
        out += "RTF " + decimals(val(c.rtf_sync), 4) + " → " + decimals(val(c.rtf_async), 4) + ": " + quantity(val(c.gpu_hours_per_1000_video_hours_sync)) +
               " → " + quantity(val(c.gpu_hours_per_1000_video_hours_async)) + " GPU-hours per 1,000 hours of video.\n";
        if (r.measured_cost) {
            const DecodeCost& mc = *r.measured_cost;
            std::vector<std::string> savings;
            for (const auto& opt : mc.options)
                if (opt.available && (opt.key == "given" || opt.key == "on-demand"))
                    savings.push_back(money(val(opt.saving_usd_per_1000_video_hours)) + " (" + opt.label + " " + rate(val(opt.usd_per_hour)) + "/h)");
            out += "from the measured times: RTF " + decimals(val(mc.rtf_sync), 4) + " → " + decimals(val(mc.rtf_async), 4) +
                   (savings.empty() ? std::string(".") : ", saving per 1,000 hours of video " + join(savings, ", ") + ".") + "\n";
        }
    }
    for (const auto& note : r.notes) out += "note: " + note + "\n";
    if (o.gantt) out += "\n" + gantt(r, static_cast<std::size_t>(o.gantt_chunks));

    std::vector<std::string> defaults;
    if (in.link_gb_per_s.origin == InputOrigin::assumption) defaults.push_back("--link-gb-per-s (PCIe efficiency default, docs/models.md)");
    if (in.contention.origin == InputOrigin::assumption) defaults.push_back("--contention (fitted to the g7e.2xlarge case)");
    if (in.buffers.origin == InputOrigin::assumption) defaults.push_back("--buffers");
    if (in.channels.origin == InputOrigin::assumption) defaults.push_back("--channels");
    if (in.dtype_bytes.origin == InputOrigin::assumption) defaults.push_back("--dtype-bytes");
    if (!defaults.empty()) out += "\n* a documented default (docs/decode-pipeline.md); override with " + join(defaults, ", ") + ".\n";
    return out;
}

NamedFigures named_figures(const DecodeReport& r) {
    NamedFigures named;
    for (const Figure& f : r.sim.all()) named.emplace_back(f.name, figure_json(f));
    if (r.fit)
        for (const Figure& f : r.fit->all()) named.emplace_back(f.name, figure_json(f));
    if (r.video_seconds) named.emplace_back("video_seconds", figure_json(*r.video_seconds));
    for (const DecodeCost* c : {r.cost ? &*r.cost : nullptr, r.measured_cost ? &*r.measured_cost : nullptr}) {
        if (!c) continue;
        for (const Figure* f : {&c->rtf_sync, &c->rtf_async}) named.emplace_back(c->basis + "." + f->name, figure_json(*f));
        for (const auto& opt : c->options)
            if (opt.available)
                for (const Figure* f : {&opt.sync_usd_per_video_hour, &opt.async_usd_per_video_hour, &opt.saving_usd_per_1000_video_hours})
                    named.emplace_back(c->basis + "." + opt.key + "." + f->name, figure_json(*f));
    }
    return named;
}

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
            rethrow_for_flag(e, kFlagOf);
        }
    }
    if (o.format == Format::json) return dump_json(to_json(report));
    std::string out = render(report, o, catalog);
    if (o.explain) out += explain_all(named_figures(report));
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
