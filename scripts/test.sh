#!/usr/bin/env bash
# gpuplan: set up, build every target and run every test. Ends with one summary line.
#
#   scripts/test.sh
#
# Builds the wasm preset first (core tests under node, the browser page), then the native
# `dev` preset pointed at it, and runs one ctest over everything: core unit tests natively
# and under node, native/wasm figure parity, CLI golden tests, the catalog against the
# reference sheets, and the Playwright test of the page in headless Chromium.
# Build logs go to build/logs/; a failing step prints its log's tail.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mkdir -p build/logs
step() {  # step NAME COMMAND...: run quietly, show the log's tail on failure
  local name=$1; shift
  local t0=$SECONDS
  if ! "$@" > "build/logs/$name.log" 2>&1; then
    echo "[test] $name FAILED (log: build/logs/$name.log)"; tail -n 40 "build/logs/$name.log"; exit 1
  fi
  echo "[test] $name ok ($((SECONDS - t0)) s)"
}

bash scripts/setup.sh
step configure-wasm cmake --preset wasm
step build-wasm cmake --build --preset wasm -j 2
step configure-native cmake --preset dev -DGPUPLAN_WASM_BUILD_DIR="$root/build/wasm" -DGPUPLAN_WEB_DIR="$root/build/wasm/web"
step build-native cmake --build --preset dev -j 2

# One ctest run over every test, native and wasm; its summary is the last thing printed.
set +e
ctest --preset dev -j 2 2>&1 | tee build/logs/ctest.log
rc=${PIPESTATUS[0]}
set -e
passed=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .* Passed' build/logs/ctest.log || true)
failed=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*(\*\*\*|Failed|Exception|Timeout)' build/logs/ctest.log || true)
echo "tests: $passed passed, $failed failed"
exit "$rc"
