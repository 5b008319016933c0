// suite.hpp — `gpuplan bench run`: the named cases, the one measurement loop, and the records
// they produce (docs/benchmarks.md). Plain C++17 + nlohmann_json (no CUDA, no catalog: the
// caller passes datasheet expectations in through SuiteOptions::expect).
//
// A case is a small named unit: a stable snake_case key, a "can it run here?" check (a reason
// makes it WAIVED, never failed), then allocation, warm-up, N timed samples, and verification
// of the data moved before any figure is reported. One case may give several records (a
// size sweep, a GPU x GPU matrix).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "transfer_backend.hpp"

namespace gpuplan::bench {

enum class Depth { quick, standard, full };

// A datasheet figure for a kind of measurement ("pcie_host", "device_memory", "peer",
// "network", "nccl_bus_intra"), with where it came from; nullopt value with a reason when the
// catalog does not know it.
struct Expectation {
    std::optional<double> value;
    std::string source;  // "L40S datasheet: PCIe gen4 x16 = 31.5 GB/s per direction", or why unknown
};
using ExpectFn = std::function<Expectation(const std::string& kind)>;

struct SuiteOptions {
    Depth depth = Depth::standard;
    std::optional<std::uint64_t> size_bytes;  // --size: one transfer / STREAM array (else by depth)
    int warmup = -1, samples = -1;            // -1: by depth
    double timeout_s = 10;                    // longest one run() may take before the case stops
    double p2p_probe_timeout_s = 0.5;         // the verified-access probe of one GPU pair
    std::vector<std::string> selection;       // case keys or group names; empty = every case
    ExpectFn expect;                          // may be empty: every expectation is unknown
    // Test-only faults (CPU backend): the case named here gets a corrupted / hanging transfer.
    CpuFaults* faults = nullptr;
    std::string inject_corrupt_case, inject_hang_case, inject_throw_case;
    std::function<void(const std::string&)> progress;  // one line per step (stderr)
};

struct Record {
    std::string case_key;
    std::string status = "ok";  // ok | failed | timed_out
    nlohmann::json params = nlohmann::json::object();
    std::string unit;           // "GB/s" or "us"
    std::vector<double> samples;
    std::optional<double> median, min, mean, max, p99;
    double seconds_median = 0;  // one rep's time at the median sample
    int reps_per_sample = 0, warmup = 0;
    std::string bytes_counted;  // the convention, in words
    std::string timing;         // the backend's timing method
    bool verified = false;
    std::string verification;   // what was checked and what it found
    std::string error;          // failed / timed_out: why
    std::string expectation_kind;
    double expectation_factor = 1;  // x the datasheet figure (bidirectional: 2, all GPUs: count)
    Expectation datasheet;
    std::optional<double> fraction;
    std::optional<std::string> verdict;
    std::string verdict_reason;
    double ok_at_least = 0.6, broken_below = 0.2;  // the case's verdict bands (fractions)
};

struct Waiver {
    std::string case_key, reason;
};

struct SuiteRun {
    std::string backend, timing_method;
    std::vector<Record> records;
    std::vector<Waiver> waived;
    std::vector<std::string> errors;  // "case: why" for every failed or stopped case
    std::vector<std::string> notes;
    std::vector<std::string> cases_run;
    // The selected cases not finished yet: a run ended by a signal leaves its last document
    // (written after every case) saying what ran and what did not (issue 34).
    std::vector<std::string> cases_pending;
    bool complete = false;  // false while running, or when the run was cut short
};

struct CaseInfo {
    std::string key, group, what, bytes_counted;
};
const std::vector<CaseInfo>& suite_cases();
// Why a case cannot run with this backend here (nullopt: it can). Network cases are never run
// by `gpuplan bench run`: they need MPI (gpuplan-bench-mpi under mpirun).
std::optional<std::string> waiver(const std::string& key, TransferBackend& backend);
// Case keys for a selection of keys and group names; throws BenchError(bad_input) naming an
// unknown one with the known keys.
std::vector<std::string> resolve_selection(const std::vector<std::string>& selection);

// Runs the selected cases in order. Each case's failure is recorded (status, error) and the
// next case runs; `checkpoint` is called after every case so the caller can rewrite its JSON.
SuiteRun run_suite(TransferBackend& backend, const SuiteOptions& options, const std::function<void(const SuiteRun&)>& checkpoint);

// Statistics over samples given in `unit` from per-rep seconds (shared with the MPI runner).
void fill_stats(Record& r, const std::vector<double>& seconds_per_rep, double bytes_or_one, bool latency_us);
// Datasheet fraction and verdict band for a finished record.
void rate(Record& r, const ExpectFn& expect);

// "64 MiB" -> bytes; accepts B, KB/MB/GB (10^3), KiB/MiB/GiB (2^10). nullopt for bad text.
std::optional<std::uint64_t> parse_size(const std::string& text);

}  // namespace gpuplan::bench
