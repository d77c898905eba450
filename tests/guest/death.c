// SPDX-License-Identifier: Apache-2.0
/*
 * Conformance: death. BC_REQUEST_DEATH_NOTIFICATION / CLEAR, BR_DEAD_BINDER,
 * BC_DEAD_BINDER_DONE, BR_CLEAR_DEATH_NOTIFICATION_DONE (also for a node
 * that is already dead), BR_DEAD_REPLY when the target dies before or
 * during a call, and a dying process waking everyone who waits on it.
 */
#include "binder_util.h"

#include <signal.h>

enum {
	CODE_PING = 1,
	CODE_DIE,		/* the server exits without replying */
	CODE_HANG,		/* the server never replies */
};

#define COOKIE 0xdeadc0de

static int server(struct kbinder_thread *t, const struct binder_transaction_data *tr,
		  struct kbinder_parcel *reply, void *arg)
{
	(void)t;
	(void)arg;
	if (tr->code == CODE_DIE)
		_exit(0);
	if (tr->code == CODE_HANG)
		for (;;)
			pause();
	kbinder_parcel_write_u32(reply, 0x900d);
	return KBT_REPLY;
}

/* A looper client holding a weak reference on handle 0. */
static void client(struct kbt_server *s, struct kbinder_proc *p, struct kbinder_thread *t)
{
	kbt_start_with_client(s, server, NULL, p, t);
	ASSERT_OK(kbinder_thread_enter_looper(t));
	ASSERT_OK(kbinder_thread_ref(t, BC_INCREFS, 0));
}

static void expect_dead_binder(struct kbinder_thread *t, binder_uintptr_t cookie)
{
	struct kbinder_return ret;

	kbt_expect(t, BR_DEAD_BINDER, &ret);
	ASSERT_EQ(ret.u.cookie, cookie);
}

TEST(death_notification_on_process_exit)
{
	struct kbt_server s;
	struct kbinder_proc p;
	struct kbinder_thread t;

	client(&s, &p, &t);
	ASSERT_OK(kbinder_thread_request_death(&t, 0, COOKIE));
	ASSERT_EQ(kbt_no_event(&t, 100), 0);	/* alive: nothing yet */
	kbt_stop_ctxmgr(&t, &s);
	expect_dead_binder(&t, COOKIE);
	ASSERT_OK(kbinder_thread_dead_binder_done(&t, COOKIE));
	/* exactly once */
	ASSERT_EQ(kbt_no_event(&t, 200), 0);
	kbinder_proc_close(&p);
}

TEST(death_notification_on_kill)
{
	struct kbt_server s;
	struct kbinder_proc p;
	struct kbinder_thread t;

	client(&s, &p, &t);
	ASSERT_OK(kbinder_thread_request_death(&t, 0, COOKIE + 1));
	ASSERT_EQ(kbt_kill(s.pid), 128 + SIGKILL);
	expect_dead_binder(&t, COOKIE + 1);
	ASSERT_OK(kbinder_thread_dead_binder_done(&t, COOKIE + 1));
	kbt_chan_close(&s.chan);
	kbinder_proc_close(&p);
}

TEST(death_notification_on_already_dead_node)
{
	struct kbt_server s;
	struct kbinder_proc p;
	struct kbinder_thread t;

	client(&s, &p, &t);
	kbt_stop_ctxmgr(&t, &s);
	kbt_msleep(200);	/* let its release run */
	ASSERT_OK(kbinder_thread_request_death(&t, 0, COOKIE + 2));
	expect_dead_binder(&t, COOKIE + 2);
	ASSERT_OK(kbinder_thread_dead_binder_done(&t, COOKIE + 2));
	kbinder_proc_close(&p);
}

TEST(cleared_death_notification_is_not_sent)
{
	struct kbt_server s;
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_return ret;

	client(&s, &p, &t);
	ASSERT_OK(kbinder_thread_request_death(&t, 0, COOKIE + 3));
	ASSERT_OK(kbinder_thread_clear_death(&t, 0, COOKIE + 3));
	kbt_expect(&t, BR_CLEAR_DEATH_NOTIFICATION_DONE, &ret);
	ASSERT_EQ(ret.u.cookie, COOKIE + 3);
	kbt_stop_ctxmgr(&t, &s);
	ASSERT_EQ(kbt_no_event(&t, 300), 0);
	kbinder_proc_close(&p);
}

