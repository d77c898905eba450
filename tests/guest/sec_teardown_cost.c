// SPDX-License-Identifier: Apache-2.0
/*
 * Security regression (issue 20, item 1): a process's teardown costs time
 * linear in what it frees, and never keeps a CPU to itself.
 *
 * The attacker's shape: a context manager R holds K death notices for the
 * nodes of a process D that died (queued on R's todo list, unread), and M
 * one-way calls to M of R's nodes are queued behind them; then R unmaps
 * its area and exits. kbinder used to rescan the todo list from its head
 * for every call it cancelled (K x M steps under R's inner_lock), and to
 * release the K refs and their notices in one walk without yielding:
 * K=10k/M=1.5k took 0.15 s, K=200k/M=30k did not finish in 192 s. Now the
 * teardown walks each list once, in bounded batches, yielding between
 * them.
 *
 * Measured: from R's munmap() to R's process being gone (kbinder's live
 * counters: procs back to what they were, no transaction and no death
 * request left) and to the death of R's node reaching P (both drivers).
 * The bound is the scenario's own setup, timed in the same run: tearing
 * down may cost at most SETUP_RATIO times building what it tears down
 * (linear: a fifth of it on Debian's kernel, three fifths on the debug
 * kernel, where KASAN makes every free dear; the rescan: 15 times it and
 * more at K=200k, 5 times at K=50k, M=7.5k). A wall-clock bound would
 * measure the host as much as the driver.
 * KBT_TEARDOWN_GRID="KxM,KxM,..." in the environment runs the test over
 * those sizes instead and logs one line each (for the table in
 * docs/security.md).
 */
#include "binder_util.h"
#include "live.h"

#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>

#define MAP_R ((size_t)4 << 20)		/* R's area: the largest there is */
#define MAP_P ((size_t)4 << 20)		/* P's: M objects in one reply */
#define BATCH 32768			/* objects per call from D */
#define CODE_OBJECTS 1			/* D -> R: hold these, watch them */
#define CODE_GIVE 2			/* P -> R: reply with M objects */
#define CODE_STOP 3			/* P -> R: stop reading */
#define R_NODE(i) ((binder_uintptr_t)0x10000 + (binder_uintptr_t)(i) * 16)
#define D_NODE(i) ((binder_uintptr_t)0x1000000 + (binder_uintptr_t)(i) * 16)
#define DEATH_COOKIE 0xdeadbeefull
/*
 * How long the teardown may take before the test gives up on it: this, or
 * four times the setup if that is longer (KBT_TEARDOWN_GONE_MS in the
 * environment: another minimum, in ms).
 */
static int gone_ms = 60000;
/* How long R waits for the test's next word: past any setup and teardown. */
#define R_WAIT_MS 1800000
/* The teardown may cost this many times the setup. */
#define SETUP_RATIO 2

struct scenario {
	int k, m;
	struct kbt_chan r_chan, d_chan;
	pid_t r_pid, d_pid;
};

/* The handle of the @i-th object of a payload, read straight from it. */
static uint32_t txn_handle(const struct binder_transaction_data *tr, size_t i)
{
	const binder_size_t *offs = (const binder_size_t *)(uintptr_t)
		tr->data.ptr.offsets;
	const struct flat_binder_object *obj = (const void *)(uintptr_t)
		(tr->data.ptr.buffer + offs[i]);

	return obj->handle;
}

