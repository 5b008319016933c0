// bench_results.hpp — the machine fingerprint and the decode benchmark's bench-results document
// (schema gpuplan.bench/1), which the planner imports as calibration. The records and the
// document are the core's types and writer (core/gpuplan/measurements/bench_results.hpp), the
// same code that reads them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "decode_backend.hpp"
#include "gpuplan/measurements/bench_results.hpp"
#include "decode_pipeline.hpp"

namespace gpuplan::bench {

struct Fingerprint {
    std::string backend;                       // "cpu" or "cuda"
    std::optional<std::string> instance_type;  // --instance-type, else EC2 metadata read locally
    std::vector<GpuInfo> gpus;
    std::string driver_version, runtime_version;  // "" -> null
    std::string host;                          // hostname
};

// The EC2 instance type from files on this machine, never the network: cloud-init's
// /run/cloud-init/instance-data.json, else the DMI product name when the vendor is
// "Amazon EC2" (Nitro instances report their type there). nullopt when neither says.
std::optional<std::string> instance_type_from_metadata();

// GPUs and driver/runtime versions as the CUDA runtime reports them (none without CUDA).
Fingerprint machine_fingerprint(const std::string& backend, const std::optional<std::string>& instance_type);

// {"schema", "fingerprint", "records": [one per case run]} through the core's writer; WAIVED
// cases have no record.
// `run_status` (null: left out) is the document's "run" object: {"complete": false, "errors": [...]}
// after a failure.
nlohmann::json results_json(const Fingerprint& fingerprint, const DecodeConfig& config, const DecodeRun& run,
                            const nlohmann::json& run_status = nullptr);

}  // namespace gpuplan::bench
