/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kbinder's guest test harness, in the spirit of kselftest_harness.h.
 *
 *	#include "harness.h"
 *
 *	TEST(reply_payload_arrives_intact)
 *	{
 *		ASSERT_EQ(1 + 1, 2);
 *	}
 *
 * Link with harness.o; it provides main(). Each test runs in its own forked
 * child, in its own process group, under a timeout (30 s, or TEST_TIMEOUT);
 * after the test (on timeout too) its group and every other process it left
 * behind are killed (the runner is a child subreaper). With
 * KBT_PROGRAM_TIMEOUT=S in the environment (the guest runner's limit for
 * the whole program) no test runs past S seconds minus a margin, so its
 * own timeout report fires before the runner's kill, and the tests left
 * when the budget is spent are reported "FAIL ...: not run"; SIGTERM ends
 * the running test the same way. Before a test the harness writes
 * "kbinder-test: start <suite>/<test>" to /dev/kmsg; after it, any new kernel
 * log record with a splat (BUG:, WARNING:, Oops, KASAN, ...: every pattern
 * of tests/vm/splats.list) fails the test.
 * A test passes only if its body returned: a body that ends with exit(0)
 * or _exit(0) (its assertions after that never ran) fails, and a status of
 * 77 is a skip only when SKIP() ended it. A test that made no assertion
 * (an empty body, an early return) fails, unless it said that its verdict
 * is the harness's end-of-test checks (END_CHECKS_ARE_THE_VERDICT()).
 * Every kbt_fork() child must have ended when the body (or the child that
 * forked it) returns: the harness reaps it and judges its status, and one
 * still running fails the test; so does any other process the test left
 * running, and one the harness could not end.
 *
 * Result lines (stdout, and appended to $KBINDER_RESULTS when set):
 *	PASS <suite>/<test>
 *	FAIL <suite>/<test>: <why>
 *	SKIP <suite>/<test>: <why>
 * The suite is the program name. Exit status: 0 if nothing failed, else 1.
 * A program that has no test, or whose GLOBs select none, fails ("FAIL
 * <suite>/(program): ran no test ..."), and so does its -l.
 *
 * Usage: <program> [-l] [GLOB...]  (-l lists tests; GLOBs select tests)
 */
#ifndef KBINDER_TEST_HARNESS_H
#define KBINDER_TEST_HARNESS_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

/** Default per-test timeout in seconds. */
#define KBT_DEFAULT_TIMEOUT 30

/**
 * struct kbt_test - one registered test.
 * @name:    test name (the identifier given to TEST)
 * @fn:      its body
 * @timeout: seconds before the test's process group is killed
 * @next:    registration list
 */
struct kbt_test {
	const char *name;
	void (*fn)(void);
	int timeout;
	struct kbt_test *next;
};

void kbt_register(struct kbt_test *t);

/** TEST_TIMEOUT() - define a test with its own timeout in seconds. */
#define TEST_TIMEOUT(name, secs)					\
	static void kbt_body_##name(void);				\
	static struct kbt_test kbt_test_##name = {			\
		#name, kbt_body_##name, (secs), NULL			\
	};								\
	__attribute__((constructor)) static void kbt_reg_##name(void)	\
	{								\
		kbt_register(&kbt_test_##name);				\
	}								\
	static void kbt_body_##name(void)

/** TEST() - define a test with the default timeout. */
#define TEST(name) TEST_TIMEOUT(name, KBT_DEFAULT_TIMEOUT)

/* ---------------------------------------------------------------- */
/* outcomes                                                          */
/* ---------------------------------------------------------------- */

/**
 * kbt_fail() - record a failure (the first one becomes the result's why).
 * @fatal: end the calling process now (exit status 1)
 */
void kbt_fail(const char *file, int line, bool fatal, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/** kbt_skip() - end the test as skipped with @why. Never returns. */
void kbt_skip(const char *why, ...) __attribute__((format(printf, 1, 2), noreturn));
/** kbt_failed() - true once any process of this test recorded a failure. */
bool kbt_failed(void);
/** kbt_log() - a diagnostic line on stderr, prefixed with the test name. */
void kbt_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/**
 * kbt_asserted() - count one assertion made by the running test (every
 * ASSERT_* and EXPECT_* does, passing or not, in any of its processes).
 * A test that returns without having made one fails: it checked nothing.
 */
void kbt_asserted(void);
/**
 * kbt_end_checks_are_the_verdict() - see END_CHECKS_ARE_THE_VERDICT().
 * @why: what the end-of-test checks catch here (logged)
 */
void kbt_end_checks_are_the_verdict(const char *why);
/**
 * END_CHECKS_ARE_THE_VERDICT() - this test asserts nothing itself: it
 * passes when its body returns and the harness's end-of-test checks find
 * nothing (no splat in the kernel log, no fd leaked, every child ended
 * cleanly). Only for tests whose point is exactly that (a stress run, a
 * teardown under load); @why says what would show up there. Without it, a
 * test that made no assertion fails.
 */
#define END_CHECKS_ARE_THE_VERDICT(why) kbt_end_checks_are_the_verdict(why)

#define SKIP(...) kbt_skip(__VA_ARGS__)

#define KBT_CMP(fatal, kind, a, op, b) do {				\
	long long _kbt_a = (long long)(a);				\
	long long _kbt_b = (long long)(b);				\
	kbt_asserted();							\
	if (!(_kbt_a op _kbt_b))					\
		kbt_fail(__FILE__, __LINE__, fatal,			\
			 kind "(%s, %s): %lld (0x%llx) vs %lld (0x%llx)", \
			 #a, #b, _kbt_a, (unsigned long long)_kbt_a,	\
			 _kbt_b, (unsigned long long)_kbt_b);		\
} while (0)

#define ASSERT_EQ(a, b) KBT_CMP(true, "ASSERT_EQ", a, ==, b)
#define ASSERT_NE(a, b) KBT_CMP(true, "ASSERT_NE", a, !=, b)
#define ASSERT_LT(a, b) KBT_CMP(true, "ASSERT_LT", a, <, b)
#define ASSERT_LE(a, b) KBT_CMP(true, "ASSERT_LE", a, <=, b)
#define ASSERT_GT(a, b) KBT_CMP(true, "ASSERT_GT", a, >, b)
#define ASSERT_GE(a, b) KBT_CMP(true, "ASSERT_GE", a, >=, b)
#define EXPECT_EQ(a, b) KBT_CMP(false, "EXPECT_EQ", a, ==, b)
#define EXPECT_NE(a, b) KBT_CMP(false, "EXPECT_NE", a, !=, b)
#define EXPECT_LT(a, b) KBT_CMP(false, "EXPECT_LT", a, <, b)
#define EXPECT_LE(a, b) KBT_CMP(false, "EXPECT_LE", a, <=, b)
#define EXPECT_GT(a, b) KBT_CMP(false, "EXPECT_GT", a, >, b)
#define EXPECT_GE(a, b) KBT_CMP(false, "EXPECT_GE", a, >=, b)

#define KBT_BOOL(fatal, kind, cond, want) do {				\
	bool _kbt_c = (cond) ? true : false;				\
	kbt_asserted();							\
	if (_kbt_c != (want))						\
		kbt_fail(__FILE__, __LINE__, fatal, kind "(%s)", #cond); \
} while (0)

#define ASSERT_TRUE(c)  KBT_BOOL(true, "ASSERT_TRUE", c, true)
#define ASSERT_FALSE(c) KBT_BOOL(true, "ASSERT_FALSE", c, false)
#define EXPECT_TRUE(c)  KBT_BOOL(false, "EXPECT_TRUE", c, true)
#define EXPECT_FALSE(c) KBT_BOOL(false, "EXPECT_FALSE", c, false)

/** kbt_mem_diff() - index of the first differing byte, or -1. */
long kbt_mem_diff(const void *a, const void *b, size_t n);

#define KBT_MEM(fatal, kind, a, b, n) do {				\
	long _kbt_at = kbt_mem_diff((a), (b), (n));			\
	kbt_asserted();							\
	if (_kbt_at >= 0)						\
		kbt_fail(__FILE__, __LINE__, fatal,			\
			 kind "(%s, %s, %zu): first difference at byte %ld: 0x%02x vs 0x%02x", \
			 #a, #b, (size_t)(n), _kbt_at,			\
			 ((const unsigned char *)(a))[_kbt_at],		\
			 ((const unsigned char *)(b))[_kbt_at]);	\
} while (0)

