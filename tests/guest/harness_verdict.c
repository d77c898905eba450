// SPDX-License-Identifier: Apache-2.0
/*
 * How the harness reaches a verdict, checked. A test body passes only if
 * it returned: one that calls exit(0) (or _exit(0) in a helper) before its
 * assertions ran did not test anything, and a status of 77 is a skip only
 * when SKIP() said so. A test that made no assertion at all (an empty
 * body, a return before the first) fails too, unless it declared that the
 * end-of-test checks are its verdict; an assertion in a child counts.
 * The kernel-log check after each test knows every pattern of
 * tests/vm/splats.list, each caught by itself (the host's scan reads the
 * same list), and in an expected stack dump's window lets only the traces
 * of plain stack dumps through.
 *
 * Like harness_fdcheck, the first tests run this very program again with
 * demo tests that exist only there (KBT_VERDICT_DEMO) and read the result
 * lines it prints; the last ones feed kbt_kmsg_scan() crafted records
 * through a SOCK_SEQPACKET pair (one record a read, as /dev/kmsg).
 */
#include "harness.h"	/* first: it sets _GNU_SOURCE */

#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kbt_splats.h"	/* generated from tests/vm/splats.list */

#define DEMO_ENV "KBT_VERDICT_DEMO"

static void demo_exit0_before_its_assertions(void)
{
	exit(0);
	ASSERT_EQ(1, 2);	/* never reached: that is the point */
}

static void helper_that_exits(void)
{
	_exit(0);
}

static void demo_helper_exits(void)
{
	helper_that_exits();
	ASSERT_EQ(1, 2);
}

static void demo_status_77_without_skip(void)
{
	_exit(77);
}

static void demo_skips(void)
{
	SKIP("a skip the harness was told about");
}

static void demo_returns(void)
{
	ASSERT_EQ(1, 1);
}

/*
 * A process the body forked (plain fork()) falls through the body's code
 * and returns from it; the body itself then exits. The child's return is
 * not the body's.
 */
static bool in_a_child_that_was_waited_for(void)
{
	pid_t pid = fork();

	if (pid == 0)
		return true;
	ASSERT_GE(pid, 0);
	ASSERT_EQ(waitpid(pid, NULL, 0), pid);
	return false;
}

static void demo_only_a_child_returns(void)
{
	if (in_a_child_that_was_waited_for())
		return;
	exit(0);
}

/* The same child, and then the body returns: a pass. */
static void demo_a_child_and_the_body_return(void)
{
	in_a_child_that_was_waited_for();
}

static void demo_asserts_nothing(void)
{
}

static void demo_returns_before_its_assertions(void)
{
	if (getpid() > 0)
		return;
	ASSERT_EQ(1, 2);
}

static void demo_end_checks_are_its_verdict(void)
{
	END_CHECKS_ARE_THE_VERDICT("a demo: its verdict is that it returned");
}

static void child_asserts(void *arg)
{
	(void)arg;
	EXPECT_EQ(getppid() > 1, true);
}

/* The body asserts nothing itself; its child does, and counts. */
static void demo_only_a_child_asserts(void)
{
	pid_t pid = kbt_fork(child_asserts, NULL);
	int st;

	if (waitpid(pid, &st, 0) != pid)
		kbt_log("waitpid: %s", strerror(errno));
}

/*
 * A task blocked in D state for as long as it takes the kernel's hung-task
 * detector to report it: thread A writes to a pipe from a page that faults
 * into a userfaultfd nobody serves, holding the pipe's mutex; thread B's
 * write waits for that mutex, uninterruptibly. The guest boots with a
 * hung-task threshold short enough for this to happen inside a test's
 * time (tests/vm/run.sh): the report must fail the test. Run alone by the
 * runner's own boot (tests/vm/guest/programs.sh), not by check boots.
 */
struct hang {
	int pipe[2];
	void *page;
	pid_t b_tid;
};

