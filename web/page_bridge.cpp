// page_bridge.cpp — C++ ⇄ page JavaScript (see page_bridge.hpp). Two directions:
//   C++ → page: EM_ASM calls into `Module.gpuplanShell` (web/shell/shell.js), which owns the
//               DOM: URL, notice banner, loading indicator, messages to an embedding host.
//   page → C++: the extern "C" gpuplan_page_* functions below, called through ccall by
//               shell.js (toolbar buttons, file import, postMessage, the test hook
//               window.gpuplan). Each returns plain text or JSON; text returned as
//               `const char*` stays valid until the next call of the same function.
#include "page_bridge.hpp"

#include <emscripten.h>

#include <string>

#include <nlohmann/json.hpp>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/json_reader.hpp"
#include "gpuplan/topology/machine_topology.hpp"
#include "imgui.h"
#include "table_export.hpp"
#include "ui/app_options.hpp"
#include "ui/views/view_common.hpp"
#include "ui/widgets.hpp"

namespace gpuplan::web {

namespace {

using nlohmann::json;

// The exported functions have no context argument (JavaScript calls them by name), so they
// reach the page through this pointer, set once by attach_page_bridge.
Page* g_page = nullptr;

// The URL query that reproduces the current state ("view=costs&scenario=...").
std::string state_query(const Page& page) {
    ui::AppOptions options;
    options.view = page.state.view;
    if (page.state.scenario.is_object() && !page.state.scenario.empty()) options.scenario = page.state.scenario;
    options.embed = page.state.embed;
    if (page.state.dark_theme) options.dark_theme = true;
    options.debug = page.state.show_frame_timing;
    options.catalog = ui::catalog_view_link(page.state);
    options.chart_ranges = ui::chart_ranges_view_link(page.state);
    std::string query;
    for (const std::string& argument : ui::app_arguments(options)) {
        // "--view=costs" → "view=costs"; the values are URL-safe (view names, base64url, the
        // catalog link's percent-encoded parts; the shell encodes its '=' and ';' again).
        query += (query.empty() ? "" : "&") + argument.substr(2);
    }
    return query;
}

// The catalog table as the Catalog view last drew it: its price region and its rows in the
// order shown (null before the first frame). Read only: a state query must not re-sort or
// mark the table for rebuilding.
json catalog_table_json(const Page& page) {
    if (!page.catalog || !page.state.views) return nullptr;
    const ui::CatalogTableState& table = page.state.views->catalog;
    json rows = json::array();
    for (std::size_t i : table.row_order) rows.push_back(page.catalog->instances[i].name);
    return {{"region", table.price_region}, {"rows", rows}, {"compare", table.compare}, {"columns", table.shown_headers},
            {"search", table.filter}};
}

// The number inputs holding typed text the scenario does not have (refused, with the reason).
json typed_inputs_json(const Page& page) {
    json typed = json::array();
    if (!page.state.views) return typed;
    for (const auto& [id, input] : page.state.views->inputs) typed.push_back({{"text", input.text}, {"error", input.error}});
    return typed;
}

// The view as text, for the page's mirror of the canvas (screen readers, find in page, text
// selection): the figures the last frame drew, in the order drawn, grouped under the section
// titles above them, each with its text as drawn and its explanation; on the Catalog view the
// table as it is on screen (header row first). Built only when the page asks, after drawing
// has stopped.
json mirror_json(const Page& page) {
    const ui::AppState& s = page.state;
    json sections = json::array();
    for (const ui::DrawnFigure& f : ui::drawn_figures()) {
        if (sections.empty() || sections.back()["title"] != f.section) sections.push_back({{"title", f.section}, {"figures", json::array()}});
        sections.back()["figures"].push_back({{"label", f.label}, {"text", f.text}, {"explanation", ui::figure_explanation_text(f.figure)}});
    }
    json table = nullptr;
    if (s.view == ui::View::catalog && s.views && s.catalog) table = ui::catalog_table_cells(*s.catalog, s.views->catalog);
    return {{"view", ui::view_title(s.view)}, {"sections", sections}, {"table", table}};
}

// Where the labelled controls were drawn in the last frame, in CSS pixels from the canvas's
// top-left corner: the browser tests move the real mouse there.
json widgets_json() {
    json widgets = json::array();
    for (const auto& w : ui::marked_widgets())
        widgets.push_back({{"label", w.label}, {"x", w.x}, {"y", w.y}, {"w", w.w}, {"h", w.h}});
    return widgets;
}

// The figures the views drew in the last frame, under the names the result document gives
// them (ui::drawn_figures): the read-back test compares them with `gpuplan eval`'s document.
// text_w > room_w: the figure's text was cut off (a table column narrower than it).
json drawn_figures_json() {
    json figures = json::array();
    for (const auto& f : ui::drawn_figures())
        figures.push_back({{"name", f.name}, {"label", f.label}, {"value", f.value ? json(*f.value) : json(nullptr)}, {"unit", f.unit},
                           {"text", f.text}, {"section", f.section}, {"x", f.x}, {"y", f.y}, {"h", f.h}, {"text_w", f.text_w}, {"room_w", f.room_w}});
    return figures;
}

json state_json(const Page& page) {
    const ui::AppState& s = page.state;
    json views = json::array();
    for (ui::View v : ui::kAllViews) views.push_back(ui::view_name(v));
    return {
        {"ready", page.ready_published},
        {"view", ui::view_name(s.view)},
        {"views", views},
        {"embed", s.embed},
        {"dark_theme", s.dark_theme},
        {"scenario", s.scenario},
        {"results", s.results},
        {"error", s.error},
        {"url_errors", page.url_errors},
        {"bench_source", s.bench ? s.bench_source : ""},
        {"bench_error", s.bench_error},
        {"instances", page.catalog ? page.catalog->instances.size() : 0},
        {"catalog_table", catalog_table_json(page)},
        {"chart_ranges", ui::chart_ranges_view_link(s)},
        {"accelerators", page.catalog ? page.catalog->accelerators.size() : 0},
        {"query", state_query(page)},
        {"frames_drawn", page.loop ? page.loop->frames_drawn() : 0},
        {"widgets", widgets_json()},
        {"keyboard_focus", ui::keyboard_framed_widget()},
        {"figures", drawn_figures_json()},
        {"overflow_px", s.overflow_px},
        {"typed", typed_inputs_json(page)},
        {"timing", {{"last_ms", s.timing.last_ms}, {"avg_ms", s.timing.avg_ms},
                    {"max_ms", s.timing.max_ms}, {"frames", s.timing.frames}}},
    };
}

const char* keep(std::string& slot, std::string text) {
    slot = std::move(text);
    return slot.c_str();
}

}  // namespace

void attach_page_bridge(Page& page) { g_page = &page; }

void publish_ready(const Page& page) {
    const std::string notice = json(page.url_errors).dump();
    EM_ASM({ Module.gpuplanShell.onReady(JSON.parse(UTF8ToString($0))); }, notice.c_str());
}

void open_link(Page& page, const std::vector<std::string>& args) {
    ui::ParsedAppOptions parsed = ui::parse_app_arguments(args);
    page.url_errors = parsed.errors;
    for (std::string& error : shell::apply_app_options(page.state, parsed.options, "scenario (URL)")) page.url_errors.push_back(std::move(error));
    page.published_view = page.state.view;
    page.published_catalog = ui::catalog_view_link(page.state);
    page.published_charts = ui::chart_ranges_view_link(page.state);
    page.published_dark_theme = page.state.dark_theme;
}

void publish_state_change(const Page& page) {
    const std::string query = state_query(page);
    EM_ASM({ Module.gpuplanShell.onStateChanged(UTF8ToString($0)); }, query.c_str());
}

void publish_start_failure(const std::string& message) {
    EM_ASM({ Module.gpuplanShell.onStartFailure(UTF8ToString($0)); }, message.c_str());
}

}  // namespace gpuplan::web

