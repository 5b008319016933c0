// host_memory.cpp — see host_memory.hpp.
#include "host_memory.hpp"

#include <numa.h>    // libnuma (Debian's libnuma-dev): the machine's NUMA nodes and their CPUs
#include <numaif.h>  // mbind(2) and its MPOL_* constants, from the same library
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "frame_layout.hpp"

namespace gpuplan::bench {

std::uint64_t host_available_bytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::uint64_t kib = 0;
    std::string unit;
    while (meminfo >> key >> kib >> unit)
        if (key == "MemAvailable:") return kib * 1024;
    const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

namespace {

// One node's bit, in libnuma's mask of all nodes it knows (any count, not one 64-bit word).
struct NodeMask {
    bitmask* bits = numa_allocate_nodemask();
    explicit NodeMask(int node) { numa_bitmask_setbit(bits, static_cast<unsigned>(node)); }
    ~NodeMask() { numa_bitmask_free(bits); }
    NodeMask(const NodeMask&) = delete;
    NodeMask& operator=(const NodeMask&) = delete;
};

// Binds the pages of [p, p + size) to `node` before they are touched; a sentence when it cannot.
std::string bind_to_node(void* p, std::uint64_t size, int node) {
    const std::string what = "could not bind host buffers to NUMA node " + std::to_string(node);
    if (numa_available() < 0) return what + " (the kernel has no NUMA support); they use the default policy";
    if (node > numa_max_node()) return what + " (the highest node is " + std::to_string(numa_max_node()) + "); they use the default policy";
    const NodeMask mask(node);
    // maxnode is the mask's size in bits plus one: mbind(2) ignores the last bit it is given.
    if (mbind(p, size, MPOL_BIND, mask.bits->maskp, mask.bits->size + 1, MPOL_MF_MOVE) != 0)
        return what + " (mbind: " + std::strerror(errno) + "); they use the default policy";
    return "";
}

}  // namespace

std::byte* allocate_aligned(std::uint64_t bytes, int numa_node, std::string* note) {
    const std::uint64_t size = round_up(bytes == 0 ? 1 : bytes, kBufferAlign);
    void* p = std::aligned_alloc(kBufferAlign, size);
    if (p == nullptr) return nullptr;
    if (numa_node >= 0) {
        const std::string why = bind_to_node(p, size, numa_node);
        if (!why.empty() && note != nullptr) *note = why;
    }
    std::memset(p, 0, size);  // touch every page now, not during the timed run
    return static_cast<std::byte*>(p);
}

void free_aligned(std::byte* p) { std::free(p); }

std::optional<std::vector<int>> parse_cpu_list(const std::string& text) {
    std::vector<int> cpus;
    std::string list = text;
    while (!list.empty() && (list.back() == '\n' || list.back() == ' ')) list.pop_back();
    std::istringstream in(list);
    std::string part;
    while (std::getline(in, part, ',')) {
        const std::size_t dash = part.find('-');
        const std::string lo = part.substr(0, dash), hi = dash == std::string::npos ? lo : part.substr(dash + 1);
        const auto number = [](const std::string& t) -> int {
            if (t.empty() || t.size() > 5 || t.find_first_not_of("0123456789") != std::string::npos) return -1;
            return std::stoi(t);
        };
        const int a = number(lo), b = number(hi);
        if (a < 0 || b < a) return std::nullopt;
        for (int c = a; c <= b; ++c) cpus.push_back(c);
    }
    return cpus;
}

std::string format_cpu_list(const std::vector<int>& cpus) {
    std::string out;
    for (std::size_t i = 0; i < cpus.size();) {
        std::size_t j = i;
        while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
        out += (out.empty() ? "" : ",") + std::to_string(cpus[i]) + (j > i ? "-" + std::to_string(cpus[j]) : "");
        i = j + 1;
    }
    return out;
}

std::vector<int> numa_nodes() {
    std::vector<int> found;
    if (numa_available() < 0) return found;
    for (int n = 0; n <= numa_max_node(); ++n)
        if (numa_bitmask_isbitset(numa_nodes_ptr, static_cast<unsigned>(n))) found.push_back(n);
    return found;
}

std::optional<double> numa_node_memory_gib(int node) {
    if (node < 0 || numa_available() < 0 || node > numa_max_node()) return std::nullopt;
    const long long bytes = numa_node_size64(node, nullptr);
    if (bytes < 0) return std::nullopt;
    return static_cast<double>(bytes) / static_cast<double>(1ull << 30);
}

std::vector<int> numa_node_cpus(int node) {
    if (node < 0 || numa_available() < 0 || node > numa_max_node()) return {};
    bitmask* cpus = numa_allocate_cpumask();
    std::vector<int> out;
    if (numa_node_to_cpus(node, cpus) == 0)
        for (unsigned c = 0; c < cpus->size; ++c)
            if (numa_bitmask_isbitset(cpus, c)) out.push_back(static_cast<int>(c));
    numa_bitmask_free(cpus);
    return out;
}

ScopedCpuAffinity::ScopedCpuAffinity(const std::vector<int>& cpus) {
    if (cpus.empty()) return;
    cpu_set_t old_set, new_set;
    CPU_ZERO(&new_set);
    for (int c : cpus)
        if (c >= 0 && c < CPU_SETSIZE) CPU_SET(c, &new_set);
    if (sched_getaffinity(0, sizeof old_set, &old_set) != 0 || sched_setaffinity(0, sizeof new_set, &new_set) != 0) {
        note_ = std::string("could not set the CPU affinity (") + std::strerror(errno) + "); host buffers were allocated from any CPU";
        return;
    }
    saved_.assign(reinterpret_cast<unsigned char*>(&old_set), reinterpret_cast<unsigned char*>(&old_set) + sizeof old_set);
    applied_ = true;
}

ScopedCpuAffinity::~ScopedCpuAffinity() {
    if (!applied_) return;
    cpu_set_t old_set;
    std::memcpy(&old_set, saved_.data(), sizeof old_set);
    (void)sched_setaffinity(0, sizeof old_set, &old_set);
}

bool numa_node_exists(int node, std::string* nodes) {
    const std::vector<int> found = numa_nodes();
    if (nodes != nullptr) {
        std::ostringstream s;
        for (int n : found) s << (s.tellp() > 0 ? ", " : "") << n;
        *nodes = found.empty() ? "none (libnuma finds no NUMA support)" : s.str();
    }
    return std::find(found.begin(), found.end(), node) != found.end();
}

}  // namespace gpuplan::bench
