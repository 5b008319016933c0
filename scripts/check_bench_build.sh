#!/usr/bin/env bash
# The bench preset as a Deep Learning AMI user builds it (docs/benchmarks.md, "three commands"),
# checked in CI: GCC 11 (Ubuntu 22.04's compiler) when installed, the GUI and test tools off,
# no compile command reaching Dear ImGui, SDL2, OpenGL, Emscripten, Catch2 or Google Benchmark
# headers, the binary running a case, and cpack making the .deb and the .tar.gz.
#
#   scripts/check_bench_build.sh [BUILD_DIR] [CMAKE-ARG...]     (default build/bench)
#
# CI passes -DCMAKE_BUILD_TYPE=Debug -DGPUPLAN_BENCH_ALL_CUDA_ARCHS=OFF -DCMAKE_CUDA_ARCHITECTURES=75
# to keep the step short: the optimiser and the full architecture list are the dev build's to
# check (it compiles the same CUDA sources for every architecture the nvcc supports).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
dir="${1:-build/bench}"
shift || true
compiler=()
if command -v g++-11 >/dev/null; then
  compiler=(-DCMAKE_CXX_COMPILER=g++-11 -DCMAKE_CUDA_HOST_COMPILER=g++-11)
fi
# GPUPLAN_THIRD_PARTY_DIR points nowhere: the build must not need anything setup.sh fetched.
cmake --preset bench -B "$dir" "${compiler[@]}" -DGPUPLAN_THIRD_PARTY_DIR="$root/build/no-third-party" "$@"
cmake --build "$dir" -j 2
python3 - "$dir/compile_commands.json" <<'PY'
import json, re, sys
commands = json.load(open(sys.argv[1]))
banned = re.compile(r"imgui|SDL2|/GL\b|emscripten|catch2|benchmark/include|third_party", re.I)
bad = [(c["file"], m.group(0)) for c in commands for m in [banned.search(c["command"])] if m]
for f, what in bad:
    print(f"bench preset: {f} is compiled with '{what}' on its command line")
print(f"bench preset: {len(commands)} compile commands, {len(bad)} reaching GUI, wasm or test-tool headers")
sys.exit(1 if bad else 0)
PY
"$dir/gpuplan" bench run --backend cpu h2d_pinned --size 1MiB --samples 2 --json - > "$dir/smoke.json"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['records'][0]['status']=='ok', d; print('bench preset: gpuplan bench run ok')" "$dir/smoke.json"
(cd "$dir" && cpack > cpack.log)
ls "$dir"/gpuplan_*.deb "$dir"/gpuplan-*.tar.gz
dpkg-deb --contents "$dir"/gpuplan_*.deb > "$dir/deb-contents.txt"  # listed first: grep -q would close the pipe early (pipefail)
grep -q "usr/bin/gpuplan$" "$dir/deb-contents.txt"
echo "bench preset: packages hold usr/bin/gpuplan"
