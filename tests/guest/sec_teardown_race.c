// SPDX-License-Identifier: Apache-2.0
/*
 * Security regression (issue 10, review finding F1): the end of a process
 * comes in two steps that each tear down part of its state. Unmapping the
 * receive area discards the work queued to the process (nobody can read
 * it any more); releasing the file runs the whole teardown and frees the
 * area. A process that exits (or unmaps and closes) with calls queued to it
 * has both steps running on the release workqueue at the same moment, on
 * different CPUs. kbinder once let them run together: the teardown freed
 * the area (and nodes and notices) under the discard that was still
 * releasing buffers in it.
 *
 * Each round, a fresh context manager gets one-way calls carrying a file
 * queued to it (the first on its todo, the rest on its node's one-way
 * queue), then exits, or unmaps and closes its binder file. The kernel
 * log must stay clean (KASAN on the debug kernel) and kbinder's live
 * objects must come back to where they were.
 */
#include "binder_util.h"
#include "kdelay.h"
#include "live.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#define ROUNDS 40
#define CALLS 24

struct victim_args {
	struct kbt_chan chan;
	bool exits;
};

static void victim(void *arg)
{
	struct flat_binder_object ext = {
		.hdr.type = BINDER_TYPE_BINDER,
		.flags = FLAT_BINDER_FLAG_ACCEPTS_FDS,
	};
	struct victim_args *a = arg;
	struct kbinder_proc p;

	kbt_open(&p);
	ASSERT_OK(kbt_become_ctxmgr(p.fd, &ext));
	ASSERT_SIGNAL(&a->chan, 'R');
	ASSERT_WAIT(&a->chan, 'Q');
	ASSERT_SIGNAL(&a->chan, 'C');
	/*
	 * The discard and the teardown, together: the area's mapping closes
	 * and the file is released right after it, by exit (the mm goes
	 * before the files) or by munmap() and close().
	 */
	if (a->exits)
		_exit(0);
	kbinder_proc_close(&p);
}

/* Queue @CALLS one-way calls, each carrying @fd, to the manager. */
static void queue_calls(struct kbinder_thread *t, int fd)
{
	struct kbinder_parcel data;
	struct kbinder_reply r;
	int i;

	kbinder_parcel_init(&data);
	kbinder_parcel_write_u32(&data, 0x7ea7d0);
	kbinder_parcel_write_fd(&data, fd, 0x99);
	for (i = 0; i < CALLS; i++)
		ASSERT_OK(kbinder_thread_transact(t, 0, 1, &data, TF_ONE_WAY, &r, NULL,
						  NULL, KBT_WAIT_MS));
	kbinder_parcel_fini(&data);
}

TEST_TIMEOUT(dying_with_queued_calls_tears_down_once, 240)
{
	struct kbt_live base;
	bool counted = false;
	struct kbinder_thread t;
	struct kbinder_proc c;
	long txns = -1;
	int round, fd;

	if (!kbt_is_reference()) {
		/* The previous test's processes go asynchronously. */
		kbt_live_settle(10000);
		counted = kbt_live_base(&base);
		txns = kbt_live_need("transactions");
	}
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ASSERT_GE(fd, 0);
	kbt_client(&c, &t);
	for (round = 0; round < ROUNDS; round++) {
		struct victim_args a = { .exits = round % 2 == 0 };
		pid_t v;

		kbt_chan_init(&a.chan);
		v = kbt_fork(victim, &a);
		ASSERT_WAIT(&a.chan, 'R');
		queue_calls(&t, fd);
		if (counted && round == 0)	/* the test makes what it tears */
			ASSERT_GE(kbt_live("transactions"),
				  txns + CALLS);
		ASSERT_SIGNAL(&a.chan, 'Q');
		ASSERT_WAIT(&a.chan, 'C');
		ASSERT_CHILD_OK(v);
		kbt_chan_close(&a.chan);
	}
	kbinder_proc_close(&c);
	close(fd);
	if (counted)
		ASSERT_LIVE_BACK(&base, 5000, "live objects left");
}

