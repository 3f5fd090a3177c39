# SPDX-License-Identifier: GPL-2.0
#
# guest-lib.sh: shell functions for the guest scripts of tests/vm, sourced
# by them (vm-run copies tests/vm/*.sh next to cpt.ko).

# cpt_insmod MODULE PARAM...: busybox insmod joins its arguments with
# spaces and does not quote them, so a value with blanks goes as
# name="value", as the kernel's parameter parser wants it.
cpt_insmod() {
	_mod=$1
	shift
	_n=$#
	while [ "$_n" -gt 0 ]; do
		_p=$1
		shift
		case $_p in
		*=*\ *|*=*"	"*) _p="${_p%%=*}=\"${_p#*=}\"" ;;
		esac
		set -- "$@" "$_p"
		_n=$((_n - 1))
	done
	insmod "$_mod" "$@"
}
