#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest-badparam.sh [CASES]: every bad parameter of tests/badparam/cases,
# at load and through sysctl, inside a scripts/vm-run guest (busybox sh,
# root, in /cpt next to cpt.ko and cpt-plan).  tests/badparam/run.sh ships
# the cases file to /tmp/badparam.cases (the default CASES).
#
# For each case:
#   load    insmod cpt.ko PARAM=VALUE fails with the documented errno, the
#           kernel log gets one distinct new error line (busybox insmod
#           tries finit_module, then init_module: a refused init logs
#           twice), nothing stays registered, the taint is unchanged but
#           for O and E, no oops or WARN; then a load with defaults gives
#           cpt-plan's table and distance.
#   sysctl  with cpt loaded with defaults, VALUE and a newline (as echo
#           and sysctl(8) write it) in one write() to cpu_npartitions or
#           cpu_pattern fail with the same errno and exactly one new log
#           line, the same as at load; both tables and both values are
#           byte-identical afterwards; then a good write gives cpt-plan's
#           table.
# Cases with @OFF@ run last, with that CPU offline.
#
# Prints "PASS: ..." or "FAIL: ..." per check, then
# "badparam: N cases, M load checks, K sysctl checks, F failed"; exits 1 on
# any failure.

CASES=${1:-/tmp/badparam.cases}
P=/proc/sys/lnet
T=$P/cpu_partition_table
D=$P/cpu_partition_distance
SYSCPU=/sys/devices/system/cpu
SYSNODE=/sys/devices/system/node
TMP=/tmp/badparam
# Taint flags a module built out of tree and unsigned sets: O and E.
TAINT_OK=$((4096 | 8192))
# What the kernel log must never show.
BAD_RE='WARNING|Oops|BUG|Call Trace|general protection|UBSAN|KASAN|KFENCE|refcount_t|Kernel panic|lockup|stall|Bad page|corruption|Poison|Redzone'
NCASES=0
NLOAD=0
NSYSCTL=0
NFAIL=0
PHASE=load
MARKN=0
mkdir -p $TMP

now() { cut -d' ' -f1 /proc/uptime; }
T0=$(now)
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# Checks count per phase, so that the summary says what was tried where.
counted() {
	if [ "$PHASE" = load ]; then NLOAD=$((NLOAD + 1)); else NSYSCTL=$((NSYSCTL + 1)); fi
}
pass() { counted; echo "PASS: $*"; }
# fail NAME [DETAILS]: DETAILS (several lines) are shown indented.
fail() {
	counted
	NFAIL=$((NFAIL + 1))
	echo "FAIL: $1"
	[ $# -gt 1 ] && [ -n "$2" ] && printf '%s\n' "$2" | head -n 30 | sed 's/^/    | /'
	return 0
}
# ok NAME CONDITION-STATUS [DETAILS]
ok() {
	if [ "$2" = 0 ]; then pass "$1"; else fail "$1" "${3:-}"; fi
}

# ---------------------------------------------------------------------------
# The kernel log since a mark: "<level>[time] text" lines.
kmark() {
	MARKN=$((MARKN + 1))
	MARK="badparam-mark-$$-$MARKN"
	echo "$MARK" >/dev/kmsg
}
klog() { dmesg -r | sed -n "/$MARK\$/,\$p" | sed 1d; }
# The lines a refused value may log: cpt's, and any error-level line (a
# message split by a newline shows up here as a second line).
kerrs() {
	klog | grep -E '^<[0-3]>|cpt' | sed 's/^<[0-9]*>\[[ 0-9.]*\] //'
}
# Kernel trouble since the mark, and taint beyond O and E.
kernel_ok() {
	_t=$(($(cat /proc/sys/kernel/tainted) & ~TAINT_OK))
	if klog | grep -Eq "$BAD_RE" || [ "$_t" != "$TAINT0" ]; then
		fail "$1: kernel log clean, taint $_t" "$(klog | grep -E -A 8 "$BAD_RE")"
	else
		pass "$1: no oops or WARN, taint unchanged"
	fi
}

errno_text() {
	case $1 in
	EINVAL) echo "Invalid argument" ;;
	ERANGE) echo "Numerical result out of range" ;;
	ENODEV) echo "No such device" ;;
	E2BIG) echo "Argument list too long" ;;
	*) echo "unknown errno $1" ;;
	esac
}

