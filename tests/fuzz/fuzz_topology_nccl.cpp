// fuzz_topology_nccl — the NCCL topology-dump parser (parse_nccl_topology); checks: fuzz_topology.hpp.
#include <cstdint>

#include "fuzz_topology.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    gpuplan::fuzz::check_topology_import(gpuplan::fuzz::as_text(data, size), [](std::string_view text) { return gpuplan::parse_nccl_topology(text, "fuzz.log"); });
    return 0;
}
