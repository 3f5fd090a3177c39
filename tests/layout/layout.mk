# SPDX-License-Identifier: GPL-2.0
#
# make test-layout: the layout's rules (tests/layout/check-layout.sh): the
# core reaches the system only through its shim, the tool compiles no glue,
# one build file names each module source, the glue's includes form no
# cycle, no function over 80 lines, every guest script shellchecks alone.
# A few seconds.

.PHONY: test-layout print-module-sources

test-layout:
	MAKE='$(MAKE)' sh tests/layout/check-layout.sh

print-module-sources:
	@echo $(CPT_CORE_SRC) $(CPT_LINUX_SRC) $(CPT_FAULT_SRC)
