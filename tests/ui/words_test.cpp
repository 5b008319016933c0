// words_test.cpp — what a user reads and types, headless (core/ui through Dear ImGui, no
// window): no snake_case key is drawn on any view, and a typed number is kept when the field
// is left by Tab or a click elsewhere, or kept visible with its reason when refused.
#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>

#include "gpuplan/catalog/catalog.hpp"
#include "headless.hpp"
#include "gpuplan/scenario/scenario_result.hpp"
#include "ui/names.hpp"
#include "ui/views/view_common.hpp"
#include "ui/widgets.hpp"

using namespace gpuplan;
using namespace gpuplan::ui;

namespace {

using test::catalog;

using test::click;
using test::drawn_text;

// snake_case words (two or more lower-case parts joined by underscores), each with the text
// around it so a failure says where it is.
std::set<std::string> snake_case_words(const std::string& text) {
    static const std::regex word(R"(\b[a-z][a-z0-9]*(_[a-z0-9]+)+\b)");
    std::set<std::string> found;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), word); it != std::sregex_iterator(); ++it) {
        const auto at = static_cast<std::size_t>(it->position());
        const std::size_t from = at < 40 ? 0 : at - 40;
        std::string around = text.substr(from, it->length() + (at - from) + 40);
        for (char& c : around)
            if (c == '\n' || c == '\r') c = ' ';
        found.insert(it->str() + " in \"" + around + "\"");
    }
    return found;
}

// Where to click inside the field labelled `label`, after two settling frames.
ImVec2 field_point(test::Headless& ui, AppState& state, const std::string& label) {
    ui.frame(state);
    ui.frame(state);
    for (const auto& w : marked_widgets())
        if (w.label == label) return ImVec2(w.x + w.w / 4, w.y + w.h / 2);
    FAIL("no field labelled " << label);
    return {};
}

void type(test::Headless& ui, AppState& state, const std::string& text, float x, float y) {
    ImGuiIO& io = ImGui::GetIO();
    // Select what is there (the field selects all on focus) and type over it.
    for (char c : text) {
        io.AddInputCharacter(static_cast<unsigned>(c));
        ui.frame(state, x, y);
    }
}

void press_tab(test::Headless& ui, AppState& state, float x, float y) {
    ImGuiIO& io = ImGui::GetIO();
    io.KeyMap[ImGuiKey_Tab] = 9;
    io.KeysDown[9] = true;
    ui.frame(state, x, y);
    io.KeysDown[9] = false;
    ui.frame(state, x, y);
}

// A fresh app state showing `view`, with `scenario` loaded and accepted.
AppState view_state(View view, const nlohmann::json& scenario) {
    AppState state;
    state.catalog = &catalog();
    state.view = view;
    set_scenario(state, scenario);
    REQUIRE(state.error.empty());
    return state;
}

// A fresh app state with the example scenario `doc` loaded.
AppState example_state(const CatalogDocument& doc) { return view_state(View::costs, nlohmann::json::parse(doc.text)); }

AppState costs_state() {
    return view_state(View::costs, {{"schema", "gpuplan.scenario/1"}, {"name", "test"}, {"price", {{"instance", "p5.48xlarge"}, {"hours", 730}, {"instances", 1}}}});
}

}  // namespace

TEST_CASE("no view draws a snake_case key or an option key, for any example scenario", "[words]") {
    std::set<std::string> found;
    std::size_t characters = 0;
    for (const CatalogDocument& doc : builtin_scenario_documents()) {
        AppState state = example_state(doc);
        test::Headless ui;
        for (const bool embed : {false, true}) {
            state.embed = embed;
            for (View v : kAllViews) {
                state.view = v;
                const std::string text = drawn_text(ui, state);
                characters += text.size();
                for (const std::string& w : snake_case_words(text)) found.insert(std::string(view_name(v)) + ": " + w);
                // A commitment's key ("reserved-3y") is for files and links; people read "Reserved 3-year".
                static const std::regex option_key(R"(\b(reserved|instance-savings-plan|compute-savings-plan)-[13]y\b)");
                for (auto it = std::sregex_iterator(text.begin(), text.end(), option_key); it != std::sregex_iterator(); ++it)
                    found.insert(std::string(view_name(v)) + ": the option key " + it->str());
                // Issue 30: one label per figure. A cost per token is either a fleet's at the rate asked
                // or one instance's at full load, and two such figures once shared one label.
                static const std::regex bare_token_cost(R"((USD|\$) per (1M|million) tokens(?! at (your rate|full load)))");
                for (auto it = std::sregex_iterator(text.begin(), text.end(), bare_token_cost); it != std::sregex_iterator(); ++it)
                    found.insert(std::string(view_name(v)) + ": a cost per token that does not say at which load: \"" +
                                 text.substr(static_cast<std::size_t>(it->position()), 60) + "\"");
            }
        }
    }
    INFO("characters drawn: " << characters);
    CHECK(characters > 100000);  // the log saw the views' text, not an empty frame
    std::string list;
    for (const std::string& w : found) list += "\n  " + w;
    INFO("snake_case words on screen:" << list);
    CHECK(found.empty());
}

