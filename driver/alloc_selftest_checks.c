// SPDX-License-Identifier: GPL-2.0-only
/*
 * Self-test of the kbinder buffer allocator (test builds only): the
 * checker and the single-threaded checks.
 *
 * Checked: size rules and overflow, best fit, splitting, merging, the
 * invariants of the area after every step of every free order of many
 * buffer layouts, page accounting (in use / on the LRU / absent), the user
 * mapping seeing what the kernel wrote, the shrinker zapping and freeing,
 * clear_on_free, async space and BC_FREE_BUFFER lookup. It looks inside
 * the allocator through alloc_internal.h. alloc_selftest.c sets up the
 * area these run on.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/mm.h>
#include <linux/rbtree.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "alloc_internal.h"
#include "alloc_selftest_checks.h"

#define KB_ST_NBUF	4	/* buffers per layout in the exhaustive test */

bool kb_st_check(struct kb_st *st, bool ok, int line, const char *what)
{
	st->checks++;
	if (!ok && st->failures++ < 10)
		pr_err("alloc selftest: line %d: %s\n", line, what);
	return ok;
}

/* ---- looking inside the allocator --------------------------------------- */

/**
 * enum kb_alloc_page_state - what backs one page of an area
 * @KB_PAGE_ABSENT:  no page; nothing mapped
 * @KB_PAGE_PENDING: used by a buffer whose pages are being populated
 * @KB_PAGE_IN_USE:  resident, mapped, used by at least one buffer
 * @KB_PAGE_ON_LRU:  resident, mapped, unused, on the global LRU
 */
enum kb_alloc_page_state {
	KB_PAGE_ABSENT,
	KB_PAGE_PENDING,
	KB_PAGE_IN_USE,
	KB_PAGE_ON_LRU,
};

/**
 * kb_alloc_page_state() - inspect one page of an area
 * @alloc: the allocator (mapped)
 * @index: page index in the area
 * @users: set to the number of allocated buffers using the page
 *
 * Return: the page's state.
 */
static enum kb_alloc_page_state kb_alloc_page_state(struct kb_alloc *alloc,
						    size_t index,
						    unsigned int *users)
{
	struct kb_alloc_page *desc;
	enum kb_alloc_page_state state;

	mutex_lock(&alloc->lock);
	desc = &alloc->pages[index];
	*users = desc->users;
	if (!desc->page)
		state = desc->users ? KB_PAGE_PENDING : KB_PAGE_ABSENT;
	else if (desc->users)
		state = KB_PAGE_IN_USE;
	else
		state = list_empty(&desc->lru) ? KB_PAGE_ABSENT : KB_PAGE_ON_LRU;
	mutex_unlock(&alloc->lock);
	return state;
}

/* ---- helpers ------------------------------------------------------------ */

struct kb_buffer *kb_st_new(struct kb_st *st, size_t size, bool async)
{
	struct kb_buffer *buffer;

	buffer = kb_alloc_new_buf(&st->alloc, size, 0, 0, async, 1);
	if (!CHECK(st, !IS_ERR(buffer)))
		return NULL;
	return buffer;
}

static size_t kb_st_round(size_t size)
{
	return max_t(size_t, ALIGN(size, 8), 8);
}

