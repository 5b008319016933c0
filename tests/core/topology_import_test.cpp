// Topology import (core/gpuplan/topology/machine_topology.hpp) on real logs: the two seed logs
// of shared/cases/nccl-logs.md (figures read off the logs by hand, as the AWS deck reads them)
// and public NCCL / nvidia-smi outputs (tests/data/topology/SOURCES.md), then what bad input gets.
#include <algorithm>

#include "fixtures.hpp"
#include "test_inputs.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/topology/machine_topology.hpp"
#include "gpuplan/topology/collective.hpp"
#include "gpuplan/workload/training_plan.hpp"

using namespace gpuplan;

namespace {

std::string input(const std::string& file) {
    for (const auto& d : topology_test_documents())
        if (d.origin == "tests/data/topology/" + file) return d.text;
    FAIL("no test input " << file);
    return "";
}

// Every GPU pair of the import, both directions.
std::vector<const TopoPath*> gpu_pairs(const MachineTopology& t) {
    std::vector<const TopoPath*> out;
    for (const TopoNode* a : t.of_kind(TopoNodeKind::gpu))
        for (const TopoNode* b : t.of_kind(TopoNodeKind::gpu))
            if (a != b) out.push_back(t.path(a->name, b->name));
    return out;
}

bool has_text(const std::vector<std::string>& lines, const std::string& text) {
    return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(text) != std::string::npos; });
}

// The log without NCCL's "host:pid:tid [dev] NCCL INFO " prefixes (as some tools paste it).
std::string without_prefixes(const std::string& log) {
    std::string out, line;
    for (char c : log + "\n") {
        if (c != '\n') {
            line += c;
            continue;
        }
        const auto at = line.find("NCCL INFO ");
        out += (at == std::string::npos ? line : line.substr(at + 10)) + "\n";
        line.clear();
    }
    return out;
}

// The log without the per-GPU path lines ("GPU/... :GPU/... (hops/bw/TYPE)").
std::string without_path_lines(const std::string& log) {
    std::string out, line;
    for (char c : log + "\n") {
        if (c != '\n') {
            line += c;
            continue;
        }
        if (line.find(" :GPU/") == std::string::npos) out += line + "\n";
        line.clear();
    }
    return out;
}

}  // namespace

TEST_CASE("p4d.24xlarge log: 4 GPUs on one NVSwitch at 240 GB/s, PCI 24/12 GB/s, SYS 10 GB/s, 4 NICs") {
    const MachineTopology t = parse_nccl_topology(input("nccl-p4d.24xlarge.log"), "p4d.log");
    CHECK_FALSE(t.partial);
    CHECK(t.max_gb_per_s == 240.0);
    const TopologySummary s = summarize(t);
    CHECK(s.gpus == 4);
    CHECK(s.cpus == 2);
    CHECK(s.nics == 4);
    CHECK(s.nvswitches == 1);
    for (const TopoPath* p : gpu_pairs(t)) {
        REQUIRE(p);
        CHECK(p->type == "NVL");
        CHECK(p->gb_per_s == 240.0);
        CHECK_FALSE(p->derived);
    }
    CHECK(s.gpu_to_cpu_gb_per_s == 24.0);
    CHECK(s.nic_pci_gb_per_s == 12.0);
    CHECK(s.cross_socket_gb_per_s == 10.0);
    // Every GPU sits under CPU/0-0 with two of the four NICs; the other two are on CPU/0-1.
    for (const TopoNode* g : t.of_kind(TopoNodeKind::gpu)) CHECK(g->cpu == "CPU/0-0");
    CHECK(has_text(s.facts, "each GPU: 2 of 4 NICs near"));
    CHECK(s.bottleneck ==
          "GPU pairs talk over NVLink (NVL) at 240 GB/s; the bottleneck is leaving the GPUs: each GPU reaches its CPU at 24 GB/s, "
          "each NIC sits on PCIe at 12 GB/s, the sockets are joined at 10 GB/s (SYS).");

    // Against the catalog: NVLink at 240 GB/s is what the model derives for p4d (600 GB/s / 2 x 0.8).
    const Instance& p4d = *test::builtin_catalog().find_instance("p4d.24xlarge");
    const TopologyComparison c = compare_with_catalog(t, test::builtin_catalog(), p4d);
    CHECK(has_text(c.agreements, "GPU pairs: 240 GB/s"));
    CHECK(has_text(c.agreements, "4 NICs in the import; the catalog lists 4 EFA interfaces"));
    CHECK(has_text(c.differences, "the import shows 4 GPUs; a p4d.24xlarge has 8"));

    const BenchCalibration cal = calibration_from_topology(t);
    REQUIRE(cal.find("intra_gb_per_s"));
    CHECK(cal.find("intra_gb_per_s")->value.value == 240.0);
    CHECK(cal.find("host_gb_per_s")->value.value == 24.0);
}

