# SPDX-License-Identifier: Apache-2.0
#
# make check-aosp's host side with no AOSP programs and no guest: the
# no-AOSP_OUT path and the per-case table's verdict (tests/host/aosp_check.sh):
#   make host-aosp-check

.PHONY: host-aosp-check
host-aosp-check:
	@tests/host/aosp_check.sh