TEST(clear_after_death_completes_after_dead_binder_done)
{
	struct kbt_server s;
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_return ret;

	client(&s, &p, &t);
	ASSERT_OK(kbinder_thread_request_death(&t, 0, COOKIE + 4));
	kbt_stop_ctxmgr(&t, &s);
	expect_dead_binder(&t, COOKIE + 4);
	ASSERT_OK(kbinder_thread_clear_death(&t, 0, COOKIE + 4));
	ASSERT_EQ(kbt_no_event(&t, 200), 0);	/* not before DONE */
	ASSERT_OK(kbinder_thread_dead_binder_done(&t, COOKIE + 4));
	kbt_expect(&t, BR_CLEAR_DEATH_NOTIFICATION_DONE, &ret);
	ASSERT_EQ(ret.u.cookie, COOKIE + 4);
	kbinder_proc_close(&p);
}

TEST(clear_with_wrong_cookie_is_ignored)
{
	struct kbt_server s;
	struct kbinder_proc p;
	struct kbinder_thread t;

	client(&s, &p, &t);
	ASSERT_OK(kbinder_thread_request_death(&t, 0, COOKIE + 5));
	ASSERT_OK(kbinder_thread_clear_death(&t, 0, COOKIE + 6));
	ASSERT_EQ(kbt_no_event(&t, 200), 0);
	kbt_stop_ctxmgr(&t, &s);
	expect_dead_binder(&t, COOKIE + 5);	/* still armed */
	ASSERT_OK(kbinder_thread_dead_binder_done(&t, COOKIE + 5));
	kbinder_proc_close(&p);
}

TEST(second_death_request_on_same_ref_is_ignored)
{
	struct kbt_server s;
	struct kbinder_proc p;
	struct kbinder_thread t;

	client(&s, &p, &t);
	ASSERT_OK(kbinder_thread_request_death(&t, 0, COOKIE + 7));
	ASSERT_OK(kbinder_thread_request_death(&t, 0, COOKIE + 8));
	kbt_stop_ctxmgr(&t, &s);
	expect_dead_binder(&t, COOKIE + 7);
	ASSERT_OK(kbinder_thread_dead_binder_done(&t, COOKIE + 7));
	ASSERT_EQ(kbt_no_event(&t, 200), 0);
	kbinder_proc_close(&p);
}

TEST(dead_server_gives_dead_reply)
{
	struct kbt_server s;
	struct kbinder_proc p;
	struct kbinder_thread t;

	client(&s, &p, &t);
	ASSERT_EQ(kbt_call_status(&t, 0, CODE_DIE, NULL, 0), BR_DEAD_REPLY);
	ASSERT_CHILD_OK(s.pid);
	kbt_chan_close(&s.chan);
	kbinder_proc_close(&p);
}

static void hang_caller(struct kbinder_thread *t, void *arg)
{
	struct kbt_chan *chan = arg;
	uint32_t st;

	ASSERT_SIGNAL(chan, 'C');
	st = kbt_call_status(t, 0, CODE_HANG, NULL, 0);
	ASSERT_EQ(st, BR_DEAD_REPLY);
}

static void queued_caller(struct kbinder_thread *t, void *arg)
{
	struct kbt_chan *chan = arg;

	ASSERT_SIGNAL(chan, 'C');
	ASSERT_EQ(kbt_call_status(t, 0, CODE_PING, NULL, 0), BR_DEAD_REPLY);
}

/*
 * The server's only thread hangs in one call, a second call waits in its
 * queue; killing the server fails both with BR_DEAD_REPLY.
 */
TEST(dying_process_fails_running_and_queued_calls)
{
	struct kbt_server s;
	struct kbt_chan c1, c2;
	pid_t a, b;

	kbt_start_ctxmgr(&s, server, NULL);
	kbt_chan_init(&c1);
	kbt_chan_init(&c2);
	a = kbt_fork_client(hang_caller, &c1);
	ASSERT_WAIT(&c1, 'C');
	kbt_msleep(200);
	b = kbt_fork_client(queued_caller, &c2);
	ASSERT_WAIT(&c2, 'C');
	kbt_msleep(200);
	kbt_kill(s.pid);
	ASSERT_CHILD_OK(a);
	ASSERT_CHILD_OK(b);
	kbt_chan_close(&s.chan);
	kbt_chan_close(&c1);
	kbt_chan_close(&c2);
}