TEST_CASE("g6e.48xlarge log: every GPU pair through the host bridge at 12 GB/s, SYS 16 GB/s, 4 NICs") {
    const MachineTopology t = parse_nccl_topology(input("nccl-g6e.48xlarge.log"), "g6e.log");
    CHECK_FALSE(t.partial);
    CHECK(t.max_gb_per_s == 12.0);
    const TopologySummary s = summarize(t);
    CHECK(s.gpus == 4);
    CHECK(s.nics == 4);
    CHECK(s.cpus == 2);
    CHECK(s.pci_switches == 2);
    CHECK(s.nvswitches == 0);
    for (const TopoPath* p : gpu_pairs(t)) {
        REQUIRE(p);
        CHECK(p->type == "PHB");
        CHECK(p->gb_per_s == 12.0);
    }
    CHECK(s.cross_socket_gb_per_s == 16.0);
    CHECK(s.bottleneck ==
          "Every GPU pair goes through the PCIe host bridge (PHB) at 12 GB/s: no NVLink between them, so collectives inside the node run at PCIe speed.");
    // The log's first line is another process's (dev 2) NVLS message: the dump is process 232's.
    CHECK(t.of_kind(TopoNodeKind::gpu).front()->name == "GPU/0-9e000");

    const Instance& g6e = *test::builtin_catalog().find_instance("g6e.48xlarge");
    const TopologyComparison c = compare_with_catalog(t, test::builtin_catalog(), g6e);
    CHECK(has_text(c.differences, "GPU pair 0-1 goes through the PCIe host bridge (PHB): 12 GB/s where the catalog's model of g6e.48xlarge gives"));

    const BenchCalibration cal = calibration_from_topology(t);
    CHECK(cal.find("intra_gb_per_s")->value.value == 12.0);
    CHECK(cal.find("intra_gb_per_s")->value.origin == InputOrigin::measured);
}

TEST_CASE("a train prediction with an imported topology differs from the catalog's exactly by the imported links") {
    const Catalog& catalog = test::builtin_catalog();
    const MachineTopology t = parse_nccl_topology(input("nccl-g6e.48xlarge.log"), "g6e.log");
    TrainingPlanRequest base;
    base.time.model = &test::preset("llama-3-8b");
    base.time.instance = catalog.find_instance("g6e.48xlarge");
    base.time.nodes = 1;
    base.time.gpus_per_node = 4;
    base.time.layout.data = 4;
    base.time.layout.zero_stage = 3;
    base.time.layout.global_batch_tokens = 4 * 2048;
    base.time.token_budget = 1e9;

    TrainingPlanRequest imported = base;
    const CalibrationUse use = apply_calibration(calibration_from_topology(t), imported.time.topology);
    CHECK(use.applied.size() == 2);
    // The same request with the two figures given by hand, as --measured-* flags would.
    TrainingPlanRequest by_hand = base;
    by_hand.time.topology.intra_gb_per_s = measured_param(12.0, "by hand");
    by_hand.time.topology.host_gb_per_s = measured_param(12.0, "by hand");

    const TrainingPlan catalog_plan = plan_training(catalog, base), topo_plan = plan_training(catalog, imported), hand_plan = plan_training(catalog, by_hand);
    CHECK(*topo_plan.time.step_seconds.value == *hand_plan.time.step_seconds.value);
    CHECK(*topo_plan.time.compute_seconds.value == *catalog_plan.time.compute_seconds.value);  // compute untouched
    CHECK(*topo_plan.time.step_seconds.value > *catalog_plan.time.step_seconds.value);        // 12 GB/s < the catalog's PCIe figure
}

