// suite.cpp — the case table, selection, waivers, the measurement loop, statistics and
// verdicts of `gpuplan bench run` (suite.hpp; method and conventions: docs/benchmarks.md).
#include <algorithm>
#include <cmath>

#include "host_memory.hpp"
#include "nccl_collectives.hpp"
#include "suite_internal.hpp"

namespace gpuplan::bench {

using namespace detail;

namespace {

constexpr const char* kCopyBytes = "bytes copied once per transfer per rep; GB/s = 10^9 B/s";
constexpr const char* kBidirBytes = "bytes of both directions together per rep (2 x size); GB/s = 10^9 B/s";
constexpr const char* kAllBytes = "bytes of every GPU's transfer together per rep (GPUs x size); GB/s = 10^9 B/s";

CaseDef host(const char* key, const char* what, Dir dir, HostKind kind, CopyMethod m = CopyMethod::engine, Numa numa = Numa::any) {
    CaseDef d{key, "host", what, dir == Dir::bidir ? kBidirBytes : kCopyBytes};
    d.dir = dir, d.kind = kind, d.method = m, d.numa = numa;
    return d;
}
CaseDef stream(const char* key, const char* what, const char* bytes, StreamOp op) {
    CaseDef d{key, "dmem", what, bytes};
    d.stream = op;
    return d;
}

const std::vector<CaseDef>& table() {
    static const std::vector<CaseDef> t = [] {
        std::vector<CaseDef> v;
        v.push_back(host("h2d_pageable", "host -> device, pageable host memory (malloc), copy engine", Dir::h2d, HostKind::pageable));
        v.push_back(host("h2d_pinned", "host -> device, pinned host memory (cudaMallocHost), copy engine", Dir::h2d, HostKind::pinned));
        v.push_back(host("h2d_registered", "host -> device, registered host memory (malloc + cudaHostRegister), copy engine", Dir::h2d,
                         HostKind::registered));
        v.push_back(host("d2h_pageable", "device -> host, pageable host memory, copy engine", Dir::d2h, HostKind::pageable));
        v.push_back(host("d2h_pinned", "device -> host, pinned host memory, copy engine", Dir::d2h, HostKind::pinned));
        v.push_back(host("d2h_registered", "device -> host, registered host memory, copy engine", Dir::d2h, HostKind::registered));
        v.push_back(host("bidir_pinned", "host -> device and device -> host at once (two streams), pinned", Dir::bidir, HostKind::pinned));
        v.push_back(host("h2d_pinned_sm", "host -> device by an SM copy kernel reading mapped pinned memory", Dir::h2d, HostKind::pinned,
                         CopyMethod::kernel));
        v.push_back(host("d2h_pinned_sm", "device -> host by an SM copy kernel writing mapped pinned memory", Dir::d2h, HostKind::pinned,
                         CopyMethod::kernel));
        v.push_back(host("h2d_pinned_numa_local", "host -> device, pinned buffer bound to the GPU's own NUMA node", Dir::h2d,
                         HostKind::pinned, CopyMethod::engine, Numa::local));
        v.push_back(host("h2d_pinned_numa_remote", "host -> device, pinned buffer bound to another NUMA node", Dir::h2d, HostKind::pinned,
                         CopyMethod::engine, Numa::remote));
        v.push_back(host("d2h_pinned_numa_local", "device -> host, pinned buffer on the GPU's own NUMA node", Dir::d2h, HostKind::pinned,
                         CopyMethod::engine, Numa::local));
        v.push_back(host("d2h_pinned_numa_remote", "device -> host, pinned buffer on another NUMA node", Dir::d2h, HostKind::pinned,
                         CopyMethod::engine, Numa::remote));
        CaseDef sweep = host("h2d_sweep", "host -> device pinned over sizes 4 KiB .. --size (x4 steps); the knee is the first size at >= 90% of the best",
                             Dir::h2d, HostKind::pinned);
        sweep.sweep = true;
        v.push_back(sweep);
        CaseDef all_h2d = host("h2d_all_gpus", "host -> every GPU at once, pinned (one stream per GPU)", Dir::h2d, HostKind::pinned);
        all_h2d.all_gpus = true, all_h2d.bytes_counted = kAllBytes;
        v.push_back(all_h2d);
        CaseDef all_d2h = host("d2h_all_gpus", "every GPU -> host at once, pinned", Dir::d2h, HostKind::pinned);
        all_d2h.all_gpus = true, all_d2h.bytes_counted = kAllBytes;
        v.push_back(all_d2h);

        const char* two = "BabelStream: 2 arrays x n x 8 bytes per rep (read + written, no write-allocate)";
        const char* three = "BabelStream: 3 arrays x n x 8 bytes per rep (read + written, no write-allocate)";
        v.push_back(stream("dmem_copy", "device memory: c[i] = a[i] over arrays >= 4 x L2", two, StreamOp::copy));
        v.push_back(stream("dmem_scale", "device memory: b[i] = s c[i]", two, StreamOp::scale));
        v.push_back(stream("dmem_add", "device memory: c[i] = a[i] + b[i]", three, StreamOp::add));
        v.push_back(stream("dmem_triad", "device memory: a[i] = b[i] + s c[i]", three, StreamOp::triad));
        v.push_back(stream("dmem_read", "device memory, read only: sum of a[i] b[i] (BabelStream dot)", two, StreamOp::read));

        CaseDef p2p{"p2p_matrix", "p2p", "GPU x GPU unidirectional copy bandwidth, advertised vs verified peer access (checksummed probe with a timeout)",
                    kCopyBytes};
        v.push_back(p2p);
        CaseDef p2p_bi{"p2p_bidir_matrix", "p2p", "GPU x GPU bidirectional bandwidth (both directions at once)", kBidirBytes};
        p2p_bi.bidirectional = true;
        v.push_back(p2p_bi);
        CaseDef p2p_lat{"p2p_latency_matrix", "p2p", "GPU x GPU latency of an 8-byte peer copy (API + DMA, per copy)", "8 bytes per copy; unit us"};
        p2p_lat.latency = true;
        v.push_back(p2p_lat);

        v.push_back(CaseDef{"net_p2p_bw", "net", "point-to-point bandwidth between MPI ranks, host memory (windows of non-blocking sends)",
                     "bytes sent from rank 0 to rank 1 per message; GB/s = 10^9 B/s"});
        v.push_back(CaseDef{"net_p2p_latency", "net", "ping-pong latency between MPI ranks, 8-byte messages (half the round trip)", "8 bytes; unit us"});
        const char* coll = "nccl-tests: algbw = S / t with S the per-rank buffer; busbw = algbw x the collective's factor (median reported is busbw)";
        for (const char* k : {"nccl_all_reduce", "nccl_all_gather", "nccl_reduce_scatter", "nccl_all_to_all"})
            v.push_back(CaseDef{k, "nccl", "NCCL collective over every local GPU (single node; multi-node under gpuplan-bench-mpi)", coll});
        return v;
    }();
    return t;
}

const CaseDef* find_def(const std::string& key) {
    for (const auto& d : table())
        if (key == d.key) return &d;
    return nullptr;
}

std::string joined_keys() {
    std::string s;
    for (const auto& d : table()) s += (s.empty() ? "" : ", ") + std::string(d.key);
    return s;
}

double percentile_nearest_rank(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(v.size())));
    return v[std::min(v.size() - 1, rank == 0 ? 0 : rank - 1)];
}

}  // namespace

