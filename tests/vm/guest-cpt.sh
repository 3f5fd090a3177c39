#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest-cpt.sh [PROFILE]: cpt.ko checks inside a scripts/vm-run guest (busybox
# sh, root, in /cpt next to cpt.ko, the test modules and cpt-plan).
#
# Every load compares /proc/sys/lnet/cpu_partition_table and
# cpu_partition_distance byte for byte with cpt-plan --sysfs /sys run in the
# same guest; bad parameters must fail the load with one cpt: error line.
# PROFILE (see tests/vm/matrix) adds hand-written expected tables, derived
# from doc/planner.md for that topology, never from the code.
#
# Prints "PASS: name" or "FAIL: name" per check, then "N passed, N failed";
# exits 1 on any failure.

# shellcheck source=tests/lib/guest-lib.sh
. /cpt/guest-lib.sh

PROFILE=${1:-none}
T=$P/cpu_partition_table
D=$P/cpu_partition_distance
SYSCPU=/sys/devices/system/cpu
MARKN=0
TMP=/tmp/cpt-vm
mkdir -p $TMP

# Mark the kernel log, then klog prints (raw, "<level>[time] text") what
# came after the last mark.
kmark() {
	MARKN=$((MARKN + 1))
	MARK="cpt-vm-mark-$$-$MARKN"
	echo "$MARK" >/dev/kmsg
}
klog() { dmesg -r | sed -n "/$MARK\$/,\$p" | sed 1d; }

# plan_file OUT [--distance] PARAM...: cpt-plan for module parameters
# PARAM... into the file OUT.
plan_file() {
	_out=$1
	shift
	_d=
	[ "$1" = --distance ] && { _d=--distance; shift; }
	_np=
	_pat=
	_haspat=0
	for _p; do
		case $_p in
		npartitions=*|cpu_npartitions=*) _np=${_p#*=} ;;
		cpu_pattern=*) _pat=${_p#*=}; _haspat=1 ;;
		esac
	done
	if [ ! -x ./cpt-plan ]; then
		echo "cpt-plan is missing from the initramfs (make build/cpt-plan.static)" >$TMP/plan.err
		return 127
	fi
	if [ $_haspat = 1 ]; then
		./cpt-plan --sysfs /sys ${_np:+--npartitions "$_np"} --pattern "$_pat" $_d
	else
		./cpt-plan --sysfs /sys ${_np:+--npartitions "$_np"} $_d
	fi >"$_out" 2>$TMP/plan.err
}

# same_file NAME GOT EXPECTED: byte-for-byte, with a diff when they differ.
same_file() {
	if cmp -s "$2" "$3"; then
		pass "$1"
	else
		fail "$1" "$(diff -u "$3" "$2" 2>&1 | sed 's/\t/<TAB>/g')"
	fi
}

# read_checks LABEL FILE: dd in small pieces returns what cat returns.
read_checks() {
	cat "$2" >$TMP/cat.out 2>$TMP/cat.err ||
		{ fail "$1: cat $2" "$(cat $TMP/cat.err)"; return; }
	_size=$(wc -c <$TMP/cat.out)
	# The text is rendered once per table, so bs=1 costs a syscall a byte
	# and no more; a second, odd size crosses line boundaries anywhere.
	for _bs in 1 7; do
		dd if="$2" bs=$_bs 2>/dev/null >$TMP/dd.out
		same_file "$1: dd bs=$_bs == cat (${_size} bytes)" $TMP/dd.out $TMP/cat.out
	done
}


# unload LABEL: rmmod cpt, and the files go with it.
unload() {
	if rmmod cpt 2>$TMP/rmmod.err; then
		if [ -e $T ] || [ -e $D ]; then
			fail "$1: files gone after rmmod"
		fi
	else
		fail "$1: rmmod cpt" "$(cat $TMP/rmmod.err)"
		return 1
	fi
}