/* This process is the manager; a child hands it a node and dies. */
static void give_node_and_wait(void *arg)
{
	struct kbt_chan *chan = arg;
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_parcel data;

	kbt_client(&p, &t);
	kbinder_parcel_init(&data);
	kbinder_parcel_write_binder(&data, 0x7000, 0x7001, 0, false);
	ASSERT_EQ(kbt_call_status(&t, 0, 1, &data, 0), BR_REPLY);
	ASSERT_SIGNAL(chan, 'G');
	for (;;)
		pause();
}

TEST(call_to_dead_node_gives_dead_reply)
{
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_return ret;
	struct flat_binder_object obj;
	struct kbt_chan chan;
	pid_t c;

	kbt_manager(&p, &t, NULL);
	kbt_chan_init(&chan);
	c = kbt_fork(give_node_and_wait, &chan);
	ASSERT_OK(kbinder_thread_wait_for(&t, BR_TRANSACTION, &ret, kbt_default_event,
					  NULL, KBT_WAIT_MS));
	kbt_txn_object(&ret.u.txn, 0, &obj);
	ASSERT_OK(kbinder_thread_ref(&t, BC_ACQUIRE, obj.handle));
	ASSERT_OK(kbinder_thread_reply(&t, NULL, 0, KBT_WAIT_MS));
	ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	ASSERT_WAIT(&chan, 'G');
	/* alive: the call reaches it (and nobody answers: one-way) */
	ASSERT_EQ(kbt_call_status(&t, obj.handle, 2, NULL, TF_ONE_WAY),
		  BR_TRANSACTION_COMPLETE);
	ASSERT_OK(kbinder_thread_request_death(&t, obj.handle, 0x55));
	kbt_kill(c);
	expect_dead_binder(&t, 0x55);
	ASSERT_OK(kbinder_thread_dead_binder_done(&t, 0x55));
	ASSERT_EQ(kbt_call_status(&t, obj.handle, 3, NULL, 0), BR_DEAD_REPLY);
	ASSERT_EQ(kbt_call_status(&t, obj.handle, 3, NULL, TF_ONE_WAY),
		  BR_DEAD_REPLY);
	ASSERT_OK(kbinder_thread_ref(&t, BC_RELEASE, obj.handle));
	kbinder_proc_close(&p);
	kbt_chan_close(&chan);
}

static void call_and_wait(struct kbinder_thread *t, void *arg)
{
	struct kbt_chan *chan = arg;

	ASSERT_SIGNAL(chan, 'C');
	kbt_call_status(t, 0, 1, NULL, 0);
	ASSERT_SIGNAL(chan, 'X');	/* only when answered */
}

/*
 * A reply to a caller that died meanwhile is dropped: the reference answers
 * the replier BR_TRANSACTION_COMPLETE (the error would go to the caller),
 * and the replier carries on.
 */
TEST(reply_to_dead_client_is_dropped)
{
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_return ret;
	struct kbt_chan chan;
	struct kbinder_parcel reply;
	pid_t c;

	kbt_manager(&p, &t, NULL);
	kbt_chan_init(&chan);
	c = kbt_fork_client(call_and_wait, &chan);
	ASSERT_WAIT(&chan, 'C');
	ASSERT_OK(kbinder_thread_wait_for(&t, BR_TRANSACTION, &ret, kbt_default_event,
					  NULL, KBT_WAIT_MS));
	ASSERT_EQ(ret.u.txn.sender_pid, c);
	ASSERT_EQ(kbt_kill(c), 128 + SIGKILL);
	kbt_msleep(300);	/* let its release run */
	kbinder_parcel_init(&reply);
	kbinder_parcel_write(&reply, "late", 4);
	ASSERT_OK(kbinder_thread_reply(&t, &reply, 0, KBT_WAIT_MS));
	ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	kbinder_parcel_fini(&reply);
	kbt_chan_close(&chan);
	/* the next caller is served normally */
	kbt_chan_init(&chan);
	c = kbt_fork_client(call_and_wait, &chan);
	ASSERT_WAIT(&chan, 'C');
	ASSERT_OK(kbinder_thread_wait_for(&t, BR_TRANSACTION, &ret, kbt_default_event,
					  NULL, KBT_WAIT_MS));
	ASSERT_OK(kbinder_thread_reply(&t, NULL, 0, KBT_WAIT_MS));
	ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	ASSERT_WAIT(&chan, 'X');
	ASSERT_CHILD_OK(c);
	kbinder_proc_close(&p);
	kbt_chan_close(&chan);
}
