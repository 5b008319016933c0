// explain.hpp — a number that can say how it was computed ("show the math").
//
// Every figure the planner outputs is a Figure: its value (or why it is unknown), its unit,
// the formula in words, the formula with the numbers put in, and the inputs it used, each
// with where that input came from (a catalog fact and its source, a user's parameter, or a
// documented default assumption).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpuplan {

enum class InputOrigin {
    catalog,     // a catalog fact (source given)
    user,        // given by the user (scenario or CLI)
    assumption,  // a documented default the user did not override (docs/pricing.md)
    derived,     // another Figure's value
    measured,    // measured on real hardware (gpuplan bench, or a figure the user measured)
};

struct FigureInput {
    std::string name;   // "on_demand_usd_per_hour"
    double value = 0;
    std::string unit = {};   // "USD/h"
    InputOrigin origin = InputOrigin::user;
    std::string source = {}; // "catalog p5.48xlarge us-east-1 on_demand, KARP-PRICE, as of 2026-07-20"
    bool rests_on_assumption = false;  // a derived input whose own inputs include an assumption
};

// A number handed to a model, with where it came from (so the Figure can cite it).
struct Param {
    double value = 0;
    InputOrigin origin = InputOrigin::user;
    std::string source;  // empty for user input; the catalog fact or the doc of the default
};

// A measured figure: origin measured, source "measured: <what>" (the file, case and statistic).
Param measured_param(double value, const std::string& what);
// The other origins of a number handed to a model, each said in one place so that "show the
// math" never calls a derived or defaulted number the user's:
Param user_given(double value);                                  // the user gave it (scenario, CLI)
Param derived_param(double value, const std::string& how);       // computed from other inputs: how
Param default_param(double value, const std::string& which);     // a documented default: which
// The user's value when given, else `fallback` as the default `which`.
Param user_or_default(const std::optional<double>& value, double fallback, const std::string& which);

inline FigureInput input(std::string name, std::string unit, const Param& p) {
    return {std::move(name), p.value, std::move(unit), p.origin, p.source};
}

struct Figure {
    std::string name;                // "effective_usd_per_hour"
    std::optional<double> value;     // nullopt: unknown (see unknown_reason)
    std::string unit = {};
    std::string formula = {};             // "on_demand_usd_per_hour x (1 - discount)"
    std::string worked = {};              // "55.04 x (1 - 0.3) = 38.528"
    std::vector<FigureInput> inputs = {};
    std::string unknown_reason = {};  // the fields above may be left out of a designated initialiser

    // True when any input is a default assumption, so the output can flag the figure.
    bool rests_on_assumption() const;
    double value_or_throw() const;   // for callers that checked has a value
    FigureInput as_input(std::string source_note = "") const;
};

// Figures first, explanations on demand (issue 32). A sweep that reads only figures' values
// (the recommender's layouts, of which it shows a few) computes them inside a FiguresOnly
// scope: figures then carry their name, value, unit and unknown reason, and refusals their
// reasons, but no formula, worked line or inputs, whose text was most of a sweep's time
// (docs/performance.md). What is shown is computed again outside the scope by the same
// functions, so an explanation never disagrees with its value; tests/core/figures_only_test.cpp
// checks that values are the same either way. Inside the scope rests_on_assumption() is false
// (a figure has no inputs): read values only.
bool explaining();  // false inside a FiguresOnly scope on this thread
class FiguresOnly {
public:
    FiguresOnly();
    ~FiguresOnly();
    FiguresOnly(const FiguresOnly&) = delete;
    FiguresOnly& operator=(const FiguresOnly&) = delete;

private:
    bool was_explaining_;
};

// What explains a figure: its formula, the formula with the numbers put in, and its inputs.
struct Explanation {
    std::string formula;
    std::string worked;
    std::vector<FigureInput> inputs;
};

// A known figure whose explanation `explain()` (returning an Explanation) is built only when
// explaining(): for figures that sweeps compute by the thousand.
template <class Explain>
Figure explained_figure(std::string name, double value, std::string unit, Explain&& explain) {
    Figure f;
    f.name = std::move(name);
    f.value = value;
    f.unit = std::move(unit);
    if (explaining()) {
        Explanation e = explain();
        f.formula = std::move(e.formula);
        f.worked = std::move(e.worked);
        f.inputs = std::move(e.inputs);
    }
    return f;
}

// A known figure with its explanation, in one call.
Figure make_figure(std::string name, double value, std::string unit, std::string formula, std::string worked,
                   std::vector<FigureInput> inputs);

// A figure that cannot be computed, with the reason (shown as "unknown" with its why).
Figure unknown_figure(std::string name, std::string unit, std::string formula, std::string why);

// Shortest decimal text that round-trips a double for people: up to 6 significant digits
// after rounding, no trailing zeros ("38.528", "0.98667", "8760").
std::string format_number(double value);

std::string_view to_string(InputOrigin origin);
// Refuses (InputError naming the figure and its inputs) a figure whose value is infinite or
// NaN: finite inputs whose product no double holds.
nlohmann::json to_json(const Figure& figure);
nlohmann::json to_json(const std::vector<Figure>& figures);  // {name: figure, ...}
// to_json(Figure), less a unit the worked line already ends with (the explanation adds it):
// how the workload commands and their scenario sections write figures.
nlohmann::json figure_json(const Figure& figure);

}  // namespace gpuplan
