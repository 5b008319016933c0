// view_common.cpp — scenario-editing helpers shared by the views (view_common.hpp).
#include "ui/views/view_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

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

bool edit_number(AppState& state, nlohmann::json& section, const char* key, const char* label, double fallback, double min,
                 double max, const char* format) {
    const auto current = json_number(find_json(section, {key}));
    double value = current.value_or(fallback);
    ImGui::SetNextItemWidth(em(9));
    bool changed = false;
    // InputDouble commits on Enter or when the field loses focus, so a half-typed number is
    // never evaluated (and never written to the URL).
    if (ImGui::InputDouble(label, &value, 0, 0, format, ImGuiInputTextFlags_EnterReturnsTrue) ||
        ImGui::IsItemDeactivatedAfterEdit()) {
        value = std::clamp(value, min, max);
        if (!current || *current != value) {
            section[key] = number_json(value);
            scenario_edited(state);
            changed = true;
        }
    }
    return changed;
}

bool edit_choice(AppState& state, nlohmann::json& section, const char* key, const char* label, const std::vector<std::string>& options,
                 const std::string& fallback, std::string (*words)(const std::string&)) {
    const std::string current = json_string(find_json(section, {key}), fallback);
    const auto shown = [&](const std::string& o) { return words ? words(o) : o; };
    bool changed = false;
    ImGui::SetNextItemWidth(em(11));
    if (ImGui::BeginCombo(label, shown(current).c_str())) {
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