void kb_st_check_area(struct kb_st *st)
{
	struct kb_alloc *alloc = &st->alloc;
	unsigned int expect[KB_ST_PAGES] = { 0 };
	unsigned int nfree = 0, nalloc = 0, tfree = 0, talloc = 0;
	const struct kb_buffer *b, *prev = NULL;
	unsigned long pos = st->addr;
	struct rb_node *n;
	size_t i;

	mutex_lock(&alloc->lock);
	list_for_each_entry(b, &alloc->buffers, entry) {
		CHECK(st, b->user_data == pos);
		CHECK(st, b->size && IS_ALIGNED(b->size, 8));
		CHECK(st, !(b->free && prev && prev->free));
		if (b->free) {
			nfree++;
		} else {
			nalloc++;
			for (i = (b->user_data - st->addr) >> PAGE_SHIFT;
			     i <= (b->user_data + b->size - 1 - st->addr) >> PAGE_SHIFT;
			     i++)
				expect[i]++;
		}
		pos += b->size;
		prev = b;
	}
	CHECK(st, pos == st->addr + KB_ST_SIZE);
	prev = NULL;
	for (n = rb_first(&alloc->free_buffers); n; n = rb_next(n)) {
		b = rb_entry(n, struct kb_buffer, rb_node);
		CHECK(st, b->free);
		CHECK(st, !prev || prev->size < b->size ||
		      (prev->size == b->size && prev->user_data < b->user_data));
		prev = b;
		tfree++;
	}
	prev = NULL;
	for (n = rb_first(&alloc->allocated_buffers); n; n = rb_next(n)) {
		b = rb_entry(n, struct kb_buffer, rb_node);
		CHECK(st, !b->free);
		CHECK(st, !prev || prev->user_data < b->user_data);
		prev = b;
		talloc++;
	}
	CHECK(st, nfree == tfree && nalloc == talloc);
	CHECK(st, nalloc == alloc->allocated);
	mutex_unlock(&alloc->lock);

	for (i = 0; i < KB_ST_PAGES; i++) {
		enum kb_alloc_page_state state;
		unsigned int users;

		state = kb_alloc_page_state(alloc, i, &users);
		CHECK(st, users == expect[i]);
		if (expect[i])
			CHECK(st, state == KB_PAGE_IN_USE);
		else
			CHECK(st, state == KB_PAGE_ON_LRU ||
			      state == KB_PAGE_ABSENT);
	}
}

void kb_st_check_idle(struct kb_st *st)
{
	unsigned long on_lru = 0;
	unsigned int users;
	size_t i;

	for (i = 0; i < KB_ST_PAGES; i++) {
		enum kb_alloc_page_state state;

		state = kb_alloc_page_state(&st->alloc, i, &users);
		CHECK(st, state == KB_PAGE_ON_LRU || state == KB_PAGE_ABSENT);
		on_lru += state == KB_PAGE_ON_LRU;
	}
	CHECK(st, kb_alloc_lru_count() == st->lru_base + on_lru);
	CHECK(st, list_is_singular(&st->alloc.buffers));
	CHECK(st, !st->alloc.allocated);
}

static void kb_st_shrink_all(struct kb_st *st)
{
	unsigned int users;
	size_t i;

	kb_alloc_shrink(ULONG_MAX);
	for (i = 0; i < KB_ST_PAGES; i++)
		CHECK(st, kb_alloc_page_state(&st->alloc, i, &users) !=
		      KB_PAGE_ON_LRU);
}

/* ---- the checks ----------------------------------------------------------- */

static void kb_st_sizes(struct kb_st *st)
{
	struct kb_alloc *alloc = &st->alloc;
	struct kb_buffer *b;

	b = kb_st_new(st, 0, false);
	if (b) {
		CHECK(st, b->size == 8 && b->user_data == st->addr);
		kb_alloc_free_buf(alloc, b);
	}
	b = kb_alloc_new_buf(alloc, 1, 9, 17, false, 1);
	if (CHECK(st, !IS_ERR(b))) {
		CHECK(st, b->size == 8 + 16 + 24);
		CHECK(st, b->data_size == 1 && b->offsets_size == 9 &&
		      b->extra_buffers_size == 17);
		kb_alloc_free_buf(alloc, b);
	}
	CHECK(st, PTR_ERR(kb_alloc_new_buf(alloc, SIZE_MAX, 0, 0, false, 1)) ==
	      -EINVAL);
	CHECK(st, PTR_ERR(kb_alloc_new_buf(alloc, 8, SIZE_MAX - 3, 0, false,
					   1)) == -EINVAL);
	CHECK(st, PTR_ERR(kb_alloc_new_buf(alloc, SIZE_MAX / 2, SIZE_MAX / 2,
					   SIZE_MAX / 2, false, 1)) == -EINVAL);
	CHECK(st, PTR_ERR(kb_alloc_new_buf(alloc, KB_ST_SIZE + 8, 0, 0, false,
					   1)) == -ENOSPC);
	CHECK(st, PTR_ERR(kb_alloc_new_buf(alloc, KB_ST_SIZE / 2 + 8, 0, 0,
					   true, 1)) == -ENOSPC);
	b = kb_st_new(st, KB_ST_SIZE, false);
	if (b) {
		CHECK(st, PTR_ERR(kb_alloc_new_buf(alloc, 0, 0, 0, false, 1)) ==
		      -ENOSPC);
		kb_alloc_free_buf(alloc, b);
	}
	kb_st_check_area(st);
	kb_st_check_idle(st);
}

