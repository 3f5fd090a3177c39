#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tests of scripts/cpt-plan on the topology fixtures (tests/fixtures/).
# Run by `make test-tool`, which builds the binaries named below.
#
# The expected outputs in tests/tool/expected/ were written by hand from
# doc/planner.md (see tests/tool/expected/README), never by running the
# planner.  Prints PASS/FAIL/SKIP per test (tests/lib/report.sh) and
# "N passed, N failed"; exits non-zero when a test fails.
#
# Environment:
#   CPT_PLAN         binary under test (default build/cpt-plan.san: ASan+UBSan)
#   CPT_PLAN_FAST    optimised build for timing and valgrind (scripts/cpt-plan)
#   CPT_PLAN_STATIC  static build (build/cpt-plan.static)
#   NUMA_CHECK       libnuma cross-check (build/numa_check)
#   CPT_BENCH        planner timing harness (build/cpt-bench)
set -u
cd "$(dirname "$0")/../.." || exit 2

PLAN=${CPT_PLAN:-build/cpt-plan.san}
FAST=${CPT_PLAN_FAST:-scripts/cpt-plan}
STATIC=${CPT_PLAN_STATIC:-build/cpt-plan.static}
NUMA_CHECK=${NUMA_CHECK:-build/numa_check}
BENCH=${CPT_BENCH:-build/cpt-bench}
F=tests/fixtures
S=tests/fixtures/sysfs
E=tests/tool/expected

# Sanitizer reports must not look like the tool's own exit statuses.
export ASAN_OPTIONS="${ASAN_OPTIONS:-exitcode=86:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-exitcode=87:print_stacktrace=1:halt_on_error=1}"

