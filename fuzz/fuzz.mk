# SPDX-License-Identifier: Apache-2.0
#
# The fuzzer (included by the top Makefile).
#
#   make fuzz [DRIVER=kbinder|reference] [DURATION=S] [SEED=N] [FUZZ_PROCS=N]
#             [FUZZ_THREADS=N] [FUZZ_KILL_MS=MS] [FUZZ_ARGS=--opt,value,...]
#             [FUZZ_MIN_CALLS=N] [FUZZ_MIN_DEATHS=N] [FUZZ_PROFILE=full|aidl]
#             [KERNEL=stock|debug]
#        boot one VM with its own initramfs, run kbfuzz for DURATION seconds
#        (default 300) on the driver, tally the result lines; KERNEL=debug
#        boots the KASAN/lockdep/kmemleak kernel (debug/check-debug.sh fuzz,
#        which builds it first if it is not cached) and ends with its checks
#   make check-fuzz   the same, short (FUZZ_CHECK_DURATION, default 60 s)
#
# kbfuzz is not a test program under tests/guest: those run in every
# `make check`. It lives in build/fuzz/bin and its own initramfs.

FUZZ_BIN := $(BUILD)/fuzz/bin
FUZZ_PROGRAM := $(FUZZ_BIN)/kbfuzz
FUZZ_SOURCES := $(wildcard fuzz/*.c)
DURATION ?= 300
SEED ?=
FUZZ_PROCS ?= 4
FUZZ_THREADS ?= 2
FUZZ_KILL_MS ?= 1500
# More kbfuzz options, commas for spaces (the kernel command line carries them).
FUZZ_ARGS ?=
# The least work a passing run does (fuzz.sh's defaults when empty).
FUZZ_MIN_CALLS ?=
FUZZ_MIN_DEATHS ?=
# full or aidl: fuzz a binderfs device of that profile (kbinder only;
# empty: the misc device $BINDER_DEVICE, full).
FUZZ_PROFILE ?=
FUZZ_CHECK_DURATION ?= 60
FUZZ_DRIVER = $(or $(DRIVER),kbinder)
# Boot, wind-down and teardown on top of the fuzzing time.
FUZZ_MARGIN ?= 180
# Where the run's logs go (two runs at once need two directories).
FUZZ_LOGDIR ?= $(BUILD)/fuzz/run-$(FUZZ_DRIVER)$(if $(filter debug,$(KERNEL)),-debug)
# stock: Debian's kernel; debug: the KASAN/lockdep/kmemleak one (debug/).
KERNEL ?= stock
# The debug kernel boots, fuzzes and tears down slower, and its checks
# (a kmemleak scan of all memory) take minutes under TCG.
FUZZ_DEBUG_MARGIN ?= 600

.PHONY: fuzz-program fuzz check-fuzz
fuzz-program: $(FUZZ_PROGRAM)
# (the splat list is tests/vm/splats.list's, as the harness's: SPLATS_H)
$(FUZZ_PROGRAM): $(FUZZ_SOURCES) $(wildcard fuzz/*.h include/uapi/linux/android/*.h include/kbinder/*.h) $(SPLATS_H)
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) -I$(dir $(SPLATS_H)) $(STATIC_LDFLAGS) -o $@ $(FUZZ_SOURCES)

# One initramfs per driver: the reference one does not need kbinder.ko to build.
$(BUILD)/fuzz/initramfs-reference.cpio.gz: $(FUZZ_PROGRAM) $(TOOLS) $(VM_INPUTS)
	tests/vm/mkinitramfs.sh -o $@ -m $(REFERENCE_KO) -b $(FUZZ_BIN) -b $(TOOLS_BIN)
$(BUILD)/fuzz/initramfs-kbinder.cpio.gz: $(FUZZ_PROGRAM) $(MODULE) $(TOOLS) $(VM_INPUTS)
	tests/vm/mkinitramfs.sh -o $@ -m $(MODULE) -m $(REFERENCE_KO) -b $(FUZZ_BIN) -b $(TOOLS_BIN)

# The guest's knobs for a run of $(1) seconds (fuzz.sh reads them).
fuzz_append = KBT_FUZZ_DURATION=$(1) KBT_FUZZ_SEED=$(SEED) KBT_FUZZ_PROCS=$(FUZZ_PROCS) KBT_FUZZ_THREADS=$(FUZZ_THREADS) KBT_FUZZ_KILL_MS=$(FUZZ_KILL_MS) KBT_FUZZ_ARGS=$(FUZZ_ARGS) \
	$(if $(FUZZ_MIN_CALLS),KBT_FUZZ_MIN_CALLS=$(FUZZ_MIN_CALLS)) $(if $(FUZZ_MIN_DEATHS),KBT_FUZZ_MIN_DEATHS=$(FUZZ_MIN_DEATHS)) \
	$(if $(FUZZ_PROFILE),KBT_FUZZ_PROFILE=$(FUZZ_PROFILE))

# fuzz_run SECONDS: boot, fuzz, judge (against what fuzz.sh declares in
# tests/vm/guest/results.list: a vanished fuzz/run fails), tally (exit
# status 1 on any FAIL). The judged lines: $(FUZZ_LOGDIR)/judged.stage.
define fuzz_run_stock
	@dir=$(FUZZ_LOGDIR); mkdir -p $$dir; \
	tests/vm/judge.sh --list - '*' fuzz $(FUZZ_DRIVER) >$$dir/expected; \
	tests/vm/run.sh --kernel $(VMLINUZ) \
		--initramfs $(BUILD)/fuzz/initramfs-$(FUZZ_DRIVER).cpio.gz \
		--accel-cache $(BUILD)/vm/accel --timeout $$(($(1) + $(FUZZ_MARGIN))) \
		--driver $(FUZZ_DRIVER) --logdir $$dir \
		--append "$(call fuzz_append,$(1))" \
		fuzz; \
	rc=$$?; \
	tests/vm/judge.sh $$rc $$dir $$dir/judged.stage $$dir/expected >/dev/null; \
	echo "--- fuzz summary ($(FUZZ_DRIVER), logs in $$dir)"; \
	tr -d '\r' <$$dir/results.log | sed -n 's/^FUZZ /kbfuzz: /p'; \
	tests/vm/tally.sh tests/guest/known-failures.txt $(FUZZ_DRIVER):$$dir/judged.stage
endef

define fuzz_run_debug
	@BUILD='$(BUILD)' DRIVER='$(FUZZ_DRIVER)' JOBS='$(JOBS)' FUZZ_LOGDIR='$(FUZZ_LOGDIR)' \
		FUZZ_TIMEOUT=$$(($(1) + $(FUZZ_DEBUG_MARGIN))) \
		FUZZ_APPEND='$(call fuzz_append,$(1))' \
		$(if $(DEBUG_MEMORY),DEBUG_MEMORY='$(DEBUG_MEMORY)') \
		$(if $(DEBUG_APPEND),DEBUG_APPEND='$(DEBUG_APPEND)') \
		debug/check-debug.sh fuzz
endef

fuzz_run = $(if $(filter debug,$(KERNEL)),$(call fuzz_run_debug,$(1)),$(call fuzz_run_stock,$(1)))
# The debug run builds its own initramfs (modules built for that kernel).
fuzz_inputs = $(if $(filter debug,$(KERNEL)),$(FUZZ_PROGRAM) $(TOOLS) $(VM_INPUTS) debug/check-debug.sh,$(BUILD)/fuzz/initramfs-$(FUZZ_DRIVER).cpio.gz)

fuzz: $$(fuzz_inputs)
	$(call fuzz_run,$(DURATION))

check-fuzz: $$(fuzz_inputs)
	$(call fuzz_run,$(FUZZ_CHECK_DURATION))
