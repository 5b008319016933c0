// Usage histories in every format fleet --usage reads (core/gpuplan/pricing/usage_formats.hpp):
// tests/cli/data/usage/ holds the seed's 4/6/12 example in each, so each must give the same
// load (4 GPUs for 3 h, 12 for 1 h) and the same commitment (4 GPUs, $28.16, worked in
// usage_history_test.cpp); then what each reader does with input it must refuse or correct.
#include <algorithm>

#include "fixtures.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/pricing/usage_formats.hpp"
#include "gpuplan/pricing/usage_synthetic.hpp"
#include "test_inputs.hpp"

using namespace gpuplan;

namespace {

bool has_note(const UsageHistory& h, const std::string& part) {
    return std::any_of(h.notes.begin(), h.notes.end(), [&](const std::string& n) { return n.find(part) != std::string::npos; });
}

// GPU-hours at or above each level 0..12: the load-duration curve of 4 for 3 h, 12 for 1 h.
void check_four_six_twelve(const UsageHistory& h) {
    CHECK(h.total_hours == Approx(4));
    double gpu_hours = 0, peak = 0;
    for (std::size_t k = 0; k < h.samples.size(); ++k) {
        const double end = k + 1 < h.samples.size() ? h.samples[k + 1].hours : h.total_hours;
        gpu_hours += h.samples[k].in_use * (end - h.samples[k].hours);
        peak = std::max(peak, h.samples[k].in_use);
    }
    CHECK(gpu_hours == Approx(24));
    CHECK(peak == 12);
    CommitmentPlanRequest q;
    q.commit_usd_per_gpu_hour = {0.96, InputOrigin::user, ""};
    q.burst_usd_per_gpu_hour = {1.60, InputOrigin::user, ""};
    q.on_demand_usd_per_gpu_hour = {1.60, InputOrigin::user, ""};
    const CommitmentPlan p = plan_commitment(h, q);
    CHECK(*p.optimal_level.value == 4);
    CHECK(*p.cost_at_optimal_usd.value == Approx(28.16));
}

}  // namespace

TEST_CASE("usage formats: the 4/6/12 history in every format gives the same commitment") {
    SECTION("CSV") {
        const UsageHistory h = parse_usage(usage_test_file("four-hours-4-6-12.csv"), "csv");
        CHECK(h.format == format_name(UsageFormat::csv));
        check_four_six_twelve(h);
    }
    SECTION("CloudWatch get-metric-data: newest first, sorted and said so") {
        const UsageHistory h = parse_usage(usage_test_file("cloudwatch-get-metric-data.json"), "cw.json");
        CHECK(h.format == format_name(UsageFormat::cloudwatch_metric_data));
        CHECK(h.unit == UsageUnit::gpus);  // from the label GPUsInUse
        CHECK(has_note(h, "sorted oldest first"));
        CHECK(h.samples.front().in_use == 4);
        CHECK(h.samples.back().in_use == 12);
        check_four_six_twelve(h);
    }
    SECTION("CloudWatch get-metric-statistics: datapoints in no order, Average taken") {
        const UsageHistory h = parse_usage(usage_test_file("cloudwatch-get-metric-statistics.json"), "stats.json");
        CHECK(h.format == format_name(UsageFormat::cloudwatch_statistics));
        CHECK(has_note(h, "Average"));
        CHECK(has_note(h, "sorted oldest first"));
        check_four_six_twelve(h);
    }
    SECTION("Cost Explorer: instance-hours per hour, 4 GPUs per g6e.12xlarge") {
        const UsageHistory h = parse_usage(usage_test_file("cost-explorer-hourly.json"), "ce.json");
        CHECK(h.unit == UsageUnit::instances);
        CHECK(h.samples.size() == 4);
        CHECK(h.samples.back().in_use == 3);
        CHECK(has_note(h, "1 period(s) marked Estimated"));
        CHECK_FALSE(has_note(h, "taken to last one interval"));  // the last period's End says when it ends
        CHECK_THROWS_WITH(plan_commitment(h, CommitmentPlanRequest{}), Catch::Contains("instances") && Catch::Contains("GPUs"));
        const UsageHistory g = counted_in_gpus(h, 4);
        CHECK(has_note(g, "x 4 GPUs per instance"));
        check_four_six_twelve(g);
    }
    SECTION("Slurm sacct: a job's GPUs while it runs; steps, CPU and pending jobs skipped") {
        const UsageHistory h = parse_usage(usage_test_file("slurm-sacct.txt"), "sacct.txt");
        CHECK(h.format == format_name(UsageFormat::slurm_sacct));
        REQUIRE(h.samples.size() == 2);  // 4 from 00:00, 12 from 03:00, ends 04:00
        CHECK(h.samples[1].hours == 3);
        CHECK(has_note(h, "2 job step(s) skipped"));
        CHECK(has_note(h, "1 job(s) without GPUs skipped"));
        CHECK(has_note(h, "1 job(s) that never started"));
        check_four_six_twelve(h);
    }
}

