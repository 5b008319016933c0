// catalog.hpp — EC2 accelerator instance types and accelerator models, with provenance.
//
// The catalog is data, not code: assets/catalog/*.json (format in docs/catalog.md) is parsed
// and validated here. Every figure is either a value or unknown; an unknown figure is
// std::nullopt here, and its reason is kept in the record's `unknown` map, keyed by the
// field's path inside the record ("dense_tflops.fp8", "prices[1].usd_per_hour").
// A reason starting with "n/a: " means the feature does not exist on that hardware.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/calendar.hpp"
#include "gpuplan/pricing/purchase_option.hpp"

namespace gpuplan {

// asic: another vendor's AI accelerator (Habana Gaudi, Qualcomm Cloud AI 100): no CUDA, no
// Neuron, so the GPU models do not apply to it.
enum class AcceleratorKind { gpu, trainium, inferentia, asic };
enum class Interconnect { nvswitch, nvlink, pcie, neuronlink, none };

std::string_view to_string(AcceleratorKind kind);
std::string_view to_string(Interconnect link);

// Reasons for unknown figures, keyed by the field's path inside its record.
using UnknownReasons = std::map<std::string, std::string, std::less<>>;

struct DenseTflops {
    std::optional<double> fp32, tf32, bf16, fp16, fp8, fp4;
};

// A figure in circulation (or in the reference sheet the catalog is built from) that a checked
// source contradicts; the catalog holds the checked value (`aws`), this keeps the other one
// and why, to show users why checked facts matter.
struct Correction {
    std::string field, claimed, aws, claimed_by, verdict;
};

struct Accelerator {
    std::string name;  // "H100-SXM"; instances refer to it by this name
    AcceleratorKind kind = AcceleratorKind::gpu;
    std::string vendor, architecture;
    std::optional<std::string> compute_capability;  // GPUs only ("sm_90")
    std::optional<double> memory_gib;
    std::string memory_type;
    std::optional<double> memory_bandwidth_gb_per_s;
    DenseTflops dense_tflops;
    std::string flops_basis;                         // dense vs sparse, how obtained
    std::optional<std::string> peer_link;            // "NVLink", "NeuronLink-v2", ...
    std::optional<double> peer_link_gb_per_s;        // bidirectional, per chip
    std::optional<double> pcie_gen, pcie_lanes;
    std::optional<double> tdp_w;
    std::vector<std::string> families;
    std::string source_notes;
    std::vector<Correction> corrections;
    UnknownReasons unknown;
    std::string origin;  // file the record came from
};

// The catalog's prices per region: the on-demand list price and a typical spot price. Every
// other way to buy (reserved, Savings Plans, Capacity Blocks) is priced from them
// (pricing/purchase_options.hpp).
enum class PriceKind { on_demand, spot_typical };
inline constexpr PriceKind kPriceKinds[] = {PriceKind::on_demand, PriceKind::spot_typical};
// One spelling wherever people write or read a price kind (scenario, CLI, link, UI, results,
// catalog files): the key of the same way to buy among the purchase options ("on-demand",
// "spot"; pricing/purchase_option.hpp).
std::string_view to_string(PriceKind kind);         // "on-demand", "spot"
std::string_view price_kind_words(PriceKind kind);  // "on-demand", "spot (typical)"
std::optional<PriceKind> price_kind_named(std::string_view key);  // to_string's spelling
std::string price_kind_keys();                      // "\"on-demand\" or \"spot\"", for error messages
// The spelling of catalog, scenario and CLI before 2026-11-29 ("on_demand", "spot_typical").
// Files and links in the wild still use it, so readers take it too and say what it became
// (scenario/scenario_spellings.hpp); nothing writes it.
std::string_view old_spelling(PriceKind kind);
std::optional<PriceKind> price_kind_from_old_spelling(std::string_view key);

// A typical spot price is the median over a region's availability zones in one snapshot;
// the zones themselves spread around it (the cheapest zone is the one to ask for).
struct SpotZones {
    double count = 0;                 // zones with a spot price in the snapshot
    double min_usd_per_hour = 0, max_usd_per_hour = 0;
    // Zones the snapshot lists at the on-demand price, SkyPilot's placeholder for a zone with no
    // spot price: left out of the count, the spread and the median, and shown apart (issue 33).
    double at_on_demand = 0;
};

struct Price {
    std::string region;  // "us-east-1"
    PriceKind option = PriceKind::on_demand;
    std::optional<double> usd_per_hour;
    std::optional<SpotZones> zones;  // spot_typical only, when the source lists its zones
    std::string as_of;   // "2026-07-20" or "2026-07"
    std::string source;  // a key of Catalog::sources
    std::string note;
};

// A commitment's real price (an AWS price-list import, or a catalog file that carries one): paid
// at purchase, then billed every hour of the term. "reserved" means a Standard Reserved
// Instance; Convertible ones are not imported (docs/catalog.md, "Price overlays").
struct CommitmentPrice {
    std::string region;
    PurchaseOption option;      // a commitment with its term and payment
    double upfront_usd = 0;     // per instance, once per term
    double usd_per_hour = 0;    // recurring, every hour of the term
    std::string as_of, source, note;
    std::string origin;         // the file it came from

