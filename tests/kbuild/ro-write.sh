#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ro-write.sh RELEASE DIR SYMVERS: cpt_cpu_partition is read-only to
# consumers (include/cpt.h).  Builds tests/kbuild/ro/cpt_ro_write.c for
# RELEASE (scripts/kmake) in DIR once per write: this_cpu_write() and
# per_cpu() = ... of its member must fail with read-only errors and no
# other error, and this_cpu_write() of the variable itself must fail; and
# once reading it only (cpt_current()), which must build and link against
# SYMVERS (cpt.ko's Module.symvers) without a warning, so that the
# failures are the writes' own.  Run from the top of the tree, as make
# test-kbuild does.
set -u
rel=$1 dir=$2 symvers=$3
top=$(pwd)
fails=0

# build NAME [DEFINE]: the module in DIR/NAME, with -DDEFINE; the log in
# DIR/NAME.log; the exit status of the build.
build() {
	mkdir -p "$dir/$1"
	cp tests/kbuild/ro/cpt_ro_write.c "$dir/$1/"
	{
		echo 'obj-m += cpt_ro_write.o'
		echo "ccflags-y += -I$top/include${2:+ -D$2}"
	} >"$dir/$1/Kbuild"
	scripts/kmake "$rel" --no-print-directory M="$top/$dir/$1" \
		KBUILD_EXTRA_SYMBOLS="$top/$symvers" modules >"$dir/$1.log" 2>&1
}

# NAME:DEFINE:KIND, KIND "ro" when only read-only errors may stop it.
for w in this_cpu_write:CPT_RO_THIS_CPU_WRITE:ro \
	 per_cpu:CPT_RO_PER_CPU_WRITE:ro \
	 this_cpu_write_whole:CPT_RO_WHOLE_WRITE:any; do
	name=${w%%:*} kind=${w##*:} def=${w#*:}
	def=${def%:*}
	if build "$name" "$def"; then
		echo "test-kbuild: $rel: a consumer's $name of cpt_cpu_partition built" >&2
		fails=$((fails + 1))
	elif [ "$kind" = ro ] &&
	     { ! grep -q 'error:.*read-only' "$dir/$name.log" ||
	       grep 'error:' "$dir/$name.log" | grep -qv 'read-only'; }; then
		cat "$dir/$name.log"
		echo "test-kbuild: $rel: $name: not (only) a read-only error" >&2
		fails=$((fails + 1))
	fi
done
if ! build read ||
   grep -iE 'warning:|error:' "$dir/read.log" >/dev/null ||
   [ ! -f "$dir/read/cpt_ro_write.ko" ]; then
	cat "$dir/read.log"
	echo "test-kbuild: $rel: the consumer that only reads cpt_cpu_partition did not build clean" >&2
	fails=$((fails + 1))
fi
[ "$fails" = 0 ] || exit 1
echo "test-kbuild: $rel: a consumer's this_cpu_write() or per_cpu() write of cpt_cpu_partition does not compile"
