# SPDX-License-Identifier: GPL-2.0
#
# make test-kbuild: build cpt.ko and the test modules (tests/modules) with
# W=1 (extra compiler warnings) and C=1 (sparse) against the Debian 6.1,
# 6.1 PREEMPT_RT and 6.12 headers, Debian 11's 5.10 and 5.10 PREEMPT_RT
# and the newest trixie-backports kernel and its PREEMPT_RT flavour (those
# four built in their suite's chroot by scripts/kmake), each in its own
# copy of the sources under build/ko/RELEASE, and fail on any warning,
# modpost's included, and when sparse did not run (no CHECK line: the 7.x
# Makefile turns C=1 off for a sparse that cannot parse its headers, which
# is why install-deps puts sid's sparse in the trixie chroot).  The log of
# each build is build/ko/RELEASE.log.  Two consumers must not build: one
# that does not import the CPT namespace (modpost refuses it) and one that
# writes cpt_cpu_partition, const to consumers (tests/kbuild/ro-write.sh).
# tests/kbuild/api-surface.sh then reads the objects: at most 33 exported
# functions, each called by a test module, and no call circle among the
# glue's files.
#
# KBUILD_RELEASES overrides the kernels, e.g.
#   make test-kbuild KBUILD_RELEASES=6.12.117+deb12-amd64

# A missing release file must fail the test, not shrink it to one kernel.
KBUILD_RELEASES	?= $(or $(KREL_510),missing-release-5.10) \
		   $(or $(KREL_510RT),missing-release-5.10-rt) \
		   $(or $(KREL_61),missing-release-6.1) \
		   $(or $(KREL_61RT),missing-release-6.1-rt) \
		   $(or $(KREL_612),missing-release-6.12) \
		   $(or $(KREL_NEW),missing-release-newest) \
		   $(or $(KREL_NEWRT),missing-release-newest-rt)
# The guests' own build directory (tests/vm/vm.mk): a clean build here is
# the build the guests load, and make ko, finding its stamp, does not
# compile the same files a second time (seven kernels of it).
KBUILD_OUT	 = $(KO_OUT)
KBUILD_TESTS	 = $(addprefix test-kbuild-,$(KBUILD_RELEASES))

.PHONY: $(KBUILD_TESTS)

test-kbuild: $(KBUILD_TESTS)
	@echo "test-kbuild: no warnings ($(KBUILD_RELEASES))"
	@echo "test-kbuild: $(words $(KBUILD_RELEASES)) passed, 0 failed"

# A fresh copy per release: objects of one kernel never meet the other's,
# and nothing built in the source tree leaks into the check.  Under make
# ko's lock, and with its stamp at the end: a guest suite's make ko waits
# for this build and then takes it as its own (W=1 and C=1 only warn).
$(KBUILD_TESTS): test-kbuild-%:
	@command -v sparse >/dev/null || { echo "test-kbuild: sparse not installed (C=1): run scripts/install-deps" >&2; exit 1; }
	@echo "test-kbuild: $* (W=1 C=1)"
	@mkdir -p $(KBUILD_OUT); \
	flock $(KBUILD_OUT)/.lock sh -c 'rm -rf $(KBUILD_OUT)/$* && \
		$(STAGE) $(KBUILD_OUT)/$* $(STAGE_MODULE) $(STAGE_TESTMODS) && \
		scripts/kmake $* --no-print-directory $(kbuild_j) \
		M=$(CURDIR)/$(KBUILD_OUT)/$* W=1 C=1 CPT_TEST_MODULES=m \
		modules >$(KBUILD_OUT)/$*.log 2>&1 && \
		touch $(KBUILD_OUT)/$*/.built'; rc=$$?; \
	if [ $$rc -ne 0 ]; then cat $(KBUILD_OUT)/$*.log; \
		echo "test-kbuild: $*: build failed ($$rc)" >&2; exit 1; fi; \
	if grep -iE 'warning:|error:' $(KBUILD_OUT)/$*.log; then \
		echo "test-kbuild: $*: warnings (log: $(KBUILD_OUT)/$*.log)" >&2; exit 1; fi; \
	grep -q '^  CHECK ' $(KBUILD_OUT)/$*.log || { \
		echo "test-kbuild: $*: sparse did not run (C=1 turned off? log: $(KBUILD_OUT)/$*.log)" >&2; exit 1; }; \
	for m in cpt.ko tests/modules/cpt_consumer.ko tests/modules/cpt_lnet210.ko \
		 tests/modules/cpt_live_consumer.ko; do \
		test -f $(KBUILD_OUT)/$*/$$m || { echo "test-kbuild: $*: $$m not built" >&2; exit 1; }; \
	done
	@# The exports are in namespace CPT: a consumer that does not import
	@# it must not link.
	@d=$(KBUILD_OUT)/$*/noimport; mkdir -p $$d; \
	grep -v '^CPT_IMPORT_NS;' tests/modules/cpt_consumer.c >$$d/cpt_noimport.c; \
	echo 'obj-m += cpt_noimport.o' >$$d/Kbuild; \
	echo 'ccflags-y += -I$(CURDIR)/include' >>$$d/Kbuild; \
	if scripts/kmake $* --no-print-directory \
		M=$(CURDIR)/$$d KBUILD_EXTRA_SYMBOLS=$(CURDIR)/$(KBUILD_OUT)/$*/Module.symvers \
		modules >$$d.log 2>&1; then \
		echo "test-kbuild: $*: a consumer without CPT_IMPORT_NS linked" >&2; exit 1; fi; \
	grep -qE "from namespace '?CPT'?, but does not import it" $$d.log || { cat $$d.log; \
		echo "test-kbuild: $*: no namespace error for a consumer without CPT_IMPORT_NS" >&2; exit 1; }; \
	echo "test-kbuild: $*: a consumer without CPT_IMPORT_NS is refused by modpost"
	@# cpt_cpu_partition is const to consumers: their writes must not build.
	@tests/kbuild/ro-write.sh $* $(KBUILD_OUT)/$*/ro $(KBUILD_OUT)/$*/Module.symvers
	@# The API's size, a caller for each export, no call circle in the glue.
	@tests/kbuild/api-surface.sh $(KBUILD_OUT)/$*
