// SPDX-License-Identifier: Apache-2.0
/*
 * Conformance: one-way (TF_ONE_WAY) transactions. BR_TRANSACTION_COMPLETE
 * instead of a reply, no sender pid, per-node ordered delivery where the
 * next call to a node waits until the previous buffer is freed (and the
 * free hands it over), independence of nodes and of synchronous calls, and
 * the async space limit (half of the receive area).
 */
#include "binder_util.h"

#define NODE_B 0xb0b0

static void send_oneway(struct kbinder_thread *t, uint32_t handle, uint32_t code,
			uint32_t payload)
{
	struct kbinder_parcel data;

	kbinder_parcel_init(&data);
	kbinder_parcel_write_u32(&data, payload);
	ASSERT_EQ(kbt_call_status(t, handle, code, &data, TF_ONE_WAY),
		  BR_TRANSACTION_COMPLETE);
	kbinder_parcel_fini(&data);
}

static void two_oneways(struct kbinder_thread *t, void *arg)
{
	(void)arg;
	send_oneway(t, 0, 1, 111);
	send_oneway(t, 0, 2, 222);
}

static void wait_txn(struct kbinder_thread *t, struct kbinder_return *ret)
{
	ASSERT_OK(kbinder_thread_wait_for(t, BR_TRANSACTION, ret, kbt_default_event, NULL,
					  KBT_WAIT_MS));
}

TEST(oneway_gets_transaction_complete_and_no_sender_pid)
{
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_return ret;
	pid_t c;

	kbt_manager(&p, &t, NULL);
	c = kbt_fork_client(two_oneways, NULL);
	wait_txn(&t, &ret);
	ASSERT_TRUE(ret.u.txn.flags & TF_ONE_WAY);
	ASSERT_EQ(ret.u.txn.code, 1);
	ASSERT_EQ(ret.u.txn.sender_pid, 0);
	ASSERT_EQ(ret.u.txn.sender_euid, geteuid());
	ASSERT_EQ(kbt_txn_u32(&ret.u.txn, 0), 111);
	ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	wait_txn(&t, &ret);
	ASSERT_EQ(ret.u.txn.code, 2);
	ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	ASSERT_CHILD_OK(c);
	kbinder_proc_close(&p);
}

TEST(oneway_waits_for_previous_buffer_free)
{
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_return first, ret;
	pid_t c;

	kbt_manager(&p, &t, NULL);
	c = kbt_fork_client(two_oneways, NULL);
	wait_txn(&t, &first);
	ASSERT_EQ(first.u.txn.code, 1);
	ASSERT_CHILD_OK(c);	/* both were sent */
	/* the second is held back while the first buffer is not freed */
	ASSERT_EQ(kbt_no_work(&t, 300), 0);
	ASSERT_OK(kbinder_thread_free_buffer(&t, first.u.txn.data.ptr.buffer));
	wait_txn(&t, &ret);
	ASSERT_EQ(ret.u.txn.code, 2);
	ASSERT_EQ(kbt_txn_u32(&ret.u.txn, 0), 222);
	ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	kbinder_proc_close(&p);
}

static void oneway_then_sync(struct kbinder_thread *t, void *arg)
{
	(void)arg;
	send_oneway(t, 0, 1, 111);
	send_oneway(t, 0, 2, 222);
	ASSERT_EQ(kbt_call_status(t, 0, 3, NULL, 0), BR_REPLY);
}

TEST(sync_call_not_blocked_by_held_oneway)
{
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_return first, ret;
	pid_t c;

	kbt_manager(&p, &t, NULL);
	c = kbt_fork_client(oneway_then_sync, NULL);
	wait_txn(&t, &first);
	ASSERT_EQ(first.u.txn.code, 1);
	/* oneway 2 is queued behind 1, but the sync call 3 gets through */
	wait_txn(&t, &ret);
	ASSERT_EQ(ret.u.txn.code, 3);
	ASSERT_FALSE(ret.u.txn.flags & TF_ONE_WAY);
	ASSERT_EQ(ret.u.txn.sender_pid, c);
	ASSERT_OK(kbinder_thread_reply(&t, NULL, 0, KBT_WAIT_MS));
	ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	ASSERT_CHILD_OK(c);
	ASSERT_OK(kbinder_thread_free_buffer(&t, first.u.txn.data.ptr.buffer));
	wait_txn(&t, &ret);
	ASSERT_EQ(ret.u.txn.code, 2);
	ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	kbinder_proc_close(&p);
}

