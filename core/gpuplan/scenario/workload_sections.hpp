// workload_sections.hpp — the scenario's `fit` and `infer` sections: the questions
// `gpuplan fit` and `gpuplan infer` answer, asked in a scenario document so that `gpuplan eval`,
// the browser app and the JS API give the same figures as the commands (docs/scenario.md).
//
//   "fit":   {"model", "mode": "inference"|"training", "instance" [+ "nodes"] or "gpus" +
//             "gpu_memory_gib"; inference: "dtype", "kv_dtype", "batch", "context", "tensor_parallel";
//             training: "data_parallel", "tensor_parallel", "pipeline_parallel", "zero_stage", "micro_batch", "sequence",
//             "recompute", "offload_optimizer", "offload_parameters"; both: "runtime_overhead_gib"}
//   "infer": {"model", "instance", "dtype", "kv_dtype", "batch", "context", "prompt_tokens",
//             "tensor_parallel", "bandwidth_efficiency", "compute_efficiency",
//             "measured_bandwidth_gb_per_s", "runtime_overhead_gib"}  (region: the scenario's)
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/json_reader.hpp"
#include "gpuplan/topology/collective.hpp"
#include "gpuplan/topology/machine_topology.hpp"
#include "gpuplan/workload/fit.hpp"
#include "gpuplan/workload/inference.hpp"

namespace gpuplan {

enum class FitMode { inference, training };

struct FitSection {
    FitMode mode = FitMode::inference;
    std::string instance;                   // empty: a bare pool of `gpus` x `gpu_memory_gib`
    double nodes = 1, gpus = 0, gpu_memory_gib = 0;
    InferenceFitRequest inference;
    TrainingFitRequest training;
};

// The model preset named at `key` (InputError listing the presets for an unknown name).
// A preset, or a model of the scenario's "models" list while a ScenarioModels is alive.
const ModelSpec& require_model_preset(ObjectReader& reader, const char* key);

// The scenario's "models" section: models defined as in a models file (docs/models.md; the app
// writes one from a pasted config.json), which every section may name while this is alive.
class ScenarioModels {
public:
    explicit ScenarioModels(ObjectReader& root);
    ~ScenarioModels();
    ScenarioModels(const ScenarioModels&) = delete;
    ScenarioModels& operator=(const ScenarioModels&) = delete;
    const std::vector<const ModelSpec*>& models() const { return models_; }

private:
    std::vector<const ModelSpec*> models_;
    const std::vector<const ModelSpec*>* previous_ = nullptr;
};

// Both check every value against the catalog and the model as they read it, so a scenario that
// parses also evaluates; errors name the JSON path under `root`.
std::optional<FitSection> parse_fit_section(ObjectReader& root, const Catalog& catalog);
std::optional<InferenceEstimateRequest> parse_infer_section(ObjectReader& root, const Catalog& catalog, const std::string& region);
// `collective`: {op, instance, nodes, bytes, gpus_per_node} as `gpuplan collective` (collective.hpp).
std::optional<CollectiveRequest> parse_collective_section(ObjectReader& root, const Catalog& catalog);

// `topology`: {"name": "nccl.log", "text": <an NCCL topology dump or nvidia-smi topo -m>,
// "instance": compared with (optional)} — the machine's own links (machine_topology.hpp). The
// train and collective sections plan with its figures (calibration_from_topology).
struct TopologySection {
    std::string name, text, instance;
    MachineTopology machine;
};
std::optional<TopologySection> parse_topology_section(ObjectReader& root, const Catalog& catalog);

// The pool a fit section names (instance x nodes, or the bare GPUs).
GpuPool fit_pool(const FitSection& section, const Catalog& catalog);
// A fit section's answer: the pool and the fit for the section's mode (the other is empty).
struct FitSectionResult {
    GpuPool pool;
    std::optional<InferenceFit> inference;
    std::optional<TrainingFit> training;
};
FitSectionResult evaluate_fit_section(const FitSection& section, const Catalog& catalog);
// The same document `gpuplan fit --format json` prints for the same question.
nlohmann::json to_json(const FitSectionResult& result);

}  // namespace gpuplan
