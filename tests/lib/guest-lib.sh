# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
#
# guest-lib.sh: the shell library of every guest script (tests/*/guest-*.sh),
# run by busybox sh as root in /cpt inside scripts/vm-run, next to cpt.ko,
# the test modules and cpt-plan.  vm-run copies it, tests/lib/report.sh and
# the guest scripts into /cpt; each script sources it:
#
#   # shellcheck source=tests/lib/guest-lib.sh
#   . /cpt/guest-lib.sh
#
# Every check prints "PASS: name" or "FAIL: name" (tests/lib/report.sh);
# finish prints "RESULT: N passed, N failed" and returns non-zero on a
# failure.

# shellcheck source=tests/lib/report.sh
. /cpt/report.sh

P=/proc/sys/lnet
SYS=/sys/devices/system/cpu
LC=/sys/module/cpt_live_consumer/parameters/verify

now() { cut -d' ' -f1 /proc/uptime; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
section() { echo "== $* (t=$(elapsed "$T0")s)"; }
T0=$(now)

finish() {
	section "done"
	report_summary RESULT:
}

# cpt_insmod MODULE PARAM...: busybox insmod joins its arguments with
# spaces and does not quote them, so a value with blanks goes as
# name="value", as the kernel's parameter parser wants it.
cpt_insmod() {
	_mod=$1
	shift
	_n=$#
	while [ "$_n" -gt 0 ]; do
		_p=$1
		shift
		case $_p in
		*=*\ *|*=*"	"*) _p="${_p%%=*}=\"${_p#*=}\"" ;;
		esac
		set -- "$@" "$_p"
		_n=$((_n - 1))
	done
	insmod "$_mod" "$@"
}

# expand LIST: "0-3,8,10-11" -> one number per line.
expand() {
	echo "$1" | tr ',' '\n' | while IFS=- read -r a b; do
		[ -n "$a" ] && seq "$a" "${b:-$a}"
	done
}

# same NAME GOT EXPECTED: compare two strings, show both when they differ.
same() {
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1"
		printf '  got:\n%s\n  expected:\n%s\n' "$2" "$3" | sed 's/^/    | /'
	fi
}

# contains STRING PART
contains() { case $1 in *"$2"*) return 0 ;; esac; return 1; }
# loaded MODULE: MODULE is loaded.
loaded() { grep -q "^$1 " /proc/modules; }
wf_str() { echo "$1" | well_formed; }

# verify_consumer NAME: the live consumer's own checks.
verify_consumer() {
	_v=$(cat $LC)
	case $_v in
	PASS*) pass "$1: consumer $_v" ;;
	*) fail "$1: consumer $_v" ;;
	esac
}

# How many notifications the live consumer has had (after waiting for the
# one of the table in force).
notified() { sed -n 's/.* notified=\([0-9]*\) .*/\1/p' $LC; }

table() { cat $P/cpu_partition_table; }
distance() { cat $P/cpu_partition_distance; }
# plan [OPTION...]: cpt-plan of this guest (no OPTION: the default table).
# shellcheck disable=SC2120 # called without OPTION too
plan() { /cpt/cpt-plan --sysfs /sys "$@" 2>/dev/null; }
sum() { md5sum | cut -d' ' -f1; }

# put FILE VALUE: write VALUE and a newline in one write() at offset 0, as
# echo does, for any length.  Prints "ok" or the error text ("Invalid
# argument").
put() {
	printf '%s\n' "$2" >/tmp/put.val
	if _err=$(dd if=/tmp/put.val of="$1" bs=1M conv=notrunc 2>&1); then
		echo ok
	else
		echo "$_err" | sed -n "s/^dd: error writing '[^']*': //p"
	fi
}

# lastk [N]: the last "cpt:" line (or N lines) of the kernel log, without
# time stamps.
lastk() { dmesg | grep ' cpt: ' | tail -n "${1:-1}" | sed 's/^\[[^]]*\] //'; }

cpu_online() { [ "$1" = 0 ] || [ "$(cat "$SYS/cpu$1/online")" = 1 ]; }
set_cpu() { echo "$2" >"$SYS/cpu$1/online"; }
ncpus() { nfiles "$SYS/cpu[0-9]*"; }

# nfiles PATTERN: how many paths the glob PATTERN (unquoted here) matches.
nfiles() {
	# shellcheck disable=SC2086 # the pattern is meant to be expanded
	set -- $1
	if [ -e "$1" ]; then echo $#; else echo 0; fi
}