#define ASSERT_MEM_EQ(a, b, n) KBT_MEM(true, "ASSERT_MEM_EQ", a, b, n)
#define EXPECT_MEM_EQ(a, b, n) KBT_MEM(false, "EXPECT_MEM_EQ", a, b, n)

#define KBT_OK(fatal, expr) do {					\
	long _kbt_r = (long)(expr);					\
	kbt_asserted();							\
	if (_kbt_r != 0)						\
		kbt_fail(__FILE__, __LINE__, fatal, "%s: returned %ld (%s)", \
			 #expr, _kbt_r, kbt_strerr(_kbt_r));		\
} while (0)

/** ASSERT_OK() - a 0 / -errno call returned 0; prints the errno name. */
#define ASSERT_OK(expr) KBT_OK(true, expr)
#define EXPECT_OK(expr) KBT_OK(false, expr)

/** kbt_strerr() - strerror of a negative (or positive) errno value. */
const char *kbt_strerr(long err);

/* ---------------------------------------------------------------- */
/* environment                                                       */
/* ---------------------------------------------------------------- */

/** kbt_driver() - $KBINDER_DRIVER ("kbinder" when unset). */
const char *kbt_driver(void);
/** kbt_is_reference() - true when the reference driver runs. */
bool kbt_is_reference(void);
/**
 * kbt_slow_kernel() - true on a kernel that runs everything many times
 * slower: the debug kernel (KASAN, lockdep, kmemleak) under TCG, whose
 * command line says KBT_SLOW_KERNEL=1. Tests of scale use smaller sizes
 * there: what that kernel watches is memory safety, and the stock kernels
 * check the cost.
 */
