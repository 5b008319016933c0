#!/usr/bin/env bash
# output_file_case.sh GPUPLAN DATA — every file gpuplan writes is written whole or left untouched,
# and a link, a FIFO or /dev/stdout is written, never replaced (issue 34, D1, D2, D4;
# native/bench/output_file.hpp). Each check runs the real binary on the real file system:
#   1. a full disk keeps the old results: `ulimit -f` makes write(2) fail with EFBIG exactly where
#      a full disk fails it with ENOSPC (the kernel's file-size limit, no injection in the code);
#   2. a symbolic link given to --json / --out stays a link and its target gets the document;
#   3. a FIFO given to --out is written (a reader gets the document) and stays a FIFO;
#   4. --out /dev/stdout prints the document;
#   5. a run refused before it starts creates no file (the old writability probe left 0 bytes);
#   6. a signal leaves no staging file in --output-dir;
#   7. `bench run --json` ended by a signal leaves its last whole document: what ran, what did not.
set -u
gpuplan=$1
data=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL cli.output_file: $*"; exit 1; }
BD=(bench decode --backend cpu --frames-per-chunk 2 --height 18 --width 32 --compute-ms 1 --warmup 0 --videos 1 --chunks 2 --mode B)
BR=(bench run h2d_pinned --backend cpu --size 256KiB --samples 2 --warmup 0)
is_bench_doc() { python3 -c "import json,sys; sys.exit(json.load(open(sys.argv[1]))['schema'] != 'gpuplan.bench/1')" "$1"; }

# 1. Full disk. The old file must survive byte for byte, no temporary file may stay behind, and
#    the message names the file and the cause. The output goes through a pipe so that the limit
#    applies to the files gpuplan writes, not to its own stdout.
for cmd in decode run import; do
    old="$work/old-$cmd.json"
    printf '{"previous": "results that must survive"}\n' > "$old"
    cp "$old" "$work/expected"
    case $cmd in
        decode) args=("${BD[@]}" --out "$old") ;;
        run) args=("${BR[@]}" --json "$old") ;;
        import) args=(prices import "$data/price-list/ec2-eu-west-2.json" --out "$old") ;;
    esac
    message=$( (ulimit -f 1; trap '' XFSZ; exec "$gpuplan" "${args[@]}") 2>&1 | cat)
    cmp -s "$old" "$work/expected" || fail "$cmd on a full disk changed the old file: $(head -c 200 "$old")"
    leftovers=$(find "$work" -name '.old-*' | head -3)
    [ -z "$leftovers" ] || fail "$cmd on a full disk left $leftovers"
    grep -q "cannot write '$old': File too large" <<< "$message" || fail "$cmd on a full disk said: ${message:0:400}"
done
echo "1. full disk: bench decode --out, bench run --json and prices import --out keep the old file, leave nothing"

# 2. Symbolic links stay links; their targets get the document.
for cmd in decode run; do
    real="$work/real-$cmd.json"; link="$work/link-$cmd.json"
    printf 'old\n' > "$real"; ln -s "$real" "$link"
    if [ $cmd = decode ]; then "$gpuplan" "${BD[@]}" --out "$link" > /dev/null 2>&1 || fail "decode --out link: exit $?"
    else "$gpuplan" "${BR[@]}" --json "$link" > /dev/null 2>&1 || fail "run --json link: exit $?"; fi
    [ -L "$link" ] || fail "$cmd replaced the symbolic link $link with a file"
    is_bench_doc "$real" || fail "$cmd did not write the document to the link's target"
done
dangling="$work/dangling.json"; ln -s "$work/new-target.json" "$dangling"
"$gpuplan" "${BR[@]}" --json "$dangling" > /dev/null 2>&1 || fail "run --json dangling link: exit $?"
[ -L "$dangling" ] && is_bench_doc "$work/new-target.json" || fail "a dangling link was replaced, or its target not written"
echo "2. links: --out and --json through a link (and a dangling one) write the target, the link stays"

# 3. A FIFO: written in place (a reader gets the whole document), still a FIFO afterwards.
fifo="$work/pipe"; mkfifo "$fifo"
timeout 60 cat "$fifo" > "$work/from-fifo" &
reader=$!
timeout 60 "$gpuplan" "${BD[@]}" --out "$fifo" > /dev/null 2>&1 || fail "decode --out FIFO: exit $?"
wait $reader || fail "the FIFO's reader got nothing (exit $?)"
[ -p "$fifo" ] || fail "the FIFO was replaced by a file"
is_bench_doc "$work/from-fifo" || fail "the FIFO's reader did not get the document"
echo "3. FIFO: --out writes into it, it stays a FIFO"

