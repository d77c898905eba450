// SPDX-License-Identifier: Apache-2.0
/*
 * Conformance: nodes, references and their counts. BR_INCREFS / BR_ACQUIRE
 * when a node is first referenced, BR_RELEASE / BR_DECREFS when the last
 * strong / weak reference goes, BC_INCREFS / ACQUIRE / RELEASE / DECREFS on
 * handles, the _DONE acknowledgements, BINDER_GET_NODE_DEBUG_INFO and
 * BINDER_GET_NODE_INFO_FOR_REF, and node lifetime.
 */
#include "binder_util.h"

#include <sys/ioctl.h>

#define NODE_PTR    0x4000
#define NODE_COOKIE 0x4444

enum {
	CODE_STASH = 1,		/* keep the handle (BC_ACQUIRE), reply with it */
	CODE_APPLY,		/* apply BC_ code u32[0] to the stashed handle */
	CODE_INFO,		/* reply GET_NODE_INFO_FOR_REF(stash): ret, strong, weak */
	CODE_INFO_BAD,		/* same with reserved1 != 0: reply ret */
	CODE_GET_STASHED,	/* reply the stashed handle as an object */
};

static uint32_t stash;

static int ref_server(struct kbinder_thread *t, const struct binder_transaction_data *tr,
		      struct kbinder_parcel *reply, void *arg)
{
	struct binder_node_info_for_ref info;
	struct flat_binder_object obj;
	int ret;

	(void)arg;
	switch (tr->code) {
	case CODE_STASH:
		kbt_txn_object(tr, 0, &obj);
		ASSERT_EQ(obj.hdr.type, BINDER_TYPE_HANDLE);
		stash = obj.handle;
		ASSERT_OK(kbinder_thread_ref(t, BC_ACQUIRE, stash));
		kbinder_parcel_write_u32(reply, stash);
		break;
	case CODE_APPLY:
		ASSERT_OK(kbinder_thread_ref(t, kbt_txn_u32(tr, 0), stash));
		break;
	case CODE_INFO:
		memset(&info, 0, sizeof(info));
		info.handle = stash;
		ret = kbinder_ioctl_node_info_for_ref(t->fd, &info);
		kbinder_parcel_write_u32(reply, (uint32_t)ret);
		kbinder_parcel_write_u32(reply, info.strong_count);
		kbinder_parcel_write_u32(reply, info.weak_count);
		break;
	case CODE_INFO_BAD:
		memset(&info, 0, sizeof(info));
		info.handle = stash;
		info.reserved1 = 1;
		kbinder_parcel_write_u32(reply, (uint32_t)kbinder_ioctl_node_info_for_ref(t->fd, &info));
		break;
	case CODE_GET_STASHED:
		kbinder_parcel_write_handle(reply, stash, 0, false);
		break;
	}
	return KBT_REPLY;
}

/* Reference events seen by the node owner, in order. */
struct rec {
	int n;
	uint32_t cmd[32];
	struct binder_ptr_cookie pc[32];
};

static int record(struct kbinder_thread *t, const struct kbinder_return *ret, void *arg)
{
	struct rec *r = arg;

	switch (ret->cmd) {
	case BR_INCREFS:
	case BR_ACQUIRE:
	case BR_RELEASE:
	case BR_DECREFS:
		if (r->n < 32) {
			r->cmd[r->n] = ret->cmd;
			r->pc[r->n] = ret->u.ptr_cookie;
			r->n++;
		}
		break;
	default:
		break;
	}
	return kbt_default_event(t, ret, NULL);
}

/*
 * Read events for @ms, recording reference events. Only the end of the
 * wait ends it: a driver error fails the test (an error is not silence).
 */
static void collect(struct kbinder_thread *t, struct rec *r, int ms)
{
	int64_t deadline = kbt_now_ms() + ms;
	struct kbinder_return ret;

	while (kbt_quiet_next(__FILE__, __LINE__, t, &ret, deadline))
		record(t, &ret, r);
}

