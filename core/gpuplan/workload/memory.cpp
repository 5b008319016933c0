#include "gpuplan/workload/memory.hpp"
#include "gpuplan/formula_text.hpp"

#include <cmath>

#include "gpuplan/input_error.hpp"

namespace gpuplan {

std::string_view to_string(Recompute r) {
    switch (r) {
    case Recompute::none: return "none";
    case Recompute::selective: return "selective";
    case Recompute::full: return "full";
    }
    return "?";
}

Recompute recompute_named(std::string_view name, const std::string& where) {
    for (Recompute x : {Recompute::none, Recompute::selective, Recompute::full})
        if (name == to_string(x)) return x;
    throw InputError(where, "\"" + std::string(name) + "\"", "\"none\", \"selective\" or \"full\"");
}

double dtype_bytes(const std::string& dtype, const std::string& where) {
    if (dtype == "fp32") return 4;
    if (dtype == "bf16" || dtype == "fp16") return 2;
    if (dtype == "fp8" || dtype == "int8") return 1;
    if (dtype == "int4") return 0.5;
    throw InputError(where, "\"" + dtype + "\"", "one of fp32, bf16, fp16, fp8, int8, int4");
}

Param default_runtime_overhead_gib() {
    // ~0.5-1 GiB CUDA context + libraries (cuBLAS/NCCL workspaces) and allocator slack; a
    // round 2 GiB per GPU is a deliberately conservative planning figure (docs/models.md).
    return {2.0, InputOrigin::assumption, "default runtime overhead per GPU: CUDA context, library workspaces, allocator fragmentation (docs/models.md)"};
}

TrainingMemoryRequest training_memory_request(const ModelSpec* model, const ParallelLayout& layout) {
    TrainingMemoryRequest m;
    m.model = model;
    m.data_parallel = layout.data;
    m.tensor_parallel = layout.tensor;
    m.pipeline_parallel = layout.pipeline;
    m.zero_stage = layout.zero_stage;
    m.offload_optimizer = layout.offload_optimizer;
    m.offload_parameters = layout.offload_parameters;
    m.micro_batch = layout.micro_batch;
    m.sequence = layout.sequence;
    m.recompute = layout.recompute;
    return m;
}

TrainingMemory training_memory(const TrainingMemoryRequest& q) {
    const ModelSpec& m = *q.model;
    const ParameterCount count = count_parameters(m);
    const double params = count.total;
    if (q.zero_stage < 0 || q.zero_stage > 3) throw InputError("zero_stage", std::to_string(q.zero_stage), "0, 1, 2 or 3");
    if (q.offload_parameters && q.zero_stage != 3) throw InputError("offload_parameters", "true with ZeRO stage " + std::to_string(q.zero_stage), "ZeRO stage 3 (only it shards and can offload weights)");
    const double n_dp = q.data_parallel;
    // Model parallelism splits every state first; ZeRO then shards across data-parallel ranks.
    const double mp = q.tensor_parallel * q.pipeline_parallel;
    const double w_share = (q.zero_stage >= 3 ? 1 / n_dp : 1.0) / mp;
    const double g_share = (q.zero_stage >= 2 ? 1 / n_dp : 1.0) / mp;
    const double o_share = (q.zero_stage >= 1 ? 1 / n_dp : 1.0) / mp;
    const double w = params * q.weight_bytes * w_share, g = params * q.grad_bytes * g_share, o = params * q.optimizer_bytes * o_share;
    const double w_gpu = q.offload_parameters ? 0 : w, o_gpu = q.offload_optimizer ? 0 : o;
    const double host = (q.offload_parameters ? w : 0) + (q.offload_optimizer ? o : 0);
    const FigureInput in_p = count.total_figure.as_input();
    const std::string stage = explaining() ? "ZeRO stage " + std::to_string(q.zero_stage) + ", data parallel " + n(n_dp) + ", model parallel " + n(mp) : "";
    TrainingMemory r;
    auto state = [&](const char* name, double bytes, double per_param, double share, bool offloaded) {
        return explained_figure(name, (offloaded ? 0 : bytes) / kBytesPerGB, "GB", [&] {
            return Explanation{std::string("parameters x bytes_per_parameter x share (") + stage + ")" + (offloaded ? ", offloaded to host" : ""),
                               n(params) + " x " + n(per_param) + " x " + n(share) + (offloaded ? " -> host" : "") + " = " + n((offloaded ? 0 : bytes) / kBytesPerGB),
                               {in_p}};
        });
    };
    r.weights_gb = state("weights_gb", w, q.weight_bytes, w_share, q.offload_parameters);
    r.gradients_gb = state("gradients_gb", g, q.grad_bytes, g_share, false);
    r.optimizer_gb = state("optimizer_gb", o, q.optimizer_bytes, o_share, q.offload_optimizer);
    const double states = w_gpu + g + o_gpu;
    r.model_states_gb = explained_figure("model_states_gb", states / kBytesPerGB, "GB", [&] {
        return Explanation{"weights + gradients + optimizer (on the GPU)",
                           n(w_gpu / kBytesPerGB) + " + " + n(g / kBytesPerGB) + " + " + n(o_gpu / kBytesPerGB) + " = " + n(states / kBytesPerGB),
                           {r.weights_gb.as_input(), r.gradients_gb.as_input(), r.optimizer_gb.as_input()}};
    });
    r.bytes_per_parameter = explained_figure("bytes_per_parameter", states / params, "bytes", [&] {
        return Explanation{"model_states / parameters", n(states) + " / " + n(params) + " = " + n(states / params), {in_p}};
    });

    // Activations (Korthikanti et al. 2022), layers held by this pipeline stage.
    const double s = q.sequence, b = q.micro_batch, h = m.hidden, a = m.heads, t = q.tensor_parallel;
    double per_layer = 0;
    const char* formula = "";
    switch (q.recompute) {
    case Recompute::none:
        // The 5 a s / h term is the stored attention scores, which fused attention never keeps.
        if (m.flash_attention) per_layer = s * b * h * 34 / t, formula = "s b h 34 / t (fused attention stores no s x s scores; Dao et al. 2022)";
        else per_layer = s * b * h * (34 + 5 * a * s / h) / t, formula = "s b h (34 + 5 a s / h) / t (eager attention)";
        break;
    case Recompute::selective: per_layer = s * b * h * 34 / t; formula = "s b h 34 / t"; break;
    case Recompute::full: per_layer = 2 * s * b * h / t; formula = "2 s b h / t"; break;
    }
    // With 1F1B pipelining the first stage holds up to `pipeline` micro-batches in flight, so
    // its activations are those of all layers (Korthikanti et al. 2022, section 4.2.3).
    const double layers_here = m.layers / q.pipeline_parallel;
    const double in_flight = q.pipeline_parallel;
    const double act = per_layer * layers_here * in_flight;
    r.activations_gb = explained_figure("activations_gb", act / kBytesPerGB, "GB", [&] {
        return Explanation{"layers / pipeline x micro-batches in flight (= pipeline, 1F1B) x " + std::string(formula) + " (Korthikanti et al. 2022; recompute " +
                               std::string(to_string(q.recompute)) + ")",
                           n(layers_here) + " x " + n(in_flight) + " x " + n(per_layer) + " bytes = " + n(act / kBytesPerGB),
                           {{"sequence", s, "tokens", InputOrigin::user, ""}, {"micro_batch", b, "", InputOrigin::user, ""},
                            {"hidden", h, "", InputOrigin::catalog, m.source}, {"heads", a, "", InputOrigin::catalog, m.source}}};
    });
    const Param& overhead = q.runtime_overhead_gib;
    const double over = overhead.value * kBytesPerGiB;
    r.overhead_gb = explained_figure("overhead_gb", over / kBytesPerGB, "GB", [&] {
        return Explanation{"runtime_overhead_gib x 2^30", n(overhead.value) + " GiB = " + n(over / kBytesPerGB), {input("runtime_overhead_gib", "GiB", overhead)}};
    });
    const double total = states + act + over;
    r.total_per_gpu_gb = explained_figure("total_per_gpu_gb", total / kBytesPerGB, "GB", [&] {
        return Explanation{"model_states + activations + overhead",
                           n(states / kBytesPerGB) + " + " + n(act / kBytesPerGB) + " + " + n(over / kBytesPerGB) + " = " + n(total / kBytesPerGB),
                           {r.model_states_gb.as_input(), r.activations_gb.as_input(), r.overhead_gb.as_input()}};
    });
    r.host_per_gpu_gb = explained_figure("host_per_gpu_gb", host / kBytesPerGB, "GB", [&] {
        return Explanation{"offloaded weights + optimizer states per GPU rank", n(host / kBytesPerGB), {r.weights_gb.as_input(), r.optimizer_gb.as_input()}};
    });
    return r;
}

InferenceMemory inference_memory(const InferenceMemoryRequest& q) {
    const ModelSpec& m = *q.model;
    const ParameterCount c = count_parameters(m);
    InferenceMemory r;
    const double w = c.total * q.weight_bytes;
    r.weights_gb = explained_figure("weights_gb", w / kBytesPerGB, "GB", [&] {
        return Explanation{"parameters_total x bytes_per_weight", n(c.total) + " x " + n(q.weight_bytes) + " bytes = " + n(w / kBytesPerGB),
                           {c.total_figure.as_input(), input("bytes_per_weight", "bytes", user_given(q.weight_bytes))}};
    });
    const Figure per_token = kv_cache_bytes_per_token(m, q.kv_bytes);
    // Local-attention layers keep only their window (kv_cached_tokens): the context they cache.
    const double cached = kv_cached_tokens(m, q.context);
    const double kv = *per_token.value * q.batch * cached;
    const bool windowed = cached != q.context;
    r.kv_cache_gb = explained_figure("kv_cache_gb", kv / kBytesPerGB, "GB", [&] {
        return Explanation{windowed ? "kv_cache_bytes_per_token x batch x cached tokens ((full layers x context + sliding layers x min(context, window)) / layers)"
                                    : "kv_cache_bytes_per_token x batch x context",
                           n(*per_token.value) + " x " + n(q.batch) + " x " + n(cached) + " bytes = " + n(kv / kBytesPerGB) + " (= " + n(kv / kBytesPerGiB) + " GiB)",
                           {per_token.as_input(per_token.worked), input("batch", "", user_given(q.batch)), input("context", "tokens", user_given(q.context))}};
    });
    const Param& overhead = q.runtime_overhead_gib;
    const double over = overhead.value * kBytesPerGiB * q.tensor_parallel;
    r.overhead_gb = explained_figure("overhead_gb", over / kBytesPerGB, "GB", [&] {
        return Explanation{"runtime_overhead_gib x 2^30 x GPUs", n(overhead.value) + " GiB x " + n(q.tensor_parallel) + " = " + n(over / kBytesPerGB),
                           {input("runtime_overhead_gib", "GiB", overhead)}};
    });
    const double total = w + kv + over;
    r.total_gb = explained_figure("total_gb", total / kBytesPerGB, "GB", [&] {
        return Explanation{"weights + kv_cache + overhead (all GPUs)",
                           n(w / kBytesPerGB) + " + " + n(kv / kBytesPerGB) + " + " + n(over / kBytesPerGB) + " = " + n(total / kBytesPerGB),
                           {r.weights_gb.as_input(), r.kv_cache_gb.as_input(), r.overhead_gb.as_input()}};
    });
    r.per_gpu_gb = explained_figure("per_gpu_gb", total / q.tensor_parallel / kBytesPerGB, "GB", [&] {
        return Explanation{"total / tensor_parallel", n(total / kBytesPerGB) + " / " + n(q.tensor_parallel) + " = " + n(total / q.tensor_parallel / kBytesPerGB),
                           {r.total_gb.as_input()}};
    });
    return r;
}

double max_batch_that_fits(const InferenceMemoryRequest& q, double capacity_gb) {
    InferenceMemoryRequest one = q;
    one.batch = 0;
    const double fixed = *inference_memory(one).total_gb.value;
    const double per_sequence = *kv_cache_bytes_per_token(*q.model, q.kv_bytes).value * kv_cached_tokens(*q.model, q.context) / kBytesPerGB;
    if (fixed >= capacity_gb) return 0;
    return std::floor((capacity_gb - fixed) / per_sequence);
}

}  // namespace gpuplan
