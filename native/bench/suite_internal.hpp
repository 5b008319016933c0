// suite_internal.hpp — what suite.cpp (registry, loop) shares with suite_cases.cpp (the case
// bodies). Not for callers outside native/bench.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "suite.hpp"

namespace gpuplan::bench::detail {

enum class Dir { h2d, d2h, bidir };
enum class Numa { any, local, remote };

// One row of the case table (suite.cpp): what the case is and the knobs its body reads.
struct CaseDef {
    CaseDef(const char* k, const char* g, const char* w, const char* b) : key(k), group(g), what(w), bytes_counted(b) {}
    const char* key;
    const char* group;  // host, dmem, p2p, net, nccl
    const char* what;
    const char* bytes_counted;
    Dir dir = Dir::h2d;
    HostKind kind = HostKind::pinned;
    CopyMethod method = CopyMethod::engine;
    Numa numa = Numa::any;
    bool all_gpus = false, sweep = false, bidirectional = false, latency = false;
    std::optional<StreamOp> stream;
};

// A case stopped before it could report: status "failed" or "timed_out", with why.
struct CaseStop {
    std::string status, why;
};

struct Ctx {
    Ctx(TransferBackend& b, const SuiteOptions& opts, SuiteRun& r, const CaseDef& d) : be(b), o(opts), run(r), def(d) {}
    TransferBackend& be;
    const SuiteOptions& o;
    SuiteRun& run;
    const CaseDef& def;            // the case running now
    int warmup = 1, samples = 5;
    std::uint64_t size = 0;        // bytes per transfer / per STREAM array
    double target_sample_s = 0.01; // a sample lasts at least this long (reps grow to reach it)
    int last_reps = 0;             // reps per sample of the last measure()
    std::vector<Record> out;       // the case's records

    void say(const std::string& line) const {
        if (o.progress) o.progress(line);
    }
    // A record with the case's key and the backend's timing method filled in.
    Record record() const;
};

// The measurement loop, written once: one untimed run to size the reps per sample, warm-up
// samples, then `samples` timed samples. Returns seconds per rep for each sample; throws
// CaseStop when a run times out.
std::vector<double> measure(Ctx& c, const Op& op);

// Device (and host) buffers the case needs, or a waiver reason when they do not fit.
std::optional<std::string> memory_shortfall(TransferBackend& be, int device, std::uint64_t device_bytes);

// Case bodies (suite_cases.cpp): each appends its records to c.out or throws CaseStop.
void run_host_case(Ctx& c);
void run_stream_case(Ctx& c);
void run_p2p_case(Ctx& c);
void run_nccl_case(Ctx& c);
std::optional<std::string> nccl_waiver(const CaseDef& def, TransferBackend& be);

}  // namespace gpuplan::bench::detail
