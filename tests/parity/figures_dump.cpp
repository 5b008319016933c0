// Prints every figure the core computes from built-in data, one per line, at full precision:
// catalog metrics of every instance in every region, every purchase option of every priced
// instance, and every example scenario. Built natively and for wasm; parity_check.cmake
// runs both and requires byte-identical output, so the browser shows the CLI's numbers.
#include <cstdio>
#include <string>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/catalog/catalog_metrics.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/scenario/scenario_result.hpp"
#include "gpuplan/workload/compute.hpp"
#include "gpuplan/workload/memory.hpp"
#include "gpuplan/workload/model.hpp"

using namespace gpuplan;

namespace {
void line(const std::string& key, const Figure& f) {
    // %.17g round-trips a double exactly, so equal text means equal numbers.
    if (f.value)
        std::printf("%s %.17g\n", key.c_str(), *f.value);
    else
        std::printf("%s unknown\n", key.c_str());
}
}  // namespace

int main() {
    const Catalog catalog = load_builtin_catalog();
    std::size_t count = 0;
    for (const auto& region : catalog.regions())
        for (const auto& inst : catalog.instances) {
            for (const auto& f : instance_metrics(catalog, inst, region).all()) line(region + " " + inst.name + " " + f.name, f), ++count;
            QuoteRequest q;
            q.instance = inst.name;
            q.region = region;
            try {
                for (const auto& quote : quote_purchase_options(catalog, q)) {
                    if (!quote.available) continue;
                    for (const auto* f : {&quote.effective_usd_per_hour, &quote.upfront_usd, &quote.cost_usd, &quote.saving_vs_on_demand})
                        line(region + " " + inst.name + " " + quote.key + " " + f->name, *f), ++count;
                }
            } catch (const InputError&) {
                std::printf("%s %s no on-demand price\n", region.c_str(), inst.name.c_str());
            }
        }
    for (const auto& doc : builtin_scenario_documents()) {
        const auto result = evaluate_scenario(parse_scenario(doc.text, doc.origin, catalog), catalog);
        std::printf("%s %s\n", doc.origin.c_str(), result.dump().c_str());
        ++count;
    }
    for (const auto& m : builtin_models()) {
        const ParameterCount c = count_parameters(m);
        line(m.name + " parameters_total", c.total_figure), line(m.name + " parameters_active", c.active_figure);
        for (int stage = 0; stage <= 3; ++stage) {
            TrainingMemoryRequest t;
            t.model = &m;
            t.data_parallel = 8;
            t.zero_stage = stage;
            t.recompute = Recompute::selective;
            line(m.name + " zero" + std::to_string(stage) + " total_per_gpu_gb", training_memory(t).total_per_gpu_gb);
        }
        InferenceMemoryRequest i;
        i.model = &m;
        i.batch = 16;
        line(m.name + " inference total_gb", inference_memory(i).total_gb);
        line(m.name + " decode tokens/s", decode_roofline(m, 2, 2, 16, 4096, 1, {3350, InputOrigin::user, ""}, default_bandwidth_efficiency())
                                              .tokens_per_second_expected);
        count += 8;
    }
    std::printf("figures %zu\n", count);
    return 0;
}
