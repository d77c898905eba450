# SPDX-License-Identifier: Apache-2.0
#
# The default module carries no self-test: driver/Kbuild links the
# allocator self-test only into the test build (KBINDER_SELFTEST=1), which
# must carry it (tests/host/module_check.sh):
#   make host-module-check

.PHONY: host-module-check
host-module-check: $(MODULE) $(TEST_MODULE)
	@tests/host/module_check.sh $(MODULE) $(TEST_MODULE)
