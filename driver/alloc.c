// SPDX-License-Identifier: GPL-2.0-only
/*
 * kbinder buffer allocator.
 *
 * An area (at most 4 MiB of a process's address space, mapped read-only) is
 * cut into buffers. All buffers sit in an address-ordered list; free ones are
 * also in a tree by (size, address) for best fit, allocated ones in a tree by
 * address for BC_FREE_BUFFER lookups. Allocation splits the best fitting
 * free buffer; freeing merges with free neighbours.
 *
 * Each page of the area has a descriptor counting the allocated buffers that
 * touch it. A page is allocated and inserted into the user mapping when its
 * count leaves zero; when the count returns to zero the page stays mapped but
 * goes onto a global list_lru, from which the shrinker reclaims it. A page
 * used again stays on the LRU (taking it off on every allocation and putting
 * it back on every free cost two round trips on the LRU's global lock per
 * page and transaction); the shrinker takes a page that is in use off the
 * LRU without freeing it. The LRU and its shrinker are in alloc_lru.c; see
 * docs/allocator.md for the lock rules and the shrinker protocol.
 *
 * A split needs a struct for the remainder and a merge frees one: each area
 * keeps the last one merged away as its spare, so a ping-pong allocates no
 * struct. Not under KASAN or kmemleak: there every struct merged away is
 * freed, so a stale pointer to a freed buffer is reported rather than
 * reaching a recycled one (docs/allocator.md has the cost of both).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/highmem.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "alloc_internal.h"

/* Every buffer size is a multiple of this, and at least this. */
#define KB_ALLOC_GRAIN	8

/* ---- the two trees ---------------------------------------------------- */

static bool kb_free_less(const struct kb_buffer *a, const struct kb_buffer *b)
{
	if (a->size != b->size)
		return a->size < b->size;
	return a->user_data < b->user_data;
}

static void kb_alloc_insert_free(struct kb_alloc *alloc,
				 struct kb_buffer *buffer)
	__must_hold(&alloc->lock)
{
	struct rb_node **p = &alloc->free_buffers.rb_node;
	struct rb_node *parent = NULL;

	lockdep_assert_held(&alloc->lock);
	while (*p) {
		struct kb_buffer *b = rb_entry(*p, struct kb_buffer, rb_node);

		parent = *p;
		p = kb_free_less(buffer, b) ? &parent->rb_left : &parent->rb_right;
	}
	rb_link_node(&buffer->rb_node, parent, p);
	rb_insert_color(&buffer->rb_node, &alloc->free_buffers);
}

static void kb_alloc_insert_allocated(struct kb_alloc *alloc,
				      struct kb_buffer *buffer)
	__must_hold(&alloc->lock)
{
	struct rb_node **p = &alloc->allocated_buffers.rb_node;
	struct rb_node *parent = NULL;

	lockdep_assert_held(&alloc->lock);
	while (*p) {
		struct kb_buffer *b = rb_entry(*p, struct kb_buffer, rb_node);

		parent = *p;
		p = buffer->user_data < b->user_data ?
			&parent->rb_left : &parent->rb_right;
	}
	rb_link_node(&buffer->rb_node, parent, p);
	rb_insert_color(&buffer->rb_node, &alloc->allocated_buffers);
}

/*
 * @old leaves the free tree and @new, a free buffer with another size or
 * address, joins it. In @old's place when that keeps the tree's order,
 * which is what a ping-pong does (a split's rest, a merge with the rest):
 * no walk down the tree and no rebalancing.
 */
static void kb_alloc_replace_free(struct kb_alloc *alloc, struct kb_buffer *old,
				  struct kb_buffer *new)
	__must_hold(&alloc->lock)
{
	struct rb_node *prev = rb_prev(&old->rb_node);
	struct rb_node *next = rb_next(&old->rb_node);

	lockdep_assert_held(&alloc->lock);
	if ((!prev || kb_free_less(rb_entry(prev, struct kb_buffer, rb_node),
				   new)) &&
	    (!next || kb_free_less(new, rb_entry(next, struct kb_buffer,
						 rb_node)))) {
		rb_replace_node(&old->rb_node, &new->rb_node,
				&alloc->free_buffers);
		return;
	}
	rb_erase(&old->rb_node, &alloc->free_buffers);
	kb_alloc_insert_free(alloc, new);
}

