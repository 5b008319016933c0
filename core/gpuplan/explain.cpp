#include "gpuplan/explain.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "gpuplan/input_error.hpp"

namespace gpuplan {

namespace {

// Finite inputs can still give a figure no double holds: 1.6e308 $/GPU-h x 70,080 GPU-hours is
// infinity, and JSON would write it as null ("unknown"), silently. Such a figure is refused
// with the inputs that made it, like any other bad input (docs/reliability.md).
void require_finite_value(const Figure& f) {
    if (!f.value || std::isfinite(*f.value)) return;
    std::string given;
    for (const auto& in : f.inputs) {
        if (!given.empty()) given += ", ";
        given += in.name + " = " + format_number(in.value) + (in.unit.empty() ? "" : " " + in.unit);
    }
    throw InputError(f.name, (given.empty() ? std::string("inputs") : given) + ", which give " +
                                 (std::isnan(*f.value) ? "no number" : "a result beyond a double"),
                     "inputs of a size whose figures a double can hold (magnitude below 1.8e308)");
}

}  // namespace

namespace {
thread_local bool explaining_now = true;
}  // namespace

bool explaining() { return explaining_now; }
FiguresOnly::FiguresOnly() : was_explaining_(explaining_now) { explaining_now = false; }
FiguresOnly::~FiguresOnly() { explaining_now = was_explaining_; }

bool Figure::rests_on_assumption() const {
    for (const auto& in : inputs)
        if (in.origin == InputOrigin::assumption || in.rests_on_assumption) return true;
    return false;
}

double Figure::value_or_throw() const {
    if (!value) throw std::logic_error("figure " + name + " is unknown: " + unknown_reason);
    return *value;
}

FigureInput Figure::as_input(std::string source_note) const {
    // The assumption flag travels with the value, so a figure built on a figure that rests
    // on a default is flagged too.
    return {name, value.value_or(NAN), unit, InputOrigin::derived, source_note.empty() ? formula : std::move(source_note),
            rests_on_assumption()};
}

Figure make_figure(std::string name, double value, std::string unit, std::string formula, std::string worked,
                   std::vector<FigureInput> inputs) {
    Figure f;
    f.name = std::move(name);
    f.value = value;
    f.unit = std::move(unit);
    f.formula = std::move(formula);
    f.worked = std::move(worked);
    f.inputs = std::move(inputs);
    return f;
}

Figure unknown_figure(std::string name, std::string unit, std::string formula, std::string why) {
    Figure f;
    f.name = std::move(name);
    f.unit = std::move(unit);
    f.formula = std::move(formula);
    f.unknown_reason = std::move(why);
    return f;
}

std::string format_number(double value) {
    if (!std::isfinite(value)) return "unknown";
    // 6 significant digits is enough to follow a calculation by hand; figures in JSON keep
    // full precision in "value".
    const double magnitude = std::fabs(value);
    const bool whole_million = magnitude >= 1e6 && magnitude < 1e15 && std::floor(value) == value;
#if defined(__cpp_lib_to_chars)
    // std::to_chars with a format and precision writes what printf would ("%.0f", "%.6g";
    // [charconv.to.chars]) several times faster: a recommender sweep formats thousands of
    // numbers for its explanations (docs/performance.md). Emscripten's libc++ lacks it.
    char buf[64];
    const auto written = whole_million ? std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, 0)
                                       : std::to_chars(buf, buf + sizeof buf, value, std::chars_format::general, 6);
    return std::string(buf, written.ptr);
#else
    char buf[64];
    std::snprintf(buf, sizeof buf, whole_million ? "%.0f" : "%.6g", value);
    return buf;
#endif
}

std::string_view to_string(InputOrigin origin) {
    switch (origin) {
    case InputOrigin::catalog: return "catalog";
    case InputOrigin::user: return "user";
    case InputOrigin::assumption: return "assumption";
    case InputOrigin::derived: return "derived";
    case InputOrigin::measured: return "measured";
    }
    return "?";
}

nlohmann::json to_json(const Figure& f) {
    require_finite_value(f);
    nlohmann::json inputs = nlohmann::json::array();
    for (const auto& in : f.inputs)
        inputs.push_back({{"name", in.name}, {"value", in.value}, {"unit", in.unit},
                          {"origin", std::string(to_string(in.origin))}, {"source", in.source},
                          {"assumption", in.origin == InputOrigin::assumption || in.rests_on_assumption}});
    nlohmann::json j = {{"value", f.value ? nlohmann::json(*f.value) : nlohmann::json(nullptr)},
                        {"unit", f.unit},
                        {"explain", {{"formula", f.formula}, {"worked", f.worked}, {"inputs", inputs}}}};
    if (!f.value) j["unknown"] = f.unknown_reason;
    if (f.rests_on_assumption()) j["assumption"] = true;
    return j;
}

nlohmann::json to_json(const std::vector<Figure>& figures) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& f : figures) j[f.name] = to_json(f);
    return j;
}

nlohmann::json figure_json(const Figure& figure) {
    nlohmann::json j = to_json(figure);
    const std::string tail = " " + figure.unit;
    std::string worked = j["explain"].value("worked", "");
    if (!figure.unit.empty() && worked.size() > tail.size() && worked.compare(worked.size() - tail.size(), tail.size(), tail) == 0)
        j["explain"]["worked"] = worked.substr(0, worked.size() - tail.size());
    return j;
}

Param measured_param(double value, const std::string& what) { return {value, InputOrigin::measured, "measured: " + what}; }
Param user_given(double value) { return {value, InputOrigin::user, ""}; }
Param derived_param(double value, const std::string& how) { return {value, InputOrigin::derived, how}; }
Param default_param(double value, const std::string& which) { return {value, InputOrigin::assumption, which}; }
Param user_or_default(const std::optional<double>& value, double fallback, const std::string& which) {
    return value ? user_given(*value) : default_param(fallback, which);
}

}  // namespace gpuplan
