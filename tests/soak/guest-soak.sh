# SPDX-License-Identifier: GPL-2.0
#
# The soak (issue 5), in one boot of, for example,
#   scripts/vm-run --smp 8,sockets=2,cores=2,threads=2 --nodes '0-3;4-7'
#                  --dist 0-1=21 --append 'slub_debug=FZPU panic_on_warn=1'
# Needs tests/live/lib.sh first (tests/soak/run.sh concatenates them).
#
# Phase 1, leak: SOAK_CYCLES (default 500) load/unload cycles of cpt.ko
# with varying parameters, table reads, sysctl replacements, now and then
# the consumer modules and a CPU offline/online, and invalid loads that
# must fail.  Slab (sum of active objects x object size over
# /proc/slabinfo, and each cache's active objects) and VmallocUsed are
# measured after a warm-up cycle and after the cycles, both times with
# caches dropped and shrunk; the growth must stay under bounds measured
# on these guests (see SLAB_MAX below).
#
# Phase 2, concurrency, SOAK_SECONDS (default 300): readers of every
# /proc/sys/lnet file (cat, and dd with small blocks) while a writer
# replaces the table through sysctl writes (and makes invalid writes that
# must fail) and a loop takes random non-zero CPUs offline and online,
# with cpt_live_consumer loaded.  Every read is checked for form.
#
# Prints "soak: kernel=... errors=N" and then "soak: PASS" or
# "soak: FAIL (...)"; returns non-zero on a failure.

CYCLES=${SOAK_CYCLES:-500}
SECS=${SOAK_SECONDS:-300}
# Bounds on the growth over phase 1.  Measured with no cycle between the
# two snapshots and with 500 clean cycles (README of tests/soak/run.sh):
# the slab sum moved by at most a few KiB and no cache by more than a few
# objects, while one leaked kmalloc(64) per cycle under slub_debug=FZPU
# costs 500 objects of 192 bytes (94 KiB) in kmalloc-64, and at 60 cycles
# still 60 objects (11 KiB).
SLAB_MAX=${SOAK_SLAB_MAX_KIB:-8}
OBJS_MAX=${SOAK_OBJS_MAX:-}
VMALLOC_MAX=${SOAK_VMALLOC_MAX_KIB:-0}
N=$P/cpu_npartitions
C=$P/cpu_pattern
NCPUS=$(ncpus)
LAST=$((NCPUS - 1))
HALF=$((NCPUS / 2))
NNODES=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
ERRORS=0
REFUSED=0

# A soak error: counted, and shown (the first 20 of each kind are enough).
error() {
	ERRORS=$((ERRORS + 1))
	[ "$ERRORS" -le 50 ] && echo "ERROR: $*"
}

# ---------------------------------------------------------------------------
# Measurement.