/*
 * The free buffer @buffer, in the free tree, grew: it moves only if it
 * passed the next one in the tree's order.
 */
static void kb_alloc_free_grew(struct kb_alloc *alloc, struct kb_buffer *buffer)
	__must_hold(&alloc->lock)
{
	struct rb_node *next = rb_next(&buffer->rb_node);

	lockdep_assert_held(&alloc->lock);
	if (!next || kb_free_less(buffer, rb_entry(next, struct kb_buffer,
						   rb_node)))
		return;
	rb_erase(&buffer->rb_node, &alloc->free_buffers);
	kb_alloc_insert_free(alloc, buffer);
}

/* The smallest free buffer of at least @size bytes (lowest address on ties). */
static struct kb_buffer *kb_alloc_best_fit(struct kb_alloc *alloc, size_t size)
	__must_hold(&alloc->lock)
{
	struct rb_node *n = alloc->free_buffers.rb_node;
	struct kb_buffer *best = NULL;

	lockdep_assert_held(&alloc->lock);
	while (n) {
		struct kb_buffer *b = rb_entry(n, struct kb_buffer, rb_node);

		if (b->size >= size) {
			best = b;
			n = n->rb_left;
		} else {
			n = n->rb_right;
		}
	}
	return best;
}

static struct kb_buffer *kb_alloc_find_allocated(struct kb_alloc *alloc,
						 unsigned long user_data)
	__must_hold(&alloc->lock)
{
	struct rb_node *n = alloc->allocated_buffers.rb_node;

	lockdep_assert_held(&alloc->lock);
	while (n) {
		struct kb_buffer *b = rb_entry(n, struct kb_buffer, rb_node);

		if (user_data < b->user_data)
			n = n->rb_left;
		else if (user_data > b->user_data)
			n = n->rb_right;
		else
			return b;
	}
	return NULL;
}

/* ---- page accounting ---------------------------------------------------- */

static void kb_alloc_page_range(struct kb_alloc *alloc,
				const struct kb_buffer *buffer,
				size_t *first, size_t *last)
{
	*first = kb_alloc_page_index(alloc, buffer->user_data);
	*last = kb_alloc_page_index(alloc, buffer->user_data + buffer->size - 1);
}

/*
 * Count @buffer as a user of its pages; pages coming back into use stay on
 * the LRU (see the top of this file). Returns true if some page still has
 * to be allocated.
 */
static bool kb_alloc_get_pages(struct kb_alloc *alloc,
			       const struct kb_buffer *buffer)
	__must_hold(&alloc->lock)
{
	bool missing = false;
	size_t i, first, last;

	lockdep_assert_held(&alloc->lock);
	kb_alloc_page_range(alloc, buffer, &first, &last);
	for (i = first; i <= last; i++) {
		struct kb_alloc_page *desc = &alloc->pages[i];

		desc->users++;
		if (!desc->page)
			missing = true;
	}
	return missing;
}

/* Drop @buffer's use of its pages; pages nobody uses go to the LRU. */
static void kb_alloc_put_pages(struct kb_alloc *alloc,
			       const struct kb_buffer *buffer)
	__must_hold(&alloc->lock)
{
	size_t i, first, last;

	lockdep_assert_held(&alloc->lock);
	kb_alloc_page_range(alloc, buffer, &first, &last);
	for (i = first; i <= last; i++) {
		struct kb_alloc_page *desc = &alloc->pages[i];

		if (WARN_ON_ONCE(!desc->users))
			continue;
		/* Still on the LRU if it never left it since its last use. */
		if (--desc->users == 0 && desc->page &&
		    list_empty(&desc->lru)) {
			kb_alloc_lru_add(desc);
			alloc->lru_used = true;
		}
	}
}

/*
 * Allocate and map every missing page of @buffer. Caller holds a reference
 * on @mm (mmget) and mmap_lock for reading, then alloc->lock.
 */
