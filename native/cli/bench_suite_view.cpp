// bench_suite_view.cpp — the table and notes of `gpuplan bench run` (bench_suite_view.hpp).
#include "bench_suite_view.hpp"

#include <fmt/format.h>

#include "gpuplan/text.hpp"

namespace gpuplan::cli {

namespace {

std::string num(const std::optional<double>& v, int places = 2) { return v ? fmt::format("{:.{}f}", *v, places) : std::string("unknown"); }

std::string params_text(const bench::Record& r) {
    const nlohmann::json& p = r.params;
    std::string s;
    const auto add = [&](const std::string& k, const std::string& label) {
        if (p.contains(k) && !p[k].is_null()) s += (s.empty() ? "" : " ") + label + "=" + (p[k].is_string() ? p[k].get<std::string>() : p[k].dump());
    };
    add("bytes", "bytes");
    add("array_bytes", "array");
    add("src", "src");
    add("dst", "dst");
    add("ranks", "ranks");
    add("numa_node", "numa");
    return s;
}

}  // namespace

std::string render_suite_run(const bench::SuiteRun& run, const nlohmann::json& fp, const bench::SuiteOptions& o, Format format, const std::string& json_file,
                   const std::string& backend_note) {
    std::string text;
    if (format == Format::table) {
        text += fmt::format("gpuplan bench run: {} backend on {}{}; {} mode\n", run.backend, fp["host"].get<std::string>(),
                            fp["instance_type"].is_string() ? " (" + fp["instance_type"].get<std::string>() + ")" : "",
                            o.depth == bench::Depth::quick ? "quick" : o.depth == bench::Depth::full ? "full" : "standard");
        if (!backend_note.empty()) text += "note: " + backend_note + "\n";
        if (run.backend == "cuda")
            text += "note: the single-GPU cases have run on one H200 only, and the peer-to-peer and NCCL paths on no GPU yet; compare with "
                    "nvbandwidth / BabelStream / nccl-tests (docs/benchmarks.md)\n";
        text += "timing: " + run.timing_method + "\nunits: GB/s = 10^9 bytes/s; p99 = the slowest 1% sample\n\n";
    }
    Table t;
    t.columns = {{"case", "case", false}, {"params", "params", false}, {"median", "median"}, {"unit", "unit", false},
                 {"min", "min"},           {"max", "max"},                {"p99", "p99"},       {"datasheet", "datasheet_peak"},
                 {"of datasheet", "fraction_of_peak"}, {"verdict", "verdict", false}, {"verified", "verified", false}};
    for (const auto& r : run.records)
        t.rows.push_back({text_cell(r.case_key), text_cell(params_text(r)),
                          r.status == "ok" ? text_cell(num(r.median)) : text_cell(r.status == "timed_out" ? "TIMED OUT" : "FAILED"),
                          text_cell(r.unit), text_cell(r.min ? num(r.min) : "-"), text_cell(r.max ? num(r.max) : "-"),
                          text_cell(r.p99 ? num(r.p99) : "-"), text_cell(num(r.datasheet.value)),
                          text_cell(r.fraction ? percent(*r.fraction) : "-"), text_cell(r.verdict.value_or("-")),
                          text_cell(r.verified ? "yes" : r.status == "ok" ? "NO" : "no")});
    if (!t.rows.empty()) text += render_table(t, format);
    std::string notes;
    for (const auto& w : run.waived) notes += fmt::format("WAIVED {}: {}\n", w.case_key, w.reason);
    for (const auto& e : run.errors) notes += "ERROR " + e + "\n";
    for (const auto& n : run.notes) notes += "note: " + n + "\n";
    if (!run.records.empty()) {
        std::size_t verified = 0;
        for (const auto& r : run.records) verified += r.verified;
        notes += fmt::format("verified: {} of {} records (every 8-byte word moved, or the STREAM results, checked)\n", verified, run.records.size());
    }
    if (!json_file.empty()) notes += "results: " + json_file + " (gpuplan.bench/1); planner: gpuplan calibrate " + json_file + " train ...\n";
    return text + (notes.empty() ? "" : (t.rows.empty() ? "" : "\n") + notes);
}

}  // namespace gpuplan::cli