using gpuplan::web::g_page;

extern "C" {

// {view, scenario, results, error, timing, query, ...}: everything a test or host may read.
EMSCRIPTEN_KEEPALIVE const char* gpuplan_page_state() {
    static std::string text;
    return gpuplan::web::keep(text, gpuplan::web::state_json(*g_page).dump());
}

// Replaces the scenario (JSON text). Returns "" when it was accepted, else the InputError
// message naming the JSON path (the previous scenario and results are kept).
EMSCRIPTEN_KEEPALIVE const char* gpuplan_page_set_scenario(const char* scenario_text) {
    static std::string text;
    auto& page = *g_page;
    nlohmann::json scenario;
    try {  // the scenario file's reader: limits, the byte of a syntax error, a key given twice
        scenario = gpuplan::parse_json_document(scenario_text, "scenario");
    } catch (const gpuplan::InputError& e) {
        return gpuplan::web::keep(text, e.what());
    }
    gpuplan::ui::set_scenario(page.state, std::move(scenario));
    gpuplan::web::request_frames(page);
    if (!page.state.error.empty()) return gpuplan::web::keep(text, page.state.error);
    gpuplan::web::publish_state_change(page);
    return gpuplan::web::keep(text, "");
}

// Opens a link in the running page: `arguments_json` is the JSON array of its arguments, as
// shell.js builds them from a URL (a link pasted into the address bar changes only the
// fragment, so the page does not reload). Returns the JSON array of what could not be used.
EMSCRIPTEN_KEEPALIVE const char* gpuplan_page_open_link(const char* arguments_json) {
    static std::string text;
    auto& page = *g_page;
    std::vector<std::string> args;
    try {
        for (const nlohmann::json& argument : nlohmann::json::parse(arguments_json)) args.push_back(argument.get<std::string>());
    } catch (const nlohmann::json::exception& e) {
        return gpuplan::web::keep(text, nlohmann::json::array({std::string("the link's arguments could not be read: ") + e.what()}).dump());
    }
    gpuplan::web::open_link(page, args);
    gpuplan::web::request_frames(page);
    gpuplan::web::publish_state_change(page);
    return gpuplan::web::keep(text, nlohmann::json(page.url_errors).dump());
}

// The text of the browser's paste event (Ctrl+V while a field is edited), typed into that
// field as if keyed in: it replaces the selection, and a one-line field drops line breaks.
EMSCRIPTEN_KEEPALIVE void gpuplan_page_paste_text(const char* text) {
    ImGui::GetIO().AddInputCharactersUTF8(text);
    g_page->paste_pending = true;
    gpuplan::web::request_frames(*g_page);
}

// Switches the view by name ("costs"). Returns "" or why not.
EMSCRIPTEN_KEEPALIVE const char* gpuplan_page_set_view(const char* name) {
    static std::string text;
    const auto view = gpuplan::ui::view_from_name(name);
    if (!view) return gpuplan::web::keep(text, std::string("view: got '") + name + "'; expected one of the names in getState().views");
    g_page->state.view = *view;
    gpuplan::web::request_frames(*g_page);
    return gpuplan::web::keep(text, "");
}

// Imports a bench results file (gpuplan.bench/1 text) for the Measurements view. Returns ""
// or the InputError message; shows the Measurements view when the file was accepted.
EMSCRIPTEN_KEEPALIVE const char* gpuplan_page_import_results(const char* file_text, const char* file_name) {
    static std::string text;
    auto& page = *g_page;
    gpuplan::ui::set_bench_results(page.state, file_text, file_name);
    gpuplan::web::request_frames(page);
    if (!page.state.bench_error.empty()) return gpuplan::web::keep(text, page.state.bench_error);
    page.state.view = gpuplan::ui::View::measurements;
    return gpuplan::web::keep(text, "");
}

// A catalog document (a price overlay from `gpuplan prices import`, or any gpuplan.catalog/1
// file) loaded after the built-in catalog, as the CLI's --catalog does; the scenario is then
// evaluated again against it. Returns "" and a summary in `summary`, or the error. The file is
// not put in the link (an overlay can be megabytes): a shared link uses the built-in catalog.
EMSCRIPTEN_KEEPALIVE const char* gpuplan_page_import_catalog(const char* file_text, const char* file_name) {
    static std::string text;
    auto& page = *g_page;
    try {
        std::vector<gpuplan::CatalogDocument> docs = gpuplan::builtin_catalog_documents();
        docs.push_back({file_name, file_text});
        gpuplan::Catalog catalog = gpuplan::load_catalog(docs);
        catalog.today = page.catalog ? page.catalog->today : "";
        const std::size_t changes = catalog.overrides.size();
        page.catalog = std::move(catalog);
        page.state.catalog = &*page.catalog;
        gpuplan::ui::set_scenario(page.state, page.state.scenario);
        gpuplan::web::request_frames(page);
        return gpuplan::web::keep(text, nlohmann::json{{"error", ""}, {"changes", changes}}.dump());
    } catch (const gpuplan::InputError& e) {
        return gpuplan::web::keep(text, nlohmann::json{{"error", e.what()}}.dump());
    }
}

// A machine's own topology (an NCCL log with its topology dump, or `nvidia-smi topo -m`
// output) into the scenario's `topology` section: the core keeps the lines it reads (a few KB,
// so the link carries it) and the Topology view opens with it next to the catalog's model.
// Returns "" or the InputError message; a refused file changes nothing.
EMSCRIPTEN_KEEPALIVE const char* gpuplan_page_import_topology(const char* file_text, const char* file_name) {
    static std::string text;
    auto& page = *g_page;
    try {
        nlohmann::json scenario = page.state.scenario;
        if (!scenario.contains("schema")) scenario["schema"] = "gpuplan.scenario/1";
        scenario["topology"] = {{"name", file_name}, {"text", gpuplan::topology_excerpt(file_text, file_name)}};
        gpuplan::ui::set_scenario(page.state, std::move(scenario));
        if (!page.state.error.empty()) return gpuplan::web::keep(text, page.state.error);
        page.state.scenario_changed = true;
        page.state.view = gpuplan::ui::View::topology;
        gpuplan::web::request_frames(page);
        return gpuplan::web::keep(text, "");
    } catch (const gpuplan::InputError& e) {
        return gpuplan::web::keep(text, e.what());
    }
}

// The current view's table as CSV: for the Catalog view the table as it is on screen (rows
// filtered and sorted, the visible columns in their order, units in the headers); else every
// figure of the results.
EMSCRIPTEN_KEEPALIVE const char* gpuplan_page_export_csv() {
    static std::string text;
    const auto& s = g_page->state;
    return gpuplan::web::keep(text, s.view == gpuplan::ui::View::catalog && s.views && s.catalog
                                                  ? gpuplan::web::table_csv(gpuplan::ui::catalog_table_cells(*s.catalog, s.views->catalog))
                                                                        : gpuplan::web::results_csv(s.results));
}

// The view as text for the page's mirror (mirror_json).
EMSCRIPTEN_KEEPALIVE const char* gpuplan_page_mirror() {
    static std::string text;
    return gpuplan::web::keep(text, gpuplan::web::mirror_json(*g_page).dump());
}

// Frames drawn so far: the page rebuilds its mirror once this stops changing.
EMSCRIPTEN_KEEPALIVE int gpuplan_page_frames_drawn() { return g_page->loop ? static_cast<int>(g_page->loop->frames_drawn()) : 0; }

// 1 while a text field in the canvas has the keyboard (shell.js then keeps Tab in the canvas:
// it ends the edit and moves to the next field, instead of moving the page's focus away).
EMSCRIPTEN_KEEPALIVE int gpuplan_page_editing_text() { return ImGui::GetCurrentContext() && ImGui::GetIO().WantTextInput ? 1 : 0; }

// Draws `frames` more frames even without input (tests and the performance script).
EMSCRIPTEN_KEEPALIVE void gpuplan_page_redraw(int frames) { gpuplan::web::request_frames(*g_page, frames); }

}  // extern "C"