TEST_CASE("a link in old spellings opens, says so in words, and keeps today's spelling", "[words]") {
    AppState state;
    state.catalog = &catalog();
    set_scenario(state, {{"schema", "gpuplan.scenario/1"},
                         {"recommend", {{"model", "llama-3-8b"}, {"tokens_per_second", 500}, {"purchase", {"on_demand", "spot_typical"}}}},
                         {"infer", {{"model", "llama-3-8b"}, {"instance", "g6e.12xlarge"}, {"tensor", 2}}}});
    REQUIRE(state.error.empty());
    // The document the app keeps (and writes into its next link) has today's words.
    CHECK(state.scenario["recommend"]["purchase"] == nlohmann::json{"on-demand", "spot"});
    CHECK(state.scenario["infer"]["tensor_parallel"] == 2);
    CHECK_FALSE(state.scenario["infer"].contains("tensor"));
    CHECK(state.scenario_changed);  // so the shell rewrites its link now, not at the next edit
    state.scenario_changed = false;
    CHECK_FALSE(state.notice.empty());
    state.view = View::recommend;
    test::Headless ui;
    const std::string text = drawn_text(ui, state);
    CHECK(text.find("written with older spellings") != std::string::npos);
    CHECK(text.find("read as today's: tensor-parallel size; on-demand; spot (typical).") != std::string::npos);
    CHECK(snake_case_words(text).empty());
    // Today's spelling brings no notice.
    set_scenario(state, state.scenario);
    CHECK(state.notice.empty());
    CHECK_FALSE(state.scenario_changed);
}

TEST_CASE("the status line shows frame timing only when asked", "[words]") {
    AppState state = costs_state();
    test::Headless ui;
    CHECK(drawn_text(ui, state).find("frame ") == std::string::npos);
    state.show_frame_timing = true;
    CHECK(drawn_text(ui, state).find("frame ") != std::string::npos);
}

TEST_CASE("human names: the table, unit suffixes and errors", "[words]") {
    CHECK(human_name("usd_per_million_tokens") == "$ per 1M tokens at your rate");
    CHECK(human_name("spot") == "spot (typical)");
    CHECK(human_name("on-demand") == "on-demand");
    CHECK(human_name("checkpoints_usd") == "checkpoints ($)");
    CHECK(human_name("bytes_per_step") == "bytes per step");
    CHECK(human_error("layout.data: got 42.6667; expected a whole number >= 1") ==
          "data-parallel size: got 42.6667; expected a whole number >= 1");
    CHECK(human_error("scenario: $.fleet.hours: got -5; expected a number > 0") == "hours: got -5; expected a number > 0");
    CHECK(human_error("no path here") == "no path here");
}

// The empty Recommend view starts either question: its training button asks R2's question
// (without the deadline) and shows the training recommender's options (issue 30: only the
// serving button was there).
TEST_CASE("the empty Recommend view starts a training recommendation", "[inputs]") {
    test::Headless ui;
    AppState state;
    state.catalog = &catalog();
    state.view = View::recommend;
    set_scenario(state, {{"schema", "gpuplan.scenario/1"}});
    const ImVec2 at = field_point(ui, state, "Recommend a way to train llama-3-8b on 20B tokens");
    click(ui, state, at.x, at.y);
    ui.frame(state);
    REQUIRE(state.scenario.contains("recommend_training"));
    CHECK(state.scenario["recommend_training"]["model"] == "llama-3-8b");
    REQUIRE(state.result);
    REQUIRE(state.result->recommend_training);
    CHECK_FALSE(state.result->recommend_training->picks.empty());
}

TEST_CASE("a typed number is kept on Tab and on a click elsewhere", "[inputs]") {
    test::Headless ui;
    for (const bool by_tab : {true, false}) {
        INFO((by_tab ? "left with Tab" : "left by a click elsewhere"));
        AppState state = costs_state();
        const auto [x, y] = field_point(ui, state, "hours");
        click(ui, state, x, y);
        type(ui, state, "200", x, y);
        CHECK(state.scenario["price"]["hours"] == 730);  // not committed while typing
        if (by_tab) press_tab(ui, state, x, y);
        else click(ui, state, 5, 880);  // the status line: nothing to activate there
        ui.frame(state);
        CHECK(state.scenario["price"]["hours"] == 200);
        CHECK(state.scenario_changed);
        CHECK(state.results["price"]["hours"] == 200);
        CHECK(state.scenario["name"] == "test (edited)");
    }
}

