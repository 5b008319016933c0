// view_common.cpp — scenario-editing helpers shared by the views (view_common.hpp).
#include "ui/views/view_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/explain.hpp"
#include "gpuplan/text.hpp"
#include "gpuplan/workload/hf_config.hpp"
#include "gpuplan/workload/model.hpp"

#include "imgui.h"
#include "imgui_stdlib.h"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace gpuplan::ui {

nlohmann::json& scenario_section(AppState& state, const char* section) {
    if (!state.scenario.is_object()) state.scenario = nlohmann::json::object();
    nlohmann::json& s = state.scenario[section];
    if (!s.is_object()) s = nlohmann::json::object();
    return s;
}

std::string chosen_instance(const AppState& state) {
    for (const char* section : {"price", "train", "decode", "idle"}) {
        const std::string name = json_string(find_json(state.scenario, {section, "instance"}));
        if (!name.empty()) return name;
    }
    return "";
}

std::string scenario_region(const AppState& state) { return json_string(find_json(state.scenario, {"region"}), Scenario{}.region); }

void choose_instance(AppState& state, const std::string& name) {
    nlohmann::json& price = scenario_section(state, "price");
    price["instance"] = name;
    scenario_edited(state);
}

nlohmann::json number_json(double value) {
    constexpr double kExactIntegers = 9007199254740992.0;  // 2^53: every integer below is exact in a double
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < kExactIntegers)
        return static_cast<std::int64_t>(value);
    return value;
}

namespace {

// Text that reads as a number ("1,024", " 12.5 ") or nullopt: the core's decimal_number once
// the separators people type are taken out.
std::optional<double> parse_typed_number(const std::string& text) {
    std::string digits;
    for (char c : text)
        if (c != ',' && c != ' ' && c != '_') digits += c;
    return decimal_number(digits);
}

}  // namespace

namespace {

// A field the caller placed beside the previous one (ImGui::SameLine) that would run past the
// window's right edge goes to the next line instead: control rows reflow in a narrow embed or
// on a phone rather than being clipped.
void flow_to_fit(const char* label, float field_width) {
    const float label_width = ImGui::CalcTextSize(label, std::strstr(label, "##")).x;
    new_line_unless_fits(field_width + (label_width > 0 ? ImGui::GetStyle().ItemInnerSpacing.x + label_width : 0));
}

// edit_number and edit_optional_number: `placeholder` is null for a key that must be present.
bool edit_number_field(AppState& state, nlohmann::json& section, const char* key, const char* label, double fallback,
                       const char* placeholder, double min, double max, const char* format) {
    ViewStates& vs = *state.views;
    const ImGuiID id = ImGui::GetID(label);
    const auto current = json_number(find_json(section, {key}));
    auto pending = vs.inputs.find(id);

    char buffer[64] = "";
    if (pending != vs.inputs.end()) {
        std::snprintf(buffer, sizeof buffer, "%s", pending->second.text.c_str());
    } else if (current || !placeholder) {
        std::snprintf(buffer, sizeof buffer, format, current.value_or(fallback));
    }
    const bool refused = pending != vs.inputs.end() && !pending->second.error.empty();
    if (refused) {
        ImGui::PushStyleColor(ImGuiCol_FrameBg, to_vec4((palette().bad & 0x00FFFFFF) | 0x40000000));
        ImGui::PushStyleColor(ImGuiCol_Border, to_vec4(palette().bad));
        ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, 1.0f);
    }
    flow_to_fit(label, em(7));
    ImGui::SetNextItemWidth(em(7));
    if (placeholder)
        ImGui::InputTextWithHint(label, placeholder, buffer, sizeof buffer, ImGuiInputTextFlags_AutoSelectAll);
    else
        ImGui::InputText(label, buffer, sizeof buffer, ImGuiInputTextFlags_AutoSelectAll);
    if (refused) {
        ImGui::PopStyleVar();
        ImGui::PopStyleColor(2);
    }
    mark_widget(label);
    // The field's own state, read before anything else is drawn after it (ImGui's "item"
    // queries answer for the last item drawn).
    const bool edited = ImGui::IsItemEdited(), left_after_edit = ImGui::IsItemDeactivatedAfterEdit(), hovered = ImGui::IsItemHovered();
    if (refused) {
        if (hovered) ImGui::SetTooltip("%s", pending->second.error.c_str());
        ImGui::SameLine();
        ImGui::TextColored(to_vec4(palette().bad), "%s", pending->second.error.c_str());
    }
    // While typing, the text lives here (the scenario is untouched, so a half-typed number is
    // never evaluated nor written to the link); Enter, Tab and a click elsewhere all end the
    // edit, and that is when it is committed.
    if (edited) vs.inputs[id] = {buffer, ""};
    if (!left_after_edit || vs.inputs.find(id) == vs.inputs.end()) return false;

