# SPDX-License-Identifier: Apache-2.0
#
# libkbinder's man pages against its symbol map and headers:
#   make host-lib-man-check
.PHONY: host-lib-man-check
host-lib-man-check:
	@tests/host/lib_man.sh
