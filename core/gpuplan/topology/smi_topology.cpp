// smi_topology.cpp — `nvidia-smi topo -m` output read into a MachineTopology
// (machine_topology.hpp, docs/topology-import.md): connection codes between GPUs and NICs, CPU
// and NUMA affinity, the legend and the NIC legend; tabs, or tabs expanded to spaces.
#include <algorithm>
#include <map>

#include "gpuplan/input_error.hpp"
#include "gpuplan/topology/machine_topology.hpp"
#include "gpuplan/topology/topology_text.hpp"

namespace gpuplan {

using namespace topology_text;

namespace {

std::string strip_ansi(std::string_view s) {
    // nvidia-smi underlines its header with ESC [ 4 m ... ESC [ 0 m on a terminal.
    std::string out;
    out.reserve(s.size());
    for (std::size_t k = 0; k < s.size(); ++k) {
        if (s[k] == '\x1b' && k + 1 < s.size() && s[k + 1] == '[') {
            k += 2;
            while (k < s.size() && !std::isalpha(static_cast<unsigned char>(s[k]))) ++k;
            continue;
        }
        out += s[k];
    }
    return out;
}

// Cells: by tabs when the line has them (empty cells kept), else by runs of spaces.
std::vector<std::string> cells(std::string_view line) {
    std::vector<std::string> out;
    if (line.find('\t') != std::string_view::npos) {
        std::size_t start = 0;
        while (true) {
            const std::size_t tab = line.find('\t', start);
            out.emplace_back(trim(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start)));
            if (tab == std::string_view::npos) break;
            start = tab + 1;
        }
        return out;
    }
    Cursor c{line};
    while (!c.done()) {
        while (!c.done() && c.s[c.pos] == ' ') ++c.pos;
        const std::size_t start = c.pos;
        while (!c.done() && c.s[c.pos] != ' ') ++c.pos;
        if (c.pos > start) out.emplace_back(line.substr(start, c.pos - start));
    }
    return out;
}

bool is_device_column(std::string_view name) {
    for (std::string_view prefix : {"GPU", "NIC", "mlx5_", "efa_", "rdmap", "ib"})
        if (name.substr(0, prefix.size()) == prefix && name.size() > prefix.size() &&
            std::isdigit(static_cast<unsigned char>(name[prefix.size()])))
            return true;
    return false;
}

// The connection codes of nvidia-smi's legend (X = self). SOC is the name older drivers gave SYS.
constexpr std::string_view kSmiCodes[] = {"X", "SYS", "SOC", "NODE", "PHB", "PXB", "PIX", "NV#"};
bool known_code(std::string_view code) {
    // NV# is a count of NVLinks: at least one (issue 34: "NV-1" and "NV0" were read as links).
    if (code.size() > 2 && code.substr(0, 2) == "NV") {
        const auto links = to_int(code.substr(2));
        return links && *links >= 1;
    }
    return std::find(std::begin(kSmiCodes), std::end(kSmiCodes), code) != std::end(kSmiCodes);
}

}  // namespace

