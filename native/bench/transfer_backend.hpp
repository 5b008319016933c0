// transfer_backend.hpp — the small interface every `gpuplan bench run` case measures through
// (docs/benchmarks.md). Cases and the measurement loop (suite.cpp, suite_cases.cpp) are written
// once over it; each backend is one file, chosen by CMake, never by #ifdef in the callers:
//   transfer_backend_cuda.cu      CUDA: copy engines (cudaMemcpyAsync), SM copy kernels,
//                                 STREAM kernels, peer copies, device events (built when nvcc
//                                 is found; NOT YET RUN ON A REAL GPU)
//   transfer_backend_no_cuda.cpp  this build has no CUDA: make_cuda_transfer_backend says so
//   transfer_backend_cpu.cpp      memcpy and threads on host memory (always built; the tests
//                                 run it, and it is a host-memory baseline on a GPU machine)
// Plain C++17: the .cu file includes it.
//
// Blocking: run() never blocks past its timeout. The CUDA backend polls its end event (it
// cannot stop a kernel, so a timed-out device is marked unusable for the rest of the run);
// the CPU backend's workers poll a cancel flag between chunks.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "decode_backend.hpp"  // BenchError

namespace gpuplan::bench {

enum class Place { host, device };
enum class HostKind { pageable, pinned, registered };  // registered: malloc + cudaHostRegister
enum class CopyMethod { engine, kernel };              // copy engine (DMA) or an SM copy kernel
enum class StreamOp { copy, scale, add, triad, read }; // BabelStream's kernels ("read" = dot)

const char* to_string(HostKind k);
const char* to_string(CopyMethod m);
const char* to_string(StreamOp op);

struct BufferSpec {
    Place place = Place::host;
    int device = 0;                      // the GPU (device buffers) or the GPU it serves (host)
    HostKind host_kind = HostKind::pageable;
    int numa_node = -1;                  // host buffers: bind to this node (mbind); -1 none
    std::uint64_t bytes = 0;
};

// One copy of `bytes` from buffer `src` to buffer `dst`, issued by GPU `device` (its stream,
// its copy engine or its SMs).
struct Transfer {
    int dst = -1, src = -1;
    std::uint64_t bytes = 0;
    CopyMethod method = CopyMethod::engine;
    int device = 0;
};

// What run() does `reps` times: every transfer at once (each on its own stream or thread),
// or one STREAM kernel over buffers a, b, c of n doubles (c = a, b = s c, c = a + b,
// a = b + s c, sum += a b).
struct Op {
    std::vector<Transfer> transfers;
    std::optional<StreamOp> stream;
    int a = -1, b = -1, c = -1;
    std::uint64_t n = 0;
    int device = 0;
};

// Facts for the fingerprint and for sizing.
struct DeviceFacts {
    std::string name, pci_bus_id, compute_capability;
    double memory_gib = 0;
    std::uint64_t l2_bytes = 0;
    int copy_engines = -1;          // asyncEngineCount; -1 unknown
    int numa_node = -1;             // sysfs numa_node of the PCI device; -1 unknown
    int multiprocessors = 0;
    std::optional<double> sm_clock_mhz, memory_clock_mhz;
    int memory_bus_width_bits = 0;
};

class TransferBackend {
public:
    virtual ~TransferBackend() = default;

    virtual std::string name() const = 0;  // "cpu" or "cuda"
    // How run() times: "device events (cudaEventElapsedTime) ..." or "steady_clock ...".
    virtual std::string timing_method() const = 0;
    virtual int device_count() const = 0;
    virtual DeviceFacts device_facts(int device) = 0;
    virtual std::uint64_t device_free_bytes(int device) = 0;
    // Why a host kind or a copy method cannot be used here (nullopt: it can).
    virtual std::optional<std::string> unsupported(HostKind kind) const = 0;
    virtual std::optional<std::string> unsupported(CopyMethod method, Place host_side) const = 0;
    // Peer access as the driver advertises it (cudaDeviceCanAccessPeer); enable_peer turns it on.
    virtual bool peer_advertised(int from, int to) = 0;
    virtual void enable_peer(int from, int to) = 0;

    // A buffer id; throws BenchError(bad_input) when the memory is not there, with the sizes.
    virtual int allocate(const BufferSpec& spec) = 0;
    virtual void release_all() = 0;  // every buffer (after the last run)

    // Verification: word k (8 bytes) of a pattern buffer is pattern_word(seed, k).
    virtual void fill_pattern(int buffer, std::uint64_t seed) = 0;
    virtual std::uint64_t count_mismatches(int buffer, std::uint64_t seed, std::uint64_t bytes) = 0;
    // STREAM buffers: every double set to `value`; the largest |x - expected| over the buffer.
    virtual void fill_value(int buffer, double value, std::uint64_t n) = 0;
    virtual double max_abs_error(int buffer, double expected, std::uint64_t n) = 0;
    virtual double last_read_sum() = 0;  // StreamOp::read's result from the last rep

    // Runs `op` reps times and returns the seconds they took together, or nullopt when they had
    // not finished after timeout_s (the cause goes to `why`).
    virtual std::optional<double> run(const Op& op, int reps, double timeout_s, std::string& why) = 0;
    // After a timeout the backend may be unusable (a kernel cannot be stopped): say why.
    virtual std::optional<std::string> poisoned() const = 0;

    virtual std::vector<std::string> notes() const = 0;
};

inline constexpr double kStreamScalar = 0.4;  // BabelStream's startScalar

// The pattern both backends write and check (splitmix64 of seed + index: no two words alike).
inline std::uint64_t pattern_word(std::uint64_t seed, std::uint64_t k) {
    std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + k + 1;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// Test-only faults for the CPU backend (CLI flags --inject-*, tests/bench). While armed (the
// suite arms them for one case and clears them after it), every run is affected.
struct CpuFaults {
    bool corrupt_next_transfer = false;  // flip one byte in the first transfer's destination after each run
    bool hang_next_run = false;          // each run never finishes by itself (until cancelled by its timeout)
};

std::shared_ptr<TransferBackend> make_cpu_transfer_backend(CpuFaults* faults = nullptr);
// Throws BenchError(no_gpu) saying why (no driver, no device, built without CUDA).
std::shared_ptr<TransferBackend> make_cuda_transfer_backend();

}  // namespace gpuplan::bench
