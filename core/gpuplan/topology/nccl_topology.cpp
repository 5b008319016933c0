// nccl_topology.cpp — NCCL's topology dump (NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS=GRAPH) read into
// a MachineTopology (machine_topology.hpp, docs/topology-import.md); the excerpt a scenario keeps;
// and import_topology, which tells the two formats apart.
#include <algorithm>
#include <map>
#include <set>

#include "gpuplan/input_error.hpp"
#include "gpuplan/topology/machine_topology.hpp"
#include "gpuplan/topology/topology_text.hpp"

namespace gpuplan {

using namespace topology_text;

namespace {

struct Line {
    std::size_t number = 0;   // 1-based, in the whole text
    std::string_view stream;  // "host:pid" from NCCL's prefix; "" when the line has none
    std::string_view content; // after "NCCL INFO ", leading spaces kept
};

// "node-0:212:1380 [0] NCCL INFO text" -> stream "node-0:212", content "text".
Line nccl_line(std::size_t number, std::string_view raw) {
    Line l{number, {}, raw};
    constexpr std::string_view marker = "NCCL INFO ";
    const std::size_t at = raw.find(marker);
    if (at == std::string_view::npos) return l;
    l.content = raw.substr(at + marker.size());
    const std::string_view prefix = raw.substr(0, at);
    const std::string_view token = prefix.substr(0, prefix.find(' '));
    const std::size_t last_colon = token.rfind(':');
    l.stream = last_colon != std::string_view::npos && token.find(':') != last_colon ? token.substr(0, last_colon) : token;
    return l;
}

TopoNodeKind kind_of(std::string_view type) {
    if (type == "GPU") return TopoNodeKind::gpu;
    if (type == "CPU") return TopoNodeKind::cpu;
    if (type == "NIC") return TopoNodeKind::nic;
    if (type == "NET") return TopoNodeKind::net;
    if (type == "NVS") return TopoNodeKind::nvswitch;
    if (type == "PCI") return TopoNodeKind::pci_switch;
    return TopoNodeKind::other;
}

// "GPU/0-101c0" (NCCL 2.19+: system id - local id) or "GPU/1C0" (older): type and id.
std::optional<std::string> node_ref(Cursor& c) {
    const std::size_t start = c.pos;
    if (c.take_while(is_alpha).empty() || !c.eat("/") || c.take_while(is_id).empty()) {
        c.pos = start;
        return std::nullopt;
    }
    return std::string(c.s.substr(start, c.pos - start));
}

// " (detail)" after a node, if present.
std::string detail(Cursor& c) {
    if (!c.eat(" (")) return "";
    const std::size_t close = c.s.find(')', c.pos);
    if (close == std::string_view::npos) return "";
    std::string d = valid_utf8(c.s.substr(c.pos, close - c.pos));
    c.pos = close + 1;
    return d;
}

// The text up to `end`, read as GB/s: a finite number above 0, else refused with the line
// (issue 34: "NVL[nan]" and "NVL[-5.0]" dropped the link silently, and a path of 0 GB/s was
// kept and failed later in `train`).
double bandwidth_until(Cursor& c, char end, const Line& line, const std::string& origin) {
    const std::size_t stop = c.s.find(end, c.pos);
    const std::string_view text = c.s.substr(c.pos, stop == std::string_view::npos ? std::string_view::npos : stop - c.pos);
    const auto bw = to_double(text);
    if (!bw || !std::isfinite(*bw) || *bw <= 0)
        throw InputError(where(origin, line.number), "a bandwidth of \"" + valid_utf8(text.substr(0, 40)) + "\" GB/s",
                         "a number above 0, as NCCL prints it (\"NVL[240.0]\", \"(2/240.0/NVL)\")");
    c.pos += text.size();
    return *bw;
}

struct LinkLine {
    std::size_t indent = 0, name_column = 0;
    std::string type, target, detail;
    double gb_per_s = 0;
};

// "+ PCI[24.0] - GPU/0-101c0 (0)" with leading spaces.
std::optional<LinkLine> link_line(const Line& line, const std::string& origin) {
    Cursor c{line.content, indent_of(line.content)};
    LinkLine l;
    l.indent = c.pos;
    if (!c.eat("+ ")) return std::nullopt;
    l.type = std::string(c.take_while(is_alpha));
    if (l.type.empty() || !c.eat("[")) return std::nullopt;
    l.gb_per_s = bandwidth_until(c, ']', line, origin);
    if (!c.eat("] - ")) return std::nullopt;
    l.name_column = c.pos;
    auto target = node_ref(c);
    if (!target) return std::nullopt;
    l.target = *target;
    l.detail = detail(c);
    return l;
}

struct PathEntry {
    std::string to, type;
    int hops = 0;
    double gb_per_s = 0;
};

// "GPU/0-101c0 :GPU/0-101c0 (0/5000.0/LOC) GPU/0-101d0 (2/240.0/NVL) ..."
std::optional<std::pair<std::string, std::vector<PathEntry>>> path_line(const Line& line, const std::string& origin) {
    Cursor c{line.content, indent_of(line.content)};
    auto from = node_ref(c);
    if (!from || !c.eat(" :")) return std::nullopt;
    std::vector<PathEntry> entries;
    while (!c.done()) {
        while (!c.done() && c.s[c.pos] == ' ') ++c.pos;
        if (c.done()) break;
        PathEntry e;
        auto to = node_ref(c);
        if (!to || !c.eat(" (")) return std::nullopt;
        e.to = *to;
        const auto hops = to_int(c.take_while(is_number));
        if (!hops || !c.eat("/")) return std::nullopt;
        e.gb_per_s = bandwidth_until(c, '/', line, origin);
        if (!c.eat("/")) return std::nullopt;
        e.type = std::string(c.take_while(is_alpha));
        if (e.type.empty() || !c.eat(")")) return std::nullopt;
        e.hops = *hops;
        entries.push_back(e);
    }
    return std::pair{*from, entries};
}

// "=== System : maxBw 240.0 totalBw 240.0 ===": nullopt when the line is not a header.
bool is_system_header(std::string_view content) { return trim(content).substr(0, 12) == "=== System :"; }

bool is_dump_end(std::string_view content) {
    const std::string_view t = trim(content);
    return t.size() >= 3 && t.find_first_not_of('=') == std::string_view::npos;
}


// One process's dump, read into `t`.
struct DumpReader {
    MachineTopology& t;
    const std::string& origin;
    std::string current_cpu, last_gpu, last_nic, last_node;
    struct Frame {
        std::size_t column;
        std::string node;
    };
    std::vector<Frame> stack;
    bool indented = false;

