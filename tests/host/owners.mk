# SPDX-License-Identifier: Apache-2.0
#
# The ownership checker's own tests (tests/host/owners_check.sh):
#   make host-owners-check

.PHONY: host-owners-check
host-owners-check:
	@tests/host/owners_check.sh
