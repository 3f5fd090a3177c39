#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# How long a sysctl write waits while a big pool starts and rebinds, in
# one boot of scripts/vm-run --smp 8 --mem 2G (make test-live
# LIVE_SCENARIOS=rebind; not in make check).  A sysctl write that keeps
# the count returns once the consumers were told, and cpt rebinds every
# pool before it tells them: so the write waits for what holds cpt's
# pools lock.
#
# 1. A pool of LIVE_REBIND_PER (default 1024) threads per partition, 4
#    partitions (4096 threads), is started in the background; 1 s later,
#    one write that moves CPUs between partitions is timed.
# 2. With the pool running and CPU 7 going offline and online in a loop,
#    LIVE_REBIND_WRITES (default 10) such writes are timed.
# Prints "REBIND: ..." lines with the figures; checks only that every
# write succeeded and the pool is bound to the last table.

# shellcheck source=tests/lib/guest-lib.sh
. /cpt/guest-lib.sh

PT=/sys/module/cpt_percpt_test/parameters
PER=${LIVE_REBIND_PER:-1024}
WRITES=${LIVE_REBIND_WRITES:-10}
# CPU 7, which the hotplug loop takes, is in neither: a write must not
# name an offline CPU.
A='0[0,1] 1[2,3] 2[4,5] 3[6]'
B='0[0,2] 1[1,3] 2[4,6] 3[5]'

# timed_write PATTERN: write it, print the seconds it took.
timed_write() {
	_t=$(now)
	_r=$(put $P/cpu_pattern "$1")
	[ "$_r" = ok ] || echo "write failed: $_r" >&2
	elapsed "$_t"
}

section "a pool of $((PER * 4)) threads"
# The default limit of a 512 MiB guest is about 4000 threads.
echo 100000 >/proc/sys/kernel/threads-max
check "insmod cpt.ko npartitions=4" insmod cpt.ko npartitions=4
check "insmod cpt_percpt_test.ko" insmod cpt_percpt_test.ko
same "pattern A: write" "$(put $P/cpu_pattern "$A")" ok
t=$(now)
( echo "$PER" >$PT/pool; echo "REBIND: pool of $((PER * 4)) threads started in $(elapsed "$t")s" ) &
starter=$!
sleep 1
echo "REBIND: a write during the start took $(timed_write "$B")s"
wait $starter
echo "REBIND: the pool started $(elapsed "$t")s after it was asked for"

section "$WRITES writes under a hotplug loop"
( while :; do set_cpu 7 0; set_cpu 7 1; done ) >/dev/null 2>&1 &
hp=$!
max=0
sum=0
i=0
while [ $i -lt "$WRITES" ]; do
	p=$A
	[ $((i % 2)) = 0 ] || p=$B
	w=$(timed_write "$p")
	sum=$(awk -v a="$sum" -v b="$w" 'BEGIN { print a + b }')
	max=$(awk -v a="$max" -v b="$w" 'BEGIN { print (b > a) ? b : a }')
	i=$((i + 1))
done
kill $hp
wait $hp 2>/dev/null
set_cpu 7 1
echo "REBIND: $WRITES writes under the hotplug loop: max ${max}s, mean $(awk -v s="$sum" -v n="$WRITES" 'BEGIN { printf "%.2f", s / n }')s"
v=$(cat $PT/pool)
case $v in PASS*) pass "the pool after the writes: $v" ;; *) fail "the pool after the writes: $v" ;; esac
check "stop the pool" sh -c "echo 0 >$PT/pool"
check "rmmod cpt_percpt_test" rmmod cpt_percpt_test
check "rmmod cpt" rmmod cpt
finish