    TopoNode& node(const std::string& name) {
        for (TopoNode& n : t.nodes)
            if (n.name == name) return n;
        TopoNode n;
        n.name = name;
        n.kind = kind_of(name.substr(0, name.find('/')));
        t.nodes.push_back(n);
        return t.nodes.back();
    }

    void header(const Line& l) {
        // "=== System : maxBw 240.0 totalBw 240.0 ===" (NCCL before 2.12: "maxWidth 9.0", no total)
        const std::string_view s = trim(l.content);
        for (auto [key, slot] : {std::pair{std::string_view("maxBw "), &t.max_gb_per_s}, std::pair{std::string_view("totalBw "), &t.total_gb_per_s},
                                 std::pair{std::string_view("maxWidth "), &t.max_gb_per_s}, std::pair{std::string_view("totalWidth "), &t.total_gb_per_s}}) {
            const std::size_t at = s.find(key);
            if (at == std::string_view::npos) continue;
            Cursor c{s, at + key.size()};
            if (auto v = to_double(c.take_while(is_number))) *slot = v;
        }
        if (!t.max_gb_per_s || *t.max_gb_per_s <= 0)
            throw InputError(where(origin, l.number), "\"" + valid_utf8(s.substr(0, 120)) + "\"", "NCCL's header \"=== System : maxBw <GB/s> totalBw <GB/s> ===\" (or maxWidth, before NCCL 2.12)");
    }

    // A node printed at the top of a branch: "CPU/0-0 (1/1/2)".
    bool top_node(const Line& l) {
        Cursor c{l.content, indent_of(l.content)};
        const std::size_t column = c.pos;
        auto name = node_ref(c);
        if (!name) return false;
        const std::string d = detail(c);
        if (!trim(c.s.substr(c.pos)).empty()) return false;
        TopoNode& n = node(*name);
        if (!d.empty()) n.detail = d;
        if (n.kind == TopoNodeKind::cpu) {
            current_cpu = n.name;
            n.cpu = n.name;
        }
        stack = {{column, n.name}};
        last_node = n.name;
        return true;
    }

