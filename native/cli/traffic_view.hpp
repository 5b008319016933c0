// traffic_view.hpp — serving a request rate to latency targets (core: workload/serving_traffic.hpp)
// as the CLI shows it: the flags that describe the traffic, and the plan as a table.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "gpuplan/pricing/quota.hpp"
#include "gpuplan/workload/serving_traffic.hpp"
#include "output.hpp"

namespace gpuplan::cli {

struct TrafficFlags {
    double rate = 0;
    std::string prompt_dist, output_dist;
    std::vector<std::string> targets;
    double target_p95_ttft_ms = 0;
    double max_batch = 256;
    CLI::App* app = nullptr;
    bool given() const { return app->count("--rate") > 0; }
};

// --rate, --prompt-tokens-dist, --output-tokens-dist, --target, --target-p95-ttft-ms, --max-batch
// (the last one only when `with_max_batch`: recommend has its own).
void add_traffic_options(CLI::App& app, TrafficFlags& flags, bool with_max_batch);

// The flags as the core's request; InputError naming the flag for a bad value, or for a target
// or length given without --rate.
TrafficRequest traffic_request(const TrafficFlags& flags);

// The plan: replicas, percentiles, instances and on-demand cost, then how the replicas were
// found and the assumptions; json: to_json(plan, request).
std::string render_traffic_plan(const ServingTrafficPlan& plan, const TrafficRequest& request, const AccountQuotas& quotas, Format format, bool explain);

}  // namespace gpuplan::cli
