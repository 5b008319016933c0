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

#include "gpuplan/recommend/recommend.hpp"
#include "gpuplan/scenario/scenario_result.hpp"
#include "gpuplan/validation/validation.hpp"
#include "gpuplan/workload/inference.hpp"
#include "imgui.h"
#include "ui/plot.hpp"
#include "ui/theme.hpp"
#include "ui/views/view_common.hpp"
#include "ui/names.hpp"
#include "ui/widgets.hpp"

namespace gpuplan::ui {
namespace {


// The memory bar of a fit (weights, KV cache and overhead of all tensor-parallel GPUs together,
// as the core reports them), per GPU.
void draw_memory_bar(const char* id, const InferenceFit& fit, double tensor_parallel, const std::string& title) {
    const double tp = std::max(1.0, tensor_parallel);
    const Palette& pal = palette();
    const auto per_gpu = [&](const Figure& f) { return f.value.value_or(0) / tp; };
    const auto seg = [&](const char* label, const Figure& f, ImU32 colour) {
        return Segment{label, per_gpu(f), colour, f.formula + ", / tensor parallel " + format_quantity(tp, "")};
    };
    const std::vector<Segment> segments = {seg("weights", fit.memory.weights_gb, pal.series[0]),
                                           seg("KV cache", fit.memory.kv_cache_gb, pal.series[1]),
                                           seg("overhead", fit.memory.overhead_gb, pal.series[5])};
    const double capacity = per_gpu(fit.capacity_gb);
    ImGui::TextUnformatted(title.c_str());
    memory_bar(id, segments, capacity);
    memory_verdict(per_gpu(fit.memory.total_gb), capacity);
}

// ---- a chosen instance and layout ("infer") --------------------------------------------------

void draw_infer(AppState& state) {
    nlohmann::json& s = scenario_section(state, "infer");
    draw_model_config_paste(state, s);
    edit_choice(state, s, "model", "model", model_names(state), "llama-3-8b");
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
    edit_number(state, s, "tensor_parallel", "tensor parallel", 1, 1, 64);

    if (!state.result || !state.result->infer) return;
    const InferenceEstimate& e = *state.result->infer;
    if (!e.fit.fits) {
        heading("Memory");
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(to_vec4(palette().bad), "%s", e.fit.verdict.c_str());
        ImGui::PopTextWrapPos();
        return;
    }
    heading("Memory per GPU");
    draw_memory_bar("infer_memory", e.fit, e.tensor_parallel, e.pool.instance->name + ", tensor parallel " + format_quantity(e.tensor_parallel, ""));
    heading("Tokens per second, latency and cost");
    figure_table("infer_figures", {{"Tokens/s per instance (expected)", e.per_instance},
                                   {"Tokens/s per GPU", e.per_gpu},
                                   {"Tokens/s, memory roofline at 100% bandwidth", e.roofline.tokens_per_second},
                                   {"Tokens/s, compute ceiling", e.compute_ceiling},
                                   {"Inter-token latency", e.inter_token_latency_seconds},
                                   {"Time to first token", e.time_to_first_token_seconds},
                                   {"USD per 1M tokens at full load, on-demand", e.usd_per_million_tokens_on_demand},
                                   {"USD per 1M tokens at full load, spot", e.usd_per_million_tokens_spot},
                                   {"Largest batch that fits", e.fit.max_batch}});
    draw_quota_line(e.quota);
    note("Decode is memory-bound: each step reads every weight once plus every sequence's KV cache; the expected rate applies the "
         "bandwidth efficiency and is capped by the compute ceiling, and each step adds its tensor-parallel all-reduces and a fixed "
         "cost (docs/models.md). Same figures as `gpuplan infer`.");
    const auto& accuracy = builtin_accuracy(*state.catalog);
    note(accuracy_sentence(ValidationCategory::decode_throughput, accuracy).c_str());
    note(accuracy_sentence(ValidationCategory::time_to_first_token, accuracy).c_str());
}

// ---- a throughput to serve ("recommend") -----------------------------------------------------

// The recommended picks as (name, candidate, detail), in the order cheapest, fastest, balanced.
struct PickView {
    const char* name;
    const Candidate& candidate;
    const PickDetail& detail;
};
std::vector<PickView> pick_views(const Recommendation& r) {
    std::vector<PickView> v;
    for (std::size_t k = 0; k < r.picks.size() && k < r.pick_details.size() && k < 3; ++k)
        v.push_back({kPickNames[k], r.candidates[r.picks[k]], r.pick_details[k]});
    return v;
}

std::string pick_title(const Candidate& c) { return c.instance + " (" + purchase_option_words(c.purchase) + ")"; }

void draw_picks(AppState& state) {
    heading("Recommended fleets");
    const auto picks = state.result && state.result->recommend ? pick_views(*state.result->recommend) : std::vector<PickView>{};
    if (picks.empty()) {
        note("No option met the constraints; the Recommend view lists every dropped option with its reason.");
        return;
    }
    // Serving a request rate: the time per token is the simulated p95, and each target's figure has a column.
    const Recommendation& r = *state.result->recommend;
    const std::vector<LatencyTarget> targets = r.traffic ? r.traffic->targets : std::vector<LatencyTarget>{};
    if (!ImGui::BeginTable("picks", 7 + static_cast<int>(targets.size()),
                           ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp))
        return;
    for (const char* h : {"pick", "instance", "layout", "instances", "USD/h (fleet)", "USD per 1M tokens at your rate"}) ImGui::TableSetupColumn(h);
    ImGui::TableSetupColumn(r.traffic ? "p95 ms per token" : "ms per token");
    for (const LatencyTarget& t : targets) ImGui::TableSetupColumn((latency_target_heading(t) + " (ms)").c_str());
    ImGui::TableHeadersRow();
    for (int k = 0; k < static_cast<int>(picks.size()); ++k) {
        const PickView& p = picks[k];
        ImGui::TableNextRow();
        ImGui::PushID(k);
        ImGui::TableSetColumnIndex(0);
        if (ImGui::RadioButton(p.name, state.views->inference_pick == k)) state.views->inference_pick = k;
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted(pick_title(p.candidate).c_str());
        ImGui::TableSetColumnIndex(2);
        ImGui::TextUnformatted(p.candidate.layout.c_str());
        ImGui::TableSetColumnIndex(3);
        if (p.detail.figures) figure_value_text(p.detail.figures->instances, "instances", true, false);
        else text_right(format_quantity(p.candidate.instances, ""));
        ImGui::TableSetColumnIndex(4);
        text_right(format_quantity(p.candidate.usd_per_hour, "USD/"));
        ImGui::TableSetColumnIndex(5);
        if (p.detail.figures) figure_value_text(p.detail.figures->usd_per_million_tokens, "USD per 1M tokens at your rate", true, false);
        else text_right(format_quantity(p.candidate.usd_per_million_tokens, "USD"));
        ImGui::TableSetColumnIndex(6);
        text_right(format_quantity(p.candidate.seconds_per_token * 1e3, "ms"));
        for (std::size_t t = 0; t < p.candidate.achieved_seconds.size(); ++t) {
            ImGui::TableSetColumnIndex(7 + static_cast<int>(t));
            text_right(format_quantity(p.candidate.achieved_seconds[t] * 1e3, "ms"));
        }
        ImGui::PopID();
    }
    ImGui::EndTable();
}

// The pick as the Costs view's "price" section: its instance and count, every purchase option
// (reserved and Savings Plans beside on-demand and spot), and the throughput its cost per token
// was figured at (the pick's own figure's input), so the unit costs are the pick's at your rate.
void price_pick_in_costs(AppState& state, const Candidate& c, const PickDetail& detail) {
    nlohmann::json& price = scenario_section(state, "price");
    price["instance"] = c.instance;
    price["instances"] = number_json(c.instances);
    price.erase("tokens_per_second");
    if (detail.figures)
        for (const FigureInput& in : detail.figures->usd_per_million_tokens.inputs)
            if (in.name == "tokens_per_second") price["tokens_per_second"] = number_json(in.value);
    state.view = View::costs;
    scenario_edited(state);
}

void draw_pick(AppState& state) {
    if (!state.result || !state.result->recommend) return;
    const auto picks = pick_views(*state.result->recommend);
    if (picks.empty()) return;
    const PickView& p = picks[std::clamp(state.views->inference_pick, 0, static_cast<int>(picks.size()) - 1)];
    const Candidate& c = p.candidate;
    heading("Memory per GPU");
    draw_memory_bar("pick_memory", p.detail.fit, c.tensor_parallel, pick_title(c) + ", " + c.layout);
    if (ImGui::Button("Plan this pick in detail")) {
        // The pick as an "infer" section: the same instance, tensor parallel and batch.
        const nlohmann::json& rec = state.scenario["recommend"];
        nlohmann::json infer = {{"model", rec.value("model", "llama-3.1-70b")},
                                {"instance", c.instance},
                                {"tensor_parallel", number_json(c.tensor_parallel)},
                                {"batch", number_json(c.batch)}};
        for (const char* key : {"dtype", "kv_dtype", "context"})
            if (rec.contains(key)) infer[key] = rec[key];
        state.scenario["infer"] = infer;
        scenario_edited(state);
    }
    ImGui::SameLine();
    if (ImGui::Button("Price this fleet in Costs")) price_pick_in_costs(state, c, p.detail);
    mark_widget("Price this fleet in Costs");
    heading("Tokens per second");
    if (!p.detail.figures) {
        note("The recommender could not estimate this pick's layout again; its row above has the figures it ranked by.");
        return;
    }
    const PickFigures& f = *p.detail.figures;
    figure_table("throughput", {{"Bytes read per decode step (weights + KV)", f.bytes_per_step},
                                {"Decode step", f.decode_step_seconds},
                                {"Tokens per second per instance", f.tokens_per_second_per_instance},
                                {"Instances", f.instances},
                                {"USD per 1M tokens at your rate (the fleet)", f.usd_per_million_tokens},
                                {"USD per month (the fleet, 730 hours)", f.usd_per_month}});
    draw_quota_line(p.detail.quota);
    note("Decode is memory-bound: each step reads the weights and every sequence's KV cache once, plus the tensor-parallel "
         "all-reduces and a fixed cost per step; tokens/s per instance = batch / step time x replicas (docs/models.md). Hover a "
         "value for its inputs.");
}

}  // namespace

void draw_inference_view(AppState& state) {
    const bool has_infer = find_json(state.scenario, {"infer"}) != nullptr;
    const bool has_recommend = find_json(state.scenario, {"recommend"}) != nullptr;
    if (!has_infer && !has_recommend) {
        if (empty_state("This scenario serves no model (an infer or recommend section).", "Serve llama-3.1-70b at 2,000 tokens/s")) {
            state.scenario["recommend"] = example_serving_request();
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
