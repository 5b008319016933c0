// compute.hpp — FLOPs and time: training compute, prefill and decode rooflines, collectives.
//
// Training FLOPs ~ 6 N per token (forward 2N + backward 4N; Kaplan et al. 2020, EleutherAI
// "Transformer Math 101"), 8 N with full activation recomputation (one more forward), plus
// attention's sequence-length term (Narayanan et al., SC'21, count 4 x layers x seq x heads x
// head_dim per token forward for QK^T and AV; causal attention computes half of it).
// Decode is memory-bound: each step reads every weight once plus every sequence's KV cache,
// so steps/s <= bandwidth / bytes per step (shared/cases/workloads.md W3).
#pragma once

#include "gpuplan/explain.hpp"
#include "gpuplan/workload/model.hpp"

namespace gpuplan {

// What the GPUs compute in training, per token: forward 2N + attention 2 x layers x seq x
// heads x head_dim (causal: half the scores; fused kernels skip the masked blocks), backward
// twice the forward; recompute adds a forward (full: the whole layer; selective: the
// attention core, Korthikanti et al. 2022). `model_flops` is the same without recompute, the
// numerator of MFU.
enum class RecomputeFlops { none, selective, full };
struct TrainingFlops {
    Figure hardware;     // FLOP per step, recompute included
    Figure model;        // FLOP per step, no recompute (MFU's numerator)
    double hardware_dense = 0, hardware_attention = 0;  // the two parts of `hardware` (FP8 runs the dense part only)
};
TrainingFlops training_step_flops(const ModelSpec& model, double tokens, double sequence, RecomputeFlops recompute);

// Seconds of compute: flops / (accelerators x dense peak x efficiency).
Figure compute_seconds(const Figure& flops, double accelerators, const Param& peak_tflops, const Param& efficiency);

struct DecodeRoofline {
    Figure bytes_per_step;       // weights + KV of every sequence
    Figure steps_per_second;     // upper bound at full bandwidth
    Figure tokens_per_second;    // steps x batch (upper bound)
    Figure tokens_per_second_expected;  // x bandwidth efficiency
};

// Weights one decode step of `batch` sequences reads: the active set, plus (MoE) the routed
// experts the batch's tokens touch, E (1 - (1 - k/E)^batch) per layer when routing is balanced.
double decode_read_parameters(const ModelSpec& model, const ParameterCount& params, double batch);
// Width of the attention scores per token: heads x head_dim (MLA: heads x (nope + rope) dims).
double attention_width(const ModelSpec& model);

// Memory-bound decode on `gpus` GPUs with `bandwidth_gb_per_s` each (tensor parallel
// splits the bytes), batch sequences at `context` tokens of KV each.
DecodeRoofline decode_roofline(const ModelSpec& model, double weight_bytes, double kv_bytes, double batch, double context,
                               double gpus, const Param& bandwidth_gb_per_s, const Param& efficiency);

// Prefill (compute-bound): seconds to process `prompt_tokens` x batch = time to first token.
Figure prefill_seconds(const ModelSpec& model, double prompt_tokens, double batch, double gpus, const Param& peak_tflops,
                       const Param& efficiency);

// Alpha-beta collectives (shared/cases/workloads.md W5): S bytes over n ranks at per-rank
// bandwidth B (GB/s, one direction) and per-step latency a (microseconds).
//   ring all-reduce               2 (n-1)/n x S/B + 2 (n-1) a
//   all-gather / reduce-scatter   (n-1)/n x S/B + (n-1) a
//   all-to-all (pairwise)         (n-1)/n x S/B + (n-1) a
enum class Collective { all_reduce, all_gather, reduce_scatter, all_to_all };
std::string_view to_string(Collective c);
Figure collective_seconds(Collective kind, double bytes, double ranks, const Param& bandwidth_gb_per_s, const Param& latency_us);

// Documented default efficiencies (docs/models.md), flagged as assumptions.
Param default_compute_efficiency();    // model FLOPs utilisation of dense peak
Param default_bandwidth_efficiency();  // achieved / datasheet memory bandwidth in decode

}  // namespace gpuplan
