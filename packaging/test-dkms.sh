#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make test-dkms: DKMS builds cpt from dkms.conf for each kernel release,
# against /usr/src/linux-headers-RELEASE, in a scratch DKMS tree.
#
#   sh packaging/test-dkms.sh OUT VERSION RELEASE...
#
# OUT/src/cpt-VERSION holds the sources, staged by packaging/pkg.mk exactly
# as `make dkms-install` stages them.  Everything DKMS writes goes under OUT:
# its tree (--dkmstree), the install tree (--installtree), temporary files
# (TMPDIR) and the module signing key, which DKMS creates in /var/lib/dkms
# unless told otherwise.  depmod is never run (--no-depmod): dkms would run
# it on the host's /lib/modules.  The test checks that /var/lib/dkms,
# /lib/modules, /usr/src and /etc/dkms are the same before and after.
#
# For each release: dkms add (once), build and, as root, install; then
# cpt.ko (or cpt.ko.xz, which DKMS makes when the kernel's own modules are
# compressed) must exist, modinfo must show the release as vermagic and the
# module parameters, and the install must land in updates/dkms.
#
# Then, as root where mount namespaces and overlayfs are available, the real
# `make dkms-install` and `make dkms-uninstall` run on the host's own paths
# (/usr/src, /var/lib/dkms, /lib/modules, with depmod), but inside a private
# mount namespace where those paths are overlays on a tmpfs that vanishes
# with it, for the first release: dkms must install cpt, depmod must index
# it (modinfo -k finds it by name), and uninstall must remove it all again.
set -u
# shellcheck source=tests/lib/report.sh
. "$(dirname "$0")/../tests/lib/report.sh"
# shellcheck source=tests/lib/host-lib.sh
. "$(dirname "$0")/../tests/lib/host-lib.sh"

# installed LABEL KERNEL DKMS...: the DKMS command (dkms, or dk with the
# scratch tree) says cpt/$version is installed for KERNEL.
installed() {
	_label=$1 _k=$2
	shift 2
	if "$@" status -m cpt -v "$version" -k "$_k" 2>/dev/null | grep -q ': installed'; then
		pass "$_label: dkms status says installed"
	else
		fail "$_label: dkms status: $("$@" status -m cpt -v "$version" -k "$_k" 2>&1)"
	fi
}

