// training_steps.hpp — the steps training_time (training_time.hpp) is made of, one function per
// term of the step, in the order it runs them (as Calculon's `_compute_*` methods split its
// model). Each takes the checked layout in numbers (TrainingShape) and the links it crosses,
// and returns its figures; training_time only chains them and collects the exposed parts.
// Declared here so that each step has its own test (tests/core/training_steps_test.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpuplan/workload/training_time.hpp"

namespace gpuplan::training_steps {

// The request checked, in numbers: GPUs, the parallel degrees, micro-batches per step.
struct TrainingShape {
    double nodes = 1, gpus_per_node = 1, gpus = 1;
    double data = 1, tensor = 1, pipeline = 1, expert = 1;
    double micro_batch = 1, sequence = 1, global_batch_tokens = 1, micro_batches = 1;
    double hidden = 0;            // the model's width (activation bytes = b x s x h x 2)
    int zero_stage = 0;
    bool full_recompute = false;  // recompute the whole forward (6 TP all-reduces, not 4)
};

// Checks the request (throws InputError naming the field) and returns its shape.
TrainingShape check_request(const Catalog& catalog, const TrainingTimeRequest& request);

// A share of the step's exposed time, on the link class it crosses (none: not communication).
struct ExposedPart {
    std::string label;
    LinkClass cls = LinkClass::none;
    double seconds = 0;
    bool assumed = false;  // rests on a default assumption
};

// The exposed parts so far and the first figure that made the step unknown.
struct StepParts {
    std::vector<ExposedPart> parts;
    std::string unknown_reason;
    // True when `f` is known; otherwise keeps the first unknown figure's reason.
    bool need(const Figure& f);
    // A collective's exposed time shared between its links in proportion to each one's own
    // time (its phases overlap, so the parts add up to the exposed time).
    void add_collective(const std::string& label, const CollectiveCost& cost, double exposed_seconds, const Figure& source);
};

// Compute: hardware FLOPs over the GPUs' peak x efficiency (FP8 linear layers at the FP8 peak).
struct ComputeStep {
    std::optional<Param> bf16_peak;  // the dense BF16 (or FP16) peak MFU is stated against
    TrainingFlops flops;
};
ComputeStep compute_step(const Accelerator& accelerator, const ModelSpec& model, const TrainingTimeRequest& request,
                         const TrainingShape& shape, TrainingTime& out);

// Data parallel: the ZeRO stage's collectives per step, before and after overlap.
void data_parallel_step(const TrainingShape& shape, double params_per_rank, const NodeTopology& topo, const OverlapDefaults& overlap,
                        TrainingTime& out, StepParts& parts);

// Tensor parallel: 4 all-reduces per layer per micro-batch (6 with full recompute).
void tensor_parallel_step(const TrainingShape& shape, double layers, const NodeTopology& topo, const Param& overlap, TrainingTime& out,
                          StepParts& parts);

// Pipeline point-to-point: activations forward, gradients backward, per micro-batch.
Figure pipeline_p2p_seconds(const TrainingShape& shape, const Link& link, const Param& overlap);

// Expert parallel: 2 all-to-alls per MoE layer forward and 2 backward (+2 with full recompute).
Figure expert_parallel_seconds(const TrainingShape& shape, const ModelSpec& model, const NodeTopology& topo, const Param& overlap,
                               StepParts& parts);

// The pipeline bubble over the pipelined work; needs the compute and per-micro-batch figures.
Figure bubble_seconds(const TrainingShape& shape, const TrainingTime& so_far);

// ZeRO-Offload: gradients out, parameters back over PCIe, and CPU Adam; zero without
// layout.offload_optimizer, and 8 rather than 4 bytes per parameter with layout.offload_parameters.
Figure offload_seconds(const TrainingShape& shape, double params_per_rank, const ParallelLayout& layout, const Link& host,
                       const Param& cpu_adam_params_per_s, const Param& overlap);

// The exposed communication summed per link class ("exposed_efa_gdr_seconds", ...).
std::vector<Figure> exposed_by_link(const std::vector<ExposedPart>& parts);

// Step time, throughput, MFU, total time and cost from the terms above (all known).
void totals_step(const TrainingShape& shape, const TrainingTimeRequest& request, const ComputeStep& compute, const std::string& layout_text,
                 TrainingTime& out);

// The largest share of the step, in words.
std::string bottleneck_words(const TrainingTime& time, const std::vector<ExposedPart>& parts);

}  // namespace gpuplan::training_steps
