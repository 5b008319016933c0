// catalog_cmd.cpp — `gpuplan catalog` (list, filter, sort, compare) and `gpuplan show`.
#include <algorithm>
#include <memory>

#include "commands.hpp"
#include "instance_view.hpp"

namespace gpuplan::cli {

namespace {

// ---- catalog --------------------------------------------------------------------------------

struct CatalogOptions {
    std::vector<std::string> families, accelerators, compare;
    std::string kind, region = "us-east-1", sort;
    double min_accel_memory_gib = 0;
    bool desc = false;
    Format format = Format::table;
};

// --sort names (the brief's short names) → the field they sort by.
const std::vector<std::pair<std::string, std::string>> kSortFields = {
    {"name", "name"},
    {"price", "on_demand_usd_per_hour"},
    {"usd_per_accelerator_hour", "usd_per_accelerator_hour"},
    {"usd_per_accel_gib_hour", "usd_per_accel_gib_hour"},
    {"usd_per_dense_bf16_pflop_hour", "usd_per_dense_bf16_pflop_hour"},
    {"usd_per_tb_per_s_hour", "usd_per_tb_per_s_hour"},
    {"accel_memory", "accelerator_memory_gib_total"},
    {"memory", "memory_gib"},
    {"network", "network_gbit_per_s"},
    {"vcpus", "vcpus"},
};

// Columns of the text/Markdown listing (CSV and JSON carry every field).
const std::vector<std::string> kListColumns = {
    "name", "accelerator", "accelerator_count", "accelerator_memory_gib_total", "vcpus", "memory_gib", "network_gbit_per_s",
    "efa_interfaces", "interconnect", "on_demand_usd_per_hour", "spot_usd_per_hour", "usd_per_accelerator_hour",
    "usd_per_accel_gib_hour", "usd_per_dense_bf16_pflop_hour", "usd_per_tb_per_s_hour"};

const char* const kUnknownHint =
    "\"unknown\" / \"n/a\" (no such feature on that hardware): `gpuplan show INSTANCE` gives the reason, the sources\n"
    "and the formulas.\n";
const std::string kLegend = std::string(
    "$/acc-h: on-demand $/h per accelerator; $/GiB-h: per GiB of accelerator memory; $/PFLOP-h: per dense BF16\n"
    "PFLOP/s; $/TB/s-h: per TB/s of accelerator memory bandwidth.\n") + kUnknownHint;

// Checks each requested name against what the catalog has (case-insensitive).
std::vector<std::string> match_names(const std::vector<std::string>& wanted, const std::vector<std::string>& known, const std::string& flag,
                                     const std::string& what) {
    std::vector<std::string> out;
    for (const auto& w : wanted) {
        auto it = std::find_if(known.begin(), known.end(), [&](const std::string& k) { return lower(k) == lower(w); });
        if (it == known.end()) throw InputError(flag, "'" + w + "'", what + ": " + join(known, ", "));
        out.push_back(*it);
    }
    return out;
}

template <class T>
bool contains(const std::vector<T>& v, const T& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

std::vector<InstanceView> select_instances(const Catalog& catalog, const CatalogOptions& o) {
    std::vector<std::string> families, accelerators;
    for (const auto& i : catalog.instances)
        if (!contains(families, i.family)) families.push_back(i.family);
    for (const auto& a : catalog.accelerators) accelerators.push_back(a.name);
    const auto want_families = match_names(o.families, families, "--family", "a family in the catalog");
    const auto want_accels = match_names(o.accelerators, accelerators, "--accelerator", "an accelerator in the catalog");
    std::vector<InstanceView> views;
    for (const auto& i : catalog.instances) {
        if (!i.offered_in(o.region)) continue;  // listed under "not offered there" (not_offered_in)
        InstanceView v = make_view(catalog, i, o.region);
        if (!want_families.empty() && !contains(want_families, i.family)) continue;
        if (!want_accels.empty() && !(i.accelerator && contains(want_accels, *i.accelerator))) continue;
        if (!o.kind.empty() && !(v.accelerator && to_string(v.accelerator->kind) == o.kind)) continue;
        if (o.min_accel_memory_gib > 0 && !(i.total_accelerator_memory_gib() && *i.total_accelerator_memory_gib() >= o.min_accel_memory_gib))
            continue;
        views.push_back(std::move(v));
    }
    if (o.sort.empty()) return views;  // catalog order
    if (o.sort == "name") {
        std::stable_sort(views.begin(), views.end(), [&](const auto& a, const auto& b) {
            return o.desc ? a.instance->name > b.instance->name : a.instance->name < b.instance->name;
        });
        return views;
    }
    const auto& key = std::find_if(kSortFields.begin(), kSortFields.end(), [&](const auto& p) { return p.first == o.sort; })->second;
    const Field& field = *find_field(key);
    std::stable_sort(views.begin(), views.end(), [&](const InstanceView& a, const InstanceView& b) {
        const auto x = field.sort_value(a), y = field.sort_value(b);
        if (!x || !y) return x.has_value() && !y.has_value();  // unknowns last, either direction
        return o.desc ? *x > *y : *x < *y;
    });
    return views;
}

// The types the price snapshot does not list in `region`: `catalog` leaves them out and says so.
std::vector<std::string> not_offered_in(const Catalog& catalog, const std::string& region) {
    std::vector<std::string> names;
    for (const auto& i : catalog.instances)
        if (!i.offered_in(region)) names.push_back(i.name);
    return names;
}

std::string run_catalog(const Catalog& catalog, const CatalogOptions& o) {
    require_region(catalog, o.region, "--region");
    std::vector<InstanceView> views;
    if (!o.compare.empty()) {
        for (const auto& name : o.compare) views.push_back(make_view(catalog, require_instance(catalog, name, "--compare"), o.region));
    } else {
        views = select_instances(catalog, o);
    }
    if (o.format == Format::json) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& v : views) list.push_back(view_json(v));
        nlohmann::json out = {{"region", o.region}, {"count", views.size()}, {"instances", list}};
        if (o.compare.empty()) out["not_offered"] = not_offered_in(catalog, o.region);
        return dump_json(out);
    }
    Table t;
    if (!o.compare.empty()) {
        // Side by side: one row per field, one column per instance.
        t.columns.push_back({"field", "field", false});
        for (const auto& v : views) t.columns.push_back({v.instance->name, v.instance->name, true});
        for (const auto& f : instance_fields()) {
            if (f.key == "name") continue;
            std::vector<Cell> row = {{f.label, f.key}};
            for (const auto& v : views) row.push_back(f.cell(v));
            t.rows.push_back(std::move(row));
        }
    } else {
        for (const auto& f : instance_fields())
            if (o.format == Format::csv || contains(kListColumns, f.key)) t.columns.push_back({f.header, f.key, f.key != "name" && f.key != "accelerator" && f.key != "interconnect"});
        for (const auto& v : views) {
            std::vector<Cell> row;
            for (const auto& f : instance_fields())
                if (o.format == Format::csv || contains(kListColumns, f.key)) row.push_back(f.cell(v));
            t.rows.push_back(std::move(row));
        }
    }
    std::string out = render_table(t, o.format);
    if (o.format == Format::csv) return out;
    std::string count = std::to_string(views.size()) + " instance type" + (views.size() == 1 ? "" : "s") + ", prices for " + o.region + ".";
    if (const auto absent = not_offered_in(catalog, o.region); o.compare.empty() && !absent.empty())
        count += "\nNot offered in " + o.region + " (" + std::to_string(absent.size()) + "): " + join(absent, ", ") + ".";
    return out + "\n" + count + "\n" + (o.compare.empty() ? kLegend : kUnknownHint);
}

// ---- show -----------------------------------------------------------------------------------

struct ShowOptions {
    std::string instance, region = "us-east-1";
    bool explain = false;
    Format format = Format::table;
};

std::string run_show(const Catalog& catalog, const ShowOptions& o) {
    const Instance& inst = require_instance(catalog, o.instance, "INSTANCE");
    require_region(catalog, o.region, "--region");
    const InstanceView v = make_view(catalog, inst, o.region);
    if (o.format == Format::json) return dump_json(show_json(catalog, v));
    std::string out;
    for (const auto& s : show_sections(catalog, v, o.explain)) {
        if (o.format == Format::md) {
            out += (out.empty() ? "" : "\n") + std::string("## ") + s.title + "\n\n";
            Table t{{{"field", "field", false}, {"value", "value", false}}, {}};
            for (const auto& kv : s.lines) t.rows.push_back({text_cell(kv.label), text_cell(kv.value)});
            out += render_markdown_table(t) + (s.body.empty() ? "" : "\n```\n" + s.body.substr(1) + "```\n");
        } else {
            out += (out.empty() ? "" : "\n") + s.title + "\n" + render_key_values(s.lines) + s.body;
        }
    }
    return out;
}

}  // namespace

