# SPDX-License-Identifier: Apache-2.0
#
# DKMS, build only (included by the top Makefile; part of make check's host
# stage): `make host-dkms-check` adds the module source kbinder-dkms ships
# to a throwaway DKMS tree, builds and installs it (into a throwaway tree,
# never /lib/modules) for every installed Debian 6.1 and 6.12 kernel, checks what
# dkms.conf refuses, and removes it again. Nothing is loaded. About 30-60 s
# a flavour. See tests/host/dkms-check.sh.

.PHONY: host-dkms-check
host-dkms-check:
	@tests/host/dkms-check.sh $(BUILD)/dkms
