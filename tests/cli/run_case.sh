#!/usr/bin/env bash
# run_case.sh — run the gpuplan binary once and check its exit code, stdout and stderr.
#
# Usage: run_case.sh GPUPLAN [CHECK...] -- [ARG...]
#   --rc N                  expected exit code (default 0)
#   --out TEXT              stdout contains TEXT (fixed string); repeatable
#   --out-re REGEX          a stdout line matches REGEX (grep -E); repeatable
#   --not-out TEXT          stdout does not contain TEXT
#   --err TEXT              stderr contains TEXT (fixed string); repeatable
#   --empty-out             stdout is empty (an error must not leave partial output)
#   --one-line-err          stderr is exactly one line starting "gpuplan: error: "
#   --json PY_EXPR          stdout is JSON and the Python expression is true (`j` is the
#                           parsed document, `close(a, b, tol)` compares numbers); repeatable
#   --empty-file NAME       create an empty file @WORK@/NAME first
#   --big-file NAME BYTES   create @WORK@/NAME holding BYTES zero bytes first
#   --env NAME=VALUE        run gpuplan with this environment variable set; repeatable
#   --first "WORDS"         run `gpuplan WORDS` (split at spaces) first; it must succeed
#   --no-file NAME          no file @WORK@/NAME* is left after the run (nothing partial)
# "@WORK@" in the arguments is replaced by a temporary folder, removed afterwards.
# Environment: PYTHON (default python3) for --json.
set -u

gpuplan=$1
shift
work=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-cli.XXXXXX")
trap 'rm -rf "$work"' EXIT

rc_want=0
outs=() out_res=() not_outs=() errs=() jsons=()
empty_out=0 one_line_err=0 envs=() firsts=() no_files=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case $1 in
    --rc) rc_want=$2; shift 2 ;;
    --out) outs+=("$2"); shift 2 ;;
    --out-re) out_res+=("$2"); shift 2 ;;
    --not-out) not_outs+=("$2"); shift 2 ;;
    --err) errs+=("$2"); shift 2 ;;
    --empty-out) empty_out=1; shift ;;
    --one-line-err) one_line_err=1; shift ;;
    --json) jsons+=("$2"); shift 2 ;;
    --empty-file) : > "$work/$2"; shift 2 ;;
    --big-file) head -c "$3" /dev/zero > "$work/$2"; shift 3 ;;
    --env) envs+=("$2"); shift 2 ;;
    --first) firsts+=("$2"); shift 2 ;;
    --no-file) no_files+=("$2"); shift 2 ;;
    *) echo "run_case.sh: unknown check '$1'" >&2; exit 2 ;;
  esac
done
[ "${1:-}" = "--" ] && shift

args=()
for a in "$@"; do args+=("${a//@WORK@/$work}"); done

# --first "WORDS": a gpuplan command (words split at spaces) that must succeed before the one checked.
for f in ${firsts[@]+"${firsts[@]}"}; do
  read -ra first_args <<< "${f//@WORK@/$work}"
  "$gpuplan" "${first_args[@]}" > "$work/first.out" 2>&1 || { echo "FAIL: the first command failed: gpuplan $f"; cat "$work/first.out"; exit 1; }
done

env ${envs[@]+"${envs[@]}"} "$gpuplan" "${args[@]}" > "$work/stdout" 2> "$work/stderr"
rc=$?

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

[ "$rc" = "$rc_want" ] || fail "exit code $rc, expected $rc_want"
for t in ${outs[@]+"${outs[@]}"}; do grep -qF -- "$t" "$work/stdout" || fail "stdout lacks: $t"; done
for r in ${out_res[@]+"${out_res[@]}"}; do grep -qE -- "$r" "$work/stdout" || fail "no stdout line matches: $r"; done
for t in ${not_outs[@]+"${not_outs[@]}"}; do grep -qF -- "$t" "$work/stdout" && fail "stdout contains: $t"; done
for t in ${errs[@]+"${errs[@]}"}; do grep -qF -- "$t" "$work/stderr" || fail "stderr lacks: $t"; done
if [ "$empty_out" = 1 ] && [ -s "$work/stdout" ]; then fail "stdout is not empty"; fi
for n in ${no_files[@]+"${no_files[@]}"}; do ls "$work/$n"* > /dev/null 2>&1 && fail "a file $n* was left behind"; done
if [ "$one_line_err" = 1 ]; then
  [ "$(wc -l < "$work/stderr")" = 1 ] || fail "stderr is not exactly one line"
  grep -q '^gpuplan: error: ' "$work/stderr" || fail "stderr does not start with 'gpuplan: error: '"
fi
for expr in ${jsons[@]+"${jsons[@]}"}; do
  "${PYTHON:-python3}" - "$work/stdout" "$expr" <<'EOF' || fail "JSON check failed: $expr"
import json, sys
def close(a, b, tol):
    return a is not None and abs(a - b) <= tol
try:
    with open(sys.argv[1]) as f:
        j = json.load(f)
except ValueError as e:
    print("stdout is not JSON:", e)
    sys.exit(1)
try:
    ok = eval(sys.argv[2], {"j": j, "close": close})
except Exception as e:
    print("error evaluating the check:", repr(e))
    sys.exit(1)
sys.exit(0 if ok else 1)
EOF
done

if [ "$failures" -gt 0 ]; then
  echo "--- command: gpuplan ${args[*]}"
  echo "--- exit code: $rc"
  echo "--- stdout (first 40 lines):"; head -n 40 "$work/stdout"
  echo "--- stderr:"; cat "$work/stderr"
  exit 1
fi
exit 0
