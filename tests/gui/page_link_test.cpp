// page_link_test.cpp — `gpuplan gui --link` opens the links the page writes. The fixture was
// written by Node's CompressionStream('deflate-raw'), the same stream web/shell/shell.js uses
// for its `z=` parameter (tests/gui/data/README.md says how), so the test reads what browsers
// really produce rather than what this program's own deflate would.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "gpuplan/input_error.hpp"
#include "gpuplan/scenario/scenario_url.hpp"
#include "page_link.hpp"
#include "ui/app_options.hpp"

using namespace gpuplan;

namespace {
std::string read_text(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}
}  // namespace

TEST_CASE("a link the page wrote opens with its view, theme and compressed scenario", "[link]") {
    std::string link = read_text(GPUPLAN_GUI_TEST_DATA "/page-link-p1-costs-dark.txt");
    while (!link.empty() && (link.back() == '\n' || link.back() == '\r')) link.pop_back();
    const ui::ParsedAppOptions parsed = ui::parse_app_arguments(gui::arguments_from_page_link(link));
    CHECK(parsed.errors.empty());
    CHECK(parsed.options.view == ui::View::costs);
    REQUIRE(parsed.options.dark_theme.has_value());
    CHECK(*parsed.options.dark_theme);
    const nlohmann::json expected = nlohmann::json::parse(read_text(GPUPLAN_SCENARIOS_DIR "/p1-blended-fleet.json"));
    REQUIRE(parsed.options.scenario.has_value());
    CHECK(*parsed.options.scenario == expected);
}

TEST_CASE("older links with ?scenario= and the page's own host_origin", "[link]") {
    const nlohmann::json scenario = {{"schema", "gpuplan.scenario/1"}, {"price", {{"instance", "g6e.xlarge"}}}};
    const std::string param = encode_scenario_param(scenario);
    const auto args = gui::arguments_from_page_link("http://h/?embed=1&host_origin=https%3A%2F%2Fdocs&scenario=" + param + "#view=inference");
    const ui::ParsedAppOptions parsed = ui::parse_app_arguments(args);
    CHECK(parsed.errors.empty());
    CHECK(parsed.options.embed);
    CHECK(parsed.options.view == ui::View::inference);
    REQUIRE(parsed.options.scenario.has_value());
    CHECK(*parsed.options.scenario == scenario);
    for (const std::string& a : args) CHECK(a.find("host_origin") == std::string::npos);
}

TEST_CASE("a broken link is refused naming --link and what is wrong", "[link]") {
    std::string link = read_text(GPUPLAN_GUI_TEST_DATA "/page-link-p1-costs-dark.txt");
    while (!link.empty() && (link.back() == '\n' || link.back() == '\r')) link.pop_back();
    // Cut inside the deflate stream: whole bytes missing at the end.
    const std::size_t z_at = link.find("z=") + 2;
    const std::string deflated = base64url_decode(std::string_view(link).substr(z_at));
    const std::string cut = link.substr(0, z_at) + base64url_encode(deflated.substr(0, deflated.size() - 20));
    CHECK_THROWS_WITH(gui::arguments_from_page_link(cut), Catch::Contains("--link z=") && Catch::Contains("cut short"));
    // Cut anywhere (a chat client's length limit): inside a base64url group, or a whole group.
    for (std::size_t drop = 1; drop <= 8; ++drop) {
        INFO("the last " << drop << " characters cut");
        CHECK_THROWS_WITH(gui::arguments_from_page_link(link.substr(0, link.size() - drop)), Catch::Contains("--link z=") && Catch::Contains("cut short"));
    }
    CHECK_THROWS_WITH(gui::arguments_from_page_link("http://127.0.0.1:8080/#z=bm90IGRlZmxhdGU"),
                      Catch::Contains("--link z=") && Catch::Contains("not deflate"));
    CHECK_THROWS_WITH(gui::arguments_from_page_link("http://127.0.0.1:8080/"), Catch::Contains("--link") && Catch::Contains("a link the page wrote"));
}
