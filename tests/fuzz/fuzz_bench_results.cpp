// fuzz_bench_results — the bench-results importer (parse_bench_results, gpuplan.bench/1) and
// the calibration the decode fit takes from it.
//
// Round trip: the importer has no writer in the core, so an accepted document is
// re-serialised as JSON (nlohmann dump, indented) and imported again; both imports must give
// the same records and the same calibration (or the same refusal), with finite numbers.
#include <cstdint>

#include <fmt/format.h>

#include "fuzz_common.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/measurements/bench_results.hpp"

using namespace gpuplan;

namespace {

std::string num(double v) {
    if (!std::isfinite(v)) fuzz::finding("non-finite number imported", fmt::format("{}", v));
    return fmt::format("{} ", v);
}
std::string opt(const std::optional<double>& v) { return v ? num(*v) : std::string("null "); }

// Everything the importer kept, as text.
std::string summary(const BenchResults& bench) {
    std::string s = bench.fingerprint.backend + "|" + bench.fingerprint.instance_type.value_or("-") + "|";
    for (const auto& g : bench.fingerprint.gpu_names) s += g + ",";
    for (const auto& r : bench.decode) {
        s += "\n" + r.case_name + " " + r.path + " ";
        const auto& p = r.params;
        s += num(p.chunks) + num(p.frames_per_chunk) + num(p.height) + num(p.width) + num(p.channels) + num(p.dtype_bytes) +
             opt(p.compute_ms) + p.host_stage + " " + opt(p.buffers) + num(r.buffers());
        for (double x : r.samples) s += num(x);
        const auto& st = r.stats;
        s += num(r.median) + num(st.min) + num(st.mean) + num(st.p99) + opt(st.kernel_active_fraction) + opt(st.chunk_compute_ms) +
             opt(st.chunk_d2h_ms) + opt(st.chunk_host_ms) + opt(st.compute_slowdown) + opt(st.rtf) + (st.checksums_ok ? "ok" : "bad");
    }
    for (const auto& c : bench.other_cases) s += "\nother " + c;
    try {
        const DecodeBenchCalibration cal = decode_calibration(bench);
        s += "\ncalibration ";
        for (const Param* p : {&cal.chunks, &cal.frames_per_chunk, &cal.height, &cal.width, &cal.channels, &cal.dtype_bytes, &cal.buffers})
            s += num(p->value);
        if (cal.measured_link_gb_per_s) s += num(cal.measured_link_gb_per_s->value);
        s += opt(cal.sync_rtf);
        for (const auto& n : cal.notes) s += n + ";";
    } catch (const InputError& e) {
        s += std::string("\ncalibration refused: ") + e.what();
    }
    return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = fuzz::as_text(data, size);
    std::string first;
    try {
        first = summary(parse_bench_results(text, "fuzz.json"));
    } catch (const InputError&) {
        return 0;  // refused with a message
    }
    fuzz::require_no_duplicate_keys(text);
    // Issue 34: the fingerprint, its GPUs and the run take only the writers' keys. The accepted
    // document with one unknown key added to each of them must be refused, naming it.
    const nlohmann::json accepted = nlohmann::json::parse(text);
    for (const auto* where : {"/fingerprint", "/fingerprint/gpus/0", "/run"}) {
        const nlohmann::json::json_pointer pointer(where);
        if (!accepted.contains(pointer) || !accepted.at(pointer).is_object()) continue;
        nlohmann::json typo = accepted;
        typo[pointer]["fuzz_unknown_key"] = true;
        try {
            (void)parse_bench_results(typo.dump(), "fuzz.json");
            fuzz::finding("an unknown key was accepted", where);
        } catch (const InputError& e) {
            if (std::string(e.what()).find("fuzz_unknown_key") == std::string::npos) fuzz::finding("the refusal does not name the unknown key", e.what());
        }
    }
    const std::string rewritten = nlohmann::json::parse(text).dump(2);
    try {
        if (summary(parse_bench_results(rewritten, "fuzz.json")) != first) fuzz::finding("bench results and their re-serialised form differ", first);
    } catch (const InputError& e) {
        fuzz::finding("bench results accepted, their re-serialised form refused", e.what());
    }
    return 0;
}