TEST_CASE("the same dump without NCCL's prefixes, or without its path lines, gives the same topology") {
    for (const char* file : {"nccl-p4d.24xlarge.log", "nccl-g6e.48xlarge.log"}) {
        CAPTURE(file);
        const MachineTopology full = parse_nccl_topology(input(file), file);
        const MachineTopology bare = parse_nccl_topology(without_prefixes(input(file)), file);
        CHECK(summarize(bare).bottleneck == summarize(full).bottleneck);
        CHECK(bare.paths.size() == full.paths.size());
        // Without path lines the GPU pairs are worked out from the tree, the way NCCL does: the
        // same types and bandwidths NCCL printed, marked derived and the import partial.
        const MachineTopology tree = parse_nccl_topology(without_path_lines(input(file)), file);
        CHECK(tree.partial);
        CHECK(has_text(tree.missing, "path lines"));
        for (const TopoNode* a : full.of_kind(TopoNodeKind::gpu))
            for (const TopoNode* b : full.of_kind(TopoNodeKind::gpu)) {
                if (a == b) continue;
                const TopoPath* printed = full.path(a->name, b->name);
                const TopoPath* derived = tree.path(a->name, b->name);
                REQUIRE(derived);
                CHECK(derived->derived);
                CHECK(derived->type == printed->type);
                CHECK(derived->gb_per_s == printed->gb_per_s);
            }
    }
}

TEST_CASE("public NCCL logs of other versions and shapes") {
    SECTION("NCCL 2.8-era: maxWidth header, ids without a system prefix, 6-decimal path lines") {
        const MachineTopology t = parse_nccl_topology(input("nccl-old-maxwidth-2cpu-nic-paths.log"), "old.log");
        CHECK(t.max_gb_per_s == 9.0);
        const TopologySummary s = summarize(t);
        CHECK(s.gpus == 2);
        REQUIRE(s.slowest_pair);
        CHECK(s.slowest_pair->path.type == "SYS");
        CHECK(s.slowest_pair->path.gb_per_s == 9.0);
    }
    SECTION("nested PCIe switches (indented), NVSwitch, a NIC beside each GPU; cut at =====") {
        const MachineTopology t = parse_nccl_topology(input("nccl-new-h200vm-pcisw-nvs-net.log"), "h200.log");
        const TopologySummary s = summarize(t);
        CHECK(s.gpus == 8);
        CHECK(s.nics == 8);
        CHECK(s.pci_switches == 8);
        CHECK(s.nvswitches == 1);
        // Each GPU hangs under its own PCIe switch, with one NIC beside it.
        for (const TopoNode* g : t.of_kind(TopoNodeKind::gpu)) {
            const TopoNode* sw = t.find(g->parent);
            REQUIRE(sw);
            CHECK(sw->kind == TopoNodeKind::pci_switch);
        }
        CHECK(t.partial);  // no path lines: the poster cut the log
        REQUIRE(s.slowest_pair);
        CHECK(s.slowest_pair->path.type == "NVL");
        CHECK(s.slowest_pair->path.gb_per_s == 370.8);
    }
    SECTION("two hosts' dumps in one log, lines interleaved") {
        const MachineTopology t = parse_nccl_topology(input("nccl-2.19-t600-two-hosts-interleaved.log"), "two.log");
        CHECK(summarize(t).gpus == 1);
        CHECK(has_text(t.notes, "2 processes printed a topology"));
    }
    SECTION("NET nodes under NICs, a line without a prefix") {
        const MachineTopology t = parse_nccl_topology(input("nccl-2.16-a100pcie-net-paths.log"), "a100.log");
        CHECK(summarize(t).nics == 2);
        CHECK(summarize(t).gpu_to_cpu_gb_per_s == 24.0);
    }
}