TEST_CASE("a refused number stays in its field with the reason in words", "[inputs]") {
    test::Headless ui;
    AppState state = costs_state();
    const auto [x, y] = field_point(ui, state, "hours");
    click(ui, state, x, y);
    type(ui, state, "lots", x, y);
    click(ui, state, 5, 880);
    REQUIRE(state.views->inputs.size() == 1);
    const auto& typed = state.views->inputs.begin()->second;
    CHECK(typed.text == "lots");
    CHECK(typed.error.find("is not a number") != std::string::npos);
    CHECK(state.scenario["price"]["hours"] == 730);  // the scenario and its results are untouched
    CHECK(state.results["price"]["hours"] == 730);
    CHECK(drawn_text(ui, state).find("\"lots\" is not a number") != std::string::npos);

    // Out of range: not clamped, refused with the range.
    click(ui, state, x, y);
    type(ui, state, "0", x, y);
    click(ui, state, 5, 880);
    CHECK(state.views->inputs.begin()->second.error.find("out of range") != std::string::npos);
    CHECK(state.scenario["price"]["hours"] == 730);

    // A new scenario from outside (a link, the picker) shows its own values again.
    set_scenario(state, state.scenario);
    CHECK(state.views->inputs.empty());
}

TEST_CASE("a number the scenario refuses keeps its text and gets the reason in words", "[inputs]") {
    test::Headless ui;
    AppState state;
    state.catalog = &catalog();
    for (const CatalogDocument& doc : builtin_scenario_documents())
        if (doc.origin.find("t1-train") != std::string::npos) set_scenario(state, nlohmann::json::parse(doc.text));
    REQUIRE(state.error.empty());
    state.view = View::training;
    const nlohmann::json good_results = state.results;
    const auto [x, y] = field_point(ui, state, "tensor parallel");
    click(ui, state, x, y);
    type(ui, state, "3", x, y);
    press_tab(ui, state, x, y);
    ui.frame(state);
    REQUIRE(state.views->inputs.size() == 1);
    const auto& typed = state.views->inputs.begin()->second;
    CHECK(typed.text == "3");
    CHECK_FALSE(typed.error.empty());
    CHECK(typed.error.find("layout.") == std::string::npos);  // words, not a JSON path
    CHECK(state.error.empty());                              // the field owns it, not the banner
    CHECK(state.results == good_results);                    // the last good figures stay
}

TEST_CASE("right-clicking a figure copies its value and explanation", "[inputs]") {
    test::Headless ui;
    AppState state = costs_state();
    ui.frame(state);
    ui.frame(state);
    std::string copied;
    ImGui::GetIO().SetClipboardTextFn = [](void* user, const char* text) { *static_cast<std::string*>(user) = text; };
    ImGui::GetIO().ClipboardUserData = &copied;
    // Right-click across the purchase options table until a figure with a catalog input is copied
    // (the on-demand row's effective $/h: its price is a catalog fact). Positions are probed rather
    // than computed, so a column's width can change without this test knowing it.
    bool found = false;
    for (float y = 150; y < 600 && !found; y += 6) {
        for (float x = 300; x < 900 && !found; x += 40) {
            copied.clear();
            ImGui::GetIO().MouseDown[1] = true;
            ui.frame(state, x, y);
            ImGui::GetIO().MouseDown[1] = false;
            ui.frame(state, x, y);
            found = copied.find("[catalog]") != std::string::npos;
        }
    }
    INFO(copied);
    REQUIRE(found);
    CHECK(copied.find("$") == 0);                 // the value with its unit first
    CHECK(copied.find("\nformula: ") != std::string::npos);
    CHECK(copied.find("\nworked: ") != std::string::npos);
    CHECK(copied.find("[catalog]") != std::string::npos);  // an input with its origin
}

TEST_CASE("right-clicking a catalog cell copies its value as Export CSV writes it", "[inputs]") {
    test::Headless ui;
    AppState state = view_state(View::catalog, test::builtin_scenario("p1-blended"));
    ui.frame(state);
    ui.frame(state);
    std::string copied;
    ImGui::GetIO().SetClipboardTextFn = [](void* user, const char* text) { *static_cast<std::string*>(user) = text; };
    ImGui::GetIO().ClipboardUserData = &copied;
    // Every text Export CSV holds for the table as shown (names, numbers in full precision).
    std::set<std::string> csv;
    for (const auto& row : catalog_table_cells(*state.catalog, state.views->catalog))
        for (const std::string& cell : row) csv.insert(cell);
    // Right-click across the table; positions are probed, not computed from column widths.
    std::set<std::string> copies;
    int names = 0, numbers = 0;
    for (float y = 160; y < 520; y += 24)
        for (float x = 40; x < 1400; x += 70) {
            copied.clear();
            ImGui::GetIO().MouseDown[1] = true;
            ui.frame(state, x, y);
            ImGui::GetIO().MouseDown[1] = false;
            ui.frame(state, x, y);
            if (copied.empty() || copied.find('\n') != std::string::npos) continue;  // nothing, or a metric's explanation
            copies.insert(copied);
            if (state.catalog->find_instance(copied)) ++names;
            else if (copied.find_first_not_of("0123456789.e+-") == std::string::npos) ++numbers;
        }
    INFO("copied: " << nlohmann::json(copies).dump());
    CHECK(names > 3);
    CHECK(numbers > 10);
    for (const std::string& text : copies) CHECK(csv.count(text) == 1);
}