const std::vector<CaseInfo>& suite_cases() {
    static const std::vector<CaseInfo> infos = [] {
        std::vector<CaseInfo> v;
        for (const auto& d : table()) v.push_back(CaseInfo{d.key, d.group, d.what, d.bytes_counted});
        return v;
    }();
    return infos;
}

std::optional<std::string> waiver(const std::string& key, TransferBackend& be) {
    const CaseDef* d = find_def(key);
    if (d == nullptr) return "unknown case";
    if (auto p = be.poisoned()) return *p;
    const std::string group = d->group;
    if (group == "net")
        return std::string("needs MPI ranks: run gpuplan-bench-mpi under mpirun or srun (docs/benchmarks.md, \"Network\")");
    if (group == "nccl") return nccl_waiver(*d, be);
    if (group == "p2p" && be.device_count() < 2)
        return "needs 2 or more GPUs; the " + be.name() + " backend sees " + std::to_string(be.device_count()) +
               (be.name() == "cpu" ? " (host memory)" : "");
    if (group != "host") return std::nullopt;
    if (d->all_gpus && be.device_count() < 2)
        return "needs 2 or more GPUs (with one, it is " + std::string(d->dir == Dir::h2d ? "h2d_pinned" : "d2h_pinned") + ")";
    if (auto why = be.unsupported(d->kind)) return *why;
    if (d->method == CopyMethod::kernel)
        if (auto why = be.unsupported(d->method, Place::host)) return *why;
    if (d->numa != Numa::any) {
        const int node = be.device_facts(0).numa_node;
        const std::vector<int> nodes = numa_nodes();
        if (node < 0) return std::string("the GPU's NUMA node is unknown (sysfs numa_node is -1)");
        if (d->numa == Numa::remote && nodes.size() < 2)
            return "one NUMA node here (" + std::to_string(nodes.size()) + " listed by libnuma): nothing is remote";
    }
    return std::nullopt;
}

