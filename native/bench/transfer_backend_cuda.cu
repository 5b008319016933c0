// transfer_backend_cuda.cu — the CUDA backend of `gpuplan bench run` (transfer_backend.hpp).
//
// NOT YET RUN ON A REAL GPU: it compiles for sm_75..sm_120 and, without a driver,
// make_cuda_transfer_backend reports "no usable GPU here". Check its first numbers on an
// instance against nvbandwidth and BabelStream (docs/benchmarks.md).
//
// Copies: cudaMemcpyAsync (cudaMemcpyDefault, UVA) on one non-blocking stream per transfer,
// which the driver gives to a copy engine; "SM" copies are a grid-stride kernel of 8-byte
// loads/stores through the mapped device pointer of pinned host memory. STREAM kernels follow
// BabelStream (CUDAStream.cu): one kernel per operation, ceil(n / 4 / 256) blocks of 256
// threads, each thread four elements with every load issued before a store; dot by block
// partial sums over as many blocks as the GPU holds at once.
//
// A sample is queued the way nvbandwidth queues it: a spin kernel first holds each GPU's
// streams, then the start event, the copies or kernels and the end events are queued, then the
// host releases the spin, so the timed region holds device work only, never the host's enqueue
// (finding 6), and concurrent streams really start together. Pageable copies cannot be held
// (cudaMemcpyAsync from pageable memory returns only once the data are staged) and are queued
// straight. Timing: device events when one GPU issues everything; steady_clock from the release
// to the last end event when several GPUs take part.
//
// Nothing blocks the caller past the timeout (finding 10): the queueing runs on a worker thread
// the caller waits for with a deadline, and the end events are polled. Work that does not
// finish cannot be stopped, so the backend then refuses every later call that would touch the
// GPUs. Verification stages data through a pinned host buffer and checks it on the CPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <cctype>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include "cuda_check.hpp"
#include "host_memory.hpp"
#include "transfer_backend.hpp"

namespace gpuplan::bench {

namespace {

constexpr int kThreads = 256;
constexpr int kUnroll = 4;             // elements per thread in the STREAM kernels (BabelStream)
constexpr int kMaxHeldOps = 512;       // operations queued behind the spin kernel (below the driver's queue depth)
constexpr std::uint64_t kStageBytes = 64ull << 20;

__global__ void copy_words(unsigned long long* __restrict__ dst, const unsigned long long* __restrict__ src, std::uint64_t n) {
    for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n; i += std::uint64_t{gridDim.x} * blockDim.x) dst[i] = src[i];
}

// BabelStream's operations as functors: out[i] = f(x[i], y[i]).
struct CopyOp {
    static constexpr bool two_inputs = false;
    __device__ double operator()(double x, double) const { return x; }
};
struct ScaleOp {
    static constexpr bool two_inputs = false;
    double s;
    __device__ double operator()(double x, double) const { return s * x; }
};
struct AddOp {
    static constexpr bool two_inputs = true;
    __device__ double operator()(double x, double y) const { return x + y; }
};
struct TriadOp {
    static constexpr bool two_inputs = true;
    double s;
    __device__ double operator()(double x, double y) const { return x + s * y; }
};

// Each thread takes kUnroll elements a grid apart and loads them all before it stores any, so
// four loads per thread are in flight (one per iteration left HBM3 parts 10-20% short).
template <class F>
__global__ void stream_map(double* __restrict__ out, const double* __restrict__ x, const double* __restrict__ y, std::uint64_t n, F f) {
    const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
    std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
    for (; i + (kUnroll - 1) * stride < n; i += kUnroll * stride) {
        double vx[kUnroll], vy[kUnroll] = {};
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            vx[u] = x[i + u * stride];
            if (F::two_inputs) vy[u] = y[i + u * stride];
        }
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) out[i + u * stride] = f(vx[u], vy[u]);
    }
    for (; i < n; i += stride) out[i] = f(x[i], F::two_inputs ? y[i] : 0.0);
}

