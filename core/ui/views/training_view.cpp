// training_view.cpp — the Training view: model, precision-free training layout (data /
// tensor / pipeline parallel, ZeRO stage, micro-batch, recompute) and nodes → memory per GPU
// (weights, gradients, optimizer, activations, overhead against the GPU's capacity), the
// step-time breakdown, and time and cost for every purchase option of the instance.
// The layout lives in the scenario's "train" section; every figure shown comes from the
// training plan in the results (results.train, topology/training_plan.hpp).
#include <algorithm>

#include "gpuplan/validation/validation.hpp"
#include "imgui.h"
#include "ui/plot.hpp"
#include "ui/theme.hpp"
#include "ui/views/view_common.hpp"
#include "ui/widgets.hpp"

namespace gpuplan::ui {
namespace {

void draw_controls(AppState& state) {
    nlohmann::json& train = scenario_section(state, "train");
    edit_choice(state, train, "model", "model", model_names(), "llama-3-8b");
    ImGui::SameLine();
    std::vector<std::string> gpu_instances;
    for (const Instance& i : state.catalog->instances)
        if (i.accelerator_count.value_or(0) >= 1) gpu_instances.push_back(i.name);
    edit_choice(state, train, "instance", "instance", gpu_instances, "p5.48xlarge");
    ImGui::SameLine();
    edit_choice(state, train, "purchase", "purchase", price_kind_options(), std::string(to_string(PriceKind::on_demand)), price_kind_in_words);
    edit_number(state, train, "nodes", "nodes", 1, 1, 4096);
    ImGui::SameLine();
    edit_number(state, train, "tensor", "tensor parallel", 1, 1, 64);
    ImGui::SameLine();
    edit_number(state, train, "pipeline", "pipeline parallel", 1, 1, 128);
    edit_number(state, train, "zero_stage", "ZeRO stage", 0, 0, 3);
    ImGui::SameLine();
    edit_number(state, train, "micro_batch", "micro-batch", 1, 1, 1024);
    ImGui::SameLine();
    edit_number(state, train, "sequence", "sequence", 2048, 1, 1 << 20);
    edit_choice(state, train, "recompute", "recompute", {"none", "selective", "full"}, "none");
    ImGui::SameLine();
    edit_number(state, train, "tokens", "tokens to train", 1e10, 1, 1e15, "%.3g");
}

// Memory per GPU from the plan the core returned (results.train: model states, activations and
// overhead against capacity, as `gpuplan train` shows them).
void draw_memory(const AppState& state) {
    heading("Memory per GPU");
    const nlohmann::json* figures = find_json(state.results, {"train", "figures"});
    if (!figures) return;
    const Palette& pal = palette();
    const auto value = [&](const char* key) { return json_number(find_json(*figures, {key, "value"})).value_or(0); };
    const auto seg = [&](const char* label, const char* key, ImU32 c) {
        const nlohmann::json* f = find_json(*figures, {key});
        return Segment{label, value(key), c, f ? json_string(find_json(*f, {"explain", "formula"})) + "\n" + json_string(find_json(*f, {"explain", "worked"})) : ""};
    };
    const std::vector<Segment> segments = {seg("model states", "model_states_gb", pal.series[0]), seg("activations", "activations_gb", pal.series[4]),
                                           seg("overhead", "overhead_gb", pal.series[5])};
    const double capacity_gb = value("capacity_per_gpu_gb"), total = value("total_per_gpu_gb");
    memory_bar("train_memory", segments, capacity_gb);
    memory_verdict(total, capacity_gb);
    if (value("host_per_gpu_gb") > 0) ImGui::TextDisabled("offloaded to host: %s per GPU rank", memory_text(value("host_per_gpu_gb")).c_str());
}

void draw_step(const AppState& state) {
    const nlohmann::json* figures = find_json(state.results, {"train", "figures"});
    if (!figures) return;
    heading("Step time");
    const struct { const char* label; const char* key; } parts[] = {
        {"compute", "compute_seconds"}, {"data parallel (exposed)", "data_parallel_exposed_seconds"},
        {"tensor parallel", "tensor_parallel_seconds"}, {"pipeline p2p", "pipeline_p2p_seconds"},
        {"pipeline bubble", "bubble_seconds"}, {"expert all-to-all", "expert_parallel_seconds"}, {"CPU offload", "offload_seconds"}};
    std::vector<Segment> segments;
    int colour = 0;
    for (const auto& p : parts) {
        const nlohmann::json* f = find_json(*figures, {p.key});
        segments.push_back({p.label, figure_value(f).value_or(0), palette().series[colour++ % 6],
                            f ? json_string(find_json(*f, {"explain", "worked"})) : ""});
    }
    const double step = figure_value(find_json(*figures, {"step_seconds"})).value_or(0);
    stacked_bar("step", segments, step, "s", "step");
    ImGui::TextWrapped("Bottleneck: %s", json_string(find_json(state.results, {"train", "bottleneck"}), "unknown").c_str());
    note(accuracy_sentence(ValidationCategory::training_throughput, builtin_accuracy(*state.catalog)).c_str());
    if (ImGui::BeginTable("train_layout", side_by_side_columns(), ImGuiTableFlags_SizingStretchSame)) {
        ImGui::TableNextColumn();
        figure_table("train_figures", figures,
                     {{"Step", "step_seconds"}, {"Tokens per second", "tokens_per_second"}, {"Tokens per second per GPU", "tokens_per_second_per_gpu"},
                      {"Model FLOPs utilisation", "mfu"}, {"Micro-batches per step", "micro_batches"},
                      {"Total time", "total_hours"}, {"Cost at the chosen option", "cost_usd"}});
        ImGui::TableNextColumn();
        figure_table("train_comm", figures,
                     {{"Data-parallel comm (before overlap)", "data_parallel_comm_seconds"},
                      {"Data-parallel comm (exposed)", "data_parallel_exposed_seconds"}, {"Tensor parallel", "tensor_parallel_seconds"},
                      {"Pipeline p2p", "pipeline_p2p_seconds"}, {"Pipeline bubble", "bubble_seconds"}, {"CPU offload", "offload_seconds"}});
        ImGui::EndTable();
    }
    for (const char* list : {"warnings", "notes"})
        if (const nlohmann::json* items = find_json(state.results, {"train", list}); items && items->is_array())
            for (const auto& w : *items)
                if (w.is_string()) {
                    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(std::string(list) == "warnings" ? palette().warn : palette().text_dim));
                    ImGui::TextWrapped("%s %s", std::string(list) == "warnings" ? "warning:" : "note:", w.get<std::string>().c_str());
                    ImGui::PopStyleColor();
                }
}

// Every purchase option for the run's hours, as the training plan priced them
// (results.train.purchase_options): a commitment costs its whole term, and the share the run
// would carry if other work used the rest of the term is shown beside it.
void draw_options(const AppState& state) {
    heading("Time and cost per purchase option");
    const nlohmann::json* priced = find_json(state.results, {"train", "purchase_options"});
    if (!priced) return;
    if (const nlohmann::json* why = find_json(*priced, {"unavailable_reason"}))
        ImGui::TextColored(to_vec4(palette().warn), "Not priced: %s", json_string(why).c_str());
    const nlohmann::json* options = find_json(*priced, {"options"});
    // Columns sized to their content; narrower than that (a phone), the table scrolls sideways.
    const bool narrow = ImGui::GetContentRegionAvail().x < em(48);
    if (!options || options->empty() ||
        !ImGui::BeginTable("train_options", 5,
                           ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                               (narrow ? ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX : ImGuiTableFlags_SizingStretchProp),
                           ImVec2(0, narrow ? table_height(options->size(), 30) : 0.0f)))
        return;
    for (const char* h : {"purchase option", "$/h per instance", "billed for the run", "if the rest of the term is used", "run's share of the term"})
        ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (std::size_t k = 0; k < options->size(); ++k) {
        const auto& o = (*options)[k];
        ImGui::TableNextRow();
        ImGui::PushID(static_cast<int>(k));
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(json_string(find_json(o, {"label"})).c_str());
        if (!o.value("available", false)) {
            ImGui::TableSetColumnIndex(1);
            ImGui::TextDisabled("unavailable");
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", json_string(find_json(o, {"unavailable_reason"})).c_str());
        } else {
            const char* keys[] = {"effective_usd_per_hour", "cost_usd", "attributable_cost_usd", "term_utilization"};
            for (int c = 0; c < 4; ++c) {
                ImGui::TableSetColumnIndex(c + 1);
                if (const nlohmann::json* f = find_json(o, {"figures", keys[c]})) figure_value_text(f, true, c != 0);
                else ImGui::TextDisabled("-");
            }
        }
        ImGui::PopID();
    }
    ImGui::EndTable();
    note("A Reserved Instance or Savings Plan is billed every hour of its term (1 or 3 years), used or not: a run shorter "
         "than the term pays for all of it unless other work uses the rest. Spot prices assume the run survives "
         "interruptions at no extra cost; the Costs view's spot option shows the checkpoint-rework rate.");
}

}  // namespace

void draw_training_view(AppState& state) {
    if (!find_json(state.scenario, {"train"})) {
        if (empty_state("This scenario has no training job (train section).", "Add a training job (llama-3-8b on p5.48xlarge)")) {
            state.scenario["train"] = {{"model", "llama-3-8b"}, {"instance", "p5.48xlarge"}, {"nodes", 1}, {"zero_stage", 1},
                                       {"micro_batch", 1}, {"sequence", 4096}, {"recompute", "selective"}, {"tokens", 1e10}};
            scenario_edited(state);
        }
        return;
    }
    draw_controls(state);
    draw_memory(state);
    draw_step(state);
    draw_options(state);
}

}  // namespace gpuplan::ui