static void *hang_writer_a(void *arg)
{
	struct hang *h = arg;

	if (write(h->pipe[1], h->page, 4096) != 4096)
		kbt_log("writer A: %s", strerror(errno));
	return NULL;
}

static void *hang_writer_b(void *arg)
{
	struct hang *h = arg;

	__atomic_store_n(&h->b_tid, gettid(), __ATOMIC_SEQ_CST);
	if (write(h->pipe[1], "b", 1) != 1)
		kbt_log("writer B: %s", strerror(errno));
	return NULL;
}

/* The state letter of thread @tid of this process ('?' if unknown). */
static char thread_state(pid_t tid)
{
	char path[64], buf[512], *p;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return '?';
	kbt_read_all(fd, buf, sizeof(buf));
	close(fd);
	p = strrchr(buf, ')');
	return p && p[1] && p[2] ? p[2] : '?';
}

/* Wait up to @ms for a kernel log record holding @what on @kmsg. */
static bool kmsg_wait_for(int kmsg, const char *what, int ms)
{
	int64_t deadline = kbt_now_ms() + ms;
	char rec[2048];

	while (kbt_now_ms() < deadline) {
		ssize_t n = read(kmsg, rec, sizeof(rec) - 1);

		if (n < 0 && errno == EAGAIN) {
			kbt_msleep(100);
			continue;
		}
		if (n <= 0)
			continue;
		rec[n] = 0;
		if (strstr(rec, what))
			return true;
	}
	return false;
}

static void demo_a_hung_task(void)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	struct uffdio_zeropage zero = { .mode = 0 };
	struct pollfd pfd = { .events = POLLIN };
	struct hang h = { .b_tid = 0 };
	pthread_t a, b;
	int64_t deadline;
	int kmsg;

	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ASSERT_GE(kmsg, 0);
	lseek(kmsg, 0, SEEK_END);
	pfd.fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	ASSERT_GE(pfd.fd, 0);
	ASSERT_OK(ioctl(pfd.fd, UFFDIO_API, &api));
	h.page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(h.page != MAP_FAILED);
	reg.range.start = (uintptr_t)h.page;
	reg.range.len = 4096;
	ASSERT_OK(ioctl(pfd.fd, UFFDIO_REGISTER, &reg));
	ASSERT_OK(pipe2(h.pipe, O_CLOEXEC));
	ASSERT_OK(pthread_create(&a, NULL, hang_writer_a, &h));
	/* A faulted: it holds the pipe's mutex, waiting on the userfaultfd */
	ASSERT_EQ(poll(&pfd, 1, 10000), 1);
	ASSERT_OK(pthread_create(&b, NULL, hang_writer_b, &h));
	deadline = kbt_now_ms() + 10000;
	while ((!h.b_tid || thread_state(h.b_tid) != 'D') && kbt_now_ms() < deadline)
		kbt_msleep(10);
	ASSERT_EQ(thread_state(h.b_tid), 'D');
	kbt_log("writer B (tid %d) is blocked uninterruptibly; waiting for the hung-task report",
		(int)h.b_tid);
	EXPECT_TRUE(kmsg_wait_for(kmsg, "blocked for more than", 25000));
	zero.range = reg.range;
	ASSERT_OK(ioctl(pfd.fd, UFFDIO_ZEROPAGE, &zero));
	ASSERT_OK(pthread_join(a, NULL));
	ASSERT_OK(pthread_join(b, NULL));
	close(h.pipe[0]);
	close(h.pipe[1]);
	close(pfd.fd);
	close(kmsg);
	munmap(h.page, 4096);
}

static struct kbt_test demos[] = {
	KBT_DEMO(demo_exit0_before_its_assertions), KBT_DEMO(demo_helper_exits),
	KBT_DEMO(demo_status_77_without_skip), KBT_DEMO(demo_skips),
	KBT_DEMO(demo_returns), KBT_DEMO(demo_only_a_child_returns),
	KBT_DEMO(demo_a_child_and_the_body_return),
	KBT_DEMO(demo_asserts_nothing), KBT_DEMO(demo_returns_before_its_assertions),
	KBT_DEMO(demo_end_checks_are_its_verdict), KBT_DEMO(demo_only_a_child_asserts),
	KBT_DEMO_TIMEOUT(demo_a_hung_task, KBT_DEFAULT_TIMEOUT),
};

