#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# probe-faults.sh EXPECTED SERIES RELEASE BASE: a broken probe fails the
# build, a missing interface does not, on kernel RELEASE (of SERIES in
# EXPECTED, tests/kbuild/probes.expected).  BASE is a staged copy of the
# module's sources (scripts/stage-tree).  Each case copies it to
# BASE-CASE, changes one probe there, and builds one object that reads
# compat.h (cpt/linux/topo.o, after the probes) with scripts/kmake:
#
#   broken-include  a probe that includes a header no kernel has: the
#                   build fails, naming the probe and showing the compiler
#   no-control      a probe without a control form: the build fails,
#                   naming it
#   missing         a probe of a function no kernel has, with its control:
#                   the build goes on, and the probe says no
#   no-symvers      the kernel's Module.symvers cannot be read (a headers
#                   tree without it): the build fails, naming a probe that
#                   needs exports, rather than let it say no
#   no-count        (where register_sysctl() counts) register_sysctl()
#                   made a function of a pointer, as on 6.1, under the
#                   counting probe: it says no, where a probe of the symbol
#                   register_sysctl_sz() would have said yes
#   hk-boot         (where cpusets change HK_TYPE_DOMAIN) the
#                   HK_TYPE_DOMAIN_BOOT probe made to miss: compat.h fails
#                   the build rather than fall back to HK_TYPE_DOMAIN
set -u
expected=$1 series=$2 rel=$3 base=$4
REPORT_TAG=probe-faults
# shellcheck source=tests/lib/report.sh
. tests/lib/report.sh
probes=cpt/linux/probes

# want NAME: whether EXPECTED says yes for probe NAME on SERIES.
want() {
	awk -v s="$series" -v n="$1" '$1 == s && $2 == n && $3 == "yes" { y = 1 }
		END { exit !y }' "$expected"
}

# stage CASE: a fresh copy of BASE for CASE, in $dir, to be changed.
stage() {
	dir=$base-$1
	rm -rf "$dir" "$dir.log"
	cp -R "$base" "$dir"
}

# build: build the copy in $dir; its output in $dir.log.
build() {
	scripts/kmake "$rel" --no-print-directory M="$(pwd)/$dir" \
		cpt/linux/topo.o >"$dir.log" 2>&1
}

# expect_fail CASE PATTERN...: the build failed, and its output matches
# every PATTERN (fixed strings).
expect_fail() {
	c=$1
	shift
	if build; then
		fail "$series: $c: the build succeeded" "$(tail -n 20 "$dir.log")"
		return
	fi
	for pat in "$@"; do
		if ! grep -qF -- "$pat" "$dir.log"; then
			fail "$series: $c: the build failed, but its output does not say '$pat'" \
				"$(tail -n 20 "$dir.log")"
			return
		fi
	done
	pass "$series: $c: the build fails: $(grep -m1 -e 'probe\.sh:' -e '#error' -e 'error:' "$dir.log" | cut -c1-160)"
}

# expect_no CASE NAME: the build succeeded, and probe NAME said no.
expect_no() {
	if ! build; then
		fail "$series: $1: the build failed" "$(tail -n 20 "$dir.log")"
	elif ! grep -q "^/\* $2: no " "$dir/cptk_probes.h"; then
		fail "$series: $1: $2 did not say no" "$(cat "$dir/cptk_probes.h")"
	else
		pass "$series: $1: the build goes on, $2 says no"
	fi
}

# The include goes after the probe's own, where its control reads it too.
stage broken-include
sed -i '/^#include/a #include <linux/cptk_no_such_header.h>' "$dir/$probes/hk_type.c"
expect_fail broken-include "probe.sh: probe" "hk_type.c" "CPTK_HAVE_HK_TYPE" \
	"is broken" "cptk_no_such_header.h"

stage no-control
printf '%s\n' '// SPDX-License-Identifier: GPL-2.0' \
	'/* CPTK_HAVE_ZZ_NO_CONTROL: a test probe without a control form */' \
	'#include <linux/module.h>' >"$dir/$probes/zz_no_control.c"
expect_fail no-control "zz_no_control.c" "has no control form"

stage missing
printf '%s\n' '// SPDX-License-Identifier: GPL-2.0' \
	'/* CPTK_HAVE_ZZ_MISSING: a test probe of a function no kernel has */' \
	'#include <linux/module.h>' 'int probe(void);' 'int probe(void)' '{' \
	'#ifdef CPTK_PROBE_CONTROL' '	return 0;' '#else' \
	'	return cptk_no_such_function();' '#endif' '}' \
	>"$dir/$probes/zz_missing.c"
expect_no missing CPTK_HAVE_ZZ_MISSING

# Kbuild hands probe.sh the tree's Module.symvers: point it at none.
stage no-symvers
sed -i 's#\$(objtree)/Module\.symvers#$(objtree)/cptk-no-such-dir/Module.symvers#' \
	"$dir/Kbuild"
if ! grep -q 'cptk-no-such-dir/Module.symvers' "$dir/Kbuild"; then
	fail "$series: no-symvers: Kbuild no longer hands probe.sh \$(objtree)/Module.symvers" \
		"$(grep -n probe.sh "$dir/Kbuild")"
else
	expect_fail no-symvers "probe.sh: probe" "cptk-no-such-dir/Module.symvers, which cannot be read"
fi

if want CPTK_HAVE_REGISTER_SYSCTL_COUNTS; then
	stage no-count
	sed -i '/^#include <linux\/sysctl.h>/a #undef register_sysctl\nstruct ctl_table_header *register_sysctl(const char *path, void *table);' \
		"$dir/$probes/register_sysctl_counts.c"
	expect_no no-count CPTK_HAVE_REGISTER_SYSCTL_COUNTS
fi

if want CPTK_HAVE_HK_UPDATE; then
	stage hk-boot
	sed -i 's/HK_TYPE_DOMAIN_BOOT)/HK_TYPE_CPTK_NO_SUCH)/' \
		"$dir/$probes/hk_type_domain_boot.c"
	expect_fail hk-boot "cpusets change HK_TYPE_DOMAIN" \
		"HK_TYPE_DOMAIN_BOOT, the isolcpus= set alone, is missing"
fi

report_summary "probe-faults $series:"
