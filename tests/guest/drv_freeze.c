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

TEST(frozen_target_refuses_sync_and_queues_oneway)
{
	struct binder_frozen_status_info info;
	struct kbt_server s;
	struct kb_thread t;
	struct kb_proc p;

	kbt_start_with_client(&s, NULL, NULL, &p, &t);
	ASSERT_EQ(kbt_call_status(&t, 0, 1, NULL, 0), BR_REPLY);
	ASSERT_OK(freeze(p.fd, s.pid, true, 1000));
	info = frozen_info(p.fd, s.pid);
	ASSERT_EQ(info.sync_recv, 0);
	ASSERT_EQ(info.async_recv, 0);
	ASSERT_EQ(kbt_call_status(&t, 0, 1, NULL, 0), BR_FROZEN_REPLY);
	/* kbinder follows mainline 6.7, the 6.1 reference does not */
	ASSERT_EQ(kbt_call_status(&t, 0, 1, NULL, TF_ONE_WAY),
		  kbt_is_reference() ? BR_TRANSACTION_COMPLETE :
				       BR_TRANSACTION_PENDING_FROZEN);
	info = frozen_info(p.fd, s.pid);
	ASSERT_EQ(info.sync_recv & 1, 1);
	ASSERT_EQ(info.async_recv, 1);
	ASSERT_OK(freeze(p.fd, s.pid, false, 0));
	ASSERT_EQ(kbt_call_status(&t, 0, 1, NULL, 0), BR_REPLY);
	ASSERT_EQ(freeze(p.fd, 0x7ffffff0, true, 0), -EINVAL);
	kbt_stop_with_client(&t, &s, &p);
}
