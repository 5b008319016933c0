#!/usr/bin/env bash
# gpuplan: set up, build the browser planner (WebAssembly) and serve it on localhost.
#
#   scripts/serve.sh            # http://127.0.0.1:8080/
#   PORT=9000 scripts/serve.sh
#
# The page is static (index.html + gpuplan.js + gpuplan.wasm): any static HTTP server works;
# it must be HTTP, since a file:// page cannot fetch the .wasm.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
port="${PORT:-8080}"
bash scripts/setup.sh
mkdir -p build/logs
echo "[serve] building the wasm planner (log: build/logs/serve-build.log)"
if ! { cmake --preset wasm && cmake --build --preset wasm -j 2 --target gpuplan_web; } > build/logs/serve-build.log 2>&1; then
  tail -n 40 build/logs/serve-build.log; exit 1
fi
echo
echo "  gpuplan planner: http://127.0.0.1:${port}/"
echo "  (Ctrl-C to stop)"
echo
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory build/wasm/web
