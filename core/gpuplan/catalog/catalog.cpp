// catalog.cpp — parsing and validating catalog documents (format: docs/catalog.md).
#include "gpuplan/catalog/catalog.hpp"

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <set>

#include "gpuplan/calendar.hpp"
#include "gpuplan/catalog/option_listings.hpp"
#include "gpuplan/json_reader.hpp"
#include "gpuplan/text.hpp"

namespace gpuplan {

using catalog_detail::looks_like_date;
using catalog_detail::looks_like_region;

std::string_view to_string(AcceleratorKind kind) {
    switch (kind) {
    case AcceleratorKind::gpu: return "gpu";
    case AcceleratorKind::trainium: return "trainium";
    case AcceleratorKind::inferentia: return "inferentia";
    case AcceleratorKind::asic: return "asic";
    }
    return "?";
}

std::string_view to_string(Interconnect link) {
    switch (link) {
    case Interconnect::nvswitch: return "nvswitch";
    case Interconnect::nvlink: return "nvlink";
    case Interconnect::pcie: return "pcie";
    case Interconnect::neuronlink: return "neuronlink";
    case Interconnect::none: return "none";
    }
    return "?";
}

std::optional<double> Instance::total_accelerator_memory_gib() const {
    if (!accelerator_count || !accelerator_memory_gib_each) return std::nullopt;
    // A fractional slice (g6f: 0.125 of an L4) lists the slice's own memory as "each".
    return *accelerator_count < 1 ? *accelerator_memory_gib_each
                                  : *accelerator_count * *accelerator_memory_gib_each;
}

std::string_view to_string(PriceKind kind) { return kind == PriceKind::on_demand ? "on-demand" : "spot"; }
std::string_view price_kind_words(PriceKind kind) { return kind == PriceKind::on_demand ? "on-demand" : "spot (typical)"; }
std::optional<PriceKind> price_kind_named(std::string_view key) {
    for (PriceKind k : kPriceKinds)
        if (key == to_string(k)) return k;
    return std::nullopt;
}
std::string price_kind_keys() { return "\"on-demand\" or \"spot\""; }
std::string_view old_spelling(PriceKind kind) { return kind == PriceKind::on_demand ? "on_demand" : "spot_typical"; }
std::optional<PriceKind> price_kind_from_old_spelling(std::string_view key) {
    for (PriceKind k : kPriceKinds)
        if (key == old_spelling(k)) return k;
    return std::nullopt;
}

const Price* Instance::find_price(std::string_view region, PriceKind option) const {
    for (const auto& p : prices)
        if (p.region == region && p.option == option) return &p;
    return nullptr;
}

const CommitmentPrice* Instance::find_commitment_price(std::string_view region, const PurchaseOption& option) const {
    for (const auto& p : commitment_prices)
        if (p.region == region && p.option == option) return &p;
    return nullptr;
}

const CapacityBlockPrice* Instance::find_capacity_block_price(std::string_view region) const {
    for (const auto& p : capacity_block_prices)
        if (p.region == region) return &p;
    return nullptr;
}

const OptionNotOffered* Instance::option_not_offered(std::string_view region, PurchaseKind kind) const {
    const bool listed = kind == PurchaseKind::capacity_block
                            ? find_capacity_block_price(region) != nullptr
                            : std::any_of(commitment_prices.begin(), commitment_prices.end(),
                                          [&](const CommitmentPrice& c) { return c.region == region && c.option.kind == kind; });
    if (listed) return nullptr;
    const OptionNotOffered* everywhere = nullptr;
    for (const auto& n : options_not_offered) {
        if (n.kind != kind) continue;
        if (n.region == region) return &n;
        if (n.region.empty()) everywhere = &n;
    }
    return everywhere;
}

bool Instance::offered_in(std::string_view region) const {
    for (const auto& p : prices)
        if (p.region == region) return true;
    return false;
}

std::vector<std::string> Instance::offered_regions() const {
    std::set<std::string> found;
    for (const auto& p : prices) found.insert(p.region);
    return {found.begin(), found.end()};
}

std::string Instance::null_price_reason(std::string_view region, PriceKind option) const {
    const Price* p = find_price(region, option);
    if (!p || p->usd_per_hour) return "";
    return unknown_reason("prices[" + std::to_string(static_cast<std::size_t>(p - prices.data())) + "].usd_per_hour");
}

std::string Instance::unknown_reason(std::string_view field) const {
    auto it = unknown.find(field);
    return it == unknown.end() ? std::string() : it->second;
}

const Accelerator* Catalog::find_accelerator(std::string_view name) const {
    for (const auto& a : accelerators)
        if (a.name == name) return &a;
    return nullptr;
}

const Instance* Catalog::find_instance(std::string_view name) const {
    for (const auto& i : instances)
        if (i.name == name) return &i;
    return nullptr;
}

void Catalog::index_regions() {
    std::set<std::string> found;
    for (const auto& i : instances)
        for (const auto& p : i.prices) found.insert(p.region);
    regions_.assign(found.begin(), found.end());
}

bool Catalog::has_region(std::string_view region) const { return std::binary_search(regions_.begin(), regions_.end(), region); }

std::optional<int> price_age_days(std::string_view as_of, std::string_view today) {
    const auto then = date_or_month_days(as_of), now = date_days(today);
    if (!then || !now) return std::nullopt;
    return static_cast<int>(*now - *then);
}

std::string stale_price_note(const Catalog& catalog, std::string_view as_of) {
    const auto age = price_age_days(as_of, catalog.today);
    if (!age || *age <= kStalePriceDays) return "";
    return "; " + std::to_string(*age) + " days old on " + catalog.today + " (gpuplan flags prices over " + std::to_string(kStalePriceDays) +
           " days: check the current one)";
}

void require_region(const Catalog& catalog, const std::string& region, const std::string& where, const std::string& shown_value) {
    if (catalog.has_region(region)) return;
    std::string list;
    for (const auto& r : catalog.regions()) list += (list.empty() ? "" : ", ") + r;
    throw InputError(where, shown_value, "a region with catalog prices: " + list);
}

namespace {

constexpr std::string_view kSchema = "gpuplan.catalog/1";

// Tracks which fields of one record are null, so the record's "unknown" map can be checked
// against them: every null needs a reason, and every reason must explain a null.
class NullTracker {
public:
    explicit NullTracker(std::string record_path) : record_path_(std::move(record_path)) {}

