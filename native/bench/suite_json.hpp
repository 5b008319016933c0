// suite_json.hpp — the machine fingerprint and the gpuplan.bench/1 document of `gpuplan bench
// run` and gpuplan-bench-mpi, written atomically (temp file + rename) so a reader never sees
// a truncated file. Keys are a contract with core/gpuplan/measurements/bench_results.* (the
// reader) and docs/benchmarks.md ("Results file").
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "suite.hpp"
#include "transfer_backend.hpp"

namespace gpuplan::bench {

struct RunInfo {
    std::string tool;            // "gpuplan bench run" | "gpuplan-bench-mpi"
    std::string version;         // gpuplan's
    std::string depth;           // quick | standard | full
    nlohmann::json options = nlohmann::json::object();
    std::string started_utc;     // ISO 8601
};

// The machine: instance type (given, else cloud-init / DMI product name, read locally), CPU,
// NUMA nodes, GPUs with PCIe link (sysfs), copy engines, clocks, driver/runtime, peer matrix.
// `backend` may be null (the MPI runner without GPUs).
nlohmann::json suite_fingerprint(TransferBackend* backend, const std::string& backend_name,
                                 const std::optional<std::string>& instance_type);

nlohmann::json record_json(const Record& r);
nlohmann::json suite_document(const nlohmann::json& fingerprint, const RunInfo& info, const SuiteRun& run);

// Writes `doc` to path through write_output_file (output_file.hpp: whole or not at all, devices
// and links written, never replaced). Throws BenchError(failed) naming the path.
void write_json_atomically(const std::string& path, const nlohmann::json& doc);

std::string utc_now_iso8601();

// "16.0 GT/s PCIe" -> 4 (PCIe generation from a sysfs link speed); nullopt when unknown.
std::optional<int> pcie_generation(const std::string& link_speed);

}  // namespace gpuplan::bench
