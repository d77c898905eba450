// SPDX-License-Identifier: Apache-2.0
/*
 * kbinder driver checks: freeze notifications (mainline 6.12).
 *
 * BC_REQUEST_FREEZE_NOTIFICATION on a handle sends the owner's current
 * state at once, then again after every freeze or thaw, as
 * BR_FROZEN_BINDER; the next one waits for BC_FREEZE_NOTIFICATION_DONE.
 * BC_CLEAR_FREEZE_NOTIFICATION answers BR_CLEAR_FREEZE_NOTIFICATION_DONE.
 * The tests run on every driver that has the feature (kbinder, the 6.12
 * reference) and skip on one that has not (the 6.1 reference), as
 * driver_features.h finds out.
 *
 * Commands are written and read with raw BINDER_WRITE_READ calls, so each
 * test sees exactly the stream the driver produced (libkbinder's default
 * handler would acknowledge BR_FROZEN_BINDER on its own).
 */
#include <poll.h>
#include <sys/ioctl.h>

#include "harness.h"
#include "binder_util.h"
#include "driver_features.h"

#define COOKIE 0xc00c1e5ull

struct hc_cmd {
	uint32_t cmd;
	struct binder_handle_cookie hc;
} __attribute__((packed));

struct cookie_cmd {
	uint32_t cmd;
	binder_uintptr_t cookie;
} __attribute__((packed));

static int freeze(int fd, pid_t pid, bool enable)
{
	struct binder_freeze_info info = {
		.pid = (uint32_t)pid, .enable = enable, .timeout_ms = 1000,
	};

	return ioctl(fd, BINDER_FREEZE, &info) ? -errno : 0;
}

static int write_hc(int fd, uint32_t cmd, uint32_t handle, uint64_t cookie)
{
	struct hc_cmd c = { .cmd = cmd, .hc = { handle, cookie } };

	return kbinder_ioctl_write(fd, &c, sizeof(c), NULL);
}

static int write_cookie(int fd, uint32_t cmd, uint64_t cookie)
{
	struct cookie_cmd c = { .cmd = cmd, .cookie = cookie };

	return kbinder_ioctl_write(fd, &c, sizeof(c), NULL);
}

/*
 * The next BR_ code other than BR_NOOP within @ms, its payload copied to
 * @payload (up to @size bytes); 0 if nothing came.
 */
static uint32_t next_event(int fd, void *payload, size_t size, int ms)
{
	static uint8_t buf[256];
	static size_t len, pos;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	uint32_t cmd;

	for (;;) {
		while (pos + 4 <= len) {
			memcpy(&cmd, buf + pos, 4);
			pos += 4;
			if (cmd == BR_NOOP)
				continue;
			ASSERT_LE(pos + _IOC_SIZE(cmd), len);
			memcpy(payload, buf + pos,
			       size < _IOC_SIZE(cmd) ? size : _IOC_SIZE(cmd));
			pos += _IOC_SIZE(cmd);
			return cmd;
		}
		len = pos = 0;
		if (poll(&pfd, 1, ms) <= 0)
			return 0;
		ASSERT_OK(kbinder_ioctl_read(fd, buf, sizeof(buf), &len));
	}
}

static void expect_frozen_binder(int fd, uint32_t is_frozen)
{
	struct binder_frozen_state_info info;

	memset(&info, 0xff, sizeof(info));
	ASSERT_EQ(next_event(fd, &info, sizeof(info), KBT_WAIT_MS),
		  BR_FROZEN_BINDER);
	EXPECT_EQ(info.cookie, COOKIE);
	EXPECT_EQ(info.is_frozen, is_frozen);
	EXPECT_EQ(info.reserved, 0);
}

/*
 * The scenario of most tests: a manager, and this process its client,
 * holding a weak reference on it and asking for its freeze notifications.
 */
static void watch_the_manager(struct kbt_pair *pair)
{
	REQUIRE_FEATURE(KBT_FEATURE_FREEZE_NOTIFICATION);
	kbt_pair_start(pair, NULL, NULL);
	ASSERT_OK(kbinder_thread_ref(&pair->t, BC_INCREFS, 0));
	ASSERT_OK(write_hc(pair->p.fd, BC_REQUEST_FREEZE_NOTIFICATION, 0, COOKIE));
}

