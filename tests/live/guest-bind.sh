#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Threads bound by the kernel's rules, in one boot of
#   scripts/vm-run --smp 8,sockets=1,cores=8,threads=1 \
#       --append 'slub_debug=FZPU panic_on_warn=1 isolcpus=7'
# with the test build of cpt.ko (fault/cpt.ko) at npartitions=7: one CPU
# per partition (CPU 7, isolated, in none), so that a bind to a partition
# whose only CPU is going down is a bind to that CPU.
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
# 3. A slow notification: fault_notify_ms=200 holds each notification
#    between its cpt_get() and its rebinding while CPUs cycle, so that a
#    CPU event installs a newer table and rebinds the pool first: the
#    pool's generation, sampled every millisecond (pool_watch), must never
#    go back, and afterwards every thread is on its partition of the table
#    in force.
# 4. A pool kept on its own table (pool_keep=1, then a sysctl write to 3
#    partitions), whose partition 5 is one CPU: that CPU offlined, the
#    thread moves to the other CPUs of its own table, never the isolated
#    CPU 7, and counts as unbound in /proc/cpt/stats, with the log line;
#    the CPU back, it is on it again and bound.
# 5. A CPU that the pattern leaves out offline and online: cpt_cpu_place
#    names its partition CPT_ANY, as the API does for none.

# shellcheck source=tests/lib/guest-lib.sh
. /cpt/guest-lib.sh

PT=/sys/module/cpt_percpt_test/parameters
FAULT=/sys/module/cpt/parameters/fault_offline_ms
NOTIFY=/sys/module/cpt/parameters/fault_notify_ms
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
# cycle: offline and online a random CPU of 1-6 (7 is isolated).
cycle() {
	_c=$(($(head -c 2 /dev/urandom | od -An -tu2) % 6 + 1))
	set_cpu $_c 0 && set_cpu $_c 1
}
# pool_pid CPT: the pid of the pool thread cpt_pt/CPT.0.
pool_pid() {
	for _d in /proc/[0-9]*; do
		[ "$(cat "$_d/comm" 2>/dev/null)" = "cpt_pt/$1.0" ] &&
			echo "${_d#/proc/}" && return
	done
}
# allowed PID: its Cpus_allowed_list.
allowed() { sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$1/status"; }
# stats_pool CPT: the "pool CPT THREADS UNBOUND cpt_pt" line of the stats.
stats_pool() { grep "^pool $1 .* cpt_pt\$" /proc/cpt/stats; }

section "one CPU per partition, $(ncpus) CPUs"
check "the test build is here" [ -f fault/cpt.ko ]
check "insmod fault/cpt.ko npartitions=7" insmod fault/cpt.ko npartitions=7
check "insmod cpt_percpt_test.ko" insmod cpt_percpt_test.ko
same "7 partitions of one CPU" "$(table | awk '{ print NF }' | sort -u)" 3
same "... the isolated CPU 7 in none" "$(table | awk '{ print $3 }' | sort | tr '\n' ' ')" "0 1 2 3 4 5 6 "

section "binds while a CPU's teardown is held open"
echo 50 >$FAULT
check "start 4 self-binding threads" sh -c "echo 4 >$PT/binders"
# shellcheck disable=SC2016 # repeat evaluates the body
repeat "$FAULT_CYCLES" 'c=$((i % 6 + 1)); set_cpu $c 0 && set_cpu $c 1'
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

section "a pool under slow notifications (fault_notify_ms=200)"
check "start 1 thread per partition" sh -c "echo 1 >$PT/pool"
check "sample its generation every ms" sh -c "echo 1 >$PT/pool_watch"
echo 200 >$NOTIFY
# shellcheck disable=SC2016 # repeat evaluates the body
repeat 10 'c=$((i % 6 + 1)); set_cpu $c 0 && set_cpu $c 1'
check "10 offline/online cycles in ${wt}s, no error" [ "$errs" = 0 ]
echo 0 >$NOTIFY
answer_ok "then the pool, on the table in force" pool
answer_ok "its generation never went back" pool_watch
echo 0 >$PT/pool_watch

section "a pool on its own table loses a partition's only CPU"
echo 1 >$PT/pool_keep
check "start 1 thread per partition" sh -c "echo 1 >$PT/pool"
answer_ok "the pool, on 7 partitions" pool
same "partition 5 is CPU 5" "$(table | awk '$1 == 5 { print $3 }')" 5
same "npartitions=3: write" "$(put "$P"/cpu_npartitions 3)" ok
same "3 partitions now" "$(table | wc -l)" 3
pid=$(pool_pid 5)
check "the thread of partition 5 ($pid)" [ -n "$pid" ]
same "... on CPU 5" "$(allowed "$pid")" 5
same "... bound" "$(stats_pool 5)" "pool 5 1 0 cpt_pt"
dmesg -c >/dev/null
check "offline CPU 5" set_cpu 5 0
same "... the thread on its table's other CPUs, not the isolated 7" \
	"$(allowed "$pid")" "0-4,6"
same "... unbound" "$(stats_pool 5)" "pool 5 1 1 cpt_pt"
check "... and said so" sh -c "dmesg | grep -q '1 pool threads have no online CPU in their partition'"
same "... the pool's other threads bound" "$(grep -c '^pool [0-46] 1 0 cpt_pt$' /proc/cpt/stats)" 6
check "online CPU 5" set_cpu 5 1
same "... the thread on CPU 5 again" "$(allowed "$pid")" 5
same "... bound" "$(stats_pool 5)" "pool 5 1 0 cpt_pt"
check "stop the pool" sh -c "echo 0 >$PT/pool"
echo 0 >$PT/pool_keep

# A CPU that a pattern leaves out comes back in no partition: the
# tracepoint says so with the API's CPT_ANY.  CPU 6, not the isolated 7:
# 6.12 refuses to offline a CPU alone in the default root domain
# (dl_bw_check_overflow() runs once the CPU is inactive, so it weighs the
# fair servers' bandwidth against no capacity: EBUSY), always without
# cpusets (the debug kernels) and on Debian's until a cpuset rebuild.
section "a CPU the pattern leaves out comes online: in no partition, CPT_ANY"
same "pattern without CPU 6: write" "$(put $P/cpu_pattern '0[0-2] 1[3-5]')" ok
TR=/sys/kernel/tracing
[ -d "$TR/events" ] || mount -t tracefs nodev "$TR" 2>/dev/null
echo >"$TR/trace"
echo 1 >"$TR/events/cpt/cpt_cpu_place/enable"
check "offline CPU 6" set_cpu 6 0
check "online CPU 6" set_cpu 6 1
echo 0 >"$TR/events/cpt/cpt_cpu_place/enable"
same "cpt_cpu_place says the API's CPT_ANY (-4096)" \
	"$(sed -n 's/.* cpt_cpu_place: \(cpu=6 cpt=[0-9-]* rule=[a-z]*\) .*/\1/p' "$TR/trace")" \
	"cpu=6 cpt=-4096 rule=barred"
same "... and /proc lists it nowhere" "$(table | cpu_map | awk '$1 == 6')" ""
check "rmmod cpt_percpt_test" rmmod cpt_percpt_test
check "rmmod cpt" rmmod cpt

finish
