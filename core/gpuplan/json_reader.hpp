// json_reader.hpp — strict, path-aware reading of JSON documents.
//
// Every document gpuplan reads (catalog, scenario, bench results) goes through ObjectReader,
// so every error names the JSON path, the value and what was expected, and unknown keys are
// rejected instead of silently ignored (a typo such as "hour" for "hours" must not fall back
// to a default).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/input_error.hpp"

namespace gpuplan {

using Json = nlohmann::json;

// Limits every JSON document is held to before any reader sees it (docs/reliability.md).
// The largest real documents use depth 6, strings of ~500 bytes and arrays of ~70 items, so
// these leave ample room while keeping a hostile document from costing gigabytes of memory
// (16 MiB of "[" parses into 16 million nested arrays) or deep recursion in the readers.
inline constexpr int kMaxJsonDepth = 32;                        // nested arrays/objects
inline constexpr std::size_t kMaxJsonStringBytes = 64u * 1024u; // one string or key, UTF-8 bytes
inline constexpr std::size_t kMaxJsonArrayItems = 100000;       // items in one array

// What a number too large for a double was expected to be (errors of both parsers).
inline constexpr const char* kDoubleRange = "a number a double can hold (magnitude below 1.8e308)";

// Parses one JSON document. Refuses empty text, text over kMaxInputBytes, malformed JSON
// (NaN and Infinity are not JSON and are refused by the parser), nesting deeper than
// kMaxJsonDepth, strings over kMaxJsonStringBytes and arrays over kMaxJsonArrayItems,
// naming `origin` in the error.
Json parse_json_document(std::string_view text, const std::string& origin);

// The nesting check alone, on the text before parsing (used by parse_json_document and the
// URL codec): throws InputError naming `origin` and the byte offset where the limit is passed.
void check_json_depth(std::string_view text, const std::string& origin);
// The string and array limits on a parsed value; errors name origin and the JSON path.
void check_json_sizes(const Json& value, const std::string& origin);

// The value as JSON text, shortened to at most 60 characters for error messages.
std::string json_preview(const Json& value);

enum class NumberRule {
    finite,        // any finite number
    non_negative,  // >= 0
    positive,      // > 0
    fraction,      // 0 <= x <= 1
    discount,      // 0 <= x < 1 (a 100% discount is not a price)
};

// Checks that `value` is a number obeying `rule`; returns it or throws InputError at `path`.
double read_number(const Json& value, const std::string& path, NumberRule rule);

class ObjectReader {
public:
    ObjectReader(const Json& object, std::string path);

    const std::string& path() const { return path_; }
    std::string child_path(std::string_view key) const;
    bool has(const char* key) const { return object_->contains(key); }

    // Required values: a missing key is an error.
    const Json& value(const char* key);
    std::string string(const char* key);
    // A name others are matched against (an instance type, a region, a model): a non-empty string
    // with no space at either end and no control character, so "p5.48xlarge\n" cannot become a
    // second type beside "p5.48xlarge" (issue 34).
    std::string name(const char* key);
    double number(const char* key, NumberRule rule);
    std::int64_t integer(const char* key, std::int64_t min_value);
    bool boolean(const char* key);
    ObjectReader object(const char* key);
    const Json& array(const char* key);

    // Optional values: absent gives std::nullopt (or nullptr).
    const Json* optional_value(const char* key);
    std::optional<std::string> optional_string(const char* key);
    std::optional<double> optional_number(const char* key, NumberRule rule);

    // An optional array of strings: absent gives an empty list.
    std::vector<std::string> optional_string_list(const char* key);

    // A required key whose value may be null (unknown). Null gives std::nullopt.
    std::optional<double> nullable_number(const char* key, NumberRule rule);

    // Rejects keys that were never read: call once all known keys have been read.
    void finish() const;

private:
    const Json& require(const char* key);

    const Json* object_;
    std::string path_;
    void mark_read(const char* key);
    bool was_read(std::string_view key) const;
    // The keys read so far, once each. A list, not a set: an object has a few dozen keys at
    // most, and loading the catalog reads ~10,000 of them (docs/performance.md).
    std::vector<std::string> read_keys_;
};

// "$.a.b" + index → "$.a.b[3]"
std::string index_path(const std::string& array_path, std::size_t index);

}  // namespace gpuplan
