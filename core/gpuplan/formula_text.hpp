// formula_text.hpp — the two short helpers every "worked" formula text is written with.
//
// A figure's worked text reads like arithmetic: n(a) + " x " + n(b) + " = " + n(a * b). One
// definition here, not one per file, so that the files of a unity build (scripts/test.sh) can
// share a translation unit.
#pragma once

#include <cmath>
#include <string>

#include "gpuplan/explain.hpp"

namespace gpuplan {

// A number as formula text (format_number's shortest round-tripping form).
inline std::string n(double value) { return format_number(value); }

// A figure's value, NaN when it is unknown (the caller checks before using it).
inline double val(const Figure& figure) { return figure.value.value_or(NAN); }

}  // namespace gpuplan
