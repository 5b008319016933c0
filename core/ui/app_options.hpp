// app_options.hpp — the planner's start-up options, parsed by one CLI11 parser for every shell
// (interface 4 of the team brief).
//
// The browser page turns its link's parameters into arguments (`#view=costs&theme=dark` becomes
// `--view=costs --theme=dark`, web/shell/shell.js; the state rides in the fragment, `?embed=1`
// in the query) and `gpuplan gui` passes its own command-line arguments (or a whole link with
// --link), so a link and a terminal command mean the same thing:
//   ?embed=1#view=costs&z=<deflated>&theme=dark&catalog-table=family%3Dp5&chart-ranges=costs-months%3D24
//   gpuplan gui --view costs --scenario <encoded> --embed --theme dark --catalog-table 'family=p5' --chart-ranges costs-months=24
// The page compresses the scenario (`z=`, raw deflate) and expands it into --scenario before
// parsing; older links carry `scenario=` as it is.
// The scenario is the URL codec's text (gpuplan/scenario/scenario_url.hpp): minified JSON, base64url.
//
// Parsing is forgiving on purpose: a link pasted from a chat may be half broken, and the user
// should still get what could be read. Each option that is wrong is reported and left at its
// default; the others are kept.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ui/app.hpp"

namespace CLI {
class App;
}

namespace gpuplan::ui {

// What a shell starts with. Every field has the default a plain `?` URL gets.
struct AppOptions {
    View view = View::catalog;                // --view NAME (catalog, costs, ..., measurements)
    std::optional<nlohmann::json> scenario;   // --scenario TEXT, decoded; nullopt = none given
    bool embed = false;                       // --embed: one view, no chrome (iframes)
    std::optional<bool> dark_theme;           // --theme dark|light; nullopt = the shell's default
    bool debug = false;                       // --debug: the status line shows frame times
    std::string catalog;                      // --catalog-table: the catalog table's search, filters, compare, sort
                                              // and hidden columns (catalog_link.hpp); "" = as it opens
    std::string chart_ranges;                 // --chart-ranges: the charts' ranges (chart_link.hpp); "" = defaults
};

// Registers --view, --scenario, --embed, --theme and --debug on `app`, writing raw text into `raw`;
// a shell adds its own options next to these (gpuplan gui: --screenshot, --frames, ...).
struct RawAppOptions {
    std::string view, scenario, theme, catalog, chart_ranges;
    bool embed = false, debug = false;
};
void add_app_options(CLI::App& app, RawAppOptions& raw);

// Decodes what add_app_options read (view name, scenario codec, theme). Throws InputError
// naming the flag ("--scenario", "--view") for a value that does not decode.
AppOptions resolve_app_options(const RawAppOptions& raw);

struct ParsedAppOptions {
    AppOptions options;
    // One line per option that could not be used, naming it and why ("" when all were fine);
    // the option was left at its default.
    std::vector<std::string> errors;
};

// Parses `args` (no program name; "--view=costs" or "--view", "costs"). Never throws for bad
// input: an option that fails is reported in `errors` and the rest are still applied.
ParsedAppOptions parse_app_arguments(const std::vector<std::string>& args);

// The arguments that reproduce `options` (the inverse of parse_app_arguments), in URL form
// ("--view=costs", "--scenario=...") — the shells build links and window titles from them.
std::vector<std::string> app_arguments(const AppOptions& options);

}  // namespace gpuplan::ui
