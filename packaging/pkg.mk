# SPDX-License-Identifier: GPL-2.0
#
# Packaging: DKMS, the files that `make install` puts next to the module
# (configuration examples, man pages, cpt-plan), and their tests.  Included
# by the top Makefile, which defines KDIR, KREL_61, KREL_612, DESTDIR and
# INSTALL_MOD_PATH.
#
#   make dkms-install      copy the module sources to
#                          $(DESTDIR)/usr/src/cpt-VERSION; without DESTDIR
#                          also dkms add, build and install for every kernel
#                          with headers (DKMS_KERNELS="R1 R2" to choose)
#   make dkms-uninstall    dkms remove --all, then remove the sources
#   make install-extras    /etc/modprobe.d/cpt.conf (all commented), the
#                          sysctl.d example, man pages and cpt-plan into
#                          $(DESTDIR); an edited modprobe.d/cpt.conf is kept
#   make uninstall-extras  remove them again (not an edited cpt.conf)
#   make test-dkms         dkms add/build/install for Debian's 6.1 and 6.12
#                          in a scratch tree under build/dkms; then, as
#                          root, the real dkms-install and dkms-uninstall in
#                          a private mount namespace (overlays on /usr/src,
#                          /var/lib/dkms, /lib/modules)
#   make test-install      make install DESTDIR=build/install/destdir from a
#                          copy of the tree, and check the layout; then, as
#                          root, a relative DESTDIR (/usr/src on an overlay)
#   make test-man          render both man pages, fail on any warning; run
#                          their cpt-plan examples; check that they name every
#                          parameter, /proc file, errno, option, exit status
#   make deb               the Debian source and binary packages (debian/:
#                          cpt-dkms, cpt-tools), dpkg-buildpackage -us -uc in
#                          a copy of the tree, into build/pkg/deb
#   make rpm               the same from packaging/rpm/cpt.spec with rpmbuild,
#                          into build/pkg/rpm/{RPMS,SRPMS}
#   make test-pkg          both built, linted (lintian, rpmlint), compared
#                          file for file, the RPMs installed into an empty
#                          root, the .debs installed with apt, for a second
#                          kernel too, and purged in an overlay of the
#                          bookworm chroot of scripts/install-deps; the
#                          module DKMS built there loaded in a 6.1 guest
#
# No test changes /lib/modules, /var/lib/dkms, /usr/src or /etc: the tests
# compare them before and after.  Each prints PASS/FAIL/SKIP lines and
# fails on any FAIL.

# The version lives in dkms.conf, the file DKMS itself reads.
CPT_VERSION	:= $(shell sed -n 's/^PACKAGE_VERSION="\{0,1\}\([^"]*\)"\{0,1\}[[:space:]]*$$/\1/p' dkms.conf)

PREFIX		?= /usr
SBINDIR		?= $(PREFIX)/sbin
MANDIR		?= $(PREFIX)/share/man
DOCDIR		?= $(PREFIX)/share/doc/cpt
SYSCONFDIR	?= /etc
DKMS		?= dkms
DEPMOD		?= depmod