static int kb_alloc_populate(struct kb_alloc *alloc, struct mm_struct *mm,
			     const struct kb_buffer *buffer)
	__must_hold(&alloc->lock)
{
	size_t i, first, last;

	lockdep_assert_held(&alloc->lock);
	mmap_assert_locked(mm);
	kb_alloc_page_range(alloc, buffer, &first, &last);
	for (i = first; i <= last; i++) {
		struct kb_alloc_page *desc = &alloc->pages[i];
		unsigned long addr = kb_alloc_page_addr(alloc, desc);
		struct vm_area_struct *vma;
		struct page *page;
		int ret;

		if (desc->page)
			continue;
		/* Looked up under mmap_lock each time, never cached. */
		vma = vma_lookup(mm, addr);
		if (!vma || vma->vm_file != alloc->file)
			return -ESRCH;
		page = alloc_page(GFP_KERNEL_ACCOUNT | __GFP_HIGHMEM | __GFP_ZERO);
		if (!page)
			return -ENOMEM;
		ret = vm_insert_page(vma, addr, page);
		if (ret) {
			__free_page(page);
			return ret == -ENOMEM ? -ENOMEM : -ESRCH;
		}
		desc->page = page;
	}
	return 0;
}

/* ---- buffers ------------------------------------------------------------ */

static size_t kb_alloc_buffer_size(size_t data_size, size_t offsets_size,
				   size_t extra_buffers_size)
{
	size_t total;

	/* Each part is rounded up to the grain, which must not wrap. */
	if (data_size > SIZE_MAX - (KB_ALLOC_GRAIN - 1) ||
	    offsets_size > SIZE_MAX - (KB_ALLOC_GRAIN - 1) ||
	    extra_buffers_size > SIZE_MAX - (KB_ALLOC_GRAIN - 1))
		return 0;
	if (check_add_overflow(ALIGN(data_size, KB_ALLOC_GRAIN),
			       ALIGN(offsets_size, KB_ALLOC_GRAIN), &total) ||
	    check_add_overflow(total, ALIGN(extra_buffers_size, KB_ALLOC_GRAIN),
			       &total))
		return 0;
	return max_t(size_t, total, KB_ALLOC_GRAIN);
}

/*
 * Mark @buffer (async or not) as allocated by @pid and flag a suspected
 * one-way spammer when the async space runs low.
 */
static void kb_alloc_account_async(struct kb_alloc *alloc,
				   struct kb_buffer *buffer)
	__must_hold(&alloc->lock)
{
	size_t total = 0;
	unsigned int count = 0;
	struct rb_node *n;

	lockdep_assert_held(&alloc->lock);
	alloc->free_async_space -= buffer->size;
	if (alloc->free_async_space >= alloc->size / 10) {
		alloc->oneway_spam_detected = false;
		return;
	}
	for (n = rb_first(&alloc->allocated_buffers); n; n = rb_next(n)) {
		struct kb_buffer *b = rb_entry(n, struct kb_buffer, rb_node);

		if (b->pid != buffer->pid || !b->async_transaction)
			continue;
		total += b->size;
		count++;
	}
	if ((count > 50 || total > alloc->size / 4) &&
	    !alloc->oneway_spam_detected) {
		alloc->oneway_spam_detected = true;
		buffer->oneway_spam_suspect = true;
	}
}

/*
 * Carve @size bytes out of the free buffer @buffer (the best fit). A split
 * takes a zeroed struct for the remainder: the area's spare if it has one,
 * else *@rest_p (which the caller made sure exists), and clears its source.
 */
static void kb_alloc_take(struct kb_alloc *alloc, struct kb_buffer *buffer,
			  size_t size, struct kb_buffer **rest_p)
	__must_hold(&alloc->lock)
{
	lockdep_assert_held(&alloc->lock);
	if (buffer->size > size) {
		struct kb_buffer **src = alloc->spare ? &alloc->spare : rest_p;
		struct kb_buffer *rest = *src;

		*src = NULL;
		rest->user_data = buffer->user_data + size;
		rest->size = buffer->size - size;
		rest->free = true;
		list_add(&rest->entry, &buffer->entry);
		kb_alloc_replace_free(alloc, buffer, rest);
		buffer->size = size;
	} else {
		rb_erase(&buffer->rb_node, &alloc->free_buffers);
	}
	buffer->free = false;
	kb_alloc_insert_allocated(alloc, buffer);
	alloc->allocated++;
}

/*
 * A buffer struct merged away: keep it as the area's spare, or free it.
 * Under KASAN or kmemleak always free it (see the top of this file).
 */
