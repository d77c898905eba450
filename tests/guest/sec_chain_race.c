// SPDX-License-Identifier: Apache-2.0
/*
 * Security regression (issue 20, item 3): a failed reply must not cut a
 * transaction chain.
 *
 * C calls S (the outer call); S's thread S1, handling it, calls R (the
 * inner call); R's reply fails, so the failure goes to S1, and if S1 is
 * gone, on down the chain to C. kbinder read the inner call's sender
 * once, then took its process's lock: when S1 exited
 * (BINDER_THREAD_EXIT) in between, the failure was handed to a dead
 * thread and C was never answered; its call pinned S's process, world,
 * task and credentials for good. The sender is read again under the lock
 * now, and a sender that is gone passes the failure on, as upstream does.
 *
 * The window is a few instructions wide, and there are two of them. To
 * hit each every time, the test widens it with a BPF program on a
 * kretprobe of kb_transaction_get_from() in R's task, which spins for a
 * while (up to 33 x 20 ms) before returning while S1 exits:
 * - R's second call to it, the one that hands the failure of the reply on;
 * - R's first call, the one that finds the reply's target: the sender,
 *   read before S1 exits, is gone by the time R checks S1's stack under
 *   its lock. kbinder took S1's now empty stack for a protocol error,
 *   gave R BR_FAILED_REPLY and never answered C (first seen on the debug
 *   kernel, whose slower paths opened this window without a delay). An
 *   exited sender is a dead reply now, which is passed down the chain.
 * On kbinder a delay that cannot attach, or that never fired, fails the
 * test (kdelay.h). The reference driver has no such function: there the
 * scenario runs without the delay, which proves only that C is answered.
 */
#include "binder_util.h"
#include "kdelay.h"

#include <fcntl.h>

#define CODE_GIVE 1		/* R -> S: here is my node */
#define CODE_OUTER 2		/* C -> S: call R, nested */
#define CODE_INNER 3		/* S1 -> R */
#define R_NODE 0x7e500
#define BAD_TYPE 0x7a7a7a7a	/* no object type */
#define EXIT_AFTER_MS 5	/* S1 exits this long after R starts replying */
#define ROUNDS 3

/* ---- the chain ---- */

struct chain {
	struct kbt_chan s_chan, r_chan;
	int go[2];		/* R -> S1: "I am replying now" */
	pid_t s_pid, r_pid;
};

/* S: context manager; S1 takes R's node, then nests the outer call into R. */
static void s_main(void *arg)
{
	struct chain *c = arg;
	struct flat_binder_object obj;
	struct binder_transaction_data tr;
	struct kbinder_return ret;
	struct kbinder_writer w;
	struct kbinder_parcel empty;
	struct kbinder_thread t;
	struct kbinder_proc p;
	uint32_t handle = 0;
	uint8_t cmds[128];
	char token;

	kbt_manager(&p, &t, NULL);
	ASSERT_SIGNAL(&c->s_chan, 'R');
	kbinder_parcel_init(&empty);
	for (;;) {
		ASSERT_OK(kbinder_thread_next(&t, &ret, KBT_WAIT_MS * 3));
		if (ret.cmd != BR_TRANSACTION) {
			kbt_default_event(&t, &ret, NULL);
			continue;
		}
		if (ret.u.txn.code == CODE_OUTER)
			break;
		kbt_txn_object(&ret.u.txn, 0, &obj);
		handle = obj.handle;
		ASSERT_OK(kbinder_thread_ref(&t, BC_ACQUIRE, handle));
		ASSERT_OK(kbinder_thread_reply(&t, &empty, 0, KBT_WAIT_MS));
		ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	}
	/* The outer call is on our stack: call R on top of it, and leave. */
	memset(&tr, 0, sizeof(tr));
	tr.target.handle = handle;
	tr.code = CODE_INNER;
	kbinder_writer_init(&w, cmds, sizeof(cmds));
	kbinder_writer_put_txn(&w, BC_TRANSACTION, &tr);
	ASSERT_OK(kbinder_ioctl_write(p.fd, cmds, w.len, NULL));
	ASSERT_EQ(read(c->go[0], &token, 1), 1);
	kbt_msleep(EXIT_AFTER_MS);
	ASSERT_OK(kbinder_ioctl_thread_exit(p.fd));
	kbinder_parcel_fini(&empty);
	ASSERT_SIGNAL(&c->s_chan, 'X');
	ASSERT_OK(kbt_wait(&c->s_chan, 'q', 4 * KBT_WAIT_MS));
	kbinder_proc_close(&p);
}

/* A reply with an object of no known type: it fails, for the inner call. */
static void send_bad_reply(struct kbinder_thread *t)
{
	struct binder_transaction_data tr;
	struct flat_binder_object obj;
	binder_size_t off = 0;
	struct kbinder_writer w;
	uint8_t cmds[128];

	memset(&obj, 0, sizeof(obj));
	obj.hdr.type = BAD_TYPE;
	memset(&tr, 0, sizeof(tr));
	tr.data_size = sizeof(obj);
	tr.offsets_size = sizeof(off);
	tr.data.ptr.buffer = (binder_uintptr_t)(uintptr_t)&obj;
	tr.data.ptr.offsets = (binder_uintptr_t)(uintptr_t)&off;
	kbinder_writer_init(&w, cmds, sizeof(cmds));
	kbinder_writer_put_txn(&w, BC_REPLY, &tr);
	ASSERT_OK(kbinder_ioctl_write(t->fd, cmds, w.len, NULL));
}

