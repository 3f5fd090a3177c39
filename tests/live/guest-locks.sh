#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Per-partition locks at many partitions, in one boot of
#   scripts/vm-run --smp 64,sockets=1,cores=64,threads=1 \
#       --append 'slub_debug=FZPU panic_on_warn=1'
# (scenario locks; locks240 boots 240 CPUs, QEMU 7.2's TCG maximum, for a
# run by hand): cpt.ko with one partition per CPU, then the lock tests of
# cpt_percpt_test.ko, which are meant for the debug kernels, where lockdep
# checks every acquisition:
# - lock: two threads per partition and two exclusive holders, no
#   violation and no lost update; the exclusive mode takes every
#   partition's mutex under one outer mutex (mutex_lock_nest_lock()), which
#   lockdep must take as one held lock, not as more than its 48;
# - lock_pair: two locks made by one helper (one call site) held in the
#   exclusive mode together, then in the other order with a new lock in
#   place of the freed one: each lock has its own lockdep classes, so no
#   recursive locking and no circular dependency;
# - worker: a kthread_worker per partition, every work in order.
# A lockdep report fails the guest (scripts/vm-run), as does any WARN.

# shellcheck source=tests/lib/guest-lib.sh
. /cpt/guest-lib.sh

PT=/sys/module/cpt_percpt_test/parameters
N=$(ncpus)

answer_ok() {
	_v=$(cat "$PT/$2")
	case $_v in
	PASS*) pass "$1: $_v" ;;
	*) fail "$1: $_v" ;;
	esac
}

section "$N partitions of one CPU"
check "insmod cpt.ko npartitions=$N" insmod cpt.ko npartitions="$N"
same "$N partitions" "$(table | wc -l)" "$N"
check "insmod cpt_percpt_test.ko lock_ms=2000" insmod cpt_percpt_test.ko lock_ms=2000

section "the lock test"
out=$(cat $PT/lock)
same "every lock alone in its cache line" "$(echo "$out" | grep '^aligned=')" "aligned=$N/$N"
res=$(echo "$out" | grep '^loops=')
echo "    $res"
check "exclusive mode excludes, no lost update ($res)" \
	sh -c "echo '$res' | grep -q 'violations=0 lost=0' &&
	       ! echo '$res' | grep -q -e 'loops=0 ' -e 'excl=0 '"
answer_ok "two locks of one call site, exclusive together" lock_pair
answer_ok "a worker per partition" worker
check "rmmod cpt_percpt_test" rmmod cpt_percpt_test
check "rmmod cpt" rmmod cpt

finish
