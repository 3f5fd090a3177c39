#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sysfs-bench.sh: cpt-plan as a whole process, reading a sysfs tree
# (--sysfs), against the bare reading of the same files and against
# reading the same machine's `lscpu -p` output (--lscpu), for make bench
# (tests/bench/run.sh) or alone:
#
#   tests/bench/sysfs-bench.sh NCPUS...
#
# For each size, tests/bench/mktree.sh writes the machine of plan-bench
# (2 threads per core, 16 cores per L3, 64 per node and package) as a
# tree and as lscpu output, under $BENCH_TREES/NCPUS, removed afterwards
# (800 MB at 8192 CPUs on ext4) unless BENCH_KEEP=1, which also reuses
# the trees it finds there.  Each command runs once untimed (its table),
# then strace lists the files --sysfs opens, in order: the bare loop
# (tests/bench/sysfs_bare.c, build/bench/sysfs-bare) opens, reads and
# closes those and does nothing else, the floor of one thread.  Then
# $BENCH_RUNS rounds, each running every command once, timed from fork
# to exit, in an order that turns by one each round: --sysfs, the bare
# loop, --lscpu and, with BENCH_BEFORE set to another cpt-plan, that
# one's --sysfs.  Medians and minima of the rounds; CSV on stdout:
#
#   cpus,parts,opens,sysfs_median_ms,sysfs_min_ms,bare_median_ms,
#   bare_min_ms,sysfs_over_bare,lscpu_median_ms,lscpu_min_ms,
#   sysfs_over_lscpu,before_median_ms,before_min_ms,same_table
#
# sysfs_over_bare is the median of each round's ratio, the two runs of a
# round close in time: steadier than the ratio of the medians on a busy
# host.  ("-" where not measured: no strace, no BENCH_BEFORE.)  Exits 1 when a
# table differs between --sysfs and --lscpu (same_table "no", BENCH_BEFORE
# included) or a command fails, and when at 8192 CPUs or more --sysfs
# takes more than BENCH_BARE_MAX times the bare loop (a "FAIL" line on
# stderr).  Environment: CPT_PLAN [scripts/cpt-plan], BENCH_RUNS [7],
# BENCH_TREES [build/bench/trees], BENCH_KEEP [0], BENCH_BARE
# [build/bench/sysfs-bare, made when missing], BENCH_BARE_MAX [1.25],
# BENCH_BEFORE [unset].
set -u
cd "$(dirname "$0")/../.." || exit 2

PLAN=${CPT_PLAN:-scripts/cpt-plan}
RUNS=${BENCH_RUNS:-7}
TREES=${BENCH_TREES:-build/bench/trees}
KEEP=${BENCH_KEEP:-0}
BARE=${BENCH_BARE:-build/bench/sysfs-bare}
BARE_MAX=${BENCH_BARE_MAX:-1.25}
BEFORE=${BENCH_BEFORE:-}
status=0

if [ ! -x "$BARE" ] && ! make -s "$BARE" >&2; then
	echo "sysfs-bench: no $BARE" >&2
	exit 1
fi

