#!/usr/bin/env python3
"""`gpuplan eval` gives, to the last digit, the document `gpuplan fit` / `infer` / `train` print.

  eval_parity.py GPUPLAN

Each case is a command line and a scenario asking the same question; the command's
`--format json` document must equal the scenario result's section, key for key and number for
number (both come from one core serialiser, so any difference is a shell computing a figure).
The scenarios are the examples in assets/scenarios/ plus a few written here for the branches
the examples do not reach (a bare pool, a request that does not fit, measured bandwidth).
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SCN = os.path.join(ROOT, "assets", "scenarios")


def scenario(section, body):
    return {"schema": "gpuplan.scenario/1", section: body}


G6E_LOG = "tests/data/topology/nccl-g6e.48xlarge.log"


def with_topology(doc, log):
    """The scenario with a topology section holding the log (named as the command names it)."""
    with open(os.path.join(ROOT, log)) as f:
        doc["topology"] = {"name": log, "text": f.read()}
    return doc


# (section, command arguments, scenario file or document)
CASES = [
    ("fit", "fit --model llama-3.1-70b --mode inference --instance g6e.12xlarge --tp 2 --dtype fp8 --batch 16 --context 8192",
     os.path.join(SCN, "f1-fit-llama-70b-g6e.json")),
    ("fit", "fit --model llama-3-8b --mode training --gpus 4 --gpu-memory-gib 80 --zero 2",
     os.path.join(SCN, "f2-fit-train-llama-8b.json")),
    ("infer", "infer --model llama-3-8b --instance g6e.xlarge --batch 32 --context 2048",
     os.path.join(SCN, "i1-infer-llama-8b-g6e.json")),
    ("train", "train --model llama-3-8b --instance p5.48xlarge --nodes 4 --zero 1 --micro-batch 1 --sequence 8192 "
              "--global-batch-tokens 4194304 --recompute selective --tokens 1e11",
     os.path.join(SCN, "t1-train-llama-3-8b.json")),
    ("train", "train --model llama-3.2-1b --instance g6e.12xlarge --tp 2 --zero 2 --micro-batch 4 --purchase spot --tokens 2e9",
     scenario("train", {"model": "llama-3.2-1b", "instance": "g6e.12xlarge", "tensor_parallel": 2, "zero_stage": 2, "micro_batch": 4,
                        "purchase": "spot", "tokens": 2e9})),
    # A machine's own topology: `train --topology` = a train section beside a topology section.
    ("train", "train --model llama-3-8b --instance g6e.48xlarge --gpus-per-node 4 --zero 3 --tokens 1e9 --topology " + G6E_LOG,
     with_topology(scenario("train", {"model": "llama-3-8b", "instance": "g6e.48xlarge", "gpus_per_node": 4, "zero_stage": 3, "tokens": 1e9}), G6E_LOG)),
    ("fit", "fit --model llama-3-8b --mode inference --instance g6e.xlarge",
     scenario("fit", {"model": "llama-3-8b", "mode": "inference", "instance": "g6e.xlarge"})),
    ("fit", "fit --model llama-3.1-70b --mode training --instance p4d.24xlarge --nodes 2 --zero 3 --offload-optimizer --recompute full",
     scenario("fit", {"model": "llama-3.1-70b", "mode": "training", "instance": "p4d.24xlarge", "nodes": 2, "zero_stage": 3,
                      "offload_optimizer": True, "recompute": "full"})),
    ("fit", "fit --model llama-3.1-70b --mode training --instance g6e.48xlarge --tp 4 --pp 2 --micro-batch 2 --overhead-gib 3",
     scenario("fit", {"model": "llama-3.1-70b", "mode": "training", "instance": "g6e.48xlarge", "tensor_parallel": 4, "pipeline_parallel": 2,
                      "micro_batch": 2, "runtime_overhead_gib": 3})),
    ("infer", "infer --model llama-3.1-70b --instance p5.48xlarge --dtype fp8 --kv-dtype fp8 --tp 4 --batch 64 --context 4096 --prompt-tokens 1024 --measured-bandwidth-gb-per-s 2900 --compute-efficiency 0.5",
     scenario("infer", {"model": "llama-3.1-70b", "instance": "p5.48xlarge", "dtype": "fp8", "kv_dtype": "fp8", "tensor_parallel": 4, "batch": 64,
                        "context": 4096, "prompt_tokens": 1024, "measured_bandwidth_gb_per_s": 2900, "compute_efficiency": 0.5})),
    # A request rate to a latency target (the Recommend view's "requests per second" load).
    ("recommend", "recommend --model llama-3.1-8b --family g6e,g6 --rate 10 --prompt-tokens-dist uniform:500:1500 --output-tokens-dist 300 "
                  "--target-p95-ttft-ms 1000 --target p99-e2e-ms=20000",
     scenario("recommend", {"model": "llama-3.1-8b", "families": ["g6e", "g6"], "requests_per_second": 10, "prompt_tokens": "uniform:500:1500",
                            "output_tokens": 300, "targets": ["p99-e2e-ms=20000"], "target_p95_ttft_ms": 1000})),
]


def run(gpuplan, args):
    p = subprocess.run([gpuplan] + args, capture_output=True, text=True, cwd=ROOT)
    if p.returncode != 0:
        raise SystemExit(f"FAIL: gpuplan {' '.join(args)} exited {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout)


def diff(a, b, path="$"):
    """The first place two JSON values differ, or None."""
    if type(a) != type(b):
        return f"{path}: {a!r} vs {b!r}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}: only in {'the command' if k in a else 'eval'}"
            d = diff(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} vs {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b)):
            d = diff(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a!r} vs {b!r}"


def main():
    gpuplan = sys.argv[1]
    failures, figures = 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for k, (section, command, source) in enumerate(CASES):
            if isinstance(source, dict):
                path = os.path.join(tmp, f"case{k}.json")
                with open(path, "w") as f:
                    json.dump(source, f)
                source = path
            direct = run(gpuplan, command.split() + ["--format", "json"])
            result = run(gpuplan, ["eval", source])
            via_eval = result[section]
            if "topology" in direct:
                # `train --topology` prints the import beside the plan; eval has it as its own
                # section (with a comparison against the train's instance, which train does not make).
                imported = direct.pop("topology")
                result["topology"].pop("comparison", None)
                d = diff(imported, result["topology"], "$.topology")
                if d:
                    failures += 1
                    print(f"FAIL: gpuplan {command}\n  its topology differs from eval's at {d}")
            d = diff(direct, via_eval)
            figures += len(direct.get("figures", {}))
            if d:
                failures += 1
                print(f"FAIL: gpuplan {command}\n  differs from eval {os.path.relpath(source, ROOT)} at {d}")
    print(f"{len(CASES)} command/scenario pairs, {figures} figures compared, {failures} differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
