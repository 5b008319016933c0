#include "gpuplan/calibrated_defaults.hpp"

#include <array>

namespace gpuplan {

namespace {

constexpr std::size_t kCount = std::size(kCalibratedDefaults);

// The shipped values and the cases they were fitted on (docs/accuracy.md lists the cases).
// Priors: the documented uncalibrated defaults (40% model FLOPs utilisation, docs/models.md;
// no fixed step cost; EFA at its line rate).
constexpr std::array<CalibratedDefaultInfo, kCount> kInfo = {{
    {"decode step overhead (s)", 0.0032, "V-I1", 0.0, "no fixed cost per decode step: the roofline alone", 0.0, 0.02},
    {"A100 training efficiency", 0.60, "LF-A100-13B-8", 0.40, "the uncalibrated default model FLOPs utilisation 0.40 (docs/models.md)", 0.1, 1.0},
    {"Hopper training efficiency", 0.41, "LF-H100-13B-8", 0.40, "the uncalibrated default model FLOPs utilisation 0.40 (docs/models.md)", 0.1, 1.0},
    {"Hopper FP8 training efficiency", 0.475, "NEMO-H100-8B-FP8", 0.40, "the uncalibrated default model FLOPs utilisation 0.40 (docs/models.md)", 0.1, 1.0},
    {"EFA efficiency", 0.84, "NCCL-P4DE-2", 1.0, "EFA at its line rate", 0.3, 1.0},
}};

thread_local std::array<std::optional<double>, kCount> refits;

std::size_t index(CalibratedDefault which) { return static_cast<std::size_t>(which); }

}  // namespace

const CalibratedDefaultInfo& calibrated_default_info(CalibratedDefault which) { return kInfo[index(which)]; }

double calibrated_value(CalibratedDefault which) { return refits[index(which)].value_or(kInfo[index(which)].shipped); }

bool refit_in_force(CalibratedDefault which) { return refits[index(which)].has_value(); }

ScopedRefit::ScopedRefit(CalibratedDefault which, double value) : which_(which), before_(refits[index(which)]) { refits[index(which)] = value; }

ScopedRefit::~ScopedRefit() { refits[index(which_)] = before_; }

}  // namespace gpuplan
