#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Threads bound by the kernel's rules, in one boot of
#   scripts/vm-run --smp 8,sockets=1,cores=8,threads=1 \
#       --append 'slub_debug=FZPU panic_on_warn=1'
# with the test build of cpt.ko (fault/cpt.ko) at npartitions=8: one CPU
# per partition, so that a bind to a partition whose only CPU is going
# down is a bind to that CPU.
#
# 1. The teardown held open: fault_offline_ms=50 makes cpt's CPU teardown
#    callback sleep while the table still lists the CPU going down, and
#    self-binding threads (cpt_percpt_test.ko binders=) bind to each
#    partition in turn through LIVE_BIND_FAULT (default 20) offline/online
#    cycles.  Every bind that returned 0 left the thread on a CPU of its
#    own mask.  Without the hotplug lock around the bind, the scheduler
#    picks the CPU going down, its stopper refuses it, and the bind
#    returns 0 with the thread outside its mask (6.1-rt WARNs in
#    affine_move_task() at the thread's next spinlock_t).
# 2. Stress: no delay, the binders and a pool of a thread per CPU of each
#    partition (cpt_threads_start_cpus()) through LIVE_BIND_CYCLES
#    (default 100) offline/online cycles of random CPUs: no bind outside
#    its mask, the pool on its partitions and bound to the last table
#    afterwards (while a partition's CPU is offline its threads run on
#    the other partitions' CPUs, so there is no check during the cycles),
#    and (panic_on_warn=1) no WARN: a pool thread moved onto a CPU being
#    emptied makes sched_cpu_dying() WARN (6.x).  Not run on 5.10-rt by
#    default: that kernel BUGs there by itself (guest-onecpu.sh).

# shellcheck source=tests/lib/guest-lib.sh
. /cpt/guest-lib.sh

PT=/sys/module/cpt_percpt_test/parameters
FAULT=/sys/module/cpt/parameters/fault_offline_ms
FAULT_CYCLES=${LIVE_BIND_FAULT:-20}
CYCLES=${LIVE_BIND_CYCLES:-100}

# binders_ok NAME: the binders' counts, no bind outside its mask.
binders_ok() {
	_v=$(cat $PT/binders)
	case $_v in
	*" outside=0 "*) pass "$1: $_v" ;;
	*) fail "$1: $_v" ;;
	esac
	_ok=$(echo "$_v" | sed -n 's/.* ok=\([0-9]*\) .*/\1/p')
	check "$1: binds that succeeded ($_ok)" [ "${_ok:-0}" -gt 0 ]
}
answer_ok() {
	_v=$(cat "$PT/$2")
	case $_v in
	PASS*) pass "$1: $_v" ;;
	*) fail "$1: $_v" ;;
	esac
}
# cycle: offline and online a random CPU but 0.
cycle() {
	_c=$(($(head -c 2 /dev/urandom | od -An -tu2) % 7 + 1))
	set_cpu $_c 0 && set_cpu $_c 1
}

section "one CPU per partition, $(ncpus) CPUs"
check "the test build is here" [ -f fault/cpt.ko ]
check "insmod fault/cpt.ko npartitions=8" insmod fault/cpt.ko npartitions=8
check "insmod cpt_percpt_test.ko" insmod cpt_percpt_test.ko
same "8 partitions of one CPU" "$(table | awk '{ print NF }' | sort -u)" 3

section "binds while a CPU's teardown is held open"
echo 50 >$FAULT
check "start 4 self-binding threads" sh -c "echo 4 >$PT/binders"
# shellcheck disable=SC2016 # repeat evaluates the body
repeat "$FAULT_CYCLES" 'c=$((i % 7 + 1)); set_cpu $c 0 && set_cpu $c 1'
check "$FAULT_CYCLES offline/online cycles in ${wt}s, no error" [ "$errs" = 0 ]
binders_ok "after $FAULT_CYCLES held teardowns"
echo 0 >$FAULT

section "binders and a per-CPU pool under hotplug"
check "restart the binders" sh -c "echo 0 >$PT/binders && echo 4 >$PT/binders"
check "start 1 thread per CPU of each partition" sh -c "echo 1 >$PT/pool_cpus"
answer_ok "the pool, before" pool
# shellcheck disable=SC2016 # repeat evaluates the body
repeat "$CYCLES" 'cycle'
check "$CYCLES offline/online cycles in ${wt}s, no error" [ "$errs" = 0 ]
binders_ok "after $CYCLES cycles"
answer_ok "the pool, after" pool
check "stop the binders" sh -c "echo 0 >$PT/binders"
check "rmmod cpt_percpt_test" rmmod cpt_percpt_test
check "rmmod cpt" rmmod cpt

finish
