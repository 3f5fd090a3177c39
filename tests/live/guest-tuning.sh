# SPDX-License-Identifier: GPL-2.0
#
# sysctl writes (valid, invalid, unprivileged), replacements under
# concurrent readers and hotplug cycles, in one boot of
#   scripts/vm-run --smp 4,sockets=1,cores=2,threads=2 --nodes '0-3;'
# 4 CPUs (siblings 2k, 2k+1), node 1 memory-only; few vCPUs keep hotplug
# fast under TCG.  Needs lib.sh first (tests/live/run.sh concatenates).
#
# LIVE_CYCLES (default 1000) sysctl writes under concurrent reads and
# LIVE_HOTPLUG (default 200) offline/online cycles.

CYCLES=${LIVE_CYCLES:-1000}
HOTPLUG=${LIVE_HOTPLUG:-200}
NCPUS=$(ncpus)
LAST=$((NCPUS - 1))
HALF=$((NCPUS / 2))

section "load"
check "insmod cpt.ko" insmod cpt.ko
FRESH=$(table)
same "table at load = cpt-plan" "$FRESH" "$(plan)"
check "insmod cpt_live_consumer.ko" insmod cpt_live_consumer.ko
verify_consumer "at load"

# ---------------------------------------------------------------------------
section "valid sysctl writes"
check "sysctl -w lnet.cpu_npartitions=3" sysctl -w lnet.cpu_npartitions=3
same "table for 3" "$(table)" "$(plan --npartitions 3)"
same "cpu_npartitions reads 3" "$(cat $P/cpu_npartitions)" 3
same "distance for 3" "$(distance)" "$(plan --npartitions 3 --distance)"
same "module parameter keeps its load value" \
	"$(cat /sys/module/cpt/parameters/npartitions)" 0
check 'sysctl -w lnet.cpu_pattern="N"' sysctl -w lnet.cpu_pattern="N"
same "table for N with 3" "$(table)" "$(plan --npartitions 3 --pattern N)"
same "cpu_pattern reads N" "$(cat $P/cpu_pattern)" N
EXPLICIT="0[0-$((HALF - 1))] 1[$HALF-$LAST]"
same "echo '$EXPLICIT' > cpu_pattern" "$(put $P/cpu_pattern "$EXPLICIT")" ok
same "explicit table" "$(table)" "$(plan --pattern "$EXPLICIT")"
same "cpu_pattern reads it back" "$(cat $P/cpu_pattern)" "$EXPLICIT"
same "npartitions=2 under an explicit pattern is accepted" "$(put $P/cpu_npartitions 2)" ok
same "... the pattern still sets the table" "$(table)" "$(plan --pattern "$EXPLICIT")"
same "... cpu_npartitions reads 2" "$(cat $P/cpu_npartitions)" 2
check "... and the log says it is ignored" sh -c "dmesg | tail -n 3 | grep -q 'npartitions=2 ignored'"
same "empty cpu_pattern" "$(put $P/cpu_pattern '')" ok
same "table for 2, no pattern" "$(table)" "$(plan --npartitions 2)"
same "X[0] with 2" "$(put $P/cpu_pattern 'X[0]')" ok
same "table for X[0]" "$(table)" "$(plan --npartitions 2 --pattern 'X[0]')"
LONG=$(pad 4096 "0[0-$LAST]")
same "a 4096-byte pattern plus newline" "$(put $P/cpu_pattern "$LONG")" ok
same "its table" "$(table)" "$(plan --pattern "0[0-$LAST]")"
same "cpu_pattern reads back 4096 bytes and a newline" "$(cat $P/cpu_pattern | wc -c)" 4097
same "pattern cleared" "$(put $P/cpu_pattern '')" ok
same "npartitions back to 0" "$(put $P/cpu_npartitions 0)" ok
same "back to the fresh table" "$(table)" "$FRESH"
verify_consumer "after valid writes"

