// json_duplicate_keys.hpp — a key given twice in one JSON object is refused, never
// last-one-wins (nlohmann keeps the last, so `"hours": 730, "hours": 1` priced 1 hour).
// parse_json_document (json_reader.hpp) uses it; so does every reader that parses JSON text on
// its own (usage histories, the scenario in a link). Defined in json_reader.cpp.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace gpuplan {

// A parser callback for nlohmann::json::parse that throws InputError("ORIGIN: $.path", "the key
// \"k\" given twice in one object", ...) at the second occurrence.
nlohmann::json::parser_callback_t refuse_duplicate_keys(const std::string& origin);

}  // namespace gpuplan
