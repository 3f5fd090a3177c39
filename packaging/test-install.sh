#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make test-install: `make install` into a DESTDIR lays out the module, the
# configuration examples, the man pages and cpt-plan, and touches nothing
# outside it.
#
#   sh packaging/test-install.sh OUT RELEASE
#
# Runs in a copy of the tree (OUT/src: the files git knows, tracked or not
# ignored), so that building cpt.ko for RELEASE neither races with other
# builds in the tree nor leaves objects there, then
#   make -C OUT/src install DESTDIR=OUT/destdir KDIR=/usr/src/linux-headers-RELEASE
# Checks:
#   lib/modules/RELEASE/{updates,extra}/cpt.ko with RELEASE as vermagic, and
#   depmod's index there naming it (modinfo -b DESTDIR -k RELEASE cpt);
#   etc/modprobe.d/cpt.conf, every line a comment, whose examples parse
#   once uncommented; the sysctl.d example only under usr/share/doc
#   (nothing in etc/sysctl.d); usr/share/man/man4/cpt.4.gz and
#   man8/cpt-plan.8.gz; usr/sbin/cpt-plan that runs; no other file;
#   an edited etc/modprobe.d/cpt.conf survives a second install;
#   /lib/modules, /etc, /usr/sbin, /usr/share/man, /usr/share/doc and the
#   kernel headers are the same before and after;
#   the copy is as clean after the build as before (`git status` in it
#   shows nothing): what the build writes is ignored by .gitignore, since
#   a package build starts from such a tree.
# Then, as root where mount namespaces and overlayfs are available, a
# relative DESTDIR, as a user types it: kbuild runs modules_install from
# KDIR, so a relative INSTALL_MOD_PATH lands next to the kernel headers
# unless the Makefile makes it absolute.  That run happens in a private
# mount namespace with /usr/src on an overlay, which must stay empty.
set -u
REPORT_TAG=test-install
# shellcheck source=tests/lib/report.sh
. "$(dirname "$0")/../tests/lib/report.sh"
# shellcheck source=tests/lib/host-lib.sh
. "$(dirname "$0")/../tests/lib/host-lib.sh"

