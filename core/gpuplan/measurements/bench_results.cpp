// bench_results.cpp — strict reading and the one writer of gpuplan.bench/1 documents.
#include "gpuplan/measurements/bench_results.hpp"

#include <cmath>

namespace gpuplan {

namespace {

const char* const kDecodeCases[] = {"decode.sync_pageable", "decode.sync_pinned", "decode.async", "decode.ring"};

std::optional<std::string> nullable_string(ObjectReader& r, const char* key) {
    const Json& v = r.value(key);
    if (v.is_null()) return std::nullopt;
    if (!v.is_string()) throw InputError(r.child_path(key), json_preview(v), "a string or null");
    return v.get<std::string>();
}

double required_whole(ObjectReader& r, const char* key) {
    const double v = r.number(key, NumberRule::positive);
    if (std::floor(v) != v) throw InputError(r.child_path(key), json_preview(r.value(key)), "a whole number >= 1");
    return v;
}

// The keys the writers put in a document's fingerprint, its GPUs and its run:
// native/bench/suite_json.cpp (suite_fingerprint, suite_document: `bench run`),
// native/bench/bench_results.cpp (results_json: `bench decode`, and the CLI's failure record in
// native/cli/bench_cmd.cpp) and native/bench/mpi_main.cpp ("launcher"). Their values describe the
// machine and the run and are kept as written; a key outside these lists is refused, so a typo
// such as "complet" cannot pass unseen (issue 34). A writer that adds a key adds it here: the
// bench tests read every writer's document back through this reader.
constexpr const char* kFingerprintKeys[] = {"backend", "instance_type", "instance_type_source", "gpus", "driver_version", "runtime_version",
                                            "gpu_query", "nccl_version", "host", "cpu", "numa_nodes", "peer_access_advertised", "launcher"};
constexpr const char* kGpuKeys[] = {"name", "memory_gib", "compute_capability", "pci_bus_id", "multiprocessors", "pcie", "copy_engines",
                                    "l2_bytes", "numa_node", "sm_clock_mhz", "memory_clock_mhz", "memory_bus_width_bits"};
constexpr const char* kRunKeys[] = {"tool", "gpuplan_version", "backend", "depth", "options", "timing_method", "units", "statistics",
                                    "verdicts", "started_utc", "finished_utc", "complete", "cases_run", "cases_pending", "waived", "errors", "notes",
                                    "failed_case", "decoder", "decoder_calibration"};

// Marks the known keys as read, then refuses any other.
template <std::size_t N>
void only_known_keys(ObjectReader& r, const char* const (&known)[N]) {
    for (const char* key : known) r.optional_value(key);
    r.finish();
}

BenchFingerprint read_fingerprint(ObjectReader& root) {
    ObjectReader r = root.object("fingerprint");
    BenchFingerprint f;
    f.backend = r.string("backend");
    if (f.backend != "cpu" && f.backend != "cuda") throw InputError(r.child_path("backend"), "\"" + f.backend + "\"", "\"cpu\" or \"cuda\"");
    f.instance_type = nullable_string(r, "instance_type");
    const Json& gpus = r.array("gpus");
    for (std::size_t k = 0; k < gpus.size(); ++k) {
        ObjectReader g(gpus[k], index_path(r.child_path("gpus"), k));
        f.gpu_names.push_back(g.string("name"));
        only_known_keys(g, kGpuKeys);  // memory, compute capability, bus id, ...: machine facts, kept as written
    }
    only_known_keys(r, kFingerprintKeys);
    return f;
}

DecodeBenchParams read_params(ObjectReader& rec, const std::string& case_name) {
    ObjectReader r = rec.object("params");
    DecodeBenchParams p;
    p.chunks = required_whole(r, "chunks");
    p.frames_per_chunk = required_whole(r, "frames_per_chunk");
    p.height = required_whole(r, "height");
    p.width = required_whole(r, "width");
    p.channels = required_whole(r, "channels");
    p.dtype_bytes = r.number("dtype_bytes", NumberRule::positive);
    if (const Json* v = r.optional_value("compute_ms"); v && !v->is_null())
        p.compute_ms = read_number(*v, r.child_path("compute_ms"), NumberRule::non_negative);
    if (const Json* v = r.optional_value("host_stage"); v && !v->is_null()) p.host_stage = v->is_string() ? v->get<std::string>() : v->dump();
    if (const Json* v = r.optional_value("buffers"); v && !v->is_null()) {
        const double b = read_number(*v, r.child_path("buffers"), NumberRule::positive);
        if (std::floor(b) != b) throw InputError(r.child_path("buffers"), json_preview(*v), "a whole number of buffers >= 1");
        p.buffers = b;
    } else if (case_name == "decode.ring") {
        throw InputError(r.child_path("buffers"), v ? "null" : "nothing", "the ring's number of buffers (a whole number >= 1)");
    }
    // Extra knobs (memory kind, NUMA node, host-stage cost, ...) are allowed: no finish().
    return p;
}

DecodeBenchStats read_stats(ObjectReader& rec) {
    ObjectReader r = rec.object("stats");
    DecodeBenchStats s;
    s.min = r.number("min", NumberRule::positive);
    s.mean = r.number("mean", NumberRule::positive);
    s.p99 = r.number("p99", NumberRule::positive);
    s.kernel_active_fraction = r.nullable_number("kernel_active_fraction", NumberRule::fraction);
    s.chunk_compute_ms = r.nullable_number("chunk_compute_ms", NumberRule::non_negative);
    s.chunk_d2h_ms = r.nullable_number("chunk_d2h_ms", NumberRule::non_negative);
    s.chunk_host_ms = r.nullable_number("chunk_host_ms", NumberRule::non_negative);
    s.compute_slowdown = r.nullable_number("compute_slowdown", NumberRule::non_negative);
    s.rtf = r.nullable_number("rtf", NumberRule::positive);
    s.checksums_ok = r.boolean("checksums_ok");
    r.finish();
    return s;
}

DecodeBenchRecord read_decode_record(ObjectReader& r, const std::string& case_name) {
    DecodeBenchRecord rec;
    rec.case_name = case_name;
    rec.path = r.path();
    rec.params = read_params(r, case_name);
    const Json& samples = r.array("samples");
    if (samples.empty()) throw InputError(r.child_path("samples"), "[]", "at least one sample (seconds per video)");
    for (std::size_t k = 0; k < samples.size(); ++k) rec.samples.push_back(read_number(samples[k], index_path(r.child_path("samples"), k), NumberRule::positive));
    rec.median = r.number("median", NumberRule::positive);
    const std::string unit = r.string("unit");
    if (unit != "s") throw InputError(r.child_path("unit"), "\"" + unit + "\"", "\"s\" (seconds per video)");
    for (const char* key : {"datasheet_peak", "fraction_of_peak"}) {
        const Json& v = r.value(key);
        if (!v.is_null()) read_number(v, r.child_path(key), NumberRule::non_negative);
    }
    rec.stats = read_stats(r);
    r.finish();
    return rec;
}

// A string that may be empty (descriptions: "" when nothing was checked or rated).
std::string text(ObjectReader& r, const char* key) {
    const Json& v = r.value(key);
    if (!v.is_string()) throw InputError(r.child_path(key), json_preview(v), "a string");
    return v.get<std::string>();
}

// A `gpuplan bench run` record: every key known (a typo must not drop a measurement).
BenchFigure read_figure(ObjectReader& r, const std::string& case_name) {
    BenchFigure f;
    f.case_name = case_name;
    f.path = r.path();
    f.status = r.string("status");
    if (f.status != "ok" && f.status != "failed" && f.status != "timed_out")
        throw InputError(r.child_path("status"), "\"" + f.status + "\"", "\"ok\", \"failed\" or \"timed_out\"");
    f.unit = r.string("unit");
    if (f.unit != "GB/s" && f.unit != "us") throw InputError(r.child_path("unit"), "\"" + f.unit + "\"", "\"GB/s\" (10^9 bytes/s) or \"us\"");
    r.object("params");  // knobs (bytes, devices, ranks, ...): described, not measured
    f.params = r.value("params");
    const Json& samples = r.array("samples");
    for (std::size_t k = 0; k < samples.size(); ++k) f.samples.push_back(read_number(samples[k], index_path(r.child_path("samples"), k), NumberRule::positive));
    f.median = r.nullable_number("median", NumberRule::positive);
    f.datasheet_peak = r.nullable_number("datasheet_peak", NumberRule::positive);
    f.datasheet_source = nullable_string(r, "datasheet_source").value_or("");
    f.fraction_of_peak = r.nullable_number("fraction_of_peak", NumberRule::non_negative);
    f.verdict = nullable_string(r, "verdict");
    if (f.verdict && *f.verdict != "ok" && *f.verdict != "low" && *f.verdict != "broken")
        throw InputError(r.child_path("verdict"), "\"" + *f.verdict + "\"", "\"ok\", \"low\", \"broken\" or null");
    f.verdict_reason = text(r, "verdict_reason");
    {
        ObjectReader bands = r.object("verdict_bands");
        f.ok_at_least = bands.number("ok_at_least", NumberRule::fraction);
        f.broken_below = bands.number("broken_below", NumberRule::fraction);
        bands.finish();
    }
    {
        ObjectReader st = r.object("stats");
        for (auto [k, slot] : {std::pair{"min", &f.stats.min}, std::pair{"mean", &f.stats.mean}, std::pair{"max", &f.stats.max},
                               std::pair{"p99", &f.stats.p99}, std::pair{"seconds_median", &f.stats.seconds_median}})
            *slot = st.nullable_number(k, NumberRule::positive);
        f.stats.reps_per_sample = st.integer("reps_per_sample", 0);
        f.stats.warmup = st.integer("warmup", 0);
        st.finish();
    }
    f.bytes_counted = text(r, "bytes_counted");
    f.timing = text(r, "timing");
    f.verified = r.boolean("verified");
    f.verification = text(r, "verification");
    if (auto e = nullable_string(r, "error")) f.error = *e;
    r.finish();
    if (f.status == "ok" && !f.median) throw InputError(r.child_path("median"), "null", "a number for a record whose status is \"ok\"");
    if (f.status == "ok" && f.samples.empty()) throw InputError(r.child_path("samples"), "[]", "at least one sample for a record whose status is \"ok\"");
    return f;
}

const DecodeBenchRecord* first_of(const BenchResults& b, const char* case_name) {
    for (const auto& r : b.decode)
        if (r.case_name == case_name) return &r;
    return nullptr;
}


void require_usable(const DecodeBenchRecord& r) {
    if (!r.stats.checksums_ok)
        throw InputError(r.path + ".stats.checksums_ok", "false",
                         "true: a run whose frames did not verify end to end cannot calibrate anything (re-run the benchmark)");
    if (!r.stats.kernel_active_fraction)
        throw InputError(r.path + ".stats.kernel_active_fraction", "null", "the measured kernel-active fraction the fit needs (a CUDA run records it)");
}

}  // namespace

double DecodeBenchRecord::buffers() const { return params.buffers.value_or(synchronous() ? 1 : 2); }

BenchResults parse_bench_results(std::string_view text, const std::string& origin) {
    const Json j = parse_json_document(text, origin);
    BenchResults b = read_bench_results(j, origin + ": $");
    b.origin = origin;
    return b;
}

BenchResults read_bench_results(const Json& document, const std::string& path) {
    ObjectReader root(document, path);
    BenchResults b;
    b.origin = path;
    b.path = path;
    const std::string schema = root.string("schema");
    if (schema != kBenchSchema) throw InputError(root.child_path("schema"), "\"" + schema + "\"", "\"" + std::string(kBenchSchema) + "\"");
    b.fingerprint = read_fingerprint(root);
    b.fingerprint_document = root.value("fingerprint");
    const Json& records = root.array("records");
    for (std::size_t k = 0; k < records.size(); ++k) {
        ObjectReader r(records[k], index_path(root.child_path("records"), k));
        const std::string case_name = r.string("case");
        if (case_name.rfind("decode.", 0) != 0) {
            if (r.has("status"))
                b.figures.push_back(read_figure(r, case_name));
            else
                b.other_cases.push_back(case_name);  // another benchmark's record: its keys are its own
            continue;
        }
        bool known = false;
        for (const char* c : kDecodeCases) known = known || case_name == c;
        if (!known)
            throw InputError(r.child_path("case"), "\"" + case_name + "\"",
                             "one of \"decode.sync_pageable\", \"decode.sync_pinned\", \"decode.async\", \"decode.ring\"");
        b.decode.push_back(read_decode_record(r, case_name));
    }
    if (root.has("run")) {  // how the run went; only these two keys matter to the planner, the others are checked by name
        ObjectReader run = root.object("run");
        b.run_document = root.value("run");
        if (const Json* c = run.optional_value("complete")) {
            if (!c->is_boolean()) throw InputError(run.child_path("complete"), json_preview(*c), "true or false");
            b.complete = c->get<bool>();
        }
        if (const Json* e = run.optional_value("errors")) {
            if (!e->is_array()) throw InputError(run.child_path("errors"), json_preview(*e), "an array of strings");
            for (std::size_t k = 0; k < e->size(); ++k) {
                if (!(*e)[k].is_string()) throw InputError(index_path(run.child_path("errors"), k), json_preview((*e)[k]), "a string");
                b.run_errors.push_back((*e)[k].get<std::string>());
            }
        }
        only_known_keys(run, kRunKeys);
    }
    root.finish();
    return b;
}

namespace {

// Whole numbers as JSON integers (chunks, buffers, reps), anything else as a double.
Json number(double v) {
    if (std::isfinite(v) && std::floor(v) == v && std::fabs(v) < 9e15) return Json(static_cast<std::int64_t>(v));
    return Json(v);
}
Json number_or_null(const std::optional<double>& v) { return v ? number(*v) : Json(nullptr); }
Json text_or_null(const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); }
Json numbers(const std::vector<double>& values) {
    Json out = Json::array();
    for (double v : values) out.push_back(number(v));
    return out;
}

}  // namespace

