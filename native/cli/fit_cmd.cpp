// fit_cmd.cpp — `gpuplan fit`: does a model fit, for training or for inference, on an
// instance type (x nodes) or on a given number and size of GPUs?
//
// The memory figures come from the core (training_memory, inference_memory,
// max_batch_that_fits: core/gpuplan/workload/memory.hpp); this file adds the capacity of the
// GPUs (the catalog's accelerator_memory_gib_each, GiB as EC2 reports it), the margin, host
// memory for offload against the instance's RAM, and the verdict in words. Every size is
// printed in GB (10^9 bytes) and GiB (2^30 bytes), each labelled.
#include <algorithm>
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"

namespace gpuplan::cli {

namespace {

std::string n(double x) { return format_number(x); }
Param user(double v) { return {v, InputOrigin::user, ""}; }
double gib_of(double gb) { return gb * kBytesPerGB / kBytesPerGiB; }
std::string star(const Figure& f) { return f.rests_on_assumption() ? "*" : ""; }
double val(const Figure& f) { return f.value.value_or(NAN); }

// "2 x L40S" or "2 GPUs" (a pool given by --gpus has no accelerator name).
std::string gpus_text(double count, const GpuPool& pool) {
    if (pool.slice < 1 && count == 1) return "a " + n(pool.slice) + " slice of one " + pool.accelerator_name;
    if (pool.accelerator_name == "GPU") return quantity(count) + (count == 1 ? " GPU" : " GPUs");
    return quantity(count) + " x " + pool.accelerator_name;
}

std::vector<double> divisors(double count) {
    std::vector<double> d;
    for (double k = 1; k <= count; ++k)
        if (std::fmod(count, k) == 0) d.push_back(k);
    return d;
}

std::vector<std::string> divisor_texts(double count) {
    std::vector<std::string> out;
    for (double d : divisors(count)) out.push_back(n(d));
    return out;
}

}  // namespace

// ---- GPU pools ----------------------------------------------------------------------------------

GpuPool instance_pool(const Catalog& catalog, const std::string& name, double nodes, const std::string& where) {
    const Instance& inst = require_instance(catalog, name, where);
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
    p.gib_each_input = {"accelerator_memory_gib_each", p.gib_each, "GiB", InputOrigin::catalog,
                        "catalog " + inst.name + " accelerator_memory_gib_each (GiB as EC2 reports it)"};
    const std::string what = count < 1 ? "a " + n(count) + " slice of one " + p.accelerator_name : n(count) + " x " + p.accelerator_name;
    p.label = (nodes > 1 ? n(nodes) + " x " : std::string()) + inst.name + " (" + what + ", " + n(p.gib_each) + " GiB each" +
              (nodes > 1 ? "; " + n(p.gpus()) + " GPUs in all" : std::string()) + ")";
    return p;
}

void check_tensor_parallel(double tp, const GpuPool& pool, const std::string& where) {
    const std::string node = pool.instance ? "one " + pool.instance->name : "--gpus";
    if (tp > pool.gpus_per_node)
        throw InputError(where, n(tp),
                         "at most the " + n(pool.gpus_per_node) + " GPU" + (pool.gpus_per_node == 1 ? "" : "s") + " of " + node +
                             " (tensor parallel across nodes is not modelled)");
    if (std::fmod(pool.gpus_per_node, tp) != 0)
        throw InputError(where, n(tp), "a divisor of the " + n(pool.gpus_per_node) + " GPUs of " + node + ": " + join(divisor_texts(pool.gpus_per_node), ", "));
}

// ---- inference fit ------------------------------------------------------------------------------

InferenceMemoryRequest inference_request(const ModelSpec& model, const std::string& dtype, const std::string& kv_dtype, double batch,
                                         double context, double tensor_parallel, std::optional<double> overhead_gib) {
    InferenceMemoryRequest q;
    q.model = &model;
    q.weight_bytes = dtype_bytes(dtype, "--dtype");
    q.kv_bytes = dtype_bytes(kv_dtype, "--kv-dtype");
    q.batch = batch;
    q.context = context;
    q.tensor_parallel = tensor_parallel;
    if (overhead_gib) q.runtime_overhead_gib = {*overhead_gib, InputOrigin::user, ""};
    return q;
}

InferenceFit check_inference_fit(const InferenceMemoryRequest& q, const GpuPool& pool, const std::string& dtype, const std::string& kv_dtype) {
    InferenceFit r;
    r.memory = inference_memory(q);
    const InferenceMemory& m = r.memory;
    const double tp = q.tensor_parallel;
    const double cap = tp * pool.gib_each * kBytesPerGiB / kBytesPerGB;
    r.capacity_gb = {"capacity_gb", cap, "GB", "tensor_parallel x accelerator_memory_gib_each x 2^30 / 10^9",
                     n(tp) + " x " + n(pool.gib_each) + " GiB x 2^30 / 10^9 = " + n(cap) + " GB (" + n(tp * pool.gib_each) + " GiB)",
                     {input("tensor_parallel", "GPUs", user(tp)), pool.gib_each_input}, ""};
    const double total = val(m.total_gb), weights = val(m.weights_gb), kv = val(m.kv_cache_gb), over = val(m.overhead_gb);
    const double margin = cap - total;
    r.margin_gb = {"margin_gb", margin, "GB", "capacity - total (negative: short by that much)",
                   n(cap) + " - " + n(total) + " = " + n(margin) + " GB (" + n(gib_of(margin)) + " GiB)",
                   {r.capacity_gb.as_input(), m.total_gb.as_input()}, ""};
    r.fits = total <= cap;
    r.weights_alone_too_big = weights > cap;

    const Figure kv_token = kv_cache_bytes_per_token(*q.model, q.kv_bytes);
    const double per_token = val(kv_token);
    const double mb = max_batch_that_fits(q, cap);
    r.max_batch = {"max_batch", mb, "sequences",
                   "floor((capacity - weights - overhead) / (kv_cache_bytes_per_token x context)); 0 when weights + overhead do not fit",
                   "floor((" + n(cap) + " - " + n(weights) + " - " + n(over) + ") GB / (" + n(per_token) + " x " + n(q.context) + " bytes)) = " + n(mb),
                   {r.capacity_gb.as_input(), m.weights_gb.as_input(), m.overhead_gb.as_input(), kv_token.as_input(kv_token.worked),
                    input("context", "tokens", user(q.context))},
                   ""};
    const double fixed = weights + over;
    const double mc = fixed >= cap ? 0 : std::floor((cap - fixed) * kBytesPerGB / (per_token * q.batch));
    r.max_context = {"max_context", mc, "tokens",
                     "floor((capacity - weights - overhead) / (kv_cache_bytes_per_token x batch)); 0 when weights + overhead do not fit",
                     "floor((" + n(cap) + " - " + n(weights) + " - " + n(over) + ") GB / (" + n(per_token) + " x " + n(q.batch) + " bytes)) = " + n(mc),
                     {r.capacity_gb.as_input(), m.weights_gb.as_input(), m.overhead_gb.as_input(), kv_token.as_input(kv_token.worked),
                      input("batch", "sequences", user(q.batch))},
                     ""};

    const std::string holders = gpus_text(tp, pool);
    const std::string shape = quantity(q.batch) + " x " + quantity(q.context) + " tokens";
    const std::string cap_text = gb_gib_text(cap) + " that " + holders + (tp == 1 ? " holds" : " hold");
    std::string v;
    if (r.fits) {
        v = "fits: yes — weights " + decimals(weights, 2) + " + KV cache " + decimals(kv, 2) + " + runtime overhead " + decimals(over, 2) + " = " +
            gb_gib_text(total) + star(m.total_gb) + " of the " + cap_text + "; " + gb_gib_text(margin) + star(r.margin_gb) + " to spare.\n";
    } else if (r.weights_alone_too_big) {
        v = "fits: no — the " + dtype + " weights alone are " + gb_gib_text(weights) + ", more than the " + cap_text + ", before any KV cache (" +
            gb_text(kv) + ") or runtime overhead (" + gb_text(over) + ").\n";
        if (q.weight_bytes >= 2) {
            // The claim in circulation (shared/cases/workloads.md W2) is about unquantized weights.
            const double each_gb = pool.gib_each * kBytesPerGiB / kBytesPerGB;
            const ParameterCount c = count_parameters(*q.model);
            v += "Why: without quantization (" + dtype + ", " + n(q.weight_bytes) + " bytes per weight) the " + quantity(c.total) + " parameters of " +
                 q.model->name + " take " + n(q.weight_bytes) + " x " + quantity(c.total) + " bytes = " + gb_text(weights) +
                 " for the weights alone. A claim that " + holders + " (" + decimals(each_gb, 0) + " GB each) serve " + q.model->name +
                 " without quantization, tensor parallel across " + n(tp) + " GPU" + (tp == 1 ? "" : "s") + ", is therefore wrong: " +
                 decimals(weights, 2) + " GB > " + decimals(cap, 2) + " GB.\n";
        }
    } else {
        v = "fits: no — weights " + decimals(weights, 2) + " + KV cache " + decimals(kv, 2) + " (" + kv_dtype + ", " + shape + ") + runtime overhead " +
            decimals(over, 2) + " = " + gb_gib_text(total) + star(m.total_gb) + ", more than the " + cap_text + ": " + gb_gib_text(-margin) +
            star(r.margin_gb) + " short.\n";
        if (weights + kv > cap)
            v += "Even without runtime overhead, weights + KV cache = " + gb_text(weights + kv) + " > " + gb_text(cap) + ".\n";
    }
    if (!r.fits) {
        // What would fit instead: more GPUs in the same dtype, or smaller weights or KV cache.
        std::string alt;
        double need = 0;
        for (double k = 1; k <= 1024 && need == 0; ++k) {
            InferenceMemoryRequest more = q;
            more.tensor_parallel = k;
            if (val(inference_memory(more).total_gb) <= k * pool.gib_each * kBytesPerGiB / kBytesPerGB) need = k;
        }
        if (need > 0) {
            alt += "  " + dtype + " weights, " + kv_dtype + " KV cache at " + shape + ": needs at least " + gpus_text(need, pool);
            double tp_ok = 0;
            for (double d : divisors(pool.gpus_per_node))
                if (d >= need) {
                    tp_ok = d;
                    break;
                }
            if (pool.instance && tp_ok > 0 && tp_ok != tp)
                alt += " (--tp " + n(tp_ok) + " on " + pool.instance->name + ")";
            else if (pool.instance && tp_ok == 0)
                alt += ", more than one " + pool.instance->name + " has (" + n(pool.gpus_per_node) + ")";
            alt += ".\n";
        }
        for (const auto& [name, bytes] : {std::pair<const char*, double>{"fp8", 1}, {"int4", 0.5}}) {
            if (bytes >= q.weight_bytes) continue;
            InferenceMemoryRequest smaller = q;
            smaller.weight_bytes = bytes;
            const InferenceMemory sm = inference_memory(smaller);
            const bool ok = val(sm.total_gb) <= cap;
            alt += "  --dtype " + std::string(name) + ": weights " + gb_text(val(sm.weights_gb)) + ", total " + gb_text(val(sm.total_gb)) + star(sm.total_gb) +
                   " on " + holders + ": " + (ok ? "fits" : "does not fit") + ".\n";
        }
        if (q.kv_bytes > 1 && !r.weights_alone_too_big) {
            InferenceMemoryRequest fp8kv = q;
            fp8kv.kv_bytes = 1;
            const InferenceMemory km = inference_memory(fp8kv);
            alt += "  --kv-dtype fp8: KV cache " + gb_text(val(km.kv_cache_gb)) + ", total " + gb_text(val(km.total_gb)) + star(km.total_gb) + ": " +
                   (val(km.total_gb) <= cap ? "fits" : "does not fit") + ".\n";
        }
        if (!alt.empty()) v += "What would fit instead:\n" + alt;
    }
    if (mb >= 1)
        v += "Largest batch that fits at context " + quantity(q.context) + ": " + quantity(mb) + star(r.max_batch) + "; longest context at batch " +
             quantity(q.batch) + ": " + quantity(mc) + star(r.max_context) + " tokens.\n";
    else
        v += "No batch fits at context " + quantity(q.context) + ": weights + runtime overhead (" + gb_text(fixed) + ") leave no room for a KV cache.\n";
    r.verdict = v;

    const std::string where = r.weights_alone_too_big ? "--dtype / --tp"
                              : fixed > cap           ? "--dtype / --tp / --overhead-gib"
                                                      : "--batch / --context";
    r.refusal = where + ": " + q.model->name + " does not fit on " + holders + " (tensor parallel " + n(tp) + "): " +
                (r.weights_alone_too_big ? "the " + dtype + " weights alone are " + gb_text(weights) + ", more than their " + gb_text(cap)
                                         : "weights " + decimals(weights, 2) + " + KV cache " + decimals(kv, 2) + " (" + shape + ") + overhead " +
                                               decimals(over, 2) + " = " + gb_text(total) + ", more than their " + gb_text(cap) +
                                               (mb >= 1 ? "; the largest batch at this context is " + quantity(mb) : std::string()));
    return r;
}

namespace {

// ---- gpuplan fit --------------------------------------------------------------------------------

struct FitOptions {
    std::string model, instance, mode, recompute = "none", dtype = "bf16", kv_dtype = "bf16";
    std::vector<std::string> models_files;
    double nodes = 1, gpus = 0, gpu_memory_gib = 0;
    double zero = 0, dp = 0, tp = 0, pp = 1, micro_batch = 1, sequence = 2048, overhead_gib = 0;
    double batch = 1, context = 8192;
    bool offload_optimizer = false, offload_parameters = false, explain = false;
    Format format = Format::table;
    CLI::App* app = nullptr;
    bool given(const char* flag) const { return app->count(flag) > 0; }
};

const std::vector<const char*> kTrainingOnly = {"--zero",      "--dp",        "--pp",
                                               "--micro-batch", "--sequence", "--recompute", "--offload-optimizer", "--offload-parameters"};
const std::vector<const char*> kInferenceOnly = {"--dtype", "--kv-dtype", "--batch", "--context"};

struct Row {
    std::string label;
    const Figure* figure;
};

// Rows of sizes in GB: "GB" and "GiB" columns (and more GB columns from `extra`).
Table size_table(const std::vector<Row>& rows, const std::string& first_header, const std::vector<std::pair<std::string, double>>& per_gpu_divisor) {
    Table t;
    t.columns = {{first_header, "figure", false}, {"GB", "gb"}, {"GiB", "gib"}};
    for (const auto& [header, d] : per_gpu_divisor) t.columns.push_back({header, "per_gpu_gb"});
    for (const auto& r : rows) {
        const bool s = r.figure->rests_on_assumption();
        const std::optional<double> gb = r.figure->value;
        std::vector<Cell> row = {text_cell(r.label), number_cell(gb, [](double x) { return decimals(x, 2); }, r.figure->unknown_reason, s),
                                 number_cell(gb ? std::optional<double>(gib_of(*gb)) : std::nullopt, [](double x) { return decimals(x, 2); },
                                             r.figure->unknown_reason, s)};
        for (const auto& [header, d] : per_gpu_divisor)
            row.push_back(number_cell(gb ? std::optional<double>(*gb / d) : std::nullopt, [](double x) { return decimals(x, 2); }, "", s));
        t.rows.push_back(std::move(row));
    }
    return t;
}

std::string defaults_footnote(const std::vector<const Figure*>& figures, const Param& overhead) {
    bool any = false;
    for (const Figure* f : figures) any = any || f->rests_on_assumption();
    if (!any || overhead.origin != InputOrigin::assumption) return "";
    return "\n* rests on a default assumption (docs/models.md); override with the flag named:\n" +
           render_key_values({{"--overhead-gib", fmt::format("{:<9} {}", n(overhead.value), overhead.source)}}, "    ");
}

nlohmann::json pool_json(const GpuPool& p) {
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

NamedFigures named(const std::vector<const Figure*>& figures) {
    NamedFigures out;
    for (const Figure* f : figures) out.emplace_back(f->name, figure_json(*f));
    return out;
}

std::string render_result(const FitOptions& o, const std::string& header, const Table& table, const std::string& after,
                          const std::vector<const Figure*>& figures, nlohmann::json json) {
    if (o.format == Format::json) {
        nlohmann::json figs = nlohmann::json::object();
        for (const Figure* f : figures) figs[f->name] = figure_json(*f);
        json["figures"] = figs;
        return dump_json(json);
    }
    if (o.format == Format::csv) return figures_csv(named(figures));
    std::string out = header + "\n" + render_table(table, o.format);
    std::string notes = after;
    if (o.explain) notes += explain_all(named(figures));
    return out + notes_block(notes, o.format);
}

std::string run_training(const FitOptions& o, const ModelSpec& model, const GpuPool& pool) {
    const double gpus = pool.gpus();
    const double tp = o.given("--tp") ? o.tp : 1, pp = o.pp;
    check_tensor_parallel(tp, pool, "--tp");
    if (pp > model.layers) throw InputError("--pp", n(pp), "at most the " + n(model.layers) + " layers of " + model.name);
    double dp = o.dp;
    if (o.given("--dp")) {
        if (dp * tp * pp != gpus)
            throw InputError("--dp / --tp / --pp", n(dp) + " x " + n(tp) + " x " + n(pp) + " = " + n(dp * tp * pp),
                             "a product equal to the " + n(gpus) + " GPUs in all");
    } else {
        if (std::fmod(gpus, tp * pp) != 0)
            throw InputError("--tp / --pp", n(tp) + " x " + n(pp) + " = " + n(tp * pp),
                             "a divisor of the " + n(gpus) + " GPUs in all (data parallel = GPUs / (tp x pp))");
        dp = gpus / (tp * pp);
    }
    TrainingMemoryRequest q;
    q.model = &model;
    q.data_parallel = dp;
    q.tensor_parallel = tp;
    q.pipeline_parallel = pp;
    q.zero_stage = static_cast<int>(o.zero);
    q.offload_optimizer = o.offload_optimizer;
    q.offload_parameters = o.offload_parameters;
    q.micro_batch = o.micro_batch;
    q.sequence = o.sequence;
    q.recompute = o.recompute == "full" ? Recompute::full : o.recompute == "selective" ? Recompute::selective : Recompute::none;
    if (o.given("--overhead-gib")) q.runtime_overhead_gib = user(o.overhead_gib);
    if (q.offload_parameters && q.zero_stage != 3)
        throw InputError("--offload-parameters: needs --zero 3 (only ZeRO stage 3 shards the weights, so only it can offload them); got --zero " + n(o.zero));
    TrainingMemory m;
    try {
        m = training_memory(q);
    } catch (const InputError& e) {
        rethrow_for_flag(e, {{"zero_stage", "--zero"}, {"offload_parameters", "--offload-parameters"}});
    }
    const ParameterCount c = count_parameters(model);

    const double each_gb = pool.gib_each * kBytesPerGiB / kBytesPerGB;
    Figure capacity = {"capacity_per_gpu_gb", each_gb, "GB", "accelerator_memory_gib_each x 2^30 / 10^9",
                       n(pool.gib_each) + " GiB x 2^30 / 10^9 = " + n(each_gb) + " GB", {pool.gib_each_input}, ""};
    const double total = val(m.total_per_gpu_gb), margin = each_gb - total;
    Figure margin_f = {"margin_per_gpu_gb", margin, "GB", "capacity_per_gpu - total_per_gpu (negative: short by that much)",
                       n(each_gb) + " - " + n(total) + " = " + n(margin) + " GB (" + n(gib_of(margin)) + " GiB)",
                       {capacity.as_input(), m.total_per_gpu_gb.as_input()}, ""};
    const bool fits = total <= each_gb;

    // Host memory for offloaded states: per GPU rank x GPUs per node, against the node's RAM.
    const double host_gpu = val(m.host_per_gpu_gb);
    Figure host_node = {"host_per_node_gb", host_gpu * pool.gpus_per_node, "GB", "host_per_gpu x GPUs per node",
                        n(host_gpu) + " x " + n(pool.gpus_per_node) + " = " + n(host_gpu * pool.gpus_per_node) + " GB",
                        {m.host_per_gpu_gb.as_input(), input("gpus_per_node", "GPUs", {pool.gpus_per_node, pool.instance ? InputOrigin::catalog : InputOrigin::user,
                                                                                         pool.instance ? "catalog " + pool.instance->name + " accelerator_count" : ""})},
                        ""};
    Figure host_ram = {"host_ram_gb", std::nullopt, "GB", "instance memory_gib x 2^30 / 10^9", "", {}, "no instance given (--gpus): host RAM unknown"};
    if (pool.instance && pool.instance->memory_gib) {
        const double ram = *pool.instance->memory_gib * kBytesPerGiB / kBytesPerGB;
        host_ram.value = ram;
        host_ram.worked = n(*pool.instance->memory_gib) + " GiB x 2^30 / 10^9 = " + n(ram) + " GB";
        host_ram.inputs = {{"memory_gib", *pool.instance->memory_gib, "GiB", InputOrigin::catalog, "catalog " + pool.instance->name + " memory_gib"}};
        host_ram.unknown_reason.clear();
    } else if (pool.instance) {
        host_ram.unknown_reason = "host memory of " + pool.instance->name + " unknown: " + pool.instance->unknown_reason("memory_gib");
    }
    const bool offload = q.offload_optimizer || q.offload_parameters;

    const std::string wlabel = q.offload_parameters ? "weights (bf16, offloaded to host)" : "weights (bf16)";
    const std::string olabel = q.offload_optimizer ? "optimizer: fp32 master, m, v (offloaded)" : "optimizer: fp32 master, m, v";
    std::vector<Row> rows = {{wlabel, &m.weights_gb},
                             {"gradients (bf16)", &m.gradients_gb},
                             {olabel, &m.optimizer_gb},
                             {"model states", &m.model_states_gb},
                             {"activations (recompute " + o.recompute + ")", &m.activations_gb},
                             {"runtime overhead", &m.overhead_gb},
                             {"total", &m.total_per_gpu_gb},
                             {"capacity (" + pool.accelerator_name + ")", &capacity},
                             {"margin", &margin_f}};
    if (offload) rows.push_back({"host memory for offload (per GPU)", &m.host_per_gpu_gb});
    const Table table = size_table(rows, "per GPU", {});

    std::string header = model.name + " (" + quantity(c.total) + " parameters): training memory per GPU on " + pool.label + "\n";
    header += "layout: data parallel " + n(dp) + " x tensor parallel " + n(tp) + " x pipeline parallel " + n(pp) + " = " + n(gpus) + (gpus == 1 ? " GPU" : " GPUs") + "; ZeRO stage " +
              n(o.zero) + (o.zero == 3 ? " (FSDP full shard)" : o.zero == 0 ? " (DDP)" : "") + "; bf16 mixed precision with Adam (2 + 2 + 12 bytes per parameter)\n";
    header += "work: micro-batch " + quantity(o.micro_batch) + " x sequence " + quantity(o.sequence) + " tokens, activation recompute " + o.recompute +
              (offload ? std::string("; offload: ") + (q.offload_optimizer ? "optimizer" : "") + (q.offload_optimizer && q.offload_parameters ? " + " : "") +
                             (q.offload_parameters ? "parameters" : "")
                       : "") +
              "\nGB = 10^9 bytes, GiB = 2^30 bytes; GPU memory in GiB as EC2 reports it\n";

    std::string after = "\n";
    if (fits)
        after += "fits: yes — " + gb_gib_text(total) + star(m.total_per_gpu_gb) + " per GPU of the " + gb_gib_text(each_gb) + " each " + pool.accelerator_name +
                 " holds; " + gb_gib_text(margin) + star(margin_f) + " to spare.\n";
    else
        after += "fits: no — " + gb_gib_text(total) + star(m.total_per_gpu_gb) + " per GPU, more than the " + gb_gib_text(each_gb) + " each " +
                 pool.accelerator_name + " holds: " + gb_gib_text(-margin) + star(margin_f) + " short" +
                 (val(m.model_states_gb) > each_gb ? " (model states alone are " + gb_text(val(m.model_states_gb)) + ")" : std::string()) +
                 ".\n  Options: a higher --zero stage, --recompute selective or full, --offload-optimizer, more GPUs or a larger micro-batch split.\n";
    after += "model states: " + n(val(m.bytes_per_parameter)) + " bytes per parameter per GPU (" + quantity(c.total) + " parameters; ZeRO stage " +
             n(o.zero) + " over data parallel " + n(dp) + (tp * pp > 1 ? ", split " + n(tp * pp) + " ways by tensor x pipeline parallel" : std::string()) + ").\n";
    bool host_fits = true;
    if (offload) {
        after += "host memory: " + gb_text(host_gpu) + " per GPU x " + n(pool.gpus_per_node) + " GPUs per node = " + gb_gib_text(val(host_node)) +
                 " needed per node";
        if (host_ram.value) {
            host_fits = val(host_node) <= *host_ram.value;
            after += ", against the " + gb_gib_text(*host_ram.value) + " of RAM of one " + pool.instance->name + ": " + (host_fits ? "fits" : "does NOT fit") +
                     " (before the OS, data loaders and pinned buffers).\n";
        } else {
            after += "; " + host_ram.unknown_reason + ".\n";
        }
    } else {
        after += "host memory: nothing offloaded (--offload-optimizer, --offload-parameters move states to host RAM).\n";
    }
    if (tp > 1 && pool.instance && pool.instance->interconnect &&
        (*pool.instance->interconnect == Interconnect::pcie || *pool.instance->interconnect == Interconnect::none))
        after += "warning: tensor parallel " + n(tp) + " over PCIe (" + pool.instance->name +
                 " has no NVLink): allowed, but every layer's all-reduces cross PCIe.\n";
    after += "activations: Korthikanti et al. 2022 (docs/models.md), for the layers one pipeline stage holds.\n";
    std::vector<const Figure*> figures = {&c.total_figure, &m.weights_gb,        &m.gradients_gb, &m.optimizer_gb, &m.model_states_gb,
                                          &m.bytes_per_parameter, &m.activations_gb, &m.overhead_gb,  &m.total_per_gpu_gb, &capacity,
                                          &margin_f,             &m.host_per_gpu_gb, &host_node,      &host_ram};
    after += defaults_footnote(figures, q.runtime_overhead_gib);

    nlohmann::json j = {{"model", model.name},
                        {"mode", "training"},
                        {"pool", pool_json(pool)},
                        {"layout",
                         {{"data_parallel", dp}, {"tensor_parallel", tp}, {"pipeline_parallel", pp}, {"zero_stage", o.zero},
                          {"micro_batch", o.micro_batch}, {"sequence", o.sequence}, {"recompute", o.recompute},
                          {"offload_optimizer", q.offload_optimizer}, {"offload_parameters", q.offload_parameters}}},
                        {"units", "GB = 10^9 bytes; capacity from GiB (2^30 bytes) as EC2 reports it"},
                        {"fits", fits},
                        {"verdict", after.substr(1, after.find('\n', 1) - 1)},
                        {"host_fits", offload && host_ram.value ? nlohmann::json(host_fits) : nlohmann::json(nullptr)}};
    return render_result(o, header, table, after, figures, j);
}

std::string run_inference(const FitOptions& o, const ModelSpec& model, const GpuPool& pool) {
    const double tp = o.given("--tp") ? o.tp : pool.gpus_per_node;
    check_tensor_parallel(tp, pool, "--tp");
    const InferenceMemoryRequest q = inference_request(model, o.dtype, o.kv_dtype, o.batch, o.context, tp,
                                                       o.given("--overhead-gib") ? std::optional<double>(o.overhead_gib) : std::nullopt);
    const InferenceFit fit = check_inference_fit(q, pool, o.dtype, o.kv_dtype);
    const InferenceMemory& m = fit.memory;
    const ParameterCount c = count_parameters(model);

    const std::vector<Row> rows = {{"weights (" + o.dtype + ")", &m.weights_gb},
                                   {"KV cache (" + o.kv_dtype + ", " + quantity(o.batch) + " x " + quantity(o.context) + " tokens)", &m.kv_cache_gb},
                                   {"runtime overhead", &m.overhead_gb},
                                   {"total", &m.total_gb},
                                   {"capacity (" + gpus_text(tp, pool) + ")", &fit.capacity_gb},
                                   {"margin", &fit.margin_gb}};
    const Table table = size_table(rows, "on " + n(tp) + " GPU" + (tp == 1 ? "" : "s") + " together", {{"GB per GPU", tp}});
    const double replicas = std::floor(pool.gpus() / tp);
    std::string header = model.name + " (" + quantity(c.total) + " parameters): inference memory on " + pool.label + "\n";
    header += "serving: " + o.dtype + " weights, " + o.kv_dtype + " KV cache, batch " + quantity(o.batch) + " x context " + quantity(o.context) +
              " token" + (o.context == 1 ? "" : "s") + ", tensor parallel " + n(tp) + (replicas > 1 ? " (" + n(replicas) + " replicas on " + n(pool.gpus()) + " GPUs)" : "") + "\n";
    header += "GB = 10^9 bytes, GiB = 2^30 bytes; GPU memory in GiB as EC2 reports it\n";
    std::string after = "\n" + fit.verdict;
    after += "KV cache per token: " + quantity(val(kv_cache_bytes_per_token(model, q.kv_bytes))) + " bytes (" +
             kv_cache_bytes_per_token(model, q.kv_bytes).formula + ").\n";
    if (tp > 1 && pool.instance && pool.instance->interconnect &&
        (*pool.instance->interconnect == Interconnect::pcie || *pool.instance->interconnect == Interconnect::none))
        after += "warning: tensor parallel " + n(tp) + " over PCIe (" + pool.instance->name +
                 " has no NVLink): allowed, but every layer's all-reduces cross PCIe.\n";
    if (tp > model.kv_heads)
        after += "note: tensor parallel " + n(tp) + " exceeds the " + n(model.kv_heads) +
                 " KV heads; real engines replicate KV heads then, so the KV cache per GPU is larger than shown.\n";
    std::vector<const Figure*> figures = {&c.total_figure,  &m.weights_gb, &m.kv_cache_gb, &m.overhead_gb, &m.total_gb,
                                          &m.per_gpu_gb,    &fit.capacity_gb, &fit.margin_gb, &fit.max_batch, &fit.max_context};
    after += defaults_footnote(figures, q.runtime_overhead_gib);
    nlohmann::json j = {{"model", model.name},
                        {"mode", "inference"},
                        {"pool", pool_json(pool)},
                        {"serving",
                         {{"dtype", o.dtype}, {"kv_dtype", o.kv_dtype}, {"batch", o.batch}, {"context", o.context}, {"tensor_parallel", tp}, {"replicas", replicas}}},
                        {"units", "GB = 10^9 bytes; capacity from GiB (2^30 bytes) as EC2 reports it"},
                        {"fits", fit.fits},
                        {"weights_alone_too_big", fit.weights_alone_too_big},
                        {"verdict", fit.verdict}};
    return render_result(o, header, table, after, figures, j);
}

std::string run_fit(const Catalog& catalog, const FitOptions& o) {
    const std::vector<ModelSpec> models = load_models_with_files(o.models_files);
    const ModelSpec& model = require_model(models, o.model, "--model");
    const bool training = o.mode == "training";
    for (const char* flag : training ? kInferenceOnly : kTrainingOnly)
        if (o.given(flag)) throw InputError(std::string(flag) + ": applies to --mode " + (training ? "inference" : "training") + " only, not --mode " + o.mode);
    GpuPool pool;
    if (!o.instance.empty()) {
        pool = instance_pool(catalog, o.instance, o.nodes, "--instance");
    } else if (o.given("--gpus") && o.given("--gpu-memory-gib")) {
        if (o.given("--nodes")) throw InputError("--nodes: applies with --instance only; with --gpus give the total GPU count");
        pool.gpus_per_node = o.gpus;
        pool.gib_each = o.gpu_memory_gib;
        pool.gib_each_input = {"gpu_memory_gib", o.gpu_memory_gib, "GiB", InputOrigin::user, "--gpu-memory-gib"};
        pool.label = n(o.gpus) + " GPU" + (o.gpus == 1 ? "" : "s") + " x " + n(o.gpu_memory_gib) + " GiB (--gpus / --gpu-memory-gib)";
    } else if (o.given("--gpus") || o.given("--gpu-memory-gib")) {
        throw InputError(std::string(o.given("--gpus") ? "--gpus" : "--gpu-memory-gib") + ": needs --gpus and --gpu-memory-gib together (or --instance)");
    } else {
        throw InputError("--instance / --gpus: give an instance type (--instance TYPE [--nodes N]) or a GPU count and size (--gpus N --gpu-memory-gib X)");
    }
    return training ? run_training(o, model, pool) : run_inference(o, model, pool);
}

}  // namespace

Command register_fit(CLI::App& parent) {
    auto o = std::make_shared<FitOptions>();
    CLI::App* app = parent.add_subcommand("fit", "Does a model fit in GPU memory, for training or inference? Every size in GB and GiB");
    o->app = app;
    app->add_option("--model", o->model, "Model preset (see `gpuplan models`) or a model from --models-file")->required()->type_name("NAME");
    add_models_file_option(*app, o->models_files);
    auto* inst = app->add_option("--instance", o->instance, "Instance type whose GPUs to use (see `gpuplan catalog`)")->type_name("TYPE");
    app->add_option("--nodes", o->nodes, "Number of instances (training across nodes)")->capture_default_str()->check(whole_rule(1));
    auto* gpus = app->add_option("--gpus", o->gpus, "Instead of --instance: number of GPUs")->check(whole_rule(1));
    auto* mem = app->add_option("--gpu-memory-gib", o->gpu_memory_gib, "Instead of --instance: memory per GPU in GiB")->check(number_rule(NumberRule::positive));
    gpus->excludes(inst);
    mem->excludes(inst);
    app->add_option("--mode", o->mode, "training or inference")->required()->check(choice_rule({"training", "inference"}))->type_name("MODE");
    app->add_option("--tp", o->tp, "Tensor parallel degree (training default 1; inference default: every GPU of the instance)")->check(whole_rule(1));
    app->add_option("--overhead-gib", o->overhead_gib,
                    "Runtime overhead per GPU in GiB: CUDA context, library workspaces, fragmentation (default " +
                        n(default_runtime_overhead_gib().value) + ")")
        ->check(number_rule(NumberRule::non_negative));
    // Training
    app->add_option("--zero", o->zero, "Training: ZeRO stage 0 (DDP), 1, 2 or 3 (FSDP full shard)")
        ->capture_default_str()
        ->check(CLI::Validator(
            [](std::string& t) -> std::string { return t == "0" || t == "1" || t == "2" || t == "3" ? "" : "got " + t + "; expected 0, 1, 2 or 3"; },
            "0..3"));
    app->add_option("--dp", o->dp, "Training: data parallel degree (default: GPUs / (tp x pp))")->check(whole_rule(1));
    app->add_option("--pp", o->pp, "Training: pipeline parallel degree")->capture_default_str()->check(whole_rule(1));
    app->add_option("--micro-batch", o->micro_batch, "Training: micro-batch per GPU (sequences)")->capture_default_str()->check(whole_rule(1));
    app->add_option("--sequence", o->sequence, "Training: sequence length (tokens)")->capture_default_str()->check(whole_rule(1));
    app->add_option("--recompute", o->recompute, "Training: activation recomputation none|selective|full")
        ->capture_default_str()
        ->check(choice_rule({"none", "selective", "full"}));
    app->add_flag("--offload-optimizer", o->offload_optimizer, "Training: keep optimizer states in host memory (ZeRO-Offload)");
    app->add_flag("--offload-parameters", o->offload_parameters, "Training, ZeRO stage 3 only: keep the weights in host memory too");
    // Inference
    app->add_option("--dtype", o->dtype, "Inference: weight dtype bf16|fp16|fp8|int8|int4")
        ->capture_default_str()
        ->check(choice_rule({"bf16", "fp16", "fp8", "int8", "int4"}));
    app->add_option("--kv-dtype", o->kv_dtype, "Inference: KV cache dtype bf16|fp16|fp8")->capture_default_str()->check(choice_rule({"bf16", "fp16", "fp8"}));
    app->add_option("--batch", o->batch, "Inference: concurrent sequences")->capture_default_str()->check(whole_rule(1));
    app->add_option("--context", o->context, "Inference: tokens of KV cache per sequence (prompt + output)")->capture_default_str()->check(whole_rule(1));
    app->add_flag("--explain", o->explain, "After the table, show each figure's formula, worked line and inputs with their origins");
    add_format_option(*app, o->format, {Format::table, Format::json, Format::csv, Format::md});
    app->footer(R"(Training: bf16 mixed precision with Adam, 16 bytes per parameter (ZeRO paper, K = 12) sharded by the
ZeRO stage over data parallel, plus activations (Korthikanti et al. 2022) and runtime overhead.
Inference: weights by dtype + KV cache (2 x layers x kv_heads x head_dim x bytes per token) + overhead
per GPU, split over tensor parallel; the largest batch and longest context that fit.
Capacity is the catalog's accelerator_memory_gib_each (GiB as EC2 reports it). Sizes print in GB
(10^9 bytes) and GiB (2^30 bytes). Figures marked "*" rest on the default runtime overhead.
Examples:
  gpuplan fit --model llama-3-8b --mode training --gpus 4 --gpu-memory-gib 80 --zero 2
  gpuplan fit --model llama-3-8b --mode training --instance p4d.24xlarge --zero 3 --offload-optimizer
  gpuplan fit --model llama-3.1-70b --mode inference --instance g6e.12xlarge --tp 2 --dtype bf16
  gpuplan fit --model llama-3.1-70b --mode inference --instance g6e.12xlarge --tp 2 --dtype fp8 --batch 16 --context 8192
  gpuplan fit --model llama-3-8b --mode inference --instance g6e.xlarge --format json)");
    return {app, [o](const Catalog& c) { return run_fit(c, *o); }};
}

}  // namespace gpuplan::cli
