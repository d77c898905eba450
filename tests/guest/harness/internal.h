/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the harness's own files share (tests include harness.h only):
 *
 *	main.c     registration, the program (usage, -l, selection), results
 *	run.c      one test's life: fork, time limits, cleanup, verdict
 *	report.c   failures, skips and log lines, recorded for the test
 *	fdcheck.c  the fd check (snapshots of /proc/self/fd and their diff)
 *	proc.c     kbt_fork() and its relatives (every child reaped and
 *	           judged), channels, time
 *	kmsg.c     the kernel log: start markers and the splat scan
 *	hang.c     where a timed-out test hung
 */
#ifndef KBINDER_TEST_HARNESS_INTERNAL_H
#define KBINDER_TEST_HARNESS_INTERNAL_H

#include "harness.h"

#define KBT_EXIT_FAIL 1
#define KBT_EXIT_SKIP 77
#define KBT_WHY_MAX 480

/*
 * struct kbt_shared - state shared (MAP_SHARED) between the runner and every
 * process of the running test.
 * @failed:   set by the first failure
 * @skipped:  set by SKIP
 * @body:     pid of the test body's process (set by itself, first thing)
 * @returned: set by the body's process once the body returned; a body
 *            that ends any other way (exit(0) before its assertions, a
 *            _exit in a helper) did not finish, whatever its status says
 * @asserts:  assertions made so far, by every process of the test
 * @end_checks: the test said its verdict is the end-of-test checks
 *            (END_CHECKS_ARE_THE_VERDICT()): no assertion is needed
 * @why:      the first failure's or the skip's message
 */
struct kbt_shared {
	int failed;
	int skipped;
	pid_t body;
	int returned;
	unsigned long asserts;
	int end_checks;
	char why[KBT_WHY_MAX];
};

/* run.c: the running test's shared state (NULL outside a run). */
extern struct kbt_shared *kbt_state;
/* main.c: the suite (program) name and the running test's. */
extern const char *kbt_suite_name;
extern const char *kbt_current;

/* main.c: print (and append to $KBINDER_RESULTS) one result line. */
void kbt_result(const char *verdict, const char *test, const char *why);

/* run.c */
/* kbt_run_setup() - shared state, subreaper, time limits. 0 or -errno. */
int kbt_run_setup(void);
/* kbt_not_run_why() - why no more test may start, or NULL. */
const char *kbt_not_run_why(void);
/* kbt_run_one() - run @t and report it. Return: 0 passed, 1 failed, 2 skipped. */
int kbt_run_one(struct kbt_test *t);

/* report.c */
/* kbt_oneline() - newlines to spaces: a result stays on one line. */
void kbt_oneline(char *s);
/* kbt_append() - append @src to the string in @dst (@size bytes), truncating. */
void kbt_append(char *dst, size_t size, const char *src);
/* kbt_fail_plain() - record a failure with no file:line prefix. */
void kbt_fail_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* proc.c */
/*
 * kbt_children_check() - when @who (the test body, or a child) returns:
 * wait for its kbt_fork() children that nobody reaped, judge how they
 * ended, and fail the test for each that ended badly or still runs.
 */
void kbt_children_check(const char *who);
/* kbt_grace_ms() - KBT_CHILD_GRACE_MS, or what the environment says. */
int kbt_grace_ms(void);

/* kmsg.c */
/* kbt_kmsg_mark() - /dev/kmsg at its end, after @test's start marker; -1 if none. */
int kbt_kmsg_mark(const char *test);

#endif /* KBINDER_TEST_HARNESS_INTERNAL_H */
