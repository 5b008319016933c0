// fixtures.hpp — the built-in catalog and model presets, as core tests look them up.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/explain.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/scenario/scenario.hpp"
#include "gpuplan/scenario/scenario_result.hpp"
#include "gpuplan/workload/model.hpp"

namespace gpuplan::test {

inline const Catalog& builtin_catalog() {
    static const Catalog c = load_builtin_catalog();
    return c;
}

inline const ModelSpec& preset(const char* name) {
    const ModelSpec* m = find_model(builtin_models(), name);
    REQUIRE(m);
    return *m;
}

// The short names the test files use (one definition each, so that the files of a unity build
// can share a translation unit: scripts/test.sh). A file takes them with `using test::catalog;`.
inline const Catalog& catalog() { return builtin_catalog(); }
inline const ModelSpec& model(const char* name) { return preset(name); }
inline Param p(double v) { return {v, InputOrigin::user, ""}; }  // a value the user gave

// x rounded to 4 significant digits, to compare with a figure worked by hand.
inline double sig4(double x) {
    const double scale = std::pow(10.0, 3 - std::floor(std::log10(std::fabs(x))));
    return std::round(x * scale) / scale;
}
inline double dp2(double x) { return std::round(x * 100) / 100; }  // 2 decimals
inline double cents(double usd) { return std::round(usd * 100.0) / 100.0; }

// The result of one built-in scenario (assets/scenarios/FILE), as `gpuplan eval` gives it.
inline nlohmann::json eval_builtin(const std::string& file) {
    for (const auto& doc : builtin_scenario_documents())
        if (doc.origin == "assets/scenarios/" + file) return evaluate_scenario(parse_scenario(doc.text, doc.origin, catalog()), catalog());
    FAIL("no built-in scenario " << file);
    return {};
}

// The message of the InputError `f` throws, or "(no error)".
inline std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace gpuplan::test
