// SPDX-License-Identifier: Apache-2.0
/*
 * Security regression (issue 20, item 7), kbinder only:
 * BC_DEAD_BINDER_DONE finds its notice in O(log n). It walked the
 * delivered list from its head under the process's inner_lock, so
 * acknowledging K delivered notices, last first, took K^2/2 steps under
 * a spinlock. Upstream walks the list too.
 *
 * The cost is measured against itself, in the same run. K notices are
 * delivered; then, ROUNDS times, the last C still unacknowledged are
 * acknowledged last first (for a walk from the head, each one is behind
 * every notice left: at least 2C steps) and the first C in the order
 * delivered (each at the head: one step), C = K / (2 ROUNDS), each batch
 * in one write. A lookup by key costs the same in both orders. The
 * cheapest batch of the worst order may cost at most WORST_RATIO times the
 * cheapest of the best: a stall of a loaded host only ever adds to a
 * batch, and the cheapest of ten is the one it spared. No wall-clock
 * bound.
 */
#include "binder_util.h"

#include <signal.h>
#include <stdint.h>
#include <time.h>

#define K 50000		/* on the debug kernel (kbt_slow_kernel()) K / 5 */
#define BATCH 10000
#define D_NODE(i) ((binder_uintptr_t)0x1000000 + (binder_uintptr_t)(i) * 16)
#define ROUNDS 10
#define WORST_RATIO 4

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

static int64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/*
 * Acknowledge cookies[from..to) in one write, in that order (@step 1) or
 * the reverse (@step -1); the time it took, in us.
 */
static int64_t ack(struct kbinder_proc *p, const binder_uintptr_t *cookies,
		   int from, int to, int step, uint8_t *cmds, size_t cap)
{
	struct kbinder_writer w;
	int64_t t0;
	int i;

	kbinder_writer_init(&w, cmds, cap);
	for (i = step > 0 ? from : to - 1; i >= from && i < to; i += step)
		kbinder_writer_put_dead_binder_done(&w, cookies[i]);
	ASSERT_OK(w.err);
	t0 = now_us();
	ASSERT_OK(kbinder_ioctl_write(p->fd, cmds, w.len, NULL));
	return now_us() - t0;
}

TEST_TIMEOUT(dead_binder_done_does_not_walk_the_delivered_list, 200)
{
	binder_uintptr_t *cookies;
	size_t cap;
	uint8_t *cmds;
	struct kbinder_parcel empty;
	struct kbinder_return ret;
	struct kbt_chan chan;
	struct kbinder_thread t;
	struct kbinder_proc p;
	int64_t worst = INT64_MAX, best = INT64_MAX, us;
	int n = 0, head, tail, round, batch;
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
	batch = k / (2 * ROUNDS);
	head = 0;
	tail = k;
	for (round = 0; round < ROUNDS; round++) {
		/* The last left, last delivered first: the worst case for a walk. */
		us = ack(&p, cookies, tail - batch, tail, -1, cmds, cap);
		tail -= batch;
		worst = us < worst ? us : worst;
		/* The first left, as delivered: each at the head, the best case. */
		us = ack(&p, cookies, head, head + batch, 1, cmds, cap);
		head += batch;
		best = us < best ? us : best;
	}
	kbt_log("%d rounds of %d BC_DEAD_BINDER_DONE each way: the cheapest batch "
		"last delivered first %lld us, first delivered first %lld us",
		ROUNDS, batch, (long long)worst, (long long)best);
	EXPECT_LE(worst, WORST_RATIO * best);
	/* every notice was acknowledged: nothing is left to read but noops */
	while (!kbinder_thread_next(&t, &ret, 0))
		EXPECT_EQ(ret.cmd, BR_NOOP);
	free(cmds);
	free(cookies);
	kbinder_proc_close(&p);
}
