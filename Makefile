# SPDX-License-Identifier: Apache-2.0
#
# kbinder: the module, its userspace, and the tests that boot it in QEMU.
#
#   make                 build everything (module, library, tools, tests)
#   make run             boot a VM with kbinder loaded and show it working
#   make check           every test: lint, host tests, runner self-tests, the
#                        guest suite on both drivers on Debian's 6.1 and 6.12
#                        kernels, on kbinder alone on 6.12's cloud kernel,
#                        the CVE/fault/sec_* tests on the debug kernel, a
#                        short fuzz run
#   make check-guest     only the guest suite, in one boot
#   make bench-insn      instructions per operation, kbinder, the upstream
#                        driver and a pipe, counted by a QEMU plugin in one
#                        boot (CHECK=1: two boots, which must agree within
#                        2%; PROFILE=1: per kernel function)
#   make bench           the time-based second opinion: kbinder against the
#                        upstream driver, same boot, with an A/A control
#                        (OLD=REV: and against kbinder built from commit REV)
#   make help            the rest
#
# Variables: DRIVER=kbinder|reference (the driver the guest tests run on;
# make check runs them on both, make check-guest on kbinder, by default),
# TESTS='glob' (which guest test programs), KSERIES=6.1|6.12 and
# FLAVOUR=amd64|cloud-amd64|rt-amd64 (which Debian kernel to build for and
# boot; default 6.1, amd64), KDIR= (kernel build directory), KVER= (Debian
# kernel version; default: the one of that series and flavour apt installed).

.DEFAULT_GOAL := all
.SECONDEXPANSION:
SHELL := /bin/bash
BUILD := build

# The Debian kernel to build for and boot (see "kernel" below).
KSERIES ?= 6.1
FLAVOUR ?= amd64
ifeq ($(filter 6.1 6.12,$(KSERIES)),)
$(error KSERIES=$(KSERIES): kbinder supports the 6.1 and 6.12 series)
endif
ifeq ($(filter amd64 cloud-amd64 rt-amd64,$(FLAVOUR)),)
$(error FLAVOUR=$(FLAVOUR): one of amd64 cloud-amd64 rt-amd64)
endif

# Install missing build dependencies before anything else (once per
# top-level make; sub-makes inherit KBINDER_DEPS_OK).
NO_DEPS_GOALS := clean help deps install uninstall
ifeq ($(KBINDER_DEPS_OK),)
# What deps.sh installs beyond the base (6.1 and 6.12 generic, 6.12 cloud):
# the kernel KSERIES and FLAVOUR name, every flavour of both series for
# check-flavours, the packaging tools for the deb targets.
# make check's stages need the lint tools, and every initramfs carries
# upstream's binderfs selftest built from linux-source-6.1 (one of them):
# installed before the Makefile looks for the tarball below, not by the
# lint stage after the initramfs was packed without the selftest.
DEPS_ARGS := --kernel $(KSERIES)/$(FLAVOUR) \
	$(if $(filter check check-guest check-runner run lint check-debug% check-flavours,$(MAKECMDGOALS)),--lint) \
	$(if $(filter check-flavours,$(MAKECMDGOALS)),--flavour cloud-amd64 --flavour rt-amd64) \
	$(if $(filter deb check-deb,$(MAKECMDGOALS)),--deb)
ifeq ($(filter $(NO_DEPS_GOALS),$(MAKECMDGOALS)),)
ifneq ($(shell scripts/deps.sh --check $(DEPS_ARGS) >/dev/null 2>&1; echo $$?),0)
DEPS_STATUS := $(shell scripts/deps.sh $(DEPS_ARGS) >&2; echo $$?)
ifneq ($(DEPS_STATUS),0)
$(error kbinder: build dependencies are missing, see above)
endif
endif
endif
export KBINDER_DEPS_OK := 1
endif

