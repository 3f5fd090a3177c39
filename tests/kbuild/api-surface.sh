#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# api-surface.sh DIR: the API's size and the glue's shape, read from the
# objects of a kbuild of cpt.ko and the test modules in DIR (make
# test-kbuild), not from the sources:
#   - at most CPT_MAX_EXPORTS (33) exported functions, besides the per-CPU
#     cpt_cpu_partition (Module.symvers for the exports, nm for which are
#     functions);
#   - each exported function is called by a module under tests/modules
#     (an undefined symbol of one of their .ko files);
#   - no call circle among cpt/linux/*.o: an edge A -> B for each global
#     symbol that A uses and B defines, and tsort finds no loop in them.
# Prints a "N passed, N failed" line; exits 1 on any failure.
set -u
dir=${1:?usage: api-surface.sh KBUILD-DIR}
max=${CPT_MAX_EXPORTS:-33}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
passed=0 failed=0
pass() { echo "api-surface: PASS: $*"; passed=$((passed + 1)); }
fail() { echo "api-surface: FAIL: $*"; failed=$((failed + 1)); }

# The exports of cpt.ko, and which of them are functions (T in nm).
awk '$3 ~ /(^|\/)cpt$/ { print $2 }' "$dir/Module.symvers" | sort >"$t/exports"
nm --defined-only "$dir/cpt.ko" | awk '$2 == "T" { print $3 }' | sort >"$t/text"
comm -12 "$t/exports" "$t/text" >"$t/functions"
comm -23 "$t/exports" "$t/text" >"$t/data"
nf=$(wc -l <"$t/functions")
if [ "$nf" -gt 0 ] && [ "$nf" -le "$max" ]; then
	pass "$nf exported functions (at most $max)"
else
	fail "$nf exported functions (at most $max): $(tr '\n' ' ' <"$t/functions")"
fi
if [ "$(cat "$t/data")" = cpt_cpu_partition ]; then
	pass "the one exported variable is cpt_cpu_partition"
else
	fail "exported variables: $(tr '\n' ' ' <"$t/data")"
fi

# Every exported function has a caller among the test modules.
for ko in "$dir"/tests/modules/*.ko; do
	nm -u "$ko" | awk '{ print $2 }'
done | sort -u >"$t/used"
unused=$(comm -23 "$t/functions" "$t/used" | tr '\n' ' ')
if [ -z "$unused" ]; then
	pass "each exported function is called by a module under tests/modules"
else
	fail "exported but called by no test module: $unused"
fi

# The glue's call graph, object by object.
for o in "$dir"/cpt/linux/*.o; do
	f=$(basename "$o" .o)
	nm --defined-only -g "$o" | awk -v f="$f" 'NF == 3 { print $3, f }'
done | sort >"$t/defs"
for o in "$dir"/cpt/linux/*.o; do
	f=$(basename "$o" .o)
	nm -u "$o" | awk -v f="$f" '{ print $2, f }'
done | sort >"$t/uses"
# "user definer" for each symbol a glue file uses and another defines.
join "$t/uses" "$t/defs" | awk '$2 != $3 { print $2, $3 }' | sort -u >"$t/edges"
[ -s "$t/edges" ] || fail "no call between the glue's objects: nm read nothing?"
echo "api-surface: the glue's calls (file -> files it calls):"
awk '{ a[$1] = a[$1] " " $2 } END { for (k in a) print "  " k " ->" a[k] }' \
	"$t/edges" | sort
if tsort "$t/edges" >/dev/null 2>"$t/loop"; then
	pass "no call circle among cpt/linux/*.o ($(wc -l <"$t/edges") edges)"
else
	fail "a call circle among cpt/linux/*.o: $(tr '\n' ' ' <"$t/loop")"
fi

echo "api-surface: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
