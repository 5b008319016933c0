// fleet_over_time.hpp — fleets whose size follows the load, costed from a history.
//
// Ephemeral against always-on, from a history of instances in use (each engineer's or job's
// instance runs only while used): an ephemeral instance is started boot_minutes before it is
// needed and stopped idle_shutdown_minutes after, so the instances running at time t are
//   running(t) = max of in_use over [t - idle_shutdown, t + boot]
// (a drop shorter than the shutdown delay, or a rise within the boot time, reuses a running
// instance), against an always-on fleet of the peak count for the whole history.
//
// Serving over a demand curve (requests/s over time), one instance serving
// capacity_requests_per_second at the target latency. Each policy keeps load / capacity at or
// below the target utilisation where it can: desired(t) = max(min, ceil(demand / (capacity x u)))
//   static     the peak desired count, all the time
//   scheduled  per hour of the week (of the day for histories under a week): the largest
//              desired count seen in that hour, started warmup_minutes ahead
//   autoscaled reacts to the demand (target tracking, as EC2 Auto Scaling and Kubernetes'
//              HPA do): launches at once what desired exceeds, ready warmup_minutes later
//              (boot + model load, billed); removes instances only when desired has stayed
//              lower for scale_in_minutes (the scale-in cooldown / stabilisation window)
// Requests above what the ready instances serve at full capacity are "served late". Simulated
// on a one-minute grid; the fleet starts at the first minute's desired count, ready.
// docs/pricing.md, "Fleets that follow the load", has the derivation and a worked example.
#pragma once

#include <vector>

#include "gpuplan/explain.hpp"
#include "gpuplan/pricing/usage_history.hpp"

namespace gpuplan {

struct EphemeralFromHistoryRequest {
    Param usd_per_instance_hour;
    double boot_minutes = 10;
    double idle_shutdown_minutes = 0;
};

struct EphemeralFromHistory {
    Figure always_on_instances;          // the peak count
    Figure always_on_usd;
    Figure in_use_instance_hours;        // the integral of the history
    Figure ephemeral_instance_hours;     // the integral of running(t)
    Figure idle_instance_hours;          // running but not in use: boots and shutdown delays
    Figure instance_starts;
    Figure ephemeral_usd;
    Figure saving_fraction;              // 1 - ephemeral / always-on
};

// The history must count instances. Throws InputError for a price <= 0 or negative minutes.
EphemeralFromHistory ephemeral_from_history(const UsageHistory& history, const EphemeralFromHistoryRequest& request);

struct ServingFleetRequest {
    Param capacity_requests_per_second;  // one instance, at the target latency
    Param usd_per_instance_hour;
    double target_utilization = 0.7;
    double warmup_minutes = 10;
    double scale_in_minutes = 15;
    double min_instances = 1;
};

enum class ServingPolicy { static_fleet, scheduled, autoscaled };
std::string_view policy_name(ServingPolicy policy);  // "static", "scheduled", "autoscaled"

struct ServingFleet {
    ServingPolicy policy = ServingPolicy::static_fleet;
    Figure instance_hours, cost_usd, late_share, peak_instances, mean_instances;
    std::vector<double> instances;  // running instances on the plan's series grid
};

struct ServingFleetPlan {
    Figure total_requests, peak_requests_per_second, desired_peak;
    std::vector<ServingFleet> fleets;          // static, scheduled, autoscaled
    std::vector<double> series_hours;          // the series grid: at most ~1,000 points
    std::vector<double> series_requests_per_second;
};

// The history must count requests/s. Throws InputError for a capacity or price <= 0, a target
// utilisation outside (0, 1] or negative minutes.
ServingFleetPlan plan_serving_fleets(const UsageHistory& demand, const ServingFleetRequest& request);

nlohmann::json to_json(const EphemeralFromHistory& result);
nlohmann::json to_json(const ServingFleetPlan& plan);

}  // namespace gpuplan