T=$(mktemp -d "${TMPDIR:-/tmp}/cpt-tool.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM

REPORT_DETAIL_LINES=25
# shellcheck source=tests/lib/report.sh
. tests/lib/report.sh

# No sanitizer report in a stderr file.
san_clean() {
	! grep -Eq 'Sanitizer|runtime error:' "$1"
}

# run ARGS...: run $PLAN, leaving $T/out, $T/err and $rc.
run() {
	"$PLAN" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}

# ran NAME CODE ARGS...: run ARGS...; true when $PLAN exited CODE with no
# sanitizer report, else NAME's FAIL line.
ran() {
	_name=$1 _code=$2
	shift 2
	run "$@"
	if [ "$rc" -ne "$_code" ]; then
		fail "$_name" "exit $rc, wanted $_code: $(cat "$T/err")"
	elif ! san_clean "$T/err"; then
		fail "$_name" "$(cat "$T/err")"
	else
		return 0
	fi
	return 1
}

# expect NAME EXPECTED WARN ARGS...
# Exit 0 and stdout equal to the file EXPECTED.  WARN "-": stderr empty;
# otherwise every stderr line is a "cpt-plan: warning: " line and one of
# them matches the regex WARN.
expect() {
	name=$1 exp=$2 warn=$3
	shift 3
	ran "$name" 0 "$@" || return 0
	if ! cmp -s "$exp" "$T/out"; then
		fail "$name" "$(diff "$exp" "$T/out" | head -n 20)"
	elif [ "$warn" = - ] && [ -s "$T/err" ]; then
		fail "$name" "unexpected stderr: $(cat "$T/err")"
	elif [ "$warn" != - ] && { grep -qv '^cpt-plan: warning: ' "$T/err" ||
				  ! grep -Eq "$warn" "$T/err"; }; then
		fail "$name" "stderr (wanted a warning matching '$warn'): $(cat "$T/err")"
	else
		pass "$name"
	fi
}

# fails NAME CODE REGEX ARGS...
# Exit CODE, nothing on stdout, and stderr is one line "cpt-plan: " +
# something matching the extended regex REGEX (for usage errors, CODE 2,
# the first line, which the usage text follows).
fails() {
	name=$1 code=$2 re=$3
	shift 3
	ran "$name" "$code" "$@" || return 0
	if [ -s "$T/out" ]; then
		fail "$name" "stdout not empty: $(head -n 3 "$T/out")"
	elif { [ "$code" -ne 2 ] && [ "$(wc -l <"$T/err")" -ne 1 ]; } ||
	     ! head -n 1 "$T/err" | grep -Eq "^cpt-plan: $re"; then
		fail "$name" "stderr does not match 'cpt-plan: $re': $(cat "$T/err")"
	else
		pass "$name"
	fi
}

# has NAME REGEX ARGS...: exit 0 and a stdout line matches REGEX.
has() {
	name=$1 re=$2
	shift 2
	ran "$name" 0 "$@" || return 0
	if ! grep -Eq "$re" "$T/out"; then
		fail "$name" "no line matches '$re' in: $(cat "$T/out")"
	else
		pass "$name"
	fi
}

# placed NAME LSCPU NPARTS ARGS...: exit 0, NPARTS partitions ("-": any
# number), and every CPU listed in the lscpu file (CPU first column, all
# online) in exactly one of them.  For topologies where doc/planner.md gives
# no exact layout.
placed() {
	name=$1 file=$2 want=$3
	shift 3
	ran "$name" 0 --lscpu "$file" "$@" || return 0
	if ! awk -v want="$want" '
		FNR == NR { if ($0 !~ /^#/ && $0 != "") { split($0, f, ","); online[f[1]] = 1 }; next }
		{ parts++; sub(/^[0-9]+\t:/, ""); m = split($0, c, " ")
		  for (i = 1; i <= m; i++) seen[c[i]]++ }
		END { for (k in online) if (seen[k] != 1) bad = 1
		      for (k in seen) if (!(k in online)) bad = 1
		      exit !((want == "-" ? parts >= 1 : parts == want) && !bad) }' "$file" "$T/out"; then
		fail "$name" "wanted $want partitions holding each CPU once, got: $(cat "$T/out")"
	else
		pass "$name"
	fi
}

for b in "$PLAN" "$FAST"; do
	if [ ! -x "$b" ]; then
		echo "run.sh: $b is missing: run make test-tool" >&2
		exit 2
	fi
done

XEON=$F/xeon-8160.lscpu
DUAL=$F/dual-20c.lscpu
EPYC=$F/epyc-7742-2s-nps4.lscpu
P9=$F/power9-smt4.lscpu
HYB=$F/i9-12900k-hybrid.lscpu
ALTRA=$F/altra-80c.lscpu
OFF=$F/offline-16.lscpu
SPLIT='more partitions than cores'
IGN='npartitions is ignored'
PAT="cpu_pattern: .+ at offset [0-9]+ \\('.*'\\)\$"
# At the end of the pattern there is no token: the core says "(end of
# pattern)" instead of "('<token>')"; doc/planner.md does not cover that case.
PAT_END="cpu_pattern: .+ at offset [0-9]+ (\\('.*'\\)|\\(end of pattern\\))\$"

echo "== Xeon Platinum 8160 (1 socket, 24 cores, HT)"
expect "xeon-8160: default, 12 partitions (acceptance)" $E/xeon-8160.default - --lscpu $XEON
expect "xeon-8160: --npartitions 6 (acceptance)" $E/xeon-8160.n6 - --lscpu $XEON --npartitions 6
expect "xeon-8160: --npartitions 0 is the default" $E/xeon-8160.default - --lscpu $XEON --npartitions 0
expect "xeon-8160: --npartitions=5 (runs of 5,5,5,5,4 cores)" $E/xeon-8160.n5 - --lscpu $XEON --npartitions=5
expect "xeon-8160: -n 1" $E/xeon-8160.n1 - --lscpu $XEON -n 1
expect "xeon-8160: -n 24 (one core each)" $E/xeon-8160.n24 - --lscpu $XEON -n 24
expect "xeon-8160: -n 30 splits cores 0-5 (share rule)" $E/xeon-8160.n30 "$SPLIT" --lscpu $XEON -n 30
expect "xeon-8160: -n 48 (one CPU each)" $E/xeon-8160.n48 "$SPLIT" --lscpu $XEON -n 48
expect "xeon-8160: --distance" $E/xeon-8160.distance - --lscpu $XEON --distance
expect "xeon-8160: lscpu -p=CPU,Core,Socket (no node, no L3)" $E/xeon-8160.default - --lscpu $F/xeon-8160-nonode.lscpu
expect "xeon-8160: lscpu from stdin" $E/xeon-8160.default - --lscpu - <$XEON
fails "xeon-8160: -n 49 > CPUs" 1 '.+' --lscpu $XEON -n 49
fails "xeon-8160: -n -1" 1 '.+' --lscpu $XEON -n -1
fails "xeon-8160: -n 99999999999 (out of int range)" 1 '.*range' --lscpu $XEON -n 99999999999

echo "== cpu_pattern on the Xeon"
expect "pattern: explicit lists" $E/xeon-8160.p-explicit - --lscpu $XEON --pattern '0[0-3] 1[4-7]'
expect "pattern: ids in any order" $E/xeon-8160.p-explicit - --lscpu $XEON --pattern '1[4-7] 0[0-3]'
expect "pattern: strides" $E/xeon-8160.p-stride - --lscpu $XEON --pattern '0[0-23/2] 1[1-23/2]'
expect "pattern: blanks around tokens" $E/xeon-8160.p-spaces - --lscpu $XEON \
	--pattern "$(printf '  0[ 0 - 3 , 5 ]\n\t1[ 6 ]  ')"
expect "pattern: 0[*]" $E/xeon-8160.p-star - --lscpu $XEON --pattern '0[*]'
expect "pattern: N on one node = default layout (LU-9998)" $E/xeon-8160.default - --lscpu $XEON --pattern N
expect "pattern: N with -n 6 on one node = -n 6 layout" $E/xeon-8160.n6 - --lscpu $XEON --pattern N -n 6
expect "pattern: N 0[0] = one partition" $E/xeon-8160.p-star - --lscpu $XEON --pattern 'N 0[0]'
expect "pattern: X[0-3] = default over the rest" $E/xeon-8160.p-x0-3 - --lscpu $XEON --pattern 'X[0-3]'
expect "pattern: C[0] removes core 0 after placement" $E/xeon-8160.p-c0 - --lscpu $XEON --pattern 'C[0]'
expect "pattern: explicit lists with -n 4 warn" $E/xeon-8160.p-explicit "$IGN" --lscpu $XEON -n 4 --pattern '0[0-3] 1[4-7]'
fails "pattern: missing ]" 1 "$PAT_END" --lscpu $XEON --pattern '0[0-3'
fails "pattern: missing [" 1 "$PAT" --lscpu $XEON --pattern '0 0-3]'
fails "pattern: hex" 1 "$PAT" --lscpu $XEON --pattern '0[0x1]'
fails "pattern: octal" 1 "$PAT" --lscpu $XEON --pattern '0[01]'
fails "pattern: reversed range" 1 "$PAT" --lscpu $XEON --pattern '0[5-3]'
fails "pattern: zero stride" 1 "$PAT" --lscpu $XEON --pattern '0[0-7/0]'
fails "pattern: empty list" 1 "$PAT" --lscpu $XEON --pattern '0[]'
fails "pattern: duplicate partition id" 1 "$PAT" --lscpu $XEON --pattern '0[0] 0[1]'
fails "pattern: missing partition id 0" 1 "$PAT" --lscpu $XEON --pattern '1[0]'
fails "pattern: CPU in two partitions" 1 "$PAT" --lscpu $XEON --pattern '0[0-3] 1[3-5]'
fails "pattern: N twice" 1 "$PAT" --lscpu $XEON --pattern 'N N'
fails "pattern: N after a list" 1 "$PAT" --lscpu $XEON --pattern '0[0] N'
fails "pattern: trailing garbage" 1 "$PAT" --lscpu $XEON --pattern '0[0] zz'
fails "pattern: unexpected character" 1 "$PAT" --lscpu $XEON --pattern '0[0;1]'
fails "pattern: negative number" 1 "$PAT" --lscpu $XEON --pattern '0[-1]'
fails "pattern: CPU 48 does not exist" 1 "$PAT" --lscpu $XEON --pattern '0[48]'
fails "pattern: core 24 does not exist" 1 "$PAT" --lscpu $XEON --pattern 'C[24]'
fails "pattern: node 1 does not exist" 1 "$PAT" --lscpu $XEON --pattern 'N 0[1]'
fails "pattern: number overflow" 1 "$PAT" --lscpu $XEON --pattern '0[2147483648]'
fails "pattern: 2147483647 is a CPU that does not exist" 1 "$PAT" --lscpu $XEON --pattern '0[2147483647]'
fails "pattern: partition left without CPUs" 1 "$PAT" --lscpu $XEON --pattern 'C[0-1]'
pad4096=$(awk 'BEGIN { s = "0["; while (length(s) < 4096 - 5) s = s " "; printf "%s0-47]", s }')
pad4097=$(awk 'BEGIN { s = "0["; while (length(s) < 4097 - 5) s = s " "; printf "%s0-47]", s }')
expect "pattern: 4096 bytes is allowed" $E/xeon-8160.p-star - --lscpu $XEON --pattern "$pad4096"
fails "pattern: 4097 bytes is too long" 1 'cpu_pattern: .+' --lscpu $XEON --pattern "$pad4097"

echo "== dual-socket 20-core HT Intel (80 CPUs, 2 nodes)"
expect "dual-20c: default, 20 partitions, 10 per node (acceptance)" $E/dual-20c.default - --lscpu $DUAL
if awk -F'\t: ' '{ n = split($2, c, " "); lo = 0; hi = 0;
		   for (i = 1; i <= n; i++) if (c[i] % 40 < 20) lo++; else hi++;
		   if (lo && hi) bad = 1; if (lo) a++; else b++ }
		 END { exit !(NR == 20 && a == 10 && b == 10 && !bad) }' "$T/out"; then
	pass "dual-20c: no partition spans nodes (structural check)"
else
	fail "dual-20c: no partition spans nodes (structural check)" "$(cat "$T/out")"
fi
expect "dual-20c: --distance (10 within, 20 across)" $E/dual-20c.distance - --lscpu $DUAL --distance
expect "dual-20c: -n 2" $E/dual-20c.n2 - --lscpu $DUAL -n 2
expect "dual-20c: -n 3 (tie goes to node 0)" $E/dual-20c.n3 - --lscpu $DUAL -n 3
expect "dual-20c: -n 7 (4 + 3, runs 5,5,5,5 / 7,7,6)" $E/dual-20c.n7 - --lscpu $DUAL -n 7
expect "dual-20c: -n 1 merges the nodes" $E/dual-20c.n1 - --lscpu $DUAL -n 1
expect "dual-20c: -n 1 --distance" $E/dual-20c.n1-distance - --lscpu $DUAL -n 1 --distance
expect "dual-20c: pattern N" $E/dual-20c.n2 - --lscpu $DUAL --pattern N
expect "dual-20c: pattern N --distance" $E/dual-20c.N-distance - --lscpu $DUAL --pattern N --distance
expect "dual-20c: pattern N 0[1] 1[0]" $E/dual-20c.N-swap - --lscpu $DUAL --pattern 'N 0[1] 1[0]'
expect "dual-20c: pattern N 0[*]" $E/dual-20c.n1 - --lscpu $DUAL --pattern 'N 0[*]'
expect "dual-20c: N with -n 5 warns" $E/dual-20c.n2 "$IGN" --lscpu $DUAL --pattern N -n 5
fails "dual-20c: N 0[0] 1[0-1] node in two partitions" 1 "$PAT" --lscpu $DUAL --pattern 'N 0[0] 1[0-1]'
expect "dual-20c: reordered columns, L1d:L1i:L2:L3 cache column" $E/dual-20c.default - --lscpu $F/dual-20c-cache.lscpu
expect "dual-20c: reordered columns, -n 7" $E/dual-20c.n7 - --lscpu $F/dual-20c-cache.lscpu -n 7

echo "== AMD EPYC 7742 x2, NPS4 (256 CPUs, 8 nodes, L3 per 4-core CCX)"
expect "epyc: default, 64 partitions, 2 per CCX" $E/epyc.default - --lscpu $EPYC
expect "epyc: -n 8 (one per node)" $E/epyc.n8 - --lscpu $EPYC -n 8
expect "epyc: -n 4 groups nodes pairwise" $E/epyc.n4 - --lscpu $EPYC -n 4

echo "== POWER9 SMT4 (128 CPUs, nodes 0 and 8, L3 per core pair)"
expect "power9: default, 16 partitions of one L3 each" $E/power9.default - --lscpu $P9
expect "power9: --distance" $E/power9.distance - --lscpu $P9 --distance
expect "power9: -n 4 (runs of 4 L3 domains)" $E/power9.n4 - --lscpu $P9 -n 4
expect "power9: -n 3" $E/power9.n3 - --lscpu $P9 -n 3
expect "power9: -n 6 (runs of 3,3,2 L3 domains)" $E/power9.n6 - --lscpu $P9 -n 6
expect "power9: -n 64 (SMT4 cores halved)" $E/power9.n64 "$SPLIT" --lscpu $P9 -n 64
expect "power9: pattern N" $E/power9.N - --lscpu $P9 --pattern N
expect "power9: pattern N 0[8] 1[0]" $E/power9.N-swap - --lscpu $P9 --pattern 'N 0[8] 1[0]'
fails "power9: node 1 has no CPU" 1 "$PAT" --lscpu $P9 --pattern 'N 0[1]'

echo "== Xeon Phi 7250 (68 cores, SMT4, siblings i + 68k, no L3)"
expect "phi-7250: default, 34 partitions of two cores" $E/phi-7250.default - --lscpu $F/xeon-phi-7250.lscpu

echo "== Intel i9-12900K hybrid (8 P-cores x2, 8 E-cores)"
expect "hybrid: default, 8 partitions of 2 cores" $E/hybrid.default - --lscpu $HYB
expect "hybrid: -n 3 (6,5,5 cores)" $E/hybrid.n3 - --lscpu $HYB -n 3
expect "hybrid: -n 20 splits P-cores 0-3" $E/hybrid.n20 "$SPLIT" --lscpu $HYB -n 20

echo "== Ampere Altra (80 cores, no SMT, no L3)"
expect "altra: default, 40 partitions" $E/altra.default - --lscpu $ALTRA
expect "altra: -n 16" $E/altra.n16 - --lscpu $ALTRA -n 16
expect "altra: -n 7 (12,12,12,11,11,11,11)" $E/altra.n7 - --lscpu $ALTRA -n 7

echo "== offline CPUs (16 possible, 3, 6, 11 offline)"
expect "offline: default (core 6 ordered by CPU 14)" $E/offline.default - --lscpu $OFF
expect "offline: -n 7" $E/offline.n7 - --lscpu $OFF -n 7
expect "offline: -n 13 (every online CPU alone)" $E/offline.n13 "$SPLIT" --lscpu $OFF -n 13
fails "offline: -n 14 > online CPUs" 1 '.+' --lscpu $OFF -n 14
expect "offline: X[3,6,11] (offline CPUs may be excluded)" $E/offline.default - --lscpu $OFF --pattern 'X[3,6,11]'
expect "offline: C[5] is the core of CPUs 7 and 15" $E/offline.p-c5 - --lscpu $OFF --pattern 'C[5]'
fails "offline: C[6] empties partition 3" 1 "$PAT" --lscpu $OFF --pattern 'C[6]'
fails "offline: CPU 3 is offline" 1 "$PAT" --lscpu $OFF --pattern '0[3]'
fails "offline: CPU 16 does not exist" 1 "$PAT" --lscpu $OFF --pattern '0[16]'
expect "offline: lscpu -a with Online column" $E/offline.default - --lscpu $F/offline-16-all.lscpu
expect "offline: lscpu -a with Online column, -n 13" $E/offline.n13 "$SPLIT" --lscpu $F/offline-16-all.lscpu -n 13

echo "== inconsistent topologies (misconfigured VMs): no crash, every CPU once"
# SMT siblings with different L3 keys: 4 CPUs -> 1 partition; 2 cores.
placed "odd: siblings in different L3 domains, default" $F/odd-smt-across-l3.lscpu 1
placed "odd: siblings in different L3 domains, -n 2" $F/odd-smt-across-l3.lscpu 2 -n 2
placed "odd: siblings in different L3 domains, -n 4" $F/odd-smt-across-l3.lscpu 4 -n 4
# SMT siblings on different nodes: 8 CPUs, 4 cores, 2 nodes.  The count
# formula says 2, but "no partition spans nodes" and "threads of a core go
# together" cannot both hold here, so the default count is left open.
placed "odd: siblings on different nodes, default" $F/odd-smt-across-nodes.lscpu -
placed "odd: siblings on different nodes, -n 4" $F/odd-smt-across-nodes.lscpu 4 -n 4
placed "odd: siblings on different nodes, -n 8" $F/odd-smt-across-nodes.lscpu 8 -n 8

echo "== sysfs trees"
S2=$S/2node-offline
S4=$S/4node-dist
expect "sysfs 2node-offline: default" $E/2node.default - --sysfs $S2
expect "sysfs 2node-offline: default equals its lscpu twin" $E/2node.default - --lscpu $F/2node-offline.lscpu
expect "sysfs 2node-offline: trailing / on the root" $E/2node.default - --sysfs $S2/
expect "sysfs 2node-offline: --distance (10/21)" $E/2node.distance-sysfs - --sysfs $S2 --distance
expect "lscpu 2node-offline: --distance (10/20)" $E/2node.distance-lscpu - --lscpu $F/2node-offline.lscpu --distance
for n in 1 8 9 15; do
	w=-
	[ $n -gt 8 ] && w=$SPLIT
	expect "sysfs 2node-offline: -n $n" $E/2node.n$n "$w" --sysfs $S2 -n $n
	expect "lscpu 2node-offline: -n $n equals sysfs" $E/2node.n$n "$w" --lscpu $F/2node-offline.lscpu -n $n
done
expect "sysfs 2node-offline: -n 1 --distance (21 inside)" $E/2node.n1-distance - --sysfs $S2 -n 1 --distance
expect "sysfs 2node-offline: pattern N (memory-only node 2 skipped)" $E/2node.N - --sysfs $S2 --pattern N
expect "sysfs 2node-offline: C[0] is the first core of each node" $E/2node.p-c0 - --sysfs $S2 --pattern 'C[0]'
expect "lscpu 2node-offline: C[0] equals sysfs" $E/2node.p-c0 - --lscpu $F/2node-offline.lscpu --pattern 'C[0]'
expect "sysfs 2node-offline: C[3] is the last core of each node" $E/2node.p-c3 - --sysfs $S2 --pattern 'C[3]'
fails "sysfs 2node-offline: no node has a core 4" 1 "$PAT" --sysfs $S2 --pattern 'C[4]'
fails "sysfs 2node-offline: N 0[2] (node without CPUs)" 1 "$PAT" --sysfs $S2 --pattern 'N 0[2]'
fails "sysfs 2node-offline: CPU 13 is offline" 1 "$PAT" --sysfs $S2 --pattern '0[13]'
fails "sysfs 2node-offline: -n 16 > online CPUs" 1 '.+' --sysfs $S2 -n 16
expect "sysfs 4node-dist: default" $E/4node.default - --sysfs $S4
expect "sysfs 4node-dist: --distance" $E/4node.distance - --sysfs $S4 --distance
expect "sysfs 4node-dist: -n 2 merges 0+3, 1+2" $E/4node.n2 - --sysfs $S4 -n 2
expect "sysfs 4node-dist: -n 2 --distance" $E/4node.n2-distance - --sysfs $S4 -n 2 --distance
expect "sysfs 4node-dist: -n 3 merges 0+3" $E/4node.n3 - --sysfs $S4 -n 3
expect "sysfs 4node-dist: -n 3 --distance" $E/4node.n3-distance - --sysfs $S4 -n 3 --distance
expect "sysfs 4node-dist: -n 5" $E/4node.n5 - --sysfs $S4 -n 5
expect "sysfs 4node-dist: -n 5 --distance" $E/4node.n5-distance - --sysfs $S4 -n 5 --distance

expect "sysfs qemu-2dies: default, one partition per L3" $E/qemu.default - --sysfs $S/qemu-2dies
expect "sysfs qemu-2dies: -n 3 (L3 0 gets 2)" $E/qemu.n3 - --sysfs $S/qemu-2dies -n 3
expect "sysfs qemu-2dies: -n 1" $E/qemu.n1 - --sysfs $S/qemu-2dies -n 1
expect "sysfs qemu-2dies: --distance" $E/qemu.distance - --sysfs $S/qemu-2dies --distance
expect "sysfs nonuma-4: no node directory, 4 CPUs -> 1" $E/nonuma.default - --sysfs $S/nonuma-4
expect "sysfs nonuma-4: -n 2" $E/nonuma.n2 - --sysfs $S/nonuma-4 -n 2
expect "sysfs nonuma-4: --distance" $E/nonuma.distance - --sysfs $S/nonuma-4 --distance
has "sysfs nonuma-4: explain says L3 unknown" '^  L3 domains:  1 \(L3 unknown: one per node\)$' --sysfs $S/nonuma-4 --explain

echo "== --explain"
expect "explain: xeon-8160 default" $E/xeon-8160.explain - --lscpu $XEON --explain
expect "explain: 2node-offline -n 9" $E/2node.n9-explain "$SPLIT" --sysfs $S2 -n 9 --explain
has "explain: hybrid -n 20 counts split cores" '^Partitions splitting a core: 8; spanning nodes: 0; spanning L3 domains: 0$' --lscpu $HYB -n 20 --explain
has "explain: hybrid threads per core" '^  cores: +16, 1 to 2 threads per core' --lscpu $HYB --explain
has "explain: dual-20c -n 1 spans nodes" '^Partitions splitting a core: 0; spanning nodes: 1; spanning L3 domains: 1$' --lscpu $DUAL -n 1 --explain
has "explain: power9 -n 4 spans L3 domains" '^Partitions splitting a core: 0; spanning nodes: 0; spanning L3 domains: 4$' --lscpu $P9 -n 4 --explain
has "explain: power9 nodes 0 and 8" '^  NUMA nodes:  2 with CPUs \(0,8\)$' --lscpu $P9 --explain
has "explain: epyc automatic count" '^Automatic partition count: 64$' --lscpu $EPYC -n 8 --explain
has "explain: altra L3 unknown" '^  L3 domains:  1 \(L3 unknown: one per node\)$' --lscpu $ALTRA --explain
has "explain: threads left out are reported" '^ +0 +4 +4 +1 +0 +part of a core +0-3$' --lscpu $XEON --pattern '0[0-3]' --explain
has "explain: --distance appends the distances" '^1	: 0:20 1:10$' --lscpu $DUAL --pattern N --explain --distance
fails "explain: invalid pattern still fails" 1 "$PAT_END" --lscpu $XEON --pattern '0[' --explain
fails "pattern: X[*] leaves no CPU" 1 'cpu_pattern: .+' --lscpu $XEON --pattern 'X[*]'


echo "== bad input"
fails "input: missing lscpu file" 3 "$T/nope.lscpu: cannot open" --lscpu "$T/nope.lscpu"
hdr='# CPU,Core,Socket,Node,,L1d,L1i,L2,L3'
printf '%s\n0,0,0,0,,0,0,0,0\n1,x,0,0,,1,1,1,0\n' "$hdr" >"$T/badnum.lscpu"
fails "input: non-number names file and line" 3 "$T/badnum.lscpu:3: Core: " --lscpu "$T/badnum.lscpu"
printf '%s\n0,0,0,0,,0,0,0,0\n1,1,0,0,0,0,0\n' "$hdr" >"$T/badcount.lscpu"
fails "input: wrong field count" 3 "$T/badcount.lscpu:3: 7 fields" --lscpu "$T/badcount.lscpu"
printf '0,0,0,0,,0,0,0,0\n' >"$T/nohdr.lscpu"
fails "input: no header line" 3 "$T/nohdr.lscpu:1: data before" --lscpu "$T/nohdr.lscpu"
printf '# comment\n%s\n0,0,0,0,,0,0,0,0\n1,1,0,0,,1,1,1,0\n0,0,0,0,,0,0,0,0\n' "$hdr" >"$T/dup.lscpu"
fails "input: CPU listed twice" 3 "$T/dup.lscpu:5: CPU 0 listed again \\(first on line 3\\)" --lscpu "$T/dup.lscpu"
: >"$T/empty.lscpu"
fails "input: empty file" 3 "$T/empty.lscpu: no CPU lines" --lscpu "$T/empty.lscpu"
printf '%s\n0,0,0,0,,0,0,0,0\n1,1,0,,,1,1,1,0\n' "$hdr" >"$T/halfnode.lscpu"
fails "input: node missing on one CPU" 3 "$T/halfnode.lscpu:3: CPU 1 has no node" --lscpu "$T/halfnode.lscpu"
printf '%s\n9999999,0,0,0,,0,0,0,0\n' "$hdr" >"$T/huge.lscpu"
fails "input: CPU id beyond the limit" 3 "$T/huge.lscpu:2: CPU: expected a number" --lscpu "$T/huge.lscpu"
printf '# CPU,Core,Online\n0,0,Y\n1,1,maybe\n' >"$T/online.lscpu"
fails "input: bad Online value" 3 "$T/online.lscpu:3: Online" --lscpu "$T/online.lscpu"
fails "input: sysfs root without cpu/online" 3 "$T/nosys/devices/system/cpu/online: cannot read" --sysfs "$T/nosys"
cp -R $S2 "$T/s2"
printf '0-3,x\n' >"$T/s2/devices/system/node/node0/cpulist"
fails "input: malformed sysfs cpulist" 3 "$T/s2/devices/system/node/node0/cpulist:1: malformed CPU list" --sysfs "$T/s2"
cp -R $S2 "$T/s3"
printf '10 21\n' >"$T/s3/devices/system/node/node1/distance"
fails "input: short distance row" 3 "$T/s3/devices/system/node/node1/distance:1: expected 3 distances" --sysfs "$T/s3"
cp -R $S2 "$T/s4"
printf '0-3,8-10\n' >"$T/s4/devices/system/node/node0/cpulist"
fails "input: online CPU in no node" 3 ".*online CPU 11 is in no online node" --sysfs "$T/s4"
cp -R $S2 "$T/s5"
printf '0-3,8-11,4\n' >"$T/s5/devices/system/node/node0/cpulist"
fails "input: CPU in two nodes" 3 ".*CPU 4 is in the cpulist of node 0 and of node 1" --sysfs "$T/s5"

echo "== sysfs: shared lists read once"
# A siblings list, a package list and an L3 shared_cpu_list are read for
# the first CPU they name and taken for the others (topo_read.h); lists
# that disagree send the reader back to each CPU's own files.  tree NAME
# FILE TEXT [FILE TEXT]...: a copy of 2node-offline, FILEs (under
# devices/system/cpu/) rewritten.
tree() {
	_d=$T/$1
	shift
	rm -rf "$_d"
	cp -R $S2 "$_d"
	while [ $# -ge 2 ]; do
		printf '%s\n' "$2" >"$_d/devices/system/cpu/$1"
		shift 2
	done
}
C0=cpu0/topology/thread_siblings_list
tree claim $C0 0-1
expect "shared: cpu0's siblings list claims CPU 1: each CPU's own list decides" $E/2node.default - --sysfs "$T/claim"
tree lower $C0 0 cpu8/topology/thread_siblings_list 0,8
expect "shared: cpu8's list names CPU 0, whose list did not name it: own lists" $E/2node.default - --sysfs "$T/lower"
tree l3 cpu0/cache/index3/shared_cpu_list 0-2,8-10
expect "shared: L3 lists that disagree: own lists" $E/2node.default - --sysfs "$T/l3"
tree off cpu5/topology/thread_siblings_list 5,13
expect "shared: offline CPU 13 in a siblings list is left out" $E/2node.default - --sysfs "$T/off"
tree pkg
for c in 0 1 2 3 8 9 10 11; do echo 0-3,8-11 >"$T/pkg/devices/system/cpu/cpu$c/topology/package_cpus_list"; done
for c in 4 5 6 7 12 14 15; do echo 4-7,12,14-15 >"$T/pkg/devices/system/cpu/cpu$c/topology/package_cpus_list"; done
expect "shared: package_cpus_list read once per package" $E/2node.default - --sysfs "$T/pkg"
has "shared: package_cpus_list gives 2 packages" '^  packages:    2$' --sysfs "$T/pkg" --explain
printf '0-7\n' >"$T/pkg/devices/system/cpu/cpu0/topology/package_cpus_list"
has "shared: package lists that disagree: each CPU's own package" '^  packages:    2$' --sysfs "$T/pkg" --explain
printf 'x\n' >"$T/pkg/devices/system/cpu/cpu0/topology/package_cpus_list"
expect "shared: a malformed package list: each CPU's own package" $E/2node.default - --sysfs "$T/pkg"
tree noidx3
rm -r "$T"/noidx3/devices/system/cpu/cpu*/cache/index3
expect "shared: no cache/index3 (one L3 per node)" $E/2node.default - --sysfs "$T/noidx3"
has "shared: no cache/index3: explain says L3 unknown" '^  L3 domains:  2 \(L3 unknown: one per node\)$' --sysfs "$T/noidx3" --explain
tree nosib
rm "$T"/nosib/devices/system/cpu/cpu*/topology/thread_siblings_list
expect "shared: no siblings lists (core_id in each package)" $E/2node.default - --sysfs "$T/nosib"
tree bad0 $C0 0,x
fails "shared: malformed siblings list of CPU 0" 3 "$T/bad0/devices/system/cpu/$C0:1: malformed CPU list '0,x'" --sysfs "$T/bad0"
tree badl3 cpu4/cache/index3/shared_cpu_list zz
fails "shared: malformed L3 list of CPU 4" 3 "$T/badl3/devices/system/cpu/cpu4/cache/index3/shared_cpu_list:1: malformed CPU list 'zz'" --sysfs "$T/badl3"
tree badpkg cpu3/topology/physical_package_id q
fails "shared: malformed package id of CPU 3" 3 "$T/badpkg/devices/system/cpu/cpu3/topology/physical_package_id:1: expected a number, got 'q'" --sysfs "$T/badpkg"
# What reading each list once gives up: CPU 8 is in CPU 0's list, so
# its own list is not read, and the damage there goes unseen.
tree bad8 cpu8/topology/thread_siblings_list 8,x
expect "shared: CPU 8's own list is not read (CPU 0's names it)" $E/2node.default - --sysfs "$T/bad8"

# Big trees (tests/bench/mktree.sh): 1024 CPUs, CPU i and i+512 one core,
# 16 cores per L3, 64 per node and package: 256 partitions (the cap), 8
# per L3, partition k = cores 2k and 2k+1.  And the Xeon Phi 7250's
# shape, SMT4 with siblings i + 68k: the same table as its lscpu fixture.
if tests/bench/mktree.sh 1024 "$T/big" && tests/bench/mktree.sh 272 "$T/phi" 4 68 68; then
	awk 'BEGIN { for (k = 0; k < 256; k++)
		printf "%d\t: %d %d %d %d\n", k, 2 * k, 2 * k + 1, 512 + 2 * k, 513 + 2 * k }' >"$T/big.expected"
	expect "shared: 1024-CPU tree, default" "$T/big.expected" - --sysfs "$T/big/sysfs"
	expect "shared: 1024-CPU tree equals its lscpu twin" "$T/big.expected" - --lscpu "$T/big/lscpu"
	expect "shared: 1024-CPU tree, -n 8: one partition per node" $E/big1024.n8 - --sysfs "$T/big/sysfs" -n 8
	expect "shared: SMT4 tree (Xeon Phi shape)" $E/phi-7250.default - --sysfs "$T/phi/sysfs"
	if command -v strace >/dev/null 2>&1; then
		# One file per core, 6 per L3 walk, 2 per package and node, a
		# few global ones: 746; reading each CPU's files took 8217.
		strace -f -qq -e trace=open,openat \
			-o "$T/strace" "$FAST" --sysfs "$T/big/sysfs" >/dev/null 2>&1
		n=$(grep -c 'open[at]*(' "$T/strace")
		what="1024-CPU tree read in $n files"
		if [ "$n" -le $((512 + 6 * 32 + 2 * 8 + 2 * 8 + 16)) ]; then
			pass "shared: $what (a list per core, L3, package)"
		else
			fail "shared: $what (a list per core, L3, package)"
		fi
	else
		skip "shared: strace not installed, files not counted"
	fi
	# CPU 400 (node 6 of 8) without its siblings list: its core_id makes
	# it a core alone, and CPU 912, its sibling, one too.  Then a
	# malformed list there: the error.
	cp -R "$T/big" "$T/bigbad"
	B=$T/bigbad/sysfs/devices/system/cpu
	rm "$B/cpu400/topology/thread_siblings_list"
	run --sysfs "$T/bigbad/sysfs"
	if cmp -s "$T/out" "$T/big.expected" || [ "$rc" -ne 0 ]; then
		fail "shared: tree without CPU 400's siblings list differs from the whole tree" "exit $rc"
	else
		pass "shared: tree without CPU 400's siblings list differs from the whole tree"
	fi
	printf '400,x\n' >"$B/cpu400/topology/thread_siblings_list"
	fails "shared: malformed list of CPU 400 in a 1024-CPU tree" 3 \
		".*/cpu400/topology/thread_siblings_list:1: malformed CPU list '400,x'" --sysfs "$T/bigbad/sysfs"
	rm -rf "$T/bigbad"
else
	fail "shared: tests/bench/mktree.sh failed"
fi
rm -rf "$T/big" "$T/phi"

echo "== usage"
fails "usage: unknown option" 2 "unknown option '--bogus'" --bogus
fails "usage: --npartitions not a number" 2 "--npartitions needs a decimal number" -n abc
fails "usage: --npartitions without value" 2 "option '--npartitions' needs an argument" --npartitions
fails "usage: --lscpu and --sysfs together" 2 "--lscpu and --sysfs are exclusive" --lscpu $XEON --sysfs $S2
fails "usage: stray argument" 2 "unexpected argument 'extra'" --lscpu $XEON extra
has "usage: --help" '^Usage: cpt-plan ' --help

echo "== static binary"
if [ -x "$STATIC" ]; then
	if readelf -lW "$STATIC" 2>/dev/null | grep -q 'INTERP\|Requesting program interpreter' ||
	   readelf -dW "$STATIC" 2>/dev/null | grep -q NEEDED; then
		fail "static: $STATIC has no interpreter or NEEDED libraries" "$(readelf -dW "$STATIC" | grep NEEDED)"
	else
		pass "static: $STATIC has no interpreter or NEEDED libraries"
	fi
	PLAN=$STATIC expect "static: xeon-8160 default" $E/xeon-8160.default - --lscpu $XEON
	PLAN=$STATIC expect "static: sysfs 2node-offline" $E/2node.default - --sysfs $S2
else
	fail "static: $STATIC not built"
fi

echo "== valgrind (optimised build)"
if command -v valgrind >/dev/null 2>&1; then
	vg() {
		name=$1 code=$2
		shift 2
		valgrind -q --error-exitcode=99 --leak-check=full \
			--show-leak-kinds=all --errors-for-leak-kinds=all \
			"$FAST" "$@" >"$T/out" 2>"$T/err"
		rc=$?
		if [ "$rc" -eq "$code" ] && ! grep -q '^==[0-9]*==' "$T/err"; then
			pass "valgrind: $name"
		else
			fail "valgrind: $name" "exit $rc: $(head -n 20 "$T/err")"
		fi
	}
	vg "epyc default" 0 --lscpu $EPYC
	vg "2node-offline -n 9 --explain --distance" 0 --sysfs $S2 -n 9 --explain --distance
	vg "pattern error" 1 --lscpu $XEON --pattern '0[0-3] 1[3]'
	vg "input error" 3 --lscpu "$T/dup.lscpu"
	vg "sysfs input error" 3 --sysfs "$T/s5"
else
	skip "valgrind not installed"
fi

echo "== this host"
run
if [ "$rc" -eq 0 ] && san_clean "$T/err" && [ -s "$T/out" ] &&
   ! grep -Evq '^[0-9]+	:( [0-9]+)+$' "$T/out"; then
	pass "host: table from /sys ($(wc -l <"$T/out") partitions)"
else
	fail "host: table from /sys" "exit $rc: $(cat "$T/err") $(head -n 5 "$T/out")"
fi
cp "$T/out" "$T/host.table"
run --distance
if [ "$rc" -eq 0 ] && san_clean "$T/err" &&
   ! grep -Evq '^[0-9]+	:( [0-9]+:[0-9]+)+$' "$T/out" &&
   [ "$(wc -l <"$T/out")" -eq "$(wc -l <"$T/host.table")" ]; then
	pass "host: --distance format"
else
	fail "host: --distance format" "exit $rc: $(cat "$T/err") $(head -n 5 "$T/out")"
fi
expect "host: --sysfs /sys equals --sysfs /" "$T/host.table" - --sysfs /sys
if command -v lscpu >/dev/null 2>&1 && lscpu -p >"$T/host.lscpu" 2>/dev/null; then
	expect "host: lscpu -p of this host gives the same table as /sys" "$T/host.table" - --lscpu "$T/host.lscpu"
else
	skip "host: lscpu not available"
fi
if [ -x "$NUMA_CHECK" ]; then
	"$NUMA_CHECK" / >"$T/numa" 2>&1
	rc=$?
	sed 's/^/    /' "$T/numa"
	if [ "$rc" -eq 0 ] && san_clean "$T/numa"; then
		pass "host: sysfs reader and default plan agree with libnuma"
	else
		fail "host: sysfs reader and default plan agree with libnuma" "exit $rc"
	fi
else
	fail "host: $NUMA_CHECK not built"
fi

echo "== scale (optimised build)"
# gen N FILE: N CPUs, 2 threads per core (CPU i and i+N/2), 16 nodes of
# N/32 cores, an L3 per 8 cores, 2 nodes per socket.
gen() {
	awk -v N="$1" 'BEGIN {
		print "# CPU,Core,Socket,Node,,L1d,L1i,L2,L3"
		C = N / 2; per = C / 16
		for (c = 0; c < N; c++) {
			k = c % C; n = int(k / per)
			printf "%d,%d,%d,%d,,%d,%d,%d,%d\n", c, k, int(n / 2), n, k, k, k, int(k / 8)
		}
	}' >"$2"
}
now_ns() {
	date +%s%N
}
gen 2048 "$T/big2048"
gen 4096 "$T/big4096"
gen 8192 "$T/big8192"
# 4096 CPUs: 2048 cores -> 256 partitions (the cap), 16 per node, one per
# 8-core L3: partition k = CPUs 8k..8k+7 and 2048+8k..2048+8k+7.
awk 'BEGIN { for (k = 0; k < 256; k++) {
	printf "%d\t:", k
	for (c = 8 * k; c < 8 * k + 8; c++) printf " %d", c
	for (c = 8 * k; c < 8 * k + 8; c++) printf " %d", 2048 + c
	printf "\n" } }' >"$T/big4096.expected"
