# SPDX-License-Identifier: GPL-2.0
#
# make test-probes: what the kernel-interface probes (cpt/linux/probes)
# found in each build of test-kbuild, against the answers written by hand
# in tests/kbuild/probes.expected, for 5.10, 5.10-rt, 6.1, 6.1-rt, 6.12,
# newest and newest-rt.  Each probe that tells kernels apart is seen to
# answer both ways: get_llc_id() between 5.10 and 6.1, four more between
# 6.1 and 6.12, and the namespace form between 6.12 and newest (7.x).

.PHONY: test-probes

test-probes: test-kbuild
	@sh tests/kbuild/check-probes.sh tests/kbuild/probes.expected \
		5.10=build/kbuild/$(KREL_510)/cptk_probes.h \
		5.10-rt=build/kbuild/$(KREL_510RT)/cptk_probes.h \
		6.1=build/kbuild/$(KREL_61)/cptk_probes.h \
		6.1-rt=build/kbuild/$(KREL_61RT)/cptk_probes.h \
		6.12=build/kbuild/$(KREL_612)/cptk_probes.h \
		newest=build/kbuild/$(KREL_NEW)/cptk_probes.h \
		newest-rt=build/kbuild/$(KREL_NEWRT)/cptk_probes.h