Json to_json(const DecodeBenchRecord& r) {
    const DecodeBenchParams& p = r.params;
    const DecodeBenchStats& s = r.stats;
    return {{"case", r.case_name},
            {"params", {{"chunks", number(p.chunks)}, {"frames_per_chunk", number(p.frames_per_chunk)}, {"height", number(p.height)},
                        {"width", number(p.width)}, {"channels", number(p.channels)}, {"dtype_bytes", number(p.dtype_bytes)},
                        {"compute_ms", number_or_null(p.compute_ms)}, {"host_stage", text_or_null(p.host_stage)}, {"buffers", number_or_null(p.buffers)}}},
            {"samples", numbers(r.samples)},
            {"median", number(r.median)},
            {"unit", "s"},
            {"datasheet_peak", nullptr},
            {"fraction_of_peak", nullptr},
            {"stats", {{"min", number(s.min)}, {"mean", number(s.mean)}, {"p99", number(s.p99)},
                       {"kernel_active_fraction", number_or_null(s.kernel_active_fraction)}, {"chunk_compute_ms", number_or_null(s.chunk_compute_ms)},
                       {"chunk_d2h_ms", number_or_null(s.chunk_d2h_ms)}, {"chunk_host_ms", number_or_null(s.chunk_host_ms)},
                       {"compute_slowdown", number_or_null(s.compute_slowdown)}, {"rtf", number_or_null(s.rtf)}, {"checksums_ok", s.checksums_ok}}}};
}