PLAN=$FAST expect "scale: 4096 CPUs / 16 nodes default = 256 partitions, one per L3" "$T/big4096.expected" - --lscpu "$T/big4096"
best=
for i in 1 2 3; do
	t0=$(now_ns)
	"$FAST" --lscpu "$T/big4096" >/dev/null 2>&1
	t1=$(now_ns)
	d=$(((t1 - t0) / 1000000))
	if [ -z "$best" ] || [ "$d" -lt "$best" ]; then best=$d; fi
done
if [ "$best" -lt 500 ]; then
	pass "scale: cpt-plan on 4096 CPUs in ${best} ms (< 500 ms)"
else
	fail "scale: cpt-plan on 4096 CPUs in ${best} ms (< 500 ms)"
fi
PLAN=$FAST run --lscpu "$T/big4096" -n 256
if [ "$rc" -eq 0 ] && [ "$(wc -l <"$T/out")" -eq 256 ]; then
	pass "scale: 4096 CPUs -n 256 gives 256 partitions"
else
	fail "scale: 4096 CPUs -n 256 gives 256 partitions" "exit $rc $(head -c 300 "$T/err")"
fi
# At most 256 partitions (Lustre's limit): more is refused, as in the module.
PLAN=$FAST run --lscpu "$T/big4096" -n 257
if [ "$rc" -ne 0 ] && [ ! -s "$T/out" ] &&
   grep -q 'more than the 256 cpt supports' "$T/err"; then
	pass "scale: 4096 CPUs -n 257 is refused"
