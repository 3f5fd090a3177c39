#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What a partitioned service builds on (include/cpt.h), in one boot of
#   scripts/vm-run --smp 8,sockets=2,cores=2,threads=2 --nodes '0-3;4-7'
# with the test module tests/modules/cpt_percpt_test.c:
#
# 1. The inline lookups: cpt_current(), cptab_current() and cptab_of_cpu()
#    on every online CPU answer the partition /proc/sys/lnet shows, before
#    and after replacements to other counts, a CPU offline and back, and a
#    pattern that leaves a CPU out (which then borrows its node's
#    partition).
# 2. Per-partition memory: each object of cpt_percpt_alloc() (64 B, 16 KiB,
#    8 MiB vmalloc'ed) on its partition's node, for 2 and 4 partitions; an
#    array of 2 x 32 MiB kept, then rmmod gives the memory back.
# 3. Per-partition locks: each on its node in its own cache line, and for
#    a second, two threads per partition and two exclusive ones: nobody
#    inside with an exclusive holder, one holder per partition, no lost
#    update; for 2 and 4 partitions.  cpt_lock_current() by a thread that
#    moves to another partition while it holds the lock: the index it
#    returned is cpt_current() modulo the count (a lock of 2 partitions
#    under a table of 4 too), its mutex alone is held before and after
#    the move, and the unlock with that index leaves none held.
# 4. Per-partition thread pools: 2 threads per partition stay on their
#    partition's CPUs through a whole partition offline and back, 50
#    offline/online cycles and a replacement to another count (the test
#    module's notifier starts a new pool then); the same with a thread
#    per CPU of each partition; rmmod leaves no thread.
# 5. Per-partition work queues (cpt_workers_start()): every work runs, in
#    order, one at a time per partition, on its partition's CPUs, for 2
#    and 4 partitions, and with a whole partition offline; no thread left.
# 6. cptab_bind_current() from a work item of system_wq and from a kthread
#    bound to a CPU: -EINVAL, a log line, the mask unchanged.
# 7. /proc/cpt/stats: a pool's threads and threads unbound per partition
#    (one partition offline), the lock test's holds and exclusive holds and
#    the worker test's works queued and run, against the tests' own counts.
# 8. The tracepoints cpt:* (guest-trace.sh): each event of a pool's
#    start, a CPU offline, a sysctl write, two CPUs back (one joining its
#    sibling) and of binds refused and made, with its fields.
# 9. After rmmod of the test module: no thread named cpt_*, and no slab
#    object or vmalloc area left that cpt's helpers allocated (by call
#    site, slub_debug=U), which the same check sees while a pool runs.

# shellcheck source=tests/lib/guest-lib.sh
. /cpt/guest-lib.sh

PT=/sys/module/cpt_percpt_test/parameters

# What the lookups should say on each online CPU, from the /proc table: a
# "CPU P P P" line per listed CPU.
expected_lookup() { table | cpu_map | awk '{ print $1, $2, $2, $2 }'; }
# What they say: the test module's answers, without its header line.
got_lookup() { sed 1d $PT/lookup; }

# lookups NAME PARTITIONS: the answers match /proc, for PARTITIONS.
lookups() {
	same "$1: partitions" "$(head -n 1 $PT/lookup | cut -d' ' -f1)" "n=$2"
	same "$1: every CPU's lookups" "$(got_lookup)" "$(expected_lookup)"
}

section "inline lookups on $(ncpus) CPUs, 2 nodes"
check "insmod cpt.ko npartitions=2" insmod cpt.ko npartitions=2
check "insmod cpt_percpt_test.ko" insmod cpt_percpt_test.ko
# A read of these starts threads, allocates or holds locks: root only.
for _p in lookup mem lock lock_neg lock_pair worker worker_misuse pool_since bind_fixed; do
	same "parameter $_p is 0400" \
		"$(stat -c %a /sys/module/cpt_percpt_test/parameters/$_p)" 400
