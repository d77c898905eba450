# SPDX-License-Identifier: Apache-2.0
#
# The layering checker's own tests (tests/host/layers_check.sh):
#   make host-layers-check

.PHONY: host-layers-check
host-layers-check:
	@tests/host/layers_check.sh
