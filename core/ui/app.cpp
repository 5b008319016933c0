// app.cpp — draw_app (tabs, chrome, error banner, status line), set_scenario, view names and
// the per-frame CPU timing. See app.hpp.
#include "ui/app.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <utility>

#include "gpuplan/catalog/region_names.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/json_reader.hpp"
#include "gpuplan/scenario/scenario_result.hpp"
#include "gpuplan/scenario/scenario_spellings.hpp"
#include "gpuplan/text.hpp"
#include "imgui.h"
#include "imgui_internal.h"  // the view window's content extent (draw_view)
#include "imgui_stdlib.h"
#include "ui/catalog_link.hpp"
#include "ui/theme.hpp"
#include "ui/views/view_common.hpp"
#include "ui/names.hpp"
#include "ui/widgets.hpp"

namespace gpuplan::ui {
namespace {

struct ViewInfo {
    View view;
    const char* name;
    const char* title;
    void (*draw)(AppState&);
};
constexpr ViewInfo kViews[] = {
    {View::catalog, "catalog", "Catalog", draw_catalog_view},
    {View::costs, "costs", "Costs", draw_costs_view},
    {View::usage, "usage", "Usage & scaling", draw_usage_view},
    {View::topology, "topology", "Topology", draw_topology_view},
    {View::training, "training", "Training", draw_training_view},
    {View::inference, "inference", "Inference", draw_inference_view},
    // "Video decode": the Inference view's decode is the LLM's token decode, a different thing.
    {View::decode, "decode", "Video decode", draw_decode_view},
    {View::recommend, "recommend", "Recommend", draw_recommend_view},
    {View::measurements, "measurements", "Measurements", draw_measurements_view},
};

const ViewInfo& info(View v) {
    for (const auto& i : kViews)
        if (i.view == v) return i;
    return kViews[0];
}

ViewStates& views(AppState& state) {
    if (!state.views) state.views = std::make_shared<ViewStates>();
    return *state.views;
}

}  // namespace

std::string catalog_view_link(const AppState& state) { return state.views ? catalog_table_link(state.views->catalog) : ""; }

void set_catalog_view_link(AppState& state, std::string_view link) { apply_catalog_table_link(views(state).catalog, link); }

std::string chart_ranges_view_link(const AppState& state) { return state.views ? chart_ranges_link(state.views->charts) : ""; }

void set_chart_ranges_view_link(AppState& state, std::string_view link) { apply_chart_ranges_link(views(state).charts, link); }

namespace {

constexpr ImGuiWindowFlags kRootFlags = ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                                        ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus |
                                        ImGuiWindowFlags_NoTitleBar;

// The scenario picker: the examples compiled into the program, by their "name".
void draw_scenario_picker(AppState& state) {
    const bool empty = !state.scenario.is_object() || state.scenario.size() <= 1;  // at most "schema"
    const std::string current =
        json_string(find_json(state.scenario, {"name"}), empty ? "Choose an example scenario..." : "Your scenario (no name)");
    ImGui::SetNextItemWidth(std::min(em(24), ImGui::GetContentRegionAvail().x));  // narrower on a phone
    const bool open = ImGui::BeginCombo("##scenario", current.c_str());
    mark_widget("Scenario");
    if (open) {
        for (const CatalogDocument& doc : builtin_scenario_documents()) {
            const nlohmann::json j = nlohmann::json::parse(doc.text, nullptr, false);
            const std::string name = json_string(find_json(j, {"name"}), doc.origin);
            if (ImGui::Selectable(name.c_str(), name == current) && !j.is_discarded()) {
                set_scenario(state, j);
                state.scenario_changed = true;
            }
        }
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Example scenarios to start from. Every view reads and edits this one scenario.");
}

// The scenario as JSON, editable: the same document `gpuplan eval` reads.
void draw_scenario_editor(AppState& state) {
    ViewStates& vs = views(state);
    if (vs.scenario_text_dirty) {
        vs.scenario_text = state.scenario.dump(2);
        vs.scenario_text_dirty = false;
    }
    note("The scenario document (gpuplan.scenario/1, docs/scenario.md). `gpuplan eval` gives the same results for it.");
    // The text grows as it is typed or pasted (imgui_stdlib): a scenario embedding a bench file
    // is edited like any other.
    ImGui::InputTextMultiline("##scenario_json", &vs.scenario_text, ImVec2(-1, em(18)));
    if (ImGui::Button("Apply")) {
        // The same reader as a scenario file: the error names the byte or the JSON path, and a
        // key typed twice is refused instead of the second silently winning.
        try {
            set_scenario(state, parse_json_document(vs.scenario_text, "scenario (editor)"));
            if (state.error.empty()) state.scenario_changed = true;
        } catch (const InputError& e) {
            state.error = e.what();
        }
    }
    ImGui::SameLine();
    if (ImGui::Button("Revert")) vs.scenario_text_dirty = true;
}

void draw_chrome_top(AppState& state) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("gpuplan");
    ImGui::SameLine(0, em(1));
    draw_scenario_picker(state);
    // On a phone the buttons after the picker go to a second line instead of off the edge.
    const auto button_width = [](const char* text) { return ImGui::CalcTextSize(text).x + ImGui::GetStyle().FramePadding.x * 2; };
    ImGui::SameLine();
    new_line_unless_fits(button_width("JSON"));
    if (ImGui::Button("JSON")) ImGui::OpenPopup("scenario_json");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("View or edit the scenario document");
    if (ImGui::BeginPopup("scenario_json")) {
        ImGui::Dummy(ImVec2(em(36), 0));
        draw_scenario_editor(state);
        ImGui::EndPopup();
    }
    // Region of the scenario (prices are per region).
    ImGui::SameLine();
    if (state.catalog) {
        const std::string region = scenario_region(state);
        new_line_unless_fits(em(9));
        ImGui::SetNextItemWidth(em(9));
        // HeightLargest: all 31 regions show without scrolling the list (in a full window).
        const bool open = ImGui::BeginCombo("##region", region.c_str(), ImGuiComboFlags_HeightLargest);
        mark_widget("Region");
        if (open) {
            for (const std::string& r : state.catalog->regions()) {
                if (ImGui::Selectable(region_with_name(r).c_str(), r == region) && r != region) {
                    state.scenario["region"] = r;
                    scenario_edited(state);
                }
                mark_widget("Region: " + r);
            }
            ImGui::EndCombo();
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Region %s: catalog prices are looked up here", region_with_name(region).c_str());
    }
    // Theme switch, right-aligned.
    const char* label = state.dark_theme ? "Light" : "Dark";
    ImGui::SameLine();
    new_line_unless_fits(button_width(label));
    ImGui::SetCursorPosX(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - button_width(label)));
    if (ImGui::Button(label)) {
        state.dark_theme = !state.dark_theme;
        apply_theme(state.dark_theme, theme_scale());
    }
    mark_widget("Theme");
}

void draw_error_banner(AppState& state) {
    if (state.error.empty()) return;
    ImGui::PushStyleColor(ImGuiCol_ChildBg, to_vec4((palette().bad & 0x00FFFFFF) | 0x26000000));
    const float height = ImGui::GetTextLineHeightWithSpacing() * 2 + ImGui::GetStyle().WindowPadding.y * 2;
    ImGui::BeginChild("##error", ImVec2(0, height), true);
    ImGui::PushTextWrapPos(ImGui::GetContentRegionAvail().x - em(5));
    ImGui::TextColored(to_vec4(palette().bad), "%s", state.error.c_str());
    ImGui::PopTextWrapPos();
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - em(4));
    if (ImGui::SmallButton("Dismiss")) state.error.clear();
    ImGui::EndChild();
    ImGui::PopStyleColor();
}

void draw_notice_banner(AppState& state) {
    if (state.notice.empty()) return;
    ImGui::PushTextWrapPos(ImGui::GetContentRegionAvail().x - em(5));
    ImGui::TextUnformatted(state.notice.c_str());
    ImGui::PopTextWrapPos();
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - em(4));
    if (ImGui::SmallButton("OK")) state.notice.clear();
    mark_widget("Dismiss notice");
}

