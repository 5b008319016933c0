// Models from real Hugging Face config.json files (tests/data/hf-configs/, where each came from
// in its SOURCES.md) against the parameter counts their publishers give: exact counts where one
// is published (the Keras Hub presets' "params", the safetensors total), else the model card's
// rounded figure; every total within 0.5%.
#include <catch2/catch.hpp>

#include "fixtures.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/scenario/scenario.hpp"
#include "gpuplan/workload/compute.hpp"
#include "gpuplan/workload/hf_config.hpp"
#include "gpuplan/workload/memory.hpp"
#include "test_inputs.hpp"

using namespace gpuplan;

namespace {

std::string config_text(const std::string& file) {
    for (const auto& d : hf_config_test_documents())
        if (d.origin == "tests/data/hf-configs/" + file) return d.text;
    FAIL("no test input " << file);
    return "";
}

HfConfigModel load(const std::string& file) { return model_from_hf_config(config_text(file), file.substr(0, file.size() - 5), file); }

struct Published {
    const char* file;
    double total;
    const char* where;
};

// SOURCES.md gives each figure's page and quote.
const Published kPublished[] = {
    {"llama-3.1-8b.json", 8'030'261'248, "keras-hub llama3.1_8b params; the Hub's 8.03B"},
    {"qwen2.5-7b.json", 7.61e9, "Qwen2.5-7B model card: 7.61B"},
    {"qwen3-8b.json", 8'190'735'360, "keras-hub qwen3_8b_en params; model card 8.2B"},
    {"qwen3-30b-a3b.json", 30'532'122'624, "keras-hub qwen3_moe_30b_a3b_en params; model card 30.5B"},
    {"mistral-7b-instruct-v0.3.json", 7'248'023'552, "keras-hub mistral_0.3_instruct_7b_en params"},
    {"mixtral-8x7b-v0.1.json", 46'702'792'704, "keras-hub mixtral_8_7b_en params; Mistral AI: 46.7B"},
    {"gemma-2-9b-it.json", 9'241'705'984, "keras-hub gemma2_instruct_9b_en params; safetensors total_size / 2"},
    {"gemma-3-1b-it.json", 999'885'952, "keras-hub gemma3_instruct_1b params"},
    {"deepseek-v3.json", 671e9, "DeepSeek-V3 model card: 671B total (the 14B MTP module apart)"},
    {"gpt-oss-20b.json", 20'914'757'184, "keras-hub gpt_oss_20b params; OpenAI: 21B"},
    {"phi-3-mini-4k-instruct.json", 3'821'079'552, "keras-hub phi3_mini_4k_instruct_en params; model card 3.8B"},
};

}  // namespace

TEST_CASE("eleven real config.json files give parameter counts within 0.5% of the published ones") {
    for (const Published& p : kPublished) {
        CAPTURE(p.file, p.where);
        const HfConfigModel m = load(p.file);
        CHECK(count_parameters(m.model).total == Approx(p.total).epsilon(0.005));
    }
    // Active parameters where the publisher says which ones it counts.
    const ParameterCount mixtral = count_parameters(load("mixtral-8x7b-v0.1.json").model);
    CHECK(mixtral.active == Approx(12.9e9).margin(0.05e9));  // Mistral AI: "12.9B parameters per token"
    // gpt-oss model card: 3.6B active, the embedding left out; DeepSeek's README_WEIGHTS: 36.6B
    // activated, the output head included and the input embedding not.
    const ParameterCount oss = count_parameters(load("gpt-oss-20b.json").model);
    CHECK(oss.active - oss.embedding == Approx(3.61e9).margin(0.005e9));
    const ParameterCount v3 = count_parameters(load("deepseek-v3.json").model);
    CHECK(v3.active - v3.embedding == Approx(36.6e9).margin(0.05e9));
}

TEST_CASE("a config's architecture is read as transformers builds it") {
    const HfConfigModel gemma3 = load("gemma-3-1b-it.json");
    CHECK(gemma3.model.tied_embeddings);  // Gemma's default when the file does not say
    CHECK(gemma3.model.qk_norm);
    CHECK(gemma3.model.norms_per_layer == 4);
    // 26 layers with a 512-token window on 5 of every 6: 26 - floor(26 / 6) = 22 local.
    CHECK(gemma3.model.sliding_window == 512);
    CHECK(gemma3.model.sliding_layers == 22);
    const HfConfigModel oss = load("gpt-oss-20b.json");
    CHECK(oss.model.sliding_layers == 12);  // layer_types: sliding and full alternate over 24 layers
    CHECK(oss.model.sliding_window == 128);
    REQUIRE(oss.model.moe);
    CHECK(oss.model.moe->expert_bias);
    CHECK(oss.model.attention_sinks);
    // Published in mxfp4: the note names the control in both shells (the CLI's flag, the app's label).
    REQUIRE_FALSE(oss.notes.empty());
    CHECK_THAT(oss.notes.back(), Catch::Contains("\"mxfp4\"") && Catch::Contains("--dtype; \"weights\" in the app"));
    const HfConfigModel v3 = load("deepseek-v3.json");
    REQUIRE(v3.model.mla);
    CHECK(v3.model.moe->dense_layers == 3);
    CHECK(v3.notes.size() == 2);  // the MTP layer is not counted; the weights are published in fp8
    // Fields that change nothing the planner computes are named, not dropped.
    const HfConfigModel gemma2 = load("gemma-2-9b-it.json");
    CHECK(std::find(gemma2.ignored.begin(), gemma2.ignored.end(), "attn_logit_softcapping") != gemma2.ignored.end());
    CHECK(std::find(gemma2.ignored.begin(), gemma2.ignored.end(), "hidden_size") == gemma2.ignored.end());
}

TEST_CASE("local-attention layers cache their window only") {
    const ModelSpec gemma3 = load("gemma-3-1b-it.json").model;
    // 4 full layers x 32,768 + 22 local x 512, per layer.
    CHECK(kv_cached_tokens(gemma3, 32768) == Approx((4 * 32768.0 + 22 * 512.0) / 26));
    CHECK(kv_cached_tokens(gemma3, 300) == 300);
    InferenceMemoryRequest q;
    q.model = &gemma3;
    q.context = 32768;
    const double per_token = *kv_cache_bytes_per_token(gemma3, 2).value;
    CHECK(*inference_memory(q).kv_cache_gb.value * 1e9 == Approx(per_token * (4 * 32768.0 + 22 * 512.0) / 26));
    const ModelSpec llama = load("llama-3.1-8b.json").model;
    CHECK(kv_cached_tokens(llama, 32768) == 32768);
}

TEST_CASE("a config the planner cannot read says which fields it needs") {
    CHECK_THROWS_WITH(model_from_hf_config(R"({"model_type": "mamba", "hidden_size": 768})", "m", "my.json"),
                      Catch::Contains("my.json: $.model_type") && Catch::Contains("\"mamba\"") && Catch::Contains("num_hidden_layers"));
    CHECK_THROWS_WITH(model_from_hf_config(R"({"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32})", "m", "c.json"),
                      Catch::Contains("c.json: $.num_attention_heads") && Catch::Contains("missing"));
    CHECK_THROWS_WITH(model_from_hf_config(R"({"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
                                              "num_key_value_heads": 5, "intermediate_size": 14336, "vocab_size": 128256})",
                                           "m", "c.json"),
                      Catch::Contains("kv_heads") && Catch::Contains("divisor"));
    CHECK_THROWS_AS(model_from_hf_config("[1, 2]", "m", "c.json"), InputError);
    CHECK_THROWS_AS(model_from_hf_config("{not json", "m", "c.json"), InputError);
}

TEST_CASE("a scenario carries its own models, as the app writes one from a pasted config.json") {
    const HfConfigModel read = load("gpt-oss-20b.json");
    nlohmann::json scenario = {{"schema", "gpuplan.scenario/1"},
                               {"models", nlohmann::json::array({read.entry})},
                               {"infer", {{"model", "gpt-oss-20b"}, {"instance", "g6e.xlarge"}, {"dtype", "fp8"}, {"batch", 4}, {"context", 4096}}}};
    const Scenario s = parse_scenario(scenario.dump(), "s.json", test::catalog());
    REQUIRE(s.infer);
    CHECK(count_parameters(*s.infer->serving.model).total == 20'914'757'184);
    CHECK(s.infer->serving.model->sliding_layers == 12);
    // The same definition twice in a list, a model that breaks a rule, and a name the list lacks.
    scenario["models"].push_back(read.entry);
    CHECK_THROWS_WITH(parse_scenario(scenario.dump(), "s.json", test::catalog()), Catch::Contains("s.json: $.models[1].name"));
    scenario["models"] = nlohmann::json::array({read.entry});
    scenario["models"][0]["kv_heads"] = 7;
    CHECK_THROWS_WITH(parse_scenario(scenario.dump(), "s.json", test::catalog()), Catch::Contains("$.models[0]") && Catch::Contains("kv_heads"));
    scenario.erase("models");
    CHECK_THROWS_WITH(parse_scenario(scenario.dump(), "s.json", test::catalog()), Catch::Contains("$.infer.model") && Catch::Contains("\"models\" list"));
    CHECK(hf_config_name(R"({"_name_or_path": "openai/gpt-oss-20b", "model_type": "gpt_oss"})") == "gpt-oss-20b");
    CHECK(hf_config_name(R"({"model_type": "llama"})") == "llama");
    CHECK(hf_config_name(R"({"model_type": "gpt_oss"})") == "gpt-oss");  // the Hub's files have no _name_or_path
}
