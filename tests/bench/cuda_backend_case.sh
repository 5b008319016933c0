#!/usr/bin/env bash
# cuda_backend_case.sh GPUPLAN RUN_CASE — `gpuplan bench decode --backend cuda` does the right
# thing wherever the tests run:
#   no GPU or no driver (CI), or a build without CUDA: exit 3, nothing on stdout, one stderr
#     line that says "no usable GPU here" and points to --backend cpu;
#   a GPU: a tiny run of every mode succeeds and every record's checksums verified.
set -u
gpuplan=$1 run_case=$2
if "$gpuplan" devices --format json | "${PYTHON:-python3}" -c 'import json, sys; sys.exit(0 if json.load(sys.stdin)["available"] else 1)'; then
  exec bash "$run_case" "$gpuplan" --json "j['fingerprint']['backend'] == 'cuda' and len(j['records']) == 4" \
       --json "all(r['stats']['checksums_ok'] is True for r in j['records'])" \
       -- bench decode --backend cuda --chunks 4 --frames-per-chunk 2 --height 90 --width 160 --compute-ms 1 --videos 2 --json
fi
exec bash "$run_case" "$gpuplan" --rc 3 --empty-out --one-line-err --err "no usable GPU here" --err "run with --backend cpu" \
     -- bench decode --backend cuda
