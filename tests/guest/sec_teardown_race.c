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
	struct kb_proc p;

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
	kb_close(&p);
}

/* Queue @CALLS one-way calls, each carrying @fd, to the manager. */
static void queue_calls(struct kb_thread *t, int fd)
{
	struct kb_parcel data;
	struct kb_reply r;
	int i;

	kb_parcel_init(&data);
	kb_parcel_write_u32(&data, 0x7ea7d0);
	kb_parcel_write_fd(&data, fd, 0x99);
	for (i = 0; i < CALLS; i++)
		ASSERT_OK(kb_transact(t, 0, 1, &data, TF_ONE_WAY, &r, NULL,
				      NULL, KBT_WAIT_MS));
	kb_parcel_fini(&data);
}

TEST_TIMEOUT(dying_with_queued_calls_tears_down_once, 240)
{
	struct kbt_live base;
	bool counted = false;
	struct kb_thread t;
	struct kb_proc c;
	char why[128];
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
	kb_close(&c);
	close(fd);
	if (counted && !kbt_live_back_to(&base, 5000, why, sizeof(why)))
		kbt_fail(__FILE__, __LINE__, true, "live objects left: %s", why);
}
