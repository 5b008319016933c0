// view_common.cpp — scenario-editing helpers shared by the views (view_common.hpp).
#include "ui/views/view_common.hpp"
#include "gpuplan/pricing/purchase_option.hpp"

#include <algorithm>
#include <cfloat>
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

// What a field does with committed text: the JSON value to store, or why not (in words).
using ReadTyped = std::optional<nlohmann::json> (*)(const std::string& text, double min, double max, std::string& why);

std::optional<nlohmann::json> read_typed_number(const std::string& text, double min, double max, std::string& why) {
    const std::string range = "a number from " + format_number(min) + " to " + format_number(max);
    const std::optional<double> value = parse_typed_number(text);
    if (!value) why = "\"" + text + "\" is not a number; expected " + range;
    else if (*value < min || *value > max) why = "\"" + text + "\" is out of range; expected " + range;
    else return number_json(*value);
    return std::nullopt;
}

// A length: a number goes in as a number; anything else as text, which the core reads as a
// distribution and, if it cannot, names what it expected (the refusal comes back to the field).
std::optional<nlohmann::json> read_typed_length(const std::string& text, double min, double max, std::string& why) {
    if (parse_typed_number(text)) return read_typed_number(text, min, max, why);
    std::string spelling;
    for (char c : text)
        if (c != ' ') spelling += c;
    return nlohmann::json(spelling);
}

// The field of edit_number, edit_optional_number and edit_length: `shown` is what it holds when
// nothing is being typed; `placeholder` is null for a key that must be present.
bool edit_typed_field(AppState& state, nlohmann::json& section, const char* key, const char* label, const std::string& shown,
                      const char* placeholder, double min, double max, ReadTyped read, float width_em = 7) {
    ViewStates& vs = *state.views;
    const ImGuiID id = ImGui::GetID(label);
    const nlohmann::json* current = find_json(section, {key});
    auto pending = vs.inputs.find(id);

    char buffer[64] = "";
    std::snprintf(buffer, sizeof buffer, "%s", pending != vs.inputs.end() ? pending->second.text.c_str() : shown.c_str());
    const bool refused = pending != vs.inputs.end() && !pending->second.error.empty();
    if (refused) {
        ImGui::PushStyleColor(ImGuiCol_FrameBg, to_vec4((palette().bad & 0x00FFFFFF) | 0x40000000));
        ImGui::PushStyleColor(ImGuiCol_Border, to_vec4(palette().bad));
        ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, 1.0f);
    }
    flow_to_fit(label, em(width_em));
    ImGui::SetNextItemWidth(em(width_em));
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
    const bool blank = typed.text.find_first_not_of(" \t") == std::string::npos;
    if (placeholder && blank) {  // an optional key emptied: back to the default (or no limit)
        vs.inputs.erase(id);
        if (!current) return false;
        section.erase(key);
        vs.committed_input = id;
        scenario_edited(state);
        return true;
    }
    std::string why;
    const std::optional<nlohmann::json> value = read(typed.text, min, max, why);
    if (!value) {
        typed.error = why + (placeholder ? ", or nothing" : "");
        return false;
    }
    if (current && *current == *value) {
        vs.inputs.erase(id);
        return false;
    }
    section[key] = *value;
    vs.committed_input = id;  // draw_app re-evaluates; a refusal comes back to this field
    scenario_edited(state);
    return true;
}

// What a number field shows: the key's value, else the fallback, else (optional) nothing.
std::string number_shown(const nlohmann::json& section, const char* key, double fallback, bool optional, const char* format) {
    const auto current = json_number(find_json(section, {key}));
    if (!current && optional) return "";
    char text[64];
    std::snprintf(text, sizeof text, format, current.value_or(fallback));
    return text;
}

}  // namespace

bool edit_number(AppState& state, nlohmann::json& section, const char* key, const char* label, double fallback, double min,
                 double max, const char* format) {
    return edit_typed_field(state, section, key, label, number_shown(section, key, fallback, false, format), nullptr, min, max, read_typed_number);
}

bool edit_length(AppState& state, nlohmann::json& section, const char* key, const char* label, double fallback) {
    const nlohmann::json* current = find_json(section, {key});
    const std::string shown = current && current->is_string() ? current->get<std::string>() : number_shown(section, key, fallback, false, "%.0f");
    return edit_typed_field(state, section, key, label, shown, nullptr, 1, 1e7, read_typed_length, 11);
}

