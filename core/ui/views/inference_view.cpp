// inference_view.cpp — the Inference view. It answers two questions, each from the result the
// core computed (the view runs no model):
//  - serving on a chosen instance and layout (the scenario's "infer" section, what `gpuplan
//    infer` answers): memory per GPU against capacity, decode tokens/s, the compute ceiling,
//    time to first token and $ per 1M tokens (workload/inference.hpp);
//  - a throughput to serve (the "recommend" section): the recommended fleets (cheapest, fastest,
//    balanced), and for the chosen pick its memory fit and tokens/s, which the recommender
//    returns with each pick (recommend.hpp, PickDetail). "Plan this pick" copies the pick into
//    an "infer" section.
#include <algorithm>
#include <cmath>

#include "gpuplan/validation/validation.hpp"
#include "imgui.h"
#include "ui/plot.hpp"
#include "ui/theme.hpp"
#include "ui/views/view_common.hpp"
#include "ui/names.hpp"
#include "ui/widgets.hpp"

namespace gpuplan::ui {
namespace {

constexpr const char* kPickNames[] = {"cheapest", "fastest", "balanced"};

// The memory bar of a fit's figures (weights, KV cache and overhead of all tensor-parallel
// GPUs together, as the core reports them), per GPU.
void draw_memory_bar(const char* id, const nlohmann::json* figures, double tensor_parallel, const std::string& title) {
    const double tp = std::max(1.0, tensor_parallel);
    const Palette& pal = palette();
    const auto value = [&](const char* key) { return json_number(find_json(*figures, {key, "value"})).value_or(0) / tp; };
    const auto seg = [&](const char* label, const char* key, ImU32 colour) {
        const nlohmann::json* f = find_json(*figures, {key});
        const std::string how = f ? json_string(find_json(*f, {"explain", "formula"})) + ", / tensor parallel " + format_quantity(tp, "") : "";
        return Segment{label, value(key), colour, how};
    };
    const std::vector<Segment> segments = {seg("weights", "weights_gb", pal.series[0]), seg("KV cache", "kv_cache_gb", pal.series[1]),
                                           seg("overhead", "overhead_gb", pal.series[5])};
    const double capacity = value("capacity_gb");
    ImGui::TextUnformatted(title.c_str());
    memory_bar(id, segments, capacity);
    const double total = value("total_gb");
    memory_verdict(total, capacity);
}

// ---- a chosen instance and layout ("infer") --------------------------------------------------

void draw_infer(AppState& state) {
    nlohmann::json& s = scenario_section(state, "infer");
    edit_choice(state, s, "model", "model", model_names(), "llama-3-8b");
    ImGui::SameLine();
    std::vector<std::string> instances;
    for (const Instance& i : state.catalog->instances)
        if (i.accelerator_count && *i.accelerator_count >= 1 && i.accelerator_memory_gib_each) instances.push_back(i.name);
    edit_choice(state, s, "instance", "instance", instances, "g6e.xlarge");
    edit_choice(state, s, "dtype", "weights", {"bf16", "fp16", "fp8", "int8", "int4"}, "bf16");
    ImGui::SameLine();
    edit_choice(state, s, "kv_dtype", "KV cache", {"bf16", "fp16", "fp8"}, "bf16");
    edit_number(state, s, "batch", "sequences decoded together", 1, 1, 65536);
    ImGui::SameLine();
    edit_number(state, s, "context", "context tokens", 8192, 1, 1 << 21);
    ImGui::SameLine();
    edit_number(state, s, "tensor", "tensor parallel", 1, 1, 64);

    const nlohmann::json* r = find_json(state.results, {"infer"});
    if (!r) return;
    const nlohmann::json* fits = find_json(*r, {"fits"});
    if (!fits || !fits->is_boolean() || !fits->get<bool>()) {
        heading("Memory");
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(to_vec4(palette().bad), "%s", json_string(find_json(*r, {"memory_verdict"})).c_str());
        ImGui::PopTextWrapPos();
        return;
    }
    const nlohmann::json* figures = find_json(*r, {"figures"});
    const double tp = json_number(find_json(*r, {"serving", "tensor_parallel"})).value_or(1);
    heading("Memory per GPU");
    draw_memory_bar("infer_memory", figures, tp, json_string(find_json(*r, {"instance"})) + ", tensor parallel " + format_quantity(tp, ""));
    heading("Tokens per second, latency and cost");
    figure_table("infer_figures", figures,
                 {{"Tokens/s per instance (expected)", "tokens_per_second_per_instance"},
                  {"Tokens/s per GPU", "tokens_per_second_per_gpu"},
                  {"Tokens/s, memory roofline at 100% bandwidth", "tokens_per_second_upper_bound"},
                  {"Tokens/s, compute ceiling", "tokens_per_second_compute_ceiling"},
                  {"Inter-token latency", "inter_token_latency_seconds"},
                  {"Time to first token", "time_to_first_token_seconds"},
                  {"USD per 1M tokens, on-demand", "usd_per_million_tokens_on_demand"},
                  {"USD per 1M tokens, spot", "usd_per_million_tokens_spot"},
                  {"Largest batch that fits", "max_batch"}});
    note("Decode is memory-bound: each step reads every weight once plus every sequence's KV cache; the expected rate applies the "
         "bandwidth efficiency and is capped by the compute ceiling, and each step adds its tensor-parallel all-reduces and a fixed "
         "cost (docs/models.md). Same figures as `gpuplan infer`.");
    const auto& accuracy = builtin_accuracy(*state.catalog);
    note(accuracy_sentence(ValidationCategory::decode_throughput, accuracy).c_str());
    note(accuracy_sentence(ValidationCategory::time_to_first_token, accuracy).c_str());
}

// ---- a throughput to serve ("recommend") -----------------------------------------------------

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
        if (ImGui::RadioButton(kPickNames[k], state.views->inference_pick == k)) state.views->inference_pick = k;
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted((json_string(find_json(*p, {"instance"})) + " (" + human_name(json_string(find_json(*p, {"purchase"}))) + ")").c_str());
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

void draw_pick(AppState& state) {
    const int k = std::clamp(state.views->inference_pick, 0, 2);
    const nlohmann::json* p = find_json(state.results, {"recommend", "picks", kPickNames[k]});
    if (!p) return;
    const double tp = json_number(find_json(*p, {"tensor_parallel"})).value_or(1);
    if (const nlohmann::json* fit = find_json(*p, {"fit", "figures"})) {
        heading("Memory per GPU");
        draw_memory_bar("pick_memory", fit, tp,
                        json_string(find_json(*p, {"instance"})) + ", " + json_string(find_json(*p, {"layout"})) + " (" +
                            human_name(json_string(find_json(*p, {"purchase"}))) + ")");
    }
    if (ImGui::Button("Plan this pick in detail")) {
        // The pick as an "infer" section: the same instance, tensor parallel and batch.
        const nlohmann::json& rec = state.scenario["recommend"];
        nlohmann::json infer = {{"model", rec.value("model", "llama-3.1-70b")},
                                {"instance", json_string(find_json(*p, {"instance"}))},
                                {"tensor", number_json(tp)},
                                {"batch", number_json(json_number(find_json(*p, {"batch"})).value_or(1))}};
        for (const char* key : {"dtype", "kv_dtype", "context"})
            if (rec.contains(key)) infer[key] = rec[key];
        state.scenario["infer"] = infer;
        scenario_edited(state);
    }
    heading("Tokens per second");
    figure_table("throughput", find_json(*p, {"figures"}),
                 {{"Bytes read per decode step (weights + KV)", "bytes_per_step"}, {"Decode steps per second", "steps_per_second"},
                  {"Tokens per second per replica", "tokens_per_second"}, {"Instances", "instances"},
                  {"USD per million tokens", "usd_per_million_tokens"}});
    note("Decode is memory-bound: each step reads the weights and every sequence's KV cache once; steps/s = memory bandwidth x "
         "efficiency / bytes per step (docs/models.md). Hover a value for its inputs.");
}

}  // namespace

void draw_inference_view(AppState& state) {
    const bool has_infer = find_json(state.scenario, {"infer"}) != nullptr;
    const bool has_recommend = find_json(state.scenario, {"recommend"}) != nullptr;
    if (!has_infer && !has_recommend) {
        if (empty_state("This scenario serves no model (an infer or recommend section).", "Serve llama-3.1-70b at 2,000 tokens/s")) {
            state.scenario["recommend"] = {{"model", "llama-3.1-70b"}, {"dtype", "fp8"}, {"kv_dtype", "bf16"}, {"context", 8192},
                                           {"tokens_per_second", 2000}, {"purchase", {"on_demand", "spot_typical"}}, {"max_instances", 8}};
            scenario_edited(state);
        }
        return;
    }
    if (has_infer) {
        heading("Serving on a chosen instance");
        draw_infer(state);
    }
    if (has_recommend) {
        heading("Fleets for a throughput to serve");
        edit_serving_request(state, false);
        draw_picks(state);
        draw_pick(state);
    }
}

}  // namespace gpuplan::ui
