#!/usr/bin/env bash
# perf_budget.sh — the browser app's budgets (transfer size, JS API size, first frame, CPU
# time per frame per view), measured in headless Chromium on this machine; figures go to
# docs/performance.md by hand. Builds nothing: point it at a built wasm web folder.
#
#   scripts/perf_budget.sh [WEB_DIR] [OUT_JSON]     # defaults: build/wasm/web, build/perf_budget.json
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
web_dir="${1:-$root/build/wasm/web}"
out="${2:-$root/build/perf_budget.json}"
if [ ! -f "$web_dir/gpuplan.wasm" ]; then
  echo "perf_budget: $web_dir/gpuplan.wasm not found; build the wasm preset first" >&2
  echo "  (cmake --preset wasm && cmake --build --preset wasm --target gpuplan_web gpuplan_api)" >&2
  exit 2
fi
if [ ! -d "$root/tests/browser/node_modules/playwright-core" ]; then
  echo "perf_budget: playwright-core missing; run scripts/setup.sh" >&2
  exit 2
fi
exec node "$root/scripts/perf_budget.js" "$web_dir" "$out" "${LOADS:-5}"
