// decode_plan.cpp — resolving a decode request (defaults, link, fit), evaluating it, pricing
// the video hour, and the scenario section's JSON in and out.
#include "gpuplan/decode/decode_plan.hpp"
#include "gpuplan/formula_text.hpp"

#include "gpuplan/pricing/purchase_options.hpp"
#include "gpuplan/topology/topology.hpp"

namespace gpuplan {

namespace {

Param user_param(double v) { return {v, InputOrigin::user, ""}; }

// Everything evaluate needs, checked: defaults filled in, link and fit inputs chosen.
struct Resolved {
    DecodeSimRequest sim;  // compute/host/contention are placeholders when fitting
    std::optional<DecodeMeasurement> measurement;
    std::optional<DecodeBenchCalibration> calibration;
    std::string instance, region, link_description, bench_summary;
    std::optional<Param> video_seconds, sync_rtf, usd_per_hour;
    std::vector<std::string> notes;
};

Param require(const std::optional<Param>& p, const char* field, const std::string& expected) {
    if (!p) throw InputError(std::string("decode.") + field, "nothing", expected);
    return *p;
}

void refuse_with_bench(const std::optional<Param>& p, const char* field) {
    if (p)
        throw InputError(std::string("decode.") + field, n(p->value),
                         "no value here: the bench results give the video and the buffers (their records' params)");
}

void refuse_when_fitting(const std::optional<Param>& p, const char* field) {
    if (p) throw InputError(std::string("decode.") + field, n(p->value), "no value here: the fit finds it from the measurements");
}

// "cuda backend on g7e.2xlarge (NVIDIA RTX PRO 6000)": where a bench document was measured.
std::string bench_summary(const BenchFingerprint& fp) {
    std::string summary = fp.backend + " backend" + (fp.instance_type ? " on " + *fp.instance_type : std::string(", instance type unknown"));
    if (!fp.gpu_names.empty()) {
        summary += " (";
        for (std::size_t k = 0; k < fp.gpu_names.size(); ++k) summary += (k ? ", " : "") + fp.gpu_names[k];
        summary += ")";
    }
    return summary;
}

// A bench document gives the video, the buffers, the measurements to fit, the instance, the
// measured link and the synchronous real-time factor (what the request does not give itself).
void apply_bench(const Catalog& catalog, const DecodeRequest& q, DecodeRequest& r, Resolved& out) {
    for (auto [p, f] : {std::pair{&r.chunks, "chunks"}, std::pair{&r.frames_per_chunk, "frames_per_chunk"}, std::pair{&r.height, "height"},
                        std::pair{&r.width, "width"}, std::pair{&r.channels, "channels"}, std::pair{&r.dtype_bytes, "dtype_bytes"},
                        std::pair{&r.buffers, "buffers"}})
        refuse_with_bench(*p, f);
    // From the caller's request, not the copy `r`: the calibration points into its records,
    // and the caller's request outlives this evaluation.
    DecodeBenchCalibration c = decode_calibration(*q.bench);
    r.chunks = c.chunks, r.frames_per_chunk = c.frames_per_chunk, r.height = c.height, r.width = c.width;
    r.channels = c.channels, r.dtype_bytes = c.dtype_bytes, r.buffers = c.buffers;
    r.fit = c.measurement;
    const BenchFingerprint& fp = r.bench->fingerprint;
    out.bench_summary = bench_summary(fp);
    if (fp.backend == "cpu")
        out.notes.push_back("the bench results come from the CPU backend (threads standing in for the GPU engines): they calibrate the "
                            "model's mechanics, not a GPU's speed");
    if (!r.instance && fp.instance_type) {
        if (catalog.find_instance(*fp.instance_type)) r.instance = *fp.instance_type;
        else out.notes.push_back("the bench ran on \"" + *fp.instance_type + "\", which is not in the catalog: no purchase options");
    } else if (r.instance && fp.instance_type && *r.instance != *fp.instance_type) {
        out.notes.push_back("the bench ran on " + *fp.instance_type + "; the simulation is priced for " + *r.instance);
    }
    if (!r.link_gb_per_s && c.measured_link_gb_per_s) {
        r.link_gb_per_s = c.measured_link_gb_per_s;
        if (!r.link_latency_us) r.link_latency_us = measured_param(0, "included in the measured copy time");
    }
    if (!r.video_seconds && !r.sync_rtf && c.sync_rtf) r.sync_rtf = measured_param(*c.sync_rtf, c.sync->case_name + " stats.rtf");
    for (const auto& note : c.notes) out.notes.push_back(note);
    out.calibration = c;
}

// The video (given or from the bench), the buffers, and the stage times or the measurements
// that fit them.
void resolve_video_and_stages(const DecodeRequest& r, Resolved& out) {
    const std::string video_expected = " (or a bench results document that gives it)";
    DecodeSimRequest& s = out.sim;
    s.chunks = require(r.chunks, "chunks", "the number of chunks per video" + video_expected);
    s.frames_per_chunk = require(r.frames_per_chunk, "frames_per_chunk", "the pixel frames per chunk" + video_expected);
    s.height = require(r.height, "height", "the frame height in pixels" + video_expected);
    s.width = require(r.width, "width", "the frame width in pixels" + video_expected);
    s.channels = r.channels.value_or(default_decode_channels());
    s.dtype_bytes = r.dtype_bytes.value_or(default_decode_dtype_bytes());
    s.buffers = r.buffers.value_or(default_decode_buffers());
    if (r.fit) {
        refuse_when_fitting(r.compute_ms, "compute_ms");
        refuse_when_fitting(r.host_ms, "host_ms");
        refuse_when_fitting(r.contention, "contention");
        validate(*r.fit);
        out.measurement = r.fit;
        s.compute_ms = {1, InputOrigin::derived, ""};  // placeholders: the fit replaces them
        s.host_ms = {0, InputOrigin::derived, ""};
        s.contention = {0, InputOrigin::derived, ""};
    } else {
        s.compute_ms = require(r.compute_ms, "compute_ms", "the decode time of one chunk in ms (or measurements to fit it)");
        s.host_ms = require(r.host_ms, "host_ms", "the host-stage time of one chunk in ms (or measurements to fit it)");
        s.contention = r.contention.value_or(default_decode_contention());
    }
}

// The link: given or measured, else the instance's GPU-host PCIe.
void resolve_link(const Catalog& catalog, const DecodeRequest& r, Resolved& out) {
    DecodeSimRequest& s = out.sim;
    const Instance* inst = nullptr;
    if (r.instance) {
        inst = catalog.find_instance(*r.instance);
        if (!inst) throw InputError("decode.instance", "\"" + *r.instance + "\"", "an instance type in the catalog (see `gpuplan catalog`)");
        out.instance = inst->name;
    }
    if (r.link_gb_per_s) {
        s.link_gb_per_s = *r.link_gb_per_s;
        out.link_description = (r.link_gb_per_s->origin == InputOrigin::measured ? r.link_gb_per_s->source : "given") + ": " +
                               n(r.link_gb_per_s->value) + " GB/s device to host";
    }
    Link host;
    if (inst) host = node_topology(catalog, *inst).host;
    if (!r.link_gb_per_s) {
        if (!inst)
            throw InputError("decode.link_gb_per_s", "nothing", "a device-to-host bandwidth in GB/s, or an instance whose GPU-host link the catalog knows");
        if (!host.known())
            throw InputError("decode.instance", "\"" + inst->name + "\"",
                             "a type whose GPU-host link is known (" + host.unknown_reason + "), or a measured link bandwidth (link_gb_per_s, --link-gb-per-s)");
        s.link_gb_per_s = host.gb_per_s;
        out.link_description = host.description;
    }
    if (r.link_latency_us) s.link_latency_us = *r.link_latency_us;
    else if (inst && host.known()) s.link_latency_us = host.latency_us;
    else s.link_latency_us = {0, InputOrigin::assumption, "default 0 us copy latency when no instance gives one (a few us on PCIe: negligible per chunk)"};
}

Resolved resolve(const Catalog& catalog, const DecodeRequest& q) {
    Resolved out;
    out.region = q.region;
    DecodeRequest r = q;
    if (r.fit && r.bench) throw InputError("decode.fit", "measurements and a bench document", "one of them");
    if (r.bench) apply_bench(catalog, q, r, out);
    resolve_video_and_stages(r, out);
    resolve_link(catalog, r, out);
    out.video_seconds = r.video_seconds;
    out.sync_rtf = r.sync_rtf;
    out.usd_per_hour = r.usd_per_hour;
    if (r.video_seconds && r.sync_rtf) throw InputError("decode.sync_rtf", n(r.sync_rtf->value), "no value here: video_seconds already gives the duration");
    if (r.sync_rtf && !(r.sync_rtf->value > 0))
        throw InputError("decode.sync_rtf", n(r.sync_rtf->value), "a real-time factor > 0 (decode seconds / video seconds)");
    if (r.usd_per_hour && !(r.usd_per_hour->value > 0)) throw InputError("decode.usd_per_hour", n(r.usd_per_hour->value), "a price in USD/h > 0");
    validate(out.sim);
    return out;
}

// ---- cost -------------------------------------------------------------------------------

struct PriceRow {
    std::string key, label;
    bool available = true;
    std::string reason;
    FigureInput price;
};

DecodeCost make_cost(std::string basis, const FigureInput& sync_seconds, const FigureInput& async_seconds, const Figure& video,
                     const std::vector<PriceRow>& prices) {
    DecodeCost c;
    c.basis = std::move(basis);
    const double vs = *video.value;
    const double rs = sync_seconds.value / vs, ra = async_seconds.value / vs;
    c.rtf_sync = make_figure("rtf_sync", rs, "decode s / video s", "sync_decode_seconds / video_seconds", n(sync_seconds.value) + " / " + n(vs) + " = " + n(rs),
                     {sync_seconds, video.as_input()});
    c.rtf_async = make_figure("rtf_async", ra, "decode s / video s", "async_decode_seconds / video_seconds", n(async_seconds.value) + " / " + n(vs) + " = " + n(ra),
                      {async_seconds, video.as_input()});
    c.gpu_hours_per_1000_video_hours_sync = make_figure("gpu_hours_per_1000_video_hours_sync", 1000 * rs, "GPU-h", "1000 x rtf_sync",
                                                "1000 x " + n(rs) + " = " + n(1000 * rs), {c.rtf_sync.as_input()});
    c.gpu_hours_per_1000_video_hours_async = make_figure("gpu_hours_per_1000_video_hours_async", 1000 * ra, "GPU-h", "1000 x rtf_async",
                                                 "1000 x " + n(ra) + " = " + n(1000 * ra), {c.rtf_async.as_input()});
    for (const PriceRow& p : prices) {
        DecodeCostOption o;
        o.key = p.key, o.label = p.label, o.available = p.available, o.unavailable_reason = p.reason;
        if (p.available) {
            const double u = p.price.value;
            o.usd_per_hour = make_figure("usd_per_hour", u, "USD/h", p.key == "given" ? "given" : "effective_usd_per_hour of " + p.key, n(u), {p.price});
            o.sync_usd_per_video_hour = make_figure("sync_usd_per_video_hour", u * rs, "USD/video-hour", "usd_per_hour x rtf_sync",
                                            n(u) + " x " + n(rs) + " = " + n(u * rs), {p.price, c.rtf_sync.as_input()});
            o.async_usd_per_video_hour = make_figure("async_usd_per_video_hour", u * ra, "USD/video-hour", "usd_per_hour x rtf_async",
                                             n(u) + " x " + n(ra) + " = " + n(u * ra), {p.price, c.rtf_async.as_input()});
            const double hs = 1000 * rs, ha = 1000 * ra, saving = (hs - ha) * u;
            o.saving_usd_per_1000_video_hours =
                make_figure("saving_usd_per_1000_video_hours", saving, "USD", "(gpu_hours_per_1000_video_hours_sync - gpu_hours_per_1000_video_hours_async) x usd_per_hour",
                    "(" + n(hs) + " - " + n(ha) + ") x " + n(u) + " = " + n(saving),
                    {c.gpu_hours_per_1000_video_hours_sync.as_input(), c.gpu_hours_per_1000_video_hours_async.as_input(), p.price});
        }
        c.options.push_back(std::move(o));
    }
    return c;
}

std::vector<PriceRow> price_rows(const Catalog& catalog, const Resolved& rs, std::vector<std::string>& notes) {
    std::vector<PriceRow> rows;
    if (rs.usd_per_hour) rows.push_back({"given", "Given price", true, "", input("usd_per_hour", "USD/h", *rs.usd_per_hour)});
    if (rs.instance.empty()) return rows;
    QuoteRequest q;
    q.instance = rs.instance;
    q.region = rs.region;
    try {
        for (const Quote& quote : quote_purchase_options(catalog, q)) {
            PriceRow row{quote.key, quote.label, quote.available, quote.unavailable_reason, {}};
            if (quote.available) row.price = quote.effective_usd_per_hour.as_input(quote.label + ": " + quote.effective_usd_per_hour.formula);
            row.price.name = "usd_per_hour";
            rows.push_back(std::move(row));
        }
    } catch (const InputError& e) {
        notes.push_back("no catalog purchase options: " + std::string(e.what()));
    }
    return rows;
}

nlohmann::json param_json(const Param& p) {
    nlohmann::json j = {{"value", p.value}, {"origin", std::string(to_string(p.origin))}};
    if (!p.source.empty()) j["source"] = p.source;
    return j;
}

nlohmann::json cost_json(const DecodeCost& c) {
    nlohmann::json options = nlohmann::json::array();
    for (const auto& o : c.options) {
        nlohmann::json j = {{"key", o.key}, {"label", o.label}, {"available", o.available}};
        if (!o.available) j["unavailable_reason"] = o.unavailable_reason;
        else j["figures"] = to_json(std::vector<Figure>{o.usd_per_hour, o.sync_usd_per_video_hour, o.async_usd_per_video_hour, o.saving_usd_per_1000_video_hours});
        options.push_back(j);
    }
    return {{"basis", c.basis},
            {"figures", to_json(std::vector<Figure>{c.rtf_sync, c.rtf_async, c.gpu_hours_per_1000_video_hours_sync, c.gpu_hours_per_1000_video_hours_async})},
            {"options", options}};
}

bool same_video_and_settings(const DecodeBenchParams& a, const DecodeBenchParams& b) {
    return a.same_video(b) && a.compute_ms == b.compute_ms && a.host_stage == b.host_stage;
}

}  // namespace

DecodeReport evaluate_decode(const Catalog& catalog, const DecodeRequest& q) {
    Resolved rs = resolve(catalog, q);
    DecodeReport out;
    out.instance = rs.instance;
    out.region = rs.region;
    out.link_description = rs.link_description;
    out.bench_summary = rs.bench_summary;
    out.notes = rs.notes;
    DecodeSimRequest s = rs.sim;
    if (rs.measurement) {
        DecodeFit f = fit_decode(s, *rs.measurement);
        s = f.fitted;
        for (const auto& note : f.notes) out.notes.push_back(note);
        out.fit = std::move(f);
        out.measured = rs.measurement;
    }
    if (rs.video_seconds) {
        out.video_seconds = make_figure("video_seconds", rs.video_seconds->value, "s", "given", n(rs.video_seconds->value),
                                {input("video_seconds", "s", *rs.video_seconds)});
        s.video_seconds = *rs.video_seconds;
    }
    DecodeSimResult sim = simulate_decode(s);
    if (!rs.video_seconds && rs.sync_rtf) {
        // As pricing case P6: duration = sync decode time / sync RTF (measured time when fitting).
        const FigureInput sync_in = rs.measurement ? input("sync_seconds", "s", rs.measurement->sync_seconds) : sim.sync.decode_seconds.as_input();
        const double v = sync_in.value / rs.sync_rtf->value;
        const std::string basis = rs.measurement ? "measured sync_seconds" : "sync_decode_seconds";
        out.video_seconds = make_figure("video_seconds", v, "s", basis + " / sync_rtf", n(sync_in.value) + " / " + n(rs.sync_rtf->value) + " = " + n(v),
                                {sync_in, input("sync_rtf", "decode s / video s", *rs.sync_rtf)});
        s.video_seconds = Param{v, InputOrigin::derived, basis + " / sync_rtf"};
        sim = simulate_decode(s);
    }
    if (out.video_seconds) {
        const std::vector<PriceRow> prices = price_rows(catalog, rs, out.notes);
        if (prices.empty()) {
            out.notes.push_back("no instance and no usd_per_hour: no cost per hour of video");
        } else {
            out.cost = make_cost("simulated", sim.sync.decode_seconds.as_input(), sim.async.decode_seconds.as_input(), *out.video_seconds, prices);
            if (rs.measurement)
                out.measured_cost = make_cost("measured", input("sync_seconds", "s", rs.measurement->sync_seconds),
                                              input("async_seconds", "s", rs.measurement->async_seconds), *out.video_seconds, prices);
        }
    } else {
        out.notes.push_back("no video duration (video_seconds or sync_rtf): no real-time factor and no cost per hour of video");
    }
    if (rs.calibration && q.bench) {
        // Every decode record of the same video, beside the fitted simulation with its buffers.
        for (const auto& rec : q.bench->decode) {
            if (!same_video_and_settings(rec.params, rs.calibration->async->params)) {
                out.notes.push_back(rec.path + " (" + rec.case_name + ") decodes another video or kernel target: not compared");
                continue;
            }
            DecodeSimRequest t = s;
            t.buffers = measured_param(rec.buffers(), rec.path + " buffers");
            const DecodeSimResult r = rec.synchronous() ? sim : simulate_decode(t);
            const PipelineRun& run = rec.synchronous() ? r.sync : r.async;
            out.bench_checks.push_back({rec.case_name, rec.path, rec.synchronous() ? 1 : rec.buffers(), rec.median, *run.decode_seconds.value,
                                        rec.stats.kernel_active_fraction, *run.kernel_utilization.value});
        }
    }
    out.inputs = s;
    out.sim = std::move(sim);
    return out;
}

DecodeRequest parse_decode_request(const Json& section, const std::string& path, const Catalog& catalog, const std::string& region) {
    ObjectReader r(section, path);
    DecodeRequest q;
    q.region = region;
    const auto number = [&r](const char* key, NumberRule rule) -> std::optional<Param> {
        if (auto v = r.optional_number(key, rule)) return user_param(*v);
        return std::nullopt;
    };
    if (auto name = r.optional_string("instance")) {
        if (!catalog.find_instance(*name)) throw InputError(r.child_path("instance"), "\"" + *name + "\"", "an instance type in the catalog (see `gpuplan catalog`)");
        q.instance = *name;
    }
    q.chunks = number("chunks", NumberRule::positive);
    q.frames_per_chunk = number("frames_per_chunk", NumberRule::positive);
    q.height = number("height", NumberRule::positive);
    q.width = number("width", NumberRule::positive);
    q.channels = number("channels", NumberRule::positive);
    q.dtype_bytes = number("dtype_bytes", NumberRule::positive);
    q.compute_ms = number("compute_ms", NumberRule::positive);
    q.host_ms = number("host_ms", NumberRule::non_negative);
    q.contention = number("contention", NumberRule::non_negative);
    q.buffers = number("buffers", NumberRule::positive);
    if (auto v = r.optional_number("link_gb_per_s", NumberRule::positive)) q.link_gb_per_s = measured_param(*v, "device-to-host bandwidth (given)");
    q.link_latency_us = number("link_latency_us", NumberRule::non_negative);
    q.video_seconds = number("video_seconds", NumberRule::positive);
    q.sync_rtf = number("sync_rtf", NumberRule::positive);
    q.usd_per_hour = number("usd_per_hour", NumberRule::positive);
    if (const Json* fit = r.optional_value("fit")) {
        ObjectReader f(*fit, r.child_path("fit"));
        if (f.has("bench")) {
            q.bench = read_bench_results(f.value("bench"), f.child_path("bench"));
        } else {
            DecodeMeasurement m;
            m.sync_seconds = user_param(f.number("sync_seconds", NumberRule::positive));
            m.async_seconds = user_param(f.number("async_seconds", NumberRule::positive));
            m.sync_utilization = user_param(f.number("sync_utilization", NumberRule::fraction));
            m.async_utilization = user_param(f.number("async_utilization", NumberRule::fraction));
            m.source = "the measurements in " + path + ".fit";
            q.fit = m;
        }
        f.finish();
    }
    r.finish();
    // The checks that need more than one key (required, refused together, ranges), now, so a
    // bad section fails when it is read, naming its JSON path.
    try {
        (void)resolve(catalog, q);
    } catch (const InputError& e) {
        const std::string& where = e.where();
        if (where.rfind("decode.", 0) == 0) throw InputError(path + where.substr(6), e.value(), e.expected());
        if (where.rfind("fit.", 0) == 0) throw InputError(path + "." + where, e.value(), e.expected());
        throw;
    }
    return q;
}

nlohmann::json to_json(const DecodeReport& r) {
    nlohmann::json j;
    j["instance"] = r.instance.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.instance);
    j["region"] = r.region;
    const DecodeSimRequest& s = r.inputs;
    j["link"] = {{"gb_per_s", param_json(s.link_gb_per_s)}, {"latency_us", param_json(s.link_latency_us)}, {"description", r.link_description}};
    nlohmann::json inputs = nlohmann::json::object();
    for (auto [name, p] : {std::pair{"chunks", &s.chunks}, std::pair{"frames_per_chunk", &s.frames_per_chunk}, std::pair{"height", &s.height},
                           std::pair{"width", &s.width}, std::pair{"channels", &s.channels}, std::pair{"dtype_bytes", &s.dtype_bytes},
                           std::pair{"compute_ms", &s.compute_ms}, std::pair{"host_ms", &s.host_ms}, std::pair{"buffers", &s.buffers},
                           std::pair{"contention", &s.contention}})
        inputs[name] = param_json(*p);
    j["inputs"] = inputs;
    j["figures"] = to_json(r.sim.all());
    if (r.fit && r.measured) {
        j["fit"] = {{"source", r.measured->source},
                    {"measured",
                     {{"sync_seconds", r.measured->sync_seconds.value}, {"async_seconds", r.measured->async_seconds.value},
                      {"sync_utilization", r.measured->sync_utilization.value}, {"async_utilization", r.measured->async_utilization.value}}},
                    {"figures", to_json(r.fit->all())},
                    {"within_tolerance", r.fit->within_tolerance}};
    }
    if (!r.bench_summary.empty()) j["bench"] = r.bench_summary;
    if (r.video_seconds) j["video_seconds"] = to_json(*r.video_seconds);
    if (r.cost) j["cost"] = cost_json(*r.cost);
    if (r.measured_cost) j["measured_cost"] = cost_json(*r.measured_cost);
    if (!r.bench_checks.empty()) {
        nlohmann::json checks = nlohmann::json::array();
        for (const auto& c : r.bench_checks)
            checks.push_back({{"case", c.case_name}, {"path", c.path}, {"buffers", c.buffers}, {"measured_seconds", c.measured_seconds},
                              {"simulated_seconds", c.simulated_seconds},
                              {"measured_utilization", c.measured_utilization ? nlohmann::json(*c.measured_utilization) : nlohmann::json(nullptr)},
                              {"simulated_utilization", c.simulated_utilization}});
        j["bench_checks"] = checks;
    }
    j["notes"] = r.notes;
    j["timeline"] = {{"sync", to_json(r.sim.sync.timeline)}, {"async", to_json(r.sim.async.timeline)}};
    return j;
}

}  // namespace gpuplan
