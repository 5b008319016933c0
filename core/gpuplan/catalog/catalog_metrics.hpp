// catalog_metrics.hpp — price-normalised metrics per instance, for comparing across families.
//
//   usd_per_accelerator_hour        = on_demand / accelerator_count
//   usd_per_accel_gib_hour          = on_demand / total accelerator memory (GiB)
//   usd_per_dense_bf16_pflop_hour   = on_demand / (count x dense BF16 TFLOPS / 1000)
//   usd_per_tb_per_s_hour           = on_demand / (count x memory bandwidth GB/s / 1000)
// A fractional slice (g6f) counts as its fraction of the chip's FLOPS and bandwidth: a
// proportional share, stated in the explanation.
#pragma once

#include <string>
#include <vector>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/explain.hpp"

namespace gpuplan {

struct InstanceMetrics {
    Figure on_demand_usd_per_hour;
    Figure usd_per_accelerator_hour;
    Figure usd_per_accel_gib_hour;
    Figure usd_per_dense_bf16_pflop_hour;
    Figure usd_per_tb_per_s_hour;
    std::vector<Figure> all() const;
};

InstanceMetrics instance_metrics(const Catalog& catalog, const Instance& instance, const std::string& region);

}  // namespace gpuplan
