// training_time.hpp — step time of a training job on `nodes` x one instance type.
//
// step = compute + pipeline bubble + exposed data-parallel communication + tensor-parallel
//        all-reduces + pipeline point-to-point + expert all-to-alls + CPU offload
// Every part is a Figure; docs/models.md ("Training time") gives each formula and source:
//   compute      hardware FLOPs / (GPUs x dense BF16 peak x efficiency): 6N + attention
//                (3 x 2 x layers x seq x heads x head_dim per token, causal), plus the
//                recomputed forward (2N + attention with full recompute, attention with
//                selective); MFU is reported on model FLOPs (no recompute)
//   data parallel  gradients 2 bytes x params / (tp x pp) [experts / ep]:
//                  ZeRO 0 all-reduce; 1-2 reduce-scatter + all-gather; 3 adds 2 parameter
//                  all-gathers (forward, backward) (Rajbhandari et al. 2020); exposed =
//                  comm - min(overlap x comm, compute window)
//   tensor       4 all-reduces of b x s x h x 2 bytes per layer per micro-batch, 6 with full
//                recompute (Shoeybi et al. 2019), on the critical path
//   pipeline     2 m point-to-point activations of b x s x h x 2 bytes; bubble (p-1)/(m+p-1)
//                of the pipelined work (Huang et al. 2019; Narayanan et al. 2021)
//   expert       2 all-to-alls (dispatch, combine) per MoE layer forward and 2 backward, of
//                b x s x h x 2 x top_k bytes (Lepikhin et al. 2020)
//   offload      ZeRO-Offload: fp16 gradients to host + fp16 parameters back over PCIe, and
//                CPU Adam on the host (Ren et al. 2021)
// Ranks are ordered tensor (fastest), then data/expert, then pipeline (Megatron-LM order).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/explain.hpp"
#include "gpuplan/workload/memory.hpp"
#include "gpuplan/workload/model.hpp"
#include "gpuplan/topology/topology.hpp"

namespace gpuplan {


// The precision the matrix multiplies of the linear layers run in: bf16 mixed precision, or
// FP8 (Transformer Engine, torchao float8) on FP8 tensor cores; attention stays in bf16.
enum class TrainingPrecision { bf16, fp8 };
std::string_view to_string(TrainingPrecision p);
std::optional<TrainingPrecision> parse_training_precision(std::string_view text);

// Fraction of each strategy's communication hidden under compute (documented defaults).
struct OverlapDefaults {
    Param ddp, zero12, zero3, tensor, pipeline_p2p, expert, offload;
};
OverlapDefaults default_overlap();
Param default_cpu_adam_params_per_s();  // per host (all its cores), parameters updated per second
// Share of dense BF16 peak the training FLOPs reach, by GPU generation: fitted on the
// calibration cases of assets/validation/ (docs/accuracy.md); 0.40 where none exists.
Param default_training_efficiency(const Accelerator* accelerator, TrainingPrecision precision = TrainingPrecision::bf16);

struct TrainingTimeRequest {
    const ModelSpec* model = nullptr;
    const Instance* instance = nullptr;
    double nodes = 1;
    // K of the instance's accelerators per node (a Kubernetes pod, a partial job); absent: all.
    // The links are those K GPUs use (K of 8 PCIe GPUs on one socket stay off the socket link).
    std::optional<double> gpus_per_node;
    ParallelLayout layout;
    TopologyOverrides topology;              // measured bandwidths replace datasheet ones
    std::optional<Param> peak_tflops;        // replaces the catalog's dense BF16 peak
    TrainingPrecision precision = TrainingPrecision::bf16;
    // Share of dense peak the hardware FLOPs run at. Absent: the default for the GPU's
    // generation (default_training_efficiency); a measured figure replaces it.
    std::optional<Param> compute_efficiency;
    OverlapDefaults overlap = default_overlap();
    Param cpu_adam_params_per_s = default_cpu_adam_params_per_s();
    Param usd_per_hour{0, InputOrigin::user, ""};  // one instance
    // Tokens to train on; none given: kDefaultTokenBudget, shown as a default assumption (the
    // scenario's train.tokens and `gpuplan train --tokens` share it).
    std::optional<double> token_budget;
    // The instance's node as node_topology(catalog, *instance) builds it, when the caller has
    // it already (a sweep timing one type at several node counts); else built here. Only
    // without `topology` overrides (std::logic_error otherwise: a prebuilt node has none).
    const NodeTopology* node = nullptr;
};
inline constexpr double kDefaultTokenBudget = 1e9;

struct TrainingTime {
    NodeTopology topology;
    double gpus_per_node = 0;               // as used (K, or every accelerator)
    Figure micro_batches;                   // m per step per data-parallel replica
    Figure compute_seconds;
    std::optional<Param> dense_peak_tflops;  // the BF16 (or FP16) peak compute_seconds uses, when known
    Figure data_parallel_comm_seconds;      // before overlap
    Figure data_parallel_exposed_seconds;   // after overlap
    Figure tensor_parallel_seconds, pipeline_p2p_seconds, expert_parallel_seconds;
    Figure bubble_seconds, offload_seconds;
    std::vector<Figure> exposed_by_link;    // "exposed_efa_gdr_seconds", ... (all communication)
    Param compute_efficiency;               // as used (the request's, or the generation default)
    Figure training_flops;                  // hardware FLOPs per step (recompute included)
    Figure step_seconds, tokens_per_second, tokens_per_second_per_gpu, mfu, total_seconds, total_hours, cost_usd;
    std::string bottleneck;                 // in words, with its share of the step
    std::vector<std::string> warnings;      // valid but unwise choices
    std::string does_not_fit;               // the memory model's refusal of the layout ("does not fit: ..."), or empty:
                                            // apart from warnings, so a plan that shows the fit itself need not repeat it
    std::vector<std::string> notes;         // topology notes, approximations used

    std::vector<Figure> all() const;
};

// Throws InputError naming the field ("layout.tensor", ...) for an invalid request.
TrainingTime training_time(const Catalog& catalog, const TrainingTimeRequest& request);

}  // namespace gpuplan