    // What one hour of the term costs with the upfront spread over it.
    double effective_usd_per_hour() const { return usd_per_hour + upfront_usd / term_hours(*option.term); }
};

// A Capacity Block's published price per instance-hour in one region (AWS's Capacity Blocks
// pricing page, docs/pricing.md "Capacity Blocks"). The whole block is paid when it is booked.
struct CapacityBlockPrice {
    std::string region;
    double usd_per_hour = 0;
    std::string as_of, source, note;
    std::string origin;  // the file it came from
};

// A source that lists a purchase option's offerings and shows this one absent: "AWS's Capacity
// Blocks page lists no g6e.xlarge", "no Standard Reserved Instance for p5.48xlarge in
// us-east-1". region "" covers every region where the type has no listed price of that kind.
struct OptionNotOffered {
    std::string region;
    PurchaseKind kind = PurchaseKind::capacity_block;  // reserved or capacity_block
    std::string as_of, source, note;
    std::string origin;
};

struct Instance {
    std::string name, family;
    std::optional<std::string> accelerator;       // name of an Accelerator
    std::optional<double> accelerator_count;      // fractional for g6f/gr6f slices
    std::optional<double> accelerator_memory_gib_each;
    std::optional<double> vcpus, memory_gib;
    std::optional<double> network_gbit_per_s;
    std::optional<double> efa_interfaces;
    std::optional<bool> gpudirect_rdma;
    std::optional<Interconnect> interconnect;
    std::optional<double> peer_gbit_per_s_per_accelerator;
    std::optional<double> local_nvme_gb, ebs_gbit_per_s;
    std::vector<Price> prices;
    std::vector<CommitmentPrice> commitment_prices;  // from a price overlay (built in: assets/catalog/purchase-options.json)
    std::vector<CapacityBlockPrice> capacity_block_prices;
    std::vector<OptionNotOffered> options_not_offered;
    std::string source_notes;
    std::vector<Correction> corrections;
    UnknownReasons unknown;
    std::string origin;

