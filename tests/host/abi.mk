# SPDX-License-Identifier: Apache-2.0
#
# The binder ABI check, included by the top Makefile.
#
#   make host-abi-check
#
# Builds tests/host/abi_check once per ABI variant into build/host/abi/
# and runs it: x86-64 (m64), i386 userspace with 64-bit binder types as on
# a 64-bit kernel (m32), and i386 with BINDER_IPC_32BIT (m32-ipc32).  The
# i386 variants need gcc -m32 (Debian: gcc-multilib); without it they are
# reported as SKIP.  Each variant compiles the system headers and ours in
# separate objects (they share include guards), see abi_table.h.
#
# Output: PASS/FAIL lines, one per check group; non-zero exit on failure.

ABI_DIR := tests/host
ABI_OUT := build/host/abi
# (-Iinclude: the protocol codes, include/kbinder/binder_cmds.h; the
# system headers and ours are chosen by -Iinclude/uapi alone)
ABI_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -Iinclude
ABI_M32_OK := $(shell echo 'int main(void) { return 0; }' | \
	$(CC) -m32 -x c -o /dev/null - >/dev/null 2>&1 && echo yes)

# variant:flags, flags joined with commas
ABI_VARIANTS := m64:-m64
ifeq ($(ABI_M32_OK),yes)
ABI_VARIANTS += m32:-m32 m32-ipc32:-m32,-DBINDER_IPC_32BIT
endif

.PHONY: host-abi-check
host-abi-check:
	@rc=0; \
	$(ABI_DIR)/abi_coverage.sh || rc=1; \
	for spec in $(ABI_VARIANTS); do \
		v=$${spec%%:*}; flags=$$(echo "$${spec#*:}" | tr , ' '); \
		out=$(ABI_OUT)/$$v; mkdir -p $$out; \
		if $(CC) $(ABI_CFLAGS) $$flags -c -o $$out/sys.o $(ABI_DIR)/abi_table_sys.c && \
		   $(CC) $(ABI_CFLAGS) $$flags -Iinclude/uapi -c -o $$out/ours.o $(ABI_DIR)/abi_table_ours.c && \
		   $(CC) $(ABI_CFLAGS) $$flags -c -o $$out/check.o $(ABI_DIR)/abi_check.c && \
		   $(CC) $$flags -o $$out/abi_check $$out/sys.o $$out/ours.o $$out/check.o; then \
			$$out/abi_check; r=$$?; \
			if [ $$r -eq 126 ]; then \
				echo "SKIP abi/$$v/all: this host cannot run $$v programs (no IA32 emulation in its kernel)"; \
			elif [ $$r -ne 0 ]; then rc=1; fi; \
		else \
			echo "FAIL abi/$$v/build: does not compile (see the errors above)"; rc=1; \
		fi; \
	done; \
	if [ "$(ABI_M32_OK)" != yes ]; then \
		echo "SKIP abi/m32/all: $(CC) -m32 cannot build (install gcc-multilib)"; \
		echo "SKIP abi/m32-ipc32/all: $(CC) -m32 cannot build (install gcc-multilib)"; \
	fi; \
	exit $$rc