/* Wait (up to 10 s) until @r holds @n events; a driver error fails. */
static void collect_until(struct kbinder_thread *t, struct rec *r, int n)
{
	int64_t deadline = kbt_now_ms() + KBT_WAIT_MS;
	struct kbinder_return ret;

	while (r->n < n && kbt_quiet_next(__FILE__, __LINE__, t, &ret, deadline))
		record(t, &ret, r);
	ASSERT_GE(r->n, n);
}

#define ASSERT_EVENT(r, i, c) do {					\
	ASSERT_GT((r)->n, (i));						\
	if ((r)->cmd[i] != (c))						\
		kbt_fail(__FILE__, __LINE__, true, "event %d is %s, want %s", \
			 (i), kbinder_return_name((r)->cmd[i]), kbinder_return_name(c)); \
	ASSERT_EQ((r)->pc[i].ptr, NODE_PTR);				\
	ASSERT_EQ((r)->pc[i].cookie, NODE_COOKIE);			\
} while (0)

static void call(struct kbinder_thread *t, uint32_t code, struct kbinder_parcel *data,
		 struct rec *r, struct kbinder_reply *reply)
{
	ASSERT_OK(kbinder_thread_transact(t, 0, code, data, 0, reply, record, r, KBT_WAIT_MS));
	ASSERT_EQ(reply->status, BR_REPLY);
}

static void call_apply(struct kbinder_thread *t, uint32_t bc, struct rec *r)
{
	struct kbinder_parcel data;
	struct kbinder_reply reply;

	kbinder_parcel_init(&data);
	kbinder_parcel_write_u32(&data, bc);
	call(t, CODE_APPLY, &data, r, &reply);
	ASSERT_OK(kbinder_thread_free_buffer(t, reply.txn.data.ptr.buffer));
	kbinder_parcel_fini(&data);
}

/* Start the server, become a looper, hand our node to the server. */
static void setup(struct kbt_pair *pair, struct rec *r)
{
	struct kbinder_thread *t = &pair->t;
	struct kbinder_parcel data;
	struct kbinder_reply reply;

	kbt_pair_start(pair, ref_server, NULL);
	ASSERT_OK(kbinder_thread_enter_looper(t));
	memset(r, 0, sizeof(*r));
	kbinder_parcel_init(&data);
	kbinder_parcel_write_binder(&data, NODE_PTR, NODE_COOKIE, 0, false);
	call(t, CODE_STASH, &data, r, &reply);
	ASSERT_OK(kbinder_thread_free_buffer(t, reply.txn.data.ptr.buffer));
	kbinder_parcel_fini(&data);
}

static void node_debug(int fd, binder_uintptr_t after,
		       struct binder_node_debug_info *info)
{
	memset(info, 0, sizeof(*info));
	info->ptr = after;
	ASSERT_OK(kbinder_ioctl_node_debug_info(fd, info));
}

TEST(first_strong_ref_sends_increfs_then_acquire)
{
	struct kbt_pair pair;
	struct rec r;

	setup(&pair, &r);
	ASSERT_EQ(r.n, 2);
	ASSERT_EVENT(&r, 0, BR_INCREFS);
	ASSERT_EVENT(&r, 1, BR_ACQUIRE);
	/* nothing more while the server holds its reference */
	collect(&pair.t, &r, 200);
	ASSERT_EQ(r.n, 2);
	kbt_pair_stop(&pair);
}

TEST(node_debug_info_lists_node_state)
{
	struct kbt_pair pair;
	struct rec r;
	struct binder_node_debug_info info;

	setup(&pair, &r);
	node_debug(pair.p.fd, 0, &info);
	ASSERT_EQ(info.ptr, NODE_PTR);
	ASSERT_EQ(info.cookie, NODE_COOKIE);
	ASSERT_EQ(info.has_strong_ref, 1);
	ASSERT_EQ(info.has_weak_ref, 1);
	node_debug(pair.p.fd, NODE_PTR, &info);
	ASSERT_EQ(info.ptr, 0);		/* the end of the list */
	kbt_pair_stop(&pair);
}

