# SPDX-License-Identifier: GPL-2.0
#
# cpt: CPU partition table kernel module, its planner tool and tests.
#
#   make            build cpt.ko against KDIR
#   make tools      build scripts/cpt-plan
#   make run        install what is missing, build, boot the seed topology
#   make check      every test: unit, fuzz, tool, kbuild (W=1 C=1: 5.10, 6.1, 6.12,
#                   7.x and their rt), man, install, dkms, packages, VM matrix,
#                   bad parameters, live tuning, unload under hotplug, short soak,
#                   the service helpers on the debug kernels (test-debug)
#   make deb        the Debian packages cpt-dkms and cpt-tools (build/pkg/deb)
#   make rpm        the same as RPMs (build/pkg/rpm/RPMS)
#   make test-pkg   both built, linted, installed in a chroot and in a guest
#
ifneq ($(KERNELRELEASE),)
include $(src)/Kbuild
else

CPT_KERNELS	?= /var/cache/cpt/kernels
# Debian 11's 5.10, built in its bullseye chroot.
KREL_510	 = $(shell cat $(CPT_KERNELS)/release-5.10 2>/dev/null)
KREL_510RT	 = $(shell cat $(CPT_KERNELS)/release-5.10-rt 2>/dev/null)
KREL_61		 = $(shell cat $(CPT_KERNELS)/release-6.1 2>/dev/null)
KREL_612	 = $(shell cat $(CPT_KERNELS)/release-6.12 2>/dev/null)
KREL_61RT	 = $(shell cat $(CPT_KERNELS)/release-6.1-rt 2>/dev/null)
# The newest kernel of trixie-backports (7.x today), built in its chroot.
KREL_NEW	 = $(shell cat $(CPT_KERNELS)/release-newest 2>/dev/null)
KREL_NEWRT	 = $(shell cat $(CPT_KERNELS)/release-newest-rt 2>/dev/null)
KDIR		?= $(firstword $(wildcard /lib/modules/$(shell uname -r)/build) \
			   $(if $(KREL_61),/usr/src/linux-headers-$(KREL_61)))
INSTALL_MOD_PATH ?= $(DESTDIR)

CC		?= cc
CFLAGS		?= -O2 -g
WARN		 = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
		   -Wformat=2 -Wno-format-nonliteral
include cpt/sources.mk
CORE_SRC	 = $(CPT_CORE_SRC)
CORE_HDR	 = $(CPT_CORE_HDR)
# What a kbuild run of cpt.ko needs (scripts/stage-tree copies it): DKMS,
# the kbuild test and the VM builds.  The test modules come along where a
# build has CPT_TEST_MODULES=m.  dkms.conf is there for its version, which
# Kbuild reads.
STAGE		 = scripts/stage-tree
STAGE_MODULE	 = Kbuild dkms.conf cpt/sources.mk $(CPT_CORE_SRC) $(CPT_LINUX_SRC) \
		   $(CPT_FAULT_SRC) $(CPT_CORE_HDR) $(wildcard cpt/linux/*.h) \
		   $(wildcard cpt/linux/probes/*) include/cpt.h
STAGE_TESTMODS	 = $(wildcard tests/modules/Kbuild tests/modules/*.c tests/modules/*.h)
SAN		 = -fsanitize=address,undefined -fno-sanitize-recover=all \
		   -fno-omit-frame-pointer

.PHONY: all modules tools clean install load unload check run deps \
	test-unit test-tool test-vm test-kbuild lint

all: modules

modules:
	@test -d "$(KDIR)" || { echo "KDIR=$(KDIR) not found: run scripts/install-deps or set KDIR" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# kbuild runs modules_install from KDIR, so the path must be absolute; and it
# skips depmod when KDIR has no System.map (Debian's headers have none).
install: modules install-extras
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_PATH=$(abspath $(INSTALL_MOD_PATH)) \
		$(if $(wildcard $(KDIR)/certs/signing_key.pem),,CONFIG_MODULE_SIG_ALL=) modules_install
	$(PKG_DEPMOD)

load: modules
	insmod ./cpt.ko $(ARGS)

unload:
	rmmod cpt

deps:
	scripts/install-deps

# The build of cpt-plan, then each test suite's fragment, next to its tests
# (tests/vm/vm.mk first: it brings the per-kernel loop of the others).
include scripts/tools.mk tests/tool/tool.mk tests/unit/unit.mk tests/vm/vm.mk
include tests/kbuild/kbuild.mk tests/kbuild/probes.mk tests/live/live.mk \
	tests/fuzz/fuzz.mk tests/bench/bench.mk tests/soak/soak.mk \
	tests/badparam/badparam.mk tests/layout/layout.mk packaging/pkg.mk

# make check runs the suites in two lanes (tests/lib/check-table.sh): in
# turn, the plain ones; beside them, those marked '&': the debug kernels'
# build and the suites that boot them.  Then each lane takes the
# next of those marked '~' that the other has not taken, longest first, so
# that the lanes end together whether the debug kernels were built before
# (a warm run) or are built beside the first lane (a fresh one: doc/testing.md,
# "Where the time goes").  Each with the kernels it boots or builds for;
# at the end, a table of where the time went.  test-watchdog comes first:
# its guests barely run, so it goes beside the second lane's busiest start
# (two debug guests, or the debug kernels' build), not beside test-debug's
# tail, whose guests run one at a time: there it left a core idle.
# The host suites hold a guest slot while they run (CHECK_HOST), so that
# beside one of them the other lane boots one guest, not two.
ALL_KERNELS	 = 5.10 5.10-rt 6.1 6.1-rt 6.12 newest newest-rt
CHECK_SUITES	 = 'test-watchdog|6.1-rt' \
		   'test-layout|-' 'test-unit|-' 'test-fuzz|-' 'test-tool|-' \
		   'test-kbuild test-probes|$(ALL_KERNELS)' \
		   'test-man|-' 'test-install|-' 'test-dkms|6.1 6.12' \
		   'test-pkg|6.1 6.12' 'test-vm|$(VM_KERNELS)' \
		   'test-badparam|$(BADPARAM_KERNELS)' \
		   '&debug-kernels|$(DEBUG_KERNELS)' '&test-debug|$(DEBUG_KERNELS)' \
		   '~test-unload|$(UNLOAD_KERNELS)' \
		   '~test-live|$(LIVE_KERNELS)' '~test-soak|$(SOAK_KERNELS)' \
		   '~test-percpt|$(PERCPT_KERNELS)' '~test-bind|$(BIND_KERNELS)' \
		   '~test-nic|$(NIC_KERNELS)'
CHECK_HOST	 = test-layout test-unit test-fuzz test-tool test-kbuild \
		   test-probes test-man test-install test-dkms test-pkg \
		   debug-kernels
check:
	@CHECK_HOST='$(CHECK_HOST)' tests/lib/check-table.sh $(CHECK_SUITES)

clean:
	-$(if $(wildcard $(KDIR)),$(MAKE) -C $(KDIR) M=$(CURDIR) clean)
	rm -rf build scripts/cpt-plan
	rm -f $(CLEAN_FILES)

endif
