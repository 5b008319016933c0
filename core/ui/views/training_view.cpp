// training_view.cpp — the Training view: model, precision-free training layout (data /
// tensor / pipeline parallel, ZeRO stage, micro-batch, recompute) and nodes → memory per GPU
// (weights, gradients, optimizer, activations, overhead against the GPU's capacity), the
// step-time breakdown, and time and cost for every purchase option of the instance.
// The layout lives in the scenario's "train" section; every figure shown comes from the typed
// training plan the core returned (AppState::result->train, workload/training_plan.hpp), by member.
#include <algorithm>

#include "gpuplan/scenario/scenario_result.hpp"
#include "gpuplan/text.hpp"
#include "gpuplan/workload/training_plan.hpp"
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
    draw_model_config_paste(state, train);
    edit_choice(state, train, "model", "model", model_names(state), "llama-3-8b");
    ImGui::SameLine();
    std::vector<std::string> gpu_instances;
    for (const Instance& i : state.catalog->instances)
        if (i.accelerator_count.value_or(0) >= 1) gpu_instances.push_back(i.name);
    edit_choice(state, train, "instance", "instance", gpu_instances, "p5.48xlarge");
    ImGui::SameLine();
    edit_choice(state, train, "purchase", "purchase", price_kind_options(), std::string(to_string(PriceKind::on_demand)), price_kind_in_words);
    edit_number(state, train, "nodes", "nodes", 1, 1, 4096);
    ImGui::SameLine();
    edit_number(state, train, "tensor_parallel", "tensor parallel", 1, 1, 64);
    ImGui::SameLine();
    edit_number(state, train, "pipeline_parallel", "pipeline parallel", 1, 1, 128);
    edit_number(state, train, "zero_stage", "ZeRO stage", 0, 0, 3);
    ImGui::SameLine();
    edit_number(state, train, "micro_batch", "micro-batch", 1, 1, 1024);
    ImGui::SameLine();
    edit_number(state, train, "sequence", "sequence", 2048, 1, 1 << 20);
    edit_choice(state, train, "recompute", "recompute", {"none", "selective", "full"}, "none");
    ImGui::SameLine();
    edit_number(state, train, "tokens", "tokens to train", kDefaultTokenBudget, 1, 1e15, "%.3g");
}

// The training plan the core returned for the scenario's train section (workload/training_plan.hpp),
// or null before one has evaluated.
const TrainingPlan* plan_of(const AppState& state) { return state.result && state.result->train ? &*state.result->train : nullptr; }

// A figure's explanation as a segment's tooltip.
std::string how(const Figure& f) { return f.formula + "\n" + f.worked; }

// Memory per GPU from the plan (model states, activations and overhead against capacity, as
// `gpuplan train` shows them).
void draw_memory(const TrainingPlan& plan) {
    heading("Memory per GPU");
    const Palette& pal = palette();
    const TrainingMemory& m = plan.fit.memory;
    const auto gb = [](const Figure& f) { return f.value.value_or(0); };
    const std::vector<Segment> segments = {{"model states", gb(m.model_states_gb), pal.series[0], how(m.model_states_gb)},
                                           {"activations", gb(m.activations_gb), pal.series[4], how(m.activations_gb)},
                                           {"overhead", gb(m.overhead_gb), pal.series[5], how(m.overhead_gb)}};
    memory_bar("train_memory", segments, gb(plan.fit.capacity_gb));
    memory_verdict(gb(m.total_per_gpu_gb), gb(plan.fit.capacity_gb));
    if (gb(m.host_per_gpu_gb) > 0) ImGui::TextDisabled("offloaded to host: %s per GPU rank", memory_text(gb(m.host_per_gpu_gb)).c_str());
}

// A layout that does not fit is not timed or priced (training_plan.cpp); the core's nearest
// layouts that do (fit.hpp: each change alone that fits, or all of them together) are offered
// here, each with its memory per GPU and a button that writes it into the train section.
void draw_layouts_that_fit(AppState& state, const TrainingPlan& plan) {
    if (plan.fit.fits || plan.fit.alternatives.empty()) return;
    heading(plan.fit.alternatives_combined ? "The nearest layout that fits (no single change is enough)" : "Layouts that fit");
    for (std::size_t k = 0; k < plan.fit.alternatives.size(); ++k) {
        const FitAlternative& a = plan.fit.alternatives[k];
        if (a.words.empty()) continue;
        ImGui::PushID(static_cast<int>(k));
        const std::string line = a.words + (a.total_gb ? ": " + memory_text(*a.total_gb) + " per GPU" : "");
        ImGui::Bullet();
        ImGui::TextUnformatted(line.c_str());
        ImGui::SameLine();
        const std::string button = "Use " + a.words;
        if (ImGui::SmallButton("Use it")) {
            nlohmann::json& train = scenario_section(state, "train");
            for (const auto& [key, value] : a.train_keys.items()) train[key] = value;
            // A given data-parallel size would contradict new nodes or tensor parallel; by
            // default it follows from the GPUs, as the change assumes.
            if (a.train_keys.contains("nodes") || a.train_keys.contains("tensor_parallel")) train.erase("data_parallel");
            scenario_edited(state);
        }
        mark_widget(button);
        ImGui::PopID();
    }
}