# The CPU -> partition map of a table on stdin: "cpu part" lines.
cpu_map() {
	awk '{ split($0, a, "\t:"); n = split(a[2], c, " ");
	       for (i = 1; i <= n; i++) print c[i], a[1] }' | sort -n
}

# A table on stdin without CPU $1.
drop_cpu() {
	awk -v c="$1" '{ split($0, a, "\t:"); printf "%s\t:", a[1];
	       n = split(a[2], t, " ");
	       for (i = 1; i <= n; i++) if (t[i] != c) printf " %s", t[i];
	       printf "\n" }'
}

# well_formed < table: every listed CPU once, ids ascending per line,
# partition ids 0..n-1 in order.  Prints the problem, if any.
well_formed() {
	awk '{ split($0, a, "\t:");
	       if (a[1] != NR - 1) { print "line " NR " is partition " a[1]; bad = 1 }
	       n = split(a[2], c, " ");
	       for (i = 1; i <= n; i++) {
		       if (seen[c[i]]++) { print "CPU " c[i] " listed twice"; bad = 1 }
		       if (i > 1 && c[i] + 0 <= c[i - 1] + 0) { print "line " NR " not ascending"; bad = 1 }
	       } }
	     END { exit bad }'
}

# siblings_together < table: SMT siblings of every listed CPU are listed in
# the same partition (or offline).  Prints the problem, if any.
siblings_together() {
	cpu_map >/tmp/st.map
	# The loop reads its own copy: awk reads the map in it.
	cp /tmp/st.map /tmp/st.loop
	_bad=0
	while read -r _c _p; do
		for _s in $(sibling_list "$_c"); do
			cpu_online "$_s" || continue
			_q=$(awk -v s="$_s" '$1 == s { print $2 }' /tmp/st.map)
			if [ "$_q" != "$_p" ]; then
				echo "CPU $_c in $_p, sibling $_s in '${_q}'"
				_bad=1
			fi
		done
	done </tmp/st.loop
	return $_bad
}

# The SMT siblings of CPU $1 (itself included), one per word.
sibling_list() {
	sed 's/,/ /g' "$SYS/cpu$1/topology/thread_siblings_list" |
		awk '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-");
		       if (n == 1) print r[1]; else for (j = r[1]; j <= r[2]; j++) print j } }'
}

# Readers: start_readers N TAG COMMAND starts N loops that run the shell
# COMMAND (which prints one whole file) into /tmp/reads.TAG.K, each output
# followed by a "--" line, pausing READ_PAUSE microseconds (default 0)
# between reads.  The loops stop when /tmp/stop exists; stop_readers waits.
start_readers() {
	rm -f /tmp/stop
	_i=1
	while [ "$_i" -le "$1" ]; do
		(
			while [ ! -e /tmp/stop ]; do
				eval "$3"
				echo --
				[ "${READ_PAUSE:-0}" = 0 ] || usleep "$READ_PAUSE"
			done
		) >"/tmp/reads.$2.$_i" 2>&1 &
		_i=$((_i + 1))
	done
}

# whole TAG COMMAND: run the shell COMMAND (a reader of one file) again
# while it fails with EAGAIN, which is what a reader gets when the table is
# replaced before it has read all of it (cpt(4)); print the output of the
# run that did not (and its errors, if it failed), and count the restarts
# in /tmp/again.TAG.
whole() {
	while :; do
		if eval "$2" >"/tmp/whole.$1" 2>"/tmp/whole.$1.err"; then
			cat "/tmp/whole.$1"
			return 0
		fi
		grep -q 'temporarily unavailable' "/tmp/whole.$1.err" || break
		echo >>"/tmp/again.$1"
	done
	cat "/tmp/whole.$1" "/tmp/whole.$1.err"
	return 1
}

# restarts TAG: how many times whole TAG started again.
restarts() { if [ -e "/tmp/again.$1" ]; then wc -l <"/tmp/again.$1"; else echo 0; fi; }

stop_readers() {
	touch /tmp/stop
	wait
	rm -f /tmp/stop
}

# repeat N BODY: run the shell BODY N times, with $i from 0 to N - 1; sets
# errs to the number of runs that failed and wt to the seconds they took.
repeat() {
	_t=$(now)
	i=0
	errs=0
	while [ $i -lt "$1" ]; do
		eval "$2" || errs=$((errs + 1))
		i=$((i + 1))
	done
	wt=$(elapsed "$_t")
}