# good_load NAME PARAM...: load with PARAMs, compare both files with
# cpt-plan, check reads, unload.
good_load() {
	_name=$1
	shift
	kmark
	if ! cpt_insmod ./cpt.ko "$@" 2>$TMP/insmod.err; then
		fail "$_name: insmod cpt.ko $*" "$(cat $TMP/insmod.err; klog | grep 'cpt:')"
		return 1
	fi
	if [ ! -r $T ] || [ ! -r $D ]; then
		fail "$_name: $T and $D exist" "$(ls -l $P 2>&1)"
		unload "$_name"
		return 1
	fi
	if plan_file $TMP/exp.t "$@" && plan_file $TMP/exp.d --distance "$@"; then
		same_file "$_name: table == cpt-plan" $T $TMP/exp.t
		same_file "$_name: distance == cpt-plan" $D $TMP/exp.d
	else
		fail "$_name: cpt-plan $*" "$(cat $TMP/plan.err)"
	fi
	[ "${READS:-0}" = 1 ] && { read_checks "$_name: table" $T; read_checks "$_name: distance" $D; }
	unload "$_name"
}

# expect_text NAME PARAMS EXPECTED_TABLE [EXPECTED_DISTANCE]: acceptance
# check against hand-written text ("\t" written as TAB by printf %b).
expect_text() {
	_name=$1
	_params=$2
	printf '%b' "$3" >$TMP/want.t
	# shellcheck disable=SC2086 # PARAMS have no blanks here
	if ! cpt_insmod ./cpt.ko $_params 2>$TMP/insmod.err; then
		fail "$_name: insmod cpt.ko $_params" "$(cat $TMP/insmod.err)"
		return 1
	fi
	same_file "$_name: table as specified" $T $TMP/want.t
	if [ $# -gt 3 ]; then
		printf '%b' "$4" >$TMP/want.d
		same_file "$_name: distance as specified" $D $TMP/want.d
	fi
	unload "$_name"
}

# bad_load NAME WORD ERRNO PARAM...: the load fails with ERRNO (strerror
# text, "" for any), the kernel log has one cpt: error naming WORD, no
# /proc/sys/lnet files remain, and a good load works afterwards.
bad_load() {
	_name=$1
	_word=$2
	_errno=$3
	shift 3
	kmark
	if cpt_insmod ./cpt.ko "$@" 2>$TMP/insmod.err; then
		fail "$_name: insmod cpt.ko $* must fail" "$(cat $T 2>&1)"
		rmmod cpt
		return 1
	fi
	pass "$_name: insmod fails ($(sed 's/.*: //' $TMP/insmod.err))"
	if [ -n "$_errno" ]; then
		if grep -q "$_errno" $TMP/insmod.err; then
			pass "$_name: error is '$_errno'"
		else
			fail "$_name: error is '$_errno'" "$(cat $TMP/insmod.err)"
		fi
	fi
	# Error-level (0-3) lines of cpt.  busybox insmod tries finit_module,
	# then init_module, so a refused init runs twice: count distinct texts.
	klog | grep -E '^<[0-3]>' | grep 'cpt: ' | sed 's/^<[0-9]*>\[[ 0-9.]*\] //' |
		sort -u >$TMP/errs
	if [ "$(wc -l <$TMP/errs)" -eq 1 ] && grep -q -e "$_word" $TMP/errs; then
		pass "$_name: one cpt: error naming $_word: $(cat $TMP/errs)"
	else
		fail "$_name: one cpt: error naming $_word" "$(klog)"
	fi
	if loaded cpt || [ -e $T ]; then
		fail "$_name: nothing left after the failed load" "$(ls -l $P 2>&1; grep '^cpt ' /proc/modules)"
		rmmod cpt 2>/dev/null
	else
		pass "$_name: nothing left after the failed load"
	fi
	if insmod ./cpt.ko 2>$TMP/insmod.err && [ -r $T ]; then
		pass "$_name: a good load works afterwards"
		unload "$_name"
	else
		fail "$_name: a good load works afterwards" "$(cat $TMP/insmod.err)"
		rmmod cpt 2>/dev/null
	fi
}

# ---------------------------------------------------------------------------
section "topology ($PROFILE)"
online=$(cat $SYSCPU/online)
NCPU=$(expand "$online" | wc -l)
for c in $(expand "$online"); do
	cat "$SYSCPU/cpu$c/topology/thread_siblings_list"
done | sort -u >$TMP/cores
NCORES=$(wc -l <$TMP/cores)
NNODES=0
NODES=
MEMNODES=
for n in /sys/devices/system/node/node[0-9]*; do
	[ -d "$n" ] || continue
	if [ -n "$(cat "$n/cpulist" 2>/dev/null)" ]; then
		NNODES=$((NNODES + 1))
		NODES="$NODES ${n##*node}"
	else
		MEMNODES="$MEMNODES ${n##*node}"
	fi
done
FIRST=$(expand "$online" | head -n 1)
LAST=$(expand "$online" | tail -n 1)
# CPUs the kernel isolates (isolcpus=, nohz_full=) are in no partition:
# the generic checks use the others.
ISOL=$(cat $SYSCPU/isolated $SYSCPU/nohz_full 2>/dev/null | tr '\n' ',')
expand "$ISOL" | sort -nu >$TMP/isolated
expand "$online" | grep -vxF -f $TMP/isolated >$TMP/usable || true
[ -s $TMP/isolated ] || expand "$online" >$TMP/usable
NUSE=$(wc -l <$TMP/usable)
echo "online CPUs $online ($NCPU), cores $NCORES, CPU nodes$NODES${MEMNODES:+, memory-only nodes$MEMNODES}, isolated: $(tr '\n' ' ' <$TMP/isolated)kernel $(uname -r)"
[ -f cpt.ko ] || { fail "cpt.ko is in the initramfs"; report_summary; exit 1; }
[ -x cpt-plan ] || fail "cpt-plan is in the initramfs (make build/cpt-plan.static)"

# ---------------------------------------------------------------------------
section "modinfo"
modinfo ./cpt.ko >$TMP/modinfo 2>&1
for p in npartitions cpu_npartitions cpu_pattern include_isolated; do
	if grep -Eq "^parm:[[:space:]]+$p:" $TMP/modinfo; then
		pass "modinfo shows parameter $p"
	else
		fail "modinfo shows parameter $p" "$(cat $TMP/modinfo)"
	fi
done

# ---------------------------------------------------------------------------
section "default load"
kmark
if insmod ./cpt.ko 2>$TMP/insmod.err; then
	pass "insmod cpt.ko (defaults)"
	check "$T exists" test -r $T
	check "$D exists" test -r $D
	if plan_file $TMP/exp.t && plan_file $TMP/exp.d --distance; then
		same_file "defaults: table == cpt-plan" $T $TMP/exp.t
		same_file "defaults: distance == cpt-plan" $D $TMP/exp.d
	else
		fail "defaults: cpt-plan" "$(cat $TMP/plan.err)"
	fi
	read_checks "defaults: table" $T
	read_checks "defaults: distance" $D
	# cpt-plan --emit pattern, written back, gives the table again.
	if ./cpt-plan --sysfs /sys --emit pattern >$TMP/emit 2>$TMP/emit.err; then
		cp $T $TMP/before
		if cat $TMP/emit >$P/cpu_pattern 2>$TMP/w.err; then
			same_file "defaults: cpu_pattern=\$(cpt-plan --emit pattern) ($(wc -c <$TMP/emit) bytes) gives the table again" $T $TMP/before
		else
			fail "defaults: writing the emitted pattern" "$(cat $TMP/emit $TMP/w.err)"
		fi
		echo >$P/cpu_pattern
		same_file "defaults: an empty cpu_pattern gives the default table back" $T $TMP/before
	else
		fail "defaults: cpt-plan --emit pattern" "$(cat $TMP/emit.err)"
	fi
	if klog | grep -q 'cpt: .*partitions'; then
		pass "dmesg has cpt's summary line: $(klog | grep 'cpt: .*partitions' | sed 's/^<[0-9]*>\[[ 0-9.]*\] //')"
	else
		fail "dmesg has cpt's summary line" "$(klog)"
	fi
	sysctl -a >$TMP/sysctl 2>/dev/null
	check "sysctl -a lists lnet.cpu_partition_table" grep -q '^lnet.cpu_partition_table' $TMP/sysctl
	check "sysctl -a lists lnet.cpu_partition_distance" grep -q '^lnet.cpu_partition_distance' $TMP/sysctl
	cat $T >$TMP/before.t
	cat $D >$TMP/before.d
	for f in $T $D; do
		if (echo 0 >"$f") 2>/dev/null; then
			fail "writing $f fails"
		else
			pass "writing $f fails"
		fi
		if sysctl -w "lnet.${f##*/}=0" >/dev/null 2>&1; then
			fail "sysctl -w lnet.${f##*/} fails"
		else
			pass "sysctl -w lnet.${f##*/} fails"
		fi
	done
	same_file "table unchanged by the writes" $T $TMP/before.t
	same_file "distance unchanged by the writes" $D $TMP/before.d

	# The consumer test modules run their self-checks at insmod.
	for m in cpt_consumer cpt_live_consumer; do
		if [ ! -f $m.ko ]; then
			fail "$m.ko is built and shipped to the guest"
			continue
		fi
		kmark
		if insmod ./$m.ko 2>$TMP/insmod.err; then
			pass "insmod $m.ko (self-checks)"
			if rmmod cpt 2>/dev/null; then
				fail "rmmod cpt refused while $m uses it"
				insmod ./cpt.ko
			else
				pass "rmmod cpt refused while $m uses it"
			fi
			check "rmmod $m" rmmod $m
		else
			fail "insmod $m.ko (self-checks)" "$(cat $TMP/insmod.err; klog)"
		fi
	done
	unload "defaults"
	# The emitted pattern as a module parameter (Lustre's way to take it)
	# gives the default table too; the kernel refuses a charp over 1024
	# bytes, and cpt-plan --emit lustre says so for such a pattern.
	if [ -s $TMP/emit ] && [ "$(wc -c <$TMP/emit)" -le 1024 ]; then
		if cpt_insmod ./cpt.ko "cpu_pattern=$(cat $TMP/emit)" 2>$TMP/insmod.err; then
			same_file "defaults: insmod cpt.ko cpu_pattern=\$(cpt-plan --emit pattern) gives the default table" $T $TMP/before.t
			same_file "defaults: and its distances" $D $TMP/before.d
			unload "emitted pattern"
		else
			fail "defaults: insmod cpt.ko cpu_pattern=\$(cpt-plan --emit pattern)" "$(cat $TMP/emit $TMP/insmod.err)"
		fi
	fi
	check "rmmod cpt removes $T" test ! -e $T
else
	fail "insmod cpt.ko (defaults)" "$(cat $TMP/insmod.err; klog)"
fi

# ---------------------------------------------------------------------------
# The same loads on every profile and kernel: the planner's patterns over
# the topology.  CPT_VM_PATTERNS=0 leaves them out where tests/vm/matrix
# says they cover nothing new (the seed on all kernels but 6.1: its 48
# CPUs cost the most where each load costs the most, and numa2x2 and
# maxcpus run them on every kernel).
if [ "${CPT_VM_PATTERNS:-1}" = 1 ]; then
	section "npartitions and patterns"
	READS=1
	set -- 1 2 3 5 7 $((NCORES / 2)) "$NCORES" $((NCORES + 1)) "$NUSE"
	seen=" "
	for n; do
		{ [ "$n" -ge 1 ] && [ "$n" -le "$NUSE" ]; } || continue
		case $seen in *" $n "*) continue ;; esac
		seen="$seen$n "
		good_load "npartitions=$n" "npartitions=$n"
	done
	READS=0
	good_load "cpu_npartitions=3" cpu_npartitions=3
	good_load "npartitions=3 cpu_npartitions=3" npartitions=3 cpu_npartitions=3
	good_load "npartitions=0" npartitions=0
	good_load "cpu_pattern=N" cpu_pattern=N
	good_load "npartitions=2 cpu_pattern=N" npartitions=2 cpu_pattern=N
	good_load "cpu_pattern=0[*]" "cpu_pattern=0[*]"
	good_load "cpu_pattern=X[$FIRST]" "cpu_pattern=X[$FIRST]"
	good_load "npartitions=2 cpu_pattern=X[$LAST]" npartitions=2 "cpu_pattern=X[$LAST]"
	# C[0] empties partition 0 when isolation left it core 0 alone (isol):
	# there, C[3], the last core of each node of the numa2x2 topology that
	# the isol and nohz profiles boot.
	CDROP=0
	[ -s $TMP/isolated ] && CDROP=3
	good_load "cpu_pattern=C[$CDROP]" "cpu_pattern=C[$CDROP]"
	good_load "cpu_pattern=X[$FIRST] C[1]" "cpu_pattern=X[$FIRST] C[1]"
	# N with explicit node lists: every CPU node alone, then all in one.
	i=0
	pat=N
	for n in $NODES; do
		pat="$pat ${i}[$n]"
		i=$((i + 1))
	done
	good_load "cpu_pattern=$pat" "cpu_pattern=$pat"
	good_load "cpu_pattern=N 0[*]" "cpu_pattern=N 0[*]"
	if [ "$NUSE" -ge 4 ]; then
		c=$(sed -n 1,4p $TMP/usable | tr '\n' ' ')
		# shellcheck disable=SC2086 # the four CPU numbers
		set -- $c
		good_load "cpu_pattern=1[$1,$2] 0[$3-$4]" "cpu_pattern=1[$1,$2] 0[$3-$4]"
		good_load "spaced cpu_pattern" "cpu_pattern= 0[ $1 - $2 ]	1[$3 ,$4 ] "
		# A stride over offline CPUs would be refused: only on one range.
		case $online in
		*,*) ;;
		*) good_load "strided cpu_pattern" "cpu_pattern=0[$FIRST-$LAST/2] 1[$((FIRST + 1))-$LAST/2]" ;;
		esac
		good_load "npartitions=4 with explicit cpu_pattern" npartitions=4 "cpu_pattern=0[$1-$2]"
	fi
