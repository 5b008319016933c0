#include "instance_view.hpp"

#include "gpuplan/pricing/purchase_options.hpp"

namespace gpuplan::cli {

PriceFact price_fact(const Instance& instance, const std::string& region, PriceKind option) {
    PriceFact f;
    f.entry = instance.find_price(region, option);
    if (f.entry) {
        f.usd_per_hour = f.entry->usd_per_hour;
        f.reason = instance.null_price_reason(region, option);
    } else {
        f.reason = "no " + std::string(to_string(option)) + " price for " + region + " in the catalog";
    }
    return f;
}

InstanceView make_view(const Catalog& catalog, const Instance& instance, const std::string& region) {
    InstanceView v;
    v.instance = &instance;
    v.accelerator = instance.accelerator ? catalog.find_accelerator(*instance.accelerator) : nullptr;
    v.region = region;
    v.on_demand = price_fact(instance, region, PriceKind::on_demand);
    v.spot = price_fact(instance, region, PriceKind::spot_typical);
    v.metrics = instance_metrics(catalog, instance, region);
    return v;
}

Cell fact_cell(const std::optional<double>& value, const Instance& instance, const std::string& field, std::string (*format)(double)) {
    return number_cell(value, format, instance.unknown_reason(field));
}

namespace {

std::string total_memory_reason(const Instance& i) {
    return i.accelerator_count ? i.unknown_reason("accelerator_memory_gib_each") : i.unknown_reason("accelerator_count");
}

Cell missing_cell(const std::string& reason) { return text_cell(std::string(missing_text(reason))); }

std::vector<Field> make_fields() {
    using V = const InstanceView&;
    auto text = [](auto get) { return [get](V v) { return text_cell(get(v)); }; };
    std::vector<Field> f = {
        {"name", "instance", "instance", text([](V v) { return v.instance->name; }), {}},
        {"family", "family", "family", text([](V v) { return v.instance->family; }), {}},
        {"accelerator", "accel", "accelerator",
         [](V v) { return v.instance->accelerator ? text_cell(*v.instance->accelerator) : missing_cell(v.instance->unknown_reason("accelerator")); }, {}},
        {"accelerator_kind", "kind", "accelerator kind",
         [](V v) { return v.accelerator ? text_cell(std::string(to_string(v.accelerator->kind))) : missing_cell(""); }, {}},
        {"accelerator_count", "n", "accelerator count", [](V v) { return fact_cell(v.instance->accelerator_count, *v.instance, "accelerator_count"); }, {}},
        {"accelerator_memory_gib_each", "GiB each", "accelerator memory each (GiB)",
         [](V v) { return fact_cell(v.instance->accelerator_memory_gib_each, *v.instance, "accelerator_memory_gib_each"); }, {}},
        {"accelerator_memory_gib_total", "acc GiB", "accelerator memory total (GiB)",
         [](V v) { return number_cell(v.instance->total_accelerator_memory_gib(), quantity, total_memory_reason(*v.instance)); },
         [](V v) { return v.instance->total_accelerator_memory_gib(); }},
        {"vcpus", "vCPU", "vCPUs", [](V v) { return fact_cell(v.instance->vcpus, *v.instance, "vcpus"); }, [](V v) { return v.instance->vcpus; }},
        {"memory_gib", "mem GiB", "host memory (GiB)", [](V v) { return fact_cell(v.instance->memory_gib, *v.instance, "memory_gib"); },
         [](V v) { return v.instance->memory_gib; }},
        {"network_gbit_per_s", "net Gb/s", "network (Gbit/s)",
         [](V v) { return fact_cell(v.instance->network_gbit_per_s, *v.instance, "network_gbit_per_s"); },
         [](V v) { return v.instance->network_gbit_per_s; }},
        {"efa_interfaces", "EFA", "EFA interfaces", [](V v) { return fact_cell(v.instance->efa_interfaces, *v.instance, "efa_interfaces"); }, {}},
        {"gpudirect_rdma", "RDMA", "GPUDirect RDMA",
         [](V v) {
             const auto& g = v.instance->gpudirect_rdma;
             return g ? text_cell(*g ? "yes" : "no") : missing_cell(v.instance->unknown_reason("gpudirect_rdma"));
         }, {}},
        {"interconnect", "link", "interconnect",
         [](V v) {
             const auto& l = v.instance->interconnect;
             return l ? text_cell(std::string(to_string(*l))) : missing_cell(v.instance->unknown_reason("interconnect"));
         }, {}},
        {"peer_gbit_per_s_per_accelerator", "peer Gb/s", "peer bandwidth per accelerator (Gbit/s)",
         [](V v) { return fact_cell(v.instance->peer_gbit_per_s_per_accelerator, *v.instance, "peer_gbit_per_s_per_accelerator"); }, {}},
        {"local_nvme_gb", "NVMe GB", "local NVMe (GB)", [](V v) { return fact_cell(v.instance->local_nvme_gb, *v.instance, "local_nvme_gb"); }, {}},
        {"ebs_gbit_per_s", "EBS Gb/s", "EBS bandwidth (Gbit/s)", [](V v) { return fact_cell(v.instance->ebs_gbit_per_s, *v.instance, "ebs_gbit_per_s"); }, {}},
        {"on_demand_usd_per_hour", "OD $/h", "on-demand $/h", [](V v) { return number_cell(v.on_demand.usd_per_hour, rate, v.on_demand.reason); },
         [](V v) { return v.on_demand.usd_per_hour; }},
        {"spot_usd_per_hour", "spot $/h", "spot (typical) $/h", [](V v) { return number_cell(v.spot.usd_per_hour, rate, v.spot.reason); },
         [](V v) { return v.spot.usd_per_hour; }},
        {"usd_per_accelerator_hour", "$/acc-h", "$ per accelerator-hour", [](V v) { return figure_cell(v.metrics.usd_per_accelerator_hour, rate, false); },
         [](V v) { return v.metrics.usd_per_accelerator_hour.value; }},
        {"usd_per_accel_gib_hour", "$/GiB-h", "$ per accelerator-memory GiB-hour",
         [](V v) { return figure_cell(v.metrics.usd_per_accel_gib_hour, rate, false); }, [](V v) { return v.metrics.usd_per_accel_gib_hour.value; }},
        {"usd_per_dense_bf16_pflop_hour", "$/PFLOP-h", "$ per dense BF16 PFLOP/s-hour",
         [](V v) { return figure_cell(v.metrics.usd_per_dense_bf16_pflop_hour, rate, false); },
         [](V v) { return v.metrics.usd_per_dense_bf16_pflop_hour.value; }},
        {"usd_per_tb_per_s_hour", "$/TB/s-h", "$ per TB/s-hour of accelerator memory bandwidth",
         [](V v) { return figure_cell(v.metrics.usd_per_tb_per_s_hour, rate, false); }, [](V v) { return v.metrics.usd_per_tb_per_s_hour.value; }},
    };
    return f;
}

}  // namespace

const std::vector<Field>& instance_fields() {
    static const std::vector<Field> fields = make_fields();
    return fields;
}

const Field* find_field(const std::string& key) {
    for (const auto& f : instance_fields())
        if (f.key == key) return &f;
    return nullptr;
}

nlohmann::json view_json(const InstanceView& v) {
    const Instance& i = *v.instance;
    nlohmann::json unknown = nlohmann::json::object();
    auto num = [&](const std::optional<double>& value, const std::string& key, const std::string& reason) -> nlohmann::json {
        if (value) return *value;
        unknown[key] = reason;
        return nullptr;
    };
    auto fact = [&](const std::optional<double>& value, const std::string& field) { return num(value, field, i.unknown_reason(field)); };
    nlohmann::json j = {{"name", i.name}, {"family", i.family}};
    j["accelerator"] = i.accelerator ? nlohmann::json(*i.accelerator) : nlohmann::json(nullptr);
    if (!i.accelerator) unknown["accelerator"] = i.unknown_reason("accelerator");
    j["accelerator_kind"] = v.accelerator ? nlohmann::json(std::string(to_string(v.accelerator->kind))) : nlohmann::json(nullptr);
    j["accelerator_count"] = fact(i.accelerator_count, "accelerator_count");
    j["accelerator_memory_gib_each"] = fact(i.accelerator_memory_gib_each, "accelerator_memory_gib_each");
    j["accelerator_memory_gib_total"] = num(i.total_accelerator_memory_gib(), "accelerator_memory_gib_total", total_memory_reason(i));
    j["vcpus"] = fact(i.vcpus, "vcpus");
    j["memory_gib"] = fact(i.memory_gib, "memory_gib");
    j["network_gbit_per_s"] = fact(i.network_gbit_per_s, "network_gbit_per_s");
    j["efa_interfaces"] = fact(i.efa_interfaces, "efa_interfaces");
    j["gpudirect_rdma"] = i.gpudirect_rdma ? nlohmann::json(*i.gpudirect_rdma) : nlohmann::json(nullptr);
    if (!i.gpudirect_rdma) unknown["gpudirect_rdma"] = i.unknown_reason("gpudirect_rdma");
    j["interconnect"] = i.interconnect ? nlohmann::json(std::string(to_string(*i.interconnect))) : nlohmann::json(nullptr);
    if (!i.interconnect) unknown["interconnect"] = i.unknown_reason("interconnect");
    j["peer_gbit_per_s_per_accelerator"] = fact(i.peer_gbit_per_s_per_accelerator, "peer_gbit_per_s_per_accelerator");
    j["local_nvme_gb"] = fact(i.local_nvme_gb, "local_nvme_gb");
    j["ebs_gbit_per_s"] = fact(i.ebs_gbit_per_s, "ebs_gbit_per_s");
    j["region"] = v.region;
    j["on_demand_usd_per_hour"] = num(v.on_demand.usd_per_hour, "on_demand_usd_per_hour", v.on_demand.reason);
    j["spot_usd_per_hour"] = num(v.spot.usd_per_hour, "spot_usd_per_hour", v.spot.reason);
    j["unknown"] = unknown;
    j["metrics"] = to_json(std::vector<Figure>{v.metrics.usd_per_accelerator_hour, v.metrics.usd_per_accel_gib_hour,
                                               v.metrics.usd_per_dense_bf16_pflop_hour, v.metrics.usd_per_tb_per_s_hour});
    return j;
}

// ---- `gpuplan show`: one instance in sections ----------------------------------------------

namespace {


std::string missing(const std::string& reason) { return missing_with_reason(reason); }

std::string fact_text(const std::optional<double>& v, const std::string& reason, const std::string& unit = "") {
    return v ? quantity(*v) + (unit.empty() ? "" : " " + unit) : missing(reason);
}

std::string source_text(const Catalog& c, const std::string& code) {
    auto it = c.sources.find(code);
    if (it == c.sources.end()) return code;
    return code + " (" + it->second.title + (it->second.url ? ", " + *it->second.url : "") + ")";
}

std::string acc_reason(const Accelerator& a, const std::string& field) {
    auto it = a.unknown.find(field);
    return it == a.unknown.end() ? "" : it->second;
}

}  // namespace

std::vector<Section> show_sections(const Catalog& c, const InstanceView& v, bool explain) {
    const Instance& i = *v.instance;
    std::vector<Section> s;
    Section inst{"Instance " + i.name, {}, ""};
    auto fact = [&](const std::string& label, const std::optional<double>& x, const std::string& field, const std::string& unit = "") {
        inst.lines.push_back({label, fact_text(x, i.unknown_reason(field), unit)});
    };
    inst.lines.push_back({"family", i.family});
    inst.lines.push_back({"accelerator", i.accelerator ? *i.accelerator : missing(i.unknown_reason("accelerator"))});
    fact("accelerator count", i.accelerator_count, "accelerator_count");
    fact("accelerator memory each", i.accelerator_memory_gib_each, "accelerator_memory_gib_each", "GiB");
    const auto total = i.total_accelerator_memory_gib();
    inst.lines.push_back({"accelerator memory total", total ? quantity(*total) + " GiB" : std::string(kUnknown)});
    fact("vCPUs", i.vcpus, "vcpus");
    fact("host memory", i.memory_gib, "memory_gib", "GiB");
    fact("network", i.network_gbit_per_s, "network_gbit_per_s", "Gbit/s");
    fact("EFA interfaces", i.efa_interfaces, "efa_interfaces");
    inst.lines.push_back({"GPUDirect RDMA", i.gpudirect_rdma ? (*i.gpudirect_rdma ? "yes" : "no") : missing(i.unknown_reason("gpudirect_rdma"))});
    inst.lines.push_back({"interconnect", i.interconnect ? std::string(to_string(*i.interconnect)) : missing(i.unknown_reason("interconnect"))});
    fact("peer bandwidth per accelerator", i.peer_gbit_per_s_per_accelerator, "peer_gbit_per_s_per_accelerator", "Gbit/s");
    fact("local NVMe", i.local_nvme_gb, "local_nvme_gb", "GB");
    fact("EBS bandwidth", i.ebs_gbit_per_s, "ebs_gbit_per_s", "Gbit/s");
    inst.lines.push_back({"source notes", i.source_notes});
    inst.lines.push_back({"record from", i.origin});
    s.push_back(inst);

    if (const Accelerator* a = v.accelerator) {
        Section acc{"Accelerator " + a->name, {}, ""};
        auto af = [&](const std::string& label, const std::optional<double>& x, const std::string& field, const std::string& unit = "") {
            acc.lines.push_back({label, fact_text(x, acc_reason(*a, field), unit)});
        };
        acc.lines.push_back({"kind", std::string(to_string(a->kind))});
        acc.lines.push_back({"vendor / architecture", a->vendor + " / " + a->architecture});
        if (a->compute_capability) acc.lines.push_back({"compute capability", *a->compute_capability});
        af("memory", a->memory_gib, "memory_gib", "GiB " + a->memory_type);
        af("memory bandwidth", a->memory_bandwidth_gb_per_s, "memory_bandwidth_gb_per_s", "GB/s");
        const std::pair<const char*, const std::optional<double>*> flops[] = {
            {"fp32", &a->dense_tflops.fp32}, {"tf32", &a->dense_tflops.tf32}, {"bf16", &a->dense_tflops.bf16},
            {"fp16", &a->dense_tflops.fp16}, {"fp8", &a->dense_tflops.fp8},   {"fp4", &a->dense_tflops.fp4}};
        for (const auto& [name, value] : flops) af(std::string("dense TFLOPS ") + name, *value, std::string("dense_tflops.") + name);
        acc.lines.push_back({"FLOPS basis", a->flops_basis});
        acc.lines.push_back({"peer link", a->peer_link ? *a->peer_link : missing(acc_reason(*a, "peer_link"))});
        af("peer link bandwidth", a->peer_link_gb_per_s, "peer_link_gb_per_s", "GB/s bidirectional");
        af("PCIe generation", a->pcie_gen, "pcie_gen");
        af("PCIe lanes", a->pcie_lanes, "pcie_lanes");
        af("TDP", a->tdp_w, "tdp_w", "W");
        acc.lines.push_back({"families", join(a->families, ", ")});
        acc.lines.push_back({"source notes", a->source_notes});
        acc.lines.push_back({"record from", a->origin});
        s.push_back(acc);
    }

    // The region asked for; the others are one line (the JSON has every price).
    Section prices{"Prices in " + v.region, {}, ""};
    std::vector<std::string> elsewhere;
    for (const std::string& r : i.offered_regions())
        if (r != v.region) elsewhere.push_back(r);
    if (!i.offered_in(v.region)) prices.lines.push_back({"not offered", "the catalog's price snapshot lists no " + i.name + " in " + v.region});
    if (!elsewhere.empty())
        prices.lines.push_back({"other regions", std::to_string(elsewhere.size()) + " (" + join(elsewhere, ", ") + "): --region R"});
    for (const auto& p : i.prices) {
        if (p.region != v.region) continue;
        const PriceFact f = price_fact(i, p.region, p.option);
        prices.lines.push_back({p.region + " " + std::string(to_string(p.option)), (f.usd_per_hour ? rate(*f.usd_per_hour) + "/h" : missing(f.reason)) + "; as of " +
                                                               p.as_of + stale_price_note(c, p) + "; source " + source_text(c, p.source) +
                                                               (p.note.empty() ? "" : "; " + p.note)});
    }
    s.push_back(prices);

    std::vector<std::pair<std::string, const Correction*>> corrections;
    for (const auto& k : i.corrections) corrections.emplace_back(k.field, &k);
    if (v.accelerator)
        for (const auto& k : v.accelerator->corrections) corrections.emplace_back(v.accelerator->name + " " + k.field, &k);
    if (!corrections.empty()) {
        Section corr{"Corrections (figures in circulation or in the reference sheets that a checked source contradicts; the catalog "
                     "keeps the checked one)",
                     {}, ""};
        for (const auto& [field, k] : corrections)
            corr.lines.push_back({field, "claimed " + k->claimed + ", checked " + k->aws + "; claimed by " + k->claimed_by + "; " + k->verdict});
        s.push_back(corr);
    }

    Section metrics{"Derived metrics (" + v.region + " on-demand)", {}, ""};
    for (const Figure& f : v.metrics.all()) {
        metrics.lines.push_back({f.name, (f.value ? rate(*f.value) + " " + f.unit : missing(f.unknown_reason)) +
                                             (f.formula.empty() ? "" : "  = " + f.formula)});
        if (explain) metrics.body += "\n  " + f.name + " (" + f.unit + ")\n" + explain_figure(f, "    ");
    }
    s.push_back(metrics);
    return s;
}

namespace {

nlohmann::json corrections_json(const std::vector<Correction>& corrections) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& k : corrections)
        out.push_back({{"field", k.field}, {"claimed", nlohmann::json::parse(k.claimed)}, {"aws", nlohmann::json::parse(k.aws)},
                       {"claimed_by", k.claimed_by}, {"verdict", k.verdict}});
    return out;
}

}  // namespace

