#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh: the soak, host side.
#
#   tests/soak/run.sh [--cycles N] [--seconds S] [--tag NAME] [KERNEL...]
#
# For each kernel (6.1, 6.12 and 6.1-rt by default), SOAK_JOBS (default
# 1) at a time, boots scripts/vm-run --no-build (cpt.ko and the test modules must be
# built: make ko KREL=...; make soak and make test-soak do it) on 8 CPUs,
# 2 sockets of 2 cores x 2 threads, nodes 0-3 and 4-7 at distance 21,
# with slub_debug=FZPU (so that slab counts are exact and a use after
# free reads poison) and panic_on_warn=1 (a WARN ends the guest), and runs
# tests/soak/guest-soak.sh in it:
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
# shellcheck source=tests/lib/vm-suite.sh
. tests/lib/vm-suite.sh
OUT=build/soak
cycles=${SOAK_CYCLES:-500}
seconds=${SOAK_SECONDS:-300}
tag=soak

while [ $# -gt 0 ]; do
	case $1 in
	--cycles) cycles=$2; shift 2 ;;
	--seconds) seconds=$2; shift 2 ;;
	--tag) tag=$2; shift 2 ;;
	-h|--help) suite_usage "$0"; exit 0 ;;
	-*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
kernels=${*:-6.1 6.12 6.1-rt}
mkdir -p "$OUT"

# Settings of the host passed on to the guest script.
env="SOAK_CYCLES=$cycles SOAK_SECONDS=$seconds $(suite_env SOAK_SLAB_MAX_KIB \
	SOAK_OBJS_MAX SOAK_VMALLOC_MAX_KIB SOAK_NOISE)"

# The guest's time, generously: TCG on a small, shared host runs a load
# cycle in 0.2 to 1 s and the measurements take a minute.
limit=$((300 + cycles * 2 + seconds * 2))

# total KEY: the sum of KEY=N over the figures lines seen.
total() { sed -n "s/.* $1=\\([0-9]*\\).*/\\1/p" "$OUT/summaries" | awk '{ s += $1 } END { print s + 0 }'; }

status=0
nfail=0
t_all=$(date +%s)
: >"$OUT/summaries"
# Boot every guest, SOAK_JOBS (default 1) at a time, then read the logs.
for k in $kernels; do
	SUITE_JOBS=${SOAK_JOBS:-1} suite_start "$OUT/$tag-$k.log" \
		--kernel "$k" --smp 8,sockets=2,cores=2,threads=2 \
		--nodes '0-3;4-7' --dist 0-1=21 \
		--append 'slub_debug=FZPU panic_on_warn=1' --timeout "$limit" -- \
		"$env./guest-soak.sh"
done
suite_wait
for k in $kernels; do
	log=$OUT/$tag-$k.log
	suite_result "$log"
	line=$(grep '^soak: kernel=' "$log" | tail -n 1)
	if [ -n "$line" ]; then
		echo "$line" >>"$OUT/summaries"
		echo "$line (${BOOT_SECS}s)"
	fi
	f=$(grep -c '^soak: FAIL' "$log")
	grep -e '^ERROR' -e '^soak: FAIL' "$log" | head -n 20 | sed "s/^/$k: /"
	suite_verdict "$k" "$log" '^soak: (PASS|FAIL)' "$f" && continue
	status=1
	nfail=$((nfail + 1))
	echo "$k: log $log"
done
echo "soak total: kernels=$(echo "$kernels" | wc -w) failed=$nfail" \
	"cycles=$(total cycles) reads=$(total reads) again=$(total again)" \
	"replacements=$(total replacements)" \
	"hotplug=$(total hotplug) errors=$(total errors) in $(($(date +%s) - t_all))s"
# The summary line make check counts: a kernel's soak is one check.
echo "$tag: $(($(echo "$kernels" | wc -w) - nfail)) passed, $nfail failed"
exit $status