# 4. /dev/stdout (a link to the pipe): the document arrives on stdout.
"$gpuplan" "${BD[@]}" --format json > "$work/plain.json" 2>/dev/null || fail "decode --format json: exit $?"
"$gpuplan" "${BD[@]}" --out /dev/stdout 2>/dev/null | python3 -c "
import json, sys
text = sys.stdin.read()
doc = json.JSONDecoder().raw_decode(text[text.index('{'):])[0]
sys.exit(doc['schema'] != 'gpuplan.bench/1')" || fail "--out /dev/stdout did not print the document"
echo "4. /dev/stdout: the document is printed"

# 5. An interrupted run (SIGTERM a second in; a background job of a script ignores SIGINT, so
#    SIGTERM stands for Ctrl-C here) and a run refused before it starts create no file.
"$gpuplan" bench decode --backend cpu --frames-per-chunk 2 --height 18 --width 32 --compute-ms 50 --warmup 0 --videos 20 --chunks 8 --mode B \
    --out "$work/interrupted.json" > /dev/null 2>&1 &
runner=$!
sleep 1
kill -TERM $runner
wait $runner
[ ! -e "$work/interrupted.json" ] || fail "an interrupted run left $(stat -c %s "$work/interrupted.json") bytes in interrupted.json"
"$gpuplan" "${BD[@]}" --out "$work/never.json" --inject-fault 'bogus' > /dev/null 2>&1
[ ! -e "$work/never.json" ] || fail "a refused run left $(stat -c %s "$work/never.json") bytes in never.json"
"$gpuplan" "${BD[@]}" --out "$work/no-such-folder/x.json" > "$work/msg" 2>&1 && fail "a folder that does not exist was accepted"
grep -q "no-such-folder" "$work/msg" || fail "the refusal does not name the folder: $(cat "$work/msg")"
echo "5. interrupted and refused runs leave no file; a missing folder is named"

# 6. The staging file of --host-stage write is gone when a signal ends the run (D3): nothing is
#    left in --output-dir, while the run was writing there.
mkdir "$work/stage"
"$gpuplan" bench decode --backend cpu --frames-per-chunk 2 --height 18 --width 32 --compute-ms 50 --warmup 0 --videos 20 --chunks 8 --mode B \
    --host-stage write --output-dir "$work/stage" > /dev/null 2>&1 &
runner=$!
sleep 1
kill -TERM $runner
wait $runner
left=$(ls -A "$work/stage")
[ -z "$left" ] || fail "a run ended by SIGTERM left $left in --output-dir"
echo "6. a signalled run leaves no staging file"

# 7. `bench run --json FILE` ended by a signal: FILE holds the whole document as it was after the
#    last finished case, "complete": false, and names the cases that ran and those that did not
#    (issue 34); the exit status is the signal's (128 + 15). The run takes ~40 s: stopped at 3 s.
"$gpuplan" bench run --backend cpu --json "$work/run-interrupted.json" > /dev/null 2>&1 &
runner=$!
sleep 3
kill -TERM $runner
wait $runner
status=$?
[ "$status" = 143 ] || fail "bench run ended by SIGTERM exited $status, expected 143 (128 + SIGTERM)"
python3 - "$work/run-interrupted.json" <<'PY' || fail "the interrupted run's document does not say what ran and what did not"
import json, sys
doc = json.load(open(sys.argv[1]))
run = doc["run"]
assert doc["schema"] == "gpuplan.bench/1" and run["complete"] is False, run
assert run["cases_pending"], "no case pending: the run ended before the signal?"
assert not set(run["cases_pending"]) & set(run["cases_run"]), run
assert {r["case"] for r in doc["records"]} <= set(run["cases_run"]) | {e.split(":")[0] for e in run["errors"]}, doc["records"]
PY
"$gpuplan" calibrate "$work/run-interrupted.json" --format json > /dev/null 2> "$work/msg"
grep -q "unknown key" "$work/msg" && fail "the planner refused the interrupted run's document: $(cat "$work/msg")"
echo "7. an interrupted bench run leaves its document: what ran, what did not, complete false"
