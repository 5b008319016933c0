#!/usr/bin/env python3
"""Proves the docs link checker can fail: a small site with one good link of each kind and
one broken link of each kind must report exactly the broken ones (exit 1), and the same
site without them must pass (exit 0)."""
import subprocess
import sys
import tempfile
from pathlib import Path

CHECKER = Path(__file__).resolve().parents[2] / "scripts" / "docs_site.py"
GOOD = """<a href="../b/">b</a> <a href="../b/#sec">b, section</a> <img src="../img.png">
<span id="inline"></span><span data-gpuplan-scenario="../scenarios/s.json"></span>
<span data-gpuplan-scenario="#inline"></span> <a href="https://example.invalid/">external</a>"""
BROKEN = """<a href="../missing/">1</a> <a href="../b/#nosuchid">2</a>
<span data-gpuplan-scenario="../scenarios/none.json"></span> <span data-gpuplan-scenario="#noid"></span>"""


def run(with_broken: bool):
    with tempfile.TemporaryDirectory() as tmp:
        docs = Path(tmp) / "docs"
        for d in ("a", "b", "scenarios"):
            (docs / d).mkdir(parents=True)
        (docs / "a" / "index.html").write_text(GOOD + (BROKEN if with_broken else ""))
        (docs / "b" / "index.html").write_text('<h2 id="sec">s</h2>')
        (docs / "img.png").write_bytes(b"")
        (docs / "scenarios" / "s.json").write_text("{}")
        p = subprocess.run([sys.executable, str(CHECKER), "check-links", "--site", tmp], capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr


rc, out = run(False)
if rc != 0:
    sys.exit(f"FAIL: a site with only good links was rejected:\n{out}")
rc, out = run(True)
reported = [line for line in out.splitlines() if line.startswith("broken link:")]
expected = ["../missing/", "#nosuchid", "none.json", "#noid"]
if rc != 1 or len(reported) != len(expected) or not all(any(e in r for r in reported) for e in expected):
    sys.exit(f"FAIL: expected exit 1 and {len(expected)} broken links ({', '.join(expected)}), got exit {rc}:\n{out}")
print(f"PASS: the link checker accepts good links and reports all {len(expected)} broken ones")
