// SPDX-License-Identifier: Apache-2.0
/*
 * Security regressions (issue 20, items 4 and 5), kbinder only: what one
 * binder world does stays in it.
 *
 * - BINDER_FREEZE and BINDER_GET_FROZEN_INFO act on the target's
 *   processes in the caller's worlds only (its binderfs mount, or its IPC
 *   namespace for the plain devices). They used to reach every process of
 *   the target task in every world.
 * - Reading binder_logs/ holds no global lock across its walk: another
 *   world's open() does not wait for a reader of a long log. It used to
 *   wait for the whole walk (kb_freeze_lock).
 *
 * No upstream driver has separate worlds per IPC namespace or per-mount
 * logs: on the reference driver the tests skip.
 */
#include "binder_util.h"

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>

#define CODE_HELLO 0x48454c4fu

struct two_worlds {
	struct kbt_chan chan;
	pid_t pid;
};

static void *serve_a(void *arg)
{
	kbt_serve(arg, kbt_reply_arg, (void *)0xa);
	return NULL;
}

/*
 * The target: context manager of /dev/binder in the initial IPC namespace
 * (world A), then, in an IPC namespace of its own, of /dev/binder there
 * (world B); one thread serves each until told to quit.
 */
static void two_worlds_main(void *arg)
{
	struct two_worlds *w = arg;
	struct kbinder_proc pa, pb;
	struct kbinder_thread ta, tb;
	pthread_t thread;

	kbt_manager(&pa, &ta, NULL);
	ASSERT_EQ(unshare(CLONE_NEWIPC), 0);
	kbt_manager(&pb, &tb, NULL);
	ASSERT_EQ(pthread_create(&thread, NULL, serve_a, &ta), 0);
	ASSERT_SIGNAL(&w->chan, 'R');
	ASSERT_OK(kbt_serve(&tb, kbt_reply_arg, (void *)0xb));
	ASSERT_EQ(pthread_join(thread, NULL), 0);
	kbinder_proc_close(&pb);
	kbinder_proc_close(&pa);
}

static int freeze(int fd, pid_t pid, bool enable)
{
	struct binder_freeze_info info = {
		.pid = (uint32_t)pid, .enable = enable, .timeout_ms = 1000,
	};

	return ioctl(fd, BINDER_FREEZE, &info) ? -errno : 0;
}

static int frozen_info(int fd, pid_t pid, struct binder_frozen_status_info *fi)
{
	memset(fi, 0, sizeof(*fi));
	fi->pid = (uint32_t)pid;
	return ioctl(fd, BINDER_GET_FROZEN_INFO, fi) ? -errno : 0;
}

/* In world B: the target's manager there answers, and is not frozen. */
static void world_b_main(void *arg)
{
	struct two_worlds *w = arg;
	struct binder_frozen_status_info fi;
	struct kbinder_proc p;
	struct kbinder_thread t;
	char path[64];
	int ns;

	snprintf(path, sizeof(path), "/proc/%d/ns/ipc", w->pid);
	ns = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_GE(ns, 0);
	ASSERT_EQ(setns(ns, CLONE_NEWIPC), 0);
	close(ns);
	kbt_client(&p, &t);
	EXPECT_EQ(kbt_call_status(&t, 0, CODE_HELLO, NULL, 0), BR_REPLY);
	/*
	 * What world A's freeze did is none of world B's business: nothing
	 * was received while frozen (bit 0). Bit 1 (a call still pending)
	 * may be set for a moment: the manager's reply reaches us before
	 * its transaction is freed, on either driver.
	 */
	ASSERT_OK(frozen_info(p.fd, w->pid, &fi));
	EXPECT_EQ(fi.sync_recv & 1, 0);
	EXPECT_EQ(fi.async_recv, 0);
	kbt_quit(&t, 0);
	kbinder_proc_close(&p);
}

TEST(freeze_acts_only_in_the_callers_world)
{
	struct binder_frozen_status_info fi;
	struct two_worlds w;
	struct kbinder_proc p;
	struct kbinder_thread t;

	REQUIRE_KBINDER("no upstream driver has a world per IPC namespace");
	kbt_start_child(&w, two_worlds_main);
	kbt_client(&p, &t);

	ASSERT_OK(freeze(p.fd, w.pid, true));
	EXPECT_EQ(kbt_call_status(&t, 0, CODE_HELLO, NULL, 0), BR_FROZEN_REPLY);
	ASSERT_OK(frozen_info(p.fd, w.pid, &fi));
	EXPECT_EQ(fi.sync_recv & 1, 1);
	ASSERT_CHILD_OK(kbt_fork(world_b_main, &w));

	ASSERT_OK(freeze(p.fd, w.pid, false));
	kbt_quit(&t, 0);
	ASSERT_CHILD_OK(w.pid);
	kbt_chan_close(&w.chan);
	kbinder_proc_close(&p);
}

