#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh: the bad-parameter matrix, host side.
#
#   tests/badparam/run.sh [KERNEL...]
#
# For each kernel (6.1, 6.12 and 6.1-rt by default) boots one guest, two
# at a time (SUITE_JOBS), with
# scripts/vm-run --no-build (cpt.ko and cpt-plan must be built: make
# test-badparam does it) over 4 CPUs (2 sockets of one core of 2 threads)
# in 2 nodes and a memory-only third node, with slub_debug=FZPU and
# panic_on_warn=1, and runs
# tests/badparam/guest-badparam.sh over tests/badparam/cases, which
# vm-run --add puts next to it in the guest's /cpt.
#
# Prints every FAIL line, one summary line per kernel and a total; exits
# non-zero on any failure, including a guest that did not finish and a
# kernel log problem (oops, WARNING, ...: vm-run status 123).  Logs:
# build/badparam/KERNEL.log.
set -u

cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib/vm-suite.sh
. tests/lib/vm-suite.sh
OUT=build/badparam
# Few vCPUs: module loads are what the suite spends its time on, and under
# TCG a refused insmod took 0.25 s with 4 vCPUs, 0.6 s with 8.
SMP=4,sockets=2,cores=1,threads=2
NODES='0-1;2-3;'
DIST=0-1=21,0-2=31,1-2=21
APPEND='slub_debug=FZPU panic_on_warn=1'
LIMIT=${BADPARAM_TIMEOUT:-600}

case ${1:-} in
-h|--help) suite_usage "$0"; exit 0 ;;
esac
kernels=${*:-6.1 6.12 6.1-rt}
mkdir -p "$OUT"

status=0
ncases=0
nload=0
nsysctl=0
nfail=0
t_all=$(date +%s)
for k in $kernels; do
	rm -f "$OUT/$k.log.boot"
	suite_start "$OUT/$k.log" --kernel "$k" --smp "$SMP" --nodes "$NODES" \
		--dist "$DIST" --append "$APPEND" --timeout "$LIMIT" \
		--add tests/badparam/cases -- ./guest-badparam.sh /cpt/cases
done
suite_wait
for k in $kernels; do
	log=$OUT/$k.log
	suite_result "$log"
	grep -a "^FAIL: " "$log" | sed "s/^/$k: /"
	sum=$(grep -a "^badparam: " "$log" | tail -n 1)
	f=0
	if [ -n "$sum" ]; then
		# shellcheck disable=SC2046 # the four numbers of the line
		set -- $(echo "$sum" | sed 's/[^0-9 ]//g')
		ncases=$((ncases + $1))
		nload=$((nload + $2))
		nsysctl=$((nsysctl + $3))
		f=$4
	fi
	suite_verdict "$k" "$log" '^badparam: ' "$f" || status=1
	nfail=$((nfail + BOOT_FAILS))
	echo "$k: ${sum:-badparam: no summary} in ${BOOT_SECS}s ($(suite_wall "$log"); log $log)"
done
echo "test-badparam: $ncases cases, $nload load checks, $nsysctl sysctl checks, $nfail failed in $(($(date +%s) - t_all))s"
# The summary line make check counts: the load and sysctl checks.
echo "test-badparam: $((nload + nsysctl)) passed, $nfail failed"
exit $status
