#include "gpuplan/catalog/catalog_metrics.hpp"

#include "gpuplan/pricing/purchase_options.hpp"

namespace gpuplan {

std::vector<Figure> InstanceMetrics::all() const {
    return {on_demand_usd_per_hour, usd_per_accelerator_hour, usd_per_accel_gib_hour, usd_per_dense_bf16_pflop_hour, usd_per_tb_per_s_hour};
}

namespace {

// price / (count x per_chip / scale), or unknown with the first missing fact's reason.
Figure per_capacity(const std::string& name, const std::string& unit, const std::string& capacity_name, const std::string& capacity_unit,
                    const std::optional<Param>& price, const std::string& price_why, const Instance& inst,
                    const std::optional<double>& per_chip, const std::string& per_chip_why, const std::string& per_chip_source,
                    double scale) {
    const std::string formula = "on_demand_usd_per_hour / (accelerator_count x " + capacity_name +
                                (scale != 1 ? " / " + format_number(scale) : std::string()) + ")";
    if (!price) return unknown_figure(name, unit, formula, price_why);
    if (!inst.accelerator_count) return unknown_figure(name, unit, formula, "accelerator count unknown: " + inst.unknown_reason("accelerator_count"));
    if (!per_chip) return unknown_figure(name, unit, formula, capacity_name + " unknown: " + per_chip_why);
    const double capacity = *inst.accelerator_count * *per_chip / scale;
    const double v = price->value / capacity;
    return {name, v, unit, formula,
            format_number(price->value) + " / (" + format_number(*inst.accelerator_count) + " x " + format_number(*per_chip) +
                (scale != 1 ? " / " + format_number(scale) : std::string()) + ") = " + format_number(v),
            {input("on_demand_usd_per_hour", "USD/h", *price),
             input("accelerator_count", "", {*inst.accelerator_count, InputOrigin::catalog, "catalog " + inst.name}),
             input(capacity_name, capacity_unit, {*per_chip, InputOrigin::catalog, per_chip_source})},
            ""};
}

}  // namespace

InstanceMetrics instance_metrics(const Catalog& catalog, const Instance& inst, const std::string& region) {
    InstanceMetrics m;
    const auto price = catalog_price(catalog, inst, region, PriceKind::on_demand);
    const std::string price_why = price_unknown_reason(inst, region, PriceKind::on_demand);
    if (price)
        m.on_demand_usd_per_hour = {.name = "on_demand_usd_per_hour", .value = price->value, .unit = "USD/h", .formula = "catalog price", .worked = format_number(price->value),
                                    .inputs = {input("on_demand_usd_per_hour", "USD/h", *price)}};
    else
        m.on_demand_usd_per_hour = unknown_figure("on_demand_usd_per_hour", "USD/h", "catalog price", price_why);

    const Accelerator* acc = inst.accelerator ? catalog.find_accelerator(*inst.accelerator) : nullptr;
    const std::string acc_src = acc ? "catalog accelerator " + acc->name : "";
    const std::string no_acc = "accelerator unknown: " + inst.unknown_reason("accelerator");

    if (!price)
        m.usd_per_accelerator_hour = unknown_figure("usd_per_accelerator_hour", "USD/accelerator-h", "on_demand_usd_per_hour / accelerator_count", price_why);
    else if (!inst.accelerator_count)
        m.usd_per_accelerator_hour = unknown_figure("usd_per_accelerator_hour", "USD/accelerator-h", "on_demand_usd_per_hour / accelerator_count",
                                             "accelerator count unknown: " + inst.unknown_reason("accelerator_count"));
    else
        m.usd_per_accelerator_hour = {.name = "usd_per_accelerator_hour", .value = price->value / *inst.accelerator_count, .unit = "USD/accelerator-h",
                                      .formula = "on_demand_usd_per_hour / accelerator_count",
                                      .worked = format_number(price->value) + " / " + format_number(*inst.accelerator_count) + " = " +
                                          format_number(price->value / *inst.accelerator_count),
                                      .inputs = {input("on_demand_usd_per_hour", "USD/h", *price),
                                       input("accelerator_count", "", {*inst.accelerator_count, InputOrigin::catalog, "catalog " + inst.name})}};

    if (inst.accelerator_count && *inst.accelerator_count < 1) {
        // A slice's memory is listed per slice, so it is its whole memory.
        const auto gib = inst.total_accelerator_memory_gib();
        m.usd_per_accel_gib_hour = per_capacity("usd_per_accel_gib_hour", "USD/GiB-h", "slice_memory_gib_over_count", "GiB", price, price_why, inst,
                                                gib ? std::optional<double>(*gib / *inst.accelerator_count) : std::nullopt,
                                                inst.unknown_reason("accelerator_memory_gib_each"), "catalog " + inst.name, 1);
    } else {
        m.usd_per_accel_gib_hour = per_capacity("usd_per_accel_gib_hour", "USD/GiB-h", "accelerator_memory_gib_each", "GiB", price, price_why, inst,
                                                inst.accelerator_memory_gib_each, inst.unknown_reason("accelerator_memory_gib_each"),
                                                "catalog " + inst.name, 1);
    }
    if (!acc) {
        m.usd_per_dense_bf16_pflop_hour = unknown_figure("usd_per_dense_bf16_pflop_hour", "USD/PFLOP-h", "", no_acc);
        m.usd_per_tb_per_s_hour = unknown_figure("usd_per_tb_per_s_hour", "USD/(TB/s)-h", "", no_acc);
        return m;
    }
    m.usd_per_dense_bf16_pflop_hour =
        per_capacity("usd_per_dense_bf16_pflop_hour", "USD/PFLOP-h", "dense_bf16_tflops", "TFLOPS", price, price_why, inst,
                     acc->dense_tflops.bf16, acc->unknown.count("dense_tflops.bf16") ? acc->unknown.at("dense_tflops.bf16") : "", acc_src, 1000);
    m.usd_per_tb_per_s_hour =
        per_capacity("usd_per_tb_per_s_hour", "USD/(TB/s)-h", "memory_bandwidth_gb_per_s", "GB/s", price, price_why, inst,
                     acc->memory_bandwidth_gb_per_s,
                     acc->unknown.count("memory_bandwidth_gb_per_s") ? acc->unknown.at("memory_bandwidth_gb_per_s") : "", acc_src, 1000);
    return m;
}

}  // namespace gpuplan
