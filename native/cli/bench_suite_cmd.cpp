// bench_suite_cmd.cpp — `gpuplan bench run [CASE...]` and `gpuplan bench list`: the
// host<->device, device-memory, peer-to-peer and NCCL cases of native/bench/suite.hpp
// (docs/benchmarks.md). The CLI translates flags -> SuiteOptions, gives the suite the catalog's
// datasheet figures (core/gpuplan/measurements/calibration.hpp), writes --json FILE after every case
// (temp + rename: always a complete document, partial results marked "complete": false), and
// renders the records. Progress goes to stderr (a terminal, or --progress).
//
// Exit codes: 0 every selected case ran and verified, or was WAIVED; 2 bad input; 3 --backend
// cuda without a usable GPU; 4 a case failed, did not verify or timed out (the message names
// them; --json FILE holds every record and the errors); 130 / 143 a signal (the file holds the
// cases finished before it and names those that did not finish).
#include <unistd.h>

#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "bench_exit_codes.hpp"
#include "bench_suite_cmd.hpp"
#include "bench_suite_view.hpp"
#include "gpuplan/measurements/calibration.hpp"
#include "suite.hpp"
#include "suite_json.hpp"
#include "transfer_faults.hpp"

#ifndef GPUPLAN_VERSION
#define GPUPLAN_VERSION "0.0.0"
#endif