# Empty slabs, per-CPU slabs and RCU-deferred frees would otherwise show as
# growth: drop the page and dentry caches, flush and shrink every cache,
# and give RCU callbacks (kfree_rcu, call_rcu) time to run, twice.
settle() {
	for _r in 1 2; do
		sync
		echo 3 >/proc/sys/vm/drop_caches
		for _f in /sys/kernel/slab/*/shrink; do
			echo 1 >"$_f"
		done 2>/dev/null
		sleep 2
	done
}

# snapshot TAG: /tmp/snap.TAG ("key kib" lines) and /tmp/slab.TAG ("cache
# active_objs objsize" lines, when /proc/slabinfo is readable).
snapshot() {
	settle
	if [ -r /proc/slabinfo ]; then
		awk 'NR > 2 { print $1, $2, $4 }' /proc/slabinfo >"/tmp/slab.$1"
	else
		: >"/tmp/slab.$1"
	fi
	{
		awk '/^SUnreclaim:/ { print "sunreclaim", $2 }
		     /^VmallocUsed:/ { print "vmalloc", $2 }' /proc/meminfo
		awk '{ s += $2 * $3 } END { printf "slab %d\n", s / 1024 }' "/tmp/slab.$1"
		awk '{ s += $2 } END { printf "vmallocinfo %d\n", s / 1024 }' /proc/vmallocinfo
	} >"/tmp/snap.$1"
}

# delta KEY A B: KEY of snapshot B minus snapshot A, in KiB.
delta() {
	awk -v k="$1" '$1 == k { v[FILENAME] = $2 } END { print v[B] - v[A] }' \
		A="/tmp/snap.$2" B="/tmp/snap.$3" "/tmp/snap.$2" "/tmp/snap.$3"
}

# cache_growth A B: "cache +objs +bytes" for each cache whose active
# objects changed between the snapshots, largest growth first.
cache_growth() {
	awk 'NR == FNR { o[$1] = $2; next }
	     { d = $2 - o[$1]; if (d) printf "%s %+d %+d\n", $1, d, d * $3 }' \
		"/tmp/slab.$1" "/tmp/slab.$2" | sort -k2 -n -r
}

# show_delta WHAT A B: one line with every figure.
show_delta() {
	echo "  $1: slab $(delta slab "$2" "$3") KiB, SUnreclaim $(delta sunreclaim "$2" "$3") KiB," \
		"VmallocUsed $(delta vmalloc "$2" "$3") KiB, vmallocinfo $(delta vmallocinfo "$2" "$3") KiB"
	cache_growth "$2" "$3" | head -n 5 | sed 's/^/    cache /'
}

# ---------------------------------------------------------------------------
# Phase 1: load/unload cycles.

# load_pattern K: the K-th cpu_pattern of the load cycles, as one insmod
# word (busybox insmod does not quote: name="a b" keeps the blanks).
load_pattern() {
	case $(($1 % 7)) in
	0) echo 'cpu_pattern=N' ;;
	1) echo "cpu_pattern=\"0[0-$((HALF - 1))] 1[$HALF-$LAST]\"" ;;
	2) echo 'cpu_pattern=X[0]' ;;
	3) echo 'cpu_pattern=C[0]' ;;
	4) echo "cpu_pattern=\"0[0-$LAST/2] 1[1-$LAST/2]\"" ;;
	5) echo 'cpu_pattern="N X[0]"' ;;
	6) echo 'cpu_pattern=0[*]' ;;
	esac
}

# bad_load K: an invalid load, which must fail and leave nothing loaded.
bad_load() {
	case $(($1 % 4)) in
	0) _a='cpu_pattern=0[99]' ;;
	1) _a=npartitions=$((NCPUS + 1)) ;;
	2) _a='cpu_pattern=0[5-3]' ;;
	3) _a=npartitions=abc ;;
	esac
	if insmod cpt.ko "$_a" 2>/dev/null; then
		error "invalid load $_a accepted"
		rmmod cpt
	else
		REFUSED=$((REFUSED + 1))
	fi
}

# with_consumers I: the consumer modules around a replacement and a CPU
# offline/online, and rmmod cpt refused meanwhile.
with_consumers() {
	insmod cpt_consumer.ko || error "cycle $1: cpt_consumer refused to load (its checks)"
	insmod cpt_live_consumer.ko || error "cycle $1: insmod cpt_live_consumer failed"
	rmmod cpt 2>/dev/null && error "cycle $1: rmmod cpt accepted under consumers"
	_c=$(($1 / 10 % LAST + 1))
	set_cpu $_c 0 || error "cycle $1: offline CPU $_c failed"
	echo $(($1 % 3)) >$N || error "cycle $1: npartitions write refused"
	set_cpu $_c 1 || error "cycle $1: online CPU $_c failed"
	_v=$(cat $LC)
	case $_v in PASS*) ;; *) error "cycle $1: consumer $_v" ;; esac
	rmmod cpt_live_consumer || error "cycle $1: rmmod cpt_live_consumer failed"
	rmmod cpt_consumer || error "cycle $1: rmmod cpt_consumer failed"
}

# cycle I: load with the I-th parameters, read, maybe replace and run the
# consumers, unload.
cycle() {
	case $(($1 % 4)) in
	0) set -- "$1" ;;
	1) set -- "$1" npartitions=$(($1 / 4 % NCPUS + 1)) ;;
	2) set -- "$1" "$(load_pattern $(($1 / 4)))" ;;
	3) set -- "$1" cpu_npartitions=$(($1 / 4 % HALF + 1)) ;;
	esac
	_i=$1
	shift
	if ! insmod cpt.ko "$@"; then
		error "cycle $_i: insmod cpt.ko $* failed"
		return
	fi
	cat $P/cpu_partition_table $P/cpu_partition_distance >/dev/null ||
		error "cycle $_i: reading the table failed"
	[ $((_i % 3)) = 0 ] && { echo 2 >$N || error "cycle $_i: npartitions=2 refused"; }
	[ $((_i % 10)) = 5 ] && with_consumers "$_i"
	rmmod cpt || error "cycle $_i: rmmod cpt failed"
	[ $((_i % 5)) = 0 ] && bad_load $((_i / 5))
}

phase1() {
	section "phase 1: warm-up, then $CYCLES load/unload cycles"
	# The first load creates what stays for good (sysfs classes, caches).
	cycle 5
	snapshot base
	snapshot base2
	show_delta "noise, nothing between two snapshots" base base2
	_t=$(now)
	_i=0
	while [ "$_i" -lt "$CYCLES" ]; do
		cycle "$_i"
		_i=$((_i + 1))
	done
	echo "  $CYCLES cycles in $(elapsed "$_t")s"
	snapshot cycled
	show_delta "after $CYCLES cycles" base2 cycled
	SLAB_D=$(delta slab base2 cycled)
	VM_D=$(delta vmalloc base2 cycled)
	TOP=$(cache_growth base2 cycled | head -n 1)
}

# leak_verdict: empty when phase 1 stayed under the bounds, else why not.
leak_verdict() {
	_objs_max=${OBJS_MAX:-$((CYCLES / 2 > 20 ? CYCLES / 2 : 20))}
	[ "$SLAB_D" -le "$SLAB_MAX" ] ||
		echo "slab grew by ${SLAB_D} KiB > $SLAB_MAX KiB;"
	[ "$VM_D" -le "$VMALLOC_MAX" ] ||
		echo "VmallocUsed grew by ${VM_D} KiB > $VMALLOC_MAX KiB;"
	[ -z "$TOP" ] || [ "$(echo "$TOP" | awk '{ print $2 + 0 }')" -lt "$_objs_max" ] ||
		echo "cache ${TOP% *} objects (>= $_objs_max);"
}

# ---------------------------------------------------------------------------
# Phase 2: readers, writer and hotplug at once.

# At most MAXOFF non-zero CPUs offline at a time, so that every write of
# WRITES stays valid whatever the hotplug loop is doing: npartitions at
# most NPMAX, with CPU 0 excluded too, is below the online CPUs; every node
# keeps CPUs.
MAXOFF=$((NCPUS >= 8 ? 2 : 1))
NPMAX=$((NCPUS - MAXOFF - 1 > 4 ? 4 : NCPUS - MAXOFF - 1))

# valid_write K: "FILE VALUE" of the K-th valid write.
valid_write() {
	case $(($1 % 10)) in
	0|2|4|6|8) echo "$N $(($1 / 2 % (NPMAX + 1)))" ;;
	1) echo "$C N" ;;
	3) echo "$C X[0]" ;;
	5) echo "$C 0[*]" ;;
	7) if [ "$NNODES" -ge 2 ]; then echo "$C N 0[0] 1[1]"; else echo "$C N"; fi ;;
	9) echo "$C N X[0]" ;;
	esac
}

# invalid_write K: "ERRNO-TEXT|FILE|VALUE" of the K-th invalid write.
invalid_write() {
	case $(($1 % 5)) in
	0) echo "Numerical result out of range|$N|99" ;;
	1) echo "Invalid argument|$N|abc" ;;
	2) echo "Invalid argument|$C|0[5-3]" ;;
	3) echo "No such device|$C|0[99]" ;;
	4) echo "Invalid argument|$C|N N" ;;
	esac
}

# writer END: valid writes, and every 8th an invalid one, until uptime END.
# Prints "replacements refused" counts.
writer() {
	_k=0
	_ok=0
	_ref=0
	while [ "$(cut -d. -f1 /proc/uptime)" -lt "$1" ]; do
		if [ $((_k % 8)) = 7 ]; then
			_w=$(invalid_write $((_k / 8)))
			_e=${_w%%|*}
			_w=${_w#*|}
			_r=$(put "${_w%%|*}" "${_w#*|}")
			if [ "$_r" = "$_e" ]; then
				_ref=$((_ref + 1))
			else
				echo "ERROR: invalid write '${_w#*|}' to ${_w%%|*}: '$_r', expected '$_e'"
			fi
		else
			_w=$(valid_write "$_k")
			_r=$(put "${_w%% *}" "${_w#* }")
			if [ "$_r" = ok ]; then
				_ok=$((_ok + 1))
			else
				echo "ERROR: valid write '${_w#* }' to ${_w%% *} refused: $_r ($(cat $SYS/online) online)"
			fi
		fi
		_k=$((_k + 1))
	done
	echo "WRITES $_ok $_ref"
}

# hotplug_loop: random non-zero CPUs offline and online, at most MAXOFF
# offline at once, until /tmp/stop; one line per operation in /tmp/hp.log.
hotplug_loop() {
	_off=
	while [ ! -e /tmp/stop ]; do
		_c=$((RANDOM % LAST + 1))
		_n=$(echo $_off | wc -w)
		case " $_off " in
		*" $_c "*) _to=1 ;;
		*) if [ "$_n" -lt "$MAXOFF" ]; then _to=0; else _c=${_off%% *}; _to=1; fi ;;
		esac
		if set_cpu "$_c" "$_to" 2>/dev/null; then
			echo "ok $_c $_to"
			if [ "$_to" = 0 ]; then
				_off="$_off $_c"
			else
				_off=$(echo $_off | tr ' ' '\n' | grep -vx "$_c" | tr '\n' ' ')
			fi
		else
			echo "error $_c $_to"
		fi
	done >/tmp/hp.log
}

# check_reads KIND TAG...: check every read of the readers TAG..., one
# record per "--" line; prints "reads bad" and the first bad records.
check_reads() {
	_kind=$1
	shift
	for _t; do cat /tmp/reads."$_t".*; done | awk -v kind="$_kind" \
		-v ncpus="$NCPUS" -v npmax="$NPMAX" -v pats="$PATTERNS" '
	function bad(why) { nbad++; if (nbad <= 3) printf "ERROR: %s read %d: %s\n%s", kind, n, why, rec > "/dev/stderr" }
	function check(   i, j, f, k, a, m) {
		if (nl == 0) return bad("empty")
		if (kind == "table") {
			for (i = 1; i <= nl; i++) {
				if (line[i] !~ /^[0-9]+\t:( [0-9]+)*$/) return bad("line " i " malformed")
				split(line[i], a, "\t:")
				if (a[1] != i - 1) return bad("line " i " is partition " a[1])
				m = split(a[2], f, " ")
				for (j = 1; j <= m; j++) {
					if (f[j] >= ncpus) return bad("CPU " f[j])
					if (seen[f[j]] == n) return bad("CPU " f[j] " twice")
					seen[f[j]] = n
					if (j > 1 && f[j] <= f[j - 1]) return bad("not ascending")
				}
			}
			if (nl > ncpus) return bad(nl " partitions")
		} else if (kind == "distance") {
			for (i = 1; i <= nl; i++) {
				if (line[i] !~ /^[0-9]+\t:( [0-9]+:[0-9]+)*$/) return bad("row " i " malformed")
				split(line[i], a, "\t:")
				if (a[1] != i - 1) return bad("row " i " is partition " a[1])
				m = split(a[2], f, " ")
				if (m != nl) return bad("row " i " has " m " entries for " nl " rows")
				for (j = 1; j <= m; j++) {
					split(f[j], k, ":")
					if (k[1] != j - 1) return bad("row " i " entry " j " is " k[1])
					if (i == j && k[2] != 10) return bad("row " i " distance to itself " k[2])
				}
			}
		} else if (kind == "npartitions") {
			if (nl != 1 || line[1] !~ /^[0-9]+$/ || line[1] > npmax) return bad("value")
		} else if (nl != 1 || index("|" pats "|", "|" line[1] "|") == 0) {
			return bad("value")
		}
	}
	$0 == "--" { n++; check(); nl = 0; rec = ""; next }
	{ line[++nl] = $0; rec = rec "    | " $0 "\n" }
	END { print n + 0, nbad + 0 }'
}

# every valid cpu_pattern value, for check_reads
PATTERNS="|N|X[0]|0[*]|N 0[0] 1[1]|N X[0]"

phase2() {
	section "phase 2: $SECS s of readers, writes and hotplug"
	insmod cpt.ko || { error "phase 2: insmod cpt.ko failed"; return; }
	FRESH=$(table)
	insmod cpt_live_consumer.ko || error "phase 2: insmod cpt_live_consumer failed"
	READ_PAUSE=10000
	start_readers 2 tbl "cat $P/cpu_partition_table"
	start_readers 1 tbl7 "dd if=$P/cpu_partition_table bs=7 2>/dev/null || echo READ-ERROR"
	start_readers 1 dst "cat $P/cpu_partition_distance"
	start_readers 1 dst16 "dd if=$P/cpu_partition_distance bs=16 2>/dev/null || echo READ-ERROR"
	start_readers 1 np "cat $N"
	start_readers 1 pat "cat $C"
	hotplug_loop &
	_t=$(now)
	writer $(($(cut -d. -f1 /proc/uptime) + SECS)) >/tmp/writer.log
	stop_readers
	echo "  ran $(elapsed "$_t")s"
	grep '^ERROR' /tmp/writer.log | head -n 20
	ERRORS=$((ERRORS + $(grep -c '^ERROR' /tmp/writer.log)))
	set -- $(sed -n 's/^WRITES //p' /tmp/writer.log)
	REPL=${1:-0}
	REFUSED=$((REFUSED + ${2:-0}))
	HOTPLUG=$(grep -c '^ok' /tmp/hp.log)
	_e=$(grep -c '^error' /tmp/hp.log)
	[ "$_e" = 0 ] || error "$_e hotplug operations failed: $(grep '^error' /tmp/hp.log | head -n 3 | tr '\n' ';')"
	READS=0
	for _kt in "table tbl tbl7" "distance dst dst16" "npartitions np" "pattern pat"; do
		set -- $(check_reads $_kt 2>/tmp/bad.reads)
		echo "  ${_kt%% *}: $1 reads, $2 bad"
		sed -n 1,20p /tmp/bad.reads
		READS=$((READS + $1))
		ERRORS=$((ERRORS + $2))
	done
	rm -f /tmp/reads.*
	phase2_end
}

# phase2_end: every CPU back, the fresh table back, the consumer satisfied,
# both modules unloaded, nothing left held.
phase2_end() {
	for _c in $(seq 1 "$LAST"); do
		cpu_online "$_c" || set_cpu "$_c" 1 || error "online CPU $_c at the end"
	done
	[ "$(put $C '')" = ok ] || error "clearing cpu_pattern at the end"
	[ "$(put $N 0)" = ok ] || error "npartitions=0 at the end"
	[ "$(table)" = "$FRESH" ] || error "the table at the end is not the fresh one: $(table | tr '\n' ';')"
	[ "$(table)" = "$(plan)" ] || error "the table at the end is not cpt-plan's"
	_v=$(cat $LC)
	case $_v in PASS*) ;; *) error "consumer at the end: $_v" ;; esac
	rmmod cpt_live_consumer || error "rmmod cpt_live_consumer at the end"
	rmmod cpt || error "rmmod cpt at the end"
	! dmesg | grep -q -e 'still held at unload' -e 'did not unregister' ||
		error "the kernel log says: $(dmesg | grep -e 'still held at unload' -e 'did not unregister' | head -n 1)"
}

# ---------------------------------------------------------------------------
echo "soak: $CYCLES cycles, $SECS s; $NCPUS CPUs ($(cat $SYS/online) online), $NNODES nodes, $(uname -r); cmdline: $(cat /proc/cmdline)"
SLAB_D=0
VM_D=0
TOP=
READS=0
REPL=0
HOTPLUG=0
phase1
leak=$(leak_verdict)
phase2
snapshot end
show_delta "from before phase 1 to after phase 2 (information)" base2 end

echo "soak: kernel=$(uname -r) cpus=$NCPUS cycles=$CYCLES slab_delta=$(printf '%+d' "$SLAB_D")KiB" \
	"vmalloc_delta=$(printf '%+d' "$VM_D")KiB seconds=$SECS reads=$READS replacements=$REPL" \
	"hotplug=$HOTPLUG refused=$REFUSED errors=$ERRORS"
if [ -z "$leak" ] && [ "$ERRORS" = 0 ]; then
	echo "soak: PASS"
else
	echo "soak: FAIL ($leak${leak:+ }$ERRORS errors)"
	exit 1
fi