else
	section "npartitions and patterns: left out (CPT_VM_PATTERNS=0)"
fi

# ---------------------------------------------------------------------------
# Bad parameters: every bad value, at load and through sysctl, is in
# tests/badparam/cases (make test-badparam); here only the ones that need
# this profile's topology (an offline CPU, below).

# ---------------------------------------------------------------------------
# CPU hotplug before the load: a CPU that is offline must be left out the
# way cpt-plan leaves it out.  (Hotplug after the load is tests/live.)
if [ -w "$SYSCPU/cpu$LAST/online" ] && [ "$NCPU" -gt 2 ]; then
	section "CPU $LAST offline at load"
	if echo 0 >"$SYSCPU/cpu$LAST/online"; then
		good_load "cpu$LAST offline: defaults"
		good_load "cpu$LAST offline: npartitions=2" npartitions=2
		bad_load "cpu$LAST offline: cpu_pattern=0[$LAST]" cpu_pattern 'No such device' "cpu_pattern=0[$LAST]"
		echo 1 >"$SYSCPU/cpu$LAST/online"
		check "cpu$LAST back online" grep -q 1 "$SYSCPU/cpu$LAST/online"
	else
		fail "offline cpu$LAST"
	fi
fi
# maxcpus=: the CPUs left offline at boot can come up later.
for c in $(expand "$(cat $SYSCPU/offline 2>/dev/null)" | head -n 2); do
	section "cpu$c brought online after boot"
	if echo 1 >"$SYSCPU/cpu$c/online"; then
		good_load "cpu$c onlined: defaults"
	else
		fail "online cpu$c"
	fi
