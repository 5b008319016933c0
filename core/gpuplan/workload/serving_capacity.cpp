// serving_capacity.cpp — see serving_capacity.hpp.
#include "gpuplan/workload/serving_capacity.hpp"

#include <cmath>

#include "gpuplan/input_error.hpp"

namespace gpuplan {

ServingCapacity capacity_at_latency(const Catalog& catalog, InferenceEstimateRequest request, double max_inter_token_seconds) {
    if (!request.output_tokens || !request.prompt_tokens)
        throw InputError("output_tokens", "none", "serving under load: prompt and output tokens per request");
    if (!(max_inter_token_seconds > 0) || !std::isfinite(max_inter_token_seconds))
        throw InputError("max_inter_token_seconds", format_number(max_inter_token_seconds), "a latency > 0");
    const auto at = [&](double concurrency) {
        request.concurrency = concurrency;
        return estimate_inference(catalog, request);
    };
    const auto within = [&](const InferenceEstimate& e) {
        return e.fit.fits && e.inter_token_latency_seconds.value && *e.inter_token_latency_seconds.value <= max_inter_token_seconds;
    };
    InferenceEstimate best = at(1);
    if (!best.fit.fits) throw InputError("model", "one request in flight that does not fit: " + best.fit.refusal, "a model, precision and instance that fit");
    if (!within(best))
        throw InputError("max_inter_token_seconds", format_number(max_inter_token_seconds * 1000) + " ms",
                         "at least " + format_number(*best.inter_token_latency_seconds.value * 1000) + " ms, the inter-token latency of one request in flight");
    double good = 1, bad = 0;  // within the target at `good`; not at `bad` (0: not found yet)
    while (bad == 0 && good < 4096) {
        InferenceEstimate e = at(good * 2);
        if (within(e)) {
            good *= 2;
            best = std::move(e);
        } else {
            bad = good * 2;
        }
    }
    while (bad != 0 && bad - good > 1) {
        const double mid = std::floor((good + bad) / 2);
        InferenceEstimate e = at(mid);
        if (within(e)) {
            good = mid;
            best = std::move(e);
        } else {
            bad = mid;
        }
    }
    ServingCapacity c;
    c.concurrency = good;
    c.replicas = best.replicas;
    c.inter_token_latency_seconds = best.inter_token_latency_seconds;
    c.time_to_first_token_seconds = best.time_to_first_token_seconds;
    c.request_seconds = best.request_seconds;
    const double r = *best.request_seconds.value;
    const FigureInput in_target{"max_inter_token_seconds", max_inter_token_seconds, "s", InputOrigin::user, "", false};
    c.requests_per_second = make_figure("capacity_requests_per_second", best.replicas * good / r, "requests/s",
                                        "replicas x concurrency / request_seconds, at the largest concurrency whose inter-token latency is within the target",
                                        format_number(best.replicas) + " x " + format_number(good) + " / " + format_number(r) + " = " + format_number(best.replicas * good / r),
                                        {best.request_seconds.as_input(), best.inter_token_latency_seconds.as_input(), in_target});
    return c;
}

}  // namespace gpuplan
