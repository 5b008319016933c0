#!/usr/bin/env python3
"""Regenerate gpuplan's catalog JSON from the reference CSVs.

Reads   <reference>/accelerators.csv, <reference>/aws-gpu-instances.csv and
        <reference>/regional-prices.csv (prices in the other 23 regions), and the project's
        own sheets in the same columns for the families the reference lacks:
        assets/catalog/additions/accelerators-added.csv, aws-gpu-instances-added.csv
        (inf1, g5g, g4ad, dl1, dl2q, g7; sources in each row and additions/README.md)
Writes  <out>/accelerators.json and <out>/instances.json  (schema gpuplan.catalog/1)

The JSON files are the source of truth that the C++ loader reads; this script is
only used to (re)build them. Every value comes from the CSVs or the reference
README. An empty CSV cell becomes null and gets a reason in the record's
"unknown" map (reasons starting "n/a: " mean the feature does not exist).
Python 3 standard library only. See docs/catalog.md.
"""

import argparse
import csv
import json
import re
import sys
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path

SCHEMA = "gpuplan.catalog/1"
EXPECTED_ACCELERATORS = 17
EXPECTED_INSTANCES = 67
EXPECTED_REGIONAL_ROWS = 853
EXPECTED_ADDED_ACCELERATORS = 7
EXPECTED_ADDED_INSTANCES = 23

ON_DEMAND_AS_OF = "2026-07-20"  # Karpenter pricing file stamped 2026-07-20T13:44:30Z
SPOT_AS_OF = "2026-07"          # SkyPilot snapshot is undated; about mid-2026
REGION = "us-east-1"
# regional-prices.csv (SkyPilot commit 3e9a175) is undated too; like the 2c3d7ea snapshot it lists
# G7e and P6-B300 but not G7 (GA 2026-06-18), so it is about mid-2026 (reference README, "Dates").
REGIONAL_AS_OF = "2026-07"

# --------------------------------------------------------------------------
# Sources, as listed in the reference README ("Sources" section, plus the
# third-party article named in "Where the seed figures disagree with AWS").
# url is null where the README names a repository/file but gives no URL.
# --------------------------------------------------------------------------
SOURCES = {
    "AWS-AC": {
        "title": 'AWS, "Specifications for Amazon EC2 accelerated computing instances" '
                 "(performance, network, EBS, instance store and family summary tables; "
                 "read from a public markdown copy; undated)",
        "url": "https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html",
    },
    "KARP": {
        "title": "aws/karpenter-provider-aws: website/content/en/preview/reference/instance-types.md "
                 "(generated from EC2 DescribeInstanceTypes; repo HEAD of 21 Aug 2026), "
                 "website/content/en/v1.12/reference/instance-types.md (P3) and "
                 "pkg/providers/instancetype/zz_generated.bandwidth.go",
        "url": None,
    },
    "KARP-PRICE": {
        "title": "aws/karpenter-provider-aws: pkg/providers/pricing/zz_generated.pricing_aws.go "
                 "(AWS price list, on-demand, generated 2026-07-20T13:44:30Z)",
        "url": None,
    },
    "SKY": {
        "title": "skypilot-org/skypilot-catalog: catalogs/v9/aws/vms.csv (per-AZ spot and on-demand; "
                 "commit 2c3d7ea7d76bf84cf80d382e946c1609571485fd; undated, about mid-2026)",
        "url": None,
    },
    "SKY-REGIONS": {
        "title": "skypilot-org/skypilot-catalog: catalogs/v9/aws/vms.csv (per-region on-demand Price and "
                 "per-AZ SpotPrice; commit 3e9a1751b1edfb3592877f242c2f8dc10fc1fc6e; undated, about mid-2026), "
                 "summarised per region in the reference sheet regional-prices.csv (method in regional-prices.md)",
        "url": None,
    },
    "SKY-ZONES": {
        "title": "skypilot-org/skypilot-catalog: catalogs/v9/aws/vms.csv (commit 3e9a1751b1edfb3592877f242c2f8dc10fc1fc6e; "
                 "undated, about mid-2026): each availability zone's SpotPrice and its Price, kept per zone in "
                 "assets/catalog/additions/spot-zones.csv; the typical spot price is the median over a region's zones "
                 "whose SpotPrice is not the on-demand Price (SkyPilot's placeholder for a zone with no spot price)",
        "url": None,
    },
    "VANTAGE-OD": {
        "title": "tsaol/aws-gpu: data/all_gpu_instances.js (commit 7412fd2, \"Last updated: 2026-01-21\"), derived from "
                 "instances.vantage.sh (AWS's price list): Linux on-demand per type and region, kept for the regions the "
                 "SkyPilot snapshots do not cover in assets/catalog/additions/regional-prices-added.csv",
        "url": None,
    },
    "KARP-PRICE-GOV": {
        "title": "aws/karpenter-provider-aws: pkg/providers/pricing/zz_generated.pricing_aws_us_gov.go (commit 6fc13b5; "
                 "AWS GovCloud price list, on-demand, generated 2026-07-20), kept in "
                 "assets/catalog/additions/regional-prices-added.csv",
        "url": None,
    },
    "NCCL": {
        "title": "aws/aws-ofi-nccl: src/platform-aws.cpp (per-platform gdr_required flag)",
        "url": None,
    },
    "NEURON": {
        "title": "aws-neuron/aws-neuron-sdk: about-neuron/arch/neuron-hardware/trainium2.rst, "
                 "general/arch/neuron-hardware/trn2-arch.rst, general/arch/neuron-hardware/inf2-arch.rst; "
                 "AWS Neuron documentation (Trainium, Inferentia2, Trainium2 pages)",
        "url": "https://awsdocs-neuron.readthedocs-hosted.com",
    },
    "P3-LAUNCH": {
        "title": "AWS P3 launch post (NVLink 200/300 GB/s, EBS, network), Chinese translation",
        "url": "https://infoq.cn/article/j629I8X512fg8tuKd6ke",
    },
    "P4D-DEEP-DIVE": {
        "title": 'AWS, "Amazon EC2 P4d instances deep dive" (GPUDirect RDMA), repost',
        "url": "https://noise.getoto.net/2020/11/03/amazon-ec2-p4d-instances-deep-dive/",
    },
    "P6E-HYPERPOD": {
        "title": "AWS ML blog on SageMaker HyperPod with P6e-GB200 UltraServers, summary",
        "url": "https://news.fishaiapp.com/news/4622641",
    },
    "G7E-LAUNCH": {
        "title": "AWS G7e launch announcement (GPUDirect RDMA/P2P) as summarised in a public repo note",
        "url": None,
    },
    "RTX-PRO-6000-DS": {
        "title": "NVIDIA RTX PRO 6000 Blackwell Server Edition datasheet figures as quoted in public repos",
        "url": None,
    },
    "GK-H100": {
        "title": "glennklockwood.com, H100 page (cites NVIDIA datasheets)",
        "url": "https://glennklockwood.com/garden/processors/h100",
    },
    "GK-A100": {
        "title": "glennklockwood.com, A100 page (cites NVIDIA datasheets)",
        "url": "https://glennklockwood.com/garden/processors/A100",
    },
    "TORCHTITAN": {
        "title": "pytorch/torchtitan: torchtitan/tools/utils.py (dense BF16 peaks citing nvidia.com "
                 "and the Blackwell datasheet)",
        "url": None,
    },
    "NV-BLACKWELL-ULTRA": {
        "title": 'NVIDIA developer blog, "Inside NVIDIA Blackwell Ultra: the chip powering the AI factory era"',
        "url": "https://developer.nvidia.com/blog/inside-nvidia-blackwell-ultra-the-chip-powering-the-ai-factory-era",
    },
    "FIBERMALL-HGX": {
        "title": "HGX B300/B200 table, third-party copy of NVIDIA's HGX page (fibermall)",
        "url": "https://fibermall.com/blog/?p=17161",
    },
    "VULTR-HGX-B200": {
        "title": "Vultr inference cookbook, HGX B200 hardware overview",
        "url": "https://docs.vultr.com/inference-cookbook/cuda/getting-started/hardware-overview",
    },
    "L40S-REPRINT": {
        "title": "NVIDIA L40S datasheet reprint (reseller page)",
        "url": "https://www.mullet.se/product.html?product_id=355414",
    },
    "BASETEN-A10G": {
        "title": 'Baseten, "NVIDIA A10 vs A10G for ML model inference"',
        "url": "https://www.baseten.co/blog/nvidia-a10-vs-a10g-for-ml-model-inference/",
    },
    "CUDA-CC-LIST": {
        "title": "NVIDIA CUDA GPU compute capability list, reprint",
        "url": "https://michaelbommarito.com/wiki/programming/tools/gpu-compute-capability",
    },
    "DEPLOYBASE-L40S": {
        "title": "Third-party article on L40S on AWS (2026) carrying the seed's g6e GPU/network table "
                 "(disagrees with AWS; cited only in corrections)",
        "url": "https://deploybase.ai/articles/l40s-aws",
    },
}

