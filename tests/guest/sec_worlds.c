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
 *   world's open() does not wait for a reader of a huge log. It used to
 *   wait for the whole walk (kb_freeze_lock).
 *
 * No upstream driver has separate worlds per IPC namespace or per-mount
 * logs: on the reference driver the tests skip.
 */
#include "binder_util.h"

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>

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

/* ---- a huge log, and an open() elsewhere ---- */

#define NOTICES 200000
#define READ_MS 4000
#define OPEN_BOUND_MS 300

/*
 * @n one-way calls to handle 0 that this thread never reads the
 * completions of: @n notices on its todo list, printed one line each.
 */
static void pile_up(int fd, int n)
{
	struct binder_transaction_data tr;
	uint8_t cmds[512 * 72];
	struct kbinder_writer w;
	uint32_t v = 1;
	int i, j;

	memset(&tr, 0, sizeof(tr));
	tr.flags = TF_ONE_WAY;
	tr.data_size = sizeof(v);
	tr.data.ptr.buffer = (binder_uintptr_t)(uintptr_t)&v;
	for (i = 0; i < n; i += 512) {
		kbinder_writer_init(&w, cmds, sizeof(cmds));
		for (j = 0; j < 512 && i + j < n; j++)
			kbinder_writer_put_txn(&w, BC_TRANSACTION, &tr);
		ASSERT_OK(kbinder_ioctl_write(fd, cmds, w.len, NULL));
	}
}

static void reader_main(void *arg)
{
	const char *path = arg;
	int64_t end = kbt_now_ms() + READ_MS;
	static char buf[1 << 16];
	long total = 0, reads = 0;

	while (kbt_now_ms() < end) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t n;

		ASSERT_GE(fd, 0);
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			total += n;
		close(fd);
		reads++;
	}
	kbt_log("read %s %ld times, %ld bytes", path, reads, total);
}

TEST_TIMEOUT(reading_a_huge_log_does_not_stall_other_worlds, 120)
{
	char dir[] = "/tmp/kbt_worlds_XXXXXX", path[64];
	struct kbt_chan chan;
	struct kbinder_proc p;
	int64_t worst = 0, end;
	pid_t deaf, reader;
	int opens = 0;

	REQUIRE_KBINDER("the reference driver has no binderfs");
	ASSERT_EQ(unshare(CLONE_NEWNS), 0);
	ASSERT_EQ(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	ASSERT_TRUE(mkdtemp(dir) != NULL);
	if (mount("binder", dir, "binder", 0, "stats=global"))
		SKIP("cannot mount binderfs with stats=global: %s",
		     strerror(errno));
	deaf = kbt_fork_ready(kbt_deaf_manager, &chan);
	kbt_open_dev(&p, NULL, 0);
	/* The debug kernel gets a tenth: its KASAN watches the same walks. */
	pile_up(p.fd, kbt_slow_kernel() ? NOTICES / 10 : NOTICES);

	snprintf(path, sizeof(path), "%s/binder_logs/state", dir);
	reader = kbt_fork(reader_main, path);
	kbt_msleep(300);
	end = kbt_now_ms() + READ_MS - 600;
	while (kbt_now_ms() < end) {
		int64_t t0 = kbt_now_ms(), took;
		int fd = open("/dev/vndbinder", O_RDWR | O_CLOEXEC);

		took = kbt_now_ms() - t0;
		ASSERT_GE(fd, 0);
		close(fd);
		if (took > worst)
			worst = took;
		opens++;
		kbt_msleep(10);
	}
	ASSERT_CHILD_OK(reader);
	kbt_log("%d opens of another world's device while the log was read: "
		"the slowest took %lld ms", opens, (long long)worst);
	EXPECT_LE(worst, OPEN_BOUND_MS);
	ASSERT_SIGNAL(&chan, 'q');
	ASSERT_CHILD_OK(deaf);
	kbt_chan_close(&chan);
	kbinder_proc_close(&p);
	ASSERT_EQ(umount2(dir, MNT_DETACH), 0);
	rmdir(dir);
}