done
# Hand-written: one partition per node.
same "npartitions=2: the table" "$(table)" "$(printf '0\t: 0 1 2 3\n1\t: 4 5 6 7')"
lookups "npartitions=2" 2
same "npartitions=4: write" "$(put $P/cpu_npartitions 4)" ok
same "npartitions=4: the table" "$(table)" \
	"$(printf '0\t: 0 1\n1\t: 2 3\n2\t: 4 5\n3\t: 6 7')"
lookups "npartitions=4" 4
set_cpu 5 0
lookups "npartitions=4, CPU 5 offline" 4
set_cpu 5 1
lookups "npartitions=4, CPU 5 back" 4
same "pattern without CPU 7: write" \
	"$(put $P/cpu_pattern '0[0-3] 1[4-6]')" ok
same "pattern without CPU 7: the CPUs placed" \
	"$(got_lookup | grep -v '^7 ')" "$(expected_lookup)"
# CPU 7 is in no partition: cptab_of_cpu() says so (CPT_ANY, which the
# module names, whatever its value), the other two borrow the partition
# of its node, 1.
same "CPU 7 in no partition" "$(got_lookup | grep '^7 ')" "7 1 1 CPT_ANY"
same "npartitions=3, no pattern: write" "$(put $P/cpu_pattern '')" ok
same "npartitions=3: write" "$(put $P/cpu_npartitions 3)" ok
lookups "npartitions=3" 3

# mem_expected NODE...: the mem answer when partition i is on the i-th NODE.
mem_expected() {
	for size in 64 16384 8388608; do
		kind=kmalloc
		[ $size = 8388608 ] && kind=vmalloc
		i=0
		for node in "$@"; do
			echo "$size $i $node $node $kind"
			i=$((i + 1))
		done
		[ $size = 64 ] && echo "for_each=$# beyond=NULL"
	done
}
# Free memory in kB: MemFree, plus the free pages waiting on the CPUs'
# lists (the pagesets' "count:" lines of /proc/zoneinfo, 4 KiB pages),
# which MemFree leaves out and the kernel sizes as it goes.  MemFree alone
# once came back 6 MiB short after rmmod on 6.12; in six keep and rmmod
# cycles there the lists held 15 to 20 MiB and moved by up to 2.4 MiB
# between two reads.
mem_free_kb() {
	awk '/^MemFree:/ { s += $2 } /^ *count:/ { s += 4 * $2 } END { print s }' \
		/proc/meminfo /proc/zoneinfo
}
vmalloc_kb() { awk '/^VmallocUsed:/ { print $2 }' /proc/meminfo; }

section "per-partition memory"
same "npartitions=2: write" "$(put $P/cpu_npartitions 2)" ok
same "npartitions=2: objects on their nodes" "$(cat $PT/mem)" "$(mem_expected 0 1)"
same "npartitions=4: write" "$(put $P/cpu_npartitions 4)" ok
same "npartitions=4: objects on their nodes" "$(cat $PT/mem)" "$(mem_expected 0 0 1 1)"
same "npartitions=2 again: write" "$(put $P/cpu_npartitions 2)" ok
free0=$(mem_free_kb)
vm0=$(vmalloc_kb)
check "keep 2 x 32 MiB" sh -c "echo 32 >$PT/keep_mb"
free1=$(mem_free_kb)
vm1=$(vmalloc_kb)
# 64 MiB, less what the kernel frees meanwhile (lazy vmalloc purges).
check "free memory fell by 56 MiB or more ($free0 -> $free1 kB)" \
	[ $((free0 - free1)) -ge 57344 ]
# kvzalloc_node() of 32 MiB is vmalloc: VmallocUsed counts its pages, the
# 64 MiB less what others free meanwhile (150 kB once on 7.3-rt).
check "VmallocUsed rose by 63 MiB or more ($vm0 -> $vm1 kB)" \
	[ $((vm1 - vm0)) -ge 64512 ]
check "rmmod cpt_percpt_test" rmmod cpt_percpt_test
free2=$(mem_free_kb)
vm2=$(vmalloc_kb)
# KASAN (the debug kernels) holds freed memory in its quarantine, where it
# still counts as allocated: there, kmemleak's scan after the suite
# (scripts/vm-run) looks for leaks instead.
KASAN=$(dmesg | grep -c 'KernelAddressSanitizer initialized')
if [ "$KASAN" = 0 ]; then
	check "rmmod gave it back: free memory within 4 MiB ($free0 -> $free2 kB)" \
		[ $((free0 - free2)) -le 4096 ]
	check "rmmod gave it back: VmallocUsed within 1 MiB ($vm0 -> $vm2 kB)" \
		[ $((vm2 - vm0)) -le 1024 ]