/* ---- a long log walk, and an open() elsewhere ---- */

/*
 * The old bug: the walk of binder_logs/ held a global lock (kb_freeze_lock)
 * that open() takes too, so an open() of any world waited for the rest of
 * a walk. Counted in what the test controls, not timed against the wall
 * clock:
 *
 * - the log is a binderfs mount's own (its processes: a manager and a
 *   client on the mount's device; the opens are of another world, which
 *   it does not show, so it keeps its size) and is made long enough that
 *   one walk (a read() of state from its start prints the whole file: one
 *   walk, once its file's buffer holds it all; a read that finds the
 *   buffer too small allocates a bigger one and walks again, with the lock
 *   dropped in between) costs WALK_OVER_OPEN open()-and-close() cycles of
 *   another world's device, both medians of this run: nodes are added
 *   OBJECT_BATCH at a time (each printed in state, with the manager's ref
 *   on it) until it does;
 * - a reader walks it WALKS times, resting as long between walks, with a
 *   sequence number that is odd while its walking read() runs; the test
 *   opens and closes another world's device in a loop meanwhile, and
 *   counts the cycles that began and ended within one walk. Without the
 *   lock a walk holds about WALK_OVER_OPEN of them; with it an open that
 *   began in a walk ends after it, and a walk holds none (one, when the
 *   open wins the race to the walk's end). At least MIN_PER_WALK per walk
 *   must be seen. The reader and the opener run on CPUs of their own: on
 *   one, the opener woken at the end of a walk would preempt the reader
 *   before its read() returned, and go on opening while the sequence
 *   number still said "in a walk".
 */
#define OBJECT_BATCH 1000
#define MAX_OBJECTS 64000
#define WALK_OVER_OPEN 20
#define MIN_PER_WALK 5
#define WALKS 30
#define READ_MS 60000		/* the reader's limit; the test stops it sooner */

/*
 * Shared with the reader (MAP_SHARED): seq is odd while a walk runs, and
 * counts from its first timed walk on (its file's first read, which walks
 * several times, comes before); n counts the walks done.
 */
struct walks {
	long seq;
	long n;
	int64_t us;
};

static int64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Open the log and read it whole once: its buffer holds it from then on. */
static int open_log(const char *path)
{
	static char rest[1 << 16];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	ASSERT_GE(fd, 0);
	while (read(fd, rest, sizeof(rest)) > 0)
		;
	return fd;
}

/* The time of one walk: a read() of the log @fd from its start prints it all. */
static int64_t walk_us(int fd, struct walks *w)
{
	static char buf[4096];
	int64_t t0;

	ASSERT_EQ(lseek(fd, 0, SEEK_SET), 0);
	if (w)
		__atomic_add_fetch(&w->seq, 1, __ATOMIC_SEQ_CST);
	t0 = now_us();
	ASSERT_GT(read(fd, buf, sizeof(buf)), 0);
	t0 = now_us() - t0;
	if (w)
		__atomic_add_fetch(&w->seq, 1, __ATOMIC_SEQ_CST);
	return t0;
}

/* The time of one open() and close() of another world's device. */
static int64_t cycle_us(void)
{
	int64_t t0 = now_us();
	int fd = open("/dev/vndbinder", O_RDWR | O_CLOEXEC);

	ASSERT_GE(fd, 0);
	close(fd);
	return now_us() - t0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static const char *walk_path;

/* One walk of a log as long as it is now (a new file: it may have grown). */
static int64_t one_walk(void)
{
	int fd = open_log(walk_path);
	int64_t us = walk_us(fd, NULL);

	close(fd);
	return us;
}

/* The median of @n measurements of @fn. */
static int64_t median_of(int64_t (*fn)(void), int n)
{
	int64_t v[31];
	int i;

	for (i = 0; i < n && i < 31; i++)
		v[i] = fn();
	qsort(v, (size_t)i, sizeof(v[0]), cmp_i64);
	return v[i / 2];
}

/*
 * The manager keeps every handle it is sent (a weak count and a death
 * request on each): each node and its ref stay, and show in state.
 */
static int hold_handles(struct kbinder_thread *t, const struct binder_transaction_data *tr,
			struct kbinder_parcel *reply, void *arg)
{
	(void)reply;
	(void)arg;
	kbt_watch_handles(t, tr);
	return KBT_REPLY;
}

/* Grow the log by OBJECT_BATCH nodes of @t's process, each held by the manager. */
static void add_nodes(struct kbinder_thread *t, int first)
{
	struct kbinder_parcel data;
	struct kbinder_reply r;
	int i;

	kbinder_parcel_init(&data);
	for (i = 0; i < OBJECT_BATCH; i++)
		kbinder_parcel_write_binder(&data, 0x100000 + (first + i) * 16, 0, 0, false);
	kbt_call(t, 0, 1, &data, &r);
	ASSERT_OK(kbinder_thread_free_buffer(t, r.txn.data.ptr.buffer));
	kbinder_parcel_fini(&data);
}

/* Run the calling thread on @cpu only. */
static void pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	ASSERT_OK(sched_setaffinity(0, sizeof(set), &set) ? -errno : 0);
}

