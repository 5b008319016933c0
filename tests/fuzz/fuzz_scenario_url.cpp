// fuzz_scenario_url — the URL form of a scenario (scenario_url.hpp), both directions.
//
// The input is tried as a URL parameter: an accepted one must be the one canonical encoding of
// its bytes (base64url re-encoding gives the same text) and its JSON must survive
// decode(encode(x)) == x. The input is also tried as JSON text: any object must survive the
// same round trip.
#include <cstdint>

#include "fuzz_common.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/scenario/scenario_url.hpp"

using namespace gpuplan;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = fuzz::as_text(data, size);

    try {
        const nlohmann::json doc = decode_scenario_param(text);
        if (base64url_encode(base64url_decode(text)) != text) fuzz::finding("accepted a non-canonical base64url text");
        if (decode_scenario_param(encode_scenario_param(doc)) != doc) fuzz::finding("decode(encode(x)) != x", doc.dump());
    } catch (const InputError&) {
        // refused with a message
    }

    const nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (doc.is_object()) {
        try {
            const std::string param = encode_scenario_param(doc);
            if (decode_scenario_param(param) != doc) fuzz::finding("decode(encode(x)) != x for JSON input", doc.dump());
        } catch (const InputError&) {
            // over a JSON limit (depth, string length): refused on decode, by design
        }
    }
    return 0;
}
