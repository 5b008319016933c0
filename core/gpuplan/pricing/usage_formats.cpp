// usage_formats.cpp — see usage_formats.hpp.
#include "gpuplan/pricing/usage_formats.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include <nlohmann/json.hpp>

#include "gpuplan/calendar.hpp"
#include "gpuplan/explain.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/json_duplicate_keys.hpp"
#include "gpuplan/text.hpp"

namespace gpuplan {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '"')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '"')) s.remove_suffix(1);
    return s;
}

std::string shortened(std::string_view s) { return std::string(s.substr(0, 60)) + (s.size() > 60 ? "..." : ""); }

// Lines of a text (split_lines, text.hpp), numbered from 1, with surrounding blanks and quotes
// removed; f returns false to stop.
template <class F>
void for_each_line(std::string_view text, F&& f) {
    const std::vector<std::string_view> lines = split_lines(text);
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (!f(trim(lines[i]), i + 1)) return;
}

std::vector<std::string_view> split(std::string_view line, char sep) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (true) {
        const std::size_t at = line.find(sep, start);
        out.push_back(trim(line.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start)));
        if (at == std::string_view::npos) return out;
        start = at + 1;
    }
}

}  // namespace

std::string_view format_name(UsageFormat format) {
    switch (format) {
        case UsageFormat::csv: return "timestamp CSV";
        case UsageFormat::cloudwatch_metric_data: return "CloudWatch get-metric-data JSON";
        case UsageFormat::cloudwatch_statistics: return "CloudWatch get-metric-statistics JSON";
        case UsageFormat::cost_explorer: return "Cost Explorer get-cost-and-usage JSON";
        case UsageFormat::slurm_sacct: return "Slurm sacct --parsable2";
    }
    return "unknown";
}

std::optional<double> parse_unix_seconds(std::string_view s) {
    if (auto v = decimal_number(s)) return v;
    return utc_seconds(s);  // calendar.hpp: 2026-02-31 or 24:00:01 is refused, not carried over
}

UsageHistory history_from_points(const std::vector<UsagePoint>& points, UsagePointsMeta meta) {
    if (points.size() < 2 && !(points.size() == 1 && meta.end_unix_seconds))
        throw InputError(meta.origin, std::to_string(points.size()) + " reading(s)", "at least two (the interval between them is the resolution)");
    // Beyond these a file is not a usage history (a wrong column, a unit in milliseconds).
    for (const UsagePoint& p : points) {
        if (!(p.value <= 1e9)) throw InputError(meta.where(p.index), format_number(p.value), "a count of at most 1,000,000,000");
        if (!(std::abs(p.unix_seconds) < 1e11)) throw InputError(meta.where(p.index), format_number(p.unix_seconds) + " s", "a time between the years 1 and 5000");
    }
    for (std::size_t k = 1; k < points.size(); ++k)
        if (points[k].unix_seconds <= points[k - 1].unix_seconds)
            throw InputError(meta.where(points[k].index), format_number(points[k].unix_seconds) + " s",
                             points[k].unix_seconds == points[k - 1].unix_seconds
                                 ? "a time after the previous reading's (this one repeats " + meta.where(points[k - 1].index) + ")"
                                 : "times in increasing order (" + meta.where(points[k - 1].index) + " is later)");
    UsageHistory h;
    h.origin = valid_utf8(meta.origin);  // a file name is bytes; the result documents are JSON
    h.format = meta.format;
    h.unit = meta.unit;
    for (const std::string& note : meta.notes) h.notes.push_back(valid_utf8(note));
    h.start_unix_seconds = points.front().unix_seconds;
    std::vector<double> gaps;
    for (std::size_t k = 1; k < points.size(); ++k) gaps.push_back(points[k].unix_seconds - points[k - 1].unix_seconds);
    double median_gap = 0;
    if (!gaps.empty()) {
        std::vector<double> sorted = gaps;
        std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2), sorted.end());
        median_gap = sorted[sorted.size() / 2];
    }
    for (std::size_t k = 0; k < gaps.size(); ++k)
        if (gaps[k] > 3 * median_gap)
            h.notes.push_back(valid_utf8("a gap of " + format_number(gaps[k] / 3600) + " h after " + meta.where(points[k].index) + " (the interval is " +
                              format_number(median_gap / 3600) + " h): its count, " + format_number(points[k].value) + ", is taken as held"));
    h.samples.reserve(points.size());
    for (const UsagePoint& p : points) h.samples.push_back({(p.unix_seconds - h.start_unix_seconds) / 3600.0, p.value, p.index});
    if (meta.end_unix_seconds) {
        if (!(*meta.end_unix_seconds > points.back().unix_seconds))
            throw InputError(meta.where(points.back().index), "an end at or before its start", "a period that ends after it starts");
        h.total_hours = (*meta.end_unix_seconds - h.start_unix_seconds) / 3600.0;
    } else {
        h.total_hours = h.samples.back().hours + median_gap / 3600.0;
        h.notes.push_back(valid_utf8("the last reading (" + meta.where(points.back().index) + ") is taken to last one interval, " + format_number(median_gap / 3600) + " h"));
    }
    return h;
}

