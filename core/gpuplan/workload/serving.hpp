// serving.hpp — requests served under continuous batching: time to first token, inter-token
// latency and output tokens/s when `concurrency` clients each keep one request in flight.
//
// The engine (vLLM, TensorRT-LLM, SGLang) batches at the iteration level: a new request's
// prefill runs as soon as it arrives, between decode steps, and every request in flight
// decodes one token per step (Yu et al., "Orca", OSDI 2022; Kwon et al., "vLLM", SOSP 2023).
// In a closed loop of C clients (how genai-perf, vLLM's benchmark_serving and trtllm-bench
// measure at a fixed concurrency) each request takes R = TTFT + O x ITL seconds, so requests
// arrive at C / R per second and prefills take the share rho = C x prefill / R of the GPU's
// time. Decode steps run in the rest, so
//   ITL  = decode_step / (1 - rho)
//   TTFT = prefill + (C > 1: half a decode step in progress + M/D/1 wait behind the other
//          clients' prefills, rho' x prefill / (2 (1 - rho')), rho' = rho (C - 1) / C)
//   output tokens/s = C x O / R
// R appears on both sides; it is found by bisection (the right side falls as R grows).
// docs/models.md ("Serving under load") has the derivation and its limits (no chunked
// prefill, no preemption, every client's request the same length).
#pragma once

#include "gpuplan/explain.hpp"

namespace gpuplan {

struct ClosedLoopRequest {
    double concurrency = 1;       // C: requests in flight
    double output_tokens = 1;     // O: tokens generated per request
    double prefill_seconds = 0;   // one request's prefill, alone on the replica
    double decode_step_seconds = 0;  // one decode step with C requests at their average context
};

struct ClosedLoop {
    Figure request_seconds;             // R
    Figure prefill_share;               // rho
    Figure inter_token_latency_seconds;
    Figure time_to_first_token_seconds;
    Figure output_tokens_per_second;    // per replica
};

ClosedLoop closed_loop_serving(const ClosedLoopRequest& request);

}  // namespace gpuplan