/* The child gets node B from the manager, then sends one-ways to both. */
static void oneways_to_two_nodes(struct kbinder_thread *t, void *arg)
{
	struct kbinder_reply r;
	struct flat_binder_object obj;

	(void)arg;
	kbt_call(t, 0, 50, NULL, &r);
	kbt_txn_object(&r.txn, 0, &obj);
	ASSERT_EQ(obj.hdr.type, BINDER_TYPE_HANDLE);
	ASSERT_OK(kbinder_thread_ref(t, BC_ACQUIRE, obj.handle));
	ASSERT_OK(kbinder_thread_free_buffer(t, r.txn.data.ptr.buffer));
	send_oneway(t, 0, 1, 1);
	send_oneway(t, 0, 2, 2);
	send_oneway(t, obj.handle, 3, 3);
	send_oneway(t, obj.handle, 4, 4);
}

TEST(oneway_queues_are_per_node)
{
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_return a1, b1, ret;
	struct kbinder_parcel reply;
	pid_t c;

	kbt_manager(&p, &t, NULL);
	c = kbt_fork_client(oneways_to_two_nodes, NULL);
	wait_txn(&t, &ret);
	ASSERT_EQ(ret.u.txn.code, 50);
	kbinder_parcel_init(&reply);
	kbinder_parcel_write_binder(&reply, NODE_B, NODE_B + 1, 0, false);
	ASSERT_OK(kbinder_thread_reply(&t, &reply, 0, KBT_WAIT_MS));
	ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	kbinder_parcel_fini(&reply);

	/* first of each node arrives although neither is freed */
	wait_txn(&t, &a1);
	wait_txn(&t, &b1);
	if (a1.u.txn.code == 3) {
		struct kbinder_return tmp = a1;

		a1 = b1;
		b1 = tmp;
	}
	ASSERT_EQ(a1.u.txn.code, 1);
	ASSERT_EQ(a1.u.txn.target.ptr, 0);
	ASSERT_EQ(b1.u.txn.code, 3);
	ASSERT_EQ(b1.u.txn.target.ptr, NODE_B);
	ASSERT_EQ(b1.u.txn.cookie, NODE_B + 1);
	ASSERT_CHILD_OK(c);
	ASSERT_EQ(kbt_no_work(&t, 200), 0);
	/* freeing B's buffer releases only B's next */
	ASSERT_OK(kbinder_thread_free_buffer(&t, b1.u.txn.data.ptr.buffer));
	wait_txn(&t, &ret);
	ASSERT_EQ(ret.u.txn.code, 4);
	ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	ASSERT_EQ(kbt_no_work(&t, 200), 0);
	ASSERT_OK(kbinder_thread_free_buffer(&t, a1.u.txn.data.ptr.buffer));
	wait_txn(&t, &ret);
	ASSERT_EQ(ret.u.txn.code, 2);
	ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	kbinder_proc_close(&p);
}

/* ---- ordering with two serving threads ---- */

#define N_ORDERED 40

struct order_state {
	pthread_mutex_t lock;
	uint32_t next;
	int in_flight;
	int bad;
};

static struct order_state order = { PTHREAD_MUTEX_INITIALIZER, 0, 0, 0 };

static int ordered_handler(struct kbinder_thread *t,
			   const struct binder_transaction_data *tr,
			   struct kbinder_parcel *reply, void *arg)
{
	uint32_t seq = kbt_txn_u32(tr, 0);
	int64_t deadline;

