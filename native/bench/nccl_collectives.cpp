// nccl_collectives.cpp — NCCL collectives, timed and verified (nccl_collectives.hpp). CUDA runtime
// API only, no kernels, so it compiles as plain C++ (fast) against cuda_runtime.h and nccl.h.
//
// NOT YET RUN ON A REAL GPU. Method as nccl-tests: `iters` back-to-back collectives per
// sample, timed with std::chrono::steady_clock from the first launch until every stream's end
// event completed, divided by iters; under MPI a barrier starts each sample and the time is
// the mean over ranks. Communicators are blocking, as nccl-tests makes them. Every rank
// contributes (rank + 1) in each float, so the results are known exactly and checked on the
// host after the last sample (errors summed over ranks). Waiting polls cudaEventQuery and
// ncclCommGetAsyncError until the timeout, then aborts the communicators (ncclCommAbort):
// a hung collective stops the case, not the run. All-to-all is grouped ncclSend/ncclRecv
// (as nccl-tests does), which works with NCCL releases that predate ncclAlltoAll. NCCL is
// loaded with dlopen at first use: gpuplan does not need libnccl to start.
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <nccl.h>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "nccl_collectives.hpp"

namespace gpuplan::bench {

namespace {

// NCCL is loaded at run time (dlopen "libnccl.so.2"), so gpuplan starts on machines without it
// and the collective cases say why they are WAIVED; nccl.h gives the types only.
struct NcclApi {
#define GPUPLAN_NCCL_FN(name) decltype(&::nccl##name) name = nullptr;
    GPUPLAN_NCCL_FN(GetVersion) GPUPLAN_NCCL_FN(GetErrorString) GPUPLAN_NCCL_FN(CommInitAll) GPUPLAN_NCCL_FN(CommInitRankConfig)
    GPUPLAN_NCCL_FN(CommGetAsyncError) GPUPLAN_NCCL_FN(CommAbort) GPUPLAN_NCCL_FN(CommDestroy) GPUPLAN_NCCL_FN(GetUniqueId)
    GPUPLAN_NCCL_FN(AllReduce) GPUPLAN_NCCL_FN(AllGather) GPUPLAN_NCCL_FN(ReduceScatter) GPUPLAN_NCCL_FN(Send) GPUPLAN_NCCL_FN(Recv)
    GPUPLAN_NCCL_FN(GroupStart) GPUPLAN_NCCL_FN(GroupEnd)
#undef GPUPLAN_NCCL_FN
    std::string missing;  // why it could not be loaded ("" when loaded)
};

const NcclApi& nccl() {
    static const NcclApi api = [] {
        NcclApi a;
        void* lib = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
        if (lib == nullptr) lib = dlopen("libnccl.so", RTLD_NOW | RTLD_LOCAL);
        if (lib == nullptr) {
            a.missing = std::string("NCCL is not installed here (dlopen libnccl.so.2: ") + dlerror() + ")";
            return a;
        }
#define GPUPLAN_NCCL_LOAD(name)                                                                   \
    a.name = reinterpret_cast<decltype(a.name)>(dlsym(lib, "nccl" #name));                        \
    if (a.name == nullptr && a.missing.empty()) a.missing = "libnccl.so.2 lacks nccl" #name " (NCCL too old?)";
        GPUPLAN_NCCL_LOAD(GetVersion) GPUPLAN_NCCL_LOAD(GetErrorString) GPUPLAN_NCCL_LOAD(CommInitAll)
        GPUPLAN_NCCL_LOAD(CommInitRankConfig) GPUPLAN_NCCL_LOAD(CommGetAsyncError) GPUPLAN_NCCL_LOAD(CommAbort)
        GPUPLAN_NCCL_LOAD(CommDestroy) GPUPLAN_NCCL_LOAD(GetUniqueId) GPUPLAN_NCCL_LOAD(AllReduce) GPUPLAN_NCCL_LOAD(AllGather)
        GPUPLAN_NCCL_LOAD(ReduceScatter) GPUPLAN_NCCL_LOAD(Send) GPUPLAN_NCCL_LOAD(Recv) GPUPLAN_NCCL_LOAD(GroupStart)
        GPUPLAN_NCCL_LOAD(GroupEnd)
#undef GPUPLAN_NCCL_LOAD
        return a;
    }();
    return api;
}

}  // namespace

namespace {

using Clock = std::chrono::steady_clock;

std::string cuda_text(cudaError_t e) { return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e); }
std::string nccl_text(ncclResult_t r) { return std::string("NCCL: ") + nccl().GetErrorString(r); }

struct Rank {
    int device = 0, rank = 0;
    ncclComm_t comm = nullptr;
    cudaStream_t stream = nullptr;
    cudaEvent_t end = nullptr;
    float *send = nullptr, *recv = nullptr;
};

// Element counts of the send and receive buffers for S = bytes over n ranks.
void counts(Collective c, std::uint64_t bytes, int n, std::uint64_t& send, std::uint64_t& recv) {
    const std::uint64_t total = bytes / 4;
    send = recv = total;
    if (c == Collective::all_gather) send = total / static_cast<std::uint64_t>(n);
    if (c == Collective::reduce_scatter) recv = total / static_cast<std::uint64_t>(n);
}

ncclResult_t launch(Collective c, Rank& r, std::uint64_t bytes, int n) {
    std::uint64_t send = 0, recv = 0;
    counts(c, bytes, n, send, recv);
    switch (c) {
    case Collective::all_reduce: return nccl().AllReduce(r.send, r.recv, send, ncclFloat, ncclSum, r.comm, r.stream);
    case Collective::all_gather: return nccl().AllGather(r.send, r.recv, send, ncclFloat, r.comm, r.stream);
    case Collective::reduce_scatter: return nccl().ReduceScatter(r.send, r.recv, recv, ncclFloat, ncclSum, r.comm, r.stream);
    case Collective::all_to_all: {
        const std::uint64_t chunk = send / static_cast<std::uint64_t>(n);
        ncclResult_t res = nccl().GroupStart();
        for (int peer = 0; peer < n && res == ncclSuccess; ++peer) {
            res = nccl().Send(r.send + chunk * static_cast<std::uint64_t>(peer), chunk, ncclFloat, peer, r.comm, r.stream);
            if (res == ncclSuccess) res = nccl().Recv(r.recv + chunk * static_cast<std::uint64_t>(peer), chunk, ncclFloat, peer, r.comm, r.stream);
        }
        const ncclResult_t end = nccl().GroupEnd();
        return res != ncclSuccess ? res : end;
    }
    }
    return ncclInvalidArgument;
}

// Expected value of receive element k on rank `rank` of n.
float expected(Collective c, std::uint64_t k, std::uint64_t recv_count, int n) {
    const float sum = static_cast<float>(n) * static_cast<float>(n + 1) / 2;
    if (c == Collective::all_reduce || c == Collective::reduce_scatter) return sum;
    const std::uint64_t chunk = recv_count / static_cast<std::uint64_t>(n);
    return static_cast<float>(k / chunk + 1);  // all-gather and all-to-all: block j came from rank j
}

void abort_all(std::vector<Rank>& ranks) {
    for (auto& r : ranks)
        if (r.comm) nccl().CommAbort(r.comm), r.comm = nullptr;
}

// Frees what time_collective allocated on every way out (finding 11: error paths leaked
// device buffers). Communicators are the caller's.
struct RankBuffers {
    std::vector<Rank>& ranks;
    ~RankBuffers() {
        for (auto& r : ranks) {
            if (cudaSetDevice(r.device) != cudaSuccess) continue;
            if (r.send) cudaFree(r.send);
            if (r.recv) cudaFree(r.recv);
            if (r.end) cudaEventDestroy(r.end);
            if (r.stream) cudaStreamDestroy(r.stream);
            r.send = r.recv = nullptr, r.end = nullptr, r.stream = nullptr;
        }
    }
};

// Times and verifies with communicators already created. Single process: `agree` is empty;
// multi-process: a barrier before each sample, the mean time and the summed errors over ranks.
CollectiveTiming time_collective(Collective c, std::uint64_t bytes, int n, std::vector<Rank>& ranks, const RankAgreement& agree, int warmup,
                                 int samples, int iters, double timeout_s) {
    CollectiveTiming t;
    std::uint64_t send = 0, recv = 0;
    counts(c, bytes, n, send, recv);
    const auto fail = [&](const std::string& why) {
        t.error = why;
        return t;
    };
    RankBuffers cleanup{ranks};
    for (auto& r : ranks) {
        cudaError_t e = cudaSetDevice(r.device);
        if (e == cudaSuccess) e = cudaMalloc(&r.send, send * 4);
        if (e == cudaSuccess) e = cudaMalloc(&r.recv, recv * 4);
        if (e == cudaSuccess) e = cudaStreamCreateWithFlags(&r.stream, cudaStreamNonBlocking);
        if (e == cudaSuccess) e = cudaEventCreate(&r.end);
        if (e != cudaSuccess) return fail("allocating " + std::to_string(bytes) + " bytes on GPU " + std::to_string(r.device) + ": " + cuda_text(e));
        // Filled from the host: no kernel here, so this file is plain C++ (fast to build).
        const std::vector<float> ones(send, static_cast<float>(r.rank + 1)), stale(recv, -1.0f);
        e = cudaMemcpy(r.send, ones.data(), send * 4, cudaMemcpyHostToDevice);
        if (e == cudaSuccess) e = cudaMemcpy(r.recv, stale.data(), recv * 4, cudaMemcpyHostToDevice);
        if (e != cudaSuccess) return fail("filling the buffers on GPU " + std::to_string(r.device) + ": " + cuda_text(e));
    }
    for (int s = 0; s < warmup + samples; ++s) {
        if (agree.barrier) agree.barrier();  // every rank starts the sample together (nccl-tests)
        const Clock::time_point t0 = Clock::now();
        ncclResult_t res = ncclSuccess;
        // Blocking communicators: when GroupEnd returns, the iteration is queued on the streams,
        // so the end events below are recorded after every kernel (finding 2).
        for (int it = 0; it < iters && res == ncclSuccess; ++it) {
            res = nccl().GroupStart();  // one group per iteration: every rank's part of one collective
            for (auto& r : ranks)
                if (res == ncclSuccess) res = launch(c, r, bytes, n);
            const ncclResult_t end = nccl().GroupEnd();
            if (res == ncclSuccess) res = end;
        }
        if (res != ncclSuccess) {
            abort_all(ranks);
            return fail(nccl_text(res));
        }
        for (auto& r : ranks) {
            cudaError_t e = cudaSetDevice(r.device);
            if (e == cudaSuccess) e = cudaEventRecord(r.end, r.stream);
            if (e != cudaSuccess) {
                abort_all(ranks);
                return fail("recording the end event on GPU " + std::to_string(r.device) + ": " + cuda_text(e));
            }
        }
        const Clock::time_point deadline = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
        for (auto& r : ranks)
            for (;;) {
                const cudaError_t q = cudaEventQuery(r.end);
                if (q == cudaSuccess) break;
                if (q != cudaErrorNotReady) {
                    abort_all(ranks);
                    return fail(cuda_text(q));
                }
                ncclResult_t async = ncclSuccess;
                if (r.comm && nccl().CommGetAsyncError(r.comm, &async) == ncclSuccess && async != ncclSuccess && async != ncclInProgress) {
                    abort_all(ranks);
                    return fail(nccl_text(async));
                }
                if (Clock::now() > deadline) {
                    abort_all(ranks);
                    t.timed_out = true;
                    return fail("the collective did not finish within " + std::to_string(timeout_s) + " s (communicators aborted)");
                }
                std::this_thread::sleep_for(std::chrono::microseconds(20));
            }
        double seconds = std::chrono::duration<double>(Clock::now() - t0).count() / iters;
        if (agree.mean_over_ranks) seconds = agree.mean_over_ranks(seconds);
        if (s >= warmup) t.seconds.push_back(seconds);
    }
    std::uint64_t bad = 0;
    std::vector<float> host(recv);
    for (auto& r : ranks) {
        cudaError_t e = cudaSetDevice(r.device);
        if (e == cudaSuccess) e = cudaMemcpy(host.data(), r.recv, recv * 4, cudaMemcpyDeviceToHost);
        if (e != cudaSuccess) return fail("reading the results back from GPU " + std::to_string(r.device) + ": " + cuda_text(e));
        for (std::uint64_t k = 0; k < recv; ++k) bad += host[k] != expected(c, k, recv, n);
    }
    std::uint64_t checked = recv * ranks.size();
    if (agree.sum_over_ranks) bad = agree.sum_over_ranks(bad), checked = agree.sum_over_ranks(checked);
    t.verified = bad == 0;
    t.verification = std::to_string(bad) + " of " + std::to_string(checked) + " received floats differ from the expected values" +
                     (agree.sum_over_ranks ? " (summed over every rank)" : "");
    return t;
}

// A blocking ncclCommInitRankConfig on a thread of its own, waited for until the deadline: a
// missing rank or a blocked network stops the case, not the job. On time-out the thread is
// left behind (NCCL cannot cancel an init that has not returned); the process exits soon after.
ncclResult_t init_rank_with_deadline(ncclComm_t& comm, int nranks, const ncclUniqueId& id, int rank, int device, double timeout_s, bool& timed_out) {
    struct State {
        std::mutex m;
        std::condition_variable cv;
        bool done = false;
        ncclResult_t res = ncclInternalError;
        ncclComm_t comm = nullptr;
    };
    auto state = std::make_shared<State>();
    std::thread([state, nranks, id, rank, device] {
        ncclComm_t made = nullptr;
        ncclResult_t res = cudaSetDevice(device) == cudaSuccess ? ncclSuccess : ncclUnhandledCudaError;
        if (res == ncclSuccess) {
            ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
            config.blocking = 1;
            res = nccl().CommInitRankConfig(&made, nranks, id, rank, &config);
        }
        const std::lock_guard<std::mutex> lock(state->m);
        state->res = res, state->comm = made, state->done = true;
        state->cv.notify_all();
    }).detach();
    std::unique_lock<std::mutex> lock(state->m);
    timed_out = !state->cv.wait_for(lock, std::chrono::duration<double>(timeout_s), [&] { return state->done; });
    if (timed_out) return ncclInProgress;
    comm = state->comm;
    return state->res;
}

}  // namespace

bool nccl_built() { return true; }

std::string nccl_version() {
    int v = 0;
    if (!nccl().missing.empty() || nccl().GetVersion(&v) != ncclSuccess) return "";
    // NCCL_VERSION_CODE: major * 10000 + minor * 100 + patch (2.9 and later).
    return std::to_string(v / 10000) + "." + std::to_string((v % 10000) / 100) + "." + std::to_string(v % 100);
}

std::optional<std::string> nccl_unavailable(int local_gpus) {
    if (!nccl().missing.empty()) return nccl().missing;
    if (local_gpus < 2)
        return "one GPU in this process: a collective over one rank moves nothing (multi-node: gpuplan-bench-mpi under mpirun, docs/benchmarks.md)";
    return std::nullopt;
}

CollectiveTiming nccl_single_process(Collective c, std::uint64_t bytes, int gpus, int warmup, int samples, int iters, double timeout_s) {
    if (!nccl().missing.empty()) return {{}, false, "", nccl().missing, false};
    std::vector<ncclComm_t> comms(static_cast<std::size_t>(gpus));
    std::vector<int> devices;
    for (int d = 0; d < gpus; ++d) devices.push_back(d);
    // ncclCommInitAll blocks; it is local to this process (no network), so it cannot wait on a peer.
    if (const ncclResult_t r = nccl().CommInitAll(comms.data(), gpus, devices.data()); r != ncclSuccess) {
        CollectiveTiming t;
        t.error = "ncclCommInitAll: " + nccl_text(r);
        return t;
    }
    std::vector<Rank> ranks;
    for (int d = 0; d < gpus; ++d) ranks.push_back({d, d, comms[static_cast<std::size_t>(d)]});
    CollectiveTiming t = time_collective(c, bytes, gpus, ranks, RankAgreement{}, warmup, samples, iters, timeout_s);
    for (auto& r : ranks)
        if (r.comm) nccl().CommDestroy(r.comm);
    return t;
}

CollectiveTiming nccl_multi_process(Collective c, std::uint64_t bytes, int rank, int nranks, int local_device,
                                    const std::function<void(void*, int)>& broadcast, const RankAgreement& agree, int warmup, int samples,
                                    int iters, double timeout_s) {
    CollectiveTiming t;
    if (!nccl().missing.empty()) {
        t.error = nccl().missing;
        return t;
    }
    // Rank 0 always broadcasts, with a flag saying whether the id is real (finding 11: it used
    // to return before the broadcast when ncclGetUniqueId failed, leaving the others waiting).
    struct {
        ncclUniqueId id;
        std::int32_t ok;
    } message{};
    if (rank == 0) message.ok = nccl().GetUniqueId(&message.id) == ncclSuccess ? 1 : 0;
    broadcast(&message, static_cast<int>(sizeof message));
    if (message.ok != 1) {
        t.error = "ncclGetUniqueId failed on rank 0: no communicator can be made";
        return t;
    }
    if (const cudaError_t e = cudaSetDevice(local_device); e != cudaSuccess) {
        t.error = "cudaSetDevice(" + std::to_string(local_device) + "): " + cuda_text(e);
        return t;
    }
    Rank r{local_device, rank};
    bool timed_out = false;
    const ncclResult_t res = init_rank_with_deadline(r.comm, nranks, message.id, rank, local_device, timeout_s, timed_out);
    if (timed_out) {
        t.timed_out = true;
        t.error = "NCCL communicator setup did not finish within " + std::to_string(timeout_s) + " s (a rank missing or the network blocked)";
        return t;
    }
    if (res != ncclSuccess) {
        t.error = "ncclCommInitRankConfig: " + nccl_text(res);
        return t;
    }
    std::vector<Rank> ranks{r};
    t = time_collective(c, bytes, nranks, ranks, agree, warmup, samples, iters, timeout_s);
    if (ranks[0].comm) nccl().CommDestroy(ranks[0].comm);
    return t;
}

}  // namespace gpuplan::bench
