// devices_cmd.cpp — `gpuplan devices`: the GPUs this machine has, as the benchmarks will see
// them. No GPU (or no driver) is a normal answer, printed plainly, exit 0.
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "device_query.hpp"

namespace gpuplan::cli {

namespace {

std::string run_devices(Format format) {
    const native::DeviceQuery q = native::query_gpus();
    if (format == Format::json) {
        Json devices = Json::array();
        for (const auto& d : q.devices)
            devices.push_back({{"index", d.index}, {"name", d.name}, {"memory_gib", d.memory_gib},
                               {"compute_capability", fmt::format("{}.{}", d.compute_capability_major, d.compute_capability_minor)},
                               {"multiprocessors", d.multiprocessors}, {"pci_bus_id", d.pci_bus_id}});
        return dump_json({{"available", q.available}, {"backend", q.backend}, {"runtime_version", q.runtime_version},
                          {"driver_version", q.driver_version}, {"message", q.message}, {"devices", devices}});
    }
    std::string out = fmt::format("backend: {}{}\n", q.backend, q.runtime_version.empty() ? "" : " (CUDA runtime " + q.runtime_version + ")");
    if (!q.driver_version.empty()) out += fmt::format("driver: CUDA {}\n", q.driver_version);
    out += q.message + "\n";
    for (const auto& d : q.devices)
        out += fmt::format("  [{}] {}  {:.1f} GiB  sm_{}{}  {} SMs  PCI {}\n", d.index, d.name, d.memory_gib, d.compute_capability_major,
                           d.compute_capability_minor, d.multiprocessors, d.pci_bus_id);
    return out;
}

}  // namespace

Command register_devices(CLI::App& parent) {
    auto format = std::make_shared<Format>(Format::table);
    CLI::App* app = parent.add_subcommand("devices", "List the GPUs visible here (CUDA), or say plainly why there are none");
    add_format_option(*app, *format, {Format::table, Format::json});
    app->footer(R"(Exit code 0 whether or not a GPU is found: "no GPU here" is an answer, not an error.
Examples:
  gpuplan devices
  gpuplan devices --format json)");
    return {app, [format](const Catalog&) { return run_devices(*format); }};
}

}  // namespace gpuplan::cli
