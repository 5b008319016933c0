// recommend_view.cpp — the Recommend view: the Pareto chart of cost versus time for the
// scenario's sweep (serving: USD per million tokens versus ms per token; training: USD versus
// hours), the ranked frontier with each option's layout and bottleneck, the three picks, and
// every dropped option grouped by the reason it was dropped.
#include <algorithm>
#include <cmath>

#include "imgui.h"
#include "ui/plot.hpp"
#include "ui/theme.hpp"
#include "ui/views/view_common.hpp"
#include "ui/names.hpp"
#include "ui/widgets.hpp"

namespace gpuplan::ui {
namespace {

struct Axis { const char* key; const char* label; double scale; const char* unit; };

// The frontier as points, with a tooltip per point and the picks marked.
void draw_pareto(const nlohmann::json& rec, const Axis& x, const Axis& y, const char* id) {
    const nlohmann::json* frontier = find_json(rec, {"frontier"});
    if (!frontier || !frontier->is_array() || frontier->empty()) return;
    std::vector<double> xs, ys;
    std::vector<std::string> tips;
    for (const auto& c : *frontier) {
        xs.push_back(json_number(find_json(c, {x.key})).value_or(NAN) * x.scale);
        ys.push_back(json_number(find_json(c, {y.key})).value_or(NAN) * y.scale);
        tips.push_back(json_string(find_json(c, {"instance"})) + " (" + human_name(json_string(find_json(c, {"purchase"}))) + ")\n" +
                       json_string(find_json(c, {"layout"})));
    }
    std::vector<double> px, py;
    std::vector<std::string> ptips;
    if (const nlohmann::json* picks = find_json(rec, {"picks"}); picks && picks->is_object())
        for (auto it = picks->begin(); it != picks->end(); ++it) {
            px.push_back(json_number(find_json(it.value(), {x.key})).value_or(NAN) * x.scale);
            py.push_back(json_number(find_json(it.value(), {y.key})).value_or(NAN) * y.scale);
            ptips.push_back(it.key() + ": " + json_string(find_json(it.value(), {"instance"})));
        }
    if (plot::BeginPlot(id, ImVec2(-1, em(16)))) {
        plot::SetupAxes(x.label, y.label);
        plot::SetupAxisFormat("%g", y.unit);
        plot::PlotLine("##frontier", xs.data(), ys.data(), static_cast<int>(xs.size()), palette().series[0]);
        plot::PlotScatter("options on the frontier", xs.data(), ys.data(), static_cast<int>(xs.size()), &tips, palette().series[0]);
        plot::PlotScatter("picks", px.data(), py.data(), static_cast<int>(px.size()), &ptips, palette().series[5], 0.45f);
        plot::EndPlot();
    }
    note("Each point is an option no other option beats on both cost and time (the Pareto frontier); hover for its "
         "instance and layout. Cheapest is the lowest point, fastest the leftmost, balanced the knee between them.");
}

void draw_ranked(const nlohmann::json& rec, bool training) {
    const nlohmann::json* frontier = find_json(rec, {"frontier"});
    if (!frontier || !frontier->is_array()) return;
    const int columns = training ? 7 : 8;
    if (!ImGui::BeginTable("ranked", columns, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit |
                                                  ImGuiTableFlags_ScrollX, ImVec2(0, table_height(frontier->size(), 16))))
        return;
    ImGui::TableSetupColumn("#");
    ImGui::TableSetupColumn("instance");
    ImGui::TableSetupColumn("purchase");
    ImGui::TableSetupColumn("layout");
    if (training) {
        for (const char* h : {"hours", "cost"}) ImGui::TableSetupColumn(h);
        ImGui::TableSetupColumn("bottleneck", ImGuiTableColumnFlags_WidthStretch);
    } else {
        for (const char* h : {"instances", "USD/h", "USD per 1M tokens", "ms per token"}) ImGui::TableSetupColumn(h);
    }
    ImGui::TableHeadersRow();
    for (std::size_t k = 0; k < frontier->size(); ++k) {
        const auto& c = (*frontier)[k];
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::Text("%d", static_cast<int>(k) + 1);
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted(json_string(find_json(c, {"instance"})).c_str());
        if (ImGui::IsItemHovered()) {
            // The sweep's candidates carry plain numbers; how each is computed is in the picks'
            // figures below and in docs/models.md ("Recommender").
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(em(32));
            ImGui::Text("%s (%s), %s", json_string(find_json(c, {"instance"})).c_str(), human_name(json_string(find_json(c, {"purchase"}))).c_str(),
                        json_string(find_json(c, {"layout"})).c_str());
            if (training) ImGui::TextDisabled("%s", json_string(find_json(c, {"bottleneck"})).c_str());
            else ImGui::TextDisabled("USD per 1M tokens = fleet USD/h / (fleet tokens/s x 3600) x 1e6");
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }
        ImGui::TableSetColumnIndex(2);
        ImGui::TextUnformatted(human_name(json_string(find_json(c, {"purchase"}))).c_str());
        ImGui::TableSetColumnIndex(3);
        ImGui::TextUnformatted(json_string(find_json(c, {"layout"})).c_str());
        const auto num = [&](const char* key) { return json_number(find_json(c, {key})).value_or(NAN); };
        if (training) {
            ImGui::TableSetColumnIndex(4);
            text_right(format_quantity(num("hours"), "h"));
            ImGui::TableSetColumnIndex(5);
            text_right(format_quantity(num("cost_usd"), "USD"));
            ImGui::TableSetColumnIndex(6);
            ImGui::TextUnformatted(json_string(find_json(c, {"bottleneck"})).c_str());
        } else {
            ImGui::TableSetColumnIndex(4);
            text_right(format_quantity(num("instances"), ""));
            ImGui::TableSetColumnIndex(5);
            text_right(format_quantity(num("usd_per_hour"), "USD/h"));
            ImGui::TableSetColumnIndex(6);
            text_right(format_quantity(num("usd_per_million_tokens"), "USD"));
            ImGui::TableSetColumnIndex(7);
            text_right(format_quantity(num("seconds_per_token") * 1e3, "ms"));
        }
    }
    ImGui::EndTable();
}

void draw_picks(const nlohmann::json& rec) {
    const nlohmann::json* picks = find_json(rec, {"picks"});
    if (!picks || !picks->is_object()) return;
    for (const char* name : {"cheapest", "fastest", "balanced"}) {
        const nlohmann::json* p = find_json(*picks, {name});
        if (!p) continue;
        ImGui::Bullet();
        ImGui::TextWrapped("%s: %s (%s), %s", name, json_string(find_json(*p, {"instance"})).c_str(), human_name(json_string(find_json(*p, {"purchase"}))).c_str(),
                    json_string(find_json(*p, {"layout"})).c_str());
        if (const std::string why = json_string(find_json(*p, {"why"})); !why.empty()) {
            ImGui::Indent();
            ImGui::PushTextWrapPos(0);
            ImGui::TextDisabled("Why: %s", why.c_str());
            ImGui::PopTextWrapPos();
            ImGui::Unindent();
        }
        if (const nlohmann::json* figures = find_json(*p, {"figures"}); figures && figures->is_object()) {
            ImGui::Indent();
            ImGui::PushID(name);
            bool first = true;
            for (auto it = figures->begin(); it != figures->end(); ++it) {
                const std::string figure_name = human_name(it.key());
                // name and value together, beside the last pair while they fit (em(7): a value)
                if (!first) same_line_if_fits(ImGui::CalcTextSize(figure_name.c_str()).x + em(7), em(1.5f));
                first = false;
                ImGui::TextDisabled("%s", figure_name.c_str());
                ImGui::SameLine();
                figure_value_text(&it.value(), false);
            }
            ImGui::PopID();
            ImGui::Unindent();
        }
    }
}

void draw_dropped(const nlohmann::json& rec) {
    const nlohmann::json* dropped = find_json(rec, {"dropped"});
    const auto evaluated = json_number(find_json(rec, {"evaluated"})), kept = json_number(find_json(rec, {"kept"}));
    ImGui::TextDisabled("%s options evaluated, %s kept", format_quantity(evaluated.value_or(NAN), "").c_str(),
                        format_quantity(kept.value_or(NAN), "").c_str());
    if (!dropped || !dropped->is_object() || dropped->empty()) return;
    if (!ImGui::CollapsingHeader("Dropped options, by reason")) return;
    for (auto it = dropped->begin(); it != dropped->end(); ++it) {
        const std::size_t count = it.value().is_array() ? it.value().size() : 0;
        ImGui::PushID(it.key().c_str());
        if (ImGui::TreeNode("##reason", "%s (%d)", it.key().c_str(), static_cast<int>(count))) {
            std::string list;
            for (const auto& name : it.value())
                if (name.is_string()) list += (list.empty() ? "" : ", ") + name.get<std::string>();
            ImGui::PushTextWrapPos(0);
            ImGui::TextDisabled("%s", list.c_str());
            ImGui::PopTextWrapPos();
            ImGui::TreePop();
        }
        ImGui::PopID();
    }
}

// The training sweep's inputs (scenario section "recommend_training").
void edit_training_request(AppState& state) {
    nlohmann::json& r = scenario_section(state, "recommend_training");
    edit_choice(state, r, "model", "model", model_names(), "llama-3-8b");
    ImGui::SameLine();
    edit_number(state, r, "tokens", "tokens to train", 2e10, 1, 1e15, "%.3g");
    ImGui::SameLine();
    edit_number(state, r, "max_nodes", "max nodes", 8, 1, 4096);
    edit_purchase_and_families(state, r);
    edit_optional_number(state, r, "deadline_hours", "deadline (hours)", "none", 0.01, 1e6);
    ImGui::SameLine();
    edit_optional_number(state, r, "budget_usd", "budget (USD)", "none", 1, 1e10, "%.6g");
}

}  // namespace

void draw_recommend_view(AppState& state) {
    const nlohmann::json* serve = find_json(state.results, {"recommend"});
    const nlohmann::json* train = find_json(state.results, {"recommend_training"});
    if (!serve && !train) {
        if (empty_state("This scenario asks for no recommendation: add one for serving or for training.",
                        "Recommend a fleet to serve llama-3.1-70b")) {
            state.scenario["recommend"] = {{"model", "llama-3.1-70b"}, {"dtype", "fp8"}, {"kv_dtype", "bf16"}, {"context", 8192},
                                           {"tokens_per_second", 2000}, {"purchase", {"on_demand", "spot_typical"}}, {"max_instances", 8}};
            scenario_edited(state);
        }
        return;
    }
    bool& show_training = state.views->recommend_training;
    if (serve && train) {
        if (ImGui::RadioButton("serving", !show_training)) show_training = false;
        ImGui::SameLine();
        if (ImGui::RadioButton("training", show_training)) show_training = true;
    }
    const bool training = train && (!serve || show_training);
    const nlohmann::json& rec = training ? *train : *serve;
    heading(training ? "What to train" : "What to serve");
    if (training) edit_training_request(state);
    else edit_serving_request(state, true);
    heading(training ? "Training: cost versus time" : "Serving: cost versus time per token");
    if (training)
        draw_pareto(rec, {"hours", "hours to train", 1, ""}, {"cost_usd", "USD for the run", 1, "$%.0f"}, "##pareto_train");
    else
        draw_pareto(rec, {"seconds_per_token", "ms per token (per sequence)", 1e3, ""},
                    {"usd_per_million_tokens", "USD per million tokens", 1, "$%.2f"}, "##pareto_serve");
    heading("Ranked frontier (cheapest first)");
    draw_ranked(rec, training);
    heading("Picks");
    draw_picks(rec);
    draw_dropped(rec);
}

}  // namespace gpuplan::ui