std::vector<std::string> resolve_selection(const std::vector<std::string>& selection) {
    std::vector<std::string> keys;
    const auto add = [&](const std::string& k) {
        if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    };
    if (selection.empty()) {
        for (const auto& d : table()) add(d.key);
        return keys;
    }
    for (const std::string& s : selection) {
        if (s == "all") {
            for (const auto& d : table()) add(d.key);
            continue;
        }
        bool matched = false;
        for (const auto& d : table())
            if (s == d.key || s == d.group) add(d.key), matched = true;
        if (!matched)
            throw BenchError(BenchError::Kind::bad_input, "unknown case '" + s + "'; expected a case key (" + joined_keys() +
                                                              "), a group (host, dmem, p2p, net, nccl) or all (see `gpuplan bench list`)");
    }
    return keys;
}

std::optional<std::uint64_t> parse_size(const std::string& text) {
    std::size_t pos = 0;
    double v = 0;
    try {
        v = std::stod(text, &pos);
    } catch (...) {
        return std::nullopt;
    }
    std::string unit = text.substr(pos);
    while (!unit.empty() && unit.front() == ' ') unit.erase(unit.begin());
    double scale = 0;
    const std::pair<const char*, double> units[] = {{"", 1},     {"B", 1},           {"KB", 1e3},         {"MB", 1e6},
                                                    {"GB", 1e9}, {"KiB", 1024.0},    {"MiB", 1048576.0}, {"GiB", 1073741824.0}};
    for (const auto& [name, s] : units)
        if (unit == name) scale = s;
    if (scale == 0 || !std::isfinite(v) || v <= 0) return std::nullopt;
    const double bytes = v * scale;
    if (bytes < 8 || bytes > 1e13 || std::floor(bytes) != bytes) return std::nullopt;
    return static_cast<std::uint64_t>(bytes);
}

Record Ctx::record() const {
    Record r;
    r.case_key = def.key;
    r.bytes_counted = def.bytes_counted;
    r.timing = be.timing_method();
    r.warmup = warmup;
    return r;
}

std::optional<std::string> detail::memory_shortfall(TransferBackend& be, int device, std::uint64_t device_bytes) {
    const std::uint64_t free = be.device_free_bytes(device);
    // Leave a tenth free for the runtime and the other buffers of the process.
    if (device_bytes > free / 10 * 9)
        return "needs " + std::to_string(device_bytes) + " bytes of " + (be.name() == "cpu" ? "host" : "device") + " memory on device " +
               std::to_string(device) + "; " + std::to_string(free) + " are free (use a smaller --size)";
    return std::nullopt;
}