KBT_DEMOS(DEMO_ENV, demos);

#define NOT_RETURNED ": the test body exited (status 0) without returning: what followed the exit never ran"

TEST(a_body_that_exits_0_before_its_assertions_fails)
{
	EXPECT_DEMO(DEMO_ENV, "demo_exit0_before_its_assertions",
		    "FAIL harness_verdict/demo_exit0_before_its_assertions" NOT_RETURNED);
}

TEST(a_body_whose_helper_exits_fails)
{
	EXPECT_DEMO(DEMO_ENV, "demo_helper_exits",
		    "FAIL harness_verdict/demo_helper_exits" NOT_RETURNED);
}

TEST(status_77_without_skip_is_not_a_skip)
{
	EXPECT_DEMO(DEMO_ENV, "demo_status_77_without_skip",
		    "FAIL harness_verdict/demo_status_77_without_skip: the test body exited with status 77 without SKIP()");
}

TEST(skip_is_a_skip)
{
	EXPECT_DEMO(DEMO_ENV, "demo_skips",
		    "SKIP harness_verdict/demo_skips: a skip the harness was told about");
}

TEST(a_body_that_returns_passes)
{
	EXPECT_DEMO(DEMO_ENV, "demo_returns", "PASS harness_verdict/demo_returns");
}

TEST(a_forked_child_returning_is_not_the_body_returning)
{
	EXPECT_DEMO(DEMO_ENV, "demo_only_a_child_returns",
		    "FAIL harness_verdict/demo_only_a_child_returns" NOT_RETURNED);
	EXPECT_DEMO(DEMO_ENV, "demo_a_child_and_the_body_return",
		    "PASS harness_verdict/demo_a_child_and_the_body_return");
}

#define NO_ASSERTION ": the test made no assertion: it checked nothing (assert what it checks, or say END_CHECKS_ARE_THE_VERDICT() and why)"

TEST(a_body_that_asserts_nothing_fails)
{
	EXPECT_DEMO(DEMO_ENV, "demo_asserts_nothing",
		    "FAIL harness_verdict/demo_asserts_nothing" NO_ASSERTION);
}

TEST(a_body_that_returns_before_its_assertions_fails)
{
	EXPECT_DEMO(DEMO_ENV, "demo_returns_before_its_assertions",
		    "FAIL harness_verdict/demo_returns_before_its_assertions" NO_ASSERTION);
}

TEST(a_test_whose_verdict_is_the_end_checks_needs_no_assertion)
{
	EXPECT_DEMO(DEMO_ENV, "demo_end_checks_are_its_verdict",
		    "PASS harness_verdict/demo_end_checks_are_its_verdict");
}

TEST(an_assertion_in_a_child_counts_for_the_test)
{
	EXPECT_DEMO(DEMO_ENV, "demo_only_a_child_asserts",
		    "PASS harness_verdict/demo_only_a_child_asserts");
}

/*
 * Feed @records (NULL-terminated) to kbt_kmsg_scan() as /dev/kmsg would,
 * one record a read. Return: what it found, with its why in @why.
 */
static bool scan(const char *const *records, char *why, size_t size)
{
	int sv[2];

	ASSERT_OK(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv));
	for (; *records; records++) {
		char rec[512];
		int n = snprintf(rec, sizeof(rec), "4,100,12000000,-;%s\n", *records);

		ASSERT_EQ(write(sv[1], rec, (size_t)n), n);
	}
	close(sv[1]);
	why[0] = 0;
	return kbt_kmsg_scan(sv[0], why, size);	/* closes sv[0] */
}

/* The pattern named @name, or -1. */
static long splat_index(const char *name)
{
	size_t i;

	for (i = 0; i < KBT_NSPLATS; i++)
		if (!strcmp(kbt_splats[i].name, name))
			return (long)i;
	return -1;
}

