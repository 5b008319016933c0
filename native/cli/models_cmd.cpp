// models_cmd.cpp — `gpuplan models`: the model presets (and a user's models file) with their
// architecture and the parameter count computed from it; plus the helpers every workload
// command shares: --models-file, model look-up with close names, and flag validators.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "gpuplan/pricing/purchase_option.hpp"
#include "gpuplan/workload/hf_config.hpp"
#include "gpuplan/workload/memory.hpp"

namespace gpuplan::cli {

// ---- shared workload helpers ------------------------------------------------------------------

void add_models_file_option(CLI::App& app, std::vector<std::string>& files) {
    app.add_option("--models-file,--model-config", files,
                   "Extra models: a models file (gpuplan.models/1, docs/models.md) or a Hugging Face config.json (the model is named "
                   "after the file: qwen3-8b.json is qwen3-8b, and is the --model when none is given), loaded after the built-in "
                   "presets; a model of the same name replaces the preset. Repeatable.")
        ->type_name("FILE")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

void add_quota_option(CLI::App& app, std::vector<std::string>& quotas) {
    app.add_option("--quota", quotas,
                   "Your account's vCPU quota of a class, CLASS=N (p, g, inf, trn, dl, standard, ...; add -spot for spot: g-spot=64), "
                   "in place of AWS's default for a new account (0 for every GPU class). Repeatable.")
        ->type_name("CLASS=N")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

AccountQuotas account_quotas(const std::vector<std::string>& quotas) {
    AccountQuotas out;
    for (const std::string& q : quotas) out.insert(parse_quota(q, "--quota"));
    return out;
}

namespace {

// A Hugging Face config.json rather than a models file: an object with a model_type and no schema.
bool is_hf_config(const std::string& text) {
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    return j.is_object() && j.contains("model_type") && !j.contains("schema");
}

std::string file_stem(const std::string& path) {
    std::string name = path.substr(path.find_last_of("/\\") == std::string::npos ? 0 : path.find_last_of("/\\") + 1);
    if (name.size() > 5 && name.substr(name.size() - 5) == ".json") name.resize(name.size() - 5);
    return name;
}

}  // namespace

std::vector<ModelSpec> load_models_with_files(const std::vector<std::string>& files, const Notes& notes) {
    if (files.empty()) return builtin_models();
    std::vector<CatalogDocument> docs = builtin_model_documents();
    std::vector<ModelSpec> from_configs;
    for (const auto& f : files) {
        std::string text = read_input_file(f, "--models-file");
        if (!is_hf_config(text)) {
            docs.push_back({f, std::move(text)});
            continue;
        }
        HfConfigModel read = model_from_hf_config(text, file_stem(f), f);
        if (notes) {
            for (const std::string& note : read.notes) notes->push_back(read.model.name + ": " + note);
            if (!read.ignored.empty())
                notes->push_back(read.model.name + ": fields of " + f + " the planner does not use (no effect on sizes or FLOPs as modelled): " + join(read.ignored, ", "));
        }
        from_configs.push_back(std::move(read.model));
    }
    std::vector<ModelSpec> models = load_models(docs);
    for (ModelSpec& m : from_configs) {
        const auto same = std::find_if(models.begin(), models.end(), [&](const ModelSpec& e) { return e.name == m.name; });
        if (same != models.end()) *same = std::move(m);
        else models.push_back(std::move(m));
    }
    return models;
}

const ModelSpec& require_model(const std::vector<ModelSpec>& models, const std::string& name, const std::string& where) {
    if (name.empty()) {  // no --model: the one model a config.json gave
        std::vector<const ModelSpec*> configs;
        for (const auto& m : models)
            if (m.source.rfind(kHfConfigSource, 0) == 0) configs.push_back(&m);
        if (configs.size() == 1) return *configs.front();
        throw InputError(where + ": required (a preset from `gpuplan models`, or one config.json with --model-config)");
    }
    return require_named_model(models, name, where);
}


const ModelSpec& require_named_model(const std::vector<ModelSpec>& models, const std::string& name, const std::string& where) {
    if (const ModelSpec* m = find_model(models, name)) return *m;
    // Case and punctuation differences are not worth an error: "Llama-3-8B" is llama-3-8b.
    for (const auto& m : models)
        if (lower(m.name) == lower(name)) return m;
    std::vector<std::pair<std::size_t, std::string>> close;
    for (const auto& m : models) {
        const std::size_t d = edit_distance(lower(name), lower(m.name));
        const bool contains = !name.empty() && lower(m.name).find(lower(name)) != std::string::npos;
        if (d <= 3 || contains) close.emplace_back(contains ? 0 : d, m.name);
    }
    std::sort(close.begin(), close.end());
    std::vector<std::string> names;
    for (std::size_t k = 0; k < close.size() && k < 4; ++k) names.push_back(close[k].second);
    throw InputError(where + ": unknown model '" + name + "'" + (names.empty() ? "" : " (did you mean " + join(names, ", ") + "?)") +
                     "; see `gpuplan models` for the list, or define your own with --models-file");
}

CLI::Validator whole_rule(double min_value) {
    return CLI::Validator(
        [min_value](std::string& text) -> std::string {
            const std::string expected = "; expected a whole number >= " + format_number(min_value);
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            if (text.empty() || end == text.c_str() || *end != '\0') return "got '" + value_shown(text) + "'" + expected;
            if (!std::isfinite(v) || std::floor(v) != v || v < min_value || v > 1e15) return "got " + value_shown(text) + expected;
            return "";
        },
        "WHOLE >= " + format_number(min_value));
}

CLI::Validator choice_rule(std::vector<std::string> allowed) {
    const std::string list = join(allowed, "|");
    return CLI::Validator(
        [allowed, list](std::string& text) -> std::string {
            if (std::find(allowed.begin(), allowed.end(), lower(text)) != allowed.end()) {
                text = lower(text);
                return "";
            }
            return "got '" + text + "'; expected one of " + join(allowed, ", ");
        },
        list);
}

namespace {
// A name `accepts` takes, or a price kind in the spelling before 2026-11-29, rewritten to
// today's with a note; anything else is refused with `expected`.
CLI::Validator name_or_old_price_kind(Notes notes, std::string flag, bool (*accepts)(const std::string&), std::string expected,
                                      std::string type_name) {
    return CLI::Validator(
        [notes, flag, accepts, expected](std::string& text) -> std::string {
            if (accepts(text)) return "";
            if (const auto kind = price_kind_from_old_spelling(text)) {
                notes->push_back(flag + " " + text + " is now written " + std::string(to_string(*kind)));
                text = std::string(to_string(*kind));
                return "";
            }
            return "got '" + value_shown(text) + "'; expected " + expected;
        },
        std::move(type_name));
}
}  // namespace

CLI::Validator price_kind_rule(Notes notes, std::string flag) {
    return name_or_old_price_kind(
        std::move(notes), std::move(flag), [](const std::string& t) { return price_kind_named(t).has_value(); },
        "one of " + std::string(to_string(PriceKind::on_demand)) + ", " + std::string(to_string(PriceKind::spot_typical)), "on-demand|spot");
}

CLI::Validator purchase_option_rule(Notes notes, std::string flag) {
    return name_or_old_price_kind(
        std::move(notes), std::move(flag), [](const std::string& t) { return purchase_option_named(t).has_value(); }, purchase_option_keys(),
        "OPTION");
}

CLI::Validator non_empty_rule(std::string expected) {
    return CLI::Validator([expected](std::string& text) -> std::string { return text.empty() ? "got an empty value; expected " + expected : ""; }, "");
}

// ---- gpuplan models ---------------------------------------------------------------------------

namespace {

struct ModelsOptions {
    std::vector<std::string> files;
    Format format = Format::table;
    Notes notes;  // what a config.json left out
};

std::string billions(double v) { return decimals(v / 1e9, 2) + " B"; }

std::string run_models(const ModelsOptions& o) {
    const std::vector<ModelSpec> models = load_models_with_files(o.files, o.notes);
    if (o.format == Format::json) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& m : models) {
            const ParameterCount c = count_parameters(m);
            nlohmann::json j = {{"name", m.name},
                                {"family", m.family},
                                {"layers", m.layers},
                                {"hidden", m.hidden},
                                {"heads", m.heads},
                                {"kv_heads", m.kv_heads},
                                {"head_dim", m.head_dim},
                                {"ffn", m.ffn},
                                {"vocab", m.vocab},
                                {"tied_embeddings", m.tied_embeddings},
                                {"moe", m.moe.has_value()},
                                {"mla", m.mla.has_value()},
                                {"source", m.source},
                                {"origin", m.origin},
                                {"figures",
                                 {{"parameters_total", to_json(c.total_figure)},
                                  {"parameters_active", to_json(c.active_figure)},
                                  {"kv_cache_bytes_per_token_bf16", to_json(kv_cache_bytes_per_token(m, 2))}}}};
            list.push_back(std::move(j));
        }
        return dump_json({{"models", list}});
    }
    Table t;
    t.columns = {{"model", "name", false},       {"family", "family", false}, {"layers", "layers"},  {"hidden", "hidden"},
                 {"heads", "heads"},             {"kv", "kv_heads"},          {"head dim", "head_dim"}, {"FFN", "ffn"},
                 {"vocab", "vocab"},             {"tied", "tied_embeddings", false}, {"attention", "attention", false},
                 {"parameters", "parameters_total"}, {"active", "parameters_active"}, {"KV B/token bf16", "kv_cache_bytes_per_token_bf16"}};
    for (const auto& m : models) {
        const ParameterCount c = count_parameters(m);
        std::string ffn = quantity(m.ffn);
        if (m.moe) ffn = fmt::format("{}x{} MoE", format_number(m.moe->routed_experts), quantity(m.moe->expert_ffn));
        const Figure kv = kv_cache_bytes_per_token(m, 2);
        const bool csv = o.format == Format::csv;
        t.rows.push_back({text_cell(m.name), text_cell(m.family), number_cell(m.layers, quantity), number_cell(m.hidden, quantity),
                          number_cell(m.heads, quantity), number_cell(m.kv_heads, quantity), number_cell(m.head_dim, quantity),
                          csv ? number_cell(m.moe ? m.moe->expert_ffn : m.ffn, quantity) : text_cell(ffn),
                          number_cell(m.vocab, quantity), text_cell(m.tied_embeddings ? "yes" : "no"),
                          text_cell(m.mla ? "MLA" : (m.kv_heads < m.heads ? "GQA" : "MHA")),
                          {csv ? full_precision(c.total) : quantity(c.total), full_precision(c.total)},
                          {csv ? full_precision(c.active) : billions(c.active), full_precision(c.active)}, number_cell(kv.value, quantity)});
    }
    if (o.format == Format::csv) return render_csv(t);
    std::string out = std::to_string(models.size()) + " models; parameters counted from the architecture (gpuplan models --format json explains each)\n\n";
    out += render_table(t, o.format);
    out += notes_block("\nUse a name with `gpuplan fit --model NAME` or `gpuplan infer --model NAME`; add your own with --models-file.\n", o.format);
    return out;
}

}  // namespace

Command register_models(CLI::App& parent) {
    auto o = std::make_shared<ModelsOptions>();
    CLI::App* app = parent.add_subcommand("models", "Model presets with parameter counts computed from the architecture");
    add_models_file_option(*app, o->files);
    add_format_option(*app, o->format, {Format::table, Format::json, Format::csv, Format::md});
    app->footer(R"(Presets come from assets/models/presets.json (format: docs/models.md); the parameter count is
computed from layers, hidden size, heads, KV heads, FFN, vocabulary, MoE and MLA, never typed in.
Examples:
  gpuplan models
  gpuplan models --format json
  gpuplan models --models-file my-models.json
  gpuplan models --model-config qwen3-30b-a3b.json)");
    Command command{app, [o](const Catalog&) { return run_models(*o); }};
    o->notes = command.notes;
    return command;
}

}  // namespace gpuplan::cli
