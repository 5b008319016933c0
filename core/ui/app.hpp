// app.hpp — the whole planner UI as one immediate-mode function over one state struct.
//
// The shells (web/main.cpp, native/gui) own the window, the GL context and the main loop;
// each frame they call ImGui::NewFrame(), draw_app(state), ImGui::Render(). Everything the
// user sees is a function of (state.scenario, state.result, the typed evaluation): the scenario JSON
// (gpuplan.scenario/1, docs/scenario.md) is the one source of truth — the URL encodes it, and
// views that let the user change something edit it and set `scenario_changed`, after which
// draw_app re-parses and re-evaluates it (set_scenario) before the next frame's views.
//
// No platform code here: no SDL, no GL, no emscripten (core/ui links only Dear ImGui's core).
// This is interface 3 of the team brief: the declarations below are fixed; additions only.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/measurements/bench_results.hpp"

namespace gpuplan {
struct ScenarioResult;  // gpuplan/scenario/scenario_result.hpp
}

namespace gpuplan::ui {

enum class View { catalog, costs, usage, topology, training, inference, decode, recommend, measurements };

inline constexpr View kAllViews[] = {View::catalog,  View::costs,  View::usage, View::topology,  View::training,
                                     View::inference, View::decode, View::recommend, View::measurements};

// "catalog", "costs", ... (the names used in links: #view=costs); nullopt for anything else.
std::optional<View> view_from_name(std::string_view name);
const char* view_name(View view);   // "costs"
const char* view_title(View view);  // "Costs" (tab label)

struct ViewStates;  // per-view widget memory (filters, sort orders, selections); app.cpp

struct FrameTiming {
    double last_ms = 0;  // CPU time of the most recent draw_app call
    double avg_ms = 0;   // exponential moving average (alpha 0.1) over frames
    double max_ms = 0;   // worst frame since the last view change
    long long frames = 0;
};

struct AppState {
    // The catalog the planner reads; owned by the shell, must outlive the state.
    const Catalog* catalog = nullptr;

    // The one source of truth (gpuplan.scenario/1). Views edit it; see set_scenario.
    nlohmann::json scenario = nlohmann::json::object();
    // evaluate_scenario's gpuplan.result/1 document for the last scenario that parsed; kept
    // when a later edit is bad, so views still show the last good figures. The JSON editor,
    // the page bridge and the JS API read this one.
    nlohmann::json results = nlohmann::json::object();
    // The same evaluation, typed (scenario_result.hpp): the views draw figures from it by
    // member, so a figure the core stops returning is a compile error, not a missing row.
    // Null until a scenario has parsed.
    std::shared_ptr<const ScenarioResult> result;

    View view = View::catalog;
    bool embed = false;       // only the current view, no tabs or chrome (iframes in docs)
    bool dark_theme = false;  // the shell calls apply_theme when this changes
    bool show_frame_timing = false;  // the status line's frame time (--debug; off for users)

    // An imported gpuplan.bench/1 file (Measurements view), with the name it came from.
    std::optional<BenchResults> bench;
    std::string bench_source;
    std::string bench_error;  // why the last import was refused ("" = none)

    // Set by views when the user edits `scenario`; the shell updates its URL and clears it.
    bool scenario_changed = false;
    // The last InputError message (bad scenario, bad bench file); "" when all is well.
    std::string error;
    // What the old spellings in the last loaded scenario became (a link or file written before
    // a rename; scenario_spellings.hpp), shown above the views until dismissed; "" when none.
    std::string notice;

    // draw_app's own CPU time per frame (the shells display or report it; budget 8 ms).
    FrameTiming timing;
    // Pixels by which the last frame's view ran past its window's right edge (clipped; 0 when
    // everything fits). The page reports it (getState().overflow_px) and the tests check it.
    float overflow_px = 0;

    // Widget memory between frames; created on first use by draw_app.
    std::shared_ptr<ViewStates> views;
};

// Validates `scenario` against state.catalog (parse_scenario) and evaluates it
// (evaluate_scenario). On success stores both and clears `error`; on bad input keeps the
// previous scenario and results and sets `error` to the message naming the JSON path.
// Does not touch scenario_changed (the shell decides what a programmatic load means), except
// when it rewrote old spellings (scenario_spellings.hpp): then it sets it, so the shell's link
// carries today's words at once, and `notice` says what they became.
void set_scenario(AppState& state, nlohmann::json scenario);

// The catalog table's search, filters, compare selection, sort and hidden columns as a link
// value (ui/catalog_link.hpp; "" for the table as it opens), and setting them from one: throws
// InputError naming --catalog-table and the part it could not read, leaving the table as it was.
std::string catalog_view_link(const AppState& state);
void set_catalog_view_link(AppState& state, std::string_view link);
// The charts' ranges (Costs months, Decode time shown) as a link value (ui/chart_link.hpp; ""
// for the defaults), and setting them from one: throws InputError naming --chart-ranges.
std::string chart_ranges_view_link(const AppState& state);
void set_chart_ranges_view_link(AppState& state, std::string_view link);

// Imports a gpuplan.bench/1 document for the Measurements view; on bad input keeps the
// previous import and sets bench_error (and error).
void set_bench_results(AppState& state, std::string_view text, std::string source_name);

// Draws the full app (view tabs, scenario picker, theme switch, status line, error banner)
// filling the main viewport; in embed mode only the current view. Measures its own CPU time
// into state.timing.
void draw_app(AppState& state);

// How the app takes input, for every shell and the headless tests: keyboard navigation on
// (arrow keys move a focus frame between widgets, Space or Enter presses the framed one,
// Escape backs out), so everything the mouse does can be done from the keyboard.
void configure_input();

// Colours and metrics for the light or dark theme; `scale` multiplies the style's pixel
// sizes (pass the framebuffer / window ratio on HiDPI screens).
void apply_theme(bool dark, float scale);

// Loads the proportional UI font into ImGui's atlas (call before the renderer builds its font
// texture): its size is kBaseFontPx x `scale` in ImGui coordinates, rasterised at
// x `framebuffer_scale` more pixels with io.FontGlobalScale = 1 / framebuffer_scale, so text
// stays crisp when the shell works in logical coordinates on a HiDPI screen (a shell that
// works in framebuffer pixels passes its pixel ratio as `scale` and 1 here).
// `font_path` is a TrueType file (the desktop shell passes
// /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf); empty means the font embedded at build
// time, or ImGui's default font when none was embedded. Returns false (and falls back to
// ImGui's default font) when the file cannot be read or is not a font.
inline constexpr float kBaseFontPx = 15.0f;
bool load_fonts(float scale, const std::string& font_path = "", float framebuffer_scale = 1.0f);

}  // namespace gpuplan::ui