TEST(last_release_sends_release_then_decrefs_and_frees_node)
{
	struct kbt_pair pair;
	struct rec r;
	struct binder_node_debug_info info;

	setup(&pair, &r);
	call_apply(&pair.t, BC_RELEASE, &r);
	collect_until(&pair.t, &r, 4);
	ASSERT_EVENT(&r, 2, BR_RELEASE);
	ASSERT_EVENT(&r, 3, BR_DECREFS);
	collect(&pair.t, &r, 100);
	ASSERT_EQ(r.n, 4);
	/* after BR_DECREFS the node is gone */
	node_debug(pair.p.fd, 0, &info);
	ASSERT_EQ(info.ptr, 0);
	kbt_pair_stop(&pair);
}

TEST(weak_reference_keeps_node_until_decrefs)
{
	struct kbt_pair pair;
	struct rec r;
	struct binder_node_debug_info info;

	setup(&pair, &r);
	call_apply(&pair.t, BC_INCREFS, &r);
	call_apply(&pair.t, BC_RELEASE, &r);
	collect_until(&pair.t, &r, 3);
	ASSERT_EVENT(&r, 2, BR_RELEASE);
	collect(&pair.t, &r, 300);
	ASSERT_EQ(r.n, 3);		/* no BR_DECREFS: still weakly held */
	node_debug(pair.p.fd, 0, &info);
	ASSERT_EQ(info.ptr, NODE_PTR);
	ASSERT_EQ(info.has_strong_ref, 0);
	ASSERT_EQ(info.has_weak_ref, 1);
	call_apply(&pair.t, BC_DECREFS, &r);
	collect_until(&pair.t, &r, 4);
	ASSERT_EVENT(&r, 3, BR_DECREFS);
	node_debug(pair.p.fd, 0, &info);
	ASSERT_EQ(info.ptr, 0);
	kbt_pair_stop(&pair);
}

TEST(strong_count_on_a_handle_is_counted)
{
	struct kbt_pair pair;
	struct rec r;

	setup(&pair, &r);
	call_apply(&pair.t, BC_ACQUIRE, &r);	/* the handle now holds 2 */
	call_apply(&pair.t, BC_RELEASE, &r);
	collect(&pair.t, &r, 300);
	ASSERT_EQ(r.n, 2);		/* one left: no BR_RELEASE */
	call_apply(&pair.t, BC_RELEASE, &r);
	collect_until(&pair.t, &r, 3);
	ASSERT_EVENT(&r, 2, BR_RELEASE);
	kbt_pair_stop(&pair);
}

/*
 * Once a node lost its last strong reference, a weak holder cannot make it
 * strong again with BC_ACQUIRE (only the owner may revive it): the
 * reference refuses, and the owner is not asked.
 */
TEST(strong_ref_cannot_be_revived_from_weak)
{
	struct kbt_pair pair;
	struct rec r;
	struct kbinder_reply reply;

	setup(&pair, &r);
	call_apply(&pair.t, BC_INCREFS, &r);	/* keep the ref alive weakly */
	call_apply(&pair.t, BC_RELEASE, &r);
	collect_until(&pair.t, &r, 3);
	ASSERT_EVENT(&r, 2, BR_RELEASE);
	call_apply(&pair.t, BC_ACQUIRE, &r);
	collect(&pair.t, &r, 300);
	ASSERT_EQ(r.n, 3);
	/* and the handle has no strong reference to look the node up by */
	call(&pair.t, CODE_INFO, NULL, &r, &reply);
	ASSERT_EQ((int32_t)kbt_txn_u32(&reply.txn, 0), -EINVAL);
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, reply.txn.data.ptr.buffer));
	kbt_pair_stop(&pair);
}

static void info(struct kbinder_thread *t, struct rec *r, uint32_t *strong,
		 uint32_t *weak)
{
	struct kbinder_reply reply;

	call(t, CODE_INFO, NULL, r, &reply);
	ASSERT_EQ(kbt_txn_u32(&reply.txn, 0), 0);
	*strong = kbt_txn_u32(&reply.txn, 1);
	*weak = kbt_txn_u32(&reply.txn, 2);
	ASSERT_OK(kbinder_thread_free_buffer(t, reply.txn.data.ptr.buffer));
}

