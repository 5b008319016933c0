#include "gpuplan/pricing/idle_cost.hpp"

#include "gpuplan/input_error.hpp"

namespace gpuplan {

IdleResult evaluate_idle_cost(const IdleRequest& q) {
    const double day_hours = q.active_hours_per_day + (q.boot_setup_minutes + q.idle_shutdown_minutes) / 60.0;
    if (day_hours > 24)
        throw InputError("idle.active_hours_per_day", format_number(q.active_hours_per_day),
                         "a working day (with boot and idle-shutdown minutes) of at most 24 h, not " + format_number(day_hours) + " h");
    if (q.workdays_per_month > 31) throw InputError("idle.workdays_per_month", format_number(q.workdays_per_month), "at most 31 days");
    const FigureInput in_price = input("usd_per_hour", "USD/h", q.usd_per_hour);
    const FigureInput in_n = input("engineers", "", user_given(q.engineers));
    const double p = q.usd_per_hour.value;

    IdleResult r;
    const double on = q.hours_per_month * p;
    r.always_on_usd_per_instance = {.name = "always_on_usd_per_instance", .value = on, .unit = "USD/month", .formula = "hours_per_month x usd_per_hour",
                                    .worked = format_number(q.hours_per_month) + " x " + format_number(p) + " = " + format_number(on),
                                    .inputs = {input("hours_per_month", "h", user_given(q.hours_per_month)), in_price}};
    r.always_on_usd_total = {.name = "always_on_usd_total", .value = on * q.engineers, .unit = "USD/month", .formula = "always_on_usd_per_instance x engineers",
                             .worked = format_number(on) + " x " + format_number(q.engineers) + " = " + format_number(on * q.engineers),
                             .inputs = {r.always_on_usd_per_instance.as_input(), in_n}};
    const double hours = q.workdays_per_month * day_hours;
    r.ephemeral_hours_per_instance = {
        "ephemeral_hours_per_instance", hours, "h/month",
        "workdays_per_month x (active_hours_per_day + (boot_setup_minutes + idle_shutdown_minutes) / 60)",
        format_number(q.workdays_per_month) + " x (" + format_number(q.active_hours_per_day) + " + (" + format_number(q.boot_setup_minutes) +
            " + " + format_number(q.idle_shutdown_minutes) + ") / 60) = " + format_number(hours),
        {input("workdays_per_month", "d", user_given(q.workdays_per_month)), input("active_hours_per_day", "h", user_given(q.active_hours_per_day)),
         input("boot_setup_minutes", "min", user_given(q.boot_setup_minutes)), input("idle_shutdown_minutes", "min", user_given(q.idle_shutdown_minutes))},
        ""};
    const double eph = hours * p;
    r.ephemeral_usd_per_instance = {.name = "ephemeral_usd_per_instance", .value = eph, .unit = "USD/month", .formula = "ephemeral_hours_per_instance x usd_per_hour",
                                    .worked = format_number(hours) + " x " + format_number(p) + " = " + format_number(eph),
                                    .inputs = {r.ephemeral_hours_per_instance.as_input(), in_price}};
    r.ephemeral_usd_total = {.name = "ephemeral_usd_total", .value = eph * q.engineers, .unit = "USD/month", .formula = "ephemeral_usd_per_instance x engineers",
                             .worked = format_number(eph) + " x " + format_number(q.engineers) + " = " + format_number(eph * q.engineers),
                             .inputs = {r.ephemeral_usd_per_instance.as_input(), in_n}};
    const double storage = q.storage_gb * q.storage_usd_per_gb_month.value * q.engineers;
    r.storage_usd_total = {.name = "storage_usd_total", .value = storage, .unit = "USD/month", .formula = "storage_gb x usd_per_gb_month x engineers (paid in both cases)",
                           .worked = format_number(q.storage_gb) + " x " + format_number(q.storage_usd_per_gb_month.value) + " x " +
                               format_number(q.engineers) + " = " + format_number(storage),
                           .inputs = {input("storage_gb", "GB", user_given(q.storage_gb)), input("storage_usd_per_gb_month", "USD/GB-month", q.storage_usd_per_gb_month), in_n}};
    const double saving = 1.0 - eph / on;
    r.saving_fraction_compute = {.name = "saving_fraction_compute", .value = saving, .unit = "fraction", .formula = "1 - ephemeral_usd_per_instance / always_on_usd_per_instance",
                                 .worked = "1 - " + format_number(eph) + " / " + format_number(on) + " = " + format_number(saving),
                                 .inputs = {r.ephemeral_usd_per_instance.as_input(), r.always_on_usd_per_instance.as_input()}};
    return r;
}

}  // namespace gpuplan