# The word the one log line must have, per parameter (cpt.4, DIAGNOSTICS).
log_word() {
	case $1 in
	cpu_pattern) echo "cpt: cpu_pattern: " ;;
	*) echo "npartitions" ;;
	esac
}

loaded() { grep -q '^cpt ' /proc/modules; }
plan() { ./cpt-plan --sysfs /sys "$@" 2>&1; }

# ---------------------------------------------------------------------------
# Placeholders of the cases file, from this guest's topology.
expand() {
	echo "$1" | tr ',' '\n' | while IFS=- read -r a b; do
		[ -n "$a" ] && seq "$a" "${b:-$a}"
	done
}
topology() {
	ONLINE=$(expand "$(cat $SYSCPU/online)")
	NCPU=$(echo "$ONLINE" | wc -l)
	LAST=$(echo "$ONLINE" | tail -n 1)
	NOCPU=$(($(expand "$(cat $SYSCPU/possible)" | tail -n 1) + 1))
	NONODE=$(($(expand "$(cat $SYSNODE/possible)" | tail -n 1) + 1))
	NCORES=$(for c in $ONLINE; do
		cat $SYSCPU/cpu$c/topology/thread_siblings_list
	done | sort -u | wc -l)
	MEMNODE=
	for n in $SYSNODE/node[0-9]*; do
		[ -z "$(cat "$n/cpulist")" ] && { MEMNODE=${n##*node}; break; }
	done
	echo "online CPUs $(cat $SYSCPU/online) ($NCPU), $NCORES cores, nodes $(cat $SYSNODE/online)," \
		"memory-only node ${MEMNODE:-none}, kernel $(uname -r)"
}

# rep COUNT TEXT: TEXT COUNT times.
rep() { T="$2" awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "%s", ENVIRON["T"] }'; }

# value TEXT: the case's VALUE with placeholders replaced, still escaped.
value() {
	_v=$1
	_v=${_v//@EMPTY@/}
	_v=${_v//@NCPU1@/$((NCPU + 1))}
	_v=${_v//@NCPU@/$NCPU}
	_v=${_v//@LAST@/$LAST}
	_v=${_v//@OFF@/$LAST}
	_v=${_v//@NOCPU@/$NOCPU}
	_v=${_v//@NONODE@/$NONODE}
	_v=${_v//@NCORES@/$NCORES}
	_v=${_v//@MEMNODE@/$MEMNODE}
	# @REP:COUNT:TEXT@, one at a time from the left.
	while :; do
		case $_v in
		*@REP:*) ;;
		*) break ;;
		esac
		_pre=${_v%%@REP:*}
		_r=${_v#*@REP:}
		_n=${_r%%:*}
		_r=${_r#*:}
		_txt=${_r%%@*}
		_v="$_pre$(rep "$_n" "$_txt")${_r#*@}"
	done
	printf '%s' "$_v"
}

# ---------------------------------------------------------------------------
# bad_load ERRNO PARAM NAME: insmod with the value in $TMP/val.
bad_load() {
	_want=$(errno_text "$1")
	# $(...) drops trailing newlines: keep them with a guard byte.
	_v=$(cat $TMP/val; echo x)
	_v=${_v%x}
	kmark
	if [ "$2" = args ]; then
		# shellcheck disable=SC2086 # several parameters, split on blanks
		insmod ./cpt.ko $_v 2>$TMP/insmod.err
	else
		# busybox insmod joins its arguments with blanks and quotes
		# nothing; the kernel's parser takes name="value" whole.
		insmod ./cpt.ko "$2=\"$_v\"" 2>$TMP/insmod.err
	fi
	_rc=$?
	if [ $_rc = 0 ]; then
		fail "$3: load must fail" "$(cat $T 2>&1)"
		rmmod cpt
		return
	fi
	grep -q "$_want" $TMP/insmod.err
	ok "$3: load fails with $1" $? "$(cat $TMP/insmod.err)"
	kerrs | sort -u >$TMP/errs
	LOADMSG=$(cat $TMP/errs)
	if [ "$(wc -l <$TMP/errs)" = 1 ] && grep -q "^cpt: " $TMP/errs &&
	   grep -q -e "$(log_word "$2")" $TMP/errs; then
		pass "$3: one log line: $LOADMSG"
	else
		fail "$3: one cpt: log line naming $(log_word "$2")" "$(klog)"
	fi
	if loaded || [ -e /sys/module/cpt ] || [ -e $T ] || [ -e $P/cpu_pattern ]; then
		fail "$3: nothing registered after the failed load" "$(ls -l $P /sys/module/cpt 2>&1)"
		rmmod cpt 2>/dev/null
	else
		pass "$3: nothing registered after the failed load"
	fi
	kernel_ok "$3: load"
}

# good_load NAME: defaults give cpt-plan's table and distance.
good_load() {
	if ! insmod ./cpt.ko 2>$TMP/insmod.err; then
		fail "$1: a good load works afterwards" "$(cat $TMP/insmod.err)"
		return 1
	fi
	if cmp -s $T $TMP/want.t && cmp -s $D $TMP/want.d; then
		pass "$1: a good load works afterwards, table == cpt-plan"
	else
		fail "$1: a good load works afterwards, table == cpt-plan" \
			"$(cat $T; echo ---; cat $TMP/want.t)"
	fi
}

# put FILE: write $TMP/val and a newline in one write() at offset 0 (or at
# SEEK bytes); prints "ok" or the error text.
put() {
	cp $TMP/val $TMP/put
	printf '\n' >>$TMP/put
	if _err=$(dd if=$TMP/put of="$1" bs=1M ${SEEK:+seek=$SEEK} conv=notrunc 2>&1); then
		echo ok
	else
		echo "$_err" | sed -n "s/^dd: error writing '[^']*': //p"
	fi
}

snapshot() {
	for _f in cpu_partition_table cpu_partition_distance cpu_npartitions cpu_pattern; do
		cat $P/$_f >$TMP/$1.$_f
	done
}
same_snapshot() {
	for _f in cpu_partition_table cpu_partition_distance cpu_npartitions cpu_pattern; do
		cmp -s $TMP/$1.$_f $TMP/$2.$_f || { echo "$_f changed"; return 1; }
	done
}

# bad_write ERRNO PARAM WHERE NAME: the value in $TMP/val, to cpt loaded
# with defaults.
bad_write() {
	_file=$P/cpu_npartitions
	[ "$2" = cpu_pattern ] && _file=$P/cpu_pattern
	snapshot before
	kmark
	SEEK=
	[ "$3" = seek ] && SEEK=1
	_r=$(put $_file)
	ok "$4: write fails with $1 ($_r)" "$([ "$_r" = "$(errno_text "$1")" ]; echo $?)"
	kerrs >$TMP/errs
	_msg=$(cat $TMP/errs)
	if [ "$3" = seek ]; then
		# Not a value the planner refused: no line at load to match.
		[ "$(wc -l <$TMP/errs)" -le 1 ]
		ok "$4: at most one log line${_msg:+: $_msg}" $? "$(klog)"
	elif [ "$(wc -l <$TMP/errs)" = 1 ] && grep -q "^cpt: " $TMP/errs &&
	     grep -q -e "$(log_word "$2")" $TMP/errs; then
		pass "$4: one log line: $_msg"
	else
		fail "$4: one cpt: log line naming $(log_word "$2")" "$(klog)"
	fi
	# The same line as at load; a parse error of a count names the file.
	if [ "$3" = both ]; then
		_lm=$(echo "$LOADMSG" | sed "s/parameter \`npartitions'/parameter \`cpu_npartitions'/")
		ok "$4: the line logged at load" "$([ "$_msg" = "$_lm" ]; echo $?)" \
			"at load: $LOADMSG"
	fi
	snapshot after
	_d=$(same_snapshot before after)
	ok "$4: tables and values byte-identical" $? "$_d"
	kernel_ok "$4: write"
}

# good_write PARAM NAME: a valid write afterwards plans a table.
good_write() {
	if [ "$1" = cpu_pattern ]; then
		echo N >$P/cpu_pattern && cmp -s $T $TMP/want.N
		ok "$2: a good write works afterwards (N)" $? "$(cat $T)"
	else
		echo 2 >$P/cpu_npartitions && cmp -s $T $TMP/want.2
		ok "$2: a good write works afterwards (2)" $? "$(cat $T)"
	fi
}

# run_case ERRNO WHERE PARAM VALUE WHAT
run_case() {
	_name="$3 '$(printf '%.40s' "$4")' ($5)"
	case $4 in
	*@MEMNODE@*) [ -n "$MEMNODE" ] || { echo "SKIP: $_name: no memory-only node"; return; } ;;
	esac
	NCASES=$((NCASES + 1))
	# %b: \n, \t, \r, \0NNN in the file are the bytes themselves.
	printf '%b' "$(value "$4")" >$TMP/val
	LOADMSG=
	PHASE=load
	case $2 in
	both|load)
		bad_load "$1" "$3" "$_name"
		good_load "$_name" || return ;;
	*)
		insmod ./cpt.ko || { fail "$_name: insmod cpt.ko"; return; } ;;
	esac
	PHASE=sysctl
	case $2 in
	both|sysctl|seek)
		bad_write "$1" "$3" "$2" "$_name"
		good_write "$3" "$_name" ;;
	esac
	rmmod cpt || fail "$_name: rmmod cpt"
}

# The tables a good load and the good writes must give, for the CPUs
# online now.
expected() {
	plan >$TMP/want.t
	plan --distance >$TMP/want.d
	plan --pattern N >$TMP/want.N
	plan --npartitions 2 >$TMP/want.2
}

# run_cases FILTER: the cases whose VALUE does (on) or does not (off)
# have @OFF@.
run_cases() {
	expected
	while IFS='	' read -r _e _w _p _v _what; do
		case $_e in ''|'#'*) continue ;; esac
		case $1:$_v in
		on:*@OFF@*|off:*) ;;
		*) continue ;;
		esac
		case $1:$_v in off:*@OFF@*) continue ;; esac
		run_case "$_e" "$_w" "$_p" "$_v" "$_what"
	done <"$CASES"
}

# ---------------------------------------------------------------------------
echo "== topology"
topology
[ -r "$CASES" ] || { fail "cases file $CASES"; exit 1; }
[ -x ./cpt-plan ] || { fail "cpt-plan is in the initramfs"; exit 1; }
TAINT0=$(($(cat /proc/sys/kernel/tainted) & ~TAINT_OK))
# The first load of an unsigned module logs "cpt: module verification
# failed" and taints E: get that out of the way of the cases.
insmod ./cpt.ko && rmmod cpt || fail "a first load with defaults"

echo "== all CPUs online (t=$(elapsed "$T0")s)"
run_cases off
echo "== CPU $LAST offline (t=$(elapsed "$T0")s)"
# A WARN while a CPU goes offline is known on 6.12 under TCG (sched_cpu_dying,
# see scripts/vm-run): not cpt's, so not a panic; vm-run reports it.
_pw=$(cat /proc/sys/kernel/panic_on_warn)
echo 0 >/proc/sys/kernel/panic_on_warn
if echo 0 >$SYSCPU/cpu$LAST/online; then
	echo "$_pw" >/proc/sys/kernel/panic_on_warn
	run_cases on
	echo 1 >$SYSCPU/cpu$LAST/online || fail "CPU $LAST back online"
else
	fail "CPU $LAST offline"
fi
echo "$_pw" >/proc/sys/kernel/panic_on_warn

echo "== done in $(elapsed "$T0")s"
echo "badparam: $NCASES cases, $NLOAD load checks, $NSYSCTL sysctl checks, $NFAIL failed"
[ "$NFAIL" = 0 ]
