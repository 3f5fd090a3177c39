#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest-bench.sh: the guest side of `make bench` (tests/bench/run.sh runs
# it with scripts/vm-run, the settings below in its environment).  Runs in
# /cpt next to cpt.ko and cpt_bench.ko (tests/modules/cpt_bench.c):
#
#   BENCH_WHAT     which parts, in order: mem lookup svc (default: all)
#   BENCH_NPARTS   npartitions values for mem and svc (0: the default
#                  layout), e.g. "1 2 3 0 12"
#   BENCH_ROUNDS   svc rounds over BENCH_NPARTS (alternating the order)
#   BENCH_USVC_ROUNDS  the same for usvc (default: BENCH_ROUNDS)
#   BENCH_SVC_MS   svc: measured time of one run
#   BENCH_SVC_ARGS svc: more cpt_bench parameters ("window=8 work=4")
#   BENCH_SVC_IMPLS svc: the builds of the service, each run on the same
#                  table in turn (order alternating by round): toolkit (on
#                  cpt.h's helpers), hand (without them, a spinlock per
#                  queue) and hand:mutex (the same with a mutex per queue)
#   BENCH_CALLS    lookup: calls per operation
#
# Parts: mem, lookup and svc load cpt_bench.ko; usvc runs the userspace
# model (tests/bench/svc_bench.c) on a table of the guest's cpt-plan, for
# each of BENCH_NPARTS and BENCH_ROUNDS rounds.  The guest has no copy of
# svc-bench: run.sh passes it, static, gzipped and base64-encoded, as the
# positional parameters of this script (vm-run keeps each argument under
# the kernel's 128 KiB limit per argument).
#
# Prints "BENCH-TABLE n=N parts=P" per cpt.ko load of the svc runs,
# "BENCH-USVC n=N round=R,CSV" per usvc run (svc-bench -c), "BENCH-IDLE
# svc_IMPL|usvc round=R n=N idle=PCT" (idle share of all vCPUs during the run,
# from /proc/stat, set-up and tear-down included) and, at the
# end, every "RESULT ..." line of cpt_bench as "BENCH-RESULT ...".  Exits
# non-zero when a module fails to load or a run fails.

# shellcheck source=tests/lib/guest-lib.sh
. /cpt/guest-lib.sh

: "${BENCH_WHAT:=mem lookup svc}"
: "${BENCH_NPARTS:=1 0}"
: "${BENCH_ROUNDS:=3}"
: "${BENCH_USVC_ROUNDS:=$BENCH_ROUNDS}"
: "${BENCH_SVC_MS:=3000}"
: "${BENCH_SVC_ARGS:=}"
: "${BENCH_SVC_IMPLS:=toolkit hand hand:mutex}"
: "${BENCH_CALLS:=10000000}"

fail=0

if [ $# -gt 0 ]; then
	if printf '%s' "$@" | base64 -d | gunzip >/tmp/svc-bench; then
		chmod 755 /tmp/svc-bench
	else
		echo "BENCH-FAIL svc-bench payload"
		fail=1
	fi
fi

cpt_load() {
	if ! insmod ./cpt.ko "$@"; then
		echo "BENCH-FAIL insmod cpt.ko $*"
		dmesg | tail -n 5
		fail=1
		return 1
	fi
}

cpt_unload() {
	rmmod cpt || { echo "BENCH-FAIL rmmod cpt"; fail=1; }
}

# bench TAG PARAM...: one cpt_bench run (it reports at load time).
bench() {
	t=$1
	shift
	if ! insmod ./cpt_bench.ko tag="$t" "$@"; then
		echo "BENCH-FAIL insmod cpt_bench.ko tag=$t $*"
		dmesg | tail -n 5
		fail=1
		return 1
	fi
	rmmod cpt_bench || { echo "BENCH-FAIL rmmod cpt_bench"; fail=1; }
}

# cpustat: "idle total" jiffies of all CPUs so far (/proc/stat).
cpustat() {
	read -r _ u n s i w q sq st _ </proc/stat
	echo "$((i + w)) $((u + n + s + i + w + q + sq + st))"
}

# idle BEFORE AFTER: idle share of the CPUs between two cpustat, in %.
idle() {
	# shellcheck disable=SC2086
	set -- $1 $2
	[ "$4" -gt "$2" ] && echo $(((($3 - $1) * 100 + ($4 - $2) / 2) / ($4 - $2))) || echo 0
}

reverse() {
	out=
	for x in "$@"; do out="$x $out"; done
	echo "$out"
}

echo "BENCH-GUEST cpus=$(cat /sys/devices/system/cpu/online) kernel=$(uname -r)"
for what in $BENCH_WHAT; do
	case $what in
	mem)
		for n in $BENCH_NPARTS; do
			cpt_load npartitions="$n" || continue
			bench "mem_$n" bench=mem
			cpt_unload
		done ;;
	lookup)
		if cpt_load; then
			bench lookup bench=lookup calls="$BENCH_CALLS"
			cpt_unload
		fi ;;
	svc)
		r=1
		while [ "$r" -le "$BENCH_ROUNDS" ]; do
			list=$BENCH_NPARTS
			# shellcheck disable=SC2086
			[ $((r % 2)) -eq 0 ] && list=$(reverse $BENCH_NPARTS)
			impls=$BENCH_SVC_IMPLS
			# shellcheck disable=SC2086
			[ $((r % 2)) -eq 0 ] && impls=$(reverse $BENCH_SVC_IMPLS)
			for n in $list; do
				cpt_load npartitions="$n" || continue
				echo "BENCH-TABLE n=$n parts=$(grep -c . /proc/sys/lnet/cpu_partition_table)"
				for impl in $impls; do
					s0=$(cpustat)
					case $impl in
					*:mutex) args="impl=${impl%:*} lock=mutex" ;;
					*) args="impl=$impl" ;;
					esac
					# shellcheck disable=SC2086
					bench "svc_${r}_${n}_$(echo "$impl" | tr -d :)" bench=svc $args \
						duration_ms="$BENCH_SVC_MS" $BENCH_SVC_ARGS
					echo "BENCH-IDLE svc_$(echo "$impl" | tr : _) round=$r n=$n idle=$(idle "$s0" "$(cpustat)")"
				done
				cpt_unload
			done
			r=$((r + 1))
		done ;;
	usvc)
		[ -x /tmp/svc-bench ] || { echo "BENCH-FAIL no svc-bench"; fail=1; continue; }
		r=1
		while [ "$r" -le "$BENCH_USVC_ROUNDS" ]; do
			list=$BENCH_NPARTS
			# shellcheck disable=SC2086
			[ $((r % 2)) -eq 0 ] && list=$(reverse $BENCH_NPARTS)
			for n in $list; do
				s0=$(cpustat)
				if ./cpt-plan --npartitions "$n" >/tmp/plan &&
				   out=$(/tmp/svc-bench -c -d "$BENCH_SVC_MS" /tmp/plan); then
					echo "BENCH-USVC n=$n round=$r,$out"
					echo "BENCH-IDLE usvc round=$r n=$n idle=$(idle "$s0" "$(cpustat)")"
				else
					echo "BENCH-FAIL svc-bench n=$n"
					fail=1
				fi
			done
			r=$((r + 1))
		done ;;
	*)
		echo "BENCH-FAIL unknown part '$what'"
		fail=1 ;;
	esac
done
dmesg | sed -n 's/^.*cpt_bench: RESULT /BENCH-RESULT /p'
exit $fail