# ---------------------------------------------------------------- kernel
# The Debian kernel to build for and boot: a series (6.1: Debian 12's own;
# 6.12: Debian 13's, and Debian 12's from its security archive) and a
# flavour: amd64 (generic), cloud-amd64 (no binder at all in it) or rt-amd64
# (PREEMPT_RT).
KVER ?= $(shell scripts/kernel-version.sh $(FLAVOUR) $(KSERIES))
KDIR ?= /lib/modules/$(KVER)/build
VMLINUZ ?= /boot/vmlinuz-$(KVER)
# A module only loads on the kernel it was built for: 6.1's generic kernel
# builds in driver/, every other kernel in its own tree of links to the
# sources, build/<series>-<flavour>/driver, with its own initramfs beside it.
ifeq ($(KSERIES)-$(FLAVOUR),6.1-amd64)
MODULE_DIR := driver
FLAVOUR_BUILD := $(BUILD)
else
FLAVOUR_BUILD := $(BUILD)/$(KSERIES)-$(FLAVOUR)
MODULE_DIR := $(FLAVOUR_BUILD)/driver
endif
# The kernel's own upstream driver, the reference; empty when the kernel
# has none (cloud-amd64). 6.12 ships it xz-compressed: the initramfs gets
# it decompressed (busybox insmod reads plain modules only).
REFERENCE_DIR := /lib/modules/$(KVER)/kernel/drivers/android
REFERENCE_SRC := $(firstword $(wildcard $(REFERENCE_DIR)/binder_linux.ko $(REFERENCE_DIR)/binder_linux.ko.xz))
REFERENCE_KO ?= $(if $(filter %.xz,$(REFERENCE_SRC)),$(FLAVOUR_BUILD)/reference/binder_linux.ko,$(REFERENCE_SRC))
ifneq ($(filter %.xz,$(REFERENCE_SRC)),)
$(FLAVOUR_BUILD)/reference/binder_linux.ko: $(REFERENCE_SRC)
	@mkdir -p $(@D)
	xz -dc $< >$@.tmp && mv $@.tmp $@
endif
# make check runs the guest suite on both drivers unless DRIVER= names one
# (on kbinder alone where the kernel has no reference driver).
DRIVER ?=
CHECK_DRIVERS := $(or $(DRIVER),kbinder $(if $(REFERENCE_KO),reference))
TESTS ?= *
VM_TIMEOUT ?= 900
JOBS ?= 2

CC ?= gcc
# (-Iinclude: the in-tree headers beside the UAPI ones, e.g.
# <kbinder/binder_cmds.h>, the one list of the protocol codes)
USER_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -Iinclude/uapi -Iinclude -Ilib/include
STATIC_LDFLAGS := -static -pthread