/*
 * Every example of tests/vm/splats.list, alone in the log after a clean
 * record, fails a test, quoted; and its own pattern catches it (not only
 * another one), here as in the host's awk (runner/scan_fails_*).
 */
TEST(every_splat_pattern_fails_a_test)
{
	char why[1024], want[1024];
	size_t i;

	for (i = 0; i < KBT_NSPLAT_EXAMPLES; i++) {
		const struct kbt_splat_example *ex = &kbt_splat_examples[i];
		const char *const records[] = { "kbinder: loaded", ex->line, NULL };
		long own = splat_index(ex->name);
		const regex_t *re = own >= 0 ? kbt_splat_regex((size_t)own) : NULL;

		EXPECT_TRUE(scan(records, why, sizeof(why)));
		snprintf(want, sizeof(want), "kernel log: %s ", ex->line);
		if (strcmp(why, want))
			kbt_fail(__FILE__, __LINE__, false, "why \"%s\", want \"%s\"",
				 why, want);
		EXPECT_TRUE(re != NULL);
		if (re && regexec(re, ex->line, 0, NULL, 0))
			kbt_fail(__FILE__, __LINE__, false,
				 "pattern %s does not catch its own example \"%s\"",
				 ex->name, ex->line);
	}
	/* every pattern compiles, and has its example (splats.sh checks too) */
	for (i = 0; i < KBT_NSPLATS; i++) {
		size_t j, examples = 0;

		EXPECT_TRUE(kbt_splat_regex(i) != NULL);
		for (j = 0; j < KBT_NSPLAT_EXAMPLES; j++)
			examples += !strcmp(kbt_splat_examples[j].name, kbt_splats[i].name);
		EXPECT_GT(examples, 0);
	}
}

TEST(a_clean_log_passes)
{
	const char *const records[] = {
		"kbinder: loaded", "rcu: Hierarchical RCU implementation.",
		"CPU: 1 PID: 77 Comm: insmod Tainted: G           O       6.1.0-57-amd64 #1  Debian 6.1.0-57",
		"Freeing unused kernel image (initmem) memory: 2000K", NULL,
	};
	char why[1024];

	EXPECT_FALSE(scan(records, why, sizeof(why)));
}

#define DUMP_HEADER							\
	"sysfs: cannot create duplicate filename '/devices/virtual/misc/binder'", \
	"CPU: 1 PID: 9 Comm: insmod Tainted: G           OE      6.1.0-57-amd64 #1", \
	"Hardware name: QEMU Standard PC (i440FX + PIIX, 1996)"

TEST(only_plain_stack_dumps_pass_in_an_expected_dump)
{
	/* 6.1's sysfs dumps twice when drv_coexist's insmod clashes */
	const char *const two_dumps[] = {
		"kbinder-test: expect stack dump",
		DUMP_HEADER, "Call Trace:", " <TASK>", " dump_stack_lvl+0x44/0x5c", " </TASK>",
		DUMP_HEADER, "Call Trace:", " <TASK>", " </TASK>",
		"kbinder-test: expect end", NULL,
	};
	const char *const bare[] = {
		"kbinder-test: expect stack dump", " <TASK>", "Call Trace:",
		"kbinder-test: expect end", NULL,
	};
	const char *const bug[] = {
		"kbinder-test: expect stack dump", "kernel BUG at lib/list_debug.c:30!",
		DUMP_HEADER, "Call Trace:", "kbinder-test: expect end", NULL,
	};
	const char *const after[] = {
		"kbinder-test: expect stack dump", "kbinder-test: expect end",
		DUMP_HEADER, "Call Trace:", NULL,
	};
	char why[1024];

	EXPECT_FALSE(scan(two_dumps, why, sizeof(why)));
	EXPECT_TRUE(scan(bare, why, sizeof(why)));
	EXPECT_TRUE(scan(bug, why, sizeof(why)));
	EXPECT_TRUE(scan(after, why, sizeof(why)));
}
