// SPDX-License-Identifier: GPL-2.0-only
/*
 * Self-test of the kbinder buffer allocator, run at module load with
 * selftest=1.
 *
 * The allocator needs a real mm and a real vma (pages are inserted with
 * vm_insert_page() and zapped by the shrinker), so the test borrows the
 * mm of the loading process from a kernel thread (kthread_use_mm), maps a
 * private anonymous-inode file of its own into it, and drives a kb_alloc over
 * that mapping. A kernel thread, because the file must be completely gone
 * (flush_delayed_fput) before the test returns: a process would release it
 * only on its way back to userspace, after a failed module load has freed
 * the file's operations.
 *
 * Checked: size rules and overflow, best fit, splitting, merging, the
 * invariants of the area after every step of every free order of many
 * buffer layouts, page accounting (in use / on the LRU / absent), the user
 * mapping seeing what the kernel wrote, the shrinker zapping and freeing,
 * clear_on_free, async space, BC_FREE_BUFFER lookup, vma close and release.
 *
 * This file is compiled as part of alloc.o: alloc.c includes it with
 * KB_ALLOC_SELFTEST_BUILD defined. Compiled on its own it is empty, so a
 * Kbuild that also lists alloc_selftest.o still links.
 */
#ifdef KB_ALLOC_SELFTEST_BUILD
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/anon_inodes.h>
#include <linux/completion.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "alloc.h"

#define KB_ST_PAGES	16
#define KB_ST_SIZE	(KB_ST_PAGES * PAGE_SIZE)
#define KB_ST_NBUF	4	/* buffers per layout in the exhaustive test */

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

static bool kb_st_check(struct kb_st *st, bool ok, int line, const char *what)
{
	st->checks++;
	if (!ok && st->failures++ < 10)
		pr_err("alloc selftest: line %d: %s\n", line, what);
	return ok;
}

#define CHECK(st, cond) kb_st_check(st, !!(cond), __LINE__, #cond)

/* ---- looking inside the allocator (this file is part of alloc.c) -------- */

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
 * kb_alloc_lru_count() - number of pages on the global LRU (self-test)
 *
 * Return: the count.
 */
static unsigned long kb_alloc_lru_count(void)
{
	return list_lru_count(&kb_alloc_lru);
}

/**
 * kb_alloc_page_state() - inspect one page of an area (self-test)
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

/* ---- the private mapping ------------------------------------------------ */

static void kb_st_vma_close(struct vm_area_struct *vma)
{
	struct kb_st *st = vma->vm_private_data;

	kb_alloc_vma_close(&st->alloc);
}

static const struct vm_operations_struct kb_st_vm_ops = {
	.close = kb_st_vma_close,
};

static int kb_st_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct kb_st *st = file->private_data;

	if (vma->vm_flags & VM_WRITE)
		return -EPERM;
	vma->vm_flags &= ~VM_MAYWRITE;
	vma->vm_ops = &kb_st_vm_ops;
	vma->vm_private_data = st;
	return kb_alloc_mmap(&st->alloc, vma);
}

static const struct file_operations kb_st_fops = {
	.owner = THIS_MODULE,
	.mmap = kb_st_mmap,
};

/* ---- helpers ------------------------------------------------------------ */

static struct kb_buffer *kb_st_new(struct kb_st *st, size_t size, bool async)
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

/*
 * Check every invariant of the area: the buffers tile it in address order,
 * no two free buffers are adjacent, the trees hold exactly the free and the
 * allocated buffers in order, and each page is in use exactly when an
 * allocated buffer touches it (else on the LRU or absent).
 */
static void kb_st_check_area(struct kb_st *st)
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

/* Every page of the area is on the LRU or absent; the LRU holds exactly ours. */
static void kb_st_check_idle(struct kb_st *st)
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

/* ---- the tests ---------------------------------------------------------- */

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
		b[0]->allow_user_free = true;
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

/* ---- concurrency: two allocating threads and the shrinker ----------------- */

#define KB_ST_WORKERS	2
#define KB_ST_ITERS	4000
#define KB_ST_HELD	4	/* buffers a worker holds at once */