# ---------------------------------------------------------------- module
MODULE := $(MODULE_DIR)/kbinder.ko
# (kbinder.mod.c is Kbuild's output, not a source.)
DRIVER_SOURCES := $(filter-out %.mod.c,$(wildcard driver/*.c driver/*.h driver/Kbuild))
# Rebuilt when KVER changes (a new Debian kernel ABI), not only on edits.
KVER_STAMP := $(FLAVOUR_BUILD)/module.kver

.PHONY: all module lib tools guest-tests initramfs FORCE
all: module lib tools guest-tests bench-programs

module: $(MODULE)
$(KVER_STAMP): FORCE
	@test -n '$(KVER)' -a -d '$(KDIR)' || { echo "no kernel headers for $(KSERIES) $(FLAVOUR) (KVER='$(KVER)', KDIR=$(KDIR)): scripts/deps.sh --kernel $(KSERIES)/$(FLAVOUR)"; exit 1; }
	@mkdir -p $(@D)
	@echo '$(KVER)' | cmp -s - $@ || echo '$(KVER)' >$@
$(MODULE): $(DRIVER_SOURCES) $(wildcard include/uapi/linux/android/*.h include/uapi/linux/kbinder_profile.h) $(KVER_STAMP)
	@test -f driver/Kbuild || { echo "driver/Kbuild is missing"; exit 1; }
ifneq ($(MODULE_DIR),driver)
	@# Links to the sources: ../include/uapi must resolve beside them too.
	@mkdir -p $(MODULE_DIR)
	@find $(MODULE_DIR) -maxdepth 1 -type l -delete
	@ln -sf $(addprefix $(CURDIR)/,$(DRIVER_SOURCES)) $(MODULE_DIR)/
	@ln -sfn $(CURDIR)/include $(FLAVOUR_BUILD)/include
endif
	@# KBINDER_SELFTEST= : an environment that sets it makes no test build here.
	$(MAKE) -C $(KDIR) M=$(CURDIR)/$(MODULE_DIR) -j$(JOBS) W=1 KBINDER_SELFTEST= modules

# The test build: the same sources with the allocator's self-test
# (KBINDER_SELFTEST=1, see driver/Kbuild), in a tree of links of its own so
# its objects never mix with the default module's. The guest loads it once
# with selftest=1 (tests/vm/guest/lib.sh); it is never installed or shipped,
# and the default kbinder.ko carries none of the self-test.
TEST_MODULE_TREE := $(FLAVOUR_BUILD)/test-module
TEST_MODULE := $(TEST_MODULE_TREE)/kbinder-selftest.ko
.PHONY: test-module
test-module: $(TEST_MODULE)
$(TEST_MODULE): $(DRIVER_SOURCES) $(wildcard include/uapi/linux/android/*.h include/uapi/linux/kbinder_profile.h) $(KVER_STAMP)
	@test -f driver/Kbuild || { echo "driver/Kbuild is missing"; exit 1; }
	@mkdir -p $(TEST_MODULE_TREE)/driver
	@find $(TEST_MODULE_TREE)/driver -maxdepth 1 -type l -delete
	@ln -sf $(addprefix $(CURDIR)/,$(DRIVER_SOURCES)) $(TEST_MODULE_TREE)/driver/
	@ln -sfn $(CURDIR)/include $(TEST_MODULE_TREE)/include
	$(MAKE) -C $(KDIR) M=$(CURDIR)/$(TEST_MODULE_TREE)/driver -j$(JOBS) W=1 \
		KBINDER_SELFTEST=1 modules
	cp $(TEST_MODULE_TREE)/driver/kbinder.ko $@

# ---------------------------------------------------------------- libkbinder
# A static archive (what the project's static tools and tests link) and a
# shared library with a SONAME, built with hidden visibility; the version
# script lib/libkbinder.map is exactly what the shared object exports.
LIB_VERSION := 2.0.0
LIB_SOVERSION := 2
LIB := $(BUILD)/lib/libkbinder.a
LIB_SONAME := libkbinder.so.$(LIB_SOVERSION)
LIB_SO := $(BUILD)/lib/libkbinder.so.$(LIB_VERSION)
LIB_MAP := lib/libkbinder.map
LIB_SOURCES := $(wildcard lib/src/*.c)
LIB_OBJECTS := $(patsubst lib/src/%.c,$(BUILD)/lib/%.o,$(LIB_SOURCES))
LIB_PIC_OBJECTS := $(patsubst lib/src/%.c,$(BUILD)/lib/pic/%.o,$(LIB_SOURCES))
LIB_DEPS := $(wildcard lib/include/kbinder/*.h lib/src/*.h include/uapi/linux/android/*.h \
	include/kbinder/*.h)
LIB_CFLAGS := $(USER_CFLAGS) -std=c11 -D_DEFAULT_SOURCE -D_GNU_SOURCE -Ilib/src \
	-fvisibility=hidden
# The public headers that make install copies.
LIB_PUBLIC_HEADERS := $(wildcard lib/include/kbinder/*.h)
# kbinder's own UAPI (what upstream's binder.h and binderfs.h do not have:
# the device profiles), installed under kbinder/uapi/ so that it never
# shadows the system's linux/ headers; kbinder.pc puts it on the path.
UAPI_KBINDER_HEADERS := include/uapi/linux/kbinder_profile.h

.PHONY: lib-shared
lib: $(LIB) lib-shared
lib-shared: $(LIB_SO) $(BUILD)/lib/$(LIB_SONAME) $(BUILD)/lib/libkbinder.so
$(BUILD)/lib/%.o: lib/src/%.c $(LIB_DEPS)
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) -c -o $@ $<
$(BUILD)/lib/pic/%.o: lib/src/%.c $(LIB_DEPS)
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) -fPIC -c -o $@ $<
$(LIB): $(LIB_OBJECTS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^
$(LIB_SO): $(LIB_PIC_OBJECTS) $(LIB_MAP)
	$(CC) -shared -Wl,-soname,$(LIB_SONAME) -Wl,--version-script=$(LIB_MAP) \
		-Wl,-z,defs -Wl,--as-needed -o $@ $(LIB_PIC_OBJECTS) -pthread
$(BUILD)/lib/$(LIB_SONAME) $(BUILD)/lib/libkbinder.so &: $(LIB_SO)
	ln -sf $(notdir $(LIB_SO)) $(BUILD)/lib/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(BUILD)/lib/libkbinder.so
.SECONDARY: $(LIB_OBJECTS) $(LIB_PIC_OBJECTS)

# ---------------------------------------------------------------- tools
TOOLS_BIN := $(BUILD)/tools/bin
TOOL_DIRS := $(patsubst tools/%/,%,$(dir $(wildcard tools/*/*.c)))
TOOLS := $(addprefix $(TOOLS_BIN)/,$(sort $(TOOL_DIRS)))

