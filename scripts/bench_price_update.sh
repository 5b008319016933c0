#!/usr/bin/env bash
# gpuplan: the `prices update` benchmark (issue 33, docs/performance.md): a synthetic multi-GB
# Price List in AWS's layout served over loopback, refreshed by `gpuplan prices update`, against
# the parse alone (`prices import` of the same files) and the download alone (curl to /dev/null).
# If download and parse overlap, the refresh takes about the longer of the two, not their sum.
#
#   scripts/bench_price_update.sh [--regions 5] [--mb 450] [--net-mbps 100]
#   GPUPLAN=build/prof/gpuplan scripts/bench_price_update.sh   # an existing optimised build
#
# The offer files come from scripts/gen_offer_file.py (one ~450 MB file, copied per region with
# its region code changed), cached in build/bench-data/. The loopback server sends at --net-mbps
# (MB/s; 0 = as fast as it can), so the download takes about as long as the parse, as it would
# on a real network link. Results: bench-results/price-update.json.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
regions=5 mb=450 net_mbps=100
while (($#)); do
  case "$1" in
    --regions) regions="$2"; shift 2 ;;
    --mb) mb="$2"; shift 2 ;;
    --net-mbps) net_mbps="$2"; shift 2 ;;
    *) echo "usage: $0 [--regions N] [--mb MB] [--net-mbps MB_PER_S]" >&2; exit 2 ;;
  esac
done
mkdir -p build/logs build/bench-data bench-results
if [[ -z "${GPUPLAN:-}" ]]; then
  { cmake --preset release && cmake --build --preset release -j 2 --target gpuplan; } > build/logs/bench-update-build.log 2>&1
  GPUPLAN=build/release/gpuplan
fi
offer="build/bench-data/offer-${mb}mb.json"
[[ -s "$offer" ]] || python3 scripts/gen_offer_file.py "$offer" --mb "$mb"
codes=(us-east-1 us-west-2 eu-west-1 eu-central-1 ap-northeast-1 ap-southeast-2 us-east-2 eu-west-2)
((regions <= ${#codes[@]})) || { echo "at most ${#codes[@]} regions" >&2; exit 2; }
site="build/bench-data/price-list-site"
rm -rf "$site"
mkdir -p "$site/offers/v1.0/aws/AmazonEC2/current"
files=()
for ((k = 0; k < regions; k++)); do
  r="${codes[$k]}"
  d="$site/offers/v1.0/aws/AmazonEC2/20260701000000/$r"
  mkdir -p "$d"
  cached="build/bench-data/offer-${mb}mb-$r.json"
  [[ -s "$cached" ]] || sed "s/\"eu-west-2\"/\"$r\"/g" "$offer" > "$cached"
  ln -s "$root/$cached" "$d/index.json"
  files+=("$cached")
done
python3 - "$site" "${codes[@]:0:$regions}" <<'PY'
import json, sys
site, regions = sys.argv[1], sys.argv[2:]
json.dump({"formatVersion": "v1.0", "offers": {"AmazonEC2": {"offerCode": "AmazonEC2",
           "currentRegionIndexUrl": "/offers/v1.0/aws/AmazonEC2/current/region_index.json"}}},
          open(f"{site}/offers/v1.0/aws/index.json", "w"))
json.dump({"formatVersion": "v1.0", "regions": {r: {"regionCode": r,
           "currentVersionUrl": f"/offers/v1.0/aws/AmazonEC2/20260701000000/{r}/index.json"} for r in regions}},
          open(f"{site}/offers/v1.0/aws/AmazonEC2/current/region_index.json", "w"))
PY
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# A file server that sends at most net_mbps MB/s per download (1 MB, then a pause to keep the pace).
python3 - "$port" "$site" "$net_mbps" > build/logs/bench-update-server.log 2>&1 <<'PY' &
import functools, http.server, os, sys, time
port, site, mbps = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
class Paced(http.server.SimpleHTTPRequestHandler):
    def copyfile(self, source, out):
        start, sent = time.monotonic(), 0
        while chunk := source.read(1 << 20):
            out.write(chunk)
            sent += len(chunk)
            if mbps > 0:
                ahead = sent / (mbps * 1e6) - (time.monotonic() - start)
                if ahead > 0:
                    time.sleep(ahead)
http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Paced, directory=site)).serve_forever()
PY
server=$!
trap 'kill $server 2>/dev/null' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/offers/v1.0/aws/index.json" > /dev/null && break; sleep 0.1; done
bytes=$(cat "${files[@]}" | wc -c)
t() { /usr/bin/time -f "%e %M" -o build/bench-data/time.txt "$@" > /dev/null; cat build/bench-data/time.txt; }
download=$(t bash -c "for r in ${codes[*]:0:$regions}; do curl -sf -o /dev/null http://127.0.0.1:$port/offers/v1.0/aws/AmazonEC2/20260701000000/\$r/index.json; done")
parse=$(t "$GPUPLAN" prices import "${files[@]}" --out build/bench-data/overlay-import.json)
update=$(t "$GPUPLAN" prices update --base-url "http://127.0.0.1:$port" --out build/bench-data/overlay-update.json)
cmp -s <(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["prices"])' build/bench-data/overlay-import.json) \
       <(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["prices"])' build/bench-data/overlay-update.json) \
  || { echo "prices update and prices import disagree" >&2; exit 1; }
python3 - "$bytes" "$regions" "$download" "$parse" "$update" "$(uptime | sed 's/.*load average: //')" "$net_mbps" <<'PY'
import json, sys, datetime
size, regions, net = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[7])
(dl_s, dl_kb), (parse_s, parse_kb), (up_s, up_kb) = (tuple(map(float, a.split())) for a in sys.argv[3:6])
out = {"date": datetime.date.today().isoformat(), "regions": regions, "total_mb": size / 1e6,
       "download_only": {"seconds": dl_s, "mb_per_s": size / 1e6 / dl_s},
       "parse_only": {"seconds": parse_s, "mb_per_s": size / 1e6 / parse_s, "peak_resident_mb": parse_kb / 1024},
       "update": {"seconds": up_s, "mb_per_s": size / 1e6 / up_s, "peak_resident_mb": up_kb / 1024},
       "overlap": (dl_s + parse_s) / up_s, "load_average": sys.argv[6], "server_mb_per_s": net or None}
json.dump(out, open("bench-results/price-update.json", "w"), indent=2)
pace = f"sent at {net:g} MB/s" if net else "unpaced"
print(f"| {regions} regions, {size/1e9:.2f} GB over loopback ({pace}) | seconds | MB/s | peak memory |")
print("|---|---|---|---|")
print(f"| download only (curl to /dev/null) | {dl_s:.1f} | {size/1e6/dl_s:,.0f} | |")
print(f"| parse only (`prices import` of the files) | {parse_s:.1f} | {size/1e6/parse_s:,.0f} | {parse_kb/1024:,.0f} MB |")
print(f"| `prices update` (both, overlapped) | {up_s:.1f} | {size/1e6/up_s:,.0f} | {up_kb/1024:,.0f} MB |")
print(f"(download + parse) / update = {out['overlap']:.2f}; load average after: {sys.argv[6]}")
PY