/**
 * struct kb_st_worker - one thread of the concurrency test
 * @st:      the test
 * @id:      worker number (seeds its pattern and its random sizes)
 * @ops:     buffers allocated, filled, verified and freed
 * @nospc:   allocations that found no room
 * @errors:  wrong contents or failed calls
 * @done:    the worker has finished
 */
struct kb_st_worker {
	struct kb_st *st;
	unsigned int id;
	unsigned long ops;
	unsigned long nospc;
	unsigned long errors;
	struct completion done;
};

static u32 kb_st_rand(u32 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

static void kb_st_fill(struct kb_alloc *alloc, struct kb_buffer *b, u8 byte)
{
	u8 chunk[64];
	size_t off, n;

	memset(chunk, byte, sizeof(chunk));
	for (off = 0; off < b->size; off += n) {
		n = min_t(size_t, sizeof(chunk), b->size - off);
		kb_alloc_copy_to_buffer(alloc, b, off, chunk, n);
	}
}

/* The kernel's view and the user mapping both show @byte at both ends. */
static bool kb_st_verify(struct kb_alloc *alloc, struct kb_buffer *b, u8 byte)
{
	size_t n = min_t(size_t, 64, b->size);
	size_t ends[2] = { 0, b->size - n };
	u8 chunk[64];
	int i;

	for (i = 0; i < 2; i++) {
		if (kb_alloc_copy_from_buffer(alloc, chunk, b, ends[i], n) ||
		    memchr_inv(chunk, byte, n))
			return false;
		if (copy_from_user(chunk,
				   (const void __user *)(b->user_data + ends[i]),
				   n) || memchr_inv(chunk, byte, n))
			return false;
	}
	return true;
}

static void kb_st_drop_all(struct kb_st_worker *w, struct kb_buffer **held,
			   const u8 *byte)
{
	struct kb_alloc *alloc = &w->st->alloc;
	unsigned int slot;

	for (slot = 0; slot < KB_ST_HELD; slot++) {
		if (!held[slot])
			continue;
		if (!kb_st_verify(alloc, held[slot], byte[slot]))
			w->errors++;
		kb_alloc_free_buf(alloc, held[slot]);
		held[slot] = NULL;
		w->ops++;
	}
}

static void kb_st_worker_run(struct kb_st_worker *w)
{
	struct kb_alloc *alloc = &w->st->alloc;
	struct kb_buffer *held[KB_ST_HELD] = { NULL };
	u8 byte[KB_ST_HELD];
	u32 seed = 0x9e3779b9 * (w->id + 1);
	unsigned int i, slot;

	for (i = 0; i < KB_ST_ITERS; i++) {
		size_t size = kb_st_rand(&seed) % (3 * PAGE_SIZE);
		bool async = !(kb_st_rand(&seed) % 4);

		slot = kb_st_rand(&seed) % KB_ST_HELD;
		/* now and then drop everything: idle pages for the shrinker */
		if (!(i % 32))
			slot = KB_ST_HELD;
		if (slot == KB_ST_HELD) {
			kb_st_drop_all(w, held, byte);
			cond_resched();
			continue;
		}
		if (held[slot]) {
			if (!kb_st_verify(alloc, held[slot], byte[slot]))
				w->errors++;
			kb_alloc_free_buf(alloc, held[slot]);
			held[slot] = NULL;
			w->ops++;
			continue;
		}
		held[slot] = kb_alloc_new_buf(alloc, size, 0, 0, async, w->id);
		if (IS_ERR(held[slot])) {
			if (PTR_ERR(held[slot]) == -ENOSPC)
				w->nospc++;
			else
				w->errors++;
			held[slot] = NULL;
			continue;
		}
		byte[slot] = (u8)(w->id * 64 + i);
		kb_st_fill(alloc, held[slot], byte[slot]);
		if (!kb_st_verify(alloc, held[slot], byte[slot]))
			w->errors++;
		if (!(i % 64))
			cond_resched();
	}
	kb_st_drop_all(w, held, byte);
}

static int kb_st_worker_thread(void *data)
{
	struct kb_st_worker *w = data;

	kthread_use_mm(w->st->mm);
	kb_st_worker_run(w);
	kthread_unuse_mm(w->st->mm);
	complete(&w->done);
	return 0;
}

static void kb_st_concurrent(struct kb_st *st)
{
	struct kb_st_worker w[KB_ST_WORKERS];
	struct task_struct *task[KB_ST_WORKERS];
	unsigned long shrunk = 0, passes = 0, ops = 0, nospc = 0;
	unsigned int i, started = 0;

	for (i = 0; i < KB_ST_WORKERS; i++) {
		w[i] = (struct kb_st_worker){ .st = st, .id = i + 1 };
		init_completion(&w[i].done);
		task[i] = kthread_create(kb_st_worker_thread, &w[i],
					 "kbinder-alloc-st%u", i);
		if (!CHECK(st, !IS_ERR(task[i])))
			break;
		get_task_struct(task[i]);
		wake_up_process(task[i]);
		started++;
	}
	/* This thread is the shrinker, until every worker is done. */
	for (i = 0; i < started; i++) {
		while (!completion_done(&w[i].done)) {
			shrunk += kb_alloc_shrink(ULONG_MAX);
			passes++;
			cond_resched();
		}
	}
	for (i = 0; i < started; i++) {
		kthread_stop(task[i]);
		put_task_struct(task[i]);
		CHECK(st, !w[i].errors);
		ops += w[i].ops;
		nospc += w[i].nospc;
	}
	CHECK(st, ops > KB_ST_WORKERS * KB_ST_ITERS / 4);
	CHECK(st, kb_alloc_free_async_space(&st->alloc) == KB_ST_SIZE / 2);
	kb_st_check_area(st);
	kb_st_check_idle(st);
	pr_info("alloc selftest: concurrent: %lu buffers, %lu without room, %lu pages reclaimed in %lu shrinker passes\n",
		ops, nospc, shrunk, passes);
}

/* Cost of the common case: a small buffer whose page is resident. */
static void kb_st_speed(struct kb_st *st)
{
	const unsigned int rounds = 20000;
	struct kb_buffer *b;
	unsigned int i;
	u64 t0, ns;

	b = kb_st_new(st, 128, false);	/* make the first page resident */
	if (!b)
		return;
	kb_alloc_free_buf(&st->alloc, b);
	t0 = ktime_get_ns();
	for (i = 0; i < rounds; i++) {
		b = kb_alloc_new_buf(&st->alloc, 100, 16, 0, false, 1);
		if (IS_ERR(b))
			break;
		kb_alloc_free_buf(&st->alloc, b);
	}
	ns = ktime_get_ns() - t0;
	CHECK(st, i == rounds);
	kb_st_check_idle(st);
	pr_info("alloc selftest: new_buf+free_buf of 120 bytes, page resident: %llu ns per pair\n",
		div_u64(ns, rounds));
}

/*
 * munmap while a worker allocates (often on the slow path: the shrinker
 * keeps taking pages away): the worker must see -ESRCH, never anything
 * worse, and can still free what it holds.
 */
static int kb_st_closer_thread(void *data)
{
	struct kb_st_worker *w = data;
	struct kb_alloc *alloc = &w->st->alloc;
	struct kb_buffer *held[KB_ST_HELD] = { NULL };
	u32 seed = 12345;
	unsigned int slot;

	kthread_use_mm(w->st->mm);
	for (;;) {
		struct kb_buffer *b;

		slot = kb_st_rand(&seed) % KB_ST_HELD;
		if (held[slot]) {
			kb_alloc_free_buf(alloc, held[slot]);
			held[slot] = NULL;
		}
		b = kb_alloc_new_buf(alloc, kb_st_rand(&seed) % (2 * PAGE_SIZE),
				     0, 0, false, 3);
		if (IS_ERR(b)) {
			if (PTR_ERR(b) == -ESRCH)
				break;
			if (PTR_ERR(b) != -ENOSPC)
				w->errors++;
			continue;
		}
		kb_st_fill(alloc, b, 0x5a);
		held[slot] = b;
		WRITE_ONCE(w->ops, w->ops + 1);
		cond_resched();
	}
	for (slot = 0; slot < KB_ST_HELD; slot++)
		if (held[slot])
			kb_alloc_free_buf(alloc, held[slot]);
	kthread_unuse_mm(w->st->mm);
	complete(&w->done);
	return 0;
}

static void kb_st_close_race(struct kb_st *st)
{
	struct kb_st_worker w = { .st = st };
	struct task_struct *task;

	init_completion(&w.done);
	task = kthread_create(kb_st_closer_thread, &w, "kbinder-alloc-stc");
	if (!CHECK(st, !IS_ERR(task))) {
		CHECK(st, !vm_munmap(st->addr, KB_ST_SIZE));
		return;
	}
	get_task_struct(task);
	wake_up_process(task);
	while (READ_ONCE(w.ops) < 300 && !completion_done(&w.done)) {
		kb_alloc_shrink(ULONG_MAX);
		cond_resched();
	}
	CHECK(st, !vm_munmap(st->addr, KB_ST_SIZE));
	wait_for_completion(&w.done);
	kthread_stop(task);
	put_task_struct(task);
	CHECK(st, !w.errors);
	CHECK(st, w.ops >= 300);
}

/* ---- set-up, the kernel thread, the entry point ------------------------- */

static int kb_st_map(struct kb_st *st)
{
	unsigned long addr;

	st->file = anon_inode_getfile("[kbinder-alloc-selftest]", &kb_st_fops,
				      st, O_RDONLY);
	if (IS_ERR(st->file))
		return PTR_ERR(st->file);
	addr = vm_mmap(st->file, 0, KB_ST_SIZE, PROT_READ, MAP_SHARED, 0);
	if (IS_ERR_VALUE(addr))
		return (int)addr;
	st->addr = addr;
	return 0;
}

static int kb_st_run(struct kb_st *st)
{
	unsigned long runs = 0;
	int ret;

	kthread_use_mm(st->mm);
	kb_alloc_init(&st->alloc);
	st->lru_base = kb_alloc_lru_count();
	ret = kb_st_map(st);
	if (!ret) {
		kb_st_check_area(st);
		kb_st_sizes(st);
		kb_st_best_fit(st);
		kb_st_mapping(st);
		kb_st_async_and_user_free(st);
		kb_st_exhaustive(st, &runs);
		kb_st_concurrent(st);
		kb_st_speed(st);

		/* leave two buffers allocated: release must report them */
		kb_st_new(st, 8, false);
		kb_st_new(st, 3 * PAGE_SIZE, true);
		kb_st_close_race(st);
		CHECK(st, st->alloc.closed);
		CHECK(st, PTR_ERR(kb_alloc_new_buf(&st->alloc, 8, 0, 0, false,
						   1)) == -ESRCH);
	}
	CHECK(st, kb_alloc_release(&st->alloc) == (ret ? 0 : 2));
	CHECK(st, kb_alloc_lru_count() == st->lru_base);
	CHECK(st, PTR_ERR(kb_alloc_new_buf(&st->alloc, 8, 0, 0, false, 1)) ==
	      -ESRCH);
	if (!IS_ERR_OR_NULL(st->file))
		fput(st->file);
	kthread_unuse_mm(st->mm);
	/* The file (and its reference on this module) is gone after this. */
	flush_delayed_fput();

	if (ret)
		pr_err("alloc selftest: cannot map a test area: %d\n", ret);
	else
		pr_info("alloc selftest: %lu checks, %lu failed, %lu alloc/free orders\n",
			st->checks, st->failures, runs);
	if (ret)
		return ret;
	return st->failures ? -EINVAL : 0;
}

static int kb_st_thread(void *data)
{
	struct kb_st *st = data;

	st->result = kb_st_run(st);
	complete(&st->done);
	return 0;
}

int kb_alloc_selftest(void)
{
	struct task_struct *task;
	struct kb_st *st;
	int ret;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	init_completion(&st->done);
	st->mm = get_task_mm(current);
	if (!st->mm) {
		kfree(st);
		return -EOPNOTSUPP;
	}
	ret = kb_alloc_shrinker_register();
	if (ret)
		goto out;
	task = kthread_create(kb_st_thread, st, "kbinder-alloc-st");
	if (IS_ERR(task)) {
		ret = PTR_ERR(task);
		goto out_unregister;
	}
	/* kthread_stop() alone could stop it before it ever ran. */
	get_task_struct(task);
	wake_up_process(task);
	wait_for_completion(&st->done);
	kthread_stop(task);
	put_task_struct(task);
	ret = st->result;
out_unregister:
	kb_alloc_shrinker_unregister();
out:
	mmput(st->mm);
	kfree(st);
	return ret;
}

#endif /* KB_ALLOC_SELFTEST_BUILD */
