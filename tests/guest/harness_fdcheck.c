// SPDX-License-Identifier: Apache-2.0
/*
 * The harness's fd check, checked: a check that cannot fail is worthless.
 *
 * The first tests drive the snapshot and diff functions directly with real
 * fds (open one between two snapshots, close one, dup2 over one) and with
 * made-up snapshots. The last ones run this very program again with demo
 * tests that leak or close an fd on purpose (registered only when
 * KBT_FDCHECK_DEMO is set) and read the result lines it prints: the
 * automatic check of a test body and of a kbt_fork() child must turn them
 * into FAILs that name the fd, its target and the culprit.
 */
#include "harness.h"	/* first: it sets _GNU_SOURCE */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <unistd.h>

#define EVENTFD_TARGET "anon_inode:[eventfd]"
#define DEMO_ENV "KBT_FDCHECK_DEMO"

/* The readlink target of one of our fds, as the snapshot records it. */
static void fd_target(int fd, char *buf, size_t size)
{
	char path[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, buf, size - 1);
	ASSERT_GT(n, 0);
	buf[n] = 0;
}

static int new_eventfd(void)
{
	int fd = eventfd(0, EFD_CLOEXEC);

	ASSERT_GE(fd, 0);
	return fd;
}

TEST(two_snapshots_of_an_unchanged_table_do_not_differ)
{
	struct kbt_fd_snap a, b;

	ASSERT_OK(kbt_fd_snapshot(&a));
	ASSERT_OK(kbt_fd_snapshot(&b));
	ASSERT_GE(a.n, 3);	/* stdin, stdout, stderr at least */
	EXPECT_EQ(kbt_fd_diff(&a, &b, NULL, 0), 0);
	kbt_fd_snap_free(&a);
	kbt_fd_snap_free(&b);
}

TEST(the_snapshot_leaves_out_its_own_directory_fd)
{
	struct kbt_fd_snap s;
	size_t i;

	ASSERT_OK(kbt_fd_snapshot(&s));
	EXPECT_EQ(s.n, kbt_fd_count());
	for (i = 0; i < s.n; i++) {
		EXPECT_FALSE(strstr(s.e[i].target, "/fd") &&
			     !strncmp(s.e[i].target, "/proc/", 6));
		if (i)
			EXPECT_LT(s.e[i - 1].fd, s.e[i].fd);
	}
	kbt_fd_snap_free(&s);
}

/*
 * Snapshot @b (after @a): exactly one fd changed, @fd, as @kind. @ch gets
 * the change (its targets point into @a and @b).
 */
static void expect_one_change(struct kbt_fd_snap *a, struct kbt_fd_snap *b,
			      int fd, enum kbt_fd_kind kind,
			      struct kbt_fd_change *ch)
{
	ASSERT_OK(kbt_fd_snapshot(b));
	ASSERT_EQ(kbt_fd_diff(a, b, ch, 1), 1);
	EXPECT_EQ(ch->fd, fd);
	EXPECT_EQ(ch->kind, kind);
}

TEST(an_fd_opened_between_snapshots_is_reported_added)
{
	struct kbt_fd_snap a, b;
	struct kbt_fd_change ch;
	int efd;

	ASSERT_OK(kbt_fd_snapshot(&a));
	efd = new_eventfd();
	expect_one_change(&a, &b, efd, KBT_FD_ADDED, &ch);
	EXPECT_TRUE(ch.before == NULL);
	ASSERT_TRUE(ch.after != NULL);
	EXPECT_EQ(strcmp(ch.after, EVENTFD_TARGET), 0);
	close(efd);
	kbt_fd_snap_free(&a);
	kbt_fd_snap_free(&b);
}

TEST(an_fd_closed_between_snapshots_is_reported_removed)
{
	struct kbt_fd_snap a, b;
	struct kbt_fd_change ch;
	int efd = new_eventfd();

	ASSERT_OK(kbt_fd_snapshot(&a));
	close(efd);
	expect_one_change(&a, &b, efd, KBT_FD_REMOVED, &ch);
	EXPECT_TRUE(ch.after == NULL);
	ASSERT_TRUE(ch.before != NULL);
	EXPECT_EQ(strcmp(ch.before, EVENTFD_TARGET), 0);
	kbt_fd_snap_free(&a);
	kbt_fd_snap_free(&b);
}

