#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest-badparam.sh [CASES]: every bad parameter of tests/badparam/cases,
# at load and through sysctl, inside a scripts/vm-run guest (busybox sh,
# root, in /cpt next to cpt.ko and cpt-plan).  tests/badparam/run.sh puts
# the cases file in /cpt/cases (the default CASES).
#
# Load phase, per case: insmod cpt.ko PARAM=VALUE fails with the
# documented errno; the kernel log gets one distinct new line, cpt's
# (busybox insmod tries finit_module, then init_module, so a refused init
# logs twice); nothing stays registered; no oops or WARN, and no taint but
# O and E.  Sysctl phase, per case, with cpt loaded with defaults: VALUE
# and a newline (as echo and sysctl(8) write it) in one write() fail with
# the same errno and exactly one new log line, the line logged at load;
# both tables and both values are byte-identical afterwards.  After each
# section of the cases file, a load with defaults gives cpt-plan's table
# and distance, and good writes give cpt-plan's tables.  Cases with @OFF@
# run last, with that CPU offline.
#
# Module loads cost a third of a second under TCG, and so does reading the
# kernel log: each phase marks the log before each case, runs them all and
# then reads the log once, attributing lines to cases by the marks.
#
# Prints "PASS: ..." or "FAIL: ..." per check, then
# "badparam: N cases, M load checks, K sysctl checks, F failed"; exits 1 on
# any failure.

# busybox ash has ${var//old/new} and ${var:offset:length}.
# shellcheck disable=SC3057,SC3060

# shellcheck source=tests/lib/guest-lib.sh
. /cpt/guest-lib.sh

CASES=${1:-/cpt/cases}
P=/proc/sys/lnet
T=$P/cpu_partition_table
D=$P/cpu_partition_distance
FILES="$T $D $P/cpu_npartitions $P/cpu_pattern"
SYSCPU=/sys/devices/system/cpu
SYSNODE=/sys/devices/system/node
TMP=/tmp/badparam
# Taint flags of a module built out of tree and unsigned: O and E.
TAINT_OK=$((4096 | 8192))
# What the kernel log must never show.
BAD_RE='WARNING|Oops|BUG|Call Trace|general protection|UBSAN|KASAN|KFENCE|refcount_t|Kernel panic|lockup|stall|Bad page|corruption|Poison overwritten|Redzone'
NCASES=0
NLOAD=0
NSYSCTL=0
REPORT_DETAIL_LINES=20
mkdir -p $TMP

# phase_check PHASE NAME STATUS [DETAILS]: one PASS or FAIL line, counted
# in PHASE's checks.
phase_check() {
	if [ "$1" = load ]; then NLOAD=$((NLOAD + 1)); else NSYSCTL=$((NSYSCTL + 1)); fi
	if [ "$3" = 0 ]; then pass "$2"; else fail "$2" "${4:-}"; fi
}