# Inside the private mount namespace: make install DESTDIR=../destdir-rel.
if [ "${1:-}" = --relative ]; then
	out=$2 kdir=$3 rel=$4
	mount -t tmpfs cpt-test-install "$out/ns" || exit 3
	mkdir -p "$out/ns/upper" "$out/ns/work"
	mount -t overlay overlay \
		-o "lowerdir=/usr/src,upperdir=$out/ns/upper,workdir=$out/ns/work" \
		/usr/src || exit 3
	make -C "$out/src" --no-print-directory install \
		DESTDIR=../destdir-rel KDIR="$kdir" >"$out/install-rel.log" 2>&1 ||
		{ tail -n 20 "$out/install-rel.log"; exit 1; }
	leaked=$(cd "$out/ns/upper" && find . -mindepth 1 | head -n 5)
	if [ -n "$leaked" ]; then
		echo "make install DESTDIR=../destdir-rel wrote under /usr/src:" $leaked
		exit 1
	fi
	ls "$out"/destdir-rel/lib/modules/"$rel"/*/cpt.ko* >/dev/null 2>&1 ||
		{ echo "no cpt.ko under destdir-rel/lib/modules/$rel"; exit 1; }
	exit 0
fi

if [ $# -ne 2 ]; then
	echo "usage: $0 OUT RELEASE" >&2
	exit 2
fi
top=$(pwd)
out=$1 rel=$2
case $out in /*) ;; *) out=$top/$out ;; esac
kdir=/usr/src/linux-headers-$rel
src=$out/src dest=$out/destdir

finish() {
	report_verdict "make install DESTDIR=... KDIR=$kdir"
	exit
}

PATH=$PATH:/usr/sbin:/sbin
if [ ! -d "$kdir" ]; then
	fail "$kdir missing: run scripts/install-deps"
	finish
fi

rm -rf "$out"
mkdir -p "$src" "$out/tmp"
export TMPDIR="$out/tmp"

# The copy: what git would commit (tracked or untracked, not ignored), or
# without git everything but build outputs.
tree_copy "$top" "$src"
if [ -f "$src/Makefile" ] && [ -f "$src/packaging/pkg.mk" ]; then
	pass "copied the tree to ${src#"$top"/}"
else
	fail "copy of the tree in $src incomplete"
	finish
fi

# The copy becomes a repository of its own, every file committed, so that
# `git status` after the build names exactly what the build left that
# .gitignore does not cover.
gitq() { git -C "$src" -c user.name=test -c user.email=test@invalid "$@"; }
clean_check=0
if command -v git >/dev/null && gitq init -q && gitq add -A &&
	gitq commit -q -m copy; then
	clean_check=1
fi

# The host's state: names, types, sizes and times.
snapshot() {
	for d in /lib/modules /etc/modprobe.d /etc/sysctl.d /usr/share/doc/cpt; do
		[ -e "$d" ] && find "$d" -printf '%p %y %s %T@ %l\n'
	done
	for d in /etc /usr/sbin /usr/share/man/man4 /usr/share/man/man8 \
		 /usr/share/doc /usr/src "$kdir"; do
		[ -e "$d" ] && find "$d" -maxdepth 1 -printf '%p %y %s %T@ %l\n'
	done
}
snapshot | sort >"$out/host.before"

log=$out/install.log
start=$(date +%s)
if make -C "$src" --no-print-directory install DESTDIR="$dest" \
	KDIR="$kdir" >"$log" 2>&1; then
	pass "make install DESTDIR=${dest#"$top"/} KDIR=$kdir ($(($(date +%s) - start)) s)"
else
	fail "make install (log: $log):"
	tail -n 30 "$log"
fi

if [ "$clean_check" = 1 ]; then
	dirty=$(gitq status --porcelain)
	[ -z "$dirty" ] && pass "tree clean after the build (git status shows nothing)" ||
		fail "the build left files that .gitignore does not cover:" "$dirty"
else
	skip "tree clean after the build (no git)"
fi

# The module and depmod's index, in DESTDIR only.
mods=$dest/lib/modules/$rel
ko=$(find "$mods/updates" "$mods/extra" -name 'cpt.ko*' 2>/dev/null | head -n 1)
if [ -n "$ko" ]; then
	pass "module ${ko#"$dest"/}"
	vermagic=$(modinfo -F vermagic "$ko" 2>/dev/null)
	[ "${vermagic%% *}" = "$rel" ] && pass "vermagic '$vermagic'" ||
		fail "vermagic '$vermagic', expected '$rel ...'"
else
	fail "no cpt.ko under ${mods#"$dest"/}/updates or extra"
fi
found=$(modinfo -b "$dest" -k "$rel" -n cpt 2>/dev/null)
if [ -n "$ko" ] && [ "$found" = "$ko" ]; then
	pass "depmod ran in DESTDIR: modinfo -b DESTDIR -k $rel cpt finds it"
else
	fail "depmod did not index cpt in DESTDIR (modinfo -b finds '$found'; modules.dep: $(ls "$mods"/modules.dep 2>&1))"
fi
ls -d "$dest"/lib/modules/99.98.* >/dev/null 2>&1 &&
	fail "depmod's 99.98 symlink left in DESTDIR"

# /etc/modprobe.d/cpt.conf: changes nothing, and its examples are valid.
conf=$dest/etc/modprobe.d/cpt.conf
if [ -f "$conf" ]; then
	active=$(grep -n -v -E '^[[:space:]]*(#|$)' "$conf")
	[ -z "$active" ] && pass "etc/modprobe.d/cpt.conf: every line a comment" ||
		fail "etc/modprobe.d/cpt.conf has active lines: $active"
	sed -n 's/^#[[:space:]]*\(options[[:space:]]\+cpt[[:space:]]\)/\1/p' \
		"$conf" >"$out/modprobe-uncommented.conf"
	n=$(wc -l <"$out/modprobe-uncommented.conf")
	shown=$(modprobe -C "$out/modprobe-uncommented.conf" -d "$dest" -S "$rel" \
		--showconfig 2>"$out/modprobe.err" | grep -c '^options cpt ')
	if [ "$n" -gt 0 ] && [ "$shown" -eq "$n" ] && [ ! -s "$out/modprobe.err" ]; then
		pass "etc/modprobe.d/cpt.conf: its $n 'options cpt' examples parse (modprobe --showconfig)"
	else
		fail "etc/modprobe.d/cpt.conf: $n examples, modprobe shows $shown: $(cat "$out/modprobe.err")"
	fi
else
	fail "no etc/modprobe.d/cpt.conf"
fi

# The sysctl.d example: shipped, not active.
ex=$dest/usr/share/doc/cpt/examples/90-cpt.conf
if [ -f "$ex" ]; then
	pass "usr/share/doc/cpt/examples/90-cpt.conf"
	bad=$(sed -n 's/^#[[:space:]]*\(lnet\.\)/\1/p' "$ex" |
		grep -v -E '^lnet\.(cpu_npartitions|cpu_pattern)[[:space:]]*=[[:space:]]*[^[:space:]]')
	keys=$(grep -c -E '^#[[:space:]]*lnet\.' "$ex")
	[ "$keys" -gt 0 ] && [ -z "$bad" ] &&
		pass "90-cpt.conf: $keys commented 'lnet.KEY = VALUE' examples" ||
		fail "90-cpt.conf: examples '$bad' ($keys keys)"
else
	fail "no usr/share/doc/cpt/examples/90-cpt.conf"
fi
[ -f "$dest/usr/share/doc/cpt/examples/cpt.conf" ] &&
	pass "usr/share/doc/cpt/examples/cpt.conf" ||
	fail "no usr/share/doc/cpt/examples/cpt.conf"
[ -e "$dest/etc/sysctl.d" ] &&
	fail "etc/sysctl.d installed: the sysctl example must not be active"

# Man pages.
for m in man4/cpt.4.gz man8/cpt-plan.8.gz; do
	f=$dest/usr/share/man/$m
	if gzip -t "$f" 2>/dev/null; then
		title=$(zcat "$f" | sed -n 's/^\.TH \([^ ]*\) \([^ ]*\).*/\1(\2)/p')
		pass "usr/share/man/$m ($title)"
	else
		fail "usr/share/man/$m missing or not gzip"
	fi