namespace gpuplan::cli {

namespace {

struct SuiteFlags {
    std::vector<std::string> cases, cases_flag;
    std::string backend = "auto";
    bool quick = false, full = false, progress = false;
    std::string size;
    double samples = 0, warmup = -1, timeout_s = 10, probe_timeout_s = 0.5;
    std::string json_file, instance_type;
    std::string inject_corrupt, inject_hang, inject_failure, inject_fault;
    Format format = Format::table;
    CLI::App* app = nullptr;
};

// The backend a run uses: --backend cpu/cuda as asked; auto = cuda when a GPU answers, else cpu
// (with a note saying why).
std::shared_ptr<bench::TransferBackend> pick_backend(const std::string& name, bench::CpuFaults* faults, std::string* note) {
    if (name == "cpu") return bench::make_cpu_transfer_backend(faults);
    if (name == "cuda") return bench::make_cuda_transfer_backend();
    try {
        return bench::make_cuda_transfer_backend();
    } catch (const bench::BenchError& e) {
        if (note) *note = std::string(e.what()) + " -> the cpu backend measures host memory instead";
        return bench::make_cpu_transfer_backend(faults);
    }
}

bench::ExpectFn expectations(const Catalog& catalog, const std::optional<std::string>& instance, const std::string& backend) {
    return [&catalog, instance, backend](const std::string& kind) -> bench::Expectation {
        if (backend != "cuda")
            return {std::nullopt, "the " + backend + " backend moves host memory: no catalog figure applies"};
        if (!instance) return {std::nullopt, "instance type unknown (not on EC2, no --instance-type): no datasheet figure"};
        const DatasheetFigure f = datasheet_figure(catalog, *instance, kind);
        return {f.gb_per_s, f.source};
    };
}

std::string run_suite_command(const SuiteFlags& f, const Catalog& catalog) {
    bench::SuiteOptions o;
    std::vector<std::string> selection = f.cases;
    for (const auto& c : f.cases_flag) {
        std::string rest = c;
        while (!rest.empty()) {
            const auto comma = rest.find(',');
            if (const std::string item = rest.substr(0, comma); !item.empty()) selection.push_back(item);
            rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
        }
    }
    try {
        bench::resolve_selection(selection);
    } catch (const bench::BenchError& e) {
        throw InputError(std::string(f.cases_flag.empty() ? "CASE" : "--cases") + ": " + e.what());
    }
    o.selection = selection;
    if (f.quick && f.full) throw InputError("--quick and --full: give one of them (quick: ~2 minutes on one GPU; full: more sizes and samples)");
    o.depth = f.quick ? bench::Depth::quick : f.full ? bench::Depth::full : bench::Depth::standard;
    if (!f.size.empty()) {
        o.size_bytes = bench::parse_size(f.size);
        if (!o.size_bytes) throw InputError("--size", "'" + f.size + "'", "a whole number of bytes >= 8 such as 4096, 64MiB, 1GiB or 500MB");
    }
    if (f.samples > 0) o.samples = static_cast<int>(f.samples);
    if (f.warmup >= 0) o.warmup = static_cast<int>(f.warmup);
    o.timeout_s = f.timeout_s;
    o.p2p_probe_timeout_s = f.probe_timeout_s;
    std::optional<std::string> instance;
    if (!f.instance_type.empty()) instance = require_instance(catalog, f.instance_type, "--instance-type").name;

    bench::CpuFaults faults;
    if (!f.inject_corrupt.empty() || !f.inject_hang.empty() || !f.inject_failure.empty()) {
        if (f.backend != "cpu") throw InputError("--inject-*: fault injection needs --backend cpu");
        o.faults = &faults;
        o.inject_corrupt_case = f.inject_corrupt, o.inject_hang_case = f.inject_hang, o.inject_throw_case = f.inject_failure;
    }
    bench::RunInfo info;
    info.tool = "gpuplan bench run";
    info.version = GPUPLAN_VERSION;
    info.depth = o.depth == bench::Depth::quick ? "quick" : o.depth == bench::Depth::full ? "full" : "standard";
    info.started_utc = bench::utc_now_iso8601();
    info.options = {{"selection", selection},
                    {"size_bytes", o.size_bytes ? nlohmann::json(*o.size_bytes) : nlohmann::json(nullptr)},
                    {"samples", o.samples > 0 ? nlohmann::json(o.samples) : nlohmann::json(nullptr)},
                    {"warmup", o.warmup >= 0 ? nlohmann::json(o.warmup) : nlohmann::json(nullptr)},
                    {"timeout_s", o.timeout_s},
                    {"p2p_probe_timeout_s", o.p2p_probe_timeout_s}};
    std::string backend_note;
    std::shared_ptr<bench::TransferBackend> be;
    try {
        be = pick_backend(f.backend, &faults, &backend_note);
    } catch (const bench::BenchError& e) {
        if (!f.json_file.empty() && f.json_file != "-") {  // the file is always written: here with the reason nothing ran
            bench::SuiteRun none;
            none.backend = f.backend;
            none.errors.push_back(e.what());
            try {
                bench::write_json_atomically(f.json_file, bench::suite_document(bench::suite_fingerprint(nullptr, f.backend, instance), info, none));
            } catch (const bench::BenchError&) {
            }
        }
        throw CommandFailure(kExitNoGpu, e.what());
    }
    if (!f.inject_fault.empty()) {
        try {
            be = bench::with_transfer_fault(be, bench::parse_transfer_fault(f.inject_fault));
        } catch (const bench::BenchError& e) {
            throw InputError(e.what());
        }
    }
    const nlohmann::json fp = bench::suite_fingerprint(be.get(), be->name(), instance);
    const bool to_file = !f.json_file.empty() && f.json_file != "-";
    if (to_file) {  // refuse an unwritable path before measuring anything; the file is valid from here on
        bench::SuiteRun starting;
        starting.backend = be->name();
        starting.cases_pending = bench::resolve_selection(o.selection);  // nothing has run yet
        try {
            bench::write_json_atomically(f.json_file, bench::suite_document(fp, info, starting));
        } catch (const bench::BenchError& e) {
            throw InputError(e.what());
        }
    }
    std::optional<std::string> fp_instance;
    if (fp["instance_type"].is_string()) fp_instance = fp["instance_type"].get<std::string>();
    if (fp_instance && !catalog.find_instance(*fp_instance)) fp_instance.reset();
    o.expect = expectations(catalog, fp_instance, be->name());
    if (f.progress || isatty(STDERR_FILENO)) o.progress = [](const std::string& line) { std::cerr << "gpuplan bench: " << line << "\n" << std::flush; };
    if (!backend_note.empty() && o.progress) o.progress("note: " + backend_note);

    const auto save = [&](const bench::SuiteRun& run) {
        if (to_file) bench::write_json_atomically(f.json_file, bench::suite_document(fp, info, run));
    };
    bench::SuiteRun run;
    try {
        run = bench::run_suite(*be, o, save);
    } catch (const bench::BenchError& e) {
        throw CommandFailure(kExitRunFailed, e.what());
    }
    if (!run.errors.empty()) {
        std::string list;
        for (const auto& e : run.errors) list += (list.empty() ? "" : "; ") + e;
        // With --json - the whole document still goes to stdout: every record, the errors, "complete".
        throw CommandFailure(kExitRunFailed,
                             std::to_string(run.errors.size()) + " case(s) failed: " + list + (to_file ? " (every record and error: " + f.json_file + ")" : ""),
                             f.json_file == "-" ? dump_json(bench::suite_document(fp, info, run)) : "");
    }
    if (f.json_file == "-") return dump_json(bench::suite_document(fp, info, run));
    return render_suite_run(run, fp, o, f.format, to_file ? f.json_file : "", backend_note);
}

std::string run_list_command(const std::string& backend_name, Format format) {
    std::string note;
    std::shared_ptr<bench::TransferBackend> be;
    try {
        be = pick_backend(backend_name, nullptr, &note);
    } catch (const bench::BenchError& e) {
        note = e.what();
    }
    Table t;
    t.columns = {{"case", "case", false}, {"group", "group", false}, {"here", "runs_here", false}, {"why not / what it measures", "detail", false}};
    nlohmann::json cases = nlohmann::json::array();
    for (const auto& c : bench::suite_cases()) {
        const std::optional<std::string> why = be ? bench::waiver(c.key, *be) : std::optional<std::string>(note);
        t.rows.push_back({text_cell(c.key), text_cell(c.group), text_cell(why ? "WAIVED" : "yes"), text_cell(why ? *why : c.what)});
        cases.push_back({{"case", c.key}, {"group", c.group}, {"runs_here", !why}, {"waived_reason", why ? nlohmann::json(*why) : nlohmann::json(nullptr)},
                         {"what", c.what}, {"bytes_counted", c.bytes_counted}});
    }
    const std::string backend = be ? be->name() : backend_name;
    if (format == Format::json) return dump_json({{"backend", backend}, {"note", note.empty() ? nlohmann::json(nullptr) : nlohmann::json(note)}, {"cases", cases}});
    std::string head = "gpuplan bench list: what the " + backend + " backend can run here\n";
    if (!note.empty()) head += "note: " + note + "\n";
    return head + "\n" + render_table(t, format) +
           "\nRun: gpuplan bench run [CASE|GROUP...] --quick --json results.json   (network: gpuplan-bench-mpi under mpirun)\n";
}

}  // namespace

BenchSuiteCommands register_bench_suite(CLI::App& bench) {
    BenchSuiteCommands out;
    auto f = std::make_shared<SuiteFlags>();
    CLI::App* run = bench.add_subcommand("run", "Host<->device copies, device memory (STREAM), GPU peer-to-peer and NCCL collectives, each verified "
                                                 "before it reports (docs/benchmarks.md)");
    f->app = run;
    run->add_option("CASE", f->cases, "Case keys or groups (host, dmem, p2p, nccl) to run; none: all (see `gpuplan bench list`)")
        ->check(non_empty_rule("a case key or group (see `gpuplan bench list`)"));
    run->add_option("--cases", f->cases_flag, "The same as a comma list: h2d_pinned,dmem_triad")
        ->type_name("LIST")
        ->check(non_empty_rule("case keys, such as h2d_pinned,dmem_triad (leave the flag out to run every case)"));
    run->add_option("--backend", f->backend, "auto (cuda when a GPU answers, else cpu), cuda, or cpu (memcpy and threads on host memory)")
        ->capture_default_str()
        ->transform(choice_rule({"auto", "cuda", "cpu"}))
        ->type_name("BACKEND");
    run->add_flag("--quick", f->quick, "64 MiB transfers, 1 warm-up + 5 samples (under 2 minutes on a single-GPU instance)");
    run->add_flag("--full", f->full, "1 GiB transfers, 3 warm-up + 50 samples");
    run->add_option("--size", f->size, "Bytes per transfer and per STREAM array (>= 4 x L2 is enforced for STREAM): 4096, 64MiB, 1GiB, 500MB")
        ->type_name("SIZE");
    run->add_option("--samples", f->samples, "Timed samples per case (default by mode: 5 / 20 / 50)")->check(whole_in(1, 100000));
    run->add_option("--warmup", f->warmup, "Untimed warm-up samples (default by mode: 1 / 2 / 3)")->check(whole_in(0, 10000));
    run->add_option("--timeout-s", f->timeout_s, "Longest one sample may take before its case stops (timed_out)")
        ->capture_default_str()
        ->check(timeout_seconds_rule());
    run->add_option("--probe-timeout-s", f->probe_timeout_s, "Longest the verified-access probe of a GPU pair may take")
        ->capture_default_str()
        ->check(timeout_seconds_rule());
    run->add_option("--json", f->json_file, "Write the results (gpuplan.bench/1) to FILE, rewritten after every case; - prints them on stdout instead of the table")
        ->type_name("FILE");
    run->add_option("--instance-type", f->instance_type, "EC2 instance type for datasheet figures (default: local EC2 metadata, if any)")
        ->type_name("INSTANCE");
    run->add_flag("--progress", f->progress, "Progress on stderr even when it is not a terminal");
    add_format_option(*run, f->format, {Format::table, Format::md, Format::csv});
    const std::string faults = "Fault injection (tests; --backend cpu)";
    run->add_option("--inject-corrupt", f->inject_corrupt, "Flip one byte in this case's destination after its copies")->group(faults);
    run->add_option("--inject-hang", f->inject_hang, "Every run of this case hangs until its timeout stops it (tests the timeout)")->group(faults);
    run->add_option("--inject-failure", f->inject_failure, "This case throws before measuring (tests partial results)")->group(faults);
    run->add_option("--inject-fault", f->inject_fault,
                    "STAGE:N on either backend: the Nth allocation (alloc:N), run (copy:N) or verification read (verify:N) fails, or the Nth run hangs "
                    "until its timeout (hang:copy:N)")
        ->type_name("[hang:]STAGE:N")
        ->check(non_empty_rule("[hang:]STAGE:N, such as copy:2"))
        ->group("Fault injection (tests)");
    run->footer(R"(Cases run in table order; a case that cannot run here is WAIVED with the reason, never failed.
Without a GPU, --backend auto measures host memory with the cpu backend (and says so).
Examples:
  gpuplan bench list
  gpuplan bench run --quick --json results.json
  gpuplan bench run h2d_pinned d2h_pinned dmem --size 256MiB
  gpuplan bench run --backend cpu --cases host,dmem --size 16MiB --samples 5
  mpirun -np 2 --host a,b gpuplan-bench-mpi --json net.json     (network and multi-node NCCL)
  gpuplan bench run --backend cpu host --inject-fault hang:copy:2 --timeout-s 1 --json -   (exit 4, JSON naming the timeout)

Exit codes: 0 every case ran and verified, or was WAIVED; 1 internal error; 2 bad input (unknown
case, bad --size); 3 --backend cuda without a usable GPU; 4 a case failed, did not verify or
timed out (--json FILE still holds every record, the errors and "complete"); 130 / 143 ended by
Ctrl-C / SIGTERM (--json FILE holds the cases finished before it, "complete": false and the
cases not finished, "cases_pending"). Errors are one line on stderr, "gpuplan: error: ...",
and nothing is printed on stdout.)");
    out.run = run;
    out.run_runner = [f](const Catalog& catalog) { return run_suite_command(*f, catalog); };

    auto list_backend = std::make_shared<std::string>("auto");
    auto list_format = std::make_shared<Format>(Format::table);
    CLI::App* list = bench.add_subcommand("list", "Every `bench run` case, and whether it can run here (and why not)");
    list->add_option("--backend", *list_backend, "auto, cuda or cpu")->capture_default_str()->transform(choice_rule({"auto", "cuda", "cpu"}))->type_name("BACKEND");
    add_format_option(*list, *list_format, {Format::table, Format::json, Format::md, Format::csv});
    list->footer("Examples:\n  gpuplan bench list\n  gpuplan bench list --backend cpu --format json");
    out.list = list;
    out.list_runner = [list_backend, list_format](const Catalog&) { return run_list_command(*list_backend, *list_format); };
    return out;
}

}  // namespace gpuplan::cli
