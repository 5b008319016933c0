// memory.hpp — does a model fit: training model states and activations, inference weights
// and KV cache. Sizes are bytes; results say GB (10^9) or GiB (2^30) in their unit.
//
// Training model states (ZeRO paper: Rajbhandari et al., SC'20), mixed precision with Adam:
// 2 bytes weights + 2 gradients + K = 12 optimizer (fp32 master, momentum, variance) per
// parameter. With data-parallel degree N: stage 1 shards the optimizer (K/N), stage 2 also the
// gradients, stage 3 (= FSDP full shard) also the weights. Offload moves the optimizer (and,
// with stage 3, the weights) to host memory.
// Activations per layer (Korthikanti et al., "Reducing Activation Recomputation in Large
// Transformer Models", 2022, eq. 2-5), 16-bit, sequence s, micro-batch b, hidden h, heads a,
// tensor-parallel t with sequence parallelism:
//   none        s b h (34 + 5 a s / h) / t
//   selective   s b h 34 / t            (attention scores recomputed)
//   full        2 s b h / t             (only each layer's input kept)
#pragma once

#include <string>
#include <vector>

#include "gpuplan/explain.hpp"
#include "gpuplan/units.hpp"
#include "gpuplan/workload/model.hpp"

namespace gpuplan {

enum class Recompute { none, selective, full };

// Default runtime overhead: CUDA context and allocator fragmentation (docs/models.md).
Param default_runtime_overhead_gib();
std::string_view to_string(Recompute r);
// "none", "selective", "full"; throws InputError naming `where` for anything else.
Recompute recompute_named(std::string_view name, const std::string& where = "recompute");

struct TrainingMemoryRequest {
    const ModelSpec* model = nullptr;
    double data_parallel = 1, tensor_parallel = 1, pipeline_parallel = 1;
    int zero_stage = 0;              // 0 (DDP) .. 3 (FSDP full shard)
    bool offload_optimizer = false;  // optimizer states in host memory
    bool offload_parameters = false; // ZeRO-3 only: fp16 weights in host memory too
    double micro_batch = 1, sequence = 2048;
    Recompute recompute = Recompute::none;
    double weight_bytes = 2, grad_bytes = 2, optimizer_bytes = 12;  // per parameter
    Param runtime_overhead_gib = default_runtime_overhead_gib();  // per GPU
};

struct TrainingMemory {
    Figure weights_gb, gradients_gb, optimizer_gb, model_states_gb;  // per GPU
    Figure activations_gb, overhead_gb, total_per_gpu_gb;
    Figure host_per_gpu_gb;          // offloaded states, per GPU rank (x GPUs per host for a host)
    Figure bytes_per_parameter;      // per GPU, model states only
};

TrainingMemory training_memory(const TrainingMemoryRequest& request);

// A training job's parallel layout, as memory, step time and the recommenders take it.
struct ParallelLayout {
    double data = 1, tensor = 1, pipeline = 1, expert = 1;  // expert parallel: within data parallel
    int zero_stage = 0;                                      // 0 (DDP) .. 3 (FSDP full shard)
    double micro_batch = 1;                                  // sequences per micro-batch
    double global_batch_tokens = 0;                          // tokens per optimizer step, all replicas
    double sequence = 2048;
    Recompute recompute = Recompute::none;
    bool offload_optimizer = false;   // ZeRO-Offload: optimizer states and Adam on the host
    bool offload_parameters = false;  // ZeRO-3 only: parameters fetched from host too
    bool allow_cross_node_tensor_parallel = false;
};

// The per-GPU memory question for a layout (as `gpuplan fit --mode training` asks it).
TrainingMemoryRequest training_memory_request(const ModelSpec* model, const ParallelLayout& layout);

struct InferenceMemoryRequest {
    const ModelSpec* model = nullptr;
    double weight_bytes = 2;    // bf16 2, fp8 1, int8 1, int4 0.5
    double kv_bytes = 2;        // bf16 2, fp8 1
    double batch = 1, context = 8192;
    double tensor_parallel = 1; // weights and KV split across this many GPUs
    Param runtime_overhead_gib = default_runtime_overhead_gib();  // per GPU
};

struct InferenceMemory {
    Figure weights_gb, kv_cache_gb, overhead_gb, total_gb;  // all GPUs together
    Figure per_gpu_gb;
};

InferenceMemory inference_memory(const InferenceMemoryRequest& request);

// The largest batch (at the request's context) whose total fits `capacity_gb` across the
// tensor-parallel GPUs; 0 when the weights alone do not fit.
double max_batch_that_fits(const InferenceMemoryRequest& request, double capacity_gb);

// Bytes per value of a named dtype: "bf16"/"fp16" 2, "fp8"/"int8" 1, "int4" 0.5, "fp32" 4.
// Throws InputError naming `where` for anything else.
double dtype_bytes(const std::string& dtype, const std::string& where);

}  // namespace gpuplan
