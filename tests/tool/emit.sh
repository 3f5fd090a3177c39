#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# cpt-plan --emit: the pattern it prints gives the same table back, for
# every fixture and several option sets, through cpt's parser and through
# Lustre's grammar (lustre_table below, written from libcfs's rules, not
# from cpt's parser), and a Lustre line is at most 1024 bytes or not
# printed; the Lustre lines of the seed's machine and of the Xeon Phi are
# the ones written out below; a pattern over Lustre's 1024 bytes is
# refused with the nearest choice.  CPT_PLAN: the binary.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib/report.sh
. tests/lib/report.sh
P=${CPT_PLAN:-scripts/cpt-plan}
F=tests/fixtures
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# round_trip NAME INPUT-ARGS... -- PLAN-ARGS...
round_trip() {
	name=$1
	shift
	in=
	while [ "$1" != -- ]; do in="$in $1"; shift; done
	shift
	# shellcheck disable=SC2086 # $in is a list of arguments
	"$P" $in "$@" >"$t/want" 2>/dev/null || { skip "$name: no plan"; return; }
	# shellcheck disable=SC2086
	if ! "$P" $in "$@" --emit pattern >"$t/pat" 2>"$t/err"; then
		fail "$name: --emit pattern failed" "$(cat "$t/err")"
		return
	fi
	# shellcheck disable=SC2086
	"$P" $in --pattern "$(cat "$t/pat")" >"$t/got" 2>"$t/err"
	if cmp -s "$t/want" "$t/got"; then
		pass "$name: --emit pattern gives the table back"
	else
		fail "$name: the emitted pattern gives another table" \
			"$(cat "$t/pat" "$t/err"; diff "$t/want" "$t/got")"
	fi
}

