// SPDX-License-Identifier: Apache-2.0
/*
 * Security regression (issue 29): a call does not walk a list an
 * attacker grows, under a spinlock. Two walks did, each on every call:
 *
 * - a synchronous call looked for a call queued on the sender's own todo
 *   list (it may not be sent while one waits there) by walking that list
 *   under its process's lock, and each one-way call the sender makes
 *   without reading leaves its BR_TRANSACTION_COMPLETE there: the walk
 *   was as long as the completions the sender left unread;
 * - BINDER_GET_NODE_DEBUG_INFO walked the process's nodes from the first
 *   to the one after the pointer it was given (upstream does the same).
 *
 * One such walk is left, as upstream has it: a TF_UPDATE_TXN one-way call
 * to a frozen process looks through its node's queue of waiting one-way
 * calls for the one it supersedes (kb_node_take_outdated_locked()).
 *
 * Measured against the same call without the long list, alternating, in
 * one run (the same one-way calls made before both, read before the short
 * case only): a walk made the long case many times dearer, a lookup leaves
 * the two alike, whatever the host's load does to both.
 */
#include "binder_util.h"

#include <time.h>

#define CODE_CALL 1
#define CODE_MARK 2		/* one-way: the manager signals it read it */
#define BATCH 128		/* one-way calls per write, then a mark */
#define ROUNDS 7
#define BOUND 3			/* the long case within BOUND x the short */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

/* The manager: a mark is signalled, so the sender knows all before it are read. */
static int count_marks(struct kbinder_thread *t,
		       const struct binder_transaction_data *tr,
		       struct kbinder_parcel *reply, void *arg)
{
	(void)t;
	(void)reply;
	if (tr->code == CODE_MARK)
		EXPECT_OK(kbt_signal(arg, 'M'));
	return KBT_REPLY;
}

static void put_call(struct kbinder_writer *w, uint32_t code, uint32_t flags,
		     const uint32_t *word)
{
	struct binder_transaction_data tr = {
		.code = code,
		.flags = flags,
		.data_size = sizeof(*word),
		.data.ptr.buffer = (binder_uintptr_t)(uintptr_t)word,
	};

	ASSERT_OK(kbinder_writer_put_txn(w, BC_TRANSACTION, &tr));
}

/*
 * Leave @n BR_TRANSACTION_COMPLETE unread on this thread: one-way calls
 * to the manager, in batches it reads before the next is sent (its async
 * space stays free).
 */
static int leave_completions(struct kbt_pair *w, struct kbt_chan *marks,
			     int n)
{
	static uint8_t cmds[(BATCH + 1) * 80];
	static const uint32_t word = 0x0e;
	struct kbinder_writer wr;
	int i, j;

	for (i = 0; i < n; i += BATCH + 1) {
		kbinder_writer_init(&wr, cmds, sizeof(cmds));
		for (j = 0; j < BATCH; j++)
			put_call(&wr, CODE_CALL, TF_ONE_WAY, &word);
		put_call(&wr, CODE_MARK, TF_ONE_WAY, &word);
		ASSERT_OK(kbinder_ioctl_write(w->p.fd, cmds, wr.len, NULL));
		ASSERT_WAIT(marks, 'M');
	}
	return i;
}

/* Read the @n completions left on this thread. */
static void read_completions(struct kbt_pair *w, int n)
{
	struct kbinder_return ret;

	while (n > 0) {
		ASSERT_OK(kbinder_thread_next(&w->t, &ret, KBT_WAIT_MS));
		if (ret.cmd == BR_TRANSACTION_COMPLETE)
			n--;
		else
			kbt_default_event(&w->t, &ret, NULL);
	}
}

/*
 * Write one synchronous call, reading nothing, and time the write; then
 * read up to its reply (and every completion before it).
 */
static uint64_t timed_sync_call(struct kbt_pair *w)
{
	static const uint32_t word = 0x5c;
	struct kbinder_return ret;
	struct kbinder_writer wr;
	uint8_t cmds[80];
	uint64_t t0, took;

	kbinder_writer_init(&wr, cmds, sizeof(cmds));
	put_call(&wr, CODE_CALL, 0, &word);
	t0 = now_ns();
	ASSERT_OK(kbinder_ioctl_write(w->p.fd, cmds, wr.len, NULL));
	took = now_ns() - t0;
	for (;;) {
		ASSERT_OK(kbinder_thread_next(&w->t, &ret, KBT_WAIT_MS));
		if (ret.cmd == BR_REPLY)
			break;
		if (ret.cmd != BR_TRANSACTION_COMPLETE)
			kbt_default_event(&w->t, &ret, NULL);
	}
	ASSERT_OK(kbinder_thread_free_buffer(&w->t, ret.u.txn.data.ptr.buffer));
	return took;
}