# --------------------------------------------------------------------------
# Reasons for empty accelerator cells (README "Known gaps", flops_basis and
# source_notes). Keyed by accelerator name, then dotted JSON path.
# --------------------------------------------------------------------------
NOT_FOUND = "not found in the sources read"
NO_NVLINK = "n/a: no NVLink on this part; peers talk over PCIe"


def _na_volta(what):
    return f"n/a: Volta has no {what} support"


_VOLTA = {
    "dense_tflops.tf32": _na_volta("TF32"),
    "dense_tflops.bf16": _na_volta("BF16"),
    "dense_tflops.fp8": _na_volta("FP8"),
    "dense_tflops.fp4": _na_volta("FP4"),
    "pcie_gen": "PCIe generation not confirmed in the sources read",
    "pcie_lanes": "PCIe lane count not confirmed in the sources read",
}
_AMPERE_FP = {
    "dense_tflops.fp8": "n/a: Ampere has no FP8 tensor cores",
    "dense_tflops.fp4": "n/a: Ampere has no FP4 tensor cores",
}
_BLACKWELL_PCIE = {
    "pcie_gen": "Blackwell PCIe generation " + NOT_FOUND,
    "pcie_lanes": "Blackwell PCIe lane count " + NOT_FOUND,
}
_NEURON = {
    "dense_tflops.fp4": "no FP4 figure in the AWS Neuron docs read",
    "pcie_gen": "PCIe generation " + NOT_FOUND,
    "pcie_lanes": "PCIe lane count " + NOT_FOUND,
    "tdp_w": "Neuron chip TDP " + NOT_FOUND,
}
_RTX_TENSOR = ("NVIDIA's Server Edition datasheet omits dense tensor figures "
               "(marketing quotes only sparse FP4 TOPS and an unqualified ~1 PFLOP FP16/BF16)")
_TURING = {
    "dense_tflops.tf32": "n/a: Turing has no TF32 support",
    "dense_tflops.bf16": "n/a: Turing has no BF16 support",
    "dense_tflops.fp8": "n/a: Turing has no FP8 support",
    "dense_tflops.fp4": "n/a: Turing has no FP4 tensor cores",
    "peer_link": NO_NVLINK,
    "peer_link_gb_per_s": NO_NVLINK,
}
_A10G_FLOPS = "NVIDIA publishes no A10G datasheet (A10 figures are in flops_basis only)"

ACCEL_REASONS = {
    "V100-16GB": dict(_VOLTA),
    "V100-32GB": dict(_VOLTA),
    "A100-40GB": dict(_AMPERE_FP),
    "A100-80GB": dict(_AMPERE_FP),
    "H100-SXM": {"dense_tflops.fp4": "n/a: Hopper has no FP4 tensor cores"},
    "H200": {"dense_tflops.fp4": "n/a: Hopper has no FP4 tensor cores"},
    "B200": dict(_BLACKWELL_PCIE),
    "B300": dict(_BLACKWELL_PCIE, tdp_w="B300 TDP " + NOT_FOUND),
    "GB200": dict(_BLACKWELL_PCIE, **{
        "dense_tflops.fp32": "GB200 FP32 " + NOT_FOUND,
        "dense_tflops.tf32": "GB200 TF32 " + NOT_FOUND,
        "tdp_w": "GB200 TDP " + NOT_FOUND,
    }),
    "T4": dict(_TURING),
    "A10G": dict(_AMPERE_FP, **{
        "dense_tflops.fp32": _A10G_FLOPS,
        "dense_tflops.tf32": _A10G_FLOPS,
        "dense_tflops.bf16": _A10G_FLOPS,
        "dense_tflops.fp16": _A10G_FLOPS,
        "peer_link": NO_NVLINK,
        "peer_link_gb_per_s": NO_NVLINK,
    }),
    "L4": {
        "dense_tflops.fp4": "n/a: Ada Lovelace has no FP4 tensor cores",
        "peer_link": NO_NVLINK,
        "peer_link_gb_per_s": NO_NVLINK,
    },
    "L40S": {
        "dense_tflops.fp4": "n/a: Ada Lovelace has no FP4 tensor cores",
        "peer_link": NO_NVLINK,
        "peer_link_gb_per_s": NO_NVLINK,
    },
    "RTX PRO 6000 Blackwell Server": {
        "dense_tflops.tf32": _RTX_TENSOR,
        "dense_tflops.bf16": _RTX_TENSOR,
        "dense_tflops.fp16": _RTX_TENSOR,
        "dense_tflops.fp8": _RTX_TENSOR,
        "dense_tflops.fp4": _RTX_TENSOR,
        "peer_link": NO_NVLINK,
        "peer_link_gb_per_s": NO_NVLINK,
    },
    "Trainium": dict(_NEURON),
    "Trainium2": dict(_NEURON),
    "Trainium3": {k: v for k, v in _NEURON.items() if k != "dense_tflops.fp4"},
    "Inferentia2": dict(_NEURON),
    # additions/accelerators-added.csv
    "Inferentia": dict(_NEURON, **{
        "dense_tflops.fp32": "no FP32 figure in the AWS Neuron docs read (FP32 models are cast to BF16)",
        "dense_tflops.tf32": "n/a: NeuronCore-v1 has no TF32",
        "dense_tflops.fp8": "n/a: NeuronCore-v1 has no FP8",
        "dense_tflops.fp4": "n/a: NeuronCore-v1 has no FP4",
    }),
    "T4G": dict(_TURING),
    "Radeon Pro V520": {
        "compute_capability": "n/a: an AMD GPU has no CUDA compute capability",
        "memory_bandwidth_gb_per_s": "Radeon Pro V520 memory bandwidth " + NOT_FOUND,
        "dense_tflops.tf32": "n/a: RDNA has no TF32 tensor units",
        "dense_tflops.bf16": "Radeon Pro V520 BF16 " + NOT_FOUND,
        "dense_tflops.fp16": "Radeon Pro V520 FP16 " + NOT_FOUND,
        "dense_tflops.fp8": "n/a: RDNA has no FP8",
        "dense_tflops.fp4": "n/a: RDNA has no FP4",
        "peer_link": "n/a: no GPU-to-GPU link named in any source read; peers talk over PCIe",
        "peer_link_gb_per_s": "n/a: no GPU-to-GPU link named in any source read; peers talk over PCIe",
        "pcie_gen": "PCIe generation " + NOT_FOUND,
        "pcie_lanes": "PCIe lane count " + NOT_FOUND,
        "tdp_w": "Radeon Pro V520 TDP " + NOT_FOUND,
    },
    "Gaudi HL-205": {
        "memory_bandwidth_gb_per_s": "Gaudi HBM bandwidth " + NOT_FOUND,
        **{f"dense_tflops.{p}": "Habana published benchmark results, not peak FLOPS, for first-generation Gaudi"
           for p in ("fp32", "tf32", "bf16", "fp16", "fp8", "fp4")},
        "peer_link": "Gaudi links chips over its own on-chip 100GbE RoCE ports, not a named peer link; DL1's wiring not confirmed",
        "peer_link_gb_per_s": "Gaudi links chips over its own on-chip 100GbE RoCE ports, not a named peer link; DL1's wiring not confirmed",
        "pcie_gen": "PCIe generation " + NOT_FOUND,
        "pcie_lanes": "PCIe lane count " + NOT_FOUND,
        "tdp_w": "HL-205 TDP " + NOT_FOUND,
    },
    "Qualcomm Cloud AI 100 Standard": {
        "dense_tflops.fp32": "Qualcomm's SKU table gives FP16 and INT8 only",
        "dense_tflops.tf32": "Qualcomm's SKU table gives FP16 and INT8 only",
        "dense_tflops.bf16": "Qualcomm's SKU table gives FP16 and INT8 only",
        "dense_tflops.fp8": "Qualcomm's SKU table gives FP16 and INT8 only",
        "dense_tflops.fp4": "Qualcomm's SKU table gives FP16 and INT8 only",
        "peer_link": "n/a: no chip-to-chip link in Qualcomm's docs; cards talk over PCIe",
        "peer_link_gb_per_s": "n/a: no chip-to-chip link in Qualcomm's docs; cards talk over PCIe",
    },
    "RTX PRO 4500 Blackwell Server": {
        "dense_tflops.fp32": "NVIDIA publishes no FP32 figure or boost clock for the Server Edition (the tensor figures are "
                             "derived from its FP4 AI TOPS, flops_basis)",
        "peer_link": NO_NVLINK,
        "peer_link_gb_per_s": NO_NVLINK,
    },
}

