// decode_fit.cpp — closed form for the synchronous stages, bisection for the contention.
#include "gpuplan/decode/decode_fit.hpp"
#include "gpuplan/formula_text.hpp"

#include <cmath>

#include "gpuplan/input_error.hpp"

namespace gpuplan {

namespace {

void check(const Param& p, const char* field, bool fraction) {
    const bool ok = std::isfinite(p.value) && p.value > 0 && (!fraction || p.value <= 1) && p.value < 1e12;
    if (!ok)
        throw InputError(std::string("fit.") + field, std::isfinite(p.value) ? n(p.value) : std::string(std::isnan(p.value) ? "nan" : "inf"),
                         fraction ? "a kernel utilisation above 0 and at most 1 (0.82 = 82%)" : "a finite number of seconds per video > 0");
}

}  // namespace

void validate(const DecodeMeasurement& m) {
    check(m.sync_seconds, "sync_seconds", false);
    check(m.async_seconds, "async_seconds", false);
    check(m.sync_utilization, "sync_utilization", true);
    check(m.async_utilization, "async_utilization", true);
}

std::vector<Figure> DecodeFit::all() const {
    return {compute_ms,         host_ms,           contention, contention_free_async_seconds, sync_seconds_error, async_seconds_error,
            sync_utilization_error_points, async_utilization_error_points};
}

namespace {

// 1. The synchronous pipeline has no overlap: its two measurements give compute and host.
void fit_sync_stages(const DecodeMeasurement& m, double d2h, const FigureInput& d2h_in, const std::string& fitted_to, DecodeSimRequest& r, DecodeFit& out) {
    const double chunks = r.chunks.value;
    const double per_chunk = m.sync_seconds.value * 1e3 / chunks;
    const double compute = m.sync_utilization.value * per_chunk;
    const double host = per_chunk - compute - d2h;
    if (host < 0)
        throw InputError("fit.sync_utilization", n(m.sync_utilization.value),
                         "a utilisation that leaves each chunk at least its D2H copy: (1 - " + n(m.sync_utilization.value) + ") x " + n(per_chunk) +
                             " ms = " + n(per_chunk - compute) + " ms of stall per chunk is less than the " + n(d2h) +
                             " ms copy the link gives (give a measured --link-gb-per-s, or check the measurements)");
    out.compute_ms = make_figure("fitted_compute_ms", compute, "ms", "sync_utilization x sync_seconds x 1000 / chunks",
                         n(m.sync_utilization.value) + " x " + n(m.sync_seconds.value) + " x 1000 / " + n(chunks) + " = " + n(compute),
                         {input("sync_utilization", "fraction", m.sync_utilization), input("sync_seconds", "s", m.sync_seconds), input("chunks", "", r.chunks)});
    out.host_ms = make_figure("fitted_host_ms", host, "ms", "sync_seconds x 1000 / chunks - fitted_compute_ms - d2h_ms",
                      n(m.sync_seconds.value) + " x 1000 / " + n(chunks) + " - " + n(compute) + " - " + n(d2h) + " = " + n(host),
                      {input("sync_seconds", "s", m.sync_seconds), input("chunks", "", r.chunks), out.compute_ms.as_input(), d2h_in});
    r.compute_ms = {compute, InputOrigin::derived, fitted_to + ": sync utilisation x sync time / chunks"};
    r.host_ms = {host, InputOrigin::derived, fitted_to + ": sync time / chunks - compute - D2H"};
}

// 2. The asynchronous time grows with the contention factor: bisect for the measured one.
void fit_contention(const DecodeMeasurement& m, const FigureInput& d2h_in, const std::string& fitted_to, DecodeSimRequest& r, DecodeFit& out) {
    const auto async_at = [&r](double c) {
        DecodeSimRequest q = r;
        q.contention.value = c;
        return simulate_async_only(q);
    };
    const double target = m.async_seconds.value;
    const AsyncOutcome free_run = async_at(0);
    double c = 0;
    int halvings = 0;
    if (target <= free_run.decode_seconds) {
        out.notes.push_back("the measured asynchronous time " + n(target) + " s is not above the contention-free simulation (" +
                            n(free_run.decode_seconds) + " s): contention fitted as 0");
    } else if (target >= async_at(kMaxDecodeContention).decode_seconds) {
        c = kMaxDecodeContention;
        out.notes.push_back("the measured asynchronous time " + n(target) + " s is not below what contention " + n(kMaxDecodeContention) +
                            " gives: the overlap buys nothing; contention capped at " + n(kMaxDecodeContention));
    } else {
        double lo = 0, hi = kMaxDecodeContention;
        for (halvings = 0; halvings < 64 && lo < hi; ++halvings) {
            const double mid = lo + (hi - lo) / 2;
            if (mid <= lo || mid >= hi) break;  // no double between them
            if (async_at(mid).decode_seconds < target) lo = mid;
            else hi = mid;
        }
        c = std::fabs(async_at(lo).decode_seconds - target) <= std::fabs(async_at(hi).decode_seconds - target) ? lo : hi;
    }
    r.contention = {c, InputOrigin::derived, fitted_to + ": bisection so the simulated asynchronous time matches"};
    out.contention = make_figure("fitted_contention", c, "", "c such that the simulated async_decode_seconds = measured async_seconds (bisection on [0, 1000])",
                         "c = " + n(c) + " after " + std::to_string(halvings) + " halvings: simulated " + n(async_at(c).decode_seconds) + " s vs measured " +
                             n(target) + " s",
                         {input("async_seconds", "s", m.async_seconds), out.compute_ms.as_input(), out.host_ms.as_input(), d2h_in,
                          input("buffers", "", r.buffers), input("chunks", "", r.chunks)});
    out.contention_free_async_seconds =
        make_figure("contention_free_async_seconds", free_run.decode_seconds, "s", "async_decode_seconds simulated with the fitted stages and contention 0",
            "simulated with c = 0: " + n(free_run.decode_seconds) + " s (measured " + n(target) + " s)",
            {out.compute_ms.as_input(), out.host_ms.as_input(), d2h_in, input("buffers", "", r.buffers)});
}

// 3. How close the fitted simulation lands on each measurement.
void fit_errors(const DecodeMeasurement& m, const DecodeSimRequest& r, DecodeFit& out) {
    const DecodeSimResult sim = simulate_decode(r);
    const double ts = *sim.sync.decode_seconds.value, ta = *sim.async.decode_seconds.value;
    const double us = *sim.sync.kernel_utilization.value, ua = *sim.async.kernel_utilization.value;
    const auto rel = [&](const char* name, double simulated, const Param& measured, const Figure& sim_fig) {
        const double e = (simulated - measured.value) / measured.value;
        return make_figure(name, e, "fraction", "(simulated - measured) / measured",
                   "(" + n(simulated) + " - " + n(measured.value) + ") / " + n(measured.value) + " = " + n(e),
                   {sim_fig.as_input(), input("measured", "s", measured)});
    };
    const auto points = [&](const char* name, double simulated, const Param& measured, const Figure& sim_fig) {
        const double e = (simulated - measured.value) * 100;
        return make_figure(name, e, "percentage points", "(simulated - measured) x 100",
                   "(" + n(simulated) + " - " + n(measured.value) + ") x 100 = " + n(e), {sim_fig.as_input(), input("measured", "fraction", measured)});
    };
    out.sync_seconds_error = rel("fit_sync_seconds_error", ts, m.sync_seconds, sim.sync.decode_seconds);
    out.async_seconds_error = rel("fit_async_seconds_error", ta, m.async_seconds, sim.async.decode_seconds);
    out.sync_utilization_error_points = points("fit_sync_utilization_error_points", us, m.sync_utilization, sim.sync.kernel_utilization);
    out.async_utilization_error_points = points("fit_async_utilization_error_points", ua, m.async_utilization, sim.async.kernel_utilization);
    out.within_tolerance = std::fabs(*out.sync_seconds_error.value) <= 0.01 && std::fabs(*out.async_seconds_error.value) <= 0.01 &&
                           std::fabs(*out.sync_utilization_error_points.value) <= 1 && std::fabs(*out.async_utilization_error_points.value) <= 1;
    if (!out.within_tolerance)
        out.notes.push_back("the fitted simulation misses a measurement by more than 1% (times) or 1 point (utilisations): the model's "
                            "stages and single contention factor do not describe this run fully");
}

}  // namespace

DecodeFit fit_decode(const DecodeSimRequest& base, const DecodeMeasurement& m) {
    validate(m);
    DecodeFit out;
    DecodeSimRequest r = base;
    // Placeholders until fitted, so the shape and link can be validated first.
    r.compute_ms = {1, InputOrigin::derived, ""};
    r.host_ms = {0, InputOrigin::derived, ""};
    r.contention = {0, InputOrigin::derived, ""};
    validate(r);
    const double d2h = decode_d2h_ms(r);
    const std::string fitted_to = "fitted to " + (m.source.empty() ? std::string("the measurements") : m.source);
    const FigureInput d2h_in{"d2h_ms", d2h, "ms", InputOrigin::derived, "chunk_bytes / link + latency", false};
    fit_sync_stages(m, d2h, d2h_in, fitted_to, r, out);
    fit_contention(m, d2h_in, fitted_to, r, out);
    fit_errors(m, r, out);
    out.fitted = r;
    return out;
}

}  // namespace gpuplan
