#!/usr/bin/env bash
# gpuplan: set up, build every target and run every test. Ends with one summary line.
#
#   scripts/test.sh
#
# Builds the wasm preset first (core tests under node, the browser page), then the native
# `dev` preset pointed at it, and runs one ctest over everything: core unit tests natively
# and under node, native/wasm figure parity, CLI golden tests, the catalog against the
# reference sheets, and the Playwright test of the page in headless Chromium. Then one clang
# build with ASan + UBSan + libFuzzer instrumentation (asan preset) runs the same suite and the
# fuzz targets (FUZZ_SECONDS per target, default 30). The bench preset is built on its own
# (scripts/check_bench_build.sh) between the two. The summary counts every run.
# Build logs go to build/logs/; a failing step prints its log's tail. Each step prints its
# seconds, and the last lines list them all (CI keeps the whole run under 35 minutes).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mkdir -p build/logs
times=()
step() {  # step NAME COMMAND...: run quietly, show the log's tail on failure
  local name=$1; shift
  local t0=$SECONDS
  if ! "$@" > "build/logs/$name.log" 2>&1; then
    echo "[test] $name FAILED (log: build/logs/$name.log)"; tail -n 40 "build/logs/$name.log"; exit 1
  fi
  echo "[test] $name ok ($((SECONDS - t0)) s)"
  times+=("$name $((SECONDS - t0))")
}

# Unity builds (CMake batches 8 source files of a target into one translation unit): each batch
# instantiates nlohmann_json's, CLI11's and {fmt}'s templates once instead of once per file,
# which takes about half off every build here (docs/architecture.md, "Build times"). The
# presets stay file by file, for quick rebuilds while editing.
unity=(-DCMAKE_UNITY_BUILD=ON)

t_setup=$SECONDS
bash scripts/setup.sh
times+=("setup $((SECONDS - t_setup))")
step configure-wasm cmake --preset wasm "${unity[@]}"
step build-wasm cmake --build --preset wasm -j 2
step configure-native cmake --preset dev "${unity[@]}" -DGPUPLAN_WASM_BUILD_DIR="$root/build/wasm" -DGPUPLAN_WEB_DIR="$root/build/wasm/web"
step build-native cmake --build --preset dev -j 2
# The bench preset as an EC2 user builds it: GCC 11, no GUI or test tools on any include path,
# a case run, cpack's .deb and .tar.gz (docs/benchmarks.md, "On a Deep Learning AMI").
step build-bench bash scripts/check_bench_build.sh build/bench-ci -DCMAKE_BUILD_TYPE=Debug -DGPUPLAN_BENCH_ALL_CUDA_ARCHS=OFF -DCMAKE_CUDA_ARCHITECTURES=75 "${unity[@]}"

# One ctest run over every test, native and wasm.
rc=0
run_ctest() {  # run_ctest LOG CTEST-ARG...: a ctest run whose results join the summary
  local log=$1; shift
  local t0=$SECONDS
  set +e
  ctest "$@" 2>&1 | tee "build/logs/$log"
  local r=${PIPESTATUS[0]}
  set -e
  [ "$r" -eq 0 ] || rc=$r
  times+=("${log%.log} $((SECONDS - t0))")
}
run_ctest ctest.log --preset dev -j 2

# The same suite, and the libFuzzer targets, in one clang build with ASan + UBSan (no CUDA,
# no wasm/browser tests): each fuzz corpus as a regression test and FUZZ_SECONDS (default 30)
# of fuzzing per target (docs/reliability.md).
step configure-asan cmake --preset asan "${unity[@]}" -DGPUPLAN_FUZZ_SECONDS="${FUZZ_SECONDS:-30}"
step build-asan cmake --build --preset asan -j 2
run_ctest ctest-asan.log --preset asan -j 2
cat build/asan/fuzz-stats/*.txt 2>/dev/null || true  # "fuzz NAME: N execs in S s, corpus A -> B inputs"

echo "[test] seconds per step: ${times[*]} (all $SECONDS)"
# One summary over every ctest run above: the last thing printed.
logs=(build/logs/ctest.log build/logs/ctest-asan.log)
# A test that does not apply here (the CUDA run without a GPU) says "***Skipped": counted apart,
# never as passed.
passed=$(cat "${logs[@]}" | grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .* Passed' || true)
skipped=$(cat "${logs[@]}" | grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*\*\*\*Skipped' || true)
failed=$(cat "${logs[@]}" | grep -E '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*(\*\*\*|Failed|Exception|Timeout)' | grep -cv '\*\*\*Skipped' || true)
echo "tests: $passed passed, $failed failed, $skipped skipped"
exit "$rc"
