#!/usr/bin/env bash
# gpuplan: the AWS price-list import benchmark (issue "Real prices", docs/performance.md).
# Generates a synthetic ~450 MB EC2 offer file (scripts/gen_offer_file.py, cached in
# build/bench-data/), imports it 5 times with the release build under /usr/bin/time, and
# writes the median throughput (MB/s) and peak resident memory to bench-results/price-import.json.
# For comparison, one plain (whole-document) JSON load of the same file in Python.
#
#   scripts/bench_price_import.sh [--mb 450]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mb=450
[[ "${1:-}" == "--mb" ]] && mb="$2"
mkdir -p build/logs build/bench-data bench-results
{ cmake --preset release && cmake --build --preset release -j 2 --target gpuplan; } > build/logs/bench-import-build.log 2>&1
offer="build/bench-data/offer-${mb}mb.json"
[[ -s "$offer" ]] || python3 scripts/gen_offer_file.py "$offer" --mb "$mb"
bytes=$(stat -c %s "$offer")
runs=()
for k in 1 2 3 4 5; do
  /usr/bin/time -f "%e %M" -o build/bench-data/time.txt build/release/gpuplan prices import "$offer" --out build/bench-data/overlay.json > /dev/null
  runs+=("$(cat build/bench-data/time.txt)")
done
/usr/bin/time -f "%e %M" -o build/bench-data/time-plain.txt python3 -c "import json, sys; json.load(open(sys.argv[1]))" "$offer"
python3 - "$bytes" "$(cat build/bench-data/time-plain.txt)" "${runs[@]}" <<'PY'
import json, sys, datetime, statistics
size = int(sys.argv[1])
plain_s, plain_kb = map(float, sys.argv[2].split())
runs = [tuple(map(float, r.split())) for r in sys.argv[3:]]
seconds = statistics.median(r[0] for r in runs)
peak_mb = statistics.median(r[1] for r in runs) / 1024
out = {"date": datetime.date.today().isoformat(), "file_mb": size / 1e6, "runs": len(runs),
       "median_seconds": seconds, "throughput_mb_per_s": size / 1e6 / seconds, "peak_resident_mb": peak_mb,
       "plain_python_json_load": {"seconds": plain_s, "peak_resident_mb": plain_kb / 1024}}
json.dump(out, open("bench-results/price-import.json", "w"), indent=2)
print("| figure | gpuplan prices import (streaming, SAX) | plain JSON load (Python json.load) |")
print("|---|---|---|")
print(f"| {size/1e6:,.0f} MB synthetic EC2 offer file: time (median of {len(runs)}) | {seconds:.2f} s ({size/1e6/seconds:,.0f} MB/s) | {plain_s:.1f} s |")
print(f"| peak resident memory | {peak_mb:,.0f} MB | {plain_kb/1024:,.0f} MB |")
PY