TEST(freeze_notification_reports_state_changes)
{
	binder_uintptr_t cookie = 0;
	struct kbt_pair pair;
	uint32_t dummy;

	REQUIRE_FEATURE(KBT_FEATURE_FREEZE_NOTIFICATION);
	kbt_pair_start(&pair, NULL, NULL);
	ASSERT_OK(kbinder_thread_ref(&pair.t, BC_INCREFS, 0));
	ASSERT_OK(kbinder_thread_ref(&pair.t, BC_ACQUIRE, 0));

	/* The current state comes at once. */
	ASSERT_OK(write_hc(pair.p.fd, BC_REQUEST_FREEZE_NOTIFICATION, 0, COOKIE));
	expect_frozen_binder(pair.p.fd, 0);
	ASSERT_EQ(write_hc(pair.p.fd, BC_REQUEST_FREEZE_NOTIFICATION, 0, COOKIE),
		  -EINVAL);
	ASSERT_OK(write_cookie(pair.p.fd, BC_FREEZE_NOTIFICATION_DONE, COOKIE));

	ASSERT_OK(freeze(pair.p.fd, pair.mgr.pid, true));
	expect_frozen_binder(pair.p.fd, 1);
	ASSERT_OK(write_cookie(pair.p.fd, BC_FREEZE_NOTIFICATION_DONE, COOKIE));
	ASSERT_OK(freeze(pair.p.fd, pair.mgr.pid, false));
	expect_frozen_binder(pair.p.fd, 0);

	/* Not acknowledged yet: the next change waits for the DONE. */
	ASSERT_OK(freeze(pair.p.fd, pair.mgr.pid, true));
	ASSERT_EQ(next_event(pair.p.fd, &dummy, sizeof(dummy), 200), 0);
	ASSERT_OK(write_cookie(pair.p.fd, BC_FREEZE_NOTIFICATION_DONE, COOKIE));
	expect_frozen_binder(pair.p.fd, 1);
	ASSERT_OK(write_cookie(pair.p.fd, BC_FREEZE_NOTIFICATION_DONE, COOKIE));
	ASSERT_EQ(write_cookie(pair.p.fd, BC_FREEZE_NOTIFICATION_DONE, COOKIE),
		  -EINVAL);

	ASSERT_EQ(write_hc(pair.p.fd, BC_CLEAR_FREEZE_NOTIFICATION, 0, COOKIE + 1),
		  -EINVAL);
	ASSERT_OK(write_hc(pair.p.fd, BC_CLEAR_FREEZE_NOTIFICATION, 0, COOKIE));
	ASSERT_EQ(next_event(pair.p.fd, &cookie, sizeof(cookie), KBT_WAIT_MS),
		  BR_CLEAR_FREEZE_NOTIFICATION_DONE);
	EXPECT_EQ(cookie, COOKIE);

	/* Cleared: thawing says nothing any more. */
	ASSERT_OK(freeze(pair.p.fd, pair.mgr.pid, false));
	ASSERT_EQ(next_event(pair.p.fd, &dummy, sizeof(dummy), 200), 0);

	ASSERT_OK(kbinder_thread_ref(&pair.t, BC_RELEASE, 0));
	ASSERT_OK(kbinder_thread_ref(&pair.t, BC_DECREFS, 0));
	kbt_pair_stop(&pair);
}

TEST(freeze_notification_cleared_while_sent_completes_after_done)
{
	binder_uintptr_t cookie = 0;
	struct kbt_pair pair;

	watch_the_manager(&pair);
	expect_frozen_binder(pair.p.fd, 0);
	ASSERT_OK(write_hc(pair.p.fd, BC_CLEAR_FREEZE_NOTIFICATION, 0, COOKIE));
	ASSERT_EQ(next_event(pair.p.fd, &cookie, sizeof(cookie), 200), 0);
	ASSERT_OK(write_cookie(pair.p.fd, BC_FREEZE_NOTIFICATION_DONE, COOKIE));
	ASSERT_EQ(next_event(pair.p.fd, &cookie, sizeof(cookie), KBT_WAIT_MS),
		  BR_CLEAR_FREEZE_NOTIFICATION_DONE);
	EXPECT_EQ(cookie, COOKIE);
	ASSERT_OK(kbinder_thread_ref(&pair.t, BC_DECREFS, 0));
	kbt_pair_stop(&pair);
}

TEST(freeze_notification_left_pending_is_freed_at_exit)
{
	struct kbt_pair pair;

	/* One delivered and never acknowledged, one change queued behind. */
	watch_the_manager(&pair);
	expect_frozen_binder(pair.p.fd, 0);
	ASSERT_OK(freeze(pair.p.fd, pair.mgr.pid, true));
	ASSERT_OK(freeze(pair.p.fd, pair.mgr.pid, false));
	kbt_pair_stop(&pair);
	/* The runner checks that every live counter returns to 0. */
}

TEST(freeze_notification_cleared_but_unacknowledged_is_freed_at_exit)
{
	struct kbt_pair pair;

	watch_the_manager(&pair);
	expect_frozen_binder(pair.p.fd, 0);
	/* The note now belongs to the delivered list, not to the ref. */
	ASSERT_OK(write_hc(pair.p.fd, BC_CLEAR_FREEZE_NOTIFICATION, 0, COOKIE));
	kbt_pair_stop(&pair);
}

TEST(freeze_notification_never_read_is_freed_at_exit)
{
	struct kbt_pair pair;

	watch_the_manager(&pair);
	/* Queued on the process, never read: the server quits from here. */
	kbt_pair_stop(&pair);
}
