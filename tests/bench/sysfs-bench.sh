#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sysfs-bench.sh: cpt-plan as a whole process, reading a sysfs tree
# (--sysfs) against reading the same machine's `lscpu -p` output
# (--lscpu), for make bench (tests/bench/run.sh) or alone:
#
#   tests/bench/sysfs-bench.sh NCPUS...
#
# For each size, tests/bench/mktree.sh writes the machine of plan-bench
# (2 threads per core, 16 cores per L3, 64 per node and package) as a
# tree and as lscpu output, under $BENCH_TREES/NCPUS, removed afterwards
# (800 MB at 8192 CPUs on ext4) unless BENCH_KEEP=1, which also reuses
# the trees it finds there.  Each command runs once untimed (its
# table, and the files it opens when strace is there), then
# $BENCH_RUNS times, timed from fork to exit.  CSV on stdout:
#
#   cpus,parts,opens,sysfs_median_ms,sysfs_min_ms,lscpu_median_ms,
#   lscpu_min_ms,sysfs_over_lscpu,same_table
#
# Exits 1 when a table differs between the two (same_table "no") or a
# command fails.  Environment: CPT_PLAN [scripts/cpt-plan], BENCH_RUNS
# [7], BENCH_TREES [build/bench/trees], BENCH_KEEP [0].
set -u
cd "$(dirname "$0")/../.." || exit 2

PLAN=${CPT_PLAN:-scripts/cpt-plan}
RUNS=${BENCH_RUNS:-7}
TREES=${BENCH_TREES:-build/bench/trees}
KEEP=${BENCH_KEEP:-0}
status=0

# ms ARGS...: $PLAN ARGS... run $RUNS times; "median min" in ms.
ms() {
	local t0 t1
	for _ in $(seq "$RUNS"); do
		t0=$EPOCHREALTIME
		"$PLAN" "$@" >/dev/null 2>&1 || return 1
		t1=$EPOCHREALTIME
		awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) * 1000 }'
	done | sort -n | awk '{ v[NR] = $1 }
		END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf "%.2f %.2f\n", m, v[1] }'
}

# opens ARGS...: how many files $PLAN ARGS... opens, or "-" without strace.
opens() {
	local log=$TREES/strace.log
	if command -v strace >/dev/null &&
	   strace -f -qq -e trace=open,openat -o "$log" "$PLAN" "$@" >/dev/null 2>&1; then
		# One line per call: not the "<... openat resumed>" half of a
		# call that another thread's cut (strace -f).
		grep -c 'open[at]*(' "$log"
	else
		echo -
	fi
	rm -f "$log"
}

echo "cpus,parts,opens,sysfs_median_ms,sysfs_min_ms,lscpu_median_ms,lscpu_min_ms,sysfs_over_lscpu,same_table"
for n in "$@"; do
	d=$TREES/$n
	if [ "$KEEP" = 1 ] && [ -s "$d/lscpu" ]; then
		:
	elif ! tests/bench/mktree.sh "$n" "$d" >&2; then
		echo "sysfs-bench: mktree.sh $n failed" >&2
		status=1
		continue
	fi
	"$PLAN" --sysfs "$d/sysfs" >"$d/sysfs.table" 2>&1 &&
		"$PLAN" --lscpu "$d/lscpu" >"$d/lscpu.table" 2>&1 || status=1
	same=no
	cmp -s "$d/sysfs.table" "$d/lscpu.table" && same=yes
	[ $same = yes ] || status=1
	parts=$(wc -l <"$d/lscpu.table")
	nopen=$(opens --sysfs "$d/sysfs")
	s=$(ms --sysfs "$d/sysfs") && l=$(ms --lscpu "$d/lscpu") || status=1
	read -r sm sl <<<"${s:-- -}"
	read -r lm ll <<<"${l:-- -}"
	awk -v n="$n" -v p="$parts" -v o="$nopen" -v sm="$sm" -v sl="$sl" \
	    -v lm="$lm" -v ll="$ll" -v same=$same 'BEGIN {
		printf "%s,%s,%s,%s,%s,%s,%s,%s,%s\n", n, p, o, sm, sl, lm, ll,
			(lm > 0 ? sprintf("%.1f", sm / lm) : "-"), same }'
	rm -f "$d/sysfs.table" "$d/lscpu.table"
	[ "$KEEP" = 1 ] || rm -rf "$d"
done
exit $status