else
	skip "rmmod gave it back (KASAN's quarantine keeps it; kmemleak checks)"
fi

# locks NAME NODE...: the lock test with partition i on the i-th NODE.
locks() {
	_name=$1
	shift
	_out=$(cat $PT/lock)
	same "$_name: each lock on its node, alone in its cache line" \
		"$(echo "$_out" | grep -e '^nodes' -e '^aligned=')" \
		"$(printf 'nodes %s\naligned=%d/%d' "$*" $# $#)"
	_res=$(echo "$_out" | grep '^loops=')
	echo "    $_name: $_res"
	check "$_name: exclusive mode excludes, no lost update ($_res)" \
		sh -c "echo '$_res' | grep -q 'violations=0 lost=0' &&
		       ! echo '$_res' | grep -q -e 'loops=0 ' -e 'excl=0 '"
}

ncpt_threads() { cat /proc/[0-9]*/comm 2>/dev/null | grep -c '^cpt_'; }
# helper_allocs: the live slab objects and vmalloc areas that cpt's
# helpers allocated, by call site (slub_debug=U keeps the allocator of
# each object: /sys/kernel/debug/slab/*/alloc_traces from 5.16,
# /sys/kernel/slab/*/alloc_calls before).
HELPERS='cpt_percpt_alloc|cpt_lock_alloc|cptk_pool_start|cpt_threads_start|cpt_workers_start'
[ -d /sys/kernel/debug/slab ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
# Not vmap_area: vfree() frees it lazily, later, with the stack of the
# vmalloc() still on it.
helper_allocs() {
	# shellcheck disable=SC2046,SC2010 # sysfs names: one word each
	cat $(ls /sys/kernel/debug/slab/*/alloc_traces \
		/sys/kernel/slab/*/alloc_calls 2>/dev/null | grep -v /vmap_area/) \
		/proc/vmallocinfo 2>/dev/null | grep -E "$HELPERS" | sort -u
}

section "per-partition locks"
check "insmod cpt_percpt_test.ko" insmod cpt_percpt_test.ko
same "parameter lock_current is 0600" "$(stat -c %a $PT/lock_current)" 600
locks "npartitions=2" 0 1
same "npartitions=2: cpt_lock_current(), moved while held, unlocks its own mutex" \
	"$(cat $PT/lock_current)" "PASS moves=2 locks=2 parts=2"
check "keep a lock of 2 partitions" sh -c "echo 1 >$PT/lock_current"
same "npartitions=4: write" "$(put $P/cpu_npartitions 4)" ok
locks "npartitions=4" 0 0 1 1
# Code ported from libcfs passes CFS_CPT_ANY, -1, for the exclusive mode.
_res=$(grep '^loops=' $PT/lock_neg)
echo "    npartitions=4, exclusive holders passing -1: $_res"
check "npartitions=4: cpt_lock(lk, -1) excludes every partition's holder ($_res)" \
	sh -c "echo '$_res' | grep -q 'violations=0 lost=0' &&
	       ! echo '$_res' | grep -q -e 'loops=0 ' -e 'excl=0 '"
check "and the log names the misuse and its caller" \
	sh -c "dmesg | grep -q '\\[cpt_percpt_test\\]: partition -1 of a cpt_lock is not one (CPT_ANY is -4096): taking the exclusive mode'"
# Partitions 2 and 3 of the new table take locks 0 and 1 of the old one.
same "npartitions=4, a lock of 2: cpt_lock_current() returns cpt_current() modulo 2" \
	"$(cat $PT/lock_current)" "PASS moves=4 locks=2 parts=4"
check "drop the lock of 2 partitions" sh -c "echo 0 >$PT/lock_current"
same "npartitions=4: cpt_lock_current(), a lock of 4" \
	"$(cat $PT/lock_current)" "PASS moves=4 locks=4 parts=4"

# answer_ok NAME PARAM: the answer of the test module's PARAM starts with
# PASS (pool, pool_since, worker: the checks the module itself makes).
answer_ok() {
	_v=$(cat "$PT/$2")
	case $_v in
	PASS*) pass "$1: $_v" ;;
	*) fail "$1: $_v" ;;
	esac
}
pool_ok() { answer_ok "$1" pool; }
answer_ok "npartitions=4: two locks of one call site, exclusive together" lock_pair
nthreads() { cat /proc/[0-9]*/comm 2>/dev/null | grep -c '^cpt_pt/'; }