# ---------------------------------------------------------------------------
section "invalid sysctl writes"
# Every bad value, at load and through sysctl, with its errno and log line,
# is tests/badparam/cases (make test-badparam); privileges are below.
N=$P/cpu_npartitions
C=$P/cpu_pattern
MSG_REVERSED=$(put $C "0[5-3]" >/dev/null; lastk)
same "table after the invalid writes" "$(table)" "$FRESH"

# ---------------------------------------------------------------------------
section "unprivileged writers"
mkdir -p /etc
grep -q '^nobody:' /etc/passwd 2>/dev/null ||
	echo 'nobody:x:1000:1000:nobody:/tmp:/bin/sh' >>/etc/passwd
r=$(su -s /bin/sh nobody -c "echo 3 > $N" 2>&1)
check "uid 1000: refused ($r)" contains "$r" "Permission denied"
r=$(su -s /bin/sh nobody -c "echo N > $C" 2>&1)
check "uid 1000, cpu_pattern: refused ($r)" contains "$r" "Permission denied"
# Root of a new user namespace: the file mode lets it in, cpt does not.
r=$(unshare -r sh -c "echo 3 > $N" 2>&1)
check "root in a user namespace: EPERM ($r)" contains "$r" "Operation not permitted"
r=$(unshare -r sh -c "echo N > $C" 2>&1)
check "root in a user namespace, cpu_pattern: EPERM ($r)" contains "$r" "Operation not permitted"
same "unprivileged writes changed nothing" "$(table)" "$FRESH"
same "cpu_npartitions still 0" "$(cat $N)" 0
check "anyone may read" su -s /bin/sh nobody -c "cat $P/cpu_partition_table $N $C >/dev/null"

# ---------------------------------------------------------------------------
section "$CYCLES replacements under 5 concurrent readers"
# Each file keeps its last 2048 small texts, more than CYCLES: however
# starved a reader, it never gets EAGAIN here.
rm -f /tmp/exp.table /tmp/exp.dist
for n in 0 1 2 3 4; do
	plan --npartitions $n | sum >>/tmp/exp.table
	plan --npartitions $n --distance | sum >>/tmp/exp.dist
done
start_readers 3 tbl "cat $P/cpu_partition_table"
# One byte per read(): every call after the first continues the same table.
start_readers 1 tbl1 "dd if=$P/cpu_partition_table bs=1 2>/dev/null"
start_readers 1 dst "cat $P/cpu_partition_distance"
repeat "$CYCLES" 'echo $((i % 5)) >$N'
stop_readers
check "$CYCLES writes succeeded in ${wt}s" [ "$errs" = 0 ]
nt=$(sort_reads tbl)
n1=$(sort_reads tbl1)
nd=$(sort_reads dst)
check "$nt table reads, $(ls /tmp/out.tbl | wc -l) distinct, each one whole planned table" \
	in_set tbl /tmp/exp.table
check "$nd distance reads, $(ls /tmp/out.dst | wc -l) distinct, each one whole planned distance" \
	in_set dst /tmp/exp.dist
check "$n1 reads of one byte per call, $(ls /tmp/out.tbl1 | wc -l) distinct, each one whole planned table" \
	in_set tbl1 /tmp/exp.table
check "readers saw more than one table" [ "$(ls /tmp/out.tbl | wc -l)" -gt 1 ]
echo 0 >$N
same "after the cycles: the fresh table" "$(table)" "$FRESH"
verify_consumer "after $CYCLES replacements"

# ---------------------------------------------------------------------------
section "a slow reader across replacements"
# replace_and_read N FILE...: N replacements, each followed by a read of
# every FILE (which renders its text of the new table).
replace_and_read() {
	_n=$1
	shift
	repeat "$_n" "echo \$((i % 3 + 1)) >$N; cat $* >/dev/null"
}
# The texts of each file are kept apart: 40 tables whose other files are
# read must not push out the table text a slow reader is in the middle of.
echo 2 >$N
WANT=$(table)
exec 3<$P/cpu_partition_table
dd bs=3 count=1 <&3 >/tmp/slow.out 2>/dev/null
replace_and_read 40 $P/cpu_partition_distance $N $C
cat <&3 >>/tmp/slow.out 2>/tmp/slow.err
exec 3<&-
same "3 bytes, 40 replacements (other files read), the rest: the first table" \
	"$(cat /tmp/slow.out)" "$WANT"
