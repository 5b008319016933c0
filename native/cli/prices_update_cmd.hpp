// prices_update_cmd.hpp — `gpuplan prices update`: AWS's public Price List files downloaded and
// imported in one command (prices_update_cmd.cpp). Registered under `prices` by prices_cmd.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"

namespace gpuplan::cli {

struct PricesUpdateOptions {
    std::vector<std::string> regions{"all"};
    std::string out;
    std::string base_url;
    int attempts = 4;
    double retry_delay_s = 2;
    double stall_timeout_s = 60;
    bool progress = false;
    Format format = Format::table;
};

// "12.5 kB", "455.0 MB": a byte count for people (import and update).
std::string size_text(std::uint64_t bytes);

// What an overlay holds, by kind (import and update print it).
struct OverlayCounts {
    std::size_t prices = 0, commitments = 0, reserved = 0;
};
OverlayCounts count_overlay(const Json& overlay);

// Adds `update` under `prices`; its options land in `o`.
CLI::App* add_prices_update(CLI::App& prices, const std::shared_ptr<PricesUpdateOptions>& o);
std::string run_prices_update(const PricesUpdateOptions& o, const Catalog& catalog);

}  // namespace gpuplan::cli