TEST(dup2_over_an_fd_is_reported_retargeted)
{
	char pipe_target[KBT_FD_TARGET_MAX];
	struct kbt_fd_snap a, b;
	struct kbt_fd_change ch;
	int p[2], efd = new_eventfd();

	ASSERT_OK(pipe2(p, O_CLOEXEC));
	fd_target(p[0], pipe_target, sizeof(pipe_target));
	ASSERT_OK(kbt_fd_snapshot(&a));
	ASSERT_EQ(dup2(p[0], efd), efd);
	expect_one_change(&a, &b, efd, KBT_FD_RETARGETED, &ch);
	ASSERT_TRUE(ch.before != NULL && ch.after != NULL);
	EXPECT_EQ(strcmp(ch.before, EVENTFD_TARGET), 0);
	EXPECT_EQ(strcmp(ch.after, pipe_target), 0);
	close(efd);
	close(p[0]);
	close(p[1]);
	kbt_fd_snap_free(&a);
	kbt_fd_snap_free(&b);
}

TEST(changes_come_in_fd_order_and_all_are_counted)
{
	struct kbt_fd_entry be[] = {
		{ 3, "same" }, { 5, "old" }, { 7, "gone" },
	};
	struct kbt_fd_entry ae[] = {
		{ 3, "same" }, { 4, "new" }, { 5, "other" }, { 9, "late" },
	};
	struct kbt_fd_snap before = { 3, be }, after = { 4, ae };
	struct kbt_fd_change ch[8];

	ASSERT_EQ(kbt_fd_diff(&before, &after, ch, 8), 4);
	EXPECT_EQ(ch[0].fd, 4);
	EXPECT_EQ(ch[0].kind, KBT_FD_ADDED);
	EXPECT_EQ(ch[1].fd, 5);
	EXPECT_EQ(ch[1].kind, KBT_FD_RETARGETED);
	EXPECT_EQ(strcmp(ch[1].before, "old"), 0);
	EXPECT_EQ(strcmp(ch[1].after, "other"), 0);
	EXPECT_EQ(ch[2].fd, 7);
	EXPECT_EQ(ch[2].kind, KBT_FD_REMOVED);
	EXPECT_EQ(ch[3].fd, 9);
	EXPECT_EQ(ch[3].kind, KBT_FD_ADDED);

	/* a short output array still gets the full count and the first ones */
	memset(ch, 0, sizeof(ch));
	ASSERT_EQ(kbt_fd_diff(&before, &after, ch, 1), 4);
	EXPECT_EQ(ch[0].fd, 4);
	EXPECT_EQ(ch[1].fd, 0);
	/* and the reverse direction swaps added and removed */
	ASSERT_EQ(kbt_fd_diff(&after, &before, ch, 8), 4);
	EXPECT_EQ(ch[0].kind, KBT_FD_REMOVED);
	EXPECT_EQ(ch[2].kind, KBT_FD_ADDED);
}

TEST(a_change_is_described_by_fd_target_and_culprit)
{
	struct kbt_fd_change add = { 5, KBT_FD_ADDED, NULL, EVENTFD_TARGET };
	struct kbt_fd_change del = { 3, KBT_FD_REMOVED, "/dev/binder", NULL };
	struct kbt_fd_change re = { 4, KBT_FD_RETARGETED, "pipe:[1]", "/dev/null" };
	char buf[256];

	kbt_fd_change_str(&add, "receiver", buf, sizeof(buf));
	EXPECT_EQ(strcmp(buf, "fd 5 (anon_inode:[eventfd]) leaked by receiver"), 0);
	kbt_fd_change_str(&del, "test body", buf, sizeof(buf));
	EXPECT_EQ(strcmp(buf, "fd 3 (/dev/binder) closed by test body, which did not open it"), 0);
	kbt_fd_change_str(&re, "child server", buf, sizeof(buf));
	EXPECT_EQ(strcmp(buf, "fd 4 (pipe:[1]) replaced by child server with /dev/null"), 0);
}

/* ---------------------------------------------------------------- */
/* the automatic check, seen from outside                            */
/* ---------------------------------------------------------------- */

static void demo_leaks_in_body(void)
{
	new_eventfd();
}

