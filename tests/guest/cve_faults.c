// SPDX-License-Identifier: Apache-2.0
/*
 * Fault tests of the hardening issue that need no fault injection: the
 * target dies in the middle of a transaction, a thread exits with
 * transactions on its stack, and the receive area fills up. (This file is
 * named cve_* because the regression programs own that prefix; the tests
 * are named fault_*.)
 *
 * Each asserts the protocol outcome upstream gives (BR_DEAD_REPLY to a
 * caller whose target or serving thread went away, BR_TRANSACTION_COMPLETE
 * to a reply whose caller's thread went away, BR_FAILED_REPLY when the area or
 * its one-way half is full), a clean kernel log, and that everything keeps
 * working afterwards (new calls succeed, freed space is usable again).
 */
#include "cve_common.h"

enum {
	CODE_HANG = 1,		/* the server signals 'H' and never answers */
	CODE_EXIT_THREAD,	/* the serving thread exits without replying */
	CODE_SLOW,		/* signals 'S', waits for 'G', replies, sends
				 * the reply's result (int) back */
	CODE_KEEP,		/* kept while the server is in keeping mode */
	CODE_NEST,		/* calls back the node in object 0, then
				 * replies; sends both outcomes back */
};

/* ---------------------------------------------------------------- */
/* the target dies mid-transaction                                  */
/* ---------------------------------------------------------------- */

static int hang_fn(struct kbinder_thread *t, const struct binder_transaction_data *tr,
		   struct kbinder_parcel *reply, void *arg)
{
	struct kbt_server *s = arg;

	(void)t;
	(void)reply;
	if (tr->code == CODE_HANG) {
		kbt_signal(&s->chan, 'H');
		for (;;)
			pause();
	}
	return KBT_REPLY;
}

/* A context manager that never reads. */
static void deaf_main(void *arg)
{
	struct kbt_server *s = arg;
	struct kbinder_thread t;
	struct kbinder_proc p;

	kbt_manager(&p, &t, NULL);
	ASSERT_SIGNAL(&s->chan, 'R');
	for (;;)
		pause();
}

static void call_then_kill(struct kbt_server *s, struct kbinder_thread *t,
			   bool delivered)
{
	struct kbt_txn x = { .code = CODE_HANG };

	kbt_write_txn(t->fd, &x);
	if (delivered)
		ASSERT_WAIT(&s->chan, 'H');
	else
		kbt_msleep(20);
	ASSERT_EQ(kbt_kill(s->pid), 128 + SIGKILL);
	kbt_chan_close(&s->chan);
	ASSERT_STATUS(kbt_outcome(t, false, NULL, KBT_WAIT_MS), BR_DEAD_REPLY);
}

TEST(fault_target_dies_mid_transaction)
{
	struct kbt_txn oneway = { .code = 1, .flags = TF_ONE_WAY };
	struct kbt_txn sync = { .code = 1 };
	struct kbt_server s;
	struct cve_server r;
	struct kbinder_thread t;
	struct kbinder_proc p;
	int round;

	kbt_client(&p, &t);
	for (round = 0; round < 3; round++) {
		/* the server got the call and dies before replying */
		memset(&s, 0, sizeof(s));
		kbt_start_ctxmgr(&s, hang_fn, &s);
		call_then_kill(&s, &t, true);
		/* the server dies with the call still queued, unread */
		memset(&s, 0, sizeof(s));
		kbt_start_child(&s, deaf_main);
		call_then_kill(&s, &t, false);
	}
	/* a dead target answers BR_DEAD_REPLY, sync and one-way */
	ASSERT_STATUS(kbt_transact(&t, &sync, NULL), BR_DEAD_REPLY);
	ASSERT_STATUS(kbt_transact(&t, &oneway, NULL), BR_DEAD_REPLY);
	/* and the caller is fine */
	cve_registry_start(&r);
	cve_ping(&t, 0);
	cve_server_stop(&t, &r);
	kbinder_proc_close(&p);
}

