// decode_plan.hpp — the decode-pipeline question as the scenario and the CLI ask it: which
// instance, what video, which stage durations (given, or fitted to measurements or to a
// `gpuplan bench` results document); and the answer: both pipelines simulated, the fit and
// how close it lands, the RTF, and the cost per hour of video for every purchase option.
//
// Where the link comes from, first match wins: link_gb_per_s (given/measured) → the bench
// document's measured D2H → the instance's GPU-host PCIe link (topology/topology.hpp).
// The video duration: video_seconds → sync_rtf (duration = sync decode seconds / sync RTF;
// the measured sync time when fitting, as pricing case P6 does) → the bench sync record's RTF.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/json_reader.hpp"
#include "gpuplan/measurements/bench_results.hpp"
#include "gpuplan/decode/decode_fit.hpp"
#include "gpuplan/decode/decode_sim.hpp"

namespace gpuplan {

struct DecodeRequest {
    // The video: required unless a bench document gives it.
    std::optional<Param> chunks, frames_per_chunk, height, width;
    std::optional<Param> channels, dtype_bytes;  // defaults: 3 (RGB), 4 (fp32)
    // Stages: required unless fitted (and refused when fitted: the fit finds them).
    std::optional<Param> compute_ms, host_ms;
    std::optional<Param> contention;  // default: default_decode_contention(); fitted when fitting
    std::optional<Param> buffers;     // default: default_decode_buffers()
    // Where it runs.
    std::optional<std::string> instance;  // catalog type: host link and purchase options
    std::string region = "us-east-1";
    std::optional<Param> link_gb_per_s, link_latency_us;
    // The video's duration (for RTF and cost) and a price to cost beside the catalog's.
    std::optional<Param> video_seconds, sync_rtf, usd_per_hour;
    // Fit: measured figures, or a bench document (which then also gives the video).
    std::optional<DecodeMeasurement> fit;
    std::optional<BenchResults> bench;
};

struct DecodeCostOption {
    std::string key, label;  // "given", or a Quote's key and label
    bool available = true;
    std::string unavailable_reason;
    Figure usd_per_hour, sync_usd_per_video_hour, async_usd_per_video_hour, saving_usd_per_1000_video_hours;
};

struct DecodeCost {
    std::string basis;  // "simulated" or "measured" decode times
    Figure rtf_sync, rtf_async;
    Figure gpu_hours_per_1000_video_hours_sync, gpu_hours_per_1000_video_hours_async;
    std::vector<DecodeCostOption> options;
};

// A bench record set beside the simulation with the fitted stages and its own buffers.
struct DecodeBenchCheck {
    std::string case_name, path;
    double buffers = 1;
    double measured_seconds = 0, simulated_seconds = 0;
    std::optional<double> measured_utilization;
    double simulated_utilization = 0;
};

struct DecodeReport {
    std::string instance;  // "" when only a link was given
    std::string region;
    std::string link_description;
    DecodeSimRequest inputs;  // resolved: defaults, link and fitted stages filled in
    DecodeSimResult sim;
    std::optional<DecodeMeasurement> measured;
    std::optional<DecodeFit> fit;
    std::optional<Figure> video_seconds;
    std::optional<DecodeCost> cost;           // from the simulated times
    std::optional<DecodeCost> measured_cost;  // from the measured times (fit only)
    std::vector<DecodeBenchCheck> bench_checks;
    std::string bench_summary;  // "cuda on g7e.2xlarge (NVIDIA RTX PRO 6000 ...)"
    std::vector<std::string> notes;
};

// Throws InputError naming the field ("decode.chunks", "decode.instance", "fit.sync_seconds",
// ...) for missing, contradictory or bad input.
DecodeReport evaluate_decode(const Catalog& catalog, const DecodeRequest& request);

// The scenario's "decode" section (docs/decode-pipeline.md). `path` is the section's JSON
// path ("file.json: $.decode"); errors name paths under it.
DecodeRequest parse_decode_request(const Json& section, const std::string& path, const Catalog& catalog, const std::string& region);

// The result: figures, fit, cost, bench checks and the timeline of both pipelines.
nlohmann::json to_json(const DecodeReport& report);

}  // namespace gpuplan