bool kbt_slow_kernel(void);
/** REQUIRE_KBINDER() - skip a kbinder-only test on the reference driver. */
#define REQUIRE_KBINDER(why) do {					\
	if (kbt_is_reference())						\
		SKIP("kbinder-only: %s", why);				\
} while (0)
/** kbt_suite() - the suite (program) name. */
const char *kbt_suite(void);
/** kbt_test_name() - the running test's name. */
const char *kbt_test_name(void);
/**
 * kbt_expect_stack_dump() - open or close a window in which the kernel
 * prints a plain stack dump on purpose (6.1's and 6.12's sysfs do, for a
 * duplicate name): inside it, the "Call Trace" of a dump_stack() (after
 * its "CPU: N PID: N Comm:" and "Hardware name:" lines) fails neither
 * the test nor the console scan (tests/vm/scan-kernel-log.sh); a trace
 * without that header, and every other splat, still does. Writes a
 * "kbinder-test: expect ..." marker to
 * /dev/kmsg.
 * @on: true to open the window, false to close it
 */
void kbt_expect_stack_dump(bool on);

/**
 * kbt_kmsg_scan() - read kernel log records from @fd (as /dev/kmsg gives
 * them: one record a read, "prefix;message") until there are no more, and
 * close it. The check run after every test, on the records logged since
 * its start marker; exposed for the harness's own tests
 * (harness_verdict.c), which feed it crafted records.
 * @why:  gets "kernel log: <the first splat>"
 * Return: true if a record is a splat (a pattern of tests/vm/splats.list,
 * the list the host's console scan reads too; in a kbt_expect_stack_dump()
 * window the trace of a plain stack dump passes).
 */
bool kbt_kmsg_scan(int fd, char *why, size_t size);

/* ---------------------------------------------------------------- */
/* processes, synchronisation, fds                                   */
/* ---------------------------------------------------------------- */

/**
 * kbt_report_hang() - print state, system call and kernel stack of every
 * thread in process group @pgid (the harness calls it on a timeout, before
 * the kill).
 */
void kbt_report_hang(pid_t pgid);

