// calibrate_cmd.cpp — `gpuplan calibrate RESULTS [train ARGS...]`: the planner takes measured
// figures from a benchmark results file (gpuplan.bench/1, written by `gpuplan bench run` or
// gpuplan-bench-mpi) in place of datasheet ones (core/gpuplan/measurements/calibration.hpp,
// docs/benchmarks.md "Calibration").
//
// Alone it lists what the file measured and which planner figure each replaces. Followed by
// `train ...` it runs that prediction in-process with the measured figures passed as train's
// --measured-* flags (a flag the user gave wins), so train's output marks them "measured"; the
// header names each figure, its record and its file. Exit codes: 0 ok; 2 bad input (the
// message names the file and the JSON path of a bad value).
#include <fmt/format.h>

#include "commands.hpp"
#include "gpuplan/measurements/calibration.hpp"
#include "gpuplan/measurements/bench_results.hpp"

namespace gpuplan::cli {

namespace {

struct CalibrateOptions {
    std::string results;
    double gpus_per_node = 0;
    Format format = Format::table;
    CLI::App* app = nullptr;
};

// The value of `--flag V` or `--flag=V` in args, if given.
std::optional<std::string> flag_value(const std::vector<std::string>& args, const std::string& flag) {
    for (std::size_t k = 0; k < args.size(); ++k) {
        if (args[k] == flag && k + 1 < args.size()) return args[k + 1];
        if (args[k].rfind(flag + "=", 0) == 0) return args[k].substr(flag.size() + 1);
    }
    return std::nullopt;
}

std::string figure_lines(const BenchCalibration& c, const std::vector<std::string>& user_flags) {
    std::string s;
    for (const auto& f : c.figures) {
        const bool overridden = !f.flag.empty() && std::find(user_flags.begin(), user_flags.end(), f.flag) != user_flags.end();
        s += fmt::format("  {:<28} {:>10} GB/s  measured: {}{}\n", f.flag.empty() ? f.planner_figure + " (report only)" : f.flag,
                         format_number(f.value.value), f.from, overridden ? " — NOT applied: you gave " + f.flag + " yourself" : "");
    }
    for (const auto& s2 : c.skipped) s += "  not used: " + s2 + "\n";
    return s;
}

nlohmann::json calibration_json(const BenchResults& b, const BenchCalibration& c) {
    nlohmann::json figs = nlohmann::json::array();
    for (const auto& f : c.figures)
        figs.push_back({{"planner_figure", f.planner_figure}, {"flag", f.flag.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.flag)},
                        {"gb_per_s", f.value.value}, {"source", f.value.source}, {"from", f.from}});
    return {{"file", b.origin}, {"backend", b.fingerprint.backend},
            {"instance_type", b.fingerprint.instance_type ? nlohmann::json(*b.fingerprint.instance_type) : nlohmann::json(nullptr)},
            {"complete", b.complete}, {"figures", figs}, {"not_used", c.skipped}};
}

std::string run_calibrate(const CalibrateOptions& o, const Catalog& catalog) {
    const BenchResults bench = parse_bench_results(read_input_file(o.results, "RESULTS"), o.results);
    std::vector<std::string> rest = o.app->remaining();
    if (!rest.empty() && rest.front() != "train")
        throw InputError("calibrate: '" + rest.front() + "' after the results file", "'" + rest.front() + "'",
                         "nothing (list the measured figures) or `train ...` (a training prediction with them)");

    double gpn = o.gpus_per_node;
    if (gpn == 0)
        if (const auto inst = flag_value(rest, "--instance"))
            if (const Instance* i = catalog.find_instance(*inst); i && i->accelerator_count) gpn = *i->accelerator_count;
    if (gpn == 0 && !bench.fingerprint.gpu_names.empty()) gpn = static_cast<double>(bench.fingerprint.gpu_names.size());
    const BenchCalibration cal = calibrate_from_bench(bench, gpn);

    std::string head = fmt::format("calibration from {} ({} backend{}{}):\n", bench.origin, bench.fingerprint.backend,
                                   bench.fingerprint.instance_type ? " on " + *bench.fingerprint.instance_type : "",
                                   bench.complete ? "" : "; the run did NOT complete: figures from the cases that did");
    std::vector<std::string> user_flags;
    for (const auto& a : rest)
        if (a.rfind("--measured-", 0) == 0) user_flags.push_back(a.substr(0, a.find('=')));
    head += cal.figures.empty() ? "  no figure the planner can use (see `not used`)\n" : "";
    head += figure_lines(cal, user_flags);

    if (rest.empty()) {
        if (o.format == Format::json) return dump_json(calibration_json(bench, cal));
        return head + "\nUse them: gpuplan calibrate " + o.results + " train --model ... --instance ... (docs/benchmarks.md, \"Calibration\")\n";
    }

    // `train ...` in-process, with the measured figures as its --measured-* flags.
    std::vector<std::string> args = rest;
    for (const auto& f : cal.figures)
        if (!f.flag.empty() && std::find(user_flags.begin(), user_flags.end(), f.flag) == user_flags.end()) {
            args.push_back(f.flag);
            args.push_back(fmt::format("{}", f.value.value));
        }
    CLI::App inner{"gpuplan", "gpuplan"};
    const Command train = register_train(inner);
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    try {
        inner.parse(reversed);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success))
            throw InputError("calibrate ... train --help: run `gpuplan train --help` for train's options");
        throw InputError(std::string("calibrate ... train: ") + e.what() + " (see `gpuplan train --help`)");
    }
    const std::string out = train.run(catalog);
    if (flag_value(rest, "--format") == std::optional<std::string>("json")) {
        nlohmann::json j = nlohmann::json::parse(out);
        j["calibration"] = calibration_json(bench, cal);
        return dump_json(j);
    }
    return head + "\n" + out;
}

}  // namespace

Command register_calibrate(CLI::App& parent) {
    auto o = std::make_shared<CalibrateOptions>();
    CLI::App* app = parent.add_subcommand("calibrate", "Use measured figures from a `gpuplan bench run` results file in a prediction");
    o->app = app;
    app->prefix_command();  // everything after RESULTS (`train ...`) is passed through
    app->add_option("RESULTS", o->results, "A gpuplan.bench/1 results file (gpuplan bench run --json FILE, gpuplan-bench-mpi)")->required();
    app->add_option("--gpus-per-node", o->gpus_per_node, "GPUs sharing one node's network (default: train's --instance, else the results' GPUs)")
        ->check(whole_rule(1));
    add_format_option(*app, o->format, {Format::table, Format::json});
    app->footer(R"(Measured figure -> planner figure (per GPU, per direction):
  h2d_pinned / d2h_pinned (slower)           -> --measured-host-gb-per-s   (CPU offload)
  nccl_all_reduce busbw, else p2p_matrix min -> --measured-intra-gb-per-s
  multi-node NCCL busbw, else net_p2p_bw / GPUs per node -> --measured-inter-gb-per-s
Records that failed, timed out or did not verify are never used; cpu-backend copies never
stand in for PCIe.
Examples:
  gpuplan calibrate results.json
  gpuplan calibrate results.json train --model llama-3-8b --instance p5.48xlarge --zero 1 --offload-optimizer
  gpuplan calibrate net.json train --model llama-3-8b --instance p5.48xlarge --nodes 2 --zero 1)");
    return {app, [o](const Catalog& catalog) { return run_calibrate(*o, catalog); }};
}

}  // namespace gpuplan::cli
