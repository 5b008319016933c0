// figures_only_test.cpp — figures first, explanations on demand (explain.hpp, issue 32).
//
// Inside a FiguresOnly scope the core computes figures without their formula, worked line and
// inputs; the recommender sweeps its layouts that way and explains only the picks it shows.
// That is safe only if the values are the same either way: here, for every example scenario
// (every figure `gpuplan eval` writes) and for every layout the serving sweep estimates, the
// result computed in a FiguresOnly scope equals the explained one with its explanations taken
// out, and the explained one does explain.
#include "fixtures.hpp"

#include "gpuplan/recommend/recommend.hpp"
#include "gpuplan/topology/topology.hpp"
#include "gpuplan/workload/fit.hpp"
#include "gpuplan/workload/inference.hpp"
#include "gpuplan/workload/training_time.hpp"

namespace gpuplan {
namespace {

using test::catalog;

// `j` without what explains its figures: each figure's "explain" object and its "assumption"
// flag (which reads the inputs a figures-only figure does not carry), and a fit's verdict (prose
// about the figures). Counts the explanations removed in `explained`.
nlohmann::json values_of(const nlohmann::json& j, std::size_t& explained) {
    if (j.is_array()) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& v : j) out.push_back(values_of(v, explained));
        return out;
    }
    if (!j.is_object()) return j;
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, v] : j.items()) {
        if (key == "explain" && v.is_object()) {
            if (!v.value("formula", "").empty() || !v.value("worked", "").empty()) ++explained;
            continue;
        }
        if (key == "assumption" || key == "memory_verdict" || key == "verdict") continue;
        out[key] = values_of(v, explained);
    }
    return out;
}

TEST_CASE("every example scenario gives the same figures with explanations and without", "[figures_only]") {
    std::size_t scenarios = 0;
    for (const auto& doc : builtin_scenario_documents()) {
        INFO(doc.origin);
        const Scenario scenario = parse_scenario(doc.text, doc.origin, catalog());
        const nlohmann::json explained = evaluate_scenario(scenario, catalog());
        nlohmann::json bare;
        {
            const FiguresOnly values_only;
            CHECK_FALSE(explaining());
            bare = evaluate_scenario(scenario, catalog());
        }
        CHECK(explaining());  // the scope ends with its block
        std::size_t with_text = 0, without_text = 0;
        const nlohmann::json a = values_of(explained, with_text), b = values_of(bare, without_text);
        const nlohmann::json differences = nlohmann::json::diff(a, b);
        INFO("first difference: " << (differences.empty() ? std::string("none") : differences.front().dump()));
        CHECK(differences.empty());
        CHECK(with_text > 0);  // each example explains its figures
        ++scenarios;
    }
    CHECK(scenarios >= 16);
}

// Every figure of an inference estimate, by name: value (or unknown reason).
std::vector<std::string> estimate_values(const InferenceEstimate& e) {
    std::vector<std::string> out = {e.fit.fits ? "fits" : "refused: " + e.fit.refusal};
    if (!e.fit.fits) return out;
    for (const auto& [name, figure] : e.figures())
        out.push_back(name + " = " + (figure->value ? format_number(*figure->value) + " (" + std::to_string(*figure->value) + ")" : "unknown: " + figure->unknown_reason));
    return out;
}

// A type's node topology built figures-only, as the sweeps build it once for all its layouts.
NodeTopology shared_node(const Instance& inst) {
    const FiguresOnly values_only;
    return node_topology(catalog(), inst);
}

