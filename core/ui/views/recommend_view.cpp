// recommend_view.cpp — the Recommend view: the Pareto chart of cost versus time for the
// scenario's sweep (serving: USD per million tokens versus ms per token; training: USD versus
// hours), the ranked frontier with each option's layout and bottleneck, the three picks, every
// kept option in one table with the frontier marked (a "p5 vs p4d vs g6e" question needs the
// rows the frontier leaves out), and every dropped option grouped by the reason it was dropped.
#include <algorithm>
#include <cmath>

#include "gpuplan/recommend/recommend.hpp"
#include "gpuplan/text.hpp"
#include "gpuplan/scenario/scenario_result.hpp"
#include "imgui.h"
#include "ui/plot.hpp"
#include "ui/theme.hpp"
#include "ui/views/view_common.hpp"
#include "ui/names.hpp"
#include "ui/widgets.hpp"

namespace gpuplan::ui {
namespace {

// One option of either sweep as the view shows it: the typed candidate's own numbers (the
// recommender computed them; nothing here recomputes one), and the two it is ranked by.
struct OptionRow {
    std::string instance, purchase, layout;
    double x = 0, y = 0;  // the chart's axes: time and cost
    const Candidate* serving = nullptr;
    const TrainingCandidate* training = nullptr;
    bool on_frontier = false;
};
OptionRow option_row(const Candidate& c) {
    // "*": the rate is an assumed discount off on-demand (the table's note says so)
    return {c.instance, purchase_option_words(c.purchase) + (c.price_assumed ? "*" : ""), c.layout, c.seconds_per_token * 1e3,
            c.usd_per_million_tokens, &c, nullptr};
}
OptionRow option_row(const TrainingCandidate& c) {
    return {c.instance, human_name(std::string(to_string(c.purchase))), c.layout, c.hours, c.cost_usd, nullptr, &c};
}

// A sweep's frontier and picks, each pick with why it was chosen and its figures (typed).
struct Pick {
    const char* name;
    OptionRow row;
    std::string why;
    std::vector<const Figure*> figures;
    const QuotaLine* quota = nullptr;  // the vCPUs its fleet or nodes need
};
struct Sweep {
    bool training = false;
    bool by_requests = false;                 // serving a request rate: simulated p95 times
    std::vector<LatencyTarget> targets = {};  // its targets: the columns of achieved figures
    std::vector<OptionRow> frontier = {};
    std::vector<OptionRow> kept_options = {};  // every kept option, cheapest first, the frontier's marked
    std::vector<Pick> picks = {};
    std::size_t evaluated = 0, kept = 0;
    std::vector<DroppedOptions> dropped;  // by reason
};

// Every kept candidate of a sweep as rows, cheapest first (then fastest), frontier ones marked.
template <class Candidates>
std::vector<OptionRow> kept_rows(const Candidates& candidates, const std::vector<std::size_t>& frontier) {
    std::vector<OptionRow> rows;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        if (!candidates[i].kept) continue;
        rows.push_back(option_row(candidates[i]));
        rows.back().on_frontier = std::find(frontier.begin(), frontier.end(), i) != frontier.end();
    }
    std::stable_sort(rows.begin(), rows.end(), [](const OptionRow& a, const OptionRow& b) { return a.y != b.y ? a.y < b.y : a.x < b.x; });
    return rows;
}

Sweep sweep_of(const Recommendation& r) {
    Sweep s{.by_requests = r.traffic.has_value(),
            .targets = r.traffic ? r.traffic->targets : std::vector<LatencyTarget>{},
            .evaluated = r.evaluated,
            .kept = kept_count(r),
            .dropped = dropped_by_reason(r)};
    for (std::size_t i : r.frontier) s.frontier.push_back(option_row(r.candidates[i]));
    s.kept_options = kept_rows(r.candidates, r.frontier);
    for (std::size_t k = 0; k < r.picks.size() && k < 3; ++k) {
        Pick p{kPickNames[k], option_row(r.candidates[r.picks[k]]), k < r.pick_reasons.size() ? r.pick_reasons[k] : "", {}};
        if (k < r.pick_details.size() && r.pick_details[k].figures) p.figures = r.pick_details[k].figures->all();
        if (k < r.pick_details.size()) p.quota = &r.pick_details[k].quota;
        s.picks.push_back(std::move(p));
    }
    return s;
}
Sweep sweep_of(const TrainingRecommendation& r) {
    Sweep s{.training = true, .evaluated = r.evaluated, .kept = kept_count(r), .dropped = dropped_by_reason(r)};
    for (std::size_t i : r.frontier) s.frontier.push_back(option_row(r.candidates[i]));
    s.kept_options = kept_rows(r.candidates, r.frontier);
    for (std::size_t k = 0; k < r.picks.size() && k < 3; ++k)
        s.picks.push_back({kPickNames[k], option_row(r.candidates[r.picks[k]]), k < r.pick_reasons.size() ? r.pick_reasons[k] : "",
                           k < r.pick_times.size() ? training_pick_figures(r.pick_times[k]) : std::vector<const Figure*>{},
                           k < r.pick_quotas.size() ? &r.pick_quotas[k] : nullptr});
    return s;
}

struct Axis { const char* label; const char* unit; };

// The frontier as points, with a tooltip per point and the picks marked.
void draw_pareto(const Sweep& sweep, const Axis& x, const Axis& y, const char* id) {
    if (sweep.frontier.empty()) return;
    std::vector<double> xs, ys;
    std::vector<std::string> tips;
    for (const OptionRow& o : sweep.frontier) {
        xs.push_back(o.x);
        ys.push_back(o.y);
        tips.push_back(o.instance + " (" + o.purchase + ")\n" + o.layout);
    }
    std::vector<double> px, py;
    std::vector<std::string> ptips;
    for (const Pick& p : sweep.picks) {
        px.push_back(p.row.x);
        py.push_back(p.row.y);
        ptips.push_back(std::string(p.name) + ": " + p.row.instance);
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

void draw_ranked_cells(const OptionRow& o) {
    if (const TrainingCandidate* c = o.training) {
        ImGui::TableSetColumnIndex(4);
        text_right(format_quantity(c->hours, "h"));
        ImGui::TableSetColumnIndex(5);
        text_right(format_quantity(c->cost_usd, "USD"));
        ImGui::TableSetColumnIndex(6);
        ImGui::TextUnformatted(c->bottleneck.c_str());
    } else if (const Candidate* s = o.serving) {
        ImGui::TableSetColumnIndex(4);
        text_right(format_quantity(s->instances, ""));
        ImGui::TableSetColumnIndex(5);
        text_right(format_quantity(s->usd_per_hour, "USD/h"));
        ImGui::TableSetColumnIndex(6);
        text_right(format_quantity(s->usd_per_month, "USD/month"));
        ImGui::TableSetColumnIndex(7);
        text_right(format_quantity(s->usd_per_million_tokens, "USD"));
        ImGui::TableSetColumnIndex(8);
        text_right(format_quantity(s->seconds_per_token * 1e3, "ms"));
        for (std::size_t k = 0; k < s->achieved_seconds.size(); ++k) {
            ImGui::TableSetColumnIndex(9 + static_cast<int>(k));
            text_right(format_quantity(s->achieved_seconds[k] * 1e3, "ms"));
        }
    }
}

// A table of options: the ranked frontier, or every kept option with a last column that marks
// the frontier's (`mark_frontier`).
void draw_options_table(const Sweep& sweep, const std::vector<OptionRow>& rows, const char* id, bool mark_frontier) {
    const bool training = sweep.training;
    const int columns = (training ? 7 : 9 + static_cast<int>(sweep.targets.size())) + (mark_frontier ? 1 : 0);
    if (!ImGui::BeginTable(id, columns, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit |
                                            ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY, ImVec2(0, table_height(rows.size(), 16))))
        return;
    ImGui::TableSetupColumn("#");
    ImGui::TableSetupColumn("instance");
    ImGui::TableSetupColumn("purchase");
    ImGui::TableSetupColumn("layout");
    if (training) {
        for (const char* h : {"hours", "cost"}) ImGui::TableSetupColumn(h);
        ImGui::TableSetupColumn("bottleneck", ImGuiTableColumnFlags_WidthStretch);
    } else {
        for (const char* h : {"instances", "USD/h (fleet)", "USD/month (fleet)", "USD per 1M tokens at your rate"}) ImGui::TableSetupColumn(h);
        ImGui::TableSetupColumn(sweep.by_requests ? "p95 ms per token" : "ms per token");
        for (const LatencyTarget& t : sweep.targets) ImGui::TableSetupColumn((latency_target_heading(t) + " (ms)").c_str());
    }
    if (mark_frontier) ImGui::TableSetupColumn("on the frontier");
    ImGui::TableSetupScrollFreeze(0, 1);  // the header stays when the rows scroll
    ImGui::TableHeadersRow();
    for (std::size_t k = 0; k < rows.size(); ++k) {
        const OptionRow& o = rows[k];
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::Text("%d", static_cast<int>(k) + 1);
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted(o.instance.c_str());
        if (ImGui::IsItemHovered()) {
            // The sweep's candidates carry plain numbers; how each is computed is in the picks'
            // figures below and in docs/models.md ("Recommender").
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(em(32));
            ImGui::Text("%s (%s), %s", o.instance.c_str(), o.purchase.c_str(), o.layout.c_str());
            if (o.training) ImGui::TextDisabled("%s", o.training->bottleneck.c_str());
            else ImGui::TextDisabled("USD per 1M tokens = fleet USD/h / (fleet tokens/s x 3600) x 1e6");
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }
        ImGui::TableSetColumnIndex(2);
        ImGui::TextUnformatted(o.purchase.c_str());
        ImGui::TableSetColumnIndex(3);
        ImGui::TextUnformatted(o.layout.c_str());
        draw_ranked_cells(o);
        if (mark_frontier) {
            ImGui::TableSetColumnIndex(columns - 1);
            ImGui::TextUnformatted(o.on_frontier ? "yes" : "");
        }
    }
    ImGui::EndTable();
    if (std::any_of(rows.begin(), rows.end(), [](const OptionRow& o) { return o.serving && o.serving->price_assumed; }))
        note("*: priced at an assumed discount off on-demand: no listed price for the type and region (the Costs view "
             "shows every way to buy it with its source).");
}

void draw_picks(const Sweep& sweep) {
    for (const Pick& p : sweep.picks) {
        ImGui::Bullet();
        ImGui::TextWrapped("%s: %s (%s), %s", p.name, p.row.instance.c_str(), p.row.purchase.c_str(), p.row.layout.c_str());
        if (!p.why.empty()) {
            ImGui::Indent();
            ImGui::PushTextWrapPos(0);
            ImGui::TextDisabled("Why: %s", p.why.c_str());
            ImGui::PopTextWrapPos();
            ImGui::Unindent();
        }
        if (p.quota) {
            ImGui::Indent();
            draw_quota_line(*p.quota);
            ImGui::Unindent();
        }
        if (p.figures.empty()) continue;
        ImGui::Indent();
        ImGui::PushID(p.name);
        bool first = true;
        for (const Figure* f : p.figures) {
            const std::string figure_name = human_name(f->name);
            // name and value together, beside the last pair while both fit ("*": an assumption's mark)
            const std::string value_text = (f->value ? format_quantity(*f->value, f->unit) : std::string("unknown")) + "*";
            if (!first)
                same_line_if_fits(ImGui::CalcTextSize(figure_name.c_str()).x + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(value_text.c_str()).x,
                                  em(1.5f));
            first = false;
            ImGui::TextDisabled("%s", figure_name.c_str());
            ImGui::SameLine();
            figure_value_text(*f, std::string(p.name) + ": " + figure_name, false);
        }
        ImGui::PopID();
        ImGui::Unindent();
    }
}

// How many options were evaluated and kept, and the dropped ones grouped by reason.
void draw_dropped(const Sweep& sweep) {
    ImGui::TextDisabled("%s options evaluated, %s kept", format_quantity(static_cast<double>(sweep.evaluated), "").c_str(),
                        format_quantity(static_cast<double>(sweep.kept), "").c_str());
    if (sweep.dropped.empty() || !ImGui::CollapsingHeader("Dropped options, by reason")) return;
    for (const DroppedOptions& d : sweep.dropped) {
        ImGui::PushID(d.reason.c_str());
        if (ImGui::TreeNode("##reason", "%s (%d)", d.reason.c_str(), static_cast<int>(d.options.size()))) {
            ImGui::PushTextWrapPos(0);
            ImGui::TextDisabled("%s", join(d.options, ", ").c_str());
            ImGui::PopTextWrapPos();
            ImGui::TreePop();
        }
        ImGui::PopID();
    }
}

// The training sweep's inputs (scenario section "recommend_training").
void edit_training_request(AppState& state) {
    nlohmann::json& r = scenario_section(state, "recommend_training");
    draw_model_config_paste(state, r);
    edit_choice(state, r, "model", "model", model_names(state), "llama-3-8b");
    ImGui::SameLine();
    edit_number(state, r, "tokens", "tokens to train", 2e10, 1, 1e15, "%.3g");
    ImGui::SameLine();
    edit_number(state, r, "max_nodes", "max nodes", 8, 1, 4096);
    edit_purchase_and_families(state, r, false);
    edit_optional_number(state, r, "deadline_hours", "deadline (hours)", "none", 0.01, 1e6);
    ImGui::SameLine();
    edit_optional_number(state, r, "budget_usd", "budget (USD)", "none", 1, 1e10, "%.6g");
}

}  // namespace

constexpr const char* kTrainingStart = "Recommend a way to train llama-3-8b on 20B tokens";

void draw_recommend_view(AppState& state) {
    const ScenarioResult* result = state.result.get();
    const bool has_serve = result && result->recommend, has_train = result && result->recommend_training;
    if (!has_serve && !has_train) {
        if (empty_state("This scenario asks for no recommendation: add one for serving or for training.",
                        "Recommend a fleet to serve llama-3.1-70b")) {
            state.scenario["recommend"] = example_serving_request();
            scenario_edited(state);
        }
        // Training has its own start: the question of the R2 example, without its deadline.
        if (ImGui::Button(kTrainingStart)) {
            state.scenario["recommend_training"] = {{"model", "llama-3-8b"}, {"tokens", 2e10}, {"sequence", 4096},
                                                    {"global_batch_tokens", 4194304}, {"recompute", "selective"}, {"max_nodes", 8},
                                                    {"purchase", {"on-demand", "spot"}}};
            state.views->recommend_training = true;
            scenario_edited(state);
        }
        mark_widget(kTrainingStart);
        return;
    }
    bool& show_training = state.views->recommend_training;
    if (has_serve && has_train) {
        if (ImGui::RadioButton("serving", !show_training)) show_training = false;
        ImGui::SameLine();
        if (ImGui::RadioButton("training", show_training)) show_training = true;
    }
    const bool training = has_train && (!has_serve || show_training);
    const Sweep sweep = training ? sweep_of(*result->recommend_training) : sweep_of(*result->recommend);
    heading(training ? "What to train" : "What to serve");
    if (training) edit_training_request(state);
    else edit_serving_request(state, true);
    if (!training && sweep.by_requests) {  // every target the scenario gives, the p95 TTFT field's and any from a link
        std::vector<std::string> words;
        for (const LatencyTarget& t : sweep.targets) words.push_back(t.words());
        ImGui::TextDisabled("Latency targets: %s", words.empty() ? "none (each layout gets the fewest replicas that keep up)" : join(words, "; ").c_str());
    }
    heading(training ? "Training: cost versus time" : "Serving: cost versus time per token");
    if (training) draw_pareto(sweep, {"hours to train", ""}, {"USD for the run", "$%.0f"}, "##pareto_train");
    else draw_pareto(sweep, {sweep.by_requests ? "p95 ms per token (per sequence, simulated)" : "ms per token (per sequence)", ""},
                     {"USD per million tokens", "$%.2f"}, "##pareto_serve");
    heading("Ranked frontier (cheapest first)");
    draw_options_table(sweep, sweep.frontier, "ranked", false);
    heading("Picks");
    draw_picks(sweep);
    heading(("Every kept option (" + format_quantity(static_cast<double>(sweep.kept_options.size()), "") + "), cheapest first").c_str());
    note("Side by side, whether or not another option beats them on both cost and time.");
    draw_options_table(sweep, sweep.kept_options, "kept", true);
    draw_dropped(sweep);
}

}  // namespace gpuplan::ui
