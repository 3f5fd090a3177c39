#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make test-man: the man pages render without any warning, fit in 80
# columns, and say what the code does.
#
#   sh packaging/test-man.sh CPT_PLAN PAGE...
#
# For each page:
#   - man --warnings (man-db, through groff) and groff -man -ww -z print
#     nothing on stderr;
#   - the text rendered at MANWIDTH=80 is at most 80 columns wide and has
#     the sections it must have;
#   - the .TH version is dkms.conf's PACKAGE_VERSION;
#   - every example "$ cpt-plan ..." or "$ cat /proc/sys/lnet/..." followed
#     by output is run with cpt-plan on the machine the pages describe (two
#     nodes of four cores, two threads per core, siblings i and i+8), and
#     its output must match: exactly, or line by line in order where the
#     page elides lines with "...".
# cpt(4) must name every module parameter (module_param* in cpt/linux/*.c),
# every /proc/sys/lnet file (.procname) and every errno of doc/planner.md;
# cpt-plan(8) every long option and exit status of cpt-plan --help.
set -u

if [ $# -lt 2 ]; then
	echo "usage: $0 CPT_PLAN PAGE..." >&2
	exit 2
fi
tool=$1
shift
case $tool in /*) ;; *) tool=$(pwd)/$tool ;; esac
out=build/man
rm -rf "$out"
mkdir -p "$out"

REPORT_TAG=test-man
# shellcheck source=tests/lib/report.sh
. "$(dirname "$0")/../tests/lib/report.sh"

for t in man groff; do
	command -v $t >/dev/null || { fail "$t not installed (man-db, groff-base): run scripts/install-deps"; exit 1; }
done

version=$(sed -n 's/^PACKAGE_VERSION="\{0,1\}\([^"]*\)"\{0,1\}[[:space:]]*$/\1/p' dkms.conf)

# The example machine of the pages, as `lscpu -p` prints it.
m16=$out/m16.lscpu
{
	echo '# CPU,Core,Socket,Node,,L1d,L1i,L2,L3'
	for c in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		core=$((c % 8)) node=$((c % 8 / 4))
		echo "$c,$core,$node,$node,,$core,$core,$core,$node"
	done
} >"$m16"

# Lines of $1 appear in $2 in the same order (others may come between).
subseq() {
	awk 'NR == FNR { want[++n] = $0; next }
	     i < n && $0 == want[i + 1] { i++ }
	     END { exit !(i == n) }' "$1" "$2"
}
norm() { tr '\t' ' ' | tr -s ' ' | sed 's/^ //; s/ $//'; }

# check_examples TXT NAME: run the examples of a rendered page.  An example
# is a "$ " or "# " line and the lines after it indented at least as much
# (blank lines included), up to the next prompt or a less indented line.
check_examples() {
	txt=$1 name=$2 n=0 bad=0
	awk -v dir="$out" -v name="$name" '
		function indent(s) { match(s, /^ */); return RLENGTH }
		{ line = $0; sub(/^ +/, "", line) }
		line ~ /^[$#] / { f = dir "/" name ".ex" (++i); ind = indent($0)
			print line > f; next }
		f != "" && ($0 ~ /^ *$/ || indent($0) >= ind) { print line > f; next }
		{ f = "" }' "$txt"
	for f in "$out/$name".ex*; do
		[ -f "$f" ] || continue
		cmd=$(head -n 1 "$f")
		case $cmd in
		*\\) continue ;;
		'$ cpt-plan'*) run="\"\$tool\" --lscpu \"\$m16\"${cmd#'$ cpt-plan'}" ;;
		'$ cat /proc/sys/lnet/cpu_partition_table') run='"$tool" --lscpu "$m16"' ;;
		'$ cat /proc/sys/lnet/cpu_partition_distance') run='"$tool" --lscpu "$m16" --distance' ;;
		*) continue ;;
		esac
		tail -n +2 "$f" | grep -v '^$' | norm | grep -v '^Topology (' >"$f.want"
		[ -s "$f.want" ] || continue
		n=$((n + 1))
		eval "$run" 2>/dev/null | grep -v '^$' | norm | grep -v '^Topology (' >"$f.got"
		if grep -qx '\.\.\.' "$f.want"; then
			grep -vx '\.\.\.' "$f.want" >"$f.want2"
			subseq "$f.want2" "$f.got" && continue
		else
			cmp -s "$f.want" "$f.got" && continue
		fi
		bad=$((bad + 1))
		fail "$name: example '${cmd#'$ '}' does not show what cpt-plan prints:"
		diff "$f.want" "$f.got" | head -n 10
	done
	[ $bad -eq 0 ] && pass "$name: $n examples match cpt-plan's output"
}

