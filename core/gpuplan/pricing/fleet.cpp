#include "gpuplan/pricing/fleet.hpp"

#include "gpuplan/input_error.hpp"

namespace gpuplan {

Param usd_per_gpu_hour(const Param& usd_per_instance_hour, double accelerator_count, const std::string& instance_name) {
    return {usd_per_instance_hour.value / accelerator_count, usd_per_instance_hour.origin,
            usd_per_instance_hour.source + " (" + instance_name + ") / " + format_number(accelerator_count) + " GPUs"};
}

std::vector<FleetTier> tiers_from_profile(const UsageProfile& p) {
    if (p.peak_gpus <= 0) throw InputError("fleet.profile.peak_gpus", format_number(p.peak_gpus), "a number of GPUs > 0");
    if (p.baseline_gpus < 0 || p.baseline_gpus > p.average_gpus)
        throw InputError("fleet.profile.baseline_gpus", format_number(p.baseline_gpus),
                         "0 to average_gpus (" + format_number(p.average_gpus) + ")");
    if (p.average_gpus > p.peak_gpus)
        throw InputError("fleet.profile.average_gpus", format_number(p.average_gpus), "at most peak_gpus (" + format_number(p.peak_gpus) + ")");
    std::vector<FleetTier> tiers;
    if (p.baseline_gpus > 0) tiers.push_back({p.commit_option, p.baseline_gpus, p.commit_usd_per_gpu_hour, 1.0, true});
    const double burst = p.peak_gpus - p.baseline_gpus;
    if (burst > 0)
        tiers.push_back({p.burst_option, burst, p.burst_usd_per_gpu_hour, (p.average_gpus - p.baseline_gpus) / burst,
                         is_commitment(p.burst_option.kind)});
    return tiers;
}

std::string max_fleet_tiers_text() {
    return "at most " + std::to_string(kMaxFleetTiers) + " tiers (one per purchase option and price: merge tiers bought the same way)";
}

FleetResult evaluate_fleet(const FleetRequest& request) {
    if (request.tiers.empty()) throw InputError("fleet.tiers", "no tiers", "at least one tier of GPUs");
    if (request.tiers.size() > kMaxFleetTiers)
        throw InputError("fleet.tiers", std::to_string(request.tiers.size()) + " tiers", max_fleet_tiers_text());
    FleetResult r;
    const double hours = request.hours;
    const FigureInput in_hours = input("hours", "h", {hours, InputOrigin::user, ""});
    double total = 0, used = 0;
    std::string total_worked, used_worked;
    std::vector<FigureInput> total_inputs, used_inputs;
    for (std::size_t k = 0; k < request.tiers.size(); ++k) {
        const FleetTier& t = request.tiers[k];
        const std::string where = "fleet.tiers[" + std::to_string(k) + "]";
        if (t.gpus < 0) throw InputError(where + ".gpus", format_number(t.gpus), "a number of GPUs >= 0");
        const double billed_share = t.committed ? 1.0 : t.utilization;
        const double cost = t.gpus * t.usd_per_gpu_hour.value * hours * billed_share;
        Figure f;
        f.name = "tier_cost_usd." + key(t.option);
        f.value = cost;
        f.unit = "USD";
        f.formula = t.committed ? "gpus x usd_per_gpu_hour x hours (committed: billed every hour)"
                                : "gpus x usd_per_gpu_hour x hours x utilization";
        f.worked = format_number(t.gpus) + " x " + format_number(t.usd_per_gpu_hour.value) + " x " + format_number(hours) +
                   (t.committed ? "" : " x " + format_number(t.utilization)) + " = " + format_number(cost);
        f.inputs = {input("gpus", "", {t.gpus, InputOrigin::user, ""}), input("usd_per_gpu_hour", "USD/GPU-h", t.usd_per_gpu_hour), in_hours};
        if (!t.committed) f.inputs.push_back(input("utilization", "fraction", {t.utilization, InputOrigin::user, ""}));
        r.tier_cost_usd.push_back(f);
        total += cost;
        total_worked += (k ? " + " : "") + format_number(cost);
        total_inputs.push_back(f.as_input());

        const double tier_used = t.gpus * t.utilization * hours;
        used += tier_used;
        used_worked += (k ? " + " : "") + format_number(t.gpus) + " x " + format_number(t.utilization) + " x " + format_number(hours);

        if (t.committed) {
            Figure b;
            b.name = "break_even_utilization." + key(t.option);
            b.value = t.usd_per_gpu_hour.value / request.on_demand_usd_per_gpu_hour.value;
            b.unit = "fraction of hours";
            b.formula = "usd_per_gpu_hour / on_demand_usd_per_gpu_hour";
            b.worked = format_number(t.usd_per_gpu_hour.value) + " / " + format_number(request.on_demand_usd_per_gpu_hour.value) + " = " +
                       format_number(*b.value);
            b.inputs = {input("usd_per_gpu_hour", "USD/GPU-h", t.usd_per_gpu_hour),
                        input("on_demand_usd_per_gpu_hour", "USD/GPU-h", request.on_demand_usd_per_gpu_hour)};
            r.tier_break_even_utilization.push_back(b);
        } else {
            r.tier_break_even_utilization.push_back(std::nullopt);
        }
    }
    if (used <= 0) throw InputError("fleet.tiers", "0 used GPU-hours", "at least one tier with GPUs in use (gpus x utilization > 0)");

    r.total_cost_usd = {.name = "total_cost_usd", .value = total, .unit = "USD", .formula = "sum of tier costs", .worked = total_worked + " = " + format_number(total), .inputs = total_inputs};
    r.used_gpu_hours = {.name = "used_gpu_hours", .value = used, .unit = "GPU-h", .formula = "sum of gpus x utilization x hours", .worked = used_worked + " = " + format_number(used), .inputs = {}};
    const double blended = total / used;
    r.blended_usd_per_gpu_hour = {.name = "blended_usd_per_gpu_hour", .value = blended, .unit = "USD/GPU-h", .formula = "total_cost_usd / used_gpu_hours",
                                  .worked = format_number(total) + " / " + format_number(used) + " = " + format_number(blended),
                                  .inputs = {r.total_cost_usd.as_input(), r.used_gpu_hours.as_input()}};
    const double od = request.on_demand_usd_per_gpu_hour.value;
    const FigureInput in_od = input("on_demand_usd_per_gpu_hour", "USD/GPU-h", request.on_demand_usd_per_gpu_hour);
    const double all_od = used * od;
    r.all_on_demand_cost_usd = {.name = "all_on_demand_cost_usd", .value = all_od, .unit = "USD", .formula = "used_gpu_hours x on_demand_usd_per_gpu_hour",
                                .worked = format_number(used) + " x " + format_number(od) + " = " + format_number(all_od),
                                .inputs = {r.used_gpu_hours.as_input(), in_od}};
    const double saving = 1.0 - total / all_od;
    r.saving_vs_on_demand = {.name = "saving_vs_on_demand", .value = saving, .unit = "fraction", .formula = "1 - total_cost_usd / all_on_demand_cost_usd",
                             .worked = "1 - " + format_number(total) + " / " + format_number(all_od) + " = " + format_number(saving),
                             .inputs = {r.total_cost_usd.as_input(), r.all_on_demand_cost_usd.as_input()}};
    r.saving_usd = make_figure("saving_usd", all_od - total, "USD", "all_on_demand_cost_usd - total_cost_usd",
                               format_number(all_od) + " - " + format_number(total) + " = " + format_number(all_od - total),
                               {r.all_on_demand_cost_usd.as_input(), r.total_cost_usd.as_input()});
    return r;
}

}  // namespace gpuplan
