// frame_test.cpp — headless Dear ImGui frame tests of the whole UI (core/ui): every view, both
// themes, full and embed mode, every example scenario, and bad input. No window, no GL: an
// ImGui context with a display size and a built font atlas (headless.hpp). What they catch:
// ImGui's own asserts (unbalanced Push/Pop, Begin/End, ID stack, table misuse: these abort in
// this Debug build), crashes on unexpected JSON, and views that draw nothing.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/scenario/scenario.hpp"
#include "headless.hpp"
#include "ui/embedded_font.hpp"
#include "ui/plot.hpp"
#include "ui/views/view_common.hpp"
#include "ui/widgets.hpp"

using namespace gpuplan;
using namespace gpuplan::ui;

namespace {

using test::catalog;

AppState make_state(const nlohmann::json& scenario) {
    AppState s;
    s.catalog = &catalog();
    set_scenario(s, scenario);
    return s;
}

std::string read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// Two settling frames (tables measure columns on their first frame), then the mouse sweeps
// a grid so that tooltips (figure explanations, chart hovers) are drawn as well.
int render_with_hover(test::Headless& ui, AppState& state) {
    ui.frame(state);
    int vertices = ui.frame(state);
    for (float y = 60; y < 900; y += 110)
        for (float x = 40; x < 1440; x += 230) ui.frame(state, x, y);
    return vertices;
}

}  // namespace

TEST_CASE("view names round-trip and unknown names are refused", "[names]") {
    for (View v : kAllViews) {
        const auto back = view_from_name(view_name(v));
        REQUIRE(back.has_value());
        CHECK(*back == v);
        CHECK(std::string(view_title(v)).size() > 0);
    }
    CHECK_FALSE(view_from_name("").has_value());
    CHECK_FALSE(view_from_name("Costs").has_value());  // names are lower case, as in URLs
    CHECK_FALSE(view_from_name("nope").has_value());
}

TEST_CASE("every view renders for every example scenario, both themes, full and embed", "[frames]") {
    for (const CatalogDocument& doc : builtin_scenario_documents()) {
        AppState state = make_state(nlohmann::json::parse(doc.text));
        INFO(doc.origin);
        REQUIRE(state.error.empty());
        for (const bool dark : {false, true}) {
            test::Headless ui(dark);
            state.dark_theme = dark;
            for (const bool embed : {false, true}) {
                state.embed = embed;
                for (View v : kAllViews) {
                    INFO("view " << view_name(v) << (dark ? " dark" : " light") << (embed ? " embed" : " full"));
                    state.view = v;
                    CHECK(render_with_hover(ui, state) > 100);
                    CHECK(state.error.empty());
                }
            }
        }
        CHECK(state.timing.frames > 0);
        CHECK(state.timing.last_ms > 0);
    }
}

TEST_CASE("views draw their section's content, not the empty state", "[frames]") {
    // The same view with and without its scenario section: the section's tables and charts
    // must draw far more than the one-line "add a section" state.
    struct Case { View view; const char* with; const char* without; };
    const Case cases[] = {{View::costs, "p5-spot", "t1-train"}, {View::costs, "p4-idle", "t1-train"},        {View::training, "t1-train", "p1-blended"},
                          {View::decode, "d1-decode", "p1-blended"},          {View::recommend, "r1-serve", "p1-blended"},
                          {View::inference, "r1-serve", "p1-blended"},        {View::topology, "t1-train", "p1-blended"},
                          {View::inference, "i1-infer", "p1-blended"}};
    test::Headless ui;
    for (const Case& c : cases) {
        INFO(view_name(c.view));
        AppState with = make_state(test::builtin_scenario(c.with)), without = make_state(test::builtin_scenario(c.without));
        with.view = without.view = c.view;
        with.embed = without.embed = true;
        ui.frame(with);
        ui.frame(without);
        const int v_with = ui.frame(with), v_without = ui.frame(without);
        CHECK(v_with > 2 * v_without);
    }
}

