#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# cpt-plan --emit: the pattern it prints gives the same table back, for
# every fixture and several option sets; the Lustre line of the seed's
# machine is the one written out below; a pattern over Lustre's 1024
# bytes is refused with the nearest choice.  CPT_PLAN: the binary.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib/report.sh
. tests/lib/report.sh
P=${CPT_PLAN:-scripts/cpt-plan}
F=tests/fixtures
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# round_trip NAME INPUT-ARGS... -- PLAN-ARGS...
round_trip() {
	name=$1
	shift
	in=
	while [ "$1" != -- ]; do in="$in $1"; shift; done
	shift
	# shellcheck disable=SC2086 # $in is a list of arguments
	"$P" $in "$@" >"$t/want" 2>/dev/null || { skip "$name: no plan"; return; }
	# shellcheck disable=SC2086
	if ! "$P" $in "$@" --emit pattern >"$t/pat" 2>"$t/err"; then
		fail "$name: --emit pattern failed" "$(cat "$t/err")"
		return
	fi
	# shellcheck disable=SC2086
	"$P" $in --pattern "$(cat "$t/pat")" >"$t/got" 2>"$t/err"
	if cmp -s "$t/want" "$t/got"; then
		pass "$name: --emit pattern gives the table back"
	else
		fail "$name: the emitted pattern gives another table" \
			"$(cat "$t/pat" "$t/err"; diff "$t/want" "$t/got")"
	fi
}

for f in "$F"/*.lscpu; do
	for opts in "" "--npartitions 1" "--npartitions 3" "--pattern N"; do
		# shellcheck disable=SC2086
		round_trip "$(basename "$f") $opts" --lscpu "$f" -- $opts
	done
done
for d in "$F"/sysfs/*/; do
	for opts in "" "--npartitions 2" "--pattern X[0]"; do
		# shellcheck disable=SC2086
		round_trip "sysfs $(basename "$d") $opts" --sysfs "$d" -- $opts
	done
done

# The seed's machine (one Xeon 8160: 24 cores, siblings n and n + 24):
# 12 partitions of two whole cores, written out by hand.
want='options libcfs cpu_pattern="0[0,1,24,25] 1[2,3,26,27] 2[4,5,28,29] 3[6,7,30,31] 4[8,9,32,33] 5[10,11,34,35] 6[12,13,36,37] 7[14,15,38,39] 8[16,17,40,41] 9[18,19,42,43] 10[20,21,44,45] 11[22,23,46,47]"'
got=$("$P" --lscpu "$F/xeon-8160.lscpu" --emit lustre)
if [ "$got" = "$want" ]; then
	pass "xeon-8160 (the seed): --emit lustre is the 12-partition line, ${#got} bytes"
else
	fail "xeon-8160 (the seed): --emit lustre" "$got"
fi

# Shortest lists: runs and strides where they are shorter.
got=$("$P" --lscpu "$F/xeon-8160.lscpu" --pattern '0[0-11] 1[12-23,36-47] 2[24-35/2] 3[25-35/2]' --emit pattern)
want='0[0-11] 1[12-23,36-47] 2[24-34/2] 3[25-35/2]'
if [ "$got" = "$want" ]; then
	pass "--emit pattern writes runs and strides: $got"
else
	fail "--emit pattern: runs and strides" "$got, expected $want"
fi

# Over 1024 bytes: no line, exit 1, the size and cpu_npartitions.
if "$P" --lscpu "$F/epyc-7742-2s-nps4.lscpu" --emit lustre >"$t/out" 2>"$t/err"; then
	fail "epyc-7742: a line over 1024 bytes was printed" "$(wc -c <"$t/out")"
elif [ -s "$t/out" ] || ! grep -q 'bytes, over the 1024.*cpu_npartitions=' "$t/err"; then
	fail "epyc-7742: the refusal" "$(cat "$t/out" "$t/err")"
else
	pass "epyc-7742: over 1024 bytes refused: $(cut -c1-80 "$t/err")..."
fi

# Usage.
if "$P" --lscpu "$F/xeon-8160.lscpu" --emit lnet >/dev/null 2>&1; then
	fail "--emit lnet accepted"
else
	pass "--emit takes pattern or lustre only (exit $?)"
fi

report_summary "test-tool --emit:"
