// test_inputs.hpp — files the core tests read, embedded so they run natively and under node
// alike: the topology inputs of tests/data/topology/ (sources: its SOURCES.md) and the bench
// results fixtures of tests/cli/data/ (bench_run_p5_fixture.json, decode_bench_g7e.json) and the usage histories of tests/cli/data/usage/.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "gpuplan/catalog/catalog.hpp"

namespace gpuplan {

const std::vector<CatalogDocument>& topology_test_documents();
const std::vector<CatalogDocument>& bench_test_documents();
// tests/cli/data/usage/: one usage history in every format fleet --usage reads (its README.md).
const std::vector<CatalogDocument>& usage_test_documents();
// tests/data/hf-configs/: real config.json files (its SOURCES.md).
const std::vector<CatalogDocument>& hf_config_test_documents();
// One of them by file name ("four-hours-4-6-12.csv"); throws when there is none.
inline std::string usage_test_file(const std::string& name) {
    for (const auto& d : usage_test_documents())
        if (d.origin == "tests/cli/data/usage/" + name) return d.text;
    throw std::runtime_error("no test input tests/cli/data/usage/" + name);
}

}  // namespace gpuplan