TEST_CASE("bad scenarios keep the last good plan and name the JSON path", "[bad_input]") {
    AppState state = make_state(test::builtin_scenario("t1-train"));
    REQUIRE(state.error.empty());
    const nlohmann::json good_scenario = state.scenario, good_results = state.results;
    struct Bad { nlohmann::json doc; const char* expect_in_message; };
    const Bad cases[] = {
        {nlohmann::json::array(), "$"},
        {42, "$"},
        {{{"name", "no schema"}}, "schema"},
        {{{"schema", "gpuplan.scenario/9"}}, "schema"},
        {{{"schema", "gpuplan.scenario/1"}, {"price", {{"instance", "p9.nonexistent"}}}}, "price.instance"},
        {{{"schema", "gpuplan.scenario/1"}, {"price", {{"instance", "p5.48xlarge"}, {"hours", -5}}}}, "price.hours"},
        {{{"schema", "gpuplan.scenario/1"}, {"region", "mars-north-1"}}, "region"},
        {{{"schema", "gpuplan.scenario/1"}, {"train", {{"model", "llama-3-8b"}, {"instance", "p5.48xlarge"}, {"nodes", "four"}}}}, "train.nodes"},
        {{{"schema", "gpuplan.scenario/1"}, {"recommend", {{"model", "no-such-model"}}}}, "recommend.model"},
        {{{"schema", "gpuplan.scenario/1"}, {"unknown_section", 1}}, "unknown_section"},
        {{{"schema", "gpuplan.scenario/1"}, {"decode", {{"chunks", 0}}}}, "decode"},
    };
    test::Headless ui;
    for (const Bad& b : cases) {
        INFO(b.doc.dump());
        set_scenario(state, b.doc);
        CHECK_THAT(state.error, Catch::Contains(b.expect_in_message));
        CHECK(state.scenario == good_scenario);
        CHECK(state.results == good_results);
        for (View v : kAllViews) {
            state.view = v;
            CHECK(ui.frame(state) > 0);  // the error banner and the last good plan
        }
    }
}

TEST_CASE("views survive results of an unexpected shape", "[bad_input]") {
    // Results come from the core, but the views read them defensively: a wrong type where a
    // figure is expected shows "-"/"unknown", never a crash.
    AppState state = make_state(test::builtin_scenario("t1-train"));
    state.results = {{"price", 5},
                     {"fleet", {{"figures", nlohmann::json::array()}, {"tiers", {{{"gpus", "x"}}}}}},
                     {"idle", {{"figures", {{"always_on_usd_total", {{"value", "not a number"}}}}}}},
                     {"storage", {{"figures", {{"s3", nullptr}}}}},
                     {"train", {{"figures", {{"step_seconds", {{"value", nullptr}, {"unknown", "test"}}}}}, {"exposed_by_link", 3}}},
                     {"recommend", {{"frontier", {{{"instance", 1}}}}, {"picks", {{"cheapest", "x"}}}, {"dropped", {{"r", 1}}}}},
                     {"recommend_training", {{"frontier", "none"}}},
                     {"decode", {{"timeline", {{"sync", {{"host", {{{"start_ms", "a"}}}}}}}}, {"cost", {{"options", {1, 2}}}}}}};
    state.scenario["recommend"] = {{"model", "llama-3.1-70b"}};  // sections present, so views do not show their empty state
    state.scenario["decode"] = nlohmann::json::object();
    for (const bool dark : {false, true}) {
        test::Headless ui(dark);
        for (View v : kAllViews) {
            INFO(view_name(v));
            state.view = v;
            CHECK(render_with_hover(ui, state) > 0);
        }
    }
}

TEST_CASE("no catalog, an empty scenario and a bad bench file do not crash", "[bad_input]") {
    test::Headless ui;
    AppState none;  // catalog == nullptr
    set_scenario(none, {{"schema", "gpuplan.scenario/1"}});
    CHECK_FALSE(none.error.empty());
    for (View v : kAllViews) {
        none.view = v;
        CHECK(ui.frame(none) > 0);
    }
    AppState empty = make_state({{"schema", "gpuplan.scenario/1"}});
    CHECK(empty.error.empty());
    for (View v : kAllViews) {
        empty.view = v;
        CHECK(render_with_hover(ui, empty) > 0);
    }
    for (const char* text : {"", "{", "[]", "{\"schema\": \"gpuplan.bench/9\"}", "{\"schema\": \"gpuplan.bench/1\", \"records\": 5}"}) {
        INFO(text);
        set_bench_results(empty, text, "bad.json");
        CHECK_FALSE(empty.bench_error.empty());
        CHECK_FALSE(empty.bench.has_value());
    }
}

