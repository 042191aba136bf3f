#!/bin/bash
# Call 4: on the build of branch stamp-warp0 (thread 0 alone stamps), what is left of the stamps'
# cost at rms_norm_backward 1024x28672 (the one suite shape over 5% in call 3): every block stamped
# (e1, thread 0's red) against its edits st (a plain global store) and tsink (a shared store, no
# global write), with layer_norm_backward 4096x4096 and dynamic_quant 512x262144 beside it. Five
# rounds in turned orders, the first checked.
# Run from the repository root on the GPU host with the static build xz-compressed at .carry/rkc.xz.
set -u
SHAPES="rms_norm_backward:1024x28672:rb layer_norm_backward:4096x4096:lb dynamic_quant:512x262144:dq"
V1="plain e1 st tsink" V2="tsink st e1 plain" V3="st plain tsink e1" V4="e1 tsink plain st" V5="plain st e1 tsink"
ROUNDS=5 LOG=runs4.txt
ENV=env4.txt
. bench/results/h100-2026-12-06-stamp-cost/runs.sh
rm -rf "$O/ptx"
