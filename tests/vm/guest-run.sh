#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest-run.sh [PARAM...]: make run's guest side.  Load cpt.ko with the
# module parameters PARAM... (name=value), print both /proc/sys/lnet files
# and cpt's kernel log lines.

# shellcheck source=tests/lib/guest-lib.sh
. /cpt/guest-lib.sh

echo "== CPUs $(cat /sys/devices/system/cpu/online), kernel $(uname -r)"
echo "== insmod cpt.ko $*"
cpt_insmod ./cpt.ko "$@"
rc=$?
# The loader's own notices (taint, missing signature) are not cpt's.
cptlog() {
	dmesg | grep 'cpt: ' | grep -v -e 'taints kernel' -e 'module verification failed'
}
if [ $rc -ne 0 ]; then
	echo "== insmod failed ($rc); dmesg:"
	cptlog
	exit $rc
fi
echo "== /proc/sys/lnet/cpu_partition_table"
cat /proc/sys/lnet/cpu_partition_table
echo "== /proc/sys/lnet/cpu_partition_distance"
cat /proc/sys/lnet/cpu_partition_distance
echo "== dmesg | grep cpt:"
cptlog