TEST_CASE("nvidia-smi topo -m: tabs, spaces, NV#, NIC rows and the legend") {
    SECTION("8 x A100 NV12, 10 NICs, tab separated") {
        const MachineTopology t = import_topology(input("smi-a100sxm-nv12-10nic-tabs.txt"), "a100.txt");
        CHECK(t.format == TopologyFormat::nvidia_smi);
        const TopologySummary s = summarize(t);
        CHECK(s.gpus == 8);
        CHECK(s.nics == 10);
        for (const TopoPath* p : gpu_pairs(t)) {
            REQUIRE(p);
            CHECK(p->type == "NVL");
            CHECK(p->nvlinks == 12);
            CHECK_FALSE(p->gb_per_s);  // nvidia-smi gives no bandwidth
        }
        CHECK(t.find("NIC0")->detail == "mlx5_0");
        // No bandwidths: nothing to give the planner, and it says why.
        const BenchCalibration cal = calibration_from_topology(t);
        CHECK_FALSE(cal.find("intra_gb_per_s"));
        CHECK(has_text(cal.skipped, "gives path types, not bandwidths"));
    }
    SECTION("8 x H100 NV18 with tabs expanded to spaces") {
        const MachineTopology t = import_topology(input("smi-h100-nv18-8nic-spaces.txt"), "h100.txt");
        const TopologySummary s = summarize(t);
        CHECK(s.gpus == 8);
        CHECK(s.nics == 8);
        CHECK(s.cpus == 2);  // NUMA nodes 0 and 1
        CHECK(s.slowest_pair->path.nvlinks == 18);
    }
    SECTION("2 x RTX 5090 through the host bridge, an empty cell") {
        const MachineTopology t = import_topology(input("smi-2x5090-phb-gpunumaid-tabs.txt"), "5090.txt");
        const TopologySummary s = summarize(t);
        CHECK(s.gpus == 2);
        CHECK(s.slowest_pair->path.type == "PHB");
        CHECK(s.bottleneck.find("through the PCIe host bridge (PHB)") != std::string::npos);
    }
}

