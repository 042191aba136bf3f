#!/bin/bash
# What the stamps cost at the two suite shapes over 5% (h100-2026-12-06-inproc-plain.md): each
# shape's plain kernel, every block stamped (e1), and three edits of e1 (mkvar.py): clk (the timer
# read from %clock64), sink (the timer read, its value to a shared word, no global red), const
# (no timer read, the red of a constant); rms_norm_backward also at the default sampling (samp).
# Three rounds, the order turned each round; the first round checks each against float64.
# Run from the repository root on the GPU host with the static build xz-compressed at .carry/rkc.xz.
set -u
SHAPES="dynamic_quant:512x262144:dq rms_norm_backward:1024x28672:rb"
V1="plain e1 clk sink const samp" V2="samp const sink clk e1 plain" V3="sink plain samp e1 const clk"
LOG=runs.txt
ENV=env.txt
. bench/results/h100-2026-12-06-stamp-cost/runs.sh
