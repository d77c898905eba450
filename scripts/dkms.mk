# SPDX-License-Identifier: Apache-2.0
#
# DKMS's build of kbinder (dkms.conf's MAKE and CLEAN), run by DKMS in its
# copy of the source (the tree scripts/dkms-source.sh assembles):
#   make -f scripts/dkms.mk KDIR=/lib/modules/<kernel>/build [clean]
# First the check that the kernel exports what kbinder needs, then Kbuild.

KDIR ?= /lib/modules/$(KERNELRELEASE)/build

.PHONY: modules clean
modules:
	sh scripts/dkms-kernel-check.sh '$(KDIR)'
	$(MAKE) -C '$(KDIR)' M='$(CURDIR)/driver' KBINDER_SELFTEST= modules

clean:
	$(MAKE) -C '$(KDIR)' M='$(CURDIR)/driver' clean