static void kb_alloc_recycle(struct kb_alloc *alloc, struct kb_buffer *buffer)
	__must_hold(&alloc->lock)
{
	lockdep_assert_held(&alloc->lock);
	if (IS_ENABLED(CONFIG_KASAN) || IS_ENABLED(CONFIG_DEBUG_KMEMLEAK) ||
	    alloc->spare) {
		kfree(buffer);
		return;
	}
	memset(buffer, 0, sizeof(*buffer));
	alloc->spare = buffer;
}

static void kb_alloc_clear(struct kb_alloc *alloc, struct kb_buffer *buffer)
	__must_hold(&alloc->lock)
{
	size_t done = 0;

	lockdep_assert_held(&alloc->lock);
	while (done < buffer->size) {
		unsigned long addr = buffer->user_data + done;
		size_t in_page = offset_in_page(addr);
		size_t chunk = min_t(size_t, PAGE_SIZE - in_page,
				     buffer->size - done);
		struct page *page;

		page = alloc->pages[kb_alloc_page_index(alloc, addr)].page;
		if (page)
			memzero_page(page, in_page, chunk);
		done += chunk;
	}
}

static void kb_alloc_free_locked(struct kb_alloc *alloc,
				 struct kb_buffer *buffer)
	__must_hold(&alloc->lock)
{
	struct kb_buffer *next, *prev;

	lockdep_assert_held(&alloc->lock);
	if (buffer->clear_on_free)
		kb_alloc_clear(alloc, buffer);
	if (buffer->async_transaction)
		alloc->free_async_space += buffer->size;
	kb_alloc_put_pages(alloc, buffer);
	rb_erase(&buffer->rb_node, &alloc->allocated_buffers);
	alloc->allocated--;

	buffer->free = true;
	WRITE_ONCE(buffer->allow_user_free, false);
	buffer->async_transaction = false;
	buffer->clear_on_free = false;
	buffer->oneway_spam_suspect = false;
	buffer->transaction = NULL;
	buffer->target_node = NULL;
	buffer->data_size = 0;
	buffer->offsets_size = 0;
	buffer->extra_buffers_size = 0;

	next = list_is_last(&buffer->entry, &alloc->buffers) ? NULL :
	       list_next_entry(buffer, entry);
	prev = list_is_first(&buffer->entry, &alloc->buffers) ? NULL :
	       list_prev_entry(buffer, entry);
	if (next && !next->free)
		next = NULL;
	if (prev && !prev->free)
		prev = NULL;

	/* Merged into the free neighbours; at most one struct stays. */
	if (next) {
		list_del(&next->entry);
		buffer->size += next->size;
	}
	if (prev) {
		if (next)
			rb_erase(&next->rb_node, &alloc->free_buffers);
		list_del(&buffer->entry);
		prev->size += buffer->size;
		kb_alloc_free_grew(alloc, prev);
		kb_alloc_recycle(alloc, buffer);
	} else if (next) {
		kb_alloc_replace_free(alloc, next, buffer);
	} else {
		kb_alloc_insert_free(alloc, buffer);
	}
	if (next)
		kb_alloc_recycle(alloc, next);
}

/* ---- public API --------------------------------------------------------- */

void kb_alloc_init(struct kb_alloc *alloc)
{
	memset(alloc, 0, sizeof(*alloc));
	mutex_init(&alloc->lock);
	INIT_LIST_HEAD(&alloc->buffers);
	alloc->free_buffers = RB_ROOT;
	alloc->allocated_buffers = RB_ROOT;
	alloc->mm = current->mm;
	if (alloc->mm)
		mmgrab(alloc->mm);
}