TEST_CASE("usage formats: a Cost Explorer day is 24 h, a running Slurm job ends at the file's latest time") {
    const UsageHistory ce = parse_usage(R"({"ResultsByTime": [
        {"TimePeriod": {"Start": "2026-01-05", "End": "2026-01-06"}, "Total": {"UsageQuantity": {"Amount": "48", "Unit": "Hrs"}}},
        {"TimePeriod": {"Start": "2026-01-06", "End": "2026-01-07"}, "Total": {"UsageQuantity": {"Amount": "12", "Unit": "Hrs"}}}]})",
                                        "daily.json");
    REQUIRE(ce.samples.size() == 2);
    CHECK(ce.samples[0].in_use == 2);    // 48 instance-hours over 24 h
    CHECK(ce.samples[1].in_use == 0.5);
    CHECK(ce.total_hours == 48);
    const UsageHistory s = parse_usage("JobIDRaw|Start|End|AllocTRES\n7|2026-01-05T00:00:00|Unknown|gres/gpu=2\n8|2026-01-05T00:00:00|2026-01-05T02:00:00|gres/gpu=1\n", "run.txt");
    CHECK(has_note(s, "1 running job(s)"));
    REQUIRE(s.samples.size() == 1);
    CHECK(s.samples[0].in_use == 3);
    CHECK(s.total_hours == 2);
}

