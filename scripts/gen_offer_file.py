#!/usr/bin/env python3
"""Write a synthetic AWS EC2 offer file of about a given size, for the import benchmark.

The layout is that of an AWS Price List Bulk API EC2 offer file (products, then terms.OnDemand
and terms.Reserved; docs/catalog.md, "Price overlays"); SKUs and prices are made up. Like a
real region's file, most products are types or variants the importer skips (other operating
systems, dedicated tenancy, pre-installed software, instance types outside the catalog), and
each product carries one on-demand term and several reserved terms.

    scripts/gen_offer_file.py OUT.json [--mb 450]

Python 3 standard library only; streams its output, so memory stays small.
"""

import argparse
import json
import random

CATALOG_TYPES = ["p5.48xlarge", "p4d.24xlarge", "g6.xlarge", "g6e.12xlarge", "g5.48xlarge", "trn1.32xlarge", "inf2.48xlarge"]
OTHER_TYPES = [f"{f}.{s}" for f in ("m5", "c6i", "r7g", "t3", "x2iedn", "i4i") for s in ("large", "xlarge", "4xlarge", "16xlarge")]
OPERATING_SYSTEMS = ["Linux", "Windows", "RHEL", "SUSE", "Ubuntu Pro", "Red Hat Enterprise Linux with HA"]
TENANCIES = ["Shared", "Dedicated", "Host"]
SOFTWARE = ["NA", "SQL Web", "SQL Std", "SQL Ent"]
CAPACITY = ["Used", "UnusedCapacityReservation", "AllocatedCapacityReservation"]
RESERVED = [(lease, cls, opt) for lease in ("1yr", "3yr") for cls in ("standard", "convertible")
            for opt in ("No Upfront", "Partial Upfront", "All Upfront")]


def product(sku, rng, kept_types):
    itype = rng.choice(CATALOG_TYPES) if rng.random() < 0.2 else rng.choice(OTHER_TYPES)
    # As in AWS's files, one SKU per type is the Linux, shared, no-software, "Used" row.
    first = itype in CATALOG_TYPES and itype not in kept_types
    if first:
        kept_types.add(itype)
    attributes = {
        "servicecode": "AmazonEC2", "location": "EU (London)", "locationType": "AWS Region", "instanceType": itype,
        "currentGeneration": "Yes", "instanceFamily": "GPU instance" if itype in CATALOG_TYPES else "General purpose",
        "vcpu": "192", "physicalProcessor": "AMD EPYC 7R13 Processor", "clockSpeed": "3.6 GHz", "memory": "2048 GiB",
        "storage": "8 x 3800 SSD", "networkPerformance": "3200 Gigabit", "processorArchitecture": "64-bit",
        "tenancy": rng.choice(TENANCIES), "operatingSystem": rng.choice(OPERATING_SYSTEMS),
        "licenseModel": "No License required", "usagetype": "EUW2-BoxUsage:" + itype, "operation": "RunInstances",
        "availabilityzone": "NA", "capacitystatus": rng.choice(CAPACITY), "classicnetworkingsupport": "false",
        "dedicatedEbsThroughput": "80000 Mbps", "ecu": "NA", "enhancedNetworkingSupported": "Yes", "gpuMemory": "NA",
        "intelAvxAvailable": "No", "marketoption": "OnDemand", "normalizationSizeFactor": "192",
        "preInstalledSw": rng.choice(SOFTWARE), "processorFeatures": "AMD Turbo", "regionCode": "eu-west-2",
        "servicename": "Amazon Elastic Compute Cloud", "vpcnetworkingsupport": "true",
    }
    kept = (attributes["operatingSystem"], attributes["tenancy"], attributes["preInstalledSw"], attributes["capacitystatus"]) == \
        ("Linux", "Shared", "NA", "Used")
    if first:
        attributes.update(operatingSystem="Linux", tenancy="Shared", preInstalledSw="NA", capacitystatus="Used")
    elif kept:
        attributes["operatingSystem"] = "Windows"
    return {"sku": sku, "productFamily": "Compute Instance", "attributes": attributes}


def dimension(code, unit, usd, description):
    return {"rateCode": code, "description": description, "beginRange": "0", "endRange": "Inf", "unit": unit,
            "pricePerUnit": {"USD": f"{usd:.10f}"}, "appliesTo": []}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--mb", type=float, default=450, help="target size in MB (10^6 bytes)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    # About 12.25 kB per SKU (product, one on-demand and twelve reserved terms), measured on its output.
    skus = [f"SYN{n:013d}" for n in range(int(args.mb * 1e6 / 12250))]
    with open(args.out, "w") as out:
        out.write('{\n "formatVersion": "v1.0",\n "disclaimer": "Synthetic: written by gpuplan scripts/gen_offer_file.py for a benchmark",\n'
                  ' "offerCode": "AmazonEC2",\n "version": "20260701000000",\n "publicationDate": "2026-07-01T00:00:00Z",\n "products": {\n')
        kept_types = set()
        for n, sku in enumerate(skus):
            out.write(("," if n else "") + f'  "{sku}": ' + json.dumps(product(sku, rng, kept_types), indent=1) + "\n")
        out.write(' },\n "terms": {\n  "OnDemand": {\n')
        for n, sku in enumerate(skus):
            code = f"{sku}.JRTCKXETXF"
            term = {code: {"offerTermCode": "JRTCKXETXF", "sku": sku, "effectiveDate": "2026-07-01T00:00:00Z",
                           "priceDimensions": {code + ".6YS6EN2CT7": dimension(code + ".6YS6EN2CT7", "Hrs", rng.uniform(0.1, 90), "per hour")},
                           "termAttributes": {}}}
            out.write(("," if n else "") + f'   "{sku}": ' + json.dumps(term, indent=1) + "\n")
        out.write('  },\n  "Reserved": {\n')
        for n, sku in enumerate(skus):
            terms = {}
            for k, (lease, cls, opt) in enumerate(RESERVED):
                code = f"{sku}.R{k:09d}"
                upfront = 0 if opt == "No Upfront" else rng.uniform(1000, 400000)
                hourly = 0 if opt == "All Upfront" else rng.uniform(0.05, 60)
                dims = {code + ".2TG2D8R56U": dimension(code + ".2TG2D8R56U", "Quantity", upfront, "Upfront Fee"),
                        code + ".6YS6EN2CT7": dimension(code + ".6YS6EN2CT7", "Hrs", hourly, "per hour")}
                terms[code] = {"offerTermCode": f"R{k:09d}", "sku": sku, "effectiveDate": "2026-07-01T00:00:00Z", "priceDimensions": dims,
                               "termAttributes": {"LeaseContractLength": lease, "OfferingClass": cls, "PurchaseOption": opt}}
            out.write(("," if n else "") + f'   "{sku}": ' + json.dumps(terms, indent=1) + "\n")
        out.write('  }\n },\n "attributesList": {}\n}\n')


if __name__ == "__main__":
    main()
