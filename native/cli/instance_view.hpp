// instance_view.hpp — one catalog instance as the CLI shows it: its facts as cells, its
// prices with their unknown reasons, and its derived metrics (shared by `catalog` and `show`).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/catalog/catalog_metrics.hpp"
#include "output.hpp"

namespace gpuplan::cli {

// A price or the reason it is unknown in that region.
struct PriceFact {
    std::optional<double> usd_per_hour;
    std::string reason;        // why unknown ("" when known)
    const Price* entry = nullptr;
};
PriceFact price_fact(const Instance& instance, const std::string& region, PriceKind option);

struct InstanceView {
    const Instance* instance = nullptr;
    const Accelerator* accelerator = nullptr;  // null when unknown
    std::string region;
    PriceFact on_demand, spot;
    InstanceMetrics metrics;
};
InstanceView make_view(const Catalog& catalog, const Instance& instance, const std::string& region);

// A field of the catalog listing / comparison: a CSV key, a short header, a long label.
struct Field {
    std::string key, header, label;
    std::function<Cell(const InstanceView&)> cell;
    std::function<std::optional<double>(const InstanceView&)> sort_value;  // empty: not sortable by number
};
const std::vector<Field>& instance_fields();
const Field* find_field(const std::string& key);

// Summary JSON of one instance (facts, prices, metrics with explanations; nulls with reasons).
nlohmann::json view_json(const InstanceView& view);

// A fact or "unknown"/"n/a" when the catalog says why it is missing.
Cell fact_cell(const std::optional<double>& value, const Instance& instance, const std::string& field,
               std::string (*format)(double) = quantity);

// `gpuplan show`: the instance in titled sections of label/value lines (facts, accelerator,
// prices with their sources, corrections, metrics; explanations under them with `explain`).
struct Section {
    std::string title;
    std::vector<KeyValue> lines;
    std::string body;  // free text after the lines (explanations)
};
std::vector<Section> show_sections(const Catalog& catalog, const InstanceView& view, bool explain);
nlohmann::json show_json(const Catalog& catalog, const InstanceView& view);

}  // namespace gpuplan::cli