/* R: gives S its node, then answers the inner call with a reply that fails. */
static void r_main(struct kbinder_thread *t, void *arg)
{
	struct chain *c = arg;
	struct kbinder_parcel data;
	struct kbinder_return ret;
	struct kbinder_reply r;
	binder_uintptr_t buffer;

	ASSERT_OK(kbinder_thread_enter_looper(t));
	kbinder_parcel_init(&data);
	kbinder_parcel_write_binder(&data, R_NODE, 0, 0, false);
	kbt_call(t, 0, CODE_GIVE, &data, &r);
	ASSERT_OK(kbinder_thread_free_buffer(t, r.txn.data.ptr.buffer));
	kbinder_parcel_fini(&data);
	ASSERT_SIGNAL(&c->r_chan, 'R');
	ASSERT_WAIT(&c->r_chan, 'A');	/* the delay is in place */
	for (;;) {
		ASSERT_OK(kbinder_thread_next(t, &ret, KBT_WAIT_MS * 3));
		if (ret.cmd == BR_TRANSACTION)
			break;
		kbt_default_event(t, &ret, NULL);
	}
	ASSERT_EQ(ret.u.txn.code, CODE_INNER);
	ASSERT_EQ(write(c->go[1], "g", 1), 1);
	send_bad_reply(t);
	/* The replier of a failed reply reads BR_TRANSACTION_COMPLETE. */
	buffer = ret.u.txn.data.ptr.buffer;
	do {
		ASSERT_OK(kbinder_thread_next(t, &ret, KBT_WAIT_MS));
	} while (ret.cmd == BR_NOOP);
	EXPECT_EQ(ret.cmd, BR_TRANSACTION_COMPLETE);
	ASSERT_OK(kbinder_thread_free_buffer(t, buffer));
	ASSERT_SIGNAL(&c->r_chan, 'D');
	ASSERT_OK(kbt_wait(&c->r_chan, 'q', 4 * KBT_WAIT_MS));
}

/*
 * One chain, R's @nth call of kb_transaction_get_from() delayed; true if
 * the outer call was answered.
 */
static bool one_chain(int nth, bool *delayed)
{
	struct chain c;
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_reply r;
	struct kbt_kdelay d;
	int err;

	ASSERT_EQ(pipe2(c.go, O_CLOEXEC), 0);
	kbt_chan_init(&c.s_chan);
	kbt_chan_init(&c.r_chan);
	c.s_pid = kbt_fork(s_main, &c);
	ASSERT_WAIT(&c.s_chan, 'R');
	c.r_pid = kbt_fork_client(r_main, &c);
	ASSERT_WAIT(&c.r_chan, 'R');
	*delayed = kbt_kdelay_hold(&d, "kb_transaction_get_from", true, c.r_pid, nth);
	ASSERT_SIGNAL(&c.r_chan, 'A');

	kbt_client(&p, &t);
	err = kbinder_thread_transact(&t, 0, CODE_OUTER, NULL, 0, &r, kbt_default_event,
				      NULL, KBT_WAIT_MS);
	if (!err && r.status == BR_REPLY)
		kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer);
	kbt_log("the outer call: %s", err ? kbt_strerr(err) :
		kbinder_return_name(r.status));
	ASSERT_WAIT(&c.r_chan, 'D');
	ASSERT_WAIT(&c.s_chan, 'X');
	if (*delayed) {
		kbt_kdelay_expect_hit(&d);
		kbt_kdelay_detach(&d);
	}
	ASSERT_SIGNAL(&c.r_chan, 'q');
	ASSERT_SIGNAL(&c.s_chan, 'q');
	ASSERT_CHILD_OK(c.r_pid);
	ASSERT_CHILD_OK(c.s_pid);
	kbt_chan_close(&c.r_chan);
	kbt_chan_close(&c.s_chan);
	close(c.go[0]);
	close(c.go[1]);
	kbinder_proc_close(&p);
	return !err && (r.status == BR_FAILED_REPLY || r.status == BR_DEAD_REPLY);
}

/* R's calls whose return spins while S1 exits: see the top of the file. */
#define FINDS_THE_TARGET 1
#define HANDS_THE_FAILURE_ON 2

static void chains(int nth)
{
	bool delayed = false;
	int i, answered = 0;

	for (i = 0; i < ROUNDS; i++)
		answered += one_chain(nth, &delayed);
	kbt_log("%d of %d outer calls answered (%s)", answered, ROUNDS,
		delayed ? "with the delay" : "without a delay");
	EXPECT_EQ(answered, ROUNDS);
}

TEST_TIMEOUT(failed_reply_reaches_the_caller_when_its_sender_exits, 150)
{
	chains(HANDS_THE_FAILURE_ON);
}

TEST_TIMEOUT(failed_reply_reaches_the_caller_when_its_sender_exits_during_the_lookup, 150)
{
	chains(FINDS_THE_TARGET);
}
