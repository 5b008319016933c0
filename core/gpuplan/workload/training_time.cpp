#include "gpuplan/workload/training_time.hpp"
#include "gpuplan/calibrated_defaults.hpp"
#include "gpuplan/formula_text.hpp"
#include "gpuplan/workload/training_steps.hpp"

#include <cmath>
#include <stdexcept>

#include "gpuplan/input_error.hpp"
#include "gpuplan/workload/fit.hpp"

namespace gpuplan {

namespace {
Param assume(double v, std::string why) { return {v, InputOrigin::assumption, std::move(why)}; }

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
    // A refit (gpuplan validate --cross-validate) says so in place of the case it replaces.
    const auto calibrated = [](CalibratedDefault which, std::string text) {
        const double v = calibrated_value(which);
        if (refit_in_force(which)) text = std::string(calibrated_default_info(which).words) + " " + n(v) + ": refitted by cross-validation without one source";
        return assume(v, std::move(text));
    };
    const double fp8_hopper = calibrated_value(CalibratedDefault::hopper_fp8_training_efficiency);
    const double a100_eff = calibrated_value(CalibratedDefault::a100_training_efficiency);
    const double hopper = calibrated_value(CalibratedDefault::hopper_training_efficiency);
    if (precision == TrainingPrecision::fp8 && arch == "Hopper")
        return calibrated(CalibratedDefault::hopper_fp8_training_efficiency, "default Hopper FP8 training efficiency " + n(fp8_hopper) +
                                                        ": fitted on the calibration case NEMO-H100-8B-FP8 (NeMo 25.11 Llama-3-8B FP8 on 8 x H100; docs/accuracy.md)");
    if (precision == TrainingPrecision::fp8) {
        Param p = default_compute_efficiency();
        p.source += "; no FP8 calibration case for " + (acc ? acc->name : std::string("this accelerator")) + " yet";
        return p;
    }
    if (a100)
        return calibrated(CalibratedDefault::a100_training_efficiency, "default A100 training efficiency " + n(a100_eff) +
                                                    " of dense BF16 peak: fitted on the calibration case LF-A100-13B-8 (llm-foundry MPT-13B on 8 x A100-80GB; docs/accuracy.md)");
    if (arch == "Hopper")
        return calibrated(CalibratedDefault::hopper_training_efficiency, "default Hopper training efficiency " + n(hopper) +
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

// The steps (training_steps.hpp), chained: each term of the step, then the totals. A term that
// cannot be known (an unknown link or peak) makes the step and everything after it unknown,
// with the first such term's reason.
TrainingTime training_time(const Catalog& catalog, const TrainingTimeRequest& q) {
    using namespace training_steps;
    const TrainingShape shape = check_request(catalog, q);
    const ModelSpec& m = *q.model;
    const Instance& inst = *q.instance;
    const Accelerator& acc = *catalog.find_accelerator(*inst.accelerator);
    const double gpn = shape.gpus_per_node, dp = shape.data, tp = shape.tensor, pp = shape.pipeline, ep = shape.expert;

    TrainingTime r;
    // A node given by the caller stands in only for the one built here (training_time.hpp).
    if (q.node && (q.node->instance != inst.name || q.topology.any()))
        throw std::logic_error("training_time: the node given is not " + inst.name + "'s node without overrides");
    r.topology = q.node ? *q.node : node_topology(catalog, inst, q.topology);
    use_gpus_of_node(r.topology, gpn);
    r.gpus_per_node = gpn;
    const NodeTopology& topo = r.topology;
    r.notes = topo.notes;
    const double T = shape.global_batch_tokens, mb = shape.micro_batches;
    r.micro_batches = explained_figure("micro_batches", mb, "", [&] {
        return Explanation{"global_batch_tokens / (data x micro_batch x sequence)",
                           n(T) + " / (" + n(dp) + " x " + n(shape.micro_batch) + " x " + n(shape.sequence) + ") = " + n(mb),
                           {input("global_batch_tokens", "tokens", user_given(T))}};
    });
    const ComputeStep compute = compute_step(acc, m, q, shape, r);

    // Parameters held per model-parallel rank (experts split over expert parallel).
    const ParameterCount pc = count_parameters(m);
    const double expert_params = m.moe ? pc.moe_mlp_per_layer_total * (m.layers - m.moe->dense_layers) : 0;
    const double params_rank = (pc.total - expert_params + expert_params / ep) / (tp * pp);
    if (ep > 1) r.notes.push_back("expert weights are split over expert parallel " + n(ep) + "; their gradients are reduced with the dense ones over the data-parallel group (an upper bound)");

    StepParts parts;
    parts.need(r.compute_seconds);
    data_parallel_step(shape, params_rank, topo, q.overlap, r, parts);
    tensor_parallel_step(shape, m.layers, topo, q.overlap.tensor, r, parts);
    const Link& pipeline_link = q.nodes > 1 ? topo.inter : topo.intra;  // stages span nodes when there are several
    r.pipeline_p2p_seconds = pipeline_p2p_seconds(shape, pipeline_link, q.overlap.pipeline_p2p);
    if (parts.need(r.pipeline_p2p_seconds) && *r.pipeline_p2p_seconds.value > 0)
        parts.parts.push_back({"pipeline point-to-point over " + std::string(link_words(pipeline_link.cls)), pipeline_link.cls,
                               *r.pipeline_p2p_seconds.value, r.pipeline_p2p_seconds.rests_on_assumption()});
    r.expert_parallel_seconds = expert_parallel_seconds(shape, m, topo, q.overlap.expert, parts);
    r.bubble_seconds = pp <= 1 || parts.unknown_reason.empty() ? bubble_seconds(shape, r) : unknown_figure("bubble_seconds", "s", "", parts.unknown_reason);
    if (pp > 1 && r.bubble_seconds.value)
        parts.parts.push_back({"pipeline bubble ((p-1)/(m+p-1) with p " + n(pp) + ", m " + n(mb) + ")", LinkClass::none, *r.bubble_seconds.value,
                               r.bubble_seconds.rests_on_assumption()});
    r.offload_seconds = offload_seconds(shape, params_rank, q.layout, topo.host, q.cpu_adam_params_per_s, q.overlap.offload);
    if (parts.need(r.offload_seconds) && *r.offload_seconds.value > 0)
        parts.parts.push_back({"CPU offload (PCIe transfers + CPU Adam)", LinkClass::none, *r.offload_seconds.value, r.offload_seconds.rests_on_assumption()});
    r.exposed_by_link = exposed_by_link(parts.parts);

    if (!parts.unknown_reason.empty()) {
        for (auto [f, name] : {std::pair{&r.step_seconds, "step_seconds"}, {&r.tokens_per_second, "tokens_per_second"},
                               {&r.tokens_per_second_per_gpu, "tokens_per_second_per_gpu"}, {&r.mfu, "mfu"}, {&r.total_seconds, "total_seconds"},
                               {&r.total_hours, "total_hours"}, {&r.cost_usd, "cost_usd"}})
            *f = unknown_figure(name, "", "", parts.unknown_reason);
        r.bottleneck = "unknown: " + parts.unknown_reason;
        return r;
    }
    const std::string layout_text = "dp " + n(dp) + " x tp " + n(tp) + " x pp " + n(pp) + (ep > 1 ? ", ep " + n(ep) : "");
    totals_step(shape, q, compute, layout_text, r);
    r.bottleneck = bottleneck_words(r, parts.parts);
    if (q.nodes > 1 && !topo.multi_node_capable) r.warnings.push_back(inst.name + " has no EFA: " + n(q.nodes) + " nodes talk over ENA TCP");
    // Step time assumes the layout fits: say so when the memory model (memory.hpp) disagrees.
    if (inst.accelerator_memory_gib_each) {
        const GpuPool pool = instance_pool(catalog, inst.name, q.nodes, "instance");
        const TrainingFit fit = check_training_fit(training_memory_request(q.model, q.layout), pool, FitSearch::verdict_only);
        if (!fit.fits)
            r.does_not_fit = "does not fit: " + n(*fit.memory.total_per_gpu_gb.value) + " GB per GPU needed (model states + activations + overhead, " +
                             "`gpuplan fit`) but " + inst.name + " has " + n(pool.gb_each()) + " GB per GPU; lower micro_batch, " +
                             "recompute more, or raise the ZeRO stage";
    }
    return r;
}

}  // namespace gpuplan
