#!/usr/bin/env python3
r"""The CLI golden cases of tests/cli/cases/*.cases: reads them, checks them, prints them.

  cases.py --cmake --data DIR --scenarios DIR CASES_DIR   one line per case for CMakeLists.txt:
      NAME, then run_case.sh's arguments (CHECK... -- ARG...), separated by the byte 0x1f
  cases.py --list [--data DIR] [--scenarios DIR] CASES_DIR|FILE...   as shell command lines

CASES_DIR (tests/cli/cases) stands for its files in the order of FILES below: the order of the
tests and of the rows of docs/errors.md.

The format (the top of each .cases file repeats it):
  NAME | CHECK... -- ARG...       one case: the test cli.NAME runs `run_case.sh GPUPLAN CHECK...
                                  -- ARG...` (run_case.sh documents the checks)
  error.NAME | CHECK... -- ARG... an error case, cli.error.NAME: the checks `--rc 2 --empty-out
                                  --one-line-err` come first (exit 2, nothing on stdout, one
                                  "gpuplan: error: ..." line), then CHECK...
  define NAME = WORD...           a named group of words for the cases below it in that file
  A line that starts with a space continues the one above; blank lines and lines starting
  with "#" are skipped. Words are split as a POSIX shell does (Python shlex: '...' is literal,
  "..." too except \\ and \"), with no variables, globs or comments. @NAME@ is replaced by a
  define of the file or by @DATA@ (tests/cli/data) or @SCENARIOS@ (assets/scenarios): a word
  that is exactly @NAME@ by all its words, @NAME@ inside a longer word by its one word.
  @WORK@ is left for run_case.sh (a scratch folder).

errors_table.py imports load_all() to rerun the error cases (docs/errors.md).
"""
import os
import re
import shlex
import sys

ERROR_CHECKS = ["--rc", "2", "--empty-out", "--one-line-err"]
# run_case.sh's checks and how many values each takes.
CHECKS = {"--rc": 1, "--out": 1, "--out-re": 1, "--not-out": 1, "--err": 1, "--empty-out": 0,
          "--one-line-err": 0, "--json": 1, "--empty-file": 1, "--big-file": 2, "--env": 1,
          "--first": 1, "--no-file": 1}
PLACEHOLDER = re.compile(r"@([A-Z][A-Z0-9_]*)@")
SEP = "\x1f"
FILES = ["basics", "pricing", "usage", "prices", "input_errors", "workload", "train", "topology", "recommend", "simulate", "bench", "accuracy"]


class Case:
    def __init__(self, name, checks, args, where):
        self.name, self.checks, self.args, self.where = name, checks, args, where

    @property
    def error(self):
        return self.name.startswith("error.")

    def argv(self):
        """run_case.sh's arguments after GPUPLAN."""
        return (ERROR_CHECKS if self.error else []) + self.checks + ["--"] + self.args


def _expand(words, env, where):
    out = []
    for w in words:
        m = PLACEHOLDER.fullmatch(w)
        if m and m.group(1) in env:
            out.extend(env[m.group(1)])
            continue

        def one(m):
            name = m.group(1)
            if name == "WORK":
                return m.group(0)
            if name not in env:
                raise ValueError(f"{where}: @{name}@ is not defined")
            if len(env[name]) != 1:
                raise ValueError(f"{where}: @{name}@ is {len(env[name])} words, inside the word {w!r}")
            return env[name][0]
        out.append(PLACEHOLDER.sub(one, w))
    return out


def _entries(path):
    """(line number, text) of each entry, continuation lines joined."""
    entries = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if line[0] in " \t":
                if not entries:
                    raise ValueError(f"{path}:{number}: a continuation line with nothing to continue")
                entries[-1][1] += " " + line.strip()
            else:
                entries.append([number, line])
    return entries


