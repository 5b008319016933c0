// app_options_test.cpp — the start-up option parser shared by the page URL and `gpuplan gui`
// (core/ui/app_options.hpp): what a link turns into, and how a broken link degrades.
#include <catch2/catch.hpp>

#include "gpuplan/input_error.hpp"
#include "gpuplan/scenario/scenario_url.hpp"
#include "ui/app_options.hpp"

using gpuplan::ui::parse_app_arguments;
using gpuplan::ui::View;

namespace {
const nlohmann::json kScenario = {{"schema", "gpuplan.scenario/1"}, {"fleet", {{"hours", 730}}}};
}

TEST_CASE("URL-form and CLI-form arguments mean the same") {
    const std::string encoded = gpuplan::encode_scenario_param(kScenario);
    const auto url = parse_app_arguments({"--view=costs", "--scenario=" + encoded, "--embed=1", "--theme=dark"});
    const auto cli = parse_app_arguments({"--view", "costs", "--scenario", encoded, "--embed", "--theme", "dark"});
    for (const auto* parsed : {&url, &cli}) {
        CHECK(parsed->errors.empty());
        CHECK(parsed->options.view == View::costs);
        REQUIRE(parsed->options.scenario.has_value());
        CHECK(*parsed->options.scenario == kScenario);
        CHECK(parsed->options.embed);
        CHECK(parsed->options.dark_theme == std::optional<bool>(true));
    }
}

TEST_CASE("no arguments give the defaults") {
    const auto parsed = parse_app_arguments({});
    CHECK(parsed.errors.empty());
    CHECK(parsed.options.view == View::catalog);
    CHECK_FALSE(parsed.options.scenario.has_value());
    CHECK_FALSE(parsed.options.embed);
    CHECK_FALSE(parsed.options.dark_theme.has_value());
}

TEST_CASE("embed=0 is off; every view name of interface 3 is accepted") {
    CHECK_FALSE(parse_app_arguments({"--embed=0"}).options.embed);
    for (View v : gpuplan::ui::kAllViews) {
        const auto parsed = parse_app_arguments({std::string("--view=") + gpuplan::ui::view_name(v)});
        CHECK(parsed.errors.empty());
        CHECK(parsed.options.view == v);
    }
}

TEST_CASE("a broken link keeps what it could read and names what it could not") {
    const auto parsed = parse_app_arguments({"--view=nonsense", "--theme=dark", "--scenario=!!bad", "--unknown=1", "--embed=1"});
    CHECK(parsed.options.view == View::catalog);  // default stands in
    CHECK_FALSE(parsed.options.scenario.has_value());
    CHECK(parsed.options.dark_theme == std::optional<bool>(true));  // readable: kept
    CHECK(parsed.options.embed);
    REQUIRE(parsed.errors.size() == 3);
    CHECK(parsed.errors[0].find("nonsense") != std::string::npos);
    CHECK(parsed.errors[1].find("scenario (URL)") != std::string::npos);
    CHECK(parsed.errors[2].find("--unknown") != std::string::npos);
}

TEST_CASE("resolve_app_options is strict for the command line") {
    gpuplan::ui::RawAppOptions raw;
    raw.scenario = "e30";  // "{}" is fine
    CHECK(gpuplan::ui::resolve_app_options(raw).scenario == nlohmann::json::object());
    raw.scenario = "***";
    CHECK_THROWS_AS(gpuplan::ui::resolve_app_options(raw), gpuplan::InputError);
}

TEST_CASE("app_arguments round-trips through the parser") {
    gpuplan::ui::AppOptions options;
    options.view = View::topology;
    options.scenario = kScenario;
    options.embed = true;
    options.dark_theme = false;
    const auto parsed = parse_app_arguments(gpuplan::ui::app_arguments(options));
    CHECK(parsed.errors.empty());
    CHECK(parsed.options.view == View::topology);
    CHECK(*parsed.options.scenario == kScenario);
    CHECK(parsed.options.embed);
    CHECK(parsed.options.dark_theme == std::optional<bool>(false));
}
