// fuzz_scenario — the scenario parser (JSON form) and evaluation, against the built-in catalog.
//
// Round trip: a scenario that parses is re-serialised (nlohmann dump, indented) and parsed
// again; both must be accepted and evaluate to the same gpuplan.result/1 document, and the URL
// form of it must decode to the same JSON. Every number in a result must be finite.
#include <cstdint>

#include "fuzz_common.hpp"
#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/scenario/scenario_result.hpp"
#include "gpuplan/scenario/scenario_url.hpp"

using namespace gpuplan;

namespace {

// The result of a parsed scenario, or the InputError its evaluation gave (also an answer).
std::string outcome(const Scenario& scenario, const Catalog& catalog) {
    try {
        const nlohmann::json result = evaluate_scenario(scenario, catalog);
        fuzz::require_finite(result);
        return result.dump();
    } catch (const InputError& e) {
        return std::string("InputError: ") + e.what();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const Catalog catalog = load_builtin_catalog();
    const std::string_view text = fuzz::as_text(data, size);
    Scenario scenario;
    try {
        scenario = parse_scenario(text, "fuzz.json", catalog);
    } catch (const InputError&) {
        return 0;  // refused with a message: the expected answer to bad input
    }
    // Issue 34's strictness on what was accepted: no key given twice, at most 100 fleet tiers.
    fuzz::require_no_duplicate_keys(text);
    if (const nlohmann::json parsed = nlohmann::json::parse(text); parsed.contains("fleet") && parsed["fleet"].is_object() &&
                                                                  parsed["fleet"].contains("tiers") && parsed["fleet"]["tiers"].size() > 100)
        fuzz::finding("accepted a fleet of more than 100 tiers");
    const std::string first = outcome(scenario, catalog);

    // Accepted, so it is JSON: the same document written differently must mean the same.
    const nlohmann::json doc = nlohmann::json::parse(text);
    const std::string rewritten = doc.dump(2);
    Scenario again;
    try {
        again = parse_scenario(rewritten, "fuzz.json", catalog);
    } catch (const InputError& e) {
        fuzz::finding("scenario accepted, its re-serialised form refused", e.what());
    }
    if (const std::string second = outcome(again, catalog); second != first)
        fuzz::finding("scenario and its re-serialised form evaluate differently", first + "\n---\n" + second);

    if (decode_scenario_param(encode_scenario_param(doc)) != doc) fuzz::finding("URL round trip changed the scenario", rewritten);
    return 0;
}
