# SPDX-License-Identifier: Apache-2.0
#
# libkbinder's service manager tables against AOSP's own, release by
# release (the facts: tests/host/data/aosp/servicemanager.tab):
#   make host-sm-tables-check
# The test links the whole library (pure code; no device is opened), under
# ASan and UBSan.

SM_HOST_BIN := build/host
SM_HOST_DATA := tests/host/data/aosp/servicemanager.tab
SM_HOST_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE \
	-fsanitize=address,undefined -fno-sanitize-recover=all \
	-Iinclude/uapi -Iinclude -Ilib/include -Ilib/src -Itests/host
SM_HOST_DEPS := $(wildcard lib/include/kbinder/*.h lib/src/*.h lib/src/*.c include/kbinder/*.h \
	include/uapi/linux/android/*.h)

$(SM_HOST_BIN)/sm_tables: tests/host/sm_tables.c tests/host/aosp_data.c tests/host/aosp_data.h $(SM_HOST_DEPS)
	@mkdir -p $(@D)
	$(CC) $(SM_HOST_CFLAGS) -o $@ tests/host/sm_tables.c tests/host/aosp_data.c \
		$(wildcard lib/src/*.c)

.PHONY: host-sm-tables-check
host-sm-tables-check: $(SM_HOST_BIN)/sm_tables
	@$(SM_HOST_BIN)/sm_tables $(SM_HOST_DATA)

# kbinder's service manager (libkbinder's lib/src/sm_*.c) answering each
# release's calls at the wire, with fakes for the driver calls:
#   make host-sm-dispatch-check
SM_DISPATCH_UNITS := lib/src/android.c lib/src/parcel.c lib/src/servicemanager.c \
	lib/src/object.c lib/src/outcome.c lib/src/sm_server.c lib/src/sm_registry.c \
	lib/src/sm_aidl.c lib/src/sm_pre11.c

$(SM_HOST_BIN)/sm_dispatch: tests/host/sm_dispatch.c tests/host/aosp_data.c \
		tests/host/aosp_data.h $(SM_HOST_DEPS)
	@mkdir -p $(@D)
	$(CC) $(SM_HOST_CFLAGS) -o $@ tests/host/sm_dispatch.c \
		tests/host/aosp_data.c $(SM_DISPATCH_UNITS)

.PHONY: host-sm-dispatch-check
host-sm-dispatch-check: $(SM_HOST_BIN)/sm_dispatch
	@$(SM_HOST_BIN)/sm_dispatch $(SM_HOST_DATA)
