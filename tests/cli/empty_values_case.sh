#!/usr/bin/env bash
# empty_values_case.sh GPUPLAN — a flag given an empty value is refused, never read as "not
# given" (issue 34: `bench run --cases ''` ran the whole suite). A shell script rather than
# cases/*.cases: an empty argument is the point, and a CMake list cannot carry one.
set -u
gpuplan=$1
fail() { echo "FAIL cli.empty_values: $*"; exit 1; }
check() {  # check EXPECTED-MESSAGE ARG...: exit 2, one line naming the flag, nothing run
    local expected=$1; shift
    local err rc
    err=$("$gpuplan" "$@" 2>&1 >/dev/null); rc=$?
    [ "$rc" -eq 2 ] || fail "$* exited $rc (expected 2): $err"
    grep -qF -- "$expected" <<< "$err" || fail "$*: said '$err', expected '$expected'"
    echo "refused: gpuplan $* -> $err"
}
check "--cases: got an empty value" bench run --backend cpu --cases ''
check "CASE: got an empty value" bench run --backend cpu ''
check "--inject-fault: got an empty value" bench run --backend cpu --inject-fault ''
check "--inject-fault: got an empty value" bench decode --backend cpu --inject-fault ''
