// serving.cpp — the closed-loop continuous-batching model (serving.hpp).
#include "gpuplan/workload/serving.hpp"
#include "gpuplan/formula_text.hpp"

#include <cmath>

#include "gpuplan/text.hpp"

namespace gpuplan {

namespace {

struct Point {
    double rho, itl, ttft;
};

// Latencies for a given request time R.
Point at(const ClosedLoopRequest& q, double R) {
    const double C = q.concurrency, P = q.prefill_seconds, D = q.decode_step_seconds;
    Point p;
    p.rho = C * P / R;
    p.itl = D / (1 - p.rho);
    const double others = p.rho * (C - 1) / C;
    p.ttft = P + (C > 1 ? D / 2 + others * P / (2 * (1 - others)) : 0);
    return p;
}

}  // namespace

ClosedLoop closed_loop_serving(const ClosedLoopRequest& q) {
    const double C = q.concurrency, O = q.output_tokens, P = q.prefill_seconds, D = q.decode_step_seconds;
    // g(R) = TTFT(R) + O x ITL(R) - R is +inf just above R = C x P (prefills take all the time)
    // and falls without bound as R grows; its one root is the steady state.
    double lo = C * P, hi = C * P + P + O * D;
    while (at(q, hi).ttft + O * at(q, hi).itl > hi) hi *= 2;
    for (int k = 0; k < 200 && hi - lo > 1e-12 * hi; ++k) {
        const double mid = (lo + hi) / 2;
        const Point p = at(q, mid);
        (p.ttft + O * p.itl > mid ? lo : hi) = mid;
    }
    const double R = hi;
    const Point p = at(q, R);
    const std::vector<FigureInput> base = {input("concurrency", "requests", user_given(C)), input("output_tokens", "tokens", user_given(O)),
                                           input("prefill_seconds", "s", user_given(P)), input("decode_step_seconds", "s", user_given(D))};
    ClosedLoop r;
    r.request_seconds = {.name = "request_seconds", .value = R, .unit = "s", .formula = "R = time_to_first_token + output_tokens x inter_token_latency (solved for R: closed loop of C clients)",
                         .worked = n(p.ttft) + " + " + n(O) + " x " + n(p.itl) + " = " + n(R), .inputs = base};
    r.prefill_share = {.name = "prefill_share", .value = p.rho, .unit = "fraction", .formula = "C x prefill_seconds / request_seconds (the GPU time prefills take)",
                       .worked = n(C) + " x " + n(P) + " / " + n(R) + " = " + n(p.rho), .inputs = {input("concurrency", "requests", user_given(C)), input("prefill_seconds", "s", user_given(P)), r.request_seconds.as_input()}};
    r.inter_token_latency_seconds = {.name = "inter_token_latency_seconds", .value = p.itl, .unit = "s",
                                     .formula = "decode_step_seconds / (1 - prefill_share): arriving prefills run between decode steps",
                                     .worked = n(D) + " / (1 - " + n(p.rho) + ") = " + n(p.itl), .inputs = {input("decode_step_seconds", "s", user_given(D)), r.prefill_share.as_input()}};
    const double others = p.rho * (C - 1) / C;
    r.time_to_first_token_seconds = {.name = "time_to_first_token_seconds", .value = p.ttft, .unit = "s",
                                     .formula = C > 1 ? "prefill + decode_step / 2 + rho' x prefill / (2 (1 - rho')), rho' = prefill_share x (C - 1) / C (M/D/1 wait behind other clients' prefills)"
                                           : "prefill_seconds (one client: nothing else runs)",
                                     .worked = C > 1 ? n(P) + " + " + n(D) + " / 2 + " + n(others) + " x " + n(P) + " / (2 x (1 - " + n(others) + ")) = " + n(p.ttft)
                                           : n(P),
                                     .inputs = {input("prefill_seconds", "s", user_given(P)), input("decode_step_seconds", "s", user_given(D)), r.prefill_share.as_input()}};
    r.output_tokens_per_second = {.name = "output_tokens_per_second", .value = C * O / R, .unit = "tokens/s", .formula = "concurrency x output_tokens / request_seconds",
                                  .worked = n(C) + " x " + n(O) + " / " + n(R) + " = " + n(C * O / R), .inputs = {input("concurrency", "requests", user_given(C)), input("output_tokens", "tokens", user_given(O)), r.request_seconds.as_input()}};
    return r;
}

}  // namespace gpuplan
