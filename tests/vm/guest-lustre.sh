#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest-lustre.sh: cpt beside a Lustre 2.10 libcfs, which registers
# /proc/sys/lnet/cpu_partition_table and cpu_partition_distance itself.
# cpt_lnet210.ko stands in for it (tests/modules/cpt_lnet210.c): it
# registers those two files and "debug" under lnet, and like libcfs 2.10
# loads without them when the sysctl core refuses its table.
#
#   stand-in first: cpt refuses to load (EBUSY) with one cpt: line naming
#     the file, registers nothing (the sysctl core logs no duplicate), and
#     the stand-in keeps its files; once it is gone, cpt loads.
#   cpt first: the stand-in loads without any file of its own (the sysctl
#     core logs "sysctl duplicate entry"), cpt stays loaded; both unload
#     in either order, and cpt loads cleanly afterwards.
#
# What the kernel leaves of /proc/sys/lnet after refusing the stand-in's
# table is printed, not judged (see cpt/linux/sysctl.c): on 6.1 the
# directory is empty.  6.1 also dumps the stack for the refusal, which
# vm-run reports as known (known_sysctl_dump); any oops, WARN or other
# trace still fails the run.
#
# Run by guest-cpt.sh (profile maxcpus) after its own checks, with no
# module loaded.

# shellcheck source=tests/lib/guest-lib.sh
. /cpt/guest-lib.sh

T=$P/cpu_partition_table
STANDIN="cpt_lnet210: libcfs 2.10 stand-in table"
TMP=/tmp/cpt-lustre
mkdir -p $TMP
MARKN=0

kmark() {
	MARKN=$((MARKN + 1))
	MARK="cpt-lustre-mark-$$-$MARKN"
	echo "$MARK" >/dev/kmsg
}
klog() { dmesg | sed -n "/$MARK\$/,\$p" | sed 1d | sed 's/^\[[ 0-9.]*\] //'; }
# errors PREFIX: the distinct error-level (0-3) lines starting with PREFIX
# since the mark (busybox insmod runs a refused init twice).
errors() {
	dmesg -r | sed -n "/$MARK\$/,\$p" | sed 1d | grep -E '^<[0-3]>' |
		sed 's/^<[0-9]*>\[[ 0-9.]*\] //' | grep "^$1" | sort -u
}
standin_files() {
	[ "$(cat $T 2>/dev/null)" = "$STANDIN" ] && [ -e $P/debug ]
}
unload_all() { rmmod cpt_lnet210 2>/dev/null; rmmod cpt 2>/dev/null; }
# lnet_files: the names in /proc/sys/lnet, on one line.
lnet_files() {
	_l=
	for _f in "$P"/*; do
		[ -e "$_f" ] && _l="$_l ${_f##*/}"
	done
	echo "${_l:- (none)}"
}

[ -f cpt_lnet210.ko ] || { fail "cpt_lnet210.ko is in the guest"; finish; exit 1; }
unload_all

# ---------------------------------------------------------------------------
section "Lustre 2.10 stand-in first, then cpt"
kmark
if insmod ./cpt_lnet210.ko 2>$TMP/err && standin_files; then
	pass "stand-in loaded with its files"
else
	fail "stand-in loaded with its files" "$(cat $TMP/err; ls -l $P 2>&1; klog)"
fi
kmark
if insmod ./cpt.ko 2>$TMP/err; then
	fail "cpt refuses to load beside the stand-in" "$(ls -l $P; cat $T)"
	rmmod cpt
else
	pass "cpt refuses to load beside the stand-in ($(sed 's/.*: //' $TMP/err))"
	# EBUSY, not EEXIST, which modprobe takes for "already loaded".
	check "cpt's error is EBUSY" grep -q 'Device or resource busy' $TMP/err
fi
errors 'cpt: ' >$TMP/errs
if [ "$(wc -l <$TMP/errs)" -eq 1 ] &&
	grep -q 'cpu_partition_table belongs to another module' $TMP/errs; then
	pass "one cpt: line: $(cat $TMP/errs)"
else
	fail "one cpt: line naming cpu_partition_table" "$(klog)"
fi
if klog | grep -q 'sysctl duplicate entry'; then
	fail "cpt registered nothing (no sysctl duplicate entry)" "$(klog)"
else
	pass "cpt registered nothing (no sysctl duplicate entry)"
fi
check "cpt is not loaded" sh -c '! grep -q "^cpt " /proc/modules'
if standin_files; then
	pass "the stand-in keeps its files"
else
	fail "the stand-in keeps its files" "$(ls -l $P 2>&1; cat $T 2>&1)"
fi
check "rmmod cpt_lnet210" rmmod cpt_lnet210
check "/proc/sys/lnet is gone with the stand-in" test ! -e $P
if insmod ./cpt.ko 2>$TMP/err && [ -r $T ] && [ "$(cat $T)" != "$STANDIN" ]; then
	pass "cpt loads once the stand-in is gone"
else
	fail "cpt loads once the stand-in is gone" "$(cat $TMP/err; klog)"
fi
unload_all

# ---------------------------------------------------------------------------
# cpt_first FIRST SECOND: cpt, then the stand-in; unload FIRST, then SECOND.
cpt_first() {
	section "cpt first, then the stand-in; rmmod $1, then $2"
	if ! insmod ./cpt.ko 2>$TMP/err; then
		fail "insmod cpt.ko" "$(cat $TMP/err)"
		return 1
	fi
	kmark
	if insmod ./cpt_lnet210.ko 2>$TMP/err; then
		pass "the stand-in loads, as libcfs 2.10 does"
	else
		fail "the stand-in loads, as libcfs 2.10 does" "$(cat $TMP/err; klog)"
		unload_all
		return 1
	fi
	if klog | grep -q 'cpt_lnet210: /proc/sys/lnet refused'; then
		pass "its table is refused: $(klog | grep 'sysctl duplicate entry')"
	else
		fail "its table is refused" "$(klog)"
	fi
	check "the stand-in has no file of its own (no $P/debug)" test ! -e $P/debug
	check "cpt stays loaded" grep -q '^cpt ' /proc/modules
	# What the kernel's error path leaves of cpt's files (see
	# cpt/linux/sysctl.c): reported, not judged.
	echo "  $P after the refusal:$(lnet_files)"
	check "rmmod $1" rmmod "$1"
	check "rmmod $2" rmmod "$2"
	check "no module left" sh -c '! grep -Eq "^cpt(_lnet210)? " /proc/modules'
	echo "  $P after both:$(lnet_files)"
	kmark
	if insmod ./cpt.ko 2>$TMP/err && [ -r $T ] && [ -r $P/cpu_pattern ] &&
		[ "$(cat $T)" != "$STANDIN" ]; then
		pass "cpt loads cleanly afterwards, with its files"
	else
		fail "cpt loads cleanly afterwards, with its files" "$(cat $TMP/err; ls $P 2>&1; klog)"
	fi
	unload_all
}
cpt_first cpt_lnet210 cpt
cpt_first cpt cpt_lnet210

finish
