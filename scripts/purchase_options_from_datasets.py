#!/usr/bin/env python3
"""Write assets/catalog/purchase-options.json: which purchase options AWS sells, from public data.

Reads two public datasets (kept out of the repository; their figures travel with their source
and date, docs/pricing.md "Which options exist"):

  --capacity-blocks  koyakimu/ec2-capacity-blocks-for-ml-pricing-json data/pricing.json at
                     b3a54ae (2026-07-22), scraped from AWS's Capacity Blocks for ML pricing page:
                     every type and region (and Local Zone) with a Capacity Block, per instance-hour.
  --reserved         tsaol/aws-gpu data/all_gpu_instances.js at 7412fd2 (2026-01-21), derived from
                     instances.vantage.sh (AWS's price list): per type and region the Linux
                     on-demand price and the 1-year Standard no-upfront Reserved rate
                     ("yrTerm1Standard.noUpfront" in its scripts/utils.py).
  --catalog          assets/catalog/instances.json: the types and the regions each is offered in.

Writes a price overlay (schema gpuplan.catalog/1, docs/catalog.md "Price overlays"):
  prices       capacity-block prices and reserved-1y-no-upfront rates, per type and region the
               catalog offers the type in;
  not_offered  where a dataset shows an option absent:
               - Capacity Blocks: the page is AWS's full list, so a catalog type it does not name
                 has none anywhere, and a type it names has none outside the regions it names;
               - Standard RIs: a type the dataset lists with an on-demand price but no reserved
                 rate in a region, or with no price at all anywhere (p5e, p6e-gb200, trn2.48xlarge).
  Anything else (a type or region the dataset does not cover) stays assumed.
Python 3 standard library only.
"""

import argparse
import json
import sys
from pathlib import Path

CB_SOURCE = "CB-PRICING"
CB_AS_OF = "2026-07-22"  # metadata.last_updated 2026-07-22T07:14:56Z
RI_SOURCE = "RI-VANTAGE"
RI_AS_OF = "2026-01-21"  # "Last updated: 2026-01-21" in the file's header

SOURCES = {
    CB_SOURCE: {
        "title": "koyakimu/ec2-capacity-blocks-for-ml-pricing-json: data/pricing.json (commit b3a54ae, "
                 "last_updated 2026-07-22T07:14:56Z), scraped monthly from AWS's \"Amazon EC2 Capacity "
                 "Blocks for ML pricing\" page: price per instance-hour by type and region or Local Zone",
        "url": "https://aws.amazon.com/ec2/capacityblocks/pricing/",
    },
    RI_SOURCE: {
        "title": "tsaol/aws-gpu: data/all_gpu_instances.js (commit 7412fd2, \"Last updated: 2026-01-21\"), "
                 "derived from instances.vantage.sh (AWS's price list): Linux on-demand and 1-year "
                 "Standard no-upfront Reserved Instance rate per type and region",
        "url": None,
    },
}


def money(x):
    return f"${x:,.4f}".rstrip("0").rstrip(".") if x < 100 else f"${x:,.3f}"


def load_reserved(path):
    text = Path(path).read_text()
    return {x["name"]: x for x in json.loads(text[text.index("["): text.rindex("]") + 1])}


def catalog_regions(catalog):
    return {i["name"]: sorted({p["region"] for p in i["prices"]}) for i in catalog["instances"]}


def capacity_blocks(cb, offered, prices, not_offered, dropped):
    listed = cb["instance_types"]
    for name, regions in offered.items():
        entry = listed.get(name)
        if not entry:
            not_offered.append({"instance": name, "option": "capacity-block", "as_of": CB_AS_OF, "source": CB_SOURCE,
                                "note": f"AWS's Capacity Blocks pricing page lists no {name} in any region or Local Zone"})
            continue
        by_region = {}
        for p in entry["pricing"]:
            by_region.setdefault(p["region_code"], []).append(p)
        parents = {}
        for code, ps in by_region.items():
            parent = next((r for r in regions if code.startswith(r + "-")), None)
            if parent:
                parents.setdefault(parent, []).append((code, ps[0]["hourly_rate_usd"]))
        for code, ps in sorted(by_region.items()):
            if code not in regions:
                if not any(code.startswith(r + "-") for r in regions):
                    dropped.append(f"{name} {code} {ps[0]['hourly_rate_usd']} (the catalog does not offer {name} there)")
                continue
            rate = ps[0]["hourly_rate_usd"]
            gpus = entry.get("accelerator_count")
            note = f"{money(rate)} per instance-hour"
            if gpus:
                note += f" ({money(ps[0]['accelerator_hourly_rate_usd'])} per accelerator-hour x {gpus})"
            zones = parents.get(code, [])
            if zones:
                note += "; also in Local Zone " + ", ".join(f"{z} at {money(r)}" for z, r in zones)
            prices.append({"instance": name, "region": code, "option": "capacity-block", "usd_per_hour": rate,
                           "as_of": CB_AS_OF, "source": CB_SOURCE, "note": note})
        names = sorted(by_region)
        not_offered.append({"instance": name, "option": "capacity-block", "as_of": CB_AS_OF, "source": CB_SOURCE,
                            "note": f"AWS's Capacity Blocks pricing page lists {name} only in " + ", ".join(names)})


