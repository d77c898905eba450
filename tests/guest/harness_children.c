// SPDX-License-Identifier: Apache-2.0
/*
 * No process of a test is cut off silently. A kbt_fork() child still
 * running when the body returns used to be killed by the cleanup, and what
 * it would still have checked was lost; a child that crashed and nobody
 * reaped was never judged; a process the test left behind was killed
 * without a word; and a process that would not die was given up on after
 * 5 s, unreported. Now every child is reaped and judged, or the test
 * fails: the body (or a child) that returns waits a moment for its
 * children, judges how they ended and fails for one still running; a
 * process left running fails the test; one the cleanup cannot end fails
 * it too, named with its state.
 *
 * Like harness_fdcheck, the tests run this very program again with demo
 * tests that exist only there (KBT_CHILDREN_DEMO), with a short grace
 * (KBT_CHILD_GRACE_MS) and cleanup time (KBT_CLEANUP_MS) so that they
 * stay quick. The last one mounts the cgroup v1 freezer and freezes a
 * process: a guest test only, never to be run on a host.
 */
#include "harness.h"	/* first: it sets _GNU_SOURCE */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEMO_ENV "KBT_CHILDREN_DEMO"
#define FREEZER_ENV "KBT_CHILDREN_FREEZER"

static void child_checks_and_returns(void *arg)
{
	(void)arg;
	EXPECT_GT(getppid(), 1);
}

static void child_fails_late(void *arg)
{
	int late = 1;

	(void)arg;
	kbt_msleep(100);
	EXPECT_EQ(late, 0);
}

static void child_sleeps_forever(void *arg)
{
	(void)arg;
	for (;;)
		pause();
}

static void child_aborts(void *arg)
{
	(void)arg;
	signal(SIGABRT, SIG_DFL);
	raise(SIGABRT);
}

static void child_exits_3(void *arg)
{
	(void)arg;
	_exit(3);
}

static void child_leaves_a_grandchild(void *arg)
{
	(void)arg;
	EXPECT_GT(kbt_fork(child_sleeps_forever, NULL), 0);
}

static void demo_child_reaped(void)
{
	ASSERT_CHILD_OK(kbt_fork(child_checks_and_returns, NULL));
}

static void demo_child_fails_after_the_body_returned(void)
{
	ASSERT_GT(kbt_fork(child_fails_late, NULL), 0);
}

static void demo_child_still_running(void)
{
	ASSERT_GT(kbt_fork(child_sleeps_forever, NULL), 0);
}

static void demo_child_killed_unreaped(void)
{
	ASSERT_GT(kbt_fork(child_aborts, NULL), 0);
}

static void demo_child_exits_badly_unreaped(void)
{
	ASSERT_GT(kbt_fork(child_exits_3, NULL), 0);
}

static void demo_grandchild_left_by_a_child(void)
{
	ASSERT_CHILD_OK(kbt_fork(child_leaves_a_grandchild, NULL));
}

static void demo_process_left_running(void)
{
	pid_t pid = fork();

	if (pid == 0)
		child_sleeps_forever(NULL);
	ASSERT_GT(pid, 0);
}

/* Write @text into cgroup file @name of @dir. Return: 0 or -errno. */
static int cg_write(const char *dir, const char *name, const char *text)
{
	char path[256];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* Cgroup file @name of @dir into @buf (empty if it cannot be read). */
static void cg_read(const char *dir, const char *name, char *buf, size_t size)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	buf[0] = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	kbt_read_all(fd, buf, size);
	close(fd);
}

/* Whether cgroup file @name of @dir starts with @want. */
static bool cg_reads(const char *dir, const char *name, const char *want)
{
	char buf[64];

	cg_read(dir, name, buf, sizeof(buf));
	return !strncmp(buf, want, strlen(want));
}

/*
 * A process that SIGKILL cannot end: frozen by the cgroup v1 freezer (in
 * cgroup $KBT_CHILDREN_FREEZER, which the test made), a frozen task stays
 * frozen, kill pending, until it is thawed, as one stuck in a driver would.
 */
static void demo_process_that_will_not_die(void)
{
	const char *cg = getenv(FREEZER_ENV);
	char pid_s[16];
	int64_t deadline;
	pid_t pid;

	ASSERT_TRUE(cg != NULL);
	pid = fork();
	if (pid == 0) {
		/* not holding the output the test reads to its end */
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		dup2(null, 1);
		dup2(null, 2);
		child_sleeps_forever(NULL);
	}
	ASSERT_GT(pid, 0);
	snprintf(pid_s, sizeof(pid_s), "%d", (int)pid);
	ASSERT_OK(cg_write(cg, "cgroup.procs", pid_s));
	ASSERT_OK(cg_write(cg, "freezer.state", "FROZEN"));
	deadline = kbt_now_ms() + 5000;
	while (!cg_reads(cg, "freezer.state", "FROZEN") && kbt_now_ms() < deadline)
		kbt_msleep(10);
	ASSERT_TRUE(cg_reads(cg, "freezer.state", "FROZEN"));
}

