// model.cpp — parameter counts from architecture, and the model document loader.
#include "gpuplan/workload/model.hpp"
#include "gpuplan/formula_text.hpp"

#include <cmath>
#include <set>

#include "gpuplan/json_reader.hpp"
#include "gpuplan/text.hpp"

namespace gpuplan {

ParameterCount count_parameters(const ModelSpec& m) {
    ParameterCount c;
    const double h = m.hidden;
    c.embedding = m.vocab * h;
    c.lm_head = m.tied_embeddings ? 0 : m.vocab * h;
    std::string attention_formula;
    if (m.mla) {
        const MlaSpec& a = *m.mla;
        const double qk_dim = a.qk_nope_head_dim + a.qk_rope_head_dim;
        // Q: down-projection + its RMSNorm + up-projection (or one projection without LoRA).
        const double q = a.q_lora_rank > 0 ? h * a.q_lora_rank + a.q_lora_rank + a.q_lora_rank * m.heads * qk_dim : h * m.heads * qk_dim;
        // KV: joint down-projection (plus the shared RoPE key) + RMSNorm + up-projection to K_nope and V.
        const double kv = h * (a.kv_lora_rank + a.qk_rope_head_dim) + a.kv_lora_rank +
                          a.kv_lora_rank * m.heads * (a.qk_nope_head_dim + a.v_head_dim);
        const double o = m.heads * a.v_head_dim * h;
        c.attention_per_layer = q + kv + o;
        if (explaining()) attention_formula = "MLA: q " + n(q) + " + kv " + n(kv) + " + o " + n(o);
    } else {
        const double q = h * m.heads * m.head_dim, kv = 2 * h * m.kv_heads * m.head_dim, o = m.heads * m.head_dim * h;
        const double bias = (m.qkv_bias ? (m.heads + 2 * m.kv_heads) * m.head_dim : 0) + (m.attention_output_bias ? h : 0);
        const double sinks = m.attention_sinks ? m.heads : 0;
        c.attention_per_layer = q + kv + o + bias + sinks;
        if (explaining())
            attention_formula = "hidden x head_dim x (2 heads + 2 kv_heads)" + std::string(m.qkv_bias ? " + qkv bias" : "") +
                                (m.attention_output_bias ? " + output bias" : "") + (m.attention_sinks ? " + one sink per head" : "");
    }
    c.dense_mlp_per_layer = (m.mlp == MlpKind::swiglu ? 3 : 2) * h * m.ffn;  // SwiGLU: gate, up, down; GELU: up, down
    double dense_layers = m.layers, moe_layers = 0;
    if (m.moe) {
        const MoeSpec& e = *m.moe;
        const double expert = 3 * h * e.expert_ffn + (e.expert_bias ? 2 * e.expert_ffn + h : 0);
        const double router = h * e.routed_experts + (e.router_bias ? e.routed_experts : 0);
        c.moe_mlp_per_layer_total = (e.routed_experts + e.shared_experts) * expert + router;
        c.moe_mlp_per_layer_active = (e.active_experts + e.shared_experts) * expert + router;
        dense_layers = e.dense_layers;
        moe_layers = m.layers - e.dense_layers;
    }
    // Before attention and before the MLP (Gemma 2/3: after each too), plus q and k norms per head.
    const double norms_per_layer = m.norms_per_layer * h + (m.qk_norm ? 2 * m.head_dim : 0);
    c.norms = m.layers * norms_per_layer + h;
    const double shared = c.embedding + c.lm_head + m.layers * c.attention_per_layer + dense_layers * c.dense_mlp_per_layer + c.norms;
    c.total = shared + moe_layers * c.moe_mlp_per_layer_total;
    c.active = shared + moe_layers * c.moe_mlp_per_layer_active;

    c.total_figure = explained_figure("parameters_total", c.total, "parameters", [&] {
        const std::string worked = "embedding " + n(c.embedding) + " + lm_head " + n(c.lm_head) + " + " + n(m.layers) + " x attention " +
                                   n(c.attention_per_layer) + " + " + n(dense_layers) + " x dense MLP " + n(c.dense_mlp_per_layer) +
                                   (moe_layers > 0 ? " + " + n(moe_layers) + " x MoE MLP " + n(c.moe_mlp_per_layer_total) : "") +
                                   " + norms " + n(c.norms);
        return Explanation{"vocab x hidden (embedding) + LM head (0 if tied) + layers x attention (" + attention_formula + ") + MLP layers x " +
                               std::string(m.mlp == MlpKind::swiglu ? "3 x hidden x ffn (SwiGLU" : "2 x hidden x ffn (GELU") +
                               "; MoE: experts + router) + norm vectors",
                           worked + " = " + n(c.total),
                           {{"layers", m.layers, "", InputOrigin::catalog, m.source},
                            {"hidden", h, "", InputOrigin::catalog, m.source},
                            {"heads", m.heads, "", InputOrigin::catalog, m.source},
                            {"kv_heads", m.kv_heads, "", InputOrigin::catalog, m.source},
                            {"head_dim", m.head_dim, "", InputOrigin::catalog, m.source},
                            {"ffn", m.ffn, "", InputOrigin::catalog, m.source},
                            {"vocab", m.vocab, "", InputOrigin::catalog, m.source}}};
    });
    c.active_figure = explained_figure("parameters_active", c.active, "parameters", [&] {
        return Explanation{m.moe ? "as total, with only the active + shared experts of each MoE layer" : "= total (dense model)", n(c.active),
                           c.total_figure.inputs};
    });
    return c;
}

Figure kv_cache_bytes_per_token(const ModelSpec& m, double bytes) {
    if (m.mla) {
        const double kv_lora_rank = m.mla->kv_lora_rank, rope_dim = m.mla->qk_rope_head_dim;
        const double value = m.layers * (kv_lora_rank + rope_dim) * bytes;
        return explained_figure("kv_cache_bytes_per_token", value, "bytes", [&] {
            return Explanation{"layers x (kv_lora_rank + qk_rope_head_dim) x bytes (MLA caches the compressed latent)",
                               n(m.layers) + " x (" + n(kv_lora_rank) + " + " + n(rope_dim) + ") x " + n(bytes) + " = " + n(value),
                               {{"layers", m.layers, "", InputOrigin::catalog, m.source},
                                {"kv_bytes_per_value", bytes, "bytes", InputOrigin::user, ""},
                                {"kv_lora_rank", kv_lora_rank, "", InputOrigin::catalog, m.source},
                                {"qk_rope_head_dim", rope_dim, "", InputOrigin::catalog, m.source}}};
        });
    }
    const double value = 2 * m.layers * m.kv_heads * m.head_dim * bytes;
    return explained_figure("kv_cache_bytes_per_token", value, "bytes", [&] {
        return Explanation{"2 (K and V) x layers x kv_heads x head_dim x bytes",
                           "2 x " + n(m.layers) + " x " + n(m.kv_heads) + " x " + n(m.head_dim) + " x " + n(bytes) + " = " + n(value),
                           {{"layers", m.layers, "", InputOrigin::catalog, m.source},
                            {"kv_bytes_per_value", bytes, "bytes", InputOrigin::user, ""},
                            {"kv_heads", m.kv_heads, "", InputOrigin::catalog, m.source},
                            {"head_dim", m.head_dim, "", InputOrigin::catalog, m.source}}};
    });
}

double kv_cached_tokens(const ModelSpec& m, double context) {
    if (m.sliding_window <= 0 || m.sliding_layers <= 0 || m.layers <= 0) return context;
    const double sliding = std::min(m.sliding_layers, m.layers);
    return ((m.layers - sliding) * context + sliding * std::min(context, m.sliding_window)) / m.layers;
}

std::string_view to_string(MlpKind kind) { return kind == MlpKind::swiglu ? "swiglu" : "gelu"; }

namespace {

// Upper bounds on a model's dimensions: about 100x the largest published model's (Llama 3.1
// 405B: 126 layers, hidden 16,384, vocabulary 128,256; DeepSeek-V3: 256 routed experts; Gemma:
// vocabulary 262,144), so any real or planned model fits and every figure derived from them stays
// a finite double. Before, 1e15 layers or a hidden size of 1e300 were read (issue 34).
constexpr double kMaxLayers = 10'000;
constexpr double kMaxWidth = 10'000'000;  // hidden, ffn, expert_ffn, MLA ranks
constexpr double kMaxHeads = 100'000;     // heads, kv_heads, head dims
constexpr double kMaxVocab = 100'000'000;
constexpr double kMaxExperts = 100'000;

double whole(ObjectReader& r, const char* key, double min_value, double max_value) {
    const double v = r.number(key, NumberRule::non_negative);
    if (std::floor(v) != v || v < min_value || v > max_value)
        throw InputError(r.child_path(key), json_preview(r.value(key)),
                         "a whole number from " + format_number(min_value) + " to " + group_thousands(format_number(max_value)));
    return v;
}

ModelSpec parse_model(const Json& j, const std::string& path, const std::string& origin) {
    ObjectReader r(j, path);
    ModelSpec m;
    m.origin = origin;
    m.name = r.name("name");
    m.family = r.string("family");
    m.layers = whole(r, "layers", 1, kMaxLayers);
    m.hidden = whole(r, "hidden", 1, kMaxWidth);
    m.heads = whole(r, "heads", 1, kMaxHeads);
    m.kv_heads = whole(r, "kv_heads", 1, kMaxHeads);
    m.head_dim = whole(r, "head_dim", 1, kMaxHeads);
    m.ffn = whole(r, "ffn", 0, kMaxWidth);
    m.vocab = whole(r, "vocab", 1, kMaxVocab);
    m.tied_embeddings = r.boolean("tied_embeddings");
    if (r.has("flash_attention")) m.flash_attention = r.boolean("flash_attention");
    else (void)r.optional_value("flash_attention");
    if (const auto mlp = r.optional_string("mlp")) {
        if (*mlp == "gelu") m.mlp = MlpKind::gelu;
        else if (*mlp != "swiglu") throw InputError(r.child_path("mlp"), "\"" + *mlp + "\"", "\"swiglu\" (gate, up, down: Llama) or \"gelu\" (up, down: GPT, MPT)");
    }
    const auto flag = [&r](const char* key, bool& out) {
        if (r.has(key)) out = r.boolean(key);
        else (void)r.optional_value(key);
    };
    flag("qkv_bias", m.qkv_bias);
    flag("attention_output_bias", m.attention_output_bias);
    flag("attention_sinks", m.attention_sinks);
    flag("qk_norm", m.qk_norm);
    if (r.has("norms_per_layer")) m.norms_per_layer = whole(r, "norms_per_layer", 0, 16);
    else (void)r.optional_value("norms_per_layer");
    if (r.has("sliding_window")) m.sliding_window = whole(r, "sliding_window", 1, kMaxVocab);
    else (void)r.optional_value("sliding_window");
    if (r.has("sliding_layers")) m.sliding_layers = whole(r, "sliding_layers", 0, m.layers);
    else (void)r.optional_value("sliding_layers");
    m.source = r.string("source");
    if (m.kv_heads > m.heads) throw InputError(r.child_path("kv_heads"), n(m.kv_heads), "at most heads (" + n(m.heads) + ")");
    if (std::fmod(m.heads, m.kv_heads) != 0)
        throw InputError(r.child_path("kv_heads"), n(m.kv_heads), "a divisor of heads (" + n(m.heads) + "): each KV head serves a whole group of query heads");
    if (const Json* moe = r.optional_value("moe")) {
        ObjectReader e(*moe, r.child_path("moe"));
        MoeSpec s;
        s.routed_experts = whole(e, "routed_experts", 1, kMaxExperts);
        s.active_experts = whole(e, "active_experts", 1, kMaxExperts);
        s.shared_experts = e.has("shared_experts") ? whole(e, "shared_experts", 0, kMaxExperts) : ((void)e.optional_value("shared_experts"), 0.0);
        s.expert_ffn = whole(e, "expert_ffn", 1, kMaxWidth);
        s.dense_layers = e.has("dense_layers") ? whole(e, "dense_layers", 0, kMaxLayers) : ((void)e.optional_value("dense_layers"), 0.0);
        if (e.has("router_bias")) s.router_bias = e.boolean("router_bias");
        else (void)e.optional_value("router_bias");
        if (e.has("expert_bias")) s.expert_bias = e.boolean("expert_bias");
        else (void)e.optional_value("expert_bias");
        e.finish();
        if (s.active_experts > s.routed_experts)
            throw InputError(e.child_path("active_experts"), n(s.active_experts), "at most routed_experts (" + n(s.routed_experts) + ")");
        if (s.dense_layers > m.layers) throw InputError(e.child_path("dense_layers"), n(s.dense_layers), "at most layers (" + n(m.layers) + ")");
        if (s.dense_layers > 0 && m.ffn <= 0) throw InputError(r.child_path("ffn"), n(m.ffn), "> 0 for the dense layers");
        m.moe = s;
    } else if (m.ffn <= 0) {
        throw InputError(r.child_path("ffn"), n(m.ffn), "a whole number >= 1");
    }
    if (const Json* mla = r.optional_value("mla")) {
        ObjectReader a(*mla, r.child_path("mla"));
        MlaSpec s;
        s.q_lora_rank = whole(a, "q_lora_rank", 0, kMaxWidth);
        s.kv_lora_rank = whole(a, "kv_lora_rank", 1, kMaxWidth);
        s.qk_nope_head_dim = whole(a, "qk_nope_head_dim", 1, kMaxHeads);
        s.qk_rope_head_dim = whole(a, "qk_rope_head_dim", 1, kMaxHeads);
        s.v_head_dim = whole(a, "v_head_dim", 1, kMaxHeads);
        a.finish();
        m.mla = s;
    }
    // heads x head_dim need not equal hidden: the projections map between the two (Gemma 3 1B:
    // 4 heads x 256 against a hidden size of 1,152; Qwen3-30B-A3B: 32 x 128 against 2,048).
    r.finish();
    return m;
}

}  // namespace

std::vector<ModelSpec> load_models(const std::vector<CatalogDocument>& documents) {
    std::vector<ModelSpec> models;
    for (const auto& doc : documents) {
        const Json j = parse_json_document(doc.text, doc.origin);
        ObjectReader root(j, doc.origin + ": $");
        const std::string schema = root.string("schema");
        if (schema != "gpuplan.models/1") throw InputError(root.child_path("schema"), "\"" + schema + "\"", "\"gpuplan.models/1\"");
        const Json& list = root.array("models");
        std::set<std::string> names;
        for (std::size_t k = 0; k < list.size(); ++k) {
            const std::string path = index_path(root.child_path("models"), k);
            ModelSpec m = parse_model(list[k], path, doc.origin);
            if (!names.insert(m.name).second) throw InputError(path + ".name", "\"" + m.name + "\"", "a name not used earlier in the document");
            bool replaced = false;
            for (auto& existing : models)
                if (existing.name == m.name) existing = m, replaced = true;
            if (!replaced) models.push_back(std::move(m));
        }
        root.finish();
    }
    return models;
}

const std::vector<ModelSpec>& builtin_models() {
    static const std::vector<ModelSpec> models = load_models(builtin_model_documents());
    return models;
}

const ModelSpec* find_model(const std::vector<ModelSpec>& models, std::string_view name) {
    for (const auto& m : models)
        if (m.name == name) return &m;
    return nullptr;
}

}  // namespace gpuplan
