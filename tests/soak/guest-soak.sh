#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The soak, in one boot of, for example,
#   scripts/vm-run --smp 8,sockets=2,cores=2,threads=2 --nodes '0-3;4-7'
#                  --dist 0-1=21 --append 'slub_debug=FZPU panic_on_warn=1'
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

# shellcheck source=tests/lib/guest-lib.sh
. /cpt/guest-lib.sh

CYCLES=${SOAK_CYCLES:-500}
KASAN=$(dmesg | grep -c 'KernelAddressSanitizer initialized')
SECS=${SOAK_SECONDS:-300}
# Bounds on the growth over phase 1, from runs on 6.1, 6.12 and 6.1-rt
# with no cycle between two snapshots and with 60 and 500 clean cycles:
# the slab figure moved by less than 10 KiB, no cache by more than 8
# objects beyond the tasks' (15 for the VFS caches), the tasks by up to
# 7 (kworkers), vmalloc by 0.  One leaked kmalloc(128) per load (a test
# patch) gave 656 objects of 384 bytes (with slub_debug=FZPU) in
# kmalloc-128 over 500 cycles; a kmalloc(64) per cycle would add 500
# objects of 256 bytes (125 KiB; 31 KiB without slub_debug), and at 60
# cycles still 60 objects, above OBJS_MAX + 2 x 7.  A vmalloc leak costs
# at least a page per cycle, 240 KiB at 60 cycles.
SLAB_MAX=${SOAK_SLAB_MAX_KIB:-32}
OBJS_MAX=${SOAK_OBJS_MAX:-20}
VMALLOC_MAX=${SOAK_VMALLOC_MAX_KIB:-64}
# Each extra task (kworker) also pins about 1.5 KiB of small kmalloc
# objects (struct kthread, struct worker, ...): allowed on top of SLAB_MAX.
TASK_KIB=2
# SOAK_NOISE=0 skips the noise snapshot before the cycles and the one
# after phase 2 (16 s): make test-soak.
NOISE=${SOAK_NOISE:-1}
# Caches that follow the number of tasks, or the VFS's whims, rather than
# cpt: the slab figure leaves them out (the task count and each cache's
# growth are still checked).  mm_struct: an idle CPU keeps the mm of the
# last process it ran (lazy TLB); radix_tree_node: the pid IDR's nodes;
# sysfs inodes and dentries come and go by a dozen across drop_caches.
TASK_CACHES="task_struct signal_cache sighand_cache pid cred_jar files_cache fs_cache mm_struct radix_tree_node"
TASK_CACHES="$TASK_CACHES dentry inode_cache lsm_inode_cache proc_inode_cache shmem_inode_cache"
N=$P/cpu_npartitions
C=$P/cpu_pattern
NCPUS=$(ncpus)
LAST=$((NCPUS - 1))
HALF=$((NCPUS / 2))
NNODES=$(nfiles "/sys/devices/system/node/node[0-9]*")
ERRORS=0
REFUSED=0

# A soak error: counted, and shown (the first 20 of each kind are enough).
error() {
	ERRORS=$((ERRORS + 1))
	[ "$ERRORS" -le 50 ] && echo "ERROR: $*"
}

# ---------------------------------------------------------------------------
# Measurement.

# A snapshot reads the counters three times, a second apart, after the
# page and dentry caches are dropped and 5 s have passed: kfree_rcu()
# batches its frees every 5 s, and exited tasks, their /proc inodes and
# dentries go through RCU too.  Each cache counts with its lowest reading,
# so that objects of a process in the middle of exiting (the reader of
# the previous second) are not counted, while a leak, there in every
# reading, is.  Under slub_debug (F, Z, P or U) no cache keeps per-CPU
# slabs, so /proc/slabinfo's active objects are exact.  vmap_area is left
# out: it holds the lazily freed kernel stacks of every exited process
# until the next purge, so it grows with any fork and means nothing here;
# vmalloc leaks show in /proc/vmallocinfo, counted without the stacks
# (kernel_clone(), copy_process()) and without the areas waiting for a
# purge ("unpurged"), as the median of the three readings (a reading can
# miss an area being unmapped meanwhile).  The tasks (processes and kernel
# threads) are counted too: see TASK_CACHES.
reading() {
	awk 'NR > 2 && $1 != "vmap_area" { print $1, $2, $4 }' /proc/slabinfo >"/tmp/slab.$1"
	grep -v -e unpurged -e kernel_clone -e copy_process -e dup_task_struct \
		-e alloc_thread_stack /proc/vmallocinfo |
		awk '{ s += $2 } END { printf "%d\n", s / 1024 }' >>/tmp/vmi
	# the threads of /proc/loadavg: listing /proc would add dentries
	awk '{ split($4, t, "/"); print t[2] }' /proc/loadavg >>/tmp/ntasks
	awk '/^SUnreclaim:/ { s = $2 } /^VmallocUsed:/ { v = $2 }
	     END { print "sunreclaim", s; print "vmalloc_used", v }' /proc/meminfo >"/tmp/mem.$1"
}