__global__ void stream_dot(const double* __restrict__ a, const double* __restrict__ b, double* __restrict__ sums, std::uint64_t n) {
    __shared__ double partial[kThreads];
    const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
    std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
    double sum[kUnroll] = {};
    for (; i + (kUnroll - 1) * stride < n; i += kUnroll * stride)
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) sum[u] += a[i + u * stride] * b[i + u * stride];
    for (; i < n; i += stride) sum[0] += a[i] * b[i];
    partial[threadIdx.x] = (sum[0] + sum[1]) + (sum[2] + sum[3]);
    __syncthreads();
    for (int half = kThreads / 2; half > 0; half /= 2) {
        if (static_cast<int>(threadIdx.x) < half) partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) sums[blockIdx.x] = partial[0];
}

__device__ unsigned long long globaltimer_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// Holds its stream until the host writes release[0] (nvbandwidth's spin kernel). It gives up
// by itself after timeout_ns and says so in release[1], so a host that never releases it
// cannot leave the GPU spinning.
__global__ void hold_until_released(volatile int* release, unsigned long long timeout_ns) {
    const unsigned long long start = globaltimer_ns();
    while (release[0] == 0)
        if (globaltimer_ns() - start > timeout_ns) {
            release[1] = 1;
            return;
        }
}

struct CudaBuffer {
    BufferSpec spec;
    void* ptr = nullptr;     // device pointer, or host pointer
    void* mapped = nullptr;  // pinned/registered host: the device's view of it
    enum class How { device, pageable, cuda_host, registered } how = How::device;
};

class CudaTransferBackend final : public TransferBackend {
public:
    explicit CudaTransferBackend(int count) : count_(count), streams_(static_cast<std::size_t>(count)), sums_(static_cast<std::size_t>(count), {nullptr, 0}) {
        for (int d = 0; d < count_; ++d) {
            cudaDeviceProp p{};
            GPUPLAN_CUDA_CHECK(cudaGetDeviceProperties(&p, d));
            props_.push_back(p);
        }
    }
    ~CudaTransferBackend() override {
        try {
            release_all();
            if (!poisoned_) {  // after a timeout a detached worker may still use them: the process exit reclaims them
                for (auto& [p, n] : sums_)
                    if (p != nullptr) cudaFree(p);
                if (flags_ != nullptr) cudaFreeHost(flags_);
            }
        } catch (...) {
        }
    }

    std::string name() const override { return "cuda"; }
    std::string timing_method() const override {
        return "CUDA events (cudaEventElapsedTime) around all reps of a sample when one GPU issues every transfer; std::chrono::steady_clock "
               "from launch to the last end event when several GPUs take part";
    }
    int device_count() const override { return count_; }

