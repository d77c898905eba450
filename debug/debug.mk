# SPDX-License-Identifier: Apache-2.0
#
# The debug kernel (included by the top Makefile; see docs/debug-kernel.md).
#   make debug-kernel        build Debian's linux-source-$(KSERIES) with KASAN,
#                            lockdep, kmemleak, UBSAN and fault injection,
#                            cached outside the repository (a no-op when cached)
#   make check-debug         the guest suite on it, then a kmemleak scan and
#                            lockdep/taint checks (DRIVER=kbinder|reference,
#                            TESTS='glob')
#   make check-debug-canary  prove every detector fails a run: one boot per
#                            deliberate bug of debug/canary (CANARIES='uaf leak')

.PHONY: debug-kernel check-debug check-debug-canary
debug-kernel:
	KSERIES='$(KSERIES)' debug/build-kernel.sh

# Every DEBUG_* knob check-debug.sh reads can be set on the make command line.
DEBUG_ENV = KSERIES='$(KSERIES)' BUILD='$(BUILD)' DRIVER='$(DRIVER)' TESTS='$(TESTS)' JOBS='$(JOBS)' \
	$(foreach v,DEBUG_MEMORY CANARY_MEMORY DEBUG_TEST_TIMEOUT DEBUG_APPEND CANARIES,$(if $($(v)),$(v)='$($(v))'))

check-debug: guest-tests tools selftests
	@$(DEBUG_ENV) debug/check-debug.sh check

check-debug-canary: guest-tests tools
	@$(DEBUG_ENV) debug/check-debug.sh canary
