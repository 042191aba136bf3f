#!/bin/bash
# call 7 (H100): the carried loads' wait, with no wait added where a band walks one block (cacf55c
# with the rule at 2 blocks a band; cacf55c: 3): the plain kernels old (7f0b0e5) against new at the other sm_90
# golden grid points whose PTX changed (settle-ab-points2.txt; call 6 took every third), every
# run checked against float64 (bench/ab.sh). Run from the repository root.
set -u
xz -dc .carry/rkc.xz > /tmp/rkc && chmod +x /tmp/rkc; R=/tmp/rkc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/env.txt
OUT=$OUT/ab COPY=3027 LIMIT=330 bash bench/ab.sh $R bench/results/h100-2026-12-06-head-guard/settle-ab-points2.txt > $OUT/ab_table.txt 2>&1
gzip $OUT/ab/ab.txt
cut -c1-150 $OUT/ab_table.txt | tail -45
