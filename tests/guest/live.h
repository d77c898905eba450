/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kbinder's live-object counters (debugfs kbinder/live: one "name count"
 * line per kind of object), for tests that check that what a scenario
 * created is gone again. The reference driver has no such file: callers
 * skip when it cannot be read.
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

/* Read every counter into @l: 0, or -errno if the file cannot be read. */
int kbt_live_read(struct kbt_live *l);

/* The value of counter @name, or -1 if it (or the file) does not exist. */
long kbt_live(const char *name);

/* Wait up to @ms for counter @name to read @want; return what it reads. */
long kbt_live_wait(const char *name, long want, int ms);

/*
 * Wait up to @ms for every counter to be back at (or below) what it read
 * in @base; false if one is still above it then, described in @why
 * ("procs 2, was 0"). Below is not a leak: objects of an earlier test that
 * were still going when @base was read may go meanwhile.
 */
bool kbt_live_back_to(const struct kbt_live *base, int ms,
		      char *why, size_t size);

/**
 * kbt_live_start() - read the counters before a scenario into @base; the
 * test is kbinder-only and skips where the counters cannot be read.
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