void draw_status_line(const AppState& state) {
    ImGui::Separator();
    const std::string region = scenario_region(state);
    ImGui::TextDisabled("Prices for %s", region.c_str());
    const int types = state.catalog ? static_cast<int>(state.catalog->instances.size()) : 0;
    char right[128];
    if (state.show_frame_timing)
        std::snprintf(right, sizeof right, "%d instance types in the catalog | frame %.2f ms (avg %.2f)", types, state.timing.last_ms,
                      state.timing.avg_ms);
    else
        std::snprintf(right, sizeof right, "%d instance type%s in the catalog", types, types == 1 ? "" : "s");
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - ImGui::CalcTextSize(right).x);
    ImGui::TextDisabled("%s", right);
}

void draw_view(AppState& state, View v) {
    if (!state.catalog) {
        ImGui::TextColored(to_vec4(palette().bad), "No catalog loaded.");
        return;
    }
    info(v).draw(state);
    // How far the view's widest line ran past the right edge, where the window clips it (the
    // window has no horizontal scrollbar; wide tables scroll inside themselves). Shells and
    // tests read it to catch clipped labels in narrow embeds.
    const ImGuiWindow* window = ImGui::GetCurrentWindow();
    state.overflow_px = std::max(0.0f, window->DC.CursorMaxPos.x - window->InnerClipRect.Max.x);
}

}  // namespace

