#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check-probes.sh EXPECTED SERIES=HEADER...: compare what the probes wrote
# into each build's cptk_probes.h (Kbuild, cpt/linux/probes) with the
# answers EXPECTED gives for that kernel series.  Every probe must be in
# EXPECTED for every series: a new probe needs its answers written there.
# And every probe must be expected to answer "yes" on some series: a probe
# that compiles on no tested kernel could be broken in the construct it
# tests (a typo that its control form, probe.sh, cannot see).
set -u
expected=$1
shift
fails=0 checks=0
for arg in "$@"; do
	series=${arg%%=*} header=${arg#*=}
	if [ ! -f "$header" ]; then
		echo "FAIL probes $series: $header missing (run make test-kbuild)"
		fails=$((fails + 1))
		continue
	fi
	for p in cpt/linux/probes/*.c; do
		name=$(sed -n '2s#^/\* \(CPTK_HAVE_[A-Z0-9_]*\):.*#\1#p' "$p")
		want=$(awk -v s="$series" -v n="$name" '$1 == s && $2 == n { print $3 }' "$expected")
		if grep -q "^#define $name 1" "$header"; then got=yes; else got=no; fi
		checks=$((checks + 1))
		if [ -z "$want" ]; then
			echo "FAIL probes $series: $name has no expected answer in $expected"
			fails=$((fails + 1))
		elif [ "$want" != "$got" ]; then
			echo "FAIL probes $series: $name found '$got', expected '$want'"
			fails=$((fails + 1))
		fi
	done
done
for p in cpt/linux/probes/*.c; do
	name=$(sed -n '2s#^/\* \(CPTK_HAVE_[A-Z0-9_]*\):.*#\1#p' "$p")
	if ! awk -v n="$name" '$2 == n && $3 == "yes" { y = 1 } END { exit !y }' "$expected"; then
		echo "FAIL probes: $name is expected to answer yes on no kernel: nothing shows that $p compiles"
		fails=$((fails + 1))
	fi
done
echo "check-probes: $checks answers checked, $fails wrong"
echo "check-probes: $((checks - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
