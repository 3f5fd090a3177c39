#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh: the live-tuning VM tests, host side.
#
#   tests/live/run.sh [--scenarios "maxcpus tuning seed"] [KERNEL...]
#
# For each kernel (6.1 and 6.12 by default) and scenario, boots
# scripts/vm-run --no-build (cpt.ko and the test modules must be built:
# make ko KREL=...; make test-live does it) and runs
# tests/live/guest-SCENARIO.sh in the guest (which sources the guest
# library tests/lib/guest-lib.sh there):
#
#   maxcpus  -smp 8 (2 L3 domains), maxcpus=2: CPUs never placed come
#            online under readers; a whole partition offline; rmmod cpt
#            refused while a consumer holds tables
#   tuning   -smp 4: valid, invalid and unprivileged sysctl writes, 1000
#            replacements under 5 readers, 200 offline/online cycles
#   seed     -smp 48 (LU-9998): npartitions=6, invalid writes, pattern N,
#            whole reads of a 13 KB distance file under replacements
#   bigmem   -smp 240 (not by default: the boot takes minutes): memory
#            held for texts after replacements of a 240-partition table
#   percpt   -smp 8, 2 nodes, slub_debug=FZPU panic_on_warn=1: the inline
#            lookups on every
#            CPU through replacements, per-partition memory on its node,
#            per-partition locks and thread pools through 50 hotplug
#            cycles (LIVE_POOL_CYCLES; tests/modules/cpt_percpt_test.c)
#   bind     -smp 8, one CPU per partition, isolcpus=7, slub_debug=FZPU
#            panic_on_warn=1: self-binding threads while a CPU's teardown
#            is held open (fault/cpt.ko), then with a per-CPU pool under
#            offline/online cycles: no thread outside its mask, no WARN
#   rebind   -smp 8 (not by default: a measurement): how long sysctl writes
#            wait while a 4096-thread pool starts, and under a hotplug loop
#   locks    -smp 64, one partition per CPU, slub_debug=FZPU
#            panic_on_warn=1: the lock tests under lockdep (the debug
#            kernels); locks240 the same at 240 CPUs (not by default:
#            15 min on the debug kernel with TCG_OPTS= (one TCG thread
#            per vCPU) and cpuhp.parallel=0; with one TCG thread for all,
#            the boot brought up no more CPUs after 5 to 7 minutes)
#   onecpu   -smp 8 (not by default: a proof about the kernel), cpt.ko
#            never loaded: per-CPU works queued on a CPU across its
#            offline (tests/modules/cpt_onecpu_test.c)
#   unload   -smp 4, slub_debug=FZPU panic_on_warn=1: rmmod while a
#            notification holds the table (the test build fault/cpt.ko),
#            then offline/rmmod/online/insmod cycles under busy loops
#
# Guests run with slub_debug=FZP, so that a replaced table used after it
# was freed reads poison.  LIVE_CYCLES, LIVE_HOTPLUG and LIVE_BIG_CYCLES
# are passed to the guest scripts; LIVE_JOBS guests boot at a time (default
# 1).  Logs: build/live/KERNEL-SCENARIO.log.
# Prints every FAIL line, a line per boot with its time, and
# "test-live: N passed, N failed"; exits non-zero on any failure, including
# a guest that did not finish or a kernel log problem (oops, WARNING, ...:
# vm-run status 123).
set -u

cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib/vm-suite.sh
. tests/lib/vm-suite.sh
OUT=build/live
scenarios="maxcpus tuning seed"

# name|-smp|--nodes|--append|timeout (s)
SCENARIOS='
maxcpus|8,sockets=1,dies=2,cores=2,threads=2|0-7;|slub_debug=FZP maxcpus=2|300
tuning|4,sockets=1,cores=2,threads=2|0-3;|slub_debug=FZP|420
seed|48,sockets=1,cores=24,threads=2||slub_debug=FZP|420
bigmem|240,sockets=2,dies=2,cores=30,threads=2|0-119;120-239|slub_debug=FZP cpuhp.parallel=0|1800
unload|4,sockets=1,cores=2,threads=2||slub_debug=FZPU panic_on_warn=1|600
percpt|8,sockets=2,cores=2,threads=2|0-3;4-7|slub_debug=FZPU panic_on_warn=1|420
bind|8,sockets=1,cores=8,threads=1||slub_debug=FZPU panic_on_warn=1 isolcpus=7|600
rebind|8,sockets=1,cores=4,threads=2||slub_debug=FZP|900
locks|64,sockets=1,cores=64,threads=1||slub_debug=FZPU panic_on_warn=1 kmemleak=off|900
locks240|240,sockets=1,cores=240,threads=1||slub_debug=FZPU panic_on_warn=1 cpuhp.parallel=0|3000
onecpu|8,sockets=1,cores=8,threads=1||slub_debug=FZPU panic_on_warn=1|240
'

