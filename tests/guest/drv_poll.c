// SPDX-License-Identifier: Apache-2.0
/*
 * kbinder driver checks: poll() readiness follows the thread's work, and
 * the work that makes a thread readable wakes it in poll() and in a read.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>

#include "harness.h"
#include "binder_util.h"

TEST(idle_looper_is_not_readable)
{
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct pollfd pfd;
	uint32_t buf[32];
	size_t consumed = 0;
	int n;

	kbt_manager(&p, &t, NULL);
	pfd.fd = p.fd;
	pfd.events = POLLIN;
	n = poll(&pfd, 1, 0);
	if (n) {
		int r = kbinder_ioctl_read(p.fd, buf, sizeof(buf), &consumed);

		fprintf(stderr, "poll %d revents %x read %d consumed %zu: %x %x %x\n",
			n, pfd.revents, r, consumed, buf[0], buf[1], buf[2]);
	}
	ASSERT_EQ(n, 0);
	kbinder_proc_close(&p);
}

/* The server answers after a while, so that its caller is asleep by then. */
#define LATE_MS 200

static int reply_late(struct kbinder_thread *t,
		      const struct binder_transaction_data *tr,
		      struct kbinder_parcel *reply, void *arg)
{
	kbt_msleep(LATE_MS);
	return kbt_reply_arg(t, tr, reply, arg);
}

/* The reply came back with the server's argument. */
static void expect_reply_late(struct kbinder_thread *t,
			      const struct kbinder_reply *r)
{
	ASSERT_EQ(r->txn.data_size, sizeof(uint32_t));
	ASSERT_EQ(kbt_txn_u32(&r->txn, 0), 7);
	ASSERT_OK(kbinder_thread_free_buffer(t, r->txn.data.ptr.buffer));
}

/*
 * A caller that sent its call and waits in poll() is woken by the reply.
 * A lost wake would still see poll() return 1, but only at its timeout,
 * when it looks one last time: the reply must end it long before.
 */
TEST(a_reply_wakes_its_caller_in_poll)
{
	struct kbt_pair w;
	struct kbinder_reply r;
	struct pollfd pfd;
	int64_t start;

	kbt_pair_start(&w, reply_late, (void *)7);
	kbt_write_txn(w.p.fd, &(struct kbt_txn){ .handle = 0, .code = 1 });
	pfd.fd = w.p.fd;
	pfd.events = POLLIN;
	start = kbt_now_ms();
	ASSERT_EQ(poll(&pfd, 1, KBT_WAIT_MS), 1);
	ASSERT_LT(kbt_now_ms() - start, KBT_WAIT_MS / 2);
	ASSERT_TRUE(pfd.revents & POLLIN);
	ASSERT_STATUS(kbt_outcome(&w.t, false, &r, 0), BR_REPLY);
	expect_reply_late(&w.t, &r);
	kbt_pair_stop(&w);
}

/*
 * A thread that once polled, and now waits for a reply in a blocking read,
 * is woken in its read: the wake for a thread that polls goes to its
 * poll() and to its read alike.
 */
TEST(a_thread_that_polled_is_woken_in_its_read)
{
	struct kbt_pair w;
	struct kbinder_reply r;
	struct pollfd pfd;

	kbt_pair_start(&w, reply_late, (void *)7);
	pfd.fd = w.p.fd;
	pfd.events = POLLIN;
	ASSERT_EQ(poll(&pfd, 1, 0), 0);
	kbt_write_txn(w.p.fd, &(struct kbt_txn){ .handle = 0, .code = 1 });
	/* Blocking: no timeout; the test's own deadline ends a lost wake. */
	ASSERT_STATUS(kbt_outcome(&w.t, false, &r, -1), BR_REPLY);
	expect_reply_late(&w.t, &r);
	kbt_pair_stop(&w);
}
