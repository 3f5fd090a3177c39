#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The layout's rules, checked (make test-layout):
#   - cpt/core includes nothing but its own headers; only cplan_shim.h
#     reaches the kernel or libc;
#   - no version number test in the module (the probes decide);
#   - nothing of cpt/linux is compiled into cpt-plan;
#   - each module source is named by one build file (cpt/sources.mk);
#   - the glue's includes form no cycle, and a glue header X.h declares
#     what X.c defines;
#   - no function in cpt/ or scripts/ is longer than 80 lines;
#   - every guest script passes shellcheck on its own;
#   - every relative link of README.md and doc/*.md names a file that
#     exists (and a heading of it, for a #anchor into a .md file), and
#     every repository file a man page names exists.
# Run from the repository root; MAKE is the make to ask for the lists.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib/report.sh
. tests/lib/report.sh
MAKE=${MAKE:-make}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# 1. The core's includes.
bad=$(grep -n '^[[:space:]]*#[[:space:]]*include' cpt/core/*.c cpt/core/*.h |
	grep -v '^cpt/core/cplan_shim\.h:' | grep -v '"cplan[a-z_]*\.h"')
if [ -z "$bad" ]; then
	pass "layout: cpt/core includes only cplan*.h (the shim reaches the system)"
else
	fail "layout: cpt/core includes outside the shim: $bad"
fi

# 1b. Kernel versions: probes (cpt/linux/probes) decide, not numbers.
vers=$(git grep -n -E 'LINUX_VERSION_CODE|KERNEL_VERSION' -- cpt include tests/modules Kbuild)
if [ -z "$vers" ]; then
	pass "layout: no LINUX_VERSION_CODE or KERNEL_VERSION in the module's sources"
else
	fail "layout: version tests: $vers"
fi

# 2. The tool's build names no glue file.
$MAKE -s -B -n scripts/cpt-plan build/cpt-plan.static >"$t/tool" 2>&1
if grep -q 'cpt/core/plan\.c' "$t/tool" && ! grep -q 'cpt/linux' "$t/tool"; then
	pass "layout: cpt-plan is built from the core and scripts/, no cpt/linux file"
else
	fail "layout: cpt-plan's build: $(grep -o 'cpt/linux/[a-z_]*\.c' "$t/tool" | sort -u | tr '\n' ' ')"
fi

# 3. One build file names each module source.
srcs=$($MAKE -s --no-print-directory print-module-sources 2>/dev/null)
[ -n "$srcs" ] || fail "layout: make print-module-sources printed nothing"
git ls-files 'Makefile' 'Kbuild' '*.mk' '*/Kbuild' 'dkms.conf' >"$t/build"
for s in $srcs; do
	base=$(basename "$s")
	re=$(printf '%s' "$base" | sed 's/\./\\./g')
	xargs grep -lE "(^|[^A-Za-z0-9_.-])$re([^A-Za-z0-9_.-]|\$)" <"$t/build" >"$t/named"
	[ "$(wc -l <"$t/named")" -eq 1 ] ||
		fail "layout: $base named in: $(tr '\n' ' ' <"$t/named")"
done
[ -n "$srcs" ] && pass "layout: $(echo "$srcs" | wc -w) module sources, each named in one build file"

# 4. The glue's include graph: X.c including "Y.h" depends on Y.
for c in cpt/linux/*.c; do
	x=$(basename "$c" .c)
	sed -n 's/^#include "\([a-z_]*\)\.h".*/\1/p' "$c" | while read -r y; do
		[ "$y" = "$x" ] || [ "$y" = compat ] || [ ! -f "cpt/linux/$y.c" ] ||
			echo "$x $y"
	done
done >"$t/deps"
for h in cpt/linux/*.h; do
	x=$(basename "$h" .h)
	sed -n 's/^#include "\([a-z_]*\)\.h".*/\1/p' "$h" | while read -r y; do
		[ -f "cpt/linux/$y.c" ] && echo "$x $y"
	done
done >>"$t/deps"
if tsort "$t/deps" >"$t/order" 2>"$t/cycle"; then
	pass "layout: the glue's includes form no cycle ($(wc -l <"$t/deps") edges)"
else
	fail "layout: include cycle in cpt/linux: $(cat "$t/cycle")"
fi
for h in cpt/linux/*.h; do
	x=$(basename "$h" .h)
	[ -f "cpt/linux/$x.c" ] || continue
	grep -v '^static' "$h" | sed -n 's/^[a-z].*[ *]\(cptk_[a-z_]*\)(.*/\1/p' | while read -r f; do
		grep -q "^[a-z].*[ *]$f(" "cpt/linux/$x.c" ||
			echo "$f (declared in $x.h)"
	done
done >"$t/strays"
if [ -s "$t/strays" ]; then
	fail "layout: not defined in the .c of their header: $(tr '\n' ' ' <"$t/strays")"
else
	pass "layout: each glue header declares what its own .c defines"
fi

# 5. Function length.
long=$(awk -f tests/layout/funclen.awk cpt/core/*.c cpt/linux/*.c scripts/*.c |
	awk '$3 > 80')
if [ -z "$long" ]; then
	pass "layout: no function in cpt/ or scripts/ over 80 lines"
else
	fail "layout: functions over 80 lines: $long"
fi

# 6. Guest scripts alone.
if command -v shellcheck >/dev/null; then
	for g in tests/*/guest-*.sh tests/lib/*.sh; do
		[ -f "$g" ] || continue
		if shellcheck -x "$g" >"$t/sc" 2>&1; then
			pass "layout: shellcheck $g"
		else
			fail "layout: shellcheck $g: $(head -5 "$t/sc")"
		fi
	done
else
	fail "layout: shellcheck not installed: run scripts/install-deps"
fi

# 7. Links.  [text](path) and [text](path#anchor) in README.md and
# doc/*.md, outside fenced code, relative to the file; http(s): and
# mailto: are not followed.  An anchor must be the GitHub slug of a
# heading of the .md file it points into: lower case, punctuation but
# '-' and '_' dropped, spaces made '-'.
# slugs FILE: the slug of each heading of FILE, outside fenced code.
slugs() {
	awk '/^```/ { fence = !fence; next }
	     !fence && /^#+[ \t]/ { sub(/^#+[ \t]+/, ""); sub(/[ \t#]+$/, ""); print }' "$1" |
		tr '[:upper:]' '[:lower:]' | sed 's/[^a-z0-9 _-]//g; s/ /-/g'
}
nlinks=0
: >"$t/badlinks"
for md in README.md doc/*.md; do
	[ -f "$md" ] || continue
	awk '/^```/ { fence = !fence; next }
	     fence { next }
	     { s = $0
	       while (match(s, /\]\([^) \t]+([ \t]+"[^"]*")?\)/)) {
		       l = substr(s, RSTART + 2, RLENGTH - 3)
		       sub(/[ \t].*/, "", l)
		       print FNR "\t" l
		       s = substr(s, RSTART + RLENGTH)
	       } }' "$md" >"$t/links"
	while IFS="$(printf '\t')" read -r line l; do
		case $l in http://* | https://* | mailto:*) continue ;; esac
		nlinks=$((nlinks + 1))
		path=${l%%#*}
		anchor=
		case $l in *'#'*) anchor=${l#*#} ;; esac
		if [ -z "$path" ]; then
			target=$md
		else
			target=$(dirname "$md")/$path
		fi
		if [ ! -e "$target" ]; then
			echo "$md:$line: $l: no file $target" >>"$t/badlinks"
		elif [ -n "$anchor" ] && [ "${target%.md}" != "$target" ] &&
			! slugs "$target" | grep -qx -- "$anchor"; then
			echo "$md:$line: $l: no heading #$anchor in $target" >>"$t/badlinks"
		fi
	done <"$t/links"
done
if [ -s "$t/badlinks" ]; then
	fail "layout: broken links in the markdown" "$(cat "$t/badlinks")"
else
	pass "layout: $nlinks relative links of README.md and doc/*.md resolve"
fi

# 7b. Repository files named by the man pages (.B, .I, .BR, .IR, ...):
# a word that starts with one of the tree's top folders or is a top file.
tops=$(git ls-files | sed 's|/.*|/|; s|^[^/]*$|&$|; s/[.]/[.]/g' | sort -u | tr '\n' '|')
nfiles=0
: >"$t/badman"
for m in man/*; do
	[ -f "$m" ] || continue
	awk '/^\.[BI][BIR]?[ \t]/ {
		gsub(/\\-/, "-"); gsub(/\\&/, ""); gsub(/\\c$/, ""); gsub(/"/, "")
		for (i = 2; i <= NF; i++) {
			w = $i; sub(/^[(<]+/, "", w); sub(/[),;:.>]+$/, "", w)
			print FNR "\t" w
		} }' "$m" | grep -E "	(${tops%|})" >"$t/mwords"
	while IFS="$(printf '\t')" read -r line w; do
		nfiles=$((nfiles + 1))
		[ -e "$w" ] || echo "$m:$line: $w: no such file in the tree" >>"$t/badman"
	done <"$t/mwords"
done
if [ -s "$t/badman" ]; then
	fail "layout: man pages name missing files" "$(cat "$t/badman")"
else
	pass "layout: $nfiles repository files named by the man pages exist"
fi

report_summary "test-layout:"