# under_readers N BODY NAME: repeat N BODY while the readers run, stop
# them, and pass "NAME in Ts" when every run of BODY succeeded.
under_readers() {
	repeat "$1" "$2"
	stop_readers
	check "$3 in ${wt}s" [ "$errs" = 0 ]
}

# Split reads into one file per distinct output, /tmp/out.tag/MD5 (the
# outputs, without separators); print the number of reads.
sort_reads() {
	rm -rf "/tmp/out.$1"
	mkdir -p "/tmp/out.$1"
	cat /tmp/reads."$1".* | awk -v d="/tmp/out.$1" '
		$0 == "--" { n++; if (!(buf in seen)) { seen[buf] = 1; f = d "/read" n;
			     printf "%s", buf > f; close(f) } buf = ""; next }
		{ buf = buf $0 "\n" }
		END { print n + 0 }'
	(cd "/tmp/out.$1" && for f in read*; do
		[ -e "$f" ] && mv "$f" "$(sum <"$f")"
	done)
}

# in_set TAG SUMS: every distinct output of sort_reads TAG has its md5 in
# the file SUMS; prints the first one that does not.
in_set() {
	for _f in "/tmp/out.$1"/*; do
		[ -e "$_f" ] || continue
		grep -qx "${_f##*/}" "$2" || { sed 's/^/    | /' "$_f"; return 1; }
	done
}

# reads_check TAG SUMS WHAT TAIL: sort the reads of the readers TAG
# (sort_reads) and pass when each is one of the outputs whose md5 the file
# SUMS lists (in_set): "N WHAT, D distinct, TAIL".
reads_check() {
	_nr=$(sort_reads "$1")
	check "$_nr $3, $(nfiles "/tmp/out.$1/*") distinct, $4" in_set "$1" "$2"
}

# pad N TEXT: TEXT padded with spaces to N bytes.
pad() { printf "%s%$(($1 - ${#2}))s" "$2" ""; }

# texts_memory N: the memory held for texts after N replacements of the
# largest table this guest accepts (one partition per CPU), every file
# read after each.  Each table keeps its own texts and frees them with
# itself, so what stays is the texts of the tables still held: here only
# the table in force (cpt(4)); the bound is twice its texts plus 64 KiB of
# noise.  Memory is the active slab objects (exact under slub_debug) plus
# VmallocUsed, after dropping the caches, as in tests/soak.  Run it with no
# consumer loaded.
mem_kb() {
	echo 3 >/proc/sys/vm/drop_caches
	{ awk 'NR > 2 && $1 != "vmap_area" { s += $2 * $4 } END { printf "%d\n", s / 1024 }' /proc/slabinfo
	  awk '/^VmallocUsed:/ { print $2 }' /proc/meminfo; } | awk '{ s += $1 } END { print s }'
}
readall() {
	cat $P/cpu_partition_table $P/cpu_partition_distance $P/cpu_npartitions \
	    $P/cpu_pattern >/dev/null
}
texts_memory() {
	MAXP=$(ncpus)
	section "memory held for texts after $1 replacements ($MAXP partitions)"
	echo "$MAXP" >$P/cpu_npartitions
	_text=$(( ($(table | wc -c) + $(distance | wc -c) + 4096 + 1023) / 1024 ))
	echo "    texts of one table: ${_text} KiB"
	# shellcheck disable=SC2016 # repeat evaluates the body
	repeat 20 'echo $((MAXP - 1 + i % 2)) >$P/cpu_npartitions; readall'
	sleep 1
	_m0=$(mem_kb)
	# shellcheck disable=SC2016 # repeat evaluates the body
	repeat "$1" 'echo $((MAXP - 1 + i % 2)) >$P/cpu_npartitions; readall'
	check "$1 replacements of the largest table, every file read, in ${wt}s" [ "$errs" = 0 ]
	# Frees wait for a grace period and run from a work item.
	sleep 2
	_m1=$(mem_kb)
	_growth=$((_m1 - _m0))
	echo "    slab objects + vmalloc: ${_m0} KiB before, ${_m1} KiB after (${_growth} KiB)"
	check "slab + vmalloc grew ${_growth} KiB, within 2 x ${_text} KiB of texts + 64 KiB" \
		[ "$_growth" -le $((2 * _text + 64)) ]
}