/** kbt_write_file() - write @text to the existing file @path, or fail the test. */
void kbt_write_file(const char *path, const char *text);
/** kbt_fd_count() - number of open fds of this process (/proc/self/fd). */
/**
 * kbt_allow_fd() - raise RLIMIT_NOFILE so that fd number @fd can be
 * opened (the soft limit is often 1024). Return: 0 or -errno.
 */
int kbt_allow_fd(int fd);
int kbt_fd_count(void);
/** ASSERT_FD_COUNT() - the fd table has exactly @before entries again. */
#define ASSERT_FD_COUNT(before) ASSERT_EQ(kbt_fd_count(), (before))

/*
 * The fd check. Every test body and every kbt_fork() child is checked
 * without any code of its own: the harness snapshots /proc/self/fd (fd
 * number -> readlink target) just before the body or the child's function
 * runs and again when it returns; any fd added, removed or pointing
 * somewhere else fails the test, e.g.
 *	fd 5 (anon_inode:[eventfd]) leaked by child receiver_main
 * A fatal ASSERT, SKIP, a signal, the timeout and a child's _exit() are
 * not checked (there is no "after"; a body that exits fails anyway). So:
 * close what you open, including fds a transaction installed
 * (BINDER_TYPE_FD/FDA) in the receiver.
 */

/** Bytes kept of an fd's readlink target (longer ones are truncated). */
#define KBT_FD_TARGET_MAX 256

/**
 * struct kbt_fd_entry - one open fd.
 * @fd:     its number
 * @target: readlink of /proc/self/fd/<fd> ("?" if unreadable)
 */
struct kbt_fd_entry {
	int fd;
	char target[KBT_FD_TARGET_MAX];
};

/**
 * struct kbt_fd_snap - the fd table of a process at one moment.
 * @n: number of entries
 * @e: the entries, sorted by fd (malloc'ed; kbt_fd_snap_free())
 */
struct kbt_fd_snap {
	size_t n;
	struct kbt_fd_entry *e;
};

/** enum kbt_fd_kind - how an fd differs between two snapshots. */
enum kbt_fd_kind {
	KBT_FD_ADDED,		/* open now, was not before: a leak */
	KBT_FD_REMOVED,		/* was open before, is not now */
	KBT_FD_RETARGETED,	/* open in both, to different things */
};

/**
 * struct kbt_fd_change - one difference between two snapshots.
 * @fd:     the fd number
 * @kind:   what changed
 * @before: target before (NULL for KBT_FD_ADDED); points into the snapshot
 * @after:  target after (NULL for KBT_FD_REMOVED); points into the snapshot
 */
struct kbt_fd_change {
	int fd;
	enum kbt_fd_kind kind;
	const char *before;
	const char *after;
};

/**
 * kbt_fd_snapshot() - read this process's fd table into @s (the
 * directory stream's own fd is left out).
 * Return: 0 or -errno (then @s is empty).
 */
int kbt_fd_snapshot(struct kbt_fd_snap *s);
/** kbt_fd_snap_free() - release @s's entries; @s is empty afterwards. */
void kbt_fd_snap_free(struct kbt_fd_snap *s);
/**
 * kbt_fd_diff() - the changes from @before to @after, by ascending fd.
 * @out: receives the first @max changes (may be NULL if @max is 0)
 * Return: the number of changes (may exceed @max).
 */
size_t kbt_fd_diff(const struct kbt_fd_snap *before,
		   const struct kbt_fd_snap *after,
		   struct kbt_fd_change *out, size_t max);
/**
 * kbt_fd_change_str() - describe @c as done by @who, e.g.
 * "fd 5 (anon_inode:[eventfd]) leaked by test body".
 */
void kbt_fd_change_str(const struct kbt_fd_change *c, const char *who,
		       char *buf, size_t size);
/**
 * kbt_fd_check() - compare this process's fd table with @before and record
 * one (non-fatal) failure naming every change, attributed to @who.
 * Return: the number of changes.
 */
size_t kbt_fd_check(const struct kbt_fd_snap *before, const char *who);

/**
 * kbt_fd_changes_since() - how many fds differ from @before now.
 * @added_fd: if not NULL, gets the fd of the first one added (else -1)
 * Return: the number of changes, or -errno if the table could not be read.
 */
