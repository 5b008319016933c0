// validation.cpp — loading validation records, running them, summarising (validation.hpp).
#include "gpuplan/validation/validation.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include "gpuplan/input_error.hpp"
#include "gpuplan/json_reader.hpp"
#include "gpuplan/scenario/scenario_result.hpp"
#include "gpuplan/text.hpp"

namespace gpuplan {

std::string_view to_string(ValidationCategory c) {
    switch (c) {
        case ValidationCategory::decode_latency: return "decode_latency";
        case ValidationCategory::decode_throughput: return "decode_throughput";
        case ValidationCategory::time_to_first_token: return "time_to_first_token";
        case ValidationCategory::training_throughput: return "training_throughput";
        case ValidationCategory::collective_bandwidth: return "collective_bandwidth";
        case ValidationCategory::memory: return "memory";
    }
    return "?";
}

std::string_view category_words(ValidationCategory c) {
    switch (c) {
        case ValidationCategory::decode_latency: return "Decode latency";
        case ValidationCategory::decode_throughput: return "Serving throughput";
        case ValidationCategory::time_to_first_token: return "Time to first token";
        case ValidationCategory::training_throughput: return "Training throughput";
        case ValidationCategory::collective_bandwidth: return "Collective bandwidth";
        case ValidationCategory::memory: return "Memory";
    }
    return "?";
}

std::optional<ValidationCategory> parse_validation_category(std::string_view text) {
    for (ValidationCategory c : kValidationCategories)
        if (to_string(c) == text) return c;
    return std::nullopt;
}

std::string_view to_string(ValidationSplit s) { return s == ValidationSplit::calibration ? "calibration" : "validation"; }

namespace {

std::string category_list() {
    std::string s;
    for (ValidationCategory c : kValidationCategories) s += (s.empty() ? "" : ", ") + std::string(to_string(c));
    return s;
}

std::string unit_list() {
    std::string s;
    for (const ValidationUnit& u : kValidationUnits) s += (s.empty() ? "" : ", ") + std::string(u.unit);
    return s;
}

// Sources kept apart for independent checks of the planner (issue 29): a record from one of
// them would turn that check into a fitted case, so none is read. Matched in the lower-cased
// address.
struct KeptApart {
    const char* address_part;
    const char* name;
};
constexpr KeptApart kKeptApart[] = {
    {"mlcommons.org", "MLPerf results and submissions"},
    {"github.com/mlcommons/", "MLPerf results and submissions"},
    {"redhat.com", "Red Hat blog posts"},
    {"lmdeploy.readthedocs.io", "LMDeploy's docs"},
    {"github.com/internlm/lmdeploy/blob/main/docs", "LMDeploy's docs"},
    {"huggingface.co/blog", "the Hugging Face blog"},
    {"github.com/huggingface/blog", "the Hugging Face blog"},
    {"olmo-core", "OLMo-core"},
    {"github.com/foundation-model-stack/fms-fsdp", "IBM fms-fsdp"},
    {"torchtune", "torchtune"},
    {"github.com/stas00/ml-engineering", "stas00/ml-engineering"},
    {"docs.skypilot.co", "SkyPilot's docs"},
    {"skypilot.readthedocs.io", "SkyPilot's docs"},
    {"github.com/skypilot-org/skypilot/blob/master/docs", "SkyPilot's docs"},
    {"yobitelcomm.github.io", "the vLLM sweeps on yobitelcomm.github.io"},
    {"johnmusgrave.com", "the vLLM sweeps on johnmusgrave.com"},
    {"github.com/crazyguitar/aws-gpu-communication-benchmark", "crazyguitar/aws-gpu-communication-benchmark"},
};

const char* kept_apart(std::string url) {
    std::transform(url.begin(), url.end(), url.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const KeptApart& k : kKeptApart)
        if (url.find(k.address_part) != std::string::npos) return k.name;
    return nullptr;
}

ValidationRecord parse_record(const Json& j, const std::string& path, const std::string& origin, const Catalog& catalog) {
    ObjectReader r(j, path);
    ValidationRecord v;
    v.origin = path;
    v.id = r.string("id");
    v.title = r.string("title");
    const std::string category = r.string("category");
    const auto c = parse_validation_category(category);
    if (!c) throw InputError(r.child_path("category") + " (record " + v.id + ")", "\"" + category + "\"", "one of: " + category_list());
    v.category = *c;
    const std::string split = r.string("split");
    if (split != "calibration" && split != "validation")
        throw InputError(r.child_path("split") + " (record " + v.id + ")", "\"" + split + "\"",
                         "\"calibration\" (defaults may be fitted on it) or \"validation\" (never used to fit)");
    v.split = split == "calibration" ? ValidationSplit::calibration : ValidationSplit::validation;
    {
        if (!r.has("source")) throw InputError(r.child_path("source") + " (record " + v.id + ")", "nothing", "the source: citation, url, date, location");
        ObjectReader s = r.object("source");
        v.source.citation = s.string("citation");
        v.source.url = s.string("url");
        v.source.date = s.string("date");
        v.source.location = s.string("location");
        if (const char* name = kept_apart(v.source.url))
            throw InputError(s.child_path("url") + " (record " + v.id + ")", "\"" + v.source.url + "\"",
                             std::string("a source not kept apart for independent checks (") + name + " is kept apart: nothing is fitted to or checked against it here)");
        s.finish();
    }
    v.figure = r.string("figure");
    if (v.figure.front() != '/') throw InputError(r.child_path("figure") + " (record " + v.id + ")", "\"" + v.figure + "\"",
                                                  "a JSON pointer into the scenario's result, e.g. \"/train/figures/tokens_per_second_per_gpu\"");
    {
        if (!r.has("measured")) throw InputError(r.child_path("measured") + " (record " + v.id + ")", "nothing", "the measured value and unit");
        ObjectReader m = r.object("measured");
        v.measured = m.number("value", NumberRule::positive);
        v.unit = m.string("unit");
        const bool known = std::any_of(std::begin(kValidationUnits), std::end(kValidationUnits), [&](const ValidationUnit& u) { return u.unit == v.unit; });
        if (!known) throw InputError(m.child_path("unit") + " (record " + v.id + ")", "\"" + v.unit + "\"", "one of: " + unit_list());
        m.finish();
    }
    v.unstated = r.optional_string_list("unstated");
    v.known_gap = r.optional_string("known_gap").value_or("");
    // Parsed (and so checked) once, at load: an unknown model, instance or key fails here.
    v.scenario = parse_scenario(r.value("scenario").dump(), origin + " record " + v.id + " scenario", catalog);
    r.finish();
    return v;
}

}  // namespace

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

namespace {

AccuracySummary summarize(const std::vector<const ValidationResult*>& rs, std::optional<ValidationCategory> c, ValidationSplit s) {
    AccuracySummary a;
    a.category = c;
    a.split = s;
    std::vector<double> errors;
    for (const ValidationResult* r : rs) {
        const double e = std::abs(r->ratio() - 1);
        errors.push_back(e);
        if (e >= a.worst_abs_error) a.worst_abs_error = e, a.worst_id = r->record->id;
    }
    a.cases = static_cast<int>(rs.size());
    a.median_abs_error = errors.empty() ? 0 : median_of(errors);
    return a;
}

}  // namespace

std::vector<ValidationRecord> load_validation_records(const std::vector<CatalogDocument>& documents, const Catalog& catalog) {
    std::vector<ValidationRecord> out;
    std::map<std::string, std::string> seen;  // id -> where
    for (const CatalogDocument& doc : documents) {
        const Json j = parse_json_document(doc.text, doc.origin);
        ObjectReader root(j, doc.origin + ": $");
        const std::string schema = root.string("schema");
        if (schema != kValidationSchema) throw InputError(root.child_path("schema"), "\"" + schema + "\"", "\"" + std::string(kValidationSchema) + "\"");
        root.optional_string("about");
        const Json& list = root.array("records");
        for (std::size_t k = 0; k < list.size(); ++k) {
            ValidationRecord v = parse_record(list[k], index_path(root.child_path("records"), k), doc.origin, catalog);
            const auto [it, fresh] = seen.emplace(v.id, v.origin);
            if (!fresh) throw InputError(v.origin + ".id", "\"" + v.id + "\"", "an id no other record uses (" + it->second + " has it)");
            out.push_back(std::move(v));
        }
        root.finish();
    }
    return out;
}

ValidationResult predict_record(const ValidationRecord& v, const Catalog& catalog) {
    const std::string where = v.origin + " (record " + v.id + ")";
    const Json result = evaluate_scenario(v.scenario, catalog);
    const Json::json_pointer pointer(v.figure);
    if (!result.contains(pointer))
        throw InputError(where + ".figure", "\"" + v.figure + "\"", "a figure in the scenario's result (gpuplan eval shows them)");
    // A section that does not fit carries "fits": false and its refusal beside its figures.
    const Json section = result.at(pointer.parent_pointer().parent_pointer());
    if (section.is_object() && section.value("fits", true) == false)
        throw InputError(where + ".scenario", "a setup that does not fit in memory", "one that fits: " +
                         section.value("refusal", section.value("memory_verdict", std::string())));
    const Json& figure = result.at(pointer);
    if (!figure.is_object() || !figure.contains("value") || !figure.contains("unit"))
        throw InputError(where + ".figure", "\"" + v.figure + "\"", "a pointer to a figure (an object with value and unit)");
    if (figure.at("value").is_null())
        throw InputError(where + ".figure", "\"" + v.figure + "\" (unknown: " + figure.value("unknown_reason", std::string()) + ")", "a figure the planner can compute");
    const std::string result_unit = figure.at("unit").get<std::string>();
    const auto unit = std::find_if(std::begin(kValidationUnits), std::end(kValidationUnits),
                                   [&](const ValidationUnit& u) { return u.unit == v.unit && u.result_unit == result_unit; });
    if (unit == std::end(kValidationUnits))
        throw InputError(where + ".measured.unit", "\"" + v.unit + "\"", "a unit the figure's unit (" + result_unit + ") converts to");
    ValidationResult r;
    r.record = &v;
    r.predicted = figure.at("value").get<double>() * unit->scale;
    r.figure = figure;
    return r;
}

namespace {

// The figure named by a pointer of the form /<section>/figures/<name>, read from the typed
// result of the sections that list their figures; nullptr for any other pointer.
const Figure* typed_figure(const ScenarioResult& r, const std::string& pointer) {
    const auto slash = pointer.find('/', 1);
    const std::string prefix = "/figures/";
    if (slash == std::string::npos || pointer.compare(slash, prefix.size(), prefix) != 0) return nullptr;
    const std::string section = pointer.substr(1, slash - 1), name = pointer.substr(slash + prefix.size());
    std::vector<const Figure*> figures;
    if (section == "train" && r.train) figures = r.train->figures();
    if (section == "infer" && r.infer)
        for (const auto& [key, f] : r.infer->figures())
            if (key == name) return f;
    if (section == "collective" && r.collective)
        figures = {&r.collective->seconds, &r.collective->algorithm_bandwidth_gb_per_s, &r.collective->bus_bandwidth_gb_per_s};
    if (section == "fit" && r.fit) figures = r.fit->inference ? r.fit->inference->figures() : r.fit->training ? r.fit->training->figures() : figures;
    for (const Figure* f : figures)
        if (f->name == name) return f;
    return nullptr;
}

}  // namespace

double predicted_value(const ValidationRecord& v, const Catalog& catalog) {
    const ScenarioResult result = evaluate(v.scenario, catalog);
    const Figure* f = typed_figure(result, v.figure);
    const bool fits = !(result.train && !result.train->fit.fits) && !(result.infer && !result.infer->fit.fits);
    if (f && fits && f->value && std::isfinite(*f->value))
        for (const ValidationUnit& u : kValidationUnits)
            if (u.unit == v.unit && u.result_unit == f->unit) return *f->value * u.scale;
    return predict_record(v, catalog).predicted;  // the full path, which names what is wrong
}

std::vector<ValidationResult> run_validation(const std::vector<ValidationRecord>& records, const Catalog& catalog) {
    std::vector<ValidationResult> out;
    out.reserve(records.size());
    for (const ValidationRecord& v : records) out.push_back(predict_record(v, catalog));
    return out;
}

std::vector<AccuracySummary> summarize_accuracy(const std::vector<ValidationResult>& results) {
    std::vector<AccuracySummary> out;
    for (ValidationCategory c : kValidationCategories)
        for (ValidationSplit s : {ValidationSplit::validation, ValidationSplit::calibration}) {
            std::vector<const ValidationResult*> rs;
            for (const auto& r : results)
                if (r.record->category == c && r.record->split == s) rs.push_back(&r);
            if (!rs.empty()) out.push_back(summarize(rs, c, s));
        }
    return out;
}

std::vector<AccuracySummary> summarize_overall(const std::vector<ValidationResult>& results) {
    std::vector<AccuracySummary> out;
    for (ValidationSplit s : {ValidationSplit::validation, ValidationSplit::calibration}) {
        std::vector<const ValidationResult*> rs;
        for (const auto& r : results)
            if (r.record->split == s) rs.push_back(&r);
        if (!rs.empty()) out.push_back(summarize(rs, std::nullopt, s));
    }
    return out;
}

std::string accuracy_sentence(ValidationCategory category, const std::vector<AccuracySummary>& summaries) {
    for (const AccuracySummary& a : summaries)
        if (a.category == category && a.split == ValidationSplit::validation)
            return std::string(category_words(category)) + " predictions were within " + format_number(std::round(100 * a.median_abs_error)) +
                   "% (median) of " + std::to_string(a.cases) + " published measurement" + (a.cases == 1 ? "" : "s") + "; worst " +
                   format_number(std::round(100 * a.worst_abs_error)) + "% (docs/accuracy.md)";
    return std::string(category_words(category)) + " predictions have not been checked against a published measurement yet (docs/accuracy.md)";
}

const std::vector<AccuracySummary>& builtin_accuracy(const Catalog& catalog) {
    static const std::vector<AccuracySummary> summaries = [&] {
        try {
            const auto records = load_validation_records(builtin_validation_documents(), catalog);
            return summarize_accuracy(run_validation(records, catalog));
        } catch (const InputError&) {
            return std::vector<AccuracySummary>{};  // a user catalog that drops a record's instance: say "not checked"
        }
    }();
    return summaries;
}

nlohmann::json to_json(const ValidationResult& r) {
    const ValidationRecord& v = *r.record;
    return {{"id", v.id},
            {"title", v.title},
            {"category", to_string(v.category)},
            {"split", to_string(v.split)},
            {"source", {{"citation", v.source.citation}, {"url", v.source.url}, {"date", v.source.date}, {"location", v.source.location}}},
            {"figure", v.figure},
            {"unit", v.unit},
            {"measured", v.measured},
            {"predicted", r.predicted},
            {"ratio", r.ratio()},
            {"unstated", v.unstated},
            {"known_gap", v.known_gap},
            {"explanation", r.figure}};
}

nlohmann::json to_json(const AccuracySummary& a) {
    return {{"category", a.category ? nlohmann::json(to_string(*a.category)) : nlohmann::json("all")},
            {"split", to_string(a.split)},
            {"cases", a.cases},
            {"median_abs_error", a.median_abs_error},
            {"worst_abs_error", a.worst_abs_error},
            {"worst_id", a.worst_id}};
}

}  // namespace gpuplan
