// api.cpp — the JS API: the planning core alone (no ImGui, SDL or WebGL), for pages that want
// numbers without a canvas. Documented in docs/js-api.md.
//
// Each exported function takes and returns UTF-8 JSON text; web/api/api_post.js wraps them
// into the global `GpuplanApi` (load → evaluate / catalog / explain / version). Errors never
// cross the boundary as C++ exceptions: every call returns an envelope,
//   {"ok": true, "value": ...}   or   {"ok": false, "error": "<InputError message>"},
// and the JS side turns the second into `throw new Error(message)`.
#include <emscripten.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <new>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/explain.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/json_reader.hpp"
#include "gpuplan/scenario/scenario_result.hpp"

namespace {

using nlohmann::json;

// The built-in catalog, parsed once on first use (about 500 KB of JSON), with today's date
// (UTC) to flag prices older than 180 days, as the CLI does.
const gpuplan::Catalog& catalog() {
    static const gpuplan::Catalog parsed = [] {
        gpuplan::Catalog c = gpuplan::load_builtin_catalog();
        c.today = gpuplan::utc_date(static_cast<std::int64_t>(std::time(nullptr)));
        return c;
    }();
    return parsed;
}

// The returned text is malloc'd; the JS wrapper reads it and calls gpuplan_api_free.
char* to_c_string(const std::string& text) {
    char* out = static_cast<char*>(std::malloc(text.size() + 1));
    if (out != nullptr) std::memcpy(out, text.c_str(), text.size() + 1);
    return out;
}

template <typename Body>
char* envelope(Body body) {
    json reply;
    try {
        reply = {{"ok", true}, {"value", body()}};
    } catch (const gpuplan::InputError& e) {
        reply = {{"ok", false}, {"error", e.what()}};
    } catch (const json::exception& e) {
        reply = {{"ok", false}, {"error", std::string("bad JSON: ") + e.what()}};
    } catch (const std::bad_alloc&) {
        reply = {{"ok", false}, {"error", "out of memory"}};
    } catch (const std::exception& e) {
        reply = {{"ok", false}, {"error", std::string("internal error (please report): ") + e.what()}};
    }
    return to_c_string(reply.dump());
}

// A JSON path into a result document, in either spelling:
//   "$.fleet.figures.total_cost_usd", "$.price.options[2].figures.effective_usd_per_hour"
//   or a JSON pointer "/fleet/figures/total_cost_usd".
// The two spellings parse_path takes, as a refusal names them.
constexpr const char* kPathForms = "a JSON path like $.fleet.figures.total_cost_usd or a JSON pointer like /fleet/figures/total_cost_usd";

json::json_pointer parse_path(const std::string& path) {
    if (path.empty() || path == "$") return json::json_pointer("");
    if (path[0] == '/') return json::json_pointer(path);  // throws json::parse_error on "~" misuse
    if (path[0] != '$') throw gpuplan::InputError("path", "'" + path + "'", kPathForms);
    std::string pointer;
    std::size_t k = 1;
    while (k < path.size()) {
        if (path[k] == '.') {
            const std::size_t end = path.find_first_of(".[", k + 1);
            std::string key = path.substr(k + 1, end == std::string::npos ? std::string::npos : end - k - 1);
            if (key.empty()) throw gpuplan::InputError("path", "'" + path + "'", "a name after each '.' (at character " + std::to_string(k) + ")");
            // JSON pointer escapes: ~ → ~0, / → ~1 (RFC 6901).
            std::string escaped;
            for (char c : key) escaped += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
            pointer += "/" + escaped;
            k = end == std::string::npos ? path.size() : end;
        } else if (path[k] == '[') {
            const std::size_t close = path.find(']', k);
            const std::string index = close == std::string::npos ? "" : path.substr(k + 1, close - k - 1);
            if (index.empty() || index.find_first_not_of("0123456789") != std::string::npos)
                throw gpuplan::InputError("path", "'" + path + "'", "a non-negative index in [...] (at character " + std::to_string(k) + ")");
            pointer += "/" + index;
            k = close + 1;
        } else {
            throw gpuplan::InputError("path", "'" + path + "'", "'.' or '[' at character " + std::to_string(k));
        }
    }
    return json::json_pointer(pointer);
}

// "formula: ...\nworked:  ... unit\ninputs:\n  name = value unit (origin: source)" — the same
// facts the CLI's --explain prints, from a figure object of a gpuplan.result/1 document.
std::string explain_text(const json& figure, const std::string& path) {
    if (!figure.is_object() || !figure.contains("explain") || !figure.contains("value"))
        throw gpuplan::InputError("path", "'" + path + "'", "the path of a figure (an object with value, unit and explain) in the result");
    const json& e = figure.at("explain");
    const std::string unit = figure.value("unit", "");
    std::string out;
    if (!e.value("formula", "").empty()) out += "formula: " + e.value("formula", "") + "\n";
    if (figure.at("value").is_number())
        out += "worked:  " + e.value("worked", "") + (unit.empty() ? "" : " " + unit) + "\n";
    else
        out += "unknown: " + figure.value("unknown", "") + "\n";
    if (e.contains("inputs") && !e.at("inputs").empty()) {
        out += "inputs:\n";
        for (const json& i : e.at("inputs")) {
            const std::string iu = i.value("unit", ""), src = i.value("source", "");
            out += "  " + i.value("name", "") + " = " + gpuplan::format_number(i.value("value", 0.0)) +
                   (iu.empty() ? "" : " " + iu) + " (" + i.value("origin", "") + (src.empty() ? "" : ": " + src) + ")\n";
        }
    }
    return out;
}

}  // namespace