/* R: the context manager. Serves D and P until CODE_STOP, then reads no more. */
static void r_main(void *arg)
{
	struct scenario *sc = arg;
	struct kbinder_parcel reply;
	struct kbinder_return ret;
	struct kbinder_thread t;
	struct kbinder_proc p;
	bool stop = false;
	char c;
	int i;

	kbt_open_dev(&p, NULL, MAP_R);
	ASSERT_OK(kbt_become_ctxmgr(p.fd, NULL));
	kbinder_thread_init(&t, p.fd);
	ASSERT_OK(kbinder_thread_enter_looper(&t));
	ASSERT_SIGNAL(&sc->r_chan, 'R');
	kbinder_parcel_init(&reply);
	while (!stop) {
		const struct binder_transaction_data *tr = &ret.u.txn;

		ASSERT_OK(kbinder_thread_next(&t, &ret, -1));
		if (ret.cmd != BR_TRANSACTION) {
			kbt_default_event(&t, &ret, NULL);
			continue;
		}
		kbinder_parcel_reset(&reply);
		if (tr->code == CODE_OBJECTS)
			kbt_watch_handles(&t, tr);
		if (tr->code == CODE_GIVE)
			for (i = 0; i < sc->m; i++)
				kbinder_parcel_write_binder(&reply, R_NODE(i), 0, 0,
							    false);
		stop = tr->code == CODE_STOP;
		ASSERT_OK(kbinder_thread_reply(&t, &reply, 0, KBT_WAIT_MS));
		ASSERT_OK(kbinder_thread_free_buffer(&t, tr->data.ptr.buffer));
	}
	kbinder_parcel_fini(&reply);
	/* Whatever arrives now stays queued. */
	ASSERT_OK(kbt_recv(&sc->r_chan, &c, 1, R_WAIT_MS));
	ASSERT_EQ(munmap(p.map, p.map_size), 0);
	ASSERT_SIGNAL(&sc->r_chan, 'u');
	ASSERT_OK(kbt_recv(&sc->r_chan, &c, 1, R_WAIT_MS));
	_exit(0);	/* the file goes with the process */
}

/* D ignores the notices of its own nodes: it dies holding them. */
static int skip_notices(struct kbinder_thread *t, const struct kbinder_return *ret,
			void *arg)
{
	if (ret->cmd == BR_TRANSACTION_COMPLETE || ret->cmd == BR_INCREFS ||
	    ret->cmd == BR_ACQUIRE || ret->cmd == BR_NOOP)
		return 0;
	return kbt_default_event(t, ret, arg);
}

/* D: sends R K objects of its own, K/BATCH at a time, then waits to die. */
static void d_main(void *arg)
{
	struct scenario *sc = arg;
	struct binder_transaction_data tr;
	struct kbinder_parcel data;
	struct kbinder_return ret;
	struct kbinder_thread t;
	struct kbinder_proc p;
	struct kbinder_writer w;
	uint8_t cmds[128];
	int i, n;

	kbt_client(&p, &t);
	for (i = 0; i < sc->k; i += n) {
		n = sc->k - i < BATCH ? sc->k - i : BATCH;
		kbinder_parcel_init(&data);
		for (int j = 0; j < n; j++)
			kbinder_parcel_write_binder(&data, D_NODE(i + j), 0, 0, true);
		memset(&tr, 0, sizeof(tr));
		tr.code = CODE_OBJECTS;
		kbinder_parcel_to_txn(&data, &tr);
		kbinder_writer_init(&w, cmds, sizeof(cmds));
		kbinder_writer_put_txn(&w, BC_TRANSACTION, &tr);
		ASSERT_OK(kbinder_ioctl_write(p.fd, cmds, w.len, NULL));
		ASSERT_OK(kbinder_thread_wait_for(&t, BR_REPLY, &ret, skip_notices, NULL,
						  60000));
		ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
		kbinder_parcel_fini(&data);
	}
	ASSERT_SIGNAL(&sc->d_chan, 'D');
	for (;;)
		pause();	/* until killed */
}

/* P queues one one-way call to each of @n handles, reading the completions. */
static int send_oneway(struct kbinder_thread *t, const uint32_t *handles, int n)
{
	struct binder_transaction_data tr;
	uint8_t cmds[256 * 72];
	struct kbinder_return ret;
	struct kbinder_writer w;
	uint32_t payload = 7;
	int i = 0, j, sent = 0, got;

	while (i < n) {
		int batch = n - i < 256 ? n - i : 256;

		kbinder_writer_init(&w, cmds, sizeof(cmds));
		for (j = 0; j < batch; j++) {
			memset(&tr, 0, sizeof(tr));
			tr.target.handle = handles[i + j];
			tr.flags = TF_ONE_WAY;
			tr.data_size = sizeof(payload);
			tr.data.ptr.buffer = (binder_uintptr_t)(uintptr_t)&payload;
			kbinder_writer_put_txn(&w, BC_TRANSACTION, &tr);
		}
		ASSERT_OK(w.err);
		ASSERT_OK(kbinder_ioctl_write(t->fd, cmds, w.len, NULL));
		for (got = 0; got < batch;) {
			ASSERT_OK(kbinder_thread_next(t, &ret, KBT_WAIT_MS));
			if (ret.cmd == BR_NOOP)
				continue;
			got++;
			if (ret.cmd != BR_TRANSACTION_COMPLETE &&
			    ret.cmd != BR_ONEWAY_SPAM_SUSPECT) {
				/* The reference counts buffer structs in
				 * the async space: it fills up first.
				 */
				kbt_log("one-way call %d: %s", i + got,
					kbinder_return_name(ret.cmd));
				return sent;
			}
			sent++;
		}
		i += batch;
	}
	return sent;
}

