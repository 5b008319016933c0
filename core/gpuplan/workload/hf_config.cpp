// hf_config.cpp — config.json to ModelSpec (hf_config.hpp).
//
// The fields and their meaning are those of transformers' configuration classes (LlamaConfig,
// MistralConfig, MixtralConfig, Qwen2Config, Qwen3Config, Qwen3MoeConfig, Gemma2Config,
// Gemma3TextConfig, DeepseekV3Config, Phi3Config, GptOssConfig): the model is written as a
// gpuplan.models/1 entry and read by load_models, so a config and a model file are checked the
// same way (kv heads that divide the heads, sizes in range).
#include "gpuplan/workload/hf_config.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "gpuplan/input_error.hpp"
#include "gpuplan/json_reader.hpp"
#include "gpuplan/text.hpp"

namespace gpuplan {

namespace {

using Json = nlohmann::json;

const std::vector<std::string> kDense = {"llama", "mistral", "qwen2", "qwen3", "phi3", "gemma", "gemma2", "gemma3_text", "gemma3"};
const std::vector<std::string> kMoe = {"mixtral", "qwen3_moe", "deepseek_v2", "deepseek_v3", "gpt_oss"};

// Fields that change nothing the planner computes (token ids, numerics, training settings).
const std::set<std::string> kNotArchitecture = {
    "_name_or_path", "architectures", "auto_map", "bos_token_id", "eos_token_id", "pad_token_id", "torch_dtype", "dtype",
    "transformers_version", "use_cache", "initializer_range", "attention_dropout", "rms_norm_eps", "layer_norm_eps", "rope_theta",
    "rope_scaling", "rope_local_base_freq", "max_position_embeddings", "initial_context_length", "original_max_position_embeddings",
    "hidden_act", "hidden_activation", "output_router_logits", "router_aux_loss_coef", "model_type", "cache_implementation",
    "resid_pdrop", "embd_pdrop", "tie_word_embeddings"};

// The config's fields, read by name; what is read is remembered, so the rest can be named.
class ConfigReader {
public:
    ConfigReader(const Json& j, std::string path) : j_(j), path_(std::move(path)) {}
    bool has(const std::string& key) const { return j_.contains(key) && !j_.at(key).is_null(); }
    double whole(const std::string& key, const std::string& why) {
        used_.insert(key);
        if (!has(key)) throw InputError(path_ + "." + key, "missing", "a whole number (" + why + ")");
        const Json& v = j_.at(key);
        if (!v.is_number() || v.get<double>() < 0 || std::floor(v.get<double>()) != v.get<double>())
            throw InputError(path_ + "." + key, v.dump(), "a whole number >= 0 (" + why + ")");
        return v.get<double>();
    }
    double whole_or(const std::string& key, double fallback, const std::string& why) { return has(key) ? whole(key, why) : (used_.insert(key), fallback); }
    bool flag(const std::string& key, bool fallback) {
        used_.insert(key);
        if (!has(key)) return fallback;
        if (!j_.at(key).is_boolean()) throw InputError(path_ + "." + key, j_.at(key).dump(), "true or false");
        return j_.at(key).get<bool>();
    }
    const Json* value(const std::string& key) {
        used_.insert(key);
        return has(key) ? &j_.at(key) : nullptr;
    }
    std::vector<std::string> not_read() const {
        std::vector<std::string> out;
        for (const auto& [key, v] : j_.items())
            if (!used_.count(key) && !kNotArchitecture.count(key)) out.push_back(key);
        return out;
    }
    const std::string& path() const { return path_; }

private:
    const Json& j_;
    std::string path_;
    std::set<std::string> used_;
};

// Layers that attend to a local window, as transformers lays them out for each family.
void sliding_layers(ConfigReader& r, const std::string& type, double layers, Json& m) {
    const Json* window = r.value("sliding_window");
    const bool qwen = type == "qwen2" || type == "qwen3" || type == "qwen3_moe";
    const bool qwen_windows = qwen && r.flag("use_sliding_window", false);
    const double qwen_full_layers = qwen ? std::min(layers, r.whole_or("max_window_layers", layers, "layers before the windowed ones")) : 0;
    if (const Json* types = r.value("layer_types"); types && types->is_array()) {
        const auto local = std::count(types->begin(), types->end(), Json("sliding_attention"));
        if (local > 0 && window && window->is_number()) m["sliding_window"] = window->get<double>(), m["sliding_layers"] = static_cast<double>(local);
        return;
    }
    if (!window || !window->is_number()) return;
    double local = layers;  // Mistral, Mixtral, Phi-3: every layer
    if (type == "gemma2") local = std::ceil(layers / 2);  // every other layer, the first included
    if (type == "gemma3_text" || type == "gemma3") local = layers - std::floor(layers / r.whole_or("sliding_window_pattern", 6, "local layers per global layer"));
    if (qwen) {
        if (!qwen_windows) return;
        local = layers - qwen_full_layers;
    }
    (void)r.value("sliding_window_size");  // Gemma 2's older spelling of the same window
    if (local > 0) m["sliding_window"] = window->get<double>(), m["sliding_layers"] = local;
}

void read_experts(ConfigReader& r, const std::string& type, double layers, Json& m, std::vector<std::string>& notes) {
    Json e = Json::object();
    if (type == "mixtral" || type == "gpt_oss") {
        e["routed_experts"] = r.whole("num_local_experts", "experts per MoE layer");
        e["active_experts"] = r.has("num_experts_per_tok") ? r.whole("num_experts_per_tok", "experts per token")
                                                          : r.whole("experts_per_token", "experts per token");
        (void)r.value("experts_per_token");
        e["expert_ffn"] = r.whole("intermediate_size", "intermediate size of one expert");
        m["ffn"] = 0;
        if (type == "gpt_oss") e["router_bias"] = true, e["expert_bias"] = true;
    } else if (type == "qwen3_moe") {
        e["routed_experts"] = r.whole("num_experts", "experts per MoE layer");
        e["active_experts"] = r.whole("num_experts_per_tok", "experts per token");
        e["expert_ffn"] = r.whole("moe_intermediate_size", "intermediate size of one expert");
        const Json* dense = r.value("mlp_only_layers");
        const double dense_layers = dense && dense->is_array() ? static_cast<double>(dense->size()) : 0;
        if (r.whole_or("decoder_sparse_step", 1, "every how many layers is MoE") != 1)
            throw InputError(r.path() + ".decoder_sparse_step", "not 1", "1 (an MoE MLP in every layer but mlp_only_layers): other steps are not read yet");
        e["dense_layers"] = dense_layers;
        m["ffn"] = dense_layers > 0 ? r.whole("intermediate_size", "the dense layers' MLP") : ((void)r.value("intermediate_size"), 0.0);
    } else {  // deepseek_v2, deepseek_v3
        e["routed_experts"] = r.whole("n_routed_experts", "routed experts per MoE layer");
        e["active_experts"] = r.whole("num_experts_per_tok", "experts per token");
        e["shared_experts"] = r.whole_or("n_shared_experts", 0, "shared experts");
        e["expert_ffn"] = r.whole("moe_intermediate_size", "intermediate size of one expert");
        e["dense_layers"] = r.whole_or("first_k_dense_replace", 0, "dense layers first");
        if (r.whole_or("moe_layer_freq", 1, "every how many layers is MoE") != 1)
            throw InputError(r.path() + ".moe_layer_freq", "not 1", "1 (MoE in every layer after the first dense ones): other frequencies are not read yet");
        m["ffn"] = r.whole("intermediate_size", "the dense layers' MLP");
        // V3's router adds a score-correction bias per expert (topk_method noaux_tc).
        const Json* method = r.value("topk_method");
        e["router_bias"] = type == "deepseek_v3" || (method && method->is_string() && method->get<std::string>() == "noaux_tc");
        if (const double mtp = r.whole_or("num_nextn_predict_layers", 0, "multi-token prediction layers"); mtp > 0)
            notes.push_back("the " + format_number(mtp) + " multi-token-prediction layer(s) are not counted: they serve speculative decoding, not the model's own tokens");
    }
    (void)layers;
    m["moe"] = e;
}

void read_mla(ConfigReader& r, Json& m) {
    const Json* q_rank = r.value("q_lora_rank");
    m["mla"] = {{"q_lora_rank", q_rank && q_rank->is_number() ? q_rank->get<double>() : 0.0},
                {"kv_lora_rank", r.whole("kv_lora_rank", "MLA's KV compression rank")},
                {"qk_nope_head_dim", r.whole("qk_nope_head_dim", "MLA's q/k dimension without RoPE")},
                {"qk_rope_head_dim", r.whole("qk_rope_head_dim", "MLA's q/k RoPE dimension")},
                {"v_head_dim", r.whole("v_head_dim", "MLA's value dimension")}};
    m["head_dim"] = m["mla"]["v_head_dim"];
}

// The config as a gpuplan.models/1 entry.
Json model_entry(ConfigReader& r, const std::string& type, const std::string& name, const std::string& origin, std::vector<std::string>& notes) {
    Json m = {{"name", name}, {"family", type}};
    const double layers = r.whole("num_hidden_layers", "layers"), hidden = r.whole("hidden_size", "hidden size");
    const double heads = r.whole("num_attention_heads", "attention heads");
    m["layers"] = layers;
    m["hidden"] = hidden;
    m["heads"] = heads;
    m["kv_heads"] = r.whole_or("num_key_value_heads", heads, "KV heads (GQA); absent: one per head");
    m["head_dim"] = r.whole_or("head_dim", std::floor(hidden / heads), "dimension of one head; absent: hidden / heads");
    m["vocab"] = r.whole("vocab_size", "vocabulary");
    const bool gemma = type.rfind("gemma", 0) == 0;
    m["tied_embeddings"] = r.flag("tie_word_embeddings", gemma);  // transformers' default: tied for Gemma, not for the others
    const bool attention_bias = r.flag("attention_bias", false);
    m["qkv_bias"] = type == "qwen2" || attention_bias;
    m["attention_output_bias"] = attention_bias;  // Llama, Qwen3, gpt-oss: one flag for q, k, v and o
    m["attention_sinks"] = type == "gpt_oss";
    m["qk_norm"] = type == "qwen3" || type == "qwen3_moe" || type == "gemma3_text" || type == "gemma3";
    m["norms_per_layer"] = type == "gemma2" || type == "gemma3_text" || type == "gemma3" ? 4 : 2;
    if (r.flag("mlp_bias", false)) notes.push_back("mlp_bias is true: the MLP's bias vectors are not counted (under 0.01% of the weights)");
    if (std::find(kMoe.begin(), kMoe.end(), type) != kMoe.end())
        read_experts(r, type, layers, m, notes);
    else
        m["ffn"] = r.whole("intermediate_size", "the MLP's intermediate size");
    if (type == "deepseek_v2" || type == "deepseek_v3") read_mla(r, m);
    sliding_layers(r, type, layers, m);
    if (const Json* q = r.value("quantization_config"); q && q->is_object())
        notes.push_back("the weights are published quantized (" + (q->contains("quant_method") ? q->at("quant_method").dump() : std::string("a quantization_config")) +
                        "): plan with the format they are served in (--dtype; \"weights\" in the app)");
    m["source"] = kHfConfigSource + origin + ")";
    return m;
}

}  // namespace

std::string hf_config_name(const std::string& text) {
    const Json j = Json::parse(text, nullptr, false);
    if (!j.is_object()) return "";
    if (j.contains("_name_or_path") && j.at("_name_or_path").is_string()) {
        const std::string path = j.at("_name_or_path").get<std::string>();
        const std::string last = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
        if (!last.empty()) return lower(last);
    }
    if (!j.contains("model_type") || !j.at("model_type").is_string()) return "";
    std::string type = j.at("model_type").get<std::string>();  // "gpt_oss" reads as gpt-oss, as the models are named
    std::replace(type.begin(), type.end(), '_', '-');
    return type;
}

const std::vector<std::string>& hf_model_types() {
    static const std::vector<std::string> all = [] {
        std::vector<std::string> v = kDense;
        v.insert(v.end(), kMoe.begin(), kMoe.end());
        return v;
    }();
    return all;
}

HfConfigModel model_from_hf_config(const std::string& text, const std::string& name, const std::string& origin) {
    const Json root = parse_json_document(text, origin);
    if (!root.is_object()) throw InputError(origin + ": $", "not an object", "a config.json object (model_type, hidden_size, num_hidden_layers, ...)");
    const Json* type_value = root.contains("model_type") ? &root.at("model_type") : nullptr;
    const std::string type = type_value && type_value->is_string() ? type_value->get<std::string>() : "";
    const std::string needed = "hidden_size, num_hidden_layers, num_attention_heads, num_key_value_heads, intermediate_size, vocab_size";
    if (std::find(hf_model_types().begin(), hf_model_types().end(), type) == hf_model_types().end())
        throw InputError(origin + ": $.model_type", type_value ? type_value->dump() : "missing",
                         "a model_type the planner reads (" + join(hf_model_types(), ", ") + "); for another architecture write a model file "
                         "(docs/models.md) with the planner's fields: " + needed);
    // Gemma 3's multimodal configs keep the language model in text_config.
    const bool nested = type == "gemma3" && root.contains("text_config");
    const Json& config = nested ? root.at("text_config") : root;
    ConfigReader r(config, origin + ": $" + (nested ? ".text_config" : ""));
    HfConfigModel out;
    if (nested) out.notes.push_back("the vision tower (vision_config) is not counted: the planner sizes the language model");
    out.entry = model_entry(r, type, name, origin, out.notes);
    const Json& entry = out.entry;
    out.ignored = r.not_read();
    const Json document = {{"schema", "gpuplan.models/1"}, {"models", Json::array({entry})}};
    out.model = load_models({{origin + " (as a model entry)", document.dump()}}).at(0);
    out.model.origin = origin;
    return out;
}

}  // namespace gpuplan
