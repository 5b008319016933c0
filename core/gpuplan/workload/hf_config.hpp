// hf_config.hpp — a model from its Hugging Face `config.json`, read into the presets' schema
// (model.hpp), so a user plans with the model they have rather than one of the presets.
//
// The architecture is exactly what transformers builds from the file: hidden size, layers,
// heads and KV heads (GQA/MQA), head_dim where given, the MLP or the experts (Mixtral, Qwen3-MoE,
// DeepSeek-V3, gpt-oss), MLA (DeepSeek), biases, q/k norms, tied embeddings, and which layers
// attend locally (sliding_window with Gemma's pattern, or `layer_types`). Every field the file
// has that the planner does not read is named in `ignored`, never dropped in silence; a missing
// field the planner needs, or a model_type it does not know, is an InputError naming the JSON
// path and the fields it would need.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/workload/model.hpp"

namespace gpuplan {

struct HfConfigModel {
    ModelSpec model;
    nlohmann::json entry;              // the same model as a models file's entry (docs/models.md)
    std::vector<std::string> ignored;  // fields present but not used: "attn_logit_softcapping", ...
    std::vector<std::string> notes;    // what was assumed or left out, in words
};

// `name` names the model (the file's name without .json, say); `origin` is where the text came
// from, for error paths ("config.json: $.hidden_size").
HfConfigModel model_from_hf_config(const std::string& text, const std::string& name, const std::string& origin);

// How a model read from a config says so in its `source`: "Hugging Face config.json (FILE)".
inline constexpr const char* kHfConfigSource = "Hugging Face config.json (";

// A name for a pasted config: the last part of its "_name_or_path" ("openai/gpt-oss-20b" is
// gpt-oss-20b), else its model_type with hyphens (gpt_oss is gpt-oss); "" for text that is not
// a JSON object.
std::string hf_config_name(const std::string& text);

// The model_type values read, in words for help and errors.
const std::vector<std::string>& hf_model_types();

}  // namespace gpuplan