TEST_CASE("an imported bench file shows in Measurements and plans the decode pipeline", "[frames]") {
    const std::string text = read_file(GPUPLAN_UI_TEST_DATA "/bench-cpu-decode.json");
    REQUIRE_FALSE(text.empty());
    AppState state = make_state({{"schema", "gpuplan.scenario/1"}});
    set_bench_results(state, text, "bench-cpu-decode.json");
    REQUIRE(state.bench_error.empty());
    REQUIRE(state.bench.has_value());
    CHECK(state.bench->decode.size() == 4);
    test::Headless ui;
    state.view = View::measurements;
    CHECK(render_with_hover(ui, state) > 100);
    // "Plan with measured figures" writes the document into decode.fit.bench; the decode
    // view then shows the fitted simulation of that file's video.
    nlohmann::json scenario = state.scenario;
    scenario["decode"] = {{"instance", "g7e.2xlarge"}, {"fit", {{"bench", nlohmann::json::parse(text)}}}};
    set_scenario(state, scenario);
    REQUIRE(state.error.empty());
    REQUIRE(state.results.contains("decode"));
    state.view = View::decode;
    CHECK(render_with_hover(ui, state) > 100);
}

TEST_CASE("edits from views re-evaluate the scenario and flag it for the URL", "[edits]") {
    AppState state = make_state(test::builtin_scenario("p1-blended"));
    test::Headless ui;
    ui.frame(state);
    state.scenario_changed = false;
    choose_instance(state, "g6e.xlarge");  // the Catalog view's "plan with this instance"
    ui.frame(state);                       // draw_app re-evaluates after the frame's views
    CHECK(state.scenario_changed);
    CHECK(state.error.empty());
    REQUIRE(state.results.contains("price"));
    CHECK(state.results["price"]["instance"] == "g6e.xlarge");
    CHECK(chosen_instance(state) == "g6e.xlarge");
    // An edit that the core refuses is rolled back to the last good scenario, with the error.
    state.scenario["price"]["hours"] = -1;
    scenario_edited(state);
    ui.frame(state);
    CHECK_THAT(state.error, Catch::Contains("price.hours"));
    CHECK(state.scenario["price"]["hours"] != -1);
}

TEST_CASE("number editors write whole numbers as JSON integers", "[edits]") {
    // zero_stage is read as an integer: an editor writing 2.0 would make the scenario invalid.
    CHECK(number_json(2.0).is_number_integer());
    CHECK(number_json(2.0) == 2);
    CHECK(number_json(0.5).is_number_float());
    CHECK(number_json(1e300).is_number_float());
    nlohmann::json scenario = test::builtin_scenario("t1-train");
    scenario["train"]["zero_stage"] = number_json(2.0);
    scenario["train"]["nodes"] = number_json(2.0);
    AppState state = make_state(scenario);
    CHECK(state.error.empty());
}

TEST_CASE("the shell's view selection wins over the tab bar", "[edits]") {
    AppState state = make_state(test::builtin_scenario("t1-train"));
    test::Headless ui;
    state.view = View::training;
    for (int k = 0; k < 4; ++k) ui.frame(state);
    CHECK(state.view == View::training);
    state.view = View::recommend;  // e.g. the URL changed
    for (int k = 0; k < 4; ++k) ui.frame(state);
    CHECK(state.view == View::recommend);
}