else
	fail "scale: 4096 CPUs -n 257 is refused" "exit $rc $(head -c 300 "$T/err")"
fi
if [ -x "$BENCH" ]; then
	for mode in default max N; do
		case $mode in
		default) a2=0 a8=0 pat= ;;
		max) a2=256 a8=256 pat= ;;
		N) a2=0 a8=0 pat=N ;;
		esac
		# fields: cpus parts min_ns median_ns; ratio of the minima,
		# with a 50 us floor against timer noise.  Wall time on a
		# shared 2-core host swings (the other core's guest competes
		# for the cache, and 8192 CPUs' data outgrows it first), so a
		# pair that misses is measured again, up to three pairs: a
		# quadratic planner (ratio 16) misses all three.
		tries= verdict= r2= r8=
		for try in 1 2 3; do
			r2=$("$BENCH" "$T/big2048" 15 $a2 $pat 2>&1) &&
			r8=$("$BENCH" "$T/big8192" 15 $a8 $pat 2>&1) ||
				{ verdict=; break; }
			verdict=$(printf '%s\n%s\n' "$r2" "$r8" | awk '
				NR == 1 { t2 = $3 } NR == 2 { t8 = $3 }
				END {
					if (t2 < 50000) t2 = 50000
					r = t8 / t2
					printf "%s %.2f %d %d", (r < 8 && t8 < 1e9) ? "ok" : "bad", r, t2 / 1000, t8 / 1000
				}')
			tries="$tries [$r2 / $r8]"
			case $verdict in ok*) break ;; esac
		done
		if [ -z "$verdict" ]; then
			fail "scale: cpt-bench $mode" "$r2 $r8"
			continue
		fi
		set -- $verdict
		if [ "$1" = ok ] && [ "$try" -gt 1 ]; then
			echo "    scale: planner ($mode) met at pair $try of 3:$tries"
		fi
		msg="scale: planner ($mode) 2048 -> 8192 CPUs: $3 us -> $4 us, ratio $2 (< 8)"
		if [ "$1" = ok ]; then pass "$msg"; else fail "$msg" "$tries"; fi
	done
