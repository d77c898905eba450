// SPDX-License-Identifier: Apache-2.0
/*
 * Conformance: the transaction stack. A call from the callee back into the
 * caller is delivered to the caller's waiting thread (not to an idle
 * looper), calls nest several levels deep, and replies unwind in order.
 */
#include "binder_util.h"
#include "waits.h"

#include <sys/syscall.h>

#define CLIENT_NODE 0xc11e
#define CODE_RECURSE 7

struct side {
	pid_t handler_tid[8];
	int n_handled;
};

static struct side side;

static int on_event(struct kbinder_thread *t, const struct kbinder_return *ret, void *arg);

/*
 * Handle RECURSE(n): n == 0 answers "0"; otherwise call the other side with
 * n - 1 and answer its result * 10 + n. The client sends its node along, so
 * the server calls back through the handle it got; the client calls 0.
 */
static void recurse(struct kbinder_thread *t, const struct binder_transaction_data *tr,
		    struct kbinder_parcel *reply)
{
	uint32_t n = kbt_txn_u32(tr, 0), target = 0, v;
	struct flat_binder_object obj;
	struct kbinder_parcel data;
	struct kbinder_reply r;

	if (side.n_handled < 8)
		side.handler_tid[side.n_handled] = kbt_gettid();
	side.n_handled++;
	if (n == 0) {
		kbinder_parcel_write_u32(reply, 0);
		return;
	}
	kbinder_parcel_init(&data);
	kbinder_parcel_write_u32(&data, n - 1);
	if (tr->offsets_size) {
		kbt_txn_object(tr, 0, &obj);
		target = obj.handle;
	} else {
		kbinder_parcel_write_binder(&data, CLIENT_NODE, 0, 0, false);
	}
	ASSERT_OK(kbinder_thread_transact(t, target, CODE_RECURSE, &data, 0, &r, on_event,
					  NULL, KBT_WAIT_MS));
	ASSERT_EQ(r.status, BR_REPLY);
	v = kbt_txn_u32(&r.txn, 0);
	ASSERT_OK(kbinder_thread_free_buffer(t, r.txn.data.ptr.buffer));
	kbinder_parcel_write_u32(reply, v * 10 + n);
	kbinder_parcel_fini(&data);
}

static int on_event(struct kbinder_thread *t, const struct kbinder_return *ret, void *arg)
{
	struct kbinder_parcel reply;

	(void)arg;
	if (ret->cmd != BR_TRANSACTION || ret->u.txn.code != CODE_RECURSE)
		return kbt_default_event(t, ret, NULL);
	kbinder_parcel_init(&reply);
	recurse(t, &ret->u.txn, &reply);
	ASSERT_OK(kbinder_thread_reply(t, &reply, 0, KBT_WAIT_MS));
	ASSERT_OK(kbinder_thread_free_buffer(t, ret->u.txn.data.ptr.buffer));
	kbinder_parcel_fini(&reply);
	return 0;
}

static int server(struct kbinder_thread *t, const struct binder_transaction_data *tr,
		  struct kbinder_parcel *reply, void *arg)
{
	(void)arg;
	if (tr->code == CODE_RECURSE)
		recurse(t, tr, reply);
	return KBT_REPLY;
}

/* An idle looper of the client: it must never be given the nested calls. */
static int idle_got;
static pid_t idle_tid;

/*
 * Start @fn as an idle looper of @p and wait until it is asleep in its
 * blocking read (in the driver, an idle looper the driver could pick): a
 * test that went on before then would prove nothing.
 */
static void start_idle_looper(pthread_t *th, void *(*fn)(void *), struct kbinder_proc *p)
{
	__atomic_store_n(&idle_tid, 0, __ATOMIC_SEQ_CST);
	ASSERT_EQ(pthread_create(th, NULL, fn, p), 0);
	while (!__atomic_load_n(&idle_tid, __ATOMIC_SEQ_CST))
		kbt_msleep(1);
	ASSERT_OK(kbt_wait_asleep_in(idle_tid, SYS_ioctl, KBT_WAIT_MS));
}

static void *idle_looper(void *arg)
{
	struct kbinder_proc *p = arg;
	struct kbinder_thread t;
	struct kbinder_return ret;

	__atomic_store_n(&idle_tid, kbt_gettid(), __ATOMIC_SEQ_CST);
	kbinder_thread_init(&t, p->fd);
	EXPECT_OK(kbinder_thread_enter_looper(&t));
	for (;;) {
		if (kbinder_thread_next(&t, &ret, -1))
			return NULL;
		if (ret.cmd == BR_TRANSACTION)
			__atomic_add_fetch(&idle_got, 1, __ATOMIC_SEQ_CST);
		kbt_default_event(&t, &ret, NULL);
	}
}

static uint32_t run(uint32_t depth)
{
	struct kbt_server s;
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct binder_transaction_data tr;
	struct kbinder_parcel reply;
	pthread_t th;
	uint32_t v;
	int i;

	kbt_start_with_client(&s, server, NULL, &p, &t);
	start_idle_looper(&th, idle_looper, &p);
	/* start as if we had been called with RECURSE(depth) */
	memset(&tr, 0, sizeof(tr));
	tr.data_size = 4;
	tr.data.ptr.buffer = (binder_uintptr_t)(uintptr_t)&depth;
	kbinder_parcel_init(&reply);
	recurse(&t, &tr, &reply);
	memcpy(&v, reply.data, 4);
	kbinder_parcel_fini(&reply);
	/* every nested call in this process ran on this thread */
	for (i = 0; i < side.n_handled && i < 8; i++)
		ASSERT_EQ(side.handler_tid[i], kbt_gettid());
	ASSERT_EQ(side.n_handled, (int)(depth / 2 + 1));
	ASSERT_EQ(__atomic_load_n(&idle_got, __ATOMIC_SEQ_CST), 0);
	kbt_stop_with_client(&t, &s, &p);	/* the close's flush ends the idle looper's read */
	ASSERT_EQ(pthread_join(th, NULL), 0);
	return v;
}

