// decode_report_view.cpp — the text of a decode-pipeline report (decode_report_view.hpp).
#include "decode_report_view.hpp"
#include "gpuplan/formula_text.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace gpuplan::cli {

namespace {

std::string sig(double x, int digits) { return x == 0 ? std::string("0") : fmt::format("{:.{}g}", x, digits); }
std::string seconds_text(double s) { return decimals(s, std::fabs(s) < 1 ? 4 : 3); }
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
    if (p.origin == InputOrigin::measured) return " (measured)";
    if (p.origin == InputOrigin::assumption) return "*";
    return "";
}

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

}  // namespace

std::string decode_report_text(const DecodeReport& r, const Catalog& catalog, std::size_t gantt_chunks) {
    const DecodeSimRequest& in = r.inputs;
    const DecodeSimResult& sim = r.sim;
    std::string out = "Video decode pipeline";
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
    row("seconds per video", sim.sync.decode_seconds, sim.async.decode_seconds, seconds_text);
    row("ms per chunk", sim.sync.ms_per_chunk, sim.async.ms_per_chunk, ms);
    row("kernel utilisation", sim.sync.kernel_utilization, sim.async.kernel_utilization, percent);
    if (sim.sync.rtf && sim.async.rtf) row("RTF (decode s / video s)", *sim.sync.rtf, *sim.async.rtf, [](double x) { return decimals(x, 4); });
    t.rows.push_back({text_cell("where the time goes (s):"), text_cell(""), text_cell("")});
    row("  decode work, uncontended", sim.sync.compute_work_seconds, sim.async.compute_work_seconds, seconds_text);
    row("  decode slowed by contention", sim.sync.contention_seconds, sim.async.contention_seconds, seconds_text);
    row("  GPU idle between decodes", sim.sync.stall_seconds, sim.async.stall_seconds, seconds_text);
    row("  after the last decode", sim.sync.tail_seconds, sim.async.tail_seconds, seconds_text);
    row("copy engine busy (s)", sim.sync.copy_busy_seconds, sim.async.copy_busy_seconds, seconds_text);
    row("host stage busy (s)", sim.sync.host_busy_seconds, sim.async.host_busy_seconds, seconds_text);
    row("decode slowdown (busy / work - 1)", sim.sync.compute_slowdown, sim.async.compute_slowdown, percent);
    out += render_text_table(t);
    out += "\nasynchronous: " + percent(val(sim.async_time_saving)) + " less time per video than synchronous";
    if (sim.async_first_order_seconds.value)
        out += " (first-order check: " + seconds_text(val(sim.async_first_order_seconds)) + " s asynchronous)";
    out += ".\n";

    if (r.fit && r.measured) {
        const DecodeFit& f = *r.fit;
        const DecodeMeasurement& m = *r.measured;
        out += "\nfit to " + m.source + ":\n";
        Table ft;
        ft.columns = {{"measurement", "figure", false}, {"measured", "measured"}, {"simulated", "simulated"}, {"difference", "difference"}};
        ft.rows.push_back({text_cell("sync seconds per video"), text_cell(seconds_text(m.sync_seconds.value)), text_cell(seconds_text(val(sim.sync.decode_seconds))),
                           text_cell(signed_percent(val(f.sync_seconds_error)))});
        ft.rows.push_back({text_cell("async seconds per video"), text_cell(seconds_text(m.async_seconds.value)), text_cell(seconds_text(val(sim.async.decode_seconds))),
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
        out += "without contention the same stages give " + seconds_text(free_s) + " s asynchronously (" +
               percent(1 - free_s / m.sync_seconds.value) + " faster than measured sync; measured " + percent(1 - m.async_seconds.value / m.sync_seconds.value) +
               ").\n";
    }
    if (!r.bench_checks.empty()) {
        out += "\nbench records beside the fitted simulation:\n";
        Table bt;
        bt.columns = {{"case", "case", false}, {"buffers", "buffers"}, {"measured s", "measured"}, {"simulated s", "simulated"}, {"difference", "diff"},
                      {"measured util", "mu"}, {"simulated util", "su"}};
        for (const auto& c : r.bench_checks)
            bt.rows.push_back({text_cell(c.case_name), text_cell(n(c.buffers)), text_cell(seconds_text(c.measured_seconds)), text_cell(seconds_text(c.simulated_seconds)),
                               text_cell(signed_percent(c.simulated_seconds / c.measured_seconds - 1)),
                               text_cell(c.measured_utilization ? percent(*c.measured_utilization) : std::string(kUnknown)),
                               text_cell(percent(c.simulated_utilization))});
        out += render_text_table(bt);
    }

    if (r.cost && r.video_seconds) {
        const DecodeCost& c = *r.cost;
        out += "\ncost per hour of video (video " + seconds_text(val(*r.video_seconds)) + " s: " + r.video_seconds->formula + " = " + r.video_seconds->worked +
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
    if (gantt_chunks > 0) out += "\n" + gantt(r, gantt_chunks);

    std::vector<std::string> defaults;
    if (in.link_gb_per_s.origin == InputOrigin::assumption) defaults.push_back("--link-gb-per-s (PCIe efficiency default, docs/models.md)");
    if (in.contention.origin == InputOrigin::assumption) defaults.push_back("--contention (fitted to the g7e.2xlarge case)");
    if (in.buffers.origin == InputOrigin::assumption) defaults.push_back("--buffers");
    if (in.channels.origin == InputOrigin::assumption) defaults.push_back("--channels");
    if (in.dtype_bytes.origin == InputOrigin::assumption) defaults.push_back("--dtype-bytes");
    if (!defaults.empty()) out += "\n* a documented default (docs/decode-pipeline.md); override with " + join(defaults, ", ") + ".\n";
    return out;
}

NamedFigures decode_report_figures(const DecodeReport& r) {
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

}  // namespace gpuplan::cli
