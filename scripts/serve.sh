#!/usr/bin/env bash
# gpuplan: set up, build the browser planner (WebAssembly) and its docs, and serve them on localhost.
#
#   scripts/serve.sh            # http://127.0.0.1:8080/ (planner), /api/ (JS API), /docs/ (docs)
#   PORT=9000 scripts/serve.sh
#
# The site is static, assembled in build/site/ by scripts/docs_site.py (app at /, JS API at
# /api/, MkDocs site at /docs/), with precompressed .br/.gz siblings (scripts/precompress.js).
# scripts/static_server.js sends those to browsers that accept them; any static HTTP server
# works otherwise (it must be HTTP, since a file:// page cannot fetch the .wasm).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
port="${PORT:-8080}"
bash scripts/setup.sh
mkdir -p build/logs
echo "[serve] building the wasm planner (log: build/logs/serve-build.log)"
if ! { cmake --preset wasm && cmake --build --preset wasm -j 2 --target gpuplan_web gpuplan_api gpuplan_web_compressed; } > build/logs/serve-build.log 2>&1; then
  tail -n 40 build/logs/serve-build.log; exit 1
fi
echo "[serve] building the docs and assembling build/site (log: build/logs/serve-site.log)"
if ! python3 scripts/docs_site.py assemble --web build/wasm/web --out build/site > build/logs/serve-site.log 2>&1; then
  tail -n 40 build/logs/serve-site.log; exit 1
fi
# The docs pages too (the app's files arrive precompressed from the build).
node scripts/precompress.js build/site >> build/logs/serve-site.log
echo
echo "  gpuplan planner: http://127.0.0.1:${port}/"
echo "  documentation:   http://127.0.0.1:${port}/docs/"
echo "  (Ctrl-C to stop)"
echo
exec node scripts/static_server.js --port "$port" --host 127.0.0.1 build/site
