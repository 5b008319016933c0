// spot_checkpoint.hpp — expected rework on interruptible (spot) capacity.
//
// First-order model of J. W. Young, "A first order approximation to the optimum checkpoint
// interval", CACM 17(9), 1974, and J. T. Daly, "A higher order estimate of the optimum
// checkpoint interval for restart dumps", FGCS 22(3), 2006. With mean time between
// interruptions M, checkpoint write cost C and restart cost R (all in hours):
//   optimal interval      tau* = sqrt(2 C M)
//   overhead fraction     C/tau + tau/(2M) + R/M   (checkpoint writes + lost half interval + restarts)
// Valid while C << M; the result says so when it is not.
#pragma once

#include <optional>

#include "gpuplan/explain.hpp"

namespace gpuplan {

struct SpotRisk {
    Param mean_hours_between_interruptions;
    Param checkpoint_minutes;
    Param restart_minutes;
    std::optional<Param> checkpoint_interval_hours;  // default: the Young/Daly optimum
};

// Documented defaults (docs/pricing.md): the P5 case of shared/cases/pricing.md, flagged as
// assumptions because real interruption rates vary by instance type, region and hour.
SpotRisk default_spot_risk();

struct CheckpointPlan {
    Figure interval_hours;     // tau (optimal unless the user set one)
    Figure overhead_fraction;  // extra compute hours per useful hour
};

CheckpointPlan plan_checkpoints(const SpotRisk& risk);

}  // namespace gpuplan
