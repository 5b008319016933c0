// host_memory.hpp — host RAM facts and page-aligned buffers for both backends (plain C++17).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace gpuplan::bench {

// Bytes of RAM a new allocation can use: MemAvailable from /proc/meminfo (free memory plus
// reclaimable cache), else sysconf(_SC_AVPHYS_PAGES) x page size (free memory only).
std::uint64_t host_available_bytes();

// A zero-filled (so every page is touched and resident), kBufferAlign-aligned allocation;
// nullptr when out of memory. With numa_node >= 0 its pages are bound to that node first
// (mbind); `note` receives a sentence when that binding failed and was skipped.
std::byte* allocate_aligned(std::uint64_t bytes, int numa_node, std::string* note);
void free_aligned(std::byte* p);

// True when /sys/devices/system/node/node<N> exists; `nodes` lists the nodes there ("0, 1").
bool numa_node_exists(int node, std::string* nodes);

}  // namespace gpuplan::bench
