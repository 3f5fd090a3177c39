# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
#
# host-lib.sh: helpers of the host-side tests that run as root in a private
# mount namespace and check that the host is left as it was (packaging/
# test-dkms.sh, packaging/test-install.sh).  Sourced after
# tests/lib/report.sh; POSIX sh.
#
#   mountns_unusable DIR      prints why no private mount namespace with a
#                             tmpfs on DIR can be had here (not root, no
#                             unshare, or no namespace); false when it can
#   host_untouched WHAT BEFORE AFTER
#                             PASS "host untouched (WHAT)" when the sorted
#                             listings BEFORE and AFTER are the same, else
#                             FAIL with their difference
#   tree_copy TOP DEST        copy the checkout TOP to DEST: the files git
#                             would commit (tracked, or untracked and not
#                             ignored), or without git everything but build
#                             outputs; false when the copy failed

mountns_unusable() {
	if [ "$(id -u)" != 0 ]; then
		echo "needs root for a mount namespace"
	elif ! command -v unshare >/dev/null ||
		! unshare -m sh -c "mount -t tmpfs cpt-probe '$1'" 2>/dev/null; then
		echo "no mount namespace here"
	else
		return 1
	fi
}

host_untouched() {
	if cmp -s "$2" "$3"; then
		pass "host untouched ($1)"
	else
		fail "host changed:" "$(diff "$2" "$3" | head -n 20)"
	fi
}

tree_copy() {
	mkdir -p "$2" || return 1
	if git -C "$1" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		# A file deleted but not yet committed is listed and missing.
		# shellcheck disable=SC2016 # $f is the inner shell's
		(cd "$1" && git ls-files -z --cached --others --exclude-standard |
			xargs -0 sh -c 'for f; do [ -f "$f" ] && printf "%s\0" "$f"; done' sh |
			tar --null -T - -cf -) | tar -C "$2" -xf -
	else
		tar -C "$1" --exclude-vcs --exclude=./build --exclude='*.o' \
			--exclude='*.ko' --exclude='*.cmd' --exclude='*.mod' \
			--exclude='*.mod.c' --exclude=Module.symvers \
			--exclude=modules.order --exclude=./scripts/cpt-plan \
			--exclude='.*.d' --exclude=./cptk_probes.h -cf - . |
			tar -C "$2" -xf -
	fi
}