Json to_json(const BenchFigure& f) {
    const BenchFigureStats& s = f.stats;
    return {{"case", f.case_name},
            {"status", f.status},
            {"params", f.params.is_null() ? Json::object() : f.params},
            {"samples", numbers(f.samples)},
            {"median", number_or_null(f.median)},
            {"unit", f.unit},
            {"datasheet_peak", number_or_null(f.datasheet_peak)},
            {"datasheet_source", text_or_null(f.datasheet_source)},
            {"fraction_of_peak", number_or_null(f.fraction_of_peak)},
            {"verdict", f.verdict ? Json(*f.verdict) : Json(nullptr)},
            {"verdict_reason", f.verdict_reason},
            {"verdict_bands", {{"ok_at_least", f.ok_at_least}, {"broken_below", f.broken_below}}},
            {"stats", {{"min", number_or_null(s.min)}, {"mean", number_or_null(s.mean)}, {"max", number_or_null(s.max)}, {"p99", number_or_null(s.p99)},
                       {"seconds_median", number_or_null(s.seconds_median)}, {"reps_per_sample", s.reps_per_sample}, {"warmup", s.warmup}}},
            {"bytes_counted", f.bytes_counted},
            {"timing", f.timing},
            {"verified", f.verified},
            {"verification", f.verification},
            {"error", text_or_null(f.error)}};
}

