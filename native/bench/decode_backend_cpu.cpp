// decode_backend_cpu.cpp — the CPU backend: two threads stand in for a GPU's engines.
//
// The compute engine thread "decodes" a chunk by writing the pattern (frame_layout.hpp) and
// its checksums, then sleeps until the chunk's target time has passed since it started: the
// engine is busy for the target time but leaves the cores to the copy engine thread (memcpy)
// and the writer, so stages really overlap even on a 2-core machine. Events are timestamped
// with steady_clock when an engine reaches them. "Pinned" host memory is page-locked with
// mlock when the system allows it (a note says when it did not).
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "decode_backend.hpp"
#include "host_memory.hpp"

namespace gpuplan::bench {

namespace {

using Clock = std::chrono::steady_clock;

// One in-order engine: a thread running submitted work in order.
class CpuEngine {
public:
    CpuEngine() : thread_([this] { loop(); }) {}
    ~CpuEngine() {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }
    CpuEngine(const CpuEngine&) = delete;
    CpuEngine& operator=(const CpuEngine&) = delete;

    void submit(std::function<void()> work) {
        {
            std::lock_guard lock(mutex_);
            queue_.push_back(std::move(work));
            ++submitted_;
        }
        wake_.notify_all();
    }
    // False when the engine has not caught up within `timeout`.
    bool drain(Clock::duration timeout) {
        std::unique_lock lock(mutex_);
        const std::uint64_t target = submitted_;
        return idle_.wait_for(lock, timeout, [&] { return completed_ >= target; });
    }

private:
    void loop() {
        std::unique_lock lock(mutex_);
        for (;;) {
            wake_.wait(lock, [&] { return stop_ || !queue_.empty(); });
            if (queue_.empty()) return;  // stop_ and nothing left
            std::function<void()> work = std::move(queue_.front());
            queue_.pop_front();
            lock.unlock();
            work();
            lock.lock();
            ++completed_;
            idle_.notify_all();
        }
    }

    std::mutex mutex_;
    std::condition_variable wake_, idle_;
    std::deque<std::function<void()>> queue_;
    std::uint64_t submitted_ = 0, completed_ = 0;
    bool stop_ = false;
    std::thread thread_;  // last: starts after the members it uses exist
};

// An event: `recorded` counts record() calls, `reached` the last record an engine got to.
struct CpuEvent {
    std::mutex mutex;
    std::condition_variable changed;
    std::uint64_t recorded = 0, reached = 0;
    Clock::time_point when{};

    void wait_for(std::uint64_t generation) {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return reached >= generation; });
    }
    bool wait_for(std::uint64_t generation, Clock::duration timeout) {
        std::unique_lock lock(mutex);
        return changed.wait_for(lock, timeout, [&] { return reached >= generation; });
    }
};

struct HostAllocation {
    std::byte* data = nullptr;
    std::uint64_t bytes = 0;
    bool locked = false;
};

class CpuBackend final : public DecodeBackend {
public:
    ~CpuBackend() override {
        try {
            release();
        } catch (const BenchError&) {  // an engine still busy past the timeout: its buffers stay allocated
        }
    }

    std::string name() const override { return "cpu"; }
    std::string device_name() const override {
        return std::to_string(std::max(1u, std::thread::hardware_concurrency())) + "-thread host (threads stand in for the GPU engines)";
    }
    MemoryBudget memory_budget() override {
        MemoryBudget b;
        b.host_available_bytes = b.device_free_bytes = host_available_bytes();
        b.device_is_host = true;
        return b;
    }
    std::uint64_t decoder_device_bytes(const FrameLayout&) const override { return 0; }
    std::vector<std::string> notes() const override {
        std::lock_guard lock(notes_mutex_);
        return notes_;
    }

