// SPDX-License-Identifier: Apache-2.0
/*
 * kbinder driver checks: BINDER_FREEZE and BINDER_GET_FROZEN_INFO.
 */
#include <sys/ioctl.h>

#include "harness.h"
#include "binder_util.h"

static int freeze(int fd, pid_t pid, bool enable, uint32_t timeout_ms)
{
	struct binder_freeze_info info = {
		.pid = (uint32_t)pid, .enable = enable, .timeout_ms = timeout_ms,
	};

	return ioctl(fd, BINDER_FREEZE, &info) ? -errno : 0;
}

static struct binder_frozen_status_info frozen_info(int fd, pid_t pid)
{
	struct binder_frozen_status_info info = { .pid = (uint32_t)pid };

	ASSERT_EQ(ioctl(fd, BINDER_GET_FROZEN_INFO, &info), 0);
	return info;
}

/*
 * libkbinder's reader does not know BR_TRANSACTION_PENDING_FROZEN (-EPROTO),
 * so one-way calls here go through a raw BINDER_WRITE_READ: write the
 * call and read until the driver says how it took it.
 */
static uint32_t raw_oneway(int fd, uint32_t code, const void *data,
			   size_t size, uint32_t flags)
{
	struct {
		uint32_t cmd;
		struct binder_transaction_data tr;
	} __attribute__((packed)) wr;
	struct binder_write_read bwr;
	uint32_t rd[32], cmd;
	size_t i;
	int tries;

	memset(&wr, 0, sizeof(wr));
	wr.cmd = BC_TRANSACTION;
	wr.tr.code = code;
	wr.tr.flags = TF_ONE_WAY | flags;
	wr.tr.data_size = size;
	wr.tr.data.ptr.buffer = (binder_uintptr_t)(uintptr_t)data;
	memset(&bwr, 0, sizeof(bwr));
	bwr.write_buffer = (binder_uintptr_t)(uintptr_t)&wr;
	bwr.write_size = sizeof(wr);
	for (tries = 0; tries < 4; tries++) {
		bwr.read_buffer = (binder_uintptr_t)(uintptr_t)rd;
		bwr.read_size = sizeof(rd);
		bwr.read_consumed = 0;
		ASSERT_EQ(ioctl(fd, BINDER_WRITE_READ, &bwr), 0);
		ASSERT_EQ(bwr.write_consumed, sizeof(wr));
		for (i = 0; i + 4 <= bwr.read_consumed; i += 4) {
			cmd = rd[i / 4];
			if (cmd == BR_NOOP)
				continue;
			ASSERT_EQ(i + 4, bwr.read_consumed);
			return cmd;
		}
	}
	kbt_fail(__FILE__, __LINE__, true, "no answer to a one-way call");
	return 0;
}

TEST(frozen_target_refuses_sync_and_queues_oneway)
{
	struct binder_frozen_status_info info;
	struct kbt_server s;
	struct kb_thread t;
	struct kb_proc p;

	kbt_start_ctxmgr(&s, NULL, NULL);
	kbt_open(&p);
	kb_thread_init(&t, p.fd);
	ASSERT_EQ(kbt_call_status(&t, 0, 1, NULL, 0), BR_REPLY);
	ASSERT_OK(freeze(p.fd, s.pid, true, 1000));
	info = frozen_info(p.fd, s.pid);
	ASSERT_EQ(info.sync_recv, 0);
	ASSERT_EQ(info.async_recv, 0);
	ASSERT_EQ(kbt_call_status(&t, 0, 1, NULL, 0), BR_FROZEN_REPLY);
	/* kbinder follows mainline 6.7, the 6.1 reference does not */
	ASSERT_EQ(raw_oneway(t.fd, 1, NULL, 0, 0),
		  kbt_is_reference() ? BR_TRANSACTION_COMPLETE :
				       BR_TRANSACTION_PENDING_FROZEN);
	info = frozen_info(p.fd, s.pid);
	ASSERT_EQ(info.sync_recv & 1, 1);
	ASSERT_EQ(info.async_recv, 1);
	ASSERT_OK(freeze(p.fd, s.pid, false, 0));
	ASSERT_EQ(kbt_call_status(&t, 0, 1, NULL, 0), BR_REPLY);
	ASSERT_EQ(freeze(p.fd, 0x7ffffff0, true, 0), -EINVAL);
	kbt_stop_ctxmgr(&t, &s);
}
