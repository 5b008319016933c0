#!/usr/bin/env python3
"""gpuplan: how `gpuplan topology import` grows with the number of GPUs (issue 34, H1).

Writes nvidia-smi `topo -m` matrices of N GPUs (every pair NV18, two NUMA nodes; the layout of
the 8-GPU seeds in tests/fuzz/corpus/topology_smi) to build/bench-data/, imports each 3 times
with the given binary, and writes the median seconds per size and the growth ratio per doubling
to bench-results/topology-import.json (docs/performance.md, "Topology import").

  scripts/bench_topology_import.py [--gpuplan build/release/gpuplan] [--sizes 64,128,256,512]
"""
import argparse
import json
import os
import statistics
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def smi_matrix(n: int) -> str:
    head = "\t" + "\t".join(f"GPU{i}" for i in range(n)) + "\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n"
    rows = "".join(f"GPU{i}\t" + "\t".join("X" if i == j else "NV18" for j in range(n)) + f"\t0-47\t{0 if i < n // 2 else 1}\t\tN/A\n"
                   for i in range(n))
    return head + rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gpuplan", default=str(ROOT / "build" / "release" / "gpuplan"))
    ap.add_argument("--sizes", default="64,128,256,512")
    args = ap.parse_args()
    data = ROOT / "build" / "bench-data"
    data.mkdir(parents=True, exist_ok=True)
    results = []
    for n in (int(s) for s in args.sizes.split(",")):
        f = data / f"smi-{n}-gpus.txt"
        f.write_text(smi_matrix(n))
        runs = []
        for _ in range(3):
            t0 = time.perf_counter()
            subprocess.run([args.gpuplan, "topology", "import", str(f)], check=True, stdout=subprocess.DEVNULL)
            runs.append(time.perf_counter() - t0)
        results.append({"gpus": n, "file_bytes": f.stat().st_size, "median_s": round(statistics.median(runs), 3)})
        print(f"{n} GPUs ({f.stat().st_size} bytes): {results[-1]['median_s']} s")
    for prev, cur in zip(results, results[1:]):
        cur["ratio_to_half_size"] = round(cur["median_s"] / prev["median_s"], 2)
    out = ROOT / "bench-results" / "topology-import.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({"binary": os.path.relpath(args.gpuplan, ROOT), "results": results}, indent=1) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