done

# ---------------------------------------------------------------------------
# Hand-written expectations (doc/planner.md applied by hand to the topology
# that tests/vm/matrix gives the profile).
section "acceptance ($PROFILE)"
# rows N WIDTH [FIRST]: "i\t: a a+1 ..." for N partitions of WIDTH
# consecutive CPUs: the shape of the expected tables below.
rows() {
	_i=0
	_c=${3:-0}
	while [ $_i -lt "$1" ]; do
		printf '%d\\t:' $_i
		_j=0
		while [ $_j -lt "$2" ]; do
			printf ' %d' $((_c + _j))
			_j=$((_j + 1))
		done
		printf '\\n'
		_c=$((_c + $2))
		_i=$((_i + 1))
	done
}
# flat N: the distance table of N partitions on one node.
flat() {
	_i=0
	while [ $_i -lt "$1" ]; do
		printf '%d\\t:' $_i
		_j=0
		while [ $_j -lt "$1" ]; do
			printf ' %d:10' $_j
			_j=$((_j + 1))
		done
		printf '\\n'
		_i=$((_i + 1))
	done
}
# isolated_checks NAME LIST TABLE FULL CPU: with the CPUs of LIST isolated
# by the boot line, the default TABLE is cpt-plan's for --isolated LIST;
# lnet.include_isolated=1 gives FULL (cpt-plan --include-isolated) and 0
# TABLE again; a bad value changes nothing; the isolated CPU, offline and
# back, stays out, and comes back to its partition under include_isolated.
isolated_checks() {
	printf '%b' "$3" >$TMP/isol.t
	printf '%b' "$4" >$TMP/full.t
	if ! cpt_insmod ./cpt.ko 2>$TMP/insmod.err; then
		fail "$1: insmod cpt.ko" "$(cat $TMP/insmod.err)"
		return 1
	fi
	./cpt-plan --sysfs /sys --isolated "$2" >$TMP/plan.t 2>&1
	same_file "$1: table == cpt-plan --isolated $2" $T $TMP/plan.t
	./cpt-plan --sysfs /sys --include-isolated >$TMP/plan.t 2>&1
	same_file "$1: cpt-plan --include-isolated as specified" $TMP/plan.t $TMP/full.t
	same "$1: include_isolated reads 0" "$(cat $P/include_isolated)" 0
	check "$1: sysctl -w lnet.include_isolated=1" sysctl -w lnet.include_isolated=1
	same_file "$1: include_isolated=1 by sysctl places them" $T $TMP/full.t
	same "$1: include_isolated reads 1" "$(cat $P/include_isolated)" 1
	echo 0 >"$SYSCPU/cpu$5/online"
	echo 1 >"$SYSCPU/cpu$5/online"
	same_file "$1: included cpu$5 offline and back: in its partition" $T $TMP/full.t
	check "$1: echo 0 >include_isolated" sh -c "echo 0 >$P/include_isolated"
	same_file "$1: include_isolated=0 leaves them out again" $T $TMP/isol.t
	kmark
	if (echo 2 >$P/include_isolated) 2>/dev/null; then
		fail "$1: include_isolated=2 refused"
	else
		pass "$1: include_isolated=2 refused"
	fi
	same "$1: one cpt: line for include_isolated=2" \
		"$(klog | grep -c 'cpt: include_isolated')" 1
	same_file "$1: table unchanged by the refused write" $T $TMP/isol.t
	echo 0 >"$SYSCPU/cpu$5/online"
	echo 1 >"$SYSCPU/cpu$5/online"
	same_file "$1: isolated cpu$5 offline and back: stays out" $T $TMP/isol.t
	unload "$1"
	bad_load "$1: include_isolated=2 at load" include_isolated 'Invalid argument' include_isolated=2
}
NUMA_D="0\t: 0:10 1:10 2:21 3:21
1\t: 0:10 1:10 2:21 3:21
2\t: 0:21 1:21 2:10 3:10
3\t: 0:21 1:21 2:10 3:10
"
case $PROFILE in
seed)	# 48 CPUs, 1 node, 24 cores of 2 threads (2k, 2k+1), one L3
	expect_text "seed defaults" "" \
