# SPDX-License-Identifier: Apache-2.0
#
# kbinder: the module, its userspace, and the tests that boot it in QEMU.
#
#   make                 build everything (module, library, tools, tests)
#   make run             boot a VM with kbinder loaded and show it working
#   make check           every test: lint, host tests, runner self-tests, the
#                        guest suite on both drivers, a short fuzz run
#   make check-guest     only the guest suite, in one boot
#   make bench           kbinder against the upstream driver, same boot
#   make help            the rest
#
# Variables: DRIVER=kbinder|reference (the driver the guest tests run on;
# make check runs them on both, make check-guest on kbinder, by default),
# TESTS='glob' (which guest test programs), KDIR= (kernel build directory),
# KVER= (Debian kernel version; default: the one linux-image-amd64 installed).

.DEFAULT_GOAL := all
.SECONDEXPANSION:
SHELL := /bin/bash

# Install missing build dependencies before anything else (once per
# top-level make; sub-makes inherit KBINDER_DEPS_OK).
NO_DEPS_GOALS := clean help deps
ifeq ($(KBINDER_DEPS_OK),)
ifeq ($(filter $(NO_DEPS_GOALS),$(MAKECMDGOALS)),)
ifneq ($(shell scripts/deps.sh --check >/dev/null 2>&1; echo $$?),0)
DEPS_STATUS := $(shell scripts/deps.sh >&2; echo $$?)
ifneq ($(DEPS_STATUS),0)
$(error kbinder: build dependencies are missing, see above)
endif
endif
endif
export KBINDER_DEPS_OK := 1
endif

KVER ?= $(shell scripts/kernel-version.sh)
KDIR ?= /lib/modules/$(KVER)/build
VMLINUZ ?= /boot/vmlinuz-$(KVER)
REFERENCE_KO ?= /lib/modules/$(KVER)/kernel/drivers/android/binder_linux.ko
# make check runs the guest suite on both drivers unless DRIVER= names one.
DRIVER ?=
CHECK_DRIVERS := $(or $(DRIVER),kbinder reference)
TESTS ?= *
VM_TIMEOUT ?= 900
JOBS ?= 2

BUILD := build
CC ?= gcc
USER_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -Iinclude/uapi -Ilib/include
STATIC_LDFLAGS := -static -pthread

# ---------------------------------------------------------------- module
MODULE := driver/kbinder.ko
DRIVER_SOURCES := $(wildcard driver/*.c driver/*.h driver/Kbuild)

.PHONY: all module lib tools guest-tests initramfs
all: module lib tools guest-tests bench-programs

module: $(MODULE)
$(MODULE): $(DRIVER_SOURCES) $(wildcard include/uapi/linux/android/*.h)
	@test -f driver/Kbuild || { echo "driver/Kbuild is missing"; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR)/driver -j$(JOBS) W=1 modules

# ---------------------------------------------------------------- libkbinder
LIB := $(BUILD)/lib/libkbinder.a
LIB_SOURCES := $(wildcard lib/src/*.c)
LIB_OBJECTS := $(patsubst lib/src/%.c,$(BUILD)/lib/%.o,$(LIB_SOURCES))

lib: $(LIB)
$(BUILD)/lib/%.o: lib/src/%.c $(wildcard lib/include/kbinder/*.h lib/src/*.h include/uapi/linux/android/*.h)
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) -std=c11 -D_DEFAULT_SOURCE -D_GNU_SOURCE -Ilib/src -c -o $@ $<
$(LIB): $(LIB_OBJECTS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

# ---------------------------------------------------------------- tools
TOOLS_BIN := $(BUILD)/tools/bin
TOOL_DIRS := $(patsubst tools/%/,%,$(dir $(wildcard tools/*/*.c)))
TOOLS := $(addprefix $(TOOLS_BIN)/,$(sort $(TOOL_DIRS)))