section "per-partition thread pools"
check "start 2 threads per partition" sh -c "echo 2 >$PT/pool"
same "8 threads" "$(nthreads)" 8
pool_ok "npartitions=4"
set_cpu 6 0
set_cpu 7 0
pool_ok "partition 3 (CPUs 6-7) offline"
contains "$(cat $PT/pool)" "unbound=2"
check "partition 3 offline: its 2 threads counted unbound" [ $? = 0 ]
same "and in /proc/cpt/stats, partition by partition" \
	"$(grep '^pool ' /proc/cpt/stats)" \
	"$(printf 'pool 0 2 0 cpt_pt\npool 1 2 0 cpt_pt\npool 2 2 0 cpt_pt\npool 3 2 2 cpt_pt')"
check "and said so in the log" sh -c "dmesg | grep -q 'pool threads have no online CPU'"
set_cpu 6 1
set_cpu 7 1
pool_ok "partition 3 back"
POOL_CYCLES=${LIVE_POOL_CYCLES:-50}
# shellcheck disable=SC2016 # repeat evaluates the body
repeat "$POOL_CYCLES" 'c=$((i % 7 + 1)); set_cpu $c 0 && set_cpu $c 1'
check "$POOL_CYCLES offline/online cycles in ${wt}s, no error" [ "$errs" = 0 ]
answer_ok "no thread ran off its partition during the $POOL_CYCLES cycles" pool_since
pool_ok "after $POOL_CYCLES cycles"
same "npartitions=2: write" "$(put $P/cpu_npartitions 2)" ok
pool_ok "npartitions=2, a new pool"
same "4 threads" "$(nthreads)" 4

section "a thread per CPU of each partition"
same "npartitions=4: write" "$(put $P/cpu_npartitions 4)" ok
check "start 1 thread per CPU of each partition" sh -c "echo 1 >$PT/pool_cpus"
same "8 threads, 2 per partition" "$(nthreads)" 8
pool_ok "per CPU, npartitions=4"
set_cpu 5 0
pool_ok "per CPU, CPU 5 offline"
same "still 8 threads" "$(nthreads)" 8
set_cpu 5 1
same "npartitions=2: write" "$(put $P/cpu_npartitions 2)" ok
pool_ok "per CPU, npartitions=2, a new pool"
same "8 threads, 4 per partition" "$(nthreads)" 8

# shellcheck source=tests/live/guest-trace.sh
. /cpt/guest-trace.sh
trace_section

section "cptab_bind_current() refused where the affinity is fixed"
answer_ok "from a system_wq work item and a kthread_bind() thread: -EINVAL, mask kept" bind_fixed
check "and said so in the log" sh -c "dmesg | grep -q 'cptab_bind_current(): the affinity of .* is fixed: refused'"

# stat_sum COLUMN < lines: the sum of a column.
stat_sum() { awk -v c="$1" '{ s += $c } END { print s + 0 }'; }

section "statistics: /proc/cpt/stats"
same "/proc/cpt/stats is root's alone" "$(stat -c %a /proc/cpt/stats)" 400
same "its column lines" "$(grep '^#' /proc/cpt/stats)" \
	"$(printf '# pool cpt threads unbound name\n# workers cpt queued run name\n# lock cpt holds excl excl_ns site')"