std::vector<double> detail::measure(Ctx& c, const Op& op) {
    std::string why;
    const auto once = c.be.run(op, 1, c.o.timeout_s, why);
    if (!once) throw CaseStop{"timed_out", "the first run " + why};
    // Enough reps that one sample lasts target_sample_s, never so many that it nears the timeout.
    const double per_rep = std::max(*once, 1e-7);
    int reps = static_cast<int>(std::clamp(std::ceil(c.target_sample_s / per_rep), 1.0, 10000.0));
    reps = std::max(1, std::min(reps, static_cast<int>(c.o.timeout_s / 4 / per_rep)));
    std::vector<double> seconds;
    for (int s = 0; s < c.warmup + c.samples; ++s) {
        const auto t = c.be.run(op, reps, c.o.timeout_s, why);
        if (!t) throw CaseStop{"timed_out", (s < c.warmup ? "a warm-up sample " : "sample " + std::to_string(s - c.warmup + 1) + " ") + why};
        if (s >= c.warmup) seconds.push_back(*t / reps);
    }
    c.last_reps = reps;
    return seconds;
}

void fill_stats(Record& r, const std::vector<double>& seconds, double amount, bool latency_us) {
    // amount: bytes per rep (bandwidth records), or 1 (latency: seconds -> microseconds).
    const auto value = [&](double s) { return latency_us ? s * 1e6 : amount / s / 1e9; };
    r.samples.clear();
    for (double s : seconds) r.samples.push_back(value(s));
    if (r.samples.empty()) return;
    std::vector<double> sorted = seconds;
    std::sort(sorted.begin(), sorted.end());
    const double median_s = sorted.size() % 2 ? sorted[sorted.size() / 2] : (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]) / 2;
    r.seconds_median = median_s;
    r.median = value(median_s);
    double sum = 0, lo = r.samples[0], hi = r.samples[0];
    for (double v : r.samples) sum += v, lo = std::min(lo, v), hi = std::max(hi, v);
    r.mean = sum / static_cast<double>(r.samples.size());
    r.min = lo;
    r.max = hi;
    // p99 of the durations (the slow tail), expressed in the record's unit.
    r.p99 = value(percentile_nearest_rank(seconds, 0.99));
}

void rate(Record& r, const ExpectFn& expect) {
    if (!r.expectation_kind.empty() && expect) {
        r.datasheet = expect(r.expectation_kind);
        if (r.datasheet.value) *r.datasheet.value *= r.expectation_factor;
    } else if (r.expectation_kind.empty()) {
        r.datasheet = {std::nullopt, "no datasheet figure applies to this measurement"};
    } else {
        r.datasheet = {std::nullopt, "no catalog given"};
    }
    if (r.status != "ok" || !r.verified) {
        r.verdict = "broken";
        r.verdict_reason = r.status != "ok" ? r.status + ": " + r.error : "the data moved did not verify: " + r.verification;
        return;
    }
    if (!r.median || !r.datasheet.value || *r.datasheet.value <= 0) {
        r.verdict_reason = "no verdict: " + r.datasheet.source;
        return;
    }
    // Latency: lower is better, the datasheet figure is a floor, so the fraction is expected / measured.
    r.fraction = r.unit == "us" ? *r.datasheet.value / *r.median : *r.median / *r.datasheet.value;
    const double f = *r.fraction;
    r.verdict = f >= r.ok_at_least ? "ok" : f >= r.broken_below ? "low" : "broken";
    r.verdict_reason = "fraction " + std::to_string(f).substr(0, 5) + " of the datasheet figure; bands: ok >= " + std::to_string(r.ok_at_least).substr(0, 4) +
                       ", broken < " + std::to_string(r.broken_below).substr(0, 4);
}

