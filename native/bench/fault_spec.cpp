// fault_spec.cpp — see fault_spec.hpp.
#include "fault_spec.hpp"

namespace gpuplan::bench {

std::optional<FaultSpecText> split_fault_spec(const std::string& spec) {
    FaultSpecText f;
    std::string rest = spec;
    if (rest.rfind("hang:", 0) == 0) {
        f.hang = true;
        rest = rest.substr(5);
    }
    const std::size_t colon = rest.find(':');
    if (colon == std::string::npos || colon == 0) return std::nullopt;
    f.stage = rest.substr(0, colon);
    const std::string n = rest.substr(colon + 1);
    if (n.empty() || n.size() > 12 || n.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    f.at = std::stoull(n);
    if (f.at == 0) return std::nullopt;
    return f;
}

std::string ordinal(std::uint64_t n) {
    const char* suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
    return std::to_string(n) + suffix;
}

}  // namespace gpuplan::bench