/* The value of counter @name in a reading. */
static long live_in(const struct kbt_live *l, const char *name)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->name[i], name))
			return l->value[i];
	return -1;
}

/*
 * Wait up to @ms for the process counter to read @procs and no transaction
 * or death request to be left beyond @base's but P's own (@deaths more);
 * the time since @start, or -1.
 */
static int64_t wait_gone(const struct kbt_live *base, long procs, long deaths,
			 int64_t start, int ms)
{
	static const char *const names[] = { "procs", "transactions", "deaths" };
	long want[3] = { procs, live_in(base, "transactions"),
			 live_in(base, "deaths") + deaths };
	int64_t deadline = start + ms;
	long now = 0;
	int i;

	for (i = 0; i < 3; i++) {
		int left = (int)(deadline - kbt_now_ms());

		now = kbt_live_wait(names[i], want[i], left > 0 ? left : 0);
		if (now != want[i]) {
			kbt_log("not gone after %d ms: %s %ld, want %ld", ms,
				names[i], now, want[i]);
			return -1;
		}
	}
	return kbt_now_ms() - start;
}

/*
 * One run of the scenario: the teardown's time in ms (from the munmap to
 * R gone), or -1 if it did not end within the limit; *@setup_ms: the
 * time the scenario took to build.
 */
static int64_t run(int k, int m, int64_t *setup_ms)
{
	struct scenario sc = { .k = k, .m = m };
	struct kbt_live base, with_p;
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_reply r;
	binder_uintptr_t give;
	struct kbinder_return ret;
	uint32_t *handles;
	int64_t t0, setup, unmapped, dead = -1, gone = -1;
	bool live = !kbt_is_reference();
	int i, sent, limit;

	handles = calloc((size_t)m, sizeof(*handles));
	ASSERT_NE(handles, NULL);
	if (live)
		ASSERT_OK(kbt_live_read(&base));
	t0 = kbt_now_ms();
	kbt_chan_init(&sc.r_chan);
	sc.r_pid = kbt_fork(r_main, &sc);
	ASSERT_WAIT(&sc.r_chan, 'R');
	kbt_open_dev(&p, NULL, MAP_P);
	kbinder_thread_init(&t, p.fd);
	ASSERT_OK(kbinder_thread_enter_looper(&t));
	if (live)
		ASSERT_OK(kbt_live_read(&with_p));

	/* D's K nodes, each watched by R. */
	kbt_chan_init(&sc.d_chan);
	sc.d_pid = kbt_fork(d_main, &sc);
	ASSERT_OK(kbt_wait(&sc.d_chan, 'D', 120000));

	/* M of R's nodes, for P to call; R's first node's death watched. */
	kbt_call(&t, 0, CODE_GIVE, NULL, &r);
	ASSERT_EQ(r.txn.offsets_size / sizeof(binder_size_t), (size_t)m);
	for (i = 0; i < m; i++)
		handles[i] = txn_handle(&r.txn, i);
	ASSERT_OK(kbinder_thread_request_death(&t, handles[0], DEATH_COOKIE));
	give = r.txn.data.ptr.buffer;	/* its objects hold P's refs */
	kbt_call(&t, 0, CODE_STOP, NULL, &r);
	ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));

	/* D dies: K BR_DEAD_BINDER go to R's todo list, unread. */
	ASSERT_EQ(kbt_kill(sc.d_pid), 128 + SIGKILL);
	kbt_chan_close(&sc.d_chan);
	if (live)
		EXPECT_EQ(kbt_live_wait("procs", live_in(&with_p, "procs"),
					gone_ms), live_in(&with_p, "procs"));
	else
		kbt_msleep(1000 + k / 100);

	/* M one-way calls queued behind them. */
	sent = send_oneway(&t, handles, m);
	setup = kbt_now_ms() - t0;
	*setup_ms = setup;
	limit = setup * 4 > gone_ms ? (int)(setup * 4) : gone_ms;

	ASSERT_SIGNAL(&sc.r_chan, 'U');
	t0 = kbt_now_ms();
	ASSERT_WAIT(&sc.r_chan, 'u');
	unmapped = kbt_now_ms() - t0;
	ASSERT_SIGNAL(&sc.r_chan, 'X');
	ASSERT_EQ(kbt_reap(sc.r_pid, limit), 0);
	kbt_chan_close(&sc.r_chan);
	for (;;) {
		int64_t left = limit - (kbt_now_ms() - t0);

		if (left <= 0 || kbinder_thread_next(&t, &ret, (int)left))
			break;
		if (ret.cmd == BR_DEAD_BINDER) {
			dead = kbt_now_ms() - t0;
			EXPECT_EQ(ret.u.cookie, DEATH_COOKIE);
			EXPECT_OK(kbinder_thread_dead_binder_done(&t, ret.u.cookie));
			break;
		}
		if (ret.cmd != BR_NOOP && ret.cmd != BR_TRANSACTION_COMPLETE)
			kbt_default_event(&t, &ret, NULL);
	}
	if (live)
		gone = wait_gone(&with_p, live_in(&with_p, "procs") - 1, 1, t0,
				 limit);
	else
		gone = dead;
	kbt_log("K=%d M=%d (%d queued): setup %lld ms; teardown: munmap %lld ms, "
		"death delivered %lld ms, R gone %lld ms", k, m, sent,
		(long long)setup, (long long)unmapped, (long long)dead,
		(long long)gone);
	EXPECT_GE(dead, 0);
	EXPECT_OK(kbinder_thread_free_buffer(&t, give));
	kbinder_proc_close(&p);
	if (live)
		EXPECT_LIVE_BACK(&base, 20000, "live objects not back after the test");
	free(handles);
	return gone;
}