// Over 80 lines: one pass over `nvidia-smi topo -m` as it prints it (the header row, the GPU
// rows, the legend); the cell codes are checked by the helpers above.
MachineTopology parse_smi_topology(std::string_view text, const std::string& origin) {
    const std::vector<std::string_view> raw = split_lines(text);
    MachineTopology t;
    t.format = TopologyFormat::nvidia_smi;
    t.origin = origin;
    std::vector<std::string> columns;  // device columns, in order
    std::size_t header_line = 0;
    std::size_t row_count = 0;
    bool in_legend = false;
    std::map<std::string, std::string> nic_names;  // NIC0 -> mlx5_0
    for (std::size_t k = 0; k < raw.size(); ++k) {
        const std::string line = valid_utf8(strip_ansi(raw[k]));  // names and cells end up in JSON
        const std::string_view tl = trim(line);
        if (tl.empty()) continue;
        if (tl.rfind("Legend", 0) == 0 || tl.rfind("NIC Legend", 0) == 0) {
            in_legend = true;
            continue;
        }
        const std::vector<std::string> c = cells(line);
        if (columns.empty()) {
            // The header: device names first, then "CPU Affinity", "NUMA Affinity", ...
            std::vector<std::string> names;
            for (const auto& cell : c) {
                if (cell.empty()) continue;
                if (!is_device_column(cell)) break;
                names.push_back(cell);
            }
            if (!names.empty() && names[0] == "GPU0") {
                columns = names;
                header_line = k + 1;
            }
            continue;
        }
        if (in_legend) {
            // "  NIC0: mlx5_0" or "  PXB  = Connection traversing ..."
            const std::size_t colon = tl.find(':');
            const std::size_t eq = tl.find('=');
            if (colon != std::string_view::npos && (eq == std::string_view::npos || colon < eq)) {
                nic_names[valid_utf8(trim(tl.substr(0, colon)))] = valid_utf8(trim(tl.substr(colon + 1)));
            } else if (eq != std::string_view::npos) {
                const std::string code(trim(tl.substr(0, eq)));
                if (!known_code(code)) t.notes.push_back("legend code " + valid_utf8(code) + " (line " + std::to_string(k + 1) + ") is not one this reader knows; cells with it are refused");
            }
            continue;
        }
        std::vector<std::string> row;
        for (const auto& cell : c)
            if (!(row.empty() && cell.empty())) row.push_back(cell);
        if (row.empty() || std::find(columns.begin(), columns.end(), row[0]) == columns.end()) continue;
        ++row_count;
        const std::string& from = row[0];
        TopoNode* self = nullptr;
        for (TopoNode& n : t.nodes)
            if (n.name == from) self = &n;
        if (!self) {
            t.nodes.push_back({from.rfind("GPU", 0) == 0 ? TopoNodeKind::gpu : TopoNodeKind::nic, from, std::nullopt, "", "", ""});
            self = &t.nodes.back();
            if (self->kind == TopoNodeKind::gpu) self->index = to_int(std::string_view(from).substr(3));
        }
        if (row.size() < columns.size() + 1)
            throw InputError(where(origin, k + 1), std::to_string(row.size() - 1) + " cells in row " + from,
                             std::to_string(columns.size()) + " connection cells, one per column of the header on line " + std::to_string(header_line));
        for (std::size_t j = 0; j < columns.size(); ++j) {
            const std::string& code = row[j + 1];
            if (!known_code(code))
                throw InputError(where(origin, k + 1), "connection \"" + valid_utf8(code) + "\" between " + from + " and " + columns[j],
                                 "one of nvidia-smi's legend codes: X, NV# (# a count of NVLinks, 1 or more), PIX, PXB, PHB, NODE, SYS");
            if (code == "X") continue;
            TopoPath p{from, columns[j], code, std::nullopt, std::nullopt, std::nullopt, false};
            if (code.substr(0, 2) == "NV") {
                p.type = "NVL";
                p.nvlinks = to_int(std::string_view(code).substr(2));
            } else if (code == "SOC") {
                p.type = "SYS";
            }
            t.paths.push_back(p);
        }
        // After the cells: CPU affinity, NUMA affinity (GPU rows; empty or absent for NICs).
        if (self->kind == TopoNodeKind::gpu && row.size() > columns.size() + 1) {
            const std::string cpu_affinity = row[columns.size() + 1];
            const std::string numa = valid_utf8(row.size() > columns.size() + 2 ? row[columns.size() + 2] : "");
            self->detail = "CPU affinity " + valid_utf8(cpu_affinity);
            if (!numa.empty() && numa != "N/A") {
                const std::string cpu = "NUMA " + numa;
                self->cpu = cpu;  // `self` is not used past the push_back below
                if (!t.find(cpu)) t.nodes.push_back({TopoNodeKind::cpu, cpu, std::nullopt, "", cpu, "NUMA node " + numa});
            }
        }
    }
    if (columns.empty())
        throw InputError(origin, "no header line starting with GPU0", "`nvidia-smi topo -m` output: a header of GPU0 GPU1 ... columns, one row per device, then the legend");
    if (row_count == 0)
        throw InputError(where(origin, header_line), "a header with no rows under it", "one row per GPU and NIC of the header");
    for (TopoNode& n : t.nodes)
        if (auto it = nic_names.find(n.name); it != nic_names.end()) n.detail = it->second;
    for (const std::string& col : columns)
        if (!t.find(col)) {
            t.partial = true;
            t.missing.push_back("the row of " + col + " (the header names it; the matrix has no row for it)");
        }
    return t;
}

}  // namespace gpuplan
