// promises_test.cpp — the docs' embedded views do what the docs say they do. Each embed a
// docs page introduces with "Try ..." names the controls it promises in data-gpuplan-controls
// ("engineers; active hours a day"); this test opens every such embed as the docs do (its
// scenario file, its view, embed mode), draws it headless and checks that each promised
// control is drawn. A promise the app cannot keep, or a "Try" embed with no promise, fails.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "headless.hpp"
#include "ui/widgets.hpp"

using namespace gpuplan;
using namespace gpuplan::ui;
namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string attribute(const std::string& tag, const std::string& name) {
    const std::regex pattern(name + "=\"([^\"]*)\"");
    std::smatch m;
    return std::regex_search(tag, m, pattern) ? m[1].str() : "";
}

std::vector<std::string> split_controls(const std::string& list) {
    std::vector<std::string> out;
    std::stringstream ss(list);
    for (std::string item; std::getline(ss, item, ';');) {
        const auto a = item.find_first_not_of(' '), b = item.find_last_not_of(' ');
        if (a != std::string::npos) out.push_back(item.substr(a, b - a + 1));
    }
    return out;
}

// The scenario an embed names, as the docs site resolves it: relative to the page, else (the
// site maps /scenarios to the repository's scenario folders) by file name.
fs::path scenario_file(const fs::path& page, const std::string& src) {
    const fs::path relative = page.parent_path() / src;
    if (fs::exists(relative)) return relative;
    const fs::path docs = GPUPLAN_DOCS_DIR;
    for (const fs::path& dir : {docs / "scenarios", docs / "examples" / "scenarios"})
        if (fs::exists(dir / fs::path(src).filename())) return dir / fs::path(src).filename();
    return {};
}

struct Embed {
    fs::path page;
    std::string heading, view, scenario, controls;
};

// Every embed of every docs page, with the "## " heading it sits under.
std::vector<Embed> docs_embeds() {
    std::vector<Embed> embeds;
    for (const auto& entry : fs::recursive_directory_iterator(GPUPLAN_DOCS_DIR)) {
        if (entry.path().extension() != ".md") continue;
        std::stringstream lines(read_text(entry.path()));
        std::string heading;
        for (std::string line; std::getline(lines, line);) {
            if (line.rfind("## ", 0) == 0) heading = line.substr(3);
            const auto at = line.find("<div data-gpuplan-embed");
            if (at == std::string::npos) continue;
            const std::string tag = line.substr(at, line.find('>', at) - at);
            embeds.push_back({entry.path(), heading, attribute(tag, "data-gpuplan-view"), attribute(tag, "data-gpuplan-scenario"),
                              attribute(tag, "data-gpuplan-controls")});
        }
    }
    return embeds;
}

}  // namespace

TEST_CASE("every docs embed that invites the reader to try it has the controls it promises", "[promises]") {
    const std::vector<Embed> embeds = docs_embeds();
    int promised = 0, tried = 0;
    for (const Embed& e : embeds) {
        const std::string where = e.page.filename().string() + ", \"" + e.heading + "\"";
        INFO(where);
        const bool invites = e.heading.rfind("Try", 0) == 0;
        if (invites) {
            ++tried;
            CHECK_FALSE(e.controls.empty());  // a "Try ..." embed says what to try
        }
        if (e.controls.empty()) continue;
        const fs::path file = scenario_file(e.page, e.scenario);
        REQUIRE_FALSE(file.empty());
        const auto view = view_from_name(e.view);
        REQUIRE(view);

        AppState state;
        state.catalog = &test::builtin_catalog();
        set_scenario(state, nlohmann::json::parse(read_text(file)));
        REQUIRE(state.error.empty());
        state.embed = true;
        state.view = *view;
        test::Headless ui;
        ui.frame(state);
        ui.frame(state);
        std::string drawn;
        for (const WidgetRect& w : marked_widgets()) drawn += "\n  " + w.label;
        for (const std::string& control : split_controls(e.controls)) {
            ++promised;
            bool found = false;
            for (const WidgetRect& w : marked_widgets()) found = found || w.label == control;
            INFO("promised control \"" << control << "\"; the view drew:" << drawn);
            CHECK(found);
        }
    }
    INFO(embeds.size() << " embeds");
    CHECK(tried >= 6);      // the examples' "Try" sections were found
    CHECK(promised >= 20);  // and their promises read
}
