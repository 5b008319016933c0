// view_common.hpp — what the views share inside core/ui (not for the shells: they use
// app.hpp). Each view is `void draw_<name>_view(AppState&)`, drawing into the current window
// from (state.scenario, state.result: the typed ScenarioResult, figures by member); widgets that change the plan edit state.scenario and
// call scenario_edited(state), and draw_app re-evaluates once the frame's views are done.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/scenario/scenario.hpp"
#include "gpuplan/workload/memory.hpp"
#include "gpuplan/topology/topology.hpp"
#include "ui/app.hpp"
#include "imgui.h"
#include "ui/catalog_table.hpp"
#include "ui/chart_link.hpp"

namespace gpuplan::ui {

struct ViewStates {
    // The last scenario that parsed, and its parsed form (for views that call the core's
    // models directly: topology graph, memory breakdowns).
    nlohmann::json last_good = nlohmann::json::object();
    std::optional<Scenario> parsed;
    long generation = 0;          // +1 per successful set_scenario (caches compare it)
    bool reevaluate = false;      // a view edited state.scenario this frame
    std::string scenario_text;    // the JSON editor's buffer
    bool scenario_text_dirty = true;

    View shown_view = View::catalog;  // the tab the tab bar showed last frame

    // Number inputs whose typed text is not (yet) in the scenario, by ImGui id: the text as
    // typed, and why it was refused ("" while it waits for the evaluation). See edit_number.
    struct PendingInput {
        std::string text;
        std::string error;
    };
    std::map<unsigned, PendingInput> inputs;
    unsigned committed_input = 0;  // the input whose value the next re-evaluation tries (0: none)

    CatalogTableState catalog;
    std::string catalog_region_seen;  // the scenario region the table last followed

    // Topology: the graph of the chosen instance, rebuilt when the scenario changes.
    long topology_generation = -1;
    std::string topology_instance;
    std::optional<NodeTopology> topology;
    std::string topology_error;

    // Training: the job's hours priced at every purchase option (memory comes with the result).

    // Inference: which recommended pick the view breaks down (its figures come with the result).
    int inference_pick = 0;  // index into the picks: 0 cheapest, 1 fastest, 2 balanced