Command register_catalog(CLI::App& parent) {
    auto o = std::make_shared<CatalogOptions>();
    CLI::App* app = parent.add_subcommand("catalog", "List EC2 accelerator instance types with price-normalised metrics");
    app->add_option("--family", o->families, "Only these families (comma-separated: p5,g6e)")->delimiter(',')->type_name("LIST");
    app->add_option("--accelerator", o->accelerators, "Only these accelerators (comma-separated: H100-SXM,L40S)")->delimiter(',')->type_name("LIST");
    app->add_option("--kind", o->kind, "Only this accelerator kind")->check(CLI::IsMember({"gpu", "trainium", "inferentia", "asic"}));
    app->add_option("--min-accel-memory-gib", o->min_accel_memory_gib, "Only instances with at least this much accelerator memory in total (GiB)")
        ->check(number_rule(NumberRule::non_negative));
    add_region_option(*app, o->region);
    std::vector<std::string> sort_names;
    for (const auto& [name, field] : kSortFields) sort_names.push_back(name);
    app->add_option("--sort", o->sort, "Sort by FIELD, ascending (unknown values last): " + join(sort_names, ", ") + ". Default: catalog order")
        ->check(CLI::IsMember(sort_names))
        ->type_name("FIELD");
    app->add_flag("--desc", o->desc, "Sort descending (unknown values still last)");
    app->add_option("--compare", o->compare, "Show these instances side by side, one row per field (filters and --sort are ignored)")
        ->delimiter(',')
        ->type_name("A,B,...");
    add_format_option(*app, o->format, {Format::table, Format::json, Format::csv, Format::md});
    app->footer(R"(Metrics: on-demand $/h divided by the accelerator count, accelerator memory (GiB), dense BF16
PFLOP/s and memory bandwidth (TB/s); fractional GPUs (g6f, gr6f) count their share of the chip.
Examples:
  gpuplan catalog --family p5,p6-b200 --sort usd_per_dense_bf16_pflop_hour
  gpuplan catalog --kind gpu --min-accel-memory-gib 640 --sort price
  gpuplan catalog --accelerator L40S,L4 --format csv
  gpuplan catalog --compare p5.48xlarge,p5en.48xlarge,trn2.48xlarge)");
    return {app, [o](const Catalog& c) { return run_catalog(c, *o); }};
}

Command register_show(CLI::App& parent) {
    auto o = std::make_shared<ShowOptions>();
    CLI::App* app = parent.add_subcommand("show", "Every fact of one instance type and its accelerator, with sources");
    app->add_option("INSTANCE", o->instance, "Instance type, e.g. p5.48xlarge (see `gpuplan catalog`)")->required();
    add_region_option(*app, o->region);
    app->add_flag("--explain", o->explain, "Show each derived metric's worked calculation and its inputs with their origins");
    add_format_option(*app, o->format, {Format::table, Format::json, Format::md});
    app->footer(R"(Shows the instance's facts (with the reason for each unknown), its accelerator, every price with
its date and source, corrections of figures in circulation that AWS contradicts, and the derived
metrics with their formulas.
Examples:
  gpuplan show p5.48xlarge
  gpuplan show g6e.xlarge --explain
  gpuplan show g7e.2xlarge --region us-east-2 --format json)");
    return {app, [o](const Catalog& c) { return run_show(c, *o); }};
}

}  // namespace gpuplan::cli
