// decode_backend.hpp — the small interface the decode-pipeline benchmark runs on.
//
// A backend offers two in-order engines (the compute engine that "decodes", the copy engine
// that moves a finished chunk to the host), events recorded on an engine and waited for by
// the other engine or by a host thread, and buffers. decode_pipeline.cpp orchestrates modes
// A-D once over this interface; each backend is one file, chosen by CMake:
//   decode_backend_cuda.cu     CUDA streams, events, cudaMallocHost, a synthetic decoder
//                              kernel (built when nvcc is found; run once on one H200)
//   decode_backend_no_cuda.cpp this build has no CUDA: make_cuda_backend says so
//   decode_backend_cpu.cpp     two threads stand in for the engines (always built; the tests
//                              run it on machines without a GPU)
// Semantics follow CUDA's: work on one engine runs in submission order; record(e) marks the
// point an engine has reached (timestamped when reached); engine_wait(engine, e) makes later
// work on `engine` wait for the most recent record of e; host_wait(e) blocks the calling
// thread until then. Buffers and events are created from one thread before a video starts;
// host_wait may then be called from any thread (the writer). Plain C++17: the .cu includes it.
// No wait blocks forever: host_wait and synchronize give up after the wait timeout
// (set_wait_timeout, --device-timeout-s) with BenchError(failed), so a hung GPU ends the run
// with its results file rather than hanging it (issue 17, finding 10).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "frame_layout.hpp"

namespace gpuplan::bench {

enum class Engine { compute, copy };
enum class HostMemory { pageable, pinned };

// Why a benchmark stopped. The CLI maps each kind to an exit code (docs/decode-pipeline.md):
// bad_input 2, no_gpu 3, failed 4 (verification, I/O, a stuck writer, a failed CUDA call).
class BenchError : public std::runtime_error {
public:
    enum class Kind { bad_input, no_gpu, failed };
    BenchError(Kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
    Kind kind() const { return kind_; }

private:
    Kind kind_;
};

struct GpuInfo {
    std::string name;
    double memory_gib = 0;
    std::string compute_capability;  // "9.0"
    std::string pci_bus_id;
};

// Memory the backend can give, read before anything is allocated.
struct MemoryBudget {
    std::uint64_t device_free_bytes = 0;     // CUDA: cudaMemGetInfo; CPU: same as host
    std::uint64_t host_available_bytes = 0;  // MemAvailable (/proc/meminfo), else sysconf
    bool device_is_host = false;             // CPU backend: "device" buffers come out of host RAM
};

// What bounds the synthetic decoder (--decoder): memory-bound streaming passes (a convolutional
// VAE decoder at video resolution) or compute-bound FMA passes on data that stays in registers
// (a transformer decoder at large batch). The two contend differently with the copy engine and
// the host stage, so a real run of each is what the simulator's contention term is fitted on.
enum class DecoderKind { memory_bound, compute_bound };
inline const char* to_string(DecoderKind k) { return k == DecoderKind::memory_bound ? "memory" : "compute"; }

// The decoder sized to the requested time, measured alone (nothing else running).
struct Calibration {
    double isolated_compute_ms = 0;  // median time of one chunk's decode, alone
    std::string method;              // how the time was reached, in words
};

// What host_wait and synchronize say when the wait timeout passes.
inline std::string wait_timeout_message(const std::string& what, double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", seconds);
    return what + " was not reached within " + text + " s (--device-timeout-s): the GPU is hung or far slower than the run expects";
}

class DecodeBackend {
public:
    virtual ~DecodeBackend() = default;

    virtual std::string name() const = 0;  // "cuda" or "cpu"
    virtual std::string device_name() const = 0;
    virtual MemoryBudget memory_budget() = 0;
    // Device bytes the decoder itself needs beyond the chunk buffers (CUDA: its scratch
    // "activations"), so the caller can check memory before allocating anything.
    virtual std::uint64_t decoder_device_bytes(const FrameLayout& layout) const = 0;
    // Notes worth showing (a fallback taken, e.g. mlock refused); never errors.
    virtual std::vector<std::string> notes() const = 0;

    // Sizes the synthetic decoder of `kind` so one chunk takes about compute_ms, and measures it.
    virtual Calibration prepare(const FrameLayout& layout, double compute_ms, DecoderKind kind) = 0;

    // Buffers of layout.buffer_bytes() (or any size), 4096-byte aligned. numa_node < 0: no
    // binding. Freed all at once by release() (after synchronize()).
    virtual int allocate_device(std::uint64_t bytes) = 0;
    virtual std::byte* allocate_host(std::uint64_t bytes, HostMemory kind, int numa_node) = 0;
    virtual int create_event() = 0;
    virtual void release() = 0;  // every buffer and event

    // The longest host_wait or synchronize waits before it throws (default 60 s).
    virtual void set_wait_timeout(double seconds) = 0;
    // Called first on every thread other than the one that made the backend (the writer):
    // CUDA makes the benchmark's device current there (issue 17, finding 12).
    virtual void attach_thread() {}

    virtual void record(int event, Engine engine) = 0;
    virtual void engine_wait(Engine engine, int event) = 0;
    virtual void host_wait(int event) = 0;
    virtual double elapsed_ms(int from_event, int to_event) = 0;  // both completed

    // Compute engine: decode chunk `chunk` (frames chunk x F ...) into device buffer `buffer`
    // and write the trailer (magic, `sequence`, per-frame checksums of what it produced).
    virtual void enqueue_decode(int buffer, std::uint64_t chunk, std::uint64_t sequence) = 0;
    // Copy the whole device buffer (frames + trailer) into `host` on `engine`.
    virtual void enqueue_copy_to_host(Engine engine, std::byte* host, int buffer) = 0;
    virtual void synchronize() = 0;  // both engines idle
};

// Factories. make_cuda_backend throws BenchError(no_gpu) with a message that says why and
// to use --backend cpu (no driver, no device, or a build without CUDA).
std::shared_ptr<DecodeBackend> make_cpu_backend();
std::shared_ptr<DecodeBackend> make_cuda_backend(int device);
bool cuda_backend_built();

}  // namespace gpuplan::bench