long kbt_fd_changes_since(const struct kbt_fd_snap *before, int *added_fd);

/** ASSERT_FDS_UNCHANGED() - the fd table is exactly as in snapshot @before. */
#define ASSERT_FDS_UNCHANGED(before)					\
	ASSERT_EQ(kbt_fd_changes_since((before), NULL), 0)
/**
 * ASSERT_ONE_NEW_FD() - the only change since snapshot @before is one new
 * fd, number @fd (e.g. the one a BINDER_TYPE_FD object brought).
 */
#define ASSERT_ONE_NEW_FD(before, fd) do {				\
	int _kbt_added;							\
	ASSERT_EQ(kbt_fd_changes_since((before), &_kbt_added), 1);	\
	ASSERT_EQ(_kbt_added, (fd));					\
} while (0)

/**
 * kbt_fork() - run @fn(@arg) in a child process of the test.
 *
 * The child exits 0 when @fn returns and no failure was recorded, 1
 * otherwise. Its failures are recorded for the test too. Its fd table is
 * checked as the test body's is (see above): what it held when it started
 * it must hold when @fn returns; failures name it "child <fn>".
 * Reap it (ASSERT_CHILD_OK(), kbt_reap()) or stop it (kbt_kill()) before
 * the process that forked it returns: when the test body (or a child's
 * @fn) returns, the harness waits up to KBT_CHILD_GRACE_MS for each of its
 * kbt_fork() children that nobody reaped, fails the test for one that
 * ended badly (a status but 0 or 77, a signal) and for one still running
 * (whatever it would still have checked is lost), and reaps them.
 * Return: the child's pid.
 */
#define kbt_fork(fn, arg) kbt_fork_named((fn), (arg), #fn)
/*
 * How long a returning test (or child) waits for its processes that are
 * still running before it fails for them (KBT_CHILD_GRACE_MS in the
 * environment: the harness's own tests).
 */
#define KBT_CHILD_GRACE_MS 2000
/** kbt_fork_named() - kbt_fork() with the child's name for fd reports. */
pid_t kbt_fork_named(void (*fn)(void *arg), void *arg, const char *name);
/**
 * kbt_reap() - wait up to @timeout_ms for @pid.
 * Return: its exit status, 128 + signal if killed, -ETIMEDOUT, or -errno.
 */
int kbt_reap(pid_t pid, int timeout_ms);
/** ASSERT_CHILD_OK() - @pid exits with status 0 within 10 s. */
#define ASSERT_CHILD_OK(pid) ASSERT_EQ(kbt_reap((pid), 10000), 0)
/** kbt_kill() - SIGKILL @pid and reap it; returns its kbt_reap() status. */
int kbt_kill(pid_t pid);
/**
 * kbt_read_all() - read @fd to its end (or an error) into @buf of @size
 * (at least 1), NUL-terminated. What does not fit is read and dropped,
 * so the writer never blocks on a full pipe.
 * Return: the bytes kept.
 */
size_t kbt_read_all(int fd, char *buf, size_t size);

/**
 * struct kbt_chan - a two-way pipe pair between a test and one child.
 * @up:     child -> parent
 * @down:   parent -> child
 * @parent: pid of the process that created the channel
 *
 * Create it before kbt_fork(); each side calls the same functions and the
 * channel picks the direction from getpid().
 */
struct kbt_chan {
	int up[2];
	int down[2];
	pid_t parent;
};

void kbt_chan_init(struct kbt_chan *c);
void kbt_chan_close(struct kbt_chan *c);
/** kbt_send() - send @n bytes to the other side. Return: 0 or -errno. */
int kbt_send(struct kbt_chan *c, const void *buf, size_t n);
/**
 * kbt_recv() - receive exactly @n bytes within @timeout_ms.
 * Return: 0, -ETIMEDOUT, -EPIPE if the other side closed, or -errno.
 */