# files TREE LIST: strace --sysfs TREE; the files it opens into LIST
# ("c NAME" from the CPU directory, "p PATH"; see sysfs_bare.c), their
# number on stdout, or "-" without strace.
files() {
	local log=$TREES/strace.log
	if ! command -v strace >/dev/null ||
	   ! strace -qq -e trace=open,openat -o "$log" \
		"$PLAN" --sysfs "$1" >/dev/null 2>&1; then
		rm -f "$log" "$2"
		echo -
		return
	fi
	awk -v root="$1/" '
		/O_DIRECTORY/ { next }
		match($0, /^open(at)?\(AT_FDCWD, "[^"]*"/) {
			p = substr($0, RSTART, RLENGTH); sub(/^[^"]*"/, "", p); sub(/"$/, "", p)
			if (index(p, root) == 1) print "p " p
			next
		}
		match($0, /^openat\([0-9]+, "[^"]*"/) {
			p = substr($0, RSTART, RLENGTH); sub(/^[^"]*"/, "", p); sub(/"$/, "", p)
			print "c " p
		}' "$log" >"$2"
	rm -f "$log"
	wc -l <"$2"
}

# elapsed CMD...: run CMD, print its time from fork to exit in ms.
elapsed() {
	local t0=$EPOCHREALTIME t1
	"$@" >/dev/null 2>&1 || return 1
	t1=$EPOCHREALTIME
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) * 1000 }'
}

# stats FILE: "median min" of the numbers of FILE, or "- -" when empty.
stats() {
	sort -n "$1" | awk '{ v[NR] = $1 }
		END { if (!NR) { print "- -"; exit }
		      m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf "%.2f %.2f\n", m, v[1] }'
}

# ratio A B: the median of the ratios of the lines of files A and B, or -.
ratio() {
	paste -d ' ' "$1" "$2" | awk 'NF == 2 && $2 > 0 { print $1 / $2 }' |
		sort -g | awk '{ v[NR] = $1 }
		END { if (!NR) { print "-"; exit }
		      printf "%.2f\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# rounds TREE LIST: $RUNS rounds of the commands, each's times into
# $TREES/NAME.ms; 1 when a command failed.
rounds() {
	local tree=$1 list=$2 names=(sysfs bare lscpu before) r i k ret=0
	local -A cmd=(
		[sysfs]="$PLAN --sysfs $tree/sysfs"
		[bare]="$BARE $list $tree/sysfs/devices/system/cpu"
		[lscpu]="$PLAN --lscpu $tree/lscpu"
		[before]="$BEFORE --sysfs $tree/sysfs"
	)
	for k in "${names[@]}"; do : >"$TREES/$k.ms"; done
	for r in $(seq "$RUNS"); do
		for i in 0 1 2 3; do
			k=${names[(r + i) % 4]}
			[ "$k" != bare ] || [ -s "$list" ] || continue
			[ "$k" != before ] || [ -n "$BEFORE" ] || continue
			# shellcheck disable=SC2086
			elapsed ${cmd[$k]} >>"$TREES/$k.ms" || ret=1
		done
	done
	return $ret
}

# same TREE: whether --sysfs (and BENCH_BEFORE's) equals --lscpu.
same() {
	local t=$TREES/table.$$ ret=0
	"$PLAN" --lscpu "$1/lscpu" >"$t.lscpu" 2>&1 || ret=1
	for p in "$PLAN" ${BEFORE:+"$BEFORE"}; do
		"$p" --sysfs "$1/sysfs" >"$t.sysfs" 2>&1 || ret=1
		cmp -s "$t.sysfs" "$t.lscpu" || ret=1
	done
	wc -l <"$t.lscpu" >"$t.parts"
	read -r PARTS <"$t.parts"
	rm -f "$t.sysfs" "$t.lscpu" "$t.parts"
	return $ret
}

mkdir -p "$TREES"
echo "cpus,parts,opens,sysfs_median_ms,sysfs_min_ms,bare_median_ms,bare_min_ms,sysfs_over_bare,lscpu_median_ms,lscpu_min_ms,sysfs_over_lscpu,before_median_ms,before_min_ms,same_table"
for n in "$@"; do
	d=$TREES/$n
	if [ "$KEEP" = 1 ] && [ -s "$d/lscpu" ]; then
		:
	elif ! tests/bench/mktree.sh "$n" "$d" >&2; then
		echo "sysfs-bench: mktree.sh $n failed" >&2
		status=1
		continue
	fi
	PARTS=-
	same_table=yes
	same "$d" || { same_table=no; status=1; }
	list=$TREES/$n.files
	nopen=$(files "$d/sysfs" "$list")
	rounds "$d" "$list" || status=1
	read -r sm sl <<<"$(stats "$TREES/sysfs.ms")"
	read -r bm bl <<<"$(stats "$TREES/bare.ms")"
	read -r lm ll <<<"$(stats "$TREES/lscpu.ms")"
	read -r om ol <<<"$(stats "$TREES/before.ms")"
	ratio=$(ratio "$TREES/sysfs.ms" "$TREES/bare.ms")
	awk -v n="$n" -v p="$PARTS" -v o="$nopen" -v sm="$sm" -v sl="$sl" \
	    -v bm="$bm" -v bl="$bl" -v r="$ratio" -v lm="$lm" -v ll="$ll" \
	    -v om="$om" -v ol="$ol" -v same=$same_table 'BEGIN {
		printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", n, p, o,
			sm, sl, bm, bl, r, lm, ll,
			(lm > 0 ? sprintf("%.1f", sm / lm) : "-"), om, ol, same }'
	if [ "$n" -ge 8192 ] && [ "$ratio" != - ] &&
	   awk -v r="$ratio" -v m="$BARE_MAX" 'BEGIN { exit !(r > m) }'; then
		echo "sysfs-bench: FAIL: $n CPUs: --sysfs takes ${ratio}x the bare loop (over $BARE_MAX)" >&2
		status=1
	fi
	rm -f "$list" "$TREES"/{sysfs,bare,lscpu,before}.ms
	[ "$KEEP" = 1 ] || rm -rf "$d"
done
exit $status