# Inside the private mount namespace (see the end of this script).
if [ "${1:-}" = --in-namespace ]; then
	shift
	ns=$1 version=$2
	shift 2
	REPORT_TAG="test-dkms: host-like"
	mount -t tmpfs cpt-test-dkms "$ns" || exit 3
	for d in /usr/src /var/lib/dkms /lib/modules; do
		n=$(echo "$d" | tr / _)
		mkdir -p "$ns/upper$n" "$ns/work$n"
		mount -t overlay overlay \
			-o "lowerdir=$d,upperdir=$ns/upper$n,workdir=$ns/work$n" "$d" ||
			exit 3
	done
	log=$ns/make.log
	if make --no-print-directory dkms-install \
		DKMS_KERNELS="$*" >"$log" 2>&1; then
		pass "make dkms-install DKMS_KERNELS=\"$*\""
	else
		fail "make dkms-install:" "$(tail -n 40 "$log")"
	fi
	for rel in "$@"; do
		f=$(modinfo -k "$rel" -n cpt 2>/dev/null)
		case $f in
		/lib/modules/"$rel"/updates/dkms/cpt.ko*)
			pass "$rel: depmod done, modinfo -k finds $f" ;;
		*)
			fail "$rel: modinfo -k $rel cpt finds '$f', expected /lib/modules/$rel/updates/dkms/cpt.ko" ;;
		esac
		installed "$rel" "$rel" dkms
	done
	[ -f "/usr/src/cpt-$version/dkms.conf" ] &&
		pass "sources in /usr/src/cpt-$version" ||
		fail "no /usr/src/cpt-$version/dkms.conf"
	if make --no-print-directory dkms-uninstall \
		>>"$log" 2>&1; then
		pass "make dkms-uninstall"
	else
		fail "make dkms-uninstall:"
		tail -n 20 "$log"
	fi
	left=$(find /usr/src/cpt-"$version" /var/lib/dkms/cpt \
		/lib/modules/*/updates/dkms -name '*cpt*' 2>/dev/null)
	for rel in "$@"; do
		modinfo -k "$rel" -n cpt >/dev/null 2>&1 &&
			left="$left $(modinfo -k "$rel" -n cpt)"
	done
	[ -z "$left" ] && pass "uninstalled: nothing left" ||
		fail "left after dkms-uninstall: $left"
	exit "$REPORT_NFAIL"
fi

if [ $# -lt 3 ]; then
	echo "usage: $0 OUT VERSION RELEASE..." >&2
	exit 2
fi
out=$1 version=$2
shift 2
case $out in /*) ;; *) out=$(pwd)/$out ;; esac

REPORT_TAG=test-dkms

PATH=$PATH:/usr/sbin:/sbin
# Run by make: keep its jobserver and command-line variables away from the
# make that dkms runs (which warns "-jN forced in submake").
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
if ! command -v dkms >/dev/null; then
	fail "dkms not installed: run scripts/install-deps"
	exit 1
fi

tree=$out/tree src=$out/src inst=$out/install
if [ ! -f "$src/cpt-$version/dkms.conf" ]; then
	fail "no staged sources in $src/cpt-$version (run through make test-dkms)"
	exit 1
fi
mkdir -p "$tree" "$inst" "$out/tmp" "$out/keys"
export TMPDIR="$out/tmp"
# The signing key and certificate DKMS generates on Debian, kept here.
export mok_signing_key="$out/keys/mok.key" mok_certificate="$out/keys/mok.pub"

# The host's state: names, types, sizes and times of what DKMS may touch.
host_dirs="/var/lib/dkms /lib/modules /etc/dkms"
snapshot() {
	for d in $host_dirs; do
		[ -e "$d" ] && find "$d" -printf '%p %y %s %T@ %l\n'
	done
	find /usr/src -maxdepth 1 -printf '%p %y %T@ %l\n'
}
snapshot | sort >"$out/host.before"

dk() {
	dkms "$@" --dkmstree "$tree" --sourcetree "$src" --installtree "$inst"
}

log=$out/dkms.log
: >"$log"
if dk add -m cpt -v "$version" >>"$log" 2>&1; then
	pass "dkms add cpt/$version"
else
	fail "dkms add cpt/$version (log: $log)"
	tail -n 20 "$log"
fi

for rel in "$@"; do
	kdir=/usr/src/linux-headers-$rel
	if [ ! -d "$kdir" ]; then
		fail "$rel: $kdir missing: run scripts/install-deps"
		continue
	fi
	arch=$(uname -m)
	rlog=$out/dkms-$rel.log
	start=$(date +%s)
	if dk build -m cpt -v "$version" -k "$rel/$arch" \
		--kernelsourcedir "$kdir" >"$rlog" 2>&1; then
		pass "$rel: dkms build ($(($(date +%s) - start)) s)"
	else
		fail "$rel: dkms build (log: $rlog)"
		tail -n 30 "$rlog"
		f=$tree/cpt/$version/build/make.log
		[ -f "$f" ] && tail -n 30 "$f"
		continue
	fi

	ko=
	for f in "$tree/cpt/$version/$rel/$arch/module/cpt.ko" \
		 "$tree/cpt/$version/$rel/$arch/module/cpt.ko.xz" \
		 "$tree/cpt/$version/$rel/$arch/module/cpt.ko.zst" \
		 "$tree/cpt/$version/$rel/$arch/module/cpt.ko.gz"; do
		[ -f "$f" ] && ko=$f && break
	done
	if [ -z "$ko" ]; then
		fail "$rel: no cpt.ko in $tree/cpt/$version/$rel/$arch/module"
		continue
	fi
	pass "$rel: built ${ko#"$out"/}"

	# DKMS does not fail on a failing CLEAN, nor on compiler warnings.
	mlog=$tree/cpt/$version/$rel/$arch/log/make.log
	if grep -q 'bad exit status' "$rlog"; then
		fail "$rel: a dkms step failed: $(grep 'bad exit status' "$rlog" | head -n 1)"
	elif grep -iE 'warning:|error:' "$mlog"; then
		fail "$rel: warnings in $mlog"
	else
		pass "$rel: no failed step, no compiler warning"
	fi

	vermagic=$(modinfo -F vermagic "$ko" 2>/dev/null)
	if [ "${vermagic%% *}" = "$rel" ]; then
		pass "$rel: vermagic '$vermagic'"
	else
		fail "$rel: vermagic '$vermagic', expected '$rel ...'"
	fi
	parms=$(modinfo -F parm "$ko" 2>/dev/null | cut -d: -f1 | sort | tr '\n' ' ')
	if [ "$parms" = "cpu_npartitions cpu_pattern include_isolated npartitions " ]; then
		pass "$rel: parameters $parms"
	else
		fail "$rel: parameters '$parms', expected cpu_npartitions cpu_pattern include_isolated npartitions"
	fi
	name=$(modinfo -F name "$ko" 2>/dev/null)
	[ "$name" = cpt ] && pass "$rel: module name cpt" ||
		fail "$rel: module name '$name'"

	# dkms install needs root; into the scratch install tree, no depmod.
	if [ "$(id -u)" != 0 ]; then
		skip "$rel: dkms install (needs root)"
		continue
	fi
	mkdir -p "$inst/$rel"
	if dk install -m cpt -v "$version" -k "$rel/$arch" \
		--kernelsourcedir "$kdir" --no-depmod >>"$rlog" 2>&1; then
		pass "$rel: dkms install --no-depmod"
	else
		fail "$rel: dkms install (log: $rlog)"
		tail -n 20 "$rlog"
		continue
	fi
	found=$(find "$inst/$rel" -name 'cpt.ko*' | sed "s|^$inst/$rel/||")
	case $found in
	updates/dkms/cpt.ko|updates/dkms/cpt.ko.*|extra/cpt.ko|extra/cpt.ko.*)
		pass "$rel: installed as $found" ;;
	*)
		fail "$rel: installed as '$found', expected updates/dkms/cpt.ko" ;;
	esac
	installed "$rel" "$rel/$arch" dk
done

# The real make dkms-install/uninstall, in a private mount namespace.
ns=$out/ns
mkdir -p "$ns"
if why=$(mountns_unusable "$ns"); then
	skip "host-like dkms-install ($why)"
elif [ ! -d /var/lib/dkms ] || [ ! -d /lib/modules ] || [ ! -d /usr/src ]; then
	skip "host-like dkms-install (no /var/lib/dkms, /lib/modules or /usr/src)"
else
	start=$(date +%s)
	# One kernel is enough to exercise the recipes (the scratch tree
	# above built every one); the first, 6.1, has no modules of its own
	# for depmod to index, which keeps this short.
	unshare -m sh "$0" --in-namespace "$ns" "$version" "$1"
	rc=$?
	case $rc in
	0) pass "host-like make dkms-install/uninstall ($(($(date +%s) - start)) s)" ;;
	3) skip "host-like dkms-install (overlayfs not available)" ;;
	*) fail "host-like make dkms-install/uninstall: $rc check(s) failed" ;;
	esac
fi

snapshot | sort >"$out/host.after"
host_untouched "$host_dirs, /usr/src" "$out/host.before" "$out/host.after"
report_verdict "cpt/$version for $*"
