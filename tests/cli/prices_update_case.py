"""`gpuplan prices update` against a loopback server in AWS's Price List layout (price_list_server.py).

Usage: prices_update_case.py GPUPLAN DATA_DIR

Each check runs the real binary over HTTP on 127.0.0.1 (never the internet) with the failures real
downloads meet: a redirect, a body cut short (then resumed with a Range request), a server that
ignores the Range, a file that changes between attempts, 503s, a 404, files not in AWS's layout, an
unknown region, no server at all. The happy path's overlay must equal what `gpuplan prices import`
writes from the same files read from disk.
"""
import json
import os
import pathlib
import socket
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import price_list_server as pls  # noqa: E402

GPUPLAN, DATA = sys.argv[1], sys.argv[2]
FILES = pls.build_files(DATA)
FAST = ["--retry-delay", "0.01", "--stall-timeout", "5"]
failures = []


def run(args):
    return subprocess.run([GPUPLAN] + args, capture_output=True, text=True, timeout=120)


def check(name, condition, detail=""):
    print(("ok   " if condition else "FAIL ") + name + ("" if condition else ": " + detail))
    if not condition:
        failures.append(name)


def update(server, work, *extra):
    out = str(pathlib.Path(work) / "overlay.json")
    return run(["prices", "update", "--base-url", server.base_url, "--out", out] + FAST + list(extra)), out


def import_from_disk(work, paths):
    """The overlay `prices import` writes from the same files read from disk: the reference."""
    local = []
    for i, path in enumerate(paths):
        f = pathlib.Path(work) / f"local{i}.json"
        f.write_bytes(FILES[path])
        local.append(str(f))
    out = str(pathlib.Path(work) / "imported.json")
    r = run(["prices", "import"] + local + ["--out", out])
    assert r.returncode == 0, r.stderr
    return json.loads(pathlib.Path(out).read_text())["prices"]


def one_error_line(r):
    lines = r.stderr.strip().splitlines()
    return len(lines) == 1 and lines[0].startswith("gpuplan: error: ") and r.stdout == ""