    std::optional<double> number(ObjectReader& r, const char* key, std::string_view field, NumberRule rule) {
        auto v = r.nullable_number(key, rule);
        if (!v) nulls_.insert(std::string(field));
        return v;
    }
    std::optional<std::string> string(ObjectReader& r, const char* key, std::string_view field) {
        const Json& v = r.value(key);
        if (v.is_null()) {
            nulls_.insert(std::string(field));
            return std::nullopt;
        }
        return r.string(key);
    }
    void mark_null(std::string field) { nulls_.insert(std::move(field)); }

    UnknownReasons reasons(ObjectReader& record) const {
        UnknownReasons out;
        if (const Json* u = record.optional_value("unknown")) {
            ObjectReader unknown(*u, record.child_path("unknown"));
            for (const auto& [field, reason] : u->items()) {
                const std::string path = unknown.child_path(field);
                if (!reason.is_string() || reason.get_ref<const std::string&>().empty())
                    throw InputError(path, json_preview(reason), "a non-empty reason string");
                if (!nulls_.count(field))
                    throw InputError(path, json_preview(reason),
                                     "a reason only for a field whose value is null (\"" + field + "\" is not null)");
                out.emplace(field, reason.get<std::string>());
                (void)unknown.value(field.c_str());
            }
        }
        for (const auto& field : nulls_)
            if (!out.count(field))
                throw InputError(record_path_ + "." + field, "null",
                                 "a value, or a reason in " + record_path_ + ".unknown.\"" + field + "\"");
        return out;
    }

private:
    std::string record_path_;
    std::set<std::string> nulls_;
};

AcceleratorKind parse_kind(ObjectReader& r) {
    const std::string kind = r.string("kind");
    if (kind == "gpu") return AcceleratorKind::gpu;
    if (kind == "trainium") return AcceleratorKind::trainium;
    if (kind == "inferentia") return AcceleratorKind::inferentia;
    if (kind == "asic") return AcceleratorKind::asic;
    throw InputError(r.child_path("kind"), "\"" + kind + "\"", "one of \"gpu\", \"trainium\", \"inferentia\", \"asic\"");
}

std::vector<std::string> parse_string_list(ObjectReader& r, const char* key) {
    const Json& list = r.array(key);
    std::vector<std::string> out;
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (!list[i].is_string())
            throw InputError(index_path(r.child_path(key), i), json_preview(list[i]), "a string");
        out.push_back(list[i].get<std::string>());
    }
    return out;
}

Correction parse_correction(const Json& j, const std::string& path);  // below, beside the instance reader

// The optional "corrections" array of an accelerator or instance record.
std::vector<Correction> parse_corrections(ObjectReader& r) {
    std::vector<Correction> out;
    if (const Json* c = r.optional_value("corrections")) {
        if (!c->is_array()) throw InputError(r.child_path("corrections"), json_preview(*c), "an array");
        for (std::size_t k = 0; k < c->size(); ++k) out.push_back(parse_correction((*c)[k], index_path(r.child_path("corrections"), k)));
    }
    return out;
}

Accelerator parse_accelerator(const Json& j, const std::string& path, const std::string& origin) {
    ObjectReader r(j, path);
    NullTracker nulls(path);
    Accelerator a;
    a.origin = origin;
    a.name = r.name("name");
    a.kind = parse_kind(r);
    a.vendor = r.string("vendor");
    a.architecture = r.string("architecture");
    // Compute capability is a GPU concept; Trainium/Inferentia must not pretend to have one.
    // An AMD GPU has none: null, with its reason in "unknown".
    if (a.kind == AcceleratorKind::gpu)
        a.compute_capability = nulls.string(r, "compute_capability", "compute_capability");
    else if (r.has("compute_capability"))
        throw InputError(r.child_path("compute_capability"), json_preview(j["compute_capability"]),
                         "no compute_capability for a " + std::string(to_string(a.kind)) + " (GPUs only)");
    a.memory_gib = nulls.number(r, "memory_gib", "memory_gib", NumberRule::positive);
    a.memory_type = r.string("memory_type");
    a.memory_bandwidth_gb_per_s = nulls.number(r, "memory_bandwidth_gb_per_s", "memory_bandwidth_gb_per_s", NumberRule::positive);
    {
        ObjectReader t = r.object("dense_tflops");
        a.dense_tflops.fp32 = nulls.number(t, "fp32", "dense_tflops.fp32", NumberRule::positive);
        a.dense_tflops.tf32 = nulls.number(t, "tf32", "dense_tflops.tf32", NumberRule::positive);
        a.dense_tflops.bf16 = nulls.number(t, "bf16", "dense_tflops.bf16", NumberRule::positive);
        a.dense_tflops.fp16 = nulls.number(t, "fp16", "dense_tflops.fp16", NumberRule::positive);
        a.dense_tflops.fp8 = nulls.number(t, "fp8", "dense_tflops.fp8", NumberRule::positive);
        a.dense_tflops.fp4 = nulls.number(t, "fp4", "dense_tflops.fp4", NumberRule::positive);
        t.finish();
    }
    a.flops_basis = r.string("flops_basis");
    a.peer_link = nulls.string(r, "peer_link", "peer_link");
    a.peer_link_gb_per_s = nulls.number(r, "peer_link_gb_per_s", "peer_link_gb_per_s", NumberRule::positive);
    a.pcie_gen = nulls.number(r, "pcie_gen", "pcie_gen", NumberRule::positive);
    a.pcie_lanes = nulls.number(r, "pcie_lanes", "pcie_lanes", NumberRule::positive);
    a.tdp_w = nulls.number(r, "tdp_w", "tdp_w", NumberRule::positive);
    a.families = parse_string_list(r, "families");
    a.source_notes = r.string("source_notes");
    a.corrections = parse_corrections(r);
    a.unknown = nulls.reasons(r);
    r.finish();
    return a;
}

std::optional<Interconnect> parse_interconnect(ObjectReader& r, NullTracker& nulls) {
    auto text = nulls.string(r, "interconnect", "interconnect");
    if (!text) return std::nullopt;
    static const std::pair<std::string_view, Interconnect> names[] = {
        {"nvswitch", Interconnect::nvswitch}, {"nvlink", Interconnect::nvlink}, {"pcie", Interconnect::pcie},
        {"neuronlink", Interconnect::neuronlink}, {"none", Interconnect::none}};
    for (const auto& [name, link] : names)
        if (*text == name) return link;
    throw InputError(r.child_path("interconnect"), "\"" + *text + "\"",
                     "one of \"nvswitch\", \"nvlink\", \"pcie\", \"neuronlink\", \"none\"");
}

// A catalog price's "option": today's spelling, or the one catalog files were written in
// before (users' own files and overlays keep loading; the built-in catalog uses today's).
std::optional<PriceKind> price_kind_in_a_catalog(std::string_view option) {
    if (auto kind = price_kind_named(option)) return kind;
    return price_kind_from_old_spelling(option);
}

// `read_by_caller`: a key of the entry the caller has read already (a price overlay's
// "instance"), accepted rather than refused as unknown.
Price parse_price(const Json& j, const std::string& path, std::size_t index, NullTracker& nulls, const char* read_by_caller = nullptr) {
    ObjectReader r(j, path);
    if (read_by_caller) (void)r.value(read_by_caller);
    Price p;
    p.region = r.name("region");
    if (!looks_like_region(p.region))
        throw InputError(r.child_path("region"), "\"" + p.region + "\"", "an AWS region name such as \"us-east-1\"");
    const std::string option = r.string("option");
    const std::optional<PriceKind> kind = price_kind_in_a_catalog(option);
    if (!kind) throw InputError(r.child_path("option"), "\"" + option + "\"", price_kind_keys());
    p.option = *kind;
    p.usd_per_hour = nulls.number(r, "usd_per_hour", "prices[" + std::to_string(index) + "].usd_per_hour", NumberRule::positive);
    p.as_of = r.string("as_of");
    if (!looks_like_date(p.as_of))
        throw InputError(r.child_path("as_of"), "\"" + p.as_of + "\"", "a date \"YYYY-MM-DD\" or \"YYYY-MM\"");
    p.source = r.string("source");
    p.note = r.optional_string("note").value_or("");
    if (r.has("zones")) {
        if (p.option != PriceKind::spot_typical)
            throw InputError(r.child_path("zones"), "zones on an " + option + " price", "zones only on a spot price");
        ObjectReader z = r.object("zones");
        SpotZones zones;
        zones.count = z.number("count", NumberRule::positive);
        zones.min_usd_per_hour = z.number("min_usd_per_hour", NumberRule::positive);
        zones.max_usd_per_hour = z.number("max_usd_per_hour", NumberRule::positive);
        zones.at_on_demand = z.optional_number("at_on_demand", NumberRule::non_negative).value_or(0);
        z.finish();
        if (zones.at_on_demand != std::floor(zones.at_on_demand))
            throw InputError(z.child_path("at_on_demand"), json_preview(j["zones"]["at_on_demand"]), "a whole number of zones");
        if (zones.count != std::floor(zones.count))
            throw InputError(z.child_path("count"), json_preview(j["zones"]["count"]), "a whole number of zones");
        const double typical = p.usd_per_hour.value_or(zones.min_usd_per_hour);
        if (!(zones.min_usd_per_hour <= typical && typical <= zones.max_usd_per_hour))
            throw InputError(z.path(), json_preview(j["zones"]),
                             "min_usd_per_hour <= the typical price (" + json_preview(j["usd_per_hour"]) + ") <= max_usd_per_hour");
        p.zones = zones;
    }
    r.finish();
    return p;
}

Correction parse_correction(const Json& j, const std::string& path) {
    ObjectReader r(j, path);
    Correction c;
    c.field = r.string("field");
    c.claimed = r.value("claimed").dump();
    c.aws = r.value("aws").dump();
    c.claimed_by = r.string("claimed_by");
    c.verdict = r.string("verdict");
    r.finish();
    return c;
}

Instance parse_instance(const Json& j, const std::string& path, const std::string& origin) {
    ObjectReader r(j, path);
    NullTracker nulls(path);
    Instance i;
    i.origin = origin;
    i.name = r.name("name");
    i.family = r.string("family");
    // The family is the name's prefix ("p5" of "p5.48xlarge"): a mismatch is a typo.
    if (i.name.rfind(i.family + ".", 0) != 0)
        throw InputError(r.child_path("family"), "\"" + i.family + "\"",
                         "the prefix of the instance name \"" + i.name + "\"");
    i.accelerator = nulls.string(r, "accelerator", "accelerator");
    i.accelerator_count = nulls.number(r, "accelerator_count", "accelerator_count", NumberRule::positive);
    i.accelerator_memory_gib_each = nulls.number(r, "accelerator_memory_gib_each", "accelerator_memory_gib_each", NumberRule::positive);
    i.vcpus = nulls.number(r, "vcpus", "vcpus", NumberRule::positive);
    i.memory_gib = nulls.number(r, "memory_gib", "memory_gib", NumberRule::positive);
    i.network_gbit_per_s = nulls.number(r, "network_gbit_per_s", "network_gbit_per_s", NumberRule::positive);
    i.efa_interfaces = nulls.number(r, "efa_interfaces", "efa_interfaces", NumberRule::non_negative);
    if (i.efa_interfaces && std::floor(*i.efa_interfaces) != *i.efa_interfaces)
        throw InputError(r.child_path("efa_interfaces"), json_preview(j["efa_interfaces"]), "a whole number of interfaces");
    {
        const Json& g = r.value("gpudirect_rdma");
        if (g.is_null())
            nulls.mark_null("gpudirect_rdma");
        else
            i.gpudirect_rdma = r.boolean("gpudirect_rdma");
    }
    i.interconnect = parse_interconnect(r, nulls);
    i.peer_gbit_per_s_per_accelerator = nulls.number(r, "peer_gbit_per_s_per_accelerator", "peer_gbit_per_s_per_accelerator", NumberRule::positive);
    i.local_nvme_gb = nulls.number(r, "local_nvme_gb", "local_nvme_gb", NumberRule::non_negative);
    i.ebs_gbit_per_s = nulls.number(r, "ebs_gbit_per_s", "ebs_gbit_per_s", NumberRule::positive);
    const Json& prices = r.array("prices");
    for (std::size_t k = 0; k < prices.size(); ++k) {
        Price p = parse_price(prices[k], index_path(r.child_path("prices"), k), k, nulls);
        if (i.find_price(p.region, p.option))
            throw InputError(index_path(r.child_path("prices"), k), p.region + " " + std::string(to_string(p.option)),
                             "one price per region and option (this one is listed twice)");
        i.prices.push_back(std::move(p));
    }
    i.source_notes = r.string("source_notes");
    i.corrections = parse_corrections(r);
    i.unknown = nulls.reasons(r);
    r.finish();

    // Consistency inside the record.
    if (i.accelerator_count && i.interconnect) {
        const bool several = *i.accelerator_count >= 2;
        const bool linked = *i.interconnect != Interconnect::none;
        if (several != linked)
            throw InputError(r.child_path("interconnect"), "\"" + std::string(to_string(*i.interconnect)) + "\"",
                             several ? "a link between the " + json_preview(j["accelerator_count"]) + " accelerators (not \"none\")"
                                     : "\"none\" for a single accelerator");
    }
    // In every region (not only the first one priced): spot above on-demand is a typing error.
    for (const Price& spot : i.prices) {
        const Price* od = spot.option == PriceKind::spot_typical ? i.find_price(spot.region, PriceKind::on_demand) : nullptr;
        if (od && od->usd_per_hour && spot.usd_per_hour && *spot.usd_per_hour > *od->usd_per_hour)
            throw InputError(r.child_path("prices"), "spot " + json_preview(*spot.usd_per_hour) + " in " + spot.region,
                             "a typical spot price at or below the on-demand price " + json_preview(*od->usd_per_hour));
    }
    return i;
}

template <class Record>
void add_or_replace(std::vector<Record>& records, Record record, std::set<std::string>& names_in_document,
                    const std::string& path, std::vector<std::string>& overrides) {
    if (!names_in_document.insert(record.name).second)
        throw InputError(path + ".name", "\"" + record.name + "\"", "a name not used earlier in the same document");
    for (auto& existing : records)
        if (existing.name == record.name) {
            overrides.push_back(record.name + ": " + existing.origin + " replaced by " + record.origin);
            existing = std::move(record);
            return;
        }
    records.push_back(std::move(record));
}

// A document's top-level "prices": each entry names its instance and sets one price of it,
// replacing the entry for the same region and option (the change is listed in overrides).
void apply_price_overlay(Catalog& catalog, ObjectReader& root, const std::string& origin) {
    const Json* list = root.optional_value("prices");
    if (!list) return;
    const std::string list_path = root.child_path("prices");
    if (!list->is_array()) throw InputError(list_path, json_preview(*list), "an array of price entries");
    for (std::size_t k = 0; k < list->size(); ++k) {
        const std::string path = index_path(list_path, k);
        const Json& entry = (*list)[k];
        ObjectReader r(entry, path);
        const std::string name = r.name("instance");
        auto it = std::find_if(catalog.instances.begin(), catalog.instances.end(), [&](const Instance& i) { return i.name == name; });
        if (it == catalog.instances.end())
            throw InputError(r.child_path("instance"), "\"" + name + "\"",
                             "an instance type in the catalog or in an earlier --catalog file (add the type there first)");
        Instance& instance = *it;
        const std::string option_key = r.string("option");
        if (price_kind_in_a_catalog(option_key)) {
            NullTracker nulls(path);
            Price p = parse_price(entry, path, 0, nulls, "instance");
            if (!p.usd_per_hour) throw InputError(r.child_path("usd_per_hour"), "null", "a price in USD per hour (an overlay sets known prices only)");
            auto old = std::find_if(instance.prices.begin(), instance.prices.end(),
                                    [&](const Price& q) { return q.region == p.region && q.option == p.option; });
            if (old != instance.prices.end()) {
                if (old->usd_per_hour != p.usd_per_hour)
                    catalog.overrides.push_back(name + " " + p.region + " " + std::string(to_string(p.option)) + ": " +
                                                (old->usd_per_hour ? rate(*old->usd_per_hour) : std::string("unknown")) + " (" + old->source +
                                                ") replaced by " + rate(*p.usd_per_hour) + " (" + p.source + ", " + origin + ")");
                const auto zones = p.zones ? p.zones : (old->usd_per_hour == p.usd_per_hour ? old->zones : std::nullopt);
                *old = std::move(p);
                old->zones = zones;
            } else {
                instance.prices.push_back(std::move(p));
            }
            continue;
        }
        const std::optional<PurchaseOption> option = purchase_option_named(option_key);
        if (option && option->kind == PurchaseKind::capacity_block) {
            catalog_detail::apply_capacity_block_entry(catalog, instance, r, origin);
            continue;
        }
        if (!option || !is_commitment(option->kind) || !option->payment)
            throw InputError(r.child_path("option"), "\"" + option_key + "\"",
                             price_kind_keys() + ", \"capacity-block\", or a commitment with its term and payment (\"reserved-1y-all-upfront\", "
                             "\"compute-savings-plan-3y-no-upfront\", ...)");
        CommitmentPrice c;
        c.option = *option;
        c.origin = origin;
        c.region = r.name("region");
        if (!looks_like_region(c.region)) throw InputError(r.child_path("region"), "\"" + c.region + "\"", "an AWS region name such as \"us-east-1\"");
        c.upfront_usd = r.number("upfront_usd", NumberRule::non_negative);
        c.usd_per_hour = r.number("usd_per_hour", NumberRule::non_negative);
        if (c.option.payment == Payment::all_upfront && c.usd_per_hour != 0)
            throw InputError(r.child_path("usd_per_hour"), json_preview(entry["usd_per_hour"]), "0 for an all-upfront commitment");
        if (c.option.payment == Payment::no_upfront && c.upfront_usd != 0)
            throw InputError(r.child_path("upfront_usd"), json_preview(entry["upfront_usd"]), "0 for a no-upfront commitment");
        if (c.effective_usd_per_hour() <= 0)
            throw InputError(path, "upfront 0 and 0 per hour", "a commitment that costs something");
        c.as_of = r.string("as_of");
        if (!looks_like_date(c.as_of)) throw InputError(r.child_path("as_of"), "\"" + c.as_of + "\"", "a date \"YYYY-MM-DD\" or \"YYYY-MM\"");
        c.source = r.string("source");
        c.note = r.optional_string("note").value_or("");
        r.finish();
        auto old = std::find_if(instance.commitment_prices.begin(), instance.commitment_prices.end(),
                                [&](const CommitmentPrice& p) { return p.region == c.region && p.option == c.option; });
        if (old == instance.commitment_prices.end()) {
            instance.commitment_prices.push_back(std::move(c));
            continue;
        }
        if (old->upfront_usd != c.upfront_usd || old->usd_per_hour != c.usd_per_hour)
            catalog.overrides.push_back(name + " " + c.region + " " + option_key + ": upfront " + rate(old->upfront_usd) + " + " +
                                        rate(old->usd_per_hour) + "/h (" + old->origin + ") replaced by upfront " + rate(c.upfront_usd) + " + " +
                                        rate(c.usd_per_hour) + "/h (" + origin + ")");
        *old = std::move(c);
    }
}

// Cross-record checks once every document is in: references resolve and totals agree.
void check_consistency(Catalog& catalog) {
    for (std::size_t k = 0; k < catalog.instances.size(); ++k) {
        Instance& i = catalog.instances[k];
        const std::string where = i.origin + ": instance \"" + i.name + "\"";
        for (const auto& p : i.prices)
            if (!catalog.sources.count(p.source))
                throw InputError(where + ".prices", "source \"" + p.source + "\"", "a key of \"sources\"");
        for (const auto& p : i.commitment_prices)
            if (!catalog.sources.count(p.source))
                throw InputError(p.origin + ": prices for \"" + i.name + "\"", "source \"" + p.source + "\"", "a key of \"sources\"");
        for (const auto& p : i.capacity_block_prices)
            if (!catalog.sources.count(p.source))
                throw InputError(p.origin + ": prices for \"" + i.name + "\"", "source \"" + p.source + "\"", "a key of \"sources\"");
        if (!i.accelerator) continue;
        const Accelerator* a = catalog.find_accelerator(*i.accelerator);
        if (!a) throw InputError(where + ".accelerator", "\"" + *i.accelerator + "\"", "the name of an accelerator in the catalog");
        if (!i.accelerator_memory_gib_each || !a->memory_gib || !i.accelerator_count) continue;
        // Memory per accelerator must match the accelerator's (a fractional slice gets its
        // share). 2% tolerance covers rounding of MiB to GiB in the sources.
        const double expected = *a->memory_gib * std::min(1.0, *i.accelerator_count);
        const bool replaced_later = a->origin != i.origin && std::any_of(catalog.overrides.begin(), catalog.overrides.end(), [&](const std::string& o) {
            return o.rfind(a->name + ": ", 0) == 0 && o.find(" replaced by " + a->origin) != std::string::npos;
        });
        if (std::fabs(*i.accelerator_memory_gib_each - expected) > 0.02 * expected && replaced_later) {
            // A variant (an H100 with 96 GB) given in a later file: the instances that use the
            // accelerator take its memory, and the change is listed with the replacements.
            catalog.overrides.push_back(i.name + ": accelerator_memory_gib_each " + json_preview(*i.accelerator_memory_gib_each) + " -> " +
                                        json_preview(expected) + " GiB, as " + a->name + " from " + a->origin + " says");
            i.accelerator_memory_gib_each = expected;
        } else if (std::fabs(*i.accelerator_memory_gib_each - expected) > 0.02 * expected)
            throw InputError(where + ".accelerator_memory_gib_each", json_preview(*i.accelerator_memory_gib_each),
                             json_preview(expected) + " GiB (" + a->name + " memory_gib " + json_preview(*a->memory_gib) +
                                 (*i.accelerator_count < 1 ? " x " + json_preview(*i.accelerator_count) + " slice" : "") + ")");
    }
}

}  // namespace

