// decode_backend_cuda.cu — the CUDA backend: real streams, events, pinned memory and a
// synthetic decoder kernel.
//
// NOT YET RUN ON A REAL GPU: it compiles for sm_75..sm_120 and, on machines without a
// driver, make_cuda_backend reports "no usable GPU here". Treat its first numbers on an
// instance with that in mind (docs/decode-pipeline.md, "The benchmark").
//
// The synthetic decoder stands in for a convolutional VAE decoder: memory-bound passes that
// read and write a 256 MiB "activation" scratch buffer (streaming like conv layers do),
// then one kernel that writes the chunk's frames with the deterministic pattern and adds
// up each frame's checksum from the values it wrote (frame_layout.hpp). prepare() times a
// pass and the frame kernel alone with events and picks the number of passes that brings a
// chunk to the requested milliseconds. Every CUDA call is checked (cuda_check.hpp).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

#include "cuda_check.hpp"
#include "decode_backend.hpp"
#include "host_memory.hpp"

namespace gpuplan::bench {

namespace {

constexpr int kThreads = 256;
constexpr std::uint64_t kScratchBytes = 256ull << 20;  // larger than any current L2 (B200: 126 MB)
constexpr std::uint64_t kMinPassFloat4 = 1ull << 16;   // 1 MiB: the finest step calibration takes
constexpr int kRegisterFmas = 1024;                    // compute-bound pass: rounds of 4 FMAs per thread

// One streaming pass over the scratch activations: read, multiply-add, write (16 B/thread/step).
__global__ void scratch_pass(float4* __restrict__ x, std::uint64_t n, float a, float b) {
    for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n; i += std::uint64_t{gridDim.x} * blockDim.x) {
        float4 v = x[i];
        v.x = v.x * a + b;
        v.y = v.y * a + b;
        v.z = v.z * a + b;
        v.w = v.w * a + b;
        x[i] = v;
    }
}

// The compute-bound stand-in (--decoder compute): each thread reads 16 bytes, runs `fmas`
// rounds of four multiply-adds on registers, and writes them back, so the SMs set the time and
// memory traffic is a few MB per pass.
__global__ void register_pass(float4* __restrict__ x, std::uint64_t n, int fmas, float a, float b) {
    const std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
    if (i >= n) return;
    float4 v = x[i];
    for (int k = 0; k < fmas; ++k) {
        v.x = v.x * a + b;
        v.y = v.y * a + b;
        v.z = v.z * a + b;
        v.w = v.w * a + b;
    }
    x[i] = v;
}

// Writes frame blockIdx.y of `chunk` and adds its checksum into the trailer (zeroed first by
// the caller). Each warp adds its partial sum once: checksum_term sums are order-independent.
__global__ void emit_frames(unsigned char* buffer, FrameLayout layout, std::uint64_t chunk, std::uint64_t sequence) {
    const std::uint32_t f = blockIdx.y;
    const std::uint64_t frame = chunk * layout.frames_per_chunk + f;
    auto* words = reinterpret_cast<unsigned long long*>(buffer + f * layout.frame_pitch());
    auto* trailer = reinterpret_cast<unsigned long long*>(buffer + layout.trailer_offset());
    const std::uint64_t n = layout.frame_words();
    unsigned long long sum = 0;
    for (std::uint64_t k = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; k < n; k += std::uint64_t{gridDim.x} * blockDim.x) {
        const std::uint64_t w = frame_word(layout, frame, k);
        words[k] = w;
        sum += checksum_term(w, k);
    }
    for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if ((threadIdx.x & 31u) == 0 && sum != 0) atomicAdd(&trailer[kTrailerHeaderWords + f], sum);
    if (blockIdx.x == 0 && f == 0 && threadIdx.x == 0) {
        trailer[0] = kTrailerMagic;
        trailer[1] = sequence;
    }
}

std::string version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

struct HostAllocation {
    std::byte* data = nullptr;
    enum class How { cuda_host, registered, plain } how = How::plain;
};

class CudaBackend final : public DecodeBackend {
public:
    explicit CudaBackend(int device) : device_index_(device) {
        GPUPLAN_CUDA_CHECK(cudaSetDevice(device_index_));
        cudaDeviceProp p{};
        GPUPLAN_CUDA_CHECK(cudaGetDeviceProperties(&p, device_index_));
        name_ = p.name;
        multiprocessors_ = p.multiProcessorCount;
        GPUPLAN_CUDA_CHECK(cudaStreamCreateWithFlags(&compute_, cudaStreamNonBlocking));
        GPUPLAN_CUDA_CHECK(cudaStreamCreateWithFlags(&copy_, cudaStreamNonBlocking));
    }
    ~CudaBackend() override {
        try {
            release();
            if (scratch_ != nullptr) GPUPLAN_CUDA_CHECK(cudaFree(scratch_));
            GPUPLAN_CUDA_CHECK(cudaStreamDestroy(compute_));
            GPUPLAN_CUDA_CHECK(cudaStreamDestroy(copy_));
        } catch (const std::exception& e) {
            std::fprintf(stderr, "gpuplan: note: while releasing the CUDA backend: %s\n", e.what());
        }
    }

