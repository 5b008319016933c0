#include "gpuplan/validation/cross_validation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <set>

#include "gpuplan/input_error.hpp"

namespace gpuplan {

namespace {

constexpr std::size_t kDefaults = std::size(kCalibratedDefaults);
using Values = std::vector<std::optional<double>>;  // per CalibratedDefault, a refit or nothing

// The record's prediction with `values` in force; nullopt when the setup gives no number there.
std::optional<double> predict_with(const ValidationRecord& record, const Catalog& catalog, const Values& values) {
    std::vector<std::unique_ptr<ScopedRefit>> scopes;
    for (std::size_t k = 0; k < kDefaults; ++k)
        if (values[k]) scopes.push_back(std::make_unique<ScopedRefit>(static_cast<CalibratedDefault>(k), *values[k]));
    try {
        return predicted_value(record, catalog);
    } catch (const InputError&) {
        return std::nullopt;
    }
}

// Which defaults each record's prediction moves with: each default moved by a tenth of its
// range, the rest as shipped.
std::vector<std::vector<bool>> dependencies(const std::vector<ValidationRecord>& records, const Catalog& catalog,
                                            const std::vector<ValidationResult>& in_sample) {
    std::vector<std::vector<bool>> depends(records.size(), std::vector<bool>(kDefaults, false));
    for (std::size_t k = 0; k < kDefaults; ++k) {
        const CalibratedDefaultInfo& info = calibrated_default_info(static_cast<CalibratedDefault>(k));
        Values moved(kDefaults);
        moved[k] = info.shipped + 0.1 * (info.high - info.low) * (info.shipped + 0.1 * (info.high - info.low) <= info.high ? 1 : -1);
        for (std::size_t r = 0; r < records.size(); ++r) {
            const std::optional<double> p = predict_with(records[r], catalog, moved);
            depends[r][k] = !p || std::abs(*p - in_sample[r].predicted) > 1e-9 * std::abs(in_sample[r].predicted);
        }
    }
    return depends;
}

// Sum of squared log(predicted / measured) over `fit`, with `values` and the candidate in force.
double misfit(const std::vector<const ValidationRecord*>& fit, const Catalog& catalog, Values values, std::size_t which, double candidate) {
    values[which] = candidate;
    double sum = 0;
    for (const ValidationRecord* r : fit) {
        const std::optional<double> p = predict_with(*r, catalog, values);
        if (!p || !(*p > 0)) return std::numeric_limits<double>::infinity();
        const double e = std::log(*p / r->measured);
        sum += e * e;
    }
    return sum;
}

// Golden-section search of the default's range, to a thousandth of it.
double refit(const std::vector<const ValidationRecord*>& fit, const Catalog& catalog, const Values& values, std::size_t which) {
    const CalibratedDefaultInfo& info = calibrated_default_info(static_cast<CalibratedDefault>(which));
    const double g = (std::sqrt(5.0) - 1) / 2;
    double a = info.low, b = info.high;
    double c = b - g * (b - a), d = a + g * (b - a);
    double fc = misfit(fit, catalog, values, which, c), fd = misfit(fit, catalog, values, which, d);
    while (b - a > 1e-3 * (info.high - info.low)) {
        if (fc <= fd) {
            b = d, d = c, fd = fc;
            c = b - g * (b - a);
            fc = misfit(fit, catalog, values, which, c);
        } else {
            a = c, c = d, fc = fd;
            d = a + g * (b - a);
            fd = misfit(fit, catalog, values, which, d);
        }
    }
    return (a + b) / 2;
}

SourceLeftOut leave_out(const std::string& source, const std::vector<ValidationRecord>& records, const Catalog& catalog,
                        const std::vector<std::vector<bool>>& depends, Values& values) {
    SourceLeftOut out{source, {}, {}};
    std::vector<bool> needed(kDefaults, false);
    for (std::size_t r = 0; r < records.size(); ++r) {
        if (source_key(records[r]) != source) continue;
        out.record_ids.push_back(records[r].id);
        for (std::size_t k = 0; k < kDefaults; ++k) needed[k] = needed[k] || depends[r][k];
    }
    for (CalibratedDefault which : kCalibratedDefaults) {
        const std::size_t k = static_cast<std::size_t>(which);
        if (!needed[k]) continue;
        std::vector<const ValidationRecord*> fit;
        std::set<std::string> fit_sources;
        for (std::size_t r = 0; r < records.size(); ++r)
            if (depends[r][k] && source_key(records[r]) != source) fit.push_back(&records[r]), fit_sources.insert(source_key(records[r]));
        values[k] = fit.empty() ? calibrated_default_info(which).prior : refit(fit, catalog, values, k);
        out.refits.push_back({which, *values[k], static_cast<int>(fit.size()), static_cast<int>(fit_sources.size())});
    }
    return out;
}

void add_summary(std::vector<CrossValidatedSummary>& out, std::optional<ValidationCategory> category, const CrossValidation& cv) {
    CrossValidatedSummary s{category, 0, 0, 0, 0, 0, ""};
    std::vector<double> in, left;
    for (std::size_t r = 0; r < cv.in_sample.size(); ++r) {
        if (category && cv.in_sample[r].record->category != *category) continue;
        in.push_back(std::abs(cv.in_sample[r].ratio() - 1));
        left.push_back(std::abs(cv.left_out[r].ratio() - 1));
        s.in_sample_worst = std::max(s.in_sample_worst, in.back());
        if (left.back() >= s.left_out_worst) s.left_out_worst = left.back(), s.left_out_worst_id = cv.left_out[r].record->id;
    }
    if (in.empty()) return;
    s.cases = static_cast<int>(in.size());
    s.in_sample_median = median_of(in);
    s.left_out_median = median_of(left);
    out.push_back(s);
}

}  // namespace

std::string source_key(const ValidationRecord& record) {
    std::string url = record.source.url;
    const auto scheme = url.find("://");
    if (scheme != std::string::npos) url = url.substr(scheme + 3);
    const auto host_end = url.find('/');
    const std::string host = url.substr(0, host_end);
    if (host != "github.com" || host_end == std::string::npos) return host;
    // github.com/owner/repo
    const auto owner_end = url.find('/', host_end + 1);
    if (owner_end == std::string::npos) return url;
    return url.substr(0, url.find('/', owner_end + 1));
}

CrossValidation cross_validate(const std::vector<ValidationRecord>& records, const Catalog& catalog) {
    CrossValidation cv;
    cv.in_sample = run_validation(records, catalog);
    const auto depends = dependencies(records, catalog, cv.in_sample);
    std::vector<std::string> sources;
    for (const ValidationRecord& r : records)
        if (std::find(sources.begin(), sources.end(), source_key(r)) == sources.end()) sources.push_back(source_key(r));
    cv.left_out = cv.in_sample;
    for (const std::string& source : sources) {
        Values values(kDefaults);
        cv.sources.push_back(leave_out(source, records, catalog, depends, values));
        std::vector<std::unique_ptr<ScopedRefit>> scopes;
        for (std::size_t k = 0; k < kDefaults; ++k)
            if (values[k]) scopes.push_back(std::make_unique<ScopedRefit>(static_cast<CalibratedDefault>(k), *values[k]));
        for (std::size_t r = 0; r < records.size(); ++r)
            if (source_key(records[r]) == source) cv.left_out[r] = predict_record(records[r], catalog);
    }
    return cv;
}

std::vector<CrossValidatedSummary> summarize_cross_validation(const CrossValidation& cv) {
    std::vector<CrossValidatedSummary> out;
    for (ValidationCategory c : kValidationCategories) add_summary(out, c, cv);
    add_summary(out, std::nullopt, cv);
    return out;
}

nlohmann::json to_json(const CrossValidation& cv) {
    nlohmann::json cases = nlohmann::json::array(), sources = nlohmann::json::array(), summary = nlohmann::json::array();
    for (std::size_t r = 0; r < cv.in_sample.size(); ++r)
        cases.push_back({{"id", cv.in_sample[r].record->id}, {"source", source_key(*cv.in_sample[r].record)},
                         {"in_sample_ratio", cv.in_sample[r].ratio()}, {"left_out_predicted", cv.left_out[r].predicted},
                         {"left_out_ratio", cv.left_out[r].ratio()}});
    for (const SourceLeftOut& s : cv.sources) {
        nlohmann::json refits = nlohmann::json::array();
        for (const Refit& f : s.refits)
            refits.push_back({{"default", std::string(calibrated_default_info(f.which).words)}, {"value", f.value},
                              {"shipped", calibrated_default_info(f.which).shipped}, {"fitted_on_records", f.records}, {"fitted_on_sources", f.sources}});
        sources.push_back({{"source", s.source}, {"records", s.record_ids}, {"refits", refits}});
    }
    for (const CrossValidatedSummary& s : summarize_cross_validation(cv))
        summary.push_back({{"category", s.category ? nlohmann::json(to_string(*s.category)) : nlohmann::json("all")}, {"cases", s.cases},
                           {"in_sample_median_abs_error", s.in_sample_median}, {"in_sample_worst_abs_error", s.in_sample_worst},
                           {"left_out_median_abs_error", s.left_out_median}, {"left_out_worst_abs_error", s.left_out_worst},
                           {"left_out_worst_id", s.left_out_worst_id}});
    return {{"method", "leave one source out: each calibrated default its records depend on refitted on the other sources"},
            {"summary", summary}, {"sources", sources}, {"cases", cases}};
}

}  // namespace gpuplan
