// inference_steps.hpp — the steps estimate_inference (inference.hpp) is made of, in the order it
// runs them: the request against the instance, the memory and compute rates, the compute
// ceiling, the decode step and its rates, time to first token, serving under load, cost. Each
// fills its own figures of the estimate; declared here so that each has its own test
// (tests/core/inference_steps_test.cpp).
#pragma once

#include <optional>

#include "gpuplan/topology/topology.hpp"
#include "gpuplan/workload/inference.hpp"

namespace gpuplan::inference_steps {

// The request resolved against the instance: tensor parallel, prompt, under load and the
// batch; returns the memory request as asked (batch and context under load included).
InferenceFitRequest resolve_request(const Catalog& catalog, const InferenceEstimateRequest& request, InferenceEstimate& e);

// Memory bandwidth (measured, or the datasheet's; InputError when neither is known), the
// efficiencies and the dense peak of the weights' dtype.
void rates_step(const InferenceEstimateRequest& request, InferenceEstimate& e);

// The tokens/s one replica's FLOPs allow: devices x peak x efficiency / FLOPs per token
// (2 x active parameters + 4 x layers x context x attention width). Unknown without a peak.
Figure compute_ceiling(const ModelSpec& model, const ParameterCount& params, double devices, double context, const DensePeak& peak,
                       const Param& compute_efficiency);

// The decode step (the slower of the memory roofline and the compute ceiling, plus tensor-
// parallel all-reduces and the fixed step cost) and the rates per replica, GPU and instance.
// Needs e.roofline, e.compute_ceiling and e.replicas.
void decode_step(const InferenceEstimateRequest& request, double batch, const NodeTopology* tp_topology, InferenceEstimate& e);

// One read of the active weights at the achieved bandwidth: the floor of a prefill.
Figure weight_read_seconds(const ParameterCount& params, double weight_bytes, double devices, const Param& bandwidth, const Param& efficiency);

// Time to first token: the batch's prompts prefilled together, never faster than a weight read.
void time_to_first_token_step(const ModelSpec& model, double batch, double devices, const NodeTopology* tp_topology, InferenceEstimate& e);

// Serving under load: prefills of arriving requests interleave with decode (serving.hpp).
void under_load_step(const ModelSpec& model, double devices, const NodeTopology* tp_topology, InferenceEstimate& e);

// $ per 1M output tokens at the catalog's on-demand and typical spot prices.
void cost_step(const Catalog& catalog, const std::string& region, InferenceEstimate& e);

}  // namespace gpuplan::inference_steps