/* ---------------------------------------------------------------- */
/* a thread exits with transactions on its stack                    */
/* ---------------------------------------------------------------- */

static int exit_fn(struct kbinder_thread *t, const struct binder_transaction_data *tr,
		   struct kbinder_parcel *reply, void *arg)
{
	struct kbt_server *s = arg;
	binder_uintptr_t buf = tr->data.ptr.buffer;
	uint32_t code = tr->code;
	char tok;
	int ret;

	switch (code) {
	case CODE_EXIT_THREAD:
		/* leave with the caller's transaction on this thread */
		EXPECT_OK(kbinder_ioctl_thread_exit(t->fd));
		kbinder_thread_init(t, t->fd);
		EXPECT_OK(kbinder_thread_enter_looper(t));
		EXPECT_OK(kbinder_thread_free_buffer(t, buf));
		return KBT_REPLIED | KBT_KEPT;
	case CODE_SLOW:
		ASSERT_SIGNAL(&s->chan, 'S');
		ASSERT_OK(kbt_recv(&s->chan, &tok, 1, KBT_WAIT_MS));
		ret = kbinder_thread_reply(t, reply, 0, KBT_WAIT_MS);
		ASSERT_OK(kbt_send(&s->chan, &ret, sizeof(ret)));
		return KBT_REPLIED;
	case CODE_NEST: {
		struct flat_binder_object obj;
		struct kbt_txn back = { .code = CVE_PING };
		uint32_t res[2];

		kbt_txn_object(tr, 0, &obj);
		back.handle = obj.handle;
		res[0] = kbt_transact(t, &back, NULL);
		res[1] = (uint32_t)kbinder_thread_reply(t, reply, 0, KBT_WAIT_MS);
		ASSERT_OK(kbt_send(&s->chan, res, sizeof(res)));
		return KBT_REPLIED;
	}
	case CVE_PING:
		kbinder_parcel_write_u32(reply, CVE_PONG);
		return KBT_REPLY;
	default:
		return KBT_REPLY;
	}
}

/*
 * Nested: our call's handler calls back into us; the callback lands on our
 * waiting thread, which exits with both transactions on its stack. The
 * callback gets BR_DEAD_REPLY, the reply to our call finds nobody.
 */
static void nested_exit(struct kbt_server *s, struct kbinder_thread *t, int round)
{
	uint8_t data[CVE_FLAT_SIZE];
	binder_size_t off = 0;
	binder_uintptr_t ptr = 0xa5a50000 + (binder_uintptr_t)round * 0x100;
	struct kbt_txn x = { .code = CODE_NEST, .data = data, .size = sizeof(data),
			     .offs = &off, .offs_size = sizeof(off) };
	struct kbinder_return ret;
	uint32_t res[2];

	cve_put_flat(data, 0, BINDER_TYPE_BINDER, ptr, ptr);
	kbt_write_txn(t->fd, &x);
	for (;;) {
		ASSERT_OK(kbinder_thread_next(t, &ret, KBT_WAIT_MS));
		if (ret.cmd == BR_TRANSACTION)
			break;
		if (ret.cmd == BR_NOOP || ret.cmd == BR_TRANSACTION_COMPLETE)
			continue;
		kbt_default_event(t, &ret, NULL);
	}
	ASSERT_OK(kbinder_ioctl_thread_exit(t->fd));
	kbinder_thread_init(t, t->fd);
	ASSERT_OK(kbinder_thread_free_buffer(t, ret.u.txn.data.ptr.buffer));
	ASSERT_OK(kbt_recv(&s->chan, res, sizeof(res), KBT_WAIT_MS));
	ASSERT_STATUS(res[0], BR_DEAD_REPLY);
	ASSERT_EQ((int)res[1], 0);	/* BR_TRANSACTION_COMPLETE, as upstream */
}

