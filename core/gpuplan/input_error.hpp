// input_error.hpp — the one error type for bad input (files, JSON, CLI flags).
//
// Bad input is an expected failure, not a programmer error: it is thrown as a typed
// InputError by the parsers and caught by each shell (CLI → stderr + exit 2, web → message
// on screen). The message always names where (JSON path or CLI flag), the value given and
// what was expected, so a user can fix it without reading code.
#pragma once

#include <stdexcept>
#include <string>

namespace gpuplan {

class InputError : public std::runtime_error {
public:
    // where:    the JSON path ("$.instances[3].vcpus") or CLI flag ("--hours")
    // value:    the offending value as the user wrote it (shortened if long)
    // expected: what would have been accepted
    InputError(std::string where, std::string value, std::string expected)
        : std::runtime_error(where + ": got " + value + "; expected " + expected),
          where_(std::move(where)), value_(std::move(value)), expected_(std::move(expected)) {}

    // A message with no single offending value (e.g. "empty file").
    explicit InputError(std::string message) : std::runtime_error(std::move(message)) {}

    const std::string& where() const { return where_; }
    const std::string& value() const { return value_; }
    const std::string& expected() const { return expected_; }

private:
    std::string where_, value_, expected_;
};

// Inputs larger than this are refused before parsing: a catalog is ~100 KB, a scenario a few
// KB, so 16 MiB leaves ample room while keeping a hostile 50 MB file from being parsed.
inline constexpr std::size_t kMaxInputBytes = 16u * 1024u * 1024u;

}  // namespace gpuplan