UsageHistory parse_usage_csv(std::string_view text, const std::string& origin) {
    UsagePointsMeta meta;
    meta.origin = origin;
    meta.format = std::string(format_name(UsageFormat::csv));
    meta.where = [origin](std::size_t line) { return origin + ": line " + std::to_string(line); };
    std::vector<UsagePoint> points;
    bool header = false;
    for_each_line(text, [&](std::string_view line, std::size_t line_no) {
        if (line.empty() || line.front() == '#') return true;
        const auto cols = split(line, ',');
        if (cols.size() != 2)
            throw InputError(meta.where(line_no), "\"" + shortened(line) + "\"", "two comma-separated columns: timestamp,gpus");
        if (!header) {
            const std::string unit = lower(cols[1]), time = lower(cols[0]);
            if (time != "timestamp" && time != "time")
                throw InputError(meta.where(line_no), "header \"" + shortened(line) + "\"", "the header timestamp,gpus (or timestamp,instances or timestamp,requests_per_second)");
            if (unit == "gpus" || unit == "gpus_in_use") meta.unit = UsageUnit::gpus;
            else if (unit == "instances" || unit == "instances_in_use") meta.unit = UsageUnit::instances;
            else if (unit == "requests_per_second" || unit == "rps") meta.unit = UsageUnit::requests_per_second;
            else throw InputError(meta.where(line_no), "a column \"" + std::string(cols[1]) + "\"", "gpus, instances or requests_per_second (what the count is of)");
            header = true;
            return true;
        }
        const auto t = parse_unix_seconds(cols[0]);
        if (!t) throw InputError(meta.where(line_no), "timestamp \"" + shortened(cols[0]) + "\"", "ISO 8601 UTC (2026-01-05T14:00:00Z) or Unix seconds");
        const auto v = decimal_number(cols[1]);
        if (!v || *v < 0) throw InputError(meta.where(line_no), "count \"" + shortened(cols[1]) + "\"", "a number of " + std::string(unit_name(meta.unit)) + " >= 0");
        points.push_back({*t, *v, line_no});
        return true;
    });
    if (!header) throw InputError(origin, "no header", "a CSV with the header timestamp,gpus (or timestamp,instances) and one row per sample");
    return history_from_points(points, std::move(meta));
}

