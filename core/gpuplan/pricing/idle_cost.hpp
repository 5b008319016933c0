// idle_cost.hpp — always-on versus ephemeral development instances.
//
//   always-on per instance   = hours_per_month x usd_per_hour
//   ephemeral hours          = workdays x (active_hours_per_day + (boot_setup_minutes + idle_shutdown_minutes) / 60)
//   ephemeral per instance   = ephemeral hours x usd_per_hour
//   storage (both cases)     = storage_gb x usd_per_gb_month  (a stopped instance keeps its volume)
//   saving (compute only)    = 1 - ephemeral / always-on
#pragma once

#include "gpuplan/explain.hpp"
#include "gpuplan/pricing/purchase_option.hpp"

namespace gpuplan {

struct IdleRequest {
    double engineers = 1;
    Param usd_per_hour;                 // instance price
    double hours_per_month = kHoursPerMonth;
    double active_hours_per_day = 6;
    double workdays_per_month = 22;
    double boot_setup_minutes = 10;     // per working day
    double idle_shutdown_minutes = 0;   // instance kept running after the last activity, per day
    double storage_gb = 0;              // volume kept while stopped, per engineer
    Param storage_usd_per_gb_month;
};

struct IdleResult {
    Figure always_on_usd_per_instance, always_on_usd_total;
    Figure ephemeral_hours_per_instance, ephemeral_usd_per_instance, ephemeral_usd_total;
    Figure storage_usd_total;           // its own line, paid in both cases
    Figure saving_fraction_compute;
};

// Throws InputError when the ephemeral day is longer than 24 h or hours exceed the month.
IdleResult evaluate_idle_cost(const IdleRequest& request);

}  // namespace gpuplan
