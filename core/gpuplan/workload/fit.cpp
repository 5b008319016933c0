// fit.cpp — memory fit for inference and training on a pool of GPUs (fit.hpp).
#include "gpuplan/workload/fit.hpp"
#include "gpuplan/formula_text.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "gpuplan/input_error.hpp"
#include "gpuplan/text.hpp"
#include "gpuplan/units.hpp"

namespace gpuplan {

namespace {

std::string star(const Figure& f) { return f.rests_on_assumption() ? "*" : ""; }

std::vector<double> divisors(double count) {
    std::vector<double> d;
    for (double k = 1; k <= count; ++k)
        if (std::fmod(count, k) == 0) d.push_back(k);
    return d;
}

}  // namespace

// ---- GPU pools ----------------------------------------------------------------------------------

double GpuPool::gb_each() const { return gib_to_gb(gib_each); }

GpuPool instance_pool(const Catalog& catalog, const std::string& name, double nodes, const std::string& where) {
    const Instance* found = catalog.find_instance(name);
    if (!found) throw InputError(where, "'" + name + "'", "an instance type in the catalog (see `gpuplan catalog`)");
    const Instance& inst = *found;
    if (!inst.accelerator_count || *inst.accelerator_count <= 0)
        throw InputError(where, "'" + name + "'", "an instance type with a known accelerator count (" + inst.unknown_reason("accelerator_count") + ")");
    if (!inst.accelerator_memory_gib_each)
        throw InputError(where, "'" + name + "'",
                         "an instance type with known accelerator memory (" + inst.unknown_reason("accelerator_memory_gib_each") + ")");
    GpuPool p;
    p.instance = &inst;
    p.accelerator = inst.accelerator ? catalog.find_accelerator(*inst.accelerator) : nullptr;
    if (inst.accelerator) p.accelerator_name = *inst.accelerator;
    const double count = *inst.accelerator_count;
    // A slice (g6f, gr6f) is one device of its own memory, with its share of the chip.
    p.slice = count < 1 ? count : 1;
    p.gpus_per_node = count < 1 ? 1 : count;
    p.nodes = nodes;
    p.gib_each = *inst.accelerator_memory_gib_each;
    p.gib_each_input = {.name = "accelerator_memory_gib_each", .value = p.gib_each, .unit = "GiB", .origin = InputOrigin::catalog,
                        .source = "catalog " + inst.name + " accelerator_memory_gib_each (GiB as EC2 reports it)"};
    const std::string what = count < 1 ? "a " + n(count) + " slice of one " + p.accelerator_name : n(count) + " x " + p.accelerator_name;
    p.label = (nodes > 1 ? n(nodes) + " x " : std::string()) + inst.name + " (" + what + ", " + n(p.gib_each) + " GiB each" +
              (nodes > 1 ? "; " + n(p.gpus()) + " GPUs in all" : std::string()) + ")";
    return p;
}

GpuPool bare_pool(double gpus, double gib_each) {
    GpuPool p;
    p.gpus_per_node = gpus;
    p.gib_each = gib_each;
    p.gib_each_input = {.name = "gpu_memory_gib", .value = gib_each, .unit = "GiB", .origin = InputOrigin::user, .source = "given GPU memory"};
    p.label = n(gpus) + " GPU" + (gpus == 1 ? "" : "s") + " x " + n(gib_each) + " GiB (given, no instance type)";
    return p;
}

void check_tensor_parallel(double tp, const GpuPool& pool, const std::string& where) {
    const std::string node = pool.instance ? "one " + pool.instance->name : "--gpus";
    if (tp > pool.gpus_per_node)
        throw InputError(where, n(tp),
                         "at most the " + n(pool.gpus_per_node) + " GPU" + (pool.gpus_per_node == 1 ? "" : "s") + " of " + node +
                             " (tensor parallel across nodes is not modelled)");
    if (std::fmod(pool.gpus_per_node, tp) != 0) {
        std::vector<std::string> texts;
        for (double d : divisors(pool.gpus_per_node)) texts.push_back(n(d));
        throw InputError(where, n(tp), "a divisor of the " + n(pool.gpus_per_node) + " GPUs of " + node + ": " + join(texts, ", "));
    }
}

bool tensor_parallel_over_pcie(double tp, const GpuPool& pool) {
    return tp > 1 && pool.instance && pool.instance->interconnect &&
           (*pool.instance->interconnect == Interconnect::pcie || *pool.instance->interconnect == Interconnect::none);
}

std::string gpus_text(double count, const GpuPool& pool) {
    if (pool.slice < 1 && count == 1) return "a " + n(pool.slice) + " slice of one " + pool.accelerator_name;
    if (pool.accelerator_name == "GPU") return quantity(count) + (count == 1 ? " GPU" : " GPUs");
    return quantity(count) + " x " + pool.accelerator_name;
}

nlohmann::json to_json(const GpuPool& p) {
    nlohmann::json j = {{"label", p.label},
                        {"instance", p.instance ? nlohmann::json(p.instance->name) : nlohmann::json(nullptr)},
                        {"accelerator", p.accelerator_name},
                        {"nodes", p.nodes},
                        {"gpus_per_node", p.gpus_per_node},
                        {"gpus", p.gpus()},
                        {"accelerator_memory_gib_each", p.gib_each}};
    if (p.instance) j["host_memory_gib_per_node"] = p.instance->memory_gib ? nlohmann::json(*p.instance->memory_gib) : nlohmann::json(nullptr);
    return j;
}

// ---- inference fit ------------------------------------------------------------------------------

InferenceMemoryRequest inference_request(const InferenceFitRequest& r, const GpuPool& pool) {
    InferenceMemoryRequest q;
    q.model = r.model;
    q.weight_bytes = dtype_bytes(r.dtype, "dtype");
    q.kv_bytes = dtype_bytes(r.kv_dtype, "kv_dtype");
    q.batch = r.batch;
    q.context = r.context;
    q.tensor_parallel = r.tensor_parallel.value_or(pool.gpus_per_node);
    if (r.overhead_gib) q.runtime_overhead_gib = {*r.overhead_gib, InputOrigin::user, ""};
    return q;
}

namespace {

// More GPUs in the same dtypes, then smaller weights, then a smaller KV cache.
std::vector<FitAlternative> inference_alternatives(const InferenceMemoryRequest& q, const GpuPool& pool, const std::string& dtype,
                                                   const std::string& kv_dtype, bool weights_alone_too_big, double cap) {
    std::vector<FitAlternative> out;
    const std::string holders = gpus_text(q.tensor_parallel, pool);
    const std::string shape = quantity(q.batch) + " x " + quantity(q.context) + " tokens";
    double need = 0, need_total = 0;
    for (double k = 1; k <= 1024 && need == 0; ++k) {
        InferenceMemoryRequest more = q;
        more.tensor_parallel = k;
        need_total = val(inference_memory(more).total_gb);
        if (need_total <= k * pool.gb_each()) need = k;
    }
    if (need > 0) {
        FitAlternative a;
        a.fits = true;
        a.total_gb = need_total;
        a.change = "--tp " + n(need);
        a.text = "  " + dtype + " weights, " + kv_dtype + " KV cache at " + shape + ": needs at least " + gpus_text(need, pool);
        double tp_ok = 0;
        for (double d : divisors(pool.gpus_per_node))
            if (d >= need) {
                tp_ok = d;
                break;
            }
        if (pool.instance && tp_ok > 0 && tp_ok != q.tensor_parallel) {
            a.change = "--tp " + n(tp_ok) + " on " + pool.instance->name;
            a.text += " (--tp " + n(tp_ok) + " on " + pool.instance->name + ")";
        } else if (pool.instance && tp_ok == 0) {
            a.change = "more than one " + pool.instance->name;
            a.text += ", more than one " + pool.instance->name + " has (" + n(pool.gpus_per_node) + ")";
        }
        a.text += ".\n";
        out.push_back(a);
    }
    for (const auto& [name, bytes] : {std::pair<const char*, double>{"fp8", 1}, {"int4", 0.5}}) {
        if (bytes >= q.weight_bytes) continue;
        InferenceMemoryRequest smaller = q;
        smaller.weight_bytes = bytes;
        const InferenceMemory sm = inference_memory(smaller);
        FitAlternative a{"--dtype " + std::string(name), sm.total_gb.value, val(sm.total_gb) <= cap, "", nlohmann::json::object(), ""};
        a.text = "  --dtype " + std::string(name) + ": weights " + gb_text(val(sm.weights_gb)) + ", total " + gb_text(val(sm.total_gb)) +
                 star(sm.total_gb) + " on " + holders + ": " + (a.fits ? "fits" : "does not fit") + ".\n";
        out.push_back(a);
    }
    if (q.kv_bytes > 1 && !weights_alone_too_big) {
        InferenceMemoryRequest fp8kv = q;
        fp8kv.kv_bytes = 1;
        const InferenceMemory km = inference_memory(fp8kv);
        FitAlternative a{"--kv-dtype fp8", km.total_gb.value, val(km.total_gb) <= cap, "", nlohmann::json::object(), ""};
        a.text = "  --kv-dtype fp8: KV cache " + gb_text(val(km.kv_cache_gb)) + ", total " + gb_text(val(km.total_gb)) + star(km.total_gb) + ": " +
                 (a.fits ? "fits" : "does not fit") + ".\n";
        out.push_back(a);
    }
    return out;
}

}  // namespace

namespace {

// The figures: capacity, margin, and the largest batch and context that fit.
void inference_fit_figures(InferenceFit& r, const InferenceFitRequest& request, const GpuPool& pool) {
    const InferenceMemoryRequest& q = r.request;
    const InferenceMemory& m = r.memory;
    const double tp = q.tensor_parallel;
    const double cap = tp * pool.gb_each();
    r.capacity_gb = explained_figure("capacity_gb", cap, "GB", [&] {
        return Explanation{"tensor_parallel x accelerator_memory_gib_each x 2^30 / 10^9",
                           n(tp) + " x " + n(pool.gib_each) + " GiB x 2^30 / 10^9 = " + n(cap) + " GB (" + n(tp * pool.gib_each) + " GiB)",
                           {input("tensor_parallel", "GPUs", user_or_default(request.tensor_parallel, tp, kDefaultTensorParallel)), pool.gib_each_input}};
    });
    const double total = val(m.total_gb), weights = val(m.weights_gb), over = val(m.overhead_gb);
    const double margin = cap - total;
    r.margin_gb = explained_figure("margin_gb", margin, "GB", [&] {
        return Explanation{"capacity - total (negative: short by that much)", n(cap) + " - " + n(total) + " = " + n(margin) + " GB (" + n(gb_to_gib(margin)) + " GiB)",
                           {r.capacity_gb.as_input(), m.total_gb.as_input()}};
    });
    r.fits = total <= cap;
    r.weights_alone_too_big = weights > cap;

    r.kv_bytes_per_token = kv_cache_bytes_per_token(*q.model, q.kv_bytes);
    const Figure& kv_token = r.kv_bytes_per_token;
    const double per_token = val(kv_token);
    const double mb = max_batch_that_fits(q, cap);
    r.max_batch = explained_figure("max_batch", mb, "sequences", [&] {
        return Explanation{"floor((capacity - weights - overhead) / (kv_cache_bytes_per_token x context)); 0 when weights + overhead do not fit",
                           "floor((" + n(cap) + " - " + n(weights) + " - " + n(over) + ") GB / (" + n(per_token) + " x " + n(q.context) + " bytes)) = " + n(mb),
                           {r.capacity_gb.as_input(), m.weights_gb.as_input(), m.overhead_gb.as_input(), kv_token.as_input(kv_token.worked),
                            input("context", "tokens", user_given(q.context))}};
    });
    const double fixed = weights + over;
    const double mc = fixed >= cap ? 0 : std::floor((cap - fixed) * kBytesPerGB / (per_token * q.batch));
    r.max_context = explained_figure("max_context", mc, "tokens", [&] {
        return Explanation{"floor((capacity - weights - overhead) / (kv_cache_bytes_per_token x batch)); 0 when weights + overhead do not fit",
                           "floor((" + n(cap) + " - " + n(weights) + " - " + n(over) + ") GB / (" + n(per_token) + " x " + n(q.batch) + " bytes)) = " + n(mc),
                           {r.capacity_gb.as_input(), m.weights_gb.as_input(), m.overhead_gb.as_input(), kv_token.as_input(kv_token.worked),
                            input("batch", "sequences", user_given(q.batch))}};
    });
}

// The first lines of the verdict: fits or not, and by how much, in words.
std::string inference_fit_headline(const InferenceFit& r, const GpuPool& pool) {
    const InferenceMemoryRequest& q = r.request;
    const InferenceMemory& m = r.memory;
    const double tp = q.tensor_parallel, cap = val(r.capacity_gb), margin = val(r.margin_gb);
    const double total = val(m.total_gb), weights = val(m.weights_gb), kv = val(m.kv_cache_gb), over = val(m.overhead_gb);
    const std::string holders = gpus_text(tp, pool);
    const std::string cap_text = gb_gib_text(cap) + " that " + holders + (tp == 1 ? " holds" : " hold");
    const std::string& dtype = r.serving.dtype;
    if (r.fits)
        return "fits: yes — weights " + decimals(weights, 2) + " + KV cache " + decimals(kv, 2) + " + runtime overhead " + decimals(over, 2) + " = " +
               gb_gib_text(total) + star(m.total_gb) + " of the " + cap_text + "; " + gb_gib_text(margin) + star(r.margin_gb) + " to spare.\n";
    if (!r.weights_alone_too_big) {
        const std::string shape = quantity(q.batch) + " x " + quantity(q.context) + " tokens";
        std::string v = "fits: no — weights " + decimals(weights, 2) + " + KV cache " + decimals(kv, 2) + " (" + r.serving.kv_dtype + ", " + shape +
                        ") + runtime overhead " + decimals(over, 2) + " = " + gb_gib_text(total) + star(m.total_gb) + ", more than the " + cap_text +
                        ": " + gb_gib_text(-margin) + star(r.margin_gb) + " short.\n";
        if (weights + kv > cap) v += "Even without runtime overhead, weights + KV cache = " + gb_text(weights + kv) + " > " + gb_text(cap) + ".\n";
        return v;
    }
    std::string v = "fits: no — the " + dtype + " weights alone are " + gb_gib_text(weights) + ", more than the " + cap_text +
                    ", before any KV cache (" + gb_text(kv) + ") or runtime overhead (" + gb_text(over) + ").\n";
    if (q.weight_bytes >= 2) {
        // The claim in circulation (shared/cases/workloads.md W2) is about unquantized weights.
        const ParameterCount c = count_parameters(*q.model);
        v += "Why: without quantization (" + dtype + ", " + n(q.weight_bytes) + " bytes per weight) the " + quantity(c.total) + " parameters of " +
             q.model->name + " take " + n(q.weight_bytes) + " x " + quantity(c.total) + " bytes = " + gb_text(weights) +
             " for the weights alone. A claim that " + holders + " (" + decimals(pool.gb_each(), 0) + " GB each) serve " + q.model->name +
             " without quantization, tensor parallel across " + n(tp) + " GPU" + (tp == 1 ? "" : "s") + ", is therefore wrong: " +
             decimals(weights, 2) + " GB > " + decimals(cap, 2) + " GB.\n";
    }
    return v;
}

// The rest of the verdict: what would fit instead, and the largest batch and context that do.
std::string inference_fit_advice(const InferenceFit& r) {
    const InferenceMemoryRequest& q = r.request;
    std::string v;
    if (!r.alternatives.empty()) {
        v += "What would fit instead:\n";
        for (const FitAlternative& a : r.alternatives) v += a.text;
    }
    const double mb = val(r.max_batch), mc = val(r.max_context);
    if (mb >= 1)
        return v + "Largest batch that fits at context " + quantity(q.context) + ": " + quantity(mb) + star(r.max_batch) + "; longest context at batch " +
               quantity(q.batch) + ": " + quantity(mc) + star(r.max_context) + " tokens.\n";
    const double fixed = val(r.memory.weights_gb) + val(r.memory.overhead_gb);
    return v + "No batch fits at context " + quantity(q.context) + ": weights + runtime overhead (" + gb_text(fixed) + ") leave no room for a KV cache.\n";
}

// One line for a command that refuses a layout that does not fit, naming the flags to change.
std::string inference_fit_refusal(const InferenceFit& r, const GpuPool& pool) {
    const InferenceMemoryRequest& q = r.request;
    const InferenceMemory& m = r.memory;
    const double tp = q.tensor_parallel, cap = val(r.capacity_gb), mb = val(r.max_batch);
    const double total = val(m.total_gb), weights = val(m.weights_gb), kv = val(m.kv_cache_gb), over = val(m.overhead_gb);
    const std::string where = r.weights_alone_too_big ? "--dtype / --tp"
                              : weights + over > cap  ? "--dtype / --tp / --overhead-gib"
                                                      : "--batch / --context";
    const std::string shape = quantity(q.batch) + " x " + quantity(q.context) + " tokens";
    return where + ": " + q.model->name + " does not fit on " + gpus_text(tp, pool) + " (tensor parallel " + n(tp) + "): " +
           (r.weights_alone_too_big ? "the " + r.serving.dtype + " weights alone are " + gb_text(weights) + ", more than their " + gb_text(cap)
                                    : "weights " + decimals(weights, 2) + " + KV cache " + decimals(kv, 2) + " (" + shape + ") + overhead " +
                                          decimals(over, 2) + " = " + gb_text(total) + ", more than their " + gb_text(cap) +
                                          (mb >= 1 ? "; the largest batch at this context is " + quantity(mb) : std::string()));
}

}  // namespace

InferenceFit check_inference_fit(const InferenceFitRequest& request, const GpuPool& pool) {
    check_tensor_parallel(request.tensor_parallel.value_or(pool.gpus_per_node), pool, "tensor_parallel");
    InferenceFit r;
    r.serving = request;
    r.parameters = count_parameters(*request.model).total_figure;
    r.request = inference_request(request, pool);
    r.memory = inference_memory(r.request);
    r.replicas = std::floor(pool.gpus() / r.request.tensor_parallel);
    r.kv_heads_replicated = r.request.tensor_parallel > r.request.model->kv_heads;
    inference_fit_figures(r, request, pool);
    if (!r.fits)
        r.alternatives = inference_alternatives(r.request, pool, request.dtype, request.kv_dtype, r.weights_alone_too_big, val(r.capacity_gb));
    // The verdict is prose that explains the figures; a refusal is a reason, kept whenever a
    // caller may read it (figures_only: only a layout that does not fit has one).
    if (explaining()) r.verdict = inference_fit_headline(r, pool) + inference_fit_advice(r);
    if (explaining() || !r.fits) r.refusal = inference_fit_refusal(r, pool);
    return r;
}

// ---- training fit -------------------------------------------------------------------------------

TrainingMemoryRequest training_request(const TrainingFitRequest& r, const GpuPool& pool) {
    const double gpus = pool.gpus(), tp = r.tensor_parallel, pp = r.pipeline_parallel;
    check_tensor_parallel(tp, pool, "tensor_parallel");
    if (pp > r.model->layers) throw InputError("pipeline_parallel", n(pp), "at most the " + n(r.model->layers) + " layers of " + r.model->name);
    double dp = 0;
    if (r.data_parallel) {
        dp = *r.data_parallel;
        if (dp * tp * pp != gpus)
            throw InputError("data_parallel x tensor_parallel x pipeline_parallel", n(dp) + " x " + n(tp) + " x " + n(pp) + " = " + n(dp * tp * pp),
                             "a product equal to the " + n(gpus) + " GPUs in all");
    } else {
        if (std::fmod(gpus, tp * pp) != 0)
            throw InputError("tensor_parallel x pipeline_parallel", n(tp) + " x " + n(pp) + " = " + n(tp * pp),
                             "a divisor of the " + n(gpus) + " GPUs in all (data parallel = GPUs / (tp x pp))");
        dp = gpus / (tp * pp);
    }
    if (r.offload_parameters && r.zero_stage != 3)
        throw InputError("offload_parameters", "true with ZeRO stage " + std::to_string(r.zero_stage),
                         "ZeRO stage 3 (only ZeRO stage 3 shards the weights, so only it can offload them)");
    ParallelLayout layout;
    layout.data = dp, layout.tensor = tp, layout.pipeline = pp;
    layout.zero_stage = r.zero_stage;
    layout.micro_batch = r.micro_batch;
    layout.sequence = r.sequence;
    layout.recompute = r.recompute;
    layout.offload_optimizer = r.offload_optimizer;
    layout.offload_parameters = r.offload_parameters;
    TrainingMemoryRequest q = training_memory_request(r.model, layout);
    if (r.overhead_gib) q.runtime_overhead_gib = user_given(*r.overhead_gib);
    return q;
}

namespace {

// The memory of one layout variant, for "what would fit instead" (an invalid variant: never).
double total_gb(const TrainingMemoryRequest& q) {
    try {
        return val(training_memory(q).total_per_gpu_gb);
    } catch (const InputError&) {
        return INFINITY;
    }
}

// Each single change that fits; when none does, one combination applied cheapest-first
// (ZeRO 3, recompute, micro-batch 1, tensor parallel within the node, then doubling nodes).
// The layout `v` that fits, changed from `q` by `flags`: its line, and the change as a train
// section's keys and in words (FitAlternative).
FitAlternative training_alternative(const std::string& flags, const TrainingMemoryRequest& q, const TrainingMemoryRequest& v, const GpuPool& pool) {
    const double t = total_gb(v);
    FitAlternative a{flags, t, true, flags + " (" + gb_text(t) + ")", nlohmann::json::object(), ""};
    std::vector<std::string> words;
    if (v.zero_stage != q.zero_stage) a.train_keys["zero_stage"] = v.zero_stage, words.push_back("ZeRO stage " + std::to_string(v.zero_stage));
    if (v.recompute != q.recompute)
        a.train_keys["recompute"] = std::string(to_string(v.recompute)), words.push_back(std::string(to_string(v.recompute)) + " activation recompute");
    if (v.micro_batch != q.micro_batch) a.train_keys["micro_batch"] = v.micro_batch, words.push_back("micro-batch " + n(v.micro_batch));
    if (v.offload_optimizer != q.offload_optimizer) a.train_keys["offload_optimizer"] = v.offload_optimizer, words.push_back("optimizer states offloaded to the host");
    if (v.tensor_parallel != q.tensor_parallel) a.train_keys["tensor_parallel"] = v.tensor_parallel, words.push_back("tensor parallel " + n(v.tensor_parallel));
    const double gpus_before = q.data_parallel * q.tensor_parallel * q.pipeline_parallel, gpus_after = v.data_parallel * v.tensor_parallel * v.pipeline_parallel;
    if (gpus_after != gpus_before) {
        const double nodes = pool.nodes * gpus_after / gpus_before;
        a.train_keys["nodes"] = nodes, words.push_back(n(nodes) + (nodes == 1 ? " node" : " nodes"));
    }
    a.words = join(words, ", ");
    return a;
}

std::vector<FitAlternative> training_alternatives(const TrainingMemoryRequest& q, const GpuPool& pool, double capacity, bool& combined) {
    std::vector<FitAlternative> alone;
    const auto consider = [&](const std::string& flags, const TrainingMemoryRequest& v) {
        if (total_gb(v) <= capacity) alone.push_back(training_alternative(flags, q, v, pool));
    };
    for (int z = q.zero_stage + 1; z <= 3; ++z) {
        TrainingMemoryRequest v = q;
        v.zero_stage = z;
        consider("--zero " + std::to_string(z), v);
    }
    for (Recompute r : {Recompute::selective, Recompute::full})
        if (static_cast<int>(r) > static_cast<int>(q.recompute)) {
            TrainingMemoryRequest v = q;
            v.recompute = r;
            consider("--recompute " + std::string(to_string(r)), v);
        }
    if (q.micro_batch > 1) {
        TrainingMemoryRequest v = q;
        v.micro_batch = 1;
        consider("--micro-batch 1", v);
    }
    if (!q.offload_optimizer) {
        TrainingMemoryRequest v = q;
        v.offload_optimizer = true;
        v.zero_stage = std::max(1, q.zero_stage);
        consider((q.zero_stage == 0 ? "--zero 1 " : "") + std::string("--offload-optimizer"), v);
    }
    for (double d = q.tensor_parallel * 2; d <= pool.gpus_per_node; d *= 2)
        if (std::fmod(pool.gpus_per_node, d) == 0 && std::fmod(q.model->heads, d) == 0) {
            TrainingMemoryRequest v = q;
            v.tensor_parallel = d;
            v.data_parallel = q.data_parallel * q.tensor_parallel / d;
            consider("--tp " + n(d), v);
            break;
        }
    if (q.zero_stage > 0)
        for (double k = pool.nodes * 2; k <= 1024; k *= 2) {
            TrainingMemoryRequest v = q;
            v.data_parallel = q.data_parallel * k / pool.nodes;
            if (total_gb(v) <= capacity) {
                consider("--nodes " + n(k), v);
                break;
            }
        }
    combined = false;
    if (!alone.empty()) return alone;

    // No single change: apply them one after another, cheapest in communication first.
    combined = true;
    TrainingMemoryRequest v = q;
    std::vector<std::string> flags;
    double nodes = pool.nodes;
    const auto step = [&](const std::string& flag, const std::function<void()>& change) {
        if (total_gb(v) <= capacity) return;
        change();
        flags.push_back(flag);
    };
    if (v.zero_stage < 3) step("--zero 3", [&] { v.zero_stage = 3; });
    if (v.recompute != Recompute::full) step("--recompute selective", [&] { v.recompute = Recompute::selective; });
    if (v.recompute != Recompute::full && total_gb(v) > capacity) {
        if (!flags.empty() && flags.back() == "--recompute selective") flags.pop_back();
        step("--recompute full", [&] { v.recompute = Recompute::full; });
    }
    if (v.micro_batch > 1) step("--micro-batch 1", [&] { v.micro_batch = 1; });
    double best_tp = v.tensor_parallel;
    for (double d = v.tensor_parallel * 2; d <= pool.gpus_per_node; d *= 2)
        if (std::fmod(pool.gpus_per_node, d) == 0 && std::fmod(q.model->heads, d) == 0) best_tp = d;
    if (best_tp > v.tensor_parallel)
        step("--tp " + n(best_tp), [&] {
            v.data_parallel = v.data_parallel * v.tensor_parallel / best_tp;
            v.tensor_parallel = best_tp;
        });
    while (total_gb(v) > capacity && nodes < 1024) {
        v.data_parallel *= 2;
        nodes *= 2;
    }
    if (nodes != pool.nodes) flags.push_back("--nodes " + n(nodes));
    if (total_gb(v) > capacity) return {};
    return {training_alternative(join(flags, " "), q, v, pool)};
}

}  // namespace

TrainingFit check_training_fit(const TrainingMemoryRequest& q, const GpuPool& pool, FitSearch search) {
    TrainingFit r;
    r.request = q;
    r.parameters = count_parameters(*q.model).total_figure;
    r.memory = training_memory(q);
    const TrainingMemory& m = r.memory;
    const double each_gb = pool.gb_each();
    r.capacity_gb = explained_figure("capacity_per_gpu_gb", each_gb, "GB", [&] {
        return Explanation{"accelerator_memory_gib_each x 2^30 / 10^9", n(pool.gib_each) + " GiB x 2^30 / 10^9 = " + n(each_gb) + " GB", {pool.gib_each_input}};
    });
    const double total = val(m.total_per_gpu_gb), margin = each_gb - total;
    r.margin_gb = explained_figure("margin_per_gpu_gb", margin, "GB", [&] {
        return Explanation{"capacity_per_gpu - total_per_gpu (negative: short by that much)",
                           n(each_gb) + " - " + n(total) + " = " + n(margin) + " GB (" + n(gb_to_gib(margin)) + " GiB)",
                           {r.capacity_gb.as_input(), m.total_per_gpu_gb.as_input()}};
    });
    r.fits = total <= each_gb;

    // Host memory for offloaded states: per GPU rank x GPUs per node, against the node's RAM.
    const double host_gpu = val(m.host_per_gpu_gb);
    r.host_per_node_gb = explained_figure("host_per_node_gb", host_gpu * pool.gpus_per_node, "GB", [&] {
        return Explanation{"host_per_gpu x GPUs per node", n(host_gpu) + " x " + n(pool.gpus_per_node) + " = " + n(host_gpu * pool.gpus_per_node) + " GB",
                           {m.host_per_gpu_gb.as_input(),
                            input("gpus_per_node", "GPUs",
                                  {pool.gpus_per_node, pool.instance ? InputOrigin::catalog : InputOrigin::user,
                                   pool.instance ? "catalog " + pool.instance->name + " accelerator_count" : ""})}};
    });
    r.host_ram_gb = {.name = "host_ram_gb", .value = std::nullopt, .unit = "GB", .formula = "instance memory_gib x 2^30 / 10^9", .worked = "", .inputs = {}, .unknown_reason = "no instance given (--gpus): host RAM unknown"};
    if (pool.instance && pool.instance->memory_gib) {
        const double ram = gib_to_gb(*pool.instance->memory_gib);
        r.host_ram_gb.value = ram;
        r.host_ram_gb.worked = n(*pool.instance->memory_gib) + " GiB x 2^30 / 10^9 = " + n(ram) + " GB";
        r.host_ram_gb.inputs = {{"memory_gib", *pool.instance->memory_gib, "GiB", InputOrigin::catalog, "catalog " + pool.instance->name + " memory_gib"}};
        r.host_ram_gb.unknown_reason.clear();
    } else if (pool.instance) {
        r.host_ram_gb.unknown_reason = "host memory of " + pool.instance->name + " unknown: " + pool.instance->unknown_reason("memory_gib");
    }
    const bool offload = q.offload_optimizer || q.offload_parameters;
    if (offload && r.host_ram_gb.value) r.host_fits = val(r.host_per_node_gb) <= *r.host_ram_gb.value;

    // The verdict is prose about the figures: built when explaining (a refusal, below, always).
    if (r.fits) {
        if (!explaining()) return r;
        r.verdict = "fits: yes — " + gb_gib_text(total) + star(m.total_per_gpu_gb) + " per GPU of the " + gb_gib_text(each_gb) + " each " +
                    pool.accelerator_name + " holds; " + gb_gib_text(margin) + star(r.margin_gb) + " to spare.";
        return r;
    }
    if (explaining())
        r.verdict = "fits: no — " + gb_gib_text(total) + star(m.total_per_gpu_gb) + " per GPU, more than the " + gb_gib_text(each_gb) + " each " +
                    pool.accelerator_name + " holds: " + gb_gib_text(-margin) + star(r.margin_gb) + " short" +
                    (val(m.model_states_gb) > each_gb ? " (model states alone are " + gb_text(val(m.model_states_gb)) + ")" : std::string()) + ".";
    if (search == FitSearch::verdict_only) return r;
    r.alternatives = training_alternatives(q, pool, each_gb, r.alternatives_combined);
    r.refusal = "--zero / --tp / --pp / --recompute / --micro-batch / --nodes: " + q.model->name + " does not fit in GPU memory: " + gb_text(total) +
                " per GPU (model states " + decimals(val(m.model_states_gb), 2) + " + activations " + decimals(val(m.activations_gb), 2) +
                " + runtime overhead " + decimals(val(m.overhead_gb), 2) + "), more than the " + gb_text(each_gb) + " of one " + pool.accelerator_name;
    std::vector<std::string> texts;
    for (const FitAlternative& a : r.alternatives) texts.push_back(a.text);
    if (r.alternatives.empty())
        r.refusal += "; even with ZeRO 3, full recompute, tensor parallel within the node and 1,024 nodes it does not";
    else if (r.alternatives_combined)
        r.refusal += "; no single change fits, together these do: " + texts.front();
    else
        r.refusal += "; each of these alone fits: " + join(texts, ", ");
    return r;
}

// ---- JSON ---------------------------------------------------------------------------------------

std::vector<const Figure*> InferenceFit::figures() const {
    return {&parameters,         &kv_bytes_per_token, &memory.weights_gb, &memory.kv_cache_gb, &memory.overhead_gb, &memory.total_gb,
            &memory.per_gpu_gb, &capacity_gb,        &margin_gb,         &max_batch,          &max_context};
}

std::vector<const Figure*> TrainingFit::figures() const {
    return {&parameters,         &memory.weights_gb,     &memory.gradients_gb, &memory.optimizer_gb, &memory.model_states_gb,
            &memory.bytes_per_parameter, &memory.activations_gb, &memory.overhead_gb, &memory.total_per_gpu_gb, &capacity_gb,
            &margin_gb,          &memory.host_per_gpu_gb, &host_per_node_gb,   &host_ram_gb};
}

namespace {

constexpr const char* kUnitsNote = "GB = 10^9 bytes; capacity from GiB (2^30 bytes) as EC2 reports it";

nlohmann::json figures_json(const std::vector<const Figure*>& figures) {
    nlohmann::json out = nlohmann::json::object();
    for (const Figure* f : figures) out[f->name] = figure_json(*f);
    return out;
}

nlohmann::json alternatives_json(const std::vector<FitAlternative>& alternatives) {
    nlohmann::json out = nlohmann::json::array();
    for (const FitAlternative& a : alternatives)
        out.push_back({{"change", a.change}, {"total_gb", a.total_gb ? nlohmann::json(*a.total_gb) : nlohmann::json(nullptr)}, {"fits", a.fits}});
    return out;
}

}  // namespace

nlohmann::json to_json(const InferenceFit& f, const GpuPool& pool) {
    const InferenceFitRequest& s = f.serving;
    return {{"model", s.model->name},
            {"mode", "inference"},
            {"pool", to_json(pool)},
            {"serving",
             {{"dtype", s.dtype}, {"kv_dtype", s.kv_dtype}, {"batch", s.batch}, {"context", s.context},
              {"tensor_parallel", f.request.tensor_parallel}, {"replicas", f.replicas}}},
            {"units", kUnitsNote},
            {"fits", f.fits},
            {"weights_alone_too_big", f.weights_alone_too_big},
            {"alternatives", alternatives_json(f.alternatives)},
            {"verdict", f.verdict},
            {"figures", figures_json(f.figures())}};
}

nlohmann::json to_json(const TrainingFit& f, const GpuPool& pool) {
    const TrainingMemoryRequest& q = f.request;
    return {{"model", q.model->name},
            {"mode", "training"},
            {"pool", to_json(pool)},
            {"layout",
             {{"data_parallel", q.data_parallel}, {"tensor_parallel", q.tensor_parallel}, {"pipeline_parallel", q.pipeline_parallel},
              {"zero_stage", q.zero_stage}, {"micro_batch", q.micro_batch}, {"sequence", q.sequence}, {"recompute", to_string(q.recompute)},
              {"offload_optimizer", q.offload_optimizer}, {"offload_parameters", q.offload_parameters}}},
            {"units", kUnitsNote},
            {"fits", f.fits},
            {"verdict", f.verdict},
            {"host_fits", f.host_fits ? nlohmann::json(*f.host_fits) : nlohmann::json(nullptr)},
            {"alternatives", alternatives_json(f.alternatives)},
            {"figures", figures_json(f.figures())}};
}

}  // namespace gpuplan
