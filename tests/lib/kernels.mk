# SPDX-License-Identifier: GPL-2.0
#
# The one per-kernel loop of the test fragments.  Included by tests/vm/vm.mk,
# the first test fragment the top Makefile includes, so that every later
# fragment (tests/live, tests/soak, tests/badparam) has it.
#
# $(call for_kernels,KERNELS,COMMAND): run the shell COMMAND once for each
# of KERNELS (releases, or the aliases 6.1, 6.12 and 6.1-rt), with $$k the
# kernel; stops at the first failure.
for_kernels	 = for k in $(1); do $(2) || exit 1; done

# -jN for a kbuild run (scripts/kmake) when this make has no jobserver of
# its own: the kernel builds one module's files one at a time otherwise,
# and test-kbuild and the guests' builds run 28 of them.  Under make -j a
# forced -jN would only earn a warning and leave the jobserver.
KBUILD_JOBS	?= $(shell nproc 2>/dev/null || echo 2)
kbuild_j	 = $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(KBUILD_JOBS))

# $(call ko_kernels,KERNELS): make ko (tests/vm/vm.mk) for each of KERNELS:
# cpt.ko, its test build and the test modules, as the guests want them.
ko_kernels	 = $(call for_kernels,$(1),$(MAKE) --no-print-directory ko KREL=$$k)
