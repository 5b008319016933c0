// model.hpp — transformer architectures and their parameter counts.
//
// The parameter count is computed from the architecture, never typed in (shared/cases/
// workloads.md): embeddings, then per layer attention (GQA, or DeepSeek's MLA) and MLP
// (dense SwiGLU, or MoE with routed and shared experts and a router), RMSNorm vectors, and
// the final norm and LM head (absent when embeddings are tied). Presets live in
// assets/models/*.json (format: docs/models.md); users can add their own.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/explain.hpp"

namespace gpuplan {

// Multi-head latent attention (DeepSeek-V2/V3): low-rank Q and joint KV compression.
struct MlaSpec {
    double q_lora_rank = 0;    // 0 = no Q compression
    double kv_lora_rank = 0;
    double qk_nope_head_dim = 0, qk_rope_head_dim = 0, v_head_dim = 0;
};

// Mixture of experts: `routed_experts` per MoE layer, `active_experts` chosen per token,
// plus `shared_experts` every token uses; the first `dense_layers` layers use a dense MLP.
struct MoeSpec {
    double routed_experts = 0, active_experts = 0, shared_experts = 0;
    double expert_ffn = 0;      // intermediate size of one expert
    double dense_layers = 0;
    bool router_bias = false;   // DeepSeek-V3's score-correction bias, gpt-oss's router bias (one per expert)
    bool expert_bias = false;   // gpt-oss: biases on each expert's gate/up (2 x expert_ffn) and down (hidden) projections
};

// The dense MLP: SwiGLU (gate, up, down: 3 matrices; Llama, Mistral, Qwen) or a plain
// 2-matrix MLP with GELU (GPT-2/3, MPT, Falcon: up and down).
enum class MlpKind { swiglu, gelu };
std::string_view to_string(MlpKind kind);

struct ModelSpec {
    std::string name;
    std::string family;             // "llama", "mistral", "qwen2", "deepseek-v3"
    double layers = 0, hidden = 0, heads = 0, kv_heads = 0, head_dim = 0;
    double ffn = 0;                 // dense MLP intermediate size
    MlpKind mlp = MlpKind::swiglu;  // experts are SwiGLU
    // Fused attention (FlashAttention, PyTorch SDPA, cuDNN) never stores the s x s attention
    // scores, so training without recompute keeps 34 s b h bytes per layer, not 34 + 5 a s / h
    // (Dao et al. 2022). Every framework the presets are run with uses it by default; a model
    // file says false for an eager attention implementation.
    bool flash_attention = true;
    double vocab = 0;
    bool tied_embeddings = false;
    bool qkv_bias = false;          // Qwen2 adds biases to q, k, v projections
    bool attention_output_bias = false;  // gpt-oss: a bias on the output projection too
    bool attention_sinks = false;   // gpt-oss: one learned attention sink per head per layer
    bool qk_norm = false;           // Qwen3, Gemma 3: an RMSNorm of q and of k per head (2 x head_dim per layer)
    double norms_per_layer = 2;     // RMSNorm vectors of hidden size per layer (Gemma 2 and 3: 4, before and after attention and MLP)
    // Local attention (Mistral 7B v0.1, Gemma 2/3, gpt-oss): `sliding_layers` of the layers attend
    // to the last `sliding_window` tokens only, so their KV cache stops growing there.
    double sliding_window = 0, sliding_layers = 0;
    std::optional<MoeSpec> moe;
    std::optional<MlaSpec> mla;
    std::string source;             // model card / config the facts come from
    std::string origin;             // file it was read from
};

struct ParameterCount {
    double embedding = 0;        // input embeddings
    double lm_head = 0;          // 0 when tied
    double attention_per_layer = 0;
    double dense_mlp_per_layer = 0;
    double moe_mlp_per_layer_total = 0, moe_mlp_per_layer_active = 0;
    double norms = 0;            // every RMSNorm vector, all layers + final
    double total = 0;            // every weight stored
    double active = 0;           // weights one token touches (MoE: routed experts chosen)
    Figure total_figure, active_figure;
};

ParameterCount count_parameters(const ModelSpec& model);

// Bytes of K and V cached per token across all layers, at `bytes_per_value`.
// GQA: 2 x layers x kv_heads x head_dim; MLA: layers x (kv_lora_rank + qk_rope_head_dim).
// Local-attention layers count as the others here: per token, every layer caches it.
Figure kv_cache_bytes_per_token(const ModelSpec& model, double bytes_per_value);
// Tokens of KV cache one sequence of `context` tokens holds, counted per layer and averaged
// over the layers: context where every layer attends to everything, less where local-attention
// layers keep only their window: (full layers x context + sliding layers x min(context,
// window)) / layers. kv_cache_bytes_per_token x this = the sequence's cache.
double kv_cached_tokens(const ModelSpec& model, double context);

// Parses model documents (schema gpuplan.models/1) and validates each architecture: zero
// layers, kv_heads above or not dividing heads, heads x head_dim that does not fit hidden,
// etc. are InputErrors naming the JSON path.
std::vector<ModelSpec> load_models(const std::vector<CatalogDocument>& documents);
const std::vector<CatalogDocument>& builtin_model_documents();
const std::vector<ModelSpec>& builtin_models();
const ModelSpec* find_model(const std::vector<ModelSpec>& models, std::string_view name);

}  // namespace gpuplan