    ViewStates::PendingInput& typed = vs.inputs[id];
    const std::string range = "a number from " + format_number(min) + " to " + format_number(max);
    const bool blank = typed.text.find_first_not_of(" \t") == std::string::npos;
    if (placeholder && blank) {  // an optional key emptied: back to the default (or no limit)
        vs.inputs.erase(id);
        if (!current) return false;
        section.erase(key);
        vs.committed_input = id;
        scenario_edited(state);
        return true;
    }
    const std::optional<double> value = parse_typed_number(typed.text);
    if (!value) {
        typed.error = "\"" + typed.text + "\" is not a number; expected " + range + (placeholder ? ", or nothing" : "");
        return false;
    }
    if (*value < min || *value > max) {
        typed.error = "\"" + typed.text + "\" is out of range; expected " + range;
        return false;
    }
    if (current && *current == *value) {
        vs.inputs.erase(id);
        return false;
    }
    section[key] = number_json(*value);
    vs.committed_input = id;  // draw_app re-evaluates; a refusal comes back to this field
    scenario_edited(state);
    return true;
}

}  // namespace

bool edit_number(AppState& state, nlohmann::json& section, const char* key, const char* label, double fallback, double min,
                 double max, const char* format) {
    return edit_number_field(state, section, key, label, fallback, nullptr, min, max, format);
}

bool edit_optional_number(AppState& state, nlohmann::json& section, const char* key, const char* label, const char* placeholder,
                          double min, double max, const char* format) {
    return edit_number_field(state, section, key, label, 0, placeholder, min, max, format);
}

bool edit_choice(AppState& state, nlohmann::json& section, const char* key, const char* label, const std::vector<std::string>& options,
                 const std::string& fallback, std::string (*words)(const std::string&)) {
    const std::string current = json_string(find_json(section, {key}), fallback);
    const auto shown = [&](const std::string& o) { return words ? words(o) : o; };
    bool changed = false;
    flow_to_fit(label, em(11));
    ImGui::SetNextItemWidth(em(11));
    const bool open = ImGui::BeginCombo(label, shown(current).c_str());
    mark_widget(label);
    if (open) {
        for (const std::string& o : options)
            if (ImGui::Selectable((shown(o) + "##" + o).c_str(), o == current) && o != current) {
                section[key] = o;
                scenario_edited(state);
                changed = true;
            }
        ImGui::EndCombo();
    }
    return changed;
}

bool edit_choice_set(AppState& state, nlohmann::json& section, const char* key, const char* label, const std::vector<std::string>& options,
                     const char* none_words, std::string (*words)(const std::string&)) {
    std::vector<std::string> chosen;
    if (const nlohmann::json* list = find_json(section, {key}); list && list->is_array())
        for (const auto& item : *list)
            if (item.is_string()) chosen.push_back(item.get<std::string>());
    const auto shown = [&](const std::string& o) { return words ? words(o) : o; };
    std::string preview;
    for (const std::string& c : chosen) preview += (preview.empty() ? "" : ", ") + shown(c);
    if (preview.empty()) preview = none_words;
    bool changed = false;
    flow_to_fit(label, em(11));
    ImGui::SetNextItemWidth(em(11));
    const bool open = ImGui::BeginCombo(label, preview.c_str());
    mark_widget(label);
    if (open) {
        for (const std::string& o : options) {
            bool on = std::find(chosen.begin(), chosen.end(), o) != chosen.end();
            if (!ImGui::Checkbox((shown(o) + "##" + o).c_str(), &on)) continue;
            // Kept in the options' order, so the link does not depend on the order of the clicks.
            std::vector<std::string> next;
            for (const std::string& x : options)
                if (x == o ? on : std::find(chosen.begin(), chosen.end(), x) != chosen.end()) next.push_back(x);
            chosen = next;
            if (chosen.empty()) section.erase(key);
            else section[key] = chosen;
            scenario_edited(state);
            changed = true;
        }
        ImGui::EndCombo();
    }
    return changed;
}

std::vector<std::string> model_names(const AppState& state) {
    std::vector<std::string> names;
    if (const auto models = state.scenario.find("models"); models != state.scenario.end() && models->is_array())
        for (const nlohmann::json& m : *models)
            if (m.contains("name") && m["name"].is_string()) names.push_back(m["name"].get<std::string>());
    for (const ModelSpec& m : builtin_models())
        if (std::find(names.begin(), names.end(), m.name) == names.end()) names.push_back(m.name);
    return names;
}

