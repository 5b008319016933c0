// fuzz_topology.hpp — what the two topology fuzz targets (fuzz_topology_nccl, fuzz_topology_smi)
// check after their parser (core/gpuplan/topology/machine_topology.hpp): an accepted import is
// summarised, compared with the catalog, turned into planner figures and serialised, all
// without a throw; every figure is finite, and a second parse of the same text agrees.
#pragma once

#include "fuzz_common.hpp"
#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/topology/machine_topology.hpp"

namespace gpuplan::fuzz {

template <class Parse>
void check_topology_import(std::string_view text, Parse parse) {
    static const Catalog catalog = load_builtin_catalog();
    MachineTopology t;
    try {
        t = parse(text);
    } catch (const InputError&) {
        return;  // refused with a message: an answer
    }
    // Issue 34's strictness on what was accepted: every bandwidth above 0 and finite, every
    // NVLink count at least 1.
    for (const TopoLink& l : t.links)
        if (!std::isfinite(l.gb_per_s) || !(l.gb_per_s > 0)) finding("accepted a link whose bandwidth is not above 0", l.from + " -> " + l.to);
    for (const TopoPath& p : t.paths) {
        if (p.gb_per_s && (!std::isfinite(*p.gb_per_s) || !(*p.gb_per_s > 0))) finding("accepted a path whose bandwidth is not above 0", p.from + " -> " + p.to);
        if (p.nvlinks && *p.nvlinks < 1) finding("accepted an NVLink count below 1", p.from + " -> " + p.to);
    }
    const TopologySummary s = summarize(t);
    const TopologyComparison c = compare_with_catalog(t, catalog, *catalog.find_instance("p4d.24xlarge"));
    const BenchCalibration cal = calibration_from_topology(t);
    for (const MeasuredFigure& f : cal.figures)
        if (!std::isfinite(f.value.value) || f.value.value < 0) finding("a planner figure that is not a finite bandwidth", f.from);
    const nlohmann::json doc = to_json(t, s, c);
    require_finite(doc);
    if (to_json(parse(text), s, c).dump() != doc.dump()) finding("two parses of the same text differ");
}

}  // namespace gpuplan::fuzz
