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
static inline int kbt_live_read(struct kbt_live *l)
{
	FILE *f = fopen(KBT_LIVE, "r");

	l->n = 0;
	if (!f)
		return -errno;
	while (l->n < KBT_LIVE_MAX &&
	       fscanf(f, "%31s %ld", l->name[l->n], &l->value[l->n]) == 2)
		l->n++;
	fclose(f);
	return 0;
}

/* The value of counter @name, or -1 if it (or the file) does not exist. */
static inline long kbt_live(const char *name)
{
	struct kbt_live l;
	int i;

	if (kbt_live_read(&l))
		return -1;
	for (i = 0; i < l.n; i++)
		if (!strcmp(l.name[i], name))
			return l.value[i];
	return -1;
}

/* Wait up to @ms for counter @name to read @want; return what it reads. */
static inline long kbt_live_wait(const char *name, long want, int ms)
{
	int64_t deadline = kbt_now_ms() + ms;
	long n;

	while ((n = kbt_live(name)) != want && kbt_now_ms() < deadline)
		kbt_msleep(20);
	return n;
}

/*
 * Wait up to @ms for every counter to be back at (or below) what it read
 * in @base; false if one is still above it then, described in @why
 * ("procs 2, was 0"). Below is not a leak: objects of an earlier test that
 * were still going when @base was read may go meanwhile.
 */
static inline bool kbt_live_back_to(const struct kbt_live *base, int ms,
				    char *why, size_t size)
{
	int64_t deadline = kbt_now_ms() + ms;
	struct kbt_live now;
	int i;

	for (;;) {
		bool same = true;

		if (kbt_live_read(&now)) {
			snprintf(why, size, "%s is not readable", KBT_LIVE);
			return false;
		}
		why[0] = 0;
		for (i = 0; i < base->n && i < now.n; i++) {
			if (now.value[i] > base->value[i]) {
				snprintf(why, size, "%s %ld, was %ld",
					 now.name[i], now.value[i],
					 base->value[i]);
				same = false;
				break;
			}
		}
		if (same)
			return true;
		if (kbt_now_ms() > deadline)
			return false;
		kbt_msleep(20);
	}
}

#endif /* KBINDER_TEST_LIVE_H */
