// topology_inputs.hpp — the NCCL logs and nvidia-smi outputs of tests/data/topology/ (sources:
// its SOURCES.md), embedded so the core tests read them natively and under node alike.
#pragma once

#include <string>
#include <vector>

#include "gpuplan/catalog/catalog.hpp"

namespace gpuplan {

const std::vector<CatalogDocument>& topology_test_documents();

}  // namespace gpuplan