TEST(fault_thread_exits_with_transaction_on_stack)
{
	struct kbt_txn x = { .code = CODE_EXIT_THREAD };
	struct kbt_pair pair;
	int round, ret;

	memset(&pair.mgr, 0, sizeof(pair.mgr));
	kbt_pair_start(&pair, exit_fn, &pair.mgr);
	for (round = 0; round < 5; round++) {
		/* the serving thread exits: the caller gets BR_DEAD_REPLY */
		ASSERT_STATUS(kbt_transact(&pair.t, &x, NULL), BR_DEAD_REPLY);
		cve_ping(&pair.t, 0);

		/* the calling thread exits: the reply finds nobody */
		x.code = CODE_SLOW;
		kbt_write_txn(pair.p.fd, &x);
		ASSERT_WAIT(&pair.mgr.chan, 'S');
		ASSERT_OK(kbinder_ioctl_thread_exit(pair.p.fd));
		kbinder_thread_init(&pair.t, pair.p.fd);
		ASSERT_SIGNAL(&pair.mgr.chan, 'G');
		ASSERT_OK(kbt_recv(&pair.mgr.chan, &ret, sizeof(ret), KBT_WAIT_MS));
		/*
		 * Upstream tells a replier BR_TRANSACTION_COMPLETE even when
		 * its reply found nobody: nothing is left for it to do.
		 */
		if (ret != 0)
			kbt_fail(__FILE__, __LINE__, true,
				 "reply to an exited thread: %s, want BR_TRANSACTION_COMPLETE",
				 kbt_outcome_str(ret));
		/* the new thread gets its own answers, not the stale reply */
		cve_ping(&pair.t, 0);
		x.code = CODE_EXIT_THREAD;

		nested_exit(&pair.mgr, &pair.t, round);
		cve_ping(&pair.t, 0);
	}
	kbt_pair_stop(&pair);
}

/* ---------------------------------------------------------------- */
/* the receive area fills up                                         */
/* ---------------------------------------------------------------- */

#define SMALL_MAP ((size_t)128 * 1024)
#define FILL_CHUNK ((size_t)8 * 1024)
#define MAX_KEPT 64

/* Server state (in the server process). */
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static binder_uintptr_t kept[MAX_KEPT];
static int nkept;
static bool keeping = true;
static int srv_fd;

static int fill_fn(struct kbinder_thread *t, const struct binder_transaction_data *tr,
		   struct kbinder_parcel *reply, void *arg)
{
	int r = KBT_REPLY;

	(void)t;
	(void)arg;
	srv_fd = t->fd;
	if (tr->code == CVE_PING) {
		/* free before replying: the caller counts free space next */
		kbinder_parcel_write_u32(reply, CVE_PONG);
		EXPECT_OK(kbinder_thread_free_buffer(t, tr->data.ptr.buffer));
		return KBT_KEPT;
	}
	if (tr->code != CODE_KEEP)
		return r;
	pthread_mutex_lock(&kept_lock);
	if (keeping && nkept < MAX_KEPT) {
		kept[nkept++] = tr->data.ptr.buffer;
		r = KBT_KEPT;
	}
	pthread_mutex_unlock(&kept_lock);
	return r;
}

/* The server's helper thread: 'F' frees all and stops keeping, 'K' keeps. */
static void *fill_helper(void *arg)
{
	struct kbt_chan *c = arg;
	char cmd;
	int i;

	for (;;) {
		if (kbt_recv(c, &cmd, 1, 60000))
			return NULL;
		pthread_mutex_lock(&kept_lock);
		if (cmd == 'F') {
			keeping = false;
			for (i = 0; i < nkept; i++) {
				uint8_t buf[16];
				struct kbinder_writer w;

				kbinder_writer_init(&w, buf, sizeof(buf));
				kbinder_writer_put_free_buffer(&w, kept[i]);
				EXPECT_OK(kbinder_ioctl_write(srv_fd, buf, w.len, NULL));
			}
			nkept = 0;
		} else {
			keeping = true;
		}
		pthread_mutex_unlock(&kept_lock);
		kbt_signal(c, (char)(cmd + 32));
	}
}

