#include "gpuplan/json_reader.hpp"
#include "gpuplan/json_duplicate_keys.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <utility>
#include <vector>

namespace gpuplan {

void check_json_depth(std::string_view text, const std::string& origin) {
    // Brackets outside strings; the scan needs no valid JSON (the parser judges that next).
    // Bytes are counted from 1, as nlohmann's parse errors count them.
    int depth = 0;
    bool in_string = false;
    for (std::size_t k = 0; k < text.size(); ++k) {
        const char c = text[k];
        if (in_string) {
            if (c == '\\') ++k;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth)
                throw InputError(origin, "arrays/objects nested more than " + std::to_string(kMaxJsonDepth) + " deep (at byte " +
                                             std::to_string(k + 1) + ")",
                                 "at most " + std::to_string(kMaxJsonDepth) + " levels of nesting");
        } else if (c == ']' || c == '}') {
            if (depth > 0) --depth;
        }
    }
}

namespace {

// The number text of nlohmann's "number overflow parsing '1e400'" (out_of_range 406).
std::string overflowing_number(const Json::out_of_range& e) {
    const std::string what = e.what();
    const auto open = what.find('\''), close = what.rfind('\'');
    std::string number = (open != std::string::npos && close > open) ? what.substr(open + 1, close - open - 1) : "?";
    if (number.size() > 40) number = number.substr(0, 37) + "...";
    return number;
}

// Whether every string, key and array is within the limits: walked without building paths,
// which check_sizes_at then builds only for the document that breaks one.
bool sizes_within_limits(const Json& value) {
    if (value.is_string()) return value.get_ref<const std::string&>().size() <= kMaxJsonStringBytes;
    if (value.is_array()) {
        if (value.size() > kMaxJsonArrayItems) return false;
        for (const Json& item : value)
            if (!sizes_within_limits(item)) return false;
    } else if (value.is_object()) {
        for (const auto& [key, item] : value.items())
            if (key.size() > kMaxJsonStringBytes || !sizes_within_limits(item)) return false;
    }
    return true;
}

void check_sizes_at(const Json& value, const std::string& origin, const std::string& path) {
    const auto too_long = [&](const std::string& where, std::size_t bytes) {
        throw InputError(origin + ": " + where, "a string of " + std::to_string(bytes) + " bytes",
                         "at most " + std::to_string(kMaxJsonStringBytes) + " bytes per string");
    };
    if (value.is_string()) {
        if (const auto n = value.get_ref<const std::string&>().size(); n > kMaxJsonStringBytes) too_long(path, n);
    } else if (value.is_array()) {
        if (value.size() > kMaxJsonArrayItems)
            throw InputError(origin + ": " + path, "an array of " + std::to_string(value.size()) + " items",
                             "at most " + std::to_string(kMaxJsonArrayItems) + " items per array");
        for (std::size_t k = 0; k < value.size(); ++k) check_sizes_at(value[k], origin, index_path(path, k));
    } else if (value.is_object()) {
        for (const auto& [key, item] : value.items()) {
            if (key.size() > kMaxJsonStringBytes) too_long(path + " (a key)", key.size());
            check_sizes_at(item, origin, path + "." + key);
        }
    }
}

// Builds the document and refuses a key given twice in one object. JSON (RFC 8259 §4) leaves
// duplicates undefined and nlohmann keeps the last, so `"hours": 730, "hours": 1` would silently
// price 1 hour. A SAX handler: every event goes to nlohmann's own DOM builder, and the frames
// track where the parser is, so the refusal names the JSON path. (Not nlohmann's parser
// callback: after each object it searches the enclosing array for discarded values, so an
// array of 100,000 objects took minutes - issue 34, P1.)
class DomRefusingDuplicateKeys {
public:
    DomRefusingDuplicateKeys(Json& result, std::string origin) : dom_(result, /*allow_exceptions=*/false), origin_(std::move(origin)) {}
    bool errored() const { return dom_.is_errored(); }