    DeviceFacts device_facts(int d) override {
        const cudaDeviceProp& p = props_.at(static_cast<std::size_t>(d));
        DeviceFacts f;
        f.name = p.name;
        char bus[32] = {};
        GPUPLAN_CUDA_CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, d));
        f.pci_bus_id = bus;
        f.compute_capability = std::to_string(p.major) + "." + std::to_string(p.minor);
        f.memory_gib = static_cast<double>(p.totalGlobalMem) / (1ull << 30);
        f.l2_bytes = static_cast<std::uint64_t>(p.l2CacheSize);
        f.copy_engines = p.asyncEngineCount;
        f.multiprocessors = p.multiProcessorCount;
        f.memory_bus_width_bits = p.memoryBusWidth;
        int khz = 0;
        if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, d) == cudaSuccess && khz > 0) f.sm_clock_mhz = khz / 1000.0;
        if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, d) == cudaSuccess && khz > 0) f.memory_clock_mhz = khz / 1000.0;
        std::string id = bus;
        for (auto& ch : id) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        if (const auto colon = id.find(':'); colon != std::string::npos && colon > 4) id = id.substr(colon - 4);
        std::ifstream numa("/sys/bus/pci/devices/" + id + "/numa_node");
        if (!(numa >> f.numa_node)) f.numa_node = -1;
        return f;
    }

    std::uint64_t device_free_bytes(int d) override {
        refuse_if_poisoned();  // the GPU may hold stuck work: this call could block on it
        GPUPLAN_CUDA_CHECK(cudaSetDevice(d));
        std::size_t free_bytes = 0, total = 0;
        GPUPLAN_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
        return free_bytes;
    }
    std::optional<std::string> unsupported(HostKind) const override { return std::nullopt; }
    std::optional<std::string> unsupported(CopyMethod m, Place) const override {
        if (m == CopyMethod::kernel && !props_.at(0).canMapHostMemory) return std::string("GPU 0 cannot map host memory (canMapHostMemory is 0)");
        return std::nullopt;
    }
    bool peer_advertised(int from, int to) override {
        int can = 0;
        GPUPLAN_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, from, to));
        return can != 0;
    }
    void enable_peer(int from, int to) override {
        GPUPLAN_CUDA_CHECK(cudaSetDevice(from));
        const cudaError_t e = cudaDeviceEnablePeerAccess(to, 0);
        if (e == cudaErrorPeerAccessAlreadyEnabled) {
            (void)cudaGetLastError();
            return;
        }
        GPUPLAN_CUDA_CHECK(e);
    }

    int allocate(const BufferSpec& spec) override {
        refuse_if_poisoned();  // the GPU may hold stuck work: this call could block on it
        CudaBuffer b;
        b.spec = spec;
        GPUPLAN_CUDA_CHECK(cudaSetDevice(spec.device));
        if (spec.place == Place::device) {
            if (cudaMalloc(&b.ptr, spec.bytes) != cudaSuccess) {
                (void)cudaGetLastError();
                throw BenchError(BenchError::Kind::bad_input, "cudaMalloc of " + std::to_string(spec.bytes) + " bytes on GPU " +
                                                                  std::to_string(spec.device) + " failed (out of device memory?)");
            }
        } else if (spec.host_kind == HostKind::pinned && spec.numa_node < 0) {
            GPUPLAN_CUDA_CHECK(cudaHostAlloc(&b.ptr, spec.bytes, cudaHostAllocPortable | cudaHostAllocMapped));
            b.how = CudaBuffer::How::cuda_host;
        } else {
            // Pageable, registered, or pinned on a chosen NUMA node (bound with mbind, then registered).
            std::string note;
            b.ptr = allocate_aligned(spec.bytes, spec.numa_node, &note);
            if (b.ptr == nullptr) throw BenchError(BenchError::Kind::bad_input, "out of host memory allocating " + std::to_string(spec.bytes) + " bytes");
            if (!note.empty()) notes_.push_back(note);
            b.how = CudaBuffer::How::pageable;
            if (spec.host_kind != HostKind::pageable) {
                GPUPLAN_CUDA_CHECK(cudaHostRegister(b.ptr, spec.bytes, cudaHostRegisterPortable | cudaHostRegisterMapped));
                b.how = CudaBuffer::How::registered;
            }
        }
        if (b.how == CudaBuffer::How::cuda_host || b.how == CudaBuffer::How::registered) GPUPLAN_CUDA_CHECK(cudaHostGetDevicePointer(&b.mapped, b.ptr, 0));
        buffers_.push_back(b);
        return static_cast<int>(buffers_.size() - 1);
    }

    void release_all() override {
        if (poisoned_) {  // work is stuck on a device: freeing would block; the process exit reclaims it
            buffers_.clear();
            return;
        }
        for (int d = 0; d < count_; ++d) {
            GPUPLAN_CUDA_CHECK(cudaSetDevice(d));
            GPUPLAN_CUDA_CHECK(cudaDeviceSynchronize());
        }
        for (auto& b : buffers_) {
            switch (b.how) {
            case CudaBuffer::How::device: GPUPLAN_CUDA_CHECK(cudaFree(b.ptr)); break;
            case CudaBuffer::How::cuda_host: GPUPLAN_CUDA_CHECK(cudaFreeHost(b.ptr)); break;
            case CudaBuffer::How::registered: GPUPLAN_CUDA_CHECK(cudaHostUnregister(b.ptr)); free_aligned(static_cast<std::byte*>(b.ptr)); break;
            case CudaBuffer::How::pageable: free_aligned(static_cast<std::byte*>(b.ptr)); break;
            }
        }
        buffers_.clear();
        if (stage_ != nullptr) GPUPLAN_CUDA_CHECK(cudaFreeHost(stage_));
        stage_ = nullptr;
    }

    void fill_pattern(int id, std::uint64_t seed) override {
        refuse_if_poisoned();  // the GPU may hold stuck work: this call could block on it
        walk(id, buf(id).spec.bytes, true, [&](std::uint64_t* w, std::uint64_t first, std::uint64_t n) {
            for (std::uint64_t k = 0; k < n; ++k) w[k] = pattern_word(seed, first + k);
        });
    }
    std::uint64_t count_mismatches(int id, std::uint64_t seed, std::uint64_t bytes) override {
        refuse_if_poisoned();  // the GPU may hold stuck work: this call could block on it
        std::uint64_t bad = 0;
        walk(id, bytes, false, [&](std::uint64_t* w, std::uint64_t first, std::uint64_t n) {
            for (std::uint64_t k = 0; k < n; ++k) bad += w[k] != pattern_word(seed, first + k);
        });
        return bad;
    }
    void fill_value(int id, double value, std::uint64_t n) override {
        refuse_if_poisoned();  // the GPU may hold stuck work: this call could block on it
        walk(id, n * 8, true, [&](std::uint64_t* w, std::uint64_t, std::uint64_t m) {
            auto* d = reinterpret_cast<double*>(w);
            std::fill(d, d + m, value);
        });
    }
    double max_abs_error(int id, double expected, std::uint64_t n) override {
        refuse_if_poisoned();  // the GPU may hold stuck work: this call could block on it
        double worst = 0;
        walk(id, n * 8, false, [&](std::uint64_t* w, std::uint64_t, std::uint64_t m) {
            const auto* d = reinterpret_cast<const double*>(w);
            for (std::uint64_t k = 0; k < m; ++k) worst = std::max(worst, std::fabs(d[k] - expected));
        });
        return worst;
    }
    double last_read_sum() override { return read_sum_; }

    std::optional<double> run(const Op& op, int reps, double timeout_s, std::string& why) override {
        if (poisoned_) {
            why = "not run: " + *poisoned_;
            return std::nullopt;
        }
        using Clock = std::chrono::steady_clock;
        // Everything the queueing needs, made here (streams, events, scratch) so the worker
        // below touches no member of this object: after a timeout it may outlive the call.
        std::vector<int> devices;
        for (const auto& t : op.transfers)
            if (std::find(devices.begin(), devices.end(), t.device) == devices.end()) devices.push_back(t.device);
        if (op.stream) devices = {op.device};
        bool pageable = false;
        for (const auto& t : op.transfers)
            for (int id : {t.src, t.dst}) pageable = pageable || buf(id).how == CudaBuffer::How::pageable;
        struct Lane {
            int device;
            cudaStream_t stream;
            cudaEvent_t start, end;
        };
        struct Copy {
            int device, lane;
            cudaStream_t stream;
            cudaEvent_t end;
            void* dst;
            const void* src;
            std::uint64_t bytes;
            CopyMethod method;
            int blocks;
        };
        std::vector<Lane> lanes;
        for (int d : devices) lanes.push_back({d, stream(d, 0), event(d, 0), event(d, 1)});
        std::vector<Copy> copies;
        std::vector<int> per_device_index(static_cast<std::size_t>(count_), 0);
        for (const Transfer& t : op.transfers) {
            const int k = per_device_index[static_cast<std::size_t>(t.device)]++;
            const int lane = static_cast<int>(std::find(devices.begin(), devices.end(), t.device) - devices.begin());
            copies.push_back({t.device, lane, stream(t.device, k + 1), event(t.device, 2 + k), target(t.dst, t.method), target(t.src, t.method), t.bytes,
                              t.method, t.method == CopyMethod::kernel ? resident_blocks(t.device, reinterpret_cast<const void*>(copy_words)) : 0});
        }
        struct Kernel {
            StreamOp op;
            double *a = nullptr, *b = nullptr, *c = nullptr, *sums = nullptr;
            std::uint64_t n = 0;
            int blocks = 0;
        } kernel{};
        if (op.stream) {
            kernel = {*op.stream, dptr(op.a), dptr(op.b), op.c >= 0 ? dptr(op.c) : nullptr, nullptr, op.n, 0};
            if (*op.stream == StreamOp::read) {
                kernel.blocks = resident_blocks(op.device, reinterpret_cast<const void*>(stream_dot));
                kernel.sums = dot_sums(op.device, kernel.blocks);
            } else {
                kernel.blocks = static_cast<int>(std::min<std::uint64_t>((op.n + kThreads * kUnroll - 1) / (kThreads * kUnroll), 0x7fffffff));
            }
            stream_blocks_ = kernel.blocks;
        }
        int* flags = hold_flags();
        const bool hold = !pageable;  // a pageable copy would wait on the held stream, and the host on it
        flags[0] = flags[1] = 0;

        struct Queueing {
            std::mutex m;
            std::condition_variable cv;
            bool done = false;
            std::exception_ptr error;
            Clock::time_point released;
        };
        auto q = std::make_shared<Queueing>();
        const unsigned long long spin_timeout_ns = static_cast<unsigned long long>(timeout_s * 1e9);
        std::thread([q, lanes, copies, kernel, reps, hold, flags, spin_timeout_ns] {
            bool released = false;
            const auto release = [&] {
                if (released) return;
                __atomic_store_n(&flags[0], 1, __ATOMIC_SEQ_CST);
                released = true;
                const std::lock_guard<std::mutex> lock(q->m);
                q->released = Clock::now();
            };
            int held = 0;
            const auto queued_one = [&] {
                if (hold && ++held == kMaxHeldOps) release();  // the rest queue while the GPU works
            };
            try {
                if (!hold) release();  // host timing starts with the first call
                for (const Lane& l : lanes) {
                    GPUPLAN_CUDA_CHECK(cudaSetDevice(l.device));
                    if (hold) {
                        hold_until_released<<<1, 1, 0, l.stream>>>(flags, spin_timeout_ns);
                        GPUPLAN_CUDA_CHECK(cudaGetLastError());
                    }
                    GPUPLAN_CUDA_CHECK(cudaEventRecord(l.start, l.stream));
                }
                if (kernel.blocks > 0) {
                    const Lane& l = lanes.front();
                    for (int r = 0; r < reps; ++r) {
                        switch (kernel.op) {  // BabelStream: copy c=a, mul b=s*c, add c=a+b, triad a=b+s*c, dot sum(a*b)
                        case StreamOp::copy: stream_map<<<kernel.blocks, kThreads, 0, l.stream>>>(kernel.c, kernel.a, nullptr, kernel.n, CopyOp{}); break;
                        case StreamOp::scale:
                            stream_map<<<kernel.blocks, kThreads, 0, l.stream>>>(kernel.b, kernel.c, nullptr, kernel.n, ScaleOp{kStreamScalar});
                            break;
                        case StreamOp::add: stream_map<<<kernel.blocks, kThreads, 0, l.stream>>>(kernel.c, kernel.a, kernel.b, kernel.n, AddOp{}); break;
                        case StreamOp::triad:
                            stream_map<<<kernel.blocks, kThreads, 0, l.stream>>>(kernel.a, kernel.b, kernel.c, kernel.n, TriadOp{kStreamScalar});
                            break;
                        case StreamOp::read: stream_dot<<<kernel.blocks, kThreads, 0, l.stream>>>(kernel.a, kernel.b, kernel.sums, kernel.n); break;
                        }
                        queued_one();
                    }
                    GPUPLAN_CUDA_CHECK(cudaGetLastError());
                }
                for (const Copy& c : copies) {
                    const Lane& l = lanes[static_cast<std::size_t>(c.lane)];
                    GPUPLAN_CUDA_CHECK(cudaSetDevice(c.device));
                    GPUPLAN_CUDA_CHECK(cudaStreamWaitEvent(c.stream, l.start, 0));  // every stream starts at the release
                    for (int r = 0; r < reps; ++r) {
                        if (c.method == CopyMethod::engine) {
                            GPUPLAN_CUDA_CHECK(cudaMemcpyAsync(c.dst, c.src, c.bytes, cudaMemcpyDefault, c.stream));
                        } else {
                            copy_words<<<c.blocks, kThreads, 0, c.stream>>>(static_cast<unsigned long long*>(c.dst),
                                                                          static_cast<const unsigned long long*>(c.src), c.bytes / 8);
                            GPUPLAN_CUDA_CHECK(cudaGetLastError());
                        }
                        queued_one();
                    }
                    GPUPLAN_CUDA_CHECK(cudaEventRecord(c.end, c.stream));
                    GPUPLAN_CUDA_CHECK(cudaStreamWaitEvent(l.stream, c.end, 0));
                }
                for (const Lane& l : lanes) {
                    GPUPLAN_CUDA_CHECK(cudaSetDevice(l.device));
                    GPUPLAN_CUDA_CHECK(cudaEventRecord(l.end, l.stream));
                }
                release();
            } catch (...) {
                release();
                const std::lock_guard<std::mutex> lock(q->m);
                q->error = std::current_exception();
            }
            const std::lock_guard<std::mutex> lock(q->m);
            q->done = true;
            q->cv.notify_all();
        }).detach();

        const Clock::time_point deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
        const auto give_up = [&](const std::string& stage) -> std::optional<double> {
            __atomic_store_n(&flags[0], 1, __ATOMIC_SEQ_CST);
            why = stage + " did not finish within " + std::to_string(timeout_s) + " s";
            poisoned_ = "an earlier run on GPU " + std::to_string(devices.front()) + " did not finish within its timeout and cannot be stopped; "
                        "later cases on the cuda backend are skipped (restart the benchmark)";
            return std::nullopt;
        };
        Clock::time_point released;
        {
            std::unique_lock<std::mutex> lock(q->m);
            if (!q->cv.wait_until(lock, deadline, [&] { return q->done; })) return give_up("queueing the copies (a blocked CUDA call)");
            if (q->error) std::rethrow_exception(q->error);
            released = q->released;
        }
        // Poll, never block: a stuck transfer must not hang the run.
        for (const Lane& l : lanes)
            for (;;) {
                const cudaError_t e = cudaEventQuery(l.end);
                if (e == cudaSuccess) break;
                if (e != cudaErrorNotReady) GPUPLAN_CUDA_CHECK(e);
                if (Clock::now() > deadline) return give_up("the run");
                std::this_thread::sleep_for(std::chrono::microseconds(20));
            }
        const double host_seconds = std::chrono::duration<double>(Clock::now() - released).count();
        if (hold && __atomic_load_n(&flags[1], __ATOMIC_SEQ_CST) != 0)
            note_once("the spin kernel that holds a sample's work gave up after the timeout before the host released it: that sample includes "
                      "the host's queueing time");
        if (op.stream == StreamOp::read) {
            std::vector<double> sums(static_cast<std::size_t>(kernel.blocks));
            GPUPLAN_CUDA_CHECK(cudaSetDevice(op.device));
            GPUPLAN_CUDA_CHECK(cudaMemcpy(sums.data(), kernel.sums, sums.size() * sizeof(double), cudaMemcpyDeviceToHost));
            read_sum_ = 0;
            for (double v : sums) read_sum_ += v;
        }
        if (lanes.size() != 1) return host_seconds;
        float ms = 0;
        GPUPLAN_CUDA_CHECK(cudaEventElapsedTime(&ms, lanes.front().start, lanes.front().end));
        return ms / 1e3;
    }

    std::optional<std::string> poisoned() const override { return poisoned_; }
    std::vector<std::string> notes() const override { return notes_; }

