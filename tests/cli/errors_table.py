#!/usr/bin/env python3
"""The error table of docs/errors.md: every user-facing error with its exact message.

  errors_table.py --write GPUPLAN   runs every case, rewrites the table in docs/errors.md
  errors_table.py --check GPUPLAN   runs every row of the table, fails on any message that
                                    differs (the CTest `cli.errors_table`)

Cases: every error.* golden case of tests/cli/cases/*.cases (read with cases.py; their checks
test parts of a message; this table holds the whole message), plus EXTRA below for errors inside files
(catalog, scenario, bench results, JSON limits) that the golden cases do not reach. Each row
keeps what is needed to rerun it: the arguments and, for a file case, the file's text. Runs
happen in the repository root, so paths print as tests/cli/data/...; "@WORK@" is a scratch
folder. Rows whose message differs between machines (memory sizes) are left out.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import load_all  # noqa: E402  (tests/cli/cases.py)

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DOC = os.path.join(ROOT, "docs", "errors.md")
BEGIN, END = "<!-- errors-table:begin (tests/cli/errors_table.py --write) -->", "<!-- errors-table:end -->"
SKIP = {"bench_oversize"}  # "... of host memory is usable": depends on the machine

SCN = '{"schema": "gpuplan.scenario/1", '
CAT = '{"schema": "gpuplan.catalog/1", '
# (area, file text, arguments with @FILE@ for the file)
EXTRA = [
    ("scenario", SCN + '"fleet": {"hours": 8761e308}}', "eval @FILE@"),
    ("scenario", SCN + '"fleet": {"hours": 8760, "on_demand_usd_per_gpu_hour": 1.61e308, "tiers": [{"option": "reserved-1y", "gpus": 8, "usd_per_gpu_hour": 1.12}]}}', "eval @FILE@"),
    ("scenario", SCN + '"name": ' + "[" * 33 + "]" * 33 + "}", "eval @FILE@"),
    ("scenario", SCN + '"name": "' + "n" * 65537 + '"}', "eval @FILE@"),
    ("scenario", '[1, 2]', "eval @FILE@"),
    ("scenario", SCN + '"fit": {"model": "llama-3-8b", "mode": "serve", "instance": "g6e.xlarge"}}', "eval @FILE@"),
    ("scenario", SCN + '"fit": {"model": "llama-3.1-70b", "mode": "inference", "instance": "g6e.12xlarge", "tensor_parallel": 3}}', "eval @FILE@"),
    ("scenario", SCN + '"fit": {"model": "llama-3-8b", "mode": "training", "gpus": 4, "gpu_memory_gib": 80, "data_parallel": 3}}', "eval @FILE@"),
    ("scenario", SCN + '"infer": {"model": "llama-3-8b", "instance": "g6e.xlarge", "context": 1024, "prompt_tokens": 2048}}', "eval @FILE@"),
    ("scenario", SCN + '"infer": {"model": "llama-9", "instance": "g6e.xlarge"}}', "eval @FILE@"),
    ("scenario", '{"schema": "gpuplan.scenario/2"}', "eval @FILE@"),
    ("scenario", SCN + '"price": {"instance": "p9.huge"}}', "eval @FILE@"),
    ("scenario", SCN + '"region": "mars-1", "price": {"instance": "p5.48xlarge"}}', "eval @FILE@"),
    ("scenario", SCN + '"price": {"instance": "p5.48xlarge", "hours": -5}}', "eval @FILE@"),
    ("scenario", SCN + '"price": {"instance": "p5.48xlarge", "hours": "5"}}', "eval @FILE@"),
    ("scenario", SCN + '"assumptions": {"reserved_discount": {"1y": 1.5}}}', "eval @FILE@"),
    ("scenario", SCN + '"fleet": {"on_demand_usd_per_gpu_hour": 1.6, "tiers": []}}', "eval @FILE@"),
    ("scenario", SCN + '"idle": {"usd_per_hour": 1, "active_hours_per_day": 30}}', "eval @FILE@"),
    ("scenario", SCN + '"train": {"model": "gpt-5", "instance": "p5.48xlarge"}}', "eval @FILE@"),
    ("scenario", SCN + '"train": {"model": "llama-3-8b", "instance": "p5.48xlarge", "tokens": -5}}', "eval @FILE@"),
    ("scenario", SCN + '"recommend": {"model": "llama-3-8b", "dtype": "fp6"}}', "eval @FILE@"),
    ("catalog", CAT + '"instances": [-1e999]}', "catalog --catalog @FILE@"),
    ("catalog", '{"schema": "gpuplan.catalog/9"}', "catalog --catalog @FILE@"),
    ("catalog", CAT + '"instances": [' + ",".join(["0"] * 100001) + "]}", "catalog --catalog @FILE@"),
    ("catalog", CAT + '"instances": [{"name": "x1.big"}]}', "catalog --catalog @FILE@"),
    ("bench results", '{"schema": "gpuplan.bench/9"}', "simulate decode --fit-bench @FILE@"),
    ("bench results", '{"schema": "gpuplan.bench/1", "records": "none"}', "simulate decode --fit-bench @FILE@"),
]


def golden_cases():
    """The error.* cases of tests/cli/cases/*.cases, run from the repository root."""
    cases = []
    for case in load_all([os.path.join(ROOT, "tests", "cli", "cases")], {"DATA": "tests/cli/data", "SCENARIOS": "assets/scenarios"}):
        if not case.error or case.name[len("error."):] in SKIP:
            continue
        checks = case.checks
        big = [checks[i + 1:i + 3] for i, c in enumerate(checks) if c == "--big-file"]
        empty = [checks[i + 1] for i, c in enumerate(checks) if c == "--empty-file"]
        envs = [checks[i + 1] for i, c in enumerate(checks) if c == "--env"]
        setup = f"{big[0][1]} zero bytes in @WORK@/{big[0][0]}" if big else (f"empty file @WORK@/{empty[0]}" if empty else "")
        setup = f"environment {envs[0]}" if envs else setup
        cases.append(("cli", setup, " ".join(case.args), case.args))
    return cases


def run(gpuplan, args, setup, file_text):
    with tempfile.TemporaryDirectory() as work:
        m = re.match(r"(\d+) zero bytes in @WORK@/(\S+)", setup)
        if m:
            with open(os.path.join(work, m.group(2)), "wb") as f:
                f.truncate(int(m.group(1)))
        m = re.match(r"empty file @WORK@/(\S+)", setup)
        if m:
            open(os.path.join(work, m.group(1)), "w").close()
        if file_text is not None:
            with open(os.path.join(work, "input.json"), "w", encoding="utf-8") as f:
                f.write(file_text)
        argv = [a.replace("@FILE@", "@WORK@/input.json").replace("@WORK@", work) for a in args]
        env = dict(os.environ)
        m = re.match(r"environment (\w+)=(.*)", setup)
        if m:
            env[m.group(1)] = m.group(2)
        p = subprocess.run([gpuplan] + argv, cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)
        err = p.stderr.replace(work, "@WORK@")
        return p.returncode, p.stdout, err


def split_message(message):
    """'where: got value; expected what' -> (where, value, what); other forms -> (message, '', '')."""
    m = re.match(r"(.*?): got (.*); expected (.*)$", message, re.S)
    return (m.group(1), m.group(2), m.group(3)) if m else (message, "", "")


def cell(text):
    return "`" + text.replace("|", "\\|").replace("`", "'") + "`" if text else ""


def plain(text):
    return text.replace("|", "\\|")


def uncell(text):
    text = text.strip().replace("\\|", "|")
    return text[1:-1] if text.startswith("`") and text.endswith("`") and len(text) >= 2 else text


def short_file(text):
    """The file text as a table shows it: a long run of a 1-4 character unit collapsed to
    «unit»<xN>, e.g. «[»<x33> for 33 "[" or «0,»<x100000>."""
    return re.sub(r"(.{1,4}?)\1{19,}", lambda m: f"«{m.group(1)}»<x{len(m.group(0)) // len(m.group(1))}>", text)


def long_file(text):
    return re.sub(r"«(.+?)»<x(\d+)>", lambda m: m.group(1) * int(m.group(2)), text)


def write(gpuplan):
    rows = []
    cases = [(area, setup, line, args, None) for area, setup, line, args in golden_cases()]
    cases += [(area, "", line, shlex.split(line), text) for area, text, line in EXTRA]
    for area, setup, line, args, text in cases:
        rc, out, err = run(gpuplan, args, setup, text)
        lines = err.splitlines()
        if rc != 2 or out or len(lines) != 1 or not lines[0].startswith("gpuplan: error: "):
            sys.exit(f"case `{line}` did not give one error line with exit 2 (exit {rc}): {err!r}")
        where, got, expected = split_message(lines[0][len("gpuplan: error: "):])
        setup_shown = setup if text is None else short_file(text)
        rows.append(f"| {area} | {cell('gpuplan ' + line)} | {cell(setup_shown)} | {plain(where)} | {plain(got)} | {plain(expected)} |")
    table = ["| Input | Command | File or setup | Where (field, flag, file) | Got | Expected |", "|---|---|---|---|---|---|"] + rows
    doc = open(DOC, encoding="utf-8").read()
    start, stop = doc.index(BEGIN) + len(BEGIN), doc.index(END)
    doc = doc[:start] + "\n" + "\n".join(table) + "\n" + doc[stop:]
    open(DOC, "w", encoding="utf-8").write(doc)
    print(f"{len(rows)} rows written to {DOC}")


def check(gpuplan):
    doc = open(DOC, encoding="utf-8").read()
    body = doc[doc.index(BEGIN) + len(BEGIN):doc.index(END)]
    failures = checked = 0
    for row in body.strip().splitlines()[2:]:
        cells = re.split(r"(?<!\\)\|", row)[1:-1]
        area, command, setup, where, got, expected = (c.strip() for c in cells)
        command = uncell(command)
        setup = uncell(setup)
        args = shlex.split(command)[1:]
        text = None
        if "@FILE@" in command:
            text, setup = long_file(setup), ""
        want = where.replace("\\|", "|") + (f": got {got.replace(chr(92) + '|', '|')}; expected {expected.replace(chr(92) + '|', '|')}" if got or expected else "")
        rc, out, err = run(gpuplan, args, setup, text)
        checked += 1
        if rc != 2 or out or err != f"gpuplan: error: {want}\n":
            failures += 1
            print(f"FAIL: {command}\n  want: gpuplan: error: {want}\n  got (exit {rc}): {err!r}")
    print(f"{checked} error messages checked, {failures} differ")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("--write", "--check"):
        sys.exit(__doc__)
    gpuplan = os.path.abspath(sys.argv[2])
    sys.exit(write(gpuplan) if sys.argv[1] == "--write" else check(gpuplan))
