// calibration.hpp — measured figures from benchmark results (`gpuplan bench run`,
// gpuplan-bench-mpi: gpuplan.bench/1) turned into the planner's overrides, and the datasheet
// figures those benchmarks are compared with (docs/benchmarks.md, "Datasheet expectations"
// and "Calibration").
//
// Which measurement replaces which planner figure (every one per GPU, per direction, GB/s):
//   host link (CPU offload)  the slower of h2d_pinned and d2h_pinned (cuda backend only: the
//                            cpu backend's copies never cross PCIe)
//   intra-node               nccl_all_reduce bus bandwidth on one node (largest size), else
//                            the slowest pair of p2p_matrix
//   inter-node               an NCCL collective's bus bandwidth over > 1 node (largest size),
//                            else net_p2p_bw (largest message) / GPUs per node: one MPI flow
//                            per node, so a lower bound on what NCCL over EFA reaches
//   device memory            dmem_triad (reported; the planner's decode model can take it)
// Records that failed, timed out or did not verify are never used.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/explain.hpp"
#include "gpuplan/measurements/bench_results.hpp"
#include "gpuplan/topology/topology.hpp"

namespace gpuplan {

struct MeasuredFigure {
    std::string planner_figure;  // "host_gb_per_s", "intra_gb_per_s", "inter_gb_per_s", "device_memory_gb_per_s"
    std::string flag;            // the `gpuplan train` flag it sets ("" when none)
    Param value;                 // origin measured, source "measured: <file> <case> ..."
    std::string from;            // in words: which records, which rule
};

struct BenchCalibration {
    std::vector<MeasuredFigure> figures;
    std::vector<std::string> skipped;  // records or figures not used, and why
    const MeasuredFigure* find(const std::string& planner_figure) const;
};

// `gpus_per_node`: from the fingerprint's GPU count or the instance (0: unknown, taken as 1).
BenchCalibration calibrate_from_bench(const BenchResults& bench, double gpus_per_node);

// Which measured figures a prediction took, and which it left because the request already had
// that figure (a figure the user gave wins).
struct CalibrationUse {
    std::vector<const MeasuredFigure*> applied, not_applied;
};
// Puts the measured host, intra-node and inter-node bandwidths into `overrides` in place of
// the datasheet figures (`gpuplan train --calibration`, the scenario's `calibration` section).
CalibrationUse apply_calibration(const BenchCalibration& calibration, TopologyOverrides& overrides);

// What a results file measured and which planner figure each replaces (JSON: `calibration`).
nlohmann::json to_json(const BenchResults& bench, const BenchCalibration& calibration);

// A datasheet figure for a kind of measurement on an instance type, or why it is unknown:
//   pcie_host      accelerator PCIe gen x lanes x per-lane rate (raw, per direction)
//   device_memory  accelerator memory bandwidth
//   peer           per direction: accelerator peer link / 2, else the instance's peer rate / 8 / 2
//   network        the instance's network rate / 8 (GB/s for the whole instance)
struct DatasheetFigure {
    std::optional<double> gb_per_s;
    std::string source;  // how it was read, or why it is unknown
};
DatasheetFigure datasheet_figure(const Catalog& catalog, const std::string& instance_type, const std::string& kind);

}  // namespace gpuplan