TEST_CASE("no view runs past the right edge of a 600x400 embed or a 390 px phone", "[layout]") {
    // draw_app measures how far the widest line ran past the window's right edge, where it is
    // clipped (AppState::overflow_px). Every view of every example, in embed mode at the docs'
    // smallest embed size and as the whole app on a 390x844 phone. (Wide tables and diagrams
    // scroll sideways inside their own frames there, which is not clipping.)
    std::set<std::string> clipped;
    for (const CatalogDocument& doc : builtin_scenario_documents()) {
        AppState state = example_state(doc);
        for (const auto& [width, height, embed] : {std::tuple{600.0f, 400.0f, true}, std::tuple{390.0f, 844.0f, false}}) {
            test::Headless ui;
            ImGui::GetIO().DisplaySize = ImVec2(width, height);
            state.embed = embed;
            for (View v : kAllViews) {
                state.view = v;
                ui.frame(state);
                ui.frame(state);
                if (state.overflow_px > 0.5f)
                    clipped.insert(std::string(view_name(v)) + " at " + std::to_string(static_cast<int>(width)) + " px, " + doc.origin + ": " +
                                   std::to_string(state.overflow_px) + " px");
            }
        }
    }
    std::string list;
    for (const std::string& c : clipped) list += "\n  " + c;
    INFO("views clipped on the right:" << list);
    CHECK(clipped.empty());
}

TEST_CASE("a row of fields reflows instead of running off a narrow window", "[layout]") {
    // The idle inputs are eight fields in three rows at 1440 px; at 390 px they must stack.
    AppState state = view_state(View::costs, {{"schema", "gpuplan.scenario/1"}, {"idle", {{"instance", "g6.2xlarge"}, {"engineers", 3}}}});
    state.embed = true;
    const auto right_edges = [&](float width) {
        test::Headless ui;
        ImGui::GetIO().DisplaySize = ImVec2(width, 800);
        ui.frame(state);
        ui.frame(state);
        float widest = 0;
        int fields = 0;
        for (const auto& w : marked_widgets()) {
            widest = std::max(widest, w.x + w.w);
            ++fields;
        }
        return std::pair{widest, fields};
    };
    const auto [wide_right, wide_fields] = right_edges(1440);
    const auto [narrow_right, narrow_fields] = right_edges(390);
    CHECK(wide_fields >= 8);
    CHECK(narrow_fields == wide_fields);
    CHECK(wide_right > 390);    // side by side at 1440 px
    CHECK(narrow_right <= 390);  // every field inside the phone's width
    CHECK(state.overflow_px == 0);
}

TEST_CASE("memory sizes are in GiB on every view; GB only for data moved and storage", "[words]") {
    // One unit for memory (GiB, as EC2 and the catalog state it). GB stays where the quantity
    // is divided by GB/s (bytes read per decode step) or priced per GB (EBS storage).
    // Line by line: one pattern over the whole text with "[^\n]*" on both sides of GB made
    // std::regex rescan each line from every position (82 s of the suite at -O0).
    static const std::regex gb(R"(\bGB\b(?!/))");
    static const std::regex allowed(R"(bytes|storage|GB-month|GB per engineer)", std::regex::icase);
    std::set<std::string> wrong;
    std::size_t memory_lines = 0;
    for (const CatalogDocument& doc : builtin_scenario_documents()) {
        AppState state = example_state(doc);
        test::Headless ui;
        for (View v : kAllViews) {
            state.view = v;
            const std::string text = drawn_text(ui, state);
            std::istringstream lines(text);
            for (std::string line; std::getline(lines, line);)
                if (line.find("GB") != std::string::npos && std::regex_search(line, gb) && !std::regex_search(line, allowed))
                    wrong.insert(std::string(view_name(v)) + ": " + line.substr(0, 160));
            static const std::regex verdict(R"(\d GiB of [\d.,]+ GiB per GPU)");
            memory_lines += static_cast<std::size_t>(std::distance(std::sregex_iterator(text.begin(), text.end(), verdict), std::sregex_iterator()));
        }
    }
    CHECK(memory_lines >= 3);  // the training and inference memory verdicts were drawn, in GiB
    std::string list;
    for (const std::string& w : wrong) list += "\n  " + w;
    INFO("GB where GiB was expected:" << list);
    CHECK(wrong.empty());
}

