// SPDX-License-Identifier: Apache-2.0
/*
 * How the harness reaches a verdict, checked. A test body passes only if
 * it returned: one that calls exit(0) (or _exit(0) in a helper) before its
 * assertions ran did not test anything, and a status of 77 is a skip only
 * when SKIP() said so. The kernel-log check after each test knows every
 * splat pattern of tests/vm/scan-kernel-log.sh, and in an expected stack
 * dump's window lets only the traces of plain stack dumps through.
 *
 * Like harness_fdcheck, the first tests run this very program again with
 * demo tests that exist only there (KBT_VERDICT_DEMO) and read the result
 * lines it prints; the last ones feed kbt_kmsg_scan() crafted records
 * through a SOCK_SEQPACKET pair (one record a read, as /dev/kmsg).
 */
#include "harness.h"	/* first: it sets _GNU_SOURCE */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

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

static struct kbt_test demos[] = {
	KBT_DEMO(demo_exit0_before_its_assertions), KBT_DEMO(demo_helper_exits),
	KBT_DEMO(demo_status_77_without_skip), KBT_DEMO(demo_skips),
	KBT_DEMO(demo_returns), KBT_DEMO(demo_only_a_child_returns),
	KBT_DEMO(demo_a_child_and_the_body_return),
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

/* The lines of tests/check.sh's SCAN_CASES, each alone in the log. */
static const char *const splat_lines[] = {
	"kernel BUG at drivers/android/kbinder/work.c:397!",
	"invalid opcode: 0000 [#1] PREEMPT SMP NOPTI",
	"list_add corruption. prev->next should be next (ffff888004a1c008), but was ffff888004a1c000. (prev=ffff888004a1c008).",
	"list_del corruption, ffff888004a1c000->next is LIST_POISON1 (dead000000000100)",
	"list_add double add: new=ffff888004a1c000, prev=ffff888004a1c000, next=ffff888004a1c010.",
	"rcu: INFO: rcu_sched self-detected stall on CPU",
	"rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:",
	"rcu_tasks detected stalls on CPU 1",
	"watchdog: BUG: soft lockup - CPU#1 stuck for 26s! [kworker/1:2:87]",
	"NMI watchdog: Watchdog detected hard LOCKUP on cpu 1",
	"refcount_t: underflow; use-after-free.",
	"refcount_t: saturated; leaking memory.",
	"BUG kmalloc-64 (Tainted: G           O      ): Redzone overwritten",
	"BUG kb_transaction (Not tainted): Poison overwritten",
	"BUG kmalloc-128 (Tainted: G    B      O      ): Object padding overwritten",
	"Redzone overwritten",
	"Freepointer corrupt",
	"Object already free",
	"Objects remaining in kb_node on __kmem_cache_shutdown()",
	"WARNING: CPU: 0 PID: 1 at drivers/android/kbinder/work.c:1 kb_x+0x1/0x2",
	"BUG: KASAN: use-after-free in kb_x+0x1/0x2",
	"Call Trace:",
	"unreferenced object 0xffff888004a1c000 (size 64):",
};

TEST(every_splat_pattern_fails_a_test)
{
	char why[1024], want[1024];
	size_t i;

	for (i = 0; i < sizeof(splat_lines) / sizeof(splat_lines[0]); i++) {
		const char *const records[] = { "kbinder: loaded", splat_lines[i], NULL };

		EXPECT_TRUE(scan(records, why, sizeof(why)));
		snprintf(want, sizeof(want), "kernel log: %s ", splat_lines[i]);
		if (strcmp(why, want))
			kbt_fail(__FILE__, __LINE__, false, "why \"%s\", want \"%s\"",
				 why, want);
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