/*
 * The discard of a process whose area went (munmap) cancels the calls
 * queued to its threads while its other threads may still make ioctls. It
 * sets a thread's queue aside, cancels the calls on it and puts the
 * notices it keeps back at the end. A thread that exits meanwhile
 * (BINDER_THREAD_EXIT) cancels its own queue, which then looks empty:
 * kbinder once put the notices back on the queue of the exited thread,
 * where nobody freed them (completion notices leaked; a node's own
 * notice, still linked there, was unlinked from freed memory when the
 * file closed).
 *
 * The victim's thread T1 calls the manager, carrying a node of its own,
 * and reads nothing. The manager's handler calls back into that node: a
 * nested call, queued to T1. T1 then makes one-way calls, whose completion
 * notices queue behind the nested call. Another thread unmaps the area:
 * the discard takes T1's queue aside and cancels the nested call, and a
 * BPF program on a kprobe of that cancel (kdelay.h) holds it there while
 * T1 exits; the notices behind it are put back after the exit. Nothing
 * may be left once the process is gone, and the kernel log must stay
 * clean (KASAN on the debug kernel). On kbinder a delay that cannot
 * attach, or that never fired, fails the test (kdelay.h); the reference
 * has no such function, and runs the scenario without the delay, which
 * proves less.
 */
#define CODE_NEST 0x4e5354	/* victim -> manager: call my node back */
#define CODE_BACK 0x424b	/* manager -> the victim's node, nested */
#define DISCARD_ROUNDS 3
#define NOTICES_BEHIND 4

/* The manager: a call carrying a node is answered after a call into it. */
static int call_back(struct kbinder_thread *t,
		     const struct binder_transaction_data *tr,
		     struct kbinder_parcel *reply, void *arg)
{
	int *nesting = arg;	/* a pipe's write end: 'N' before the call */
	uint32_t h;

	if (tr->code != CODE_NEST)
		return KBT_REPLY;
	h = kbt_keep_sent_handle(t, tr);
	ASSERT_NE(h, KBT_NO_HANDLE);
	ASSERT_EQ(write(*nesting, "N", 1), 1);
	/* The victim's queue is discarded under it: a dead reply. */
	EXPECT_EQ(kbt_call_status(t, h, CODE_BACK, NULL, 0), BR_DEAD_REPLY);
	/* The caller has exited by now: whatever the reply meets is fine. */
	kbinder_parcel_write_u32(reply, 1);
	kbinder_thread_reply(t, reply, 0, KBT_WAIT_MS);
	return KBT_REPLIED;
}

/* Write one BC_TRANSACTION to handle 0, reading nothing. */
static void write_call(int fd, uint32_t code, uint32_t flags,
		       const struct kbinder_parcel *data)
{
	struct {
		uint32_t cmd;
		struct binder_transaction_data tr;
	} __attribute__((packed)) cmd = {
		.cmd = BC_TRANSACTION,
		.tr.code = code,
		.tr.flags = flags,
		.tr.data_size = data->size,
		.tr.offsets_size = data->n_offsets * sizeof(binder_size_t),
		.tr.data.ptr.buffer = (uintptr_t)data->data,
		.tr.data.ptr.offsets = (uintptr_t)data->offsets,
	};
	struct binder_write_read bwr = {
		.write_buffer = (uintptr_t)&cmd,
		.write_size = sizeof(cmd),
	};

	ASSERT_OK(kbinder_ioctl_write_read(fd, &bwr));
	ASSERT_EQ(bwr.write_consumed, bwr.write_size);
}

static void *unmap_area(void *arg)
{
	struct kbinder_proc *p = arg;

	munmap(p->map, p->map_size);
	return NULL;
}

static void discard_victim(void *arg)
{
	int nesting = *(int *)arg;	/* the read end of the manager's pipe */
	struct kbinder_parcel node, empty;
	struct pollfd pfd = { .fd = nesting, .events = POLLIN };
	struct kbinder_proc p;
	struct kbt_kdelay d;
	pthread_t unmapper;
	bool delayed;
	char token;
	int i;

	kbt_open(&p);
	kbinder_parcel_init(&node);
	kbinder_parcel_write_binder(&node, 0x5eed, 0xc0c0, 0, false);
	kbinder_parcel_init(&empty);
	kbinder_parcel_write_u32(&empty, 0);
	write_call(p.fd, CODE_NEST, 0, &node);
	ASSERT_EQ(poll(&pfd, 1, 10000), 1);
	ASSERT_EQ(read(nesting, &token, 1), 1);
	/* The manager writes the nested call right after saying so. */
	kbt_msleep(300);
	for (i = 0; i < NOTICES_BEHIND; i++)
		write_call(p.fd, 1, TF_ONE_WAY, &empty);
	delayed = kbt_kdelay_hold(&d, "kb_transaction_cancel", false, -1, 1);
	ASSERT_EQ(pthread_create(&unmapper, NULL, unmap_area, &p), 0);
	if (delayed)
		EXPECT_TRUE(kbt_kdelay_wait_held(&d, 10000));
	else
		pthread_join(unmapper, NULL);
	ASSERT_OK(ioctl(p.fd, BINDER_THREAD_EXIT, 0) ? -errno : 0);
	if (delayed) {
		pthread_join(unmapper, NULL);
		kbt_kdelay_expect_hit(&d);
		kbt_kdelay_detach(&d);
	}
	kbt_log("T1 exited %s the discard's cancel", delayed ?
		"during" : "after (no delay)");
	kbinder_parcel_fini(&node);
	kbinder_parcel_fini(&empty);
	close(p.fd);
}