TEST_CASE("Escape closes an open combo", "[inputs]") {
    AppState state = costs_state();
    state.view = View::training;
    set_scenario(state, {{"schema", "gpuplan.scenario/1"}, {"train", {{"model", "llama-3-8b"}, {"instance", "p5.48xlarge"}}}});
    REQUIRE(state.error.empty());
    test::Headless ui;
    const ImVec2 at = field_point(ui, state, "model");
    click(ui, state, at.x, at.y);
    ui.frame(state, at.x, at.y);
    REQUIRE(ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId));  // the click opened the model list
    ImGuiIO& io = ImGui::GetIO();
    io.KeyMap[ImGuiKey_Escape] = 27;
    io.KeysDown[27] = true;
    ui.frame(state, at.x, at.y);
    io.KeysDown[27] = false;
    ui.frame(state, at.x, at.y);
    CHECK_FALSE(ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId));
    CHECK(state.scenario["train"]["model"] == "llama-3-8b");  // closing chose nothing
}

TEST_CASE("a pasted config.json becomes the scenario's own model, and the Inference view plans with it", "[inputs]") {
    test::Headless ui;
    AppState state;
    state.catalog = &catalog();
    state.view = View::inference;
    set_scenario(state, {{"schema", "gpuplan.scenario/1"},
                         {"infer", {{"model", "llama-3-8b"}, {"instance", "g6e.xlarge"}, {"batch", 1}, {"context", 4096}}}});
    const ImVec2 header = field_point(ui, state, "Your own model: paste its config.json (Hugging Face)");
    click(ui, state, header.x, header.y);
    ui.frame(state);
    // What a user pastes: a Qwen3 config as the Hub publishes it (tests/data/hf-configs).
    state.views->model_config_paste = R"({"architectures": ["Qwen3ForCausalLM"], "_name_or_path": "Qwen/Qwen3-8B", "model_type": "qwen3",
        "hidden_size": 4096, "num_hidden_layers": 36, "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128,
        "intermediate_size": 12288, "vocab_size": 151936, "tie_word_embeddings": false, "attention_bias": false, "rope_theta": 1000000})";
    const ImVec2 use = field_point(ui, state, "Use this model");
    click(ui, state, use.x, use.y);
    ui.frame(state);
    CHECK(state.scenario["infer"]["model"] == "qwen3-8b");
    REQUIRE(state.scenario["models"].size() == 1);
    CHECK(state.views->model_config_message.find("Using qwen3-8b: 8.19 billion parameters") != std::string::npos);
    REQUIRE(state.result);
    REQUIRE(state.result->infer);
    CHECK(state.result->infer->fit.parameters.value == Approx(8'190'735'360.0));
    // A config the planner cannot read says so, and the scenario keeps its model.
    state.views->model_config_paste = R"({"model_type": "mamba", "hidden_size": 768})";
    click(ui, state, use.x, use.y);
    ui.frame(state);
    CHECK(state.views->model_config_failed);
    CHECK(state.views->model_config_message.find("model_type") != std::string::npos);
    CHECK(state.scenario["infer"]["model"] == "qwen3-8b");
}

TEST_CASE("the Recommend view serves a request rate to a p95 time to first token; a length the core refuses stays in its field", "[inputs]") {
    test::Headless ui;
    AppState state = view_state(View::recommend, {{"schema", "gpuplan.scenario/1"},
                         {"recommend", {{"model", "llama-3.1-8b"}, {"tokens_per_second", 1000}, {"families", nlohmann::json::array({"g6e"})}}}});
    const ImVec2 radio = field_point(ui, state, "requests per second, to a latency target");
    click(ui, state, radio.x, radio.y);
    ui.frame(state);
    const nlohmann::json& asked = state.scenario["recommend"];
    CHECK(asked["requests_per_second"] == 10);
    CHECK(asked["target_p95_ttft_ms"] == 1000);
    CHECK_FALSE(asked.contains("tokens_per_second"));
    REQUIRE(state.error.empty());
    REQUIRE(state.result);
    REQUIRE(state.result->recommend);
    const Recommendation& r = *state.result->recommend;
    REQUIRE(r.traffic);
    REQUIRE_FALSE(r.frontier.empty());
    const Candidate& cheapest = r.candidates[r.frontier.front()];
    REQUIRE(cheapest.achieved_seconds.size() == 1);
    CHECK(cheapest.achieved_seconds[0] <= 1.0);
    // The ranked table shows the simulated figure the core returned, under the target's name.
    const std::string text = drawn_text(ui, state);
    CHECK(text.find("p95 time to first token (ms)") != std::string::npos);
    CHECK(text.find(format_quantity(cheapest.achieved_seconds[0] * 1e3, "ms")) != std::string::npos);
    CHECK(text.find("Latency targets: p95 time to first token") != std::string::npos);
    // Each pick says what quota its fleet needs, with the core's figures.
    REQUIRE_FALSE(r.pick_details.empty());
    const QuotaLine& quota = r.pick_details.front().quota;
    REQUIRE(quota.vcpus_needed.value);
    CHECK(text.find("Quota: " + format_number(*quota.vcpus_needed.value) + " vCPUs of \"" + quota.quota_name + "\"") != std::string::npos);
    CHECK(text.find("request an increase of " + format_number(quota.increase_vcpus) + " vCPUs before launching") != std::string::npos);

    // A prompt length the core cannot read: the text stays, with the core's reason; the
    // scenario and its figures are the last good ones.
    const nlohmann::json good = state.scenario;
    const ImVec2 prompt = field_point(ui, state, "prompt tokens");
    click(ui, state, prompt.x, prompt.y);
    type(ui, state, "uniform:900:100", prompt.x, prompt.y);
    press_tab(ui, state, prompt.x, prompt.y);
    ui.frame(state);
    REQUIRE(state.views->inputs.size() == 1);
    const auto& typed = state.views->inputs.begin()->second;
    CHECK(typed.text == "uniform:900:100");
    CHECK_FALSE(typed.error.empty());
    CHECK(state.error.empty());
    CHECK(state.scenario == good);

    // Back to tokens per second: the traffic keys go, the throughput comes back.
    const ImVec2 tokens = field_point(ui, state, "tokens per second");
    click(ui, state, tokens.x, tokens.y);
    ui.frame(state);
    CHECK_FALSE(state.scenario["recommend"].contains("requests_per_second"));
    REQUIRE(state.result->recommend);
    CHECK_FALSE(state.result->recommend->traffic);
}

TEST_CASE("the Costs view says which quota the instances need, on demand and spot", "[words]") {
    test::Headless ui;
    AppState state = costs_state();
    REQUIRE(state.result->price);
    const std::string text = drawn_text(ui, state);
    // p5.48xlarge: 192 vCPUs of the P classes, whose default for a new account is 0.
    for (const QuotaLine* q : {&state.result->price->quota_on_demand, &state.result->price->quota_spot}) {
        REQUIRE(q->vcpus_needed.value);
        CHECK(*q->vcpus_needed.value == 192);
        CHECK(text.find("Quota: 192 vCPUs of \"" + q->quota_name + "\"") != std::string::npos);
    }
    CHECK(state.result->price->quota_on_demand.quota_name != state.result->price->quota_spot.quota_name);
    CHECK(text.find("request an increase of 192 vCPUs before launching") != std::string::npos);
}

// Issue 30: "p5 vs p4d vs g6e for training" needs every kept option on screen, not only the
// frontier (which showed 4 of 56). Each family's rows are read back from the drawn text with the
// hours and cost the core's candidates carry, and the frontier's rows are the ones marked.
TEST_CASE("the training comparison shows p5, p4d and g6e side by side with the core's hours and cost", "[readback]") {
    test::Headless ui;
    AppState state = view_state(View::recommend, {{"schema", "gpuplan.scenario/1"},
                         {"recommend_training", {{"model", "llama-3-8b"}, {"tokens", 2e10}, {"max_nodes", 4}, {"purchase", {"on-demand"}},
                                                 {"families", {"p5", "p4d", "g6e"}}}}});
    REQUIRE(state.result->recommend_training);
    const TrainingRecommendation& r = *state.result->recommend_training;
    const std::string drawn = drawn_text(ui, state);
    const std::string heading = "Every kept option (";
    REQUIRE(drawn.find(heading) != std::string::npos);
    const std::string text = drawn.substr(drawn.find(heading));  // the kept table, not the frontier's
    std::set<std::string> families_drawn;
    std::size_t kept = 0, frontier_rows = 0;
    for (std::size_t i = 0; i < r.candidates.size(); ++i) {
        const TrainingCandidate& c = r.candidates[i];
        if (!c.kept) continue;
        ++kept;
        // One table row as ImGui's log writes it: the cells in order, separated by " | ".
        const std::string row = c.instance + " | " + human_name(std::string(to_string(c.purchase))) + " | " + c.layout + " | " +
                                format_quantity(c.hours, "h") + " | " + format_quantity(c.cost_usd, "USD");
        INFO(row);
        CHECK(text.find(row) != std::string::npos);
        families_drawn.insert(c.instance.substr(0, c.instance.find('.')));
        const bool on_frontier = std::find(r.frontier.begin(), r.frontier.end(), i) != r.frontier.end();
        const std::size_t at = text.find(row);
        if (at != std::string::npos && on_frontier) frontier_rows += text.find(" | yes", at) < text.find('\n', at) ? 1 : 0;
    }
    CHECK(families_drawn == std::set<std::string>{"p5", "p4d", "g6e"});
    CHECK(kept > r.frontier.size());  // more rows than the frontier's, or the question is not answered
    CHECK(frontier_rows == r.frontier.size());
    CHECK(text.find(heading + format_quantity(static_cast<double>(kept), "") + "), cheapest first") == 0);
}

// Issue 30: the purchase options table mixed one instance's prices with the whole request's cost
// under bare headings; each heading now says its scope, from the scenario's count and hours.
TEST_CASE("the Costs table's headings say per instance or for the whole request", "[words]") {
    test::Headless ui;
    AppState state = costs_state();
    nlohmann::json scenario = state.scenario;
    scenario["price"]["instances"] = 4;
    scenario["price"]["hours"] = 100;
    set_scenario(state, scenario);
    REQUIRE(state.result->price);
    REQUIRE(state.result->price->instances == 4);
    const std::string text = drawn_text(ui, state);
    for (const char* heading : {"effective $/h, per instance", "$/month, per instance", "upfront, per instance", "recurring $/h, per instance",
                                "cost: 4 instances, 100 h (whole terms)", "unit cost: 4 instances, 100 h"})
        CHECK(text.find(heading) != std::string::npos);
    // $/month beside $/h: one instance for AWS's 730-hour month, at the option's effective rate.
    for (const Quote& q : state.result->price->quotes)
        if (q.available) CHECK(*q.effective_usd_per_month.value == Approx(*q.effective_usd_per_hour.value * 730));
}

// Issue 30: the region list reads as places ("eu-west-2 · Europe (London)"), not codes alone.
TEST_CASE("the region list names each region's place", "[words]") {
    test::Headless ui;
    AppState state = costs_state();
    const ImVec2 at = field_point(ui, state, "Region");
    click(ui, state, at.x, at.y);
    const std::string text = drawn_text(ui, state);
    CHECK(text.find("us-east-1 \u00b7 US East (N. Virginia)") != std::string::npos);
    CHECK(text.find("eu-west-2 \u00b7 Europe (London)") != std::string::npos);
}

// Issue 30: a training layout that does not fit shows no time or cost, and offers the nearest
// layouts that fit (the core's, fit.hpp); using one writes it into the scenario, which then fits.
TEST_CASE("a training layout that does not fit offers the nearest that fits, and one click uses it", "[inputs]") {
    test::Headless ui;
    AppState state = view_state(View::training, {{"schema", "gpuplan.scenario/1"},
                         {"train", {{"model", "llama-3.1-8b"}, {"instance", "p4d.24xlarge"}, {"nodes", 1}, {"zero_stage", 0},
                                    {"micro_batch", 8}, {"sequence", 8192}, {"recompute", "none"}}}});
    REQUIRE(state.result->train);
    const TrainingFit& fit = state.result->train->fit;
    REQUIRE_FALSE(fit.fits);
    REQUIRE_FALSE(fit.alternatives.empty());
    CHECK_FALSE(state.result->train->time.total_hours.value);  // not timed as if it ran
    const std::string text = drawn_text(ui, state);
    for (const FitAlternative& a : fit.alternatives) {
        INFO(a.change);
        CHECK_FALSE(a.words.empty());
        CHECK(text.find(a.words) != std::string::npos);
    }
    const FitAlternative chosen = fit.alternatives.front();
    const ImVec2 at = field_point(ui, state, "Use " + chosen.words);
    click(ui, state, at.x, at.y);
    ui.frame(state);
    for (const auto& [key, value] : chosen.train_keys.items()) CHECK(state.scenario["train"][key] == value);
    REQUIRE(state.result->train);
    CHECK(state.result->train->fit.fits);
    CHECK(state.result->train->time.total_hours.value);
}

// Issue 30, one flow from question to plan: a recommended pick carries into Costs with its
// instance and count, where every purchase option prices the fleet, and the unit cost of the
// pick's own option is the pick's cost per token at your rate.
TEST_CASE("a recommended pick carries into Costs with its instance, count and rate", "[inputs]") {
    test::Headless ui;
    AppState state = view_state(View::inference, test::builtin_scenario("r1-serve"));
    REQUIRE(state.result->recommend);
    const Recommendation& r = *state.result->recommend;
    REQUIRE_FALSE(r.picks.empty());
    const Candidate pick = r.candidates[r.picks[0]];
    const double pick_cost = r.pick_details[0].figures->usd_per_million_tokens.value.value();
    const ImVec2 at = field_point(ui, state, "Price this fleet in Costs");
    click(ui, state, at.x, at.y);
    ui.frame(state);
    CHECK(state.view == View::costs);
    CHECK(state.scenario["price"]["instance"] == pick.instance);
    CHECK(state.scenario["price"]["instances"] == pick.instances);
    REQUIRE(state.result->price);
    CHECK(state.result->price->instances == pick.instances);
    std::set<std::string> keys;
    const Quote* same_option = nullptr;
    for (const Quote& q : state.result->price->quotes) {
        keys.insert(q.key);
        if (q.key == key(pick.purchase)) same_option = &q;
    }
    CHECK(keys.count("reserved-1y-no-upfront"));  // every way to buy the fleet, not only the pick's
    REQUIRE(same_option);
    REQUIRE_FALSE(same_option->unit_costs.empty());
    CHECK(same_option->unit_costs[0].value.value() == Approx(pick_cost).epsilon(1e-9));
}

// Issue 30: switching region was refused while the priced instance is not sold there, so a user
// could not even browse that region's prices. The price section is kept and says so; the
// scenario's other sections are evaluated in the new region.
TEST_CASE("a region that does not sell the priced instance keeps the section and says so", "[inputs]") {
    test::Headless ui;
    AppState state = costs_state();
    nlohmann::json scenario = state.scenario;
    scenario["region"] = "af-south-1";
    scenario["infer"] = {{"model", "llama-3.1-8b"}, {"instance", "p5.48xlarge"}};
    set_scenario(state, scenario);
    CHECK(state.error.empty());
    REQUIRE(state.result);
    CHECK(state.result->region == "af-south-1");
    REQUIRE(state.result->price);
    CHECK(state.result->price->quotes.empty());
    CHECK(state.result->price->not_offered.find("not offered in af-south-1") == 0);
    REQUIRE(state.result->infer);  // the other sections are evaluated there
    CHECK_FALSE(state.result->infer->usd_per_million_tokens_on_demand.value);
    const std::string text = drawn_text(ui, state);
    CHECK(text.find("Not priced here: not offered in af-south-1") != std::string::npos);
    CHECK(text.find("Choose a region that sells it, or another instance.") != std::string::npos);
}

// Issue 30: an instance picker of 90 rows had no type-ahead. Typing filters the open list, and
// Enter picks the first match.
TEST_CASE("typing in an open instance picker filters it, and Enter picks the first match", "[inputs]") {
    test::Headless ui;
    AppState state = view_state(View::training, test::builtin_scenario("t1-train"));
    const ImVec2 at = field_point(ui, state, "instance");
    click(ui, state, at.x, at.y);
    ui.frame(state);
    type(ui, state, "p4d", -1, -1);
    const std::string text = drawn_text(ui, state);
    CHECK(text.find("p4d.24xlarge") != std::string::npos);
    CHECK(text.find("p4de.24xlarge") != std::string::npos);
    CHECK(text.find("g6e.xlarge") == std::string::npos);  // filtered out of the open list
    ImGuiIO& io = ImGui::GetIO();
    io.KeyMap[ImGuiKey_Enter] = 13;
    io.KeysDown[13] = true;
    ui.frame(state);
    io.KeysDown[13] = false;
    ui.frame(state);
    ui.frame(state);
    CHECK(state.scenario["train"]["instance"] == "p4d.24xlarge");
}

namespace {

// One key pressed for a frame and released (Dear ImGui 1.86's KeyMap: the shell's key codes).
void press_key(test::Headless& ui, AppState& state, ImGuiKey key) {
    ImGuiIO& io = ImGui::GetIO();
    const int code = 300 + key;
    io.KeyMap[key] = code;
    io.KeysDown[code] = true;
    ui.frame(state);
    io.KeysDown[code] = false;
    ui.frame(state);
}

}  // namespace

// Issue 30: nothing could be reached without a mouse. The arrow keys move a focus frame from
// widget to widget, Space presses the framed one: here a tab, then a field in the view below.
TEST_CASE("the keyboard alone moves between tabs and into the view", "[inputs]") {
    test::Headless ui;
    AppState state = view_state(View::costs, test::builtin_scenario("t1-train"));
    ui.frame(state);
    ui.frame(state);
    press_key(ui, state, ImGuiKey_DownArrow);  // the first press puts the frame on a widget
    std::vector<std::string> visited{keyboard_framed_widget()};
    REQUIRE_FALSE(visited.back().empty());
    for (int k = 0; k < 20 && keyboard_framed_widget() != "Tab: Training"; ++k) {
        press_key(ui, state, keyboard_framed_widget().rfind("Tab: ", 0) == 0 ? ImGuiKey_RightArrow : ImGuiKey_UpArrow);
        visited.push_back(keyboard_framed_widget());
    }
    INFO("the frame went through: " << nlohmann::json(visited).dump());
    REQUIRE(keyboard_framed_widget() == "Tab: Training");
    press_key(ui, state, ImGuiKey_Space);
    ui.frame(state);
    CHECK(state.view == View::training);
    // Down from the tabs reaches the view's own widgets (the view is not a box to enter first).
    std::set<std::string> below;
    for (int k = 0; k < 6; ++k) {
        press_key(ui, state, ImGuiKey_DownArrow);
        below.insert(keyboard_framed_widget());
    }
    INFO("below the tabs: " << nlohmann::json(below).dump());
    CHECK(below.count("model"));
}
