// workload_sections.cpp — parsing and evaluation of the scenario's `fit` and `infer` sections.
#include "gpuplan/scenario/workload_sections.hpp"

#include <deque>

#include <cmath>

#include "gpuplan/input_error.hpp"
#include "gpuplan/json_reader.hpp"
#include "gpuplan/text.hpp"

namespace gpuplan {

namespace {

// Core request fields (fit.hpp, inference.hpp) named as the scenario keys that set them,
// longest first: a field name is matched as a prefix of the error's location.
const std::vector<std::pair<std::string, std::string>> kKeyOf = {
    {"data_parallel x tensor_parallel x pipeline_parallel", "data_parallel x tensor_parallel x pipeline_parallel"},
    {"tensor_parallel x pipeline_parallel", "tensor_parallel x pipeline_parallel"},
    {"tensor_parallel", "tensor_parallel"},
    {"pipeline_parallel", "pipeline_parallel"},
    {"prompt_tokens", "prompt_tokens"},
    {"offload_parameters", "offload_parameters"},
    {"zero_stage", "zero_stage"},
    {"instance", "instance"},
    {"region", "region"},
};

// Re-throws a core InputError under the section's JSON path ("$.fit.tensor_parallel").
[[noreturn]] void rethrow_at(const InputError& error, const ObjectReader& r) {
    for (const auto& [field, key] : kKeyOf)
        if (!error.where().empty() && error.where().rfind(field, 0) == 0) throw InputError(r.child_path(key), error.value(), error.expected());
    throw InputError(r.path() + ": " + error.what());
}

std::optional<double> optional_whole(ObjectReader& r, const char* key) {
    if (!r.has(key)) return std::nullopt;
    return static_cast<double>(r.integer(key, 1));
}

std::string dtype_key(ObjectReader& r, const char* key, std::string fallback) {
    const std::string d = r.optional_string(key).value_or(std::move(fallback));
    (void)dtype_bytes(d, r.child_path(key));  // a name it does not know is an error here
    return d;
}

bool flag(ObjectReader& r, const char* key) {
    if (r.has(key)) return r.boolean(key);
    return false;
}

}  // namespace

namespace {

// The models the scenario being parsed defines (its "models" section), seen by
// require_model_preset while ScenarioModels is alive: every section's parser reads a model
// by name the same way, and the sections do not each take the list.
thread_local const std::vector<const ModelSpec*>* t_scenario_models = nullptr;

// Models a scenario defined, kept for the life of the program: requests and results point at
// their model, and outlive the scenario document (the browser keeps both across frames). One
// copy per distinct definition, so a link reopened every frame adds nothing.
const ModelSpec& interned(ModelSpec model, const std::string& key) {
    static std::deque<std::pair<std::string, ModelSpec>> models;
    for (const auto& [k, m] : models)
        if (k == key) return m;
    return models.emplace_back(key, std::move(model)).second;
}

}  // namespace

ScenarioModels::ScenarioModels(ObjectReader& root) {
    if (const Json* list = root.optional_value("models")) {
        const std::string path = root.child_path("models");
        if (!list->is_array()) throw InputError(path, json_preview(*list), "a list of models (each as in a models file, docs/models.md)");
        for (std::size_t k = 0; k < list->size(); ++k) {
            const Json document = {{"schema", "gpuplan.models/1"}, {"models", Json::array({(*list)[k]})}};
            const std::string origin = index_path(path, k) + " (read as a models file)";
            ModelSpec m = load_models({{origin, document.dump()}}).at(0);
            for (const ModelSpec* earlier : models_)
                if (earlier->name == m.name) throw InputError(index_path(path, k) + ".name", "\"" + m.name + "\"", "a name not used earlier in the list");
            models_.push_back(&interned(std::move(m), (*list)[k].dump()));
        }
    }
    previous_ = t_scenario_models;
    t_scenario_models = &models_;
}

ScenarioModels::~ScenarioModels() { t_scenario_models = previous_; }

const ModelSpec& require_model_preset(ObjectReader& r, const char* key) {
    const std::string name = r.string(key);
    if (t_scenario_models)
        for (const ModelSpec* m : *t_scenario_models)
            if (m->name == name) return *m;
    const ModelSpec* model = find_model(builtin_models(), name);
    if (!model) {
        std::string names;
        for (const auto& m : builtin_models()) names += (names.empty() ? "" : ", ") + m.name;
        throw InputError(r.child_path(key), "\"" + name + "\"", "a model preset (" + names + ") or a model of the scenario's \"models\" list");
    }
    return *model;
}

GpuPool fit_pool(const FitSection& s, const Catalog& catalog) {
    if (!s.instance.empty()) return instance_pool(catalog, s.instance, s.nodes, "instance");
    return bare_pool(s.gpus, s.gpu_memory_gib);
}

std::optional<FitSection> parse_fit_section(ObjectReader& root, const Catalog& catalog) {
    const Json* j = root.optional_value("fit");
    if (!j) return std::nullopt;
    ObjectReader r(*j, root.child_path("fit"));
    FitSection s;
    const ModelSpec& model = require_model_preset(r, "model");
    const std::string mode = r.string("mode");
    if (mode != "inference" && mode != "training") throw InputError(r.child_path("mode"), "\"" + mode + "\"", "\"inference\" or \"training\"");
    s.mode = mode == "training" ? FitMode::training : FitMode::inference;
    if (r.has("instance")) {
        s.instance = r.string("instance");
        if (!catalog.find_instance(s.instance))
            throw InputError(r.child_path("instance"), "\"" + s.instance + "\"", "an instance type in the catalog (see `gpuplan catalog`)");
        s.nodes = optional_whole(r, "nodes").value_or(1);
        if (r.has("gpus") || r.has("gpu_memory_gib")) throw InputError(r.child_path("gpus"), "GPUs beside an instance", "one of \"instance\" or \"gpus\"");
    } else {
        if (!r.has("gpus") || !r.has("gpu_memory_gib")) throw InputError(r.path(), "neither an instance nor GPUs", "\"instance\", or \"gpus\" and \"gpu_memory_gib\"");
        s.gpus = static_cast<double>(r.integer("gpus", 1));
        s.gpu_memory_gib = r.number("gpu_memory_gib", NumberRule::positive);
        if (r.has("nodes")) throw InputError(r.child_path("nodes"), "nodes with bare GPUs", "\"nodes\" only with \"instance\" (give the total in \"gpus\")");
    }
    const std::optional<double> overhead = r.optional_number("runtime_overhead_gib", NumberRule::non_negative);
    if (s.mode == FitMode::inference) {
        InferenceFitRequest& q = s.inference;
        q.model = &model;
        q.dtype = dtype_key(r, "dtype", q.dtype);
        q.kv_dtype = dtype_key(r, "kv_dtype", q.kv_dtype);
        q.batch = optional_whole(r, "batch").value_or(q.batch);
        q.context = optional_whole(r, "context").value_or(q.context);
        q.tensor_parallel = optional_whole(r, "tensor_parallel");
        q.overhead_gib = overhead;
    } else {
        TrainingFitRequest& q = s.training;
        q.model = &model;
        q.data_parallel = optional_whole(r, "data_parallel");
        q.tensor_parallel = optional_whole(r, "tensor_parallel").value_or(1);
        q.pipeline_parallel = optional_whole(r, "pipeline_parallel").value_or(1);
        if (r.has("zero_stage")) q.zero_stage = static_cast<int>(r.integer("zero_stage", 0));
        if (q.zero_stage > 3) throw InputError(r.child_path("zero_stage"), std::to_string(q.zero_stage), "0, 1, 2 or 3");
        q.micro_batch = optional_whole(r, "micro_batch").value_or(q.micro_batch);
        q.sequence = optional_whole(r, "sequence").value_or(q.sequence);
        if (auto text = r.optional_string("recompute")) q.recompute = recompute_named(*text, r.child_path("recompute"));
        q.offload_optimizer = flag(r, "offload_optimizer");
        q.offload_parameters = flag(r, "offload_parameters");
        q.overhead_gib = overhead;
    }
    r.finish();
    // Check what the core would refuse now, under this section's path.
    try {
        const GpuPool pool = fit_pool(s, catalog);
        if (s.mode == FitMode::inference) {
            check_tensor_parallel(s.inference.tensor_parallel.value_or(pool.gpus_per_node), pool, "tensor_parallel");
        } else {
            (void)training_memory(training_request(s.training, pool));
        }
    } catch (const InputError& e) {
        rethrow_at(e, r);
    }
    return s;
}

FitSectionResult evaluate_fit_section(const FitSection& s, const Catalog& catalog) {
    FitSectionResult r{fit_pool(s, catalog), std::nullopt, std::nullopt};
    if (s.mode == FitMode::inference) r.inference = check_inference_fit(s.inference, r.pool);
    else r.training = check_training_fit(training_request(s.training, r.pool), r.pool);
    return r;
}

nlohmann::json to_json(const FitSectionResult& r) {
    return r.inference ? to_json(*r.inference, r.pool) : to_json(*r.training, r.pool);
}

std::optional<InferenceEstimateRequest> parse_infer_section(ObjectReader& root, const Catalog& catalog, const std::string& region) {
    const Json* j = root.optional_value("infer");
    if (!j) return std::nullopt;
    ObjectReader r(*j, root.child_path("infer"));
    InferenceEstimateRequest q;
    InferenceFitRequest& s = q.serving;
    s.model = &require_model_preset(r, "model");
    q.instance = r.string("instance");
    if (!catalog.find_instance(q.instance))
        throw InputError(r.child_path("instance"), "\"" + q.instance + "\"", "an instance type in the catalog (see `gpuplan catalog`)");
    q.region = region;
    s.dtype = dtype_key(r, "dtype", s.dtype);
    s.kv_dtype = dtype_key(r, "kv_dtype", s.kv_dtype);
    s.batch = optional_whole(r, "batch").value_or(s.batch);
    s.context = optional_whole(r, "context").value_or(s.context);
    s.tensor_parallel = optional_whole(r, "tensor_parallel");
    s.overhead_gib = r.optional_number("runtime_overhead_gib", NumberRule::non_negative);
    q.prompt_tokens = optional_whole(r, "prompt_tokens");
    // Serving under load: output_tokens per request, concurrency a number of clients or "max".
    q.output_tokens = optional_whole(r, "output_tokens");
    if (const Json* c = r.optional_value("concurrency")) {
        if (!q.output_tokens) throw InputError(r.child_path("concurrency"), json_preview(*c), "no concurrency without output_tokens (serving under load needs both)");
        if (!(c->is_string() && c->get<std::string>() == "max")) {
            const double v = read_number(*c, r.child_path("concurrency"), NumberRule::positive);
            if (std::floor(v) != v) throw InputError(r.child_path("concurrency"), json_preview(*c), "a whole number of requests >= 1, or \"max\" (as many as fit)");
            q.concurrency = v;
        }
    }
    if (q.output_tokens) {
        for (const char* key : {"batch", "context"})
            if (r.has(key))
                throw InputError(r.child_path(key), json_preview(r.value(key)),
                                 "no batch or context with output_tokens: under load the batch is the concurrency and the context prompt_tokens + output_tokens");
        if (!q.prompt_tokens) throw InputError(r.child_path("prompt_tokens"), "nothing", "the prompt length, with output_tokens (serving under load)");
    }
    for (auto [key, slot] : {std::pair{"bandwidth_efficiency", &q.bandwidth_efficiency}, std::pair{"compute_efficiency", &q.compute_efficiency}}) {
        *slot = r.optional_number(key, NumberRule::fraction);
        if (*slot && **slot == 0) throw InputError(r.child_path(key), "0", "a fraction > 0 and <= 1 (0.8 = 80%)");
    }
    q.measured_bandwidth_gb_per_s = r.optional_number("measured_bandwidth_gb_per_s", NumberRule::positive);
    q.step_overhead_seconds = r.optional_number("step_overhead_seconds", NumberRule::non_negative);
    r.finish();
    try {
        (void)estimate_inference(catalog, q);
    } catch (const InputError& e) {
        rethrow_at(e, r);
    }
    return q;
}

std::optional<TopologySection> parse_topology_section(ObjectReader& root, const Catalog& catalog) {
    const Json* j = root.optional_value("topology");
    if (!j) return std::nullopt;
    ObjectReader r(*j, root.child_path("topology"));
    TopologySection s;
    s.name = r.optional_string("name").value_or("topology");
    s.text = r.string("text");
    if (auto instance = r.optional_string("instance")) {
        if (!catalog.find_instance(*instance))
            throw InputError(r.child_path("instance"), "\"" + *instance + "\"", "an instance type in the catalog (see `gpuplan catalog`)");
        s.instance = *instance;
    }
    r.finish();
    s.machine = import_topology(s.text, r.child_path("text") + " (" + s.name + ")");
    s.machine.origin = s.name;  // figures cite the file by its name, as `--topology FILE` does
    return s;
}

std::optional<CollectiveRequest> parse_collective_section(ObjectReader& root, const Catalog& catalog) {
    const Json* j = root.optional_value("collective");
    if (!j) return std::nullopt;
    ObjectReader r(*j, root.child_path("collective"));
    CollectiveRequest q;
    const std::string op = r.string("op");
    const auto kind = parse_collective(op);
    if (!kind) throw InputError(r.child_path("op"), "\"" + op + "\"", "all-reduce, all-gather, reduce-scatter or all-to-all");
    q.op = *kind;
    q.instance = r.string("instance");
    q.nodes = optional_whole(r, "nodes").value_or(1);
    q.bytes = r.number("bytes", NumberRule::positive);
    if (std::floor(q.bytes) != q.bytes || q.bytes > kMaxCollectiveBytes)  // whole bytes, as the CLI's --bytes
        throw InputError(r.child_path("bytes"), json_preview(r.value("bytes")), "a whole number of bytes from 1 to 1e15");
    q.gpus_per_node = optional_whole(r, "gpus_per_node");
    r.finish();
    try {
        (void)estimate_collective(catalog, q);
    } catch (const InputError& e) {
        rethrow_at(e, r);
    }
    return q;
}

}  // namespace gpuplan
