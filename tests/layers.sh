#!/bin/sh
# The stages call only earlier stages, and no calls go round in a circle among a stage's files;
# runtime includes nothing of codegen. Reads the symbols of librkc's objects (arguments) with nm.
# Order: the IR (analysis/ir.c, verify.c, print.c, order.c, rewrite.c, plan.c: ir.h, which every
# stage shares), frontends, the rest of analysis, heuristics, codegen, driver, runtime.
for o in "$@"; do
	f=${o#*rkc.dir/}
	f=${f%.o}
	nm -g --defined-only "$o" | awk -v f="$f" 'NF == 3 { print "D", $3, f }'
	nm -u "$o" | awk -v f="$f" '{ print "U", $2, f }'
done | awk '
function layer(f) {
	if (f ~ /^analysis\/(ir|verify|print|order|rewrite|plan)\.c$/) return 0
	if (f ~ /^frontends\//) return 1
	if (f ~ /^analysis\//) return 2
	if (f ~ /^heuristics\//) return 3
	if (f ~ /^codegen\//) return 4
	if (f ~ /^driver\//) return 5
	if (f ~ /^runtime\//) return 6
	return 9
}
$1 == "D" { def[$2] = $3; files[$3] = 1; next }
{ use[$3 " " $2] = 1 }
END {
	bad = 0
	for (k in use) {
		split(k, a, " ")
		d = def[a[2]]
		if (d == "" || d == a[1]) continue
		if (layer(d) > layer(a[1])) {
			print "FAIL: " a[1] " (stage " layer(a[1]) ") calls " a[2] " of a later stage, " d
			bad = 1
		}
		reach[a[1], d] = 1
	}
	for (m in files) for (i in files) if (reach[i, m]) for (j in files) if (reach[m, j]) reach[i, j] = 1
	for (i in files) for (j in files)
		if (i < j && reach[i, j] && reach[j, i] && layer(i) == layer(j)) {
			print "FAIL: " i " and " j " call each other (a circle within a stage)"
			bad = 1
		}
	n = 0
	for (i in files) n++
	print n " files checked"
	exit bad
}' || exit 1
if grep -n '#include "codegen/' runtime/*.c runtime/*.h; then
	echo "FAIL: runtime includes codegen"
	exit 1
fi
exit 0