TEST_CASE("fonts: the embedded UI font, a font file, a bad file and HiDPI", "[fonts]") {
    {
        test::Headless ui;
        CHECK(ui.font_ok());
        const ImFont* font = ImGui::GetIO().Fonts->Fonts[0];
        CHECK(font->FontSize == Approx(kBaseFontPx));
        CHECK(font->FindGlyphNoFallback(L'A') != nullptr);
        CHECK(font->FindGlyphNoFallback(0x2014) != nullptr);  // em dash
        CHECK(font->FindGlyphNoFallback(0x2264) != nullptr);  // <=
        CHECK(ui.atlas_width() > 0);
        // The embedded font is cut down to ui_glyph_ranges() at build time (cmake/EmbedFont.cmake):
        // every character of those ranges has its own glyph, none drawn as ImGui's fallback.
        // (U+007F-U+009F are control characters, which no font draws.)
        int missing = 0;
        for (const ImWchar* range = ui_glyph_ranges(); range[0] != 0; range += 2)
            for (unsigned c = range[0]; c <= range[1]; ++c)
                if (!(c >= 0x7F && c <= 0x9F) && font->FindGlyphNoFallback(static_cast<ImWchar>(c)) == nullptr) {
                    ++missing;
                    INFO("code point U+" << std::hex << c);
                    CHECK(font->FindGlyphNoFallback(static_cast<ImWchar>(c)) != nullptr);
                }
        CHECK(missing == 0);
    }
    {
        test::Headless ui(false, 2.0f);  // HiDPI by scale: twice the pixels, crisp
        CHECK(ImGui::GetIO().Fonts->Fonts[0]->FontSize == Approx(2 * kBaseFontPx));
    }
    {
        ImGui::CreateContext();
        CHECK(load_fonts(1.0f, "", 2.0f));  // logical coordinates, rasterised at 2x
        REQUIRE(ImGui::GetIO().Fonts->Build());
        CHECK(ImGui::GetIO().Fonts->Fonts[0]->FontSize == Approx(2 * kBaseFontPx));
        CHECK(ImGui::GetIO().FontGlobalScale == Approx(0.5f));
        ImGui::DestroyContext();
    }
    {
        test::Headless ui(false, 1.0f, GPUPLAN_UI_TEST_DATA "/bench-cpu-decode.json");  // not a font
        CHECK_FALSE(ui.font_ok());
        CHECK(ui.atlas_width() > 0);  // fell back to a usable font
    }
    const char* dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
    if (!read_file(dejavu).empty()) {
        test::Headless ui(false, 1.0f, dejavu);
        CHECK(ui.font_ok());
        CHECK(ImGui::GetIO().Fonts->Fonts[0]->FindGlyphNoFallback(0x2014) != nullptr);
    } else {
        WARN("DejaVu Sans not installed: the font-file case was not run");
    }
}

TEST_CASE("numbers are shown with their units", "[format]") {
    CHECK(format_quantity(78489.6, "USD") == "$78,490");
    CHECK(format_quantity(23.0, "USD") == "$23.00");
    CHECK(format_quantity(-1234.6, "USD") == "-$1,235");
    CHECK(format_quantity(1.12, "USD/GPU-h") == "$1.1200/GPU-h");
    CHECK(format_quantity(38.528, "USD/h") == "$38.5280/h");
    CHECK(format_quantity(713.648, "USD/month") == "$713.65/month");
    CHECK(format_quantity(0, "USD/month") == "$0.00/month");
    CHECK(format_quantity(132.6277, "USD/month") == "$132.63/month");
    CHECK(format_quantity(3.3892, "USD/1M tokens") == "$3.39/1M tokens");
    CHECK(format_quantity(0.52, "USD/1M tokens") == "$0.5200/1M tokens");
    CHECK(format_quantity(21.7364, "USD/h") == "$21.7364/h");
    CHECK(format_quantity(0.3, "fraction") == "30.0 %");
    CHECK(format_quantity(0.7, "fraction of hours") == "70.0 % of hours");
    CHECK(format_quantity(44236800, "bytes") == "44.2 MB");
    CHECK(format_quantity(382207.8, "s") == "106.2 h");
    CHECK(format_quantity(16.03095, "s") == "16.03 s");
    CHECK(format_quantity(261637.8, "tokens/s") == "261,638 tokens/s");
    CHECK(format_quantity(std::nan(""), "USD") == "unknown");
    CHECK(format_quantity(1, "instances") == "1 instance");  // one of a plural unit reads singular
    CHECK(format_quantity(2, "instances") == "2 instances");
    CHECK(format_quantity(1, "GPUs") == "1 GPU");
    CHECK(format_quantity(1, "ms") == "1 ms");
    CHECK(format_quantity(1, "tokens/s") == "1 tokens/s");  // a rate's unit is not one word
    CHECK(group_thousands(1234567.891, 2) == "1,234,567.89");
    CHECK(group_thousands(999, 0) == "999");
}

