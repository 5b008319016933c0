#include "instance_view.hpp"

#include "gpuplan/pricing/purchase_options.hpp"

namespace gpuplan::cli {

PriceFact price_fact(const Instance& instance, const std::string& region, const std::string& option) {
    PriceFact f;
    for (std::size_t k = 0; k < instance.prices.size(); ++k) {
        const Price& p = instance.prices[k];
        if (p.region != region || p.option != option) continue;
        f.entry = &p;
        f.usd_per_hour = p.usd_per_hour;
        if (!p.usd_per_hour) f.reason = instance.unknown_reason("prices[" + std::to_string(k) + "].usd_per_hour");
        return f;
    }
    f.reason = "no " + option + " price for " + region + " in the catalog";
    return f;
}

InstanceView make_view(const Catalog& catalog, const Instance& instance, const std::string& region) {
    InstanceView v;
    v.instance = &instance;
    v.accelerator = instance.accelerator ? catalog.find_accelerator(*instance.accelerator) : nullptr;
    v.region = region;
    v.on_demand = price_fact(instance, region, "on_demand");
    v.spot = price_fact(instance, region, "spot_typical");
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

}  // namespace gpuplan::cli