int kb_alloc_mmap(struct kb_alloc *alloc, struct vm_area_struct *vma)
{
	size_t size = min(vma->vm_end - vma->vm_start, KB_ALLOC_MAX_SIZE);
	size_t i, npages = size >> PAGE_SHIFT;
	struct kb_alloc_page *pages;
	struct kb_buffer *buffer;
	int ret = 0;

	if (!alloc->mm || vma->vm_mm != alloc->mm || !npages)
		return -EINVAL;
	/* Not kvcalloc: list_lru_add() needs virt_to_page() of each entry. */
	pages = kcalloc(npages, sizeof(*pages), GFP_KERNEL_ACCOUNT);
	buffer = kzalloc(sizeof(*buffer), GFP_KERNEL_ACCOUNT);
	if (!pages || !buffer) {
		ret = -ENOMEM;
		goto out_free;
	}

	mutex_lock(&alloc->lock);
	if (alloc->mapped || alloc->released) {
		mutex_unlock(&alloc->lock);
		ret = -EBUSY;
		goto out_free;
	}
	for (i = 0; i < npages; i++) {
		INIT_LIST_HEAD(&pages[i].lru);
		pages[i].alloc = alloc;
	}
	alloc->pages = pages;
	alloc->start = vma->vm_start;
	alloc->size = size;
	alloc->file = vma->vm_file;
	alloc->free_async_space = size / 2;
	buffer->user_data = vma->vm_start;
	buffer->size = size;
	buffer->free = true;
	list_add(&buffer->entry, &alloc->buffers);
	kb_alloc_insert_free(alloc, buffer);
	alloc->mapped = true;
	/* vm_insert_page() under mmap_read_lock needs VM_MIXEDMAP set now. */
	vm_flags_set(vma, VM_DONTCOPY | VM_MIXEDMAP);
	mutex_unlock(&alloc->lock);
	return 0;

out_free:
	kfree(buffer);
	kfree(pages);
	return ret;
}

void kb_alloc_vma_close(struct kb_alloc *alloc)
{
	mutex_lock(&alloc->lock);
	alloc->closed = true;
	mutex_unlock(&alloc->lock);
}

/* The best fit for @size, or ERR_PTR(-ESRCH / -ENOSPC). */
static struct kb_buffer *kb_alloc_find_room(struct kb_alloc *alloc,
					    size_t size, bool is_async)
	__must_hold(&alloc->lock)
{
	struct kb_buffer *best;

	lockdep_assert_held(&alloc->lock);
	if (!alloc->mapped || alloc->closed)
		return ERR_PTR(-ESRCH);
	if (is_async && alloc->free_async_space < size)
		return ERR_PTR(-ENOSPC);
	best = kb_alloc_best_fit(alloc, size);
	return best ? best : ERR_PTR(-ENOSPC);
}

/* Splitting @best for @size needs a struct the area does not have. */
static bool kb_alloc_needs_struct(struct kb_alloc *alloc,
				  struct kb_buffer *best, size_t size)
	__must_hold(&alloc->lock)
{
	lockdep_assert_held(&alloc->lock);
	return !IS_ERR(best) && best->size > size && !alloc->spare;
}

/*
 * Take @size bytes for sender @pid out of @best (kb_alloc_find_room()'s
 * answer) and charge async space. A split takes a struct as
 * kb_alloc_take() says. The caller counts the buffer's pages.
 */
static void kb_alloc_reserve(struct kb_alloc *alloc, struct kb_buffer *best,
			     size_t size, bool is_async, int pid,
			     struct kb_buffer **rest)
	__must_hold(&alloc->lock)
{
	lockdep_assert_held(&alloc->lock);
	kb_alloc_take(alloc, best, size, rest);
	best->pid = pid;
	best->async_transaction = is_async;
	if (is_async)
		kb_alloc_account_async(alloc, best);
}

/*
 * Slow path of kb_alloc_new_buf(): @buffer is allocated but some of its
 * pages are missing. Takes mmap_lock (which ranks above alloc->lock), then
 * alloc->lock, populates, and frees @buffer if that fails. Called with
 * neither lock held and a reference on @mm (mmget).
 */
static int kb_alloc_new_buf_populate(struct kb_alloc *alloc,
				     struct mm_struct *mm,
				     struct kb_buffer *buffer)
{
	int ret;

	lockdep_assert_not_held(&alloc->lock);
	mmap_read_lock(mm);
	mutex_lock(&alloc->lock);
	if (alloc->released) {
		/* kb_alloc_release() already freed @buffer with the rest. */
		ret = -ESRCH;
	} else {
		ret = alloc->closed ? -ESRCH :
			kb_alloc_populate(alloc, mm, buffer);
		if (ret)
			kb_alloc_free_locked(alloc, buffer);
	}
	mutex_unlock(&alloc->lock);
	mmap_read_unlock(mm);
	return ret;
}