TEST_CASE("chart axes step by 1, 2 or 5 times a power of ten", "[format]") {
    CHECK(plot::nice_step(0, 100, 5) == Approx(20));
    CHECK(plot::nice_step(0, 1, 4) == Approx(0.2).epsilon(1e-9));  // 0.25 rounds to 0.2
    CHECK(plot::nice_step(0, 36, 6) == Approx(5));
    CHECK(plot::nice_step(0, 867870, 5) == Approx(200000));
    CHECK(plot::nice_step(5, 5, 5) == 1);  // empty range: a harmless default
}

TEST_CASE("catalog table: filters and sorting by price-normalised columns", "[catalog]") {
    const Catalog& c = catalog();
    CatalogTableState state;
    state.price_region = "us-east-1";

    // $/GPU-h ascending, computed here independently: on-demand price / accelerator count;
    // instances without either are unknown and come last (by name), in both directions. Types
    // not offered in the region (dl2q) are not rows at all.
    std::vector<std::pair<double, std::string>> known;
    std::vector<std::string> unknown;
    std::size_t offered = 0;
    for (const Instance& i : c.instances) {
        if (!i.offered_in("us-east-1")) continue;
        ++offered;
        const Price* p = i.find_price("us-east-1", PriceKind::on_demand);
        if (p && p->usd_per_hour && i.accelerator_count && *i.accelerator_count > 0)
            known.emplace_back(*p->usd_per_hour / *i.accelerator_count, i.name);
        else
            unknown.push_back(i.name);
    }
    REQUIRE(known.size() > 20);
    std::sort(unknown.begin(), unknown.end());
    auto expected = [&](bool descending) {
        auto k = known;
        std::sort(k.begin(), k.end(), [&](const auto& a, const auto& b) {
            if (a.first != b.first) return descending ? a.first > b.first : a.first < b.first;
            return a.second < b.second;
        });
        std::vector<std::string> names;
        for (const auto& [v, n] : k) names.push_back(n);
        names.insert(names.end(), unknown.begin(), unknown.end());
        return names;
    };
    CHECK(catalog_rows(c, state, CatalogColumn::usd_per_gpu_hour, false) == expected(false));
    CHECK(catalog_rows(c, state, CatalogColumn::usd_per_gpu_hour, true) == expected(true));

    // $/PFLOP-h: every instance whose accelerator has no dense BF16 figure sorts after all known.
    const auto by_pflop = catalog_rows(c, state, CatalogColumn::usd_per_pflop_hour, false);
    REQUIRE(by_pflop.size() == offered);
    REQUIRE(offered == c.instances.size() - 1);  // dl2q.24xlarge is not offered in us-east-1
    bool seen_unknown = false;
    for (const std::string& name : by_pflop) {
        const Instance* i = c.find_instance(name);
        const Accelerator* a = i->accelerator ? c.find_accelerator(*i->accelerator) : nullptr;
        const Price* p = i->find_price("us-east-1", PriceKind::on_demand);
        const bool has = a && a->dense_tflops.bf16 && p && p->usd_per_hour && i->accelerator_count;
        if (!has) seen_unknown = true;
        else CHECK_FALSE(seen_unknown);  // a known value after an unknown one would be a sort bug
    }

    // Filters: EFA only within one family, and a memory threshold.
    state.family = "p5";
    state.efa_only = true;
    std::vector<std::string> p5_efa;
    for (const Instance& i : c.instances)
        if (i.family == "p5" && i.efa_interfaces.value_or(0) > 0) p5_efa.push_back(i.name);
    std::sort(p5_efa.begin(), p5_efa.end());
    REQUIRE_FALSE(p5_efa.empty());
    CHECK(catalog_rows(c, state, CatalogColumn::instance, false) == p5_efa);
    state.family.clear();
    state.efa_only = false;
    state.min_memory_gib_each = 80;
    for (const std::string& name : catalog_rows(c, state, CatalogColumn::memory_gib_each, false))
        CHECK(c.find_instance(name)->accelerator_memory_gib_each.value_or(0) >= 80);
    // The table still draws with these filters and a comparison of four instances.
    state.compare = {"p5.48xlarge", "g6e.xlarge", "g6f.large", "trn1.2xlarge"};
    AppState app = make_state(test::builtin_scenario("p1-blended"));
    app.view = View::catalog;
    test::Headless ui;
    ui.frame(app);
    app.views->catalog.compare = state.compare;
    CHECK(render_with_hover(ui, app) > 100);
}