TEST(nested_call_is_delivered_to_waiting_thread)
{
	/* client -> server -> client (nested) -> reply -> reply */
	ASSERT_EQ(run(2), 12);
}

TEST(replies_unwind_in_order)
{
	/* five levels: each level's reply wraps the one below it */
	ASSERT_EQ(run(5), 12345);
}

/* ---- calls that are not nested go to the process, not the waiter ---- */

#define CODE_SIDE_CALLS 8
#define CODE_SIDE_PING 9

static uint32_t side_handle;

static void *side_sync_caller(void *arg)
{
	struct kbinder_proc *p = arg;
	struct kbinder_thread t;
	struct kbinder_reply r;

	kbinder_thread_init(&t, p->fd);	/* a fresh thread: empty stack */
	kbt_call(&t, side_handle, CODE_SIDE_PING, NULL, &r);
	EXPECT_EQ(kbt_txn_u32(&r.txn, 0), 0x5ede);
	kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer);
	return NULL;
}

static struct kbinder_proc side_server_proc;

/* While handling A's call: a one-way back to A, and a sync call to A from
 * another thread; both must be served by A's idle looper.
 */
static int side_server(struct kbinder_thread *t, const struct binder_transaction_data *tr,
		       struct kbinder_parcel *reply, void *arg)
{
	struct flat_binder_object obj;
	pthread_t th;

	(void)arg;
	if (tr->code != CODE_SIDE_CALLS)
		return KBT_REPLY;
	kbt_txn_object(tr, 0, &obj);
	side_handle = obj.handle;
	ASSERT_EQ(kbt_call_status(t, obj.handle, CODE_SIDE_PING, NULL, TF_ONE_WAY),
		  BR_TRANSACTION_COMPLETE);
	ASSERT_EQ(pthread_create(&th, NULL, side_sync_caller, &side_server_proc), 0);
	pthread_join(th, NULL);
	kbinder_parcel_write_u32(reply, 1);
	return KBT_REPLY;
}

static void side_server_main(void *arg)
{
	struct kbt_server *s = arg;
	struct kbinder_thread t;

	kbt_manager(&side_server_proc, &t, NULL);
	ASSERT_SIGNAL(&s->chan, 'R');
	ASSERT_OK(kbt_serve(&t, side_server, NULL));
	kbinder_proc_close(&side_server_proc);
}

static int side_served_by_idle;

static void *side_idle_looper(void *arg)
{
	struct kbinder_proc *p = arg;
	struct kbinder_thread t;
	struct kbinder_return ret;
	struct kbinder_parcel reply;

	__atomic_store_n(&idle_tid, kbt_gettid(), __ATOMIC_SEQ_CST);
	kbinder_thread_init(&t, p->fd);
	EXPECT_OK(kbinder_thread_enter_looper(&t));
	kbinder_parcel_init(&reply);
	for (;;) {
		if (kbinder_thread_next(&t, &ret, -1))
			return NULL;
		if (ret.cmd != BR_TRANSACTION) {
			kbt_default_event(&t, &ret, NULL);
			continue;
		}
		__atomic_add_fetch(&side_served_by_idle, 1, __ATOMIC_SEQ_CST);
		if (!(ret.u.txn.flags & TF_ONE_WAY)) {
			kbinder_parcel_reset(&reply);
			kbinder_parcel_write_u32(&reply, 0x5ede);
			EXPECT_OK(kbinder_thread_reply(&t, &reply, 0, KBT_WAIT_MS));
		}
		kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer);
	}
}

static int waiter_got;

static int waiter_event(struct kbinder_thread *t, const struct kbinder_return *ret, void *arg)
{
	if (ret->cmd == BR_TRANSACTION)
		__atomic_add_fetch(&waiter_got, 1, __ATOMIC_SEQ_CST);
	return kbt_default_event(t, ret, arg);
}

TEST(calls_outside_the_chain_skip_the_waiting_thread)
{
	struct kbt_server s;
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_parcel data;
	struct kbinder_reply r;
	int64_t deadline;
	pthread_t th;

	memset(&s, 0, sizeof(s));
	kbt_start_child(&s, side_server_main);
	kbt_client(&p, &t);
	start_idle_looper(&th, side_idle_looper, &p);
	kbinder_parcel_init(&data);
	kbinder_parcel_write_binder(&data, CLIENT_NODE, 0, 0, false);
	ASSERT_OK(kbinder_thread_transact(&t, 0, CODE_SIDE_CALLS, &data, 0, &r,
					  waiter_event, NULL, KBT_WAIT_MS));
	ASSERT_EQ(r.status, BR_REPLY);
	ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));
	/* the one-way may still be on its way: wait for it, generously */
	deadline = kbt_now_ms() + KBT_WAIT_MS;
	while (__atomic_load_n(&side_served_by_idle, __ATOMIC_SEQ_CST) < 2 &&
	       kbt_now_ms() < deadline)
		kbt_msleep(5);
	ASSERT_EQ(__atomic_load_n(&waiter_got, __ATOMIC_SEQ_CST), 0);
	ASSERT_EQ(__atomic_load_n(&side_served_by_idle, __ATOMIC_SEQ_CST), 2);
	kbinder_parcel_fini(&data);
	kbt_stop_with_client(&t, &s, &p);	/* the close's flush ends the idle looper's read */
	ASSERT_EQ(pthread_join(th, NULL), 0);
}
