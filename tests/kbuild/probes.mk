# SPDX-License-Identifier: GPL-2.0
#
# make test-probes: what the kernel-interface probes (cpt/linux/probes)
# found in each build of test-kbuild, against the answers written by hand
# in tests/kbuild/probes.expected, for 5.10, 5.10-rt, 6.1, 6.1-rt, 6.12,
# newest and newest-rt.  Each probe that tells kernels apart is seen to
# answer both ways: get_llc_id() between 5.10 and 6.1, four more between
# 6.1 and 6.12, and the namespace form and housekeeping_update() between
# 6.12 and newest (7.x).  Then test-probe-faults.
#
# make test-probe-faults: broken probes fail the build and missing
# interfaces do not (tests/kbuild/probe-faults.sh), on a kernel of each
# compiler that builds them (gcc 10 for 5.10, 12 for 6.1 and 6.12, 14 in
# the trixie chroot for newest), in copies under build/ko/faults.

.PHONY: test-probes test-probe-faults

PROBE_FAULT_SERIES = 5.10=$(KREL_510) 6.1=$(KREL_61) 6.12=$(KREL_612) \
		     newest=$(KREL_NEW)

test-probes: test-kbuild test-probe-faults
	@sh tests/kbuild/check-probes.sh tests/kbuild/probes.expected \
		5.10=$(KBUILD_OUT)/$(KREL_510)/cptk_probes.h \
		5.10-rt=$(KBUILD_OUT)/$(KREL_510RT)/cptk_probes.h \
		6.1=$(KBUILD_OUT)/$(KREL_61)/cptk_probes.h \
		6.1-rt=$(KBUILD_OUT)/$(KREL_61RT)/cptk_probes.h \
		6.12=$(KBUILD_OUT)/$(KREL_612)/cptk_probes.h \
		newest=$(KBUILD_OUT)/$(KREL_NEW)/cptk_probes.h \
		newest-rt=$(KBUILD_OUT)/$(KREL_NEWRT)/cptk_probes.h

test-probe-faults:
	@rc=0; for sr in $(PROBE_FAULT_SERIES); do \
		s=$${sr%%=*} r=$${sr#*=}; \
		if [ -z "$$r" ]; then echo "FAIL probe-faults: no release for $$s: run scripts/install-deps"; rc=1; continue; fi; \
		rm -rf $(KBUILD_OUT)/faults/$$r $(KBUILD_OUT)/faults/$$r-*; \
		$(STAGE) $(KBUILD_OUT)/faults/$$r $(STAGE_MODULE) || exit 1; \
		sh tests/kbuild/probe-faults.sh tests/kbuild/probes.expected \
			$$s $$r $(KBUILD_OUT)/faults/$$r || rc=1; \
	done; exit $$rc