    ChartRanges charts;  // the Costs and Decode charts' ranges (in the link: chart_link.hpp)
    bool recommend_training = false;  // Recommend view: the training sweep instead of serving
    // The imported bench document as JSON (the Measurements view embeds it in decode.fit.bench).
    nlohmann::json bench_document;
    // Text being pasted (Measurements: a bench document; Topology: an NCCL log or nvidia-smi
    // topo -m), as long as it is: no fixed buffer cuts an NCCL log of a large machine.
    std::string bench_paste, topology_paste;
    std::string topology_paste_error;
    // A config.json being pasted (Inference, Recommend, Training: "your own model"), and what
    // reading it said: the model now used, or why it could not be read.
    std::string model_config_paste, model_config_message;
    bool model_config_failed = false;
    // The type-ahead filter of the open choice list (edit_choice): one list is open at a time,
    // and it starts empty each time one opens.
    std::string choice_filter;
};

// Marks the scenario as edited by the user: the shell updates its URL (scenario_changed) and
// draw_app re-evaluates after this frame's views.
void scenario_edited(AppState& state);
// state.scenario[section] as an object, created if missing (for editing widgets).
nlohmann::json& scenario_section(AppState& state, const char* section);
// The instance the views treat as "chosen": price.instance, else train.instance, else
// decode.instance, else idle.instance, else "".
// The recommender's picks in the order it returns them (recommend.picks), in one spelling for
// every view that shows them.
inline constexpr const char* kPickNames[] = {"cheapest", "fastest", "balanced"};

std::string chosen_instance(const AppState& state);
// The scenario's region, or the core's default when it names none (Scenario::region).
std::string scenario_region(const AppState& state);
// Sets price.instance (creating the section) — the Catalog view's "plan with this".
void choose_instance(AppState& state, const std::string& name);

// A whole number as a JSON integer (the scenario's integer keys, such as zero_stage, refuse
// 2.0), anything else as a double.
nlohmann::json number_json(double value);
// The one number input of every view. What is typed is committed on Enter, Tab or when the
// field loses focus (a click elsewhere), never lost: text that is not a number, or is outside
// [min, max], stays in the field, marked, with the reason in words beside it (nothing is
// clamped); a number the scenario then refuses (a layout that does not divide) stays the same
// way, and the last good results stay on screen. Returns true when the scenario was changed.
// A label of the form "##words" draws no text (a table cell) and is marked as "words".
bool edit_number(AppState& state, nlohmann::json& section, const char* key, const char* label, double fallback, double min,
                 double max, const char* format = "%.0f");
// The same for a key that may be absent (a limit, an override of a default): the field shows
// `placeholder` ("no limit", "default 3.5") while the key is absent, and emptying it removes the
// key again.
bool edit_optional_number(AppState& state, nlohmann::json& section, const char* key, const char* label, const char* placeholder,
                          double min, double max, const char* format = "%.4g");
// A prompt or output length: a number of tokens, or a distribution as the CLI spells it
// ("uniform:500:1500", "exponential:300:2000"); the core reads it (serving_sim.hpp), and a
// spelling it refuses stays in the field with the reason, as edit_number's do.
bool edit_length(AppState& state, nlohmann::json& section, const char* key, const char* label, double fallback);
// `words` shows a stored key in words ("spot" -> "spot (typical)"); the scenario keeps the key.
bool edit_choice(AppState& state, nlohmann::json& section, const char* key, const char* label, const std::vector<std::string>& options,
                 const std::string& fallback, std::string (*words)(const std::string&) = nullptr);

// A set of choices stored as a list of keys (recommend's families, purchase options): a combo
// whose popup has a checkbox per option; an empty set removes the key (the core's "any").
bool edit_choice_set(AppState& state, nlohmann::json& section, const char* key, const char* label, const std::vector<std::string>& options,
                     const char* none_words, std::string (*words)(const std::string&) = nullptr);
// The built-in models' names, for the model pickers.
// The scenario's own models (its "models" list) first, then the presets.
std::vector<std::string> model_names(const AppState& state);
// "Your own model": a paste box for a Hugging Face config.json; the core reads it
// (workload/hf_config.hpp) into the scenario's "models" list and `section`'s model names it.
void draw_model_config_paste(AppState& state, nlohmann::json& section);
// The catalog's instance families, in catalog order, each once.
std::vector<std::string> family_names(const AppState& state);
// The catalog's price kinds as the scenario's keys ("on-demand", "spot"), and a key in
// words ("spot" -> "spot (typical)"), for the purchase pickers.
std::vector<std::string> price_kind_options();
std::string price_kind_in_words(const std::string& key);
// The ways a serving sweep can buy (purchase_option.hpp keys; commitments with their payment
// spelled out), and a key in words ("reserved-3y-no-upfront" -> "reserved 3-year, no upfront").
std::vector<std::string> serving_purchase_options();
std::string purchase_option_in_words(const std::string& key);
// The "recommend" section the empty Inference and Recommend views offer: llama-3.1-70b at
// 2,000 tokens/s, on-demand, spot or reserved for 1 or 3 years, at most 8 instances (the
// question "serve 70B at 2,000 tok/s: per month, per 1M tokens, reserved vs spot").
nlohmann::json example_serving_request();
// A recommendation's "purchase" and "families" sets (empty: on-demand, any family); `serving`:
// every way to buy, else the catalog's price kinds (a training run's hours).
void edit_purchase_and_families(AppState& state, nlohmann::json& section, bool serving);
// The inputs of a serving recommendation (scenario section "recommend"): model, weights and KV
// cache precision, context, tokens/s; with `constraints`, also purchase options, families,
// instance count, hourly budget and latency limit. Shared by the Inference and Recommend views.
void edit_serving_request(AppState& state, bool constraints);
// A plan's quota line (pricing/quota.hpp) in words: the vCPUs it needs of its quota class,
// the quota (AWS's default for a new account) and the increase to request before launching.
void draw_quota_line(const QuotaLine& quota);
// "p95 time to first token": the heading of a latency target's column (its limit is an input).
std::string latency_target_heading(const LatencyTarget& target);

// A diagram box (topology drawings) with centred text and an optional dim second line;
// returns true when the mouse is over it.
bool diagram_box(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 fill, ImU32 border, const std::string& text, const std::string& sub = "");
// The Topology view's imported machine (machine_topology_view.cpp): what an NCCL log or
// nvidia-smi topo -m says, beside the catalog's model; the paste box that imports one.
void draw_machine_topology(AppState& state);

void draw_catalog_view(AppState& state);
void draw_costs_view(AppState& state);
void draw_usage_view(AppState& state);
void draw_topology_view(AppState& state);
void draw_training_view(AppState& state);
void draw_inference_view(AppState& state);
void draw_decode_view(AppState& state);
void draw_recommend_view(AppState& state);
void draw_measurements_view(AppState& state);

}  // namespace gpuplan::ui
