// usage_cmd.cpp — `gpuplan usage generate`: a synthetic usage history or demand curve for
// what-ifs (core/gpuplan/pricing/usage_synthetic.hpp), written as the CSV `fleet --usage`,
// `idle --usage` and `serve-plan --demand` read.
#include <memory>

#include "commands.hpp"
#include "gpuplan/pricing/usage_synthetic.hpp"

namespace gpuplan::cli {

namespace {

struct UsageOptions {
    SyntheticUsageRequest req;
    std::string of = "gpus";
};

std::string run_generate(const UsageOptions& o) {
    SyntheticUsageRequest q = o.req;
    q.unit = o.of == "instances" ? UsageUnit::instances : o.of == "requests_per_second" ? UsageUnit::requests_per_second : UsageUnit::gpus;
    try {
        return to_csv(synthesize_usage(q));
    } catch (const InputError& e) {
        rethrow_for_flag(e, {{"days", "--days"}, {"interval_minutes", "--interval-minutes"}, {"base", "--base"}, {"daily_swing", "--daily-swing"},
                             {"peak_hour", "--peak-hour"}, {"weekend_factor", "--weekend-factor"}, {"growth_per_week", "--growth-per-week"},
                             {"bursts", "--bursts"}, {"burst_size", "--burst-size"}, {"burst_hours", "--burst-hours"}, {"start", "--start"}});
    }
}

}  // namespace

Command register_usage(CLI::App& parent) {
    auto o = std::make_shared<UsageOptions>();
    CLI::App* app = parent.add_subcommand("usage", "Usage histories: generate a synthetic one for what-ifs");
    app->require_subcommand(1);
    CLI::App* gen = app->add_subcommand("generate", "Print a synthetic usage history (CSV) with daily and weekly cycles, growth and bursts");
    SyntheticUsageRequest& q = o->req;
    gen->add_option("--of", o->of, "What it counts")->capture_default_str()->transform(choice_rule({"gpus", "instances", "requests_per_second"}));
    gen->add_option("--days", q.days, "Length of the history")->capture_default_str()->check(number_rule(NumberRule::positive));
    gen->add_option("--interval-minutes", q.interval_minutes, "Minutes between samples")->capture_default_str()->check(number_rule(NumberRule::positive));
    gen->add_option("--start", q.start, "First sample, ISO 8601 UTC")->capture_default_str();
    gen->add_option("--base", q.base, "Level at the quietest hour of a weekday")->capture_default_str()->check(number_rule(NumberRule::non_negative));
    gen->add_option("--daily-swing", q.daily_swing, "Added at the daily peak (a cosine over the day)")->capture_default_str()->check(number_rule(NumberRule::non_negative));
    gen->add_option("--peak-hour", q.peak_hour, "Hour of the daily peak, UTC")->capture_default_str()->check(number_rule(NumberRule::non_negative));
    gen->add_option("--weekend-factor", q.weekend_factor, "Saturdays and Sundays are this share of a weekday")->capture_default_str()->check(number_rule(NumberRule::non_negative));
    gen->add_option("--growth-per-week", q.growth_per_week, "Compound growth per week, e.g. 0.05 for 5%")->capture_default_str()->check(number_rule(NumberRule::finite));
    gen->add_option("--bursts", q.bursts, "Bursts at random times (seeded)")->capture_default_str()->check(whole_rule(0));
    gen->add_option("--burst-size", q.burst_size, "Added while a burst lasts")->capture_default_str()->check(number_rule(NumberRule::non_negative));
    gen->add_option("--burst-hours", q.burst_hours, "Length of each burst")->capture_default_str()->check(number_rule(NumberRule::positive));
    gen->add_option("--seed", q.seed, "Seed of the burst times (the same seed gives the same history everywhere)")->capture_default_str();
    gen->footer(R"(level = (base + swing x (1 + cos(2 pi (hour - peak hour) / 24)) / 2) x weekend factor x (1 + growth)^weeks + bursts,
rounded to whole GPUs or instances.
Examples:
  gpuplan usage generate --days 84 --base 16 --daily-swing 24 --growth-per-week 0.02 --bursts 4 > gpus-in-use.csv
  gpuplan usage generate --of requests_per_second --days 7 --interval-minutes 5 --base 20 --daily-swing 180 > rps.csv)");
    return {app, [o](const Catalog&) { return run_generate(*o); }};
}

}  // namespace gpuplan::cli