/* Holes of 3 and 2 pages; best fit takes the smaller, split leaves the rest. */
static void kb_st_best_fit(struct kb_st *st)
{
	static const size_t sizes[] = { 1, 3, 1, 2, 1 };
	struct kb_buffer *b[ARRAY_SIZE(sizes)] = { NULL }, *x, *y, *z;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		b[i] = kb_st_new(st, sizes[i] * PAGE_SIZE, false);
		if (!b[i])
			goto out;
	}
	kb_alloc_free_buf(&st->alloc, b[1]);
	kb_alloc_free_buf(&st->alloc, b[3]);
	kb_st_check_area(st);
	/* fits both holes: goes to the 2-page hole at page 5 */
	x = kb_st_new(st, PAGE_SIZE + 8, false);
	CHECK(st, x && x->user_data == st->addr + 5 * PAGE_SIZE);
	/* fits only the 3-page hole (and the tail): the hole at page 1 */
	y = kb_st_new(st, 2 * PAGE_SIZE + 8, false);
	CHECK(st, y && y->user_data == st->addr + PAGE_SIZE);
	/* two rests of PAGE_SIZE - 8 bytes (pages 3 and 6): ties go low */
	z = kb_st_new(st, PAGE_SIZE - 8, false);
	CHECK(st, z && z->user_data == st->addr + 3 * PAGE_SIZE + 8);
	kb_st_check_area(st);
	if (x)
		kb_alloc_free_buf(&st->alloc, x);
	if (y)
		kb_alloc_free_buf(&st->alloc, y);
	if (z)
		kb_alloc_free_buf(&st->alloc, z);
	b[1] = NULL;
	b[3] = NULL;
out:
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		if (b[i])
			kb_alloc_free_buf(&st->alloc, b[i]);
	kb_st_check_area(st);
	kb_st_check_idle(st);
}

static const size_t kb_st_layout_sizes[] = {
	8, PAGE_SIZE - 8, PAGE_SIZE, PAGE_SIZE + 8, 2 * PAGE_SIZE + 24,
};

#define KB_ST_NSIZES ARRAY_SIZE(kb_st_layout_sizes)

/* Next permutation in lexicographic order; false after the last. */
static bool kb_st_next_perm(unsigned int *p, unsigned int n)
{
	unsigned int i = n - 1, j = n - 1, t;

	while (i > 0 && p[i - 1] >= p[i])
		i--;
	if (!i)
		return false;
	while (p[j] <= p[i - 1])
		j--;
	t = p[i - 1];
	p[i - 1] = p[j];
	p[j] = t;
	for (j = n - 1; i < j; i++, j--) {
		t = p[i];
		p[i] = p[j];
		p[j] = t;
	}
	return true;
}

