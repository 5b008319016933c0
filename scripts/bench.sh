#!/usr/bin/env bash
# gpuplan: core benchmarks, native (Google Benchmark, release build) and wasm (node), with
# the wasm/native ratio. Writes bench-results/core-latest.json and prints a markdown table
# for docs/performance.md.
#
#   scripts/bench.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/setup.sh >/dev/null
mkdir -p build/logs bench-results
{ cmake --preset release && cmake --build --preset release -j 2 --target gpuplan_bench_native gpuplan; } > build/logs/bench-native-build.log 2>&1
{ cmake --preset wasm && cmake --build --preset wasm -j 2 --target gpuplan_bench_wasm; } > build/logs/bench-wasm-build.log 2>&1
echo "[bench] native (Google Benchmark, 5 repetitions, median)"
build/release/tests/perf/gpuplan_bench_native --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_out=bench-results/core-native.json --benchmark_out_format=json >/dev/null
echo "[bench] the CLI's start: gpuplan --version and gpuplan price against true (median of 21 runs each)"
python3 - > bench-results/cli-start.json <<'PY'
import json, statistics, subprocess, time
def median_ms(cmd, runs=21):
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        samples.append((time.perf_counter() - t0) * 1000)
    return statistics.median(samples)
cli = "build/release/gpuplan"
print(json.dumps({"true_ms": median_ms(["true"]), "version_ms": median_ms([cli, "--version"]),
                  "price_ms": median_ms([cli, "price", "p5.48xlarge"])}))