	(void)arg;
	if (tr->code == 2) {	/* result query: wait for all to be done */
		deadline = kbt_now_ms() + 5000;
		while (__atomic_load_n(&order.next, __ATOMIC_SEQ_CST) < N_ORDERED &&
		       kbt_now_ms() < deadline)
			kbt_msleep(5);
		pthread_mutex_lock(&order.lock);
		kbinder_parcel_write_u32(reply, order.next);
		kbinder_parcel_write_u32(reply, (uint32_t)order.bad);
		pthread_mutex_unlock(&order.lock);
		return KBT_REPLY;
	}
	pthread_mutex_lock(&order.lock);
	if (seq != order.next || order.in_flight != 0)
		order.bad++;
	order.in_flight++;
	pthread_mutex_unlock(&order.lock);
	kbt_msleep(seq % 3);	/* let the other thread try to overtake */
	pthread_mutex_lock(&order.lock);
	order.in_flight--;
	order.next = seq + 1;
	pthread_mutex_unlock(&order.lock);
	ASSERT_OK(kbinder_thread_free_buffer(t, tr->data.ptr.buffer));
	return KBT_KEPT;
}

static void *serve_thread(void *arg)
{
	struct kbinder_proc *p = arg;
	struct kbinder_thread t;

	kbinder_thread_init(&t, p->fd);
	EXPECT_OK(kbinder_thread_enter_looper(&t));
	kbt_serve(&t, ordered_handler, NULL);
	/* this thread got QUIT: end the whole server */
	_exit(kbt_failed() ? 1 : 0);
}

static void ordered_server(void *arg)
{
	struct kbt_chan *chan = arg;
	struct kbinder_proc p;
	struct kbinder_thread t;
	pthread_t th;

	kbt_open(&p);
	ASSERT_OK(kbt_become_ctxmgr(p.fd, NULL));
	ASSERT_EQ(pthread_create(&th, NULL, serve_thread, &p), 0);
	kbinder_thread_init(&t, p.fd);
	ASSERT_OK(kbinder_thread_enter_looper(&t));
	ASSERT_SIGNAL(chan, 'R');
	ASSERT_OK(kbt_serve(&t, ordered_handler, NULL));
	/*
	 * This thread got QUIT: end the whole server, as serve_thread() does.
	 * Closing @p here would pull the fd from under serve_thread(), which
	 * may still be freeing the buffer of the call it answered last
	 * (EBADF, a failed serve).
	 */
	_exit(kbt_failed() ? 1 : 0);
}

TEST(oneway_is_ordered_per_node)
{
	struct kbt_chan chan;
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_reply r;
	struct kbinder_parcel data;
	uint32_t i;
	pid_t s;

	s = kbt_fork_ready(ordered_server, &chan);
	kbt_client(&p, &t);
	kbinder_parcel_init(&data);
	for (i = 0; i < N_ORDERED; i++) {
		kbinder_parcel_reset(&data);
		kbinder_parcel_write_u32(&data, i);
		ASSERT_EQ(kbt_call_status(&t, 0, 1, &data, TF_ONE_WAY),
			  BR_TRANSACTION_COMPLETE);
	}
	kbt_call(&t, 0, 2, NULL, &r);
	ASSERT_EQ(kbt_txn_u32(&r.txn, 0), N_ORDERED);	/* all delivered */
	ASSERT_EQ(kbt_txn_u32(&r.txn, 1), 0);		/* in order, one at a time */
	ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));
	kbt_quit(&t, 0);
	ASSERT_CHILD_OK(s);
	kbinder_parcel_fini(&data);
	kbinder_proc_close(&p);
	kbt_chan_close(&chan);
}

/* ---- async space ---- */

#define ASYNC_CHUNK (16 * 1024)

static void flood(struct kbinder_thread *t, void *arg)
{
	struct kbt_chan *chan = arg;
	static uint8_t payload[ASYNC_CHUNK];
	struct kbinder_parcel data;
	uint32_t st = 0, n = 0;

	kbinder_parcel_init(&data);
	for (n = 0; n < 100; n++) {
		kbinder_parcel_reset(&data);
		memcpy(payload, &n, 4);
		kbinder_parcel_write(&data, payload, sizeof(payload));
		st = kbt_call_status(t, 0, 1, &data, TF_ONE_WAY);
		if (st != BR_TRANSACTION_COMPLETE)
			break;
	}
	ASSERT_EQ(st, BR_FAILED_REPLY);
	ASSERT_OK(kbt_send(chan, &n, sizeof(n)));
	/* a synchronous call may still use the other half */
	kbinder_parcel_reset(&data);
	kbinder_parcel_write(&data, payload, sizeof(payload));
	ASSERT_EQ(kbt_call_status(t, 0, 2, &data, 0), BR_REPLY);
	kbinder_parcel_fini(&data);
}