struct kb_buffer *kb_alloc_new_buf(struct kb_alloc *alloc, size_t data_size,
				   size_t offsets_size,
				   size_t extra_buffers_size, bool is_async,
				   int pid)
{
	size_t size = kb_alloc_buffer_size(data_size, offsets_size,
					   extra_buffers_size);
	struct kb_buffer *rest = NULL, *buffer;
	struct mm_struct *mm = NULL;
	int ret;

	lockdep_assert_not_held(&alloc->lock);
	if (!size)
		return ERR_PTR(-EINVAL);
	mutex_lock(&alloc->lock);
	buffer = kb_alloc_find_room(alloc, size, is_async);
	if (kb_alloc_needs_struct(alloc, buffer, size)) {
		/* Allocated unlocked; the area may change meanwhile: look again. */
		mutex_unlock(&alloc->lock);
		rest = kzalloc(sizeof(*rest), GFP_KERNEL_ACCOUNT);
		if (!rest)
			return ERR_PTR(-ENOMEM);
		mutex_lock(&alloc->lock);
		buffer = kb_alloc_find_room(alloc, size, is_async);
	}
	if (!IS_ERR(buffer)) {
		kb_alloc_reserve(alloc, buffer, size, is_async, pid, &rest);
		buffer->data_size = data_size;
		buffer->offsets_size = offsets_size;
		buffer->extra_buffers_size = extra_buffers_size;
		/* The mm is valid while alloc->lock is held and !released. */
		if (kb_alloc_get_pages(alloc, buffer)) {
			mm = alloc->mm;
			if (!mmget_not_zero(mm)) {
				mm = NULL;
				kb_alloc_free_locked(alloc, buffer);
				buffer = ERR_PTR(-ESRCH);
			}
		}
	}
	mutex_unlock(&alloc->lock);
	kfree(rest);
	if (!mm)
		return buffer;
	ret = kb_alloc_new_buf_populate(alloc, mm, buffer);
	mmput(mm);
	return ret ? ERR_PTR(ret) : buffer;
}

struct kb_buffer *kb_alloc_prepare_to_free_locked(struct kb_alloc *alloc,
						  unsigned long user_ptr)
	__must_hold(&alloc->lock)
{
	struct kb_buffer *buffer;

	lockdep_assert_held(&alloc->lock);
	buffer = kb_alloc_find_allocated(alloc, user_ptr);
	/* Pairs with the release in kb_alloc_allow_user_free(). */
	if (!buffer || !smp_load_acquire(&buffer->allow_user_free))
		return NULL;
	WRITE_ONCE(buffer->allow_user_free, false);
	return buffer;
}

struct kb_buffer *kb_alloc_prepare_to_free(struct kb_alloc *alloc,
					   unsigned long user_ptr)
{
	struct kb_buffer *buffer;

	mutex_lock(&alloc->lock);
	buffer = kb_alloc_prepare_to_free_locked(alloc, user_ptr);
	mutex_unlock(&alloc->lock);
	return buffer;
}

void kb_alloc_free_buf_locked(struct kb_alloc *alloc, struct kb_buffer *buffer)
	__must_hold(&alloc->lock)
{
	lockdep_assert_held(&alloc->lock);
	/* released first: after kb_alloc_release() @buffer is gone */
	if (!WARN_ON_ONCE(alloc->released || buffer->free))
		kb_alloc_free_locked(alloc, buffer);
}

void kb_alloc_free_buf(struct kb_alloc *alloc, struct kb_buffer *buffer)
{
	mutex_lock(&alloc->lock);
	kb_alloc_free_buf_locked(alloc, buffer);
	mutex_unlock(&alloc->lock);
}

unsigned int kb_alloc_release(struct kb_alloc *alloc)
{
	struct kb_buffer *buffer, *tmp;
	struct mm_struct *mm;
	unsigned int still_allocated;
	size_t i;
	bool wait;

	mutex_lock(&alloc->lock);
	still_allocated = alloc->allocated;
	list_for_each_entry_safe(buffer, tmp, &alloc->buffers, entry) {
		list_del(&buffer->entry);
		kfree(buffer);
	}
	alloc->free_buffers = RB_ROOT;
	alloc->allocated_buffers = RB_ROOT;
	alloc->allocated = 0;
	for (i = 0; alloc->pages && i < alloc->size >> PAGE_SHIFT; i++) {
		struct kb_alloc_page *desc = &alloc->pages[i];

		if (!desc->page)
			continue;
		if (!list_empty(&desc->lru))
			WARN_ON_ONCE(!kb_alloc_lru_del(desc));
		else
			WARN_ON_ONCE(!desc->users);
		/* No vma is left, so no PTE holds this page any more. */
		__free_page(desc->page);
		desc->page = NULL;
	}
	kfree(alloc->pages);
	alloc->pages = NULL;
	kfree(alloc->spare);
	alloc->spare = NULL;
	alloc->closed = true;
	alloc->released = true;
	mm = alloc->mm;
	alloc->mm = NULL;
	wait = alloc->lru_used;
	mutex_unlock(&alloc->lock);

	/* A shrinker that saw one of our pages may still be in mutex_unlock(). */
	if (wait)
		kb_alloc_lru_sync();
	if (mm)
		mmdrop(mm);
	return still_allocated;
}

