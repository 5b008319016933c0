// bench_results.cpp — see bench_results.hpp.
#include "bench_results.hpp"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "device_query.hpp"

namespace gpuplan::bench {

namespace {

std::optional<std::string> read_small_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::string text(1 << 20, '\0');  // metadata files are a few KB; read at most 1 MiB
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    return text;
}

std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r')) s.pop_back();
    return s;
}

nlohmann::json null_if_empty(const std::string& s) { return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s); }

}  // namespace

std::optional<std::string> instance_type_from_metadata() {
    if (const auto text = read_small_file("/run/cloud-init/instance-data.json")) {
        const nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
        if (j.is_object()) {
            const auto pick = [&](const nlohmann::json::json_pointer& p) -> std::optional<std::string> {
                if (j.contains(p) && j.at(p).is_string() && !j.at(p).get<std::string>().empty()) return j.at(p).get<std::string>();
                return std::nullopt;
            };
            if (auto t = pick(nlohmann::json::json_pointer("/v1/instance_type"))) return t;
            if (auto t = pick(nlohmann::json::json_pointer("/ds/meta_data/instance-type"))) return t;
        }
    }
    const auto vendor = read_small_file("/sys/devices/virtual/dmi/id/sys_vendor");
    const auto product = read_small_file("/sys/devices/virtual/dmi/id/product_name");
    if (vendor && product && trimmed(*vendor) == "Amazon EC2" && !trimmed(*product).empty()) return trimmed(*product);
    return std::nullopt;
}

Fingerprint machine_fingerprint(const std::string& backend, const std::optional<std::string>& instance_type) {
    Fingerprint f;
    f.backend = backend;
    f.instance_type = instance_type ? instance_type : instance_type_from_metadata();
    const native::DeviceQuery q = native::query_gpus();
    for (const auto& d : q.devices) {
        char cc[16];
        std::snprintf(cc, sizeof cc, "%d.%d", d.compute_capability_major, d.compute_capability_minor);
        f.gpus.push_back({d.name, d.memory_gib, cc, d.pci_bus_id});
    }
    f.driver_version = q.driver_version;
    f.runtime_version = q.runtime_version;
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) == 0) f.host = host;
    return f;
}

nlohmann::json results_json(const Fingerprint& fp, const DecodeConfig& config, const DecodeRun& run, const nlohmann::json& run_status) {
    using nlohmann::json;
    json gpus = json::array();
    for (const auto& g : fp.gpus)
        gpus.push_back({{"name", g.name}, {"memory_gib", g.memory_gib}, {"compute_capability", g.compute_capability}, {"pci_bus_id", g.pci_bus_id}});
    json fingerprint = {{"backend", fp.backend},
                        {"instance_type", fp.instance_type ? json(*fp.instance_type) : json(nullptr)},
                        {"gpus", gpus},
                        {"driver_version", null_if_empty(fp.driver_version)},
                        {"runtime_version", null_if_empty(fp.runtime_version)},
                        {"host", fp.host}};
    const FrameLayout& L = config.layout;
    std::vector<nlohmann::json> records;
    for (const CaseResult& r : run.cases) {
        // The core's record type, written by the core's writer (the planner's reader reads it).
        DecodeBenchRecord rec;
        rec.case_name = r.case_name;
        rec.params = {static_cast<double>(config.chunks), static_cast<double>(L.frames_per_chunk), static_cast<double>(L.height),
                      static_cast<double>(L.width), static_cast<double>(L.channels), static_cast<double>(L.dtype_bytes),
                      config.compute_ms, std::string(to_string(config.host_stage)), static_cast<double>(r.buffers)};
        rec.samples = r.samples;
        rec.median = r.median;
        rec.stats = {r.min, r.mean, r.p99, r.kernel_active_fraction, r.chunk_compute_ms, r.chunk_d2h_ms, r.chunk_host_ms, r.compute_slowdown, r.rtf,
                     r.checksums_ok};
        records.push_back(to_json(rec));
    }
    // WAIVED cases have no record: the CLI reports them in words. The run says which synthetic
    // decoder ran (--decoder) and how it was sized, so a fit knows what it is fitting.
    nlohmann::json status = run_status.is_object() ? run_status : nlohmann::json::object();
    status["decoder"] = to_string(config.decoder);
    if (!run.calibration.method.empty()) status["decoder_calibration"] = run.calibration.method;
    return bench_document(fingerprint, records, status);
}

}  // namespace gpuplan::bench