TEST_TIMEOUT(a_sync_call_costs_the_same_behind_unread_completions, 120)
{
	int n = kbt_slow_kernel() ? 4000 : 20000;
	uint64_t bare[ROUNDS], behind[ROUNDS], b, l;
	struct kbt_chan marks;
	struct kbt_pair w;
	int r;

	kbt_chan_init(&marks);
	kbt_pair_start(&w, count_marks, &marks);
	timed_sync_call(&w);	/* the first call sets up what every one reuses */
	for (r = 0; r < ROUNDS; r++) {
		/* The same calls before both: only the unread list differs. */
		read_completions(&w, leave_completions(&w, &marks, n));
		bare[r] = timed_sync_call(&w);
		leave_completions(&w, &marks, n);
		behind[r] = timed_sync_call(&w);
	}
	b = median(bare, ROUNDS);
	l = median(behind, ROUNDS);
	kbt_log("a synchronous call's write: %llu ns alone, %llu ns behind %d unread completions (medians of %d)",
		(unsigned long long)b, (unsigned long long)l, n, ROUNDS);
	EXPECT_LE(l, BOUND * b);
	kbt_pair_stop(&w);
	kbt_chan_close(&marks);
}

/* The manager keeps every buffer, and with it every node it carries. */
static int keep_buffers(struct kbinder_thread *t,
			const struct binder_transaction_data *tr,
			struct kbinder_parcel *reply, void *arg)
{
	(void)t;
	(void)tr;
	(void)arg;
	kbinder_parcel_write_u32(reply, 1);
	return KBT_REPLY | KBT_KEPT;
}

#define NODE_PTR(i) ((binder_uintptr_t)0x7000000 + (binder_uintptr_t)(i) * 16)
#define NODES_PER_CALL 4000
#define LOOKUPS 20

/* Time @LOOKUPS BINDER_GET_NODE_DEBUG_INFO after @ptr; each must find @want. */
static uint64_t timed_lookups(int fd, binder_uintptr_t ptr,
			      binder_uintptr_t want)
{
	struct binder_node_debug_info info;
	uint64_t t0 = now_ns(), took;
	int i;

	for (i = 0; i < LOOKUPS; i++) {
		memset(&info, 0, sizeof(info));
		info.ptr = ptr;
		ASSERT_OK(kbinder_ioctl_node_debug_info(fd, &info));
		ASSERT_EQ(info.ptr, want);
	}
	took = now_ns() - t0;
	return took;
}

TEST_TIMEOUT(node_debug_info_costs_the_same_for_any_pointer, 120)
{
	int n = kbt_slow_kernel() ? 4000 : 20000;
	uint64_t first[ROUNDS * 3], last[ROUNDS * 3], f, l;
	struct kbinder_parcel data;
	struct kbinder_reply rep;
	struct kbt_pair w;
	int i, j;

	REQUIRE_KBINDER("upstream walks the nodes from the first one");
	kbt_pair_start(&w, keep_buffers, NULL);
	for (i = 0; i < n; i += NODES_PER_CALL) {
		kbinder_parcel_init(&data);
		for (j = i; j < i + NODES_PER_CALL && j < n; j++)
			kbinder_parcel_write_binder(&data, NODE_PTR(j), 0, 0, true);
		kbt_call(&w.t, 0, CODE_CALL, &data, &rep);
		ASSERT_OK(kbinder_thread_free_buffer(&w.t, rep.txn.data.ptr.buffer));
		kbinder_parcel_fini(&data);
	}
	for (i = 0; i < ROUNDS * 3; i++) {
		first[i] = timed_lookups(w.p.fd, 0, NODE_PTR(0));
		last[i] = timed_lookups(w.p.fd, NODE_PTR(n - 1) - 1,
					NODE_PTR(n - 1));
	}
	f = median(first, ROUNDS * 3);
	l = median(last, ROUNDS * 3);
	kbt_log("%d lookups among %d nodes: %llu ns for the first node, %llu ns for the last (medians of %d)",
		LOOKUPS, n, (unsigned long long)f, (unsigned long long)l,
		ROUNDS * 3);
	EXPECT_LE(l, BOUND * f);
	kbt_pair_stop(&w);
}
