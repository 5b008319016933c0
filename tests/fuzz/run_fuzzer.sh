#!/usr/bin/env bash
# run_fuzzer.sh — the two CTest modes of a libFuzzer target (tests/fuzz/CMakeLists.txt).
#
#   run_fuzzer.sh corpus BINARY CORPUS_DIR DICT
#       Runs every committed input once; fails if any crashes or is reported.
#   run_fuzzer.sh run BINARY CORPUS_DIR DICT SECONDS ARTIFACT_DIR STATS_DIR
#       Fuzzes for SECONDS from a temporary copy of CORPUS_DIR (the committed corpus is never
#       modified), with the dictionary; fails on any finding (crash, sanitizer report, uncaught
#       exception, timeout over 10 s, out of memory, or a target's own check). Prints one line
#       "fuzz NAME: N execs in S s, corpus A -> B inputs, 0 findings" and writes it to STATS_DIR.
set -uo pipefail
mode=$1 bin=$2 corpus=$3 dict=$4
name=$(basename "$bin"); name=${name#fuzz_}
# Leak checking is on (a leak is a finding); UBSan prints a stack.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
common=(-timeout=10 -rss_limit_mb=2560 -malloc_limit_mb=2560 -max_len=65536 "-dict=$dict")
shopt -s nullglob
seeds=("$corpus"/*)
if [ ${#seeds[@]} -eq 0 ]; then echo "no inputs in $corpus"; exit 1; fi

if [ "$mode" = corpus ]; then
  "$bin" "${common[@]}" "${seeds[@]}" 2>&1 | grep -vE '^(Running: |Executed )' ; rc=${PIPESTATUS[0]}
  echo "fuzz $name corpus: ${#seeds[@]} inputs, exit $rc"
  exit "$rc"
fi

seconds=$5 artifacts=$6 stats=$7
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$artifacts" "$stats"
cp "${seeds[@]}" "$work/corpus/"
start=$SECONDS
"$bin" "${common[@]}" -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$artifacts/$name-" \
  "$work/corpus" > "$work/log" 2>&1
rc=$?
elapsed=$((SECONDS - start))
execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$work/log" | grep -oE '[0-9]+$' | tail -1)
final=$(ls "$work/corpus" | wc -l)
findings=$([ "$rc" -eq 0 ] && echo 0 || echo 1)
line="fuzz $name: ${execs:-?} execs in ${elapsed} s, corpus ${#seeds[@]} -> $final inputs, $findings findings"
echo "$line" | tee "$stats/$name.txt"
if [ "$rc" -ne 0 ]; then
  echo "--- libFuzzer output (last 60 lines); reproducer under $artifacts/"
  tail -n 60 "$work/log"
fi
exit "$rc"