def reserved(ri, offered, prices, not_offered):
    for name, regions in offered.items():
        entry = ri.get(name)
        if not entry:
            continue  # not in the dataset: assumed
        pricing = entry.get("pricing") or {}
        if not pricing:
            not_offered.append({"instance": name, "option": "reserved", "as_of": RI_AS_OF, "source": RI_SOURCE,
                                "note": f"the dataset lists {name} with no price at all (no on-demand, no Standard Reserved "
                                        "Instance) in any region"})
            continue
        if not any("reserved" in p for p in pricing.values()):
            not_offered.append({"instance": name, "option": "reserved", "as_of": RI_AS_OF, "source": RI_SOURCE,
                                "note": f"the dataset lists {name} with on-demand prices in {len(pricing)} regions and no "
                                        "Standard Reserved Instance rate in any"})
            continue
        for region in regions:
            p = pricing.get(region)
            if not p or p.get("onDemand") is None:
                continue  # region not covered: assumed
            if "reserved" in p:
                prices.append({"instance": name, "region": region, "option": "reserved-1y-no-upfront",
                               "usd_per_hour": p["reserved"], "upfront_usd": 0, "as_of": RI_AS_OF, "source": RI_SOURCE,
                               "note": f"1-year Standard no-upfront; on-demand in the same dataset {money(p['onDemand'])}"})
            else:
                not_offered.append({"instance": name, "option": "reserved", "region": region, "as_of": RI_AS_OF,
                                    "source": RI_SOURCE,
                                    "note": f"the dataset lists {name} in {region} at {money(p['onDemand'])} on-demand and no "
                                            "Standard Reserved Instance rate"})


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--capacity-blocks", required=True)
    ap.add_argument("--reserved", required=True)
    ap.add_argument("--catalog", default="assets/catalog/instances.json")
    ap.add_argument("--out", default="assets/catalog/purchase-options.json")
    a = ap.parse_args()
    cb = json.loads(Path(a.capacity_blocks).read_text())
    if cb["metadata"]["last_updated"][:10] != CB_AS_OF:
        sys.exit(f"{a.capacity_blocks}: last_updated {cb['metadata']['last_updated']}, expected {CB_AS_OF} (update CB_AS_OF)")
    offered = catalog_regions(json.loads(Path(a.catalog).read_text()))
    prices, not_offered, dropped = [], [], []
    capacity_blocks(cb, offered, prices, not_offered, dropped)
    reserved(load_reserved(a.reserved), offered, prices, not_offered)
    doc = {"schema": "gpuplan.catalog/1", "sources": SOURCES, "prices": prices, "not_offered": not_offered}
    # One entry a line: the file is embedded in the program and the browser bundle.
    lines = ",\n    ".join(json.dumps(p) for p in prices)
    absent = ",\n    ".join(json.dumps(n) for n in not_offered)
    Path(a.out).write_text('{\n  "schema": "gpuplan.catalog/1",\n  "sources": ' + json.dumps(SOURCES, indent=2).replace("\n", "\n  ") +
                           ',\n  "prices": [\n    ' + lines + '\n  ],\n  "not_offered": [\n    ' + absent + "\n  ]\n}\n")
    cbs = sum(p["option"] == "capacity-block" for p in prices)
    print(f"{a.out}: {cbs} Capacity Block prices, {len(prices) - cbs} reserved-1y-no-upfront rates, "
          f"{len(not_offered)} not-offered records")
    for d in dropped:
        print("  not shipped:", d)


if __name__ == "__main__":
    main()
