#!/bin/bash
# call 7: the ring with a bool input beside bf16 (odd_types): checked, then under memcheck,
# racecheck and synccheck
gunzip -c .carry/rkc.gz > .carry/rkc && chmod +x .carry/rkc; R=.carry/rkc
OUT=$OUT/san timeout 150 bash bench/sanitize_new.sh $R "odd_types" > $OUT/sanitize.log 2>&1; echo "sanitize: $?"
cat $OUT/sanitize.log; grep RESULT $OUT/san/sanitize-new.log | head -2 | cut -c1-200