TEST_CASE("catalog compare: the best value of each fact is the one highlighted", "[catalog]") {
    const Catalog& c = catalog();
    CatalogTableState state;
    state.price_region = "us-east-1";
    const std::vector<std::string> names = {"p5.48xlarge", "g6e.12xlarge", "g6e.xlarge"};
    state.compare = names;
    // Expected, worked out here from the catalog's facts: the lowest on-demand price and
    // price per GPU, the most memory per accelerator and the most GPUs (ties all best).
    const auto on_demand = [&](const std::string& n) { return *c.find_instance(n)->find_price("us-east-1", PriceKind::on_demand)->usd_per_hour; };
    const auto pick = [&](auto value, bool lowest) {
        double best = value(names[0]);
        for (const auto& n : names) best = lowest ? std::min(best, value(n)) : std::max(best, value(n));
        std::vector<std::string> out;
        for (const auto& n : names)
            if (value(n) == best) out.push_back(n);
        return out;
    };
    const auto count = [&](const std::string& n) { return *c.find_instance(n)->accelerator_count; };
    const auto gib = [&](const std::string& n) { return *c.find_instance(n)->accelerator_memory_gib_each; };
    const auto per_gpu = [&](const std::string& n) { return on_demand(n) / count(n); };
    CHECK(compare_best(c, state, CatalogColumn::on_demand_usd_per_hour) == pick(on_demand, true));
    CHECK(compare_best(c, state, CatalogColumn::on_demand_usd_per_hour) == std::vector<std::string>{"g6e.xlarge"});
    CHECK(compare_best(c, state, CatalogColumn::usd_per_gpu_hour) == pick(per_gpu, true));
    CHECK(compare_best(c, state, CatalogColumn::count) == pick(count, false));
    CHECK(compare_best(c, state, CatalogColumn::memory_gib_each) == pick(gib, false));
    CHECK(compare_best(c, state, CatalogColumn::memory_gib_each) == std::vector<std::string>{"p5.48xlarge"});
    // No direction for a name or a link type; no best when every value is the same.
    CHECK(compare_best(c, state, CatalogColumn::accelerator).empty());
    CHECK(compare_best(c, state, CatalogColumn::interconnect).empty());
    state.compare = {"g6e.xlarge", "g6e.2xlarge"};  // both one L40S of the same memory
    REQUIRE(gib("g6e.xlarge") == gib("g6e.2xlarge"));
    CHECK(compare_best(c, state, CatalogColumn::memory_gib_each).empty());
    CHECK(compare_best(c, state, CatalogColumn::vcpus) == std::vector<std::string>{"g6e.2xlarge"});
    // One instance alone has nothing to be best against.
    state.compare = {"p5.48xlarge"};
    CHECK(compare_best(c, state, CatalogColumn::on_demand_usd_per_hour).empty());
}

