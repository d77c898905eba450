# SPDX-License-Identifier: Apache-2.0
#
# The API audit (docs/api-audit.md) has a row for every item of the ABI
# check's list, and nothing else, with a known verdict
# (tests/host/api_audit_check.sh):
#   make host-api-audit-check

.PHONY: host-api-audit-check
host-api-audit-check:
	@tests/host/api_audit_check.sh