# lustre_table FILE: the table Lustre's libcfs builds from the
# modprobe.d line in FILE, in the format of cpu_partition_table, or a
# message on stderr and false.  The rules of cfs_cpt_table_create_pattern()
# and cfs_expr_list_parse(): the value is at most 1024 bytes (a charp
# parameter); as many partitions as '['; each "ID[LIST]" with ID below
# that count and given once; LIST is comma-separated "a", "a-b" or
# "a-b/s" (decimal, blanks around allowed), a through b in steps of s;
# a CPU goes into one partition once (a second time fails); nothing but
# blanks after the last ']'.  Stricter than Lustre where it would take
# nonsense: a stride of 0 (a division by zero there), a > b (nothing).
lustre_table() {
	awk '
	function bad(m) { print "lustre: " m > "/dev/stderr"; err = 1; exit 1 }
	function trim(t) { sub(/^[ \t\n]+/, "", t); sub(/[ \t\n]+$/, "", t); return t }
	{ line = line $0 }
	END {
		if (err) exit 1
		if (line !~ /^options libcfs cpu_pattern="[^"]*"$/) bad("not an options line: " line)
		v = substr(line, 29, length(line) - 29)
		if (length(v) > 1024) bad(length(v) " bytes, over 1024")
		ncpt = gsub(/\[/, "[", v)
		if (!ncpt) bad("no partition")
		s = trim(v)
		while (s != "") {
			b = index(s, "["); e = index(s, "]")
			if (!b || e < b) bad("no [...] in: " s)
			id = trim(substr(s, 1, b - 1))
			if (id !~ /^[0-9]+$/ || id + 0 >= ncpt) bad("partition id \"" id "\" of " ncpt)
			id += 0
			if (id in seen) bad("partition " id " set twice")
			seen[id] = 1; found++
			n = split(substr(s, b + 1, e - b - 1), tok, ",")
			for (i = 1; i <= n; i++) {
				t = trim(tok[i])
				if (t ~ /^[0-9]+$/) { lo = hi = t + 0; st = 1 }
				else if (t ~ /^[0-9]+-[0-9]+$/) { split(t, r, "-"); lo = r[1] + 0; hi = r[2] + 0; st = 1 }
				else if (t ~ /^[0-9]+-[0-9]+\/[0-9]+$/) { split(t, r, /[-\/]/); lo = r[1] + 0; hi = r[2] + 0; st = r[3] + 0 }
				else bad("item \"" t "\" in partition " id)
				if (st < 1 || lo > hi) bad("item \"" t "\": empty or zero stride")
				for (c = lo; c <= hi; c += st) {
					if (c in cpu) bad("CPU " c " set twice")
					cpu[c] = id; cnt[id]++
				}
			}
			s = trim(substr(s, e + 1))
		}
		if (found != ncpt) bad(found " partitions for " ncpt " brackets")
		for (c in cpu) if (c + 0 > max) max = c + 0
		for (p = 0; p < ncpt; p++) {
			if (!cnt[p]) bad("partition " p " has no CPU")
			out = p "\t:"
			for (c = 0; c <= max; c++) if ((c in cpu) && cpu[c] == p) out = out " " c
			print out
		}
	}' "$1"
}

# lustre_check NAME INPUT-ARGS... -- PLAN-ARGS...: --emit lustre prints a
# line that Lustre's grammar takes and that gives the planner's table
# back (cpt-plan without --emit: the formatter, not the emitter), or
# prints nothing, exits 1 and says so because the shortest pattern it
# found (--emit pattern) is over 1024 bytes.
lustre_check() {
	name=$1
	shift
	in=
	while [ "$1" != -- ]; do in="$in $1"; shift; done
	shift
	# shellcheck disable=SC2086 # $in is a list of arguments
	"$P" $in "$@" >"$t/want" 2>/dev/null || { skip "$name: no plan"; return; }
	# shellcheck disable=SC2086
	"$P" $in "$@" --emit lustre >"$t/line" 2>"$t/err"
	rc=$?
	# shellcheck disable=SC2086
	plen=$("$P" $in "$@" --emit pattern 2>/dev/null | tr -d '\n' | wc -c)
	if [ $rc -ne 0 ]; then
		if [ $rc -eq 1 ] && [ ! -s "$t/line" ] && [ "$plen" -gt 1024 ] &&
		   grep -q "the pattern is $plen bytes, over the 1024" "$t/err"; then
			pass "$name: --emit lustre refused, the shortest pattern found is $plen bytes"
		else
			fail "$name: --emit lustre failed (exit $rc, pattern $plen bytes)" "$(cat "$t/err")"
		fi
	elif ! lustre_table "$t/line" >"$t/got" 2>"$t/err"; then
		fail "$name: Lustre's grammar refuses the line" "$(cat "$t/err" "$t/line")"
	elif ! cmp -s "$t/want" "$t/got"; then
		fail "$name: Lustre would build another table" "$(diff "$t/want" "$t/got")"
	else
		pass "$name: --emit lustre, $plen bytes, Lustre's grammar gives the table back"
	fi
}

for f in "$F"/*.lscpu; do
	for opts in "" "--npartitions 1" "--npartitions 3" "--pattern N"; do
		# shellcheck disable=SC2086
		round_trip "$(basename "$f") $opts" --lscpu "$f" -- $opts
		# shellcheck disable=SC2086
		lustre_check "$(basename "$f") $opts" --lscpu "$f" -- $opts
	done
done
for d in "$F"/sysfs/*/; do
	for opts in "" "--npartitions 2" "--pattern X[0]"; do
		# shellcheck disable=SC2086
		round_trip "sysfs $(basename "$d") $opts" --sysfs "$d" -- $opts
		# shellcheck disable=SC2086
		lustre_check "sysfs $(basename "$d") $opts" --sysfs "$d" -- $opts
	done
done

# The checker itself: lines Lustre refuses.
for bad in '0[0-3] 0[4-7]' '0[0-3] 2[4-7]' '0[0,1,1]' '0[0-3] 1[3-5]' \
	   '0[0-7/0]' '0[5-3]' '0[0x1]' '0[0-3] junk' '0[0-3' "0[$(seq -s, 0 400)]"; do
	printf 'options libcfs cpu_pattern="%s"\n' "$bad" >"$t/line"
	if lustre_table "$t/line" >/dev/null 2>&1; then
		fail "lustre_table takes '$(echo "$bad" | cut -c1-30)'"
	else
		pass "lustre_table refuses '$(echo "$bad" | cut -c1-30)'"
	fi
done

# The seed's machine (one Xeon 8160: 24 cores, siblings n and n + 24):
# 12 partitions of two whole cores, written out by hand.
want='options libcfs cpu_pattern="0[0,1,24,25] 1[2,3,26,27] 2[4,5,28,29] 3[6,7,30,31] 4[8,9,32,33] 5[10,11,34,35] 6[12,13,36,37] 7[14,15,38,39] 8[16,17,40,41] 9[18,19,42,43] 10[20,21,44,45] 11[22,23,46,47]"'
got=$("$P" --lscpu "$F/xeon-8160.lscpu" --emit lustre)
if [ "$got" = "$want" ]; then
	pass "xeon-8160 (the seed): --emit lustre is the 12-partition line, ${#got} bytes"
else
	fail "xeon-8160 (the seed): --emit lustre" "$got"
fi

# The Xeon Phi 7250 (68 cores x SMT4, siblings k, k+68, k+136, k+204):
# 34 partitions of two cores as interleaved strides, 795 bytes where
# runs took 1103, written out by hand; Lustre's grammar gives back the
# table of tests/tool/expected/phi-7250.default.
want="options libcfs cpu_pattern=\"$(awk 'BEGIN { for (p = 0; p < 34; p++)
	printf "%s%d[%d-%d/68,%d-%d/68]", p ? " " : "", p, 2 * p, 2 * p + 204, 2 * p + 1, 2 * p + 205 }')\""