TEST_CASE("catalog table: a link value opens the table as it was shared", "[catalog]") {
    // What a user sets: a family, EFA only, two to compare, $/GPU-h high to low, vCPUs hidden.
    AppState app = make_state(test::builtin_scenario("p1-blended"));
    app.view = View::catalog;
    set_catalog_view_link(app, "family=p5;efa=1;compare=p5.48xlarge,p5en.48xlarge;sort=usd-per-gpu-hour-desc;hide=vcpus");
    test::Headless ui;
    for (int k = 0; k < 3; ++k) ui.frame(app);
    const CatalogTableState& table = app.views->catalog;

    // The rows: the filter applied and the sort the link asked for, computed here again.
    CatalogTableState expected_state;
    expected_state.family = "p5";
    expected_state.efa_only = true;
    expected_state.price_region = table.price_region;
    std::vector<std::string> shown;
    for (std::size_t i : table.row_order) shown.push_back(catalog().instances[i].name);
    CHECK(shown == catalog_rows(catalog(), expected_state, CatalogColumn::usd_per_gpu_hour, true));
    REQUIRE(shown.size() >= 2);
    // The column is hidden on screen, the others shown.
    CHECK(std::find(table.shown_headers.begin(), table.shown_headers.end(), "vCPUs") == table.shown_headers.end());
    CHECK(std::find(table.shown_headers.begin(), table.shown_headers.end(), "RAM GiB") != table.shown_headers.end());
    // And the link read back from the drawn table is the one given (so Copy link carries it).
    CHECK(catalog_view_link(app) == "family=p5;efa=1;compare=p5.48xlarge,p5en.48xlarge;sort=usd-per-gpu-hour-desc;hide=vcpus");
    // A bad value is refused by name and the table stays as it was.
    CHECK_THROWS_AS(set_catalog_view_link(app, "sort=cheapest"), InputError);
    CHECK(catalog_view_link(app).find("family=p5") == 0);
}

TEST_CASE("in both themes the selected tab stands out more than a hovered one", "[frames]") {
    // The light theme's hovered tab was a stronger blue than its white selected tab, so the
    // tab under the mouse looked like the selected one (issue 30). Distances in RGB from the
    // idle tab's colour: the selected tab's must be clearly the larger.
    for (const bool dark : {false, true}) {
        test::Headless ui(dark);
        const ImVec4* c = ImGui::GetStyle().Colors;
        const auto from_idle = [&](ImGuiCol col) {
            const ImVec4 a = c[col], b = c[ImGuiCol_Tab];
            return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z));
        };
        INFO((dark ? "dark" : "light") << ": selected " << from_idle(ImGuiCol_TabActive) << ", hovered " << from_idle(ImGuiCol_TabHovered));
        CHECK(from_idle(ImGuiCol_TabActive) > 1.5 * from_idle(ImGuiCol_TabHovered));
    }
}

TEST_CASE("catalog table: range filters on any numeric column, prices per hour, month or year", "[catalog]") {
    const Catalog& c = catalog();
    CatalogTableState state;
    state.price_region = "us-east-1";
    const auto on_demand = [&](const Instance& i) -> std::optional<double> {
        const Price* p = i.find_price("us-east-1", PriceKind::on_demand);
        return p ? p->usd_per_hour : std::nullopt;
    };
    const auto sorted = [](std::vector<std::string> names) {
        std::sort(names.begin(), names.end());
        return names;
    };
    const auto rows = [&] { return sorted(catalog_rows(c, state, CatalogColumn::instance, false)); };

    // On-demand up to $5/h: the offered types whose price is known and at most 5 (unknown ones
    // cannot be shown to be in range).
    state.ranges.push_back({CatalogColumn::on_demand_usd_per_hour, "", "5", {}, {}, {}});
    read_range_bounds(state.ranges[0]);
    REQUIRE(state.ranges[0].error.empty());
    std::vector<std::string> cheap;
    for (const Instance& i : c.instances)
        if (i.offered_in("us-east-1") && on_demand(i) && *on_demand(i) <= 5) cheap.push_back(i.name);
    REQUIRE(cheap.size() > 5);
    CHECK(rows() == sorted(cheap));

    // Per month the same column is the hourly price x 730 h (AWS's pricing month), and the
    // range bounds it in that unit: up to $3,650 a month is again up to $5/h.
    state.price_unit = CatalogPriceUnit::month;
    const Instance& p5 = *c.find_instance("p5.48xlarge");
    CHECK(catalog_cell_number(p5, CatalogColumn::on_demand_usd_per_hour, state, nullptr).value() == Approx(*on_demand(p5) * 730));
    state.ranges[0].max_text = "3650";
    read_range_bounds(state.ranges[0]);
    CHECK(rows() == sorted(cheap));
    state.price_unit = CatalogPriceUnit::year;
    CHECK(catalog_cell_number(p5, CatalogColumn::on_demand_usd_per_hour, state, nullptr).value() == Approx(*on_demand(p5) * 8760));

    // A second range, on vCPUs from 96, narrows further; a bound that is not a number is kept
    // as typed, says why, and bounds nothing.
    state.price_unit = CatalogPriceUnit::hour;
    state.ranges[0].max_text = "5";
    read_range_bounds(state.ranges[0]);
    state.ranges.push_back({CatalogColumn::vcpus, "96", "", {}, {}, {}});
    read_range_bounds(state.ranges[1]);
    std::vector<std::string> cheap_and_wide;
    for (const std::string& name : cheap)
        if (c.find_instance(name)->vcpus.value_or(0) >= 96) cheap_and_wide.push_back(name);
    CHECK(rows() == sorted(cheap_and_wide));
    state.ranges[1].min_text = "ninety";
    read_range_bounds(state.ranges[1]);
    CHECK(state.ranges[1].error == "from \"ninety\" is not a number");
    CHECK(state.ranges[1].min_text == "ninety");
    CHECK(rows() == sorted(cheap));

    // The table draws with ranges and a monthly unit (the headers say $/month).
    AppState app = make_state(test::builtin_scenario("p1-blended"));
    app.view = View::catalog;
    test::Headless ui;
    ui.frame(app);
    app.views->catalog.ranges = state.ranges;
    app.views->catalog.price_unit = CatalogPriceUnit::month;
    app.views->catalog.rows_dirty = true;
    CHECK(render_with_hover(ui, app) > 100);
    const auto& headers = app.views->catalog.shown_headers;
    CHECK(std::find(headers.begin(), headers.end(), "on-demand $/month (us-east-1)") != headers.end());
}

