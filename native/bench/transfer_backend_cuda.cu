// transfer_backend_cuda.cu — the CUDA backend of `gpuplan bench run` (transfer_backend.hpp).
//
// NOT YET RUN ON A REAL GPU: it compiles for sm_75..sm_120 and, without a driver,
// make_cuda_transfer_backend reports "no usable GPU here". Check its first numbers on an
// instance against nvbandwidth and BabelStream (docs/benchmarks.md).
//
// Copies: cudaMemcpyAsync (cudaMemcpyDefault, UVA) on one non-blocking stream per transfer,
// which the driver gives to a copy engine; "SM" copies are a grid-stride kernel of 8-byte
// loads/stores through the mapped device pointer of pinned host memory. STREAM kernels
// follow BabelStream (fp64, grid-stride, dot by block partial sums). Timing: device events
// around all reps of a sample when every transfer is issued by one GPU (concurrent streams
// are fenced with events so they start together); steady_clock from launch to the last end
// event when several GPUs take part. Waiting polls cudaEventQuery until the timeout: a
// stuck copy or kernel cannot be stopped, so the backend then refuses further work.
// Verification stages data through a pinned host buffer and checks it on the CPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <map>
#include <cstring>
#include <fstream>
#include <thread>

#include "cuda_check.hpp"
#include "host_memory.hpp"
#include "transfer_backend.hpp"

namespace gpuplan::bench {

namespace {

constexpr int kThreads = 256;
constexpr std::uint64_t kStageBytes = 64ull << 20;

__global__ void copy_words(unsigned long long* __restrict__ dst, const unsigned long long* __restrict__ src, std::uint64_t n) {
    for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n; i += std::uint64_t{gridDim.x} * blockDim.x) dst[i] = src[i];
}

__global__ void stream_kernel(int op, double* __restrict__ a, double* __restrict__ b, double* __restrict__ c, double* __restrict__ sums,
                              std::uint64_t n, double s) {
    __shared__ double partial[kThreads];
    double sum = 0;
    for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n; i += std::uint64_t{gridDim.x} * blockDim.x) {
        switch (op) {
        case 0: c[i] = a[i]; break;
        case 1: b[i] = s * c[i]; break;
        case 2: c[i] = a[i] + b[i]; break;
        case 3: a[i] = b[i] + s * c[i]; break;
        default: sum += a[i] * b[i]; break;
        }
    }
    if (op != 4) return;
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int half = kThreads / 2; half > 0; half /= 2) {
        if (static_cast<int>(threadIdx.x) < half) partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) sums[blockIdx.x] = partial[0];
}

struct CudaBuffer {
    BufferSpec spec;
    void* ptr = nullptr;     // device pointer, or host pointer
    void* mapped = nullptr;  // pinned/registered host: the device's view of it
    enum class How { device, pageable, cuda_host, registered } how = How::device;
};