TEST_CASE("usage formats bad input: the place, the value and what was expected") {
    // A unit the file contradicts is refused, never relabelled.
    CHECK_THROWS_WITH(parse_usage(usage_test_file("four-hours-4-6-12.csv"), "h.csv", UsageUnit::instances), Catch::Contains("GPUs") && Catch::Contains("instances as asked"));
    CHECK_THROWS_WITH(parse_usage(usage_test_file("slurm-sacct.txt"), "s.txt", UsageUnit::instances), Catch::Contains("gres/gpu counts GPUs"));
    // CloudWatch: a label that names nothing needs the unit said; two metrics are ambiguous.
    const std::string unlabelled = R"({"MetricDataResults": [{"Id": "m1", "Label": "Used", "Timestamps": ["2026-01-05T00:00:00Z", "2026-01-05T01:00:00Z"], "Values": [1, 2]}]})";
    CHECK_THROWS_WITH(parse_usage(unlabelled, "u.json"), Catch::Contains("u.json: $.MetricDataResults[0].Label") && Catch::Contains("\"Used\""));
    CHECK(parse_usage(unlabelled, "u.json", UsageUnit::instances).unit == UsageUnit::instances);
    CHECK_THROWS_WITH(parse_usage(R"({"MetricDataResults": [{"Id": "a"}, {"Id": "b"}]})", "two.json"), Catch::Contains("2 results (a, b)"));
    CHECK_THROWS_WITH(parse_usage(R"({"MetricDataResults": [{"Id": "a", "Label": "gpus", "Timestamps": ["2026-01-05T00:00:00Z"], "Values": [1, 2]}]})", "len.json"),
                      Catch::Contains("1 and 2"));
    CHECK_THROWS_WITH(parse_usage(R"({"MetricDataResults": [{"Id": "a", "Label": "gpus", "Timestamps": ["2026-01-05T00:00:00Z", "2026-01-05T00:00:00Z"], "Values": [1, 2]}]})", "dup.json"),
                      Catch::Contains("repeats"));
    CHECK_THROWS_WITH(parse_usage(R"({"MetricDataResults": [{"Id": "a", "Label": "gpus", "Timestamps": ["2026-01-05T00:00:00Z", "yesterday"], "Values": [1, 2]}]})", "t.json"),
                      Catch::Contains("$.MetricDataResults[0].Timestamps[1]") && Catch::Contains("ISO 8601"));
    CHECK_THROWS_WITH(parse_usage(R"({"MetricDataResults": [{"Id": "a", "Label": "gpus", "Timestamps": ["2026-01-05T00:00:00Z", "2026-01-05T01:00:00Z"], "Values": [1, -2]}]})", "n.json"),
                      Catch::Contains("Values[1]") && Catch::Contains(">= 0"));
    // A key given twice (the second "Values" would silently replace the first) is refused with its path.
    CHECK_THROWS_WITH(parse_usage(R"({"MetricDataResults": [{"Id": "a", "Label": "gpus", "Timestamps": ["2026-01-05T00:00:00Z", "2026-01-05T01:00:00Z"], "Values": [1, 2], "Values": [9, 9]}]})", "twice.json"),
                      Catch::Contains("twice.json: $.MetricDataResults[0].Values") && Catch::Contains("given twice"));
    // A timestamp on a day that does not exist is refused, not moved to March (calendar.hpp).
    CHECK_THROWS_WITH(parse_usage(R"({"MetricDataResults": [{"Id": "a", "Label": "gpus", "Timestamps": ["2026-02-28T00:00:00Z", "2026-02-31T00:00:00Z"], "Values": [1, 2]}]})", "feb.json"),
                      Catch::Contains("$.MetricDataResults[0].Timestamps[1]"));
    // Cost Explorer: a unit other than Hrs is a mix of usage types.
    CHECK_THROWS_WITH(parse_usage(R"({"ResultsByTime": [{"TimePeriod": {"Start": "2026-01-05", "End": "2026-01-06"}, "Total": {"UsageQuantity": {"Amount": "3", "Unit": "N/A"}}}]})", "na.json"),
                      Catch::Contains("$.ResultsByTime[0].Total.UsageQuantity.Unit") && Catch::Contains("Running Hours"));
    CHECK_THROWS_WITH(parse_usage(R"({"ResultsByTime": [{"TimePeriod": {"Start": "2026-01-05", "End": "2026-01-06"}, "Total": {"UnblendedCost": {"Amount": "3", "Unit": "USD"}}}]})", "cost.json"),
                      Catch::Contains("no Total or Groups") || Catch::Contains("UsageQuantity"));
    // A key missing, or of another type, is an error naming it (fuzz_usage's first finding was
    // an assertion in the JSON library on a datapoint without its Timestamp).
    CHECK_THROWS_WITH(parse_usage(R"({"Label": "GPUs", "Datapoints": [{"Average": 4.0}, {"Average": 5.0, "Timestamp": "2026-01-05T01:00:00Z"}]})", "nots.json"),
                      Catch::Contains("$.Datapoints[0].Timestamp"));
    CHECK_THROWS_WITH(parse_usage(R"({"MetricDataResults": [{"Id": 7, "Label": ["gpus"], "StatusCode": 3}]})", "types.json"), Catch::Contains("$.MetricDataResults[0]"));
    CHECK_THROWS_WITH(parse_usage(R"({"ResultsByTime": [7]})", "period.json"), Catch::Contains("$.ResultsByTime[0].TimePeriod.Start"));
    // JSON of another kind, JSON cut short, a sacct export without the needed fields.
    CHECK_THROWS_WITH(parse_usage(R"({"schema": "gpuplan.bench/1"})", "b.json"), Catch::Contains("get-metric-data") && Catch::Contains("get-cost-and-usage"));
    CHECK_THROWS_WITH(parse_usage(R"({"MetricDataResults": [)", "cut.json"), Catch::Contains("does not parse"));
    CHECK_THROWS_WITH(parse_usage("JobID|Elapsed\n1|01:00:00\n", "s.txt"), Catch::Contains("s.txt: line 1") && Catch::Contains("AllocTRES"));
    CHECK_THROWS_WITH(parse_usage("JobID|Start|End|AllocTRES\n1|2026-01-05T02:00:00|2026-01-05T01:00:00|gres/gpu=1\n", "e.txt"),
                      Catch::Contains("e.txt: line 2, End") && Catch::Contains("at or after the start"));
    CHECK_THROWS_WITH(parse_usage("JobID|Start|End|AllocTRES\n1|2026-01-05T00:00:00|2026-01-05T01:00:00|cpu=4\n", "c.txt"), Catch::Contains("no job with GPUs"));
}

