// commands.hpp — the CLI's subcommands and the helpers they share.
//
// Each command group registers its subcommand(s) on the main app and returns a Runner: the
// work to do once argv is parsed and the catalog is loaded. A Runner returns the command's
// whole stdout text (main prints it only on success) and reports bad input by throwing
// gpuplan::InputError, which main turns into one stderr line and exit code 2.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/json_reader.hpp"
#include "gpuplan/text.hpp"
#include "gpuplan/measurements/calibration.hpp"
#include "gpuplan/topology/machine_topology.hpp"
#include "gpuplan/workload/memory.hpp"
#include "gpuplan/workload/model.hpp"
#include "gpuplan/pricing/quota.hpp"
#include "output.hpp"

namespace gpuplan::cli {

using Runner = std::function<std::string(const Catalog&)>;

// What a command says beside its output, one line each on stderr after "gpuplan: note: "
// (an old spelling read and what it became). Shared by the command's flags and its runner.
using Notes = std::shared_ptr<std::vector<std::string>>;

struct Command {
    CLI::App* app = nullptr;
    Runner run;
    Notes notes = std::make_shared<std::vector<std::string>>();
    // False for a command that reads no catalog (`gui` hands its command line to gpuplan-gui,
    // which loads the catalog itself): run() then does not load it (~25 ms; docs/performance.md).
    bool needs_catalog = true;
};

// catalog_cmd.cpp
Command register_catalog(CLI::App& parent);
Command register_show(CLI::App& parent);
// price_cmd.cpp
Command register_price(CLI::App& parent);
// prices_cmd.cpp (`prices import`: AWS Price List offer files -> a catalog price overlay)
Command register_prices(CLI::App& parent);
// spot_fleet_cmd.cpp (`spot-fleet`: a weighted spot fleet over types and zones)
Command register_spot_fleet(CLI::App& parent);
// fleet_cmd.cpp, idle_cmd.cpp
Command register_fleet(CLI::App& parent);
Command register_idle(CLI::App& parent);
// eval_cmd.cpp
Command register_eval(CLI::App& parent);
// devices_cmd.cpp
Command register_devices(CLI::App& parent);
// models_cmd.cpp, fit_cmd.cpp, infer_cmd.cpp (workload models)
Command register_models(CLI::App& parent);
Command register_fit(CLI::App& parent);
Command register_infer(CLI::App& parent);
// recommend_cmd.cpp
Command register_recommend(CLI::App& parent);
// train_cmd.cpp
Command register_train(CLI::App& parent);
// simulate_cmd.cpp (`simulate decode`)
Command register_simulate(CLI::App& parent);
// serve_plan_cmd.cpp (`serve-plan`: serving fleets over a demand curve), usage_cmd.cpp (`usage generate`)
Command register_serve_plan(CLI::App& parent);
Command register_usage(CLI::App& parent);
// bench_cmd.cpp (`bench decode`)
Command register_bench(CLI::App& parent);
// calibrate_cmd.cpp (`calibrate RESULTS [train ...]`: measured figures in a prediction)
Command register_calibrate(CLI::App& parent);
// collective_cmd.cpp (`collective`: one bare collective with nccl-tests' bandwidths)
Command register_collective(CLI::App& parent);
// topology_cmd.cpp (`topology import`: a machine's own topology from an NCCL log or nvidia-smi)
Command register_topology(CLI::App& parent);
// validate_cmd.cpp (`validate`: predictions against the published measurements of assets/validation/)
Command register_validate(CLI::App& parent);
// native/gui/gui_cmd.cpp (`gui`: the planner's views in a desktop window)
Command register_gui(CLI::App& parent);

// ---- pricing helpers (common.cpp; fleet_cmd.cpp, idle_cmd.cpp) ------------------------------

// A catalog on-demand price as a Param, or an InputError naming `flag`.
Param catalog_on_demand(const Catalog& catalog, const Instance& inst, const std::string& region, const std::string& flag);
// Label | value table (text/md) for summary figures; CSV writes every figure in full.
std::string summary_table(const std::vector<std::pair<std::string, Cell>>& lines, Format format);
// A figure's value from its JSON (the figures named always have one).
double figure_value(const NamedFigures& figures, const std::string& name);

// calibrate_cmd.cpp: "calibration from FILE (...)" and one line per measured figure, saying
// which the prediction did not take because the user gave that figure (shared by `train`).
std::string calibration_text(const BenchResults& bench, const BenchCalibration& calibration, const CalibrationUse& use);
// The same lines under any heading, each figure introduced by `how` ("measured"; "as NCCL
// reports it" for train --topology: NCCL's path bandwidths come from the link types it detected).
std::string measured_figures_text(std::string heading, const BenchCalibration& calibration, const CalibrationUse& use, std::string_view how);

// A command that ran and failed for a reason other than bad input, with its own exit code,
// documented in its --help (bench: 3 no usable GPU, 4 the run failed verification or I/O).
// main prints the message as one "gpuplan: error:" line and exits with that code.
class CommandFailure : public std::runtime_error {
public:
    // `output`: what stdout still gets (a results document that says what failed), or "".
    CommandFailure(int exit_code, const std::string& message, std::string output = "")
        : std::runtime_error(message), exit_code_(exit_code), output_(std::move(output)) {}
    int exit_code() const { return exit_code_; }
    const std::string& output() const { return output_; }

private:
    int exit_code_;
    std::string output_;
};

// ---- shared helpers (common.cpp) ------------------------------------------------------------

inline constexpr std::string_view kExitCodes =
    "Exit codes: 0 ok; 1 internal error; 2 bad input (unknown instance or region, a flag out of\n"
    "range, an unreadable, oversized or invalid file). Errors are one line on stderr,\n"
    "\"gpuplan: error: ...\", and nothing is printed on stdout.";

// A flag's value as a message shows it: whole up to 40 characters, else its start and its
// length, so a 300-digit number does not fill the terminal (issue 34).
std::string value_shown(const std::string& text);

// A validator for numeric flags: rejects text that is not a number, NaN, infinities and
// values outside `rule`, with a message naming the value and what was expected (CLI11
// prefixes the flag: "--hours: got nan; expected a finite number > 0").
CLI::Validator number_rule(NumberRule rule);

// An efficiency flag: a number in (0, 1]; `example` shows the notation ("0.8 = 80%").
CLI::Validator efficiency_rule(const std::string& example);

// `--format` restricted to `allowed` (the first is the default).
CLI::Option* add_format_option(CLI::App& app, Format& format, std::vector<Format> allowed);

// `--catalog FILE` (repeatable): extra catalog files loaded after the built-in catalog.
void add_catalog_option(CLI::App& app, std::vector<std::string>& files);

// `--region` with its default and help text.
CLI::Option* add_region_option(CLI::App& app, std::string& region);

// The text of a file, refusing anything over `max_bytes` before reading it whole.
// Throws InputError naming `where` (the flag or argument) and the path.
std::string read_input_file(const std::string& path, const std::string& where, std::size_t max_bytes = kMaxInputBytes);
// NCCL logs grow with the job and the topology dump is near the start: 256 MiB keeps a whole
// day's log readable (the parser is one linear pass).
inline constexpr std::size_t kMaxTopologyLogBytes = 256u * 1024u * 1024u;
// A topology file (an NCCL log or nvidia-smi topo -m output) read and imported; an error names
// `where` (the flag or argument) before the file and line.
MachineTopology read_topology_file(const std::string& path, const std::string& where);

// The built-in catalog, then each file in order (a later record replaces an earlier one).
Catalog load_catalog_with_files(const std::vector<std::string>& files);

// Throws InputError naming `where` for a name not in the catalog (with close names).
const Instance& require_instance(const Catalog& catalog, const std::string& name, const std::string& where);
void require_region(const Catalog& catalog, const std::string& region, const std::string& where);

// Re-throws a core InputError whose location is a scenario path ("idle.workdays_per_month")
// under the CLI flag that set it ("--workdays"), so the message names what the user typed.
[[noreturn]] void rethrow_for_flag(const InputError& error, const std::vector<std::pair<std::string, std::string>>& path_to_flag);

// Levenshtein distance, for "did you mean" suggestions.
std::size_t edit_distance(const std::string& a, const std::string& b);
using gpuplan::lower;  // text.hpp

// ---- vCPU quotas (models_cmd.cpp) ---------------------------------------------------------------

// `--quota CLASS=N` (repeatable): the account's vCPU quota of a class (core: pricing/quota.hpp).
void add_quota_option(CLI::App& app, std::vector<std::string>& quotas);
AccountQuotas account_quotas(const std::vector<std::string>& quotas);

// ---- workload helpers (models_cmd.cpp, fit_cmd.cpp) -------------------------------------------

// `--models-file FILE` (repeatable): models (gpuplan.models/1) loaded after the built-in presets.
void add_models_file_option(CLI::App& app, std::vector<std::string>& files);
// A config.json among `files` becomes a model named after the file; what it left out or did not
// read goes to `notes`.
std::vector<ModelSpec> load_models_with_files(const std::vector<std::string>& files, const Notes& notes = nullptr);
// Throws InputError naming `where` for an unknown model, with close names. An empty name is the
// one model a config.json gave (an error without exactly one).
const ModelSpec& require_model(const std::vector<ModelSpec>& models, const std::string& name, const std::string& where);
const ModelSpec& require_named_model(const std::vector<ModelSpec>& models, const std::string& name, const std::string& where);
// Whole numbers >= min_value ("--batch: got -1; expected a whole number >= 1").
CLI::Validator whole_rule(double min_value);
// Whole numbers from lo to hi ("--chunks: got 0; expected a whole number from 1 to 100,000"): a count
// that is converted to int must be bounded here, before the conversion (1e12 samples overflowed an int).
CLI::Validator whole_in(double lo, double hi);
// A timeout flag: seconds > 0 and at most one day, bounded before any duration_cast.
CLI::Validator timeout_seconds_rule();
// One of `allowed` (lower case; the text is lower-cased when it matches, so give it to
// transform(): check() works on a copy).
CLI::Validator choice_rule(std::vector<std::string> allowed);
// Any text but the empty one: `--cases ''` is a mistake, not "every case" (issue 34).
CLI::Validator non_empty_rule(std::string expected);
// A price kind in today's spelling ("on-demand", "spot"); the spelling before 2026-11-29
// ("on_demand", "spot_typical") is taken as today's with a note, so old scripts keep working.
CLI::Validator price_kind_rule(Notes notes, std::string flag);  // rewrites the text: give it to transform(), not check()
// Any purchase option's key (purchase_option.hpp), an old price-kind spelling rewritten; for transform().
CLI::Validator purchase_option_rule(Notes notes, std::string flag);

}  // namespace gpuplan::cli