# Neuron interconnect names; each must appear in that row's source_notes.
NEURON_LINK = {
    "Trainium": "NeuronLink-v2",
    "Trainium2": "NeuronLink-v3",
    "Trainium3": "NeuronLink-v4",
    "Inferentia2": "NeuronLink-v2",
    "Inferentia": "NeuronLink-v1",
}

# Facts the project's own sheet (additions/aws-gpu-instances-added.csv) leaves empty, and why.
ADDITION_NULL_REASONS = {
    ("dl1.24xlarge", "interconnect"): (
        "not established: Habana's 8-Gaudi servers link the chips all-to-all over 7 of each chip's on-chip "
        "100GbE RoCE ports (docs.habana.ai, distributed training overview), which none of the catalog's link "
        "kinds describes; that DL1 is wired this way is not confirmed"),
    ("dl1.24xlarge", "peer_gbit_per_s_per_accelerator"): (
        "not established: 700 Gbit/s per Gaudi over on-chip RoCE in Habana's reference server; DL1 not confirmed"),
}

# --------------------------------------------------------------------------
# Corrections: seed claims the README marks as disagreeing with AWS.
# (g6e.xlarge $1.85/h is "close" and not recorded.)
# --------------------------------------------------------------------------
_SEED = "a seed list in circulation"
_SEED_AND_ARTICLE = ("a seed list in circulation and a third-party article "
                     "(deploybase.ai/articles/l40s-aws, 2026) carrying the same table")


def _corr(field, claimed, aws, claimed_by, verdict):
    return {"field": field, "claimed": claimed, "aws": aws,
            "claimed_by": claimed_by, "verdict": verdict}


# (instance, field, claimed) -> verdict text; "aws" is filled from the catalog value.
CORRECTIONS = {
    "g6e.xlarge": [
        ("network_gbit_per_s", "10", _SEED_AND_ARTICLE,
         "disagrees: AWS lists up to 20 Gbps (2.5 baseline)"),
    ],
    "g6e.2xlarge": [
        ("accelerator_count", "2", _SEED_AND_ARTICLE, "disagrees: AWS lists 1 x L40S"),
        ("network_gbit_per_s", "25", _SEED_AND_ARTICLE,
         "disagrees: AWS lists up to 20 Gbps (5 baseline)"),
        ("prices.us-east-1.on_demand", "3.50", _SEED,
         "disagrees: AWS list price is $2.24208/h in us-east-1"),
    ],
    "g6e.4xlarge": [
        ("accelerator_count", "4", _SEED_AND_ARTICLE, "disagrees: AWS lists 1 x L40S"),
        ("network_gbit_per_s", "50", _SEED_AND_ARTICLE, "disagrees: AWS lists 20 Gbps"),
    ],
    "g6e.8xlarge": [
        ("accelerator_count", "8", _SEED_AND_ARTICLE, "disagrees: AWS lists 1 x L40S"),
        ("network_gbit_per_s", "100", _SEED_AND_ARTICLE, "disagrees: AWS lists 25 Gbps"),
    ],
    "g6e.12xlarge": [
        ("accelerator_count", "12", _SEED_AND_ARTICLE,
         "disagrees: AWS lists 4 x L40S; no 12-GPU g6e size exists"),
        ("network_gbit_per_s", "150", _SEED_AND_ARTICLE, "disagrees: AWS lists 100 Gbps"),
    ],
}

