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
#include "live.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
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
		kbt_msleep(200);
		counted = kbt_live_read(&base) == 0;
		txns = kbt_live("transactions");
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
 * sets a thread's queue aside to walk it in bounded steps and puts the
 * notices it keeps back at the end. A thread that exits meanwhile
 * (BINDER_THREAD_EXIT) cancels its own queue, which then looks empty:
 * kbinder once put the notices back on the queue of the freed thread
 * (completion notices leaked, and the node's own notice, still linked
 * there, was unlinked from freed memory when the file closed).
 *
 * Each round, a process queues many one-way calls (and one carrying a
 * node of its own, whose reference notice goes to the same queue) without
 * reading, so its thread's queue is long; then one of its threads unmaps
 * the area and the queue's thread exits, after a delay that changes from
 * round to round to land in the discard's walk. Nothing may be left when
 * the process is gone, and the kernel log must stay clean.
 */
#define DISCARD_ROUNDS 24
#define DISCARD_CALLS 6000
#define DISCARD_BATCH 64

struct oneway_cmd {
	uint32_t cmd;
	struct binder_transaction_data tr;
} __attribute__((packed));

/* Write @n one-way calls to handle 0 in batches, reading nothing. */
static void write_oneways(int fd, const struct kbinder_parcel *data, int n)
{
	static struct oneway_cmd cmds[DISCARD_BATCH];
	struct binder_write_read bwr;
	int i, k;

	for (i = 0; i < DISCARD_BATCH; i++) {
		memset(&cmds[i], 0, sizeof(cmds[i]));
		cmds[i].cmd = BC_TRANSACTION;
		cmds[i].tr.code = 1;
		cmds[i].tr.flags = TF_ONE_WAY;
		cmds[i].tr.data_size = data->size;
		cmds[i].tr.offsets_size = data->n_offsets * sizeof(binder_size_t);
		cmds[i].tr.data.ptr.buffer = (uintptr_t)data->data;
		cmds[i].tr.data.ptr.offsets = (uintptr_t)data->offsets;
	}
	for (i = 0; i < n; i += k) {
		k = n - i < DISCARD_BATCH ? n - i : DISCARD_BATCH;
		memset(&bwr, 0, sizeof(bwr));
		bwr.write_buffer = (uintptr_t)cmds;
		bwr.write_size = k * sizeof(cmds[0]);
		ASSERT_OK(kbinder_ioctl_write_read(fd, &bwr));
		ASSERT_EQ(bwr.write_consumed, bwr.write_size);
	}
}

struct unmapper {
	struct kbinder_proc *p;
	atomic_int go;
};

static void *unmap_area(void *arg)
{
	struct unmapper *u = arg;

	while (!atomic_load(&u->go))
		;
	munmap(u->p->map, u->p->map_size);
	atomic_store(&u->go, 2);
	return NULL;
}

static void discard_victim(void *arg)
{
	int delay_us = *(int *)arg;
	struct kbinder_parcel node, empty;
	struct unmapper u = { .go = 0 };
	struct kbinder_proc p;
	pthread_t unmapper;
	int fd;

	kbt_open(&p);
	fd = p.fd;
	kbinder_parcel_init(&node);
	kbinder_parcel_write_binder(&node, 0x5eed, 0xc0c0, 0, false);
	kbinder_parcel_init(&empty);
	kbinder_parcel_write_u32(&empty, 0);
	/* A node of ours first: its reference notice queues to this thread. */
	write_oneways(fd, &node, 1);
	write_oneways(fd, &empty, DISCARD_CALLS);
	u.p = &p;
	ASSERT_EQ(pthread_create(&unmapper, NULL, unmap_area, &u), 0);
	atomic_store(&u.go, 1);
	while (atomic_load(&u.go) != 2)
		;
	usleep(delay_us);
	ASSERT_OK(ioctl(fd, BINDER_THREAD_EXIT, 0) ? -errno : 0);
	pthread_join(unmapper, NULL);
	kbinder_parcel_fini(&node);
	kbinder_parcel_fini(&empty);
	close(fd);
}

TEST_TIMEOUT(a_thread_exiting_during_the_discard_leaves_nothing, 300)
{
	struct kbt_server s;
	struct kbt_live base;
	bool counted = false;
	struct kbinder_thread t;
	struct kbinder_proc c;
	int round;

	if (!kbt_is_reference()) {
		kbt_msleep(200);
		counted = kbt_live_read(&base) == 0;
	}
	kbt_start_with_client(&s, NULL, NULL, &c, &t);
	for (round = 0; round < DISCARD_ROUNDS; round++) {
		/* 0 to about 5 ms: the walk of one queue takes some. */
		int delay_us = (round % 8) * (round % 8) * 80;

		ASSERT_CHILD_OK(kbt_fork(discard_victim, &delay_us));
	}
	kbt_stop_with_client(&t, &s, &c);
	if (counted)
		ASSERT_LIVE_BACK(&base, 5000, "live objects left");
}