kmark() { echo "$MARK$1" >/dev/kmsg; }
# TAINT: the taint flags but O and E.
taint() {
	read -r _t </proc/sys/kernel/tainted
	TAINT=$((_t & ~TAINT_OK))
}

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
		cat "$SYSCPU/cpu$c/topology/thread_siblings_list"
	done | sort -u | wc -l)
	MEMNODE=
	for n in "$SYSNODE"/node[0-9]*; do
		[ -z "$(cat "$n/cpulist")" ] && { MEMNODE=${n##*node}; break; }
	done
	echo "online CPUs $(cat $SYSCPU/online) ($NCPU), $NCORES cores, nodes $(cat $SYSNODE/online)," \
		"memory-only node ${MEMNODE:-none}, kernel $(uname -r)"
}

# rep COUNT TEXT: TEXT COUNT times.
rep() { R="$2" awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "%s", ENVIRON["R"] }'; }

# value TEXT: VALUE, the case's value with its placeholders replaced, still
# escaped (no fork unless there is an @REP@).
value() {
	VALUE=$1
	VALUE=${VALUE//@EMPTY@/}
	VALUE=${VALUE//@NCPU1@/$((NCPU + 1))}
	VALUE=${VALUE//@NCPU@/$NCPU}
	VALUE=${VALUE//@LAST@/$LAST}
	VALUE=${VALUE//@OFF@/$LAST}
	VALUE=${VALUE//@NOCPU@/$NOCPU}
	VALUE=${VALUE//@NONODE@/$NONODE}
	VALUE=${VALUE//@NCORES@/$NCORES}
	VALUE=${VALUE//@MEMNODE@/$MEMNODE}
	while :; do
		case $VALUE in
		*@REP:*) ;;
		*) break ;;
		esac
		_pre=${VALUE%%@REP:*}
		_r=${VALUE#*@REP:}
		_n=${_r%%:*}
		_r=${_r#*:}
		VALUE="$_pre$(rep "$_n" "${_r%%@*}")${_r#*@}"
	done
}

# ---------------------------------------------------------------------------
# for_cases FILTER FUNCTION: FUNCTION ID ERRNO WHERE PARAM NAME for each
# case (VALUE set, ID its line number) whose VALUE has (FILTER on) or has
# not (off) @OFF@; FUNCTION section at the end of each section of the file.
for_cases() {
	_line=0
	_ran=0
	while IFS='	' read -r _e _w _p _v _what; do
		_line=$((_line + 1))
		case $_e in
		'#'*---*) [ $_ran = 0 ] || "$2" section; _ran=0; continue ;;
		''|'#'*) continue ;;
		esac
		case $_v in
		*@OFF@*) [ "$1" = on ] || continue ;;
		*) [ "$1" = off ] || continue ;;
		esac
		case $_v in
		*@MEMNODE@*) [ -n "$MEMNODE" ] || { echo "SKIP: $_p '$_v': no memory-only node"; continue; } ;;
		esac
		value "$_v"
		"$2" "$_line" "$_e" "$_w" "$_p" "$_p '${_v:0:40}' ($_what)" || continue
		_ran=1
	done <"$CASES"
	[ $_ran = 0 ] || "$2" section
}

# Results of a phase: one line per case, fields separated by tabs:
#   ID ERRNO PARAM WHERE ERROR-TEXT BAD-STATE TAINT NAME
# BAD-STATE is 1 when something stayed registered (load) or a file
# changed (sysctl).
result() {
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$RESULTS"
}

# load_case ID ERRNO WHERE PARAM NAME
load_case() {
	[ "$1" = section ] && { good_load; return; }
	case $3 in both|load) ;; *) return 1 ;; esac
	NCASES=$((NCASES + 1))
	# The bytes, trailing newlines too (a guard byte survives $(...)).
	_val=$(printf '%b_' "$VALUE")
	_val=${_val%_}
	kmark "L$1"
	if [ "$4" = args ]; then
		# shellcheck disable=SC2086 # several parameters, split on blanks
		insmod ./cpt.ko $_val 2>$TMP/err
	else
		# busybox insmod joins its arguments with blanks and quotes
		# nothing; the kernel's parser takes name="value" whole.
		insmod ./cpt.ko "$4=\"$_val\"" 2>$TMP/err
	fi
	_rc=$?
	_reg=0
	if [ $_rc = 0 ] || [ -e /sys/module/cpt ] || [ -e $T ] || [ -e $P/cpu_pattern ]; then
		_reg=1
	fi
	_err=
	read -r _err <$TMP/err
	[ $_rc = 0 ] && { _err="loaded"; rmmod cpt; }
	taint
	result "L$1" "$2" "$4" "$3" "$_err" $_reg "$TAINT" "$5"
}

# good_load: defaults give cpt-plan's table and distance.
good_load() {
	kmark G
	if ! insmod ./cpt.ko 2>$TMP/err; then
		phase_check load "a good load after the section's cases" 1 "$(cat $TMP/err)"
		return
	fi
	cmp -s $T $TMP/want.t && cmp -s $D $TMP/want.d
	phase_check load "a good load after the section's cases: table and distance == cpt-plan" $? \
		"$(cat $T $D)"
	rmmod cpt || phase_check load "rmmod cpt" 1
}

# sysctl_case ID ERRNO WHERE PARAM NAME, cpt loaded.
sysctl_case() {
	[ "$1" = section ] && { good_write; return; }
	case $3 in both|sysctl|seek) ;; *) return 1 ;; esac
	[ "$3" = sysctl ] || [ "$3" = seek ] && NCASES=$((NCASES + 1))
	_f=$P/cpu_npartitions
	[ "$4" = cpu_pattern ] && _f=$P/cpu_pattern
	_seek=
	[ "$3" = seek ] && _seek=seek=1
	printf '%b\n' "$VALUE" >$TMP/put
	kmark "S$1"
	dd if=$TMP/put of=$_f bs=1M $_seek conv=notrunc 2>$TMP/err
	_rc=$?
	_err=
	read -r _err <$TMP/err
	if [ $_rc = 0 ]; then
		_err=written
	else
		_err=${_err##*: }
	fi
	# shellcheck disable=SC2086 # the four files
	md5sum $FILES >$TMP/after
	_chg=0
	if ! cmp -s $TMP/base $TMP/after; then
		_chg=1
		cp $TMP/after $TMP/base
	fi
	taint
	result "S$1" "$2" "$4" "$3" "$_err" $_chg "$TAINT" "$5"
}

# good_write: valid writes plan cpt-plan's tables; back to the defaults.
good_write() {
	kmark G
	echo N >$P/cpu_pattern && cmp -s $T $TMP/want.N
	phase_check sysctl "a good write after the section's cases: cpu_pattern=N == cpt-plan" $? "$(cat $T)"
	echo >$P/cpu_pattern
	echo 2 >$P/cpu_npartitions && cmp -s $T $TMP/want.2
	phase_check sysctl "a good write after the section's cases: cpu_npartitions=2 == cpt-plan" $? "$(cat $T)"
	echo 0 >$P/cpu_npartitions
	cmp -s $T $TMP/want.t && cmp -s $D $TMP/want.d
	phase_check sysctl "back to the defaults: table and distance == cpt-plan" $? "$(cat $T)"
	# shellcheck disable=SC2086 # the four files
	md5sum $FILES >$TMP/base
}

# ---------------------------------------------------------------------------
# evaluate PHASE: read the kernel log once, split it at the marks, and
# print the checks of every case of the phase from $RESULTS.  The load
# phase keeps each case's line in $TMP/loadmsg for the sysctl phase.
evaluate() {
	dmesg -r >$TMP/klog
	touch $TMP/loadmsg
	awk -v phase="$1" -v mark="$MARK" -v badre="$BAD_RE" -v taint0="$TAINT0" \
	    -v loadmsg=$TMP/loadmsg -v klog=$TMP/klog '
	function errtext(e) {
		return e == "EINVAL" ? "Invalid argument" :
		       e == "ERANGE" ? "Numerical result out of range" :
		       e == "ENODEV" ? "No such device" :
		       e == "E2BIG" ? "Argument list too long" : "errno " e
	}
	function check(name, ok, details) {
		n_checks++
		if (ok) {
			print "PASS: " name
		} else {
			n_fail++
			print "FAIL: " name
			if (details != "")
				print substr(details, 2)
		}
	}
	BEGIN { FS = "\t" }
	FILENAME == loadmsg { lmsg[$1] = $2; next }
	FILENAME != klog {
		ids[++n] = $1; errno[$1] = $2; param[$1] = $3; where[$1] = $4
		err[$1] = $5; state[$1] = $6; taint[$1] = $7; name[$1] = $8
		next
	}
	{
		line = $0
		text = line
		lvl = 9
		if (match(line, /^<[0-9]+>\[[ 0-9.]+\] /)) {
			lvl = substr(line, 2, index(line, ">") - 2) + 0
			text = substr(line, RLENGTH + 1)
		}
		if (index(text, mark) == 1) {
			cur = substr(text, length(mark) + 1)
			next
		}
		if (cur == "")
			next
		log_[cur] = log_[cur] "\n    | " line
		if (text ~ badre)
			bad[cur] = 1
		# cpt lines, and error lines: a message split by a newline
		# goes on as a line of its own.
		if (lvl <= 3 || text ~ /cpt/) {
			gsub(/\t/, "<TAB>", text)
			nraw[cur]++
			if (!((cur, text) in seen)) {
				seen[cur, text] = 1
				ndist[cur]++
				if (!(cur in msg))
					msg[cur] = text
			}
		}
	}
	END {
		if (bad["G"])
			check("no oops or WARN around the good loads and writes", 0, log_["G"])
		for (i = 1; i <= n; i++) {
			id = ids[i]
			nm = name[id]
			word = param[id] == "cpu_pattern" ? "cpt: cpu_pattern: " : "npartitions"
			m = msg[id]
			if (phase == "load") {
				check(nm ": load fails with " errno[id] " (" err[id] ")",
				      index(err[id], errtext(errno[id])) > 0, "")
				check(nm ": one log line: " (m == "" ? "(none)" : m),
				      ndist[id] == 1 && index(m, "cpt: ") == 1 && index(m, word) > 0,
				      log_[id])
				check(nm ": nothing registered after the failed load", state[id] == 0, "")
				print substr(id, 2) "\t" m >loadmsg
			} else {
				check(nm ": write fails with " errno[id] " (" err[id] ")",
				      err[id] == errtext(errno[id]), "")
				if (where[id] == "seek")
					# Not a value the planner refused: no line to match.
					check(nm ": at most one log line: " (m == "" ? "(none)" : m), nraw[id] <= 1, log_[id])
				else
					check(nm ": one log line: " (m == "" ? "(none)" : m),
					      nraw[id] == 1 && index(m, "cpt: ") == 1 && index(m, word) > 0,
					      log_[id])
				if (where[id] == "both") {
					# The file is cpu_npartitions, whichever parameter.
					lm = lmsg[substr(id, 2)]
					sub(/parameter `npartitions'"'"'/, "parameter `cpu_npartitions'"'"'", lm)
					check(nm ": the line logged at load", m == lm,
					      "\n    | at load: " lm)
				}
				check(nm ": tables and values byte-identical", state[id] == 0, "")
			}
			check(nm ": " phase ": no oops or WARN, taint unchanged",
			      !bad[id] && taint[id] == taint0, log_[id])
		}
		print "checks " n_checks + 0 " " n_fail + 0
	}' $TMP/loadmsg "$RESULTS" $TMP/klog >$TMP/eval
	grep -v '^checks ' $TMP/eval
	_phase=$1
	# shellcheck disable=SC2046 # "checks N F"
	set -- $(grep '^checks ' $TMP/eval)
	if [ "$_phase" = load ]; then NLOAD=$((NLOAD + $2)); else NSYSCTL=$((NSYSCTL + $2)); fi
	REPORT_NPASS=$((REPORT_NPASS + $2 - $3))
	REPORT_NFAIL=$((REPORT_NFAIL + $3))
}

# Run the cases of FILTER (on/off) through both phases.
phases() {
	# The tables a good load and good writes give with these CPUs online.
	plan >$TMP/want.t
	plan --distance >$TMP/want.d
	plan --pattern N >$TMP/want.N
	plan --npartitions 2 >$TMP/want.2
	RESULTS=$TMP/load.$1
	MARK=badparam-$$-load-$1-
	: >"$RESULTS"
	: >$TMP/loadmsg
	echo "== load phase, $2 (t=$(elapsed "$T0")s)"
	for_cases "$1" load_case
	evaluate load

	RESULTS=$TMP/sysctl.$1
	MARK=badparam-$$-sysctl-$1-
	: >"$RESULTS"
	echo "== sysctl phase, $2 (t=$(elapsed "$T0")s)"
	if insmod ./cpt.ko; then
		# shellcheck disable=SC2086 # the four files
		md5sum $FILES >$TMP/base
		for_cases "$1" sysctl_case
		rmmod cpt || phase_check sysctl "rmmod cpt after the sysctl phase" 1
		evaluate sysctl
	else
		phase_check sysctl "insmod cpt.ko for the sysctl phase" 1
	fi
}

# ---------------------------------------------------------------------------
echo "== topology"
topology
[ -r "$CASES" ] || { fail "no cases file $CASES"; exit 1; }
[ -x ./cpt-plan ] || { fail "cpt-plan is not in the initramfs"; exit 1; }
# The first load of an unsigned module logs "cpt: module verification
# failed" and taints E: get that out of the way of the cases.
if ! { insmod ./cpt.ko && rmmod cpt; }; then
	fail "a first load with defaults"
	exit 1
fi
taint
TAINT0=$TAINT

phases off "all CPUs online"
# A WARN while a CPU goes offline is known on 6.12 under TCG (sched_cpu_dying,
# see scripts/vm-run): not cpt's, so no panic for it; vm-run reports it.
read -r _pw </proc/sys/kernel/panic_on_warn
echo 0 >/proc/sys/kernel/panic_on_warn
if echo 0 >"$SYSCPU/cpu$LAST/online"; then
	echo "$_pw" >/proc/sys/kernel/panic_on_warn
	phases on "CPU $LAST offline"
	echo 0 >/proc/sys/kernel/panic_on_warn
	echo 1 >"$SYSCPU/cpu$LAST/online" || fail "CPU $LAST back online"
else
	fail "CPU $LAST offline"
fi
echo "$_pw" >/proc/sys/kernel/panic_on_warn

echo "== done in $(elapsed "$T0")s"
echo "badparam: $NCASES cases, $NLOAD load checks, $NSYSCTL sysctl checks, $REPORT_NFAIL failed"
[ "$REPORT_NFAIL" = 0 ]