tools: $(TOOLS)
$(TOOLS_BIN)/%: $$(wildcard tools/$$*/*.c tools/$$*/*.h) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) $(STATIC_LDFLAGS) -Itools/$* -o $@ $(wildcard tools/$*/*.c) $(LIB)

# ---------------------------------------------------------------- guest tests
GUEST_BIN := $(BUILD)/guest/bin
# The harness library: linked into every test program, not one itself.
GUEST_HARNESS_SRCS := tests/guest/harness.c tests/guest/harness_hang.c
GUEST_HARNESS := $(patsubst tests/guest/%.c,$(BUILD)/guest/%.o,$(GUEST_HARNESS_SRCS))
GUEST_SOURCES := $(filter-out $(GUEST_HARNESS_SRCS),$(wildcard tests/guest/*.c))
GUEST_TESTS := $(patsubst tests/guest/%.c,$(GUEST_BIN)/%,$(GUEST_SOURCES))
GUEST_HEADERS := $(wildcard tests/guest/*.h lib/include/kbinder/*.h include/uapi/linux/android/*.h)
GUEST_CFLAGS := $(USER_CFLAGS) -Itests/guest

guest-tests: $(GUEST_TESTS)
$(GUEST_HARNESS): $(BUILD)/guest/%.o: tests/guest/%.c $(GUEST_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -c -o $@ $<
$(GUEST_BIN)/%: tests/guest/%.c $(GUEST_HARNESS) $(LIB) $(GUEST_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) $(STATIC_LDFLAGS) -o $@ $< $(GUEST_HARNESS) $(LIB)

# ---------------------------------------------------------------- benchmarks
BENCH_BIN := $(BUILD)/bench/bin
BENCH_SOURCES := $(wildcard bench/*.c)
BENCH_PROGRAMS := $(patsubst bench/%.c,$(BENCH_BIN)/%,$(BENCH_SOURCES))

.PHONY: bench-programs
bench-programs: $(BENCH_PROGRAMS)
$(BENCH_BIN)/%: bench/%.c $(LIB) $(wildcard bench/*.h lib/include/kbinder/*.h include/uapi/linux/android/*.h)
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) -Ibench $(STATIC_LDFLAGS) -o $@ $< $(LIB) -lm

# ---------------------------------------------------------------- upstream selftest
# Upstream's binderfs selftest, built at test time from Debian's
# linux-source-6.1 (never copied into this tree), against our UAPI headers,
# and run in the guest by tests/vm/guest/binderfs_selftest.sh. Without the
# tarball (scripts/deps.sh --lint installs it) the guest reports a SKIP.
LINUX_SOURCE_TAR ?= /usr/src/linux-source-6.1.tar.xz
SELFTEST_SRC := $(BUILD)/selftests/src
SELFTEST_BIN := $(BUILD)/selftests/bin
SELFTEST_DIR := tools/testing/selftests
SELFTEST_FILES := $(SELFTEST_DIR)/filesystems/binderfs/binderfs_test.c \
	$(SELFTEST_DIR)/kselftest_harness.h $(SELFTEST_DIR)/kselftest.h
SELFTESTS := $(if $(wildcard $(LINUX_SOURCE_TAR)),$(SELFTEST_BIN)/binderfs_test)

.PHONY: selftests
selftests: $(SELFTESTS)
$(SELFTEST_SRC)/.extracted: $(LINUX_SOURCE_TAR)
	rm -rf $(SELFTEST_SRC) && mkdir -p $(SELFTEST_SRC)
	tar -xJf $< -C $(SELFTEST_SRC) --strip-components=1 \
		$(addprefix linux-source-6.1/,$(SELFTEST_FILES))
	touch $@
# Upstream's code, upstream's warnings: built as is, without -Werror.
$(SELFTEST_BIN)/binderfs_test: $(SELFTEST_SRC)/.extracted $(wildcard include/uapi/linux/android/*.h)
	@mkdir -p $(@D)
	$(CC) -O2 -g -Iinclude/uapi $(STATIC_LDFLAGS) -o $@ \
		$(SELFTEST_SRC)/$(SELFTEST_DIR)/filesystems/binderfs/binderfs_test.c

# ---------------------------------------------------------------- VM
INITRAMFS := $(BUILD)/vm/initramfs.cpio.gz
VM_INPUTS := $(wildcard tests/vm/guest/*) tests/vm/mkinitramfs.sh

initramfs: $(INITRAMFS)
$(INITRAMFS): $(MODULE) $(GUEST_TESTS) $(TOOLS) $(BENCH_PROGRAMS) $(SELFTESTS) $(VM_INPUTS)
	tests/vm/mkinitramfs.sh -o $@ -m $(MODULE) -m $(REFERENCE_KO) \
		-t $(GUEST_BIN) -b $(TOOLS_BIN) -b $(BENCH_BIN) -b $(SELFTEST_BIN)

VM_RUN = tests/vm/run.sh --kernel $(VMLINUZ) --initramfs $(INITRAMFS) \
	--accel-cache $(BUILD)/vm/accel --timeout $(VM_TIMEOUT)

# ---------------------------------------------------------------- run / check
.PHONY: run check check-host check-guest check-runner bench
run: $(INITRAMFS)
	$(VM_RUN) --driver kbinder --logdir $(BUILD)/vm/run demo

# Both drivers in one boot, timing-friendly guest (see shared/VM-NOTES.md).
BENCH_APPEND ?= idle=poll clocksource=tsc tsc=reliable
# The bench's knobs (docs/performance.md) reach the guest when set here.
BENCH_KNOBS := BENCH_SCALE BENCH_BUDGET BENCH_WORKLOADS BENCH_TIMEOUT \
	BENCH_PROFILE BENCH_SELFTEST BENCH_PROFILE_CALLS BENCH_KBINDER_PARAMS
BENCH_ENV = $(foreach v,$(BENCH_KNOBS),$(if $($(v)),$(v)=$($(v))))
bench: all $(INITRAMFS)
	@$(VM_RUN) --driver kbinder --logdir $(BUILD)/vm/bench \
		--append "$(strip $(BENCH_APPEND) $(BENCH_ENV))" bench; rc=$$?; \
	if [ -x bench/report.sh ]; then bench/report.sh $(BUILD)/vm/bench || rc=1; fi; \
	exit $$rc

# A sampling profile (perf record) of the small round trip on both
# drivers: its own initramfs with the host's perf and its libraries (about
# 30 MB, so not the one make check boots). docs/performance.md reads it.
PERF ?= $(shell command -v perf)
PROFILE_INITRAMFS := $(BUILD)/vm/initramfs-perf.cpio.gz
PROFILE_APPEND ?= BENCH_WORKLOADS=sync:4 BENCH_SCALE=0.1 BENCH_PROFILE_CALLS=40000
.PHONY: bench-profile
bench-profile: all $(INITRAMFS)
	@test -n '$(PERF)' || { echo 'bench-profile: needs perf on the host (apt-get install linux-perf)'; exit 1; }
	tests/vm/mkinitramfs.sh -o $(PROFILE_INITRAMFS) -m $(MODULE) -m $(REFERENCE_KO) \
		-b $(TOOLS_BIN) -b $(BENCH_BIN) -p $(PERF)
	tests/vm/run.sh --kernel $(VMLINUZ) --initramfs $(PROFILE_INITRAMFS) \
		--accel-cache $(BUILD)/vm/accel --timeout $(VM_TIMEOUT) \
		--driver kbinder --logdir $(BUILD)/vm/profile \
		--append "$(strip $(BENCH_APPEND) $(PROFILE_APPEND) $(BENCH_ENV))" bench

check: all $(INITRAMFS)
	@DRIVERS='$(CHECK_DRIVERS)' TESTS='$(TESTS)' VM_RUN='$(VM_RUN)' BUILD='$(BUILD)' \
		tests/check.sh all

check-host: all
	@BUILD='$(BUILD)' tests/check.sh host

check-runner: $(INITRAMFS)
	@VM_RUN='$(VM_RUN)' BUILD='$(BUILD)' tests/check.sh runner

check-guest: $(INITRAMFS)
	@DRIVERS='$(or $(DRIVER),kbinder)' TESTS='$(TESTS)' VM_RUN='$(VM_RUN)' BUILD='$(BUILD)' \
		tests/check.sh guest

# Host test fragments (each defines a host-*-check target).
-include $(wildcard tests/host/*.mk)
# The debug kernel (KASAN, lockdep, kmemleak): make check-debug.
-include $(wildcard debug/*.mk)
# The fuzzer: make fuzz DURATION=...
-include $(wildcard fuzz/*.mk)

# ---------------------------------------------------------------- misc
.PHONY: deps lint clean help
deps:
	scripts/deps.sh

lint:
	scripts/lint.sh

clean:
	-test -f driver/Kbuild && $(MAKE) -C $(KDIR) M=$(CURDIR)/driver clean
	rm -rf $(BUILD)

help:
	@sed -n '3,17p' Makefile | sed 's/^# \{0,1\}//'
	@echo "Other targets: module lib tools guest-tests initramfs check-host"
	@echo "  check-runner (the VM runner's own tests) lint deps clean"
	@echo "  fuzz check-fuzz (DURATION= SEED=)  check-debug check-debug-canary"
	@echo "  bench-profile (perf record of a small round trip, both drivers)"