Json bench_document(const Json& fingerprint, const std::vector<Json>& records, const Json& run) {
    Json doc = {{"schema", std::string(kBenchSchema)}, {"fingerprint", fingerprint}, {"records", records}};
    if (!run.is_null()) doc["run"] = run;
    return doc;
}

Json to_json(const BenchResults& b) {
    // Decode records first, then the suite's (the file's interleaving is not kept); records of
    // other benchmarks, kept by case name only, are not written back.
    std::vector<Json> records;
    for (const DecodeBenchRecord& r : b.decode) records.push_back(to_json(r));
    for (const BenchFigure& f : b.figures) records.push_back(to_json(f));
    return bench_document(b.fingerprint_document, records, b.run_document);
}

DecodeBenchCalibration decode_calibration(const BenchResults& b) {
    DecodeBenchCalibration c;
    c.sync = first_of(b, "decode.sync_pinned");
    if (!c.sync) c.sync = first_of(b, "decode.sync_pageable");
    c.async = first_of(b, "decode.async");
    if (!c.async) c.async = first_of(b, "decode.ring");
    if (!c.sync || !c.async)
        throw InputError(b.path + ".records", std::to_string(b.decode.size()) + " decode record(s)",
                         "a synchronous record (decode.sync_pinned or decode.sync_pageable) and an asynchronous one (decode.async or "
                         "decode.ring) to fit");
    require_usable(*c.sync);
    require_usable(*c.async);
    if (!c.sync->params.same_video(c.async->params))
        throw InputError(c.async->path + ".params", "a different video than " + c.sync->path,
                         "the same chunks, frames per chunk, height, width, channels and dtype_bytes as the synchronous record");
    if (c.sync->case_name == "decode.sync_pageable")
        c.notes.push_back("no decode.sync_pinned record: fitted on decode.sync_pageable, whose slower pageable copy is counted as host time");
    const DecodeBenchParams& p = c.async->params;
    const std::string src = "bench " + b.origin;
    c.chunks = measured_param(p.chunks, src + " params.chunks");
    c.frames_per_chunk = measured_param(p.frames_per_chunk, src + " params.frames_per_chunk");
    c.height = measured_param(p.height, src + " params.height");
    c.width = measured_param(p.width, src + " params.width");
    c.channels = measured_param(p.channels, src + " params.channels");
    c.dtype_bytes = measured_param(p.dtype_bytes, src + " params.dtype_bytes");
    c.buffers = measured_param(c.async->buffers(), src + " " + c.async->case_name + " buffers");
    c.measurement.sync_seconds = measured_param(c.sync->median, c.sync->case_name + " median seconds per video");
    c.measurement.async_seconds = measured_param(c.async->median, c.async->case_name + " median seconds per video");
    c.measurement.sync_utilization = measured_param(*c.sync->stats.kernel_active_fraction, c.sync->case_name + " kernel-active fraction");
    c.measurement.async_utilization = measured_param(*c.async->stats.kernel_active_fraction, c.async->case_name + " kernel-active fraction");
    c.measurement.source = src + " (" + c.sync->case_name + " + " + c.async->case_name + ")";
    // The model's copies run at the link's speed and are never slowed (docs/decode-pipeline.md,
    // "Contention"), so the link is the copy measured alone: the pinned synchronous record's. The
    // asynchronous record's copies overlap decodes and host work, and on a busy host they can
    // take longer than the synchronous stall that the fit has to fit them into. A pageable
    // synchronous copy is not the pinned link, so without decode.sync_pinned the asynchronous
    // copy is the measurement there is.
    const DecodeBenchRecord* copy_alone = c.sync->case_name == "decode.sync_pinned" ? c.sync : c.async;
    if (copy_alone->stats.chunk_d2h_ms && *copy_alone->stats.chunk_d2h_ms > 0) {
        const double bytes = p.height * p.width * p.channels * p.dtype_bytes * p.frames_per_chunk;
        c.measured_link_gb_per_s = measured_param(bytes / (*copy_alone->stats.chunk_d2h_ms * 1e6),
                                                  "chunk bytes / " + copy_alone->case_name + " chunk_d2h_ms (" +
                                                      format_number(*copy_alone->stats.chunk_d2h_ms) + " ms)");
    }
    c.sync_rtf = c.sync->stats.rtf;
    return c;
}

}  // namespace gpuplan
