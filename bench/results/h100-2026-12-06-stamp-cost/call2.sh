#!/bin/bash
# Call 2: which part of the global reds costs. Every block stamped (e1) against its edits (mkvar.py):
# sink (no global red), tid0 (thread 0 alone stamps: one red a boundary, not one a warp) and cta
# (the red relaxed at CTA scope), at rms_norm_backward 1024x28672, layer_norm_backward 4096x4096
# and dynamic_quant 512x262144 (bf16). Three rounds in turned orders, the first checked.
# Run from the repository root on the GPU host with the static build xz-compressed at .carry/rkc.xz.
set -u
SHAPES="rms_norm_backward:1024x28672:rb layer_norm_backward:4096x4096:lb dynamic_quant:512x262144:dq"
V1="plain e1 sink tid0 cta" V2="cta tid0 sink e1 plain" V3="sink plain cta e1 tid0"
LOG=runs2.txt
ENV=env2.txt
. bench/results/h100-2026-12-06-stamp-cost/runs.sh
rm -rf "$O/ptx"
