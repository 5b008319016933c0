// view_common.cpp — scenario-editing helpers shared by the views (view_common.hpp).
#include "ui/views/view_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "gpuplan/explain.hpp"

#include "imgui.h"
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
    if (!state.scenario.contains("schema")) state.scenario["schema"] = "gpuplan.scenario/1";
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

// Text that reads as a number ("1,024", " 12.5 ") or nullopt.
std::optional<double> parse_typed_number(std::string text) {
    std::string digits;
    for (char c : text)
        if (c != ',' && c != ' ' && c != '_') digits += c;
    if (digits.empty()) return std::nullopt;
    char* end = nullptr;
    const double value = std::strtod(digits.c_str(), &end);
    if (end != digits.c_str() + digits.size() || !std::isfinite(value)) return std::nullopt;
    return value;
}

}  // namespace

bool edit_number(AppState& state, nlohmann::json& section, const char* key, const char* label, double fallback, double min,
                 double max, const char* format) {
    ViewStates& vs = *state.views;
    const ImGuiID id = ImGui::GetID(label);
    const auto current = json_number(find_json(section, {key}));
    auto pending = vs.inputs.find(id);

    char buffer[64];
    if (pending != vs.inputs.end()) {
        std::snprintf(buffer, sizeof buffer, "%s", pending->second.text.c_str());
    } else {
        std::snprintf(buffer, sizeof buffer, format, current.value_or(fallback));
    }
    const bool refused = pending != vs.inputs.end() && !pending->second.error.empty();
    if (refused) {
        ImGui::PushStyleColor(ImGuiCol_FrameBg, to_vec4((palette().bad & 0x00FFFFFF) | 0x40000000));
        ImGui::PushStyleColor(ImGuiCol_Border, to_vec4(palette().bad));
        ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, 1.0f);
    }
    ImGui::SetNextItemWidth(em(7));
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
    const std::optional<double> value = parse_typed_number(typed.text);
    if (!value) {
        typed.error = "\"" + typed.text + "\" is not a number; expected a number from " + format_number(min) + " to " + format_number(max);
        return false;
    }
    if (*value < min || *value > max) {
        typed.error = "\"" + typed.text + "\" is out of range; expected a number from " + format_number(min) + " to " + format_number(max);
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

bool edit_choice(AppState& state, nlohmann::json& section, const char* key, const char* label, const std::vector<std::string>& options,
                 const std::string& fallback, std::string (*words)(const std::string&)) {
    const std::string current = json_string(find_json(section, {key}), fallback);
    const auto shown = [&](const std::string& o) { return words ? words(o) : o; };
    bool changed = false;
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
