#!/bin/bash
# The regions session's GPU-host work in one call: the bandwidth-against-row-width plots
# (bench/plot_bw.py) from torch_compare results into $OUT/plots, then bench/regions.sh into
# $OUT/regions, whose tables (bar 2's checks, the verdicts) come last.
# usage: bench/regions_run.sh RKC     (from the repository root on the GPU host)
# env:   OUT         where everything goes (default bench/out)
#        PLOT_FILES  torch_compare.py outputs to plot, a later one's points over an earlier's
#                    (default: the committed runs of the core, transfer, tiny_rows and training
#                    suites at bf16); the rest goes to bench/regions.sh (MAXMB, KERNELS, ...)
set -u
cd "$(dirname "$0")/.."
RKC=${1:?usage: bench/regions_run.sh RKC}
OUT=${OUT:-bench/out}
R=bench/results
PLOT_FILES=${PLOT_FILES:-$R/h100-2026-11-22b/torch_compare.csv $R/h100-2026-11-23-onchip/torch_compare.csv $R/h100-2026-11-23-tiny-training/tiny_bf16.csv $R/h100-2026-11-23-tiny-training/training_bf16.csv}
mkdir -p "$OUT"
python3 bench/plot_bw.py $PLOT_FILES --out "$OUT/plots" >"$OUT/plots.log" 2>&1 ||
	echo "plots: failed, see $OUT/plots.log"
cat "$OUT/plots.log"
OUT=$OUT/regions bench/regions.sh "$RKC"