nlohmann::json show_json(const Catalog& c, const InstanceView& v) {
    const Instance& i = *v.instance;
    nlohmann::json j = view_json(v);
    j.erase("metrics");
    j["source_notes"] = i.source_notes;
    j["origin"] = i.origin;
    nlohmann::json prices = nlohmann::json::array();
    for (const auto& p : i.prices) {
        const PriceFact f = price_fact(i, p.region, p.option);
        nlohmann::json e = {{"region", p.region}, {"option", to_string(p.option)},
                            {"usd_per_hour", f.usd_per_hour ? nlohmann::json(*f.usd_per_hour) : nlohmann::json(nullptr)},
                            {"as_of", p.as_of}, {"source", p.source}, {"note", p.note}};
        if (!f.usd_per_hour) e["unknown"] = f.reason;
        if (auto it = c.sources.find(p.source); it != c.sources.end())
            e["source_detail"] = {{"title", it->second.title}, {"url", it->second.url ? nlohmann::json(*it->second.url) : nlohmann::json(nullptr)}};
        prices.push_back(e);
    }
    j["prices"] = prices;
    j["corrections"] = corrections_json(i.corrections);
    nlohmann::json acc = nullptr;
    if (const Accelerator* a = v.accelerator) {
        auto opt = [](const std::optional<double>& x) { return x ? nlohmann::json(*x) : nlohmann::json(nullptr); };
        acc = {{"name", a->name}, {"kind", std::string(to_string(a->kind))}, {"vendor", a->vendor}, {"architecture", a->architecture},
               {"compute_capability", a->compute_capability ? nlohmann::json(*a->compute_capability) : nlohmann::json(nullptr)},
               {"memory_gib", opt(a->memory_gib)}, {"memory_type", a->memory_type},
               {"memory_bandwidth_gb_per_s", opt(a->memory_bandwidth_gb_per_s)},
               {"dense_tflops", {{"fp32", opt(a->dense_tflops.fp32)}, {"tf32", opt(a->dense_tflops.tf32)}, {"bf16", opt(a->dense_tflops.bf16)},
                                 {"fp16", opt(a->dense_tflops.fp16)}, {"fp8", opt(a->dense_tflops.fp8)}, {"fp4", opt(a->dense_tflops.fp4)}}},
               {"flops_basis", a->flops_basis}, {"peer_link", a->peer_link ? nlohmann::json(*a->peer_link) : nlohmann::json(nullptr)},
               {"peer_link_gb_per_s", opt(a->peer_link_gb_per_s)}, {"pcie_gen", opt(a->pcie_gen)}, {"pcie_lanes", opt(a->pcie_lanes)},
               {"tdp_w", opt(a->tdp_w)}, {"families", a->families}, {"source_notes", a->source_notes},
               {"unknown", nlohmann::json(a->unknown)}, {"corrections", corrections_json(a->corrections)}, {"origin", a->origin}};
    }
    return {{"region", v.region}, {"instance", j}, {"accelerator", acc}, {"metrics", to_json(v.metrics.all())}};
}

}  // namespace gpuplan::cli