    std::string name() const override { return "cuda"; }
    std::string device_name() const override { return name_ + " (device " + std::to_string(device_index_) + ")"; }
    MemoryBudget memory_budget() override {
        std::size_t free_bytes = 0, total = 0;
        GPUPLAN_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
        MemoryBudget b;
        b.device_free_bytes = free_bytes;
        b.host_available_bytes = host_available_bytes();
        return b;
    }
    std::uint64_t decoder_device_bytes(const FrameLayout&) const override { return scratch_ == nullptr ? kScratchBytes : 0; }
    std::vector<std::string> notes() const override { return notes_; }

    Calibration prepare(const FrameLayout& layout, double compute_ms, DecoderKind kind) override {
        layout_ = layout;
        kind_ = kind;
        if (scratch_ == nullptr) {
            GPUPLAN_CUDA_CHECK(cudaMalloc(&scratch_, kScratchBytes));
            GPUPLAN_CUDA_CHECK(cudaMemsetAsync(scratch_, 0, kScratchBytes, compute_));
        }
        // Compute-bound: one full wave of threads (2048 per SM) on registers; memory-bound: the whole scratch.
        pass_float4_ = kind == DecoderKind::compute_bound ? static_cast<std::uint64_t>(multiprocessors_) * 2048 : kScratchBytes / 16;
        passes_ = 0;
        const int buffer = allocate_device(layout.buffer_bytes());
        const int a = create_event(), b = create_event();
        // The median of 5 timings of `work` on the compute stream, after one untimed run.
        const auto time_ms = [&](const std::function<void()>& work) {
            work();
            std::vector<double> ms;
            for (int k = 0; k < 5; ++k) {
                record(a, Engine::compute);
                work();
                record(b, Engine::compute);
                host_wait(b);
                ms.push_back(elapsed_ms(a, b));
            }
            std::sort(ms.begin(), ms.end());
            return ms[2];
        };
        const double emit_ms = time_ms([&] { launch_emit(device_.at(buffer), 0, 0); });
        double pass_ms = time_ms([&] { launch_pass(); });
        // A pass longer than 1/8 of the target makes the step too coarse: shorten it.
        if (kind == DecoderKind::memory_bound && pass_ms > compute_ms / 8 && pass_float4_ > kMinPassFloat4) {
            const double scale = std::max(compute_ms / 8 / pass_ms, static_cast<double>(kMinPassFloat4) / static_cast<double>(pass_float4_));
            pass_float4_ = std::max<std::uint64_t>(kMinPassFloat4, static_cast<std::uint64_t>(static_cast<double>(pass_float4_) * scale));
            pass_ms = time_ms([&] { launch_pass(); });
        }
        passes_ = pass_ms > 0 ? static_cast<int>(std::lround(std::max(0.0, compute_ms - emit_ms) / pass_ms)) : 0;
        Calibration c;
        c.isolated_compute_ms = time_ms([&] { enqueue_decode(buffer, 0, 0); });
        char text[320];
        if (kind == DecoderKind::compute_bound)
            std::snprintf(text, sizeof text,
                          "%d compute-bound passes of %d x 4 multiply-adds per thread over %.1f MiB held in registers (%.3f ms each) + the frame "
                          "kernel (%.3f ms), timed with CUDA events on %s",
                          passes_, kRegisterFmas, static_cast<double>(pass_float4_) * 16 / (1 << 20), pass_ms, emit_ms, name_.c_str());
        else
            std::snprintf(text, sizeof text,
                          "%d streaming passes over %.1f MiB of scratch activations (%.3f ms each) + the frame kernel (%.3f ms), timed with CUDA "
                          "events on %s",
                          passes_, static_cast<double>(pass_float4_) * 16 / (1 << 20), pass_ms, emit_ms, name_.c_str());
        c.method = text;
        release();
        return c;
    }