"0\t: 0 1 2 3
1\t: 4 5 6 7
2\t: 8 9 10 11
3\t: 12 13 14 15
4\t: 16 17 18 19
5\t: 20 21 22 23
6\t: 24 25 26 27
7\t: 28 29 30 31
8\t: 32 33 34 35
9\t: 36 37 38 39
10\t: 40 41 42 43
11\t: 44 45 46 47
" \
"0\t: 0:10 1:10 2:10 3:10 4:10 5:10 6:10 7:10 8:10 9:10 10:10 11:10
1\t: 0:10 1:10 2:10 3:10 4:10 5:10 6:10 7:10 8:10 9:10 10:10 11:10
2\t: 0:10 1:10 2:10 3:10 4:10 5:10 6:10 7:10 8:10 9:10 10:10 11:10
3\t: 0:10 1:10 2:10 3:10 4:10 5:10 6:10 7:10 8:10 9:10 10:10 11:10
4\t: 0:10 1:10 2:10 3:10 4:10 5:10 6:10 7:10 8:10 9:10 10:10 11:10
5\t: 0:10 1:10 2:10 3:10 4:10 5:10 6:10 7:10 8:10 9:10 10:10 11:10
6\t: 0:10 1:10 2:10 3:10 4:10 5:10 6:10 7:10 8:10 9:10 10:10 11:10
7\t: 0:10 1:10 2:10 3:10 4:10 5:10 6:10 7:10 8:10 9:10 10:10 11:10
8\t: 0:10 1:10 2:10 3:10 4:10 5:10 6:10 7:10 8:10 9:10 10:10 11:10
9\t: 0:10 1:10 2:10 3:10 4:10 5:10 6:10 7:10 8:10 9:10 10:10 11:10
10\t: 0:10 1:10 2:10 3:10 4:10 5:10 6:10 7:10 8:10 9:10 10:10 11:10
11\t: 0:10 1:10 2:10 3:10 4:10 5:10 6:10 7:10 8:10 9:10 10:10 11:10
"
	six="0\t: 0 1 2 3 4 5 6 7