SuiteRun run_suite(TransferBackend& be, const SuiteOptions& o, const std::function<void(const SuiteRun&)>& checkpoint) {
    SuiteRun run;
    run.backend = be.name();
    run.timing_method = be.timing_method();
    const std::vector<std::string> keys = resolve_selection(o.selection);
    run.cases_pending = keys;
    const auto notify = [&] {
        if (checkpoint) checkpoint(run);
    };
    for (const std::string& key : keys) {
        run.cases_pending.erase(run.cases_pending.begin());  // this one is done by the next checkpoint
        const CaseDef& def = *find_def(key);
        if (auto why = waiver(key, be)) {
            run.waived.push_back({key, *why});
            if (o.progress) o.progress("WAIVED " + key + ": " + *why);
            notify();
            continue;
        }
        Ctx c{be, o, run, def};
        c.warmup = o.warmup >= 0 ? o.warmup : o.depth == Depth::quick ? 1 : o.depth == Depth::full ? 3 : 2;
        c.samples = o.samples > 0 ? o.samples : o.depth == Depth::quick ? 5 : o.depth == Depth::full ? 50 : 20;
        c.size = o.size_bytes ? *o.size_bytes : o.depth == Depth::quick ? 64ull << 20 : o.depth == Depth::full ? 1ull << 30 : 256ull << 20;
        c.target_sample_s = o.depth == Depth::quick ? 0.005 : o.depth == Depth::full ? 0.05 : 0.02;
        if (o.faults != nullptr) {
            o.faults->corrupt_next_transfer = key == o.inject_corrupt_case;
            o.faults->hang_next_run = key == o.inject_hang_case;
        }
        c.say(key + ": running");
        try {
            if (key == o.inject_throw_case) throw std::runtime_error("injected failure (--inject-failure " + key + ")");
            const std::string group = def.group;
            if (group == "host") run_host_case(c);
            else if (group == "dmem") run_stream_case(c);
            else if (group == "p2p") run_p2p_case(c);
            else if (group == "nccl") run_nccl_case(c);
            run.cases_run.push_back(key);
        } catch (const CaseStop& stop) {
            if (stop.status == "waived") {  // found out only once sized (memory)
                run.waived.push_back({key, stop.why});
                c.say("WAIVED " + key + ": " + stop.why);
                c.out.clear();
                be.release_all();
                notify();
                continue;
            }
            Record r = c.record();
            r.status = stop.status;
            r.error = stop.why;
            r.unit = def.latency || std::string(def.key) == "net_p2p_latency" ? "us" : "GB/s";
            c.out.push_back(r);
            run.errors.push_back(key + ": " + stop.status + ": " + stop.why);
        } catch (const std::exception& e) {  // a failed CUDA call, an allocation refused, ...
            Record r = c.record();
            r.status = "failed";
            r.error = e.what();
            r.unit = def.latency ? "us" : "GB/s";
            c.out.push_back(r);
            run.errors.push_back(key + ": failed: " + e.what());
        }
        try {
            be.release_all();
        } catch (const std::exception& e) {
            run.errors.push_back(key + ": releasing its buffers failed: " + e.what());
        }
        if (o.faults != nullptr) o.faults->corrupt_next_transfer = o.faults->hang_next_run = false;
        for (Record& r : c.out) {
            rate(r, o.expect);
            if (o.progress)
                o.progress(key + ": " + (r.status != "ok" ? r.status + " (" + r.error + ")"
                                                          : (r.median ? std::to_string(*r.median).substr(0, 8) + " " + r.unit : std::string("-")) +
                                                                (r.verified ? ", verified" : ", NOT VERIFIED: " + r.verification)));
            run.records.push_back(std::move(r));
        }
        notify();
    }
    for (const auto& n : be.notes())
        if (std::find(run.notes.begin(), run.notes.end(), n) == run.notes.end()) run.notes.push_back(n);
    run.complete = true;
    notify();
    return run;
}

}  // namespace gpuplan::bench
