// host_memory.cpp — see host_memory.hpp.
#include "host_memory.hpp"

#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
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

std::byte* allocate_aligned(std::uint64_t bytes, int numa_node, std::string* note) {
    const std::uint64_t size = round_up(bytes == 0 ? 1 : bytes, kBufferAlign);
    void* p = std::aligned_alloc(kBufferAlign, size);
    if (p == nullptr) return nullptr;
    if (numa_node >= 0 && numa_node < 64) {
        // mbind(2) through syscall: libnuma is not a dependency. MPOL_BIND = 2,
        // MPOL_MF_MOVE = 2; maxnode counts the mask's bits plus one (the kernel drops one).
        unsigned long mask = 1ul << numa_node;
        const long rc = syscall(SYS_mbind, p, size, 2, &mask, sizeof(mask) * 8 + 1, 2);
        if (rc != 0 && note != nullptr)
            *note = "could not bind host buffers to NUMA node " + std::to_string(numa_node) + " (mbind: " + std::strerror(errno) +
                    "); they use the default policy";
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

std::vector<int> numa_node_cpus(int node) {
    if (node < 0) return {};
    std::ifstream in("/sys/devices/system/node/node" + std::to_string(node) + "/cpulist");
    std::string text;
    if (!std::getline(in, text)) return {};
    return parse_cpu_list(text).value_or(std::vector<int>{});
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
    namespace fs = std::filesystem;
    std::set<int> found;
    std::error_code ec;
    for (fs::directory_iterator it("/sys/devices/system/node", ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.rfind("node", 0) == 0 && name.size() > 4 && name.find_first_not_of("0123456789", 4) == std::string::npos)
            found.insert(std::stoi(name.substr(4)));
    }
    if (nodes != nullptr) {
        std::ostringstream s;
        for (int n : found) s << (s.tellp() > 0 ? ", " : "") << n;
        *nodes = found.empty() ? "none listed in /sys/devices/system/node" : s.str();
    }
    return found.count(node) > 0;
}

}  // namespace gpuplan::bench
