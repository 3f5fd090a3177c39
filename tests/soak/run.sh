#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh: the soak (issue 5), host side.
#
#   tests/soak/run.sh [--cycles N] [--seconds S] [--tag NAME] [KERNEL...]
#
# For each kernel (6.1, 6.12 and 6.1-rt by default), one after the other,
# boots scripts/vm-run --no-build (cpt.ko and the test modules must be
# built: make ko KREL=...; make soak and make test-soak do it) on 8 CPUs,
# 2 sockets of 2 cores x 2 threads, nodes 0-3 and 4-7 at distance 21,
# with slub_debug=FZPU (so that slab counts are exact and a use after
# free reads poison) and panic_on_warn=1 (a WARN ends the guest), and runs
# tests/live/lib.sh followed by tests/soak/guest-soak.sh in it:
# --cycles (SOAK_CYCLES, default 500) load/unload cycles with the slab and
# vmalloc growth checked, then --seconds (SOAK_SECONDS, default 300) of
# readers, sysctl replacements and CPU hotplug at once.
#
# Prints each kernel's "soak: kernel=..." figures line with its time and a
# total line "soak total: ..."; the guest's log in
# build/soak/TAG-KERNEL.log (TAG "soak" by default).  SOAK_SLAB_MAX_KIB,
# SOAK_OBJS_MAX and SOAK_VMALLOC_MAX_KIB change the guest's leak bounds;
# SOAK_NOISE=0 skips its two information-only snapshots.
# Exits non-zero when a guest fails, does not finish, or its kernel log
# shows a problem (vm-run status 123).
set -u

cd "$(dirname "$0")/../.." || exit 1
VM_RUN=${VM_RUN:-scripts/vm-run}
OUT=build/soak
cycles=${SOAK_CYCLES:-500}
seconds=${SOAK_SECONDS:-300}
tag=soak

while [ $# -gt 0 ]; do
	case $1 in
	--cycles) cycles=$2; shift 2 ;;
	--seconds) seconds=$2; shift 2 ;;
	--tag) tag=$2; shift 2 ;;
	-h|--help) sed -n '3,/^set -u/{/^set -u/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	-*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
kernels=${*:-6.1 6.12 6.1-rt}
mkdir -p "$OUT"

# Settings of the host passed on to the guest script.
env="SOAK_CYCLES=$cycles; SOAK_SECONDS=$seconds; "
for v in SOAK_SLAB_MAX_KIB SOAK_OBJS_MAX SOAK_VMALLOC_MAX_KIB SOAK_NOISE; do
	eval "val=\${$v:-}"
	[ -n "$val" ] && env="$env$v=$val; "
done

# The guest's time, generously: TCG on a small, shared host runs a load
# cycle in 0.2 to 1 s and the measurements take a minute.
limit=$((300 + cycles * 2 + seconds * 2))

# total KEY: the sum of KEY=N over the figures lines seen.
total() { sed -n "s/.* $1=\\([0-9]*\\).*/\\1/p" "$OUT/summaries" | awk '{ s += $1 } END { print s + 0 }'; }

status=0
nfail=0
t_all=$(date +%s)
: >"$OUT/summaries"
for k in $kernels; do
	log=$OUT/$tag-$k.log
	t=$(date +%s)
	"$VM_RUN" --no-build --kernel "$k" --smp 8,sockets=2,cores=2,threads=2 \
		--nodes '0-3;4-7' --dist 0-1=21 \
		--append 'slub_debug=FZPU panic_on_warn=1' --timeout "$limit" -- \
		"$env$(cat tests/live/lib.sh tests/soak/guest-soak.sh)" >"$log" 2>&1
	rc=$?
	secs=$(($(date +%s) - t))
	line=$(grep '^soak: kernel=' "$log" | tail -n 1)
	if [ -n "$line" ]; then
		echo "$line" >>"$OUT/summaries"
		echo "$line (${secs}s)"
	fi
	if [ "$rc" = 0 ] && grep -q '^soak: PASS$' "$log"; then
		continue
	fi
	status=1
	nfail=$((nfail + 1))
	if grep -q '^soak: FAIL' "$log"; then
		grep -e '^ERROR' -e '^soak: FAIL' "$log" | head -n 20 | sed "s/^/$k: /"
	elif [ -z "$line" ]; then
		echo "$k: FAIL: the guest script did not finish (vm-run status $rc, 124: timeout, 125: guest died)"
	else
		echo "$k: FAIL: vm-run status $rc (123: kernel log problem)"
	fi
	grep '^vm-run: ' "$log" | tail -n 40 | sed "s/^/$k: /"
	echo "$k: log $log"
done
echo "soak total: kernels=$(echo $kernels | wc -w) failed=$nfail" \
	"cycles=$(total cycles) reads=$(total reads) again=$(total again)" \
	"replacements=$(total replacements)" \
	"hotplug=$(total hotplug) errors=$(total errors) in $(($(date +%s) - t_all))s"
exit $status
