// decode_fit.hpp — find the stage durations and the contention factor that make the decode
// simulation reproduce measured runs (the pipeline case, or `gpuplan bench decode` results).
//
// Four measurements, three unknowns (the D2H copy stays what the link gives):
//   sync:  T_s = chunks x (compute + d2h + host),  U_s = chunks x compute / T_s
//          → compute_ms = U_s x T_s / chunks,  host_ms = T_s / chunks - compute_ms - d2h_ms
//   async: the simulated asynchronous time grows with the contention factor c; bisection
//          on c in [0, 1000] (64 halvings) finds the c that gives T_a.
// The asynchronous utilisation U_a is then a prediction, and the fit reports how far each of
// the four lands from its measurement.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpuplan/explain.hpp"
#include "gpuplan/decode/decode_sim.hpp"

namespace gpuplan {

struct DecodeMeasurement {
    Param sync_seconds, async_seconds;          // seconds per video
    Param sync_utilization, async_utilization;  // kernel-busy fraction of the wall time
    std::string source;                         // "given" or "bench file …: decode.sync_pinned + decode.async"
};

// Throws InputError naming the field ("fit.sync_seconds", ...) for a value that is not
// finite or out of range (times > 0, utilisations in (0, 1]).
void validate(const DecodeMeasurement& m);

struct DecodeFit {
    DecodeSimRequest fitted;   // the request with compute_ms, host_ms and contention replaced
    Figure compute_ms, host_ms, contention;
    Figure contention_free_async_seconds;  // the same fit with c = 0: what a model without contention predicts
    // Simulated minus measured: relative for times, percentage points for utilisations.
    Figure sync_seconds_error, async_seconds_error, sync_utilization_error_points, async_utilization_error_points;
    bool within_tolerance = false;  // times within 1%, utilisations within 1 point
    std::vector<std::string> notes;
    std::vector<Figure> all() const;
};

// `base` gives the shape (chunks, frames, resolution, dtype), the link and the buffers; its
// compute_ms, host_ms and contention are ignored. Throws InputError when the measurements
// contradict the model (the sync stall is shorter than the D2H copy the link allows).
DecodeFit fit_decode(const DecodeSimRequest& base, const DecodeMeasurement& measured);

}  // namespace gpuplan
