// fit.hpp — does a workload fit in the memory of the GPUs it runs on, and if not, what would?
//
// The sizes come from memory.hpp (training_memory, inference_memory); this module adds the
// GPUs they must fit on (a pool: an instance type x nodes, or a bare count and size), the
// capacity (the catalog's accelerator_memory_gib_each, GiB as EC2 reports it), the margin,
// host memory for offloaded states against the instance's RAM, the largest batch and longest
// context that fit, the search for the changes that would make a request fit, and the verdict
// in words. `gpuplan fit`, `gpuplan infer`, `gpuplan train`, the scenario's `fit` section and
// the app all ask it here, so they cannot disagree. Formulas: docs/models.md ("Memory fit").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/explain.hpp"
#include "gpuplan/workload/memory.hpp"
#include "gpuplan/workload/model.hpp"

namespace gpuplan {

// The GPUs a workload runs on: an instance type (x nodes), or a bare count and size.
struct GpuPool {
    const Instance* instance = nullptr;  // null for a bare pool
    const Accelerator* accelerator = nullptr;
    std::string accelerator_name = "GPU";
    double gpus_per_node = 1, nodes = 1;
    double slice = 1;                    // share of one chip (g6f/gr6f slices), else 1
    double gib_each = 0;                 // accelerator memory per GPU, GiB as EC2 reports it
    FigureInput gib_each_input;          // where gib_each came from
    std::string label;                   // "g6e.12xlarge (4 x L40S, 44.7 GiB each)"
    double gpus() const { return gpus_per_node * nodes; }
    double gb_each() const;              // gib_each in GB
};

// The pool of `nodes` instances of type `name` (InputError naming `where` for an unknown type
// or one whose accelerator count or memory is unknown).
GpuPool instance_pool(const Catalog& catalog, const std::string& name, double nodes, const std::string& where);
// `gpus` GPUs of `gib_each` GiB each, with no instance behind them.
GpuPool bare_pool(double gpus, double gib_each);
// Tensor parallel must divide the GPUs of one node (it is not modelled across nodes).
void check_tensor_parallel(double tp, const GpuPool& pool, const std::string& where);
// What an inference layout's tensor parallel is when the request gives none (explanations cite it).
inline constexpr const char* kDefaultTensorParallel = "default: all of the instance's GPUs (tensor_parallel not given)";
// Tensor parallel over an instance without NVLink: every layer's all-reduces cross PCIe.
bool tensor_parallel_over_pcie(double tp, const GpuPool& pool);
// "2 x L40S", "2 GPUs", "a 0.5 slice of one L4".
std::string gpus_text(double count, const GpuPool& pool);
nlohmann::json to_json(const GpuPool& pool);

// ---- inference -----------------------------------------------------------------------------

// What a user asks: the names of the dtypes, the shape, and tensor parallel (default: every
// GPU of one node). `inference_request` turns it into memory.hpp's request.
struct InferenceFitRequest {
    const ModelSpec* model = nullptr;
    std::string dtype = "bf16", kv_dtype = "bf16";
    double batch = 1, context = 8192;
    std::optional<double> tensor_parallel;
    std::optional<double> overhead_gib;  // replaces the default runtime overhead when given
};
InferenceMemoryRequest inference_request(const InferenceFitRequest& request, const GpuPool& pool);

// One change that would (or would not) make a request fit: "--dtype fp8: total 40 GB: fits".
struct FitAlternative {
    std::string change;  // in flags: "--dtype fp8", "--tp 4 on g6e.12xlarge", "--zero 3"
    std::optional<double> total_gb;
    bool fits = false;
    std::string text;    // the whole line as the verdict prints it
    // Training: the same change as a "train" section's keys ({"zero_stage": 3, "nodes": 4}), so a
    // view can apply it, and in words ("ZeRO stage 3, 4 nodes").
    nlohmann::json train_keys = nlohmann::json::object();
    std::string words;
};

struct InferenceFit {
    InferenceFitRequest serving;               // as asked
    InferenceMemoryRequest request;            // as memory.hpp takes it
    Figure parameters;                         // the model's parameter count
    InferenceMemory memory;
    Figure kv_bytes_per_token;
    Figure capacity_gb, margin_gb, max_batch, max_context;
    double replicas = 1;                       // whole tensor-parallel groups in the pool
    bool fits = false;
    bool weights_alone_too_big = false;
    std::vector<FitAlternative> alternatives;  // when it does not fit
    bool kv_heads_replicated = false;          // tensor parallel > KV heads: engines replicate them
    std::string verdict;   // "fits: yes/no — ..." and, when it does not, why and what would
    std::string refusal;   // one line for commands that refuse a request that does not fit

    std::vector<const Figure*> figures() const;  // in the order outputs list them
};
// Throws InputError naming the field ("tensor_parallel", "dtype", "kv_dtype") for an invalid request.
InferenceFit check_inference_fit(const InferenceFitRequest& request, const GpuPool& pool);

// ---- training ------------------------------------------------------------------------------

// What a user asks: the layout over the pool's GPUs. Data parallel defaults to GPUs / (tp x pp).
struct TrainingFitRequest {
    const ModelSpec* model = nullptr;
    std::optional<double> data_parallel;
    double tensor_parallel = 1, pipeline_parallel = 1;
    int zero_stage = 0;
    double micro_batch = 1, sequence = 2048;
    Recompute recompute = Recompute::none;
    bool offload_optimizer = false, offload_parameters = false;
    std::optional<double> overhead_gib;  // replaces the default runtime overhead when given
};
// memory.hpp's request for it on `pool`. Throws InputError naming the field ("tensor_parallel",
// "pipeline_parallel", "data_parallel x tensor_parallel x pipeline_parallel", "offload_parameters").
TrainingMemoryRequest training_request(const TrainingFitRequest& request, const GpuPool& pool);

struct TrainingFit {
    TrainingMemoryRequest request;
    Figure parameters;                      // the model's parameter count
    TrainingMemory memory;
    Figure capacity_gb, margin_gb;          // per GPU
    Figure host_per_node_gb, host_ram_gb;   // offloaded states per node, and the node's RAM
    bool fits = false;
    std::optional<bool> host_fits;          // only with offload and a known RAM size
    std::vector<FitAlternative> alternatives;  // each alone fits; or the last one: all together
    bool alternatives_combined = false;        // no single change fits: alternatives[0] is a combination
    std::string verdict;                    // "fits: yes — ..." (first line) and the lines after
    std::string refusal;                    // one line for `train`

    std::vector<const Figure*> figures() const;  // in the order outputs list them (host figures with offload)
};
// Whether a fit that fails searches for the changes that would make it fit (dozens of memory
// evaluations): sweeps that only need the verdict skip it.
enum class FitSearch { alternatives, verdict_only };

// `request` as memory.hpp takes it; `pool` the GPUs. Throws memory.hpp's InputError naming the
// field for an invalid request (e.g. parameter offload without ZeRO 3).
TrainingFit check_training_fit(const TrainingMemoryRequest& request, const GpuPool& pool, FitSearch search = FitSearch::alternatives);

// The whole answer of `gpuplan fit --format json` and of the scenario's `fit` section: one
// serialiser for both.
nlohmann::json to_json(const InferenceFit& fit, const GpuPool& pool);
nlohmann::json to_json(const TrainingFit& fit, const GpuPool& pool);

}  // namespace gpuplan
