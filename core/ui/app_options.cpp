// app_options.cpp — see app_options.hpp. CLI11 only; no platform code.
#include "ui/app_options.hpp"

#include <algorithm>
#include <iterator>

#include <CLI/CLI.hpp>

#include "gpuplan/input_error.hpp"
#include "gpuplan/scenario/scenario_url.hpp"
#include "ui/catalog_link.hpp"
#include "ui/chart_link.hpp"

namespace gpuplan::ui {

namespace {

std::string view_names() {
    std::string names;
    for (View v : kAllViews) names += std::string(names.empty() ? "" : ", ") + view_name(v);
    return names;
}

// Groups arguments into options: "--name=value" alone, or "--name" plus the words after it.
std::vector<std::vector<std::string>> group_arguments(const std::vector<std::string>& args) {
    std::vector<std::vector<std::string>> groups;
    for (const std::string& a : args) {
        if (groups.empty() || a.rfind("-", 0) == 0) groups.emplace_back();
        groups.back().push_back(a);
    }
    return groups;
}

// One CLI11 parse of `args` into `raw`; returns the error message, or "" on success.
std::string try_parse(const std::vector<std::string>& args, RawAppOptions& raw) {
    CLI::App app{"gpuplan app options", "gpuplan"};
    add_app_options(app, raw);
    // CLI11 takes a vector in reverse order (it pops arguments off the back).
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    try {
        app.parse(reversed);
        return "";
    } catch (const CLI::ParseError& e) {
        return e.what();
    }
}

}  // namespace

void add_app_options(CLI::App& app, RawAppOptions& raw) {
    app.add_option("--view", raw.view, "The view to open: " + view_names())
        ->check([](const std::string& name) {
            return view_from_name(name) ? std::string() : "'" + name + "' is not a view; expected one of: " + view_names();
        })
        ->type_name("NAME");
    app.add_option("--scenario", raw.scenario,
                   "The scenario as a link encodes it (minified JSON, base64url; docs/scenario.md)")
        ->type_name("TEXT");
    app.add_flag("--embed", raw.embed, "Only the view, no tabs or toolbars (for iframes)");
    app.add_flag("--debug", raw.debug, "Show each frame's drawing time in the status line");
    app.add_option("--theme", raw.theme, "Colour theme: dark or light")
        ->check(CLI::IsMember({"dark", "light"}))
        ->type_name("NAME");
    app.add_option("--catalog-table", raw.catalog,
                   "The catalog table's search, filters, ranges, price unit, compare selection, sort and hidden columns, e.g. "
                   "'family=p5;efa=1;range=on-demand::40;unit=month;sort=usd-per-gpu-hour' (docs/browser-app.md)")
        ->type_name("TEXT");
    app.add_option("--chart-ranges", raw.chart_ranges,
                   "The charts' ranges, e.g. 'costs-months=24;decode-ms=300' (docs/browser-app.md)")
        ->type_name("TEXT");
}

AppOptions resolve_app_options(const RawAppOptions& raw) {
    AppOptions options;
    if (!raw.view.empty()) {
        const auto view = view_from_name(raw.view);
        if (!view) throw InputError("--view", "'" + raw.view + "'", "one of: " + view_names());
        options.view = *view;
    }
    if (!raw.scenario.empty()) options.scenario = decode_scenario_param(raw.scenario);
    options.embed = raw.embed;
    options.debug = raw.debug;
    if (raw.theme == "dark") options.dark_theme = true;
    else if (raw.theme == "light") options.dark_theme = false;
    else if (!raw.theme.empty()) throw InputError("--theme", "'" + raw.theme + "'", "dark or light");
    if (!raw.catalog.empty()) {
        CatalogTableState check;
        apply_catalog_table_link(check, raw.catalog);  // InputError naming --catalog-table and the part
        options.catalog = catalog_table_link(check);   // one spelling for one table
    }
    if (!raw.chart_ranges.empty()) {
        ChartRanges check;
        apply_chart_ranges_link(check, raw.chart_ranges);  // InputError naming --chart-ranges and the part
        options.chart_ranges = chart_ranges_link(check);
    }
    return options;
}

ParsedAppOptions parse_app_arguments(const std::vector<std::string>& args) {
    ParsedAppOptions parsed;
    RawAppOptions raw;
    if (try_parse(args, raw).empty()) {
        // All options parsed; the scenario may still fail to decode.
        try {
            parsed.options = resolve_app_options(raw);
            return parsed;
        } catch (const InputError&) {
            // fall through: apply option by option to keep what is readable
        }
    }
    // Something was wrong: apply each option on its own and keep the ones that work.
    RawAppOptions good;
    for (const auto& group : group_arguments(args)) {
        RawAppOptions trial = good;
        if (const std::string error = try_parse(group, trial); !error.empty()) {
            parsed.errors.push_back(error);
            continue;
        }
        try {
            (void)resolve_app_options(trial);
            good = trial;
        } catch (const InputError& e) {
            parsed.errors.push_back(e.what());
        }
    }
    parsed.options = resolve_app_options(good);  // only values that resolved are in `good`
    return parsed;
}

std::vector<std::string> app_arguments(const AppOptions& options) {
    std::vector<std::string> args;
    if (options.view != View::catalog) args.push_back(std::string("--view=") + view_name(options.view));
    if (options.scenario) args.push_back("--scenario=" + encode_scenario_param(*options.scenario));
    if (options.embed) args.push_back("--embed=1");
    if (options.debug) args.push_back("--debug=1");
    if (!options.catalog.empty()) args.push_back("--catalog-table=" + options.catalog);
    if (!options.chart_ranges.empty()) args.push_back("--chart-ranges=" + options.chart_ranges);
    if (options.dark_theme) args.push_back(std::string("--theme=") + (*options.dark_theme ? "dark" : "light"));
    return args;
}

}  // namespace gpuplan::ui