/* One layout, one free order: allocate all, free in @order, check each step. */
static void kb_st_one_order(struct kb_st *st, const size_t *sizes,
			    const unsigned int *order)
{
	struct kb_buffer *b[KB_ST_NBUF];
	unsigned long expect = st->addr;
	unsigned int i;

	for (i = 0; i < KB_ST_NBUF; i++) {
		b[i] = kb_st_new(st, sizes[i], false);
		if (!b[i])
			break;
		/* Everything is free beyond: best fit packs them in order. */
		CHECK(st, b[i]->user_data == expect);
		expect += kb_st_round(sizes[i]);
	}
	if (i < KB_ST_NBUF) {
		while (i--)
			kb_alloc_free_buf(&st->alloc, b[i]);
		return;
	}
	kb_st_check_area(st);
	for (i = 0; i < KB_ST_NBUF; i++) {
		kb_alloc_free_buf(&st->alloc, b[order[i]]);
		kb_st_check_area(st);
	}
	kb_st_check_idle(st);
}

/*
 * Every layout of KB_ST_NBUF buffers drawn from kb_st_layout_sizes (sizes
 * chosen to end before, on and after page boundaries), each freed in every
 * order. The shrinker runs between some layouts so pages are also
 * allocated afresh, not only taken back from the LRU.
 */
static void kb_st_exhaustive(struct kb_st *st, unsigned long *runs)
{
	unsigned int digits[KB_ST_NBUF] = { 0 };
	unsigned int order[KB_ST_NBUF];
	size_t sizes[KB_ST_NBUF];
	unsigned long layout = 0;
	unsigned int i;

	for (;;) {
		for (i = 0; i < KB_ST_NBUF; i++) {
			sizes[i] = kb_st_layout_sizes[digits[i]];
			order[i] = i;
		}
		do {
			kb_st_one_order(st, sizes, order);
			(*runs)++;
		} while (kb_st_next_perm(order, KB_ST_NBUF) &&
			 st->failures < 10);
		if (++layout % 7 == 0)
			kb_st_shrink_all(st);
		for (i = 0; i < KB_ST_NBUF && ++digits[i] == KB_ST_NSIZES; i++)
			digits[i] = 0;
		if (i == KB_ST_NBUF || st->failures >= 10)
			break;
		cond_resched();
	}
}

/* The user mapping sees what the kernel wrote; the shrinker zaps it. */
static void kb_st_mapping(struct kb_st *st)
{
	static const char text[] = "kbinder allocator self-test";
	struct kb_alloc *alloc = &st->alloc;
	const size_t off = PAGE_SIZE - 5;	/* straddles a page boundary */
	char buf[sizeof(text)];
	struct kb_buffer *b;
	void __user *user;
	unsigned long freed;

	b = kb_st_new(st, 2 * PAGE_SIZE, false);
	if (!b)
		return;
	user = (void __user *)(b->user_data + off);
	CHECK(st, !kb_alloc_copy_to_buffer(alloc, b, off, text, sizeof(text)));
	CHECK(st, !copy_from_user(buf, user, sizeof(buf)) &&
	      !memcmp(buf, text, sizeof(text)));
	memset(buf, 0, sizeof(buf));
	CHECK(st, !kb_alloc_copy_from_buffer(alloc, buf, b, off, sizeof(buf)) &&
	      !memcmp(buf, text, sizeof(text)));
	CHECK(st, !kb_alloc_copy_user_to_buffer(alloc, b, 0, user, 8));
	CHECK(st, !kb_alloc_copy_from_buffer(alloc, buf, b, 0, 8) &&
	      !memcmp(buf, text, 8));
	/* bounds */
	CHECK(st, kb_alloc_copy_to_buffer(alloc, b, b->size - 1, text, 2) ==
	      -EINVAL);
	CHECK(st, kb_alloc_copy_to_buffer(alloc, b, SIZE_MAX, text, 2) ==
	      -EINVAL);
	CHECK(st, kb_alloc_copy_from_buffer(alloc, buf, b, 8, SIZE_MAX - 4) ==
	      -EINVAL);
	CHECK(st, kb_alloc_copy_user_to_buffer(alloc, b, b->size, user, 1) ==
	      1);
	CHECK(st, !kb_alloc_copy_to_buffer(alloc, b, b->size, text, 0));

	/* freed: pages stay mapped on the LRU, the shrinker takes them */
	kb_alloc_free_buf(alloc, b);
	CHECK(st, !copy_from_user(buf, user, sizeof(buf)));
	freed = kb_alloc_shrink(ULONG_MAX);
	CHECK(st, freed >= 2);
	CHECK(st, copy_from_user(buf, user, sizeof(buf)) == sizeof(buf));
	kb_st_check_idle(st);

	/* allocated again: fresh, zeroed pages, mapped again */
	b = kb_st_new(st, 2 * PAGE_SIZE, false);
	if (!b)
		return;
	CHECK(st, !copy_from_user(buf, user, sizeof(buf)) &&
	      !memchr_inv(buf, 0, sizeof(buf)));
	CHECK(st, !kb_alloc_copy_to_buffer(alloc, b, off, text, sizeof(text)));
	b->clear_on_free = true;
	kb_alloc_free_buf(alloc, b);
	/* taken back from the LRU: same page, cleared by clear_on_free */
	b = kb_st_new(st, 2 * PAGE_SIZE, false);
	if (!b)
		return;
	CHECK(st, !kb_alloc_copy_from_buffer(alloc, buf, b, off, sizeof(buf)) &&
	      !memchr_inv(buf, 0, sizeof(buf)));
	kb_alloc_free_buf(alloc, b);
	kb_st_check_area(st);
	kb_st_check_idle(st);
}