else
	fail "scale: $BENCH not built"
fi

# Isolated CPUs: devices/system/cpu/{isolated,nohz_full} under --sysfs, and
# --isolated / --include-isolated (the module's include_isolated=1).
I=$S/numa2x2-isol
N=$S/numa2x2-nohz
expect "isolated: sysfs cpu/isolated 2-3 left out" $E/numa2x2.isol - --sysfs $I
expect "isolated: sysfs cpu/nohz_full 4-7 left out" $E/numa2x2.nohz - --sysfs $N
expect "isolated: nohz_full distance" $E/numa2x2.nohz-distance - --sysfs $N --distance
expect "isolated: --include-isolated places them" $E/numa2x2.full - --sysfs $I --include-isolated
expect "isolated: -I on nohz_full" $E/numa2x2.full - --sysfs $N -I
expect "isolated: --isolated '' overrides sysfs" $E/numa2x2.full - --sysfs $I --isolated ''
expect "isolated: --isolated 4-7 replaces sysfs 2-3" $E/numa2x2.nohz - --sysfs $I --isolated 4-7
expect "isolated: one thread (--isolated 3) loses only itself" $E/numa2x2.isol3 - --sysfs $I -i 3
expect "isolated: --isolated 0,24 on lscpu input (23 cores: 11 x 2 + 1)" $E/xeon-8160.isol0 - --lscpu $F/xeon-8160.lscpu --isolated 0,24
expect "isolated: --isolated 3 replaces sysfs nohz_full 4-7" $E/numa2x2.isol3 - --sysfs $N --isolated 3
expect "isolated: --isolated with --include-isolated" $E/numa2x2.full - --sysfs $I -i 2-3 -I
# --explain names them and counts cores over the others: 6 cores left.
if ran "isolated: --explain" 0 --sysfs $N --explain; then
	if grep -q '^  isolated:    4-7 ' "$T/out" &&
	   grep -q 'ceil(6 cores / 2), 2 nodes with CPUs), at most 6 cores' "$T/out"; then
		pass "isolated: --explain names 4-7 and counts 6 cores"
	else
		fail "isolated: --explain names 4-7 and counts 6 cores" "$(cat "$T/out")"
	fi