static void reader_main(void *arg)
{
	struct walks *w = arg;
	int64_t end = kbt_now_ms() + READ_MS;
	int fd = open_log(walk_path);

	pin_to(0);
	while (kbt_now_ms() < end && __atomic_load_n(&w->n, __ATOMIC_SEQ_CST) < WALKS) {
		int64_t us = walk_us(fd, w);

		w->us += us;
		__atomic_add_fetch(&w->n, 1, __ATOMIC_SEQ_CST);
		/* as long between walks as in one */
		usleep((useconds_t)(us < 50000 ? us : 50000));
	}
	close(fd);
}

TEST_TIMEOUT(reading_a_huge_log_does_not_stall_other_worlds, 120)
{
	char dir[] = "/tmp/kbt_worlds_XXXXXX", path[64];
	struct kbinder_thread t;
	struct kbinder_proc p;
	struct kbt_server s;
	int64_t cycle, walk = 0;
	long within = 0, cycles = 0;
	int objects = 0, st = -ETIMEDOUT;
	struct walks *w;
	pid_t reader;

	REQUIRE_KBINDER("the reference driver has no binderfs");
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP("the reader and the opener need a CPU each");
	ASSERT_EQ(unshare(CLONE_NEWNS), 0);
	ASSERT_EQ(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	ASSERT_TRUE(mkdtemp(dir) != NULL);
	ASSERT_OK(mount("binder", dir, "binder", 0, NULL) ? -errno : 0);
	snprintf(path, sizeof(path), "%s/binder", dir);
	ASSERT_EQ(setenv("BINDER_DEVICE", path, 1), 0);	/* the manager's and the client's */
	snprintf(path, sizeof(path), "%s/binder_logs/state", dir);
	walk_path = path;
	w = mmap(NULL, sizeof(*w), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(w != MAP_FAILED);
	kbt_start_with_client(&s, hold_handles, NULL, &p, &t);

	/* One walk must cost WALK_OVER_OPEN cycles, or the test cannot tell. */
	cycle = median_of(cycle_us, 31);
	while (objects < MAX_OBJECTS) {
		walk = median_of(one_walk, 5);
		if (walk >= WALK_OVER_OPEN * cycle)
			break;
		add_nodes(&t, objects);
		objects += OBJECT_BATCH;
	}
	kbt_log("%d nodes: a walk of the log %lld us, an open and close of another "
		"world's device %lld us (medians)", objects, (long long)walk, (long long)cycle);
	ASSERT_GE(walk, WALK_OVER_OPEN * cycle);

	reader = kbt_fork(reader_main, w);
	pin_to(1);
	while ((st = kbt_reap(reader, 0)) == -ETIMEDOUT) {
		long s0 = __atomic_load_n(&w->seq, __ATOMIC_SEQ_CST);

		if (!s0) {
			kbt_msleep(1);	/* the reader's timed walks have not begun */
			continue;
		}
		cycle_us();
		cycles++;
		if ((s0 & 1) && __atomic_load_n(&w->seq, __ATOMIC_SEQ_CST) == s0)
			within++;
	}
	ASSERT_EQ(st, 0);
	kbt_log("%ld walks of the log (%lld us each); %ld opens of another world's device, "
		"%ld of them within a walk (%.1f a walk)", w->n,
		(long long)(w->n ? w->us / w->n : 0), cycles, within,
		w->n ? (double)within / (double)w->n : 0.0);
	ASSERT_EQ(w->n, WALKS);
	if (within < MIN_PER_WALK * w->n)
		kbt_fail(__FILE__, __LINE__, false,
			 "%ld opens of another world began and ended within %ld walks of the "
			 "log, fewer than %d a walk where one walk costs %d: open() waits for "
			 "the walk", within, w->n, MIN_PER_WALK, WALK_OVER_OPEN);
	kbt_stop_with_client(&t, &s, &p);
	munmap(w, sizeof(*w));
	ASSERT_EQ(umount2(dir, MNT_DETACH), 0);
	rmdir(dir);
}
