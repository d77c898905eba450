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

#define DEMO_ENV "KBT_QUIET_DEMO"

/* A "binder thread" on /dev/null: every read is an error (ENOTTY). */
static int null_thread(struct kbinder_thread *t)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	ASSERT_GE(fd, 0);
	kbinder_thread_init(t, fd);
	return fd;
}

static void demo_error_is_not_silence(void)
{
	struct kbinder_thread t;
	int fd = null_thread(&t);

	ASSERT_EQ(kbt_no_event(&t, 200), 0);
	close(fd);
}

static void demo_error_is_not_silence_for_no_work(void)
{
	struct kbinder_thread t;
	int fd = null_thread(&t);

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
	KBT_DEMO(demo_error_is_not_silence),
	KBT_DEMO(demo_error_is_not_silence_for_no_work), KBT_DEMO(demo_quiet_is_silence),
};
KBT_DEMOS(DEMO_ENV, demos);

/* Demo @name's result line starts with @head and holds @part. */
static void expect_demo_line(const char *name, const char *head,
			     const char *part)
{
	char line[1024];

	kbt_demo_result(DEMO_ENV, name, line, sizeof(line));
	if (strncmp(line, head, strlen(head)) || !strstr(line, part))
		kbt_fail(__FILE__, __LINE__, false,
			 "result line \"%s\", want \"%s...%s...\"", line,
			 head, part);
}

TEST(a_driver_error_fails_a_no_event_check)
{
	expect_demo_line("demo_error_is_not_silence",
			 "FAIL harness_quiet/demo_error_is_not_silence: ",
			 "waiting for nothing to arrive: the driver said -25");
}

TEST(a_driver_error_fails_a_no_work_check)
{
	expect_demo_line("demo_error_is_not_silence_for_no_work",
			 "FAIL harness_quiet/demo_error_is_not_silence_for_no_work: ",
			 "waiting for nothing to arrive: the driver said -25");
}

TEST(a_quiet_binder_thread_passes_the_checks)
{
	expect_demo_line("demo_quiet_is_silence",
			 "PASS harness_quiet/demo_quiet_is_silence", "");
}
