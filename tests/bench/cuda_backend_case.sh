#!/usr/bin/env bash
# cuda_backend_case.sh MODE GPUPLAN RUN_CASE — `gpuplan bench decode --backend cuda`, in the one
# of two tests that applies where the tests run; the other reports itself skipped (exit 77,
# SKIP_RETURN_CODE in tests/cli/CMakeLists.txt), never passed:
#   no-gpu: no GPU or no driver (CI), or a build without CUDA: exit 3, nothing on stdout, one
#     stderr line that says "no usable GPU here" and points to --backend cpu;
#   gpu: a tiny run of every mode succeeds and every record's checksums verified.
set -u
mode=$1 gpuplan=$2 run_case=$3
if "$gpuplan" devices --format json | "${PYTHON:-python3}" -c 'import json, sys; sys.exit(0 if json.load(sys.stdin)["available"] else 1)'; then
  have_gpu=1
else
  have_gpu=0
fi
case "$mode:$have_gpu" in
  gpu:1)
    exec bash "$run_case" "$gpuplan" --json "j['fingerprint']['backend'] == 'cuda' and len(j['records']) == 4" \
         --json "all(r['stats']['checksums_ok'] is True for r in j['records'])" \
         -- bench decode --backend cuda --chunks 4 --frames-per-chunk 2 --height 90 --width 160 --compute-ms 1 --videos 2 --json ;;
  gpu:0)
    echo "skipped: no usable GPU here (gpuplan devices), so the CUDA backend cannot run"; exit 77 ;;
  no-gpu:0)
    exec bash "$run_case" "$gpuplan" --rc 3 --empty-out --one-line-err --err "no usable GPU here" --err "run with --backend cpu" \
         -- bench decode --backend cuda ;;
  no-gpu:1)
    echo "skipped: a GPU is here, so the no-GPU refusal cannot be seen"; exit 77 ;;
  *)
    echo "usage: cuda_backend_case.sh gpu|no-gpu GPUPLAN RUN_CASE" >&2; exit 2 ;;
esac
