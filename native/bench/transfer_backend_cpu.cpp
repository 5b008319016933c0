// transfer_backend_cpu.cpp — the CPU backend of `gpuplan bench run`: host memory stands in for
// device memory, one thread per transfer for the copy engines (memcpy in 4 MiB chunks), and
// all hardware threads for the "SM" kernels (copy and STREAM loops split across threads).
// Timed with std::chrono::steady_clock around the whole batch of reps. The tests run it on
// machines without a GPU; on a GPU machine it is the host-memory baseline.
//
// Every worker checks a cancel flag between chunks, so a timeout stops it within one chunk;
// the injected hang (CpuFaults) spins on that flag and nothing else.
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <thread>
#include <unistd.h>

#include "host_memory.hpp"
#include "transfer_backend.hpp"

namespace gpuplan::bench {

const char* to_string(HostKind k) { return k == HostKind::pageable ? "pageable" : k == HostKind::pinned ? "pinned" : "registered"; }
const char* to_string(CopyMethod m) { return m == CopyMethod::engine ? "copy_engine" : "sm_kernel"; }
const char* to_string(StreamOp op) {
    switch (op) {
    case StreamOp::copy: return "copy";
    case StreamOp::scale: return "scale";
    case StreamOp::add: return "add";
    case StreamOp::triad: return "triad";
    case StreamOp::read: return "read";
    }
    return "?";
}

namespace {

constexpr std::uint64_t kChunkBytes = 4ull << 20;  // a worker checks the cancel flag this often
constexpr double kScalar = kStreamScalar;

using Clock = std::chrono::steady_clock;

struct CpuBuffer {
    BufferSpec spec;
    std::byte* data = nullptr;
    bool locked = false;
};

unsigned hardware_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

// Last-level cache: the largest unified cache in sysfs (cpu0/cache/index*/size, "32768K"),
// else sysconf (which some VMs inflate: 320 MiB reported for a 32 MiB L3; a container on an
// AMD EPYC with no sysfs cache entries reports the whole socket's 508 MiB to its 2 cores, and
// 4 x that per STREAM array took the suite past two minutes); 0 when unknown.
// The threads of one process reach at most the L3 of the cores they run on, so sysconf's
// figure is capped at kMaxL3PerThread per hardware thread: 12 MiB per core is the most any
// x86 server part has (AMD EPYC 9684X, 1,152 MiB of L3 over 96 cores, AMD's product page), and
// 16 MiB leaves room above it.
constexpr std::uint64_t kMaxL3PerThread = 16ull << 20;
std::uint64_t last_level_cache_bytes() {
    std::uint64_t best = 0;
    for (int k = 0; k < 8; ++k) {
        std::ifstream in("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(k) + "/size");
        std::uint64_t v = 0;
        char unit = 0;
        if (in >> v) {
            in >> unit;
            best = std::max<std::uint64_t>(best, v * (unit == 'K' ? 1024ull : unit == 'M' ? 1ull << 20 : 1ull));
        }
    }
    if (best > 0) return best;
    long b = -1;
#ifdef _SC_LEVEL3_CACHE_SIZE
    b = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (b <= 0) b = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
    return b > 0 ? std::min<std::uint64_t>(static_cast<std::uint64_t>(b), kMaxL3PerThread * hardware_threads()) : 0;
}

class CpuBackend final : public TransferBackend {
public:
    explicit CpuBackend(CpuFaults* faults) : faults_(faults) {}
    ~CpuBackend() override { release_all(); }

    std::string name() const override { return "cpu"; }
    std::string timing_method() const override {
        return "std::chrono::steady_clock from releasing the worker threads to the last one finishing, over all reps of a sample";
    }
    int device_count() const override { return 1; }
    DeviceFacts device_facts(int) override {
        DeviceFacts f;
        f.name = "host memory (CPU backend: " + std::to_string(hardware_threads()) + " threads)";
        f.memory_gib = static_cast<double>(host_available_bytes()) / (1ull << 30);
        f.l2_bytes = last_level_cache_bytes();
        f.copy_engines = 1;
        f.numa_node = 0;
        f.multiprocessors = static_cast<int>(hardware_threads());
        return f;
    }
    std::uint64_t device_free_bytes(int) override { return host_available_bytes(); }
    std::optional<std::string> unsupported(HostKind) const override { return std::nullopt; }
    std::optional<std::string> unsupported(CopyMethod, Place) const override { return std::nullopt; }
    bool peer_advertised(int, int) override { return false; }
    void enable_peer(int, int) override {}

    int allocate(const BufferSpec& spec) override {
        std::string note;
        const std::uint64_t avail = host_available_bytes();
        if (spec.bytes > avail / 2)
            throw BenchError(BenchError::Kind::bad_input, "a buffer of " + std::to_string(spec.bytes) + " bytes is more than half of the " +
                                                              std::to_string(avail) + " bytes of host memory available");
        CpuBuffer b;
        b.spec = spec;
        b.data = allocate_aligned(spec.bytes, spec.numa_node, &note);
        if (b.data == nullptr) throw BenchError(BenchError::Kind::bad_input, "out of host memory allocating " + std::to_string(spec.bytes) + " bytes");
        if (!note.empty()) notes_.push_back(note);
        // "Pinned" and "registered" host memory: locked in RAM (mlock), as cudaHostRegister does.
        if (spec.place == Place::host && spec.host_kind != HostKind::pageable) {
            b.locked = mlock(b.data, spec.bytes) == 0;
            if (!b.locked) notes_.push_back("mlock refused (RLIMIT_MEMLOCK?): a 'pinned' CPU buffer stayed pageable");
        }
        buffers_.push_back(b);
        return static_cast<int>(buffers_.size() - 1);
    }

    void release_all() override {
        for (auto& b : buffers_) {
            if (b.locked) munlock(b.data, b.spec.bytes);
            free_aligned(b.data);
        }
        buffers_.clear();
    }

    void fill_pattern(int id, std::uint64_t seed) override {
        auto* w = words(id);
        const std::uint64_t n = buf(id).spec.bytes / 8;
        parallel(n, [&](std::uint64_t lo, std::uint64_t hi) {
            for (std::uint64_t k = lo; k < hi; ++k) w[k] = pattern_word(seed, k);
        });
    }
    std::uint64_t count_mismatches(int id, std::uint64_t seed, std::uint64_t bytes) override {
        const auto* w = words(id);
        std::atomic<std::uint64_t> bad{0};
        parallel(bytes / 8, [&](std::uint64_t lo, std::uint64_t hi) {
            std::uint64_t local = 0;
            for (std::uint64_t k = lo; k < hi; ++k) local += w[k] != pattern_word(seed, k);
            bad += local;
        });
        return bad;
    }
    void fill_value(int id, double value, std::uint64_t n) override {
        double* d = doubles(id);
        parallel(n, [&](std::uint64_t lo, std::uint64_t hi) { std::fill(d + lo, d + hi, value); });
    }
    double max_abs_error(int id, double expected, std::uint64_t n) override {
        const double* d = doubles(id);
        double worst = 0;
        for (std::uint64_t k = 0; k < n; ++k) worst = std::max(worst, std::fabs(d[k] - expected));
        return worst;
    }
    double last_read_sum() override { return read_sum_; }

    std::optional<double> run(const Op& op, int reps, double timeout_s, std::string& why) override {
        std::atomic<bool> cancel{false};
        std::atomic<int> running{0};
        const bool hang = faults_ && faults_->hang_next_run;
        const bool corrupt = faults_ && faults_->corrupt_next_transfer;

        std::vector<std::function<void()>> jobs;
        if (hang) jobs.push_back([&] {
            while (!cancel) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        });
        for (const Transfer& t : op.transfers) {
            std::byte* dst = buf(t.dst).data;
            const std::byte* src = buf(t.src).data;
            if (t.method == CopyMethod::engine) {
                jobs.push_back([=, &cancel] {  // one "copy engine": one thread, memcpy in chunks
                    for (int r = 0; r < reps && !cancel; ++r)
                        for (std::uint64_t off = 0; off < t.bytes && !cancel; off += kChunkBytes)
                            std::memcpy(dst + off, src + off, std::min(kChunkBytes, t.bytes - off));
                });
            } else {
                const unsigned parts = std::max(1u, hardware_threads() / static_cast<unsigned>(op.transfers.size()));
                for (unsigned p = 0; p < parts; ++p)  // "SM kernel": every thread copies a slice of words
                    jobs.push_back([=, &cancel] {
                        const std::uint64_t n = t.bytes / 8, lo = n * p / parts, hi = n * (p + 1) / parts;
                        auto* d = reinterpret_cast<std::uint64_t*>(dst);
                        const auto* s = reinterpret_cast<const std::uint64_t*>(src);
                        for (int r = 0; r < reps && !cancel; ++r)
                            for (std::uint64_t k = lo; k < hi && !cancel; k += kChunkBytes / 8) {
                                const std::uint64_t end = std::min(hi, k + kChunkBytes / 8);
                                for (std::uint64_t i = k; i < end; ++i) d[i] = s[i];
                            }
                    });
            }
        }
        if (op.stream) add_stream_jobs(op, reps, cancel, jobs);

        std::vector<Clock::time_point> ends(jobs.size());
        std::atomic<bool> go{false};
        std::vector<std::thread> threads;
        running = static_cast<int>(jobs.size());
        for (std::size_t j = 0; j < jobs.size(); ++j)
            threads.emplace_back([&, j] {
                while (!go) std::this_thread::yield();
                jobs[j]();
                ends[j] = Clock::now();
                --running;
            });
        const Clock::time_point start = Clock::now();
        go = true;
        const Clock::time_point deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
        bool timed_out = false;
        while (running > 0) {
            if (Clock::now() > deadline) {
                timed_out = true;
                cancel = true;
                break;
            }
            std::this_thread::sleep_for(std::chrono::microseconds(50));
        }
        for (auto& th : threads) th.join();
        if (timed_out) {
            why = "did not finish within " + std::to_string(timeout_s) + " s (stopped)";
            return std::nullopt;
        }
        if (op.stream == StreamOp::read) read_sum_ = partial_sum_total();
        if (corrupt && !op.transfers.empty()) {  // test-only: one flipped byte in the middle
            const Transfer& t = op.transfers.front();
            buf(t.dst).data[t.bytes / 2] ^= std::byte{0x5a};
        }
        Clock::time_point last = start;
        for (const auto& e : ends) last = std::max(last, e);
        return std::chrono::duration<double>(last - start).count();
    }

    std::optional<std::string> poisoned() const override { return std::nullopt; }
    std::vector<std::string> notes() const override { return notes_; }

private:
    CpuBuffer& buf(int id) {
        if (id < 0 || static_cast<std::size_t>(id) >= buffers_.size()) throw std::logic_error("CPU backend: no buffer " + std::to_string(id));
        return buffers_[static_cast<std::size_t>(id)];
    }
    std::uint64_t* words(int id) { return reinterpret_cast<std::uint64_t*>(buf(id).data); }
    double* doubles(int id) { return reinterpret_cast<double*>(buf(id).data); }

    template <class F>
    void parallel(std::uint64_t n, F f) {
        const unsigned parts = hardware_threads();
        std::vector<std::thread> ts;
        for (unsigned p = 0; p < parts; ++p) ts.emplace_back([&, p] { f(n * p / parts, n * (p + 1) / parts); });
        for (auto& t : ts) t.join();
    }

    // STREAM loops split over all threads; "read" sums a[i] * b[i] into one partial per thread.
    void add_stream_jobs(const Op& op, int reps, std::atomic<bool>& cancel, std::vector<std::function<void()>>& jobs) {
        double* a = doubles(op.a);
        double* b = doubles(op.b);
        double* c = op.c >= 0 ? doubles(op.c) : nullptr;
        const unsigned parts = hardware_threads();
        partials_.assign(parts, 0.0);
        const StreamOp kind = *op.stream;
        const std::uint64_t n = op.n;
        for (unsigned p = 0; p < parts; ++p)
            jobs.push_back([=, this, &cancel] {
                const std::uint64_t lo = n * p / parts, hi = n * (p + 1) / parts;
                for (int r = 0; r < reps && !cancel; ++r) {
                    double sum = 0;
                    switch (kind) {
                    case StreamOp::copy: for (std::uint64_t i = lo; i < hi; ++i) c[i] = a[i]; break;
                    case StreamOp::scale: for (std::uint64_t i = lo; i < hi; ++i) b[i] = kScalar * c[i]; break;
                    case StreamOp::add: for (std::uint64_t i = lo; i < hi; ++i) c[i] = a[i] + b[i]; break;
                    case StreamOp::triad: for (std::uint64_t i = lo; i < hi; ++i) a[i] = b[i] + kScalar * c[i]; break;
                    case StreamOp::read: for (std::uint64_t i = lo; i < hi; ++i) sum += a[i] * b[i]; break;
                    }
                    partials_[p] = sum;
                }
            });
    }
    double partial_sum_total() const {
        double s = 0;
        for (double p : partials_) s += p;
        return s;
    }

    CpuFaults* faults_;
    std::vector<CpuBuffer> buffers_;
    std::vector<std::string> notes_;
    std::vector<double> partials_;
    double read_sum_ = 0;
};

}  // namespace

std::shared_ptr<TransferBackend> make_cpu_transfer_backend(CpuFaults* faults) { return std::make_shared<CpuBackend>(faults); }

}  // namespace gpuplan::bench