TEST_CASE("usage formats: a file that is not the whole history is refused, never read as if it were (issue 34)") {
    const std::string two_hours = R"("Timestamps": ["2026-01-05T00:00:00Z", "2026-01-05T01:00:00Z"], "Values": [4, 6])";
    // The same two hours are read when nothing says they are partial...
    CHECK(parse_usage(R"({"MetricDataResults": [{"Id": "a", "Label": "gpus", )" + two_hours + R"(, "StatusCode": "Complete"}]})", "ok.json").samples.size() == 2);
    // ...and refused when CloudWatch says more pages exist, or that it stopped early.
    CHECK_THROWS_WITH(parse_usage(R"({"MetricDataResults": [{"Id": "a", "Label": "gpus", )" + two_hours + R"(}], "NextToken": "abc"})", "page.json"),
                      Catch::Contains("page.json: $.NextToken: got a token for a next page") && Catch::Contains("without --max-items"));
    CHECK_THROWS_WITH(parse_usage(R"({"MetricDataResults": [{"Id": "a", "Label": "gpus", )" + two_hours + R"(, "StatusCode": "PartialData"}]})", "part.json"),
                      Catch::Contains("part.json: $.MetricDataResults[0].StatusCode: got \"PartialData\"; expected \"Complete\""));
    // CloudWatch writes numbers; "4" as text means another tool wrote the file.
    CHECK_THROWS_WITH(parse_usage(R"({"MetricDataResults": [{"Id": "a", "Label": "gpus", "Timestamps": ["2026-01-05T00:00:00Z"], "Values": ["4"]}]})", "s.json"),
                      Catch::Contains("s.json: $.MetricDataResults[0].Values[0]: got \"4\"; expected a number"));
    // A Percent metric (GPU utilization) is no count of GPUs.
    CHECK_THROWS_WITH(parse_usage(R"({"Label": "GPUUtilization", "Datapoints": [{"Timestamp": "2026-01-05T00:00:00Z", "Average": 87.5, "Unit": "Percent"}]})", "pct.json", UsageUnit::gpus),
                      Catch::Contains("pct.json: $.Datapoints[0].Unit: got \"Percent\"; expected Count or None"));
    // Cost Explorer: one page of several, and two periods that overlap (the same hours twice).
    const std::string day = R"({"TimePeriod": {"Start": "2026-01-05", "End": "2026-01-06"}, "Total": {"UsageQuantity": {"Amount": "48", "Unit": "Hrs"}}})";
    CHECK(parse_usage(R"({"ResultsByTime": [)" + day + "]}", "ce.json").samples.front().in_use == 2);  // 48 instance-hours / 24 h
    CHECK_THROWS_WITH(parse_usage(R"({"ResultsByTime": [)" + day + R"(], "NextPageToken": "xyz"})", "cep.json"),
                      Catch::Contains("cep.json: $.NextPageToken: got a token for a next page"));
    const std::string noon = R"({"TimePeriod": {"Start": "2026-01-05T12:00:00Z", "End": "2026-01-06T12:00:00Z"}, "Total": {"UsageQuantity": {"Amount": "24", "Unit": "Hrs"}}})";
    CHECK_THROWS_WITH(parse_usage(R"({"ResultsByTime": [)" + day + ", " + noon + "]}", "overlap.json"),
                      Catch::Contains("overlap.json: $.ResultsByTime[1].TimePeriod.Start: got a start 12 h before the previous period ends"));
    // Slurm: a GPU job whose count is malformed is refused with its line, not dropped as a CPU job.
    const std::string header = "JobID|Start|End|AllocTRES\n";
    CHECK(parse_usage(header + "1|2026-01-05T00:00:00|2026-01-05T04:00:00|cpu=8,gres/gpu=4,gres/gpumem=80G\n", "g.txt").samples.front().in_use == 4);
    for (const char* bad : {"gres/gpu=four", "gres/gpu=", "gres/gpu", "gres/gpu:a100=1.5", "gres/gpu=-2"})
        CHECK_THROWS_WITH(parse_usage(header + "1|2026-01-05T00:00:00|2026-01-05T04:00:00|cpu=8," + bad + "\n", "bad.txt"),
                          Catch::Contains("bad.txt: line 2, AllocTRES: got \"" + std::string(bad) + "\"; expected gres/gpu=N"));
}

