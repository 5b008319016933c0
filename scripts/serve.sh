#!/usr/bin/env bash
# gpuplan: set up, build the browser planner (WebAssembly) and its docs, and serve them on localhost.
#
#   scripts/serve.sh            # http://127.0.0.1:8080/ (planner), /api/ (JS API), /docs/ (docs)
#   PORT=9000 scripts/serve.sh
#
# The site is static, assembled in build/site/ by scripts/docs_site.py (app at /, JS API at
# /api/, MkDocs site at /docs/): any static HTTP server works; it must be HTTP, since a file://
# page cannot fetch the .wasm.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
port="${PORT:-8080}"
bash scripts/setup.sh
mkdir -p build/logs
echo "[serve] building the wasm planner (log: build/logs/serve-build.log)"
if ! { cmake --preset wasm && cmake --build --preset wasm -j 2 --target gpuplan_web gpuplan_api; } > build/logs/serve-build.log 2>&1; then
  tail -n 40 build/logs/serve-build.log; exit 1
fi
echo "[serve] building the docs and assembling build/site (log: build/logs/serve-site.log)"
if ! python3 scripts/docs_site.py assemble --web build/wasm/web --out build/site > build/logs/serve-site.log 2>&1; then
  tail -n 40 build/logs/serve-site.log; exit 1
fi
echo
echo "  gpuplan planner: http://127.0.0.1:${port}/"
echo "  documentation:   http://127.0.0.1:${port}/docs/"
echo "  (Ctrl-C to stop)"
echo
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory build/site
