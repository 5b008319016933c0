// inference_view.cpp — the Inference view: model, weight and KV precision, context and the
// throughput to serve (the scenario's "recommend" section) → the recommended fleets
// (cheapest, fastest, balanced), memory per GPU of the chosen one (weights, KV cache,
// overhead against capacity; gpuplan/workload/memory.hpp with the pick's tensor-parallel
// degree and batch), its tokens/s breakdown and its cost per purchase option.
#include <algorithm>
#include <cmath>

#include "gpuplan/recommend/recommend.hpp"
#include "imgui.h"
#include "ui/plot.hpp"
#include "ui/theme.hpp"
#include "ui/views/view_common.hpp"
#include "ui/widgets.hpp"

namespace gpuplan::ui {
namespace {

constexpr const char* kPickNames[] = {"cheapest", "fastest", "balanced"};

void rebuild(AppState& state) {
    ViewStates& vs = *state.views;
    vs.inference_generation = vs.generation;
    vs.inference_memory.reset();
    vs.inference_candidate.reset();
    vs.inference_memory_error.clear();
    if (!vs.parsed || !vs.parsed->recommend) return;
    const InferenceRecommendRequest& q = *vs.parsed->recommend;
    try {
        // The same sweep evaluate_scenario ran (about 0.1 ms), for the pick's numeric layout.
        const Recommendation r = recommend_inference(*state.catalog, q);
        const int pick = std::clamp(vs.inference_pick, 0, 2);
        if (static_cast<std::size_t>(pick) >= r.picks.size()) return;
        const Candidate& c = r.candidates[r.picks[static_cast<std::size_t>(pick)]];
        vs.inference_candidate = c;
        InferenceMemoryRequest m;
        m.model = q.model;
        m.weight_bytes = q.weight_bytes;
        m.kv_bytes = q.kv_bytes;
        m.batch = c.batch;
        m.context = q.context;
        m.tensor_parallel = c.tensor_parallel;
        m.runtime_overhead_gib = q.runtime_overhead_gib;
        vs.inference_memory = inference_memory(m);
    } catch (const std::exception& e) {
        vs.inference_memory_error = e.what();
    }
}

void draw_controls(AppState& state) {
    nlohmann::json& r = scenario_section(state, "recommend");
    std::vector<std::string> models;
    for (const ModelSpec& m : builtin_models()) models.push_back(m.name);
    edit_choice(state, r, "model", "model", models, "llama-3.1-70b");
    ImGui::SameLine();
    edit_choice(state, r, "dtype", "weights", {"bf16", "fp16", "fp8", "int8", "int4"}, "bf16");
    ImGui::SameLine();
    edit_choice(state, r, "kv_dtype", "KV cache", {"bf16", "fp16", "fp8"}, "bf16");
    edit_number(state, r, "context", "context tokens", 4096, 1, 1 << 21);
    ImGui::SameLine();
    edit_number(state, r, "tokens_per_second", "tokens/s to serve", 1000, 1, 1e9);
    ImGui::SameLine();
    edit_number(state, r, "max_instances", "max instances", 16, 1, 4096);
}

void draw_memory(const AppState& state) {
    const ViewStates& vs = *state.views;
    heading("Memory per GPU");
    if (!vs.inference_memory || !vs.inference_candidate) {
        if (!vs.inference_memory_error.empty()) ImGui::TextColored(to_vec4(palette().bad), "%s", vs.inference_memory_error.c_str());
        else note("No fleet was kept, so there is no pick to break down (see the Recommend view for why options were dropped).");
        return;
    }
    const InferenceMemory& m = *vs.inference_memory;
    const Candidate& c = *vs.inference_candidate;
    const double tp = std::max(1.0, c.tensor_parallel);
    const Palette& pal = palette();
    // The memory model reports all tensor-parallel GPUs together; per GPU is / tp.
    const auto seg = [&](const char* label, const Figure& f, ImU32 colour) {
        return Segment{label, f.value.value_or(0) / tp, colour, f.formula + " / tp " + format_quantity(tp, "") + "\n" + f.worked};
    };
    const std::vector<Segment> segments = {seg("weights", m.weights_gb, pal.series[0]), seg("KV cache", m.kv_cache_gb, pal.series[1]),
                                           seg("overhead", m.overhead_gb, pal.series[5])};
    const Instance* inst = state.catalog->find_instance(c.instance);
    const double capacity_gb = inst && inst->accelerator_memory_gib_each ? *inst->accelerator_memory_gib_each * 1.073741824 : 0;
    ImGui::Text("%s, %s (%s)", c.instance.c_str(), c.layout.c_str(), c.purchase.c_str());
    stacked_bar("inference_memory", segments, capacity_gb, "GB", "GPU memory");
    double total = 0;
    for (const Segment& s : segments) total += s.value;
    if (capacity_gb > 0)
        ImGui::TextColored(to_vec4(total <= capacity_gb ? pal.good : pal.bad), "%s GB of %s GB per GPU (%s GiB): %s",
                           format_quantity(total, "").c_str(), format_quantity(capacity_gb, "").c_str(),
                           format_quantity(*inst->accelerator_memory_gib_each, "").c_str(), total <= capacity_gb ? "fits" : "does not fit");
    else
        ImGui::TextDisabled("GPU memory of %s unknown", c.instance.c_str());
}

void draw_picks(AppState& state) {
    const nlohmann::json* picks = find_json(state.results, {"recommend", "picks"});
    heading("Recommended fleets");
    if (!picks || !picks->is_object() || picks->empty()) {
        note("No option met the constraints; the Recommend view lists every dropped option with its reason.");
        return;
    }
    if (!ImGui::BeginTable("picks", 7, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) return;
    for (const char* h : {"pick", "instance", "layout", "instances", "USD/h (fleet)", "USD per 1M tokens", "ms per token"})
        ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (int k = 0; k < 3; ++k) {
        const nlohmann::json* p = find_json(*picks, {kPickNames[k]});
        if (!p) continue;
        ImGui::TableNextRow();
        ImGui::PushID(k);
        ImGui::TableSetColumnIndex(0);
        if (ImGui::RadioButton(kPickNames[k], state.views->inference_pick == k)) {
            state.views->inference_pick = k;
            state.views->inference_generation = -1;  // rebuild the breakdown for this pick
        }
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted((json_string(find_json(*p, {"instance"})) + " (" + json_string(find_json(*p, {"purchase"})) + ")").c_str());
        ImGui::TableSetColumnIndex(2);
        ImGui::TextUnformatted(json_string(find_json(*p, {"layout"})).c_str());
        ImGui::TableSetColumnIndex(3);
        figure_value_text(find_json(*p, {"figures", "instances"}), true, false);
        ImGui::TableSetColumnIndex(4);
        text_right(format_quantity(json_number(find_json(*p, {"usd_per_hour"})).value_or(NAN), "USD/"));
        ImGui::TableSetColumnIndex(5);
        figure_value_text(find_json(*p, {"figures", "usd_per_million_tokens"}), true, false);
        ImGui::TableSetColumnIndex(6);
        text_right(format_quantity(json_number(find_json(*p, {"seconds_per_token"})).value_or(NAN) * 1e3, "ms"));
        ImGui::PopID();
    }
    ImGui::EndTable();
}

void draw_throughput(const AppState& state) {
    const int k = std::clamp(state.views->inference_pick, 0, 2);
    const nlohmann::json* f = find_json(state.results, {"recommend", "picks", kPickNames[k], "figures"});
    if (!f) return;
    heading("Tokens per second");
    figure_table("throughput", f,
                 {{"Bytes read per decode step (weights + KV)", "bytes_per_step"}, {"Decode steps per second", "steps_per_second"},
                  {"Tokens per second per replica", "tokens_per_second"}, {"Instances", "instances"},
                  {"USD per million tokens", "usd_per_million_tokens"}});
    note("Decode is memory-bound: each step reads the weights and every sequence's KV cache once; steps/s = memory bandwidth x "
         "efficiency / bytes per step (docs/models.md). Hover a value for its inputs.");
}

}  // namespace

void draw_inference_view(AppState& state) {
    if (!find_json(state.scenario, {"recommend"})) {
        if (empty_state("This scenario serves no model (recommend section).", "Serve llama-3.1-70b at 2,000 tokens/s")) {
            state.scenario["recommend"] = {{"model", "llama-3.1-70b"}, {"dtype", "fp8"}, {"kv_dtype", "bf16"}, {"context", 8192},
                                           {"tokens_per_second", 2000}, {"purchase", {"on_demand", "spot_typical"}}, {"max_instances", 8}};
            if (!state.scenario.contains("schema")) state.scenario["schema"] = "gpuplan.scenario/1";
            scenario_edited(state);
        }
        return;
    }
    if (state.views->inference_generation != state.views->generation) rebuild(state);
    draw_controls(state);
    draw_picks(state);
    draw_memory(state);
    draw_throughput(state);
}

}  // namespace gpuplan::ui
