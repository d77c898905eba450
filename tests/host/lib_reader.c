// SPDX-License-Identifier: Apache-2.0
/*
 * Unit tests for libkbinder's BR_ stream reader: well-formed streams parse,
 * truncated or unknown commands are reported, nothing past the end is read.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <kbinder/kbinder.h>
#include "lib_check.h"

static size_t put(uint8_t *buf, size_t at, uint32_t cmd, const void *arg,
		  size_t size)
{
	memcpy(buf + at, &cmd, 4);
	if (size)
		memcpy(buf + at + 4, arg, size);
	return at + 4 + size;
}

static void reader_parses_mixed_stream(void)
{
	uint8_t buf[256];
	struct binder_transaction_data tr;
	struct binder_ptr_cookie pc = { .ptr = 0x10, .cookie = 0x20 };
	binder_uintptr_t cookie = 0x99;
	struct kbinder_reader r;
	struct kbinder_return ret;
	size_t n = 0;

	memset(&tr, 0, sizeof(tr));
	tr.code = 42;
	tr.data_size = 8;
	n = put(buf, n, BR_NOOP, NULL, 0);
	n = put(buf, n, BR_INCREFS, &pc, sizeof(pc));
	n = put(buf, n, BR_TRANSACTION, &tr, sizeof(tr));
	n = put(buf, n, BR_DEAD_BINDER, &cookie, sizeof(cookie));
	kbinder_reader_init(&r, buf, n);
	LIB_CHECK_EQ(kbinder_reader_next(&r, &ret), 1);
	LIB_CHECK_EQ(ret.cmd, BR_NOOP);
	LIB_CHECK_EQ(kbinder_reader_next(&r, &ret), 1);
	LIB_CHECK_EQ(ret.cmd, BR_INCREFS);
	LIB_CHECK_EQ(ret.u.ptr_cookie.ptr, 0x10);
	LIB_CHECK_EQ(ret.u.ptr_cookie.cookie, 0x20);
	LIB_CHECK_EQ(kbinder_reader_next(&r, &ret), 1);
	LIB_CHECK_EQ(ret.cmd, BR_TRANSACTION);
	LIB_CHECK_EQ(ret.u.txn.code, 42);
	LIB_CHECK_EQ(ret.u.txn.data_size, 8);
	LIB_CHECK_EQ(kbinder_reader_next(&r, &ret), 1);
	LIB_CHECK_EQ(ret.cmd, BR_DEAD_BINDER);
	LIB_CHECK_EQ(ret.u.cookie, 0x99);
	LIB_CHECK_EQ(kbinder_reader_next(&r, &ret), 0);
	LIB_CHECK_EQ(r.pos, n);
}

static void reader_reports_truncation(void)
{
	uint8_t buf[64];
	struct binder_ptr_cookie pc = { 0 };
	struct kbinder_reader r;
	struct kbinder_return ret;
	size_t n = put(buf, 0, BR_ACQUIRE, &pc, sizeof(pc));

	kbinder_reader_init(&r, buf, n - 1);
	LIB_CHECK_EQ(kbinder_reader_next(&r, &ret), -EBADMSG);
	LIB_CHECK_EQ(r.pos, 0);
	kbinder_reader_init(&r, buf, 3);
	LIB_CHECK_EQ(kbinder_reader_next(&r, &ret), -EBADMSG);
}

static void reader_rejects_unknown_command(void)
{
	uint8_t buf[8];
	struct kbinder_reader r;
	struct kbinder_return ret;
	size_t n = put(buf, 0, 0x7fff7201, NULL, 0);

	kbinder_reader_init(&r, buf, n);
	LIB_CHECK_EQ(kbinder_reader_next(&r, &ret), -EPROTO);
	/* a BC_ code is not a BR_ code */
	put(buf, 0, BC_ENTER_LOOPER, NULL, 0);
	kbinder_reader_init(&r, buf, 4);
	LIB_CHECK_EQ(kbinder_reader_next(&r, &ret), -EPROTO);
}

/* The stream ends exactly at a page boundary followed by an unmapped page. */
static void reader_never_reads_past_the_end(void)
{
	long page = sysconf(_SC_PAGESIZE);
	uint8_t *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct kbinder_reader r;
	struct kbinder_return ret;
	uint8_t *end;
	uint32_t cmd = BR_TRANSACTION;

	LIB_CHECK(map != MAP_FAILED);
	LIB_CHECK_EQ(munmap(map + page, page), 0);
	end = map + page;
	/* a BR_TRANSACTION header with only 8 of its 64 argument bytes */
	memcpy(end - 12, &cmd, 4);
	memset(end - 8, 0, 8);
	kbinder_reader_init(&r, end - 12, 12);
	LIB_CHECK_EQ(kbinder_reader_next(&r, &ret), -EBADMSG);
	cmd = BR_NOOP;
	memcpy(end - 4, &cmd, 4);
	kbinder_reader_init(&r, end - 4, 4);
	LIB_CHECK_EQ(kbinder_reader_next(&r, &ret), 1);
	LIB_CHECK_EQ(kbinder_reader_next(&r, &ret), 0);
	munmap(map, page);
}

static void return_sizes_match_the_abi(void)
{
	/* the x86-64 sizes of mainline's header */
	static const uint32_t sizes[][2] = {
		{ BR_TRANSACTION, 64 }, { BR_TRANSACTION_SEC_CTX, 72 }, { BR_ERROR, 4 },
		{ BR_DEAD_BINDER, 8 }, { BR_INCREFS, 16 }, { BR_ATTEMPT_ACQUIRE, 24 },
		{ BR_SPAWN_LOOPER, 0 },
	};

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		LIB_CHECK_EQ(kbinder_return_size(sizes[i][0]), (int)sizes[i][1]);
	LIB_CHECK(!strcmp(kbinder_return_name(BR_DEAD_REPLY), "BR_DEAD_REPLY"));
}

int main(void)
{
	LIB_RUN(reader_parses_mixed_stream);
	LIB_RUN(reader_reports_truncation);
	LIB_RUN(reader_rejects_unknown_command);
	LIB_RUN(reader_never_reads_past_the_end);
	LIB_RUN(return_sizes_match_the_abi);
	return lib_failures ? 1 : 0;
}
