#!/usr/bin/env python3
"""Build the docs, assemble the served site, and check its links.

    scripts/docs_site.py build  --out DIR            # mkdocs build --strict: any warning fails
    scripts/docs_site.py assemble --web WEB --out SITE   # SITE/ = app (/), api (/api/), docs (/docs/)
    scripts/docs_site.py check-links --site SITE     # every internal link of SITE/docs resolves

The served layout (interface 6 of the team brief, used by scripts/serve.sh and tests/docs):
    SITE/index.html, gpuplan.js, gpuplan.wasm, ...   the browser planner (wasm build's web/)
    SITE/api/gpuplan-api.js, gpuplan-api.wasm        the JS API (docs/js-api.md)
    SITE/docs/...                                    the MkDocs site, with the scenario files
                                                     (docs/scenarios links to assets/scenarios)
The link checker reads the built HTML (no network): every href/src that is not an external URL
must name a file of SITE (a folder means its index.html) and, with a #fragment, an element id
in that page; every data-gpuplan-scenario (live numbers, embeds) must name a scenario file.
"""
from __future__ import annotations

import argparse
import html.parser
import os
import re
import shutil
import subprocess
import sys
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Files of the wasm build's web/ folder that the page needs (the rest is CMake's).
# .br and .gz: the precompressed siblings scripts/precompress.js writes (copied with their
# times, so scripts/static_server.js still finds them as new as the originals).
WEB_SUFFIXES = {".html", ".js", ".wasm", ".css", ".data", ".png", ".svg", ".ico", ".json", ".woff2", ".ttf", ".map", ".br", ".gz"}


def build(out: Path, config: Path = ROOT / "mkdocs.yml") -> int:
    """mkdocs build --strict into out; mkdocs prints the warnings that fail it."""
    mkdocs = shutil.which("mkdocs") or "/usr/bin/mkdocs"
    if not os.path.exists(mkdocs):
        print("docs_site: mkdocs not found (Debian packages mkdocs and mkdocs-material; scripts/setup.sh)", file=sys.stderr)
        return 1
    p = subprocess.run([mkdocs, "build", "--strict", "-f", str(config), "-d", str(out)],
                       capture_output=True, text=True)
    # Pass on what is not routine progress (INFO lines and their continuations).
    info = False
    for line in (p.stdout + p.stderr).splitlines():
        line = re.sub(r"\x1b\[[0-9;]*m", "", line)  # mkdocs colours its level names
        if line.startswith("INFO"):
            info = True
        elif not line.startswith(" "):
            info = False
        if not info and line.strip():
            print(line, file=sys.stderr)
    if p.returncode != 0:
        print(f"docs_site: mkdocs build --strict failed (exit {p.returncode})", file=sys.stderr)
        return 1
    # mkdocs only notes (INFO) a page missing from the nav; here it is an error, so a new page
    # can never be built but unreachable.
    text = re.sub(r"\x1b\[[0-9;]*m", "", p.stdout + p.stderr)
    m = re.search(r"not included in the \"nav\" configuration:\n((?:\s+- .*\n?)+)", text)
    if m:
        pages = ", ".join(line.strip()[2:] for line in m.group(1).splitlines() if line.strip())
        print(f"docs_site: pages not in the nav of mkdocs.yml: {pages}", file=sys.stderr)
        return 1
    print(f"docs_site: built the docs into {out}")
    return 0


def copy_web(src: Path, dst: Path) -> int:
    n = 0
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(src)
        if rel.parts[0] in ("CMakeFiles", "docs") or not path.is_file() or path.suffix not in WEB_SUFFIXES:
            continue
        target = dst / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
        n += 1
    return n


def assemble(web: Path, out: Path) -> int:
    missing = [f for f in ("index.html", "gpuplan.js", "gpuplan.wasm", "api/gpuplan-api.js", "api/gpuplan-api.wasm")
               if not (web / f).is_file()]
    if missing:
        print(f"docs_site: {web} lacks {', '.join(missing)}: build the wasm preset's gpuplan_web and gpuplan_api targets",
              file=sys.stderr)
        return 1
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    n = copy_web(web, out)
    rc = build(out / "docs")
    if rc == 0:
        print(f"docs_site: assembled {out} (app and api: {n} files from {web}; docs at /docs/)")
    return rc