# Facts checked after the reference sheets were written (reference README, "Facts found since
# this sheet was written"): each replaces the sheet's cell, and the record keeps the sheet's
# value and the reason in its "corrections" so nothing changes silently. (record, CSV column,
# catalog field, corrected cell text, source and reason).
_SHEET = "reference sheet"
SHEET_CORRECTIONS = {
    "g7e.8xlarge": [
        ("gpudirect_rdma", "gpudirect_rdma", "no",
         "AWS G7e page: GPUDirect RDMA is supported on the multi-GPU G7e sizes only; g7e.8xlarge has one GPU"),
    ],
    "trn1n.32xlarge": [
        ("gpu_p2p_gbps_per_gpu", "peer_gbit_per_s_per_accelerator", "6144",
         "AWS Neuron docs (Trn1/Trn1n architecture): Trn1n has 768 GB/s device-to-device against "
         "Trn1's 384 GB/s; 768 GB/s = 6,144 Gbit/s"),
    ],
    "trn2u.48xlarge": [
        ("accelerator_count", "accelerator_count", "16",
         "AWS Neuron docs (Trn2 architecture): a Trn2u.48xlarge node is 16 Trainium2 chips"),
        ("accelerator_memory_gib_each", "accelerator_memory_gib_each", "96",
         "AWS Neuron docs (Trn2 architecture): 96 GiB of HBM per Trainium2"),
        ("gpu_interconnect", "interconnect", "neuronlink",
         "AWS Neuron docs (Trn2 architecture): the node's chips are joined by NeuronLink-v3"),
    ],
    "B200": [
        ("memory_bandwidth_gb_s", "memory_bandwidth_gb_per_s", "7700",
         "NVIDIA Blackwell Datasheet (doc 3384703, 2025), Individual Blackwell GPU Specifications, HGX B200 column: GPU memory 180 GB at 7.7 TB/s (its system table: HGX B200 total 62 TB/s for 8 GPUs); the 8 TB/s of the DGX B200 page (64 TB/s for 8) and of the GB200 NVL72 column are other parts"),
    ],
    "B300": [
        ("memory_bandwidth_gb_s", "memory_bandwidth_gb_per_s", "7700",
         "NVIDIA Blackwell Ultra Datasheet (OCT25), p. 5, HGX B300 column: GPU memory 270 GB at 7.7 TB/s (its system "
         "table: HGX B300 total 62 TB/s); 8 TB/s is the chip-level figure (NVIDIA blog 'Inside NVIDIA Blackwell Ultra') "
         "and the GB300 NVL72 column's"),
        ("fp4_tflops_dense", "dense_tflops.fp4", "14000",
         "NVIDIA Blackwell Ultra Datasheet (OCT25), p. 5, HGX B300 per-GPU column: FP4 Tensor Core 18 | 14 PFLOPS "
         "(sparse | dense), as the Blackwell Architecture Technical Brief V2.1, Table 3; NVIDIA's HGX page, the DGX B300 "
         "page and the datasheet's own system table give 108 PF dense for 8 GPUs (13,500 each), and a 105 PF HGX figure "
         "(13,125 each) survives only in third-party copies of an earlier HGX page; 15,000 is GB300's"),
        ("tdp_w", "tdp_w", "1100",
         "NVIDIA Blackwell Ultra Datasheet (OCT25), p. 5, HGX B300 column: Max Thermal Design Power configurable up to 1,100 W"),
    ],
    "GB200": [
        ("fp32_tflops", "dense_tflops.fp32", "80",
         "NVIDIA Blackwell Datasheet (doc 3384703), Individual Blackwell GPU Specifications, GB200 NVL72 column: FP32 80 TFLOPS "
         "per GPU (the GB200 NVL72 page: 5,760 TFLOPS for 72)"),
        ("tf32_tflops_dense", "dense_tflops.tf32", "1250",
         "NVIDIA Blackwell Datasheet (doc 3384703), GB200 NVL72 column: TF32 Tensor Core 2.5 PFLOPS, sparse ('dense is "
         "one-half'); the GB200 NVL72 page: 180 PFLOPS sparse for 72 GPUs"),
        ("tdp_w", "tdp_w", "1200",
         "NVIDIA Blackwell Datasheet (doc 3384703), GB200 NVL72 column: Max Thermal Design Power configurable up to 1,200 W per GPU"),
    ],
    "RTX PRO 6000 Blackwell Server": [
        (col, field, value,
         "derived, not published: NVIDIA gives no dense tensor figure for the Server Edition (its 4 PFLOPS FP4, 2 PFLOPS "
         "FP8 and 1 PFLOP BF16 carry no sparsity label, and the Workstation Edition datasheet, doc 3519208, marks its "
         "4,000 FP4 TOPS 'with sparsity'); dense = 188 SMs (24,064 CUDA cores / 128 per SM) x " + rate + " dense FLOP per "
         "clock per SM (NVIDIA RTX Blackwell GPU Architecture whitepaper V1.1, Appendix A, Table 3: RTX 5090, same SM) x "
         "2.493 GHz (the clock NVIDIA's 120 FP32 TFLOPS implies: 120e12 / (2 x 24,064)); whether this part halves FP8/FP16 "
         "with FP32 accumulation, as GeForce does, is not published")
        for col, field, value, rate in (("tf32_tflops_dense", "dense_tflops.tf32", "120", "256"),
                                        ("bf16_tflops_dense", "dense_tflops.bf16", "480", "1,024"),
                                        ("fp16_tflops_dense", "dense_tflops.fp16", "480", "1,024"),
                                        ("fp8_tflops_dense", "dense_tflops.fp8", "960", "2,048"),
                                        ("fp4_tflops_dense", "dense_tflops.fp4", "1920", "4,096"))
    ],
    "A10G": [
        ("bf16_tflops_dense", "dense_tflops.bf16", "70",
         "NVIDIA publishes no A10G datasheet; from the GA102 tensor cores: 80 SMs x 512 dense BF16 FLOP per clock "
         "per SM x 1.71 GHz boost = 70.0 TFLOPS"),
    ],
}
# Why a field the corrections leave null is unknown (the sheet's own reason no longer applies).
CORRECTED_NULL_REASONS = {
    ("trn2u.48xlarge", "peer_gbit_per_s_per_accelerator"):
        "AWS Neuron docs give 1,024 GB/s per device inside a Trn2 instance; the figure for the Trn2u node "
        "(part of a 64-chip UltraServer) is not stated",
}


def apply_sheet_corrections(name, row):
    """The row with SHEET_CORRECTIONS applied, and the corrections to record."""
    row = dict(row)
    out = []
    for column, field, value, why in SHEET_CORRECTIONS.get(name, []):
        claimed = row[column].strip()
        if claimed == value:
            sys.exit(f"error: {name}: correction of {column} to {value!r} is already in the sheet")
        row[column] = value
        out.append((field, claimed, value, why))
    return row, out


def correction_value(text):
    """A corrected or claimed cell as JSON: a number, a bool for yes/no, a string, or null."""
    if text == "":
        return None
    if text in ("yes", "no"):
        return text == "yes"
    return Num(text) if NUM_RE.match(text) else text


# README "Where the seed figures disagree with AWS": g7e.2xlarge $3.36312/h in us-east-1 and us-east-2.
EXTRA_PRICES = {
    "g7e.2xlarge": [{
        "region": "us-east-2", "option": "on-demand", "price": "3.36312",
        "as_of": ON_DEMAND_AS_OF, "source": "KARP-PRICE",
        "note": "Linux on-demand list price; same as us-east-1 per the reference README's seed comparison "
                "(seed list quoted $3.36/h us-east-2)",
    }],
}


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------
class Num(str):
    """A JSON number kept as its exact CSV text (no float round-trip)."""


NUM_RE = re.compile(r"^-?(0|[1-9]\d*)(\.\d+)?$")


def num(text, where):
    text = text.strip()
    if text == "":
        return None
    if not NUM_RE.match(text):
        sys.exit(f"error: {where}: not a plain number: {text!r}")
    try:
        Decimal(text)
    except InvalidOperation:
        sys.exit(f"error: {where}: bad number {text!r}")
    return Num(text)


def integer(text, where):
    v = num(text, where)
    if v is not None and "." in v:
        sys.exit(f"error: {where}: expected an integer, got {v!r}")
    return v


def text_or_none(text):
    text = text.strip()
    return text if text else None


