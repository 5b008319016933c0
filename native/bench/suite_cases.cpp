// suite_cases.cpp — the bodies of `gpuplan bench run`'s cases (the table is in suite.cpp).
// Each: allocate, fill the source with a pattern and the destination with another, measure
// (suite.cpp's loop), verify every 8-byte word moved, then report — a figure that did not
// verify is not reported (status "failed", no samples).
#include <algorithm>
#include <cmath>

#include "host_memory.hpp"
#include "nccl_collectives.hpp"
#include "suite_internal.hpp"

namespace gpuplan::bench::detail {

namespace {

constexpr std::uint64_t kProbeBytes = 1ull << 20;  // the verified-access probe of a GPU pair
constexpr double kA = 0.1, kB = 0.2, kC = 0.3;      // STREAM start values (BabelStream: 0.1, 0.2, 0.0)
// What the output array holds before the first rep: no kernel over these inputs (all > 0)
// writes a negative number, so an output left unwritten can never verify. (kC alone was wrong
// for add: 0.1 + 0.2 == 0.3 within the tolerance, so an add that never ran passed.)
constexpr double kUnwritten = -1.0;

std::string count_text(std::uint64_t bad, std::uint64_t words) {
    return std::to_string(bad) + " of " + std::to_string(words) + " 8-byte words differ from the pattern";
}

// A bandwidth record from measured seconds per rep, or a failed one when verification did not pass.
Record bandwidth_record(Ctx& c, const std::vector<double>& seconds, std::uint64_t bytes_per_rep, std::uint64_t bad, std::uint64_t words) {
    Record r = c.record();
    r.unit = "GB/s";
    r.reps_per_sample = c.last_reps;
    r.verified = bad == 0;
    r.verification = (bad == 0 ? "every word checked after the last rep: " : "MISMATCH: ") + count_text(bad, words);
    if (r.verified) {
        fill_stats(r, seconds, static_cast<double>(bytes_per_rep), false);
    } else {
        r.status = "failed";
        r.error = "verification: " + count_text(bad, words) + " (no bandwidth is reported for data that did not arrive intact)";
        c.run.errors.push_back(std::string(c.def.key) + ": failed: " + r.error);
    }
    return r;
}

void note_once(Ctx& c, const std::string& note) {
    if (std::find(c.run.notes.begin(), c.run.notes.end(), note) == c.run.notes.end()) c.run.notes.push_back(note);
}

std::vector<std::uint64_t> sweep_sizes(std::uint64_t top) {
    std::vector<std::uint64_t> sizes;
    for (std::uint64_t s = 4096; s < top; s *= 4) sizes.push_back(s);
    sizes.push_back(top);
    return sizes;
}

}  // namespace

void run_host_case(Ctx& c) {
    const CaseDef& d = c.def;
    std::vector<int> devices{0};
    if (d.all_gpus)
        for (int k = 1; k < c.be.device_count(); ++k) devices.push_back(k);
    const std::uint64_t top = c.size / 8 * 8;
    const int per_device = d.dir == Dir::bidir ? 2 : 1;
    for (int dev : devices)
        if (auto why = memory_shortfall(c.be, dev, top * static_cast<std::uint64_t>(per_device))) throw CaseStop{"waived", *why};
    // Each GPU's host buffers on that GPU's NUMA node, allocated by a thread running on that node's
    // CPUs, as nvbandwidth does (finding 1: on 2-socket p4d/p5 an unplaced pinned buffer lands on
    // whichever socket the thread ran on, and *_all_gpus put every buffer on one socket).
    // _numa_remote: on another node than the GPU's.
    std::vector<int> numa_node(devices.size(), -1);
    for (std::size_t k = 0; k < devices.size(); ++k) {
        const int local = c.be.device_facts(devices[k]).numa_node;
        numa_node[k] = local;
        if (d.numa == Numa::remote)
            for (int n : numa_nodes())
                if (n != local) {
                    numa_node[k] = n;
                    break;
                }
    }
    const std::vector<std::uint64_t> sizes = d.sweep ? sweep_sizes(top) : std::vector<std::uint64_t>{top};
    std::vector<Record> sweep;
    for (std::uint64_t bytes : sizes) {
        c.be.release_all();
        Op op;
        for (std::size_t k = 0; k < devices.size(); ++k) {
            const int dev = devices[k];
            const ScopedCpuAffinity on_node(numa_node_cpus(numa_node[k]));
            if (!on_node.note().empty()) note_once(c, on_node.note());
            const BufferSpec host{Place::host, dev, d.kind, numa_node[k], bytes};
            const BufferSpec device{Place::device, dev, d.kind, -1, bytes};
            const std::size_t first = op.transfers.size();
            if (d.dir != Dir::d2h) op.transfers.push_back({c.be.allocate(device), c.be.allocate(host), bytes, d.method, dev});
            if (d.dir != Dir::h2d) op.transfers.push_back({c.be.allocate(host), c.be.allocate(device), bytes, d.method, dev});
            for (std::size_t t = first; t < op.transfers.size(); ++t) {  // written from the node's CPUs too
                c.be.fill_pattern(op.transfers[t].src, t + 1);
                c.be.fill_pattern(op.transfers[t].dst, t + 1001);  // stale data must not pass the check
            }
        }
        c.say(std::string(d.key) + ": " + std::to_string(bytes) + " bytes x " + std::to_string(op.transfers.size()) + " transfer(s)");
        // The host side of a copy (pageable staging, the enqueue) runs near the first GPU.
        const ScopedCpuAffinity near_first(numa_node_cpus(numa_node.front()));
        const std::vector<double> seconds = measure(c, op);
        std::uint64_t bad = 0;
        for (std::size_t k = 0; k < op.transfers.size(); ++k) bad += c.be.count_mismatches(op.transfers[k].dst, k + 1, bytes);
        Record r = bandwidth_record(c, seconds, bytes * op.transfers.size(), bad, bytes / 8 * op.transfers.size());
        r.params = {{"bytes", bytes},
                    {"devices", devices},
                    {"direction", d.dir == Dir::h2d ? "h2d" : d.dir == Dir::d2h ? "d2h" : "bidir"},
                    {"host_memory", to_string(d.kind)},
                    {"method", to_string(d.method)},
                    {"numa_node", numa_node.front() < 0 ? nlohmann::json(nullptr) : nlohmann::json(numa_node.front())},
                    {"numa_nodes", numa_node},
                    {"transfers", op.transfers.size()}};
        r.expectation_kind = "pcie_host";
        r.expectation_factor = static_cast<double>(op.transfers.size());
        if (d.kind == HostKind::pageable) r.ok_at_least = 0.25, r.broken_below = 0.05;  // staged through a pinned bounce buffer
        sweep.push_back(r);
    }
    if (d.sweep) {
        double best = 0;
        for (const auto& r : sweep)
            if (r.median) best = std::max(best, *r.median);
        std::optional<std::uint64_t> knee;
        for (const auto& r : sweep)
            if (!knee && r.median && *r.median >= 0.9 * best) knee = r.params["bytes"].get<std::uint64_t>();
        for (auto& r : sweep) r.params["knee_bytes"] = knee ? nlohmann::json(*knee) : nlohmann::json(nullptr);
        if (knee)
            c.run.notes.push_back(std::string(d.key) + ": the knee (first size at >= 90% of the best " + std::to_string(best).substr(0, 6) +
                                  " GB/s) is " + std::to_string(*knee) + " bytes");
    }
    for (auto& r : sweep) c.out.push_back(std::move(r));
}

void run_stream_case(Ctx& c) {
    const StreamOp op_kind = *c.def.stream;
    const DeviceFacts facts = c.be.device_facts(0);
    // Arrays of at least 4 x the last-level cache, so the kernels stream from memory (BabelStream).
    const std::uint64_t array_bytes = std::max<std::uint64_t>(c.size / 8 * 8, facts.l2_bytes * 4);
    const std::uint64_t n = array_bytes / 8;
    if (auto why = memory_shortfall(c.be, 0, 3 * array_bytes)) throw CaseStop{"waived", *why};
    Op op;
    op.stream = op_kind;
    op.n = n;
    op.a = c.be.allocate({Place::device, 0, HostKind::pinned, -1, array_bytes});
    op.b = c.be.allocate({Place::device, 0, HostKind::pinned, -1, array_bytes});
    op.c = c.be.allocate({Place::device, 0, HostKind::pinned, -1, array_bytes});
    c.be.fill_value(op.a, kA, n);
    c.be.fill_value(op.b, kB, n);
    c.be.fill_value(op.c, kC, n);
    switch (op_kind) {  // the array each kernel writes (BabelStream: copy c=a, mul b=s*c, add c=a+b, triad a=b+s*c)
    case StreamOp::copy: case StreamOp::add: c.be.fill_value(op.c, kUnwritten, n); break;
    case StreamOp::scale: c.be.fill_value(op.b, kUnwritten, n); break;
    case StreamOp::triad: c.be.fill_value(op.a, kUnwritten, n); break;
    case StreamOp::read: break;
    }
    c.say(std::string(c.def.key) + ": 3 arrays of " + std::to_string(array_bytes) + " bytes");
    const std::vector<double> seconds = measure(c, op);
    // Inputs never change, so after any number of reps the output holds one rep's result.
    double error = 0, expected = 0;
    int arrays = 2;
    switch (op_kind) {
    case StreamOp::copy: expected = kA, error = c.be.max_abs_error(op.c, expected, n); break;
    case StreamOp::scale: expected = kStreamScalar * kC, error = c.be.max_abs_error(op.b, expected, n); break;
    case StreamOp::add: expected = kA + kB, error = c.be.max_abs_error(op.c, expected, n), arrays = 3; break;
    case StreamOp::triad: expected = kB + kStreamScalar * kC, error = c.be.max_abs_error(op.a, expected, n), arrays = 3; break;
    case StreamOp::read:
        expected = kA * kB * static_cast<double>(n);
        error = std::fabs(c.be.last_read_sum() - expected) / expected;
        break;
    }
    const double tolerance = op_kind == StreamOp::read ? 1e-8 : 1e-12;  // relative for the sum (summation order), absolute otherwise
    const bool ok = error <= tolerance;
    Record r = bandwidth_record(c, seconds, static_cast<std::uint64_t>(arrays) * array_bytes, ok ? 0 : 1, 1);
    r.verification = std::string(ok ? "" : "MISMATCH: ") + (op_kind == StreamOp::read ? "relative error of the sum " : "largest |error| ") +
                     std::to_string(error) + " against " + std::to_string(expected) + " (tolerance " + std::to_string(tolerance) + ")";
    if (!ok) r.error = "verification: " + r.verification;
    r.params = {{"array_bytes", array_bytes}, {"elements", n}, {"arrays_moved", arrays}, {"kernel", to_string(op_kind)},
                {"device", 0}, {"l2_bytes", facts.l2_bytes}, {"dtype", "fp64"}};
    r.expectation_kind = "device_memory";
    c.out.push_back(std::move(r));
}

void run_p2p_case(Ctx& c) {
    const int n = c.be.device_count();
    const bool bidir = c.def.bidirectional, latency = c.def.latency;
    const std::uint64_t bytes = latency ? 8 : c.size / 8 * 8;
    for (int i = 0; i < n; ++i)
        for (int j = bidir ? i + 1 : 0; j < n; ++j) {
            if (i == j) continue;
            if (auto why = memory_shortfall(c.be, i, 2 * bytes)) throw CaseStop{"waived", *why};
            c.be.release_all();
            const bool advertised = c.be.peer_advertised(i, j) && (!bidir || c.be.peer_advertised(j, i));
            if (advertised) c.be.enable_peer(i, j);
            if (advertised && bidir) c.be.enable_peer(j, i);
            Record r = c.record();
            // Without peer access a device-to-device copy is staged through host memory by the
            // driver: it is measured (what such a pair really gets) but reported as that path,
            // never as a peer link, and not held against the NVLink/PCIe peer datasheet (finding 7).
            r.params = {{"src", i}, {"dst", j}, {"bytes", bytes}, {"advertised_peer_access", advertised}, {"verified_access", false},
                        {"path", advertised ? "peer" : "host_staged"}};
            r.unit = latency ? "us" : "GB/s";
            r.expectation_kind = latency || !advertised ? "" : "peer";
            r.expectation_factor = bidir ? 2 : 1;
            // The probe: a small checksummed copy with a short timeout, so a broken path is flagged fast.
            Op probe;
            probe.transfers.push_back({c.be.allocate({Place::device, j, HostKind::pinned, -1, kProbeBytes}),
                                       c.be.allocate({Place::device, i, HostKind::pinned, -1, kProbeBytes}), kProbeBytes, CopyMethod::engine, i});
            c.be.fill_pattern(probe.transfers[0].src, 7);
            c.be.fill_pattern(probe.transfers[0].dst, 8);
            std::string why;
            const auto t = c.be.run(probe, 1, c.o.p2p_probe_timeout_s, why);
            const std::uint64_t bad = t ? c.be.count_mismatches(probe.transfers[0].dst, 7, kProbeBytes) : 0;
            if (!t || bad) {
                r.status = t ? "failed" : "timed_out";
                r.error = "GPU " + std::to_string(i) + " -> " + std::to_string(j) + " probe: " + (t ? count_text(bad, kProbeBytes / 8) : why);
                c.run.errors.push_back(std::string(c.def.key) + ": " + r.error);
                c.out.push_back(r);
                // A timed-out probe leaves work stuck on these GPUs: any further cudaMalloc or
                // cudaMemcpy on them would block, so the remaining pairs are not tried (finding 10).
                if (auto stuck = c.be.poisoned()) {
                    c.run.errors.push_back(std::string(c.def.key) + ": the pairs after GPU " + std::to_string(i) + " -> " + std::to_string(j) +
                                           " were not run: " + *stuck);
                    return;
                }
                continue;
            }
            Op op;
            op.transfers.push_back({c.be.allocate({Place::device, j, HostKind::pinned, -1, bytes}),
                                    c.be.allocate({Place::device, i, HostKind::pinned, -1, bytes}), bytes, CopyMethod::engine, i});
            if (bidir)
                op.transfers.push_back({c.be.allocate({Place::device, i, HostKind::pinned, -1, bytes}),
                                        c.be.allocate({Place::device, j, HostKind::pinned, -1, bytes}), bytes, CopyMethod::engine, j});
            for (std::size_t k = 0; k < op.transfers.size(); ++k) {
                c.be.fill_pattern(op.transfers[k].src, 20 + k);
                c.be.fill_pattern(op.transfers[k].dst, 40 + k);
            }
            c.say(std::string(c.def.key) + ": GPU " + std::to_string(i) + " -> " + std::to_string(j));
            const std::vector<double> seconds = measure(c, op);
            std::uint64_t mismatched = 0;
            for (std::size_t k = 0; k < op.transfers.size(); ++k) mismatched += c.be.count_mismatches(op.transfers[k].dst, 20 + k, bytes);
            Record m = bandwidth_record(c, seconds, bytes * op.transfers.size(), mismatched, bytes / 8 * op.transfers.size());
            if (latency && m.verified) fill_stats(m, seconds, 1, true), m.unit = "us";
            m.params = r.params;
            m.params["verified_access"] = advertised && m.verified;  // peer access, verified by the data; host-staged is not peer access
            m.expectation_kind = r.expectation_kind;
            m.expectation_factor = r.expectation_factor;
            c.out.push_back(std::move(m));
        }
}

std::optional<std::string> nccl_waiver(const CaseDef&, TransferBackend& be) {
    if (be.name() != "cuda") return "NCCL collectives run on the cuda backend (this run uses the " + be.name() + " backend)";
    if (!nccl_built()) return std::string("this gpuplan was built without NCCL");
    return nccl_unavailable(be.device_count());
}

void run_nccl_case(Ctx& c) {
    const std::string key = c.def.key;
    Collective coll = Collective::all_reduce;
    for (Collective k : {Collective::all_reduce, Collective::all_gather, Collective::reduce_scatter, Collective::all_to_all})
        if (key == collective_key(k)) coll = k;
    const int ranks = c.be.device_count();
    const std::uint64_t unit = 4ull * static_cast<std::uint64_t>(ranks) * static_cast<std::uint64_t>(ranks);
    const std::uint64_t bytes = std::max<std::uint64_t>(unit, c.size / unit * unit);
    for (int d = 0; d < ranks; ++d)
        if (auto why = memory_shortfall(c.be, d, 2 * bytes)) throw CaseStop{"waived", *why};
    c.be.release_all();
    c.say(key + ": " + std::to_string(bytes) + " bytes over " + std::to_string(ranks) + " GPUs");
    // The deadline grows with the work (finding 8): --timeout-s plus the whole run's bus bytes at
    // 1 GB/s, a floor below any GPU-to-GPU path (8 x A10G without P2P stage through host memory
    // at a few GB/s), so 20 repetitions of 1 GiB (--full) never time out falsely.
    const double bus_bytes = static_cast<double>(bytes) * bus_factor(coll, ranks) * 20.0 * static_cast<double>(c.warmup + c.samples);
    const double deadline_s = c.o.timeout_s + bus_bytes / 1e9;
    const CollectiveTiming t = nccl_single_process(coll, bytes, ranks, c.warmup, c.samples, 20, deadline_s);
    if (!t.error.empty()) throw CaseStop{t.timed_out ? "timed_out" : "failed", t.error};
    const double factor = bus_factor(coll, ranks);
    Record r = bandwidth_record(c, t.seconds, static_cast<std::uint64_t>(static_cast<double>(bytes) * factor), t.verified ? 0 : 1, 1);
    r.verification = t.verification;
    r.reps_per_sample = 20;
    r.params = {{"bytes", bytes}, {"ranks", ranks}, {"nodes", 1}, {"bus_factor", factor}, {"nccl_version", nccl_version()},
                {"algbw_gb_per_s", r.median ? nlohmann::json(*r.median / factor) : nlohmann::json(nullptr)}};
    r.expectation_kind = "peer";
    c.out.push_back(std::move(r));
}

}  // namespace gpuplan::bench::detail
