// gui_cmd.cpp — `gpuplan gui`: the planner's views in a desktop window (gui_window.hpp).
//
// Its options are the browser's URL parameters (core/ui/app_options.hpp), so a link and a
// command mean the same: `#view=costs&scenario=X` is `gpuplan gui --view costs --scenario X`, and
// `gpuplan gui --link URL` opens a link the page wrote as it is (page_link.hpp).
// Unlike the forgiving page, the command line is strict: a bad value is exit 2, as everywhere
// in the CLI. No display is exit 3.
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "gpuplan/measurements/bench_results.hpp"
#include "gpuplan/scenario/scenario.hpp"
#include "gui_window.hpp"
#include "page_link.hpp"
#include "ui/app_options.hpp"

namespace gpuplan::cli {

namespace {

constexpr int kExitNoDisplay = 3;

struct GuiCommandOptions {
    ui::RawAppOptions raw;
    std::string link;  // a page link (--link): its options instead of the flags above
    std::string scenario_file, results_file, screenshot, size = "1280x800";
    int frames = 5;
};

// The options of a link the page wrote (page_link.hpp). Strict, as the rest of the CLI: an
// option of the link that cannot be used is exit 2 naming it, where the page would open anyway.
ui::AppOptions options_from_link(const GuiCommandOptions& o) {
    const ui::RawAppOptions none;
    if (o.raw.view != none.view || !o.raw.scenario.empty() || !o.raw.theme.empty() || !o.raw.catalog.empty() ||
        !o.raw.chart_ranges.empty() || o.raw.embed || !o.scenario_file.empty())
        throw InputError("--link", "with --view, --scenario, --scenario-file, --theme, --embed, --catalog-table or --chart-ranges",
                         "either a link or those options: the link carries them");
    ui::ParsedAppOptions parsed = ui::parse_app_arguments(gui::arguments_from_page_link(o.link));
    if (!parsed.errors.empty()) throw InputError("--link", "'" + o.link.substr(0, 120) + (o.link.size() > 120 ? "...'" : "'"), parsed.errors.front());
    return parsed.options;
}

std::string run_gui_command(const Catalog& catalog, const GuiCommandOptions& o) {
    gui::GuiOptions options;
    options.app = o.link.empty() ? ui::resolve_app_options(o.raw) : options_from_link(o);  // InputError naming the flag
    if (!o.scenario_file.empty()) {
        if (options.app.scenario) throw InputError("--scenario-file", "'" + o.scenario_file + "'", "either --scenario or --scenario-file, not both");
        const std::string text = read_input_file(o.scenario_file, "--scenario-file");
        // Read as every JSON file is: a parse error names its line and column (issue 34).
        nlohmann::json scenario = parse_json_document(text, o.scenario_file);
        if (!scenario.is_object())
            throw InputError("--scenario-file", "'" + o.scenario_file + "'", "a JSON object (gpuplan.scenario/1, docs/scenario.md)");
        options.app.scenario = std::move(scenario);
    }
    if (options.app.scenario) (void)parse_scenario(options.app.scenario->dump(), "--scenario", catalog);  // exit 2 before a window opens
    if (!o.results_file.empty()) {
        options.bench_text = read_input_file(o.results_file, "--results");
        options.bench_source = o.results_file;
        (void)parse_bench_results(options.bench_text, o.results_file);
    }
    int width = 0, height = 0;
    char x = 0;
    if (std::sscanf(o.size.c_str(), "%d%c%d", &width, &x, &height) != 3 || x != 'x' || width < 320 || height < 240 ||
        width > 16384 || height > 16384)
        throw InputError("--size", "'" + o.size + "'", "WIDTHxHEIGHT with 320 <= WIDTH, 240 <= HEIGHT <= 16384, e.g. 1280x800");
    options.width = width;
    options.height = height;
    options.screenshot_path = o.screenshot;
    options.frames = o.frames;
    try {
        gui::run_gui(options, catalog);
    } catch (const gui::NoDisplay& e) {
        throw CommandFailure(kExitNoDisplay, e.what());
    }
    return options.screenshot_path.empty() ? "" : "screenshot: " + options.screenshot_path + "\n";
}

}  // namespace

Command register_gui(CLI::App& parent) {
    auto o = std::make_shared<GuiCommandOptions>();
    CLI::App* app = parent.add_subcommand("gui", "Open the planner's views in a desktop window (the browser app's views)");
    ui::add_app_options(*app, o->raw);
    app->add_option("--link", o->link,
                    "Open a link the browser page wrote (its address: #view=...&z=... or ?scenario=...): the same view, scenario, "
                    "theme, table and chart ranges")
        ->type_name("URL");
    app->add_option("--scenario-file", o->scenario_file, "Start with this scenario file (gpuplan.scenario/1 JSON)")->type_name("FILE");
    app->add_option("--results,--bench", o->results_file, "Import a bench results file (gpuplan.bench/1) into the Measurements view")->type_name("FILE");
    app->add_option("--size", o->size, "Window size in screen coordinates")->type_name("WxH")->capture_default_str();
    app->add_option("--screenshot", o->screenshot, "Draw --frames frames, save the window as a PNG and exit (tests)")->type_name("FILE");
    app->add_option("--frames", o->frames, "Frames to draw before --screenshot")->check(CLI::Range(1, 1000))->capture_default_str();
    app->footer(R"(The options are the browser app's link parameters: #view=costs&scenario=X&theme=dark is
`gpuplan gui --view costs --scenario X --theme dark`; --link opens a whole link as the page wrote it. Needs a display (X11 or Wayland);
without one it exits 3. Headless: xvfb-run gpuplan gui --screenshot out.png.
Exit codes: 3 no display.
Examples:
  gpuplan gui
  gpuplan gui --view costs --scenario-file assets/scenarios/p1-blended-fleet.json
  gpuplan gui --link 'http://127.0.0.1:8080/#view=costs&z=...'   (a link copied from the page)
  gpuplan gui --results bench-results/example.json --view measurements
  xvfb-run gpuplan gui --view topology --screenshot topology.png --frames 5)");
    return {app, [o](const Catalog& c) { return run_gui_command(c, *o); }};
}

}  // namespace gpuplan::cli