with tempfile.TemporaryDirectory() as work:
    every_file = [pls.ec2_file("eu-west-2"), pls.sp_file("eu-west-2"), pls.ec2_file("us-east-1")]
    reference = import_from_disk(work, every_file)

    # Happy path: every region both AWS and gpuplan know; the overlay equals the import's.
    with pls.PriceListServer(FILES) as s:
        r, out = update(s, work, "--progress", "--format", "json")
        check("happy: exit 0", r.returncode == 0, r.stderr)
        j = json.loads(r.stdout) if r.returncode == 0 else {}
        written = json.loads(pathlib.Path(out).read_text())["prices"] if r.returncode == 0 else None
        check("happy: the overlay equals prices import's from the same files", written == reference,
              f"{len(written or [])} prices against {len(reference)}")
        check("happy: eu-west-2 and us-east-1 (xx-test-9 is no region gpuplan knows)", j.get("regions") == ["eu-west-2", "us-east-1"], str(j.get("regions")))
        check("happy: three price files, each once", [d["url"] for d in j.get("downloads", [])] == [s.base_url + p for p in every_file]
              and all(d["attempts"] == 1 for d in j["downloads"]), str(j.get("downloads")))
        check("happy: bytes counted", j.get("bytes_downloaded") == sum(len(FILES[p]) for p in every_file), str(j.get("bytes_downloaded")))
        check("happy: us-east-1 has no Savings Plans file, said so",
              any("lists no file for us-east-1" in w for w in j.get("warnings", [])), str(j.get("warnings")))
        check("happy: progress per file on stderr", "[1/3] eu-west-2 EC2 prices: " in r.stderr and "[3/3] us-east-1 EC2 prices: " in r.stderr
              and "/s)" in r.stderr, r.stderr)
        check("happy: the S3 offer is never fetched", not s.requests("/offers/v1.0/aws/AmazonS3/20260701000000/eu-west-2/index.json"))

    # The table output, and --regions choosing one.
    with pls.PriceListServer(FILES) as s:
        r, out = update(s, work, "--regions", "eu-west-2")
        check("one region: exit 0", r.returncode == 0, r.stderr)
        check("one region: says what it wrote", "wrote " + out + ": 11 prices" in r.stdout
              and "downloaded 17.3 kB in 2 files from " + s.base_url in r.stdout, r.stdout)
        check("one region: only its files fetched", not s.requests(pls.ec2_file("us-east-1")))
        check("one region: no progress unless asked (stderr is no terminal)", r.stderr == "", r.stderr)

    # A redirect on the way to EC2's region index (CloudFront and S3 redirect).
    moved = dict(FILES)
    moved["/moved/region_index.json"] = FILES[pls.EC2_REGION_INDEX]
    with pls.PriceListServer(moved, {pls.EC2_REGION_INDEX: ["redirect:/moved/region_index.json"]}) as s:
        r, out = update(s, work, "--regions", "eu-west-2")
        check("redirect: followed", r.returncode == 0 and s.requests("/moved/region_index.json"), r.stderr)

    # A body cut short, then resumed with a Range request from where it broke.
    eu = pls.ec2_file("eu-west-2")
    with pls.PriceListServer(FILES, {eu: ["truncate"]}) as s:
        r, out = update(s, work, "--format", "json", "--progress")
        half = len(FILES[eu]) // 2
        asked = s.requests(eu)
        check("resume: exit 0", r.returncode == 0, r.stderr)
        check("resume: the retry asked for the rest only", [a[1] for a in asked] == [None, f"bytes={half}-"] and asked[1][2] == 206, str(asked))
        j = json.loads(r.stdout) if r.returncode == 0 else {"downloads": [{}]}
        check("resume: two attempts, one resumed", (j["downloads"][0].get("attempts"), j["downloads"][0].get("resumed")) == (2, 1), str(j["downloads"][0]))
        check("resume: the overlay equals prices import's", json.loads(pathlib.Path(out).read_text())["prices"] == reference)
        check("resume: the retry is shown with its cause", f"the connection closed at byte {half:,} of {len(FILES[eu]):,}; attempt 2 of 4, resuming at byte {half:,}\n" in r.stderr, r.stderr)

    # A server that ignores the Range and sends the whole file again: the bytes already parsed are skipped.
    with pls.PriceListServer(FILES, {eu: ["truncate", "ignore-range"]}) as s:
        r, out = update(s, work)
        check("range ignored: exit 0", r.returncode == 0, r.stderr)
        check("range ignored: a 200 answered the Range", [a[2] for a in s.requests(eu)] == [200, 200], str(s.requests(eu)))
        check("range ignored: the overlay equals prices import's", r.returncode == 0 and json.loads(pathlib.Path(out).read_text())["prices"] == reference)

    # Every later run must leave the previous overlay untouched when it fails.
    previous = pathlib.Path(work) / "overlay.json"
    OLD = '{"prices": []}\n'
    previous.write_text(OLD)

    # The file changed on the server between the attempts: refused, not stitched together.
    with pls.PriceListServer(FILES, {eu: ["truncate", "etag:another-version"]}) as s:
        r, out = update(s, work)
        check("changed file: exit 3", r.returncode == 3, f"{r.returncode} {r.stderr}")
        check("changed file: says so", "the file changed on the server during the download" in r.stderr and one_error_line(r), r.stderr)
        check("changed file: previous overlay kept", previous.read_text() == OLD)

    # A body cut short on every attempt.
    with pls.PriceListServer(FILES, {eu: ["truncate"] * 3}) as s:
        r, out = update(s, work, "--attempts", "3")
        check("always cut: exit 3", r.returncode == 3, f"{r.returncode} {r.stderr}")
        check("always cut: names the URL, the cause and the attempts",
              f"cannot download {s.base_url}{eu}: the connection closed at byte " in r.stderr and "(3 attempts)" in r.stderr
              and "is as it was" in r.stderr and one_error_line(r), r.stderr)
        check("always cut: previous overlay kept", previous.read_text() == OLD)

    # 503 once: retried; 503 every time: given up, named.
    with pls.PriceListServer(FILES, {pls.SERVICE_INDEX: ["503"]}) as s:
        r, out = update(s, work, "--regions", "eu-west-2")
        check("503 once: retried and done", r.returncode == 0 and [a[2] for a in s.requests(pls.SERVICE_INDEX)] == [503, 200], r.stderr)
    previous.write_text(OLD)  # the run before succeeded
    with pls.PriceListServer(FILES, {pls.sp_file("eu-west-2"): ["503"] * 2}) as s:
        r, out = update(s, work, "--attempts", "2")
        check("503 always: exit 3, named", r.returncode == 3 and "HTTP 503 (Service Unavailable) (2 attempts)" in r.stderr
              and pls.sp_file("eu-west-2") in r.stderr and one_error_line(r), f"{r.returncode} {r.stderr}")
        check("503 always: previous overlay kept", previous.read_text() == OLD)

    # 404: not retried (the file is not there; waiting will not bring it).
    gone = dict(FILES)
    del gone[pls.ec2_file("us-east-1")]
    with pls.PriceListServer(gone) as s:
        r, out = update(s, work)
        check("404: exit 3 after one attempt", r.returncode == 3 and "HTTP 404 (Not Found)" in r.stderr
              and len(s.requests(pls.ec2_file("us-east-1"))) == 1, f"{r.returncode} {r.stderr}")

    # Not AWS's layout: a service index with no EC2, and the index pointing at an S3 offer file.
    bad_index = dict(FILES)
    bad_index[pls.SERVICE_INDEX] = b'{"formatVersion": "v1.0", "offers": {"AmazonS3": {}}}'
    with pls.PriceListServer(bad_index) as s:
        r, out = update(s, work)
        check("bad index: exit 2, the JSON path named", r.returncode == 2 and
              f"{s.base_url}{pls.SERVICE_INDEX}: $.offers.AmazonEC2: got nothing (key missing)" in r.stderr and one_error_line(r), r.stderr)
    wrong_file = dict(FILES)
    wrong_file[eu] = FILES["/offers/v1.0/aws/AmazonS3/20260701000000/eu-west-2/index.json"]
    previous.write_text(OLD)  # the run before succeeded
    with pls.PriceListServer(wrong_file) as s:
        r, out = update(s, work)
        check("S3 file where EC2's belongs: exit 2", r.returncode == 2 and "$.offerCode" in r.stderr and "AmazonS3" in r.stderr, r.stderr)
        check("S3 file: previous overlay kept", previous.read_text() == OLD)
    not_json = dict(FILES)
    not_json[pls.EC2_REGION_INDEX] = b"<html>Service Unavailable</html>"
    with pls.PriceListServer(not_json) as s:
        r, out = update(s, work)
        check("HTML where an index belongs: exit 2, named", r.returncode == 2 and pls.EC2_REGION_INDEX in r.stderr and one_error_line(r), r.stderr)

    # A region AWS does not list, and one AWS lists that gpuplan does not know.
    with pls.PriceListServer(FILES) as s:
        r, out = update(s, work, "--regions", "eu-north-9")
        check("unknown region: exit 2", r.returncode == 2 and "--regions: got 'eu-north-9'" in r.stderr
              and "eu-west-2, us-east-1" in r.stderr and one_error_line(r), r.stderr)
        r, out = update(s, work, "--regions", "xx-test-9")
        check("region gpuplan does not know: exit 2", r.returncode == 2 and "--regions: got 'xx-test-9'" in r.stderr
              and "a region gpuplan knows" in r.stderr, r.stderr)

    # No server at all: one line, exit 3, nothing written.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    previous.write_text(OLD)  # the run before succeeded
    r = run(["prices", "update", "--base-url", f"http://127.0.0.1:{closed_port}", "--out", str(previous), "--attempts", "2"] + FAST)
    check("no network: exit 3, one line", r.returncode == 3 and one_error_line(r) and "cannot download" in r.stderr
          and "no network, or the host is down" in r.stderr and "is as it was" in r.stderr, f"{r.returncode} {r.stderr}")
    check("no network: previous overlay kept", previous.read_text() == OLD)

    r = run(["prices", "update", "--base-url", "ftp://example", "--out", str(previous)])
    check("--base-url not http: exit 2, named", r.returncode == 2 and "--base-url" in r.stderr and one_error_line(r), r.stderr)

print(f"prices update: {len(failures)} failed" if failures else "prices update: all checks passed")
sys.exit(1 if failures else 0)
