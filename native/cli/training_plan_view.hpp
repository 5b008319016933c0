// training_plan_view.hpp — a training plan (core/gpuplan/workload/training_plan.hpp) as
// `gpuplan train` prints it: the layout, memory per GPU, the step-time breakdown with each
// part's share, tokens/s, hours and cost, the bottleneck, warnings, where every number comes
// from, and which defaults a flag would replace.
#pragma once

#include <string>

#include "gpuplan/workload/training_plan.hpp"
#include "output.hpp"

namespace gpuplan::cli {

// `q` is the request the plan was made from (its efficiencies and overrides, for the notes).
std::string training_plan_text(const TrainingPlan& plan, const TrainingTimeRequest& q, Format format, bool explain);

}  // namespace gpuplan::cli
