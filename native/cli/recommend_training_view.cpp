// recommend_training_view.cpp — how `gpuplan recommend --training` shows its result
// (recommend_training_view.hpp): the request line, the Pareto frontier, the nearest misses when
// nothing fits, what was dropped and why, and with --explain each pick's working.
#include "recommend_training_view.hpp"
#include "gpuplan/formula_text.hpp"

#include <fmt/format.h>

#include "gpuplan/text.hpp"

namespace gpuplan::cli {

// The `gpuplan train` command line that shows one candidate's step in full.
std::string train_command(const TrainingRecommendRequest& q, const TrainingCandidate& c) {
    const ParallelLayout& l = c.parallel;
    return "gpuplan train --model " + q.model->name + " --instance " + c.instance + " --nodes " + n(c.nodes) + " --dp " + n(l.data) + " --tp " +
           n(l.tensor) + " --zero " + std::to_string(l.zero_stage) + " --micro-batch " + n(q.micro_batch) + " --sequence " + n(q.sequence) +
           " --global-batch-tokens " + n(q.global_batch_tokens) + " --recompute " + std::string(to_string(q.recompute)) + " --tokens " +
           n(q.token_budget) + " --purchase " + std::string(to_string(c.purchase)) + " --region " + q.region;
}

std::string render_training_recommendation(const TrainingRecommendRequest& q, const TrainingRecommendation& r, const nlohmann::json& j,
                                           Format format, bool explain) {
    std::string out = fmt::format(
        "{} training on {} tokens (sequence {}, micro-batch {}, {} tokens per step, recompute {}), up to {} node{}, {}{}{}: "
        "{} options evaluated, {} kept\n\n",
        q.model->name, quantity(q.token_budget), quantity(q.sequence), quantity(q.micro_batch), quantity(q.global_batch_tokens), to_string(q.recompute),
        n(q.max_nodes), q.max_nodes == 1 ? "" : "s", q.region, q.deadline_hours ? ", deadline " + n(*q.deadline_hours) + " h" : "",
        q.budget_usd ? ", budget " + money(*q.budget_usd) : "", r.evaluated, j.at("kept").get<std::size_t>());
    Table t{{{"instance", "instance", false}, {"purchase", "purchase", false}, {"layout", "layout", false}, {"nodes", "nodes"}, {"hours", "hours"},
             {"cost", "cost_usd"}, {"pick", "pick", false}, {"bottleneck", "bottleneck", false}},
            {}};
    for (std::size_t i : r.frontier) {
        const TrainingCandidate& c = r.candidates[i];
        std::string pick;
        for (std::size_t k = 0; k < r.picks.size(); ++k)
            if (r.picks[k] == i) pick += (pick.empty() ? "" : ", ") + std::string(kTrainingPickNames[k]);
        t.rows.push_back({text_cell(c.instance), text_cell(std::string(to_string(c.purchase))), text_cell(c.layout), text_cell(quantity(c.nodes)),
                          {decimals(c.hours, 2) + "*", full_precision(c.hours)}, {money(c.cost_usd) + "*", full_precision(c.cost_usd)}, text_cell(pick),
                          {c.bottleneck.substr(0, c.bottleneck.find(';')), c.bottleneck}});  // the main clause; CSV, JSON and --explain have it all
    }
    if (r.frontier.empty()) {
        out += "Nothing meets these constraints.\n";
        // The nearest misses: what the deadline or the budget would have to be.
        const TrainingCandidate *fastest = nullptr, *cheapest = nullptr;
        for (const auto& c : r.candidates) {
            if (c.kept || c.hours <= 0) continue;
            if (c.dropped_because.rfind("misses the deadline", 0) == 0 && (!fastest || c.hours < fastest->hours)) fastest = &c;
            if (c.dropped_because.rfind("over the budget", 0) == 0 && (!cheapest || c.cost_usd < cheapest->cost_usd)) cheapest = &c;
        }
        if (fastest)
            out += "The fastest option found takes " + decimals(fastest->hours, 2) + " h*: " + fastest->instance + " x " + n(fastest->nodes) + " (" +
                   std::string(to_string(fastest->purchase)) + ", " + fastest->layout + ", " + money(fastest->cost_usd) + "*); raise --deadline-hours or --max-nodes.\n";
        if (cheapest)
            out += "The cheapest option found costs " + money(cheapest->cost_usd) + "*: " + cheapest->instance + " x " + n(cheapest->nodes) + " (" +
                   std::string(to_string(cheapest->purchase)) + ", " + cheapest->layout + ", " + decimals(cheapest->hours, 2) + " h*); raise --budget-usd.\n";
    } else {
        out += "Pareto frontier (no other option is both cheaper and faster), cheapest first:\n";
        out += render_table(t, format);
        if (format != Format::csv) {
            out += "\nWhy these picks:\n";
            for (std::size_t k = 0; k < r.pick_reasons.size(); ++k) out += fmt::format("  {}: {}\n", kTrainingPickNames[k], r.pick_reasons[k]);
            out += "\nQuotas (vCPUs each pick's nodes need before they can launch):\n";
            for (std::size_t k = 0; k < r.pick_quotas.size(); ++k) out += fmt::format("  {}: {}\n", kTrainingPickNames[k], r.pick_quotas[k].words);
        }
    }
    if (format == Format::csv) return render_csv(t);  // the frontier alone: CSV readers want no prose
    std::string after = "\nDropped, by reason:\n";
    std::vector<KeyValue> dropped;
    for (const auto& [reason, list] : j.at("dropped").items()) {
        std::vector<std::string> some;
        for (std::size_t k = 0; k < list.size() && k < 3; ++k) some.push_back(list[k].get<std::string>());
        dropped.push_back({fmt::format("{} option(s)", list.size()), reason + " (" + join(some, ", ") + (list.size() > 3 ? ", ..." : "") + ")"});
    }
    after += dropped.empty() ? "  none\n" : render_key_values(dropped);
    if (explain)
        for (std::size_t k = 0; k < r.picks.size(); ++k) {
            // A candidate that is several picks at once is explained once, under all its names.
            bool seen = false;
            std::string label;
            for (std::size_t e = 0; e < r.picks.size(); ++e)
                if (r.picks[e] == r.picks[k]) {
                    seen = seen || e < k;
                    label += (label.empty() ? "" : ", ") + std::string(kTrainingPickNames[e]);
                }
            if (seen) continue;
            const TrainingTime& time = r.pick_times[k];
            const nlohmann::json& pick = j.at("picks").at(kTrainingPickNames[k]);
            after += fmt::format("\n{}: {} x {} ({}, {})\n", label, pick.at("instance").get<std::string>(), n(pick.at("nodes").get<double>()),
                                 pick.at("purchase").get<std::string>(), pick.at("layout").get<std::string>());
            after += "  bottleneck: " + time.bottleneck + "\n";
            for (const auto& w : time.warnings) after += "  warning: " + w + "\n";
            if (!time.does_not_fit.empty()) after += "  warning: " + time.does_not_fit + "\n";
            for (const auto& [figure_name, figure] : pick.at("figures").items())
                after += "  " + figure_name + "\n" + explain_figure_json(figure, "    ");
            after += "  step breakdown: " + pick.at("train_command").get<std::string>() + "\n";
        }
    after += "\nhours: token budget / tokens per second of the training step model (`gpuplan train` shows one option in full);\n"
             "cost: hours x nodes x the catalog $/h of the purchase option. Each instance type x node count (powers of two up to\n"
             "--max-nodes) takes the first layout that fits in GPU memory, least communication first: data parallel with ZeRO 0,\n"
             "1, 2, 3, then tensor parallel over the node's GPUs with ZeRO 1, 3.\n"
             "* rests on default assumptions (docs/models.md): compute efficiency " +
             percent(default_compute_efficiency().value) + " of dense peak, communication overlaps, link latencies.\n";
    return out + notes_block(after, format);
}

}  // namespace gpuplan::cli