def dump(obj, indent=0):
    pad = "  " * indent
    pad1 = "  " * (indent + 1)
    if obj is None:
        return "null"
    if obj is True:
        return "true"
    if obj is False:
        return "false"
    if isinstance(obj, Num):
        return str(obj)
    if isinstance(obj, str):
        return json.dumps(obj, ensure_ascii=False)
    if isinstance(obj, int):
        return str(obj)
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        items = [f"{pad1}{json.dumps(k)}: {dump(v, indent + 1)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(obj, list):
        if not obj:
            return "[]"
        items = [pad1 + dump(v, indent + 1) for v in obj]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    raise TypeError(f"cannot serialise {type(obj).__name__}")


def null_paths(obj, prefix=""):
    """Dotted paths of every null inside obj (lists as name[i])."""
    out = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in ("unknown", "corrections"):  # a correction's claimed value may be the sheet's empty cell
                continue
            p = f"{prefix}.{k}" if prefix else k
            if v is None:
                out.append(p)
            else:
                out.extend(null_paths(v, p))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            p = f"{prefix}[{i}]"
            if v is None:
                out.append(p)
            else:
                out.extend(null_paths(v, p))
    return out


def check_unknown(rec, what):
    nulls = set(null_paths(rec))
    reasons = rec.get("unknown", {})
    missing = nulls - set(reasons)
    extra = set(reasons) - nulls
    if missing or extra:
        sys.exit(f"error: {what}: null without reason {sorted(missing)}; reason without null {sorted(extra)}")
    for k, v in reasons.items():
        if not isinstance(v, str) or not v.strip():
            sys.exit(f"error: {what}: empty reason for {k}")


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


# --------------------------------------------------------------------------
# Accelerators
# --------------------------------------------------------------------------
def build_accelerator(row):
    name = row["accelerator"].strip()
    row, corrected = apply_sheet_corrections(name, row)
    vendor = row["vendor"].strip()
    if vendor in ("NVIDIA", "AMD"):
        kind = "gpu"
    elif name.startswith("Trainium"):
        kind = "trainium"
    elif name.startswith("Inferentia"):
        kind = "inferentia"
    elif vendor.startswith(("Habana", "Qualcomm")):
        kind = "asic"  # another vendor's AI accelerator: no CUDA, no Neuron
    else:
        sys.exit(f"error: accelerator {name}: cannot classify kind")
    w = f"accelerators.csv {name}"

    rec = {"name": name, "kind": kind, "vendor": vendor,
           "architecture": row["architecture"].strip()}
    if kind == "gpu":
        rec["compute_capability"] = text_or_none(row["compute_capability"])
    elif row["compute_capability"].strip():
        sys.exit(f"error: {w}: compute capability on a non-GPU")
    rec["memory_gib"] = num(row["memory_gib"], w)
    rec["memory_type"] = text_or_none(row["memory_type"])
    rec["memory_bandwidth_gb_per_s"] = num(row["memory_bandwidth_gb_s"], w)
    rec["dense_tflops"] = {
        "fp32": num(row["fp32_tflops"], w),
        "tf32": num(row["tf32_tflops_dense"], w),
        "bf16": num(row["bf16_tflops_dense"], w),
        "fp16": num(row["fp16_tflops_dense"], w),
        "fp8": num(row["fp8_tflops_dense"], w),
        "fp4": num(row["fp4_tflops_dense"], w),
    }
    rec["flops_basis"] = text_or_none(row["flops_basis"])
    link_bw = num(row["nvlink_gb_s_per_gpu"], w)
    notes = row["source_notes"].strip()
    if link_bw is None:
        link = None
    elif kind == "gpu":
        link = "NVLink"
    else:
        link = NEURON_LINK[name]
        if link not in notes:
            sys.exit(f"error: {w}: {link} not stated in source_notes")
    rec["peer_link"] = link
    rec["peer_link_gb_per_s"] = link_bw
    rec["pcie_gen"] = integer(row["pcie_gen"], w)
    rec["pcie_lanes"] = integer(row["pcie_lanes"], w)
    rec["tdp_w"] = num(row["tdp_w"], w)
    rec["families"] = [f.strip() for f in row["used_in_families"].split(";") if f.strip()]
    rec["source_notes"] = notes
    if corrected:
        rec["corrections"] = [_corr(f, correction_value(c), correction_value(v), _SHEET + " accelerators.csv", why)
                              for f, c, v, why in corrected]

    nulls = null_paths(rec)
    table = {k: v for k, v in ACCEL_REASONS.get(name, {}).items() if k not in {f for f, *_ in corrected}}
    unknown = {}
    for p in nulls:
        if p not in table:
            sys.exit(f"error: {w}: no reason recorded for null {p}")
        unknown[p] = table[p]
    stale = set(table) - set(nulls)
    if stale:
        sys.exit(f"error: {w}: reason table names non-null fields {sorted(stale)}")
    if unknown:
        rec["unknown"] = unknown
    return rec


# --------------------------------------------------------------------------
# Instances
# --------------------------------------------------------------------------
SPOT_RE = re.compile(r"spot median of (\d+) us-east-1 AZs ([\d.]+)-([\d.]+) \[SKY\]")
INTERCONNECTS = {"nvswitch", "nvlink", "pcie", "neuronlink", "none"}


def gpudirect(cell, notes, w):
    cell = cell.strip()
    if cell == "yes":
        return True, None
    if cell == "no":
        return False, None
    m = re.match(r"^n/a \((.+)\)$", cell)
    if m:
        return None, "n/a: " + m.group(1)
    if cell == "":
        if "gdr_required=false" in notes and "not confirmed" in notes:
            return None, ("GPUDirect RDMA not established for this size "
                          "(aws-ofi-nccl sets gdr_required=false; not confirmed elsewhere)")
        return None, "GPUDirect RDMA not established for this size"
    sys.exit(f"error: {w}: unexpected gpudirect_rdma {cell!r}")


def zone_stats(r, cap=None):
    """{count, min, max} of a regional-prices.csv row's zone spot prices; `cap` is the on-demand
    price when the snapshot's rounding put a zone above it (see add_regional_prices)."""
    lo, hi = Num(r["spot_usd_per_hour_min"]), Num(r["spot_usd_per_hour_max"])
    if cap is not None:
        lo = cap if Decimal(lo) > Decimal(cap) else lo
        hi = cap if Decimal(hi) > Decimal(cap) else hi
    return {"count": Num(r["spot_zone_count"]), "min_usd_per_hour": lo, "max_usd_per_hour": hi}


def spot_zone_note(r):
    n = int(r["spot_zone_count"])
    spread = (f"{r['spot_usd_per_hour_min']}" if r["spot_usd_per_hour_min"] == r["spot_usd_per_hour_max"]
              else f"{r['spot_usd_per_hour_min']}-{r['spot_usd_per_hour_max']}")
    # Local Zones filed under the region count among its AZs (regional-prices.md).
    return f"median of {n} {r['region']} AZ{'s' if n != 1 else ''} {spread}; one snapshot"


def sibling_on_demand_placeholder(name, region, r, od, regional):
    """(other type, price) when a two-zone row of a type with no on-demand price of its own has its
    dearer zone at exactly another type's on-demand price in the region (SkyPilot's placeholder);
    else None. Only p5e.48xlarge us-east-2 matches in regional-prices.csv at 3e9a175."""
    if od is not None or r["spot_zone_count"] != "2" or not r["spot_usd_per_hour_max"]:
        return None
    hi = Decimal(r["spot_usd_per_hour_max"])
    for (other, reg), row in sorted(regional.items()):
        if reg == region and other != name and row["on_demand_usd_per_hour"] and Decimal(row["on_demand_usd_per_hour"]) == hi:
            return other, r["spot_usd_per_hour_max"]
    return None


def add_regional_prices(name, prices, unknown, regional, w):
    """On-demand and typical spot in every region of regional-prices.csv except us-east-1 (whose
    on-demand price comes from the dated AWS price list). A region the sheet does not list for
    this type gets no entry: the type is not offered there."""
    have = {(p["region"], p["option"]): p for p in prices}
    for (inst, region), r in sorted(regional.items()):
        if inst != name or region == REGION:
            continue
        od = num(r["on_demand_usd_per_hour"], f"{w} {region}")
        spot = num(r["spot_usd_per_hour_median"], f"{w} {region}")
        spot_note = spot_zone_note(r) if spot is not None else "no spot price"
        capped = False
        zones = None
        placeholder = sibling_on_demand_placeholder(name, region, r, od, regional)
        if placeholder:
            # p5e.48xlarge us-east-2: two zones, 19.2257 and 63.296; 63.296 is p5en.48xlarge's
            # us-east-2 on-demand price, the placeholder SkyPilot writes for a zone with no spot
            # price (issue 33). The median of the two (41.26085) was no spot price at all: the
            # typical figure is the one real zone, and the note names the excluded one.
            other, at = placeholder
            spot = r["spot_usd_per_hour_min"]
            spot_note = (f"1 {region} AZ {spot}; one snapshot; a second zone at {at} excluded: it is {other}'s "
                         f"{region} on-demand price (SkyPilot's placeholder for a zone without spot), not a spot price")
            zones = {"count": 1, "min_usd_per_hour": Num(spot), "max_usd_per_hour": Num(spot)}
            spot = Num(spot)
        if spot is not None and od is not None and Decimal(spot) > Decimal(od):
            # Six rows: the zones' spot price is the on-demand price rounded to 4 places (SkyPilot
            # writes SpotPrice with 4 decimals), i.e. spot costs what on-demand does there.
            if Decimal(spot) != Decimal(od).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP):
                sys.exit(f"error: {w}: {region} spot {spot} above on-demand {od}")
            spot_note += f"; the snapshot's {spot} is the on-demand price rounded to 4 places, taken as {od}"
            spot, capped = od, True
        for option, value, note in (
                ("on-demand", od, "Linux on-demand price"),
                ("spot", spot, spot_note)):
            if (region, option) in have:
                if value is None or Decimal(have[(region, option)]["usd_per_hour"]) != Decimal(value):
                    sys.exit(f"error: {w}: {region} {option} {have[(region, option)]['usd_per_hour']} "
                             f"disagrees with regional-prices.csv {value}")
                continue
            if value is None:
                unknown[f"prices[{len(prices)}].usd_per_hour"] = (
                    f"the SkyPilot snapshot lists {name} in {region} but gives no on-demand price there"
                    if option == "on-demand" else
                    f"the SkyPilot snapshot lists {name} in {region} ({r['zones'].replace(';', ', ')}) "
                    "but no AZ there has a spot price")
            entry = {"region": region, "option": option, "usd_per_hour": value,
                     "as_of": REGIONAL_AS_OF, "source": "SKY-REGIONS", "note": note}
            if option == "spot" and value is not None:
                entry["zones"] = zones or zone_stats(r, cap=od if capped else None)
            prices.append(entry)