/* ---- copying ------------------------------------------------------------ */

static bool kb_alloc_range_ok(const struct kb_buffer *buffer, size_t offset,
			      size_t bytes)
{
	return !buffer->free && offset <= buffer->size &&
	       bytes <= buffer->size - offset;
}

/*
 * The page and in-page offset backing byte @offset of an allocated buffer.
 * The buffer holds a use of the page, so the page cannot go away.
 */
static struct page *kb_alloc_backing(struct kb_alloc *alloc,
				     const struct kb_buffer *buffer,
				     size_t offset, size_t *in_page)
{
	unsigned long addr = buffer->user_data + offset;

	*in_page = offset_in_page(addr);
	return alloc->pages[kb_alloc_page_index(alloc, addr)].page;
}

unsigned long kb_alloc_copy_user_to_buffer(struct kb_alloc *alloc,
					   struct kb_buffer *buffer,
					   size_t offset,
					   const void __user *from,
					   size_t bytes)
{
	if (!kb_alloc_range_ok(buffer, offset, bytes))
		return bytes;
	while (bytes) {
		size_t in_page, chunk;
		struct page *page;
		unsigned long left;
		void *kaddr;

		page = kb_alloc_backing(alloc, buffer, offset, &in_page);
		if (WARN_ON_ONCE(!page))
			return bytes;
		chunk = min_t(size_t, bytes, PAGE_SIZE - in_page);
		kaddr = kmap_local_page(page);
		/*
		 * copy_from_user() with its hardened usercopy check: the
		 * check costs about 2% of a small round trip, and skipping it
		 * for speed is what the kernel's safety checks are not for
		 * (docs/performance.md has the measurement).
		 */
		left = copy_from_user(kaddr + in_page, from, chunk);
		kunmap_local(kaddr);
		bytes -= chunk - left;
		if (left)
			return bytes;
		from += chunk;
		offset += chunk;
	}
	return 0;
}

static int kb_alloc_copy(struct kb_alloc *alloc, struct kb_buffer *buffer,
			 size_t offset, void *ptr, size_t bytes, bool to_buffer)
{
	if (!kb_alloc_range_ok(buffer, offset, bytes))
		return -EINVAL;
	while (bytes) {
		size_t in_page, chunk;
		struct page *page;

		page = kb_alloc_backing(alloc, buffer, offset, &in_page);
		if (WARN_ON_ONCE(!page))
			return -EINVAL;
		chunk = min_t(size_t, bytes, PAGE_SIZE - in_page);
		if (to_buffer)
			memcpy_to_page(page, in_page, ptr, chunk);
		else
			memcpy_from_page(ptr, page, in_page, chunk);
		bytes -= chunk;
		ptr += chunk;
		offset += chunk;
	}
	return 0;
}

int kb_alloc_copy_to_buffer(struct kb_alloc *alloc, struct kb_buffer *buffer,
			    size_t offset, const void *from, size_t bytes)
{
	return kb_alloc_copy(alloc, buffer, offset, (void *)from, bytes, true);
}

int kb_alloc_copy_from_buffer(struct kb_alloc *alloc, void *to,
			      struct kb_buffer *buffer, size_t offset,
			      size_t bytes)
{
	return kb_alloc_copy(alloc, buffer, offset, to, bytes, false);
}

size_t kb_alloc_free_async_space(struct kb_alloc *alloc)
{
	size_t space;

	mutex_lock(&alloc->lock);
	space = alloc->free_async_space;
	mutex_unlock(&alloc->lock);
	return space;
}
