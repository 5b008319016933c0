#include "gpuplan/pricing/spot_checkpoint.hpp"

#include <cmath>

namespace gpuplan {

SpotRisk default_spot_risk() {
    const std::string doc = "default (docs/pricing.md: shared case P5; set your own)";
    return {{3.5, InputOrigin::assumption, doc}, {2.0, InputOrigin::assumption, doc}, {5.0, InputOrigin::assumption, doc}, std::nullopt};
}

CheckpointPlan plan_checkpoints(const SpotRisk& risk) {
    const double m = risk.mean_hours_between_interruptions.value;
    const double c = risk.checkpoint_minutes.value / 60.0;
    const double r = risk.restart_minutes.value / 60.0;
    const FigureInput in_m = input("mean_hours_between_interruptions", "h", risk.mean_hours_between_interruptions);
    const FigureInput in_c = input("checkpoint_minutes", "min", risk.checkpoint_minutes);
    const FigureInput in_r = input("restart_minutes", "min", risk.restart_minutes);

    CheckpointPlan plan;
    plan.interval_hours.name = "checkpoint_interval_hours";
    plan.interval_hours.unit = "h";
    double tau = 0;
    if (risk.checkpoint_interval_hours) {
        tau = risk.checkpoint_interval_hours->value;
        plan.interval_hours.formula = "checkpoint interval chosen by the user";
        plan.interval_hours.worked = format_number(tau);
        plan.interval_hours.inputs = {input("checkpoint_interval_hours", "h", *risk.checkpoint_interval_hours)};
    } else {
        tau = std::sqrt(2.0 * c * m);
        plan.interval_hours.formula = "sqrt(2 x checkpoint_hours x mean_hours_between_interruptions) (Young 1974)";
        plan.interval_hours.worked = "sqrt(2 x " + format_number(c) + " x " + format_number(m) + ") = " + format_number(tau);
        plan.interval_hours.inputs = {in_c, in_m};
    }
    plan.interval_hours.value = tau;

    const double overhead = c / tau + tau / (2.0 * m) + r / m;
    plan.overhead_fraction.name = "rework_overhead_fraction";
    plan.overhead_fraction.unit = "fraction of useful compute";
    plan.overhead_fraction.value = overhead;
    plan.overhead_fraction.formula =
        "checkpoint_hours / interval + interval / (2 x mean_hours_between_interruptions) + restart_hours / mean_hours_between_interruptions (Young 1974; Daly 2006, first order)";
    plan.overhead_fraction.worked = format_number(c) + " / " + format_number(tau) + " + " + format_number(tau) + " / (2 x " +
                                    format_number(m) + ") + " + format_number(r) + " / " + format_number(m) + " = " +
                                    format_number(overhead);
    if (c > 0.5 * m) plan.overhead_fraction.worked += " (first-order model is poor here: checkpoint cost is not small against M)";
    plan.overhead_fraction.inputs = {in_c, plan.interval_hours.as_input(), in_m, in_r};
    return plan;
}

}  // namespace gpuplan