std::optional<View> view_from_name(std::string_view name) {
    for (const auto& i : kViews)
        if (name == i.name) return i.view;
    return std::nullopt;
}
const char* view_name(View view) { return info(view).name; }
const char* view_title(View view) { return info(view).title; }

namespace {

// The notice for a scenario whose old spellings were rewritten: what they became, in words,
// each once (the spellings themselves are file keys, which the UI never shows; `gpuplan eval`
// names them all).
std::string renamed_words_notice(const std::vector<SpellingChange>& renamed) {
    std::vector<std::string> words;
    for (const SpellingChange& change : renamed)
        if (const std::string w = human_name(change.new_text); std::find(words.begin(), words.end(), w) == words.end()) words.push_back(w);
    return "This scenario was written with older spellings, read as today's: " + join(words, "; ") +
           ". The link to this page now uses today's.";
}

// set_scenario's work; `from_view` when a view's edit is being evaluated (the typed text of
// other inputs is kept), else a new scenario arrived (link, picker, host page) and every input
// shows its value.
void apply_scenario(AppState& state, nlohmann::json scenario, bool from_view) {
    ViewStates& vs = views(state);
    if (!state.catalog) {
        state.error = "scenario: no catalog loaded";
        return;
    }
    try {
        // Old spellings become today's in the document the app keeps (and so in its next link).
        const std::vector<SpellingChange> renamed = upgrade_spellings(scenario);
        const std::string text = scenario.dump();
        Scenario parsed = parse_scenario(text, "scenario", *state.catalog);
        auto typed = std::make_shared<const ScenarioResult>(evaluate(parsed, *state.catalog));
        nlohmann::json results = to_checked_json(*typed);
        state.scenario = std::move(scenario);
        state.results = std::move(results);
        state.result = std::move(typed);
        vs.parsed = std::move(parsed);
        vs.last_good = state.scenario;
        vs.generation += 1;
        vs.scenario_text_dirty = true;
        state.error.clear();
        // A new scenario replaces the last one's notice; a view's edit is in today's words already.
        if (!from_view) state.notice = renamed.empty() ? std::string() : renamed_words_notice(renamed);
        if (!renamed.empty()) state.scenario_changed = true;  // the link is rewritten in today's words
        if (!from_view) vs.inputs.clear();
    } catch (const std::exception& e) {
        // Bad input never reaches the views: they keep drawing the last good plan.
        state.error = e.what();
        state.scenario = vs.last_good;
        vs.scenario_text_dirty = true;
    }
}

}  // namespace

void set_scenario(AppState& state, nlohmann::json scenario) { apply_scenario(state, std::move(scenario), false); }

