#include "gpuplan/topology/training_time.hpp"
#include "gpuplan/formula_text.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "gpuplan/input_error.hpp"
#include "gpuplan/workload/fit.hpp"

namespace gpuplan {

namespace {
Param assume(double v, std::string why) { return {v, InputOrigin::assumption, std::move(why)}; }

Figure zero(std::string name, std::string why) { return make_figure(std::move(name), 0, "s", why, "0", {}); }

void whole_at_least(double v, double min, const std::string& where) {
    if (!std::isfinite(v) || v < min || std::floor(v) != v) throw InputError(where, n(v), "a whole number >= " + n(min));
}
bool divides(double a, double b) { return std::fmod(b, a) == 0; }  // a divides b

// Communication split over the link classes it crosses, and a label for the bottleneck text.
struct Part {
    std::string label;
    LinkClass cls = LinkClass::none;  // none: not communication
    double seconds = 0;
    bool assumed = false;  // rests on a default assumption
};
}  // namespace

OverlapDefaults default_overlap() {
    return {
        assume(0.8, "default DDP overlap 0.8: bucketed gradient all-reduce runs during backward (Li et al., PyTorch Distributed, VLDB 2020); the last bucket is exposed (planning assumption)"),
        assume(0.4, "default ZeRO-1/2 overlap 0.4: gradient reduce-scatter overlaps backward (0.8 of its half), the parameter all-gather after the optimizer step does not (planning assumption)"),
        assume(0.7, "default ZeRO-3/FSDP overlap 0.7: parameter all-gathers are prefetched under compute, the first gather and last reduce-scatter are exposed (planning assumption)"),
        assume(0, "default tensor-parallel overlap 0: Megatron all-reduces sit on the critical path (Shoeybi et al. 2019)"),
        assume(0, "default pipeline point-to-point overlap 0: conservative"),
        assume(0, "default expert-parallel overlap 0: dispatch and combine all-to-alls sit on the critical path"),
        assume(0, "default offload overlap 0: ZeRO-Offload's CPU step follows backward (no delayed parameter update)"),
    };
}

// Calibrated defaults (see default_training_efficiency).
constexpr double kAmpereTrainingEfficiency = 0.60, kHopperTrainingEfficiency = 0.41, kHopperFp8TrainingEfficiency = 0.475;

std::string_view to_string(TrainingPrecision p) { return p == TrainingPrecision::fp8 ? "fp8" : "bf16"; }
std::optional<TrainingPrecision> parse_training_precision(std::string_view text) {
    if (text == "bf16") return TrainingPrecision::bf16;
    if (text == "fp8") return TrainingPrecision::fp8;
    return std::nullopt;
}

Param default_training_efficiency(const Accelerator* acc, TrainingPrecision precision) {
    const std::string arch = acc ? acc->architecture : std::string();
    const bool a100 = acc && acc->name.rfind("A100", 0) == 0;  // not the other Ampere parts (A10G)
    // Fitted on the calibration cases (assets/validation/training.json; docs/accuracy.md): the
    // efficiency that reproduces each generation's calibration run with this model's FLOPs.
    if (precision == TrainingPrecision::fp8 && arch == "Hopper")
        return assume(kHopperFp8TrainingEfficiency, "default Hopper FP8 training efficiency " + n(kHopperFp8TrainingEfficiency) +
                                                        ": fitted on the calibration case NEMO-H100-8B-FP8 (NeMo 25.11 Llama-3-8B FP8 on 8 x H100; docs/accuracy.md)");
    if (precision == TrainingPrecision::fp8) {
        Param p = default_compute_efficiency();
        p.source += "; no FP8 calibration case for " + (acc ? acc->name : std::string("this accelerator")) + " yet";
        return p;
    }
    if (a100)
        return assume(kAmpereTrainingEfficiency, "default A100 training efficiency " + n(kAmpereTrainingEfficiency) +
                                                    " of dense BF16 peak: fitted on the calibration case LF-A100-13B-8 (llm-foundry MPT-13B on 8 x A100-80GB; docs/accuracy.md)");
    if (arch == "Hopper")
        return assume(kHopperTrainingEfficiency, "default Hopper training efficiency " + n(kHopperTrainingEfficiency) +
                                                    " of dense BF16 peak: fitted on the calibration case LF-H100-13B-8 (llm-foundry MPT-13B on 8 x H100-80GB; docs/accuracy.md)");
    Param p = default_compute_efficiency();
    p.source += "; no calibration case for " + (acc ? acc->name : std::string("this accelerator")) + " yet";
    return p;
}

Param default_cpu_adam_params_per_s() {
    return assume(2e9, "default CPU Adam 2e9 parameters/s per host: Adam is memory-bound, ~30 bytes of host memory traffic per parameter "
                       "at ~100 GB/s gives ~3e9/s; rounded down (planning assumption, docs/models.md)");
}

std::vector<Figure> TrainingTime::all() const {
    std::vector<Figure> v = {micro_batches, compute_seconds, data_parallel_comm_seconds, data_parallel_exposed_seconds, tensor_parallel_seconds,
                             pipeline_p2p_seconds, expert_parallel_seconds, bubble_seconds, offload_seconds};
    v.insert(v.end(), exposed_by_link.begin(), exposed_by_link.end());
    v.insert(v.end(), {step_seconds, tokens_per_second, tokens_per_second_per_gpu, mfu, total_seconds, total_hours, cost_usd});
    return v;
}

TrainingTime training_time(const Catalog& catalog, const TrainingTimeRequest& q) {
    const ParallelLayout& L = q.layout;
    if (!q.model) throw InputError("model", "none", "a model preset or definition");
    if (!q.instance) throw InputError("instance", "none", "an instance type from the catalog");
    const ModelSpec& m = *q.model;
    const Instance& inst = *q.instance;
    const Accelerator* acc = inst.accelerator ? catalog.find_accelerator(*inst.accelerator) : nullptr;
    if (!acc || !inst.accelerator_count) throw InputError("instance", inst.name, "an instance type with accelerators");
    const double all = *inst.accelerator_count;
    if (all < 1 || std::floor(all) != all)
        throw InputError("instance", inst.name + " (" + n(all) + " accelerators)", "whole accelerators for training (a fractional slice cannot train in parallel)");
    const double gpn = q.gpus_per_node.value_or(all);
    if (!(gpn >= 1 && gpn <= all && std::floor(gpn) == gpn))
        throw InputError("gpus_per_node", n(gpn), "a whole number from 1 to the " + n(all) + " accelerators of " + inst.name);
    whole_at_least(q.nodes, 1, "nodes");
    whole_at_least(L.data, 1, "layout.data");
    whole_at_least(L.tensor, 1, "layout.tensor");
    whole_at_least(L.pipeline, 1, "layout.pipeline");
    whole_at_least(L.expert, 1, "layout.expert");
    whole_at_least(L.micro_batch, 1, "layout.micro_batch");
    whole_at_least(L.sequence, 1, "layout.sequence");
    const double G = q.nodes * gpn, dp = L.data, tp = L.tensor, pp = L.pipeline, ep = L.expert;
    if (dp * tp * pp != G)
        throw InputError("layout.data x layout.tensor x layout.pipeline", n(dp) + " x " + n(tp) + " x " + n(pp) + " = " + n(dp * tp * pp),
                         "the GPU count: " + n(q.nodes) + " nodes x " + n(gpn) + " GPUs of " + inst.name + " = " + n(G));
    if (tp > gpn && !L.allow_cross_node_tensor_parallel)
        throw InputError("layout.tensor", n(tp), "at most the " + n(gpn) + " GPUs of one " + inst.name + " node (or set allow_cross_node_tensor_parallel)");
    if (tp <= gpn ? !divides(tp, gpn) : !divides(gpn, tp))
        throw InputError("layout.tensor", n(tp), "a divisor of the " + n(gpn) + " GPUs per node, or a multiple of it across nodes");
    if (!divides(tp, m.heads)) throw InputError("layout.tensor", n(tp), "a divisor of " + m.name + "'s " + n(m.heads) + " attention heads");
    if (pp > m.layers) throw InputError("layout.pipeline", n(pp), "at most " + m.name + "'s " + n(m.layers) + " layers");
    if (ep > 1 && !m.moe) throw InputError("layout.expert", n(ep), "1: " + m.name + " has no experts");
    if (ep > 1 && (!divides(ep, dp) || ep > m.moe->routed_experts))
        throw InputError("layout.expert", n(ep), "a divisor of layout.data (" + n(dp) + ") and at most the " + n(m.moe->routed_experts) + " routed experts");
    if (L.zero_stage < 0 || L.zero_stage > 3) throw InputError("layout.zero_stage", std::to_string(L.zero_stage), "0, 1, 2 or 3");
    if (L.offload_optimizer && L.zero_stage == 0) throw InputError("layout.offload_optimizer", "true with ZeRO stage 0", "ZeRO stage 1, 2 or 3 (ZeRO-Offload)");
    if (L.offload_parameters && (L.zero_stage != 3 || !L.offload_optimizer))
        throw InputError("layout.offload_parameters", "true with ZeRO stage " + std::to_string(L.zero_stage), "ZeRO stage 3 with offload_optimizer");
    const double per_step_unit = dp * L.micro_batch * L.sequence;
    const double mb = L.global_batch_tokens / per_step_unit;
    if (!(L.global_batch_tokens > 0) || mb < 1 || std::floor(mb) != mb)
        throw InputError("layout.global_batch_tokens", n(L.global_batch_tokens),
                         "a whole multiple of data x micro_batch x sequence = " + n(dp) + " x " + n(L.micro_batch) + " x " + n(L.sequence) + " = " + n(per_step_unit));
    if (!(q.token_budget >= 0)) throw InputError("token_budget", n(q.token_budget), ">= 0 tokens");
    if (!(q.usd_per_hour.value >= 0)) throw InputError("usd_per_hour", n(q.usd_per_hour.value), ">= 0");
    if (q.compute_efficiency && !(q.compute_efficiency->value > 0 && q.compute_efficiency->value <= 1))
        throw InputError("compute_efficiency", n(q.compute_efficiency->value), "a fraction in (0, 1]");

    TrainingTime r;
    r.topology = node_topology(catalog, inst, q.topology);
    use_gpus_of_node(r.topology, gpn);
    r.gpus_per_node = gpn;
    const NodeTopology& topo = r.topology;
    r.notes = topo.notes;
    const bool full = L.recompute == Recompute::full;
    const double s = L.sequence, b = L.micro_batch, h = m.hidden, T = L.global_batch_tokens;
    const std::string layout_text = "dp " + n(dp) + " x tp " + n(tp) + " x pp " + n(pp) + (ep > 1 ? ", ep " + n(ep) : "");
    r.micro_batches = make_figure("micro_batches", mb, "", "global_batch_tokens / (data x micro_batch x sequence)",
                          n(T) + " / (" + n(dp) + " x " + n(b) + " x " + n(s) + ") = " + n(mb), {input("global_batch_tokens", "tokens", user_given(T))});

    // Compute.
    std::optional<Param> peak = q.peak_tflops;
    if (!peak && acc->dense_tflops.bf16) peak = Param{*acc->dense_tflops.bf16, InputOrigin::catalog, "catalog " + acc->name + " dense BF16 TFLOPS"};
    const auto bf16_reason = acc->unknown.find("dense_tflops.bf16");
    if (!peak && acc->dense_tflops.fp16 && bf16_reason != acc->unknown.end() && bf16_reason->second.rfind("n/a", 0) == 0) {
        peak = Param{*acc->dense_tflops.fp16, InputOrigin::catalog, "catalog " + acc->name + " dense FP16 TFLOPS (no BF16: fp16 mixed precision)"};
        r.notes.push_back(acc->name + " has no BF16: compute uses its FP16 peak (fp16 mixed precision)");
    }
    r.compute_efficiency = q.compute_efficiency.value_or(default_training_efficiency(acc, q.precision));
    const TrainingFlops step_flops = training_step_flops(m, T, s, full ? RecomputeFlops::full : L.recompute == Recompute::selective ? RecomputeFlops::selective : RecomputeFlops::none);
    r.training_flops = step_flops.hardware;
    const Figure& flops = r.training_flops;
    // FP8: the linear layers' matrix multiplies run at the FP8 peak; attention stays in bf16.
    std::optional<Param> dense_peak = peak;
    if (q.precision == TrainingPrecision::fp8) {
        if (!acc->dense_tflops.fp8) {
            const auto why = acc->unknown.find("dense_tflops.fp8");
            throw InputError("precision", "\"fp8\"", "an accelerator with FP8 tensor cores (" + acc->name + ": " +
                                                          (why == acc->unknown.end() ? std::string("no FP8 figure in the catalog") : why->second) + "), or bf16");
        }
        dense_peak = Param{*acc->dense_tflops.fp8, InputOrigin::catalog, "catalog " + acc->name + " dense FP8 TFLOPS"};
    }
    if (peak && q.precision == TrainingPrecision::fp8) {
        const double eff = r.compute_efficiency.value, dense = step_flops.hardware_dense, attn = step_flops.hardware_attention;
        const double v = dense / (G * dense_peak->value * 1e12 * eff) + attn / (G * peak->value * 1e12 * eff);
        r.compute_seconds = make_figure("compute_seconds", v, "s",
                                "dense FLOPs / (GPUs x FP8 peak x efficiency) + attention FLOPs / (GPUs x BF16 peak x efficiency): FP8 linear layers, bf16 attention",
                                n(dense) + " / (" + n(G) + " x " + n(dense_peak->value) + "e12 x " + n(eff) + ") + " + n(attn) + " / (" + n(G) + " x " +
                                    n(peak->value) + "e12 x " + n(eff) + ") = " + n(v),
                                {flops.as_input(), input("dense_fp8_tflops", "TFLOPS", *dense_peak), input("dense_peak_tflops", "TFLOPS", *peak),
                                 input("compute_efficiency", "fraction", r.compute_efficiency)});
    } else {
        r.compute_seconds = peak ? compute_seconds(flops, G, *peak, r.compute_efficiency)
                                 : unknown_figure("compute_seconds", "s", "", acc->name + " dense BF16 peak unknown: " + (bf16_reason != acc->unknown.end() ? bf16_reason->second : "not recorded"));
    }
    const double compute = r.compute_seconds.value.value_or(NAN);

    // Parameters held per model-parallel rank (experts split over expert parallel).
    const ParameterCount pc = count_parameters(m);
    const double expert_params = m.moe ? pc.moe_mlp_per_layer_total * (m.layers - m.moe->dense_layers) : 0;
    const double params_rank = (pc.total - expert_params + expert_params / ep) / (tp * pp);
    if (ep > 1) r.notes.push_back("expert weights are split over expert parallel " + n(ep) + "; their gradients are reduced with the dense ones over the data-parallel group (an upper bound)");

    std::vector<Part> parts;
    std::string unknown_reason;
    auto need = [&](const Figure& f) {
        if (!f.value && unknown_reason.empty()) unknown_reason = f.name + ": " + f.unknown_reason;
        return f.value.has_value();
    };
    need(r.compute_seconds);
    auto split = [&](const std::string& label, const CollectiveCost& c, double exposed, const Figure& source) {
        const bool assumed = source.rests_on_assumption();
        // The collective's time is shared between its links in proportion to each one's own
        // time (the phases overlap, so the parts of the exposed time add up to it).
        const double in = *c.intra_seconds.value, out = *c.inter_seconds.value, total = in + out;
        if (total <= 0 || *c.seconds.value <= 0) return;
        if (in > 0) parts.push_back({label + " over " + std::string(link_words(c.intra_class)), c.intra_class, exposed * in / total, assumed});
        if (out > 0) parts.push_back({label + " over " + std::string(link_words(c.inter_class)), c.inter_class, exposed * out / total, assumed});
    };

    // Data parallel.
    if (dp > 1) {
        const double g_dp = std::min(dp, std::max(1.0, gpn / tp)), n_dp = dp / g_dp;
        const double grad_bytes = 2 * params_rank;
        // (collective, bytes, times per optimizer step). With gradient accumulation over m
        // micro-batches, DDP and ZeRO-1 synchronise once per step (gradients accumulate
        // locally); ZeRO-2 reduce-scatters each micro-batch's gradients (they are partitioned,
        // so cannot accumulate in full); ZeRO-3/FSDP also re-gathers the parameters in every
        // micro-batch's forward and backward (Rajbhandari et al. 2020; PyTorch FSDP docs).
        struct Op { Collective kind; double bytes, times; };
        std::vector<Op> ops;
        std::string what;
        if (L.zero_stage == 0) {
            ops = {{Collective::all_reduce, grad_bytes, 1}};
            what = "gradient all-reduce once per step";
        } else if (L.zero_stage == 1) {
            ops = {{Collective::reduce_scatter, grad_bytes, 1}, {Collective::all_gather, grad_bytes, 1}};
            what = "gradient reduce-scatter + parameter all-gather once per step";
        } else if (L.zero_stage == 2) {
            ops = {{Collective::reduce_scatter, grad_bytes, mb}, {Collective::all_gather, grad_bytes, 1}};
            what = "gradient reduce-scatter per micro-batch (x" + n(mb) + ") + parameter all-gather per step";
        } else {
            ops = {{Collective::reduce_scatter, grad_bytes, mb}, {Collective::all_gather, grad_bytes, 2 * mb}};
            what = "ZeRO-3 gradient reduce-scatter + forward and backward parameter all-gathers per micro-batch (x" + n(mb) + ")";
        }
        CollectiveCost sum;
        double in = 0, out = 0, total = 0;
        std::vector<FigureInput> ins;
        std::string worked;
        bool known = true;
        for (const auto& op : ops) {
            CollectiveCost c = hierarchical_collective(op.kind, op.bytes, topo, g_dp, n_dp);
            if (!need(c.seconds)) {
                known = false;
                r.data_parallel_comm_seconds = c.seconds;
                r.data_parallel_comm_seconds.name = "data_parallel_comm_seconds";
                break;
            }
            in += op.times * *c.intra_seconds.value, out += op.times * *c.inter_seconds.value, total += op.times * *c.seconds.value;
            worked += (worked.empty() ? "" : " + ") + (op.times != 1 ? n(op.times) + " x " : std::string()) + n(*c.seconds.value);
            ins.push_back(c.seconds.as_input(c.seconds.worked));
            sum.intra_class = c.intra_class, sum.inter_class = c.inter_class;
        }
        const Param& ov = L.zero_stage == 0 ? q.overlap.ddp : L.zero_stage < 3 ? q.overlap.zero12 : q.overlap.zero3;
        if (known) {
            r.data_parallel_comm_seconds = make_figure("data_parallel_comm_seconds", total, "s",
                                               what + " of 2 bytes x " + n(params_rank) + " parameters per rank over " + n(g_dp) + " ranks per node x " + n(n_dp) + " nodes (ZeRO stage " + std::to_string(L.zero_stage) + "; Rajbhandari et al. 2020)",
                                               worked + " = " + n(total), ins);
            if (need(r.compute_seconds)) {
                const double share = L.zero_stage == 3 ? 1.0 : (full ? 6.0 / 8 : 4.0 / 6);
                const double window = compute * share;
                const double exposed = total - std::min(ov.value * total, window);
                r.data_parallel_exposed_seconds = make_figure("data_parallel_exposed_seconds", exposed, "s",
                                                      "comm - min(overlap x comm, compute window); window = compute x " + n(share) + (L.zero_stage == 3 ? " (all of it)" : " (backward share)"),
                                                      n(total) + " - min(" + n(ov.value) + " x " + n(total) + ", " + n(window) + ") = " + n(exposed),
                                                      {r.data_parallel_comm_seconds.as_input(), input("overlap", "fraction", ov), r.compute_seconds.as_input()});
                sum.seconds.value = total, sum.intra_seconds.value = in, sum.inter_seconds.value = out;
                split("exposed data-parallel " + what, sum, exposed, r.data_parallel_exposed_seconds);
            } else {
                r.data_parallel_exposed_seconds = unknown_figure("data_parallel_exposed_seconds", "s", "", unknown_reason);
            }
        } else {
            r.data_parallel_exposed_seconds = unknown_figure("data_parallel_exposed_seconds", "s", "", r.data_parallel_comm_seconds.unknown_reason);
        }
    } else {
        r.data_parallel_comm_seconds = zero("data_parallel_comm_seconds", "data parallel 1: no gradient synchronisation");
        r.data_parallel_exposed_seconds = zero("data_parallel_exposed_seconds", "data parallel 1");
    }

    // Tensor parallel: 4 all-reduces per layer per micro-batch (+2 with full recompute).
    if (tp > 1) {
        NodeTopology tp_topo = topo;
        if (tp_topo.intra.cls == LinkClass::cross_socket && tp <= gpn / 2 && !topo.links.empty() && topo.links[0].known() &&
            (!topo.intra.known() || topo.links[0].gb_per_s.value > topo.intra.gb_per_s.value)) {
            tp_topo.intra = topo.links[0];  // a contiguous group of half the node or less stays on one socket
            tp_topo.intra.latency_us = default_latency_us(LinkClass::pcie_host_bridge);
        }
        const double rpn = std::min(tp, gpn), tn = tp / rpn;
        const double bytes = b * s * h * 2, per_layer = full ? 6 : 4, layers_here = m.layers / pp, count = per_layer * layers_here * mb;
        const CollectiveCost c = hierarchical_collective(Collective::all_reduce, bytes, tp_topo, rpn, tn);
        if (need(c.seconds)) {
            const double v = count * *c.seconds.value * (1 - q.overlap.tensor.value);
            r.tensor_parallel_seconds = make_figure("tensor_parallel_seconds", v, "s",
                                            n(per_layer) + " all-reduces of b x s x h x 2 bytes per layer x layers / pp x micro-batches x (1 - overlap) (Shoeybi et al. 2019)",
                                            n(per_layer) + " x " + n(layers_here) + " x " + n(mb) + " x " + n(*c.seconds.value) + " x (1 - " + n(q.overlap.tensor.value) + ") = " + n(v) + " (" + c.bottleneck_text + ")",
                                            {c.seconds.as_input(c.seconds.worked), input("tensor_overlap", "fraction", q.overlap.tensor)});
            split("tensor-parallel all-reduces", c, v, r.tensor_parallel_seconds);
        } else {
            r.tensor_parallel_seconds = c.seconds;
            r.tensor_parallel_seconds.name = "tensor_parallel_seconds";
        }
        const LinkClass worst = tn > 1 ? topo.inter.cls : tp_topo.intra.cls;
        if (worst != LinkClass::nvlink && worst != LinkClass::neuronlink)
            r.warnings.push_back("tensor parallel " + n(tp) + " runs over " + std::string(link_words(worst)) +
                                 ": its all-reduces sit on the critical path of every layer; prefer NVLink/NeuronLink, or pipeline parallel across the slow link");
    } else {
        r.tensor_parallel_seconds = zero("tensor_parallel_seconds", "tensor parallel 1");
    }

    // Pipeline point-to-point: activations forward, gradients backward, per micro-batch.
    if (pp > 1) {
        const Link& l = q.nodes > 1 ? topo.inter : topo.intra;
        if (!l.known()) {
            r.pipeline_p2p_seconds = unknown_figure("pipeline_p2p_seconds", "s", "", "pipeline link unknown: " + l.unknown_reason);
            need(r.pipeline_p2p_seconds);
        } else {
            const double bytes = b * s * h * 2, one = bytes / (l.gb_per_s.value * 1e9) + l.latency_us.value * 1e-6;
            const double v = 2 * mb * one * (1 - q.overlap.pipeline_p2p.value);
            r.pipeline_p2p_seconds = make_figure("pipeline_p2p_seconds", v, "s", "2 x micro-batches x (b x s x h x 2 / B + alpha) x (1 - overlap)",
                                         "2 x " + n(mb) + " x (" + n(bytes) + " / " + n(l.gb_per_s.value) + "e9 + " + n(l.latency_us.value) + "e-6) x (1 - " + n(q.overlap.pipeline_p2p.value) + ") = " + n(v),
                                         {input("link_gb_per_s", "GB/s", l.gb_per_s), input("latency_us", "us", l.latency_us), input("pipeline_overlap", "fraction", q.overlap.pipeline_p2p)});
            if (v > 0) parts.push_back({"pipeline point-to-point over " + std::string(link_words(l.cls)), l.cls, v, r.pipeline_p2p_seconds.rests_on_assumption()});
        }
    } else {
        r.pipeline_p2p_seconds = zero("pipeline_p2p_seconds", "pipeline parallel 1");
    }

    // Expert parallel: 2 all-to-alls per MoE layer forward, 2 backward (+2 with full recompute).
    if (ep > 1) {
        const double rpn = std::min(ep, std::max(1.0, gpn / tp)), en = ep / rpn;
        const double bytes = b * s * h * 2 * m.moe->active_experts, per_layer = full ? 6 : 4;
        const double moe_layers_here = (m.layers - m.moe->dense_layers) / pp, count = per_layer * moe_layers_here * mb;
        const CollectiveCost c = hierarchical_collective(Collective::all_to_all, bytes, topo, rpn, en);
        if (need(c.seconds)) {
            const double v = count * *c.seconds.value * (1 - q.overlap.expert.value);
            r.expert_parallel_seconds = make_figure("expert_parallel_seconds", v, "s",
                                            n(per_layer) + " all-to-alls of b x s x h x 2 x top_k bytes per MoE layer x MoE layers / pp x micro-batches x (1 - overlap) (Lepikhin et al. 2020)",
                                            n(per_layer) + " x " + n(moe_layers_here) + " x " + n(mb) + " x " + n(*c.seconds.value) + " x (1 - " + n(q.overlap.expert.value) + ") = " + n(v) + " (" + c.bottleneck_text + ")",
                                            {c.seconds.as_input(c.seconds.worked), input("expert_overlap", "fraction", q.overlap.expert)});
            split("expert-parallel all-to-alls", c, v, r.expert_parallel_seconds);
        } else {
            r.expert_parallel_seconds = c.seconds;
            r.expert_parallel_seconds.name = "expert_parallel_seconds";
        }
    } else {
        r.expert_parallel_seconds = zero("expert_parallel_seconds", "expert parallel 1");
    }

    // Pipeline bubble over the pipelined work (compute + per-micro-batch communication).
    if (pp > 1) {
        if (unknown_reason.empty()) {
            const double work = compute + *r.tensor_parallel_seconds.value + *r.expert_parallel_seconds.value + *r.pipeline_p2p_seconds.value;
            const double v = work * (pp - 1) / mb;
            r.bubble_seconds = make_figure("bubble_seconds", v, "s",
                                   "pipelined work x (p - 1) / m, i.e. a fraction (p-1)/(m+p-1) = " + n((pp - 1) / (mb + pp - 1)) + " of the pipeline time (Huang et al. 2019; Narayanan et al. 2021)",
                                   n(work) + " x (" + n(pp) + " - 1) / " + n(mb) + " = " + n(v),
                                   {r.compute_seconds.as_input(), r.tensor_parallel_seconds.as_input(), r.expert_parallel_seconds.as_input(), r.pipeline_p2p_seconds.as_input(),
                                    r.micro_batches.as_input()});
            parts.push_back({"pipeline bubble ((p-1)/(m+p-1) with p " + n(pp) + ", m " + n(mb) + ")", LinkClass::none, v, r.bubble_seconds.rests_on_assumption()});
        } else {
            r.bubble_seconds = unknown_figure("bubble_seconds", "s", "", unknown_reason);
        }
    } else {
        r.bubble_seconds = zero("bubble_seconds", "pipeline parallel 1: no bubble");
    }

    // CPU offload (ZeRO-Offload): fp16 gradients out, fp16 parameters back, CPU Adam.
    if (L.offload_optimizer) {
        const double shard = params_rank / dp, bytes_per = L.offload_parameters ? 8 : 4, bytes = shard * bytes_per;
        if (!topo.host.known()) {
            r.offload_seconds = unknown_figure("offload_seconds", "s", "", "GPU-host PCIe link unknown: " + topo.host.unknown_reason);
            need(r.offload_seconds);
        } else {
            const double transfer = bytes / (topo.host.gb_per_s.value * 1e9);
            const double adam = shard * gpn / q.cpu_adam_params_per_s.value;
            const double v = (transfer + adam) * (1 - q.overlap.offload.value);
            r.offload_seconds = make_figure("offload_seconds", v, "s",
                                    "(parameters per GPU x " + n(bytes_per) + " bytes / PCIe GB/s + parameters per GPU x GPUs per node / CPU Adam rate) x (1 - overlap) (Ren et al. 2021)",
                                    "(" + n(shard) + " x " + n(bytes_per) + " / " + n(topo.host.gb_per_s.value) + "e9 + " + n(shard) + " x " + n(gpn) + " / " + n(q.cpu_adam_params_per_s.value) + ") x (1 - " + n(q.overlap.offload.value) + ") = " + n(v),
                                    {input("host_pcie_gb_per_s", "GB/s", topo.host.gb_per_s), input("cpu_adam_params_per_s", "params/s", q.cpu_adam_params_per_s),
                                     input("offload_overlap", "fraction", q.overlap.offload)});
            if (v > 0) parts.push_back({"CPU offload (PCIe transfers + CPU Adam)", LinkClass::none, v, r.offload_seconds.rests_on_assumption()});
        }
    } else {
        r.offload_seconds = zero("offload_seconds", "no CPU offload");
    }

    // Exposed communication per link class.
    std::map<LinkClass, Figure> by_link;
    for (const Part& p : parts) {
        if (p.cls == LinkClass::none) continue;
        auto [it, fresh] = by_link.try_emplace(p.cls, make_figure("exposed_" + std::string(to_string(p.cls)) + "_seconds", 0, "s",
                                                          "sum of exposed communication over " + std::string(link_words(p.cls)) + " (data, tensor, pipeline, expert parallel)", "", {}));
        Figure& f = it->second;
        *f.value += p.seconds;
        f.worked += (fresh ? "" : " + ") + n(p.seconds);
        f.inputs.push_back({p.label, p.seconds, "s", InputOrigin::derived, p.label, p.assumed});
    }
    for (auto& [cls, f] : by_link) {
        f.worked += " = " + n(*f.value);
        r.exposed_by_link.push_back(std::move(f));
    }

    // Step, throughput, totals, cost.
    if (!unknown_reason.empty()) {
        for (Figure* f : {&r.step_seconds, &r.tokens_per_second, &r.tokens_per_second_per_gpu, &r.mfu, &r.total_seconds, &r.total_hours, &r.cost_usd})
            *f = unknown_figure("", "", "", unknown_reason);
        r.step_seconds.name = "step_seconds", r.tokens_per_second.name = "tokens_per_second", r.total_seconds.name = "total_seconds";
        r.tokens_per_second_per_gpu.name = "tokens_per_second_per_gpu", r.mfu.name = "mfu";
        r.total_hours.name = "total_hours", r.cost_usd.name = "cost_usd";
        r.bottleneck = "unknown: " + unknown_reason;
        return r;
    }
    const std::vector<const Figure*> terms = {&r.compute_seconds, &r.bubble_seconds, &r.data_parallel_exposed_seconds, &r.tensor_parallel_seconds,
                                              &r.pipeline_p2p_seconds, &r.expert_parallel_seconds, &r.offload_seconds};
    double step = 0;
    std::string worked;
    std::vector<FigureInput> ins;
    for (const Figure* f : terms) {
        step += *f->value;
        worked += (worked.empty() ? "" : " + ") + n(*f->value);
        ins.push_back(f->as_input());
    }
    r.step_seconds = make_figure("step_seconds", step, "s", "compute + bubble + exposed data-parallel + tensor-parallel + pipeline p2p + expert-parallel + offload (" + layout_text + ")",
                         worked + " = " + n(step), ins);
    const double tps = T / step;
    r.tokens_per_second = make_figure("tokens_per_second", tps, "tokens/s", "global_batch_tokens / step_seconds", n(T) + " / " + n(step) + " = " + n(tps), {r.step_seconds.as_input()});
    // Per GPU: how published training benchmarks report throughput (torchtitan, llm-foundry, NeMo).
    r.tokens_per_second_per_gpu = make_figure("tokens_per_second_per_gpu", tps / G, "tokens/s", "tokens_per_second / GPUs", n(tps) + " / " + n(G) + " = " + n(tps / G),
                                      {r.tokens_per_second.as_input(), input("gpus", "GPUs", derived_param(G, "nodes x GPUs per node"))});
    // MFU on model FLOPs (no recompute), as published benchmarks report it.
    if (peak) {
        // Against the BF16 peak, as published benchmarks state MFU for both precisions.
        const double model_flops = *step_flops.model.value, v = model_flops / (step * G * peak->value * 1e12);
        r.mfu = make_figure("mfu", v, "fraction", "model_flops / (step_seconds x GPUs x dense BF16 peak): model FLOPs utilisation (recompute not counted)",
                    n(model_flops) + " / (" + n(step) + " x " + n(G) + " x " + n(peak->value) + "e12) = " + n(v),
                    {step_flops.model.as_input(), r.step_seconds.as_input(), input("dense_peak_tflops", "TFLOPS", *peak)});
    }
    const double total = q.token_budget / tps;
    r.total_seconds = make_figure("total_seconds", total, "s", "token_budget / tokens_per_second", n(q.token_budget) + " / " + n(tps) + " = " + n(total),
                          {input("token_budget", "tokens", user_given(q.token_budget)), r.tokens_per_second.as_input()});
    r.total_hours = make_figure("total_hours", total / 3600, "h", "total_seconds / 3600", n(total) + " / 3600 = " + n(total / 3600), {r.total_seconds.as_input()});
    const double cost = total / 3600 * q.usd_per_hour.value * q.nodes;
    r.cost_usd = make_figure("cost_usd", cost, "USD", "total_hours x usd_per_hour x nodes", n(total / 3600) + " x " + n(q.usd_per_hour.value) + " x " + n(q.nodes) + " = " + n(cost),
                     {r.total_hours.as_input(), input("usd_per_hour", "USD/h", q.usd_per_hour), input("nodes", "", user_given(q.nodes))});

    // Bottleneck in words.
    // Under 1% prints as "<1%", so a real but small overhead never reads as "0%".
    auto pct = [&](double v) { const double x = 100 * v / step; return x > 0 && x < 0.5 ? std::string("<1%") : n(std::round(x)) + "%"; };
    const auto worst = std::max_element(parts.begin(), parts.end(), [](const Part& a, const Part& c) { return a.seconds < c.seconds; });
    if (worst == parts.end() || compute >= worst->seconds) {
        r.bottleneck = "compute is " + pct(compute) + " of the step (dense peak x efficiency " + n(r.compute_efficiency.value) + ")";
        if (worst != parts.end()) r.bottleneck += "; the largest overhead is " + worst->label + " at " + pct(worst->seconds);
    } else {
        r.bottleneck = worst->label + " is " + pct(worst->seconds) + " of the step";
    }
    if (q.nodes > 1 && !topo.multi_node_capable)
        r.warnings.push_back(inst.name + " has no EFA: " + n(q.nodes) + " nodes talk over ENA TCP");
    // Step time assumes the layout fits: say so when the memory model (memory.hpp) disagrees.
    if (inst.accelerator_memory_gib_each) {
        const GpuPool pool = instance_pool(catalog, inst.name, q.nodes, "instance");
        const TrainingFit fit = check_training_fit(training_memory_request(q.model, L), pool, FitSearch::verdict_only);
        if (!fit.fits)
            r.warnings.push_back("does not fit: " + n(*fit.memory.total_per_gpu_gb.value) + " GB per GPU needed (model states + activations + overhead, " +
                                 "`gpuplan fit`) but " + inst.name + " has " + n(pool.gb_each()) + " GB per GPU; lower micro_batch, " +
                                 "recompute more, or raise the ZeRO stage");
    }
    return r;
}

}  // namespace gpuplan