static void demo_closes_and_cleans_up(void)
{
	close(new_eventfd());
}

static void demo_closes_stdin(void)
{
	close(0);
}

static void leaky_receiver(void *arg)
{
	(void)arg;
	new_eventfd();
}

static void demo_child_leaks(void)
{
	ASSERT_EQ(kbt_reap(kbt_fork(leaky_receiver, NULL), 10000), 1);
}

static void leaky_other_uid(void *arg)
{
	(void)arg;
	ASSERT_EQ(setresuid(4321, 4321, 0), 0);
	new_eventfd();
}

static void demo_child_of_other_uid_leaks(void)
{
	ASSERT_EQ(kbt_reap(kbt_fork(leaky_other_uid, NULL), 10000), 1);
}

static void demo_exit_is_not_checked(void)
{
	new_eventfd();
	_exit(0);
}

static struct kbt_test demos[] = {
	KBT_DEMO(demo_leaks_in_body), KBT_DEMO(demo_closes_and_cleans_up),
	KBT_DEMO(demo_closes_stdin), KBT_DEMO(demo_child_leaks),
	KBT_DEMO(demo_child_of_other_uid_leaks), KBT_DEMO(demo_exit_is_not_checked),
};

/* The demos exist only in the copy of this program that the tests run. */
KBT_DEMOS(DEMO_ENV, demos);

/*
 * @line is @head, an fd number, @tail. The number is not predictable from
 * here: the demo is a fresh program whose table differs from ours.
 */
static bool line_names_an_fd(const char *line, const char *head,
			     const char *tail)
{
	size_t n = strlen(head);
	const char *p = line + n;

	if (strncmp(line, head, n) || *p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	return !strcmp(p, tail);
}

/* Demo @name fails naming one fd (which number, only it knows) and @tail. */
static void expect_fd_demo(const char *name, const char *tail)
{
	char line[KBT_FD_TARGET_MAX * 2], head[256];

	kbt_demo_result(DEMO_ENV, name, line, sizeof(line));
	snprintf(head, sizeof(head), "FAIL harness_fdcheck/%s: fd ", name);
	if (!line_names_an_fd(line, head, tail))
		kbt_fail(__FILE__, __LINE__, false,
			 "result line \"%s\", want \"%sN%s\"", line, head, tail);
}

TEST(a_test_body_that_leaks_an_fd_fails_naming_it)
{
	expect_fd_demo("demo_leaks_in_body",
		       " (" EVENTFD_TARGET ") leaked by test body");
}

TEST(a_test_body_that_closes_what_it_opens_passes)
{
	EXPECT_DEMO(DEMO_ENV, "demo_closes_and_cleans_up",
		    "PASS harness_fdcheck/demo_closes_and_cleans_up");
}

TEST(a_test_body_that_closes_an_fd_it_did_not_open_fails)
{
	char want[KBT_FD_TARGET_MAX * 2], stdin_target[KBT_FD_TARGET_MAX];

	fd_target(0, stdin_target, sizeof(stdin_target));
	snprintf(want, sizeof(want),
		 "FAIL harness_fdcheck/demo_closes_stdin: fd 0 (%s) closed by test body, which did not open it",
		 stdin_target);
	EXPECT_DEMO(DEMO_ENV, "demo_closes_stdin", want);
}

TEST(a_forked_child_that_leaks_an_fd_fails_the_test_naming_it)
{
	expect_fd_demo("demo_child_leaks",
		       " (" EVENTFD_TARGET ") leaked by child leaky_receiver");
}

/* A child that dropped root (non-dumpable now) is checked all the same. */
TEST(a_child_that_changed_its_uid_is_still_checked)
{
	if (geteuid() != 0)
		SKIP("needs root to change uid");
	expect_fd_demo("demo_child_of_other_uid_leaks",
		       " (" EVENTFD_TARGET ") leaked by child leaky_other_uid");
}

/*
 * A body that exits instead of returning has no "after" for the fd check,
 * and fails for not returning (harness_verdict.c).
 */
TEST(an_exit_without_returning_fails_without_an_fd_check)
{
	EXPECT_DEMO(DEMO_ENV, "demo_exit_is_not_checked",
		    "FAIL harness_fdcheck/demo_exit_is_not_checked: the test body exited (status 0) without returning: what followed the exit never ran");
}
