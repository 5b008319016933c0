// The URL codec: RFC 4648 test vectors for base64url, the round trip over every built-in
// scenario, and each refusal with its message (docs/errors.md).
#include <catch2/catch.hpp>

#include <string>

#include "gpuplan/input_error.hpp"
#include "gpuplan/json_reader.hpp"
#include "gpuplan/scenario/scenario.hpp"
#include "gpuplan/scenario/scenario_url.hpp"

using namespace gpuplan;

namespace {

std::string decode_error(const std::string& param) {
    try {
        (void)decode_scenario_param(param);
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("base64url matches the RFC 4648 test vectors, without padding", "[url]") {
    // RFC 4648 §10 vectors (standard alphabet; these contain no '+' or '/', padding dropped).
    CHECK(base64url_encode("") == "");
    CHECK(base64url_encode("f") == "Zg");
    CHECK(base64url_encode("fo") == "Zm8");
    CHECK(base64url_encode("foo") == "Zm9v");
    CHECK(base64url_encode("foob") == "Zm9vYg");
    CHECK(base64url_encode("fooba") == "Zm9vYmE");
    CHECK(base64url_encode("foobar") == "Zm9vYmFy");
    CHECK(base64url_decode("Zm9vYmE") == "fooba");
    // The URL-safe alphabet: bytes fb ff bf are "+/+/" in standard base64, "-_-_" here.
    CHECK(base64url_encode("\xfb\xff\xbf") == "-_-_");
    CHECK(base64url_decode("-_-_") == "\xfb\xff\xbf");
}

TEST_CASE("every built-in scenario survives encode then decode unchanged", "[url]") {
    for (const auto& doc : builtin_scenario_documents()) {
        INFO(doc.origin);
        const nlohmann::json scenario = nlohmann::json::parse(doc.text);
        const std::string param = encode_scenario_param(scenario);
        CHECK(param.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") == std::string::npos);
        CHECK(decode_scenario_param(param) == scenario);
        // Minified: the text is exactly 4/3 of dump() rounded up, no whitespace carried.
        CHECK(param.size() == (scenario.dump().size() * 4 + 2) / 3);
    }
}

TEST_CASE("unicode and escapes survive the round trip", "[url]") {
    const nlohmann::json scenario = {{"name", "Grüße \"quoted\" \\ / 東京 \u0001"}, {"region", "eu-central-1"}};
    CHECK(decode_scenario_param(encode_scenario_param(scenario)) == scenario);
}

TEST_CASE("decode refuses what is not base64url, naming the offset", "[url]") {
    CHECK(decode_error("") == "scenario (URL): got an empty value; expected a scenario as base64url text (A-Z, a-z, 0-9, '-', '_'; no '=' padding) as the app writes it");
    CHECK(decode_error("eyJh%22") == "scenario (URL): got '%' at offset 4; expected base64url text (A-Z, a-z, 0-9, '-', '_'; no '=' padding) as the app writes it");
    CHECK(decode_error("e30=") == "scenario (URL): got '=' at offset 3; expected base64url text (A-Z, a-z, 0-9, '-', '_'; no '=' padding) as the app writes it");
    CHECK(decode_error("e3 0") == "scenario (URL): got byte 0x20 at offset 2; expected base64url text (A-Z, a-z, 0-9, '-', '_'; no '=' padding) as the app writes it");
    // Standard base64's '+' is not URL-safe (it reads as a space in a query).
    CHECK(decode_error("e3+9") == "scenario (URL): got '+' at offset 2; expected base64url text (A-Z, a-z, 0-9, '-', '_'; no '=' padding) as the app writes it");
    CHECK(decode_error("e30Ze") == "scenario (URL): got 5 characters (one past a whole group of 4); expected complete base64url text (A-Z, a-z, 0-9, '-', '_'; no '=' padding) as the app writes it; was the link cut short?");
    // "e31" decodes "{}" but its last character carries a stray 1 bit: "e30" is the encoding.
    CHECK(decode_error("e31") == "scenario (URL): got '1' at offset 2 (stray low bits); expected base64url text (A-Z, a-z, 0-9, '-', '_'; no '=' padding) as the app writes it");
    CHECK(decode_scenario_param("e30") == nlohmann::json::object());
}

TEST_CASE("decode refuses JSON that is broken, not an object, or over the limits", "[url]") {
    // '{"a":}': the parser stops at the '}', byte 6 counting from 1 as nlohmann does.
    CHECK(decode_error(base64url_encode("{\"a\":}")) ==
          "scenario (URL): got a JSON error at byte 6 of the decoded text (syntax error while parsing value - unexpected '}'; "
          "expected '[', '{', or a literal); expected a scenario JSON object");
    CHECK(decode_error(base64url_encode("[1,2]")) == "scenario (URL): got [1,2]; expected a scenario JSON object");
    CHECK(decode_error(base64url_encode("{\"a\":NaN}")).find("scenario (URL): got a JSON error at byte 6") == 0);
    const std::string deep = std::string(40, '[') + std::string(40, ']');
    CHECK(decode_error(base64url_encode("{\"a\":" + deep + "}")) ==
          "scenario (URL): got arrays/objects nested more than 32 deep (at byte 37); expected at most 32 levels of nesting");
    const std::string long_name = "{\"name\":\"" + std::string(kMaxJsonStringBytes + 1, 'x') + "\"}";
    CHECK(decode_error(base64url_encode(long_name)) ==
          "scenario (URL): $.name: got a string of 65537 bytes; expected at most 65536 bytes per string");
    CHECK(decode_error(std::string(kMaxScenarioParamChars + 4, 'A')) ==
          "scenario (URL): got " + std::to_string(kMaxScenarioParamChars + 4) + " characters; expected at most " +
              std::to_string(kMaxScenarioParamChars) + " characters (16 MiB of JSON)");
}

TEST_CASE("encode refuses what is not an object", "[url]") {
    CHECK_THROWS_AS(encode_scenario_param(nlohmann::json::array()), InputError);
}

TEST_CASE("a number too large for a double is a JSON error, not a crash", "[url]") {
    // Found by fuzz_scenario: nlohmann reports it as out_of_range, not as a parse_error.
    CHECK(decode_error(base64url_encode("{\"hours\":8761e308}")) ==
          "scenario (URL): got the number '8761e308' in the decoded text; expected a number a double can hold (magnitude below 1.8e308)");
}

TEST_CASE("a link whose scenario gives a key twice is refused with the key's path", "[url]") {
    const std::string param = base64url_encode(R"({"schema": "gpuplan.scenario/1", "price": {"instance": "p5.48xlarge", "hours": 730, "hours": 1}})");
    CHECK(decode_error(param).find("$.price.hours: got the key \"hours\" given twice in one object") != std::string::npos);
}
