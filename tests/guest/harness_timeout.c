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
}

static struct kbt_test demos[] = {
	{ "demo_hangs_with_escaped_children", demo_hangs_with_escaped_children, 60, NULL },
	{ "demo_short_timeout", demo_short_timeout, 2, NULL },
	{ "demo_passes", demo_passes, 10, NULL },
};

__attribute__((constructor)) static void register_demos(void)
{
	size_t i;

	if (!getenv("KBT_TIMEOUT_DEMO"))
		return;
	for (i = 0; i < sizeof(demos) / sizeof(demos[0]); i++)
		kbt_register(&demos[i]);
}

/*
 * Run the demo tests matching @globs (NULL-terminated) in a fresh copy of
 * this program with KBT_PROGRAM_TIMEOUT=@budget (0: none); send it SIGTERM
 * after @term_ms (0: never). Its result lines go to @out.
 */
static void run_demos(const char *const *globs, int budget, int term_ms,
		      char *out, size_t size, int *elapsed_ms)
{
	char *argv[8] = { "harness_timeout" };
	int64_t start = kbt_now_ms();
	size_t len = 0, i;
	int p[2];
	pid_t pid;

	for (i = 0; globs[i] && i < 6; i++)
		argv[i + 1] = (char *)globs[i];
	unlink(pid_file());
	ASSERT_OK(pipe2(p, O_CLOEXEC));
	fflush(NULL);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		char budget_s[16];
		int devnull = open("/dev/null", O_WRONLY);

		dup2(p[1], 1);
		if (devnull >= 0)
			dup2(devnull, 2);
		unsetenv("KBINDER_RESULTS");	/* no demo FAIL in the run's tally */
		setenv("KBT_TIMEOUT_DEMO", "1", 1);
		snprintf(budget_s, sizeof(budget_s), "%d", budget);
		if (budget)
			setenv("KBT_PROGRAM_TIMEOUT", budget_s, 1);
		else
			unsetenv("KBT_PROGRAM_TIMEOUT");
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	close(p[1]);
	if (term_ms) {
		kbt_msleep(term_ms);
		kill(pid, SIGTERM);
	}
	for (;;) {
		ssize_t n = read(p[0], out + len, size - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	out[len] = 0;
	close(p[0]);
	ASSERT_EQ(kbt_reap(pid, 20000), 1);	/* it reported failures */
	*elapsed_ms = (int)(kbt_now_ms() - start);
}

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

TEST(a_program_budget_cuts_the_running_test_and_reports_the_rest)
{
	const char *globs[] = { "demo_hangs_with_escaped_children", "demo_passes", NULL };
	char out[4096];
	int ms;

	setenv("KBT_TIMEOUT_DEMO_TAG", "budget", 1);
	run_demos(globs, 4, 0, out, sizeof(out), &ms);
	EXPECT_HAS(out, "FAIL harness_timeout/demo_hangs_with_escaped_children: "
			"timed out: the program's 4 s budget ran out before the test's own 60 s\n");
	EXPECT_HAS(out, "FAIL harness_timeout/demo_passes: not run: the program's time budget ran out\n");
	EXPECT_LT(ms, 15000);
	expect_all_gone();
}

TEST(sigterm_ends_the_running_test_with_everything_it_started)
{
	const char *globs[] = { "demo_hangs_with_escaped_children", "demo_passes", NULL };
	char out[4096];
	int ms;

	setenv("KBT_TIMEOUT_DEMO_TAG", "term", 1);
	run_demos(globs, 0, 1500, out, sizeof(out), &ms);
	EXPECT_HAS(out, "FAIL harness_timeout/demo_hangs_with_escaped_children: "
			"killed by the program timeout (signal 15) before its own 60 s\n");
	EXPECT_HAS(out, "FAIL harness_timeout/demo_passes: not run: the program was killed (timeout)\n");
	EXPECT_LT(ms, 15000);
	expect_all_gone();
}

TEST(a_test_timeout_within_the_budget_fires_first)
{
	const char *globs[] = { "demo_short_timeout", "demo_passes", NULL };
	char out[4096];
	int ms;

	setenv("KBT_TIMEOUT_DEMO_TAG", "own", 1);
	run_demos(globs, 60, 0, out, sizeof(out), &ms);
	EXPECT_HAS(out, "FAIL harness_timeout/demo_short_timeout: timed out after 2 s\n");
	EXPECT_HAS(out, "PASS harness_timeout/demo_passes\n");
	EXPECT_LT(ms, 15000);
}