class CudaTransferBackend final : public TransferBackend {
public:
    explicit CudaTransferBackend(int count) : count_(count), streams_(static_cast<std::size_t>(count)), sums_(static_cast<std::size_t>(count), nullptr) {
        for (int d = 0; d < count_; ++d) {
            cudaDeviceProp p{};
            GPUPLAN_CUDA_CHECK(cudaGetDeviceProperties(&p, d));
            props_.push_back(p);
        }
    }
    ~CudaTransferBackend() override {
        try {
            release_all();
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
        walk(id, buf(id).spec.bytes, true, [&](std::uint64_t* w, std::uint64_t first, std::uint64_t n) {
            for (std::uint64_t k = 0; k < n; ++k) w[k] = pattern_word(seed, first + k);
        });
    }
    std::uint64_t count_mismatches(int id, std::uint64_t seed, std::uint64_t bytes) override {
        std::uint64_t bad = 0;
        walk(id, bytes, false, [&](std::uint64_t* w, std::uint64_t first, std::uint64_t n) {
            for (std::uint64_t k = 0; k < n; ++k) bad += w[k] != pattern_word(seed, first + k);
        });
        return bad;
    }
    void fill_value(int id, double value, std::uint64_t n) override {
        walk(id, n * 8, true, [&](std::uint64_t* w, std::uint64_t, std::uint64_t m) {
            auto* d = reinterpret_cast<double*>(w);
            std::fill(d, d + m, value);
        });
    }
    double max_abs_error(int id, double expected, std::uint64_t n) override {
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
        std::vector<int> devices;
        for (const auto& t : op.transfers)
            if (std::find(devices.begin(), devices.end(), t.device) == devices.end()) devices.push_back(t.device);
        if (op.stream) devices = {op.device};
        const bool one_device = devices.size() == 1;
        const int lead = devices.front();
        cudaStream_t lead_stream = stream(lead, 0);
        GPUPLAN_CUDA_CHECK(cudaSetDevice(lead));
        cudaEvent_t start = event(lead, 0), lead_end = event(lead, 1);
        GPUPLAN_CUDA_CHECK(cudaEventRecord(start, lead_stream));
        std::vector<cudaEvent_t> ends;
        const Clock::time_point t0 = Clock::now();
        if (op.stream) {
            const int blocks = props_.at(static_cast<std::size_t>(lead)).multiProcessorCount * 4;
            if (sums_[static_cast<std::size_t>(lead)] == nullptr) GPUPLAN_CUDA_CHECK(cudaMalloc(&sums_[static_cast<std::size_t>(lead)], 4096 * sizeof(double)));
            for (int r = 0; r < reps; ++r)
                stream_kernel<<<std::min(blocks, 4096), kThreads, 0, lead_stream>>>(
                    static_cast<int>(*op.stream), dptr(op.a), dptr(op.b), op.c >= 0 ? dptr(op.c) : nullptr, sums_[static_cast<std::size_t>(lead)], op.n,
                    kStreamScalar);
            GPUPLAN_CUDA_CHECK(cudaGetLastError());
            stream_blocks_ = std::min(blocks, 4096);
        }
        std::vector<int> per_device_index(static_cast<std::size_t>(count_), 0);
        for (const Transfer& t : op.transfers) {
            GPUPLAN_CUDA_CHECK(cudaSetDevice(t.device));
            const int k = per_device_index[static_cast<std::size_t>(t.device)]++;
            cudaStream_t s = stream(t.device, k + 1);
            if (one_device) GPUPLAN_CUDA_CHECK(cudaStreamWaitEvent(s, start, 0));  // all streams start together
            void* dst = target(t.dst, t.method);
            const void* src = target(t.src, t.method);
            for (int r = 0; r < reps; ++r) {
                if (t.method == CopyMethod::engine) {
                    GPUPLAN_CUDA_CHECK(cudaMemcpyAsync(dst, src, t.bytes, cudaMemcpyDefault, s));
                } else {
                    const int blocks = props_.at(static_cast<std::size_t>(t.device)).multiProcessorCount * 4;
                    copy_words<<<blocks, kThreads, 0, s>>>(static_cast<unsigned long long*>(dst), static_cast<const unsigned long long*>(src), t.bytes / 8);
                    GPUPLAN_CUDA_CHECK(cudaGetLastError());
                }
            }
            cudaEvent_t e = event(t.device, 2 + k);
            GPUPLAN_CUDA_CHECK(cudaEventRecord(e, s));
            if (one_device) GPUPLAN_CUDA_CHECK(cudaStreamWaitEvent(lead_stream, e, 0));
            ends.push_back(e);
        }
        GPUPLAN_CUDA_CHECK(cudaSetDevice(lead));
        GPUPLAN_CUDA_CHECK(cudaEventRecord(lead_end, lead_stream));
        ends.push_back(lead_end);
        // Poll, never block: a stuck transfer must not hang the run.
        const Clock::time_point deadline = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
        for (cudaEvent_t e : ends) {
            for (;;) {
                const cudaError_t q = cudaEventQuery(e);
                if (q == cudaSuccess) break;
                if (q != cudaErrorNotReady) GPUPLAN_CUDA_CHECK(q);
                if (Clock::now() > deadline) {
                    why = "did not finish within " + std::to_string(timeout_s) + " s";
                    poisoned_ = "an earlier run on GPU " + std::to_string(lead) + " did not finish within its timeout and cannot be stopped; "
                                "later cases on the cuda backend are skipped (restart the benchmark)";
                    return std::nullopt;
                }
                std::this_thread::sleep_for(std::chrono::microseconds(20));
            }
        }
        const double host_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        if (op.stream == StreamOp::read) {
            std::vector<double> sums(static_cast<std::size_t>(stream_blocks_));
            GPUPLAN_CUDA_CHECK(cudaMemcpy(sums.data(), sums_[static_cast<std::size_t>(lead)], sums.size() * sizeof(double), cudaMemcpyDeviceToHost));
            read_sum_ = 0;
            for (double v : sums) read_sum_ += v;
        }
        if (!one_device) return host_seconds;
        float ms = 0;
        GPUPLAN_CUDA_CHECK(cudaEventElapsedTime(&ms, start, lead_end));
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
    std::vector<double*> sums_;
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