    int allocate_device(std::uint64_t bytes) override {
        void* p = nullptr;
        GPUPLAN_CUDA_CHECK(cudaMalloc(&p, bytes));
        device_.push_back(static_cast<unsigned char*>(p));
        return static_cast<int>(device_.size() - 1);
    }

    std::byte* allocate_host(std::uint64_t bytes, HostMemory kind, int numa_node) override {
        HostAllocation h;
        if (kind == HostMemory::pinned && numa_node < 0) {
            void* p = nullptr;
            GPUPLAN_CUDA_CHECK(cudaMallocHost(&p, bytes));
            h = {static_cast<std::byte*>(p), HostAllocation::How::cuda_host};
        } else {
            // NUMA-bound or pageable: page-aligned memory, bound first, then (if pinned)
            // registered with CUDA so the copy engine can DMA into it directly.
            std::string note;
            std::byte* p = allocate_aligned(bytes, numa_node, &note);
            if (p == nullptr) throw BenchError(BenchError::Kind::failed, "out of host memory allocating a " + std::to_string(bytes) + "-byte host buffer");
            if (!note.empty() && std::find(notes_.begin(), notes_.end(), note) == notes_.end()) notes_.push_back(note);
            h = {p, HostAllocation::How::plain};
            if (kind == HostMemory::pinned) {
                host_.push_back(h);  // freed by release() even if registering fails
                GPUPLAN_CUDA_CHECK(cudaHostRegister(p, bytes, cudaHostRegisterDefault));
                host_.back().how = HostAllocation::How::registered;
                return p;
            }
        }
        host_.push_back(h);
        return h.data;
    }

    int create_event() override {
        cudaEvent_t e = nullptr;
        // Blocking sync: a host thread waiting on an event sleeps instead of spinning a core
        // the writer may need. Timing stays enabled.
        GPUPLAN_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventBlockingSync));
        events_.push_back(e);
        return static_cast<int>(events_.size() - 1);
    }

    void release() override {
        synchronize();
        for (unsigned char* d : device_) GPUPLAN_CUDA_CHECK(cudaFree(d));
        device_.clear();
        for (const HostAllocation& h : host_) {
            if (h.how == HostAllocation::How::cuda_host) {
                GPUPLAN_CUDA_CHECK(cudaFreeHost(h.data));
                continue;
            }
            if (h.how == HostAllocation::How::registered) GPUPLAN_CUDA_CHECK(cudaHostUnregister(h.data));
            free_aligned(h.data);
        }
        host_.clear();
        for (cudaEvent_t e : events_) GPUPLAN_CUDA_CHECK(cudaEventDestroy(e));
        events_.clear();
    }

    void record(int event, Engine engine) override { GPUPLAN_CUDA_CHECK(cudaEventRecord(events_.at(event), stream(engine))); }
    void engine_wait(Engine engine, int event) override { GPUPLAN_CUDA_CHECK(cudaStreamWaitEvent(stream(engine), events_.at(event), 0)); }
    // Polled, not cudaEventSynchronize: that has no deadline, and a hung GPU must end the run
    // with its results rather than hang it. Yields for the first 200 us (a short wait costs no
    // sleep's wake-up latency), then sleeps 50 us between polls so a long wait leaves the core
    // to the writer thread.
    void host_wait(int event) override {
        poll_until("a point the host waited for", [&] { return cudaEventQuery(events_.at(event)); });
    }
    void set_wait_timeout(double seconds) override { wait_timeout_s_ = seconds; }
    void attach_thread() override { GPUPLAN_CUDA_CHECK(cudaSetDevice(device_index_)); }
    double elapsed_ms(int from_event, int to_event) override {
        float ms = 0;
        GPUPLAN_CUDA_CHECK(cudaEventElapsedTime(&ms, events_.at(from_event), events_.at(to_event)));
        return ms;
    }

    void enqueue_decode(int buffer, std::uint64_t chunk, std::uint64_t sequence) override {
        unsigned char* out = device_.at(buffer);
        for (int k = 0; k < passes_; ++k) launch_pass();
        launch_emit(out, chunk, sequence);
    }

    void enqueue_copy_to_host(Engine engine, std::byte* host, int buffer) override {
        GPUPLAN_CUDA_CHECK(cudaMemcpyAsync(host, device_.at(buffer), layout_.buffer_bytes(), cudaMemcpyDeviceToHost, stream(engine)));
    }

    void synchronize() override {
        poll_until("synchronize (the compute stream)", [&] { return cudaStreamQuery(compute_); });
        poll_until("synchronize (the copy stream)", [&] { return cudaStreamQuery(copy_); });
    }

