# SPDX-License-Identifier: Apache-2.0
#
# Host unit tests of libkbinder's pure parts (writer, reader, parcel).
# Included by the top Makefile; `make host-lib-check` builds and runs them.
# Each test links only the library unit it tests, so no driver is needed.

LIB_HOST_BIN := build/host
LIB_HOST_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE \
	-Iinclude/uapi -Iinclude -Ilib/include -Ilib/src -Itests/host
LIB_HOST_DEPS := $(wildcard lib/include/kbinder/*.h lib/src/*.h include/kbinder/*.h \
	tests/host/lib_check.h include/uapi/linux/android/*.h)
LIB_HOST_TESTS := $(LIB_HOST_BIN)/lib_writer $(LIB_HOST_BIN)/lib_reader \
	$(LIB_HOST_BIN)/lib_parcel $(LIB_HOST_BIN)/lib_report \
	$(LIB_HOST_BIN)/lib_android $(LIB_HOST_BIN)/lib_android_fuzz
# The parcel conventions' tests and fuzz run under ASan and UBSan.
LIB_HOST_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
# The bounded fuzz of the parcel readers in every make check (seconds).
LIB_FUZZ_SECONDS ?= 3

$(LIB_HOST_BIN)/lib_writer: tests/host/lib_writer.c lib/src/writer.c lib/src/codes.c $(LIB_HOST_DEPS)
	@mkdir -p $(@D)
	$(CC) $(LIB_HOST_CFLAGS) -o $@ tests/host/lib_writer.c lib/src/writer.c lib/src/codes.c
$(LIB_HOST_BIN)/lib_reader: tests/host/lib_reader.c lib/src/reader.c lib/src/codes.c $(LIB_HOST_DEPS)
	@mkdir -p $(@D)
	$(CC) $(LIB_HOST_CFLAGS) -o $@ tests/host/lib_reader.c lib/src/reader.c lib/src/codes.c
$(LIB_HOST_BIN)/lib_parcel: tests/host/lib_parcel.c lib/src/parcel.c $(LIB_HOST_DEPS)
	@mkdir -p $(@D)
	$(CC) $(LIB_HOST_CFLAGS) -o $@ tests/host/lib_parcel.c lib/src/parcel.c
$(LIB_HOST_BIN)/lib_android: tests/host/lib_android.c lib/src/android.c lib/src/parcel.c $(LIB_HOST_DEPS)
	@mkdir -p $(@D)
	$(CC) $(LIB_HOST_CFLAGS) $(LIB_HOST_SAN) -o $@ tests/host/lib_android.c \
		lib/src/android.c lib/src/parcel.c
# (the Service union reader is in servicemanager.c, which needs the rest)
$(LIB_HOST_BIN)/lib_android_fuzz: tests/host/lib_android_fuzz.c $(wildcard lib/src/*.c) $(LIB_HOST_DEPS)
	@mkdir -p $(@D)
	$(CC) $(LIB_HOST_CFLAGS) $(LIB_HOST_SAN) -o $@ tests/host/lib_android_fuzz.c \
		$(wildcard lib/src/*.c)
$(LIB_HOST_BIN)/lib_report: tests/host/lib_report.c lib/src/report.c $(LIB_HOST_DEPS)
	@mkdir -p $(@D)
	$(CC) $(LIB_HOST_CFLAGS) -o $@ tests/host/lib_report.c lib/src/report.c

.PHONY: host-lib-check
host-lib-check: $(LIB_HOST_TESTS)
	@rc=0; for t in $(filter-out %_fuzz,$(LIB_HOST_TESTS)); do $$t || rc=1; done; \
	$(LIB_HOST_BIN)/lib_android_fuzz $(LIB_FUZZ_SECONDS) || rc=1; exit $$rc

# ---------------------------------------------------------------- compat32
# The conformance suites again as 32-bit programs (compat_ioctl path of the
# driver): build/guest/bin/compat32_<suite>. Built where gcc can link
# static -m32 programs (gcc-multilib); hooked into the initramfs so that
# `make check-guest TESTS='compat32_*'` runs them. Where it cannot, they
# are not built, and make check fails (host-compat32-check): the 32-bit
# suites do not vanish without a word. COMPAT32_CC is the compiler the
# probe tries (its self-test gives it one that cannot).
COMPAT32_CC ?= $(CC)
COMPAT32_OK := $(shell printf 'int main(void){return 0;}\n' | \
	$(COMPAT32_CC) -m32 -static -x c - -o /dev/null 2>/dev/null && echo yes)
COMPAT32_SUITES := context_mgr death errors fds fileops looper nested oneway \
	refcount sg transaction
COMPAT32_DIR := build/guest32
COMPAT32_CFLAGS := -m32 -std=gnu11 -O2 -g -Wall -Wextra -Werror \
	-Iinclude/uapi -Iinclude -Ilib/include -Itests/guest -I$(dir $(SPLATS_H))
COMPAT32_LIB_OBJS := $(patsubst lib/src/%.c,$(COMPAT32_DIR)/lib/%.o,$(wildcard lib/src/*.c))
COMPAT32_BINS := $(if $(COMPAT32_OK),$(patsubst %,build/guest/bin/compat32_%,$(COMPAT32_SUITES)))
COMPAT32_DEPS := $(wildcard tests/guest/*.h tests/guest/*/*.h lib/include/kbinder/*.h \
	lib/src/*.h include/uapi/linux/android/*.h include/kbinder/*.h) $(SPLATS_H)

$(COMPAT32_DIR)/lib/%.o: lib/src/%.c $(COMPAT32_DEPS)
	@mkdir -p $(@D)
	$(CC) $(COMPAT32_CFLAGS) -std=c11 -D_GNU_SOURCE -Ilib/src -c -o $@ $<
# The harness and the fixtures (libkbt.a, see the top Makefile), 32-bit.
COMPAT32_KBT_OBJS := $(patsubst tests/guest/%.c,$(COMPAT32_DIR)/%.o,$(GUEST_LIB_SRCS))
COMPAT32_KBT := $(COMPAT32_DIR)/libkbt.a
$(COMPAT32_KBT_OBJS): $(COMPAT32_DIR)/%.o: tests/guest/%.c $(COMPAT32_DEPS)
	@mkdir -p $(@D)
	$(CC) $(COMPAT32_CFLAGS) -c -o $@ $<
$(COMPAT32_KBT): $(COMPAT32_KBT_OBJS)
	rm -f $@ && ar rcs $@ $^
build/guest/bin/compat32_%: tests/guest/%.c $(COMPAT32_KBT) $(COMPAT32_LIB_OBJS) $(COMPAT32_DEPS)
	@mkdir -p $(@D)
	$(CC) $(COMPAT32_CFLAGS) -static -pthread -o $@ $< \
		$(COMPAT32_KBT) $(COMPAT32_LIB_OBJS)

# Objects only pattern rules name are intermediate to make, which would
# delete them after every build and rebuild them the next time.
.SECONDARY: $(COMPAT32_KBT_OBJS) $(COMPAT32_LIB_OBJS)

.PHONY: guest-compat32
guest-compat32: $(COMPAT32_BINS)
$(INITRAMFS): $(COMPAT32_BINS)

# make check's host stage: the 32-bit toolchain is there and every 32-bit
# suite was built (a FAIL line saying what to install, not a silent
# skip); and that check itself fails without the toolchain (it runs again
# with a COMPAT32_CC that cannot link -m32).
.PHONY: host-compat32-check host-compat32-selftest-check
host-compat32-check:
	@if [ -z '$(COMPAT32_OK)' ]; then \
		echo "FAIL compat32/toolchain: $(COMPAT32_CC) cannot link static 32-bit programs (-m32 -static), so the 32-bit suites ($(COMPAT32_SUITES)) are not built: install gcc-multilib (scripts/deps.sh does)"; \
		exit 1; \
	fi; \
	echo "PASS compat32/toolchain"; rc=0; \
	for s in $(COMPAT32_SUITES); do \
		if [ -x build/guest/bin/compat32_$$s ]; then echo "PASS compat32/built_$$s"; \
		else echo "FAIL compat32/built_$$s: build/guest/bin/compat32_$$s is missing (make guest-compat32)"; rc=1; fi; \
	done; exit $$rc
host-compat32-selftest-check:
	@out=$$($(MAKE) -s --no-print-directory host-compat32-check COMPAT32_CC=false 2>&1); rc=$$?; \
	if [ $$rc -ne 0 ] && echo "$$out" | grep -q '^FAIL compat32/toolchain: false cannot link .*install gcc-multilib'; then \
		echo "PASS compat32/missing_toolchain_fails"; \
	else \
		echo "FAIL compat32/missing_toolchain_fails: without a 32-bit toolchain the check said (exit $$rc): $$out"; exit 1; \
	fi

# ---------------------------------------------------------------- install
# The packaging contract (make install PREFIX=/usr DESTDIR=...), the
# exported symbols, the public header on the system's own kernel headers.
.PHONY: host-lib-install-check
host-lib-install-check:
	@tests/host/lib_install.sh $(BUILD)
