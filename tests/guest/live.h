/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kbinder's live-object counters (debugfs kbinder/live: one "name count"
 * line per kind of object), for tests that check that what a scenario
 * created is gone again. kbinder always has them: on kbinder a file that
 * cannot be read, holds no counter or lacks a named one fails the test
 * (a leak check that quietly drops out checks nothing). The reference
 * driver has no such file: only there do the checks stand down.
 */
#ifndef KBINDER_TEST_LIVE_H
#define KBINDER_TEST_LIVE_H

#include "harness.h"	/* first: it sets _GNU_SOURCE */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define KBT_LIVE "/sys/kernel/debug/kbinder/live"
#define KBT_LIVE_MAX 16

/* One reading of every counter, in the file's order. */
struct kbt_live {
	int n;
	char name[KBT_LIVE_MAX][32];
	long value[KBT_LIVE_MAX];
};

/*
 * Read every counter into @l: 0, or -errno if the file cannot be read,
 * -ENODATA if it holds no "name count" line.
 */
int kbt_live_read(struct kbt_live *l);

/* The value of counter @name, or -1 if it (or the file) does not exist. */
long kbt_live(const char *name);

/**
 * kbt_live_base() - read the counters before a scenario into @base.
 *
 * Return: true on kbinder, where the file must be readable and hold
 * counters (else the test fails here, fatally); false on the reference
 * driver, which has none (@base is then empty and the caller leaves its
 * leak check out).
 */
bool kbt_live_base(struct kbt_live *base);

/**
 * kbt_live_settle() - wait up to @ms for no binder process to be live
 * (counter "procs" at 0): the processes of the test before are released
 * asynchronously, and a base read while they go would let a leak of the
 * same size hide under it. Logs what is still live after @ms; kbinder only.
 */
void kbt_live_settle(int ms);

/**
 * kbt_live_need() - the value of counter @name, which kbinder must have:
 * if the file or the counter is missing the test fails here, fatally.
 * Only for kbinder (a test that runs on the reference calls it only when
 * kbt_is_reference() is false).
 */
long kbt_live_need(const char *name);

/*
 * Wait up to @ms for counter @name to read @want; return what it reads.
 * On kbinder a missing file or counter fails the test (kbt_live_need());
 * on the reference it returns -1 at once.
 */
long kbt_live_wait(const char *name, long want, int ms);

/*
 * Wait up to @ms for every counter to be back at (or below) what it read
 * in @base; false if one is still above it then, described in @why
 * ("procs 2, was 0"), and at once if the file cannot be read or a counter
 * of @base is missing from it. Below is not a leak: objects of an earlier
 * test that were still going when @base was read may go meanwhile.
 */
bool kbt_live_back_to(const struct kbt_live *base, int ms,
		      char *why, size_t size);

/**
 * kbt_live_start() - read the counters before a scenario into @base, for a
 * kbinder-only test: it skips on the reference and fails on a kbinder
 * whose counters cannot be read (kbt_live_base()).
 */
void kbt_live_start(struct kbt_live *base);

/**
 * kbt_live_changes() - how many counters read differently now than in
 * @base (a scenario in flight must show up: the test sees what it counts);
 * @log: log each counter's two readings.
 */
int kbt_live_changes(const struct kbt_live *base, bool log);

/**
 * ASSERT_LIVE_BACK() / EXPECT_LIVE_BACK() - within @ms every counter is
 * back to @base (kbt_live_back_to()); else fail with "@what: <counter>".
 */
void kbt_live_back_at(const char *file, int line, bool fatal,
		      const struct kbt_live *base, int ms, const char *what);
#define ASSERT_LIVE_BACK(base, ms, what)				\
	kbt_live_back_at(__FILE__, __LINE__, true, (base), (ms), (what))
#define EXPECT_LIVE_BACK(base, ms, what)				\
	kbt_live_back_at(__FILE__, __LINE__, false, (base), (ms), (what))

#endif /* KBINDER_TEST_LIVE_H */