fi
fails "isolated: --isolated past the last CPU" 2 '--isolated: .*past the last CPU' --sysfs $I --isolated 2-16
fails "isolated: --isolated malformed" 2 '--isolated: malformed' --sysfs $I --isolated 2-x
fails "isolated: npartitions past the CPUs left" 1 'npartitions=15 is more than the 14 online CPUs left after isolated CPUs' --sysfs $I -n 15
fails "isolated: a list of isolated CPUs only" 1 'cpu_pattern: partition 0 has no online CPU that is not isolated' --sysfs $I -p '0[2-3] 1[4-7]'

echo "== a site: NICs, IRQs, --check, --fleet, JSON (issue 33)"
# sysfs/2node-nics is 2node-offline with interfaces (tests/fixtures/mknics.sh):
# its table is 2node.default, node 0 = partitions 0-1, node 1 = 2-3.
# The expected outputs (2node-nics.*) are written by hand from that; see
# tests/tool/expected/README.
NICS=$S/2node-nics
LSCPU2=$F/2node-offline.lscpu
NOAFF='eth2: no NUMA node'

# lnet_parsed NAME WANT PARSER: $T/out through Lustre's grammar
# (tests/tool/lnet-grammar.awk, 4 partitions) gives the "NET IF CPTS"
# lines of the file WANT and needs the parser PARSER ("any" or "2.10").
lnet_parsed() {
	if ! awk -v ncpts=4 -f tests/tool/lnet-grammar.awk "$T/out" >"$T/lnet" 2>"$T/lnet.err"; then
		fail "$1" "Lustre's grammar refuses it: $(cat "$T/lnet.err" "$T/out")"
	elif ! printf '%s\nparser %s\n' "$2" "$3" | cmp -s - "$T/lnet"; then
		fail "$1" "Lustre would read: $(cat "$T/lnet")"
	else
		pass "$1"
	fi
}

# json_doc NAME FILTER: $T/out is exactly one JSON document (jq, or
# Python's parser without jq) and, with jq, FILTER is true on it.
json_doc() {
	if command -v jq >/dev/null 2>&1; then
		if [ "$(jq -s length "$T/out" 2>&1)" != 1 ]; then
			fail "$1" "not one JSON document: $(head -c 400 "$T/out")"
		elif ! jq -e "$2" "$T/out" >/dev/null 2>&1; then
			fail "$1" "not true: $2 on $(head -c 400 "$T/out")"
		else
			pass "$1"
		fi
	elif command -v python3 >/dev/null 2>&1; then
		if python3 -m json.tool "$T/out" >/dev/null 2>&1; then
			pass "$1 (parsed; no jq for the keys)"
		else
			fail "$1" "not JSON: $(head -c 400 "$T/out")"
		fi
	else
		skip "$1: no jq or python3 (scripts/install-deps installs jq)"
	fi
}

expect "lnet: ib0 on node 0 gets partitions 0-1" $E/2node-nics.lnet-ib0 - --sysfs $NICS --emit lnet --net o2ib0:ib0
lnet_parsed "lnet: Lustre reads ib0 on 0 1, with any parser" "o2ib0 ib0 0 1" any
expect "lnet: two networks" $E/2node-nics.lnet-two - --sysfs $NICS --emit lnet --net o2ib0:ib0 --net o2ib1:ib1
lnet_parsed "lnet: Lustre reads two networks" "$(printf 'o2ib0 ib0 0 1\no2ib1 ib1 2 3')" any
expect "lnet: a VLAN takes its parent's node (lower_eth1)" $E/2node-nics.lnet-vlan - --sysfs $NICS --emit lnet --net tcp0:eth1.100
expect "lnet: virtio-net: node 1 from the PCI function above its virtio device" $E/2node-nics.lnet-virtio - --sysfs $NICS --emit lnet --net tcp0:eth3
expect "lnet: a bond takes the nodes of both of its devices" $E/2node-nics.lnet-bond - --sysfs $NICS --emit lnet --net tcp0:bond0
expect "lnet: numa_node -1 gives no list and a warning" $E/2node-nics.lnet-eth2 "$NOAFF" --sysfs $NICS --emit lnet --net tcp0:eth2
lnet_parsed "lnet: Lustre reads eth2 on all partitions" "tcp0 eth2 all" any
expect "lnet: a whole site, per-interface lists" $E/2node-nics.lnet-site "$NOAFF" --sysfs $NICS \
	--emit lnet --net o2ib0:ib0,ib1 --net tcp0:eth1.100,bond0,eth2
lnet_parsed "lnet: Lustre (Multi-Rail, 2.10) reads the site" "$(printf '%s\n' 'o2ib0 ib0 0 1' 'o2ib0 ib1 2 3' \
	'tcp0 eth1.100 2 3' 'tcp0 bond0 0 1 2 3' 'tcp0 eth2 all')" 2.10
expect "lnet: a memory-only node's NIC is served by the nearest node (17 < 28)" $E/2node-nics.lnet-memonly \
	'ib2: no partition has CPUs on its node' --sysfs $NICS --emit lnet --net o2ib0:ib2
expect "lnet: --nic IF=NODE overrides sysfs" $E/2node-nics.lnet-lscpu - --sysfs $NICS --emit lnet --net o2ib0:ib0 --nic ib0=1
expect "lnet: --lscpu input with --nic IF=NODE" $E/2node-nics.lnet-lscpu - --lscpu $LSCPU2 --emit lnet --net o2ib0:ib0 --nic ib0=1
fails "lnet: --lscpu input without --nic" 2 'interface ib0: --lscpu input has no interfaces' --lscpu $LSCPU2 --emit lnet --net o2ib0:ib0
fails "lnet: a missing interface" 3 'interface nope: not found' --sysfs $NICS --emit lnet --net o2ib0:nope
fails "lnet: --nic node out of range" 1 '--nic ib0=5: node 5 is not an online node' --sysfs $NICS --emit lnet --net o2ib0:ib0 --nic ib0=5
fails "lnet: a network given twice (Lustre: Duplicate net)" 2 '--net o2ib0 given twice' --sysfs $NICS --emit lnet --net o2ib0:ib0 --net o2ib0:ib1
fails "lnet: an interface twice in a network" 2 '--net o2ib0:ib0,ib0: interface ib0 given twice' --sysfs $NICS --emit lnet --net o2ib0:ib0,ib0
fails "lnet: --net without interfaces" 2 "--net takes NET:IF" --sysfs $NICS --emit lnet --net o2ib0
fails "lnet: --emit lnet without --net" 2 '--emit lnet needs at least one --net' --sysfs $NICS --emit lnet

