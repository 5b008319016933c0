#include "gpuplan/workload/compute.hpp"
#include "gpuplan/formula_text.hpp"

#include <cmath>

namespace gpuplan {

Param default_compute_efficiency() {
    return {0.40, InputOrigin::assumption,
            "default model FLOPs utilisation 40% of dense peak (docs/models.md)"};
}

Param default_bandwidth_efficiency() {
    return {0.80, InputOrigin::assumption, "default decode bandwidth efficiency 80% of datasheet (docs/models.md); replaced by a measured figure when imported"};
}

TrainingFlops training_step_flops(const ModelSpec& m, double tokens, double sequence, RecomputeFlops recompute) {
    const ParameterCount c = count_parameters(m);
    const double attn_dim = attention_width(m);
    const double dense_fwd = 2 * c.active, attn_fwd = 2 * m.layers * sequence * attn_dim;
    const double model = 3 * (dense_fwd + attn_fwd);
    const double extra = recompute == RecomputeFlops::full ? dense_fwd + attn_fwd : recompute == RecomputeFlops::selective ? attn_fwd : 0;
    const double extra_dense = recompute == RecomputeFlops::full ? dense_fwd : 0;
    TrainingFlops f;
    f.model = explained_figure("model_flops", model * tokens, "FLOP", [&] {
        return Explanation{"3 x (2 x active_parameters + 2 x layers x sequence x heads x head_dim) x tokens (forward + 2 x backward; causal attention)",
                           "3 x (" + n(dense_fwd) + " + " + n(attn_fwd) + ") x " + n(tokens) + " = " + n(model * tokens),
                           {c.active_figure.as_input(), input("tokens", "tokens", user_given(tokens)), input("sequence", "tokens", user_given(sequence))}};
    });
    f.hardware = explained_figure("training_flops", (model + extra) * tokens, "FLOP", [&] {
        const char* what = recompute == RecomputeFlops::full        ? " + recomputed forward (2N + attention, full recompute)"
                           : recompute == RecomputeFlops::selective ? " + recomputed attention core (selective recompute)"
                                                                    : "";
        return Explanation{"model FLOPs" + std::string(what) + " (Korthikanti et al. 2022)",
                           "(" + n(model) + (extra > 0 ? " + " + n(extra) : std::string()) + ") x " + n(tokens) + " = " + n((model + extra) * tokens),
                           {f.model.as_input()}};
    });
    f.hardware_dense = (3 * dense_fwd + extra_dense) * tokens;
    f.hardware_attention = (model + extra) * tokens - f.hardware_dense;
    return f;
}

Figure compute_seconds(const Figure& flops, double accelerators, const Param& peak_tflops, const Param& efficiency) {
    const double v = *flops.value / (accelerators * peak_tflops.value * 1e12 * efficiency.value);
    return explained_figure("compute_seconds", v, "s", [&] {
        return Explanation{"flops / (accelerators x dense_peak_tflops x 1e12 x efficiency)",
                           n(*flops.value) + " / (" + n(accelerators) + " x " + n(peak_tflops.value) + "e12 x " + n(efficiency.value) + ") = " + n(v),
                           {flops.as_input(), input("accelerators", "", user_given(accelerators)), input("dense_peak_tflops", "TFLOPS", peak_tflops),
                            input("compute_efficiency", "fraction", efficiency)}};
    });
}

double decode_read_parameters(const ModelSpec& m, const ParameterCount& c, double batch) {
    if (!m.moe || batch <= 1) return c.active;
    const MoeSpec& e = *m.moe;
    const double moe_layers = m.layers - e.dense_layers, per_expert = 3 * m.hidden * e.expert_ffn;
    const double touched = e.routed_experts * (1 - std::pow(1 - e.active_experts / e.routed_experts, batch));
    return c.active + moe_layers * (touched - e.active_experts) * per_expert;
}

double attention_width(const ModelSpec& m) { return m.mla ? m.heads * (m.mla->qk_nope_head_dim + m.mla->qk_rope_head_dim) : m.heads * m.head_dim; }

DecodeRoofline decode_roofline(const ModelSpec& m, double weight_bytes, double kv_bytes, double batch, double context, double gpus,
                               const Param& bandwidth, const Param& efficiency) {
    const ParameterCount c = count_parameters(m);
    const Figure kv_token = kv_cache_bytes_per_token(m, kv_bytes);
    // A step reads every weight the batch touches once. Dense: all of them (the active set).
    // MoE: each of the batch's tokens picks k of E routed experts, so a layer reads
    // E x (1 - (1 - k/E)^batch) experts on average if routing spreads evenly (the active set at
    // batch 1, every expert once the batch is large; Fedus et al. 2022 train the router to balance).
    const double read_params = decode_read_parameters(m, c, batch);
    const double weights = read_params * weight_bytes;
    const double kv = *kv_token.value * batch * kv_cached_tokens(m, context);  // local-attention layers read their window only
    DecodeRoofline r;
    r.bytes_per_step = explained_figure("bytes_per_step", weights + kv, "bytes", [&] {
        std::string read_formula = "active_parameters", read_worked = n(c.active);
        if (m.moe && batch > 1) {
            const MoeSpec& e = *m.moe;
            const double moe_layers = m.layers - e.dense_layers, per_expert = 3 * m.hidden * e.expert_ffn;
            const double touched = e.routed_experts * (1 - std::pow(1 - e.active_experts / e.routed_experts, batch));
            read_formula = "active_parameters + MoE layers x (E (1 - (1 - k/E)^batch) - k) x expert_parameters (experts the batch touches)";
            read_worked = n(c.active) + " + " + n(moe_layers) + " x (" + n(touched) + " - " + n(e.active_experts) + ") x " + n(per_expert) + " = " + n(read_params);
        }
        return Explanation{read_formula + " x bytes_per_weight + kv_bytes_per_token x batch x context",
                           "(" + read_worked + ") x " + n(weight_bytes) + " + " + n(*kv_token.value) + " x " + n(batch) + " x " + n(context) + " = " + n(weights + kv),
                           {c.active_figure.as_input(), kv_token.as_input(kv_token.worked)}};
    });
    const double bw = bandwidth.value * 1e9 * gpus;
    const double steps = bw / (weights + kv);
    r.steps_per_second = explained_figure("steps_per_second", steps, "steps/s", [&] {
        return Explanation{"gpus x bandwidth / bytes_per_step (memory-bound roofline)", n(gpus) + " x " + n(bandwidth.value) + "e9 / " + n(weights + kv) + " = " + n(steps),
                           {input("memory_bandwidth_gb_per_s", "GB/s", bandwidth), r.bytes_per_step.as_input()}};
    });
    r.tokens_per_second = explained_figure("tokens_per_second_upper_bound", steps * batch, "tokens/s", [&] {
        return Explanation{"steps_per_second x batch", n(steps) + " x " + n(batch) + " = " + n(steps * batch), {r.steps_per_second.as_input()}};
    });
    r.tokens_per_second_expected = explained_figure("tokens_per_second", steps * batch * efficiency.value, "tokens/s", [&] {
        return Explanation{"tokens_per_second_upper_bound x bandwidth_efficiency", n(steps * batch) + " x " + n(efficiency.value) + " = " + n(steps * batch * efficiency.value),
                           {r.tokens_per_second.as_input(), input("bandwidth_efficiency", "fraction", efficiency)}};
    });
    return r;
}

Figure prefill_seconds(const ModelSpec& m, double prompt_tokens, double batch, double gpus, const Param& peak, const Param& efficiency) {
    const ParameterCount c = count_parameters(m);
    const double attn_dim = attention_width(m);
    // Causal attention over the prompt: on average half the prompt is attended to.
    const double flops = (2 * c.active + 2 * m.layers * prompt_tokens * attn_dim) * prompt_tokens * batch;
    const double v = flops / (gpus * peak.value * 1e12 * efficiency.value);
    return explained_figure("prefill_seconds", v, "s", [&] {
        return Explanation{"(2 x active_parameters + 2 x layers x prompt x heads x head_dim) x prompt x batch / (gpus x peak x efficiency)",
                           n(flops) + " / (" + n(gpus) + " x " + n(peak.value) + "e12 x " + n(efficiency.value) + ") = " + n(v),
                           {c.active_figure.as_input(), input("prompt_tokens", "tokens", user_given(prompt_tokens)), input("batch", "", user_given(batch)),
                            input("gpus", "", user_given(gpus)), input("dense_peak_tflops", "TFLOPS", peak), input("compute_efficiency", "fraction", efficiency)}};
    });
}

std::string_view to_string(Collective c) {
    switch (c) {
    case Collective::all_reduce: return "all-reduce";
    case Collective::all_gather: return "all-gather";
    case Collective::reduce_scatter: return "reduce-scatter";
    case Collective::all_to_all: return "all-to-all";
    }
    return "?";
}

Figure collective_seconds(Collective kind, double bytes, double ranks, const Param& bandwidth, const Param& latency_us) {
    const double steps = kind == Collective::all_reduce ? 2 * (ranks - 1) : ranks - 1;
    const double volume = kind == Collective::all_reduce ? 2 * (ranks - 1) / ranks : (ranks - 1) / ranks;
    const double v = ranks <= 1 ? 0 : volume * bytes / (bandwidth.value * 1e9) + steps * latency_us.value * 1e-6;
    return explained_figure(std::string(to_string(kind)) + "_seconds", v, "s", [&] {
        const std::string f_volume = kind == Collective::all_reduce ? "2 (n-1)/n" : "(n-1)/n";
        const std::string f_steps = kind == Collective::all_reduce ? "2 (n-1)" : "(n-1)";
        return Explanation{"ring " + std::string(to_string(kind)) + ": " + f_volume + " x S / B + " + f_steps + " x alpha (alpha-beta model)",
                           n(volume) + " x " + n(bytes) + " / " + n(bandwidth.value) + "e9 + " + n(steps) + " x " + n(latency_us.value) + "e-6 = " + n(v),
                           {input("bytes", "bytes", user_given(bytes)), input("ranks", "", user_given(ranks)), input("bandwidth_gb_per_s", "GB/s", bandwidth),
                            input("latency_us", "us", latency_us)}};
    });
}

}  // namespace gpuplan
