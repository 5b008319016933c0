// scenario_url.hpp — the scenario as one URL query value (`?scenario=<text>`), and back.
//
// A shared link must reproduce exactly the scenario its author saw, so the codec is lossless
// and boring: the scenario JSON minified (nlohmann's dump(), no spaces), then base64url
// (RFC 4648 §5: A-Z a-z 0-9 '-' '_') without '=' padding, so the text needs no
// percent-encoding in a URL. No compression: scenarios are a few hundred bytes, and a
// compressed link could not be read by eye or repaired by hand.
//
// Decoding is strict, because the text comes from strangers: only the base64url alphabet,
// no padding, no stray bits in the last character (each document has exactly one encoding),
// at most kMaxScenarioParamChars characters, and the decoded text must be one JSON object
// within the JSON limits of json_reader.hpp (kMaxInputBytes, kMaxJsonDepth). Errors are
// InputError naming "scenario (URL)", the offending character or byte offset and what was
// expected. Validation of the scenario's contents is parse_scenario's job, not the codec's.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "gpuplan/input_error.hpp"

namespace gpuplan {

// Where URL errors point: the user pasted a link, not a file with a JSON path.
inline constexpr std::string_view kScenarioUrlOrigin = "scenario (URL)";

// The longest parameter accepted: the base64url length of kMaxInputBytes of JSON.
inline constexpr std::size_t kMaxScenarioParamChars = (kMaxInputBytes / 3) * 4 + 4;

// Minified JSON, then base64url without padding. Throws InputError if the document is not
// an object or its JSON text exceeds kMaxInputBytes (nothing a user could paste back).
std::string encode_scenario_param(const nlohmann::json& scenario);

// The JSON object the parameter encodes. Throws InputError naming "scenario (URL)".
nlohmann::json decode_scenario_param(std::string_view param);

// The base64url layer alone (exposed for tests and the fuzzer).
std::string base64url_encode(std::string_view bytes);
std::string base64url_decode(std::string_view text);  // throws InputError as above

}  // namespace gpuplan