    std::string parent_of(const LinkLine& l) {
        if (indented) {
            while (!stack.empty() && stack.back().column > l.indent) stack.pop_back();
            if (!stack.empty() && stack.back().column == l.indent) return stack.back().node;
            return stack.empty() ? last_node : stack.back().node;
        }
        // No indentation (a log pasted through something that collapsed spaces): each link
        // type has one kind of source in NCCL's tree.
        if (l.type == "PCI" || l.type == "SYS") return current_cpu.empty() ? last_node : current_cpu;
        if (l.type == "NVL" || l.type == "C2C") return last_gpu.empty() ? last_node : last_gpu;
        if (l.type == "NET") return last_nic.empty() ? last_node : last_nic;
        return last_node;
    }

    void link(const LinkLine& l) {
        const std::string from = parent_of(l);
        t.links.push_back({from, l.target, l.type, l.gb_per_s});
        const bool known = t.find(l.target) != nullptr;
        TopoNode& n = node(l.target);
        if (!l.detail.empty() && n.detail.empty()) n.detail = l.detail;
        if (!known) {
            if (l.type == "PCI") n.parent = from;
            if (n.kind != TopoNodeKind::cpu && n.kind != TopoNodeKind::nvswitch) n.cpu = current_cpu;
            if (n.kind == TopoNodeKind::gpu && !l.detail.empty()) n.index = to_int(trim(l.detail));
        }
        if (n.kind == TopoNodeKind::gpu) last_gpu = n.name;
        if (n.kind == TopoNodeKind::nic) last_nic = n.name;
        if (l.type == "PCI") {
            // NCCL prints what hangs under a PCI link's far end right after it, indented to its name.
            last_node = n.name;
            if (indented) stack.push_back({l.name_column, n.name});
        }
    }
};

void add_paths(MachineTopology& t, const std::string& from, const std::vector<PathEntry>& entries) {
    for (const PathEntry& e : entries) {
        if (e.type == "LOC") continue;
        if (t.path(from, e.to)) continue;  // another process's copy of the same line
        t.paths.push_back({from, e.to, e.type, e.hops, e.gb_per_s, std::nullopt, false});
    }
}

// A fingerprint of a dump, to tell whether two processes saw the same machine.
std::string dump_signature(const MachineTopology& t) {
    std::set<std::string> items;
    for (const TopoLink& l : t.links) items.insert(l.from + ">" + l.to + ":" + l.type + "@" + format_number(l.gb_per_s));
    std::string s;
    for (const auto& i : items) s += i + ";";
    return s;
}

// The PCIe bandwidth from a node up to its CPU: the slowest PCI link on the way (NCCL's path
// bandwidth is the minimum over its links).
std::optional<double> uplink_gb_per_s(const MachineTopology& t, const std::string& name) {
    std::optional<double> slowest;
    std::string at = name;
    for (int guard = 0; guard < 16; ++guard) {
        const TopoNode* n = t.find(at);
        if (!n || n->parent.empty()) break;
        for (const TopoLink& l : t.links)
            if (l.type == "PCI" && l.from == n->parent && l.to == at) slowest = std::min(slowest.value_or(l.gb_per_s), l.gb_per_s);
        at = n->parent;
    }
    return slowest;
}

// GPU pairs and GPU-to-CPU paths the log has no path line for, worked out from the tree the
// way NCCL does: NVLink when both reach the same NVSwitch (or each other), else PCIe through
// their shared switch, their CPU's host bridge, or across sockets (SYS).
void derive_missing_paths(MachineTopology& t) {
    const auto gpus = t.of_kind(TopoNodeKind::gpu);
    std::size_t derived = 0;
    const auto nvlink = [&](const std::string& a, const std::string& b) -> std::optional<double> {
        std::optional<double> best;
        for (const TopoLink& la : t.links) {
            if (la.from != a || (la.type != "NVL" && la.type != "C2C")) continue;
            if (la.to == b) best = std::max(best.value_or(0), la.gb_per_s);
            for (const TopoLink& lb : t.links)
                if (lb.from == b && lb.type == la.type && lb.to == la.to) best = std::max(best.value_or(0), std::min(la.gb_per_s, lb.gb_per_s));
        }
        return best;
    };
    const auto sys = [&](const std::string& a, const std::string& b) -> std::optional<double> {
        for (const TopoLink& l : t.links)
            if (l.type == "SYS" && ((l.from == a && l.to == b) || (l.from == b && l.to == a))) return l.gb_per_s;
        return std::nullopt;
    };
    PathIndex index(t);
    for (const TopoNode* a : gpus) {
        for (const TopoNode* b : gpus) {
            if (a == b || index.find(a->name, b->name)) continue;
            TopoPath p{a->name, b->name, "", std::nullopt, std::nullopt, std::nullopt, true};
            const auto ua = uplink_gb_per_s(t, a->name), ub = uplink_gb_per_s(t, b->name);
            const auto pcie = ua && ub ? std::optional<double>(std::min(*ua, *ub)) : std::nullopt;
            if (auto nv = nvlink(a->name, b->name)) {
                p.type = "NVL";
                p.gb_per_s = nv;
            } else if (!a->parent.empty() && a->parent == b->parent && a->parent != a->cpu) {
                p.type = "PIX";
                p.gb_per_s = pcie;
            } else if (!a->cpu.empty() && a->cpu == b->cpu) {
                p.type = "PHB";
                p.gb_per_s = pcie;
            } else {
                p.type = "SYS";
                const auto s = sys(a->cpu, b->cpu);
                p.gb_per_s = pcie && s ? std::optional<double>(std::min(*pcie, *s)) : std::nullopt;
            }
            t.paths.push_back(p);
            index.add_last();
            ++derived;
        }
        if (!a->cpu.empty() && !index.find(a->name, a->cpu)) {
            t.paths.push_back({a->name, a->cpu, "PHB", std::nullopt, uplink_gb_per_s(t, a->name), std::nullopt, true});
            index.add_last();
            ++derived;
        }
    }
    if (derived) {
        t.partial = true;
        t.missing.push_back("NCCL's path lines (\"GPU/... :GPU/... (hops/GB/s/TYPE)\") for " + std::to_string(derived) +
                            " GPU path(s): worked out from the tree instead, as NCCL would (printed with NCCL_DEBUG_SUBSYS=GRAPH)");
    }
}

}  // namespace

// Over 80 lines: it reads the dump top to bottom in the order NCCL prints it (processes, then
// each one's tree and path lines); the line kinds it dispatches on are already helpers above,
// and splitting the pass would scatter one grammar over several functions.
MachineTopology parse_nccl_topology(std::string_view text, const std::string& origin) {
    const std::vector<std::string_view> raw = split_lines(text);
    std::vector<Line> lines;
    lines.reserve(raw.size());
    for (std::size_t k = 0; k < raw.size(); ++k) lines.push_back(nccl_line(k + 1, raw[k]));

    // Each process prints its own dump; its lines share the "host:pid" prefix.
    std::vector<std::string_view> dump_streams;
    for (const Line& l : lines)
        if (is_system_header(l.content) && std::find(dump_streams.begin(), dump_streams.end(), l.stream) == dump_streams.end())
            dump_streams.push_back(l.stream);
    if (dump_streams.empty())
        throw InputError(origin, "no line \"=== System : maxBw ...\" in " + std::to_string(raw.size()) + " lines",
                         "an NCCL log with its topology dump (run with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,GRAPH), or `nvidia-smi topo -m` output");

    std::map<std::string_view, std::vector<const Line*>> by_stream;
    for (const Line& l : lines)
        if (std::find(dump_streams.begin(), dump_streams.end(), l.stream) != dump_streams.end()) by_stream[l.stream].push_back(&l);

    std::vector<std::string> other_signatures;
    MachineTopology first;
    for (std::size_t s = 0; s < dump_streams.size(); ++s) {
        MachineTopology t;
        t.format = TopologyFormat::nccl_log;
        t.origin = origin;
        DumpReader reader{t, origin, {}, {}, {}, {}, {}, false};
        enum class State { before, in_dump, after_dump } state = State::before;
        std::size_t header_line = 0, last_dump_line = 0, skipped = 0, dumps = 0;
        std::vector<const Line*> dump_lines;
        for (const Line* l : by_stream[dump_streams[s]]) {
            if (is_system_header(l->content)) {
                if (++dumps > 1) break;  // a later communicator's copy: the first is read
                reader.header(*l);
                header_line = l->number;
                state = State::in_dump;
            } else if (state == State::in_dump) {
                if (is_dump_end(l->content)) {
                    state = State::after_dump;
                } else {
                    dump_lines.push_back(l);
                    last_dump_line = l->number;
                }
            } else if (state == State::after_dump) {
                if (auto p = path_line(*l, origin)) add_paths(t, p->first, p->second);
            }
        }
        // Indentation tells the tree's shape when the log kept it.
        for (const Line* l : dump_lines)
            if (auto ll = link_line(*l, origin); ll && ll->indent > 0) reader.indented = true;
        for (const Line* l : dump_lines) {
            if (auto ll = link_line(*l, origin)) {
                reader.link(*ll);
            } else if (!reader.top_node(*l)) {
                // Another subsystem's line inside the dump (NCCL interleaves them): not ours.
                ++skipped;
            }
        }
        if (state == State::in_dump) {
            t.partial = true;
            t.missing.push_back("the end of the system dump (\"=====\"): the log stops after line " + std::to_string(std::max(last_dump_line, header_line)));
        }
        if (skipped) t.notes.push_back(std::to_string(skipped) + " other line(s) inside the dump were skipped");
        if (dumps > 1) t.notes.push_back("the process printed the topology again (another communicator); the first dump is read");
        if (s == 0) {
            if (t.nodes.empty())
                throw InputError(where(origin, header_line), "a topology header with no CPU, GPU or link lines under it",
                                 "NCCL's dump: \"CPU/...\" lines and \"+ PCI[24.0] - GPU/...\" links up to \"=====\"");
            first = std::move(t);
        } else {
            other_signatures.push_back(dump_signature(t));
        }
    }

    MachineTopology& t = first;
    if (dump_streams.size() > 1) {
        const std::string mine = dump_signature(t);
        std::size_t differ = 0;
        for (const auto& sig : other_signatures) differ += sig != mine;
        const std::string who = dump_streams[0].empty() ? std::string("the first dump") : "process " + valid_utf8(dump_streams[0]);
        t.notes.push_back(std::to_string(dump_streams.size()) + " processes printed a topology; " + who + "'s is read" +
                          (differ ? "; " + std::to_string(differ) + " of the others differ from it (another host, or ranks that disagree)" : ", the others agree with it"));
    }
    if (t.of_kind(TopoNodeKind::gpu).empty()) {
        t.partial = true;
        t.missing.push_back("GPUs: the dump lists none");
    }
    derive_missing_paths(t);
    return t;
}

std::string topology_excerpt(std::string_view text, const std::string& origin) {
    constexpr std::size_t kMaxExcerptBytes = 64 * 1024;
    const MachineTopology t = import_topology(text, origin);  // refuses what cannot be read, with the reason
    std::string out;
    if (t.format == TopologyFormat::nvidia_smi) {
        out = valid_utf8(trim(text));
    } else {
        // The first process's dump and its path lines, without NCCL's prefixes.
        const std::vector<std::string_view> raw = split_lines(text);
        std::optional<std::string_view> stream;
        bool after_dump = false;
        for (std::size_t k = 0; k < raw.size(); ++k) {
            const Line l = nccl_line(k + 1, raw[k]);
            if (is_system_header(l.content)) {
                if (stream) {
                    if (l.stream == *stream) break;
                    continue;
                }
                stream = l.stream;
            } else if (!stream || l.stream != *stream) {
                continue;
            } else if (after_dump && !path_line(l, origin)) {
                continue;
            }
            if (is_dump_end(l.content)) after_dump = true;
            out += valid_utf8(l.content) + "\n";
        }
    }
    if (out.size() > kMaxExcerptBytes)
        throw InputError(origin, std::to_string(out.size()) + " bytes of topology", "at most 64 KiB of topology lines (one machine's dump)");
    return out;
}

MachineTopology import_topology(std::string_view text, const std::string& origin) {
    if (text.find("=== System :") != std::string_view::npos) return parse_nccl_topology(text, origin);
    if (text.substr(0, 4096).find("GPU0") != std::string_view::npos) return parse_smi_topology(text, origin);
    return parse_nccl_topology(text, origin);  // says what an NCCL log needs
}

}  // namespace gpuplan
