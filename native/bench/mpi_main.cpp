// mpi_main.cpp — gpuplan-bench-mpi: the cases that need more than one process, launched by
// mpirun or srun (docs/benchmarks.md, "Network" and "Collectives"). A separate small program
// so the `gpuplan` CLI builds and runs without MPI; built when CMake finds MPI.
//
//   net_p2p_bw       rank 0 -> rank 1: windows of non-blocking sends of host buffers, then a
//                    1-byte acknowledgement (OSU-style); GB/s = bytes sent / time on rank 0
//   net_p2p_latency  8-byte ping-pong, rank 1 echoes the value + 1; us = round trip / 2
//   nccl_*           NCCL collectives with one rank per process, one GPU each (CUDA builds)
// Every wait polls MPI_Test against --timeout-s: a peer that never answers stops the case,
// rank 0 writes the results (with the error) and the job is aborted, never hung. Rank 0 writes
// --json FILE (gpuplan.bench/1) after every case, via temp file + rename.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "device_query.hpp"
#include "gpuplan/measurements/calibration.hpp"
#include "gpuplan/catalog/catalog.hpp"
#include "nccl_collectives.hpp"
#include "suite.hpp"
#include "suite_json.hpp"

#ifndef GPUPLAN_VERSION
#define GPUPLAN_VERSION "0.0.0"
#endif

