// validate_cmd.cpp — `gpuplan validate`: every published measurement of the validation corpus
// (assets/validation/, core/gpuplan/validation/validation.hpp) run through the planner, with
// predicted, measured and their ratio per case and, per category, the median and worst
// |ratio - 1|, calibration and validation cases apart.
//
// `--cross-validate` also leaves each source out in turn (validation/cross_validation.hpp).
// `--cross-validate --format md` writes docs/accuracy.md whole (scripts/gen_docs.py keeps the
// committed page equal to it; tests/docs checks). The page is deterministic: no timings, no dates.
#include <algorithm>
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "gpuplan/validation/cross_validation.hpp"
#include "gpuplan/validation/validation.hpp"

namespace gpuplan::cli {

namespace {

struct ValidateOptions {
    std::vector<std::string> files;
    std::vector<std::string> categories;
    std::string split = "both";
    Format format = Format::table;
    bool cross_validate = false;
};

std::string pct(double fraction) { return format_number(std::round(1000 * fraction) / 10) + "%"; }
std::string ratio_text(double r) { return fmt::format("{:.2f}", r); }
std::string value_text(double v, const std::string& unit) {
    const double digits = v >= 100 ? 0 : v >= 10 ? 1 : v >= 1 ? 2 : 3;
    return fmt::format("{:.{}f} {}", v, static_cast<int>(digits), unit);
}
// Markdown cells must not break the table.
std::string md_cell(std::string s) {
    std::replace(s.begin(), s.end(), '|', '/');
    std::replace(s.begin(), s.end(), '\n', ' ');
    return s;
}

// `left_out`: each row's prediction with its source left out (--cross-validate), or empty.
Table case_table(const std::vector<const ValidationResult*>& rows, bool with_category, const std::vector<const ValidationResult*>& left_out = {}) {
    Table t;
    t.columns = {{"Case", "id", false}};
    if (with_category) t.columns.push_back({"Category", "category", false});
    t.columns.insert(t.columns.end(), {{"Split", "split", false}, {"Setup", "title", false}, {"Measured", "measured"}, {"Predicted", "predicted"},
                                       {"Predicted / measured", "ratio"}});
    if (!left_out.empty()) t.columns.push_back({"Source left out: predicted / measured", "left_out_ratio"});
    t.columns.push_back({"Source", "source", false});
    for (const ValidationResult* r : rows) {
        const ValidationRecord& v = *r->record;
        std::vector<Cell> row = {text_cell(v.id)};
        if (with_category) row.push_back(text_cell(std::string(category_words(v.category))));
        row.insert(row.end(), {text_cell(std::string(to_string(v.split))), text_cell(v.title),
                               {value_text(v.measured, v.unit), full_precision(v.measured)},
                               {value_text(r->predicted, v.unit), full_precision(r->predicted)},
                               {ratio_text(r->ratio()), full_precision(r->ratio())}});
        if (!left_out.empty()) {
            const double lr = left_out[t.rows.size()]->ratio();
            row.push_back({ratio_text(lr), full_precision(lr)});
        }
        row.push_back(text_cell(v.source.citation));
        t.rows.push_back(std::move(row));
    }
    return t;
}

Table summary_table_of(const std::vector<AccuracySummary>& per_category, const std::vector<AccuracySummary>& overall) {
    Table t;
    t.columns = {{"Category", "category", false}, {"Split", "split", false}, {"Cases", "cases"}, {"Median |ratio - 1|", "median_abs_error"},
                 {"Worst |ratio - 1|", "worst_abs_error"}, {"Worst case", "worst_id", false}};
    const auto add = [&](const AccuracySummary& a) {
        t.rows.push_back({text_cell(a.category ? std::string(category_words(*a.category)) : "All categories"), text_cell(std::string(to_string(a.split))),
                          text_cell(std::to_string(a.cases)), {pct(a.median_abs_error), full_precision(a.median_abs_error)},
                          {pct(a.worst_abs_error), full_precision(a.worst_abs_error)}, text_cell(a.worst_id)});
    };
    for (const auto& a : per_category) add(a);
    for (const auto& a : overall) add(a);
    return t;
}

Table cross_validated_table(const CrossValidation& cv) {
    Table t;
    t.columns = {{"Category", "category", false},     {"Cases", "cases"},
                 {"In sample: median", "in_sample_median_abs_error"}, {"In sample: worst", "in_sample_worst_abs_error"},
                 {"Source left out: median", "left_out_median_abs_error"}, {"Source left out: worst", "left_out_worst_abs_error"},
                 {"Worst case left out", "left_out_worst_id", false}};
    for (const CrossValidatedSummary& s : summarize_cross_validation(cv))
        t.rows.push_back({text_cell(s.category ? std::string(category_words(*s.category)) : "All categories"), text_cell(std::to_string(s.cases)),
                          {pct(s.in_sample_median), full_precision(s.in_sample_median)}, {pct(s.in_sample_worst), full_precision(s.in_sample_worst)},
                          {pct(s.left_out_median), full_precision(s.left_out_median)}, {pct(s.left_out_worst), full_precision(s.left_out_worst)},
                          text_cell(s.left_out_worst_id)});
    return t;
}

// What each left-out source's records were predicted with: the defaults refitted without it.
Table refit_table(const CrossValidation& cv) {
    Table t;
    t.columns = {{"Source left out", "source", false}, {"Cases", "cases"}, {"Defaults refitted on the other sources (shipped value)", "refits", false}};
    for (const SourceLeftOut& s : cv.sources) {
        std::vector<std::string> parts;
        for (const Refit& f : s.refits) {
            const CalibratedDefaultInfo& info = calibrated_default_info(f.which);
            parts.push_back(std::string(info.words) + " " + format_number(std::round(f.value * 1e4) / 1e4) + " (" + format_number(info.shipped) + "), " +
                            (f.records == 0 ? "no other record: the prior" : "from " + std::to_string(f.records) + " record" + (f.records == 1 ? "" : "s") +
                                                                                 " of " + std::to_string(f.sources) + " source" + (f.sources == 1 ? "" : "s")));
        }
        t.rows.push_back({text_cell(s.source), text_cell(std::to_string(s.record_ids.size())), text_cell(parts.empty() ? "none: no calibrated default moves its predictions" : join(parts, "; "))});
    }
    return t;
}

const char* kCrossValidationWords =
    "Each source (a publisher: a GitHub repository or a web site) is left out in turn. Every calibrated default its cases depend on "
    "(the decode step overhead, the training efficiencies, the EFA efficiency) is refitted on the other sources' cases alone, "
    "minimising the squared log of predicted / measured, and the left-out cases are predicted with the refits. A default with no "
    "other case to fit on falls back to its uncalibrated value. In-sample figures use the shipped defaults, which were fitted on "
    "some of these cases; the left-out figure is the honest estimate for a setup that is in no corpus.";

// docs/accuracy.md: the summary, then per category a table with each case linked to its
// source, then the cases outside ±25% with the reason written in their record.
std::string accuracy_page(const std::vector<ValidationResult>& results, const CrossValidation* cv) {
    std::string s = std::string("<!-- generated by `gpuplan validate ") + (cv ? "--cross-validate " : "") +
                    "--format md` (scripts/gen_docs.py): do not edit by hand -->\n\n# Accuracy\n\n";
    s += "Every prediction kind the planner makes, checked against published measurements. Each case is a record in "
         "`assets/validation/` (schema `gpuplan.validation/1`): its source, the setup as a gpuplan scenario, the measured figure, "
         "and what the source leaves unstated. `gpuplan validate` runs them all through the same code as `gpuplan eval` and the "
         "browser app; this page is its output, and a test fails when the page is stale.\n\n";
    s += "**Calibration** cases are the only ones defaults may be fitted on; **validation** cases are never used to fit anything. "
         "They are reported apart, so a model tuned to its calibration cases shows as a gap between the two.\n\n";
    s += "Some public sources are kept apart for independent checks of the planner and are never read here: MLPerf results and "
         "submissions, Red Hat blog posts, LMDeploy's docs, the Hugging Face blog, OLMo-core, IBM fms-fsdp, torchtune, "
         "stas00/ml-engineering, SkyPilot's docs, the vLLM sweeps on yobitelcomm.github.io and johnmusgrave.com, and "
         "crazyguitar/aws-gpu-communication-benchmark. `gpuplan validate` refuses a record whose address is one of them.\n\n";
    s += "## Summary\n\n" + render_markdown_table(summary_table_of(summarize_accuracy(results), summarize_overall(results))) + "\n";
    if (cv) {
        s += "## Leaving each source out (cross-validation)\n\n" + std::string(kCrossValidationWords) + " (`gpuplan validate --cross-validate`)\n\n";
        s += render_markdown_table(cross_validated_table(*cv)) + "\n";
        s += "What each source's cases were predicted with:\n\n" + render_markdown_table(refit_table(*cv)) + "\n";
    }
    for (ValidationCategory c : kValidationCategories) {
        std::vector<const ValidationResult*> rows;
        for (const auto& r : results)
            if (r.record->category == c) rows.push_back(&r);
        if (rows.empty()) continue;
        s += "## " + std::string(category_words(c)) + "\n\n";
        s += cv ? "| Case | Split | Setup | Measured | Predicted | Predicted / measured | Source left out | Source |\n|---|---|---|---|---|---|---|---|\n"
                : "| Case | Split | Setup | Measured | Predicted | Predicted / measured | Source |\n|---|---|---|---|---|---|---|\n";
        for (const ValidationResult* r : rows) {
            const ValidationRecord& v = *r->record;
            s += "| " + v.id + " | " + std::string(to_string(v.split)) + " | " + md_cell(v.title) + " | " + value_text(v.measured, v.unit) + " | " +
                 value_text(r->predicted, v.unit) + " | " + ratio_text(r->ratio()) + " | ";
            if (cv) s += ratio_text(cv->left_out[static_cast<std::size_t>(r - results.data())].ratio()) + " | ";
            s += "[" + md_cell(v.source.citation) + "](" + v.source.url + ") (" + v.source.date + "; " + md_cell(v.source.location) + ") |\n";
        }
        s += "\n";
    }
    s += "## The largest misses\n\nCases more than 25% off, with what the model lacks for them (each record's `known_gap`).\n\n";
    int misses = 0;
    for (const auto& r : results) {
        if (std::abs(r.ratio() - 1) <= 0.25) continue;
        ++misses;
        s += "- **" + r.record->id + "** (" + std::string(category_words(r.record->category)) + ", " + ratio_text(r.ratio()) + "x): " +
             (r.record->known_gap.empty() ? "no reason written yet." : r.record->known_gap) + "\n";
    }
    if (misses == 0) s += "None.\n";
    s += "\n## What each source leaves unstated\n\n";
    for (const auto& r : results) {
        if (r.record->unstated.empty()) continue;
        s += "- **" + r.record->id + "**: " + join(r.record->unstated, "; ") + "\n";
    }
    return s;
}

std::string run_validate(const ValidateOptions& o, const Catalog& catalog) {
    std::vector<CatalogDocument> docs;
    if (o.files.empty())
        docs = builtin_validation_documents();
    else
        for (const auto& f : o.files) docs.push_back({f, read_input_file(f, "RECORDS")});
    const std::vector<ValidationRecord> all = load_validation_records(docs, catalog);
    std::vector<ValidationRecord> chosen;
    for (const auto& v : all) {
        const bool category_ok = o.categories.empty() || std::find(o.categories.begin(), o.categories.end(), to_string(v.category)) != o.categories.end();
        const bool split_ok = o.split == "both" || o.split == to_string(v.split);
        if (category_ok && split_ok) chosen.push_back(v);
    }
    std::optional<CrossValidation> cv;
    if (o.cross_validate) cv = cross_validate(chosen, catalog);
    const std::vector<ValidationResult> results = cv ? cv->in_sample : run_validation(chosen, catalog);
    const auto per_category = summarize_accuracy(results);
    const auto overall = summarize_overall(results);
    if (o.format == Format::json) {
        nlohmann::json j = {{"schema", "gpuplan.accuracy/1"}, {"cases", nlohmann::json::array()}, {"summary", nlohmann::json::array()}};
        for (const auto& r : results) j["cases"].push_back(to_json(r));
        for (const auto& a : per_category) j["summary"].push_back(to_json(a));
        for (const auto& a : overall) j["summary"].push_back(to_json(a));
        if (cv) j["cross_validation"] = to_json(*cv);
        return dump_json(j);
    }
    if (o.format == Format::md) return accuracy_page(results, cv ? &*cv : nullptr);
    std::vector<const ValidationResult*> rows, left_out;
    for (const auto& r : results) rows.push_back(&r);
    if (cv)
        for (const auto& r : cv->left_out) left_out.push_back(&r);
    if (o.format == Format::csv) return render_csv(case_table(rows, true, left_out));
    std::string s = render_text_table(case_table(rows, true, left_out));
    s += "\n" + render_text_table(summary_table_of(per_category, overall));
    if (cv) {
        s += "\nLeaving each source out (cross-validation), every case of both splits:\n" + render_text_table(cross_validated_table(*cv));
        s += "\n" + render_text_table(refit_table(*cv));
        s += "\n" + std::string(kCrossValidationWords) + "\n";
    }
    s += "\nRatio = predicted / measured (above 1: the planner predicts more than was measured). " + std::to_string(results.size()) +
         " case" + (results.size() == 1 ? "" : "s") + "; sources and what each leaves unstated: --format json, or docs/accuracy.md.\n";
    return s;
}

}  // namespace

Command register_validate(CLI::App& parent) {
    auto o = std::make_shared<ValidateOptions>();
    CLI::App* app = parent.add_subcommand("validate", "Check the planner's predictions against published measurements (the validation corpus)");
    app->add_option("RECORDS", o->files, "Validation record files (gpuplan.validation/1) to run instead of the built-in corpus (assets/validation/)")
        ->type_name("FILE");
    std::vector<std::string> names;
    for (ValidationCategory c : kValidationCategories) names.emplace_back(to_string(c));
    app->add_option("--category", o->categories, "Only these categories (repeatable): " + join(names, ", "))
        ->type_name("NAME")
        ->transform(choice_rule(names));
    app->add_option("--split", o->split, "calibration (defaults may be fitted on them), validation (never fitted), or both")
        ->capture_default_str()
        ->transform(choice_rule({"both", "calibration", "validation"}));
    app->add_flag("--cross-validate", o->cross_validate,
                  "Also leave each source out in turn: refit the calibrated defaults on the other sources and predict its cases with them "
                  "(the accuracy to expect on a setup in no corpus)");
    add_format_option(*app, o->format, {Format::table, Format::json, Format::csv, Format::md});
    app->footer(R"(Each case: the published figure, the planner's prediction for the same setup (its scenario runs
as `gpuplan eval` runs it), and predicted / measured. Per category and split: the median and
the worst |ratio - 1|. --format md writes the whole accuracy page (docs/accuracy.md).
Examples:
  gpuplan validate
  gpuplan validate --category training_throughput --split validation
  gpuplan validate --cross-validate
  gpuplan validate my-measurements.json --format json
)");
    return {app, [o](const Catalog& catalog) { return run_validate(*o, catalog); }};
}

}  // namespace gpuplan::cli