def build_instance(row, accel_by_name, regional):
    name = row["instance_type"].strip()
    row, corrected = apply_sheet_corrections(name, row)
    w = f"aws-gpu-instances.csv {name}"
    notes = row["source_notes"].strip()
    unknown = {}
    no_accel_list = "AWS spec table lists no accelerators for this UltraServer node type"

    accel = text_or_none(row["accelerator"])
    if accel is not None:
        if accel not in accel_by_name:
            sys.exit(f"error: {w}: unknown accelerator {accel}")
        fam = row["family"].strip()
        if fam not in accel_by_name[accel]["families"]:
            sys.exit(f"error: {w}: family {fam} not in {accel}'s families")
    else:
        unknown["accelerator"] = no_accel_list

    count = num(row["accelerator_count"], w)
    if count is None:
        if "lists no accelerators" not in notes:
            sys.exit(f"error: {w}: empty accelerator_count without explanation")
        unknown["accelerator_count"] = (no_accel_list + " (Neuron docs describe u-trn2x64 as 4 nodes "
                                        "of 16 Trainium2 each; not confirmed per node type)")
    mem_each = num(row["accelerator_memory_gib_each"], w)
    if mem_each is None:
        unknown["accelerator_memory_gib_each"] = no_accel_list

    efa = integer(row["efa_interfaces"], w)
    if efa is None:
        if "max EFA interface count not found" not in notes:
            sys.exit(f"error: {w}: empty efa_interfaces without explanation")
        unknown["efa_interfaces"] = "EFA supported per AWS; max EFA interface count not found"

    gdr, gdr_reason = gpudirect(row["gpudirect_rdma"], notes, w)
    if gdr_reason:
        unknown["gpudirect_rdma"] = gdr_reason

    ic = text_or_none(row["gpu_interconnect"])
    if ic is not None and ic not in INTERCONNECTS:
        sys.exit(f"error: {w}: unexpected gpu_interconnect {ic!r}")
    if ic is None:
        unknown["interconnect"] = ADDITION_NULL_REASONS.get((name, "interconnect"), no_accel_list)

    p2p = num(row["gpu_p2p_gbps_per_gpu"], w)
    if p2p is None:
        if ic == "none":
            if count is not None and Decimal(count) < 1:
                unknown["peer_gbit_per_s_per_accelerator"] = "n/a: single accelerator (a fraction of one L4)"
            else:
                unknown["peer_gbit_per_s_per_accelerator"] = "n/a: single accelerator"
        elif ic == "pcie":
            unknown["peer_gbit_per_s_per_accelerator"] = "AWS publishes no PCIe peer-to-peer figure"
        elif ic is None:
            unknown["peer_gbit_per_s_per_accelerator"] = ADDITION_NULL_REASONS.get((name, "peer_gbit_per_s_per_accelerator"), no_accel_list)
        elif (name, "peer_gbit_per_s_per_accelerator") in CORRECTED_NULL_REASONS:
            unknown["peer_gbit_per_s_per_accelerator"] = CORRECTED_NULL_REASONS[(name, "peer_gbit_per_s_per_accelerator")]
        else:
            sys.exit(f"error: {w}: empty p2p for interconnect {ic}")

    # --- prices (us-east-1 on-demand, us-east-1 typical spot, extras) ---
    prices = []
    od = num(row["price_on_demand_usd_hr_us_east_1"], w)
    if od is None and "not offered in us-east-1" in notes:
        # No us-east-1 entries at all: the type is not offered there (docs/catalog.md).
        add_regional_prices(name, prices, unknown, regional, w)
        if not prices:
            sys.exit(f"error: {w}: not offered in us-east-1 and no region in regional-prices.csv")
        return finish_instance(name, row, corrected, w, notes, unknown, prices, od, accel, count, mem_each, efa, gdr, ic, p2p)
    prices.append({"region": REGION, "option": "on-demand", "usd_per_hour": od,
                   "as_of": ON_DEMAND_AS_OF, "source": "KARP-PRICE",
                   "note": "Linux on-demand list price"})
    if od is None:
        if "no us-east-1 on-demand price in AWS price list snapshot" not in notes:
            sys.exit(f"error: {w}: empty on-demand price without explanation")
        reason = (f"no us-east-1 on-demand price in the AWS price-list snapshot ({ON_DEMAND_AS_OF}); "
                  "reason not established")
        if "no on-demand price in SkyPilot" in notes:
            reason += "; SkyPilot has no on-demand price for it in any region either"
        unknown["prices[0].usd_per_hour"] = reason

    spot = num(row["price_spot_typical_usd_hr_us_east_1"], w)
    zones = None
    m = SPOT_RE.search(notes)
    if spot is not None:
        if not m:
            sys.exit(f"error: {w}: spot price without a median note")
        n, lo, hi = m.groups()
        spot_note = (f"median of {n} us-east-1 AZ{'s' if n != '1' else ''} {lo}-{hi}; "
                     "undated snapshot, about mid-2026")
        zones = {"count": Num(n), "min_usd_per_hour": Num(lo), "max_usd_per_hour": Num(hi)}
    else:
        if m:
            sys.exit(f"error: {w}: spot note without a spot price")
        spot_note = "median of us-east-1 AZ spot prices; undated snapshot, about mid-2026"
        if "no Spot" in notes:
            reason = "n/a: no Spot for this type per AWS"
            spot_note = "no Spot for this type per AWS"
        elif "us-east-2 spot" in notes:
            r = re.search(r"us-east-2 spot ([\d.]+-[\d.]+)", notes).group(1)
            reason = (f"no us-east-1 spot rows in the SkyPilot snapshot (only us-east-2, {r})")
        elif "us-west-2" in notes and "[SKY]" in notes:
            r = re.search(r"spot ([\d.]+) \[SKY\]", notes).group(1)
            reason = f"no us-east-1 spot rows in the SkyPilot snapshot (only us-west-2, {r})"
        elif "newer than the SkyPilot snapshots" in notes:
            reason = "G7 (GA 2026-06-18) is newer than the SkyPilot snapshots, which list no G7 spot price"
        else:
            reason = ("not read: the SkyPilot snapshot lists this type but its spot rows were not read "
                      "(reference README, Known gaps)")
        unknown["prices[1].usd_per_hour"] = reason
    spot_source, spot_as_of = "SKY", SPOT_AS_OF
    here = regional.get((name, REGION))
    if spot is None and reason.startswith("not read") and here and here["spot_usd_per_hour_median"]:
        # The sheet's spot rows were never read; the regional snapshot has them.
        spot, spot_source, spot_as_of = num(here["spot_usd_per_hour_median"], w), "SKY-REGIONS", REGIONAL_AS_OF
        spot_note = spot_zone_note(here)
        zones = zone_stats(here)
        del unknown["prices[1].usd_per_hour"]
    prices.append({"region": REGION, "option": "spot", "usd_per_hour": spot,
                   "as_of": spot_as_of, "source": spot_source, "note": spot_note})
    if zones:
        prices[-1]["zones"] = zones
    for extra in EXTRA_PRICES.get(name, []):
        prices.append({"region": extra["region"], "option": extra["option"],
                       "usd_per_hour": Num(extra["price"]), "as_of": extra["as_of"],
                       "source": extra["source"], "note": extra["note"]})
    add_regional_prices(name, prices, unknown, regional, w)
    return finish_instance(name, row, corrected, w, notes, unknown, prices, od, accel, count, mem_each, efa, gdr, ic, p2p)