1\t: 8 9 10 11 12 13 14 15
2\t: 16 17 18 19 20 21 22 23
3\t: 24 25 26 27 28 29 30 31
4\t: 32 33 34 35 36 37 38 39
5\t: 40 41 42 43 44 45 46 47
"
	expect_text "seed npartitions=6" "npartitions=6" "$six" "$(flat 6)"
	expect_text "seed cpu_npartitions=6" "cpu_npartitions=6" "$six"
	# LU-9998: N on a single-node machine is the default layout.
	expect_text "seed cpu_pattern=N" "cpu_pattern=N" "$(rows 12 4)"
	# 48 partitions > 24 cores: one thread each.
	expect_text "seed npartitions=48" "npartitions=48" "$(rows 48 1)"
	;;
numa2x2) # 16 CPUs: 2 nodes (0-7, 8-15, distance 21), 2 L3 dies each
	expect_text "numa2x2 defaults" "" "$(rows 4 4)" \
"0\t: 0:10 1:10 2:21 3:21
1\t: 0:10 1:10 2:21 3:21
2\t: 0:21 1:21 2:10 3:10
3\t: 0:21 1:21 2:10 3:10
"
	# 3 partitions per node: L3-aligned, die 0 (2 cores) gets 2 and die 1
	# one.  A kernel whose L3 id cpt cannot read (one L3 per node) would
	# give runs of 2, 1 and 1 cores: 0-3, 4-5, 6-7.
	expect_text "numa2x2 npartitions=6 follows the L3 dies" "npartitions=6" \
