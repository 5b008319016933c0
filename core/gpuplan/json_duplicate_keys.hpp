// json_duplicate_keys.hpp — a key given twice in one JSON object is refused, never
// last-one-wins (nlohmann keeps the last, so `"hours": 730, "hours": 1` priced 1 hour).
// parse_json_document (json_reader.hpp) uses it; so does every reader that parses JSON text on
// its own (usage histories, the scenario in a link). Defined in json_reader.cpp.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace gpuplan {

// nlohmann::json::parse(text, nullptr, false), but a key given twice in one object throws
// InputError("ORIGIN: $.path", "the key \"k\" given twice in one object", ...). Malformed
// text gives a discarded value, as the non-throwing parse does. Linear in the text.
nlohmann::json parse_json_refusing_duplicate_keys(std::string_view text, const std::string& origin);

}  // namespace gpuplan
