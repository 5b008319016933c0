#!/usr/bin/env python3
"""Every function of the planning core (core/gpuplan/**/*.cpp) is at most ~80 lines, or says why.

The guide asks for no function over ~80 lines without a reason. A function here is a definition
at the start of a line (namespace scope, as the core writes them) whose line ends with "{", up
to the next line that is exactly "}". One over LIMIT lines passes only when the comment just
above it has a line starting "// Over 80 lines:" with the reason. clang-tidy's
readability-function-size says the same thing but takes ~2 minutes here; this takes a second.

usage: function_size.py [--limit N] [ROOT]   (ROOT: the repository, default: this file's ../..)
Exit 1 listing each long function without a reason, as path:line: name (N lines).
"""
import argparse
import pathlib
import re
import sys

NOT_A_FUNCTION = re.compile(r"^(//|#|namespace\b|struct\b|class\b|enum\b|union\b|using\b|template\b|extern\b|static_assert\b|\}|\{)")
REASON = "// Over 80 lines:"


def functions(text):
    """(first line number, name, length in lines, the comment lines above) of each definition."""
    lines = text.split("\n")
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line and not line[0].isspace() and not NOT_A_FUNCTION.match(line) and "(" in line and line.rstrip().endswith("{") \
                and "=" not in line.split("(")[0]:
            end = next((j for j in range(i + 1, len(lines)) if lines[j] == "}"), None)
            if end is None:
                break
            name = re.findall(r"([A-Za-z_][\w:~]*)\s*\(", line)
            above = []
            k = i - 1
            while k >= 0 and lines[k].startswith("//"):
                above.append(lines[k])
                k -= 1
            out.append((i + 1, name[0] if name else "?", end - i + 1, above))
            i = end + 1
            continue
        i += 1
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=85, help="lines a function may have without a reason (default 85: ~80)")
    parser.add_argument("root", nargs="?", default=str(pathlib.Path(__file__).resolve().parents[2]))
    args = parser.parse_args()
    root = pathlib.Path(args.root)
    long_without_reason, counted = [], 0
    for path in sorted((root / "core" / "gpuplan").rglob("*.cpp")):
        for line, name, length, above in functions(path.read_text()):
            counted += 1
            if length > args.limit and not any(c.startswith(REASON) for c in above):
                long_without_reason.append(f"{path.relative_to(root)}:{line}: {name} ({length} lines)")
    if counted < 100:
        print(f"function_size: only {counted} functions found under core/gpuplan: the reader is broken")
        return 1
    for entry in long_without_reason:
        print(entry)
    print(f"function_size: {counted} functions in core/gpuplan, {len(long_without_reason)} over {args.limit} lines without a "
          f"'{REASON}' comment")
    return 1 if long_without_reason else 0


if __name__ == "__main__":
    sys.exit(main())