TEST_TIMEOUT(a_thread_exiting_during_the_discard_leaves_nothing, 300)
{
	struct kbt_server s;
	struct kbt_live base;
	bool counted = false;
	struct kbinder_thread t;
	struct kbinder_proc c;
	int nesting[2], round;

	if (!kbt_is_reference()) {
		kbt_live_settle(10000);
		counted = kbt_live_base(&base);
	}
	ASSERT_EQ(pipe2(nesting, O_CLOEXEC), 0);
	kbt_start_with_client(&s, call_back, &nesting[1], &c, &t);
	for (round = 0; round < DISCARD_ROUNDS; round++)
		ASSERT_CHILD_OK(kbt_fork(discard_victim, &nesting[0]));
	kbt_stop_with_client(&t, &s, &c);
	close(nesting[0]);
	close(nesting[1]);
	if (counted)
		ASSERT_LIVE_BACK(&base, 5000, "live objects left");
}

/*
 * The same discard, seen by a thread that reads while its queue is set
 * aside (issue 29, a review's finding): the read finds the queue empty,
 * says the thread has nothing to do and sleeps; the discard then puts the
 * notices it kept back and wakes the thread. kbinder once did not say
 * again that the thread had work, so the woken thread went back to sleep
 * with its completions unread, for good.
 *
 * T1 writes a synchronous call without reading; the manager's reply
 * waits on T1's queue, behind the call's own completion. T1 then writes
 * one-way calls, whose completions queue behind the reply. Another thread
 * unmaps the area: the discard sets T1's queue aside and cancels the
 * reply (nobody can read its buffer), held there by the delay, while T1
 * reads. Once the discard is done, T1 must get every completion. The
 * reference discards nothing: it delivers the reply (into the unmapped
 * area) and the completions, which are counted the same.
 */
static void reading_victim(void *arg)
{
	struct kbinder_parcel empty;
	struct kbinder_return ret;
	struct kbinder_thread t;
	struct pollfd pfd;
	struct kbinder_proc p;
	struct kbt_kdelay d;
	pthread_t unmapper;
	int64_t end;
	bool delayed;
	int i, done = 0;

	(void)arg;
	kbt_open(&p);
	kbinder_thread_init(&t, p.fd);
	kbinder_parcel_init(&empty);
	kbinder_parcel_write_u32(&empty, 0);
	write_call(p.fd, 1, 0, &empty);
	/* The reply is queued to us: the queue wakes a poller. */
	pfd = (struct pollfd){ .fd = p.fd, .events = POLLIN };
	ASSERT_EQ(poll(&pfd, 1, 10000), 1);
	for (i = 0; i < NOTICES_BEHIND; i++)
		write_call(p.fd, 1, TF_ONE_WAY, &empty);
	delayed = kbt_kdelay_hold(&d, "kb_transaction_cancel", false, -1, 1);
	ASSERT_EQ(pthread_create(&unmapper, NULL, unmap_area, &p), 0);
	if (delayed)
		EXPECT_TRUE(kbt_kdelay_wait_held(&d, 10000));
	/* Read all along, the set-aside time too. */
	end = kbt_now_ms() + 5000;
	while (done < NOTICES_BEHIND + 1 && kbt_now_ms() < end) {
		if (kbinder_thread_next(&t, &ret, (int)(end - kbt_now_ms())))
			break;
		if (ret.cmd == BR_TRANSACTION_COMPLETE)
			done++;
	}
	pthread_join(unmapper, NULL);
	if (delayed) {
		kbt_kdelay_expect_hit(&d);
		kbt_kdelay_detach(&d);
	}
	EXPECT_EQ(done, NOTICES_BEHIND + 1);
	kbinder_parcel_fini(&empty);
	close(p.fd);
}

/*
 * DISCARD_ROUNDS victims, each a process of its own, against a manager
 * that answers every call; kbinder's live objects must come back.
 */