# examples/: a service and a client, static, beside the tools (so the
# guest has them as greeter-service and greeter-client).
EXAMPLES := $(TOOLS_BIN)/greeter-service $(TOOLS_BIN)/greeter-client

tools: $(TOOLS) $(EXAMPLES)
$(TOOLS_BIN)/%: $$(wildcard tools/$$*/*.c tools/$$*/*.h) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) $(STATIC_LDFLAGS) -Itools/$* -o $@ $(wildcard tools/$*/*.c) $(LIB)

# examples/: built by the rules below.
$(TOOLS_BIN)/greeter-service: examples/service.c $(LIB) $(LIB_DEPS)
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) $(STATIC_LDFLAGS) -o $@ $< $(LIB)
$(TOOLS_BIN)/greeter-client: examples/client.c $(LIB) $(LIB_DEPS)
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) $(STATIC_LDFLAGS) -o $@ $< $(LIB)
$(FLAVOUR_BUILD)/vm/initramfs.cpio.gz: $(EXAMPLES)

# ---------------------------------------------------------------- install
# make install [PREFIX=/usr/local] [DESTDIR=] [LIBDIR= INCLUDEDIR= BINDIR=
# MANDIR= PKGCONFIGDIR=]: the libraries (shared with its links, static),
# the public headers, kbinder.pc, the kbinder tool (static) and the man
# pages. Needs no kernel, no root (with DESTDIR) and no binder device.
PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
INSTALL ?= install
MAN_PAGES := $(wildcard man/*.[1-8])

.PHONY: install uninstall
install: $(LIB) lib-shared $(TOOLS_BIN)/kbinder
	$(INSTALL) -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/kbinder \
		$(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(BINDIR)
	$(INSTALL) -m 0755 $(LIB_SO) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(LIB_SO)) $(DESTDIR)$(LIBDIR)/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(DESTDIR)$(LIBDIR)/libkbinder.so
	$(INSTALL) -m 0644 $(LIB) $(DESTDIR)$(LIBDIR)/
	$(INSTALL) -m 0644 $(LIB_PUBLIC_HEADERS) $(DESTDIR)$(INCLUDEDIR)/kbinder/
	$(INSTALL) -d $(DESTDIR)$(INCLUDEDIR)/kbinder/uapi/linux
	$(INSTALL) -m 0644 $(UAPI_KBINDER_HEADERS) $(DESTDIR)$(INCLUDEDIR)/kbinder/uapi/linux/
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e 's|@VERSION@|$(LIB_VERSION)|' lib/kbinder.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/kbinder.pc
	$(INSTALL) -m 0755 $(TOOLS_BIN)/kbinder $(DESTDIR)$(BINDIR)/
	@set -e; for m in $(MAN_PAGES); do \
		s=$${m##*.}; $(INSTALL) -d $(DESTDIR)$(MANDIR)/man$$s; \
		echo "$(INSTALL) -m 0644 $$m $(DESTDIR)$(MANDIR)/man$$s/"; \
		$(INSTALL) -m 0644 $$m $(DESTDIR)$(MANDIR)/man$$s/; \
	done

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/$(notdir $(LIB_SO)) $(DESTDIR)$(LIBDIR)/$(LIB_SONAME) \
		$(DESTDIR)$(LIBDIR)/libkbinder.so $(DESTDIR)$(LIBDIR)/libkbinder.a \
		$(DESTDIR)$(PKGCONFIGDIR)/kbinder.pc $(DESTDIR)$(BINDIR)/kbinder
	rm -rf $(DESTDIR)$(INCLUDEDIR)/kbinder
	@for m in $(MAN_PAGES); do s=$${m##*.}; rm -f $(DESTDIR)$(MANDIR)/man$$s/$$(basename $$m); done

# ---------------------------------------------------------------- guest tests
GUEST_BIN := $(BUILD)/guest/bin
# Every tests/guest/*.c is one test program. The harness (harness/: it
# provides main()) and the fixtures (fixtures/) are compiled once into
# libkbt.a, which every program links: each takes what it uses.
GUEST_LIB_SRCS := $(wildcard tests/guest/harness/*.c tests/guest/fixtures/*.c)
GUEST_LIB_OBJS := $(patsubst tests/guest/%.c,$(BUILD)/guest/%.o,$(GUEST_LIB_SRCS))
GUEST_LIB := $(BUILD)/guest/libkbt.a
GUEST_SOURCES := $(wildcard tests/guest/*.c)
GUEST_TESTS := $(patsubst tests/guest/%.c,$(GUEST_BIN)/%,$(GUEST_SOURCES))
# What counts as a kernel splat: tests/vm/splats.list, the one list, which
# the host's scan reads and the build turns into a header for the harness
# and kbfuzz.
SPLATS_H := $(BUILD)/gen/kbt_splats.h
$(SPLATS_H): tests/vm/splats.list tests/vm/splats.sh
	@mkdir -p $(@D)
	tests/vm/splats.sh --c-header $< >$@.tmp && mv $@.tmp $@
GUEST_HEADERS := $(wildcard tests/guest/*.h tests/guest/*/*.h lib/include/kbinder/*.h \
	include/uapi/linux/android/*.h include/uapi/linux/kbinder_profile.h include/kbinder/*.h) $(SPLATS_H)
GUEST_CFLAGS := $(USER_CFLAGS) -Itests/guest -I$(BUILD)/gen

guest-tests: $(GUEST_TESTS)
$(GUEST_LIB_OBJS): $(BUILD)/guest/%.o: tests/guest/%.c $(GUEST_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -c -o $@ $<
$(GUEST_LIB): $(GUEST_LIB_OBJS)
	rm -f $@ && ar rcs $@ $^
$(GUEST_BIN)/%: tests/guest/%.c $(GUEST_LIB) $(LIB) $(GUEST_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) $(STATIC_LDFLAGS) -o $@ $< $(GUEST_LIB) $(LIB)

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
# and run in the guest by tests/vm/guest/binderfs_selftest.sh. Every
# initramfs has it (the guest stage expects its results on kbinder): the
# tarball is installed with the lint tools (scripts/deps.sh --lint), up
# front for the check targets, else by the rule below.
LINUX_SOURCE_TAR ?= /usr/src/linux-source-6.1.tar.xz
SELFTEST_SRC := $(BUILD)/selftests/src
SELFTEST_BIN := $(BUILD)/selftests/bin
SELFTEST_DIR := tools/testing/selftests
SELFTEST_FILES := $(SELFTEST_DIR)/filesystems/binderfs/binderfs_test.c \
	$(SELFTEST_DIR)/kselftest_harness.h $(SELFTEST_DIR)/kselftest.h
SELFTESTS := $(SELFTEST_BIN)/binderfs_test

.PHONY: selftests
selftests: $(SELFTESTS)
$(LINUX_SOURCE_TAR):
	scripts/deps.sh --lint
	@test -r $@ || { echo "$@ is still missing"; exit 1; }
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
INITRAMFS := $(FLAVOUR_BUILD)/vm/initramfs.cpio.gz
VM_INPUTS := $(wildcard tests/vm/guest/*) tests/vm/mkinitramfs.sh

initramfs: $(INITRAMFS)
$(INITRAMFS): $(MODULE) $(TEST_MODULE) $(REFERENCE_KO) $(GUEST_TESTS) $(TOOLS) $(BENCH_PROGRAMS) $(SELFTESTS) $(VM_INPUTS)
	tests/vm/mkinitramfs.sh -o $@ -m $(MODULE) -m $(TEST_MODULE) $(addprefix -m ,$(REFERENCE_KO)) \
		-t $(GUEST_BIN) -b $(TOOLS_BIN) -b $(BENCH_BIN) -b $(SELFTEST_BIN)

VM_RUN = tests/vm/run.sh --kernel $(VMLINUZ) --initramfs $(INITRAMFS) \
	--accel-cache $(BUILD)/vm/accel --timeout $(VM_TIMEOUT)

# ---------------------------------------------------------------- run / check
.PHONY: run check check-host check-guest check-runner bench
run: $(INITRAMFS)
	$(VM_RUN) --driver kbinder --logdir $(BUILD)/vm/run demo

# Both drivers in one boot, timing-friendly guest (see shared/VM-NOTES.md).
# (log_buf_len: the guest hands its whole kernel log to the host at the end,
# for the splat scan, since the bench keeps it off the console.)
BENCH_APPEND ?= idle=poll clocksource=tsc tsc=reliable log_buf_len=1M
# The bench's knobs (docs/performance.md) reach the guest when set here.
BENCH_KNOBS := BENCH_SCALE BENCH_BUDGET BENCH_WORKLOADS BENCH_TIMEOUT \
	BENCH_PROFILE BENCH_SELFTEST BENCH_PROFILE_CALLS BENCH_KBINDER_PARAMS \
	BENCH_WAKE_TRACE BENCH_WAKE_CALLS
BENCH_ENV = $(foreach v,$(BENCH_KNOBS),$(if $($(v)),$(v)=$($(v))))
# OLD=REV: also load kbinder built from commit REV (as kbinder_old.ko,
# devices=kbinder_old) and compare the two in the same boot ("vs old").
OLD ?=
OLD_DIR := $(BUILD)/old
OLD_KO := $(OLD_DIR)/kbinder_old.ko
BENCH_INITRAMFS := $(if $(OLD),$(BUILD)/vm/initramfs-old.cpio.gz,$(INITRAMFS))
.PHONY: old-module
old-module:
	@test -n '$(OLD)' || { echo 'old-module: set OLD=REV'; exit 1; }
	scripts/build-old.sh '$(OLD)' '$(KDIR)' '$(OLD_DIR)'

$(BUILD)/vm/initramfs-old.cpio.gz: $(INITRAMFS) old-module
	tests/vm/mkinitramfs.sh -o $@ -m $(MODULE) -m $(REFERENCE_KO) -m $(OLD_KO) \
		-t $(GUEST_BIN) -b $(TOOLS_BIN) -b $(BENCH_BIN)

bench: all $(BENCH_INITRAMFS)
	@tests/vm/run.sh --kernel $(VMLINUZ) --initramfs $(BENCH_INITRAMFS) \
		--accel-cache $(BUILD)/vm/accel --timeout $(VM_TIMEOUT) \
		--driver kbinder --logdir $(BUILD)/vm/bench \
		--append "$(strip $(BENCH_APPEND) $(BENCH_ENV) $(if $(OLD),BENCH_OLD=$(shell git rev-parse --short $(OLD) 2>/dev/null)))" bench; rc=$$?; \
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

# The instruction count (docs/performance.md): the QEMU TCG plugin
# bench/insn/kbinsn.c counts the guest instructions of every workload
# window of kbbench --insn (tests/vm/guest/bench_insn.sh), on one vCPU with
# single-threaded TCG; bench/insn/run.sh boots and reports. CHECK=1 boots
# twice and compares, PROFILE=1 adds the top INSN_TOP kernel functions per
# workload and driver; INSN_ICOUNT is QEMU's -icount (empty: the guest's
# clock is the host's, and the counts move by a few percent from boot to
# boot). Guest knobs: BENCH_INSN_WORKLOADS, BENCH_INSN_OPS.
INSN_PLUGIN := $(BUILD)/bench/insn/kbinsn.so
INSN_TOP ?= 10
INSN_ICOUNT ?= shift=0,sleep=off
INSN_KNOBS := BENCH_INSN_WORKLOADS BENCH_INSN_OPS BENCH_TIMEOUT
INSN_ENV = $(foreach v,$(INSN_KNOBS),$(if $($(v)),$(v)=$($(v))))
.PHONY: bench-insn insn-plugin
insn-plugin: $(INSN_PLUGIN)
$(INSN_PLUGIN): bench/insn/kbinsn.c $(wildcard bench/insn/*.h)
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden \
		-pthread -o $@ $<
bench-insn: all $(INITRAMFS) $(INSN_PLUGIN)
	@bench/insn/run.sh --kernel $(VMLINUZ) --initramfs $(INITRAMFS) --plugin $(INSN_PLUGIN) \
		--out $(FLAVOUR_BUILD)/vm/bench-insn --timeout $(VM_TIMEOUT) --icount '$(INSN_ICOUNT)' \
		$(if $(filter 1,$(CHECK)),--check) $(if $(filter 1,$(PROFILE)),--profile $(INSN_TOP)) \
		--append "$(strip $(INSN_ENV))"

# Knobs of make check's stages (tests/check.sh), passed on when set.
CHECK_KNOBS := DEBUG_CHECK_TESTS DEBUG_CHECK_DRIVERS DEBUG_CHECK_KSERIES DEBUG_CHECK_CANARIES \
	SECCTX_BOOT SECCTX_TESTS KERNELS COVERAGE
CHECK_ENV = PRIMARY_KERNEL='$(KSERIES)/$(FLAVOUR)' \
	$(foreach v,$(CHECK_KNOBS),$(if $($(v)),$(v)='$($(v))'))

check: all $(INITRAMFS)
	@DRIVERS='$(CHECK_DRIVERS)' TESTS='$(TESTS)' VM_RUN='$(VM_RUN)' BUILD='$(BUILD)' \
		$(CHECK_ENV) tests/check.sh all

check-host: all
	@BUILD='$(BUILD)' tests/check.sh host

check-runner: $(INITRAMFS)
	@VM_RUN='$(VM_RUN)' BUILD='$(BUILD)' tests/check.sh runner

check-guest: $(INITRAMFS)
	@DRIVERS='$(or $(DRIVER),kbinder)' TESTS='$(TESTS)' VM_RUN='$(VM_RUN)' BUILD='$(BUILD)' \
		$(CHECK_ENV) tests/check.sh guest

# Only the debug-kernel stage of make check (the CVE, fault and sec_* tests
# on kbinder under KASAN/lockdep/kmemleak; make check-debug runs them all).
.PHONY: check-debug-stage
check-debug-stage: guest-tests tools
	@DRIVERS='$(CHECK_DRIVERS)' BUILD='$(BUILD)' $(CHECK_ENV) tests/check.sh debug

# The guest suite on every supported Debian kernel: both series, each in
# the generic, cloud (no binder of its own: kbinder alone) and PREEMPT_RT
# flavours (KERNELS= chooses, as SERIES/FLAVOUR words). make check runs
# 6.1/amd64, 6.12/amd64 and 6.12/cloud-amd64 (a smoke set there,
# tests/check.sh CLOUD_SMOKE).
ALL_KERNELS := $(foreach s,6.1 6.12,$(foreach f,amd64 cloud-amd64 rt-amd64,$(s)/$(f)))
check-flavours: all
	@DRIVERS='$(CHECK_DRIVERS)' TESTS='$(TESTS)' BUILD='$(BUILD)' \
		KERNELS='$(or $(KERNELS),$(ALL_KERNELS))' tests/check.sh kernels

# One guest run on the kernel KSERIES and FLAVOUR name, logs in LOGDIR
# (tests/check.sh's kernels stage calls this once per kernel and driver).
.PHONY: check-flavours flavour-run
flavour-run: $(INITRAMFS)
	@test -n '$(LOGDIR)' || { echo 'flavour-run: LOGDIR= is required'; exit 2; }
	@mkdir -p $(BUILD)/vm
	@$(VM_RUN) --driver '$(or $(DRIVER),kbinder)' --tests '$(TESTS)' --logdir '$(LOGDIR)' check

# ---------------------------------------------------------------- Debian packages
# make deb: the source package and kbinder-dkms, kbinder, libkbinder1,
# libkbinder-dev into build/deb/, built by dpkg-buildpackage from a copy of
# the tree, lintian clean. make check-deb: install, upgrade (to the same
# code built as the next version) and purge them in a throwaway Debian 12
# root; the module is built there by DKMS, never loaded. docs/packaging.md.
DEB_DIR := $(BUILD)/deb
.PHONY: deb check-deb
deb:
	@scripts/deb-build.sh $(DEB_DIR)

check-deb: deb
	@v=$$(dpkg-parsechangelog -S Version) && \
		scripts/deb-build.sh --no-lintian --version "$$v.1" $(DEB_DIR)/next
	@tests/deb/check.sh $(DEB_DIR) $(DEB_DIR)/next

# Host test fragments (each defines a host-*-check target).
-include $(wildcard tests/host/*.mk)
# The debug kernel (KASAN, lockdep, kmemleak): make check-debug.
-include $(wildcard debug/*.mk)
# The fuzzer: make fuzz DURATION=...
-include $(wildcard fuzz/*.mk)
# AOSP's own binder programs on both drivers: make check-aosp AOSP_OUT=DIR.
-include $(wildcard interop/*/*.mk)

