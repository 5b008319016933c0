// readback_test.cpp — what a view drew, read back and compared with the result document
// (`gpuplan eval`'s, from the same core call), name by name. A vertex count cannot tell that a
// row went missing; this can: since 48a07d1 the Inference view asked the recommended pick for
// "steps_per_second" and "tokens_per_second", which the core no longer returned, and the rows
// silently vanished. On that view code the coverage check below fails.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gpuplan/scenario/scenario.hpp"
#include "gpuplan/scenario/scenario_result.hpp"
#include "headless.hpp"
#include "ui/views/view_common.hpp"
#include "ui/widgets.hpp"

using namespace gpuplan;
using namespace gpuplan::ui;

namespace {

// The app with the built-in scenario whose file name contains `file_part`, evaluated.
AppState state_for(const std::string& file_part) {
    AppState state;
    state.catalog = &test::builtin_catalog();
    set_scenario(state, test::builtin_scenario(file_part));
    REQUIRE(state.error.empty());
    return state;
}

// The figures a view drew in one frame (after a settling frame: tables measure on the first).
std::vector<DrawnFigure> draw_view(test::Headless& ui, AppState& state, View view) {
    state.view = view;
    ui.frame(state);
    ui.frame(state);
    return drawn_figures();
}

// Every figure object of the document, anywhere, under its key: {"value": ..., "explain": ...}.
void collect_figures(const nlohmann::json& j, std::multimap<std::string, const nlohmann::json*>& out) {
    if (j.is_object()) {
        for (const auto& [key, child] : j.items()) {
            if (child.is_object() && child.contains("value") && child.contains("explain")) out.emplace(key, &child);
            collect_figures(child, out);
        }
    } else if (j.is_array()) {
        for (const auto& child : j) collect_figures(child, out);
    }
}

bool same_value(const std::optional<double>& drawn, const nlohmann::json& figure) {
    if (!figure["value"].is_number()) return !drawn.has_value();
    return drawn && *drawn == figure["value"].get<double>();
}

// Every drawn figure is in the document under the same name with the same value.
void check_drawn_figures_are_the_documents(const std::vector<DrawnFigure>& drawn, const nlohmann::json& document) {
    std::multimap<std::string, const nlohmann::json*> figures;
    collect_figures(document, figures);
    for (const DrawnFigure& d : drawn) {
        INFO("drawn: " << d.label << " (" << d.name << ")");
        const auto [lo, hi] = figures.equal_range(d.name);
        REQUIRE(lo != hi);
        bool found = false;
        for (auto it = lo; it != hi && !found; ++it) found = same_value(d.value, *it->second);
        CHECK(found);
    }
}

std::set<std::string> drawn_names(const std::vector<DrawnFigure>& drawn) {
    std::set<std::string> names;
    for (const DrawnFigure& d : drawn) names.insert(d.name);
    return names;
}

}  // namespace

TEST_CASE("every figure a view draws is the document's, for every example scenario", "[readback]") {
    test::Headless ui;
    std::size_t checked = 0;
    for (const CatalogDocument& doc : builtin_scenario_documents()) {
        INFO(doc.origin);
        AppState state;
        state.catalog = &test::builtin_catalog();
        set_scenario(state, nlohmann::json::parse(doc.text));
        REQUIRE(state.error.empty());
        // The document `gpuplan eval` prints for the same file, evaluated on its own.
        const Scenario parsed = parse_scenario(doc.text, doc.origin, test::builtin_catalog());
        const nlohmann::json document = evaluate_scenario(parsed, test::builtin_catalog());
        for (View v : kAllViews) {
            INFO(view_name(v));
            const auto drawn = draw_view(ui, state, v);
            check_drawn_figures_are_the_documents(drawn, document);
            checked += drawn.size();
        }
    }
    CHECK(checked > 50);
}

TEST_CASE("the Inference view draws every figure of the recommended pick", "[readback]") {
    test::Headless ui;
    AppState state = state_for("r1-serve");
    const nlohmann::json& picks = state.results.at("recommend").at("picks");
    REQUIRE(picks.size() >= 1);
    int k = 0;
    for (const char* pick : {"cheapest", "fastest", "balanced"}) {
        INFO(pick);
        if (!picks.contains(pick)) continue;
        state.views->inference_pick = k++;
        const std::set<std::string> names = drawn_names(draw_view(ui, state, View::inference));
        const nlohmann::json& figures = picks.at(pick).at("figures");
        REQUIRE(figures.size() >= 5);  // bytes per step, step time, tokens/s, instances, $/1M tokens
        for (const auto& [name, figure] : figures.items()) {
            INFO("the pick's figure " << name);
            CHECK(names.count(name) == 1);
        }
    }
}