bool edit_optional_number(AppState& state, nlohmann::json& section, const char* key, const char* label, const char* placeholder,
                          double min, double max, const char* format) {
    return edit_typed_field(state, section, key, label, number_shown(section, key, 0, true, format), placeholder, min, max, read_typed_number);
}

namespace {

// Lists longer than this get a type-ahead field at the top (90 instance types, issue 30).
constexpr std::size_t kTypeAheadFrom = 12;

// The options whose shown text contains what was typed (any case), in their order.
std::vector<std::size_t> matching_options(const std::vector<std::string>& shown, const std::string& typed) {
    std::vector<std::size_t> out;
    const std::string needle = lower(typed);
    for (std::size_t k = 0; k < shown.size(); ++k)
        if (needle.empty() || lower(shown[k]).find(needle) != std::string::npos) out.push_back(k);
    return out;
}

}  // namespace

bool edit_choice(AppState& state, nlohmann::json& section, const char* key, const char* label, const std::vector<std::string>& options,
                 const std::string& fallback, std::string (*words)(const std::string&)) {
    const std::string current = json_string(find_json(section, {key}), fallback);
    std::vector<std::string> shown;
    for (const std::string& o : options) shown.push_back(words ? words(o) : o);
    bool changed = false;
    const auto choose = [&](const std::string& o) {
        if (o == current) return;
        section[key] = o;
        scenario_edited(state);
        changed = true;
    };
    flow_to_fit(label, em(11));
    ImGui::SetNextItemWidth(em(11));
    const bool open = ImGui::BeginCombo(label, (words ? words(current) : current).c_str());
    mark_widget(label);
    if (open) {
        std::string& typed = state.views->choice_filter;
        std::vector<std::size_t> rows = matching_options(shown, "");
        if (options.size() > kTypeAheadFrom) {
            if (ImGui::IsWindowAppearing()) {
                typed.clear();
                ImGui::SetKeyboardFocusHere();
            }
            ImGui::SetNextItemWidth(-FLT_MIN);
            const bool enter = ImGui::InputTextWithHint("##type_ahead", "type to filter, Enter picks the first", &typed,
                                                        ImGuiInputTextFlags_EnterReturnsTrue);
            mark_widget(std::string(label) + ": type to filter");
            rows = matching_options(shown, typed);
            if (enter && !rows.empty()) {
                choose(options[rows.front()]);
                ImGui::CloseCurrentPopup();
            }
            if (rows.empty()) ImGui::TextDisabled("nothing matches \"%s\"", typed.c_str());
        }
        for (std::size_t k : rows)
            if (ImGui::Selectable((shown[k] + "##" + options[k]).c_str(), options[k] == current)) choose(options[k]);
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

std::vector<std::string> serving_purchase_options() {
    return {"on-demand", "spot", "capacity-block", "reserved-1y-no-upfront", "reserved-1y-all-upfront", "reserved-3y-no-upfront",
            "reserved-3y-all-upfront", "instance-savings-plan-1y-no-upfront", "instance-savings-plan-3y-no-upfront",
            "compute-savings-plan-1y-no-upfront", "compute-savings-plan-3y-no-upfront"};
}

std::string purchase_option_in_words(const std::string& key) {
    const auto option = purchase_option_named(key);
    return option ? purchase_option_words(*option) : key;
}

nlohmann::json example_serving_request() {
    return {{"model", "llama-3.1-70b"}, {"dtype", "fp8"}, {"kv_dtype", "bf16"}, {"context", 8192}, {"tokens_per_second", 2000},
            {"purchase", {"on-demand", "spot", "reserved-1y-no-upfront", "reserved-3y-no-upfront"}}, {"max_instances", 8}};
}

void edit_purchase_and_families(AppState& state, nlohmann::json& section, bool serving) {
    if (serving) edit_choice_set(state, section, "purchase", "buy as", serving_purchase_options(), "on-demand", purchase_option_in_words);
    else edit_choice_set(state, section, "purchase", "buy as", price_kind_options(), "on-demand", price_kind_in_words);
    ImGui::SameLine();
    edit_choice_set(state, section, "families", "families", family_names(state), "any family");
}

namespace {

// The load to serve: tokens per second, or requests per second with their lengths and a
// latency target (the core then sizes each layout by simulation, serving_traffic.hpp).
void edit_serving_load(AppState& state, nlohmann::json& r) {
    const bool by_requests = r.contains("requests_per_second");
    // A radio button's width: its circle, the gap and its label (a row reflows on a phone).
    const auto radio_width = [](const char* label) {
        return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
    };
    ImGui::TextUnformatted("load to serve:");
    same_line_if_fits(radio_width("tokens per second"));
    if (ImGui::RadioButton("tokens per second", !by_requests) && by_requests) {
        for (const char* key : {"requests_per_second", "prompt_tokens", "output_tokens", "targets", "target_p95_ttft_ms"}) r.erase(key);
        scenario_edited(state);
    }
    mark_widget("tokens per second");
    same_line_if_fits(radio_width("requests per second, to a latency target"));
    if (ImGui::RadioButton("requests per second, to a latency target", by_requests) && !by_requests) {
        r.erase("tokens_per_second");
        r.erase("context");  // the longest prompt + output, unless given
        r["requests_per_second"] = 10;
        r["prompt_tokens"] = "uniform:500:1500";
        r["output_tokens"] = 300;
        r["target_p95_ttft_ms"] = 1000;
        scenario_edited(state);
    }
    mark_widget("requests per second, to a latency target");
    if (!by_requests) {
        edit_number(state, r, "context", "context tokens", 4096, 1, 1 << 21);
        ImGui::SameLine();
        edit_number(state, r, "tokens_per_second", "tokens/s to serve", 1000, 1, 1e9);
        return;
    }
    edit_number(state, r, "requests_per_second", "requests/s", 10, 0.001, 1e6, "%.4g");
    ImGui::SameLine();
    edit_length(state, r, "prompt_tokens", "prompt tokens", 1000);
    ImGui::SameLine();
    edit_length(state, r, "output_tokens", "output tokens", 200);
    ImGui::SameLine();
    edit_optional_number(state, r, "target_p95_ttft_ms", "p95 time to first token (ms)", "no target", 1, 1e7, "%.4g");
    note("Requests arrive at random (Poisson). A length is a number of tokens, uniform:LO:HI or exponential:MEAN[:MAX]. "
         "Each layout gets the fewest replicas whose continuous-batching simulation meets the target; the context is the "
         "longest prompt + output.");
}

}  // namespace

void draw_quota_line(const QuotaLine& q) {
    const std::string quota_class = q.quota_name.empty() ? std::string("the spot quota class (not documented by AWS)")
                                                         : "\"" + q.quota_name + "\" (" + q.quota_code + ")";
    ImGui::PushTextWrapPos(0);
    if (!q.vcpus_needed.value) {
        ImGui::TextDisabled("Quota: the vCPUs needed of %s are unknown: %s.", quota_class.c_str(), q.vcpus_needed.unknown_reason.c_str());
    } else {
        const std::string quota = (q.quota_given ? "your quota is " : "a new account's default is ") + format_number(q.quota_vcpus) +
                                  (q.quota_given ? "" : " (AWS raises it with use)");
        const std::string verdict = q.increase_vcpus > 0 ? "request an increase of " + format_number(q.increase_vcpus) + " vCPUs before launching"
                                                         : "covered";
        const bool short_of = q.increase_vcpus > 0;
        if (short_of) ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette().warn));
        ImGui::Text("Quota: %s vCPUs of %s in the region; %s: %s.", format_number(*q.vcpus_needed.value).c_str(), quota_class.c_str(),
                    quota.c_str(), verdict.c_str());
        if (short_of) ImGui::PopStyleColor();
    }
    ImGui::PopTextWrapPos();
}

std::string latency_target_heading(const LatencyTarget& t) { return "p" + format_number(t.percentile) + " " + std::string(to_string(t.metric)); }

void edit_serving_request(AppState& state, bool constraints) {
    nlohmann::json& r = scenario_section(state, "recommend");
    draw_model_config_paste(state, r);
    edit_choice(state, r, "model", "model", model_names(state), "llama-3.1-70b");
    ImGui::SameLine();
    edit_choice(state, r, "dtype", "weights", {"bf16", "fp16", "fp8", "int8", "int4"}, "bf16");
    ImGui::SameLine();
    edit_choice(state, r, "kv_dtype", "KV cache", {"bf16", "fp16", "fp8"}, "bf16");
    edit_serving_load(state, r);
    ImGui::SameLine();
    edit_number(state, r, "max_instances", "max instances", 16, 1, 4096);
    if (!constraints) return;
    edit_purchase_and_families(state, r, true);
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
