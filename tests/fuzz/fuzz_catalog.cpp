// fuzz_catalog — the catalog loader (load_catalog) on a user's catalog file. The file is
// loaded on its own, as a whole catalog: over the built-in catalog (as `gpuplan --catalog FILE`
// does) one load took ~75 ms under ASan, 13 execs/s, too slow to fuzz; `fuzz_cli` covers
// that path with the test data files. The seeds are self-contained (accelerators included).
//
// Round trip: the catalog has no writer, so an accepted file is re-serialised as JSON
// (nlohmann dump, minified) and loaded again; both loads must give the same derived figures
// for every instance (the price-normalised metrics with their explanations, in every region
// the instance has a price in), and every figure must be finite.
#include <cstdint>

#include "fuzz_common.hpp"
#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/catalog/catalog_metrics.hpp"
#include "gpuplan/input_error.hpp"

using namespace gpuplan;

namespace {

// Issue 34's strictness on what was accepted: clean names (no "p5.48xlarge\n" beside
// "p5.48xlarge") and dates the calendar has.
void require_strict(const Catalog& catalog) {
    for (const Instance& instance : catalog.instances) {
        fuzz::require_clean_name(instance.name, "instance name");
        for (const Price& p : instance.prices) {
            fuzz::require_clean_name(p.region, instance.name + " price region");
            fuzz::require_calendar_date(p.as_of, instance.name + " price as_of");
        }
    }
    for (const Accelerator& a : catalog.accelerators) fuzz::require_clean_name(a.name, "accelerator name");
}

std::string derived_figures(const Catalog& catalog) {
    require_strict(catalog);
    nlohmann::json all = nlohmann::json::object();
    for (const Instance& instance : catalog.instances) {
        std::vector<std::string> regions{"us-east-1"};
        for (const Price& p : instance.prices) regions.push_back(p.region);
        for (const std::string& region : regions)
            all[instance.name + "@" + region] = to_json(instance_metrics(catalog, instance, region).all());
    }
    fuzz::require_finite(all);
    all["overrides"] = catalog.overrides;
    return all.dump();
}

Catalog load_with(std::string text) { return load_catalog({{"fuzz.json", std::move(text)}}); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(fuzz::as_text(data, size));
    std::string first;
    try {
        first = derived_figures(load_with(text));
    } catch (const InputError&) {
        return 0;  // refused with a message
    }
    fuzz::require_no_duplicate_keys(text);
    const std::string rewritten = nlohmann::json::parse(text).dump();
    try {
        if (derived_figures(load_with(rewritten)) != first) fuzz::finding("catalog and its re-serialised form differ", text);
    } catch (const InputError& e) {
        fuzz::finding("catalog accepted, its re-serialised form refused", e.what());
    }
    return 0;
}