# snapshot TAG: /tmp/slab.TAG ("cache active_objs objsize" lines) and
# /tmp/snap.TAG ("key value" lines: slab, vmalloc, sunreclaim and
# vmalloc_used in KiB, tasks).
snapshot() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 5
	: >/tmp/vmi
	: >/tmp/ntasks
	for _r in 1 2 3; do
		sleep 1
		reading "$1.$_r"
	done
	cat "/tmp/slab.$1.1" "/tmp/slab.$1.2" "/tmp/slab.$1.3" |
		awk '!($1 in m) || $2 < m[$1] { m[$1] = $2; z[$1] = $3 }
		     END { for (c in m) print c, m[c], z[c] }' | sort >"/tmp/slab.$1"
	{
		awk -v t=" $TASK_CACHES " '{ s += $2 * $3 } !index(t, " " $1 " ") { x += $2 * $3 }
		     END { printf "slab %d\nslab_x %d\n", s / 1024, x / 1024 }' "/tmp/slab.$1"
		sort -n /tmp/vmi | sed -n '2s/^/vmalloc /p'
		sort -n /tmp/ntasks | sed -n '1s/^/tasks /p'
		cat "/tmp/mem.$1.3"
	} >"/tmp/snap.$1"
}

# delta KEY A B: KEY of snapshot B minus snapshot A.
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

# show_delta WHAT A B: the figures, and the caches that moved.
show_delta() {
	echo "  $1: slab $(delta slab "$2" "$3") KiB ($(delta slab_x "$2" "$3") KiB without" \
		"the task and VFS caches), tasks $(delta tasks "$2" "$3"), vmalloc $(delta vmalloc "$2" "$3") KiB" \
		"(SUnreclaim $(delta sunreclaim "$2" "$3") KiB, VmallocUsed $(delta vmalloc_used "$2" "$3") KiB)"
	cache_growth "$2" "$3" | awk '$2 >= 3 || $2 <= -3' | head -n 12 | sed 's/^/    cache /'
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

# warm_up: what the first time creates for good (sysfs inodes and dentries
# of the files used, the measurement's own files, caches) before the first
# snapshot.
warm_up() {
	for _t in base base2 cycled end; do
		for _r in "" .1 .2 .3; do
			: >"/tmp/slab.$_t$_r"
			: >"/tmp/mem.$_t$_r"
		done
		: >"/tmp/snap.$_t"
	done
	: >/tmp/vmi
	: >/tmp/ntasks
	: >/tmp/wr.err
	cycle 5
	for _c in $(seq 1 "$LAST"); do
		if ! { set_cpu "$_c" 0 && set_cpu "$_c" 1; }; then
			error "warm-up: offline/online CPU $_c"
		fi
	done
}

phase1() {
	section "phase 1: warm-up, then $CYCLES load/unload cycles"
	warm_up
	if [ "$NOISE" = 1 ]; then
		snapshot base
		snapshot base2
		show_delta "noise, nothing between two snapshots" base base2
	else
		snapshot base2
	fi
	_t=$(now)
	_i=0
	while [ "$_i" -lt "$CYCLES" ]; do
		cycle "$_i"
		_i=$((_i + 1))
	done
	echo "  $CYCLES cycles in $(elapsed "$_t")s"
	snapshot cycled
	show_delta "after $CYCLES cycles" base2 cycled
	SLAB_D=$(delta slab_x base2 cycled)
	VM_D=$(delta vmalloc base2 cycled)
	TASKS_D=$(delta tasks base2 cycled)
}

# leak_verdict: empty when phase 1 stayed under the bounds, else why not.
# A task that outlives the cycles (a kworker the workqueue pools added,
# kept 5 minutes idle) pins a task_struct and a few small objects of other
# caches, so each cache may also grow by twice the growth of the tasks.
leak_verdict() {
	# KASAN (the debug kernels) keeps freed objects in its quarantine,
	# and kmemleak's own objects grow with every allocation: no slab
	# bound holds there.  kmemleak's scan after the command (vm-run)
	# reports an object that nothing references instead.
	if [ "$KASAN" != 0 ]; then
		echo "  (KASAN: slab and vmalloc bounds not applied; kmemleak checks)" >&2
		return
	fi
	_td=$((TASKS_D > 0 ? TASKS_D : 0))
	_smax=$((SLAB_MAX + TASK_KIB * _td))
	[ "$SLAB_D" -le "$_smax" ] ||
		echo "slab grew by ${SLAB_D} KiB (without the task and VFS caches) > $_smax KiB;"
	[ "$VM_D" -le "$VMALLOC_MAX" ] ||
		echo "vmalloc grew by ${VM_D} KiB > $VMALLOC_MAX KiB;"
	[ "$TASKS_D" -lt "$OBJS_MAX" ] ||
		echo "$TASKS_D more tasks (>= $OBJS_MAX);"
	cache_growth base2 cycled | awk -v max=$((OBJS_MAX + 2 * _td)) -v td="$_td" '
		$1 == "task_struct" { $2 -= td }
		$2 + 0 >= max { printf "cache %s grew by %d objects (>= %d);\n", $1, $2, max }'
}

# ---------------------------------------------------------------------------
# Phase 2: readers, writer and hotplug at once.

# At most MAXOFF non-zero CPUs offline at a time, so that every write of
# WRITES stays valid whatever the hotplug loop is doing: npartitions at
# most NPMAX, with CPU 0 excluded too, is below the online CPUs; every node
# keeps CPUs.
MAXOFF=$((NCPUS >= 8 ? 2 : 1))
NPMAX=$((NCPUS - MAXOFF - 1 > 4 ? 4 : NCPUS - MAXOFF - 1))

# wr FILE VALUE: VALUE and a newline in one write(), by the shell itself
# (no fork, so that the writer keeps up under TCG); WR is "ok" or the
# error text ("Invalid argument").
wr() {
	if echo "$2" >"$1" 2>/tmp/wr.err; then
		WR=ok
	else
		read -r WR </tmp/wr.err
		WR=${WR##*: }
	fi
}

# valid_write K: WF and WV, the file and value of the K-th valid write.
valid_write() {
	WF=$C
	case $(($1 % 10)) in
	0|2|4|6|8) WF=$N; WV=$(($1 / 2 % (NPMAX + 1))) ;;
	1) WV=N ;;
	3) WV='X[0]' ;;
	5) WV='0[*]' ;;
	7) if [ "$NNODES" -ge 2 ]; then WV='N 0[0] 1[1]'; else WV=N; fi ;;
	9) WV='N X[0]' ;;
	esac
}

