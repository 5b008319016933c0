// training_steps.cpp — the terms of a training step, one function each (training_steps.hpp).
// The formulas and their sources are in training_time.hpp and docs/models.md.
#include "gpuplan/workload/training_steps.hpp"
#include "gpuplan/formula_text.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "gpuplan/input_error.hpp"

namespace gpuplan::training_steps {

namespace {
Figure zero_seconds(std::string name, const char* why) {
    return explained_figure(std::move(name), 0.0, "s", [&] { return Explanation{why, "0", {}}; });
}

// A collective's time taken over as a step's figure under the step's own name (it is unknown).
Figure renamed(Figure f, std::string name) {
    f.name = std::move(name);
    return f;
}

void whole_at_least(double v, double min, const std::string& where) {
    if (!std::isfinite(v) || v < min || std::floor(v) != v) throw InputError(where, n(v), "a whole number >= " + n(min));
}
bool divides(double a, double b) { return std::fmod(b, a) == 0; }  // a divides b

// The instance's accelerators and the GPUs per node the job uses.
void check_instance(const Catalog& catalog, const TrainingTimeRequest& q, TrainingShape& shape) {
    if (!q.model) throw InputError("model", "none", "a model preset or definition");
    if (!q.instance) throw InputError("instance", "none", "an instance type from the catalog");
    const Instance& inst = *q.instance;
    const Accelerator* acc = inst.accelerator ? catalog.find_accelerator(*inst.accelerator) : nullptr;
    if (!acc || !inst.accelerator_count) throw InputError("instance", inst.name, "an instance type with accelerators");
    const double all = *inst.accelerator_count;
    if (all < 1 || std::floor(all) != all)
        throw InputError("instance", inst.name + " (" + n(all) + " accelerators)", "whole accelerators for training (a fractional slice cannot train in parallel)");
    const double gpn = q.gpus_per_node.value_or(all);
    if (!(gpn >= 1 && gpn <= all && std::floor(gpn) == gpn))
        throw InputError("gpus_per_node", n(gpn), "a whole number from 1 to the " + n(all) + " accelerators of " + inst.name);
    shape.gpus_per_node = gpn;
}

// The parallel degrees against the GPU count, the node and the model.
void check_degrees(const TrainingTimeRequest& q, const TrainingShape& shape) {
    const ParallelLayout& L = q.layout;
    const ModelSpec& m = *q.model;
    const std::string& instance = q.instance->name;
    const double gpn = shape.gpus_per_node, G = shape.gpus, dp = L.data, tp = L.tensor, pp = L.pipeline, ep = L.expert;
    if (dp * tp * pp != G)
        throw InputError("layout.data x layout.tensor x layout.pipeline", n(dp) + " x " + n(tp) + " x " + n(pp) + " = " + n(dp * tp * pp),
                         "the GPU count: " + n(q.nodes) + " nodes x " + n(gpn) + " GPUs of " + instance + " = " + n(G));
    if (tp > gpn && !L.allow_cross_node_tensor_parallel)
        throw InputError("layout.tensor", n(tp), "at most the " + n(gpn) + " GPUs of one " + instance + " node (or set allow_cross_node_tensor_parallel)");
    if (tp <= gpn ? !divides(tp, gpn) : !divides(gpn, tp))
        throw InputError("layout.tensor", n(tp), "a divisor of the " + n(gpn) + " GPUs per node, or a multiple of it across nodes");
    if (!divides(tp, m.heads)) throw InputError("layout.tensor", n(tp), "a divisor of " + m.name + "'s " + n(m.heads) + " attention heads");
    if (pp > m.layers) throw InputError("layout.pipeline", n(pp), "at most " + m.name + "'s " + n(m.layers) + " layers");
    if (ep > 1 && !m.moe) throw InputError("layout.expert", n(ep), "1: " + m.name + " has no experts");
    if (ep > 1 && (!divides(ep, dp) || ep > m.moe->routed_experts))
        throw InputError("layout.expert", n(ep), "a divisor of layout.data (" + n(dp) + ") and at most the " + n(m.moe->routed_experts) + " routed experts");
}

// ZeRO stage and offload, the global batch, the budget, price and efficiency.
void check_batch_and_options(const TrainingTimeRequest& q, TrainingShape& shape) {
    const ParallelLayout& L = q.layout;
    if (L.zero_stage < 0 || L.zero_stage > 3) throw InputError("layout.zero_stage", std::to_string(L.zero_stage), "0, 1, 2 or 3");
    if (L.offload_optimizer && L.zero_stage == 0) throw InputError("layout.offload_optimizer", "true with ZeRO stage 0", "ZeRO stage 1, 2 or 3 (ZeRO-Offload)");
    if (L.offload_parameters && (L.zero_stage != 3 || !L.offload_optimizer))
        throw InputError("layout.offload_parameters", "true with ZeRO stage " + std::to_string(L.zero_stage), "ZeRO stage 3 with offload_optimizer");
    const double per_step_unit = L.data * L.micro_batch * L.sequence;
    const double mb = L.global_batch_tokens / per_step_unit;
    if (!(L.global_batch_tokens > 0) || mb < 1 || std::floor(mb) != mb)
        throw InputError("layout.global_batch_tokens", n(L.global_batch_tokens),
                         "a whole multiple of data x micro_batch x sequence = " + n(L.data) + " x " + n(L.micro_batch) + " x " + n(L.sequence) + " = " +
                             n(per_step_unit));
    if (q.token_budget && !(*q.token_budget >= 0)) throw InputError("token_budget", n(*q.token_budget), ">= 0 tokens");
    if (!(q.usd_per_hour.value >= 0)) throw InputError("usd_per_hour", n(q.usd_per_hour.value), ">= 0");
    if (q.compute_efficiency && !(q.compute_efficiency->value > 0 && q.compute_efficiency->value <= 1))
        throw InputError("compute_efficiency", n(q.compute_efficiency->value), "a fraction in (0, 1]");
    shape.micro_batches = mb;
}

// Data parallel's collectives per optimizer step: (collective, bytes, times per step). With
// gradient accumulation over m micro-batches, DDP and ZeRO-1 synchronise once per step
// (gradients accumulate locally); ZeRO-2 reduce-scatters each micro-batch's gradients (they are
// partitioned, so cannot accumulate in full); ZeRO-3/FSDP also re-gathers the parameters in
// every micro-batch's forward and backward (Rajbhandari et al. 2020; PyTorch FSDP docs).
struct DataParallelOp {
    Collective kind;
    double bytes, times;
};
std::vector<DataParallelOp> data_parallel_ops(int zero_stage, double grad_bytes, double mb, std::string& what) {
    if (zero_stage == 0) {
        what = "gradient all-reduce once per step";
        return {{Collective::all_reduce, grad_bytes, 1}};
    }
    if (zero_stage == 1) {
        what = "gradient reduce-scatter + parameter all-gather once per step";
        return {{Collective::reduce_scatter, grad_bytes, 1}, {Collective::all_gather, grad_bytes, 1}};
    }
    if (zero_stage == 2) {
        what = "gradient reduce-scatter per micro-batch (x" + n(mb) + ") + parameter all-gather per step";
        return {{Collective::reduce_scatter, grad_bytes, mb}, {Collective::all_gather, grad_bytes, 1}};
    }
    what = "ZeRO-3 gradient reduce-scatter + forward and backward parameter all-gathers per micro-batch (x" + n(mb) + ")";
    return {{Collective::reduce_scatter, grad_bytes, mb}, {Collective::all_gather, grad_bytes, 2 * mb}};
}
}  // namespace

TrainingShape check_request(const Catalog& catalog, const TrainingTimeRequest& q) {
    const ParallelLayout& L = q.layout;
    TrainingShape shape;
    check_instance(catalog, q, shape);
    whole_at_least(q.nodes, 1, "nodes");
    whole_at_least(L.data, 1, "layout.data");
    whole_at_least(L.tensor, 1, "layout.tensor");
    whole_at_least(L.pipeline, 1, "layout.pipeline");
    whole_at_least(L.expert, 1, "layout.expert");
    whole_at_least(L.micro_batch, 1, "layout.micro_batch");
    whole_at_least(L.sequence, 1, "layout.sequence");
    shape.nodes = q.nodes;
    shape.gpus = q.nodes * shape.gpus_per_node;
    check_degrees(q, shape);
    check_batch_and_options(q, shape);
    shape.data = L.data, shape.tensor = L.tensor, shape.pipeline = L.pipeline, shape.expert = L.expert;
    shape.micro_batch = L.micro_batch, shape.sequence = L.sequence, shape.global_batch_tokens = L.global_batch_tokens;
    shape.hidden = q.model->hidden;
    shape.zero_stage = L.zero_stage;
    shape.full_recompute = L.recompute == Recompute::full;
    return shape;
}

bool StepParts::need(const Figure& f) {
    if (!f.value && unknown_reason.empty()) unknown_reason = f.name + ": " + f.unknown_reason;
    return f.value.has_value();
}

void StepParts::add_collective(const std::string& label, const CollectiveCost& c, double exposed, const Figure& source) {
    const bool assumed = source.rests_on_assumption();
    const double in = *c.intra_seconds.value, out = *c.inter_seconds.value, total = in + out;
    if (total <= 0 || *c.seconds.value <= 0) return;
    if (in > 0) parts.push_back({label + " over " + std::string(link_words(c.intra_class)), c.intra_class, exposed * in / total, assumed});
    if (out > 0) parts.push_back({label + " over " + std::string(link_words(c.inter_class)), c.inter_class, exposed * out / total, assumed});
}

ComputeStep compute_step(const Accelerator& acc, const ModelSpec& m, const TrainingTimeRequest& q, const TrainingShape& shape, TrainingTime& r) {
    const ParallelLayout& L = q.layout;
    const double G = shape.gpus;
    ComputeStep out;
    std::optional<Param>& peak = out.bf16_peak;
    peak = q.peak_tflops;
    if (!peak && acc.dense_tflops.bf16) peak = Param{*acc.dense_tflops.bf16, InputOrigin::catalog, "catalog " + acc.name + " dense BF16 TFLOPS"};
    const auto bf16_reason = acc.unknown.find("dense_tflops.bf16");
    if (!peak && acc.dense_tflops.fp16 && bf16_reason != acc.unknown.end() && bf16_reason->second.rfind("n/a", 0) == 0) {
        peak = Param{*acc.dense_tflops.fp16, InputOrigin::catalog, "catalog " + acc.name + " dense FP16 TFLOPS (no BF16: fp16 mixed precision)"};
        r.notes.push_back(acc.name + " has no BF16: compute uses its FP16 peak (fp16 mixed precision)");
    }
    r.dense_peak_tflops = peak;
    r.compute_efficiency = q.compute_efficiency.value_or(default_training_efficiency(&acc, q.precision));
    out.flops = training_step_flops(m, shape.global_batch_tokens, shape.sequence,
                                    shape.full_recompute ? RecomputeFlops::full : L.recompute == Recompute::selective ? RecomputeFlops::selective : RecomputeFlops::none);
    r.training_flops = out.flops.hardware;
    const Figure& flops = r.training_flops;
    if (q.precision != TrainingPrecision::fp8) {
        r.compute_seconds = peak ? compute_seconds(flops, G, *peak, r.compute_efficiency)
                                 : unknown_figure("compute_seconds", "s", "", acc.name + " dense BF16 peak unknown: " + (bf16_reason != acc.unknown.end() ? bf16_reason->second : "not recorded"));
        return out;
    }
    // FP8: the linear layers' matrix multiplies run at the FP8 peak; attention stays in bf16.
    if (!acc.dense_tflops.fp8) {
        const auto why = acc.unknown.find("dense_tflops.fp8");
        throw InputError("precision", "\"fp8\"", "an accelerator with FP8 tensor cores (" + acc.name + ": " +
                                                      (why == acc.unknown.end() ? std::string("no FP8 figure in the catalog") : why->second) + "), or bf16");
    }
    const Param fp8_peak{*acc.dense_tflops.fp8, InputOrigin::catalog, "catalog " + acc.name + " dense FP8 TFLOPS"};
    if (!peak) {
        r.compute_seconds = unknown_figure("compute_seconds", "s", "", acc.name + " dense BF16 peak unknown: " + (bf16_reason != acc.unknown.end() ? bf16_reason->second : "not recorded"));
        return out;
    }
    const double eff = r.compute_efficiency.value, dense = out.flops.hardware_dense, attn = out.flops.hardware_attention;
    const double v = dense / (G * fp8_peak.value * 1e12 * eff) + attn / (G * peak->value * 1e12 * eff);
    r.compute_seconds = make_figure("compute_seconds", v, "s",
                                    "dense FLOPs / (GPUs x FP8 peak x efficiency) + attention FLOPs / (GPUs x BF16 peak x efficiency): FP8 linear layers, bf16 attention",
                                    n(dense) + " / (" + n(G) + " x " + n(fp8_peak.value) + "e12 x " + n(eff) + ") + " + n(attn) + " / (" + n(G) + " x " +
                                        n(peak->value) + "e12 x " + n(eff) + ") = " + n(v),
                                    {flops.as_input(), input("dense_fp8_tflops", "TFLOPS", fp8_peak), input("dense_peak_tflops", "TFLOPS", *peak),
                                     input("compute_efficiency", "fraction", r.compute_efficiency)});
    return out;
}

void data_parallel_step(const TrainingShape& shape, double params_rank, const NodeTopology& topo, const OverlapDefaults& overlap, TrainingTime& r,
                        StepParts& parts) {
    const double dp = shape.data, mb = shape.micro_batches;
    if (dp <= 1) {
        r.data_parallel_comm_seconds = zero_seconds("data_parallel_comm_seconds", "data parallel 1: no gradient synchronisation");
        r.data_parallel_exposed_seconds = zero_seconds("data_parallel_exposed_seconds", "data parallel 1");
        return;
    }
    const double g_dp = std::min(dp, std::max(1.0, shape.gpus_per_node / shape.tensor)), n_dp = dp / g_dp;
    std::string what;
    CollectiveCost sum;
    double in = 0, out = 0, total = 0;
    std::vector<FigureInput> ins;
    std::string worked;
    for (const DataParallelOp& op : data_parallel_ops(shape.zero_stage, 2 * params_rank, mb, what)) {
        CollectiveCost c = hierarchical_collective(op.kind, op.bytes, topo, g_dp, n_dp);
        if (!parts.need(c.seconds)) {
            r.data_parallel_comm_seconds = renamed(c.seconds, "data_parallel_comm_seconds");
            r.data_parallel_exposed_seconds = unknown_figure("data_parallel_exposed_seconds", "s", "", r.data_parallel_comm_seconds.unknown_reason);
            return;
        }
        in += op.times * *c.intra_seconds.value, out += op.times * *c.inter_seconds.value, total += op.times * *c.seconds.value;
        if (explaining()) {
            worked += (worked.empty() ? "" : " + ") + (op.times != 1 ? n(op.times) + " x " : std::string()) + n(*c.seconds.value);
            ins.push_back(c.seconds.as_input(c.seconds.worked));
        }
        sum.intra_class = c.intra_class, sum.inter_class = c.inter_class;
    }
    const Param& ov = shape.zero_stage == 0 ? overlap.ddp : shape.zero_stage < 3 ? overlap.zero12 : overlap.zero3;
    r.data_parallel_comm_seconds = explained_figure("data_parallel_comm_seconds", total, "s", [&] {
        return Explanation{what + " of 2 bytes x " + n(params_rank) + " parameters per rank over " + n(g_dp) + " ranks per node x " + n(n_dp) +
                               " nodes (ZeRO stage " + std::to_string(shape.zero_stage) + "; Rajbhandari et al. 2020)",
                           worked + " = " + n(total), std::move(ins)};
    });
    if (!parts.need(r.compute_seconds)) {
        r.data_parallel_exposed_seconds = unknown_figure("data_parallel_exposed_seconds", "s", "", parts.unknown_reason);
        return;
    }
    const double share = shape.zero_stage == 3 ? 1.0 : (shape.full_recompute ? 6.0 / 8 : 4.0 / 6);
    const double window = *r.compute_seconds.value * share;
    const double exposed = total - std::min(ov.value * total, window);
    r.data_parallel_exposed_seconds = explained_figure("data_parallel_exposed_seconds", exposed, "s", [&] {
        return Explanation{"comm - min(overlap x comm, compute window); window = compute x " + n(share) + (shape.zero_stage == 3 ? " (all of it)" : " (backward share)"),
                           n(total) + " - min(" + n(ov.value) + " x " + n(total) + ", " + n(window) + ") = " + n(exposed),
                           {r.data_parallel_comm_seconds.as_input(), input("overlap", "fraction", ov), r.compute_seconds.as_input()}};
    });
    sum.seconds.value = total, sum.intra_seconds.value = in, sum.inter_seconds.value = out;
    parts.add_collective("exposed data-parallel " + what, sum, exposed, r.data_parallel_exposed_seconds);
}

void tensor_parallel_step(const TrainingShape& shape, double layers, const NodeTopology& topo, const Param& overlap, TrainingTime& r, StepParts& parts) {
    const double tp = shape.tensor, gpn = shape.gpus_per_node, mb = shape.micro_batches;
    if (tp <= 1) {
        r.tensor_parallel_seconds = zero_seconds("tensor_parallel_seconds", "tensor parallel 1");
        return;
    }
    NodeTopology tp_topo = topo;
    if (tp_topo.intra.cls == LinkClass::cross_socket && tp <= gpn / 2 && !topo.links.empty() && topo.links[0].known() &&
        (!topo.intra.known() || topo.links[0].gb_per_s.value > topo.intra.gb_per_s.value)) {
        tp_topo.intra = topo.links[0];  // a contiguous group of half the node or less stays on one socket
        tp_topo.intra.latency_us = default_latency_us(LinkClass::pcie_host_bridge);
    }
    const double rpn = std::min(tp, gpn), tn = tp / rpn;
    const double bytes = shape.micro_batch * shape.sequence * shape.hidden * 2, per_layer = shape.full_recompute ? 6 : 4;
    const double layers_here = layers / shape.pipeline, count = per_layer * layers_here * mb;
    const CollectiveCost c = hierarchical_collective(Collective::all_reduce, bytes, tp_topo, rpn, tn);
    if (parts.need(c.seconds)) {
        const double v = count * *c.seconds.value * (1 - overlap.value);
        r.tensor_parallel_seconds = explained_figure("tensor_parallel_seconds", v, "s", [&] {
            return Explanation{n(per_layer) + " all-reduces of b x s x h x 2 bytes per layer x layers / pp x micro-batches x (1 - overlap) (Shoeybi et al. 2019)",
                               n(per_layer) + " x " + n(layers_here) + " x " + n(mb) + " x " + n(*c.seconds.value) + " x (1 - " + n(overlap.value) + ") = " + n(v) +
                                   " (" + c.bottleneck_text + ")",
                               {c.seconds.as_input(c.seconds.worked), input("tensor_overlap", "fraction", overlap)}};
        });
        parts.add_collective("tensor-parallel all-reduces", c, v, r.tensor_parallel_seconds);
    } else {
        r.tensor_parallel_seconds = renamed(c.seconds, "tensor_parallel_seconds");
    }
    const LinkClass worst = tn > 1 ? topo.inter.cls : tp_topo.intra.cls;
    if (worst != LinkClass::nvlink && worst != LinkClass::neuronlink)
        r.warnings.push_back("tensor parallel " + n(tp) + " runs over " + std::string(link_words(worst)) +
                             ": its all-reduces sit on the critical path of every layer; prefer NVLink/NeuronLink, or pipeline parallel across the slow link");
}

Figure pipeline_p2p_seconds(const TrainingShape& shape, const Link& l, const Param& overlap) {
    if (shape.pipeline <= 1) return zero_seconds("pipeline_p2p_seconds", "pipeline parallel 1");
    if (!l.known()) return unknown_figure("pipeline_p2p_seconds", "s", "", "pipeline link unknown: " + l.unknown_reason);
    const double mb = shape.micro_batches;
    const double bytes = shape.micro_batch * shape.sequence * shape.hidden * 2, one = bytes / (l.gb_per_s.value * 1e9) + l.latency_us.value * 1e-6;
    const double v = 2 * mb * one * (1 - overlap.value);
    return explained_figure("pipeline_p2p_seconds", v, "s", [&] {
        return Explanation{"2 x micro-batches x (b x s x h x 2 / B + alpha) x (1 - overlap)",
                           "2 x " + n(mb) + " x (" + n(bytes) + " / " + n(l.gb_per_s.value) + "e9 + " + n(l.latency_us.value) + "e-6) x (1 - " +
                               n(overlap.value) + ") = " + n(v),
                           {input("link_gb_per_s", "GB/s", l.gb_per_s), input("latency_us", "us", l.latency_us), input("pipeline_overlap", "fraction", overlap)}};
    });
}

Figure expert_parallel_seconds(const TrainingShape& shape, const ModelSpec& m, const NodeTopology& topo, const Param& overlap, StepParts& parts) {
    const double ep = shape.expert, mb = shape.micro_batches;
    if (ep <= 1) return zero_seconds("expert_parallel_seconds", "expert parallel 1");
    const double rpn = std::min(ep, std::max(1.0, shape.gpus_per_node / shape.tensor)), en = ep / rpn;
    const double bytes = shape.micro_batch * shape.sequence * shape.hidden * 2 * m.moe->active_experts, per_layer = shape.full_recompute ? 6 : 4;
    const double moe_layers_here = (m.layers - m.moe->dense_layers) / shape.pipeline, count = per_layer * moe_layers_here * mb;
    const CollectiveCost c = hierarchical_collective(Collective::all_to_all, bytes, topo, rpn, en);
    if (!parts.need(c.seconds)) return renamed(c.seconds, "expert_parallel_seconds");
    const double v = count * *c.seconds.value * (1 - overlap.value);
    Figure f = explained_figure("expert_parallel_seconds", v, "s", [&] {
        return Explanation{
            n(per_layer) + " all-to-alls of b x s x h x 2 x top_k bytes per MoE layer x MoE layers / pp x micro-batches x (1 - overlap) (Lepikhin et al. 2020)",
            n(per_layer) + " x " + n(moe_layers_here) + " x " + n(mb) + " x " + n(*c.seconds.value) + " x (1 - " + n(overlap.value) + ") = " + n(v) + " (" +
                c.bottleneck_text + ")",
            {c.seconds.as_input(c.seconds.worked), input("expert_overlap", "fraction", overlap)}};
    });
    parts.add_collective("expert-parallel all-to-alls", c, v, f);
    return f;
}

Figure bubble_seconds(const TrainingShape& shape, const TrainingTime& r) {
    const double pp = shape.pipeline, mb = shape.micro_batches;
    if (pp <= 1) return zero_seconds("bubble_seconds", "pipeline parallel 1: no bubble");
    const double work = *r.compute_seconds.value + *r.tensor_parallel_seconds.value + *r.expert_parallel_seconds.value + *r.pipeline_p2p_seconds.value;
    const double v = work * (pp - 1) / mb;
    return explained_figure("bubble_seconds", v, "s", [&] {
        return Explanation{"pipelined work x (p - 1) / m, i.e. a fraction (p-1)/(m+p-1) = " + n((pp - 1) / (mb + pp - 1)) +
                               " of the pipeline time (Huang et al. 2019; Narayanan et al. 2021)",
                           n(work) + " x (" + n(pp) + " - 1) / " + n(mb) + " = " + n(v),
                           {r.compute_seconds.as_input(), r.tensor_parallel_seconds.as_input(), r.expert_parallel_seconds.as_input(),
                            r.pipeline_p2p_seconds.as_input(), r.micro_batches.as_input()}};
    });
}

Figure offload_seconds(const TrainingShape& shape, double params_rank, const ParallelLayout& layout, const Link& host, const Param& cpu_adam,
                       const Param& overlap) {
    if (!layout.offload_optimizer) return zero_seconds("offload_seconds", "no CPU offload");
    if (!host.known()) return unknown_figure("offload_seconds", "s", "", "GPU-host PCIe link unknown: " + host.unknown_reason);
    const double shard = params_rank / shape.data, bytes_per = layout.offload_parameters ? 8 : 4, bytes = shard * bytes_per;
    const double transfer = bytes / (host.gb_per_s.value * 1e9);
    const double adam = shard * shape.gpus_per_node / cpu_adam.value;
    const double v = (transfer + adam) * (1 - overlap.value);
    return explained_figure("offload_seconds", v, "s", [&] {
        return Explanation{
            "(parameters per GPU x " + n(bytes_per) + " bytes / PCIe GB/s + parameters per GPU x GPUs per node / CPU Adam rate) x (1 - overlap) (Ren et al. 2021)",
            "(" + n(shard) + " x " + n(bytes_per) + " / " + n(host.gb_per_s.value) + "e9 + " + n(shard) + " x " + n(shape.gpus_per_node) + " / " +
                n(cpu_adam.value) + ") x (1 - " + n(overlap.value) + ") = " + n(v),
            {input("host_pcie_gb_per_s", "GB/s", host.gb_per_s), input("cpu_adam_params_per_s", "params/s", cpu_adam),
             input("offload_overlap", "fraction", overlap)}};
    });
}

std::vector<Figure> exposed_by_link(const std::vector<ExposedPart>& parts) {
    const bool explain = explaining();
    std::map<LinkClass, Figure> by_link;
    for (const ExposedPart& p : parts) {
        if (p.cls == LinkClass::none) continue;
        auto [it, fresh] = by_link.try_emplace(p.cls, explained_figure("exposed_" + std::string(to_string(p.cls)) + "_seconds", 0.0, "s", [&] {
            return Explanation{"sum of exposed communication over " + std::string(link_words(p.cls)) + " (data, tensor, pipeline, expert parallel)", "", {}};
        }));
        Figure& f = it->second;
        *f.value += p.seconds;
        if (!explain) continue;
        f.worked += (fresh ? "" : " + ") + n(p.seconds);
        f.inputs.push_back({p.label, p.seconds, "s", InputOrigin::derived, p.label, p.assumed});
    }
    std::vector<Figure> out;
    for (auto& [cls, f] : by_link) {
        if (explain) f.worked += " = " + n(*f.value);
        out.push_back(std::move(f));
    }
    return out;
}

void totals_step(const TrainingShape& shape, const TrainingTimeRequest& q, const ComputeStep& compute, const std::string& layout_text, TrainingTime& r) {
    const double T = shape.global_batch_tokens, G = shape.gpus;
    double step = 0;
    std::string worked;
    std::vector<FigureInput> ins;
    for (const Figure* f : {&r.compute_seconds, &r.bubble_seconds, &r.data_parallel_exposed_seconds, &r.tensor_parallel_seconds, &r.pipeline_p2p_seconds,
                            &r.expert_parallel_seconds, &r.offload_seconds}) {
        step += *f->value;
        if (!explaining()) continue;
        worked += (worked.empty() ? "" : " + ") + n(*f->value);
        ins.push_back(f->as_input());
    }
    r.step_seconds = explained_figure("step_seconds", step, "s", [&] {
        return Explanation{"compute + bubble + exposed data-parallel + tensor-parallel + pipeline p2p + expert-parallel + offload (" + layout_text + ")",
                           worked + " = " + n(step), std::move(ins)};
    });
    const double tps = T / step;
    r.tokens_per_second = explained_figure("tokens_per_second", tps, "tokens/s", [&] {
        return Explanation{"global_batch_tokens / step_seconds", n(T) + " / " + n(step) + " = " + n(tps), {r.step_seconds.as_input()}};
    });
    // Per GPU: how published training benchmarks report throughput (torchtitan, llm-foundry, NeMo).
    r.tokens_per_second_per_gpu = explained_figure("tokens_per_second_per_gpu", tps / G, "tokens/s", [&] {
        return Explanation{"tokens_per_second / GPUs", n(tps) + " / " + n(G) + " = " + n(tps / G),
                           {r.tokens_per_second.as_input(), input("gpus", "GPUs", derived_param(G, "nodes x GPUs per node"))}};
    });
    // MFU on model FLOPs (no recompute), against the BF16 peak, as published benchmarks state
    // it for both precisions.
    if (const std::optional<Param>& peak = compute.bf16_peak) {
        const double model_flops = *compute.flops.model.value, v = model_flops / (step * G * peak->value * 1e12);
        r.mfu = explained_figure("mfu", v, "fraction", [&] {
            return Explanation{"model_flops / (step_seconds x GPUs x dense BF16 peak): model FLOPs utilisation (recompute not counted)",
                               n(model_flops) + " / (" + n(step) + " x " + n(G) + " x " + n(peak->value) + "e12) = " + n(v),
                               {compute.flops.model.as_input(), r.step_seconds.as_input(), input("dense_peak_tflops", "TFLOPS", *peak)}};
        });
    }
    const Param budget = user_or_default(q.token_budget, kDefaultTokenBudget, "default token budget 1e9 tokens (give train.tokens or --tokens)");
    const double total = budget.value / tps;
    r.total_seconds = explained_figure("total_seconds", total, "s", [&] {
        return Explanation{"token_budget / tokens_per_second", n(budget.value) + " / " + n(tps) + " = " + n(total),
                           {input("token_budget", "tokens", budget), r.tokens_per_second.as_input()}};
    });
    r.total_hours = explained_figure("total_hours", total / 3600, "h", [&] {
        return Explanation{"total_seconds / 3600", n(total) + " / 3600 = " + n(total / 3600), {r.total_seconds.as_input()}};
    });
    const double cost = total / 3600 * q.usd_per_hour.value * q.nodes;
    r.cost_usd = explained_figure("cost_usd", cost, "USD", [&] {
        return Explanation{"total_hours x usd_per_hour x nodes", n(total / 3600) + " x " + n(q.usd_per_hour.value) + " x " + n(q.nodes) + " = " + n(cost),
                           {r.total_hours.as_input(), input("usd_per_hour", "USD/h", q.usd_per_hour), input("nodes", "", user_given(q.nodes))}};
    });
}

std::string bottleneck_words(const TrainingTime& r, const std::vector<ExposedPart>& parts) {
    const double step = *r.step_seconds.value, compute = *r.compute_seconds.value;
    // Under 1% prints as "<1%", so a real but small overhead never reads as "0%".
    auto pct = [&](double v) {
        const double x = 100 * v / step;
        return x > 0 && x < 0.5 ? std::string("<1%") : n(std::round(x)) + "%";
    };
    const auto worst = std::max_element(parts.begin(), parts.end(), [](const ExposedPart& a, const ExposedPart& c) { return a.seconds < c.seconds; });
    if (worst != parts.end() && compute < worst->seconds) return worst->label + " is " + pct(worst->seconds) + " of the step";
    std::string words = "compute is " + pct(compute) + " of the step (dense peak x efficiency " + n(r.compute_efficiency.value) + ")";
    if (worst != parts.end()) words += "; the largest overhead is " + worst->label + " at " + pct(worst->seconds);
    return words;
}

}  // namespace gpuplan::training_steps