static void kb_st_async_and_user_free(struct kb_st *st)
{
	struct kb_alloc *alloc = &st->alloc;
	struct kb_buffer *b[KB_ST_PAGES];
	unsigned int n = 0, i;
	struct kb_buffer *sync;

	CHECK(st, kb_alloc_free_async_space(alloc) == KB_ST_SIZE / 2);
	while (n < ARRAY_SIZE(b)) {
		b[n] = kb_alloc_new_buf(alloc, PAGE_SIZE - 100, 0, 0, true, 7);
		if (IS_ERR(b[n]))
			break;
		n++;
	}
	/* half the area of one-page buffers: 8 of them, then -ENOSPC */
	CHECK(st, n == KB_ST_PAGES / 2);
	CHECK(st, n < ARRAY_SIZE(b) && PTR_ERR(b[n]) == -ENOSPC);
	CHECK(st, kb_alloc_free_async_space(alloc) ==
	      KB_ST_SIZE / 2 - n * (PAGE_SIZE - 96));
	/* the sender holds more than a quarter of the area: suspect once */
	for (i = 0; i < n; i++)
		if (b[i]->oneway_spam_suspect)
			break;
	CHECK(st, i < n);
	/* synchronous allocations still fit */
	sync = kb_st_new(st, PAGE_SIZE, false);

	/* BC_FREE_BUFFER: only allowed buffers, only once, exact address */
	if (n && sync) {
		kb_alloc_allow_user_free(b[0]);
		CHECK(st, !kb_alloc_prepare_to_free(alloc, b[1]->user_data));
		CHECK(st, !kb_alloc_prepare_to_free(alloc,
						    b[0]->user_data + 8));
		CHECK(st, kb_alloc_prepare_to_free(alloc, b[0]->user_data) ==
		      b[0]);
		CHECK(st, !kb_alloc_prepare_to_free(alloc, b[0]->user_data));
	}
	for (i = 0; i < n; i++)
		kb_alloc_free_buf(alloc, b[i]);
	if (sync)
		kb_alloc_free_buf(alloc, sync);
	CHECK(st, kb_alloc_free_async_space(alloc) == KB_ST_SIZE / 2);
	kb_st_check_area(st);
	kb_st_check_idle(st);
}

void kb_st_single(struct kb_st *st, unsigned long *runs)
{
	kb_st_check_area(st);
	kb_st_sizes(st);
	kb_st_best_fit(st);
	kb_st_mapping(st);
	kb_st_async_and_user_free(st);
	kb_st_exhaustive(st, runs);
}