namespace {

using namespace gpuplan::bench;

struct Options {
    bool quick = false, full = false;
    std::string size = "", json, instance_type, cases = "net,nccl";
    int samples = 0;
    double timeout_s = 30;
};

struct Timeout {
    std::string what;
};

// Waits for `req` until the deadline; throws Timeout (the caller records it and aborts).
void wait_for(MPI_Request& req, double deadline, const std::string& what) {
    int done = 0;
    while (!done) {
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (!done && MPI_Wtime() > deadline) throw Timeout{what};
    }
}
void wait_all(std::vector<MPI_Request>& reqs, double deadline, const std::string& what) {
    for (auto& r : reqs) wait_for(r, deadline, what);
}

struct Mpi {
    int rank = 0, size = 1, nodes = 1, local_rank = 0, local_size = 1;
};

Mpi topology() {
    Mpi m;
    MPI_Comm_rank(MPI_COMM_WORLD, &m.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m.size);
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, m.rank, MPI_INFO_NULL, &local);
    MPI_Comm_rank(local, &m.local_rank);
    MPI_Comm_size(local, &m.local_size);
    MPI_Comm_free(&local);
    int leader = m.local_rank == 0 ? 1 : 0;
    MPI_Allreduce(&leader, &m.nodes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return m;
}

Record base_record(const char* key, const char* bytes_counted) {
    Record r;
    r.case_key = key;
    r.bytes_counted = bytes_counted;
    r.timing = "MPI_Wtime on rank 0 around all reps of a sample (bandwidth: until rank 1's acknowledgement arrives)";
    return r;
}

// Bandwidth of rank 0 -> 1 at `bytes` per message; every rank calls it (others only wait).
Record p2p_bandwidth(const Mpi& m, std::uint64_t bytes, int warmup, int samples, double timeout_s) {
    Record r = base_record("net_p2p_bw", "bytes sent from rank 0 to rank 1 per message, x messages; GB/s = 10^9 B/s");
    const int window = static_cast<int>(std::clamp<std::uint64_t>((256ull << 20) / bytes, 1, 16));
    r.params = {{"bytes", bytes}, {"window", window}, {"ranks", 2}, {"nodes", m.nodes}, {"host_memory", "pageable"}};
    if (m.rank > 1) return r;
    std::vector<std::uint64_t> buf(bytes / 8 * static_cast<std::uint64_t>(m.rank == 0 ? 1 : window));
    if (m.rank == 0)
        for (std::uint64_t k = 0; k < buf.size(); ++k) buf[k] = pattern_word(11, k);
    const int reps = 4;
    std::vector<double> seconds;
    const int count = static_cast<int>(bytes / 8);
    char ack = 0;
    for (int s = 0; s < warmup + samples; ++s) {
        const double deadline = MPI_Wtime() + timeout_s;
        const double t0 = MPI_Wtime();
        for (int rep = 0; rep < reps; ++rep) {
            std::vector<MPI_Request> reqs(static_cast<std::size_t>(window));
            for (int w = 0; w < window; ++w) {
                if (m.rank == 0)
                    MPI_Isend(buf.data(), count, MPI_UINT64_T, 1, 100 + w, MPI_COMM_WORLD, &reqs[static_cast<std::size_t>(w)]);
                else
                    MPI_Irecv(buf.data() + static_cast<std::uint64_t>(w) * (bytes / 8), count, MPI_UINT64_T, 0, 100 + w, MPI_COMM_WORLD,
                              &reqs[static_cast<std::size_t>(w)]);
            }
            wait_all(reqs, deadline, "net_p2p_bw: a window of " + std::to_string(window) + " messages");
            MPI_Request a;
            if (m.rank == 0) MPI_Irecv(&ack, 1, MPI_CHAR, 1, 99, MPI_COMM_WORLD, &a);
            else MPI_Isend(&ack, 1, MPI_CHAR, 0, 99, MPI_COMM_WORLD, &a);
            wait_for(a, deadline, "net_p2p_bw: the acknowledgement");
        }
        if (s >= warmup) seconds.push_back((MPI_Wtime() - t0) / reps);
    }
    // Rank 1 checks every word of every slot, and tells rank 0.
    unsigned long long bad = 0;
    if (m.rank == 1)
        for (std::uint64_t k = 0; k < buf.size(); ++k) bad += buf[k] != pattern_word(11, k % (bytes / 8));
    MPI_Request req;
    if (m.rank == 1) MPI_Isend(&bad, 1, MPI_UNSIGNED_LONG_LONG, 0, 98, MPI_COMM_WORLD, &req);
    else MPI_Irecv(&bad, 1, MPI_UNSIGNED_LONG_LONG, 1, 98, MPI_COMM_WORLD, &req);
    wait_for(req, MPI_Wtime() + timeout_s, "net_p2p_bw: the verification count");
    r.reps_per_sample = reps;
    r.warmup = warmup;
    r.verified = bad == 0;
    r.verification = std::to_string(bad) + " of " + std::to_string(bytes / 8 * static_cast<std::uint64_t>(window)) +
                     " 8-byte words received by rank 1 differ from the pattern";
    if (r.verified) fill_stats(r, seconds, static_cast<double>(bytes) * window, false);
    else r.status = "failed", r.error = "verification: " + r.verification;
    r.unit = "GB/s";
    return r;
}

Record p2p_latency(const Mpi& m, int warmup, int samples, double timeout_s) {
    Record r = base_record("net_p2p_latency", "8-byte messages; us = half of one round trip");
    r.unit = "us";
    r.params = {{"bytes", 8}, {"ranks", 2}, {"nodes", m.nodes}};
    if (m.rank > 1) return r;
    const int reps = 1000;
    std::vector<double> seconds;
    bool ok = true;
    for (int s = 0; s < warmup + samples; ++s) {
        const double deadline = MPI_Wtime() + timeout_s;
        const double t0 = MPI_Wtime();
        for (int rep = 0; rep < reps; ++rep) {
            unsigned long long v = static_cast<unsigned long long>(rep) * 2, in = 0;
            MPI_Request q;
            if (m.rank == 0) {
                MPI_Isend(&v, 1, MPI_UNSIGNED_LONG_LONG, 1, 7, MPI_COMM_WORLD, &q);
                wait_for(q, deadline, "net_p2p_latency: a ping");
                MPI_Irecv(&in, 1, MPI_UNSIGNED_LONG_LONG, 1, 8, MPI_COMM_WORLD, &q);
                wait_for(q, deadline, "net_p2p_latency: a pong");
                ok = ok && in == v + 1;
            } else {
                MPI_Irecv(&in, 1, MPI_UNSIGNED_LONG_LONG, 0, 7, MPI_COMM_WORLD, &q);
                wait_for(q, deadline, "net_p2p_latency: a ping");
                ++in;
                MPI_Isend(&in, 1, MPI_UNSIGNED_LONG_LONG, 0, 8, MPI_COMM_WORLD, &q);
                wait_for(q, deadline, "net_p2p_latency: a pong");
            }
        }
        if (s >= warmup) seconds.push_back((MPI_Wtime() - t0) / reps / 2);
    }
    r.reps_per_sample = reps;
    r.warmup = warmup;
    r.verified = ok;
    r.verification = ok ? "every echo carried the value sent + 1" : "MISMATCH: an echo did not carry the value sent + 1";
    if (ok) fill_stats(r, seconds, 1, true);
    else r.status = "failed", r.error = "verification: " + r.verification;
    return r;
}

}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    Options o;
    CLI::App app{"gpuplan-bench-mpi: network (MPI) and multi-node NCCL cases of gpuplan's benchmarks; run under mpirun or srun", "gpuplan-bench-mpi"};
    app.add_flag("--quick", o.quick, "Fewer sizes and samples");
    app.add_flag("--full", o.full, "More samples");
    app.add_option("--size", o.size, "Largest message / collective buffer: 16MiB (default), 1GiB, ...");
    app.add_option("--samples", o.samples, "Timed samples per case")->check(CLI::Range(1, 100000));
    app.add_option("--timeout-s", o.timeout_s, "Longest one sample may wait on a peer")->capture_default_str()->check(CLI::PositiveNumber);
    app.add_option("--json", o.json, "Rank 0 writes the results (gpuplan.bench/1) to FILE");
    app.add_option("--instance-type", o.instance_type, "EC2 instance type for datasheet figures (default: local EC2 metadata)");
    app.add_option("--cases", o.cases, "Comma list of net, nccl or case keys")->capture_default_str();
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e);
        MPI_Finalize();
        return rc;
    }
    const Mpi m = topology();
    const auto wanted = [&](const std::string& key, const std::string& group) {
        const std::string list = "," + o.cases + ",";
        return list.find("," + key + ",") != std::string::npos || list.find("," + group + ",") != std::string::npos;
    };
    const int warmup = o.quick ? 1 : o.full ? 3 : 2;
    const int samples = o.samples > 0 ? o.samples : o.quick ? 5 : o.full ? 50 : 20;
    std::uint64_t top = 16ull << 20;
    if (!o.size.empty()) {
        const auto s = parse_size(o.size);
        if (!s) {
            if (m.rank == 0) std::cerr << "gpuplan-bench-mpi: error: --size: got '" << o.size << "'; expected a size such as 16MiB\n";
            MPI_Finalize();
            return 2;
        }
        top = *s / 8 * 8;
    }

    // Datasheet figures from the built-in catalog, when this is a known instance type.
    const gpuplan::Catalog catalog = gpuplan::load_builtin_catalog();
    const nlohmann::json fp0 = suite_fingerprint(nullptr, "cpu", o.instance_type.empty() ? std::nullopt : std::optional<std::string>(o.instance_type));
    std::optional<std::string> instance;
    if (fp0["instance_type"].is_string() && catalog.find_instance(fp0["instance_type"].get<std::string>())) instance = fp0["instance_type"].get<std::string>();
    const ExpectFn expect = [&](const std::string& kind) -> Expectation {
        if (!instance) return {std::nullopt, "instance type unknown (not on EC2, no --instance-type): no datasheet figure"};
        const gpuplan::DatasheetFigure f = gpuplan::datasheet_figure(catalog, *instance, kind);
        return {f.gb_per_s, f.source};
    };

    SuiteRun run;
    run.backend = "cpu";
    run.timing_method = "MPI_Wtime (host clock) on rank 0";
    RunInfo info{"gpuplan-bench-mpi", GPUPLAN_VERSION, o.quick ? "quick" : o.full ? "full" : "standard",
                 {{"ranks", m.size}, {"nodes", m.nodes}, {"ranks_per_node", m.local_size}, {"timeout_s", o.timeout_s}, {"cases", o.cases}},
                 utc_now_iso8601()};
    nlohmann::json fp = fp0;
    fp["launcher"] = {{"ranks", m.size}, {"nodes", m.nodes}, {"ranks_per_node_rank0", m.local_size}};
    const auto save = [&] {
        if (m.rank == 0 && !o.json.empty()) {
            fp["backend"] = run.backend;
            write_json_atomically(o.json, suite_document(fp, info, run));
        }
    };
    const auto say = [&](const std::string& line) {
        if (m.rank == 0) std::cerr << "gpuplan-bench-mpi: " << line << "\n" << std::flush;
    };
    const auto add = [&](Record r, const char* kind, double factor) {
        if (m.rank != 0) return;
        r.expectation_kind = kind;
        r.expectation_factor = factor;
        r.ok_at_least = 0.5, r.broken_below = 0.05;
        rate(r, expect);
        if (r.status != "ok") run.errors.push_back(r.case_key + ": " + r.status + ": " + r.error);
        say(r.case_key + " " + r.params.dump() + ": " + (r.median ? std::to_string(*r.median) + " " + r.unit : r.status));
        run.records.push_back(std::move(r));
        save();
    };
    save();
    int rc = 0;
    try {
        if (m.size < 2) {
            for (const char* k : {"net_p2p_bw", "net_p2p_latency"})
                if (wanted(k, "net")) run.waived.push_back({k, "needs 2 MPI ranks (mpirun -np 2 ...); this job has 1"});
        } else {
            if (wanted("net_p2p_bw", "net")) {
                std::vector<std::uint64_t> sizes{64ull << 10, 1ull << 20, top};
                if (o.quick) sizes = {1ull << 20, top};
                sizes.erase(std::remove_if(sizes.begin(), sizes.end(), [&](std::uint64_t s) { return s > top; }), sizes.end());
                sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
                for (std::uint64_t s : sizes) add(p2p_bandwidth(m, s, warmup, samples, o.timeout_s), "network", 1);
                run.cases_run.push_back("net_p2p_bw");
            }
            if (wanted("net_p2p_latency", "net")) {
                add(p2p_latency(m, warmup, samples, o.timeout_s), "", 1);
                run.cases_run.push_back("net_p2p_latency");
            }
        }
        // NCCL: every rank needs a GPU; all ranks agree before any of them starts.
        int gpus = static_cast<int>(gpuplan::native::query_gpus().devices.size()), min_gpus = 0;
        MPI_Allreduce(&gpus, &min_gpus, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        for (Collective c : {Collective::all_reduce, Collective::all_gather, Collective::reduce_scatter, Collective::all_to_all}) {
            const std::string key = collective_key(c);
            if (!wanted(key, "nccl")) continue;
            std::string why;
            if (!nccl_built()) why = "this gpuplan-bench-mpi was built without CUDA/NCCL";
            else if (min_gpus == 0) why = "a rank has no usable GPU (" + gpuplan::native::query_gpus().message + ")";
            else if (m.size < 2) why = "needs 2 or more ranks";
            if (!why.empty()) {
                if (m.rank == 0) run.waived.push_back({key, why});
                continue;
            }
            const std::uint64_t unit = 4ull * static_cast<std::uint64_t>(m.size) * static_cast<std::uint64_t>(m.size);
            const std::uint64_t bytes = std::max(unit, top / unit * unit);
            // As nccl-tests: a barrier before each sample, the time averaged and the errors summed over ranks.
            RankAgreement agree;
            agree.barrier = [] { MPI_Barrier(MPI_COMM_WORLD); };
            agree.mean_over_ranks = [&m](double v) {
                double sum = 0;
                MPI_Allreduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
                return sum / m.size;
            };
            agree.sum_over_ranks = [](std::uint64_t v) {
                unsigned long long in = v, sum = 0;
                MPI_Allreduce(&in, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
                return static_cast<std::uint64_t>(sum);
            };
            const CollectiveTiming t = nccl_multi_process(
                c, bytes, m.rank, m.size, m.local_rank % gpus, [](void* data, int n) { MPI_Bcast(data, n, MPI_BYTE, 0, MPI_COMM_WORLD); }, agree,
                warmup, samples, 20, o.timeout_s);
            Record r = base_record(key.c_str(), "nccl-tests: algbw = S / t, busbw = algbw x factor; median is busbw");
            r.unit = "GB/s";
            r.timing = "std::chrono::steady_clock per sample of 20 collectives after a barrier, averaged over the ranks (nccl-tests)";
            const double factor = bus_factor(c, m.size);
            r.params = {{"bytes", bytes}, {"ranks", m.size}, {"nodes", m.nodes}, {"bus_factor", factor}, {"nccl_version", nccl_version()}};
            r.verified = t.verified;
            r.verification = t.verification;
            if (!t.error.empty()) r.status = t.timed_out ? "timed_out" : "failed", r.error = t.error;
            else if (!t.verified) r.status = "failed", r.error = "verification: " + t.verification;
            else fill_stats(r, t.seconds, static_cast<double>(bytes) * factor, false);
            run.backend = "cuda";
            add(r, m.nodes > 1 ? "network" : "peer", m.nodes > 1 ? 1.0 / m.local_size : 1);
            run.cases_run.push_back(key);
            if (t.timed_out) throw Timeout{key};
        }
        run.complete = true;
        save();
    } catch (const Timeout& t) {
        run.errors.push_back(t.what + ": no answer within " + std::to_string(o.timeout_s) + " s (the job is aborted)");
        save();
        say("error: " + run.errors.back());
        std::fflush(nullptr);
        MPI_Abort(MPI_COMM_WORLD, 4);
    } catch (const std::exception& e) {
        if (m.rank == 0) std::cerr << "gpuplan-bench-mpi: error: " << e.what() << "\n";
        rc = 4;
    }
    if (m.rank == 0 && rc == 0) {
        for (const auto& w : run.waived) std::cerr << "gpuplan-bench-mpi: WAIVED " << w.case_key << ": " << w.reason << "\n";
        if (!run.errors.empty()) rc = 4;
        if (!o.json.empty()) std::cout << "results: " << o.json << " (gpuplan.bench/1)\n";
    }
    MPI_Finalize();
    return rc;
}
