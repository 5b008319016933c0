// host_memory.cpp — see host_memory.hpp.
#include "host_memory.hpp"

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