def finish_instance(name, row, corrected, w, notes, unknown, prices, od, accel, count, mem_each, efa, gdr, ic, p2p):
    rec = {
        "name": name,
        "family": row["family"].strip(),
        "accelerator": accel,
        "accelerator_count": count,
        "accelerator_memory_gib_each": mem_each,
        "vcpus": integer(row["vcpus"], w),
        "memory_gib": num(row["memory_gib"], w),
        "network_gbit_per_s": num(row["network_gbps"], w),
        "efa_interfaces": efa,
        "gpudirect_rdma": gdr,
        "interconnect": ic,
        "peer_gbit_per_s_per_accelerator": p2p,
        "local_nvme_gb": num(row["local_nvme_gb"], w),
        "ebs_gbit_per_s": num(row["ebs_gbps"], w),
        "prices": prices,
        "source_notes": notes,
    }

    if name in CORRECTIONS:
        corrs = []
        for field, claimed, by, verdict in CORRECTIONS[name]:
            if field == "prices.us-east-1.on_demand":
                aws = od
            else:
                aws = rec[field]
            if aws is None:
                sys.exit(f"error: {w}: correction against a null {field}")
            corrs.append(_corr(field, Num(claimed), aws, by, verdict))
        rec["corrections"] = corrs
    if corrected:
        rec.setdefault("corrections", []).extend(
            _corr(f, correction_value(c), correction_value(v), _SHEET + " aws-gpu-instances.csv", why) for f, c, v, why in corrected)

    # Order unknown by field order in the record.
    order = null_paths(rec)
    if unknown:
        rec["unknown"] = {p: unknown[p] for p in order if p in unknown}
        rec["unknown"].update({k: v for k, v in unknown.items() if k not in rec["unknown"]})
    return rec


# --------------------------------------------------------------------------
# Regions no SkyPilot snapshot covers (issue 33)
# --------------------------------------------------------------------------
ADDED_REGION_SOURCES = {"RI-VANTAGE": ("VANTAGE-OD", "2026-01-21"), "KARP-PRICE-GOV": ("KARP-PRICE-GOV", "2026-07-20")}


def add_added_regions(instances, rows):
    """On-demand prices in the regions of regional-prices-added.csv (sa-east-1, il-central-1, ap-south-2,
    ap-southeast-5, eu-central-2, GovCloud): the July 2026 Karpenter GovCloud file where it prices the
    pair (the same date as us-east-1's), else the January 2026 vantage-derived file; spot unknown there
    (no snapshot has those regions). A region the catalog already prices is refused."""
    by_name = {i["name"]: i for i in instances}
    chosen = {}
    for r in rows:
        key = (r["instance_type"], r["region"])
        if r["source"] not in ADDED_REGION_SOURCES:
            sys.exit(f"error: regional-prices-added.csv: unknown source {r['source']}")
        if key not in chosen or r["source"] == "KARP-PRICE-GOV":
            if key in chosen and Decimal(chosen[key]["on_demand_usd_per_hour"]) != Decimal(r["on_demand_usd_per_hour"]):
                sys.exit(f"error: regional-prices-added.csv: {key} priced differently by the two sources")
            chosen[key] = r
    added = 0
    for (name, region), r in sorted(chosen.items()):
        rec = by_name.get(name)
        if rec is None:
            sys.exit(f"error: regional-prices-added.csv: {name} is not in the catalog")
        if any(p["region"] == region for p in rec["prices"]):
            sys.exit(f"error: regional-prices-added.csv: {name} already has a price in {region}")
        source, as_of = ADDED_REGION_SOURCES[r["source"]]
        rec["prices"].append({"region": region, "option": "on-demand", "usd_per_hour": plain(Decimal(r["on_demand_usd_per_hour"])),
                              "as_of": as_of, "source": source, "note": "Linux on-demand price"})
        rec["prices"].append({"region": region, "option": "spot", "usd_per_hour": None, "as_of": as_of, "source": source,
                              "note": "no spot price: no SkyPilot snapshot covers " + region})
        rec.setdefault("unknown", {})[f"prices[{len(rec['prices']) - 1}].usd_per_hour"] = (
            f"no spot price: the SkyPilot snapshots the catalog reads do not cover {region}")
        added += 1
    return added


# --------------------------------------------------------------------------
# Spot from one snapshot, zone by zone (issue 33)
# --------------------------------------------------------------------------
def exact_median(values):
    """The middle Decimal, or the exact mean of the two middle ones."""
    v = sorted(values)
    mid = len(v) // 2
    return v[mid] if len(v) % 2 else (v[mid - 1] + v[mid]) / 2


def plain(d):
    """A Decimal as plain JSON number text, no exponent, no trailing zeros."""
    text = format(d.normalize(), "f")
    return Num(text)


def is_on_demand_placeholder(spot, on_demand_texts):
    """SkyPilot writes a zone with no spot price at the on-demand price (rounded to 4 places)."""
    for od in on_demand_texts:
        if od and Decimal(spot) in (Decimal(od), Decimal(od).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)):
            return True
    return False


