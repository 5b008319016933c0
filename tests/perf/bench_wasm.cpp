// Wasm core benchmarks: Google Benchmark is not built for Emscripten here, so a small timing
// loop measures the same workloads (workloads.hpp) and prints JSON for scripts/bench.sh.
// Method: 1 warm-up, then repeat until at least 1 s of samples; report the median sample.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "workloads.hpp"

namespace {

template <class Fn>
double median_seconds_per_call(Fn&& fn) {
    using clock = std::chrono::steady_clock;
    fn();  // warm-up
    std::vector<double> samples;
    const auto start = clock::now();
    while (samples.size() < 5 || clock::now() - start < std::chrono::seconds(1)) {
        const auto t0 = clock::now();
        fn();
        samples.push_back(std::chrono::duration<double>(clock::now() - t0).count());
    }
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
}

}  // namespace

int main() {
    volatile std::size_t sink = 0;
    const double load_s = median_seconds_per_call([&] { sink = sink + gpuplan::perf::load_and_validate_catalog(); });
    const gpuplan::Catalog catalog = gpuplan::load_builtin_catalog();
    const std::size_t quotes_per_call = gpuplan::perf::quote_every_instance(catalog);
    const double quote_s = median_seconds_per_call([&] { sink = sink + gpuplan::perf::quote_every_instance(catalog); });
    const std::size_t options_per_sweep = gpuplan::perf::recommend_sweep(catalog);
    const double sweep_s = median_seconds_per_call([&] { sink = sink + gpuplan::perf::recommend_sweep(catalog); });
    const std::size_t training_options = gpuplan::perf::recommend_training_sweep(catalog);
    const double training_s = median_seconds_per_call([&] { sink = sink + gpuplan::perf::recommend_training_sweep(catalog); });
    const std::size_t region_options = gpuplan::perf::recommend_sweep_all_regions(catalog);
    const double regions_s = median_seconds_per_call([&] { sink = sink + gpuplan::perf::recommend_sweep_all_regions(catalog); });
    const std::size_t training_region_options = gpuplan::perf::recommend_training_sweep_all_regions(catalog);
    const double training_regions_s = median_seconds_per_call([&] { sink = sink + gpuplan::perf::recommend_training_sweep_all_regions(catalog); });
    const gpuplan::perf::FlatServingGrid grid = gpuplan::perf::flat_serving_grid(catalog);
    double cheapest = 0;
    const std::size_t flat_options = gpuplan::perf::flat_serving_ranking(grid, cheapest);
    // A few microseconds a call: timed 100 calls at a time, above the clock's resolution.
    const double flat_s = median_seconds_per_call([&] {
        for (int k = 0; k < 100; ++k) sink = sink + gpuplan::perf::flat_serving_ranking(grid, cheapest);
    }) / 100;
    std::printf("{\"recommend_sweep_all_regions_us\": %.3f, \"recommend_all_regions_options\": %zu, "
                "\"recommend_training_sweep_all_regions_us\": %.3f, \"recommend_training_all_regions_options\": %zu, "
                "\"flat_serving_ranking_us\": %.3f, \"flat_serving_ranking_options\": %zu, ",
                regions_s * 1e6, region_options, training_regions_s * 1e6, training_region_options, flat_s * 1e6, flat_options);
    const std::size_t cases = gpuplan::perf::validation_corpus(catalog);
    const double validation_s = median_seconds_per_call([&] { sink = sink + gpuplan::perf::validation_corpus(catalog); });
    const gpuplan::UsageSection usage = gpuplan::perf::usage_year_section();
    const gpuplan::UsageHistory year = gpuplan::synthesize_usage(*usage.history.synthetic);
    const double usage_evaluate_s = median_seconds_per_call([&] { sink = sink + gpuplan::perf::usage_year_evaluate(usage); });
    const double usage_plan_s = median_seconds_per_call([&] { sink = sink + gpuplan::perf::usage_year_plan(year, usage.request); });
    std::printf("\"usage_year_evaluate_us\": %.3f, \"usage_year_plan_us\": %.3f, \"usage_year_samples\": %zu, ", usage_evaluate_s * 1e6, usage_plan_s * 1e6,
                year.samples.size());
    std::printf("\"catalog_load_validate_us\": %.3f, \"price_evaluations_per_second\": %.1f, \"recommend_sweep_us\": %.3f, "
                "\"recommend_options_per_second\": %.1f, \"recommend_training_sweep_us\": %.3f, "
                "\"recommend_training_options_per_second\": %.1f, \"validation_corpus_us\": %.3f, \"validation_cases\": %zu}\n",
                load_s * 1e6, static_cast<double>(quotes_per_call) / quote_s, sweep_s * 1e6,
                static_cast<double>(options_per_sweep) / sweep_s, training_s * 1e6,
                static_cast<double>(training_options) / training_s, validation_s * 1e6, cases);
    return 0;
}