extern "C" {

// evaluate(scenario JSON text, origin) → gpuplan.result/1, exactly what `gpuplan eval FILE`
// prints when `origin` is FILE (the origin names the scenario in errors and in the sources of
// figures fitted to its measurements).
EMSCRIPTEN_KEEPALIVE char* gpuplan_api_evaluate(const char* scenario_text, const char* origin) {
    return envelope([&] {
        const gpuplan::Scenario scenario = gpuplan::parse_scenario(scenario_text, origin, catalog());
        return gpuplan::evaluate_scenario(scenario, catalog());
    });
}

// catalog() → {schema, sources, instances, accelerators}: the built-in catalog documents as
// published (unknown facts stay null with their reason), after validating them once.
EMSCRIPTEN_KEEPALIVE char* gpuplan_api_catalog() {
    return envelope([] {
        (void)catalog();  // the documents are only handed out once they have passed validation
        json merged = {{"schema", "gpuplan.catalog/1"}, {"sources", json::object()}, {"instances", json::array()}, {"accelerators", json::array()}};
        for (const auto& document : gpuplan::builtin_catalog_documents()) {
            const json parsed = json::parse(document.text);
            for (const char* list : {"instances", "accelerators"})
                if (parsed.contains(list))
                    for (const json& record : parsed.at(list)) merged[list].push_back(record);
            if (parsed.contains("sources")) merged["sources"].update(parsed.at("sources"));
        }
        return merged;
    });
}

// explain(result JSON text, path) → the figure's formula, worked line and inputs as text.
EMSCRIPTEN_KEEPALIVE char* gpuplan_api_explain(const char* result_text, const char* path) {
    return envelope([&] {
        // The result is read as the CLI reads a file: a parse error names its line and column,
        // not nlohmann's exception text (issue 34).
        const json result = gpuplan::parse_json_document(result_text, "result");
        const std::string where = path;
        const json* figure = nullptr;
        try {
            const json::json_pointer pointer = parse_path(where);
            if (result.contains(pointer)) figure = &result.at(pointer);
        } catch (const json::exception&) {  // "~2", "/a~", an index with a leading zero: RFC 6901's rules
            throw gpuplan::InputError("path", "'" + where + "'", std::string(kPathForms) + " (~0 for ~, ~1 for /, indexes without leading zeros)");
        }
        if (!figure) throw gpuplan::InputError("path", "'" + where + "'", "a path that exists in the result");
        return json(explain_text(*figure, where));
    });
}

EMSCRIPTEN_KEEPALIVE const char* gpuplan_api_version() { return GPUPLAN_VERSION; }

// The largest argument the calls take (kMaxInputBytes, as for a file): api_post.js refuses a
// longer one before copying it into wasm memory (issue 34, P1: a 200 MiB string was copied,
// then refused).
EMSCRIPTEN_KEEPALIVE std::size_t gpuplan_api_max_input_bytes() { return gpuplan::kMaxInputBytes; }

EMSCRIPTEN_KEEPALIVE void gpuplan_api_free(char* text) { std::free(text); }

}  // extern "C"
