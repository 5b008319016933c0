// validation.hpp — the planner's predictions against published measurements.
//
// A validation record (schema gpuplan.validation/1, assets/validation/*.json, docs/accuracy.md)
// is one published measurement: where it was published, the setup as a gpuplan scenario, the
// result figure that predicts it (a JSON pointer into the scenario's result, gpuplan.result/1),
// the measured value and unit, and what the source leaves unstated. Each record says whether
// it is a calibration case (defaults may be fitted on it) or a validation case (never used to
// fit anything), so the two are reported apart and overfitting shows.
//
// run_validation evaluates each record's scenario with evaluate_scenario, the same path as
// `gpuplan eval` and the browser app: a record checks the figure users see, not a copy of it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/scenario/scenario.hpp"

namespace gpuplan {

inline constexpr std::string_view kValidationSchema = "gpuplan.validation/1";

// What kind of prediction a record checks; the accuracy page has one table per category.
enum class ValidationCategory {
    decode_latency,        // inter-token latency of one sequence
    decode_throughput,     // output tokens/s of an instance
    time_to_first_token,
    training_throughput,   // tokens/s per GPU
    collective_bandwidth,  // nccl-tests bus bandwidth
    memory,                // peak memory, KV-cache bytes
};
inline constexpr ValidationCategory kValidationCategories[] = {
    ValidationCategory::decode_latency, ValidationCategory::decode_throughput, ValidationCategory::time_to_first_token,
    ValidationCategory::training_throughput, ValidationCategory::collective_bandwidth, ValidationCategory::memory};
std::string_view to_string(ValidationCategory category);  // "decode_latency" (JSON, --category)
std::string_view category_words(ValidationCategory category);  // "Decode latency" (tables, UI)
std::optional<ValidationCategory> parse_validation_category(std::string_view text);

enum class ValidationSplit { calibration, validation };
std::string_view to_string(ValidationSplit split);

struct ValidationSource {
    std::string citation;  // "pytorch/torchtitan docs/performance.md"
    std::string url;       // where a reader checks it (repo path at a commit, issue, docs page)
    std::string date;      // "2024-10" (when it was published)
    std::string location;  // the table, row and column the figure is in
};

struct ValidationRecord {
    std::string id;         // "V-T1"
    std::string title;      // one line: the setup in words
    ValidationCategory category = ValidationCategory::training_throughput;
    ValidationSplit split = ValidationSplit::validation;
    ValidationSource source;
    Scenario scenario;        // gpuplan.scenario/1, parsed against the catalog when loaded
    std::string figure;       // JSON pointer into the result, to a figure: "/train/figures/tokens_per_second_per_gpu"
    double measured = 0;
    std::string unit;         // the measured unit: one of kValidationUnits
    std::vector<std::string> unstated;  // what the source does not say, and what was assumed
    std::string known_gap;    // why the model misses this case, when it does (shown on the page)
    std::string origin;       // "assets/validation/inference.json: $.records[3]"
};

// Units a measurement may be given in, each with the result unit it converts from.
struct ValidationUnit {
    std::string_view unit, result_unit;
    double scale;  // measured-unit value = result value x scale
};
inline constexpr ValidationUnit kValidationUnits[] = {
    {"ms", "s", 1000.0},       {"s", "s", 1.0},
    {"tokens/s", "tokens/s", 1.0},
    {"GB/s", "GB/s", 1.0},
    {"GiB", "GB", 1.0 / 1.073741824}, {"GB", "GB", 1.0},
    {"bytes", "bytes", 1.0},
};

// Parses record documents (gpuplan.validation/1). Every record is checked as it loads: an
// unknown category or unit, a missing source or figure, a scenario the parser refuses (an
// unknown model or instance) is an InputError naming the document, the record id and the
// JSON path. Ids must be unique across documents.
// The records' scenarios point into `catalog`, which must outlive them.
std::vector<ValidationRecord> load_validation_records(const std::vector<CatalogDocument>& documents, const Catalog& catalog);
const std::vector<CatalogDocument>& builtin_validation_documents();  // assets/validation/*.json

struct ValidationResult {
    const ValidationRecord* record = nullptr;
    double predicted = 0;             // in the record's unit
    nlohmann::json figure;            // the result figure as evaluate_scenario wrote it (its explanation)
    double ratio() const { return predicted / record->measured; }
};

// Evaluates each record's scenario and reads its figure. Every record must give a number: a
// pointer that names no figure, a scenario that does not fit, a figure that is unknown, or a
// figure whose unit does not convert to the record's is an InputError naming the record.
std::vector<ValidationResult> run_validation(const std::vector<ValidationRecord>& records, const Catalog& catalog);
ValidationResult predict_record(const ValidationRecord& record, const Catalog& catalog);  // one record, as run_validation
// Its predicted value alone, read from the typed result where the pointer allows (no JSON
// written): the same number, several times faster, for cross-validation's many refits.
double predicted_value(const ValidationRecord& record, const Catalog& catalog);
double median_of(std::vector<double> values);  // of a non-empty list

// Per category and split: how far predictions are from measurements.
struct AccuracySummary {
    std::optional<ValidationCategory> category;  // nullopt: every category together
    ValidationSplit split = ValidationSplit::validation;
    int cases = 0;
    double median_abs_error = 0;  // median |ratio - 1| over predicted cases
    double worst_abs_error = 0;
    std::string worst_id;
};
// Categories with no case of a split are left out; summarize_overall gives one summary per
// split over every category (category nullopt).
std::vector<AccuracySummary> summarize_accuracy(const std::vector<ValidationResult>& results);
std::vector<AccuracySummary> summarize_overall(const std::vector<ValidationResult>& results);

// One line for a view or CLI output next to a prediction of that kind: "Decode latency
// predictions were within 18% (median) of 6 published validation measurements; worst 45%".
std::string accuracy_sentence(ValidationCategory category, const std::vector<AccuracySummary>& summaries);

// The built-in corpus's summaries, computed once on first use against `catalog` (the shells'
// views show accuracy_sentence next to a prediction). The corpus runs in ~0.1 s natively.
const std::vector<AccuracySummary>& builtin_accuracy(const Catalog& catalog);

nlohmann::json to_json(const ValidationResult& result);
nlohmann::json to_json(const AccuracySummary& summary);

}  // namespace gpuplan
