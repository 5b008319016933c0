// Native core benchmarks (Google Benchmark). Run by scripts/bench.sh, which writes the
// results to bench-results/ and compares them with the wasm harness (bench_wasm.cpp).
#include <benchmark/benchmark.h>

#include "workloads.hpp"

namespace {

void catalog_load_validate(benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(gpuplan::perf::load_and_validate_catalog());
}
BENCHMARK(catalog_load_validate)->Unit(benchmark::kMicrosecond);

void price_evaluations(benchmark::State& state) {
    const gpuplan::Catalog catalog = gpuplan::load_builtin_catalog();
    std::size_t quotes = 0;
    for (auto _ : state) quotes += gpuplan::perf::quote_every_instance(catalog);
    // items/s = purchase-option evaluations per second
    state.SetItemsProcessed(static_cast<int64_t>(quotes));
}
BENCHMARK(price_evaluations)->Unit(benchmark::kMicrosecond);

void recommend_sweep(benchmark::State& state) {
    const gpuplan::Catalog catalog = gpuplan::load_builtin_catalog();
    std::size_t options = 0;
    for (auto _ : state) options += gpuplan::perf::recommend_sweep(catalog);
    // items/s = options (instance x purchase option) evaluated per second
    state.SetItemsProcessed(static_cast<int64_t>(options));
}
BENCHMARK(recommend_sweep)->Unit(benchmark::kMicrosecond);

void recommend_training_sweep(benchmark::State& state) {
    const gpuplan::Catalog catalog = gpuplan::load_builtin_catalog();
    std::size_t options = 0;
    for (auto _ : state) options += gpuplan::perf::recommend_training_sweep(catalog);
    state.SetItemsProcessed(static_cast<int64_t>(options));
}
BENCHMARK(recommend_training_sweep)->Unit(benchmark::kMicrosecond);

void recommend_sweep_all_regions(benchmark::State& state) {
    const gpuplan::Catalog catalog = gpuplan::load_builtin_catalog();
    std::size_t options = 0;
    for (auto _ : state) options += gpuplan::perf::recommend_sweep_all_regions(catalog);
    state.SetItemsProcessed(static_cast<int64_t>(options));
}
BENCHMARK(recommend_sweep_all_regions)->Unit(benchmark::kMicrosecond);

void recommend_training_sweep_all_regions(benchmark::State& state) {
    const gpuplan::Catalog catalog = gpuplan::load_builtin_catalog();
    std::size_t options = 0;
    for (auto _ : state) options += gpuplan::perf::recommend_training_sweep_all_regions(catalog);
    state.SetItemsProcessed(static_cast<int64_t>(options));
}
BENCHMARK(recommend_training_sweep_all_regions)->Unit(benchmark::kMicrosecond);

// The serving ranking's flat-arithmetic limit (workloads.hpp): the yardstick for the one above.
void flat_serving_ranking(benchmark::State& state) {
    const gpuplan::perf::FlatServingGrid grid = gpuplan::perf::flat_serving_grid(gpuplan::load_builtin_catalog());
    std::size_t options = 0;
    double cheapest = 0;
    for (auto _ : state) {
        options += gpuplan::perf::flat_serving_ranking(grid, cheapest);
        benchmark::DoNotOptimize(cheapest);
    }
    state.SetItemsProcessed(static_cast<int64_t>(options));
}
BENCHMARK(flat_serving_ranking)->Unit(benchmark::kMicrosecond);

void validation_corpus(benchmark::State& state) {
    const gpuplan::Catalog catalog = gpuplan::load_builtin_catalog();
    std::size_t cases = 0;
    for (auto _ : state) cases += gpuplan::perf::validation_corpus(catalog);
    state.SetItemsProcessed(static_cast<int64_t>(cases));  // cases per second
}
BENCHMARK(validation_corpus)->Unit(benchmark::kMicrosecond);

void usage_year_evaluate(benchmark::State& state) {
    const gpuplan::UsageSection section = gpuplan::perf::usage_year_section();
    std::size_t samples = 0;
    for (auto _ : state) samples += gpuplan::perf::usage_year_evaluate(section);
    state.SetItemsProcessed(static_cast<int64_t>(samples));  // samples per second
}
BENCHMARK(usage_year_evaluate)->Unit(benchmark::kMicrosecond);

void usage_year_plan(benchmark::State& state) {
    const gpuplan::UsageSection section = gpuplan::perf::usage_year_section();
    const gpuplan::UsageHistory history = gpuplan::synthesize_usage(*section.history.synthetic);
    std::size_t samples = 0;
    for (auto _ : state) samples += gpuplan::perf::usage_year_plan(history, section.request);
    state.SetItemsProcessed(static_cast<int64_t>(samples));
}
BENCHMARK(usage_year_plan)->Unit(benchmark::kMicrosecond);

void serving_year_of_traffic(benchmark::State& state) {
    const gpuplan::Catalog catalog = gpuplan::load_builtin_catalog();
    double requests = 0;
    for (auto _ : state) requests += gpuplan::perf::serving_year_of_traffic(catalog);
    state.SetItemsProcessed(static_cast<int64_t>(requests));  // requests simulated per second
}
BENCHMARK(serving_year_of_traffic)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