TEST_CASE("every layout the serving sweep estimates has the same figures with explanations and without", "[figures_only]") {
    // The models cover dense models small and large, MoE and MoE with MLA; the instance types
    // every GPU type of the catalog; the layouts every power-of-two tensor-parallel degree, at a
    // fixed batch and under load.
    std::size_t layouts = 0, refused = 0;
    for (const char* model : {"llama-3.1-70b", "mistral-7b", "mixtral-8x7b", "deepseek-v3"}) {
        const ModelSpec* spec = find_model(builtin_models(), model);
        REQUIRE(spec);
        for (const Instance& inst : catalog().instances) {
            if (!inst.accelerator_count || *inst.accelerator_count < 1 || !inst.accelerator_memory_gib_each) continue;
            const Accelerator* a = inst.accelerator ? catalog().find_accelerator(*inst.accelerator) : nullptr;
            if (!a || a->kind != AcceleratorKind::gpu || !a->memory_bandwidth_gb_per_s) continue;
            const NodeTopology node = shared_node(inst);  // one for all this type's layouts, as in the sweep
            for (double tp = 1; tp <= *inst.accelerator_count; tp *= 2) {
                for (const bool under_load : {false, true}) {
                    INFO(model << " on " << inst.name << " tp " << tp << (under_load ? " under load" : ""));
                    InferenceEstimateRequest r;
                    r.serving.model = spec;
                    r.serving.dtype = "fp8";
                    r.serving.kv_dtype = "fp8";
                    r.serving.batch = 8;
                    r.serving.context = 4096;
                    r.serving.tensor_parallel = tp;
                    r.instance = inst.name;
                    r.region = inst.offered_regions().empty() ? "us-east-1" : inst.offered_regions().front();
                    if (under_load) r.prompt_tokens = 1024, r.output_tokens = 256, r.concurrency = 4;
                    std::vector<std::string> explained, bare;
                    try {
                        const InferenceEstimate e = estimate_inference(catalog(), r);
                        explained = estimate_values(e);
                        if (e.fit.fits) CHECK_FALSE(e.decode_step_seconds.worked.empty());
                    } catch (const InputError& err) {
                        explained = {std::string("error: ") + err.what()};
                    }
                    {
                        // As the sweep does: figures-only, on the type's shared links.
                        const FiguresOnly values_only;
                        r.node = &node;
                        try {
                            const InferenceEstimate e = estimate_inference(catalog(), r);
                            bare = estimate_values(e);
                            if (e.fit.fits) CHECK(e.decode_step_seconds.worked.empty());  // the scope skipped the text
                        } catch (const InputError& err) {
                            bare = {std::string("error: ") + err.what()};
                        }
                    }
                    CHECK(explained == bare);
                    ++layouts;
                    if (explained.front() != "fits") ++refused;
                }
            }
        }
    }
    CHECK(layouts > 300);
    CHECK(refused > 0);
    CHECK(refused < layouts);
}

TEST_CASE("every collective of every GPU type costs the same with explanations and without", "[figures_only]") {
    // Training sweeps time their collectives inside and across nodes in phases (reduce-scatter
    // then all-gather, NVLS where the switch reduces, NCCL's algorithm and protocol): each kind,
    // at 1 to 8 nodes, with either latency model.
    std::size_t costs = 0;
    for (const Instance& inst : catalog().instances) {
        if (!inst.accelerator_count || *inst.accelerator_count < 2) continue;
        const NodeTopology t = node_topology(catalog(), inst);
        for (Collective kind : {Collective::all_reduce, Collective::all_gather, Collective::reduce_scatter, Collective::all_to_all})
            for (double nodes : {1.0, 2.0, 8.0})
                for (CollectiveLatency latency : {CollectiveLatency::nccl_tuning_model, CollectiveLatency::per_step_alpha}) {
                    INFO(inst.name << " " << to_string(kind) << " on " << nodes << " nodes");
                    const CollectiveCost explained = hierarchical_collective(kind, 256e6, t, t.gpus, nodes, latency);
                    const FiguresOnly values_only;
                    const CollectiveCost bare = hierarchical_collective(kind, 256e6, t, t.gpus, nodes, latency);
                    for (const auto& [x, y] : {std::pair{&explained.seconds, &bare.seconds}, {&explained.intra_seconds, &bare.intra_seconds},
                                               {&explained.inter_seconds, &bare.inter_seconds}}) {
                        CHECK(x->value == y->value);
                        CHECK(x->unknown_reason == y->unknown_reason);
                    }
                    CHECK(explained.bottleneck_text == bare.bottleneck_text);
                    if (explained.seconds.value) CHECK_FALSE(explained.seconds.worked.empty());
                    ++costs;
                }
    }
    CHECK(costs > 500);
}

// A training timing's values and its words: every figure, the bottleneck, warnings and refusal.
std::vector<std::string> timing_values(const TrainingTime& t) {
    std::vector<std::string> out = {t.bottleneck, t.does_not_fit};
    out.insert(out.end(), t.warnings.begin(), t.warnings.end());
    out.insert(out.end(), t.notes.begin(), t.notes.end());
    for (const Figure& f : t.all()) out.push_back(f.name + " = " + (f.value ? std::to_string(*f.value) : "unknown: " + f.unknown_reason));
    return out;
}