/*
 * KBT_TEARDOWN_GRID="KxM,..." (with KBT_TEARDOWN_GONE_MS): the teardown
 * time of each size, one log line each, for the table in docs/security.md,
 * each held to the same bound. A size that does not finish in time ends
 * the grid (a teardown still running would spoil the next).
 */
static void run_grid(const char *grid)
{
	const char *gone = getenv("KBT_TEARDOWN_GONE_MS");
	int k, m, n;

	if (gone && atoi(gone) > 0)
		gone_ms = atoi(gone);
	while (sscanf(grid, "%dx%d%n", &k, &m, &n) == 2) {
		int64_t setup, ms = run(k, m, &setup);

		if (ms < 0) {
			kbt_fail(__FILE__, __LINE__, false,
				 "K=%d M=%d did not finish in time: the rest is not run",
				 k, m);
			break;
		}
		EXPECT_LE(ms, SETUP_RATIO * setup);
		grid += n;
		if (*grid != ',')
			break;
		grid++;
	}
}

/*
 * The case that did not finish: 200k notices, 30k calls. Linear, it takes
 * a fifth of its setup (0.53 s against 2.7 s measured); the rescan took
 * more than 15 times its setup. With KBT_TEARDOWN_GRID set, the grid's
 * sizes instead (run_grid()).
 */
TEST_TIMEOUT(teardown_of_many_notices_and_calls_is_bounded, 3600)
{
	const char *grid = getenv("KBT_TEARDOWN_GRID");
	int64_t ms, setup;

	if (grid && *grid) {
		run_grid(grid);
		return;
	}
	/*
	 * Upstream finds a new handle by walking every handle: 200000 of
	 * them would take the setup minutes there. It gets a tenth, and so
	 * does the debug kernel, where KASAN watches the same teardown.
	 */
	if (kbt_is_reference() || kbt_slow_kernel())
		ms = run(20000, 3000, &setup);
	else
		ms = run(200000, 30000, &setup);

	ASSERT_GE(ms, 0);
	EXPECT_LE(ms, SETUP_RATIO * setup);
}
