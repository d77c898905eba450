// SPDX-License-Identifier: Apache-2.0
/*
 * libkbinder's KBINDER_PROC_NONBLOCK: on a file opened non-blocking, two
 * threads waiting with deadlines for the same process work both keep them.
 * One call wakes both (neither is blocked in a read, so the driver wakes
 * every thread that polls); one takes it. If the other's poll() saw the
 * call before it was taken, its read returns EAGAIN and it goes back to
 * poll(), where a blocking file's read would wait in the driver for the
 * next work (a race: most often the loser's poll() finds nothing and
 * waits on). Its fd is above 1023 too.
 *
 * A waiter must come back by itself (one still out RESCUE_MS after it
 * began is ended by a flush, and fails the test), not early, and not much
 * later than a plain timer started beside it (waits.h): bounds a loaded
 * host cannot break. The call is made once both wait in poll().
 */
#include "binder_util.h"	/* first: it sets _GNU_SOURCE */

#include <errno.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "harness.h"
#include "waits.h"

#define HIGH_FD		1501
#define DEADLINE_MS	2000	/* the call comes well inside it */
#define SLACK_MS	1000	/* later than the plain timer beside it */
#define RESCUE_MS	10000	/* a waiter still out then is stuck */
#define CALL_CODE	7

/* A waiting thread: its fd, whether it waits yet, the calls it took, its end. */
struct waiter {
	int fd;
	int started, got_call, done;
	pid_t tid;
	int err;
	int64_t took;
};

/* Wait DEADLINE_MS for anything but BR_NOOP; a call is freed and counted. */
static void *waiter_main(void *arg)
{
	struct waiter *w = arg;
	struct kbinder_thread t;
	struct kbinder_return ret;
	int64_t start;

	w->tid = kbt_gettid();
	kbinder_thread_init(&t, w->fd);
	EXPECT_OK(kbinder_thread_enter_looper(&t));
	__atomic_store_n(&w->started, 1, __ATOMIC_RELEASE);
	start = kbt_now_ms();
	for (;;) {
		int64_t left = start + DEADLINE_MS - kbt_now_ms();

		w->err = kbinder_thread_next(&t, &ret, left > 0 ? (int)left : 0);
		if (w->err)
			break;
		if (ret.cmd == BR_TRANSACTION && ret.u.txn.code == CALL_CODE) {
			w->got_call++;
			kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer);
		} else if (ret.cmd != BR_NOOP && ret.cmd != BR_SPAWN_LOOPER) {
			kbt_default_event(&t, &ret, NULL);
		}
	}
	w->took = kbt_now_ms() - start;
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Both waiters back by themselves within RESCUE_MS, or flushed: true then. */
static bool rescue_if_stuck(struct waiter *w, int fd)
{
	int64_t deadline = kbt_now_ms() + RESCUE_MS;
	bool flushed = false;

	while (!__atomic_load_n(&w[0].done, __ATOMIC_ACQUIRE) ||
	       !__atomic_load_n(&w[1].done, __ATOMIC_ACQUIRE)) {
		if (kbt_now_ms() > deadline) {
			int copy = dup(fd);	/* a flush wakes a read in the driver */

			if (copy >= 0)
				close(copy);
			flushed = true;
		}
		kbt_msleep(20);
	}
	return flushed;
}

TEST(two_timed_waiters_on_a_nonblocking_file_both_keep_their_deadlines)
{
	struct waiter w[2] = { { .fd = HIGH_FD }, { .fd = HIGH_FD } };
	struct kbt_chan chan;
	struct kbt_oneway_call call = { &chan, CALL_CODE, 0 };
	struct kbt_control_timer control;
	struct kbinder_proc p;
	int64_t late;
	pthread_t th[2];
	bool flushed;
	pid_t c;

	ASSERT_OK(kbt_allow_fd(HIGH_FD));
	kbt_chan_init(&chan);
	c = kbt_fork(kbt_oneway_caller, &call);
	ASSERT_OK(kbinder_proc_open(&p, NULL, KBINDER_DEFAULT_MAP_SIZE, KBINDER_PROC_NONBLOCK));
	ASSERT_OK(kbt_become_ctxmgr(p.fd, NULL));
	ASSERT_EQ(dup2(p.fd, HIGH_FD), HIGH_FD);
	for (int i = 0; i < 2; i++)
		ASSERT_EQ(pthread_create(&th[i], NULL, waiter_main, &w[i]), 0);
	while (!__atomic_load_n(&w[0].started, __ATOMIC_ACQUIRE) ||
	       !__atomic_load_n(&w[1].started, __ATOMIC_ACQUIRE))
		kbt_msleep(1);
	kbt_control_start(&control, DEADLINE_MS);
	/* both in poll() */
	for (int i = 0; i < 2; i++)
		ASSERT_OK(kbt_wait_asleep_in(w[i].tid, SYS_poll, KBT_WAIT_MS));
	ASSERT_SIGNAL(&chan, 'G');
	flushed = rescue_if_stuck(w, HIGH_FD);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	late = kbt_control_late(&control);
	ASSERT_CHILD_OK(c);
	if (flushed)
		kbt_fail(__FILE__, __LINE__, false,
			 "a waiter was still out %d ms after the %d ms deadline began: a flush ended it",
			 RESCUE_MS, DEADLINE_MS);
	for (int i = 0; i < 2; i++) {
		kbt_log("waiter %d: %d after %lld ms, %d call(s); a plain %d ms timer "
			"beside them was %lld ms late", i, w[i].err, (long long)w[i].took,
			w[i].got_call, DEADLINE_MS, (long long)late);
		ASSERT_EQ(w[i].err, -ETIMEDOUT);
		EXPECT_GE(w[i].took, DEADLINE_MS);
		EXPECT_LE(w[i].took - DEADLINE_MS, late + SLACK_MS);
	}
	ASSERT_EQ(w[0].got_call + w[1].got_call, 1);
	close(HIGH_FD);
	kbt_chan_close(&chan);
	kbinder_proc_close(&p);
}