def load(path, builtins):
    """The cases of one file, in order; builtins: {"DATA": ..., "SCENARIOS": ...}."""
    env, cases = dict((k, [v]) for k, v in builtins.items()), []
    for number, text in _entries(path):
        where = f"{path}:{number}"
        try:
            if text.startswith("define "):
                m = re.fullmatch(r"define ([A-Z][A-Z0-9_]*) = (.*)", text)
                if not m or m.group(1) in env or m.group(1) == "WORK":
                    raise ValueError("expected `define NAME = WORD...` with a new upper-case NAME")
                env[m.group(1)] = _expand(shlex.split(m.group(2)), env, where)
                continue
            name, bar, rest = text.partition("|")
            name = name.strip()
            if not bar or not re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_.-]*", name):
                raise ValueError("expected `NAME | CHECK... -- ARG...`")
            words = _expand(shlex.split(rest), env, where)
            checks, i = [], 0
            while i < len(words) and words[i] != "--":
                n = CHECKS.get(words[i])
                if n is None or i + n >= len(words):
                    raise ValueError(f"unknown check or missing value: {words[i]!r}")
                checks += words[i:i + n + 1]
                i += n + 1
            if i == len(words):
                raise ValueError("no `--` before the command's arguments")
            cases.append(Case(name, checks, words[i + 1:], where))
        except ValueError as e:
            raise ValueError(e.args[0] if str(e).startswith(where) else f"{where}: {e}") from None
    return cases


def case_files(folder):
    """The .cases files of a folder in the order of FILES, which must name each of them."""
    found = sorted(f[:-len(".cases")] for f in os.listdir(folder) if f.endswith(".cases"))
    if found != sorted(FILES):
        raise ValueError(f"{folder}: holds {found}, cases.py FILES names {sorted(FILES)}")
    return [os.path.join(folder, f + ".cases") for f in FILES]


def load_all(paths, builtins):
    """The cases of files or folders of .cases files, checking that no name comes twice."""
    paths = [f for p in paths for f in (case_files(p) if os.path.isdir(p) else [p])]
    cases = [c for p in paths for c in load(p, builtins)]
    seen = set()
    for c in cases:
        if c.name in seen:
            raise ValueError(f"{c.where}: a second case named {c.name}")
        seen.add(c.name)
    return cases


def _cmake_safe(word):
    """CMake splits a list at ';' unless inside [...] or after '\\', and drops empty items."""
    depth = 0
    for ch in word:
        depth += {"[": 1, "]": -1}.get(ch, 0)
        if depth < 0:
            break
    return word and ";" not in word and "\n" not in word and depth == 0 and not word.endswith("\\")


def main(argv):
    mode = argv[0] if argv else ""
    builtins, paths, i = {"DATA": "tests/cli/data", "SCENARIOS": "assets/scenarios"}, [], 1
    while i < len(argv):
        if argv[i] in ("--data", "--scenarios") and i + 1 < len(argv):
            builtins[argv[i][2:].upper()] = argv[i + 1]
            i += 2
        else:
            paths.append(argv[i])
            i += 1
    if mode not in ("--cmake", "--list") or not paths:
        sys.exit(__doc__)
    try:
        cases = load_all(paths, builtins)
        for c in cases:
            bad = [w for w in c.argv() if not _cmake_safe(w)]
            if mode == "--cmake" and bad:
                raise ValueError(f"{c.where}: CMake cannot pass {bad[0]!r} (empty, ';', newline, "
                                 "unbalanced [ ] or a trailing backslash)")
    except (OSError, ValueError) as e:
        sys.exit(f"cases.py: {e}")
    if mode == "--cmake":  # no newline after the last line: CMake would read an empty case
        sys.stdout.write("\n".join(SEP.join([c.name] + c.argv()) for c in cases))
    else:
        for c in cases:
            print(f"cli.{c.name}: " + shlex.join(["run_case.sh", "GPUPLAN"] + c.argv()))


if __name__ == "__main__":
    main(sys.argv[1:])