private:
    CudaBuffer& buf(int id) { return buffers_.at(static_cast<std::size_t>(id)); }
    double* dptr(int id) { return static_cast<double*>(buf(id).ptr); }
    // Copy engines take any UVA pointer; an SM kernel needs the device's view of host memory.
    void* target(int id, CopyMethod m) {
        CudaBuffer& b = buf(id);
        if (m == CopyMethod::kernel && b.spec.place == Place::host) {
            if (b.mapped == nullptr) throw BenchError(BenchError::Kind::bad_input, "an SM copy needs pinned or registered host memory");
            return b.mapped;
        }
        return b.ptr;
    }
    void refuse_if_poisoned() const {
        if (poisoned_) throw BenchError(BenchError::Kind::failed, "not run: " + *poisoned_);
    }
    void note_once(const std::string& n) {
        if (std::find(notes_.begin(), notes_.end(), n) == notes_.end()) notes_.push_back(n);
    }
    // Blocks of `kernel` the whole GPU holds at once (SMs x resident blocks per SM at 256 threads).
    int resident_blocks(int device, const void* kernel) {
        int per_sm = 0;
        GPUPLAN_CUDA_CHECK(cudaSetDevice(device));
        GPUPLAN_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, 0));
        return std::max(1, per_sm) * props_.at(static_cast<std::size_t>(device)).multiProcessorCount;
    }
    double* dot_sums(int device, int blocks) {
        auto& slot = sums_[static_cast<std::size_t>(device)];
        if (slot.second < blocks) {
            GPUPLAN_CUDA_CHECK(cudaSetDevice(device));
            if (slot.first != nullptr) GPUPLAN_CUDA_CHECK(cudaFree(slot.first));
            GPUPLAN_CUDA_CHECK(cudaMalloc(&slot.first, static_cast<std::size_t>(blocks) * sizeof(double)));
            slot.second = blocks;
        }
        return slot.first;
    }
    // Two ints in pinned, mapped, portable host memory: [0] releases the spin kernels, [1] is set
    // by one that gave up. Never freed while the backend lives (a detached worker may hold it).
    int* hold_flags() {
        if (flags_ == nullptr) GPUPLAN_CUDA_CHECK(cudaHostAlloc(&flags_, 2 * sizeof(int), cudaHostAllocPortable | cudaHostAllocMapped));
        return static_cast<int*>(flags_);
    }
    cudaStream_t stream(int device, int k) {
        auto& v = streams_.at(static_cast<std::size_t>(device));
        while (static_cast<int>(v.size()) <= k) {
            GPUPLAN_CUDA_CHECK(cudaSetDevice(device));
            cudaStream_t s{};
            GPUPLAN_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
            v.push_back(s);
        }
        return v[static_cast<std::size_t>(k)];
    }
    cudaEvent_t event(int device, int k) {
        auto& v = events_[device];
        while (static_cast<int>(v.size()) <= k) {
            GPUPLAN_CUDA_CHECK(cudaSetDevice(device));
            cudaEvent_t e{};
            GPUPLAN_CUDA_CHECK(cudaEventCreate(&e));
            v.push_back(e);
        }
        return v[static_cast<std::size_t>(k)];
    }
    // Visits `bytes` of a buffer in staged pieces: host buffers in place, device buffers through a
    // pinned staging buffer (copied in first when reading, out afterwards when writing).
    template <class F>
    void walk(int id, std::uint64_t bytes, bool writing, F f) {
        CudaBuffer& b = buf(id);
        if (b.spec.place == Place::host) {
            f(static_cast<std::uint64_t*>(b.ptr), 0, bytes / 8);
            return;
        }
        if (stage_ == nullptr) GPUPLAN_CUDA_CHECK(cudaMallocHost(&stage_, kStageBytes));
        GPUPLAN_CUDA_CHECK(cudaSetDevice(b.spec.device));
        for (std::uint64_t off = 0; off < bytes; off += kStageBytes) {
            const std::uint64_t n = std::min(kStageBytes, bytes - off);
            auto* dev = static_cast<char*>(b.ptr) + off;
            if (!writing) GPUPLAN_CUDA_CHECK(cudaMemcpy(stage_, dev, n, cudaMemcpyDeviceToHost));
            f(static_cast<std::uint64_t*>(stage_), off / 8, n / 8);
            if (writing) GPUPLAN_CUDA_CHECK(cudaMemcpy(dev, stage_, n, cudaMemcpyHostToDevice));
        }
    }

    int count_;
    std::vector<cudaDeviceProp> props_;
    std::vector<std::vector<cudaStream_t>> streams_;
    std::map<int, std::vector<cudaEvent_t>> events_;
    std::vector<std::pair<double*, int>> sums_;  // per GPU: the dot kernel's partial sums and their count
    void* flags_ = nullptr;
    std::vector<CudaBuffer> buffers_;
    std::vector<std::string> notes_;
    std::optional<std::string> poisoned_;
    void* stage_ = nullptr;
    int stream_blocks_ = 0;
    double read_sum_ = 0;
};

}  // namespace

std::shared_ptr<TransferBackend> make_cuda_transfer_backend() {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        throw BenchError(BenchError::Kind::no_gpu, std::string("no usable GPU here: ") + cudaGetErrorString(err) + " (" + cudaGetErrorName(err) +
                                                       "); run with --backend cpu");
    }
    if (count == 0) throw BenchError(BenchError::Kind::no_gpu, "no usable GPU here: CUDA sees no device; run with --backend cpu");
    return std::make_shared<CudaTransferBackend>(count);
}

}  // namespace gpuplan::bench
