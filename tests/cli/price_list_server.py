"""A loopback HTTP server in the layout of AWS's Price List Bulk API, for `gpuplan prices update`.

It serves the service index, EC2's and the Savings Plans region indexes and each region's price
files (built from tests/cli/data/price-list/, written for these tests in AWS's layout), the way
the real host does: Content-Length, an ETag per file, byte ranges (206) for a resumed download,
redirects. Faults are scripted per path and per request, so a test can have the first answer
break and the second succeed, as real downloads do:

    ok              the file (a Range header gets 206 and the rest)
    truncate        the full Content-Length announced, half the body sent, the connection closed
    503             HTTP 503
    404             HTTP 404
    redirect:PATH   HTTP 302 to PATH
    ignore-range    the whole file with 200 even when a Range was asked for
    etag:TEXT       the file with another ETag (the file changed on the server)

A path's script is consumed one entry per request; when it runs out, "ok". Every request is
logged (path, Range header, status) for the test to check what the client asked.
"""
import hashlib
import http.server
import json
import pathlib
import threading

SERVICE_INDEX = "/offers/v1.0/aws/index.json"
EC2_REGION_INDEX = "/offers/v1.0/aws/AmazonEC2/current/region_index.json"
SP_REGION_INDEX = "/savingsPlan/v1.0/aws/AWSComputeSavingsPlan/current/region_index.json"


def ec2_file(region):
    return f"/offers/v1.0/aws/AmazonEC2/20260701000000/{region}/index.json"


def sp_file(region):
    return f"/savingsPlan/v1.0/aws/AWSComputeSavingsPlan/20260701000000/{region}/index.json"


def build_files(data_dir):
    """path -> bytes: two regions (eu-west-2 with Savings Plans, us-east-1 without) and the indexes."""
    data = pathlib.Path(data_dir) / "price-list"
    eu = (data / "ec2-eu-west-2.json").read_text()
    # us-east-1: the same products moved to another region (region code, location, usage type).
    us = eu.replace("eu-west-2", "us-east-1").replace("EU (London)", "US East (N. Virginia)").replace("EUW2-BoxUsage", "BoxUsage")
    files = {
        ec2_file("eu-west-2"): eu.encode(),
        ec2_file("us-east-1"): us.encode(),
        sp_file("eu-west-2"): (data / "savings-plans-eu-west-2.json").read_bytes(),
        "/offers/v1.0/aws/AmazonS3/20260701000000/eu-west-2/index.json": (data / "s3-offer.json").read_bytes(),
    }
    files[SERVICE_INDEX] = json.dumps({
        "formatVersion": "v1.0",
        "disclaimer": "Written for gpuplan's tests in the layout of AWS's service index.",
        "publicationDate": "2026-07-01T00:00:00Z",
        "offers": {
            "AmazonS3": {"offerCode": "AmazonS3", "currentRegionIndexUrl": "/offers/v1.0/aws/AmazonS3/current/region_index.json"},
            "AmazonEC2": {
                "offerCode": "AmazonEC2",
                "versionIndexUrl": "/offers/v1.0/aws/AmazonEC2/index.json",
                "currentVersionUrl": "/offers/v1.0/aws/AmazonEC2/current/index.json",
                "currentRegionIndexUrl": EC2_REGION_INDEX,
                "savingsPlanVersionIndexUrl": "/savingsPlan/v1.0/aws/AWSComputeSavingsPlan/current/index.json",
                "currentSavingsPlanIndexUrl": SP_REGION_INDEX,
            },
        },
    }, indent=1).encode()
    files[EC2_REGION_INDEX] = json.dumps({
        "formatVersion": "v1.0",
        "disclaimer": "Written for gpuplan's tests in the layout of AWS's EC2 region index.",
        "publicationDate": "2026-07-01T00:00:00Z",
        "regions": {r: {"regionCode": r, "currentVersionUrl": ec2_file(r)} for r in ("eu-west-2", "us-east-1", "xx-test-9")},
    }, indent=1).encode()
    files[SP_REGION_INDEX] = json.dumps({
        "disclaimer": "Written for gpuplan's tests in the layout of AWS's Savings Plans region index.",
        "publicationDate": "2026-07-01T00:00:00Z",
        "regions": [{"regionCode": "eu-west-2", "versionUrl": sp_file("eu-west-2")}],
    }, indent=1).encode()
    return files


class PriceListServer:
    def __init__(self, files, script=None):
        self.files = dict(files)
        self.script = {path: list(steps) for path, steps in (script or {}).items()}
        self.log = []  # (path, range header or None, status)
        self.lock = threading.Lock()
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                server.answer(self)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()

    def requests(self, path):
        return [entry for entry in self.log if entry[0] == path]

    def answer(self, h):
        path = h.path.split("?")[0]
        with self.lock:
            steps = self.script.get(path, [])
            step = steps.pop(0) if steps else "ok"
        asked_range = h.headers.get("Range")

        def status(code, body=b"", headers=()):
            self.log.append((path, asked_range, code))
            h.send_response(code)
            for k, v in headers:
                h.send_header(k, v)
            h.send_header("Content-Length", str(len(body)))
            h.end_headers()
            h.wfile.write(body)

        if step in ("503", "404"):
            return status(int(step), b"<Error/>")
        if step.startswith("redirect:"):
            return status(302, headers=[("Location", step[len("redirect:"):])])
        target = self.files.get(path)
        if target is None:
            return status(404, b"<Error><Code>NoSuchKey</Code></Error>")
        etag = '"' + hashlib.md5(target).hexdigest() + '"'
        if step.startswith("etag:"):
            etag = '"' + step[len("etag:"):] + '"'
        start = 0
        if asked_range and step != "ignore-range" and asked_range.startswith("bytes=") and asked_range.endswith("-"):
            start = int(asked_range[len("bytes="):-1])
        body = target[start:]
        code = 206 if start else 200
        self.log.append((path, asked_range, code))
        h.send_response(code)
        h.send_header("ETag", etag)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(body)))
        if start:
            h.send_header("Content-Range", f"bytes {start}-{len(target) - 1}/{len(target)}")
        h.end_headers()
        if step == "truncate":
            h.wfile.write(body[: len(body) // 2])
            h.wfile.flush()
            h.close_connection = True
            return
        h.wfile.write(body)
