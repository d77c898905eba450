# SPDX-License-Identifier: Apache-2.0
#
# Host unit tests of libkbinder's pure parts (writer, reader, parcel).
# Included by the top Makefile; `make host-lib-check` builds and runs them.
# Each test links only the library unit it tests, so no driver is needed.

LIB_HOST_BIN := build/host
LIB_HOST_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE \
	-Iinclude/uapi -Ilib/include -Ilib/src -Itests/host
LIB_HOST_DEPS := $(wildcard lib/include/kbinder/*.h lib/src/*.h \
	tests/host/lib_check.h include/uapi/linux/android/*.h)
LIB_HOST_TESTS := $(LIB_HOST_BIN)/lib_writer $(LIB_HOST_BIN)/lib_reader \
	$(LIB_HOST_BIN)/lib_parcel

$(LIB_HOST_BIN)/lib_writer: tests/host/lib_writer.c lib/src/writer.c $(LIB_HOST_DEPS)
	@mkdir -p $(@D)
	$(CC) $(LIB_HOST_CFLAGS) -o $@ tests/host/lib_writer.c lib/src/writer.c
$(LIB_HOST_BIN)/lib_reader: tests/host/lib_reader.c lib/src/reader.c $(LIB_HOST_DEPS)
	@mkdir -p $(@D)
	$(CC) $(LIB_HOST_CFLAGS) -o $@ tests/host/lib_reader.c lib/src/reader.c
$(LIB_HOST_BIN)/lib_parcel: tests/host/lib_parcel.c lib/src/parcel.c $(LIB_HOST_DEPS)
	@mkdir -p $(@D)
	$(CC) $(LIB_HOST_CFLAGS) -o $@ tests/host/lib_parcel.c lib/src/parcel.c

.PHONY: host-lib-check
host-lib-check: $(LIB_HOST_TESTS)
	@rc=0; for t in $(LIB_HOST_TESTS); do $$t || rc=1; done; exit $$rc