TEST_CASE("catalog table: reserved and Capacity Block columns show the listed prices, n/a where a source says none", "[catalog]") {
    // Expected values read straight from the built-in purchase-options.json, not through the
    // catalog's look-ups.
    const Catalog& c = catalog();
    nlohmann::json listed;
    for (const CatalogDocument& d : builtin_catalog_documents())
        if (d.origin.find("purchase-options.json") != std::string::npos) listed = nlohmann::json::parse(d.text);
    REQUIRE(listed.contains("prices"));
    CatalogTableState state;
    state.price_region = "us-east-1";
    int reserved = 0, blocks = 0;
    for (const auto& p : listed["prices"]) {
        if (p.value("region", "") != "us-east-1" || !p.contains("usd_per_hour") || !p["usd_per_hour"].is_number()) continue;
        const Instance* instance = c.find_instance(p.value("instance", ""));
        if (!instance) continue;
        const std::string option = p.value("option", "");
        const bool is_reserved = option == "reserved-1y-no-upfront", is_block = option == "capacity-block";
        if (!is_reserved && !is_block) continue;
        const auto column = is_reserved ? CatalogColumn::reserved_1y_usd_per_hour : CatalogColumn::capacity_block_usd_per_hour;
        INFO(instance->name << " " << option);
        const double hourly = p["usd_per_hour"].get<double>() + (is_reserved ? p.value("upfront_usd", 0.0) / 8760 : 0.0);
        state.price_unit = CatalogPriceUnit::hour;
        CHECK(catalog_cell_number(*instance, column, state, nullptr).value_or(-1) == Approx(hourly));
        state.price_unit = CatalogPriceUnit::month;
        CHECK(catalog_cell_number(*instance, column, state, nullptr).value_or(-1) == Approx(hourly * 730));
        (is_reserved ? reserved : blocks) += 1;
    }
    CHECK(reserved > 20);
    CHECK(blocks > 3);

    // On screen: p3.2xlarge, which AWS's Capacity Blocks page does not list, reads "n/a".
    AppState app = make_state(test::builtin_scenario("p1-blended"));
    app.view = View::catalog;
    test::Headless ui;
    ui.frame(app);
    ui.frame(app);
    const auto cells = catalog_table_cells(*app.catalog, app.views->catalog);
    const auto header = std::find(cells[0].begin(), cells[0].end(), "Capacity Block $/h");
    REQUIRE(header != cells[0].end());
    const auto p3 = std::find_if(cells.begin(), cells.end(), [](const auto& row) { return !row.empty() && row[0] == "p3.2xlarge"; });
    REQUIRE(p3 != cells.end());
    CHECK((*p3)[static_cast<std::size_t>(header - cells[0].begin())] == "n/a");
}
