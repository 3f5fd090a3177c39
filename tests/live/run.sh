#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh: the live-tuning VM tests (issue 4), host side.
#
#   tests/live/run.sh [--scenarios "maxcpus tuning seed"] [KERNEL...]
#
# For each kernel (6.1 and 6.12 by default) and scenario, boots
# scripts/vm-run --no-build (cpt.ko and the test modules must be built:
# make ko KREL=...; make test-live does it) and runs tests/live/lib.sh
# followed by tests/live/guest-SCENARIO.sh in the guest:
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
#   unload   -smp 4, slub_debug=FZPU panic_on_warn=1: rmmod while a
#            notification holds the table (the test build fault/cpt.ko),
#            then offline/rmmod/online/insmod cycles under busy loops
#
# Guests run with slub_debug=FZP, so that a replaced table used after it
# was freed reads poison.  LIVE_CYCLES, LIVE_HOTPLUG and LIVE_BIG_CYCLES
# are passed to the guest scripts.  Logs: build/live/KERNEL-SCENARIO.log.
# Prints every FAIL line, a line per boot with its time, and
# "test-live: N passed, N failed"; exits non-zero on any failure, including
# a guest that did not finish or a kernel log problem (oops, WARNING, ...:
# vm-run status 123).
set -u

cd "$(dirname "$0")/../.." || exit 1
VM_RUN=${VM_RUN:-scripts/vm-run}
OUT=build/live
scenarios="maxcpus tuning seed"

while [ $# -gt 0 ]; do
	case $1 in
	--scenarios) scenarios=$2; shift 2 ;;
	--scenarios=*) scenarios=${1#*=}; shift ;;
	-h|--help) sed -n '3,/^set -u/{/^set -u/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	-*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
kernels=${*:-6.1 6.12}
mkdir -p "$OUT"

# Settings of the host passed on to the guest scripts.
env=
for v in LIVE_CYCLES LIVE_HOTPLUG LIVE_BIG_CYCLES LIVE_MEM_CYCLES LIVE_UNLOAD_CYCLES LIVE_UNLOAD_DELAY_MS; do
	eval "val=\${$v:-}"
	[ -n "$val" ] && env="$env$v=$val; "
done

npass=0
nfail=0
status=0
t_all=$(date +%s)
for k in $kernels; do
	for s in $scenarios; do
		nodes=
		append="slub_debug=FZP"
		case $s in
		maxcpus)
			smp=8,sockets=1,dies=2,cores=2,threads=2
			nodes='0-7;'
			append="$append maxcpus=2"
			limit=300 ;;
		tuning)
			smp=4,sockets=1,cores=2,threads=2
			nodes='0-3;'
			limit=420 ;;
		seed)
			smp=48,sockets=1,cores=24,threads=2
			limit=420 ;;
		bigmem)
			smp=240,sockets=2,dies=2,cores=30,threads=2
			nodes='0-119;120-239'
			append="$append cpuhp.parallel=0"
			limit=1800 ;;
		unload)
			smp=4,sockets=1,cores=2,threads=2
			append="slub_debug=FZPU panic_on_warn=1"
			limit=600 ;;
		*)
			echo "run.sh: unknown scenario '$s'" >&2
			exit 2 ;;
		esac
		[ -r "tests/live/guest-$s.sh" ] || { echo "run.sh: no tests/live/guest-$s.sh" >&2; exit 2; }
		log=$OUT/$k-$s.log
		t=$(date +%s)
		"$VM_RUN" --no-build --kernel "$k" --smp "$smp" \
			${nodes:+--nodes "$nodes"} --append "$append" \
			--timeout "$limit" -- \
			"$env$(cat tests/live/lib.sh "tests/live/guest-$s.sh")" \
			>"$log" 2>&1
		rc=$?
		secs=$(($(date +%s) - t))
		p=$(grep -c '^PASS: ' "$log")
		f=$(grep -c '^FAIL: ' "$log")
		# Each FAIL line with the details shown under it.
		awk '/^FAIL: /	{ n = 0; d = 1; print; next }
		     d && /^    \| / && n++ < 40 { print; next }
		     { d = 0 }' "$log" | sed "s/^/$k $s: /"
		if ! grep -q '^RESULT: ' "$log"; then
			echo "$k $s: FAIL: the guest script did not finish (vm-run status $rc)"
			f=$((f + 1))
		elif [ "$rc" != 0 ] && [ "$f" = 0 ]; then
			echo "$k $s: FAIL: vm-run status $rc (123: kernel log problem)"
			f=$((f + 1))
		fi
		if [ "$rc" != 0 ]; then
			grep '^vm-run: ' "$log" | tail -n 40 | sed "s/^/$k $s: /"
			status=1
		fi
		[ "$f" = 0 ] || status=1
		npass=$((npass + p))
		nfail=$((nfail + f))
		echo "$k $s: $p passed, $f failed in ${secs}s ($(grep '^vm-run: .*wall' "$log" | sed 's/^vm-run: //'); log $log)"
	done
done
echo "test-live: $npass passed, $nfail failed in $(($(date +%s) - t_all))s"
exit $status