TEST(async_space_limit_gives_failed_reply)
{
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_return ret;
	struct kbt_chan chan;
	uint32_t accepted, got = 0;
	bool sync_seen = false;
	pid_t c;

	kbt_manager(&p, &t, NULL);	/* 1 MiB mapped: 512 KiB for async */
	kbt_chan_init(&chan);
	c = kbt_fork_client(flood, &chan);
	ASSERT_OK(kbt_recv(&chan, &accepted, sizeof(accepted), KBT_WAIT_MS));
	kbt_log("accepted %u one-way calls of %d bytes", accepted, ASYNC_CHUNK);
	ASSERT_GE(accepted * ASYNC_CHUNK, 256 * 1024);
	ASSERT_LE(accepted * ASYNC_CHUNK, 512 * 1024);
	/* every accepted call is delivered intact and in order */
	while (got < accepted || !sync_seen) {
		wait_txn(&t, &ret);
		ASSERT_EQ(ret.u.txn.data_size, ASYNC_CHUNK);
		if (ret.u.txn.code == 2) {
			sync_seen = true;
			ASSERT_OK(kbinder_thread_reply(&t, NULL, 0, KBT_WAIT_MS));
		} else {
			ASSERT_EQ(kbt_txn_u32(&ret.u.txn, 0), got);
			got++;
		}
		ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	}
	ASSERT_CHILD_OK(c);
	kbinder_proc_close(&p);
	kbt_chan_close(&chan);
}

static void three_oneways(struct kbinder_thread *t, void *arg)
{
	(void)arg;
	send_oneway(t, 0, 1, 1);
	send_oneway(t, 0, 2, 2);
	send_oneway(t, 0, 3, 3);
}

/* One-way calls already sent are delivered although the sender died. */
TEST(oneway_from_dead_sender_is_still_delivered)
{
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_return first, ret;
	pid_t c;

	kbt_manager(&p, &t, NULL);
	c = kbt_fork_client(three_oneways, NULL);
	wait_txn(&t, &first);
	ASSERT_EQ(first.u.txn.code, 1);
	ASSERT_CHILD_OK(c);
	kbt_msleep(200);	/* its release has run */
	ASSERT_OK(kbinder_thread_free_buffer(&t, first.u.txn.data.ptr.buffer));
	wait_txn(&t, &ret);
	ASSERT_EQ(ret.u.txn.code, 2);
	ASSERT_EQ(kbt_txn_u32(&ret.u.txn, 0), 2);
	ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	wait_txn(&t, &ret);
	ASSERT_EQ(ret.u.txn.code, 3);
	ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	kbinder_proc_close(&p);
}

/*
 * Two senders' one-way calls to one node share its queue: each sender's
 * calls arrive in its order, one at a time, all of them.
 */
static void oneways_tagged(struct kbinder_thread *t, void *arg)
{
	uint32_t tag = (uint32_t)(uintptr_t)arg, i;

	for (i = 0; i < 10; i++)
		send_oneway(t, 0, tag, i);
}

TEST(oneway_from_two_senders_keeps_each_order)
{
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_return ret;
	uint32_t next[2] = { 0, 0 }, tag;
	pid_t a, b;
	int i;

	kbt_manager(&p, &t, NULL);
	a = kbt_fork_client(oneways_tagged, (void *)(uintptr_t)1);
	b = kbt_fork_client(oneways_tagged, (void *)(uintptr_t)2);
	for (i = 0; i < 20; i++) {
		wait_txn(&t, &ret);
		tag = ret.u.txn.code;
		ASSERT_TRUE(tag == 1 || tag == 2);
		ASSERT_EQ(kbt_txn_u32(&ret.u.txn, 0), next[tag - 1]);
		next[tag - 1]++;
		/* nothing else is handed over before this one is freed */
		if (i % 5 == 0)
			ASSERT_EQ(kbt_no_work(&t, 50), 0);
		ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	}
	ASSERT_EQ(next[0], 10);
	ASSERT_EQ(next[1], 10);
	ASSERT_CHILD_OK(a);
	ASSERT_CHILD_OK(b);
	kbinder_proc_close(&p);
}