def apply_spot_zones(instances, zone_rows):
    """Every spot price of a type and region that spot-zones.csv lists becomes the median over that
    snapshot's zones, all regions alike (us-east-1 came from another snapshot), leaving out zones whose
    spot price is the on-demand price (the zone's own, or for a type with none, another type's in the
    region: SkyPilot's placeholder). Those are counted apart in "zones"; a region where every zone is
    such a placeholder has no spot price, with the reason."""
    by_key = {}
    for r in zone_rows:
        by_key.setdefault((r["instance_type"], r["region"]), []).append(r)
    od_in_region = {}
    for r in zone_rows:
        if r["on_demand_usd_per_hour"]:
            od_in_region.setdefault(r["region"], set()).add(r["on_demand_usd_per_hour"])
    changed = 0
    for rec in instances:
        for idx, p in enumerate(rec["prices"]):
            rows = by_key.get((rec["name"], p["region"]))
            if p["option"] != "spot" or not rows:
                continue
            priced = [r for r in rows if r["spot_usd_per_hour"]]
            if not priced:
                continue  # no zone has a spot price: the reason already given stays
            own = {r["on_demand_usd_per_hour"] for r in rows if r["on_demand_usd_per_hour"]}
            candidates = own or od_in_region.get(p["region"], set())
            at_od = [r for r in priced if is_on_demand_placeholder(r["spot_usd_per_hour"], candidates)]
            real = [Decimal(r["spot_usd_per_hour"]) for r in priced if r not in at_od]
            path = f"prices[{idx}].usd_per_hour"
            region = p["region"]
            apart = ""
            if at_od:
                k = len(at_od)
                apart = (f"; {k} AZ{'s' if k != 1 else ''} at {plain(Decimal(at_od[0]['spot_usd_per_hour']))} left out: "
                         f"{'the' if own else 'another type' + chr(39) + 's'} on-demand price, SkyPilot's placeholder for a zone "
                         "with no spot price")
            p["source"], p["as_of"] = "SKY-ZONES", REGIONAL_AS_OF
            if not real:
                p["usd_per_hour"] = None
                p.pop("zones", None)
                p["note"] = f"no spot price: every {region} AZ listed" + apart
                rec.setdefault("unknown", {})[path] = (
                    f"the SkyPilot snapshot prices every {region} zone of {rec['name']} at the on-demand price, "
                    "its placeholder for a zone with no spot price")
                changed += 1
                continue
            lo, hi, median = min(real), max(real), exact_median(real)
            n = len(real)
            spread = f"{plain(lo)}" if lo == hi else f"{plain(lo)}-{plain(hi)}"
            p["usd_per_hour"] = plain(median)
            p["note"] = f"median of {n} {region} AZ{'s' if n != 1 else ''} {spread}; one snapshot" + apart
            p["zones"] = {"count": n, "min_usd_per_hour": plain(lo), "max_usd_per_hour": plain(hi)}
            if at_od:
                p["zones"]["at_on_demand"] = len(at_od)
            if "unknown" in rec:
                rec["unknown"].pop(path, None)
                if not rec["unknown"]:
                    del rec["unknown"]
            changed += 1
    return changed


# --------------------------------------------------------------------------
def main():
    repo = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reference", type=Path, default=(repo / ".." / "shared" / "reference").resolve(),
                    help="directory holding accelerators.csv and aws-gpu-instances.csv")
    ap.add_argument("--additions", type=Path, default=repo / "assets" / "catalog" / "additions",
                    help="directory holding the project's own accelerators-added.csv and aws-gpu-instances-added.csv")
    ap.add_argument("--out", type=Path, default=repo / "assets" / "catalog",
                    help="output directory for accelerators.json and instances.json")
    args = ap.parse_args()

    acc_rows = read_csv(args.reference / "accelerators.csv")
    inst_rows = read_csv(args.reference / "aws-gpu-instances.csv")
    if len(acc_rows) != EXPECTED_ACCELERATORS:
        sys.exit(f"error: expected {EXPECTED_ACCELERATORS} accelerators, got {len(acc_rows)}")
    if len(inst_rows) != EXPECTED_INSTANCES:
        sys.exit(f"error: expected {EXPECTED_INSTANCES} instances, got {len(inst_rows)}")
    added_acc = read_csv(args.additions / "accelerators-added.csv")
    added_inst = read_csv(args.additions / "aws-gpu-instances-added.csv")
    if (len(added_acc), len(added_inst)) != (EXPECTED_ADDED_ACCELERATORS, EXPECTED_ADDED_INSTANCES):
        sys.exit(f"error: expected {EXPECTED_ADDED_ACCELERATORS} + {EXPECTED_ADDED_INSTANCES} added rows, got {len(added_acc)} + {len(added_inst)}")
    acc_rows += added_acc
    inst_rows += added_inst

    accelerators = [build_accelerator(r) for r in acc_rows]
    by_name = {a["name"]: a for a in accelerators}
    if len(by_name) != len(accelerators):
        sys.exit("error: duplicate accelerator names")
    unused_reasons = set(ACCEL_REASONS) - set(by_name)
    if unused_reasons:
        sys.exit(f"error: reasons for unknown accelerators {sorted(unused_reasons)}")

    regional = {}
    for r in read_csv(args.reference / "regional-prices.csv"):
        key = (r["instance_type"], r["region"])
        if key in regional:
            sys.exit(f"error: regional-prices.csv: two rows for {key}")
        regional[key] = r
    if len(regional) != EXPECTED_REGIONAL_ROWS:
        sys.exit(f"error: expected {EXPECTED_REGIONAL_ROWS} regional price rows, got {len(regional)}")
    instances = [build_instance(r, by_name, regional) for r in inst_rows]
    print(f"regions no snapshot covers: {add_added_regions(instances, read_csv(args.additions / 'regional-prices-added.csv'))} "
          "type-region prices")
    spot_zones = read_csv(args.additions / "spot-zones.csv")
    print(f"spot from one snapshot's zones: {apply_spot_zones(instances, spot_zones)} spot prices")
    names = {i["name"] for i in instances}
    # Types the sheet prices but the catalog lacks (dl1, dl2q, g4ad, g5g, inf1: no specs yet).
    skipped = sorted({t for t, _ in regional} - names)
    if len({i["name"] for i in instances}) != len(instances):
        sys.exit("error: duplicate instance names")
    if set(CORRECTIONS) - {i["name"] for i in instances}:
        sys.exit("error: corrections for unknown instances")

    for rec in accelerators:
        check_unknown(rec, f"accelerator {rec['name']}")
    for rec in instances:
        check_unknown(rec, f"instance {rec['name']}")
        for p in rec["prices"]:
            if set(p) - {"zones"} != {"region", "option", "usd_per_hour", "as_of", "source", "note"}:
                sys.exit(f"error: instance {rec['name']}: bad price keys")
            if p["source"] not in SOURCES:
                sys.exit(f"error: instance {rec['name']}: unknown source {p['source']}")

    acc_doc = {"schema": SCHEMA, "sources": SOURCES, "accelerators": accelerators}
    inst_doc = {"schema": SCHEMA, "instances": instances}

    args.out.mkdir(parents=True, exist_ok=True)
    for fname, doc in (("accelerators.json", acc_doc), ("instances.json", inst_doc)):
        text = dump(doc) + "\n"
        json.loads(text)  # must parse
        (args.out / fname).write_text(text, encoding="utf-8")
        print(f"wrote {args.out / fname}")
    print(f"{len(accelerators)} accelerators, {len(instances)} instances, "
          f"{sum(len(i['prices']) for i in instances)} prices in {len({p['region'] for i in instances for p in i['prices']})} regions")
    print(f"regional prices not used (type not in the catalog): {', '.join(skipped)}")


if __name__ == "__main__":
    main()
