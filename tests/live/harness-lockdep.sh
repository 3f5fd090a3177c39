#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/live/harness-lockdep.sh [KERNEL]: the debug kernels' harness can
# fail (part of make test-debug).  One guest of KERNEL (default debug)
# loads cpt.ko and cpt_percpt_test.ko and writes lock_invert, which takes
# partition 0 of two cpt locks in both orders (a planted inversion, in no
# other suite).  scripts/vm-run must fail that guest with lockdep's
# report: status 123 (the command passed, the kernel log did not) and the
# report shown.  A second guest writes leak_plant, which leaks 200 bytes:
# vm-run's kmemleak scan after the command must fail it the same way.  A
# harness that hid lockdep's or kmemleak's reports fails this.
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib/report.sh
. tests/lib/report.sh
k=${1:-debug}
OUT=build/live
mkdir -p "$OUT"
log=$OUT/$k-harness-lockdep.log
t0=$(date +%s)
scripts/vm-run --no-build --kernel "$k" --smp 2 --timeout 300 -- \
	'insmod cpt.ko && insmod cpt_percpt_test.ko &&
	 echo 1 >/sys/module/cpt_percpt_test/parameters/lock_invert &&
	 echo INVERT-DONE' >"$log" 2>&1
rc=$?
check "$k: the planted inversion ran in the guest" grep -q '^INVERT-DONE' "$log"
check "$k: vm-run fails the guest on the kernel log (status $rc)" [ "$rc" = 123 ]
check "$k: lockdep's report is shown" \
	grep -q 'WARNING: possible circular locking dependency detected' "$log"
check "$k: vm-run says why it failed" grep -q 'vm-run: FAIL: kernel log problem' "$log"
# The same for kmemleak: leak_plant drops 200 bytes of a planted text, rmmod
# follows, and vm-run's scan after the command must fail the guest.
log=$OUT/$k-harness-kmemleak.log
scripts/vm-run --no-build --kernel "$k" --smp 2 --timeout 300 -- \
	'insmod cpt.ko && insmod cpt_percpt_test.ko &&
	 echo 1 >/sys/module/cpt_percpt_test/parameters/leak_plant &&
	 rmmod cpt_percpt_test && rmmod cpt && echo LEAK-DONE' >"$log" 2>&1
rc=$?
check "$k: the planted leak ran in the guest" grep -q '^LEAK-DONE' "$log"
check "$k: vm-run fails the leaking guest (status $rc)" [ "$rc" = 123 ]
# kmemleak gives the slab object's size (256 for 200 bytes) and the
# first 32 bytes: twice the planted text, in hex and in the ASCII column.
check "$k: kmemleak's report is shown" \
	grep -q 'kmemleak: unreferenced object 0x[0-9a-f]* (size 256)' "$log"
check "$k: it dumps the leaked bytes" \
	grep -q 'kmemleak: *63 70 74 2d 6c 65 61 6b 2d 70 6c 61 6e 74 65 64  cpt-leak-planted' "$log"
echo "harness-lockdep: $k in $(($(date +%s) - t0))s, logs $OUT/$k-harness-*.log"
report_summary "harness-lockdep:"