static struct kbt_test demos[] = {
	KBT_DEMO(demo_child_reaped),
	KBT_DEMO(demo_child_fails_after_the_body_returned),
	KBT_DEMO(demo_child_still_running),
	KBT_DEMO(demo_child_killed_unreaped),
	KBT_DEMO(demo_child_exits_badly_unreaped),
	KBT_DEMO(demo_grandchild_left_by_a_child),
	KBT_DEMO(demo_process_left_running),
	KBT_DEMO(demo_process_that_will_not_die),
};

KBT_DEMOS(DEMO_ENV, demos);

/* The demos' copy waits 300 ms for children, and 500 ms for the cleanup. */
static void quick_demos(void)
{
	ASSERT_OK(setenv("KBT_CHILD_GRACE_MS", "300", 1));
	ASSERT_OK(setenv("KBT_CLEANUP_MS", "500", 1));
}

#define SUITE "harness_children/"

TEST(a_child_reaped_by_the_test_passes)
{
	quick_demos();
	EXPECT_DEMO(DEMO_ENV, "demo_child_reaped", "PASS " SUITE "demo_child_reaped");
}

TEST(a_child_failing_after_the_body_returned_still_fails_the_test)
{
	quick_demos();
	EXPECT_DEMO_MATCH(DEMO_ENV, "demo_child_fails_after_the_body_returned",
			  "FAIL " SUITE "demo_child_fails_after_the_body_returned: "
			  "harness_children.c:*: EXPECT_EQ(late, 0): 1 (0x1) vs 0 (0x0)");
}

TEST(a_child_still_running_when_the_body_returns_fails)
{
	quick_demos();
	EXPECT_DEMO_MATCH(DEMO_ENV, "demo_child_still_running",
			  "FAIL " SUITE "demo_child_still_running: child child_sleeps_forever "
			  "(pid *) was still running 300 ms after the test body returned: *");
}

TEST(a_child_killed_by_a_signal_and_not_reaped_fails)
{
	quick_demos();
	EXPECT_DEMO_MATCH(DEMO_ENV, "demo_child_killed_unreaped",
			  "FAIL " SUITE "demo_child_killed_unreaped: child child_aborts "
			  "(pid *) was killed by signal 6 (Aborted), and the test body "
			  "returned without reaping it");
}

TEST(a_child_exiting_badly_and_not_reaped_fails)
{
	quick_demos();
	EXPECT_DEMO_MATCH(DEMO_ENV, "demo_child_exits_badly_unreaped",
			  "FAIL " SUITE "demo_child_exits_badly_unreaped: child child_exits_3 "
			  "(pid *) exited with status 3, and the test body returned "
			  "without reaping it");
}

TEST(a_grandchild_still_running_when_its_parent_returns_fails)
{
	quick_demos();
	EXPECT_DEMO_MATCH(DEMO_ENV, "demo_grandchild_left_by_a_child",
			  "FAIL " SUITE "demo_grandchild_left_by_a_child: child "
			  "child_sleeps_forever (pid *) was still running 300 ms after "
			  "child child_leaves_a_grandchild returned: *");
}

TEST(a_process_left_running_fails)
{
	quick_demos();
	EXPECT_DEMO_MATCH(DEMO_ENV, "demo_process_left_running",
			  "FAIL " SUITE "demo_process_left_running: left 1 process(es) "
			  "running after the test body returned: *(exe, state S) "
			  "(reap or kill what the test starts)");
}

#define FREEZER_ROOT "/tmp/kbt-freezer"
#define FREEZER_CG FREEZER_ROOT "/demo"

/* Thaw the demo's cgroup, wait until what was in it is gone, remove it. */
static void thaw_and_wait(void)
{
	int64_t deadline = kbt_now_ms() + 10000;
	char procs[64];

	EXPECT_OK(cg_write(FREEZER_CG, "freezer.state", "THAWED"));
	do {
		cg_read(FREEZER_CG, "cgroup.procs", procs, sizeof(procs));
		if (procs[0])
			kbt_msleep(10);
	} while (procs[0] && kbt_now_ms() < deadline);
	EXPECT_EQ(procs[0], 0);
	EXPECT_OK(rmdir(FREEZER_CG));
}

TEST(a_process_the_cleanup_cannot_end_fails_the_test)
{
	mkdir(FREEZER_ROOT, 0700);
	if (mount("kbt-freezer", FREEZER_ROOT, "cgroup", 0, "freezer")) {
		int err = errno;

		rmdir(FREEZER_ROOT);
		SKIP("no cgroup v1 freezer to hold a process (mount: %s)",
		     strerror(err));
	}
	ASSERT_OK(mkdir(FREEZER_CG, 0700));
	ASSERT_OK(setenv(FREEZER_ENV, FREEZER_CG, 1));
	quick_demos();
	EXPECT_DEMO_MATCH(DEMO_ENV, "demo_process_that_will_not_die",
			  "FAIL " SUITE "demo_process_that_will_not_die: left 1 process(es) "
			  "running after the test body returned: *; could not end 1 "
			  "process(es) of the test within 500 ms of SIGKILL: "
			  "*(exe, state *)");
	thaw_and_wait();
	EXPECT_OK(umount2(FREEZER_ROOT, 0));
	rmdir(FREEZER_ROOT);
}