# Everything DKMS builds from: the Kbuild file and the module's sources.
# tests/modules comes along because Kbuild names it (obj-$(CPT_TEST_MODULES))
# and kbuild's clean, which DKMS runs, visits it; it is not built.  The top
# Makefile is left out: it includes the test fragments.
DKMS_FILES	 = $(STAGE_MODULE) $(STAGE_TESTMODS)
DKMS_SRCDIR	 = $(DESTDIR)/usr/src/cpt-$(CPT_VERSION)
# Kernels to install for: every one whose headers are installed.
DKMS_KERNELS	?= $(shell for b in /lib/modules/*/build; do \
			test -f "$$b/Makefile" && basename "$${b%/build}"; done)

PKG_MAN		 = man/cpt.4 man/cpt-plan.8
PKG_MODPROBE	 = packaging/modprobe.d/cpt.conf
PKG_SYSCTL	 = packaging/sysctl.d/90-cpt.conf

# $(call pkg_stage,DIR): copy the DKMS sources to DIR, world-readable.
pkg_stage = rm -rf '$(1)' && $(STAGE) '$(1)' $(DKMS_FILES)

# depmod for the kernel cpt.ko was built for, into INSTALL_MOD_PATH (the
# running system when empty).  Kbuild's modules_install skips depmod when
# KDIR has no System.map, as with Debian's header packages, which would
# leave `modprobe cpt` unable to find the module.  DEPMOD=: skips it.
PKG_DEPMOD = rel=$$(modinfo -F vermagic cpt.ko | cut -d' ' -f1) && \
	test -n "$$rel" && \
	PATH="$$PATH:/sbin:/usr/sbin" $(DEPMOD) -b '$(or $(abspath $(INSTALL_MOD_PATH)),/)' "$$rel"

.PHONY: dkms-install dkms-uninstall install-extras uninstall-extras \
	test-dkms test-install test-man deb rpm test-pkg

dkms-install:
	@test -n "$(CPT_VERSION)" || { echo "dkms-install: no PACKAGE_VERSION in dkms.conf" >&2; exit 1; }
ifeq ($(DESTDIR),)
	@command -v $(DKMS) >/dev/null || { echo "dkms-install: $(DKMS) not installed (apt-get install dkms)" >&2; exit 1; }
	@if $(DKMS) status -m cpt -v $(CPT_VERSION) | grep -q .; then \
		echo "dkms-install: replacing cpt/$(CPT_VERSION) in DKMS"; \
		$(DKMS) remove -m cpt -v $(CPT_VERSION) --all || exit 1; \
	fi
endif
	$(call pkg_stage,$(DKMS_SRCDIR))
ifeq ($(DESTDIR),)
	$(DKMS) add -m cpt -v $(CPT_VERSION)
	@test -n "$(strip $(DKMS_KERNELS))" || { echo "dkms-install: no kernel headers under /lib/modules/*/build" >&2; exit 1; }
	@unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES; \
	for k in $(DKMS_KERNELS); do \
		echo "dkms-install: $$k"; \
		$(DKMS) build -m cpt -v $(CPT_VERSION) -k "$$k"; rc=$$?; \
		if [ $$rc -eq 77 ]; then echo "dkms-install: $$k: skipped (no CONFIG_PROC_SYSCTL)"; continue; fi; \
		[ $$rc -eq 0 ] || exit $$rc; \
		$(DKMS) install -m cpt -v $(CPT_VERSION) -k "$$k" || exit 1; \
	done
	$(DKMS) status -m cpt
else
	@echo "dkms-install: sources in $(DKMS_SRCDIR); run 'dkms add/build/install -m cpt -v $(CPT_VERSION)' on the target"
endif

dkms-uninstall:
ifeq ($(DESTDIR),)
	@if $(DKMS) status -m cpt -v $(CPT_VERSION) | grep -q .; then \
		$(DKMS) remove -m cpt -v $(CPT_VERSION) --all || exit 1; \
	fi
endif
	rm -rf '$(DKMS_SRCDIR)'

# The modprobe.d example changes nothing (every line is a comment), but an
# administrator's edited copy is never overwritten.
install-extras: scripts/cpt-plan $(PKG_MAN) $(PKG_MODPROBE) $(PKG_SYSCTL)
	install -d -m 0755 '$(DESTDIR)$(SBINDIR)' '$(DESTDIR)$(SYSCONFDIR)/modprobe.d' \
		'$(DESTDIR)$(DOCDIR)/examples' '$(DESTDIR)$(MANDIR)/man4' '$(DESTDIR)$(MANDIR)/man8'
	install -m 0755 scripts/cpt-plan '$(DESTDIR)$(SBINDIR)/cpt-plan'
	gzip -9n -c man/cpt.4 >'$(DESTDIR)$(MANDIR)/man4/cpt.4.gz'
	gzip -9n -c man/cpt-plan.8 >'$(DESTDIR)$(MANDIR)/man8/cpt-plan.8.gz'
	chmod 0644 '$(DESTDIR)$(MANDIR)/man4/cpt.4.gz' '$(DESTDIR)$(MANDIR)/man8/cpt-plan.8.gz'
	install -m 0644 $(PKG_MODPROBE) '$(DESTDIR)$(DOCDIR)/examples/cpt.conf'
	install -m 0644 $(PKG_SYSCTL) '$(DESTDIR)$(DOCDIR)/examples/90-cpt.conf'
	@f='$(DESTDIR)$(SYSCONFDIR)/modprobe.d/cpt.conf'; \
	if [ -e "$$f" ] && ! cmp -s $(PKG_MODPROBE) "$$f"; then \
		echo "install-extras: keeping $$f (edited); the example is $(DOCDIR)/examples/cpt.conf"; \
	else \
		echo "install -m 0644 $(PKG_MODPROBE) $$f"; \
		install -m 0644 $(PKG_MODPROBE) "$$f"; \
	fi

uninstall-extras:
	rm -f '$(DESTDIR)$(SBINDIR)/cpt-plan' '$(DESTDIR)$(MANDIR)/man4/cpt.4.gz' \
		'$(DESTDIR)$(MANDIR)/man8/cpt-plan.8.gz'
	rm -rf '$(DESTDIR)$(DOCDIR)'
	@f='$(DESTDIR)$(SYSCONFDIR)/modprobe.d/cpt.conf'; \
	if [ -e "$$f" ] && ! cmp -s $(PKG_MODPROBE) "$$f"; then \
		echo "uninstall-extras: keeping $$f (edited)"; \
	else rm -f "$$f"; fi

# The DKMS test stages the sources exactly as dkms-install does.
PKG_DKMS_OUT	 = build/dkms
PKG_DKMS_RELS	 = $(or $(KREL_61),missing-release-6.1) $(or $(KREL_612),missing-release-6.12)

test-dkms:
	@test -n "$(CPT_VERSION)" || { echo "FAIL test-dkms: no PACKAGE_VERSION in dkms.conf" >&2; exit 1; }
	@rm -rf $(PKG_DKMS_OUT) && mkdir -p $(PKG_DKMS_OUT)
	@$(call pkg_stage,$(PKG_DKMS_OUT)/src/cpt-$(CPT_VERSION))
	@sh packaging/test-dkms.sh $(PKG_DKMS_OUT) $(CPT_VERSION) $(PKG_DKMS_RELS)

test-install:
	@sh packaging/test-install.sh build/install $(or $(KREL_61),missing-release-6.1)

test-man: scripts/cpt-plan
	@sh packaging/test-man.sh scripts/cpt-plan $(PKG_MAN)

# The packages, each built from a copy of the tree (packaging/build-pkg.sh).
PKG_OUT		 = build/pkg

deb:
	@sh packaging/build-pkg.sh deb $(PKG_OUT) $(CPT_VERSION)

rpm:
	@sh packaging/build-pkg.sh rpm $(PKG_OUT) $(CPT_VERSION)

# Both packages built, linted, compared and installed in the bookworm
# chroot of scripts/install-deps for Debian's 6.1 and then 6.12, and the
# module DKMS built for 6.1 loaded in a guest (packaging/test-pkg.sh).
PKG_TEST_RELS	 = $(or $(KREL_61),missing-release-6.1) $(or $(KREL_612),missing-release-6.12)

test-pkg:
	@sh packaging/test-pkg.sh $(PKG_OUT) $(CPT_VERSION) $(PKG_TEST_RELS)