void set_bench_results(AppState& state, std::string_view text, std::string source_name) {
    try {
        BenchResults bench = parse_bench_results(text, source_name);
        views(state).bench_document = nlohmann::json::parse(text);
        state.bench = std::move(bench);
        state.bench_source = std::move(source_name);
        state.bench_error.clear();
    } catch (const std::exception& e) {
        state.bench_error = e.what();
        state.error = e.what();
    }
}

void scenario_edited(AppState& state) {
    // A scenario made from nothing (a fresh page) by a view's first edit needs its schema.
    if (!state.scenario.is_object()) state.scenario = nlohmann::json::object();
    if (!state.scenario.contains("schema")) state.scenario["schema"] = "gpuplan.scenario/1";
    // An example changed by the user is no longer the example its name describes.
    if (const nlohmann::json* name = find_json(state.scenario, {"name"}); name && name->is_string()) {
        const std::string text = name->get<std::string>();
        constexpr std::string_view kEdited = " (edited)";
        if (!text.ends_with(kEdited)) state.scenario["name"] = text + std::string(kEdited);
    }
    state.scenario_changed = true;
    views(state).reevaluate = true;
}

void configure_input() { ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard; }

void draw_app(AppState& state) {
    const auto start = std::chrono::steady_clock::now();
    ViewStates& vs = views(state);
    clear_marked_widgets();
    clear_drawn_figures();
    // Escape closes an open combo or menu, also in a shell that leaves keyboard navigation off
    // (configure_input), without which Dear ImGui 1.86 does not.
    if (!GImGui->OpenPopupStack.empty() && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false))
        ImGui::ClosePopupToLevel(0, true);
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport->WorkPos);
    ImGui::SetNextWindowSize(viewport->WorkSize);
    ImGui::Begin("gpuplan", nullptr, kRootFlags);
    if (state.embed) {
        draw_error_banner(state);
        draw_notice_banner(state);
        draw_view(state, state.view);
    } else {
        draw_chrome_top(state);
        draw_error_banner(state);
        draw_notice_banner(state);
        if (ImGui::BeginTabBar("views", ImGuiTabBarFlags_FittingPolicyScroll)) {
            // A view set by the shell (URL, --view) is selected with SetSelected, which ImGui
            // applies on the next frame; until then the old tab's "open" is ignored.
            const bool external = state.view != vs.shown_view;
            for (const auto& v : kViews) {
                const ImGuiTabItemFlags flags = external && v.view == state.view ? ImGuiTabItemFlags_SetSelected : 0;
                const bool selected = ImGui::BeginTabItem(v.title, nullptr, flags);
                mark_widget(std::string("Tab: ") + v.title);
                if (selected) {
                    if (!external) state.view = v.view;
                    ImGui::EndTabItem();
                }
            }
            vs.shown_view = state.view;
            ImGui::EndTabBar();
        }
        const float status_height = ImGui::GetFrameHeightWithSpacing();
        // NavFlattened: the arrow keys go from the tabs straight to the view's widgets.
        ImGui::BeginChild("##view", ImVec2(0, -status_height), false, ImGuiWindowFlags_NavFlattened);
        draw_view(state, state.view);
        ImGui::EndChild();
        draw_status_line(state);
    }
    ImGui::End();

    if (vs.reevaluate) {
        vs.reevaluate = false;
        apply_scenario(state, state.scenario, true);
        // A typed number the scenario refused stays in its field with the reason in words; the
        // banner is for what no field owns.
        if (const unsigned input = std::exchange(vs.committed_input, 0u); input != 0) {
            if (state.error.empty()) {
                vs.inputs.erase(input);
            } else if (auto typed = vs.inputs.find(input); typed != vs.inputs.end()) {
                typed->second.error = human_error(state.error);
                state.error.clear();
            }
        }
    }

    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    FrameTiming& t = state.timing;
    t.last_ms = ms;
    t.avg_ms = t.frames == 0 ? ms : t.avg_ms * 0.9 + ms * 0.1;
    t.max_ms = std::max(t.max_ms, ms);
    t.frames += 1;
}

}  // namespace gpuplan::ui