static void third_holder(struct kbinder_thread *t, void *arg)
{
	struct kbt_chan *chan = arg;
	struct kbinder_reply reply;
	struct flat_binder_object obj;

	kbt_call(t, 0, CODE_GET_STASHED, NULL, &reply);
	kbt_txn_object(&reply.txn, 0, &obj);
	ASSERT_OK(kbinder_thread_ref(t, BC_ACQUIRE, obj.handle));
	ASSERT_OK(kbinder_thread_free_buffer(t, reply.txn.data.ptr.buffer));
	ASSERT_SIGNAL(chan, 'A');
	ASSERT_WAIT(chan, 'R');
	ASSERT_OK(kbinder_thread_ref(t, BC_RELEASE, obj.handle));
	ASSERT_SIGNAL(chan, 'D');
	ASSERT_WAIT(chan, 'X');
}

TEST(node_info_for_ref_counts_strong_holders)
{
	struct kbt_pair pair;
	struct kbt_chan chan;
	struct rec r;
	uint32_t strong, weak;
	pid_t b;

	setup(&pair, &r);
	info(&pair.t, &r, &strong, &weak);
	ASSERT_EQ(strong, 1);		/* the manager's handle */
	ASSERT_EQ(weak, 0);		/* acknowledged: no local weak refs */
	kbt_chan_init(&chan);
	b = kbt_fork_client(third_holder, &chan);
	ASSERT_WAIT(&chan, 'A');
	info(&pair.t, &r, &strong, &weak);
	ASSERT_EQ(strong, 2);		/* and the third process's */
	ASSERT_SIGNAL(&chan, 'R');
	ASSERT_WAIT(&chan, 'D');
	info(&pair.t, &r, &strong, &weak);
	ASSERT_EQ(strong, 1);
	ASSERT_SIGNAL(&chan, 'X');
	ASSERT_CHILD_OK(b);
	kbt_pair_stop(&pair);
	kbt_chan_close(&chan);
}

TEST(node_info_for_ref_is_for_the_context_manager_only)
{
	struct kbt_pair pair;
	struct rec r;
	struct kbinder_reply reply;
	struct binder_node_info_for_ref in;

	setup(&pair, &r);
	memset(&in, 0, sizeof(in));
	ASSERT_OK(kbinder_thread_ref(&pair.t, BC_INCREFS, 0));	/* a ref to handle 0 */
	ASSERT_EQ(kbinder_ioctl_node_info_for_ref(pair.p.fd, &in), -EPERM);
	call(&pair.t, CODE_INFO_BAD, NULL, &r, &reply);
	ASSERT_EQ((int32_t)kbt_txn_u32(&reply.txn, 0), -EINVAL);
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, reply.txn.data.ptr.buffer));
	ASSERT_OK(kbinder_thread_ref(&pair.t, BC_DECREFS, 0));
	kbt_pair_stop(&pair);
}

/* When the holder dies, its references go and the owner hears of it. */
TEST(dying_holder_releases_its_references)
{
	struct kbt_pair pair;
	struct rec r;
	struct binder_node_debug_info info;

	setup(&pair, &r);
	kbt_stop_ctxmgr(&pair.t, &pair.mgr);	/* the holder exits */
	collect_until(&pair.t, &r, 4);
	ASSERT_EVENT(&r, 2, BR_RELEASE);
	ASSERT_EVENT(&r, 3, BR_DECREFS);
	node_debug(pair.p.fd, 0, &info);
	ASSERT_EQ(info.ptr, 0);
	kbinder_proc_close(&pair.p);
}

/* Sending the same node again does not ask for references again. */
TEST(known_node_sent_again_sends_no_new_increfs)
{
	struct kbt_pair pair;
	struct rec r;
	struct kbinder_parcel data;
	struct kbinder_reply reply;

	setup(&pair, &r);
	kbinder_parcel_init(&data);
	kbinder_parcel_write_binder(&data, NODE_PTR, NODE_COOKIE, 0, false);
	call(&pair.t, CODE_STASH, &data, &r, &reply);	/* acquires once more */
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, reply.txn.data.ptr.buffer));
	collect(&pair.t, &r, 200);
	ASSERT_EQ(r.n, 2);
	kbinder_parcel_fini(&data);
	kbt_pair_stop(&pair);
}
