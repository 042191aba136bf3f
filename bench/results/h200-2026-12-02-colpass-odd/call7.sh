#!/bin/bash
# Call 7 (one count): the model's words a row of the column pass made codegen's
# (plan_colpass_vec_words: 4 columns of each [M,N] input it loads, a word of each other input;
# the model counted the inputs' bytes an element + 2), at the 41 held-out picks it moves (the
# old build's pick forced with --config against the new pick; the codegen of a config is the
# same in both builds).
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
LIMIT=330 COPY=4274 OUT="$OUT/ab" bash bench/ab.sh $R .carry/s56/points7.txt >"$OUT/ab-run.log" 2>&1
python3 bench/ab_report.py "$OUT/ab/ab.txt" >"$OUT/ab-table.txt" 2>&1
gzip -c "$OUT/ab/ab.txt" >"$OUT/ab.txt.gz"; gzip "$OUT/ab-run.log"; rm -rf "$OUT/ab"
cut -c1-80 "$OUT/ab-table.txt" | head -46; tail -3 "$OUT/ab-table.txt" | cut -c1-200
