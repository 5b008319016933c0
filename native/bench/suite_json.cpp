// suite_json.cpp — see suite_json.hpp.
#include "suite_json.hpp"

#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>

#include "bench_results.hpp"  // instance_type_from_metadata
#include "device_query.hpp"
#include "host_memory.hpp"
#include "nccl_collectives.hpp"
#include "output_file.hpp"
#include "suite_internal.hpp"

namespace gpuplan::bench {

namespace {

using nlohmann::json;

std::string read_line(const std::string& path) {
    std::ifstream in(path);
    std::string s;
    std::getline(in, s);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.pop_back();
    return s;
}

json opt(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
json text_or_null(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

// "00000000:10:1C.0" (CUDA) -> "0000:10:1c.0" (sysfs).
std::string sysfs_bus_id(std::string id) {
    for (auto& ch : id) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    const auto colon = id.find(':');
    if (colon != std::string::npos && colon > 4) id = id.substr(colon - 4);
    return id;
}

json pcie_link(const std::string& bus_id) {
    const std::string dir = "/sys/bus/pci/devices/" + sysfs_bus_id(bus_id) + "/";
    const auto width = [&](const char* f) -> json {
        const std::string s = read_line(dir + f);
        return s.empty() || s.find_first_not_of("0123456789") != std::string::npos ? json(nullptr) : json(std::stoi(s));
    };
    const auto gen = [&](const char* f) -> json {
        const auto g = pcie_generation(read_line(dir + f));
        return g ? json(*g) : json(nullptr);
    };
    return {{"current_gen", gen("current_link_speed")}, {"current_width", width("current_link_width")},
            {"max_gen", gen("max_link_speed")},         {"max_width", width("max_link_width")},
            {"source", "sysfs " + dir}};
}

json cpu_facts() {
    std::ifstream in("/proc/cpuinfo");
    std::string line, model;
    int logical = 0;
    std::map<std::string, int> packages;
    while (std::getline(in, line)) {
        const auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string key = line.substr(0, colon);
        while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.pop_back();
        const std::string value = colon + 2 <= line.size() ? line.substr(colon + 2) : "";
        if (key == "processor") ++logical;
        if (key == "model name" && model.empty()) model = value;
        if (key == "physical id") packages[value] = 1;
    }
    return {{"model", text_or_null(model)}, {"logical_cpus", logical}, {"sockets", packages.empty() ? json(nullptr) : json(packages.size())}};
}

json numa_facts() {
    json nodes = json::array();
    for (int n : numa_nodes()) {
        const std::optional<double> gib = numa_node_memory_gib(n);
        nodes.push_back({{"node", n}, {"cpus", text_or_null(format_cpu_list(numa_node_cpus(n)))}, {"memory_gib", gib ? json(*gib) : json(nullptr)}});
    }
    return nodes;
}

}  // namespace

std::optional<int> pcie_generation(const std::string& speed) {
    double gt = 0;
    if (std::sscanf(speed.c_str(), "%lf", &gt) != 1) return std::nullopt;
    const std::pair<double, int> gens[] = {{2.5, 1}, {5, 2}, {8, 3}, {16, 4}, {32, 5}, {64, 6}};
    for (const auto& [rate, g] : gens)
        if (gt > rate * 0.95 && gt < rate * 1.05) return g;
    return std::nullopt;
}

std::string utc_now_iso8601() {
    const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

json suite_fingerprint(TransferBackend* be, const std::string& backend_name, const std::optional<std::string>& instance_type) {
    const native::DeviceQuery q = native::query_gpus();
    json gpus = json::array();
    const bool cuda = be != nullptr && be->name() == "cuda";
    for (std::size_t k = 0; k < q.devices.size(); ++k) {
        const auto& d = q.devices[k];
        json g = {{"name", d.name},
                  {"memory_gib", d.memory_gib},
                  {"compute_capability", std::to_string(d.compute_capability_major) + "." + std::to_string(d.compute_capability_minor)},
                  {"pci_bus_id", d.pci_bus_id},
                  {"multiprocessors", d.multiprocessors},
                  {"pcie", pcie_link(d.pci_bus_id)}};
        if (cuda && static_cast<int>(k) < be->device_count()) {
            const DeviceFacts f = be->device_facts(static_cast<int>(k));
            g["copy_engines"] = f.copy_engines < 0 ? json(nullptr) : json(f.copy_engines);
            g["l2_bytes"] = f.l2_bytes;
            g["numa_node"] = f.numa_node < 0 ? json(nullptr) : json(f.numa_node);
            g["sm_clock_mhz"] = opt(f.sm_clock_mhz);
            g["memory_clock_mhz"] = opt(f.memory_clock_mhz);
            g["memory_bus_width_bits"] = f.memory_bus_width_bits;
        }
        gpus.push_back(g);
    }
    json peers = json::array();
    if (cuda)
        for (int i = 0; i < be->device_count(); ++i) {
            json row = json::array();
            for (int j = 0; j < be->device_count(); ++j) row.push_back(i == j ? json(nullptr) : json(be->peer_advertised(i, j)));
            peers.push_back(row);
        }
    std::optional<std::string> type = instance_type ? instance_type : instance_type_from_metadata();
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    return {{"backend", backend_name},
            {"instance_type", type ? json(*type) : json(nullptr)},
            {"instance_type_source", instance_type ? json("--instance-type") : type ? json("local EC2 metadata (cloud-init / DMI product name)") : json(nullptr)},
            {"gpus", gpus},
            {"driver_version", text_or_null(q.driver_version)},
            {"runtime_version", text_or_null(q.runtime_version)},
            {"gpu_query", q.message},
            {"nccl_version", text_or_null(nccl_version())},
            {"host", std::string(host)},
            {"cpu", cpu_facts()},
            {"numa_nodes", numa_facts()},
            {"peer_access_advertised", peers}};
}

json record_json(const Record& r) {
    // The core's record type, written by the core's writer (the planner's reader reads it).
    BenchFigure f;
    f.case_name = r.case_key;
    f.status = r.status;
    f.unit = r.unit;
    f.params = r.params;
    f.samples = r.samples;
    f.median = r.median;
    f.datasheet_peak = r.datasheet.value;
    f.datasheet_source = r.datasheet.source;
    f.fraction_of_peak = r.fraction;
    f.verdict = r.verdict;
    f.verdict_reason = r.verdict_reason;
    f.ok_at_least = r.ok_at_least;
    f.broken_below = r.broken_below;
    f.stats = {r.min, r.mean, r.max, r.p99, r.median ? std::optional<double>(r.seconds_median) : std::nullopt, r.reps_per_sample, r.warmup};
    f.bytes_counted = r.bytes_counted;
    f.timing = r.timing;
    f.verified = r.verified;
    f.verification = r.verification;
    f.error = r.error;
    return to_json(f);
}

json suite_document(const json& fingerprint, const RunInfo& info, const SuiteRun& run) {
    std::vector<json> records;
    for (const auto& r : run.records) records.push_back(record_json(r));
    json waived = json::array();
    for (const auto& w : run.waived) waived.push_back({{"case", w.case_key}, {"reason", w.reason}});
    const json run_info = {{"tool", info.tool},
                           {"gpuplan_version", info.version},
                           {"backend", run.backend},
                           {"depth", info.depth},
                           {"options", info.options},
                           {"timing_method", run.timing_method},
                           {"units", {{"GB/s", "10^9 bytes per second"}, {"us", "microseconds"}}},
                           {"statistics", "median, min, mean, max over the samples; p99 is the 99th-percentile (slowest) sample duration in the record's unit; "
                                          "each sample is the mean of reps_per_sample back-to-back reps"},
                           {"verdicts", "fraction_of_peak = median / datasheet_peak (latency: datasheet / median); ok >= verdict_bands.ok_at_least, "
                                        "low below it, broken < verdict_bands.broken_below or when the data did not verify (docs/benchmarks.md)"},
                           {"started_utc", info.started_utc},
                           {"finished_utc", run.complete ? json(utc_now_iso8601()) : json(nullptr)},
                           {"complete", run.complete},
                           {"cases_run", run.cases_run},
                           {"cases_pending", run.cases_pending},
                           {"waived", waived},
                           {"errors", run.errors},
                           {"notes", run.notes}};
    return bench_document(fingerprint, records, run_info);
}

void write_json_atomically(const std::string& path, const json& doc) {
    const std::string why = write_output_file(path, doc.dump(2) + "\n");
    if (!why.empty()) throw BenchError(BenchError::Kind::failed, "--json: cannot write '" + path + "': " + why);
}

}  // namespace gpuplan::bench