class Links(html.parser.HTMLParser):
    """Collects ids and outgoing references of one HTML page."""

    def __init__(self):
        super().__init__()
        self.ids: set[str] = set()
        self.refs: list[tuple[str, str]] = []  # (attribute, value)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("id", "name"):
            if a.get(key):
                self.ids.add(a[key])
        for key in ("href", "src", "data-gpuplan-scenario"):
            v = a.get(key)
            if v is None:
                continue
            if tag == "link" and a.get("rel") in ("preconnect", "dns-prefetch"):
                continue
            self.refs.append((key, v))


def check_links(site: Path, pages_under: str = "docs") -> int:
    site = Path(os.path.abspath(site))
    parsed: dict[Path, Links] = {}

    def page(p: Path) -> Links:
        if p not in parsed:
            links = Links()
            links.feed(p.read_text(encoding="utf-8", errors="replace"))
            parsed[p] = links
        return parsed[p]

    html_files = sorted((site / pages_under).rglob("*.html"))
    if not html_files:
        print(f"docs_site: no HTML pages under {site / pages_under}", file=sys.stderr)
        return 1
    broken, checked, external = [], 0, 0
    for f in html_files:
        base_url = "/" + f.relative_to(site).as_posix()
        for attr, ref in page(f).refs:
            if attr == "data-gpuplan-scenario" and ref.startswith("#"):
                if ref[1:] not in page(f).ids:
                    broken.append(f"{f.relative_to(site)}: {attr}={ref}: no element with that id")
                continue
            url = urllib.parse.urlsplit(ref)
            if url.scheme or url.netloc:
                external += 1  # http(s), mailto, data: never fetched (no network in tests)
                continue
            checked += 1
            target_path = urllib.parse.unquote(urllib.parse.urljoin(base_url, url.path)) if url.path else base_url
            target = Path(os.path.normpath(site / target_path.lstrip("/")))
            if target.is_dir():
                target = target / "index.html"
            if site not in target.parents and target != site:
                broken.append(f"{f.relative_to(site)}: {attr}={ref}: outside the site")
                continue
            if not target.is_file():
                broken.append(f"{f.relative_to(site)}: {attr}={ref}: {target.relative_to(site)} does not exist")
                continue
            if url.fragment and target.suffix == ".html" and urllib.parse.unquote(url.fragment) not in page(target).ids:
                broken.append(f"{f.relative_to(site)}: {attr}={ref}: no id '{url.fragment}' in {target.relative_to(site)}")
    for b in broken:
        print("broken link: " + b, file=sys.stderr)
    print(f"docs_site: {len(html_files)} pages, {checked} internal links checked, {len(broken)} broken, "
          f"{external} external links not followed")
    return 1 if broken else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="mkdocs build --strict")
    b.add_argument("--out", required=True, type=Path)
    b.add_argument("--config", type=Path, default=ROOT / "mkdocs.yml", help="mkdocs.yml to build (default: the repository's)")
    a = sub.add_parser("assemble", help="app + api + docs into one served folder")
    a.add_argument("--web", required=True, type=Path, help="the wasm build's web/ folder (with api/)")
    a.add_argument("--out", required=True, type=Path)
    c = sub.add_parser("check-links", help="check internal links of the built docs")
    c.add_argument("--site", required=True, type=Path, help="assembled site (docs under docs/), or --docs-only")
    c.add_argument("--docs-only", action="store_true",
                   help="SITE is the MkDocs output itself: links into the app or api are not checked")
    args = ap.parse_args()
    if args.command == "build":
        return build(args.out, args.config)
    if args.command == "assemble":
        return assemble(args.web, args.out)
    if args.docs_only:
        # Place the docs output under a docs/ folder of a temporary site so relative links that
        # climb to /docs/ resolve; links into the app (/ and /api/) are then reported broken
        # unless the site is assembled, so only use this where the docs link nowhere else.
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            os.symlink(args.site.resolve(), Path(tmp) / "docs")
            # The planner's page stands at / in an assembled site; here a placeholder, so the
            # docs' "Open the planner" link resolves (the assembled check reads the real one).
            (Path(tmp) / "index.html").write_text("<!doctype html><title>planner</title>\n", encoding="utf-8")
            return check_links(Path(tmp))
    return check_links(args.site)


if __name__ == "__main__":
    sys.exit(main())