done
if [ -f "$dest/usr/share/man/man4/cpt.4.gz" ] &&
	MANPATH=$dest/usr/share/man man -w 4 cpt 2>/dev/null | grep -q "^$dest/"; then
	pass "man -w 4 cpt finds it (MANPATH=DESTDIR/usr/share/man)"
else
	fail "man -w 4 cpt with MANPATH=$dest/usr/share/man"
fi

# The tool.
tool=$dest/usr/sbin/cpt-plan
if [ -x "$tool" ] && "$tool" --help >/dev/null 2>&1; then
	pass "usr/sbin/cpt-plan --help"
	fx=$src/tests/fixtures/xeon-8160.lscpu
	if [ -f "$fx" ]; then
		lines=$("$tool" --lscpu "$fx" | wc -l)
		[ "$lines" -eq 12 ] && pass "usr/sbin/cpt-plan plans xeon-8160: 12 partitions" ||
			fail "usr/sbin/cpt-plan --lscpu xeon-8160.lscpu: $lines lines, expected 12"
	fi
else
	fail "usr/sbin/cpt-plan missing or does not run"
fi

# Nothing else.
(cd "$dest" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort) >"$out/files"
extra=$(grep -v -E "^(lib/modules/$(printf '%s' "$rel" | sed 's/[.+]/\\&/g')/((updates|extra)/cpt\.ko(\.xz|\.zst|\.gz)?|modules\.[a-z.]+)|etc/modprobe\.d/cpt\.conf|usr/share/doc/cpt/examples/(cpt|90-cpt)\.conf|usr/share/man/man4/cpt\.4\.gz|usr/share/man/man8/cpt-plan\.8\.gz|usr/sbin/cpt-plan)$" "$out/files")
[ -z "$extra" ] && pass "no other file in DESTDIR ($(wc -l <"$out/files") files)" ||
	fail "unexpected files in DESTDIR: $extra"

# An administrator's edited modprobe.d/cpt.conf survives a reinstall.
if [ -f "$conf" ]; then
	echo 'options cpt npartitions=6' >>"$conf"
	cp "$conf" "$out/edited.conf"
	if make -C "$src" --no-print-directory install-extras DESTDIR="$dest" \
		>>"$log" 2>&1 && cmp -s "$conf" "$out/edited.conf"; then
		pass "an edited etc/modprobe.d/cpt.conf is kept by make install-extras"
	else
		fail "make install-extras replaced an edited etc/modprobe.d/cpt.conf"
	fi
fi

# A relative DESTDIR, in a private mount namespace.
mkdir -p "$out/ns"
if why=$(mountns_unusable "$out/ns"); then
	skip "relative DESTDIR ($why)"
else
	msg=$(unshare -m sh "$0" --relative "$out" "$kdir" "$rel" 2>&1)
	case $? in
	0) pass "make install DESTDIR=../destdir-rel: installed there, nothing under /usr/src" ;;
	3) skip "relative DESTDIR (overlayfs not available)" ;;
	*) fail "make install with a relative DESTDIR: $msg" ;;
	esac
fi

snapshot | sort >"$out/host.after"
host_untouched "/lib/modules, /etc, /usr/sbin, /usr/share/{man,doc}, $kdir" \
	"$out/host.before" "$out/host.after"
finish