TEST_CASE("every layout the training sweep times has the same figures with explanations and without", "[figures_only]") {
    // Every GPU type with whole GPUs, 1 to 8 nodes, data parallel with each ZeRO stage and
    // tensor parallel over the node: the layouts recommend --training times.
    std::size_t timings = 0;
    for (const char* model : {"llama-3-8b", "mixtral-8x7b"}) {
        for (const Instance& inst : catalog().instances) {
            if (!inst.accelerator_count || *inst.accelerator_count < 1 || !inst.accelerator_memory_gib_each) continue;
            const Accelerator* a = inst.accelerator ? catalog().find_accelerator(*inst.accelerator) : nullptr;
            if (!a || a->kind != AcceleratorKind::gpu) continue;
            const NodeTopology node = shared_node(inst);  // one for all this type's node counts and layouts, as in the sweep
            for (double nodes : {1.0, 8.0})
                for (const auto& [tp, zero] : {std::pair{1.0, 0}, {1.0, 2}, {1.0, 3}, {*inst.accelerator_count, 1}}) {
                    INFO(model << " on " << nodes << " x " << inst.name << ", tp " << tp << ", ZeRO " << zero);
                    TrainingTimeRequest t;
                    t.model = find_model(builtin_models(), model);
                    t.instance = &inst;
                    t.nodes = nodes;
                    t.layout.tensor = tp;
                    t.layout.data = *inst.accelerator_count * nodes / tp;
                    t.layout.zero_stage = zero;
                    t.layout.micro_batch = 1;
                    t.layout.sequence = 4096;
                    t.layout.global_batch_tokens = 4096 * 512;
                    t.token_budget = 1e10;
                    const auto timed = [&] {
                        try {
                            return timing_values(training_time(catalog(), t));
                        } catch (const InputError& e) {
                            return std::vector<std::string>{std::string("error: ") + e.what()};
                        }
                    };
                    const std::vector<std::string> explained = timed();
                    // As the sweep does: figures-only, on the type's shared links.
                    const FiguresOnly values_only;
                    t.node = &node;
                    CHECK(explained == timed());
                    ++timings;
                }
        }
    }
    CHECK(timings > 300);
}

TEST_CASE("a node topology handed to a model must be the one it would build", "[figures_only]") {
    const Instance& p5 = *catalog().find_instance("p5.48xlarge");
    const NodeTopology p5_node = node_topology(catalog(), p5), p4_node = node_topology(catalog(), *catalog().find_instance("p4d.24xlarge"));
    InferenceEstimateRequest r;
    r.serving.model = find_model(builtin_models(), "llama-3.1-70b");
    r.serving.batch = 8;
    r.serving.context = 4096;
    r.serving.tensor_parallel = 8;
    r.instance = p5.name;
    r.node = &p5_node;
    CHECK_NOTHROW(estimate_inference(catalog(), r));
    r.node = &p4_node;
    CHECK_THROWS_AS(estimate_inference(catalog(), r), std::logic_error);

    TrainingTimeRequest t;
    t.model = find_model(builtin_models(), "llama-3-8b");
    t.instance = &p5;
    t.layout.data = 8;
    t.layout.sequence = 4096;
    t.layout.global_batch_tokens = 4096 * 512;
    t.node = &p5_node;
    CHECK_NOTHROW(training_time(catalog(), t));
    t.node = &p4_node;
    CHECK_THROWS_AS(training_time(catalog(), t), std::logic_error);
    // Measured links change the node: a prebuilt one without them cannot stand in.
    t.node = &p5_node;
    t.topology.pcie_efficiency = Param{0.5, InputOrigin::user, ""};
    CHECK_THROWS_AS(training_time(catalog(), t), std::logic_error);
}

TEST_CASE("the serving sweep explains the picks it shows", "[figures_only]") {
    // The sweep estimates its layouts figures-only; the picks' working is built again with text.
    InferenceRecommendRequest q = default_inference_request(*find_model(builtin_models(), "llama-3.1-70b"));
    q.context = 8192;
    q.tokens_per_second = 2000;
    const Recommendation r = recommend_inference(catalog(), q);
    REQUIRE_FALSE(r.picks.empty());
    REQUIRE(r.pick_details.size() == r.picks.size());
    for (const PickDetail& d : r.pick_details) {
        REQUIRE(d.figures);
        for (const Figure* f : d.figures->all()) {
            INFO(f->name);
            CHECK_FALSE(f->formula.empty());
            CHECK_FALSE(f->worked.empty());
        }
        CHECK_FALSE(d.fit.verdict.empty());
    }
    // Each pick's memory fit is the one its layout gets on its own (`gpuplan fit`).
    for (std::size_t k = 0; k < r.picks.size(); ++k) {
        const Candidate& c = r.candidates[r.picks[k]];
        InferenceFitRequest f;
        f.model = q.model;
        f.dtype = q.dtype;
        f.kv_dtype = q.kv_dtype;
        f.batch = c.batch;
        f.context = q.context;
        f.tensor_parallel = c.tensor_parallel;
        const InferenceFit alone = check_inference_fit(f, instance_pool(catalog(), c.instance, 1, "instance"));
        CHECK(r.pick_details[k].fit.verdict == alone.verdict);
        CHECK(r.pick_details[k].fit.max_batch.worked == alone.max_batch.worked);
        CHECK(r.pick_details[k].pool.instance->name == c.instance);
    }
    CHECK(explaining());
}

}  // namespace
}  // namespace gpuplan
