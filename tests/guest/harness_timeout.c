// SPDX-License-Identifier: Apache-2.0
/*
 * The harness's time limits are tested: a test that hangs is killed with
 * everything it started, including processes that left its process group
 * or session; a program's time budget (KBT_PROGRAM_TIMEOUT, set by the
 * guest runner) cuts the running test short with a result of its own and
 * reports the tests it could not run, so no test silently vanishes; SIGTERM
 * (the runner's program timeout) does the same. Like harness_fdcheck, the
 * tests run this very program again with demo tests that exist only there.
 */
#include "harness.h"	/* first: it sets _GNU_SOURCE */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEMO_ENV "KBT_TIMEOUT_DEMO"

/* Where the demo leaves the pids of the processes it started. */
static const char *pid_file(void)
{
	static char path[64];

	snprintf(path, sizeof(path), "/tmp/kbt-timeout-pids.%s",
		 getenv("KBT_TIMEOUT_DEMO_TAG") ? getenv("KBT_TIMEOUT_DEMO_TAG") : "x");
	return path;
}

static void note_pid(void)
{
	int fd = open(pid_file(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	char line[32];
	int n = snprintf(line, sizeof(line), "%d\n", (int)getpid());

	if (fd >= 0) {
		if (write(fd, line, (size_t)n) != n)
			perror("write");
		close(fd);
	}
}

static void sleep_forever(void)
{
	for (;;)
		pause();
}

/*
 * Hang, with a child in a process group of its own and a grandchild in a
 * session of its own (whose parent then exits: an orphan), all asleep.
 */
static void demo_hangs_with_escaped_children(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		setpgid(0, 0);
		note_pid();
		if (fork() == 0) {
			if (fork() == 0) {
				setsid();
				note_pid();
				sleep_forever();
			}
			_exit(0);	/* its child is an orphan now */
		}
		sleep_forever();
	}
	sleep_forever();
}

static void demo_short_timeout(void)
{
	sleep_forever();
}

static void demo_passes(void)
{
	END_CHECKS_ARE_THE_VERDICT("a stand-in: whether it ran, and how, is the point");
}

static struct kbt_test demos[] = {
	KBT_DEMO_TIMEOUT(demo_hangs_with_escaped_children, 60),
	KBT_DEMO_TIMEOUT(demo_short_timeout, 2), KBT_DEMO(demo_passes),
};

KBT_DEMOS(DEMO_ENV, demos);

/* Every pid the demo wrote down is gone (killed and reaped). */
static void expect_all_gone(void)
{
	FILE *f = fopen(pid_file(), "re");
	int pid, n = 0;

	ASSERT_TRUE(f != NULL);
	while (fscanf(f, "%d", &pid) == 1) {
		n++;
		if (kill(pid, 0) == 0)
			kbt_fail(__FILE__, __LINE__, false,
				 "process %d the demo started is still running", pid);
	}
	fclose(f);
	unlink(pid_file());
	EXPECT_EQ(n, 2);	/* the child and the orphaned grandchild */
}

#define EXPECT_HAS(out, want) do {					\
	if (!strstr((out), (want)))					\
		kbt_fail(__FILE__, __LINE__, false,			\
			 "no \"%s\" in the demo's output \"%s\"", (want), (out)); \
} while (0)

/*
 * Run demo @first, then demo_passes, in a fresh copy of this program with
 * KBT_PROGRAM_TIMEOUT=@budget (0: none), SIGTERM after @term_ms (0: never);
 * their result lines must be @want_first and @want_passes, within 15 s.
 * @hangs: @first is the hanging demo, whose processes must all be gone.
 */
static void check_demos(const char *tag, const char *first, int budget,
			int term_ms, const char *want_first,
			const char *want_passes, bool hangs)
{
	const char *globs[] = { first, "demo_passes", NULL };
	int64_t start = kbt_now_ms();
	char out[4096];

	setenv("KBT_TIMEOUT_DEMO_TAG", tag, 1);
	unlink(pid_file());
	/* status 1: it reported failures */
	ASSERT_EQ(kbt_demo_run(DEMO_ENV, globs, budget, term_ms, out, sizeof(out)), 1);
	EXPECT_LT(kbt_now_ms() - start, 15000);
	EXPECT_HAS(out, want_first);
	EXPECT_HAS(out, want_passes);
	if (hangs)
		expect_all_gone();
}

TEST(a_program_budget_cuts_the_running_test_and_reports_the_rest)
{
	check_demos("budget", "demo_hangs_with_escaped_children", 4, 0,
		    "FAIL harness_timeout/demo_hangs_with_escaped_children: "
		    "timed out: the program's 4 s budget ran out before the test's own 60 s\n",
		    "FAIL harness_timeout/demo_passes: not run: the program's time budget ran out\n",
		    true);
}

TEST(sigterm_ends_the_running_test_with_everything_it_started)
{
	check_demos("term", "demo_hangs_with_escaped_children", 0, 1500,
		    "FAIL harness_timeout/demo_hangs_with_escaped_children: "
		    "killed by the program timeout (signal 15) before its own 60 s\n",
		    "FAIL harness_timeout/demo_passes: not run: the program was killed (timeout)\n",
		    true);
}

TEST(a_test_timeout_within_the_budget_fires_first)
{
	check_demos("own", "demo_short_timeout", 60, 0,
		    "FAIL harness_timeout/demo_short_timeout: timed out after 2 s\n",
		    "PASS harness_timeout/demo_passes\n", false);
}
