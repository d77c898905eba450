// SPDX-License-Identifier: Apache-2.0
/*
 * Security regression (issue 20, item 7), kbinder only:
 * BC_DEAD_BINDER_DONE finds its notice in O(log n). It walked the
 * delivered list from its head under the process's inner_lock, so
 * acknowledging K delivered notices, last first, took K^2/2 steps under
 * a spinlock. Upstream walks the list too.
 */
#include "binder_util.h"

#include <signal.h>

#define K 50000		/* on the debug kernel (kbt_slow_kernel()) K / 5 */
#define BATCH 10000
#define D_NODE(i) ((binder_uintptr_t)0x1000000 + (binder_uintptr_t)(i) * 16)
#define BOUND_MS 5000

static int k;	/* the notices of this run: K, or K / 5 on a slow kernel */

/* D: sends k objects of its own to the manager, then waits to be killed. */
static void d_main(void *arg)
{
	struct kbt_chan *chan = arg;
	struct kbinder_parcel data;
	struct kbinder_thread t;
	struct kbinder_proc p;
	struct kbinder_reply r;
	int i, j;

	kbt_client(&p, &t);
	for (i = 0; i < k; i += BATCH) {
		kbinder_parcel_init(&data);
		for (j = 0; j < BATCH; j++)
			kbinder_parcel_write_binder(&data, D_NODE(i + j), 0, 0, true);
		kbt_call(&t, 0, 1, &data, &r);
		ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));
		kbinder_parcel_fini(&data);
	}
	ASSERT_SIGNAL(chan, 'D');
	for (;;)
		pause();
}

TEST_TIMEOUT(dead_binder_done_does_not_walk_the_delivered_list, 200)
{
	binder_uintptr_t *cookies;
	size_t cap;
	uint8_t *cmds;
	struct kbinder_parcel empty;
	struct kbinder_return ret;
	struct kbt_chan chan;
	struct kbinder_writer w;
	struct kbinder_thread t;
	struct kbinder_proc p;
	int64_t t0, took;
	int n = 0, i;
	pid_t d;
	char c;

	REQUIRE_KBINDER("upstream walks the delivered list too");
	k = kbt_slow_kernel() ? K / 5 : K;
	cookies = calloc(k, sizeof(*cookies));
	cap = (size_t)k * 12 + 16;
	cmds = malloc(cap);
	ASSERT_TRUE(cookies && cmds);
	kbt_manager(&p, &t, NULL);
	kbt_chan_init(&chan);
	d = kbt_fork(d_main, &chan);
	kbinder_parcel_init(&empty);
	while (kbt_recv(&chan, &c, 1, 1)) {
		if (kbinder_thread_next(&t, &ret, 100))
			continue;
		if (ret.cmd != BR_TRANSACTION) {
			kbt_default_event(&t, &ret, NULL);
			continue;
		}
		kbt_watch_handles(&t, &ret.u.txn);
		ASSERT_OK(kbinder_thread_reply(&t, &empty, 0, KBT_WAIT_MS));
		ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	}
	kbinder_parcel_fini(&empty);
	ASSERT_EQ(kbt_kill(d), 128 + SIGKILL);
	kbt_chan_close(&chan);
	while (n < k) {
		ASSERT_OK(kbinder_thread_next(&t, &ret, KBT_WAIT_MS));
		if (ret.cmd == BR_DEAD_BINDER)
			cookies[n++] = ret.u.cookie;
		else if (ret.cmd != BR_NOOP)
			kbt_default_event(&t, &ret, NULL);
	}
	/* Last delivered first: the worst case for a walk from the head. */
	kbinder_writer_init(&w, cmds, cap);
	for (i = k - 1; i >= 0; i--)
		kbinder_writer_put_dead_binder_done(&w, cookies[i]);
	ASSERT_OK(w.err);
	t0 = kbt_now_ms();
	ASSERT_OK(kbinder_ioctl_write(p.fd, cmds, w.len, NULL));
	took = kbt_now_ms() - t0;
	kbt_log("%d BC_DEAD_BINDER_DONE, last delivered first: %lld ms", k,
		(long long)took);
	EXPECT_LE(took, BOUND_MS);
	free(cmds);
	free(cookies);
	kbinder_proc_close(&p);
}
