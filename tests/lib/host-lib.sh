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
