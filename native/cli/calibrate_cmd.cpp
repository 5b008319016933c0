// calibrate_cmd.cpp — `gpuplan calibrate RESULTS [train ARGS...]`: the planner takes measured
// figures from a benchmark results file (gpuplan.bench/1, written by `gpuplan bench run` or
// gpuplan-bench-mpi) in place of datasheet ones (core/gpuplan/measurements/calibration.hpp,
// docs/benchmarks.md "Calibration").
//
// Alone it lists what the file measured and which planner figure each replaces
// (calibrate_from_bench). `calibrate RESULTS train ARGS` is `train ARGS --calibration RESULTS`:
// the core applies the measured figures (apply_calibration; a --measured-* flag the user gave
// wins), and train's output marks them "measured". Exit codes: 0 ok; 2 bad input (the message
// names the file and the JSON path of a bad value).
#include <fmt/format.h>

#include "commands.hpp"
#include "gpuplan/measurements/calibration.hpp"
#include "gpuplan/measurements/bench_results.hpp"

namespace gpuplan::cli {

std::string calibration_text(const BenchResults& bench, const BenchCalibration& c, const CalibrationUse& use) {
    return measured_figures_text(fmt::format("calibration from {} ({} backend{}{}):\n", bench.origin, bench.fingerprint.backend,
                                             bench.fingerprint.instance_type ? " on " + *bench.fingerprint.instance_type : "",
                                             bench.complete ? "" : "; the run did NOT complete: figures from the cases that did"),
                                 c, use, "measured");
}

std::string measured_figures_text(std::string heading, const BenchCalibration& c, const CalibrationUse& use, std::string_view how) {
    std::string s = std::move(heading);
    if (c.figures.empty()) s += "  no figure the planner can use (see `not used`)\n";
    for (const auto& f : c.figures) {
        const bool overridden = std::find(use.not_applied.begin(), use.not_applied.end(), &f) != use.not_applied.end();
        s += fmt::format("  {:<28} {:>10} GB/s  {}: {}{}\n", f.flag.empty() ? f.planner_figure + " (report only)" : f.flag,
                         format_number(f.value.value), how, f.from, overridden ? " — NOT applied: you gave " + f.flag + " yourself" : "");
    }
    for (const auto& skipped : c.skipped) s += "  not used: " + skipped + "\n";
    return s;
}

namespace {

struct CalibrateOptions {
    std::string results;
    double gpus_per_node = 0;
    Format format = Format::table;
    CLI::App* app = nullptr;
};

std::string run_calibrate(const CalibrateOptions& o, const Catalog& catalog) {
    const BenchResults bench = parse_bench_results(read_input_file(o.results, "RESULTS"), o.results);
    const std::vector<std::string> rest = o.app->remaining();
    if (!rest.empty() && rest.front() != "train")
        throw InputError("calibrate: '" + rest.front() + "' after the results file", "'" + rest.front() + "'",
                         "nothing (list the measured figures) or `train ...` (a training prediction with them)");
    if (!rest.empty()) {
        // `calibrate RESULTS train ARGS` is `train ARGS --calibration RESULTS`.
        if (o.gpus_per_node > 0) throw InputError("--gpus-per-node: applies to the listing; with `train` the instance's GPUs per node are used");
        std::vector<std::string> args(rest.begin() + 1, rest.end());
        args.insert(args.end(), {"--calibration", o.results});
        CLI::App inner{"gpuplan", "gpuplan"};
        const Command train = register_train(inner);
        std::vector<std::string> reversed(args.rbegin(), args.rend());
        reversed.push_back("train");
        try {
            inner.parse(reversed);
        } catch (const CLI::ParseError& e) {
            if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success))
                throw InputError("calibrate ... train --help: run `gpuplan train --help` for train's options");
            throw InputError(std::string("calibrate ... train: ") + e.what() + " (see `gpuplan train --help`)");
        }
        return train.run(catalog);
    }
    double gpn = o.gpus_per_node;
    if (gpn == 0 && !bench.fingerprint.gpu_names.empty()) gpn = static_cast<double>(bench.fingerprint.gpu_names.size());
    const BenchCalibration cal = calibrate_from_bench(bench, gpn);
    if (o.format == Format::json) return dump_json(to_json(bench, cal));
    return calibration_text(bench, cal, {}) + "\nUse them: gpuplan train ... --calibration " + o.results +
           " (docs/benchmarks.md, \"Calibration\")\n";
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