Catalog load_catalog(const std::vector<CatalogDocument>& documents) {
    Catalog catalog;
    for (const auto& doc : documents) {
        const Json j = doc.built_in ? Json::parse(doc.text) : parse_json_document(doc.text, doc.origin);
        ObjectReader root(j, doc.origin + ": $");
        const std::string schema = root.string("schema");
        if (schema != kSchema)
            throw InputError(root.child_path("schema"), "\"" + schema + "\"", "\"" + std::string(kSchema) + "\"");
        if (const Json* sources = root.optional_value("sources")) {
            ObjectReader s(*sources, root.child_path("sources"));
            for (const auto& [code, entry] : sources->items()) {
                ObjectReader e(s.value(code.c_str()), s.child_path(code));
                Source src;
                src.title = e.string("title");
                if (!e.value("url").is_null()) src.url = e.string("url");
                e.finish();
                catalog.sources[code] = std::move(src);
            }
        }
        std::set<std::string> names;
        if (const Json* list = root.optional_value("accelerators")) {
            if (!list->is_array()) throw InputError(root.child_path("accelerators"), json_preview(*list), "an array");
            for (std::size_t k = 0; k < list->size(); ++k) {
                const std::string path = index_path(root.child_path("accelerators"), k);
                add_or_replace(catalog.accelerators, parse_accelerator((*list)[k], path, doc.origin), names, path, catalog.overrides);
            }
        }
        names.clear();
        if (const Json* list = root.optional_value("instances")) {
            if (!list->is_array()) throw InputError(root.child_path("instances"), json_preview(*list), "an array");
            for (std::size_t k = 0; k < list->size(); ++k) {
                const std::string path = index_path(root.child_path("instances"), k);
                add_or_replace(catalog.instances, parse_instance((*list)[k], path, doc.origin), names, path, catalog.overrides);
            }
        }
        apply_price_overlay(catalog, root, doc.origin);
        catalog_detail::apply_not_offered(catalog, root, doc.origin);
        root.finish();
    }
    check_consistency(catalog);
    catalog.index_regions();
    return catalog;
}

Catalog load_builtin_catalog() { return load_catalog(builtin_catalog_documents()); }

}  // namespace gpuplan