got=$("$P" --lscpu "$F/xeon-phi-7250.lscpu" --emit lustre)
if [ "$got" = "$want" ]; then
	pass "xeon-phi-7250: --emit lustre is the interleaved line, $((${#got} - 29)) bytes of pattern"
else
	fail "xeon-phi-7250: --emit lustre" "$got"
fi
printf '%s\n' "$got" >"$t/line"
if lustre_table "$t/line" | cmp -s - tests/tool/expected/phi-7250.default; then
	pass "xeon-phi-7250: Lustre's grammar gives the hand-written table back"
else
	fail "xeon-phi-7250: Lustre's grammar gives another table" "$(lustre_table "$t/line" 2>&1 | head -n 5)"
fi

# Shortest lists: runs and strides where they are shorter.
got=$("$P" --lscpu "$F/xeon-8160.lscpu" --pattern '0[0-11] 1[12-23,36-47] 2[24-35/2] 3[25-35/2]' --emit pattern)
want='0[0-11] 1[12-23,36-47] 2[24-34/2] 3[25-35/2]'
if [ "$got" = "$want" ]; then
	pass "--emit pattern writes runs and strides: $got"
else
	fail "--emit pattern: runs and strides" "$got, expected $want"
fi

# Over 1024 bytes: no line, exit 1, the size and cpu_npartitions.
if "$P" --lscpu "$F/epyc-7742-2s-nps4.lscpu" --emit lustre >"$t/out" 2>"$t/err"; then
	fail "epyc-7742: a line over 1024 bytes was printed" "$(wc -c <"$t/out")"
elif [ -s "$t/out" ] || ! grep -q 'bytes, over the 1024.*cpu_npartitions=' "$t/err"; then
	fail "epyc-7742: the refusal" "$(cat "$t/out" "$t/err")"
else
	pass "epyc-7742: over 1024 bytes refused: $(cut -c1-80 "$t/err")..."
fi

# Usage.
if "$P" --lscpu "$F/xeon-8160.lscpu" --emit lnet >/dev/null 2>&1; then
	fail "--emit lnet accepted"
else
	pass "--emit takes pattern or lustre only (exit $?)"
fi

report_summary "test-tool --emit:"