"0\t: 0 1
1\t: 2 3
2\t: 4 5 6 7
3\t: 8 9
4\t: 10 11
5\t: 12 13 14 15
"
	expect_text "numa2x2 cpu_pattern=N" "cpu_pattern=N" "$(rows 2 8)" \
"0\t: 0:10 1:21
1\t: 0:21 1:10
"
	expect_text "numa2x2 npartitions=1" "npartitions=1" "$(rows 1 16)" "0\t: 0:21\n"
	expect_text "numa2x2 npartitions=8" "npartitions=8" "$(rows 8 2)"
	# C[k] is the k-th core of every node (cores are CPU pairs 2k, 2k+1):
	# C[0] = CPUs 0, 1 and 8, 9; C[1] = 2, 3 and 10, 11.
	expect_text "numa2x2 cpu_pattern=C[0]" "cpu_pattern=C[0]" \
"0\t: 2 3
1\t: 4 5 6 7
2\t: 10 11
3\t: 12 13 14 15
" \
"0\t: 0:10 1:10 2:21 3:21
1\t: 0:10 1:10 2:21 3:21
2\t: 0:21 1:21 2:10 3:10
3\t: 0:21 1:21 2:10 3:10
"
	expect_text "numa2x2 cpu_pattern=C[1]" "cpu_pattern=C[1]" \
"0\t: 0 1
1\t: 4 5 6 7
2\t: 8 9
3\t: 12 13 14 15
"
	# a range across the L3 dies: cores 1, 2 of each node
	expect_text "numa2x2 cpu_pattern=C[1-2]" "cpu_pattern=C[1-2]" \
"0\t: 0 1
1\t: 6 7
2\t: 8 9
3\t: 14 15
"
	good_load "numa2x2 cpu_pattern=C[1] == cpt-plan" "cpu_pattern=C[1]"
	good_load "numa2x2 cpu_pattern=N C[0,3] == cpt-plan" "cpu_pattern=N C[0,3]"
	;;
maxcpus) # numa2x2 booted with maxcpus=12, then cpu12 and cpu13 onlined
	# cpt beside a Lustre 2.10 libcfs (tests/vm/guest-lustre.sh).
	if sh ./guest-lustre.sh; then
		pass "guest-lustre.sh: cpt beside a Lustre 2.10 stand-in"
	else
		fail "guest-lustre.sh: cpt beside a Lustre 2.10 stand-in (its FAIL lines above)"
	fi
	;;
