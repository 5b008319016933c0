// cross_validation.hpp — how well the calibrated defaults predict measurements they were not
// fitted on: leave-one-source-out cross-validation of the validation corpus.
//
// In-sample accuracy (validation.hpp) uses the shipped defaults, some fitted on records of the
// corpus itself. Here each source (a publisher: a GitHub repository or a web site) is left out
// in turn; every calibrated default its records depend on (calibrated_defaults.hpp) is refitted
// on the other sources' records alone, and the left-out records are predicted with the refits.
// The gap between the two figures is what fitting to the corpus bought, and the left-out figure
// is the honest estimate of accuracy on a user's setup, which is never in the corpus.
//
// A refit minimises the sum of squared log(predicted / measured) over the records that depend
// on the default (found by moving it and watching the prediction), by golden-section search
// over the default's range; the defaults are refitted one after another in
// kCalibratedDefaults order, each with the earlier refits in force. A default with no record
// left to fit on falls back to its prior (the uncalibrated value).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/calibrated_defaults.hpp"
#include "gpuplan/validation/validation.hpp"

namespace gpuplan {

// The independent source a record comes from: "github.com/owner/repo" for a GitHub address,
// else the web site's host ("docs.nvidia.com").
std::string source_key(const ValidationRecord& record);

struct Refit {
    CalibratedDefault which;
    double value = 0;
    int records = 0;   // records it was fitted on (0: the prior)
    int sources = 0;   // their sources
};

struct SourceLeftOut {
    std::string source;
    std::vector<std::string> record_ids;
    std::vector<Refit> refits;  // only the defaults its records depend on
};

struct CrossValidation {
    std::vector<ValidationResult> in_sample;  // with the shipped defaults, in record order
    std::vector<ValidationResult> left_out;   // each record predicted without its source, same order
    std::vector<SourceLeftOut> sources;
};

CrossValidation cross_validate(const std::vector<ValidationRecord>& records, const Catalog& catalog);

// Per category (nullopt: all together), every case of both splits: median and worst
// |ratio - 1| in sample and with the source left out.
struct CrossValidatedSummary {
    std::optional<ValidationCategory> category;
    int cases = 0;
    double in_sample_median = 0, in_sample_worst = 0;
    double left_out_median = 0, left_out_worst = 0;
    std::string left_out_worst_id;
};
std::vector<CrossValidatedSummary> summarize_cross_validation(const CrossValidation& cv);

nlohmann::json to_json(const CrossValidation& cv);

}  // namespace gpuplan