void draw_model_config_paste(AppState& state, nlohmann::json& section) {
    constexpr const char* kHeader = "Your own model: paste its config.json (Hugging Face)";
    const bool open = ImGui::CollapsingHeader(kHeader);
    mark_widget(kHeader);
    if (!open) return;
    std::string& text = state.views->model_config_paste;
    ImGui::InputTextMultiline("##model_config_paste", &text, ImVec2(-1, em(6)));
    mark_widget("config.json text");
    const bool use = ImGui::Button("Use this model");
    mark_widget("Use this model");
    if (use) {
        try {
            const std::string found = hf_config_name(text);
            const std::string name = found.empty() ? "pasted-model" : found;
            const HfConfigModel read = model_from_hf_config(text, name, "the pasted config.json");
            nlohmann::json& models = state.scenario["models"];
            if (!models.is_array()) models = nlohmann::json::array();
            models.erase(std::remove_if(models.begin(), models.end(), [&](const nlohmann::json& m) { return m.value("name", "") == name; }), models.end());
            models.push_back(read.entry);
            section["model"] = name;
            const ParameterCount count = count_parameters(read.model);
            std::string message = "Using " + name + ": " + decimals(count.total / 1e9, 2) + " billion parameters" +
                                  (read.model.moe ? " (" + decimals(count.active / 1e9, 2) + " billion active)" : "") + ", computed from the config.";
            for (const std::string& note : read.notes) message += "\n" + note;
            if (!read.ignored.empty()) message += "\nNot used (no effect on sizes or speed as modelled): " + join(read.ignored, ", ") + ".";
            state.views->model_config_message = message;
            state.views->model_config_failed = false;
            scenario_edited(state);
        } catch (const InputError& e) {
            state.views->model_config_message = e.what();
            state.views->model_config_failed = true;
        }
    }
    if (state.views->model_config_message.empty()) return;
    ImGui::PushTextWrapPos(0);
    if (state.views->model_config_failed) ImGui::TextColored(to_vec4(palette().bad), "%s", state.views->model_config_message.c_str());
    else ImGui::TextUnformatted(state.views->model_config_message.c_str());
    ImGui::PopTextWrapPos();
}

std::vector<std::string> family_names(const AppState& state) {
    std::vector<std::string> families;
    for (const Instance& i : state.catalog->instances)
        if (i.accelerator_count.value_or(0) >= 1 && std::find(families.begin(), families.end(), i.family) == families.end())
            families.push_back(i.family);
    return families;
}

std::vector<std::string> price_kind_options() {
    std::vector<std::string> keys;
    for (PriceKind k : kPriceKinds) keys.emplace_back(to_string(k));
    return keys;
}

std::string price_kind_in_words(const std::string& key) {
    const auto kind = price_kind_named(key);
    return kind ? std::string(price_kind_words(*kind)) : key;
}

nlohmann::json example_serving_request() {
    return {{"model", "llama-3.1-70b"}, {"dtype", "fp8"}, {"kv_dtype", "bf16"}, {"context", 8192}, {"tokens_per_second", 2000},
            {"purchase", price_kind_options()}, {"max_instances", 8}};
}

void edit_purchase_and_families(AppState& state, nlohmann::json& section) {
    edit_choice_set(state, section, "purchase", "buy as", price_kind_options(), "on-demand", price_kind_in_words);
    ImGui::SameLine();
    edit_choice_set(state, section, "families", "families", family_names(state), "any family");
}

void edit_serving_request(AppState& state, bool constraints) {
    nlohmann::json& r = scenario_section(state, "recommend");
    draw_model_config_paste(state, r);
    edit_choice(state, r, "model", "model", model_names(state), "llama-3.1-70b");
    ImGui::SameLine();
    edit_choice(state, r, "dtype", "weights", {"bf16", "fp16", "fp8", "int8", "int4"}, "bf16");
    ImGui::SameLine();
    edit_choice(state, r, "kv_dtype", "KV cache", {"bf16", "fp16", "fp8"}, "bf16");
    edit_number(state, r, "context", "context tokens", 4096, 1, 1 << 21);
    ImGui::SameLine();
    edit_number(state, r, "tokens_per_second", "tokens/s to serve", 1000, 1, 1e9);
    ImGui::SameLine();
    edit_number(state, r, "max_instances", "max instances", 16, 1, 4096);
    if (!constraints) return;
    edit_purchase_and_families(state, r);
    edit_optional_number(state, r, "max_usd_per_hour", "max USD/h (fleet)", "no limit", 0.01, 1e7);
    ImGui::SameLine();
    edit_optional_number(state, r, "max_ms_per_token", "max ms per token", "no limit", 0.01, 1e6);
}

// A box with centred text; returns true when hovered.
bool diagram_box(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 fill, ImU32 border, const std::string& text, const std::string& sub) {
    dl->AddRectFilled(a, b, fill, em(0.25f));
    dl->AddRect(a, b, border, em(0.25f), 0, 1.0f);
    const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
    const float cy = (a.y + b.y) / 2 - (sub.empty() ? ts.y / 2 : ts.y);
    dl->AddText(ImVec2((a.x + b.x - ts.x) / 2, cy), palette().text, text.c_str());
    if (!sub.empty()) {
        const ImVec2 ss = ImGui::CalcTextSize(sub.c_str());
        dl->AddText(ImVec2((a.x + b.x - ss.x) / 2, cy + ts.y), palette().text_dim, sub.c_str());
    }
    const ImVec2 m = ImGui::GetIO().MousePos;
    return ImGui::IsWindowHovered() && m.x >= a.x && m.x <= b.x && m.y >= a.y && m.y <= b.y;
}

}  // namespace gpuplan::ui