memonly) # 8 CPUs: 0-3 and 4-7 in two nodes, a third node with memory
	# only.  Linux numbers the nodes in SRAT order, CPUs first: QEMU's
	# node 1 (memory only) is the guest's node 2, QEMU's node 2 its node 1.
	check "memonly: a memory-only node exists" test -n "$MEMNODES"
	expect_text "memonly defaults" "" "$(rows 2 4)" \
"0\t: 0:10 1:21
1\t: 0:21 1:10
"
	expect_text "memonly cpu_pattern=N" "cpu_pattern=N" "$(rows 2 4)"
	;;
uneven)	# 12 CPUs: node 0 = socket 0 (0-3), node 1 = sockets 1-2 (4-11)
	expect_text "uneven defaults" "" "$(rows 3 4)" \
"0\t: 0:10 1:21 2:21
1\t: 0:21 1:10 2:10
2\t: 0:21 1:10 2:10
"
	expect_text "uneven npartitions=2" "npartitions=2" \
"0\t: 0 1 2 3
1\t: 4 5 6 7 8 9 10 11
"
	;;
nosmt)	# 8 CPUs, 1 thread per core: node 0 = 0-3, node 1 = 4-7
	expect_text "nosmt defaults" "" "$(rows 4 2)"
	;;
big)	# 240 CPUs: 2 nodes of 2 L3 dies of 30 cores of 2 threads
	expect_text "big defaults" "" "$(rows 60 4)"
	expect_text "big npartitions=4" "npartitions=4" "$(rows 4 60)" \
"0\t: 0:10 1:10 2:21 3:21
1\t: 0:10 1:10 2:21 3:21
2\t: 0:21 1:21 2:10 3:10
3\t: 0:21 1:21 2:10 3:10
"
	;;
isol)	# numa2x2 booted with isolcpus=2,3: core (2,3) is in no partition.
	# 7 cores: 4 partitions; nodes of 3 and 4 cores get 2 each (shares
	# 1.7 and 2.3); node 0: L3 0-3 keeps core (0,1), L3 4-7 two cores.
	same "isol: cpu/isolated" "$(cat $SYSCPU/isolated)" 2-3
	ISOLT="0\t: 0 1
1\t: 4 5 6 7
2\t: 8 9 10 11
3\t: 12 13 14 15
"
	expect_text "isol defaults" "" "$ISOLT" "$NUMA_D"
	expect_text "isol include_isolated=1" include_isolated=1 "$(rows 4 4)" "$NUMA_D"
	isolated_checks isol 2-3 "$ISOLT" "$(rows 4 4)" 3
	# partition 0 is core (0,1) alone: C[0] leaves it empty
	bad_load "isol: cpu_pattern=C[0]" 'no CPU left after C' 'Invalid argument' "cpu_pattern=C[0]"
	if ./cpt-plan --sysfs /sys --pattern 'C[0]' >/dev/null 2>&1; then
		fail "isol: cpt-plan refuses C[0] too"
	else
		pass "isol: cpt-plan refuses C[0] too"
	fi
	;;
nohz)	# numa2x2 booted with nohz_full=4-7: the L3 die 4-7 is in no
	# partition.  6 cores: 3 partitions, 1 on node 0 and 2 on node 1.
	if [ -e $SYSCPU/nohz_full ]; then
		same "nohz: cpu/nohz_full" "$(cat $SYSCPU/nohz_full)" 4-7
		NOHZT="0\t: 0 1 2 3
1\t: 8 9 10 11
2\t: 12 13 14 15
"
		expect_text "nohz defaults" "" "$NOHZT" \
"0\t: 0:10 1:21 2:21
1\t: 0:21 1:10 2:10
2\t: 0:21 1:10 2:10
"
		expect_text "nohz include_isolated=1" include_isolated=1 "$(rows 4 4)" "$NUMA_D"
		isolated_checks nohz 4-7 "$NOHZT" "$(rows 4 4)" 5
	else
		# Without CONFIG_NO_HZ_FULL (Debian's 5.10) the kernel ignores
		# nohz_full=: nothing is isolated.
		pass "nohz: no cpu/nohz_full: this kernel ignores nohz_full="
		expect_text "nohz defaults, nothing isolated" "" "$(rows 4 4)" "$NUMA_D"
	fi
	;;
esac

echo "== $PROFILE: done in $(elapsed "$T0")s"
report_summary
