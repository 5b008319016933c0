// app_options_test.cpp — the start-up option parser shared by the page URL and `gpuplan gui`
// (core/ui/app_options.hpp): what a link turns into, and how a broken link degrades.
#include <catch2/catch.hpp>

#include "gpuplan/input_error.hpp"
#include "gpuplan/scenario/scenario_url.hpp"
#include "ui/app_options.hpp"
#include "ui/catalog_link.hpp"
#include "ui/chart_link.hpp"

#include <cstdio>

using gpuplan::ui::CatalogColumn;
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

TEST_CASE("the catalog table's link value: parsed, normalised, round-tripped, refused by part") {
    // Parts in any order, with a percent-encoded search; the option keeps one spelling.
    const auto parsed = parse_app_arguments({"--catalog-table=sort=usd-per-gpu-hour-desc;efa=1;search=H100%20SXM;family=p5"});
    REQUIRE(parsed.errors.empty());
    CHECK(parsed.options.catalog == "search=H100%20SXM;family=p5;efa=1;sort=usd-per-gpu-hour-desc");
    gpuplan::ui::AppOptions options;
    options.catalog = parsed.options.catalog;
    const auto again = parse_app_arguments(gpuplan::ui::app_arguments(options));
    CHECK(again.options.catalog == options.catalog);

    // A search with the separators in it survives.
    gpuplan::ui::CatalogTableState table;
    std::snprintf(table.filter, sizeof table.filter, "%s", "a;b=c,d%e");
    table.compare = {"p5.48xlarge", "g6e.xlarge"};
    table.hidden_columns = {static_cast<int>(CatalogColumn::vcpus)};
    const std::string link = gpuplan::ui::catalog_table_link(table);
    CHECK(link == "search=a%3Bb%3Dc%2Cd%25e;compare=p5.48xlarge,g6e.xlarge;hide=vcpus");
    gpuplan::ui::CatalogTableState back;
    gpuplan::ui::apply_catalog_table_link(back, link);
    CHECK(std::string(back.filter) == "a;b=c,d%e");
    CHECK(back.compare == table.compare);
    CHECK(back.hidden_columns == table.hidden_columns);
    CHECK(back.apply_link_view);

    // A broken part is named, and the others of the link still apply.
    const auto broken = parse_app_arguments({"--view=costs", "--catalog-table=family=p5;sort=price"});
    REQUIRE(broken.errors.size() == 1);
    CHECK(broken.errors[0].find("--catalog-table: got 'sort=price'") != std::string::npos);
    CHECK(broken.options.view == View::costs);
    CHECK(broken.options.catalog.empty());
    gpuplan::ui::CatalogTableState untouched;
    untouched.efa_only = true;
    // Ranges and the price unit: kept as typed (a bound that is not a number too, with its
    // reason), in the order given.
    gpuplan::ui::CatalogTableState ranged;
    gpuplan::ui::apply_catalog_table_link(ranged, "unit=month;range=on-demand::3650;range=vcpus:ninety%3A:");
    REQUIRE(ranged.ranges.size() == 2);
    CHECK(ranged.price_unit == gpuplan::ui::CatalogPriceUnit::month);
    CHECK(ranged.ranges[0].column == CatalogColumn::on_demand_usd_per_hour);
    CHECK_FALSE(ranged.ranges[0].min.has_value());
    CHECK(ranged.ranges[0].max == 3650.0);
    CHECK(ranged.ranges[1].min_text == "ninety:");
    CHECK_FALSE(ranged.ranges[1].error.empty());
    CHECK(gpuplan::ui::catalog_table_link(ranged) == "range=on-demand::3650;range=vcpus:ninety%3A:;unit=month");
    for (const char* bad : {"compare=a,b,c,d,e", "min-memory-gib=lots", "hide=instance", "colour=blue", "search=%zz", "range=instance:1:2",
                            "range=on-demand:1", "unit=week"})
        CHECK_THROWS_AS(gpuplan::ui::apply_catalog_table_link(untouched, bad), gpuplan::InputError);
    CHECK(untouched.efa_only);
}

TEST_CASE("the charts' ranges in the link: parsed, normalised, round-tripped, refused by part") {
    const auto parsed = parse_app_arguments({"--chart-ranges=decode-ms=300.0;costs-months=24"});
    REQUIRE(parsed.errors.empty());
    CHECK(parsed.options.chart_ranges == "costs-months=24;decode-ms=300");  // one spelling, one order
    gpuplan::ui::AppOptions options;
    options.chart_ranges = parsed.options.chart_ranges;
    const auto args = gpuplan::ui::app_arguments(options);
    CHECK(std::find(args.begin(), args.end(), "--chart-ranges=costs-months=24;decode-ms=300") != args.end());
    CHECK(parse_app_arguments(args).options.chart_ranges == options.chart_ranges);

    // Defaults are left out of the link; a part not given goes back to its default.
    gpuplan::ui::ChartRanges ranges;
    CHECK(gpuplan::ui::chart_ranges_link(ranges).empty());
    gpuplan::ui::apply_chart_ranges_link(ranges, "costs-months=12;decode-ms=80");
    CHECK(ranges.costs_months == 12);
    CHECK(ranges.decode_shown_ms == 80);
    gpuplan::ui::apply_chart_ranges_link(ranges, "decode-ms=120");
    CHECK(ranges.costs_months == gpuplan::ui::ChartRanges::kDefaultCostsMonths);
    CHECK(ranges.decode_shown_ms == 120);

    // A broken part is named and the ranges are left as they were; the link's other options apply.
    for (const char* bad : {"costs-months=5", "costs-months=49", "costs-months=12.5", "costs-months=", "decode-ms=0",
                            "decode-ms=-3", "zoom=2"})
        CHECK_THROWS_AS(gpuplan::ui::apply_chart_ranges_link(ranges, bad), gpuplan::InputError);
    CHECK(ranges.decode_shown_ms == 120);
    const auto broken = parse_app_arguments({"--view=decode", "--chart-ranges=costs-months=100"});
    REQUIRE(broken.errors.size() == 1);
    CHECK(broken.errors[0].find("--chart-ranges: got 'costs-months=100'") != std::string::npos);
    CHECK(broken.errors[0].find("from 6 to 48") != std::string::npos);
    CHECK(broken.options.view == View::decode);
    CHECK(broken.options.chart_ranges.empty());
}