void draw_notes(const TrainingPlan& plan) {
    for (const bool warning : {true, false})
        for (const std::string& w : warning ? plan.warnings : plan.notes) {
            ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(warning ? palette().warn : palette().text_dim));
            ImGui::TextWrapped("%s %s", warning ? "warning:" : "note:", w.c_str());
            ImGui::PopStyleColor();
        }
}

void draw_step(const AppState& state, const TrainingPlan& plan) {
    const TrainingTime& t = plan.time;
    heading("Step time");
    const struct { const char* label; const Figure& figure; } parts[] = {
        {"compute", t.compute_seconds}, {"data parallel (exposed)", t.data_parallel_exposed_seconds},
        {"tensor parallel", t.tensor_parallel_seconds}, {"pipeline p2p", t.pipeline_p2p_seconds},
        {"pipeline bubble", t.bubble_seconds}, {"expert all-to-all", t.expert_parallel_seconds}, {"CPU offload", t.offload_seconds}};
    std::vector<Segment> segments;
    int colour = 0;
    for (const auto& p : parts) segments.push_back({p.label, p.figure.value.value_or(0), palette().series[colour++ % 6], p.figure.worked});
    stacked_bar("step", segments, t.step_seconds.value.value_or(0), "s", "step");
    ImGui::TextWrapped("Bottleneck: %s", t.bottleneck.empty() ? "unknown" : t.bottleneck.c_str());
    note(accuracy_sentence(ValidationCategory::training_throughput, builtin_accuracy(*state.catalog)).c_str());
    if (ImGui::BeginTable("train_layout", side_by_side_columns(), ImGuiTableFlags_SizingStretchSame)) {
        ImGui::TableNextColumn();
        figure_table("train_figures", {{"Step", t.step_seconds}, {"Tokens per second", t.tokens_per_second},
                                       {"Tokens per second per GPU", t.tokens_per_second_per_gpu}, {"Model FLOPs utilisation", t.mfu},
                                       {"Micro-batches per step", t.micro_batches}, {"Total time", t.total_hours},
                                       {"Cost at the chosen option", t.cost_usd}});
        ImGui::TableNextColumn();
        figure_table("train_comm", {{"Data-parallel comm (before overlap)", t.data_parallel_comm_seconds},
                                    {"Data-parallel comm (exposed)", t.data_parallel_exposed_seconds},
                                    {"Tensor parallel", t.tensor_parallel_seconds}, {"Pipeline p2p", t.pipeline_p2p_seconds},
                                    {"Pipeline bubble", t.bubble_seconds}, {"CPU offload", t.offload_seconds}});
        ImGui::EndTable();
    }
    draw_notes(plan);
}

// One purchase option's row: its label, then its price, cost, attributable cost and term use.
void draw_training_option_row(const Quote& q) {
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(q.label.c_str());
    if (!q.available) {
        ImGui::TableSetColumnIndex(1);
        ImGui::TextDisabled("%s", q.status == OptionStatus::not_offered ? "not offered" : std::string(missing_text(q.unavailable_reason)).c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", q.unavailable_reason.c_str());
        return;
    }
    const Figure* cells[] = {&q.effective_usd_per_hour, &q.cost_usd, q.attributable_cost_usd ? &*q.attributable_cost_usd : nullptr,
                             q.term_utilization ? &*q.term_utilization : nullptr};
    const char* labels[] = {"$/h per instance", "billed for the run", "if the rest of the term is used", "run's share of the term"};
    for (int c = 0; c < 4; ++c) {
        ImGui::TableSetColumnIndex(c + 1);
        if (cells[c]) figure_value_text(*cells[c], q.label + ": " + labels[c], true, c != 0);
        else ImGui::TextDisabled("-");
    }
}

// Every purchase option for the run's hours, as the training plan priced them: a commitment
// costs its whole term, and the share the run would carry if other work used the rest of the
// term is shown beside it.
void draw_options(const TrainingPlan& plan) {
    heading("Time and cost per purchase option");
    if (!plan.run_quotes_unavailable.empty())
        ImGui::TextColored(to_vec4(palette().warn), "Not priced: %s", plan.run_quotes_unavailable.c_str());
    const std::vector<Quote>& options = plan.run_quotes;
    // Columns sized to their content; narrower than that (a phone), the table scrolls sideways.
    const bool narrow = ImGui::GetContentRegionAvail().x < em(48);
    if (options.empty() ||
        !ImGui::BeginTable("train_options", 5,
                           ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                               (narrow ? ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX : ImGuiTableFlags_SizingStretchProp),
                           ImVec2(0, narrow ? table_height(options.size(), 30) : 0.0f)))
        return;
    for (const char* h : {"purchase option", "$/h per instance", "billed for the run", "if the rest of the term is used", "run's share of the term"})
        ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (std::size_t k = 0; k < options.size(); ++k) {
        ImGui::TableNextRow();
        ImGui::PushID(static_cast<int>(k));
        draw_training_option_row(options[k]);
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
    const TrainingPlan* plan = plan_of(state);
    if (!plan) return;
    draw_memory(*plan);
    draw_layouts_that_fit(state, *plan);
    draw_step(state, *plan);
    draw_options(*plan);
    draw_quota_line(plan->quota);
}

}  // namespace gpuplan::ui
