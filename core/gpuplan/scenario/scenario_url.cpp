#include "gpuplan/scenario/scenario_url.hpp"

#include <array>

#include "gpuplan/json_duplicate_keys.hpp"
#include "gpuplan/json_reader.hpp"

namespace gpuplan {

namespace {

constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const std::string kOrigin(kScenarioUrlOrigin);
const std::string kExpectedText = "base64url text (A-Z, a-z, 0-9, '-', '_'; no '=' padding) as the app writes it";

// 0..63 for an alphabet character, -1 otherwise.
constexpr std::array<int, 256> make_table() {
    std::array<int, 256> table{};
    for (auto& v : table) v = -1;
    for (std::size_t k = 0; k < kAlphabet.size(); ++k) table[static_cast<unsigned char>(kAlphabet[k])] = static_cast<int>(k);
    return table;
}
constexpr std::array<int, 256> kTable = make_table();

// A character for a message: printable ASCII as itself, anything else as its byte value.
std::string shown(char c) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x21 && u < 0x7f) return std::string("'") + c + "'";
    return "byte 0x" + std::string(1, "0123456789abcdef"[u >> 4]) + "0123456789abcdef"[u & 15];
}

}  // namespace

std::string base64url_encode(std::string_view bytes) {
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t k = 0;
    for (; k + 3 <= bytes.size(); k += 3) {
        const unsigned v = (static_cast<unsigned char>(bytes[k]) << 16) | (static_cast<unsigned char>(bytes[k + 1]) << 8) |
                           static_cast<unsigned char>(bytes[k + 2]);
        for (int shift : {18, 12, 6, 0}) out += kAlphabet[(v >> shift) & 63];
    }
    const std::size_t rest = bytes.size() - k;
    if (rest == 1) {
        const unsigned v = static_cast<unsigned char>(bytes[k]) << 16;
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
    } else if (rest == 2) {
        const unsigned v = (static_cast<unsigned char>(bytes[k]) << 16) | (static_cast<unsigned char>(bytes[k + 1]) << 8);
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += kAlphabet[(v >> 6) & 63];
    }
    return out;
}

std::string base64url_decode(std::string_view text) {
    if (text.size() > kMaxScenarioParamChars)
        throw InputError(kOrigin, std::to_string(text.size()) + " characters",
                         "at most " + std::to_string(kMaxScenarioParamChars) + " characters (16 MiB of JSON)");
    for (std::size_t k = 0; k < text.size(); ++k)
        if (kTable[static_cast<unsigned char>(text[k])] < 0)
            throw InputError(kOrigin, shown(text[k]) + " at offset " + std::to_string(k), kExpectedText);
    // Groups of 4 characters carry 3 bytes; a tail of 2 or 3 characters carries 1 or 2. A tail
    // of 1 carries no whole byte: the link was cut short.
    if (text.size() % 4 == 1)
        throw InputError(kOrigin, std::to_string(text.size()) + " characters (one past a whole group of 4)",
                         "complete " + kExpectedText + "; was the link cut short?");
    std::string out;
    out.reserve(text.size() / 4 * 3 + 2);
    unsigned acc = 0;
    int bits = 0;
    for (const char c : text) {
        acc = (acc << 6) | static_cast<unsigned>(kTable[static_cast<unsigned char>(c)]);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((acc >> bits) & 0xff);
        }
        acc &= (1u << bits) - 1;  // keep only the bits not yet written
    }
    // The last character's unused low bits must be zero, so each text has one decoding and
    // each decoding one text (the encoder never writes anything else).
    if (acc != 0)
        throw InputError(kOrigin, shown(text.back()) + " at offset " + std::to_string(text.size() - 1) + " (stray low bits)",
                         kExpectedText);
    return out;
}

std::string encode_scenario_param(const nlohmann::json& scenario) {
    if (!scenario.is_object()) throw InputError(kOrigin, json_preview(scenario), "a JSON object");
    const std::string text = scenario.dump();
    if (text.size() > kMaxInputBytes)
        throw InputError(kOrigin, std::to_string(text.size()) + " bytes of JSON", "at most " + std::to_string(kMaxInputBytes) + " bytes");
    return base64url_encode(text);
}

nlohmann::json decode_scenario_param(std::string_view param) {
    if (param.empty()) throw InputError(kOrigin, "an empty value", "a scenario as " + kExpectedText);
    const std::string text = base64url_decode(param);
    check_json_depth(text, kOrigin);
    nlohmann::json doc = parse_json_refusing_duplicate_keys(text, kOrigin);
    if (doc.is_discarded()) {
        std::string where = "a JSON error";
        std::string detail = "malformed JSON";
        try {
            const nlohmann::json parsed = nlohmann::json::parse(text);  // throws: the text failed above
            (void)parsed;
        } catch (const nlohmann::json::parse_error& e) {
            where += " at byte " + std::to_string(e.byte) + " of the decoded text";
            detail = e.what();
            // nlohmann writes "[json.exception.parse_error.101] parse error at line 1, column 5: what".
            if (auto pos = detail.find(": "); pos != std::string::npos) detail = detail.substr(pos + 2);
        } catch (const nlohmann::json::out_of_range& e) {
            // 406 "number overflow parsing '1e400'": valid JSON, but no double holds it.
            std::string what = e.what();
            if (auto pos = what.find("parsing "); pos != std::string::npos) what = what.substr(pos + 8);
            if (what.size() > 40) what = what.substr(0, 37) + "...";
            throw InputError(kOrigin, "the number " + what + " in the decoded text", kDoubleRange);
        }
        if (detail.size() > 160) detail = detail.substr(0, 157) + "...";
        throw InputError(kOrigin, where + " (" + detail + ")", "a scenario JSON object");
    }
    if (!doc.is_object()) throw InputError(kOrigin, json_preview(doc), "a scenario JSON object");
    check_json_sizes(doc, kOrigin);
    return doc;
}

}  // namespace gpuplan
