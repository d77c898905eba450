/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The allocator self-test's checker (test builds only, KBINDER_SELFTEST),
 * which alloc_selftest.c builds on: alloc_selftest_checks.c holds the
 * checker (CHECK(), the area's invariants) and the single-threaded checks;
 * alloc_selftest.c, the layer above, the test's environment (a kernel
 * thread on a borrowed mm, a private mapping), the checks that race
 * threads against each other, and kb_alloc_selftest().
 */
#ifndef _KB_ALLOC_SELFTEST_CHECKS_H
#define _KB_ALLOC_SELFTEST_CHECKS_H

#include <linux/completion.h>
#include <linux/mm_types.h>

#include "alloc.h"

#define KB_ST_PAGES	16
#define KB_ST_SIZE	(KB_ST_PAGES * PAGE_SIZE)

/**
 * struct kb_st - state of one self-test run
 * @alloc:    the allocator under test
 * @mm:       the borrowed mm
 * @file:     the private file mapped at @addr
 * @addr:     user address of the mapping
 * @checks:   checks made
 * @failures: checks failed
 * @lru_base: LRU length before the test (other areas' pages)
 * @result:   0 or -errno, set by the thread before @done
 * @done:     the thread has finished its work
 */
struct kb_st {
	struct kb_alloc alloc;
	struct mm_struct *mm;
	struct file *file;
	unsigned long addr;
	unsigned long checks;
	unsigned long failures;
	unsigned long lru_base;
	int result;
	struct completion done;
};

/**
 * kb_st_check() - count one check, report it if it failed
 * @st:   the run
 * @ok:   the check passed
 * @line: source line of the check
 * @what: the checked condition, as written
 *
 * Return: @ok.
 */
bool kb_st_check(struct kb_st *st, bool ok, int line, const char *what);

#define CHECK(st, cond) kb_st_check(st, !!(cond), __LINE__, #cond)

/**
 * kb_st_new() - allocate a buffer of @size data bytes, checking it worked
 * @st:    the run
 * @size:  data size
 * @async: charge it to the async space
 *
 * Return: the buffer, or NULL (a failed check).
 */
struct kb_buffer *kb_st_new(struct kb_st *st, size_t size, bool async);

/**
 * kb_st_check_area() - check every invariant of the area
 * @st: the run
 *
 * The buffers tile the area in address order, no two free buffers are
 * adjacent, the trees hold exactly the free and the allocated buffers in
 * order, and each page is in use exactly when an allocated buffer touches
 * it (else on the LRU or absent).
 */
void kb_st_check_area(struct kb_st *st);

/**
 * kb_st_check_idle() - check that nothing is allocated
 * @st: the run
 *
 * Every page of the area is on the LRU or absent, and the LRU holds exactly
 * those of ours that are on it (plus @st->lru_base of other areas).
 */
void kb_st_check_idle(struct kb_st *st);

/**
 * kb_st_single() - the single-threaded checks, in order
 * @st:   the run (its area mapped, nothing allocated)
 * @runs: incremented once per alloc/free order of the exhaustive check
 *
 * Size rules and overflow, best fit, splitting and merging, the mapping
 * and the shrinker, clear_on_free, async space, BC_FREE_BUFFER lookup, and
 * every free order of many buffer layouts. Leaves nothing allocated.
 */
void kb_st_single(struct kb_st *st, unsigned long *runs);

#endif /* _KB_ALLOC_SELFTEST_CHECKS_H */