PY
echo "[bench] wasm (node $(node --version))"
node --no-experimental-fetch build/wasm/tests/perf/gpuplan_bench_wasm.js > bench-results/core-wasm.json
python3 - <<'PY'
import json, datetime, platform, os
native = json.load(open("bench-results/core-native.json"))
wasm = json.load(open("bench-results/core-wasm.json"))
cli = json.load(open("bench-results/cli-start.json"))
med = {b["run_name"]: b for b in native["benchmarks"] if b.get("aggregate_name") == "median"}
load_us = med["catalog_load_validate"]["real_time"]
evals = med["price_evaluations"]["items_per_second"]
sweep_us = med["recommend_sweep"]["real_time"]
sweep_rate = med["recommend_sweep"]["items_per_second"]
train_us = med["recommend_training_sweep"]["real_time"]
train_rate = med["recommend_training_sweep"]["items_per_second"]
valid_us = med["validation_corpus"]["real_time"]
regions_us = med["recommend_sweep_all_regions"]["real_time"]
train_regions_us = med["recommend_training_sweep_all_regions"]["real_time"]
flat_us = med["flat_serving_ranking"]["real_time"]
usage_eval_us = med["usage_year_evaluate"]["real_time"]
usage_plan_us = med["usage_year_plan"]["real_time"]
out = {
  "date": datetime.date.today().isoformat(),
  "machine": f'{native["context"].get("num_cpus")} CPUs @ {native["context"].get("mhz_per_cpu")} MHz, {platform.machine()}',
  "native": {"catalog_load_validate_us": load_us, "price_evaluations_per_second": evals,
             "recommend_sweep_us": sweep_us, "recommend_options_per_second": sweep_rate,
             "recommend_training_sweep_us": train_us, "recommend_training_options_per_second": train_rate,
             "recommend_sweep_all_regions_us": regions_us, "recommend_training_sweep_all_regions_us": train_regions_us,
             "flat_serving_ranking_us": flat_us,
             "validation_corpus_us": valid_us, "usage_year_evaluate_us": usage_eval_us, "usage_year_plan_us": usage_plan_us},
  "cli_start": cli,
  "wasm": wasm,
  "wasm_over_native": {
    "catalog_load_validate_time": wasm["catalog_load_validate_us"] / load_us,
    "price_evaluations_throughput": wasm["price_evaluations_per_second"] / evals,
    "recommend_sweep_time": wasm["recommend_sweep_us"] / sweep_us,
    "recommend_training_sweep_time": wasm["recommend_training_sweep_us"] / train_us,
    "recommend_sweep_all_regions_time": wasm["recommend_sweep_all_regions_us"] / regions_us,
    "recommend_training_sweep_all_regions_time": wasm["recommend_training_sweep_all_regions_us"] / train_regions_us,
    "flat_serving_ranking_time": wasm["flat_serving_ranking_us"] / flat_us,
    "validation_corpus_time": wasm["validation_corpus_us"] / valid_us,
    "usage_year_evaluate_time": wasm["usage_year_evaluate_us"] / usage_eval_us,
    "usage_year_plan_time": wasm["usage_year_plan_us"] / usage_plan_us,
  },
  # How far each ranking is from its bare arithmetic (workloads.hpp: flat_serving_ranking).
  "serving_ranking_over_flat_arithmetic": {"native": regions_us / flat_us,
                                           "wasm": wasm["recommend_sweep_all_regions_us"] / wasm["flat_serving_ranking_us"]},
}
json.dump(out, open("bench-results/core-latest.json", "w"), indent=2)
print(f'| figure | native | wasm (node) | wasm / native |')
print(f'|---|---|---|---|')
print(f'| catalog load + validate | {load_us:,.0f} µs | {wasm["catalog_load_validate_us"]:,.0f} µs | {out["wasm_over_native"]["catalog_load_validate_time"]:.2f}x time |')
print(f'| recommender sweep (whole catalog, one workload) | {sweep_us:,.0f} µs ({sweep_rate:,.0f} options/s) | {wasm["recommend_sweep_us"]:,.0f} µs ({wasm["recommend_options_per_second"]:,.0f} options/s) | {out["wasm_over_native"]["recommend_sweep_time"]:.2f}x time |')
print(f'| training recommender sweep (whole catalog x 1-8 nodes) | {train_us:,.0f} µs ({train_rate:,.0f} options/s) | {wasm["recommend_training_sweep_us"]:,.0f} µs ({wasm["recommend_training_options_per_second"]:,.0f} options/s) | {out["wasm_over_native"]["recommend_training_sweep_time"]:.2f}x time |')
print(f'| serving ranking across regions ({wasm["recommend_all_regions_options"]:,} options) | {regions_us/1000:,.1f} ms | {wasm["recommend_sweep_all_regions_us"]/1000:,.1f} ms | {out["wasm_over_native"]["recommend_sweep_all_regions_time"]:.2f}x time |')
print(f'| the serving ranking as flat arithmetic ({wasm["flat_serving_ranking_options"]:,} options; the limit: no strings, no look-ups) | {flat_us:,.1f} µs (ranking {regions_us/flat_us:,.0f}x this) | {wasm["flat_serving_ranking_us"]:,.1f} µs (ranking {out["serving_ranking_over_flat_arithmetic"]["wasm"]:,.0f}x this) | {out["wasm_over_native"]["flat_serving_ranking_time"]:.2f}x time |')
print(f'| training ranking across regions ({wasm["recommend_training_all_regions_options"]:,} options) | {train_regions_us/1000:,.1f} ms | {wasm["recommend_training_sweep_all_regions_us"]/1000:,.1f} ms | {out["wasm_over_native"]["recommend_training_sweep_all_regions_time"]:.2f}x time |')
print(f'| validation corpus (`gpuplan validate`: {wasm["validation_cases"]} cases loaded and run) | {valid_us:,.0f} µs | {wasm["validation_corpus_us"]:,.0f} µs | {out["wasm_over_native"]["validation_corpus_time"]:.2f}x time |')
print(f'| price evaluations | {evals:,.0f} /s | {wasm["price_evaluations_per_second"]:,.0f} /s | {out["wasm_over_native"]["price_evaluations_throughput"]:.2f}x throughput |')
print(f'| usage year, {wasm["usage_year_samples"]:,} five-minute samples: generate + cost every commitment level + result document | {usage_eval_us/1000:,.1f} ms | {wasm["usage_year_evaluate_us"]/1000:,.1f} ms | {out["wasm_over_native"]["usage_year_evaluate_time"]:.2f}x time |')
print(f'| usage year: the commitment analysis alone (load-duration curve, every level) | {usage_plan_us/1000:,.1f} ms | {wasm["usage_year_plan_us"]/1000:,.1f} ms | {out["wasm_over_native"]["usage_year_plan_time"]:.2f}x time |')
print(f'| `gpuplan --version` (process start; `true` takes {cli["true_ms"]:.1f} ms) | {cli["version_ms"]:.1f} ms ({cli["version_ms"]/cli["true_ms"]:.1f}x `true`) | | |')
print(f'| `gpuplan price p5.48xlarge` (start, catalog load, 21 purchase options, table) | {cli["price_ms"]:.1f} ms | | |')
PY
