// SPDX-License-Identifier: Apache-2.0
/*
 * Unit tests for libkbinder's BC_ stream writer.
 */
#include <errno.h>
#include <string.h>

#include <kbinder/kbinder.h>
#include "lib_check.h"

static void writer_packs_commands_without_padding(void)
{
	uint8_t buf[128];
	struct kbinder_writer w;
	uint32_t cmd, handle;
	binder_uintptr_t cookie;
	struct binder_handle_cookie hc;

	kbinder_writer_init(&w, buf, sizeof(buf));
	LIB_CHECK_EQ(kbinder_writer_put_looper(&w, BC_ENTER_LOOPER), 0);
	LIB_CHECK_EQ(kbinder_writer_put_handle(&w, BC_ACQUIRE, 7), 0);
	LIB_CHECK_EQ(kbinder_writer_put_death(&w, BC_REQUEST_DEATH_NOTIFICATION, 3, 0x1122), 0);
	LIB_CHECK_EQ(kbinder_writer_put_free_buffer(&w, 0xabcdef), 0);
	LIB_CHECK_EQ(w.len, 4 + 8 + 4 + sizeof(hc) + 4 + 8);
	memcpy(&cmd, buf, 4);
	LIB_CHECK_EQ(cmd, BC_ENTER_LOOPER);
	memcpy(&cmd, buf + 4, 4);
	memcpy(&handle, buf + 8, 4);
	LIB_CHECK_EQ(cmd, BC_ACQUIRE);
	LIB_CHECK_EQ(handle, 7);
	memcpy(&cmd, buf + 12, 4);
	memcpy(&hc, buf + 16, sizeof(hc));
	LIB_CHECK_EQ(cmd, BC_REQUEST_DEATH_NOTIFICATION);
	LIB_CHECK_EQ(hc.handle, 3);
	LIB_CHECK_EQ(hc.cookie, 0x1122);
	memcpy(&cmd, buf + 16 + sizeof(hc), 4);
	memcpy(&cookie, buf + 20 + sizeof(hc), 8);
	LIB_CHECK_EQ(cmd, BC_FREE_BUFFER);
	LIB_CHECK_EQ(cookie, 0xabcdef);
}

static void writer_refuses_overflow_whole(void)
{
	uint8_t buf[4 + sizeof(struct binder_transaction_data) - 1];
	struct binder_transaction_data tr;
	struct kbinder_writer w;

	memset(&tr, 0, sizeof(tr));
	kbinder_writer_init(&w, buf, sizeof(buf));
	LIB_CHECK_EQ(kbinder_writer_put_txn(&w, BC_TRANSACTION, &tr), -ENOSPC);
	LIB_CHECK_EQ(w.len, 0);
	/* sticky: later small commands are refused too */
	LIB_CHECK_EQ(kbinder_writer_put_looper(&w, BC_ENTER_LOOPER), -ENOSPC);
	LIB_CHECK_EQ(w.len, 0);
}

static void writer_rejects_wrong_command_or_size(void)
{
	uint8_t buf[64];
	struct kbinder_writer w;
	uint32_t v = 0;

	kbinder_writer_init(&w, buf, sizeof(buf));
	LIB_CHECK_EQ(kbinder_writer_put(&w, BC_ACQUIRE, &v, 2), -EINVAL);
	kbinder_writer_init(&w, buf, sizeof(buf));
	LIB_CHECK_EQ(kbinder_writer_put(&w, 0x12345678, NULL, 0), -EINVAL);
	kbinder_writer_init(&w, buf, sizeof(buf));
	LIB_CHECK_EQ(kbinder_writer_put_handle(&w, BC_FREE_BUFFER, 1), -EINVAL);
	kbinder_writer_init(&w, buf, sizeof(buf));
	LIB_CHECK_EQ(kbinder_writer_put_looper(&w, BC_TRANSACTION), -EINVAL);
	LIB_CHECK_EQ(w.len, 0);
}

static void command_sizes_match_the_abi(void)
{
	/* the x86-64 sizes of mainline's header */
	static const uint32_t sizes[][2] = {
		{ BC_TRANSACTION, 64 }, { BC_TRANSACTION_SG, 72 }, { BC_FREE_BUFFER, 8 },
		{ BC_REQUEST_DEATH_NOTIFICATION, 12 }, { BC_INCREFS_DONE, 16 },
		{ BC_ENTER_LOOPER, 0 },
	};

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		LIB_CHECK_EQ(kbinder_command_size(sizes[i][0]), (int)sizes[i][1]);
	LIB_CHECK_EQ(kbinder_command_size(0xdeadbeef), -EINVAL);
	LIB_CHECK(!strcmp(kbinder_command_name(BC_REPLY), "BC_REPLY"));
	LIB_CHECK(!strcmp(kbinder_command_name(1), "BC_?"));
}

int main(void)
{
	LIB_RUN(writer_packs_commands_without_padding);
	LIB_RUN(writer_refuses_overflow_whole);
	LIB_RUN(writer_rejects_wrong_command_or_size);
	LIB_RUN(command_sizes_match_the_abi);
	return lib_failures ? 1 : 0;
}
