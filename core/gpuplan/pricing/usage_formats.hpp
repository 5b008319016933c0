// usage_formats.hpp — read a usage history from the files teams already have.
//
// Five formats, recognised from their content (docs/pricing.md, "Usage history: formats"):
//   csv                 `timestamp,gpus` | `timestamp,instances` | `timestamp,requests_per_second`
//                       (ISO 8601 UTC or Unix seconds; any interval)
//   CloudWatch data     the output of `aws cloudwatch get-metric-data` (MetricDataResults: one
//                       result's Timestamps and Values; newest first by default, so sorted)
//   CloudWatch stats    the output of `aws cloudwatch get-metric-statistics` (Datapoints, which
//                       the API returns in no order, so sorted; Average taken, else Maximum...)
//   Cost Explorer       the output of `aws ce get-cost-and-usage --granularity HOURLY|DAILY
//                       --metrics UsageQuantity` filtered to EC2 running hours (unit "Hrs"): each
//                       period's instance-hours / its length = instances in use on average
//   Slurm accounting    `sacct --parsable2 --allocations --format=JobID,Start,End,AllocTRES`:
//                       the GPUs of jobs running at each moment (gres/gpu of AllocTRES)
// Every correction the reader makes (sorting, a gap, a running job's end) is named in the
// history's notes; anything it cannot read is an InputError naming the line or JSON path.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/pricing/usage_history.hpp"

namespace gpuplan {

enum class UsageFormat { csv, cloudwatch_metric_data, cloudwatch_statistics, cost_explorer, slurm_sacct };
std::string_view format_name(UsageFormat format);  // in words, e.g. "CloudWatch get-metric-data JSON"

// `unit` says what the values count where the file does not (CloudWatch's metric can be
// anything); where the file does say (a CSV header, Cost Explorer's Hrs, Slurm's gres/gpu) a
// different `unit` is an error, never a silent conversion.
UsageHistory parse_usage(std::string_view text, const std::string& origin, std::optional<UsageUnit> unit = std::nullopt);

// The CSV reader alone (parse_usage calls it for text that is not JSON or sacct output).
UsageHistory parse_usage_csv(std::string_view text, const std::string& origin);

// One (time, value) reading before it becomes a history; `where(index)` names it in messages.
struct UsagePoint {
    double unix_seconds = 0;
    double value = 0;
    std::size_t index = 0;
};

struct UsagePointsMeta {
    std::string origin, format;
    UsageUnit unit = UsageUnit::gpus;
    std::function<std::string(std::size_t index)> where;  // "file: line 3", "file: $.Values[2]"
    std::optional<double> end_unix_seconds;  // when the file says when the last reading ends
    std::vector<std::string> notes;
};

// Points in time order (equal or decreasing times are errors naming both) -> a history. A gap
// over 3 x the median interval holds the count and is named; without end_unix_seconds the last
// reading lasts one median interval (named).
UsageHistory history_from_points(const std::vector<UsagePoint>& points, UsagePointsMeta meta);

// "2026-01-05T14:00:00Z", "2026-01-05 14:00", "2026-01-05T14:00:00.000+00:00", "2026-01-05",
// Unix seconds. A time without a zone is taken as UTC (the caller names that where it matters).
std::optional<double> parse_unix_seconds(std::string_view text);

// An instance history in GPUs: each count x gpus_per_instance, named in the notes.
UsageHistory counted_in_gpus(const UsageHistory& history, double gpus_per_instance);

}  // namespace gpuplan