while [ $# -gt 0 ]; do
	case $1 in
	--scenarios) scenarios=$2; shift 2 ;;
	--scenarios=*) scenarios=${1#*=}; shift ;;
	-h|--help) suite_usage "$0"; exit 0 ;;
	-*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
kernels=${*:-6.1 6.12}
mkdir -p "$OUT"

# Settings of the host passed on to the guest scripts.
env=$(suite_env LIVE_CYCLES LIVE_HOTPLUG LIVE_BIG_CYCLES LIVE_MEM_CYCLES \
	LIVE_UNLOAD_CYCLES LIVE_UNLOAD_DELAY_MS LIVE_BIND_FAULT LIVE_BIND_CYCLES LIVE_POOL_CYCLES \
	LIVE_REBIND_PER LIVE_REBIND_WRITES LIVE_ONECPU_CYCLES)

status=0
t_all=$(date +%s)
# scenario_line NAME: its line of SCENARIOS, or exit.
scenario_line() {
	_line=$(printf '%s\n' "$SCENARIOS" | grep "^$1|")
	[ -n "$_line" ] || { echo "run.sh: unknown scenario '$1'" >&2; exit 2; }
	[ -r "tests/live/guest-$1.sh" ] || { echo "run.sh: no tests/live/guest-$1.sh" >&2; exit 2; }
	printf '%s\n' "$_line"
}
for s in $scenarios; do
	scenario_line "$s" >/dev/null || exit 2
done
# Boot every guest, LIVE_JOBS (default 1) at a time, then read the logs.
for k in $kernels; do
	for s in $scenarios; do
		IFS='|' read -r _ smp nodes append limit <<-EOF
		$(scenario_line "$s")
		EOF
		log=$OUT/$k-$s.log
		rm -f "$log.boot"
		# The debug kernels (KASAN, lockdep) run the same commands 2 to
		# 4 times slower than Debian's: debug-rt tuning took 184 s in
		# one CI run, 374 s and more than 420 s in two make checks on a
		# slow hour here.  LIVE_DEBUG_SCALE [3] scales their limits.
		case $k in debug*) limit=$((limit * ${LIVE_DEBUG_SCALE:-3})) ;; esac
		# percpt and bind turn tracepoints on and off while their
		# threads run: on 6.1 and 6.1-rt, the kernels vm-run gives a
		# TCG thread per vCPU, that patches static keys under vCPUs
		# running the code, which multi-threaded TCG can leave on a
		# stale int3 (scripts/vm-run, TCG_OPTS).  One thread for them,
		# unless TCG_OPTS says.
		tcg_set=
		case $s in
		percpt|bind)
			if [ -z "${TCG_OPTS+set}" ]; then
				TCG_OPTS=thread=single tcg_set=1
				export TCG_OPTS
			fi ;;
		esac
		SUITE_JOBS=${LIVE_JOBS:-1} suite_start "$log" --kernel "$k" \
			--smp "$smp" ${nodes:+--nodes "$nodes"} \
			--append "$append" --timeout "$limit" \
			-- "$env./guest-$s.sh"
		[ -z "$tcg_set" ] || unset TCG_OPTS
	done
done
suite_wait
for k in $kernels; do
	for s in $scenarios; do
		suite_report "$k $s" "$OUT/$k-$s.log" || status=1
	done
done
echo "test-live: wall $(($(date +%s) - t_all))s"
# The summary line make check counts (tests/lib/check-table.sh).
echo "test-live: $SUITE_NPASS passed, $SUITE_NFAIL failed"
exit $status
