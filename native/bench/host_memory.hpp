// host_memory.hpp — host RAM facts and page-aligned buffers for both backends (plain C++17).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::bench {

// Bytes of RAM a new allocation can use: MemAvailable from /proc/meminfo (free memory plus
// reclaimable cache), else sysconf(_SC_AVPHYS_PAGES) x page size (free memory only).
std::uint64_t host_available_bytes();

// A zero-filled (so every page is touched and resident), kBufferAlign-aligned allocation;
// nullptr when out of memory. With numa_node >= 0 its pages are bound to that node first
// (libnuma's mbind); `note` receives a sentence when that binding failed and was skipped.
std::byte* allocate_aligned(std::uint64_t bytes, int numa_node, std::string* note);
void free_aligned(std::byte* p);

// A Linux CPU list ("0-23,48-71", sysfs cpulist / local_cpulist) as CPU numbers; nullopt when
// the text is not one (an empty list is an empty vector).
std::optional<std::vector<int>> parse_cpu_list(const std::string& text);
// The inverse: CPU numbers as a Linux CPU list, runs folded ("0-3,8").
std::string format_cpu_list(const std::vector<int>& cpus);

// The machine's NUMA nodes, ascending (libnuma; empty without NUMA support).
std::vector<int> numa_nodes();
// The CPUs of NUMA node `node` (libnuma's numa_node_to_cpus); empty when unknown.
std::vector<int> numa_node_cpus(int node);
// The memory of NUMA node `node` in GiB (libnuma's numa_node_size64); nullopt when unknown.
std::optional<double> numa_node_memory_gib(int node);

// Runs the calling thread on `cpus` until destroyed, then restores its old affinity; does
// nothing when `cpus` is empty or the kernel refuses (note() says why). nvbandwidth sets each
// GPU's CPU affinity before it allocates host memory, so pinned pages and the driver's staging
// land on that GPU's socket (issue 17, finding 1).
class ScopedCpuAffinity {
public:
    explicit ScopedCpuAffinity(const std::vector<int>& cpus);
    ~ScopedCpuAffinity();
    ScopedCpuAffinity(const ScopedCpuAffinity&) = delete;
    ScopedCpuAffinity& operator=(const ScopedCpuAffinity&) = delete;
    bool applied() const { return applied_; }
    const std::string& note() const { return note_; }

private:
    bool applied_ = false;
    std::string note_;
    std::vector<unsigned char> saved_;  // the old cpu_set_t, as bytes (keeps <sched.h> out of this header)
};

// True when libnuma lists `node` among the machine's nodes; `nodes` lists them ("0, 1").
bool numa_node_exists(int node, std::string* nodes);

}  // namespace gpuplan::bench
