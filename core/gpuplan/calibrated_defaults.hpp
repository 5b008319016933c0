// calibrated_defaults.hpp — the model defaults fitted on calibration cases of the validation
// corpus (assets/validation/, docs/accuracy.md), in one list.
//
// Each was chosen so that its calibration case comes out right, which says nothing about how
// well it predicts anything else. `gpuplan validate --cross-validate` (validation/
// cross_validation.hpp) measures that: it refits each default without one source's records
// and predicts that source with the refit. The models read these values through
// calibrated_value(), so a refit reaches every code path without a parameter threaded through.
#pragma once

#include <optional>
#include <string_view>

namespace gpuplan {

enum class CalibratedDefault {
    decode_step_overhead,            // s per decode step, inference.cpp
    a100_training_efficiency,        // share of dense BF16 peak, training_time.cpp
    hopper_training_efficiency,
    hopper_fp8_training_efficiency,  // share of dense FP8 peak
    efa_efficiency,                  // achieved / line rate, topology.cpp
};
inline constexpr CalibratedDefault kCalibratedDefaults[] = {
    CalibratedDefault::efa_efficiency, CalibratedDefault::decode_step_overhead, CalibratedDefault::a100_training_efficiency,
    CalibratedDefault::hopper_training_efficiency, CalibratedDefault::hopper_fp8_training_efficiency};

struct CalibratedDefaultInfo {
    std::string_view words;       // "EFA efficiency" (tables, the page)
    double shipped;               // the value fitted on its calibration case
    std::string_view fitted_on;   // that case's id
    // What the planner would use with no case to fit on: a refit with no record to fit falls
    // back to it, so a source that alone calibrated a default is predicted without it.
    double prior;
    std::string_view prior_reason;
    double low, high;             // the range a refit searches
};
const CalibratedDefaultInfo& calibrated_default_info(CalibratedDefault which);

// The value in force: a refit set by a ScopedRefit on this thread, else the shipped value.
double calibrated_value(CalibratedDefault which);
bool refit_in_force(CalibratedDefault which);

// Sets a refit for its lifetime (this thread only), then restores what was in force.
class ScopedRefit {
public:
    ScopedRefit(CalibratedDefault which, double value);
    ~ScopedRefit();
    ScopedRefit(const ScopedRefit&) = delete;
    ScopedRefit& operator=(const ScopedRefit&) = delete;

private:
    CalibratedDefault which_;
    std::optional<double> before_;
};

}  // namespace gpuplan