TEST_CASE("synthetic usage: the formula at chosen hours, the same on every run, and a CSV that reads back") {
    SyntheticUsageRequest q;
    q.days = 14;
    q.base = 10;
    q.daily_swing = 8;
    q.peak_hour = 14;
    q.weekend_factor = 0.5;
    const UsageHistory h = synthesize_usage(q);
    REQUIRE(h.samples.size() == 14 * 24);
    CHECK(h.samples[14].in_use == 18);         // Monday 14:00: base + the whole swing
    CHECK(h.samples[2].in_use == 10);          // Monday 02:00: 12 h from the peak, base alone
    CHECK(h.samples[5 * 24 + 14].in_use == 9); // Saturday 14:00: 18 x 0.5
    // Growth: 10% a week -> the second Monday's 14:00 is 18 x 1.1 = 19.8 -> 20.
    q.growth_per_week = 0.1;
    CHECK(synthesize_usage(q).samples[7 * 24 + 14].in_use == 20);
    // Bursts land where the seeded generator says, the same every time; each adds its size.
    q.growth_per_week = 0;
    q.bursts = 3;
    const UsageHistory a = synthesize_usage(q), b = synthesize_usage(q);
    double extra = 0;
    for (std::size_t k = 0; k < a.samples.size(); ++k) {
        CHECK(a.samples[k].in_use == b.samples[k].in_use);
        extra += a.samples[k].in_use - h.samples[k].in_use;
    }
    CHECK(extra == Approx(3 * 8 * 4).margin(8 * 4));  // 3 bursts of 8 for 4 h (one may overlap the end)
    // The CSV reads back as the same history.
    const UsageHistory back = parse_usage(to_csv(a), "synthetic.csv");
    REQUIRE(back.samples.size() == a.samples.size());
    for (std::size_t k = 0; k < a.samples.size(); k += 37) CHECK(back.samples[k].in_use == a.samples[k].in_use);
    CHECK(back.total_hours == Approx(a.total_hours));
    // A year of 5-minute samples is 365 x 288 = 105,120 of them, the last at 23:55 on 31 December.
    SyntheticUsageRequest year;
    year.days = 365;
    year.interval_minutes = 5;
    const UsageHistory y = synthesize_usage(year);
    CHECK(y.samples.size() == 105120);
    CHECK(y.total_hours == Approx(8760));
    q.days = 0;
    CHECK_THROWS_WITH(synthesize_usage(q), Catch::Contains("days"));
}