    bool null() {
        value();
        return dom_.null();
    }
    bool boolean(bool v) {
        value();
        return dom_.boolean(v);
    }
    bool number_integer(Json::number_integer_t v) {
        value();
        return dom_.number_integer(v);
    }
    bool number_unsigned(Json::number_unsigned_t v) {
        value();
        return dom_.number_unsigned(v);
    }
    bool number_float(Json::number_float_t v, const Json::string_t& text) {
        value();
        return dom_.number_float(v, text);
    }
    bool string(Json::string_t& v) {
        value();
        return dom_.string(v);
    }
    bool binary(Json::binary_t& v) {
        value();
        return dom_.binary(v);
    }
    bool start_object(std::size_t n) {
        open(true);
        return dom_.start_object(n);
    }
    bool start_array(std::size_t n) {
        open(false);
        return dom_.start_array(n);
    }
    bool end_object() {
        close();
        return dom_.end_object();
    }
    bool end_array() {
        close();
        return dom_.end_array();
    }
    bool key(Json::string_t& k) {
        Frame& f = frames_.back();
        f.key = k;
        if (!f.add_key(k))
            throw InputError(origin_ + ": " + path(), "the key \"" + k + "\" given twice in one object",
                             "each key once (the second would silently replace the first)");
        return dom_.key(k);
    }
    template <class Exception>
    bool parse_error(std::size_t position, const std::string& token, const Exception& e) {
        return dom_.parse_error(position, token, e);
    }

private:
    struct Frame {
        bool object = false;
        // An object's keys so far: a short list searched in place (most objects have a few
        // keys, and a catalog has thousands of objects), a set once the object grows (an
        // object of 100,000 keys must stay linear; issue 34, P1).
        std::vector<std::string> few_keys;
        std::set<std::string> many_keys;
        std::string key;             // an object's current key
        long index = -1;             // an array's current item

        bool add_key(const std::string& k) {  // false: given before in this object
            static constexpr std::size_t kFew = 32;
            if (few_keys.size() < kFew) {
                if (std::find(few_keys.begin(), few_keys.end(), k) != few_keys.end()) return false;
                few_keys.push_back(k);
                return true;
            }
            if (many_keys.empty()) many_keys.insert(few_keys.begin(), few_keys.end());
            return many_keys.insert(k).second;
        }
    };
    void value() {
        if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
    }
    void open(bool object) {
        value();
        frames_.push_back({object, {}, {}, {}, -1});
    }
    void close() {
        if (!frames_.empty()) frames_.pop_back();
    }
    std::string path() const {
        std::string p = "$";
        for (const Frame& f : frames_) p = f.object ? p + "." + f.key : index_path(p, static_cast<std::size_t>(f.index));
        return p;
    }

    nlohmann::detail::json_sax_dom_parser<Json> dom_;
    std::string origin_;
    std::vector<Frame> frames_;
};

}  // namespace

Json parse_json_refusing_duplicate_keys(std::string_view text, const std::string& origin) {
    Json result;
    DomRefusingDuplicateKeys handler(result, origin);
    const bool ok = Json::sax_parse(text, &handler, nlohmann::detail::input_format_t::json, /*strict=*/true);
    if (!ok || handler.errored()) return Json(Json::value_t::discarded);
    // Returned by name, so moved: a conditional expression `ok ? result : Json(...)` is a
    // copy of the whole document (a tenth of `gpuplan price`'s time; docs/performance.md).
    return result;
}

void check_json_sizes(const Json& value, const std::string& origin) {
    if (!sizes_within_limits(value)) check_sizes_at(value, origin, "$");
}

Json parse_json_document(std::string_view text, const std::string& origin) {
    if (text.size() > kMaxInputBytes)
        throw InputError(origin, std::to_string(text.size()) + " bytes",
                         "at most " + std::to_string(kMaxInputBytes) + " bytes (16 MiB)");
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        throw InputError(origin, "an empty document", "a JSON object");
    check_json_depth(text, origin);
    // Non-throwing parse: a discarded value means a syntax error; re-parse only to get the
    // parser's message with its byte position.
    Json doc = parse_json_refusing_duplicate_keys(text, origin);
    if (doc.is_discarded()) {
        std::string detail = "malformed JSON";
        try {
            const Json reparsed = Json::parse(text);  // throws: the text failed above
            (void)reparsed;
        } catch (const Json::out_of_range& e) {
            // 406 "number overflow parsing '1e400'": valid JSON, but no double holds it.
            throw InputError(origin, "the number " + overflowing_number(e), kDoubleRange);
        } catch (const Json::exception& e) {
            detail = e.what();
            // nlohmann prefixes "[json.exception.parse_error.101] "; keep the human part.
            if (auto pos = detail.find("] "); pos != std::string::npos) detail = detail.substr(pos + 2);
        }
        throw InputError(origin + ": " + detail);
    }
    if (!doc.is_object()) throw InputError(origin + ": $", json_preview(doc), "a JSON object");
    check_json_sizes(doc, origin);
    return doc;
}

std::string json_preview(const Json& value) {
    std::string text = value.dump();
    if (text.size() > 60) text = text.substr(0, 57) + "...";
    return text;
}

double read_number(const Json& value, const std::string& path, NumberRule rule) {
    if (!value.is_number()) throw InputError(path, json_preview(value), "a number");
    const double x = value.get<double>();
    if (!std::isfinite(x)) throw InputError(path, json_preview(value), "a finite number");
    switch (rule) {
    case NumberRule::finite: break;
    case NumberRule::non_negative:
        if (x < 0) throw InputError(path, json_preview(value), "a number >= 0");
        break;
    case NumberRule::positive:
        if (x <= 0) throw InputError(path, json_preview(value), "a number > 0");
        break;
    case NumberRule::fraction:
        if (x < 0 || x > 1) throw InputError(path, json_preview(value), "a fraction between 0 and 1");
        break;
    case NumberRule::discount:
        if (x < 0 || x >= 1)
            throw InputError(path, json_preview(value), "a discount fraction from 0 up to (not including) 1, e.g. 0.3 for 30%");
        break;
    }
    return x;
}

