// commands.hpp — the CLI's subcommands and the helpers they share.
//
// Each command group registers its subcommand(s) on the main app and returns a Runner: the
// work to do once argv is parsed and the catalog is loaded. A Runner returns the command's
// whole stdout text (main prints it only on success) and reports bad input by throwing
// gpuplan::InputError, which main turns into one stderr line and exit code 2.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "gpuplan/catalog.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/json_reader.hpp"
#include "output.hpp"

namespace gpuplan::cli {

using Runner = std::function<std::string(const Catalog&)>;

struct Command {
    CLI::App* app = nullptr;
    Runner run;
};

// catalog_cmd.cpp
Command register_catalog(CLI::App& parent);
Command register_show(CLI::App& parent);
// price_cmd.cpp
Command register_price(CLI::App& parent);
// fleet_idle_cmd.cpp
Command register_fleet(CLI::App& parent);
Command register_idle(CLI::App& parent);
// eval_cmd.cpp
Command register_eval(CLI::App& parent);
// devices_cmd.cpp
Command register_devices(CLI::App& parent);

// ---- shared helpers (common.cpp) ------------------------------------------------------------

inline constexpr std::string_view kExitCodes =
    "Exit codes: 0 ok; 1 internal error; 2 bad input (unknown instance or region, a flag out of\n"
    "range, an unreadable, oversized or invalid file). Errors are one line on stderr,\n"
    "\"gpuplan: error: ...\", and nothing is printed on stdout.";

// A validator for numeric flags: rejects text that is not a number, NaN, infinities and
// values outside `rule`, with a message naming the value and what was expected (CLI11
// prefixes the flag: "--hours: got nan; expected a finite number > 0").
CLI::Validator number_rule(NumberRule rule);

// `--format` restricted to `allowed` (the first is the default).
CLI::Option* add_format_option(CLI::App& app, Format& format, std::vector<Format> allowed);

// `--catalog FILE` (repeatable): extra catalog files loaded after the built-in catalog.
void add_catalog_option(CLI::App& app, std::vector<std::string>& files);

// `--region` with its default and help text.
CLI::Option* add_region_option(CLI::App& app, std::string& region);

// The text of a file, refusing anything over kMaxInputBytes before reading it whole.
// Throws InputError naming `where` (the flag or argument) and the path.
std::string read_input_file(const std::string& path, const std::string& where);

// The built-in catalog, then each file in order (a later record replaces an earlier one).
Catalog load_catalog_with_files(const std::vector<std::string>& files);

// Throws InputError naming `where` for a name not in the catalog (with close names).
const Instance& require_instance(const Catalog& catalog, const std::string& name, const std::string& where);
void require_region(const Catalog& catalog, const std::string& region, const std::string& where);

// Re-throws a core InputError whose location is a scenario path ("idle.workdays_per_month")
// under the CLI flag that set it ("--workdays"), so the message names what the user typed.
[[noreturn]] void rethrow_for_flag(const InputError& error, const std::vector<std::pair<std::string, std::string>>& path_to_flag);

std::string join(const std::vector<std::string>& parts, std::string_view separator);
std::string lower(std::string s);

}  // namespace gpuplan::cli
