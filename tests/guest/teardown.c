// SPDX-License-Identifier: Apache-2.0
/*
 * kbinder only: a dying process releases everything it held. Processes are
 * killed in the middle of every kind of activity (kept buffers, nodes with
 * remote references, queued one-way calls, calls in flight in both
 * directions, death notifications), and kbinder's live-object counters in
 * /sys/kernel/debug/kbinder/live must come back to where they were.
 */
#include "binder_util.h"
#include "live.h"

#include <signal.h>
#include <stdio.h>

static int keeper(struct kbinder_thread *t, const struct binder_transaction_data *tr,
		  struct kbinder_parcel *reply, void *arg)
{
	uint32_t h = kbt_keep_sent_handle(t, tr);

	(void)arg;
	if (h != KBT_NO_HANDLE)
		EXPECT_OK(kbinder_thread_request_death(t, h, 0x99));
	if (tr->code == 3)	/* hang in the call: a transaction in flight */
		for (;;)
			pause();
	kbinder_parcel_write_u32(reply, 1);
	return tr->code == 2 ? KBT_KEPT : KBT_REPLY;	/* 2: keep the buffer */
}

static void busy_client(void *arg)
{
	struct kbt_chan *chan = arg;
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_parcel data;
	struct kbinder_reply r;
	int i;

	kbt_client(&p, &t);
	ASSERT_OK(kbinder_thread_ref(&t, BC_ACQUIRE, 0));
	ASSERT_OK(kbinder_thread_request_death(&t, 0, 0x42));
	kbinder_parcel_init(&data);
	for (i = 0; i < 8; i++) {
		kbinder_parcel_reset(&data);
		kbinder_parcel_write_binder(&data, 0x1000 + i, i, 0, false);
		kbinder_parcel_write(&data, "payload", 7);
		kbt_call(&t, 0, 2, &data, &r);	/* the server keeps these */
		/* and we keep the replies */
	}
	for (i = 0; i < 4; i++)
		ASSERT_EQ(kbt_call_status(&t, 0, 1, &data, TF_ONE_WAY),
			  BR_TRANSACTION_COMPLETE);
	ASSERT_SIGNAL(chan, 'S');
	/* a call the server never answers */
	kbinder_thread_transact(&t, 0, 3, &data, 0, &r, NULL, NULL, -1);
	/* (or answers BR_DEAD_REPLY when killed first): hold everything
	 * until this process is killed too
	 */
	for (;;)
		pause();
}

/* A keeper server and a client whose last call is in flight: the client. */
static pid_t busy_scenario(struct kbt_server *s, struct kbt_chan *chan)
{
	pid_t c;

	kbt_start_ctxmgr(s, keeper, NULL);
	kbt_chan_init(chan);
	c = kbt_fork(busy_client, chan);
	ASSERT_WAIT(chan, 'S');
	kbt_msleep(300);	/* the last call is in flight */
	return c;
}

TEST(killed_processes_leave_no_live_objects)
{
	struct kbt_live base;
	struct kbt_server s;
	struct kbt_chan chan;
	pid_t c;

	kbt_live_start(&base);
	ASSERT_GT(base.n, 0);
	c = busy_scenario(&s, &chan);
	ASSERT_GT(kbt_live_changes(&base, true), 3);	/* the test sees what it counts */
	kbt_kill(c);
	kbt_msleep(100);
	kbt_kill(s.pid);
	ASSERT_LIVE_BACK(&base, 5000, "live objects left");
	kbt_chan_close(&chan);
	kbt_chan_close(&s.chan);
}

/* The same with the server killed first. */
TEST(killed_server_first_leaves_no_live_objects)
{
	struct kbt_live base;
	struct kbt_server s;
	struct kbt_chan chan;
	pid_t c;

	kbt_live_start(&base);
	c = busy_scenario(&s, &chan);
	kbt_kill(s.pid);
	kbt_msleep(100);
	kbt_kill(c);
	ASSERT_LIVE_BACK(&base, 5000, "live objects left");
	kbt_chan_close(&chan);
	kbt_chan_close(&s.chan);
}
