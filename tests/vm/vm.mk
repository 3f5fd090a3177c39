# SPDX-License-Identifier: GPL-2.0
#
# VM tests: boot the Debian 6.1, 6.12 and 6.1 PREEMPT_RT (6.1-rt) kernels in
# QEMU (TCG) over a matrix of CPU/NUMA topologies and check cpt.ko against
# cpt-plan inside each guest.  Included by the top Makefile, which defines
# KREL_61, KREL_612 and KREL_61RT; includes tests/lib/kernels.mk, the
# per-kernel loop of every test fragment.
#
#   make ko KREL=RELEASE|6.1|6.1-rt|6.12  cpt.ko and the test modules for a kernel,
#                                   built in build/ko/RELEASE (a copy of the
#                                   sources: Kbuild writes next to them)
#   make test-vm                    the matrix (tests/vm/matrix); logs in
#                                   build/vm/logs.  VM_KERNELS="6.1 6.12 6.1-rt" and
#                                   VM_PROFILES="seed big ..." select a part;
#                                   VM_JOBS=N guests at a time (default 2)
#   make test-watchdog              vm-run's boot watchdog (tests/vm/watchdog.sh)
#   make test-big                   the 240-CPU guest (6.1) alone: both
#                                   files read whole and with dd bs=1
#   make run [TOPOLOGY=SMP] [NODES='0-7;8-15'] [DIST=0-1=21] [KERNEL=6.12]
#            [ARGS='npartitions=6']
#                                   install what is missing, build, boot
#                                   TOPOLOGY (default: the seed's 48 CPUs,
#                                   one node), load cpt.ko with ARGS, print
#                                   both /proc files and cpt's dmesg lines

include tests/lib/kernels.mk

VM_RUN		 = scripts/vm-run
KO_OUT		 = build/ko
# An alias (5.10, 5.10-rt, 6.1, 6.1-rt, 6.12, newest, newest-rt: install-deps writes
# $(CPT_KERNELS)/release-ALIAS) to its release; a release stays itself.
vm_rel		 = $(or $(shell cat $(CPT_KERNELS)/release-$(1) 2>/dev/null),$(1))
# Single-quote a make variable's value for the shell.
vm_sq		 = '$(subst ','\'',$(1))'

VM_KERNELS	?= 5.10 5.10-rt 6.1 6.12 6.1-rt newest newest-rt
VM_PROFILES	?=
TOPOLOGY	?= 48,sockets=1,cores=24,threads=2
KERNEL		?= 6.1
NODES		?=
DIST		?=

.PHONY: ko test-vm test-big test-watchdog test-nic run vm-ko

ko:
	@test -n "$(KREL)" || { echo "make ko: set KREL=RELEASE (or 6.1, 6.1-rt, 6.12)" >&2; exit 1; }
	@test -n "$(call vm_rel,$(KREL))" || { echo "make ko: no release for $(KREL): run scripts/install-deps" >&2; exit 1; }
	@# One build at a time: make check's two lanes may both want a kernel's.
	@mkdir -p $(KO_OUT)
	@flock $(KO_OUT)/.lock $(MAKE) -s --no-print-directory \
		$(KO_OUT)/$(call vm_rel,$(KREL))/.built \
		$(KO_OUT)/$(call vm_rel,$(KREL))/fault/.built

# The stamp depends on every source: no change, no Kbuild run at all.
# stage-tree copies only what changed, so Kbuild's own dependency tracking
# rebuilds just that.
$(KO_OUT)/%/.built: $(STAGE_MODULE) $(STAGE_TESTMODS)
	@$(STAGE) $(@D) $(STAGE_MODULE) $(STAGE_TESTMODS)
	@echo "  KO      $(@D) (linux-headers-$*)"
	@scripts/kmake $* --no-print-directory $(kbuild_j) M=$(CURDIR)/$(@D) \
		$(if $(STAGE_TESTMODS),CPT_TEST_MODULES=m) \
		modules >$(@D)/build.log 2>&1 || { cat $(@D)/build.log >&2; \
		echo "make ko: building cpt.ko for $* failed (log: $(@D)/build.log)" >&2; exit 1; }
	@touch $@

# The test build of cpt.ko (cpt/linux/fault.h), without the test modules:
# build/ko/RELEASE/fault/cpt.ko, which vm-run puts in the guest's /cpt/fault.
$(KO_OUT)/%/fault/.built: $(STAGE_MODULE)
	@$(STAGE) $(@D) $(STAGE_MODULE)
	@echo "  KO      $(@D) (linux-headers-$*, CPT_FAULT_INJECT=y)"
	@scripts/kmake $* --no-print-directory $(kbuild_j) M=$(CURDIR)/$(@D) \
		CPT_FAULT_INJECT=y modules >$(@D)/build.log 2>&1 || { cat $(@D)/build.log >&2; \
		echo "make ko: building the test cpt.ko for $* failed (log: $(@D)/build.log)" >&2; exit 1; }
	@touch $@

vm-ko:
	@$(call ko_kernels,$(VM_KERNELS))

# The 240-CPU guest (6.1), not part of make check: see tests/vm/matrix.
test-big: build/cpt-plan.static
	@$(MAKE) --no-print-directory ko KREL=6.1
	tests/vm/matrix --kernels 6.1 --profiles big --jobs 1

# vm-run's boot watchdog against a stopped, a starved and a hung guest.
test-watchdog:
	tests/vm/watchdog.sh

# make test-nic: cpt-plan --emit lnet and --emit irq on a virtio-net NIC
# that QEMU puts on NUMA node 1 (tests/vm/nic.sh), on 6.1 and 6.12.
NIC_KERNELS	?= 6.1 6.12
test-nic: build/cpt-plan.static
	@$(call ko_kernels,$(NIC_KERNELS))
	@tests/vm/nic.sh $(NIC_KERNELS)

test-vm: vm-ko build/cpt-plan.static
	tests/vm/matrix --kernels $(call vm_sq,$(VM_KERNELS))$(if $(VM_PROFILES), --profiles $(call vm_sq,$(VM_PROFILES)))$(if $(VM_JOBS), --jobs $(VM_JOBS))

# make run: install-deps first, so that the releases exist before vm-run
# resolves KERNEL; vm-run builds cpt.ko and cpt-plan itself.
run:
	scripts/install-deps $(filter 5.10 5.10-rt 6.1 6.1-rt 6.12 newest newest-rt debug debug-rt,$(KERNEL))
	$(VM_RUN) --kernel $(KERNEL) --smp $(TOPOLOGY)$(if $(NODES), --nodes $(call vm_sq,$(NODES)))$(if $(DIST), --dist $(call vm_sq,$(DIST))) --timeout 900 -- $(call vm_sq,./guest-run.sh $(ARGS))