int kbt_recv(struct kbt_chan *c, void *buf, size_t n, int timeout_ms);
/** kbt_signal() / kbt_wait() - send and expect a one-byte token. */
int kbt_signal(struct kbt_chan *c, char token);
int kbt_wait(struct kbt_chan *c, char token, int timeout_ms);
#define ASSERT_SIGNAL(c, tok) ASSERT_OK(kbt_signal((c), (tok)))
#define ASSERT_WAIT(c, tok) ASSERT_OK(kbt_wait((c), (tok), 10000))

/*
 * Demo tests: the harness's own tests (harness_*.c) run their program
 * again with tests that exist only in that copy, registered when the
 * environment variable @env is set, and check the result lines it prints.
 *
 *	static struct kbt_test demos[] = { KBT_DEMO(demo_leaks), ... };
 *	KBT_DEMOS("KBT_FDCHECK_DEMO", demos);
 *	...
 *	EXPECT_DEMO("KBT_FDCHECK_DEMO", "demo_leaks", "FAIL harness_fdcheck/...");
 */
void kbt_register_demos(const char *env, struct kbt_test *demos, size_t n);
/** KBT_DEMO() - a demo test: function @fn, named as it, 10 s timeout. */
#define KBT_DEMO(fn) KBT_DEMO_TIMEOUT(fn, 10)
#define KBT_DEMO_TIMEOUT(fn, secs) { #fn, (fn), (secs), NULL }
#define KBT_DEMOS(env, demos)						\
	__attribute__((constructor)) static void kbt_demos_ctor(void)	\
	{								\
		kbt_register_demos((env), (demos),			\
				   sizeof(demos) / sizeof((demos)[0]));	\
	}
/**
 * kbt_demo_run() - run this program again (/proc/self/exe, as the same
 * suite) with @env set and the demos matching @globs (NULL-terminated)
 * selected, with KBT_PROGRAM_TIMEOUT=@budget (0: none) and without
 * $KBINDER_RESULTS (no demo result in the run's tally); SIGTERM it after
 * @term_ms (0: never). Its stdout goes to @out, its stderr (the demos'
 * expected failures) nowhere.
 * Return: its exit status, as kbt_reap() gives it.
 */
int kbt_demo_run(const char *env, const char *const *globs, int budget,
		 int term_ms, char *out, size_t size);
/** kbt_demo_result() - run demo @name alone; its (last) result line into @line. */
void kbt_demo_result(const char *env, const char *name, char *line,
		     size_t size);
/** EXPECT_DEMO() - demo @name's result line is exactly @want. */
void kbt_expect_demo_at(const char *file, int line, const char *env,
			const char *name, const char *want);
#define EXPECT_DEMO(env, name, want)					\
	kbt_expect_demo_at(__FILE__, __LINE__, (env), (name), (want))
/** EXPECT_DEMO_MATCH() - demo @name's result line matches fnmatch() @glob. */
void kbt_expect_demo_match_at(const char *file, int line, const char *env,
			      const char *name, const char *glob);
#define EXPECT_DEMO_MATCH(env, name, glob)				\
	kbt_expect_demo_match_at(__FILE__, __LINE__, (env), (name), (glob))

/**
 * kbt_start_child() - for an object @x with a channel @x->chan and a pid
 * @x->pid (a server, say): open the channel, fork @fn(@x) and wait for the
 * child to say 'R' (ready).
 */
#define kbt_start_child(x, fn) do {					\
	kbt_chan_init(&(x)->chan);					\
	(x)->pid = kbt_fork(fn, (x));					\
	ASSERT_WAIT(&(x)->chan, 'R');					\
} while (0)

/**
 * kbt_fork_ready() - open channel @chan, fork @fn(@chan) and wait for the
 * child to say 'R' (ready). Return: its pid.
 */
#define kbt_fork_ready(fn, chan) kbt_fork_ready_named((fn), (chan), #fn)
pid_t kbt_fork_ready_named(void (*fn)(void *arg), struct kbt_chan *chan,
			   const char *name);

/** kbt_msleep() - sleep @ms milliseconds. */
void kbt_msleep(int ms);
/** kbt_now_ms() - CLOCK_MONOTONIC in milliseconds. */
int64_t kbt_now_ms(void);

#endif /* KBINDER_TEST_HARNESS_H */
