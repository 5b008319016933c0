#!/usr/bin/env python3
"""Recompute the payment multipliers of core/gpuplan/pricing/purchase_options.cpp.

An assumed partial- or all-upfront commitment is priced at the no-upfront rate times a
multiplier (docs/pricing.md "Upfront payments"). The multipliers are the medians, over every
type and region of a public dataset, of each payment's effective hourly rate divided by the
no-upfront rate of the same Reserved Instance class and term.

  FILE  tsaol/aws-gpu data/gpu_instances_raw.json at commit
        2d0108c7bd261c8e40493fbd35135437bd6c9099 (2025-11-30), a dump of instances.vantage.sh
        (which reads AWS's price list): per type and region, Linux "reserved" rates keyed
        "yrTerm1Standard.partialUpfront" and so on, effective hourly (upfront spread over the term).

Prints one line per class, term and payment: pairs, median, 10th and 90th percentiles.
Python 3 standard library only.
"""

import argparse
import json
import statistics


def ratios(instances):
    """{(term, class, payment): [rate / no-upfront rate, ...]} over every type and region."""
    out = {}
    for instance in instances:
        for region in instance.get("pricing", {}).values():
            reserved = (region.get("linux") or {}).get("reserved") or {}
            for term in ("yrTerm1", "yrTerm3"):
                for ri_class in ("Standard", "Convertible"):
                    none = float(reserved.get(f"{term}{ri_class}.noUpfront") or 0)
                    for payment in ("partialUpfront", "allUpfront"):
                        rate = float(reserved.get(f"{term}{ri_class}.{payment}") or 0)
                        if none > 0 and rate > 0:
                            out.setdefault((term, ri_class, payment), []).append(rate / none)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", help="gpu_instances_raw.json (see above)")
    args = parser.parse_args()
    with open(args.file, encoding="utf-8") as f:
        table = ratios(json.load(f))
    print("term     class        payment          pairs  median  p10     p90")
    for (term, ri_class, payment), values in sorted(table.items()):
        deciles = statistics.quantiles(values, n=10)
        print(f"{term:8} {ri_class:12} {payment:15} {len(values):6}  {statistics.median(values):.4f}  {deciles[0]:.4f}  {deciles[-1]:.4f}")


if __name__ == "__main__":
    main()