    Calibration prepare(const FrameLayout& layout, double compute_ms, DecoderKind kind) override {
        layout_ = layout;
        kind_ = kind;
        target_ = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::milli>(compute_ms));
        // Measure the decode alone: one untimed run (caches, page faults), then the median of 5.
        const int buffer = allocate_device(layout.buffer_bytes());
        const int a = create_event(), b = create_event();
        std::vector<double> ms;
        enqueue_decode(buffer, 0, 0);
        for (int k = 0; k < 5; ++k) {
            record(a, Engine::compute);
            enqueue_decode(buffer, 0, 0);
            record(b, Engine::compute);
            host_wait(b);
            ms.push_back(elapsed_ms(a, b));
        }
        release();
        std::sort(ms.begin(), ms.end());
        Calibration c;
        c.isolated_compute_ms = ms[2];
        char text[240];
        std::snprintf(text, sizeof text,
                      "a compute thread writes each chunk's frames and checksums, then %s until %g ms have passed since it started "
                      "(longer when writing the frames alone takes longer)",
                      kind == DecoderKind::compute_bound ? "runs multiply-adds on one core (compute-bound)" : "sleeps, leaving the cores free",
                      compute_ms);
        c.method = text;
        return c;
    }

    int allocate_device(std::uint64_t bytes) override {
        std::byte* p = allocate_aligned(bytes, -1, nullptr);
        if (p == nullptr) throw BenchError(BenchError::Kind::failed, "out of host memory allocating a " + std::to_string(bytes) + "-byte device buffer");
        device_.push_back({p, bytes, false});
        return static_cast<int>(device_.size() - 1);
    }

    std::byte* allocate_host(std::uint64_t bytes, HostMemory kind, int numa_node) override {
        std::string note;
        std::byte* p = allocate_aligned(bytes, numa_node, &note);
        if (p == nullptr) throw BenchError(BenchError::Kind::failed, "out of host memory allocating a " + std::to_string(bytes) + "-byte host buffer");
        if (!note.empty()) add_note(note);
        HostAllocation h{p, round_up(bytes, kBufferAlign), false};
        if (kind == HostMemory::pinned) {
            if (mlock(p, h.bytes) == 0)
                h.locked = true;
            else
                add_note(std::string("pinned host memory: mlock refused (") + std::strerror(errno) +
                         "), so \"pinned\" buffers are ordinary memory on the CPU backend");
        }
        host_.push_back(h);
        return p;
    }

    int create_event() override {
        events_.push_back(std::make_unique<CpuEvent>());
        return static_cast<int>(events_.size() - 1);
    }

    void release() override {
        synchronize();  // throws, keeping every buffer, when an engine is still busy past the timeout
        for (auto& d : device_) free_aligned(d.data);
        for (auto& h : host_) {
            if (h.locked) munlock(h.data, h.bytes);
            free_aligned(h.data);
        }
        device_.clear();
        host_.clear();
        events_.clear();
    }

    void record(int event, Engine engine) override {
        CpuEvent* e = events_.at(event).get();
        std::uint64_t generation;
        {
            std::lock_guard lock(e->mutex);
            generation = ++e->recorded;
        }
        on(engine).submit([e, generation] {
            {
                std::lock_guard lock(e->mutex);
                e->when = Clock::now();
                e->reached = generation;
            }
            e->changed.notify_all();
        });
    }

    void engine_wait(Engine engine, int event) override {
        CpuEvent* e = events_.at(event).get();
        std::uint64_t generation;
        {
            std::lock_guard lock(e->mutex);
            generation = e->recorded;
        }
        on(engine).submit([e, generation] { e->wait_for(generation); });
    }

    void host_wait(int event) override {
        CpuEvent* e = events_.at(event).get();
        std::uint64_t generation;
        {
            std::lock_guard lock(e->mutex);
            generation = e->recorded;
        }
        if (!e->wait_for(generation, wait_timeout_)) throw BenchError(BenchError::Kind::failed, wait_timeout_message("a point the host waited for", timeout_seconds()));
    }

    void set_wait_timeout(double seconds) override {
        wait_timeout_ = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    }

    double elapsed_ms(int from_event, int to_event) override {
        CpuEvent* a = events_.at(from_event).get();
        CpuEvent* b = events_.at(to_event).get();
        Clock::time_point ta, tb;
        {
            std::lock_guard lock(a->mutex);
            ta = a->when;
        }
        {
            std::lock_guard lock(b->mutex);
            tb = b->when;
        }
        return std::chrono::duration<double, std::milli>(tb - ta).count();
    }

    void enqueue_decode(int buffer, std::uint64_t chunk, std::uint64_t sequence) override {
        std::byte* out = device_.at(buffer).data;
        const FrameLayout layout = layout_;
        const Clock::duration target = target_;
        const bool busy = kind_ == DecoderKind::compute_bound;
        compute_.submit([out, layout, chunk, sequence, target, busy] {
            const Clock::time_point start = Clock::now();
            std::uint64_t trailer[kTrailerHeaderWords];
            trailer[0] = kTrailerMagic;
            trailer[1] = sequence;
            std::memcpy(out + layout.trailer_offset(), trailer, sizeof trailer);
            for (std::uint32_t f = 0; f < layout.frames_per_chunk; ++f) {
                const std::uint64_t frame = chunk * layout.frames_per_chunk + f;
                std::byte* dst = out + f * layout.frame_pitch();
                std::uint64_t sum = 0;
                for (std::uint64_t k = 0, n = layout.frame_words(); k < n; ++k) {
                    const std::uint64_t w = frame_word(layout, frame, k);
                    std::memcpy(dst + 8 * k, &w, 8);
                    sum += checksum_term(w, k);
                }
                std::memcpy(out + layout.trailer_offset() + 8 * (kTrailerHeaderWords + f), &sum, 8);
            }
            if (!busy) {
                std::this_thread::sleep_until(start + target);
                return;
            }
            // Compute-bound: the core stays busy with multiply-adds on registers until the target.
            volatile float sink = 0;
            float x = 1.0f;
            while (Clock::now() < start + target) {
                for (int k = 0; k < 4096; ++k) x = x * 0.999f + 0.001f;
                sink = x;
            }
            (void)sink;
        });
    }

    void enqueue_copy_to_host(Engine engine, std::byte* host, int buffer) override {
        const std::byte* src = device_.at(buffer).data;
        const std::uint64_t bytes = layout_.buffer_bytes();
        on(engine).submit([host, src, bytes] { std::memcpy(host, src, bytes); });
    }

    void synchronize() override {
        if (!compute_.drain(wait_timeout_) || !copy_.drain(wait_timeout_))
            throw BenchError(BenchError::Kind::failed, wait_timeout_message("synchronize (both engines idle)", timeout_seconds()));
    }

private:
    CpuEngine& on(Engine engine) { return engine == Engine::compute ? compute_ : copy_; }
    double timeout_seconds() const { return std::chrono::duration<double>(wait_timeout_).count(); }
    void add_note(const std::string& note) {
        std::lock_guard lock(notes_mutex_);
        if (std::find(notes_.begin(), notes_.end(), note) == notes_.end()) notes_.push_back(note);
    }

    FrameLayout layout_;
    Clock::duration target_{};
    std::vector<HostAllocation> device_, host_;
    std::vector<std::unique_ptr<CpuEvent>> events_;
    Clock::duration wait_timeout_ = std::chrono::seconds(60);
    mutable std::mutex notes_mutex_;
    std::vector<std::string> notes_;
    // Engines last: destroyed first, so no work runs on freed buffers or events.
    DecoderKind kind_ = DecoderKind::memory_bound;
    CpuEngine compute_, copy_;
};

}  // namespace

std::shared_ptr<DecodeBackend> make_cpu_backend() { return std::make_shared<CpuBackend>(); }

}  // namespace gpuplan::bench
