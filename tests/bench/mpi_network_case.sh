#!/usr/bin/env bash
# mpi_network_case.sh — the MPI network case on this machine (two ranks over shared memory /
# loopback), then the planner importing its results: a measured inter-node bandwidth must
# change the DDP step of a 2-node training prediction, and the output must say it is measured.
# Usage: mpi_network_case.sh MPIRUN GPUPLAN_BENCH_MPI GPUPLAN   (PYTHON: python3 by default)
set -u
mpirun=$1 bench_mpi=$2 gpuplan=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-mpi.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# OpenMPI refuses root without --allow-run-as-root; --oversubscribe lets 2 ranks share fewer cores.
timeout 120 "$mpirun" --allow-run-as-root --oversubscribe -np 2 "$bench_mpi" --quick --size 1MiB --timeout-s 20 \
  --json "$work/net.json" > "$work/out" 2> "$work/err" || { cat "$work/err"; fail "gpuplan-bench-mpi exited $?"; }
"${PYTHON:-python3}" - "$work/net.json" <<'PY' || fail "results check"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["schema"] == "gpuplan.bench/1" and j["run"]["complete"] is True and j["run"]["errors"] == [], j["run"]
recs = j["records"]
bw = [r for r in recs if r["case"] == "net_p2p_bw"]
lat = [r for r in recs if r["case"] == "net_p2p_latency"]
assert [r["params"]["bytes"] for r in bw] == [1048576], bw
assert len(lat) == 1
for r in recs:
    assert r["status"] == "ok" and r["verified"], r
    assert len(r["samples"]) == 5 and r["stats"]["min"] <= r["median"] <= r["stats"]["max"], r
    assert r["params"]["ranks"] == 2
# GB/s = bytes x window / seconds per rep (10^9 B/s)
r = bw[0]
expect = r["params"]["bytes"] * r["params"]["window"] / r["stats"]["seconds_median"] / 1e9
assert abs(r["median"] - expect) <= 1e-9 * expect, (r["median"], expect)
assert lat[0]["unit"] == "us" and abs(lat[0]["median"] - lat[0]["stats"]["seconds_median"] * 1e6) < 1e-9
waived = [w["case"] for w in j["run"]["waived"]]
assert all(k in waived for k in ("nccl_all_reduce", "nccl_all_to_all")) or any(r["case"].startswith("nccl_") for r in recs)
print("net_p2p_bw %.3f GB/s, net_p2p_latency %.3f us" % (bw[0]["median"], lat[0]["median"]))
PY

train=(train --model llama-3-8b --instance p5.48xlarge --nodes 2 --zero 1 --format json)
"$gpuplan" "${train[@]}" > "$work/base.json" || fail "gpuplan train"
"$gpuplan" calibrate "$work/net.json" "${train[@]}" > "$work/cal.json" || fail "gpuplan calibrate"
"${PYTHON:-python3}" - "$work/base.json" "$work/cal.json" "$work/net.json" <<'PY' || fail "calibration check"
import json, sys
base, cal, net = (json.load(open(p)) for p in sys.argv[1:])
bw = [r for r in net["records"] if r["case"] == "net_p2p_bw"][0]["median"]
fig = cal["calibration"]["figures"]
assert len(fig) == 1 and fig[0]["flag"] == "--measured-inter-gb-per-s", fig
# one MPI flow per node shared by the 8 GPUs of a p5.48xlarge
assert abs(fig[0]["gb_per_s"] - bw / 8) <= 1e-9 * bw, (fig, bw)
step0, step1 = base["figures"]["step_seconds"]["value"], cal["figures"]["step_seconds"]["value"]
assert step1 != step0, (step0, step1)
src = cal["sources"]["inter_gb_per_s"]
assert src["kind"] == "measured" and "measured: inter-node bandwidth" in src["source"], src
assert abs(src["value"] - fig[0]["gb_per_s"]) <= 1e-12 * fig[0]["gb_per_s"], (src, fig)
print("DDP step %.4f s (datasheet EFA) -> %.4f s (measured %.3f GB/s per GPU)" % (step0, step1, fig[0]["gb_per_s"]))
PY
"$gpuplan" calibrate "$work/net.json" train --model llama-3-8b --instance p5.48xlarge --nodes 2 --zero 1 > "$work/cal.txt" || fail "calibrate table"
# The link is marked measured, with the file and record it came from (train --calibration).
grep -qF "measured (inter-node bandwidth, $work/net.json net_p2p_bw" "$work/cal.txt" || fail "table output does not say the link is measured"
grep -q "net_p2p_bw median" "$work/cal.txt" || fail "table output does not name net_p2p_bw"
echo "ok"