static void victims_of_a_keeper(void (*victim)(void *))
{
	struct kbt_server s;
	struct kbt_live base;
	bool counted = false;
	struct kbinder_thread t;
	struct kbinder_proc c;
	int round;

	if (!kbt_is_reference()) {
		kbt_live_settle(10000);
		counted = kbt_live_base(&base);
	}
	kbt_start_with_client(&s, kbt_keeper, NULL, &c, &t);
	for (round = 0; round < DISCARD_ROUNDS; round++)
		ASSERT_CHILD_OK(kbt_fork(victim, NULL));
	kbt_stop_with_client(&t, &s, &c);
	if (counted)
		ASSERT_LIVE_BACK(&base, 5000, "live objects left");
}

TEST_TIMEOUT(a_thread_reading_during_the_discard_gets_what_it_kept, 120)
{
	victims_of_a_keeper(reading_victim);
}

/*
 * What the discard keeps comes before what was queued while it held the
 * queue aside (issue 31's review): a thread's BR_TRANSACTION_COMPLETE can
 * be a flag read before its whole queue instead of an item on it, which
 * is right only while the queue is really empty. While the discard holds
 * it aside it only looks empty, and the notices it keeps go back in front.
 *
 * T1 sends a synchronous call carrying a new node of its own without
 * reading: the node's BR_INCREFS and BR_ACQUIRE queue on T1, then the
 * call's completion, then the manager's reply, then the completions of
 * one-way calls T1 writes after it. Another thread unmaps the area; the
 * discard sets T1's queue aside and cancels the reply, held there by the
 * delay (the notices behind it keep the queue aside past the cancel),
 * while T1 sends a second call. Once the discard has
 * put the node's notices back, T1's first read must be BR_INCREFS. With
 * the second call's completion made a flag, it came first. The reference
 * discards nothing: its queue is in the order it was written.
 */
static void ordering_victim(void *arg)
{
	struct kbinder_parcel node, empty;
	struct kbt_kdelay held, put_back;
	struct kbinder_return ret;
	struct kbinder_thread t;
	struct kbinder_proc p;
	struct pollfd pfd;
	pthread_t unmapper;
	bool delayed;
	int i;

	(void)arg;
	kbt_open(&p);
	kbinder_thread_init(&t, p.fd);
	kbinder_parcel_init(&node);
	kbinder_parcel_write_binder(&node, 0x6e0de, 0, 0, false);
	kbinder_parcel_init(&empty);
	kbinder_parcel_write_u32(&empty, 0);
	write_call(p.fd, 1, 0, &node);
	/* The reply is queued to us: the queue wakes a poller. */
	pfd = (struct pollfd){ .fd = p.fd, .events = POLLIN };
	ASSERT_EQ(poll(&pfd, 1, 10000), 1);
	/* Behind the reply: the discard holds the queue aside past it. */
	for (i = 0; i < NOTICES_BEHIND; i++)
		write_call(p.fd, 1, TF_ONE_WAY, &empty);
	delayed = kbt_kdelay_hold(&held, "kb_transaction_cancel", false, -1, 1);
	if (delayed)
		ASSERT_TRUE(kbt_kdelay_hold(&put_back, "kb_queue_discard_thread",
					    true, -1, 1));
	ASSERT_EQ(pthread_create(&unmapper, NULL, unmap_area, &p), 0);
	if (delayed)
		ASSERT_TRUE(kbt_kdelay_wait_held(&held, 10000));
	/* The queue is aside now: its reply is being cancelled. */
	write_call(p.fd, 2, 0, &empty);
	pthread_join(unmapper, NULL);
	if (delayed)
		ASSERT_TRUE(kbt_kdelay_wait_held(&put_back, 10000));
	do {
		ASSERT_OK(kbinder_thread_next(&t, &ret, 5000));
	} while (ret.cmd == BR_NOOP);
	EXPECT_EQ(ret.cmd, BR_INCREFS);
	if (delayed) {
		kbt_kdelay_expect_hit(&held);
		kbt_kdelay_detach(&held);
		kbt_kdelay_expect_hit(&put_back);
		kbt_kdelay_detach(&put_back);
	}
	kbinder_parcel_fini(&node);
	kbinder_parcel_fini(&empty);
	close(p.fd);
}

TEST_TIMEOUT(what_the_discard_keeps_comes_before_what_was_sent_meanwhile, 120)
{
	victims_of_a_keeper(ordering_victim);
}
