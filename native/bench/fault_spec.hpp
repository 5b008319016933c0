// fault_spec.hpp — the text of an --inject-fault spec, shared by the decode benchmark
// (decode_faults.hpp) and `bench run` (transfer_faults.hpp): "[hang:]STAGE:N", N >= 1.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gpuplan::bench {

struct FaultSpecText {
    bool hang = false;
    std::string stage;
    std::uint64_t at = 1;
};

// nullopt when `spec` is not [hang:]WORD:N with N a whole number >= 1; the caller checks the
// stage against its own list and says what it expected.
std::optional<FaultSpecText> split_fault_spec(const std::string& spec);

std::string ordinal(std::uint64_t n);  // 1st, 2nd, 3rd, 11th, ...

}  // namespace gpuplan::bench