namespace {

// Safe reads of an AWS CLI document: a missing key, or a value of another type, reads as null
// (nlohmann's const operator[] asserts on a missing key, and value() throws on a type it did not
// expect: neither may reach a user).
const nlohmann::json& member(const nlohmann::json& j, const char* key) {
    static const nlohmann::json null_json;
    if (!j.is_object()) return null_json;
    const auto it = j.find(key);
    return it == j.end() ? null_json : *it;
}

std::string member_string(const nlohmann::json& j, const char* key, const std::string& fallback) {
    const nlohmann::json& v = member(j, key);
    return v.is_string() ? v.get<std::string>() : fallback;
}

double json_number(const nlohmann::json& v, const std::string& where, const std::string& what) {
    if (v.is_number()) return v.get<double>();
    if (v.is_string())  // Cost Explorer writes amounts as strings
        if (auto d = decimal_number(v.get<std::string>())) return *d;
    throw InputError(where, shortened(v.dump()), what);
}

// CloudWatch writes values as JSON numbers; text there means another tool wrote the file.
double cloudwatch_number(const nlohmann::json& v, const std::string& where) {
    if (!v.is_number()) throw InputError(where, shortened(v.dump()), "a number (CloudWatch writes values as JSON numbers)");
    return v.get<double>();
}

// A file that is one page of several would be read as the whole history (issue 34): the AWS
// CLI leaves a page token in its output when --max-items or --no-paginate cut it short.
void refuse_next_page(const nlohmann::json& doc, const char* token_key, const std::string& origin) {
    const nlohmann::json& token = member(doc, token_key);
    if (token.is_string() && !token.get<std::string>().empty())
        throw InputError(origin + ": $." + token_key, "a token for a next page", "the whole history in one file: run the aws command without --max-items or --no-paginate (the AWS CLI then fetches every page)");
}

double json_time(const nlohmann::json& v, const std::string& where) {
    if (v.is_string())
        if (auto t = parse_unix_seconds(v.get<std::string>())) return *t;
    throw InputError(where, shortened(v.dump()), "an ISO 8601 UTC time such as 2026-01-05T14:00:00Z");
}

void require_unit(std::optional<UsageUnit> asked, UsageUnit file_says, const std::string& origin, const std::string& how) {
    if (asked && *asked != file_says)
        throw InputError(origin, "a history of " + std::string(unit_name(file_says)) + " (" + how + ")",
                         std::string(unit_name(*asked)) + " as asked (a count of one thing is not relabelled as another)");
}

UsageUnit unit_from_label(std::optional<UsageUnit> asked, const std::string& label, const std::string& where) {
    if (asked) return *asked;
    const std::string l = lower(label);
    if (l.find("gpu") != std::string::npos) return UsageUnit::gpus;
    if (l.find("instance") != std::string::npos) return UsageUnit::instances;
    if (l.find("request") != std::string::npos) return UsageUnit::requests_per_second;
    throw InputError(where, "the label \"" + shortened(label) + "\"", "a label naming GPUs, instances or requests, or say what the values count (gpus, instances or requests_per_second)");
}

// Sorted oldest first; the reader names the reordering when there was one.
void sort_points(std::vector<UsagePoint>& points, UsagePointsMeta& meta, const std::string& why) {
    if (std::is_sorted(points.begin(), points.end(), [](const UsagePoint& a, const UsagePoint& b) { return a.unix_seconds < b.unix_seconds; })) return;
    std::stable_sort(points.begin(), points.end(), [](const UsagePoint& a, const UsagePoint& b) { return a.unix_seconds < b.unix_seconds; });
    meta.notes.push_back("readings sorted oldest first (" + why + ")");
}

UsageHistory parse_cloudwatch_data(const nlohmann::json& doc, const std::string& origin, std::optional<UsageUnit> unit) {
    const auto& results = member(doc, "MetricDataResults");
    if (!results.is_array() || results.size() != 1) {
        std::string ids;
        if (results.is_array())
            for (const auto& r : results) ids += (ids.empty() ? "" : ", ") + member_string(r, "Id", "?");
        throw InputError(origin + ": $.MetricDataResults", results.is_array() ? std::to_string(results.size()) + " results (" + ids + ")" : "not an array",
                         "exactly one metric (query one, or set ReturnData false on the others)");
    }
    refuse_next_page(doc, "NextToken", origin);
    const auto& r = results[0];
    const std::string base = origin + ": $.MetricDataResults[0]";
    UsagePointsMeta meta;
    meta.origin = origin;
    meta.format = std::string(format_name(UsageFormat::cloudwatch_metric_data));
    meta.unit = unit_from_label(unit, member_string(r, "Label", member_string(r, "Id", "")), base + ".Label");
    meta.where = [base](std::size_t k) { return base + ".Values[" + std::to_string(k) + "]"; };
    const auto& ts = member(r, "Timestamps");
    const auto& vs = member(r, "Values");
    if (!ts.is_array() || !vs.is_array() || ts.size() != vs.size())
        throw InputError(base, "Timestamps and Values of " + (ts.is_array() && vs.is_array() ? std::to_string(ts.size()) + " and " + std::to_string(vs.size()) : std::string("another shape")),
                         "two arrays of the same length");
    // PartialData: CloudWatch stopped before the end of the range; InternalError, Forbidden: no data.
    if (const std::string status = member_string(r, "StatusCode", "Complete"); status != "Complete")
        throw InputError(base + ".StatusCode", "\"" + shortened(status) + "\"", "\"Complete\": every datapoint of the range (PartialData means later pages are missing)");
    std::vector<UsagePoint> points;
    for (std::size_t k = 0; k < ts.size(); ++k) {
        const double v = cloudwatch_number(vs[k], meta.where(k));
        if (v < 0) throw InputError(meta.where(k), format_number(v), "a count >= 0");
        points.push_back({json_time(ts[k], base + ".Timestamps[" + std::to_string(k) + "]"), v, k});
    }
    sort_points(points, meta, "get-metric-data returns newest first unless asked --scan-by TimestampAscending");
    return history_from_points(points, std::move(meta));
}

UsageHistory parse_cloudwatch_statistics(const nlohmann::json& doc, const std::string& origin, std::optional<UsageUnit> unit) {
    const auto& dps = member(doc, "Datapoints");
    UsagePointsMeta meta;
    meta.origin = origin;
    meta.format = std::string(format_name(UsageFormat::cloudwatch_statistics));
    meta.unit = unit_from_label(unit, member_string(doc, "Label", ""), origin + ": $.Label");
    meta.where = [origin](std::size_t k) { return origin + ": $.Datapoints[" + std::to_string(k) + "]"; };
    if (!dps.is_array() || dps.empty()) throw InputError(origin + ": $.Datapoints", dps.is_array() ? "none" : "not an array", "the datapoints of one statistic");
    std::string statistic;
    for (const char* s : {"Average", "Maximum", "Minimum", "Sum", "SampleCount"})
        if (dps[0].is_object() && dps[0].contains(s)) {
            statistic = s;
            break;
        }
    if (statistic.empty()) throw InputError(meta.where(0), shortened(dps[0].dump()), "a datapoint with Average, Maximum, Minimum or Sum");
    meta.notes.push_back("the " + statistic + " statistic of each period is the count in use");
    std::vector<UsagePoint> points;
    for (std::size_t k = 0; k < dps.size(); ++k) {
        if (!dps[k].is_object() || !dps[k].contains(statistic)) throw InputError(meta.where(k), shortened(dps[k].dump()), "a datapoint with " + statistic);
        // A Percent metric (GPU utilization) is no count of GPUs or instances.
        if (const std::string u = member_string(dps[k], "Unit", "Count"); u != "Count" && u != "None")
            throw InputError(meta.where(k) + ".Unit", "\"" + shortened(u) + "\"", "Count or None: a metric that counts GPUs or instances in use");
        const double v = cloudwatch_number(member(dps[k], statistic.c_str()), meta.where(k) + "." + statistic);
        if (v < 0) throw InputError(meta.where(k), format_number(v), "a count >= 0");
        points.push_back({json_time(member(dps[k], "Timestamp"), meta.where(k) + ".Timestamp"), v, k});
    }
    sort_points(points, meta, "get-metric-statistics returns datapoints in no particular order");
    return history_from_points(points, std::move(meta));
}

UsageHistory parse_cost_explorer(const nlohmann::json& doc, const std::string& origin, std::optional<UsageUnit> unit) {
    require_unit(unit, UsageUnit::instances, origin, "Cost Explorer's usage quantity is instance-hours");
    const auto& periods = member(doc, "ResultsByTime");
    if (!periods.is_array() || periods.empty()) throw InputError(origin + ": $.ResultsByTime", periods.is_array() ? "none" : "not an array", "one result per period");
    refuse_next_page(doc, "NextPageToken", origin);
    UsagePointsMeta meta;
    meta.origin = origin;
    meta.format = std::string(format_name(UsageFormat::cost_explorer));
    meta.unit = UsageUnit::instances;
    meta.where = [origin](std::size_t k) { return origin + ": $.ResultsByTime[" + std::to_string(k) + "]"; };
    std::vector<UsagePoint> points;
    double previous_end = 0;
    std::size_t estimated = 0;
    for (std::size_t k = 0; k < periods.size(); ++k) {
        const auto& p = periods[k];
        const std::string at = meta.where(k);
        const double start = json_time(member(member(p, "TimePeriod"), "Start"), at + ".TimePeriod.Start"), end = json_time(member(member(p, "TimePeriod"), "End"), at + ".TimePeriod.End");
        if (!(end > start)) throw InputError(at + ".TimePeriod", "an end at or before its start", "a period that ends after it starts");
        // Overlapping periods would count the same hours twice (two exports pasted together).
        if (k > 0 && start < previous_end)
            throw InputError(at + ".TimePeriod.Start", "a start " + format_number((previous_end - start) / 3600) + " h before the previous period ends",
                             "periods in time order that do not overlap");
        if (k > 0 && start != previous_end)
            meta.notes.push_back("period " + std::to_string(k) + " starts " + format_number((start - previous_end) / 3600) + " h after the previous one ends: the previous count is taken as held");
        previous_end = end;
        // Total.UsageQuantity, or the sum over Groups[].Metrics.UsageQuantity when grouped.
        double hours = 0;
        std::string unit_seen;
        const auto add = [&](const nlohmann::json& q, const std::string& where) {
            if (!q.is_object()) throw InputError(where, "nothing", "a UsageQuantity with Amount and Unit (ask for --metrics UsageQuantity)");
            hours += json_number(member(q, "Amount"), where + ".Amount", "an amount of instance-hours");
            unit_seen = member_string(q, "Unit", "");
            if (unit_seen != "Hrs")
                throw InputError(where + ".Unit", "\"" + unit_seen + "\"", "Hrs (filter to EC2 running hours, usage type group \"EC2: Running Hours\")");
        };
        const nlohmann::json& total = member(member(p, "Total"), "UsageQuantity");
        const nlohmann::json& groups = member(p, "Groups");
        if (!total.is_null()) add(total, at + ".Total.UsageQuantity");
        else if (groups.is_array())
            for (std::size_t g = 0; g < groups.size(); ++g)
                add(member(member(groups[g], "Metrics"), "UsageQuantity"), at + ".Groups[" + std::to_string(g) + "].Metrics.UsageQuantity");
        else throw InputError(at, "no Total or Groups", "a period with Total.UsageQuantity (or Groups)");
        if (hours < 0) throw InputError(at, format_number(hours) + " instance-hours", "an amount >= 0");
        if (member(p, "Estimated").is_boolean() && member(p, "Estimated").get<bool>()) ++estimated;
        points.push_back({start, hours / ((end - start) / 3600.0), k});
        if (k + 1 == periods.size()) meta.end_unix_seconds = end;
    }
    meta.notes.push_back("instance-hours per period / the period's hours = instances in use on average");
    if (estimated > 0) meta.notes.push_back(std::to_string(estimated) + " period(s) marked Estimated by Cost Explorer (the month is not closed)");
    return history_from_points(points, std::move(meta));
}

// GPUs of one AllocTRES ("billing=8,cpu=8,gres/gpu=4,mem=64G,node=1"): gres/gpu, else the sum
// of typed ones (gres/gpu:a100=4); nullopt for a job without GPUs. A gres/gpu item whose count
// is not a whole number is refused at `where`: dropping it as a CPU job lost a 4-hour GPU job
// from the history (issue 34).
std::optional<double> gres_gpus(std::string_view tres, const std::string& where) {
    double typed = 0;
    bool any = false;
    for (std::string_view item : split(tres, ',')) {
        const std::size_t eq = item.find('=');
        const std::string_view key = item.substr(0, eq);
        const bool untyped = key == "gres/gpu", typed_key = key.substr(0, 9) == "gres/gpu:";
        if (!untyped && !typed_key) continue;
        const auto n = eq == std::string_view::npos ? std::nullopt : decimal_number(item.substr(eq + 1));
        if (!n || *n < 0 || std::floor(*n) != *n)
            throw InputError(where, "\"" + shortened(item) + "\"", "gres/gpu=N or gres/gpu:TYPE=N with N a whole number of GPUs, e.g. gres/gpu=4");
        if (untyped) return *n;
        typed += *n;
        any = true;
    }
    return any ? std::optional<double>(typed) : std::nullopt;
}

UsageHistory parse_sacct(std::string_view text, const std::string& origin, std::optional<UsageUnit> unit) {
    require_unit(unit, UsageUnit::gpus, origin, "Slurm's gres/gpu counts GPUs");
    const auto where = [origin](std::size_t line) { return origin + ": line " + std::to_string(line); };
    std::map<std::string, std::size_t> col;
    struct Job { double start, end; double gpus; std::size_t line; bool running; };
    std::vector<Job> jobs;
    std::size_t steps = 0, not_started = 0, without_gpus = 0;
    double latest = -HUGE_VAL;
    for_each_line(text, [&](std::string_view line, std::size_t line_no) {
        if (line.empty()) return true;
        const auto cols = split(line, '|');
        if (col.empty()) {
            for (std::size_t k = 0; k < cols.size(); ++k) col[std::string(cols[k])] = k;
            const bool id = col.count("JobID") || col.count("JobIDRaw");
            if (!id || !col.count("Start") || !col.count("End") || !col.count("AllocTRES"))
                throw InputError(where(line_no), "header \"" + shortened(line) + "\"", "sacct --parsable2 with the fields JobID, Start, End and AllocTRES (and no --noheader)");
            return true;
        }
        const auto get = [&](const char* name) -> std::string_view {
            const auto it = col.find(name);
            return it != col.end() && it->second < cols.size() ? cols[it->second] : std::string_view();
        };
        const std::string_view id = col.count("JobIDRaw") ? get("JobIDRaw") : get("JobID");
        if (id.find('.') != std::string_view::npos) {  // a step (123.batch, 123.0): part of its job's allocation
            ++steps;
            return true;
        }
        const std::string_view s = get("Start"), e = get("End");
        if (s == "Unknown" || s == "None" || s.empty()) {
            ++not_started;
            return true;
        }
        const auto start = parse_unix_seconds(s);
        if (!start) throw InputError(where(line_no) + ", Start", "\"" + shortened(s) + "\"", "a time such as 2026-01-05T14:00:00");
        const bool running = e == "Unknown" || e == "None" || e.empty();
        std::optional<double> end = running ? std::optional<double>(*start) : parse_unix_seconds(e);
        if (!end) throw InputError(where(line_no) + ", End", "\"" + shortened(e) + "\"", "a time such as 2026-01-05T15:00:00, or Unknown for a running job");
        if (*end < *start) throw InputError(where(line_no) + ", End", std::string(e), "an end at or after the start " + std::string(s));
        const auto gpus = gres_gpus(get("AllocTRES"), where(line_no) + ", AllocTRES");
        if (!gpus || *gpus <= 0) {
            ++without_gpus;
            return true;
        }
        latest = std::max(latest, *end);
        jobs.push_back({*start, *end, *gpus, line_no, running});
        return true;
    });
    if (col.empty()) throw InputError(origin, "an empty file", "sacct --parsable2 output with a header");
    if (jobs.empty()) throw InputError(origin, "no job with GPUs", "jobs whose AllocTRES has gres/gpu");
    UsagePointsMeta meta;
    meta.origin = origin;
    meta.format = std::string(format_name(UsageFormat::slurm_sacct));
    meta.unit = UsageUnit::gpus;
    meta.where = where;
    std::size_t running = 0;
    for (Job& j : jobs)
        if (j.running) {
            j.end = latest;
            ++running;
        }
    if (running > 0) meta.notes.push_back(std::to_string(running) + " running job(s) (End Unknown) counted to the latest time in the file");
    if (steps > 0) meta.notes.push_back(std::to_string(steps) + " job step(s) skipped: a step uses its job's allocation");
    if (not_started > 0) meta.notes.push_back(std::to_string(not_started) + " job(s) that never started skipped");
    if (without_gpus > 0) meta.notes.push_back(std::to_string(without_gpus) + " job(s) without GPUs skipped");
    meta.notes.push_back("sacct prints times in the cluster's local time zone; they are taken as given");
    // +GPUs at each start, -GPUs at each end; one reading per distinct time.
    std::vector<std::pair<double, std::pair<double, std::size_t>>> events;
    for (const Job& j : jobs) {
        events.push_back({j.start, {j.gpus, j.line}});
        events.push_back({j.end, {-j.gpus, j.line}});
    }
    std::sort(events.begin(), events.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<UsagePoint> points;
    double in_use = 0;
    for (std::size_t k = 0; k < events.size(); ++k) {
        in_use += events[k].second.first;
        if (k + 1 < events.size() && events[k + 1].first == events[k].first) continue;
        points.push_back({events[k].first, std::max(0.0, std::round(in_use * 1e9) / 1e9), events[k].second.second});
    }
    meta.end_unix_seconds = points.back().unix_seconds;
    points.pop_back();  // the last event ends the last job: it is the history's end
    if (points.empty()) throw InputError(origin, "jobs of zero length", "jobs that ran for some time");
    return history_from_points(points, std::move(meta));
}

}  // namespace

UsageHistory parse_usage(std::string_view text, const std::string& origin, std::optional<UsageUnit> unit) {
    std::size_t first = 0;
    while (first < text.size() && std::isspace(static_cast<unsigned char>(text[first]))) ++first;
    if (first < text.size() && text[first] == '{') {
        const nlohmann::json doc = parse_json_refusing_duplicate_keys(text, origin);
        if (doc.is_discarded()) throw InputError(origin, "text that starts like JSON but does not parse", "a complete JSON document (an AWS CLI output) or a CSV");
        if (doc.contains("MetricDataResults")) return parse_cloudwatch_data(doc, origin, unit);
        if (doc.contains("Datapoints")) return parse_cloudwatch_statistics(doc, origin, unit);
        if (doc.contains("ResultsByTime")) return parse_cost_explorer(doc, origin, unit);
        throw InputError(origin, "a JSON document without MetricDataResults, Datapoints or ResultsByTime",
                         "the output of aws cloudwatch get-metric-data, get-metric-statistics or aws ce get-cost-and-usage");
    }
    const std::size_t eol = text.find('\n', first);
    const std::string_view head = text.substr(first, eol == std::string_view::npos ? std::string_view::npos : eol - first);
    if (head.find('|') != std::string_view::npos) return parse_sacct(text, origin, unit);
    UsageHistory h = parse_usage_csv(text, origin);
    require_unit(unit, h.unit, origin, "the CSV header says so");
    return h;
}

UsageHistory counted_in_gpus(const UsageHistory& history, double gpus_per_instance) {
    if (history.unit == UsageUnit::gpus) return history;
    if (history.unit != UsageUnit::instances)
        throw InputError(history.origin, "a history of " + std::string(unit_name(history.unit)), "a history of GPUs or instances in use");
    if (!(gpus_per_instance > 0)) throw InputError("GPUs per instance", format_number(gpus_per_instance), "a number > 0");
    UsageHistory h = history;
    h.unit = UsageUnit::gpus;
    for (auto& s : h.samples) s.in_use *= gpus_per_instance;
    h.notes.push_back("instances x " + format_number(gpus_per_instance) + " GPUs per instance = GPUs in use");
    return h;
}

}  // namespace gpuplan
