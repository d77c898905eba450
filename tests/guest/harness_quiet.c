// SPDX-License-Identifier: Apache-2.0
/*
 * "Nothing arrived" checks are tested: kbt_no_event() and kbt_no_work()
 * return 0 only when the wait ends quietly; an error from the driver
 * fails the test that asked, naming the error, instead of passing as
 * silence. Like harness_fdcheck, the tests run this very program again
 * with demo tests that exist only there.
 */
#include "binder_util.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>

/* A "binder thread" on /dev/null: every read is an error (ENOTTY). */
static void demo_error_is_not_silence(void)
{
	struct kbinder_thread t;
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	ASSERT_GE(fd, 0);
	kbinder_thread_init(&t, fd);
	ASSERT_EQ(kbt_no_event(&t, 200), 0);
	close(fd);
}

static void demo_error_is_not_silence_for_no_work(void)
{
	struct kbinder_thread t;
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	ASSERT_GE(fd, 0);
	kbinder_thread_init(&t, fd);
	ASSERT_EQ(kbt_no_work(&t, 200), 0);
	close(fd);
}

/* A real, idle binder thread: quiet. */
static void demo_quiet_is_silence(void)
{
	struct kbinder_thread t;
	struct kbinder_proc p;

	kbt_client(&p, &t);
	ASSERT_EQ(kbt_no_event(&t, 200), 0);
	ASSERT_EQ(kbt_no_work(&t, 200), 0);
	kbinder_proc_close(&p);
}

static struct kbt_test demos[] = {
	{ "demo_error_is_not_silence", demo_error_is_not_silence, 10, NULL },
	{ "demo_error_is_not_silence_for_no_work", demo_error_is_not_silence_for_no_work, 10, NULL },
	{ "demo_quiet_is_silence", demo_quiet_is_silence, 10, NULL },
};

__attribute__((constructor)) static void register_demos(void)
{
	size_t i;

	if (!getenv("KBT_QUIET_DEMO"))
		return;
	for (i = 0; i < sizeof(demos) / sizeof(demos[0]); i++)
		kbt_register(&demos[i]);
}

/* Run demo @name in a fresh copy of this program; its result line to @line. */
static void run_demo(const char *name, char *line, size_t size)
{
	char out[2048], *l, *save;
	size_t len = 0;
	int p[2];
	pid_t pid;

	ASSERT_OK(pipe2(p, O_CLOEXEC));
	fflush(NULL);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		char *argv[] = { "harness_quiet", (char *)name, NULL };
		int devnull = open("/dev/null", O_WRONLY);

		dup2(p[1], 1);
		if (devnull >= 0)
			dup2(devnull, 2);
		unsetenv("KBINDER_RESULTS");	/* no demo FAIL in the run's tally */
		setenv("KBT_QUIET_DEMO", "1", 1);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	close(p[1]);
	for (;;) {
		ssize_t n = read(p[0], out + len, sizeof(out) - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	out[len] = 0;
	close(p[0]);
	ASSERT_GE(kbt_reap(pid, 20000), 0);
	line[0] = 0;
	for (l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (!strncmp(l, "PASS ", 5) || !strncmp(l, "FAIL ", 5) ||
		    !strncmp(l, "SKIP ", 5))
			snprintf(line, size, "%s", l);
	if (!line[0])
		kbt_fail(__FILE__, __LINE__, true, "demo %s: no result line", name);
}

#define EXPECT_LINE_HAS(line, head, part) do {				\
	if (strncmp((line), (head), strlen(head)) || !strstr((line), (part))) \
		kbt_fail(__FILE__, __LINE__, false,			\
			 "result line \"%s\", want \"%s...%s...\"", (line), \
			 (head), (part));				\
} while (0)

TEST(a_driver_error_fails_a_no_event_check)
{
	char line[1024];

	run_demo("demo_error_is_not_silence", line, sizeof(line));
	EXPECT_LINE_HAS(line, "FAIL harness_quiet/demo_error_is_not_silence: ",
			"waiting for nothing to arrive: the driver said -25");
}

TEST(a_driver_error_fails_a_no_work_check)
{
	char line[1024];

	run_demo("demo_error_is_not_silence_for_no_work", line, sizeof(line));
	EXPECT_LINE_HAS(line, "FAIL harness_quiet/demo_error_is_not_silence_for_no_work: ",
			"waiting for nothing to arrive: the driver said -25");
}

TEST(a_quiet_binder_thread_passes_the_checks)
{
	char line[1024];

	run_demo("demo_quiet_is_silence", line, sizeof(line));
	EXPECT_LINE_HAS(line, "PASS harness_quiet/demo_quiet_is_silence", "");
}