# ---------------------------------------------------------------- misc
.PHONY: deps lint clean help kernel-info
# What KSERIES= and FLAVOUR= resolve to (tests/check.sh reads it).
kernel-info:
	@echo 'KSERIES=$(KSERIES) FLAVOUR=$(FLAVOUR) KVER=$(KVER) REFERENCE_KO=$(REFERENCE_KO)'

deps:
	scripts/deps.sh

lint:
	scripts/lint.sh

clean:
	-test -f driver/Kbuild && $(MAKE) -C $(KDIR) M=$(CURDIR)/driver clean
	rm -rf $(BUILD)

help:
	@sed -n '3,/^$$/p' Makefile | sed 's/^# \{0,1\}//'
	@echo "Other targets: module test-module (the self-test build) lib tools"
	@echo "  guest-tests initramfs check-host"
	@echo "  check-runner (the VM runner's own tests) lint deps clean"
	@echo "  check-debug-stage (make check's debug-kernel stage alone)"
	@echo "  fuzz check-fuzz (DURATION= SEED=)  check-debug check-debug-canary"
	@echo "  bench-profile (perf record of a small round trip, both drivers)"
	@echo "  insn-plugin (the instruction-count plugin of make bench-insn)"
	@echo "  check-flavours (the guest suite on every series and flavour: KERNELS=)"
	@echo "  kernel-info (what KSERIES= and FLAVOUR= resolve to)"
	@echo "  deb (Debian packages in build/deb) check-deb (them in a throwaway root)"
	@echo "  host-dkms-check (DKMS add/build/install/remove, throwaway trees)"
	@echo "  check-aosp AOSP_OUT=DIR (AOSP's Android 14 binder tests, both drivers)"
