# SPDX-License-Identifier: Apache-2.0
#
# AOSP's own Android 14 binder programs on kbinder and on the reference
# (interop/aosp/README.md):
#   make check-aosp AOSP_OUT=DIR   DIR: the AOSP programs, built outside
#                                  this repository; without it, says what
#                                  to build and exits 0
#   make bench-aosp AOSP_OUT=DIR   binderThroughputTest, both drivers, one boot
# AOSP_KSERIES= AOSP_DRIVERS= AOSP_TESTS= choose the boots and phases
# (interop/aosp/check.sh).

AOSP_BIN := $(BUILD)/aosp/bin
AOSP_CTL := $(AOSP_BIN)/aosp-ctl

$(AOSP_CTL): interop/aosp/aosp-ctl.c $(wildcard include/uapi/linux/android/*.h)
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) $(STATIC_LDFLAGS) -o $@ $<

.PHONY: check-aosp
check-aosp: $(if $(AOSP_OUT),$(AOSP_CTL))
	@AOSP_OUT='$(AOSP_OUT)' interop/aosp/check.sh

# binderThroughputTest on kbinder and the reference in one boot, with its
# A/A control (interop/aosp/bench.sh; docs/performance.md).
.PHONY: bench-aosp
bench-aosp: $(if $(AOSP_OUT),$(AOSP_CTL))
	@AOSP_OUT='$(AOSP_OUT)' KSERIES='$(KSERIES)' interop/aosp/bench.sh