TEST_CASE("topology bad input: a clear message, partial imports marked, never a crash") {
    SECTION("a log with no topology dump") {
        CHECK_THROWS_WITH(import_topology("NCCL INFO Bootstrap : Using eth0\nhello\n", "x.log"),
                          Catch::Contains("x.log") && Catch::Contains("=== System") && Catch::Contains("nvidia-smi topo -m"));
    }
    SECTION("an empty file") { CHECK_THROWS_AS(import_topology("", "empty.log"), InputError); }
    SECTION("a dump cut short: partial, with what is missing") {
        const std::string log = input("nccl-p4d.24xlarge.log");
        std::string head;
        int lines = 0;
        for (char c : log) {
            head += c;
            if (c == '\n' && ++lines == 6) break;
        }
        const MachineTopology t = parse_nccl_topology(head, "cut.log");
        CHECK(t.partial);
        CHECK(has_text(t.missing, "the end of the system dump"));
        CHECK(summarize(t).gpus == 2);
    }
    SECTION("a header with nothing under it") {
        CHECK_THROWS_WITH(parse_nccl_topology("=== System : maxBw 12.0 totalBw 12.0 ===\n=====\n", "h.log"), Catch::Contains("h.log: line 1"));
    }
    SECTION("a header without its bandwidth") {
        CHECK_THROWS_WITH(parse_nccl_topology("=== System : hello ===\nCPU/0 (1/1/1)\n", "b.log"), Catch::Contains("maxBw"));
    }
    SECTION("ranks that disagree are named") {
        const std::string p4d = input("nccl-p4d.24xlarge.log"), g6e = input("nccl-g6e.48xlarge.log");
        const MachineTopology t = parse_nccl_topology(p4d + g6e, "both.log");
        CHECK(summarize(t).gpus == 4);
        CHECK(has_text(t.notes, "differ from it"));
    }
    SECTION("an nvidia-smi matrix with a connection code the legend does not have") {
        std::string smi = input("smi-2x5090-phb-gpunumaid-tabs.txt");
        const auto at = smi.find("PHB");
        REQUIRE(at != std::string::npos);
        smi.replace(at, 3, "QPX");
        CHECK_THROWS_WITH(import_topology(smi, "bad.txt"), Catch::Contains("bad.txt: line") && Catch::Contains("\"QPX\"") && Catch::Contains("PIX"));
    }
    SECTION("an NVLink count that is not one: NV-1, NV0 (issue 34)") {
        for (const char* code : {"NV-1", "NV0"}) {
            std::string smi = input("smi-a100sxm-nv12-10nic-tabs.txt");
            const auto at = smi.find("NV12");
            REQUIRE(at != std::string::npos);
            smi.replace(at, 4, code);
            CHECK_THROWS_WITH(import_topology(smi, "nv.txt"), Catch::Contains("nv.txt: line 2") && Catch::Contains(std::string("\"") + code + "\"") &&
                                                                 Catch::Contains("1 or more"));
        }
    }
    SECTION("a bandwidth that is not above 0: refused with its line, never dropped or kept (issue 34)") {
        const std::string p4d = input("nccl-p4d.24xlarge.log");
        struct Bad {
            std::string from, to, shown;
        };
        for (const Bad& b : {Bad{"NVL[240.0]", "NVL[nan]", "\"nan\""}, Bad{"NVL[240.0]", "NVL[-5.0]", "\"-5.0\""},
                             Bad{"NVL[240.0]", "NVL[0]", "\"0\""}, Bad{"(2/240.0/NVL) GPU/0-201c0", "(2/0.0/NVL) GPU/0-201c0", "\"0.0\""},
                             Bad{"(1/24.0/PHB)", "(1/inf/PHB)", "\"inf\""}}) {
            std::string log = p4d;
            const auto at = log.find(b.from);
            REQUIRE(at != std::string::npos);
            log.replace(at, b.from.size(), b.to);
            const std::size_t line = 1 + static_cast<std::size_t>(std::count(log.begin(), log.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
            CHECK_THROWS_WITH(import_topology(log, "bw.log"),
                              Catch::Contains("bw.log: line " + std::to_string(line) + ": ") && Catch::Contains(b.shown) && Catch::Contains("above 0"));
        }
    }
    SECTION("a matrix whose header names a row it does not have: partial") {
        std::string smi = input("smi-2x5090-phb-gpunumaid-tabs.txt");
        const auto row = smi.find("\nGPU1");
        REQUIRE(row != std::string::npos);
        smi.erase(row + 1, smi.find('\n', row + 1) - row);
        const MachineTopology t = import_topology(smi, "short.txt");
        CHECK(t.partial);
        CHECK(has_text(t.missing, "GPU1"));
    }
    SECTION("a 50 MB log with the dump in the middle of other lines") {
        const std::string filler(100, 'x');
        std::string big;
        big.reserve(52u << 20);
        const std::string line = "node:1:2 [0] NCCL INFO Channel 00/32 : 0 1 2 3 " + filler + "\n";
        while (big.size() < (25u << 20)) big += line;
        big += input("nccl-p4d.24xlarge.log");
        while (big.size() < (50u << 20)) big += line;
        const MachineTopology t = parse_nccl_topology(big, "big.log");
        CHECK(summarize(t).gpus == 4);
        CHECK_FALSE(t.partial);
    }
}

TEST_CASE("part of a node: `collective` and `train` take the same link inside it") {
    // 4 of g6e.48xlarge's 8 PCIe GPUs sit on one socket: both commands must use the host
    // bridge, not the socket link a ring over all 8 crosses (they disagreed before).
    const Catalog& catalog = test::builtin_catalog();
    CollectiveRequest c;
    c.instance = "g6e.48xlarge";
    c.bytes = 1 << 30;
    c.gpus_per_node = 4;
    const CollectiveEstimate e = estimate_collective(catalog, c);
    TrainingTimeRequest t;
    t.model = &test::preset("llama-3-8b");
    t.instance = catalog.find_instance("g6e.48xlarge");
    t.gpus_per_node = 4;
    t.layout.data = 4;
    t.layout.zero_stage = 3;
    t.layout.global_batch_tokens = 4 * 2048;
    const TrainingTime time = training_time(catalog, t);
    CHECK(e.topology.intra.cls == LinkClass::pcie_host_bridge);
    CHECK(e.topology.intra.cls == time.topology.intra.cls);
    CHECK(e.topology.intra.gb_per_s.value == time.topology.intra.gb_per_s.value);
    // All 8 do cross the sockets.
    c.gpus_per_node = 8;
    CHECK(estimate_collective(catalog, c).topology.intra.cls == LinkClass::cross_socket);
}

TEST_CASE("topology text that is not UTF-8 still serialises (bytes replaced, never a throw)") {
    // Found by fuzz_topology_nccl: a node's detail with byte 0xFF made the JSON writer throw.
    std::string log = input("nccl-p4d.24xlarge.log");
    const auto at = log.find("(1/1/2)");
    REQUIRE(at != std::string::npos);
    log.replace(at, 7, "(1/\xff\xfe/2)");
    const MachineTopology t = parse_nccl_topology(log, "bytes.log");
    const std::string doc = to_json(t, summarize(t), std::nullopt).dump();
    CHECK(doc.find("1/??/2") != std::string::npos);
    CHECK(topology_excerpt(log, "bytes.log").find('\xff') == std::string::npos);
    std::string smi = input("smi-2x5090-phb-gpunumaid-tabs.txt");
    smi.replace(smi.find("PHB"), 3, "\xc3\x28X");
    CHECK_THROWS_WITH(import_topology(smi, "bad.txt"), Catch::Contains("\"?(X\""));
}

TEST_CASE("PathIndex answers as MachineTopology::path: the first path from -> to, also for paths appended later (issue 34 H1)") {
    MachineTopology t;
    t.paths.push_back({"GPU0", "GPU1", "NVL", std::nullopt, 240.0, std::nullopt, false});
    t.paths.push_back({"GPU1", "GPU0", "PIX", std::nullopt, 24.0, std::nullopt, false});
    t.paths.push_back({"GPU0", "GPU1", "SYS", std::nullopt, 10.0, std::nullopt, false});  // the same pair again
    PathIndex index(t);
    for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{{"GPU0", "GPU1"}, {"GPU1", "GPU0"}, {"GPU0", "NIC0"}, {"GPU1", "GPU1"}})
        CHECK(index.find(from, to) == t.path(from, to));
    CHECK(index.find("GPU0", "GPU1")->type == "NVL");
    // A path appended while the index is in use (as the NCCL reader works out missing ones),
    // even when the vector moves its items.
    for (int k = 0; k < 100; ++k) {
        t.paths.push_back({"GPU" + std::to_string(k + 2), "CPU0", "PHB", std::nullopt, std::nullopt, std::nullopt, true});
        index.add_last();
    }
    REQUIRE(index.find("GPU50", "CPU0") != nullptr);
    CHECK(index.find("GPU50", "CPU0") == t.path("GPU50", "CPU0"));
    CHECK(index.find("GPU1", "GPU0") == &t.paths[1]);
}
