#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make deb / make rpm: build cpt's packages from a copy of the tree.
#
#   sh packaging/build-pkg.sh deb|rpm OUT VERSION
#
# deb: OUT/deb/cpt-VERSION is a copy of the checkout (the files git would
#      commit: tests/lib/host-lib.sh's tree_copy), where
#      `dpkg-buildpackage -us -uc` runs; it writes the source package
#      (cpt_VERSION.dsc, .tar.xz) and the binary packages
#      (cpt-dkms_VERSION_all.deb, cpt-tools_VERSION_ARCH.deb, .changes)
#      into OUT/deb, next to the copy, as dpkg-buildpackage always does.
# rpm: Source0 (OUT/rpm/SOURCES/cpt-VERSION.tar.gz) is made from the same
#      copy, and rpmbuild -ba builds packaging/rpm/cpt.spec with
#      OUT/rpm as its _topdir: OUT/rpm/RPMS/noarch/cpt-dkms-*.rpm,
#      OUT/rpm/RPMS/ARCH/cpt-tools-*.rpm and the SRPM.  --nodeps: the
#      BuildRequires name RPM packages, which rpm's database on a Debian
#      machine does not have (gcc and make are Debian packages here).
#
# A copy, because dpkg-buildpackage writes next to the source tree and
# debhelper writes debian/cpt-*/ inside it: the checkout stays clean.
# VERSION is dkms.conf's PACKAGE_VERSION; the build stops when
# debian/changelog or cpt.spec says another.  Logs: OUT/deb/build.log,
# OUT/rpm/build.log; on failure their end is shown.
set -eu
# shellcheck source=tests/lib/host-lib.sh
. "$(dirname "$0")/../tests/lib/host-lib.sh"

if [ $# -ne 3 ] || [ -z "$3" ]; then
	echo "usage: $0 deb|rpm OUT VERSION" >&2
	exit 2
fi
kind=$1 out=$2 version=$3
top=$(pwd)
case $out in /*) ;; *) out=$top/$out ;; esac

die() { echo "make $kind: $*" >&2; exit 1; }

# run LOG CMD...: CMD with its output in LOG, whose end is shown if it fails.
run() {
	_log=$1
	shift
	if ! "$@" >"$_log" 2>&1; then
		tail -n 40 "$_log" >&2
		die "failed: $* (log: ${_log#"$top"/})"
	fi
}

case $kind in
deb)
	command -v dpkg-buildpackage >/dev/null && command -v dh_dkms >/dev/null ||
		die "dpkg-buildpackage or dh_dkms missing: run scripts/install-deps"
	v=$(dpkg-parsechangelog -l debian/changelog -S Version)
	[ "$v" = "$version" ] ||
		die "debian/changelog says $v, dkms.conf says $version: make them agree"
	rm -rf "$out/deb"
	src=$out/deb/cpt-$version
	tree_copy "$top" "$src" || die "copying the tree to $src failed"
	start=$(date +%s)
	run "$out/deb/build.log" sh -c "cd '$src' && dpkg-buildpackage -us -uc"
	echo "make deb: $(cd "$out/deb" && ls ./*.deb ./*.dsc | sed 's#^\./##' | tr '\n' ' ')in ${out#"$top"/}/deb ($(($(date +%s) - start)) s)"
	;;
rpm)
	command -v rpmbuild >/dev/null || die "rpmbuild missing: run scripts/install-deps"
	spec=packaging/rpm/cpt.spec
	v=$(sed -n 's/^Version:[[:space:]]*//p' "$spec")
	[ "$v" = "$version" ] ||
		die "$spec says $v, dkms.conf says $version: make them agree"
	rm -rf "$out/rpm"
	mkdir -p "$out/rpm/SOURCES" "$out/rpm/SPECS" "$out/rpm/tmp"
	tree_copy "$top" "$out/rpm/tmp/cpt-$version" || die "copying the tree failed"
	# A reproducible tarball: files sorted, owned by root, dated by the
	# last commit (or now, without git).
	when=$(git log -1 --format=%cI 2>/dev/null || date -u +%FT%TZ)
	tar -C "$out/rpm/tmp" --sort=name --owner=0 --group=0 --numeric-owner \
		--mtime="$when" -czf "$out/rpm/SOURCES/cpt-$version.tar.gz" "cpt-$version"
	rm -rf "$out/rpm/tmp"
	cp "$spec" "$out/rpm/SPECS/cpt.spec"
	start=$(date +%s)
	# rpm's brp-compress, which gzips the man pages after %install, says
	# #!/bin/sh but uses bash's `read -d`: fine where /bin/sh is bash
	# (RHEL, Fedora), while Debian's dash stops it at once and the man
	# pages stay uncompressed.  So bash runs it here.
	run "$out/rpm/build.log" rpmbuild -ba --nodeps \
		--define "_topdir $out/rpm" \
		--define "__brp_compress /bin/bash /usr/lib/rpm/brp-compress %{_prefix}" \
		"$out/rpm/SPECS/cpt.spec"
	echo "make rpm: $(cd "$out/rpm" && ls RPMS/*/*.rpm SRPMS/*.rpm | tr '\n' ' ')in ${out#"$top"/}/rpm ($(($(date +%s) - start)) s)"
	;;
*)
	echo "usage: $0 deb|rpm OUT VERSION" >&2
	exit 2 ;;
esac