private:
    template <class Query>
    void poll_until(const char* what, Query query) {
        using Clock = std::chrono::steady_clock;
        const Clock::time_point start = Clock::now();
        const auto deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(wait_timeout_s_));
        for (;;) {
            const cudaError_t status = query();
            if (status == cudaSuccess) return;
            if (status != cudaErrorNotReady) GPUPLAN_CUDA_CHECK(status);
            const Clock::time_point now = Clock::now();
            if (now > deadline) throw BenchError(BenchError::Kind::failed, wait_timeout_message(what, wait_timeout_s_));
            if (now - start < std::chrono::microseconds(200)) std::this_thread::yield();
            else std::this_thread::sleep_for(std::chrono::microseconds(50));
        }
    }

    double wait_timeout_s_ = 60;
    cudaStream_t stream(Engine engine) const { return engine == Engine::compute ? compute_ : copy_; }

    void launch_pass() {
        if (kind_ == DecoderKind::compute_bound) {
            const std::uint64_t blocks = (pass_float4_ + kThreads - 1) / kThreads;
            register_pass<<<static_cast<unsigned>(blocks), kThreads, 0, compute_>>>(static_cast<float4*>(scratch_), pass_float4_, kRegisterFmas, 0.999f,
                                                                                     0.001f);
            GPUPLAN_CUDA_CHECK(cudaGetLastError());
            return;
        }
        const std::uint64_t blocks = std::min<std::uint64_t>((pass_float4_ + kThreads - 1) / kThreads, static_cast<std::uint64_t>(multiprocessors_) * 8);
        scratch_pass<<<static_cast<unsigned>(blocks), kThreads, 0, compute_>>>(static_cast<float4*>(scratch_), pass_float4_, 0.999f, 0.001f);
        GPUPLAN_CUDA_CHECK(cudaGetLastError());
    }

    void launch_emit(unsigned char* out, std::uint64_t chunk, std::uint64_t sequence) {
        GPUPLAN_CUDA_CHECK(cudaMemsetAsync(out + layout_.trailer_offset(), 0, layout_.trailer_words() * 8, compute_));
        const std::uint64_t per_frame = std::min<std::uint64_t>((layout_.frame_words() + kThreads - 1) / kThreads,
                                                                std::max<std::uint64_t>(1, static_cast<std::uint64_t>(multiprocessors_) * 8 / layout_.frames_per_chunk));
        const dim3 grid(static_cast<unsigned>(std::max<std::uint64_t>(1, per_frame)), layout_.frames_per_chunk);
        emit_frames<<<grid, kThreads, 0, compute_>>>(out, layout_, chunk, sequence);
        GPUPLAN_CUDA_CHECK(cudaGetLastError());
    }

    int device_index_ = 0;
    std::string name_;
    int multiprocessors_ = 1;
    cudaStream_t compute_ = nullptr, copy_ = nullptr;
    FrameLayout layout_;
    void* scratch_ = nullptr;
    std::uint64_t pass_float4_ = kScratchBytes / 16;
    int passes_ = 0;
    DecoderKind kind_ = DecoderKind::memory_bound;
    std::vector<unsigned char*> device_;
    std::vector<HostAllocation> host_;
    std::vector<cudaEvent_t> events_;
    std::vector<std::string> notes_;
};

}  // namespace

bool cuda_backend_built() { return true; }

std::shared_ptr<DecodeBackend> make_cuda_backend(int device) {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        int runtime = 0;
        (void)cudaRuntimeGetVersion(&runtime);
        throw BenchError(BenchError::Kind::no_gpu, std::string("no usable GPU here: ") + cudaGetErrorString(err) + " (" + cudaGetErrorName(err) +
                                                       ", CUDA runtime " + version_text(runtime) +
                                                       "); the CUDA backend needs an NVIDIA GPU and driver; run with --backend cpu to measure the "
                                                       "pipeline with threads standing in for the GPU");
    }
    if (count == 0)
        throw BenchError(BenchError::Kind::no_gpu, "no usable GPU here: CUDA sees no device; run with --backend cpu");
    if (device < 0 || device >= count)
        throw BenchError(BenchError::Kind::bad_input,
                         "--device: got " + std::to_string(device) + "; expected a CUDA device index from 0 to " + std::to_string(count - 1));
    return std::make_shared<CudaBackend>(device);
}

}  // namespace gpuplan::bench