static void fill_server_main(void *arg)
{
	struct kbt_server *s = arg;
	struct kbinder_thread t;
	struct kbinder_proc p;
	pthread_t th;

	kbt_open_dev(&p, NULL, SMALL_MAP);
	srv_fd = p.fd;
	ASSERT_OK(kbt_become_ctxmgr(p.fd, NULL));
	kbinder_thread_init(&t, p.fd);
	ASSERT_OK(kbinder_thread_enter_looper(&t));
	ASSERT_EQ(pthread_create(&th, NULL, fill_helper, &s->chan), 0);
	ASSERT_SIGNAL(&s->chan, 'R');
	ASSERT_OK(kbt_serve(&t, fill_fn, NULL));
	_exit(kbt_failed() ? 1 : 0);
}

static uint32_t send_chunk(struct kbinder_thread *t, uint32_t flags)
{
	static uint8_t chunk[FILL_CHUNK];
	struct kbt_txn x = { .code = CODE_KEEP, .flags = flags, .data = chunk,
			     .size = sizeof(chunk) };

	return kbt_transact(t, &x, NULL);
}

/* Send chunks until one fails; return how many went through. */
static int fill(struct kbinder_thread *t, uint32_t flags)
{
	uint32_t ok = flags ? BR_TRANSACTION_COMPLETE : BR_REPLY, st = ok;
	int n = 0;

	while (n < MAX_KEPT) {
		st = send_chunk(t, flags);
		if (st != ok)
			break;
		n++;
	}
	ASSERT_STATUS(st, BR_FAILED_REPLY);
	return n;
}

static void server_cmd(struct kbt_server *s, char cmd)
{
	ASSERT_SIGNAL(&s->chan, cmd);
	ASSERT_WAIT(&s->chan, (char)(cmd + 32));
}

TEST(fault_mmap_area_fills_up)
{
	struct kbt_server s;
	struct kbinder_thread t;
	struct kbinder_proc p;
	int n_sync, n_async, n, round;

	memset(&s, 0, sizeof(s));
	kbt_start_child(&s, fill_server_main);
	kbt_client(&p, &t);
	for (round = 0; round < 3; round++) {
		/* sync: kept buffers fill the whole area */
		n_sync = fill(&t, 0);
		kbt_log("round %d: %d sync chunks of %zu fit in %zu", round,
			n_sync, FILL_CHUNK, SMALL_MAP);
		ASSERT_GE(n_sync, (int)(SMALL_MAP / FILL_CHUNK / 2));
		ASSERT_LE(n_sync, (int)(SMALL_MAP / FILL_CHUNK));
		server_cmd(&s, 'F');
		cve_ping(&t, 0);
		/*
		 * After the frees at least as many fit again: nothing the
		 * first fill used stayed allocated. (More may fit: one-way
		 * buffers of the previous round can still have been draining
		 * while the first fill ran, on a slow or debug kernel.)
		 */
		server_cmd(&s, 'K');
		n = fill(&t, 0);
		ASSERT_GE(n, n_sync);
		ASSERT_LE(n, (int)(SMALL_MAP / FILL_CHUNK));
		server_cmd(&s, 'F');
		server_cmd(&s, 'K');

		/* one-way: limited to its share of the area */
		n_async = fill(&t, TF_ONE_WAY);
		kbt_log("round %d: %d one-way chunks fit", round, n_async);
		ASSERT_GE(n_async, 1);
		ASSERT_LT(n_async, n_sync);
		/* a sync call still gets through while one-way space is full */
		cve_ping(&t, 0);
		server_cmd(&s, 'F');
		/* the queued one-way calls drain; then one-way works again */
		{
			int64_t deadline = kbt_now_ms() + 5000;
			uint32_t st;

			while ((st = send_chunk(&t, TF_ONE_WAY)) != BR_TRANSACTION_COMPLETE &&
			       !cve_deadline_passed(deadline))
				kbt_msleep(20);
			ASSERT_STATUS(st, BR_TRANSACTION_COMPLETE);
		}
		cve_ping(&t, 0);
		server_cmd(&s, 'K');
	}
	server_cmd(&s, 'F');
	kbt_stop_with_client(&t, &s, &p);
}
