// test_inputs.hpp — files the core tests read, embedded so they run natively and under node
// alike: the topology inputs of tests/data/topology/ (sources: its SOURCES.md) and the bench
// results fixtures of tests/cli/data/ (bench_run_p5_fixture.json, decode_bench_g7e.json).
#pragma once

#include <string>
#include <vector>

#include "gpuplan/catalog/catalog.hpp"

namespace gpuplan {

const std::vector<CatalogDocument>& topology_test_documents();
const std::vector<CatalogDocument>& bench_test_documents();

}  // namespace gpuplan
