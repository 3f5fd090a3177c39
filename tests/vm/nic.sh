#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/vm/nic.sh [KERNEL...]: make test-nic.  cpt-plan's --emit lnet and
# --emit irq on a real NIC: one guest per KERNEL (default 6.1 6.12), two
# at a time, each with a virtio-net NIC on NUMA node 1 of two
# (scripts/vm-run --nic 1) running tests/vm/guest-nic.sh.  Logs in
# build/vm/nic/.  Needs cpt.ko built for each kernel (make ko) and the
# NIC modules that scripts/install-deps keeps.
set -u

cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib/vm-suite.sh
. tests/lib/vm-suite.sh
OUT=build/vm/nic
kernels=${*:-6.1 6.12}
mkdir -p "$OUT"
for k in $kernels; do
	SUITE_JOBS=2 suite_start "$OUT/$k.log" --kernel "$k" \
		--smp 8,sockets=2,cores=2,threads=2 --nodes '0-3;4-7' --nic 1 \
		--timeout 120 -- ./guest-nic.sh
done
suite_wait
status=0
for k in $kernels; do
	suite_report "$k nic" "$OUT/$k.log" || status=1
done
# The summary line make check counts (tests/lib/check-table.sh).
echo "test-nic: $SUITE_NPASS passed, $SUITE_NFAIL failed"
exit $status
