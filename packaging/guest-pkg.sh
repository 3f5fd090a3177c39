#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest-pkg.sh VERSION: inside scripts/vm-run (make test-pkg), on the
# seed's topology (48 CPUs, 24 cores of 2 threads, one node), load the
# cpt.ko that DKMS built from the Debian package (vm-run --no-module
# --add puts it in /cpt), and check that it is that version and prints
# the seed's default table, /cpt/seed.table (packaging/expected: the
# same 12 partitions of two cores as tests/vm/guest-cpt.sh's "seed
# defaults", written by hand).  A module built from sources the package
# lacks would not have built at all; one built from the wrong ones would
# fail here.
# shellcheck source=tests/lib/guest-lib.sh
. /cpt/guest-lib.sh
version=$1

if insmod /cpt/cpt.ko 2>/tmp/insmod.err; then
	pass "insmod the packaged cpt.ko"
else
	fail "insmod the packaged cpt.ko" "$(cat /tmp/insmod.err)"
	finish
	exit 1
fi
v=$(cat /sys/module/cpt/version 2>/dev/null)
[ "$v" = "$version" ] && pass "/sys/module/cpt/version is $v" ||
	fail "/sys/module/cpt/version is '$v', expected $version"
if cat $P/cpu_partition_table >/tmp/table &&
	cmp -s /tmp/table /cpt/seed.table; then
	pass "the seed's table: $(wc -l </tmp/table) partitions of two cores"
else
	fail "cpu_partition_table is not the seed's" "$(cat /tmp/table)"
fi
rmmod cpt && pass "rmmod cpt" || fail "rmmod cpt"
finish