# invalid_write K: WE, WF and WV, the errno text, file and value of the
# K-th invalid write.
invalid_write() {
	WF=$C
	case $(($1 % 5)) in
	0) WE="Numerical result out of range"; WF=$N; WV=-1 ;;
	1) WE="Invalid argument"; WF=$N; WV=abc ;;
	2) WE="Invalid argument"; WV='0[5-3]' ;;
	3) WE="No such device"; WV='0[99]' ;;
	4) WE="Invalid argument"; WV='N N' ;;
	esac
}

# writer END: valid writes, every 8th an invalid one, until uptime END;
# counts REPL and REFUSED.
writer() {
	_k=0
	while read -r _up _ </proc/uptime && [ "${_up%.*}" -lt "$1" ]; do
		if [ $((_k % 8)) = 7 ]; then
			invalid_write $((_k / 8))
			wr "$WF" "$WV"
			if [ "$WR" = "$WE" ]; then
				REFUSED=$((REFUSED + 1))
			else
				error "invalid write '$WV' to ${WF##*/}: '$WR', expected '$WE'"
			fi
		else
			valid_write "$_k"
			wr "$WF" "$WV"
			if [ "$WR" = ok ]; then
				REPL=$((REPL + 1))
			else
				error "valid write '$WV' to ${WF##*/} refused: $WR ($(cat $SYS/online) online)"
			fi
		fi
		_k=$((_k + 1))
	done
}

# hotplug_loop: random non-zero CPUs offline and online, at most MAXOFF
# offline at once, until /tmp/stop; "ok CPU STATE" or "error CPU STATE"
# per operation in /tmp/hp.log.  The pause gives the writer a window: a
# sysctl write waits for a hotplug operation in progress, and one takes a
# second or more under TCG.
hotplug_loop() {
	_n=0
	while [ ! -e /tmp/stop ]; do
		# shellcheck disable=SC3028 # busybox ash has RANDOM
		_c=$((RANDOM % LAST + 1))
		read -r _s <$SYS/cpu$_c/online
		if [ "$_s" = 1 ]; then
			[ "$_n" -lt "$MAXOFF" ] || continue
			_to=0
		else
			_to=1
		fi
		if set_cpu "$_c" "$_to" 2>/dev/null; then
			echo "ok $_c $_to"
			_n=$((_to == 0 ? _n + 1 : _n - 1))
		else
			echo "error $_c $_to"
		fi
		usleep "${HP_PAUSE:-300000}"
	done >/tmp/hp.log
}