TEST_CASE("the Inference view draws the serving figures of an infer section", "[readback]") {
    test::Headless ui;
    AppState state = state_for("i1-infer");
    const std::set<std::string> names = drawn_names(draw_view(ui, state, View::inference));
    // What `gpuplan infer` leads with (docs/cli.md): throughput, latency, cost, headroom.
    for (const char* name : {"tokens_per_second_per_instance", "tokens_per_second_per_gpu", "inter_token_latency_seconds",
                             "time_to_first_token_seconds", "usd_per_million_tokens_on_demand", "max_batch"}) {
        INFO(name);
        CHECK(names.count(name) == 1);
        CHECK(state.results.at("infer").at("figures").contains(name));
    }
}

TEST_CASE("every drawn figure carries what the page's text mirror shows: text, section, explanation", "[readback]") {
    // The page's text version of the canvas (web/shell/mirror.js) is written from these
    // records alone; each must hold the text drawn, the title of the section it is under, and
    // an explanation with the document's own formula and worked line.
    test::Headless ui;
    std::size_t explained = 0, with_section = 0, total = 0;
    for (const char* example : {"p1-blended", "r1-serve", "t1-train", "i1-infer"}) {
        AppState state = state_for(example);
        std::multimap<std::string, const nlohmann::json*> figures;
        collect_figures(state.results, figures);
        for (View v : kAllViews) {
            INFO(example << ", " << view_name(v));
            for (const DrawnFigure& d : draw_view(ui, state, v)) {
                INFO("drawn: " << d.label << " = " << d.text);
                ++total;
                CHECK_FALSE(d.text.empty());
                CHECK((d.value.has_value() ? d.text != "unknown" : d.text == "unknown"));
                if (!d.section.empty()) ++with_section;
                const std::string explanation = figure_explanation_text(d.figure);
                const std::string formula = d.figure.value("explain", nlohmann::json::object()).value("formula", "");
                if (formula.empty()) continue;
                ++explained;
                CHECK(explanation.find("formula: " + formula) != std::string::npos);
                // The same formula as the result document's figure of that name.
                bool in_document = false;
                const auto [lo, hi] = figures.equal_range(d.name);
                for (auto it = lo; it != hi; ++it) in_document |= it->second->value("explain", nlohmann::json::object()).value("formula", "") == formula;
                CHECK(in_document);
            }
        }
    }
    INFO(total << " figures, " << explained << " explained, " << with_section << " under a section title");
    CHECK(explained > total / 2);
    CHECK(with_section > total / 2);
}

// Issue 30: "Serve 70B at 2,000 tok/s: which instances, per month, per 1M tokens, reserved vs
// spot" answered in the app alone. The empty Recommend view's start button asks it; every kept
// option's row is read back from the drawn text with the purchase option in words and the fleet's
// $/h, $/month and $ per 1M tokens the core's candidate carries, and each pick draws its monthly
// cost as a figure.
TEST_CASE("the serving question is answered in the Recommend view: per month, per 1M tokens, reserved vs spot", "[readback]") {
    test::Headless ui;
    AppState state;
    state.catalog = &test::builtin_catalog();
    state.view = View::recommend;
    ui.frame(state);
    ui.frame(state);
    const std::string start = "Recommend a fleet to serve llama-3.1-70b";
    const auto button = std::find_if(marked_widgets().begin(), marked_widgets().end(), [&](const auto& w) { return w.label == start; });
    REQUIRE(button != marked_widgets().end());
    test::click(ui, state, button->x + button->w / 2, button->y + button->h / 2);
    ui.frame(state);
    REQUIRE(state.result);
    REQUIRE(state.result->recommend);
    const Recommendation& r = *state.result->recommend;
    const std::string drawn = test::drawn_text(ui, state);
    const std::string heading = "Every kept option (";
    REQUIRE(drawn.find(heading) != std::string::npos);
    const std::string table = drawn.substr(drawn.find(heading));
    std::set<std::string> options_drawn;
    for (const Candidate& c : r.candidates) {
        if (!c.kept) continue;
        const std::string words = purchase_option_words(c.purchase) + (c.price_assumed ? "*" : "");
        const std::string row = c.instance + " | " + words + " | " + c.layout + " | " + format_quantity(c.instances, "") + " | " +
                                format_quantity(c.usd_per_hour, "USD/h") + " | " + format_quantity(c.usd_per_month, "USD/month") + " | " +
                                format_quantity(c.usd_per_million_tokens, "USD");
        INFO(row);
        CHECK(table.find(row) != std::string::npos);
        options_drawn.insert(purchase_option_words(c.purchase));
    }
    for (const char* option : {"on-demand", "spot", "reserved 1-year, no upfront", "reserved 3-year, no upfront"}) {
        INFO(option);
        CHECK(options_drawn.count(option) == 1);
    }
    // The picks' monthly cost, drawn as the figure the core returned.
    std::size_t monthly = 0;
    for (const DrawnFigure& d : drawn_figures())
        if (d.name == "usd_per_month") {
            ++monthly;
            CHECK(d.text.find("/month") != std::string::npos);
        }
    CHECK(monthly == std::min<std::size_t>(r.picks.size(), 3));
}