expect "irq: ib0's 5 vectors in number order, round-robin over 0-1" $E/2node-nics.irq-ib0 - --sysfs $NICS --emit irq --nic ib0
expect "irq: ib0 then ib1 (node 1: partitions 2-3)" $E/2node-nics.irq-ib0-ib1 - --sysfs $NICS --emit irq --nic ib0 --nic ib1
expect "irq: --nic ib0=1 places them on node 1" $E/2node-nics.irq-ib0-node1 - --sysfs $NICS --emit irq --nic ib0=1
expect "irq: a bond's IRQs are its devices', each on its own node" $E/2node-nics.irq-bond - --sysfs $NICS --emit irq --nic bond0
expect "irq: virtio-net: the PCI function's IRQs, round-robin over 2-3" $E/2node-nics.irq-virtio - --sysfs $NICS --emit irq --nic eth3
expect "irq: a VLAN's IRQs are its parent's" $E/2node-nics.irq-vlan - --sysfs $NICS --emit irq --nic eth1.100
expect "irq: numa_node -1 goes round all partitions, with a warning" $E/2node-nics.irq-eth2 "$NOAFF" --sysfs $NICS --emit irq --nic eth2
expect "irq: isolated 6,14 leave partition 3 = 7,15" $E/2node-nics.irq-isol - --sysfs $NICS --emit irq --nic ib1 --isolated 6,14
fails "irq: a device with no MSI IRQs" 3 'interface dummy0: no MSI IRQs' --sysfs $NICS --emit irq --nic dummy0
fails "irq: --lscpu input has no IRQs" 2 'interface ib0: its IRQs are in a sysfs tree' --lscpu $LSCPU2 --emit irq --nic ib0=1
fails "irq: --emit irq without --nic" 2 '--emit irq needs at least one --nic' --sysfs $NICS --emit irq
# The loop of cpt-plan(8) on a copy of /proc/irq: each file gets its line.
if ran "irq: the man page's loop applies the lines" 0 --sysfs $NICS --emit irq --nic ib0; then
	for i in 98 99 100 101 102; do mkdir -p "$T/proc/irq/$i"; done
	PROC=$T/proc
	while read -r irq cpus; do echo "$cpus" >"$PROC/irq/$irq/smp_affinity_list"; done <"$T/out"
	if [ "$(cat "$T"/proc/irq/98/smp_affinity_list "$T"/proc/irq/99/smp_affinity_list \
		"$T"/proc/irq/102/smp_affinity_list | tr '\n' ' ')" = "0-1,8-9 2-3,10-11 0-1,8-9 " ]; then
		pass "irq: the man page's loop applies the lines"
	else
		fail "irq: the man page's loop applies the lines" "$(cat "$T"/proc/irq/*/smp_affinity_list)"
	fi
fi
expect "irqbalance: --banirq for each IRQ of ib0 and ib1" $E/2node-nics.irqbalance - --sysfs $NICS --emit irqbalance --nic ib0 --nic ib1
expect "irqbalance: and the isolated CPUs banned" $E/2node-nics.irqbalance-isol - --sysfs $NICS --emit irqbalance --nic ib0 --nic ib1 --isolated 6,14

# --check against fake roots: R/proc/sys/lnet/cpu_partition_table (or
# debugfs), R/etc/modprobe.d, R/sys/module/MOD/parameters.
R=$T/root
mkdir -p "$R/proc/sys/lnet" "$R/etc/modprobe.d" "$R/sys/module/libcfs/parameters" "$R/sys/module/cpt/parameters"
cp $E/2node.default "$R/proc/sys/lnet/cpu_partition_table"
printf '# a comment\noptions libcfs cpu_npartitions=4\noptions cpt cpu_pattern="N"\n' >"$R/etc/modprobe.d/lustre.conf"
echo 4 >"$R/sys/module/libcfs/parameters/cpu_npartitions"
echo N >"$R/sys/module/cpt/parameters/cpu_pattern"
if ran "check: the table in force is the plan: exit 0" 0 --sysfs $NICS --check --root "$R"; then
	if grep -q '^table: as planned' "$T/out" && grep -q '^modprobe.d: as loaded' "$T/out" && [ ! -s "$T/err" ]; then
		pass "check: the table in force is the plan: exit 0"
	else
		fail "check: the table in force is the plan: exit 0" "$(cat "$T/out" "$T/err")"
	fi
fi
run --sysfs $NICS --check --root "$R" --format json
json_doc "check: JSON, equal" '.equal == true and .table.equal == true and .modprobe.equal == true'
# -n 2 plans one partition per node: 0 = 0-3,8-11; 1 = 4-7,12,14,15.
if ran "check: a different plan: exit 4, the partitions on stderr" 4 --sysfs $NICS -n 2 --check --root "$R"; then
	if grep -qx 'cpt-plan: partition 0: in force: 0 1 8 9; planned: 0 1 2 3 8 9 10 11' "$T/err" &&
	   grep -qx 'cpt-plan: partition 1: in force: 2 3 10 11; planned: 4 5 6 7 12 14 15' "$T/err" &&
	   grep -qx 'cpt-plan: partition 3: in force: 6 7 14 15; planned: none' "$T/err" &&
	   ! grep -q 'modprobe.d changed' "$T/err"; then
		pass "check: a different plan: exit 4, the partitions on stderr"
	else
		fail "check: a different plan: exit 4, the partitions on stderr" "$(cat "$T/err")"
	fi
fi
run --sysfs $NICS -n 2 --check --root "$R" --format json
json_doc "check: JSON, different" '.equal == false and .table.in_force == 4 and .table.planned == 2 and (.table.differ | length) == 4 and .table.differ[0].planned == [0,1,2,3,8,9,10,11]'
echo 2 >"$R/sys/module/libcfs/parameters/cpu_npartitions"
if ran "check: modprobe.d changed after load: exit 4 and the message" 4 --sysfs $NICS --check --root "$R"; then
	if grep -qx 'cpt-plan: modprobe.d changed after the module was loaded; reload it to apply' "$T/err" &&
	   grep -q 'cpu_npartitions is "4" in modprobe.d, "2" loaded' "$T/err" && grep -q '^table: as planned' "$T/out"; then
		pass "check: modprobe.d changed after load: exit 4 and the message"
	else
		fail "check: modprobe.d changed after load: exit 4 and the message" "$(cat "$T/out" "$T/err")"
	fi
fi
run --sysfs $NICS --check --root "$R" --format json
json_doc "check: JSON, modprobe.d changed" '.equal == false and .table.equal == true and .modprobe.differ[0] == {"module": "libcfs", "parameter": "cpu_npartitions", "modprobe_d": "4", "loaded": "2"}'
echo 4 >"$R/sys/module/libcfs/parameters/cpu_npartitions"
mkdir -p "$R/sys/kernel/debug/lnet"
mv "$R/proc/sys/lnet/cpu_partition_table" "$R/sys/kernel/debug/lnet/"
has "check: Lustre 2.11+'s debugfs table" '^table: as planned' --sysfs $NICS --check --root "$R"
rm -r "$R/sys/kernel/debug"
fails "check: no table in force: exit 3" 3 '.*: no cpu_partition_table in' --sysfs $NICS --check --root "$R"
fails "check: --root that does not exist" 3 '.+' --sysfs $NICS --check --root "$T/nonexistent"

# --fleet: HOST.lscpu files of four machines, one malformed.
FL=$T/fleet
mkdir -p "$FL"
for h in mds01 mds02 mds03 mds04 oss07; do cp $F/dual-20c.lscpu "$FL/$h.lscpu"; done
for h in oss01 oss02 oss03; do cp $XEON "$FL/$h.lscpu"; done
cp $F/2node-offline.lscpu "$FL/c1.lscpu"
cp $EPYC "$FL/e1.lscpu"
echo 'not lscpu output' >"$FL/bad01.lscpu"
# Each class's pattern as in dual-20c.default, xeon-8160.default,
# 2node.default; the EPYC's 64 partitions make a pattern over Lustre's
# 1024 bytes, so its line is the count (as --emit lustre).
{
	echo 'class 1: mds[01-04],oss07 (5 hosts)'
	echo '  shape: 20 partitions x 4 CPUs, 2 nodes'
	printf '  options libcfs cpu_pattern="'
	awk 'BEGIN { for (k = 0; k < 20; k++) printf "%s%d[%d,%d,%d,%d]", k ? " " : "", k, 2*k, 2*k+1, 2*k+40, 2*k+41 }'
	echo '"'
	echo 'class 2: oss[01-03] (3 hosts)'
	echo '  shape: 12 partitions x 4 CPUs, 1 node'
	printf '  options libcfs cpu_pattern="'
	awk 'BEGIN { for (k = 0; k < 12; k++) printf "%s%d[%d,%d,%d,%d]", k ? " " : "", k, 2*k, 2*k+1, 2*k+24, 2*k+25 }'
	echo '"'
	echo 'class 3: c1 (1 host)'
	echo '  shape: 4 partitions x 3-4 CPUs, 2 nodes'
	echo '  options libcfs cpu_pattern="0[0,1,8,9] 1[2,3,10,11] 2[4,5,12] 3[6,7,14,15]"'
	echo 'class 4: e1 (1 host)'
	echo '  shape: 64 partitions x 4 CPUs, 8 nodes'
	echo '  options libcfs cpu_npartitions=64'
} >"$T/fleet.want"
if ran "fleet: classes, hostlists, a malformed host: exit 3" 3 --fleet "$FL"; then
	if ! cmp -s "$T/fleet.want" "$T/out"; then
		fail "fleet: classes, hostlists, a malformed host: exit 3" "$(diff "$T/fleet.want" "$T/out")"
	elif [ "$(wc -l <"$T/err")" -ne 1 ] || ! grep -q '^cpt-plan: bad01: .*bad01.lscpu:1: ' "$T/err"; then
		fail "fleet: classes, hostlists, a malformed host: exit 3" "stderr: $(cat "$T/err")"
	else
		pass "fleet: classes, hostlists, a malformed host: exit 3"
	fi
fi
run --fleet "$FL" --format json
json_doc "fleet: JSON classes and errors" '(.classes | length) == 4 and .classes[0].hosts == "mds[01-04],oss07" and .classes[0].nhosts == 5 and .classes[0].partitions == 20 and (.classes[0].options | startswith("options libcfs cpu_pattern=\"0[0,1,40,41] ")) and .classes[3].options == "options libcfs cpu_npartitions=64" and .errors == [{"host": "bad01", "error": .errors[0].error}] and (.errors[0].error | test("bad01.lscpu:1: "))'
rm "$FL/bad01.lscpu"
has "fleet: -n 2 for all hosts, exit 0" '^  options libcfs cpu_pattern="0\[0-19,40-59\] 1\[20-39,60-79\]"$' --fleet "$FL" -n 2
fails "fleet: a directory without HOST.lscpu" 3 '.*: no HOST.lscpu file' --fleet "$T/root"
fails "fleet: a directory that does not exist" 3 '.*cannot read' --fleet "$T/nonexistent"
# A few hundred hosts (make bench times 10,000): 3 classes of 100, names
# whose numbers change width (cn9, cn10 ... cn100).
FB=$T/fleet-big
mkdir -p "$FB"
i=1
while [ $i -le 300 ]; do
	if [ $i -le 100 ]; then src=$DUAL; elif [ $i -le 200 ]; then src=$XEON; else src=$P9; fi
	cp "$src" "$FB/cn$i.lscpu"
	i=$((i + 1))