    // Accelerator memory of the whole instance (a fractional slice's memory is its own).
    std::optional<double> total_accelerator_memory_gib() const;
    const Price* find_price(std::string_view region, PriceKind option) const;
    const CommitmentPrice* find_commitment_price(std::string_view region, const PurchaseOption& option) const;
    const CapacityBlockPrice* find_capacity_block_price(std::string_view region) const;
    // The source that shows `kind` not offered for this type in `region`, or nullptr when no
    // source says (a price listed there wins over a type-wide absence).
    const OptionNotOffered* option_not_offered(std::string_view region, PurchaseKind kind) const;
    // Whether the catalog has any price entry (known or null) for this type in `region`: a type
    // the price snapshot does not list in a region is not offered there.
    bool offered_in(std::string_view region) const;
    std::vector<std::string> offered_regions() const;  // sorted
    // The catalog's reason for a null price of that kind in that region; "" when the price is
    // known or the catalog has no entry for it.
    std::string null_price_reason(std::string_view region, PriceKind option) const;
    // The reason a field is unknown, or "" when none is recorded.
    std::string unknown_reason(std::string_view field) const;
};

struct Source {
    std::string title;
    std::optional<std::string> url;
};

// Prices move: one older than this on the shell's date is flagged wherever it is cited.
inline constexpr int kStalePriceDays = 180;

struct Catalog {
    // The date ("YYYY-MM-DD") prices are judged fresh against: set by the shell from its clock
    // (the CLI honours GPUPLAN_TODAY); "" = not judged. The core reads no clock.
    std::string today;
    std::map<std::string, Source, std::less<>> sources;
    std::vector<Accelerator> accelerators;
    std::vector<Instance> instances;
    // "p5.48xlarge: replaced by user.json" — what a user's file changed, so nothing is silent.
    std::vector<std::string> overrides;

    const Accelerator* find_accelerator(std::string_view name) const;
    const Instance* find_instance(std::string_view name) const;
    // Every region with at least one price, sorted. Kept, not recomputed: every estimate and
    // quote checks its region against it, and a sweep makes thousands (docs/performance.md).
    const std::vector<std::string>& regions() const { return regions_; }
    bool has_region(std::string_view region) const;
    // Rebuilds what regions() and has_region() keep, after instances or prices changed
    // (load_catalog calls it; so must anything that edits a loaded catalog's prices).
    void index_regions();

private:
    std::vector<std::string> regions_;
};

// Days from a price's as_of date to `today` ("YYYY-MM-DD"). An as_of of "YYYY-MM" (a snapshot
// dated to the month) counts from the month's last day, so a price is never called older
// than it can be. nullopt when either date is malformed or today is "".
std::optional<int> price_age_days(std::string_view as_of, std::string_view today);
// "; 212 days old on 2027-02-17 (gpuplan flags prices over 180 days: check the current one)",
// or "" when the price is fresh or the catalog has no date to judge by.
std::string stale_price_note(const Catalog& catalog, std::string_view as_of);
inline std::string stale_price_note(const Catalog& catalog, const Price& price) { return stale_price_note(catalog, price.as_of); }
// utc_date (the UTC date of a clock reading, for a shell to put in Catalog::today): calendar.hpp.

// Throws InputError(where, shown_value, "a region with catalog prices: …") for a region with
// no price in the catalog. shown_value is the value as the user wrote it (quoted JSON or flag).
void require_region(const Catalog& catalog, const std::string& region, const std::string& where, const std::string& shown_value);

// A named JSON text: the built-in files, or a user's file.
struct CatalogDocument {
    std::string origin;  // shown in errors: "assets/catalog/instances.json", "my.json"
    std::string text;
    // Embedded at build time (cmake/EmbedJson.cmake). load_catalog reads its JSON without the
    // limits and duplicate-key check a user's file gets (json_reader.hpp): tests/core/
    // catalog_test.cpp applies them to every built-in catalog document, so each start need not
    // (docs/performance.md). Other readers of embedded documents ignore it.
    bool built_in = false;
};

// Parses and validates documents in order; a later document's record with the same name
// replaces the earlier one (recorded in Catalog::overrides). A document's top-level `prices`
// (a price overlay, as `gpuplan prices import` writes) sets prices of instances loaded by then:
// one that replaces a different price is listed in Catalog::overrides too. Throws InputError naming the
// document, JSON path, value and expectation for anything wrong, including cross-document
// problems (an instance naming an unknown accelerator, memory that disagrees with its
// accelerator, an interconnect that does not fit the accelerator count).
Catalog load_catalog(const std::vector<CatalogDocument>& documents);

// The catalog compiled into the program (assets/catalog/*.json at build time).
const std::vector<CatalogDocument>& builtin_catalog_documents();
Catalog load_builtin_catalog();

}  // namespace gpuplan