# Newer texts of the same file: a file keeps its small texts for 2048
# replacements, so a reader 100 tables behind still gets its own.
echo 2 >$N
exec 3<$P/cpu_partition_table
dd bs=3 count=1 <&3 >/tmp/slow.out 2>/dev/null
replace_and_read 100 $P/cpu_partition_table
cat <&3 >>/tmp/slow.out 2>/tmp/slow.err
exec 3<&-
same "3 bytes, 100 replacements (table read), the rest: the first table" \
	"$(cat /tmp/slow.out)" "$WANT"
# Big texts are kept up to 512 KiB a file (beyond the last 32): 150 texts
# of a 4 KiB pattern push the first one out.  The reader must start
# again, and is told.
replace_long() { repeat "$1" 'put $C "$LONG" >/dev/null; cat $C >/dev/null'; }
echo 0 >$N
put $C "$LONG" >/dev/null
exec 3<$C
dd bs=3 count=1 <&3 >/dev/null 2>&1
replace_long 150
cat <&3 >/dev/null 2>/tmp/slow.err
exec 3<&-
check "3 bytes of a 4 KiB pattern, 150 replacements: EAGAIN, not another text's end" \
	grep -q 'temporarily unavailable' /tmp/slow.err
# A reader that got the whole text and comes back for the end (as cat
# does) finds it, even when its text is gone.
exec 3<$C
dd bs=8192 count=1 <&3 >/dev/null 2>&1
replace_long 150
cat <&3 >/tmp/slow.out 2>/tmp/slow.err
_rc=$?
exec 3<&-
check "whole 4 KiB pattern, 150 replacements, then end of file: no error" \
	sh -c "[ $_rc = 0 ] && [ ! -s /tmp/slow.out ] && [ ! -s /tmp/slow.err ]"
put $C '' >/dev/null
echo 0 >$N
same "a fresh read gives the table in force" "$(table)" "$FRESH"
# ---------------------------------------------------------------------------
section "$HOTPLUG offline/online cycles under a reader"
# Two partitions, so that a CPU coming back has a partition to return to.
echo 2 >$N
BASE=$(table)
rm -f /tmp/exp.hp
echo "$BASE" | sum >>/tmp/exp.hp
for c in $(seq 1 $((NCPUS - 1))); do
	echo "$BASE" | drop_cpu "$c" | sum >>/tmp/exp.hp
done
READ_PAUSE=20000
start_readers 1 hp "cat $P/cpu_partition_table"
READ_PAUSE=0
# CPU 0 stays: some kernels cannot take it offline.
repeat "$HOTPLUG" 'c=$((i % (NCPUS - 1) + 1)); set_cpu $c 0 && set_cpu $c 1'
stop_readers
check "$HOTPLUG cycles in ${wt}s, no hotplug error" [ "$errs" = 0 ]
nh=$(sort_reads hp)
check "$nh reads, $(ls /tmp/out.hp | wc -l) distinct, each the table with at most the cycling CPU unlisted" \
	in_set hp /tmp/exp.hp
same "after the cycles: the same table" "$(table)" "$BASE"
verify_consumer "after $HOTPLUG hotplug cycles"
echo 0 >$N
same "then npartitions=0: the fresh table" "$(table)" "$FRESH"

# ---------------------------------------------------------------------------
section "unload"
check "rmmod cpt_live_consumer" rmmod cpt_live_consumer
check "rmmod cpt" rmmod cpt
check "no table or notifier leaked" sh -c "! dmesg | grep -q -e 'still held at unload' -e 'did not unregister'"
insmod cpt.ko cpu_pattern="0[5-3]" 2>/dev/null
same "load-time message = sysctl message" "$(lastk)" "$MSG_REVERSED"
check "insmod cpt.ko again" insmod cpt.ko
same "a fresh load gives the same table" "$(table)" "$FRESH"
check "rmmod cpt" rmmod cpt

finish
