#!/bin/bash
# Call 2 of 2026-12-01 (colpass-whole): the column pass made whole, at 10 points where call 1
# found it slow or unsure, against the old pick (a row mode, the same code as before) and over
# its grid (66 to 528 CTAs: slices of 4 to 32 vectors of 4 columns at 4096 columns) and warps,
# with the element-by-element columns now lane-major. Each run checked against float64 and timed.
set -u
R=/tmp/rkc
gunzip -c .carry/rkc.gz >$R && chmod +x $R
log=$OUT/sweep.txt
: >"$log"
while read -r k dt s old; do
	case $s in 4096x4096) v=4 ;; *) v=1 ;; esac
	cfgs="$old pick"
	for w in 4 8 16; do
		for g in 66 132 264 528; do
			cfgs="$cfgs persistent=0,r_block=1024,m_block=1,num_warps=$w,vec=$v,cluster=1,grid=$g,colpass=1"
		done
	done
	for c in $cfgs; do
		if [ "$c" = pick ]; then a=(); else a=(--config "$c"); fi
		line=$($R run "$k" --shape "$s" --dtype "$dt" "${a[@]}" --check --time --copy-gbps 4274 2>&1 | grep RESULT)
		echo "$k $dt $s $c :: $line" >>"$log"
	done
done <.carry/s54/sweep_old.txt
python3 - "$log" <<'PY'
import sys, re, collections
rows = collections.defaultdict(list)
for l in open(sys.argv[1]):
    head, _, res = l.partition(' :: ')
    k, dt, s, c = head.split()[:4]
    m = re.search(r'us=([0-9.]+)', res); st = re.search(r'status=(\w+)', res)
    rows[(k.split('/')[-1][:-3], dt, s)].append((c, float(m.group(1)) if m else None, st.group(1) if st else '?'))
for key, v in rows.items():
    old, pick = v[0], v[1]
    best = min((x for x in v if x[1]), key=lambda x: x[1])
    print(' '.join(key), 'old %.2f pick %.2f best %.2f %s' % (old[1] or 0, pick[1] or 0, best[1], best[0]),
          'statuses', ','.join(sorted(set(x[2] for x in v))))
PY