check "keep the last lock and workers of the tests" sh -c "echo 1 >$PT/keep_last"
_t0=$(now)
_res=$(grep '^loops=' $PT/lock)
_wall_ns=$(awk -v a="$_t0" -v b="$(now)" 'BEGIN { printf "%.0f", (b - a + 0.01) * 1e9 }')
loops=$(echo "$_res" | sed 's/^loops=\([0-9]*\) .*/\1/')
excl=$(echo "$_res" | sed 's/.* excl=\([0-9]*\) .*/\1/')
st=$(grep '^lock ' /proc/cpt/stats)
printf '%s\n%s\n' "$_res" "$st" | sed 's/^/    | /'
same "lock: a line per partition" "$(echo "$st" | cut -d' ' -f2 | tr '\n' ' ')" "0 1 "
same "lock: the holds add up to the test's loops" "$(echo "$st" | stat_sum 3)" "$loops"
same "lock: each partition held exclusively as often as the test did" \
	"$(echo "$st" | cut -d' ' -f4 | sort -u)" "$excl"
# One exclusive holder at a time: their time adds up to less than the
# test's run (udelay() under TCG is no clock to bound it from below).
check "lock: exclusive time, more than 0 and less than the test's ${_wall_ns} ns" \
	sh -c "echo '$st' | awk -v w='$_wall_ns' '\$5 <= 0 || \$5 >= w { exit 1 }'"
same "lock: named by the function that made it" \
	"$(echo "$st" | cut -d' ' -f6- | sort -u)" "lock_test_run [cpt_percpt_test]"
answer_ok "the worker test, its workers kept" worker
# Per partition: 16 works and a blocker run, a work cancelled behind the
# blocker (queued, never run), two delayed works of the kthread API (run,
# not queued by cpt_queue_work()).
same "workers: 18 works queued by cpt_queue_work(), 19 run, per partition" \
	"$(grep '^workers ' /proc/cpt/stats)" \
	"$(printf 'workers 0 18 19 cpt_wk\nworkers 1 18 19 cpt_wk')"
same "workers: their pool, a bound thread per partition" \
	"$(grep '^pool ' /proc/cpt/stats)" \
	"$(printf 'pool 0 1 0 cpt_wk\npool 1 1 0 cpt_wk')"
check "free them" sh -c "echo 0 >$PT/keep_last"
same "no line left but the column lines" "$(grep -v '^#' /proc/cpt/stats)" ""

workers_ok() { answer_ok "$1" worker; }
nworkers() { cat /proc/[0-9]*/comm 2>/dev/null | grep -c '^cpt_wk/'; }

section "per-partition work queues"
workers_ok "npartitions=2"
answer_ok "cpt_queue_work(-1) and cpt_worker_of(-1) refused, CPT_ANY the caller's; a delayed work armed at cpt_workers_stop() cancelled" \
	worker_misuse
check "and the log names the misuse and its caller" \
	sh -c "dmesg | grep -q 'cpt_queue_work() from worker_misuse_get.*: partition -1 is not one (CPT_ANY is -4096): refused'"
same "npartitions=4: write" "$(put $P/cpu_npartitions 4)" ok
workers_ok "npartitions=4"
set_cpu 6 0
set_cpu 7 0
workers_ok "partition 3 (CPUs 6-7) offline: its works still run"
set_cpu 6 1
set_cpu 7 1
workers_ok "partition 3 back"
same "no worker thread left" "$(nworkers)" 0
check "start a pool again" sh -c "echo 1 >$PT/pool_cpus"
live=$(helper_allocs)
printf '%s\n' "$live" | sed 's/^/    | /'
check "rmmod cpt_percpt_test" rmmod cpt_percpt_test
same "no thread of the test module or of cpt's helpers left" "$(ncpt_threads)" 0
# Only where the running pool's memory showed its call site (5.10-rt
# shows it in some runs, not in others: where it does not, the check
# could not fail, so it is not made, and the log says so).
if [ "$KASAN" != 0 ]; then
	skip "no slab object of cpt's helpers left (KASAN's quarantine; kmemleak checks)"
elif echo "$live" | grep -qE 'cptk_pool_start|cpt_threads_start'; then
	same "no slab object or vmalloc area of cpt's helpers left" "$(helper_allocs)" ""
else
	echo "    (this kernel showed no call site of the running pool: slab check not made)"
fi
same "no pool thread left" "$(nthreads)" 0
check "rmmod cpt" rmmod cpt

finish
