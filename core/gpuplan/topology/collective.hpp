// collective.hpp — one bare collective on N nodes of an instance type, as nccl-tests runs it.
//
// `gpuplan collective`, the scenario's `collective` section and the validation corpus's
// nccl-tests cases ask here. The time comes from hierarchical_collective (topology.hpp); the
// bandwidths follow nccl-tests' definitions (nccl-tests doc/PERFORMANCE.md) so a prediction
// reads against an all_reduce_perf line directly:
//   algorithm bandwidth  algbw = S / t           (S: the "size" column, bytes)
//   bus bandwidth        busbw = algbw x factor  (all-reduce 2 (n-1)/n; all-gather,
//                        reduce-scatter and all-to-all (n-1)/n; n = ranks)
// The bus bandwidth is what the links must carry per rank, so it is comparable across rank
// counts and against the link's own bandwidth.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/topology/topology.hpp"

namespace gpuplan {

// "all-reduce", "all-gather", "reduce-scatter", "all-to-all" (also the CLI's --op words).
std::optional<Collective> parse_collective(std::string_view text);

// The largest buffer a collective takes, in bytes: a petabyte, far past any GPU memory, so a
// typo (1e300) is refused by `collective --bytes` and the scenario's collective.bytes alike.
inline constexpr double kMaxCollectiveBytes = 1e15;

struct CollectiveRequest {
    Collective op = Collective::all_reduce;
    std::string instance;
    double nodes = 1;
    double bytes = 0;                      // nccl-tests' size: the buffer each rank reduces or gathers
    std::optional<double> gpus_per_node;   // ranks per node; default every accelerator of the instance
    TopologyOverrides topology;            // measured bandwidths replace datasheet ones
};

struct CollectiveEstimate {
    CollectiveRequest request;
    NodeTopology topology;
    double gpus_per_node = 0, ranks = 0;
    CollectiveCost cost;
    Figure seconds, algorithm_bandwidth_gb_per_s, bus_bandwidth_gb_per_s;
};

// Throws InputError naming the field (instance, nodes, bytes, gpus_per_node) for one rank in
// all, no bytes, more ranks per node than the instance has accelerators, or an unknown instance.
CollectiveEstimate estimate_collective(const Catalog& catalog, const CollectiveRequest& request);

nlohmann::json to_json(const CollectiveEstimate& estimate);

}  // namespace gpuplan