# check_reads KIND TAG...: check every read of the readers TAG..., one
# record per "--" line; prints "reads bad again" and the first bad
# records.  A read that got EAGAIN (its text was pushed out, see cpt(4))
# is the documented restart, not an error: counted as "again", not checked.
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
					if (k[2] < 10) return bad("row " i " entry " j " distance " k[2])
				}
			}
		} else if (kind == "npartitions") {
			if (nl != 1 || line[1] !~ /^[0-9]+$/ || line[1] > npmax) return bad("value")
		} else if (nl != 1 || index("|" pats "|", "|" line[1] "|") == 0) {
			return bad("value")
		}
	}
	$0 == "--" { n++; if (again) nagain++; else check(); nl = 0; rec = ""; again = 0; next }
	/READ-AGAIN|temporarily unavailable/ { again = 1 }
	{ line[++nl] = $0; rec = rec "    | " $0 "\n" }
	END { print n + 0, nbad + 0, nagain + 0 }'
}

# every valid cpu_pattern value, for check_reads
PATTERNS="|N|X[0]|0[*]|N 0[0] 1[1]|N X[0]"

# dd_read FILE BS TAG: the file in BS-byte reads; a failed read says
# whether it was the documented EAGAIN (READ-AGAIN) or anything else.
dd_read() {
	dd if="$1" bs="$2" 2>"/tmp/dd.$3.err" && return
	if grep -q 'temporarily unavailable' "/tmp/dd.$3.err"; then
		echo READ-AGAIN
	else
		echo READ-ERROR
	fi
}

phase2() {
	section "phase 2: $SECS s of readers, writes and hotplug"
	insmod cpt.ko || { error "phase 2: insmod cpt.ko failed"; return; }
	FRESH=$(table)
	insmod cpt_live_consumer.ko || error "phase 2: insmod cpt_live_consumer failed"
	READ_PAUSE=10000
	start_readers 2 tbl "cat $P/cpu_partition_table"
	start_readers 1 tbl7 "dd_read $P/cpu_partition_table 7 tbl7"
	start_readers 1 dst "cat $P/cpu_partition_distance"
	start_readers 1 dst16 "dd_read $P/cpu_partition_distance 16 dst16"
	start_readers 1 np "cat $N"
	start_readers 1 pat "cat $C"
	hotplug_loop &
	_t=$(now)
	writer $(($(cut -d. -f1 /proc/uptime) + SECS))
	stop_readers
	echo "  ran $(elapsed "$_t")s: $REPL replacements"
	HOTPLUG=$(grep -c '^ok' /tmp/hp.log)
	_e=$(grep -c '^error' /tmp/hp.log)
	[ "$_e" = 0 ] || error "$_e hotplug operations failed: $(grep '^error' /tmp/hp.log | head -n 3 | tr '\n' ';')"
	READS=0
	for _kt in "table tbl tbl7" "distance dst dst16" "npartitions np" "pattern pat"; do
		# shellcheck disable=SC2046,SC2086 # KIND and TAGs, then the three counts
		set -- $(check_reads $_kt 2>/tmp/bad.reads)
		echo "  ${_kt%% *}: $1 reads, $2 bad, $3 again (EAGAIN)"
		sed -n 1,20p /tmp/bad.reads
		READS=$((READS + $1))
		ERRORS=$((ERRORS + $2))
		AGAIN=$((AGAIN + $3))
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
TASKS_D=0
READS=0
AGAIN=0
REPL=0
HOTPLUG=0
phase1
leak=$(leak_verdict | tr "\n" " ")
phase2
if [ "$NOISE" = 1 ]; then
	snapshot end
	show_delta "from before phase 1 to after phase 2 (information)" base2 end
fi

echo "soak: kernel=$(uname -r) cpus=$NCPUS cycles=$CYCLES slab_delta=$(printf '%+d' "$SLAB_D")KiB" \
	"tasks_delta=$(printf '%+d' "$TASKS_D") vmalloc_delta=$(printf '%+d' "$VM_D")KiB seconds=$SECS reads=$READS again=$AGAIN replacements=$REPL" \
	"hotplug=$HOTPLUG refused=$REFUSED errors=$ERRORS"
if [ -z "$leak" ] && [ "$ERRORS" = 0 ]; then
	echo "soak: PASS"
else
	echo "soak: FAIL ($leak${leak:+ }$ERRORS errors)"
	exit 1
fi
