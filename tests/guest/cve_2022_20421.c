// SPDX-License-Identifier: Apache-2.0
/*
 * CVE-2022-20421: sending a BINDER_TYPE_WEAK_HANDLE can fail to take the
 * weak reference on the node (upstream refuses a weak increment on a node
 * that never got its BR_INCREFS delivered and has no work queued: a dead
 * node whose owner never read its todo list). The new reference created in
 * the target for it was then cleaned up without the target's lock while
 * the target was being released in parallel, leaving a reference whose
 * process had been freed.
 *
 * The tests build that node: an owner registers it with a one-way call and
 * exits without reading, so the node dies unacknowledged while the
 * registry holds it. The test process gets a handle to it and sends it as
 * a weak handle to a live target (must fail cleanly or succeed, never
 * corrupt), then to targets killed at the moment of sending, many times.
 * Every outcome must be one of the protocol's replies, the kernel log
 * clean, and the process and registry still usable; the live target's own
 * node must be released exactly once at the end (nothing leaked in it).
 */
#include "cve_common.h"

#define DEAD_SLOT 0
#define TARGET_SLOT 1

/* A dead node, unacknowledged by its owner, held by the registry. */
static void dead_unacked_node(struct kbinder_thread *t)
{
	int64_t deadline = kbt_now_ms() + 5000;
	struct cve_owner o;

	cve_owner_start(&o, DEAD_SLOT, 0xdead0000, true);
	while (cve_info(t, DEAD_SLOT).err) {
		ASSERT_FALSE(cve_deadline_passed(deadline));
		kbt_msleep(2);
	}
	ASSERT_SIGNAL(&o.chan, 'x');
	ASSERT_CHILD_OK(o.pid);
	kbt_chan_close(&o.chan);
}

/*
 * The registry, this process its client, and a dead unacknowledged node
 * it holds a handle to (@h; the reference lives in @dead_get).
 */
struct world {
	struct cve_server s;
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_reply dead_get;
	uint32_t h;
};

static void world_up(struct world *w)
{
	int64_t h;

	cve_registry_start(&w->s);
	kbt_client(&w->p, &w->t);
	dead_unacked_node(&w->t);
	h = cve_get(&w->t, DEAD_SLOT, &w->dead_get);
	ASSERT_GE(h, 0);
	w->h = (uint32_t)h;
}

static uint32_t send_weak(struct kbinder_thread *t, uint32_t target,
			  uint32_t handle, uint32_t flags)
{
	uint8_t data[2 * CVE_FLAT_SIZE];
	binder_size_t offs[2] = { 0, CVE_FLAT_SIZE };
	struct kbt_txn x = {
		.handle = target, .code = 1, .flags = flags, .data = data,
		.size = sizeof(data), .offs = offs, .offs_size = sizeof(offs),
	};

	cve_put_flat(data, 0, BINDER_TYPE_WEAK_HANDLE, handle, 0);
	cve_put_flat(data, CVE_FLAT_SIZE, BINDER_TYPE_WEAK_HANDLE, handle, 0);
	return kbt_transact(t, &x, NULL);
}

static bool acceptable(uint32_t st)
{
	return st == BR_REPLY || st == BR_TRANSACTION_COMPLETE ||
	       st == BR_FAILED_REPLY || st == BR_DEAD_REPLY;
}

TEST(weak_handle_to_unacknowledged_dead_node_fails_cleanly)
{
	struct kbinder_reply target_get;
	struct cve_owner target;
	struct world w;
	int64_t ht;

	world_up(&w);
	cve_owner_start(&target, TARGET_SLOT, 0x7a7a0000, false);
	ht = cve_get(&w.t, TARGET_SLOT, &target_get);
	ASSERT_GE(ht, 0);
	for (int i = 0; i < 10; i++) {
		uint32_t st = send_weak(&w.t, (uint32_t)ht, w.h,
					i & 1 ? TF_ONE_WAY : 0);

		if (!acceptable(st))
			kbt_fail(__FILE__, __LINE__, true, "weak handle: %s",
				 kbinder_return_name(st));
		if (i == 0)
			kbt_log("weak handle to a dead unacknowledged node: %s",
				kbinder_return_name(st));
	}
	cve_ping(&w.t, 0);
	/* everyone lets go; the target's node is released exactly once */
	ASSERT_OK(kbinder_thread_free_buffer(&w.t, target_get.txn.data.ptr.buffer));
	ASSERT_OK(kbinder_thread_free_buffer(&w.t, w.dead_get.txn.data.ptr.buffer));
	cve_drop(&w.t, TARGET_SLOT);
	cve_drop(&w.t, DEAD_SLOT);
	cve_owner_expect_released(&target);
	cve_owner_stop(&target);
	cve_server_stop(&w.t, &w.s);
	kbinder_proc_close(&w.p);
}

TEST_TIMEOUT(failed_weak_handle_races_target_release, 90)
{
	struct kbinder_reply target_get;
	struct cve_owner target;
	struct world w;
	int n[4] = { 0 };
	int64_t ht;

	world_up(&w);
	for (int i = 0; i < 25; i++) {
		uint32_t st;

		cve_owner_start(&target, TARGET_SLOT,
				0x7b000000 + (binder_uintptr_t)i * 0x100, false);
		ht = cve_get(&w.t, TARGET_SLOT, &target_get);
		ASSERT_GE(ht, 0);
		/* the target dies while the weak handle is on its way */
		kill(target.pid, SIGKILL);
		if (i % 3 == 1)
			kbt_msleep(1);
		st = send_weak(&w.t, (uint32_t)ht, w.h, i & 1 ? TF_ONE_WAY : 0);
		if (!acceptable(st))
			kbt_fail(__FILE__, __LINE__, true, "round %d: %s", i,
				 kbinder_return_name(st));
		n[st == BR_DEAD_REPLY ? 0 : st == BR_FAILED_REPLY ? 1 : 2]++;
		ASSERT_EQ(kbt_reap(target.pid, 10000), 128 + SIGKILL);
		kbt_chan_close(&target.chan);
		ASSERT_OK(kbinder_thread_free_buffer(&w.t, target_get.txn.data.ptr.buffer));
		cve_drop(&w.t, TARGET_SLOT);
	}
	kbt_log("dead %d, failed %d, delivered %d", n[0], n[1], n[2]);
	cve_ping(&w.t, 0);
	ASSERT_OK(kbinder_thread_free_buffer(&w.t, w.dead_get.txn.data.ptr.buffer));
	cve_drop(&w.t, DEAD_SLOT);
	cve_server_stop(&w.t, &w.s);
	kbinder_proc_close(&w.p);
}