ObjectReader::ObjectReader(const Json& object, std::string path) : object_(&object), path_(std::move(path)) {
    if (!object.is_object()) throw InputError(path_, json_preview(object), "a JSON object");
}

std::string ObjectReader::child_path(std::string_view key) const {
    return path_ + "." + std::string(key);
}

void ObjectReader::mark_read(const char* key) {
    if (!was_read(key)) read_keys_.emplace_back(key);
}

bool ObjectReader::was_read(std::string_view key) const { return std::find(read_keys_.begin(), read_keys_.end(), key) != read_keys_.end(); }

const Json& ObjectReader::require(const char* key) {
    mark_read(key);
    auto it = object_->find(key);
    if (it == object_->end()) throw InputError(child_path(key), "nothing (key missing)", "a value");
    return *it;
}

const Json& ObjectReader::value(const char* key) { return require(key); }

const Json* ObjectReader::optional_value(const char* key) {
    mark_read(key);
    auto it = object_->find(key);
    return it == object_->end() ? nullptr : &*it;
}

std::string ObjectReader::string(const char* key) {
    const Json& v = require(key);
    if (!v.is_string() || v.get_ref<const std::string&>().empty())
        throw InputError(child_path(key), json_preview(v), "a non-empty string");
    return v.get<std::string>();
}

std::string ObjectReader::name(const char* key) {
    std::string text = string(key);
    const auto control = [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; };
    const bool spaced = std::isspace(static_cast<unsigned char>(text.front())) || std::isspace(static_cast<unsigned char>(text.back()));
    if (spaced || std::any_of(text.begin(), text.end(), control))
        throw InputError(child_path(key), json_preview(value(key)), "a name with no space at either end and no control character (tab, newline, ...)");
    return text;
}

std::vector<std::string> ObjectReader::optional_string_list(const char* key) {
    std::vector<std::string> out;
    const Json* j = optional_value(key);
    if (!j) return out;
    if (!j->is_array()) throw InputError(child_path(key), json_preview(*j), "an array of strings");
    for (std::size_t k = 0; k < j->size(); ++k) {
        if (!(*j)[k].is_string()) throw InputError(index_path(child_path(key), k), json_preview((*j)[k]), "a string");
        out.push_back((*j)[k].get<std::string>());
    }
    return out;
}

double ObjectReader::number(const char* key, NumberRule rule) {
    return read_number(require(key), child_path(key), rule);
}

std::int64_t ObjectReader::integer(const char* key, std::int64_t min_value) {
    const Json& v = require(key);
    if (!v.is_number_integer() || v.get<std::int64_t>() < min_value)
        throw InputError(child_path(key), json_preview(v), "an integer >= " + std::to_string(min_value));
    return v.get<std::int64_t>();
}

bool ObjectReader::boolean(const char* key) {
    const Json& v = require(key);
    if (!v.is_boolean()) throw InputError(child_path(key), json_preview(v), "true or false");
    return v.get<bool>();
}

ObjectReader ObjectReader::object(const char* key) { return ObjectReader(require(key), child_path(key)); }

const Json& ObjectReader::array(const char* key) {
    const Json& v = require(key);
    if (!v.is_array()) throw InputError(child_path(key), json_preview(v), "an array");
    return v;
}

std::optional<std::string> ObjectReader::optional_string(const char* key) {
    mark_read(key);  // known even when absent, so finish() lists it
    if (!has(key)) return std::nullopt;
    return string(key);
}

std::optional<double> ObjectReader::optional_number(const char* key, NumberRule rule) {
    mark_read(key);
    if (!has(key)) return std::nullopt;
    return number(key, rule);
}

std::optional<double> ObjectReader::nullable_number(const char* key, NumberRule rule) {
    const Json& v = require(key);
    if (v.is_null()) return std::nullopt;
    return read_number(v, child_path(key), rule);
}

void ObjectReader::finish() const {
    for (const auto& [key, v] : object_->items()) {
        if (was_read(key)) continue;
        std::vector<std::string> sorted = read_keys_;
        std::sort(sorted.begin(), sorted.end());
        std::string known;
        for (const auto& k : sorted) known += (known.empty() ? "" : ", ") + k;
        throw InputError(child_path(key), "an unknown key",
                         known.empty() ? "no other keys here" : "one of: " + known);
    }
}

std::string index_path(const std::string& array_path, std::size_t index) {
    return array_path + "[" + std::to_string(index) + "]";
}

}  // namespace gpuplan