# need TXT NAME WHAT WORD...: each WORD appears in the rendered page.
need() {
	txt=$1 name=$2 what=$3 missing=
	shift 3
	for w in "$@"; do
		grep -qF -- "$w" "$txt" || missing="$missing $w"
	done
	[ -z "$missing" ] && pass "$name: names every $what ($*)" ||
		fail "$name: does not name the $what$missing"
}

for page in "$@"; do
	name=$(basename "$page")
	txt=$out/$name.txt
	if [ ! -f "$page" ]; then
		fail "$page missing"
		continue
	fi
	LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 \
		man --warnings -E UTF-8 -l "$page" >"$txt" 2>"$out/$name.man.err"
	rc=$?
	if [ $rc -eq 0 ] && [ ! -s "$out/$name.man.err" ] && [ -s "$txt" ]; then
		pass "$name: man --warnings -E UTF-8 -l: no warning"
	else
		fail "$name: man --warnings -l (rc $rc):"
		cat "$out/$name.man.err"
	fi
	groff -man -ww -z "$page" >"$out/$name.groff.err" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && [ ! -s "$out/$name.groff.err" ]; then
		pass "$name: groff -man -ww -z: no warning"
	else
		fail "$name: groff -man -ww -z (rc $rc):"
		cat "$out/$name.groff.err"
	fi
	width=$(LC_ALL=C.UTF-8 wc -L <"$txt")
	[ "$width" -le 80 ] && pass "$name: $width columns at MANWIDTH=80" ||
		fail "$name: $width columns wide at MANWIDTH=80: $(LC_ALL=C.UTF-8 awk 'length > 80' "$txt" | head -n 3)"
	th=$(sed -n 's/^\.TH [^ ]* [^ ]* [^ ]* "\([^"]*\)".*/\1/p' "$page")
	[ "$th" = "cpt $version" ] && pass "$name: .TH says 'cpt $version' as dkms.conf" ||
		fail "$name: .TH source '$th', dkms.conf says version '$version'"

	sections='NAME|SYNOPSIS|DESCRIPTION|SEE ALSO'
	case $name in
	cpt.4) sections="$sections|PARAMETERS|DEFAULT LAYOUT|PATTERN SYNTAX|SYSCTL|CPU HOTPLUG|DIAGNOSTICS|FILES" ;;
	*.8) sections="$sections|OPTIONS|EXIT STATUS|EXAMPLES" ;;
	esac
	missing=
	old_ifs=$IFS
	IFS='|'
	for s in $sections; do
		grep -qx -- "$s" "$txt" || missing="$missing [$s]"
	done
	IFS=$old_ifs
	[ -z "$missing" ] && pass "$name: has its sections" ||
		fail "$name: missing sections$missing"

	check_examples "$txt" "$name"

	case $name in
	cpt.4)
		# fault.c is in test builds only (cpt/linux/fault.h).
		params=$(sed -n 's/^module_param[a-z_]*(\([a-z_0-9]*\),.*/\1=/p' \
			$(ls cpt/linux/*.c | grep -v '/fault\.c$') | sort -u)
		[ -n "$params" ] || fail "$name: no module_param found in cpt/linux/*.c"
		need "$txt" "$name" "module parameter" $params
		files=$(sed -n 's/.*\.procname[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' cpt/linux/*.c | sort -u)
		[ -n "$files" ] || fail "$name: no .procname found in cpt/linux/*.c"
		need "$txt" "$name" "/proc/sys/lnet file" $files
		errnos=$(grep -o -E '\-E[A-Z0-9]+' doc/planner.md | tr -d - | sort -u)
		need "$txt" "$name" "errno of doc/planner.md" $errnos
		need "$txt" "$name" "sysctl" lnet.cpu_npartitions lnet.cpu_pattern \
			/etc/sysctl.d /etc/modprobe.d/cpt.conf
		;;
	cpt-plan.8)
		help=$("$tool" --help 2>&1)
		opts=$(printf '%s\n' "$help" | grep -o -E '\-\-[a-z][a-z-]*' | sort -u)
		need "$txt" "$name" "option of cpt-plan --help" $opts
		codes=$(printf '%s\n' "$help" | tr '\n' ' ' | sed -n 's/.*Exit status:\(.*\)/\1/p' |
			grep -o -E '(^|[ ,])[0-9]+ ' | tr -dc '0-9 \n' | tr -s ' ' '\n' | sort -u)
		missing=
		for c in $codes; do
			sed -n '/^EXIT STATUS/,/^[A-Z]/p' "$txt" | grep -q -E "^ +$c( |$)" ||
				missing="$missing $c"
		done
		[ -n "$codes" ] && [ -z "$missing" ] &&
			pass "$name: EXIT STATUS lists every status of --help ($(echo $codes))" ||
			fail "$name: exit statuses of --help '$(echo $codes)', missing in EXIT STATUS:$missing"
		;;
	esac
done

report_verdict "$*"