done
run --fleet "$FB" --format json
json_doc "fleet: 300 hosts in 3 classes of 100" '[.classes[] | [.hosts, .nhosts]] == [["cn[1-100]", 100], ["cn[101-200]", 100], ["cn[201-300]", 100]] and .errors == []'

# One JSON document per run, for each output.
run --sysfs $NICS --format json
json_doc "json: the table" '.partitions[0] == {"cpt": 0, "cpus": [0, 1, 8, 9], "nodes": [0]} and .partitions[2].cpus == [4, 5, 12] and .partitions[3].nodes == [1] and (.partitions | length) == 4'
run --sysfs $NICS --format json --explain
json_doc "json: --explain" '.automatic_partitions == 4 and .topology.cores == 8 and .topology.cpus_online == 15 and .topology.memory_only_nodes == 1 and .partitions[2].cpus == [4, 5, 12] and .partitions[2].cores == 2'
run --sysfs $NICS --format json --distance
json_doc "json: --distance" '.partitions[0].distance == [10, 10, 21, 21] and .partitions[3].distance == [21, 21, 10, 10]'
run --sysfs $NICS --format json --emit pattern
json_doc "json: --emit pattern" '.pattern == "0[0,1,8,9] 1[2,3,10,11] 2[4,5,12] 3[6,7,14,15]"'
run --sysfs $NICS --format json --emit lustre
json_doc "json: --emit lustre" '.module == "libcfs" and .options == "options libcfs cpu_pattern=\"0[0,1,8,9] 1[2,3,10,11] 2[4,5,12] 3[6,7,14,15]\""'
run --sysfs $NICS --format json --emit lnet --net o2ib0:ib0,ib1 --net tcp0:eth2
json_doc "json: --emit lnet" '.options == "options lnet networks=\"o2ib0(ib0[0-1],ib1[2-3]),tcp0(eth2)\"" and .networks[0].interfaces[1] == {"name": "ib1", "nodes": [1], "cpts": [2, 3]} and .networks[1].interfaces[0].cpts == []'
run --sysfs $NICS --format json --emit irq --nic ib0
json_doc "json: --emit irq" '[.irqs[] | [.irq, .cpt, .cpulist]] == [[98, 0, "0-1,8-9"], [99, 1, "2-3,10-11"], [100, 0, "0-1,8-9"], [101, 1, "2-3,10-11"], [102, 0, "0-1,8-9"]]'
run --sysfs $NICS --format json --emit irqbalance --nic ib1 --isolated 6,14
json_doc "json: --emit irqbalance" '.banirq == [60, 61, 62] and .banned_cpulist == "6,14"'
fails "json: --format yaml" 2 '.*format' --sysfs $NICS --format yaml

echo "== --lustre VERSION: Lustre's own default table (issue 33)"
# lustre_part NAME TABLE SAME ARGS...: --explain --lustre ... exits 0 and,
# after its "Lustre V by default" line, lists the table of the file TABLE
# and says "the same table" (SAME = same) or "different tables".
lustre_part() {
	_n=$1 _t=$2 _same=$3
	shift 3
	ran "$_n" 0 "$@" || return 0
	sed -n '/^Lustre [0-9.]* by default: /,$p' "$T/out" >"$T/lus"
	grep "$(printf '^[0-9]*\t:')" "$T/lus" >"$T/lus.table"
	if ! cmp -s "$_t" "$T/lus.table"; then
		fail "$_n" "$(diff "$_t" "$T/lus.table" | head -n 10)"
	elif ! grep -q "^cpt's plan and Lustre .*'s default: $([ "$_same" = same ] && echo 'the same table' || echo 'different tables')\$" "$T/lus"; then
		fail "$_n" "$(tail -n 1 "$T/lus")"
	else
		pass "$_n"
	fi
}
lustre_part "lustre 2.15 on the LU-9998 Xeon: 12 partitions, cpt's own" $E/xeon-8160.default same --lscpu $XEON --explain --lustre 2.15
has "lustre 2.15: the rule is named (LU-9998)" '^  rule: .*one NUMA node.*LU-9998' --lscpu $XEON --explain --lustre 2.15
lustre_part "lustre 2.16.51 on the Xeon: one partition (LU-17501)" $E/xeon-8160.n1 different --lscpu $XEON --explain --lustre 2.16.51
has "lustre 2.16.51: the rule names commit 111f5836ec" '^  rule: .*LU-17501, commit 111f5836ec' --lscpu $XEON --explain --lustre 2.16.51
lustre_part "lustre 2.12 on the hybrid: 6 partitions, threads of CPU 0" $E/hybrid.lustre-2.12 different --lscpu $HYB --explain --lustre 2.12
lustre_part "lustre 2.10.4 with 13 CPUs online: 1 partition" $E/offline.lustre-2.10.4 different --lscpu $OFF --explain --lustre 2.10.4
lustre_part "lustre 2.15 on two nodes: one per node" $E/2node.N different --lscpu $LSCPU2 --explain --lustre 2.15
lustre_part "lustre 2.17 on two nodes: one per node" $E/2node.N same --lscpu $LSCPU2 --explain --lustre 2.17 -n 2
run --lscpu $XEON --explain --lustre 2.16.51 --format json
json_doc "lustre: --explain JSON has both tables" '.automatic_partitions == 12 and (.partitions | length) == 12 and .lustre.version == "2.16.51" and (.lustre.partitions | length) == 1 and (.lustre.partitions[0].cpus | length) == 48 and .lustre.same_as_plan == false'
expect "lustre: --emit lustre, 2.15 builds this table anyway" $E/xeon-8160.emit-lustre - --lscpu $XEON --emit lustre --lustre 2.15
expect "lustre: --emit lustre warns that 2.16.51 builds 1 partition" $E/xeon-8160.emit-lustre 'Lustre 2\.16\.51 builds 1 partition here by default' --lscpu $XEON --emit lustre --lustre 2.16.51
run --lscpu $XEON --emit lustre --lustre 2.16.51 --format json
json_doc "lustre: --emit lustre JSON" '.module == "libcfs" and .lustre.same_as_plan == false and (.lustre.partitions | length) == 1'
fails "lustre: 2.15 refuses C[...]" 1 "--lustre 2\\.15: cpu_pattern 'C\\[0\\]': C\\[\\.\\.\\.\\] and X\\[\\.\\.\\.\\] need Lustre 2\\.16\\.51" --lscpu $XEON --explain --lustre 2.15 --pattern 'C[0]'
fails "lustre: 2.16.50 refuses X[...]" 1 "--lustre 2\\.16\\.50: cpu_pattern 'X\\[0-3\\]'" --lscpu $XEON --emit lustre --lustre 2.16.50 --pattern 'X[0-3]'
has "lustre: 2.16.51 takes C[...]" '^cpt.s plan and Lustre 2\.16\.51' --lscpu $XEON --explain --lustre 2.16.51 --pattern 'C[0]'
fails "lustre: an unknown version (2.9)" 2 '--lustre 2\.9: unknown Lustre version' --lscpu $XEON --explain --lustre 2.9
fails "lustre: an unknown version (2.18)" 2 '--lustre 2\.18: unknown Lustre version' --lscpu $XEON --explain --lustre 2.18
fails "lustre: not a version" 2 "--lustre takes a version such as 2\\.15 or 2\\.16\\.51, not '2\\.x'" --lscpu $XEON --explain --lustre 2.x
fails "lustre: --lustre alone" 2 '--lustre goes with --explain, --check or --emit lustre' --lscpu $XEON --lustre 2.15
# --check: the table in force is Lustre 2.15's default, not the plan.
LR=$T/lustre-root
mkdir -p "$LR/sys/kernel/debug/lnet"
cp $E/2node.N "$LR/sys/kernel/debug/lnet/cpu_partition_table"
if ran "lustre: --check names the table in force as 2.15's default" 4 --lscpu $LSCPU2 --check --root "$LR" --lustre 2.15; then
	if grep -qx 'lustre 2.15 default: in force (2 partitions)' "$T/out" &&
	   grep -qx "cpt-plan: the table in force is Lustre 2.15's default: the cpu_pattern or cpu_npartitions meant for it is not in force" "$T/err"; then
		pass "lustre: --check names the table in force as 2.15's default"
	else
		fail "lustre: --check names the table in force as 2.15's default" "$(cat "$T/out" "$T/err")"
	fi
fi
run --lscpu $LSCPU2 --check --root "$LR" --lustre 2.15 --format json
json_doc "lustre: --check JSON" '.table.lustre_default == {"version": "2.15", "partitions": 2, "in_force": true} and .equal == false'
has "lustre: --check, 2.16.51 one per node is in force too" '^lustre 2\.16\.51 default: in force \(2 partitions\)$' --lscpu $LSCPU2 -n 2 --check --root "$LR" --lustre 2.16.51

report_summary
