/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kbinder buffer allocator: the receive area of one process.
 *
 * Each process maps (read-only) one area of at most 4 MiB; transactions sent
 * to the process are copied into buffers carved out of that area. Buffers are
 * handed out best fit, split on allocation and merged with free neighbours on
 * free. Pages behind the area are allocated on demand and, once no buffer uses
 * them, parked on a global LRU from which a shrinker reclaims them.
 * alloc.c has the buffers and pages, alloc_lru.c the LRU and its shrinker,
 * alloc_internal.h what they (and the self-test) share.
 *
 * Lock order (outermost first):
 *   mm->mmap_lock  ->  kb_alloc.lock  ->  (page allocator, list_lru spinlock)
 * The shrinker runs inside the page allocator and therefore only ever
 * *tries* kb_alloc.lock and mmap_lock. docs/allocator.md has the details.
 *
 * Self-test: test builds only (make ... KBINDER_SELFTEST=1 defines
 * KBINDER_SELFTEST and links alloc_selftest*.o); kb_alloc_selftest() runs
 * the allocator's self-test (best fit, split, merge, exhaustive alloc/free
 * orders, page accounting, shrinker). The default module carries none of it.
 */
#ifndef _KB_ALLOC_H
#define _KB_ALLOC_H

#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rbtree.h>
#include <linux/types.h>

struct kb_node;
struct kb_transaction;
struct kb_alloc_page;
struct mm_struct;
struct vm_area_struct;

/** KB_ALLOC_MAX_SIZE - largest receive area; bigger mappings use only this much */
#define KB_ALLOC_MAX_SIZE	(4UL * 1024 * 1024)

/**
 * struct kb_buffer - one allocation (or one free range) in a receive area
 * @entry:              in &kb_alloc.buffers, address order (protected by
 *                      &kb_alloc.lock)
 * @rb_node:            in &kb_alloc.free_buffers (by size) when @free, else in
 *                      &kb_alloc.allocated_buffers (by address) (protected by
 *                      &kb_alloc.lock)
 * @free:               the range is free (protected by &kb_alloc.lock)
 * @allow_user_free:    userspace may free it with BC_FREE_BUFFER: set once,
 *                      without the lock, by kb_alloc_allow_user_free();
 *                      read and cleared under &kb_alloc.lock
 * @async_transaction:  charged to the async (one-way) space (protected by
 *                      &kb_alloc.lock)
 * @clear_on_free:      zero the contents when freed (protected by
 *                      &kb_alloc.lock)
 * @oneway_spam_suspect: allocated while async space was low and the sender
 *                      held much of it (protected by &kb_alloc.lock)
 * @transaction:        owned by the driver, under the driver's rules
 * @target_node:        owned by the driver, under the driver's rules
 * @user_data:          userspace address of the data (what BR_TRANSACTION
 *                      reports); constant while the buffer is allocated
 * @data_size:          data size as requested (constant while allocated)
 * @offsets_size:       offsets size as requested (constant while allocated)
 * @extra_buffers_size: extra buffers size as requested (constant while
 *                      allocated)
 * @size:               bytes of the area this range covers, a multiple of 8
 *                      (protected by &kb_alloc.lock)
 * @debug_id:           for debug output only
 * @pid:                sender pid, for debug output and spam detection only
 */
struct kb_buffer {
	struct list_head entry;
	struct rb_node rb_node;
	bool free;
	bool allow_user_free;
	bool async_transaction;
	bool clear_on_free;
	bool oneway_spam_suspect;
	struct kb_transaction *transaction;
	struct kb_node *target_node;
	unsigned long user_data;
	size_t data_size;
	size_t offsets_size;
	size_t extra_buffers_size;
	size_t size;
	int debug_id;
	int pid;
};

/**
 * struct kb_alloc - the receive area of one process
 * @lock:              protects this structure, the buffers and the page
 *                     descriptors (taken after mm->mmap_lock, never before)
 * @mm:                the process's mm, recorded at kb_alloc_init() with
 *                     mmgrab(); constant until kb_alloc_release()
 * @start:             user address of the area (0 until mapped)
 * @size:              size of the area in bytes (0 until mapped)
 * @buffers:           every &kb_buffer, free or not, in address order
 * @free_buffers:      free buffers by size (best fit)
 * @allocated_buffers: allocated buffers by user address
 * @free_async_space:  bytes still available to async allocations
 * @pages:             one descriptor per page of the area
 * @spare:             a zeroed buffer struct kept for the next split (a
 *                     merge recycles one; never under KASAN), or NULL
 * @file:              the file our vma maps; only compared with
 *                     vma->vm_file (never dereferenced) to recognise our
 *                     vma after a vma_lookup() under mmap_lock
 * @mapped:            kb_alloc_mmap() succeeded once
 * @closed:            our vma (or part of it) was closed, or the allocator
 *                     was released; no new allocations
 * @released:          kb_alloc_release() ran; @pages and all buffers are gone
 * @oneway_spam_detected: spam was reported since async space was last healthy
 * @lru_used:          a page of this area was ever put on the global LRU,
 *                     so kb_alloc_release() must wait for shrinkers
 * @allocated:         number of allocated buffers
 *
 * Embedded in the driver's per-process structure. Everything after @lock is
 * protected by @lock unless stated otherwise.
 */
struct kb_alloc {
	struct mutex lock; /* see kernel-doc above: protects the rest */
	struct mm_struct *mm;
	unsigned long start;
	size_t size;
	struct list_head buffers;
	struct rb_root free_buffers;
	struct rb_root allocated_buffers;
	size_t free_async_space;
	struct kb_alloc_page *pages;
	struct kb_buffer *spare;
	const void *file;
	bool mapped;
	bool closed;
	bool released;
	bool oneway_spam_detected;
	bool lru_used;
	unsigned int allocated;
};

/**
 * kb_alloc_shrinker_register() - set up the global page LRU and shrinker
 *
 * Context: once at module init, before any kb_alloc_init() (and before the
 * self-test, which uses them).
 *
 * Return: 0 or -errno.
 */
int kb_alloc_shrinker_register(void);

/**
 * kb_alloc_shrinker_unregister() - tear down the global page LRU and shrinker
 *
 * Call once at module exit (or on a failed init), after every
 * kb_alloc_release().
 */
void kb_alloc_shrinker_unregister(void);

/**
 * kb_alloc_init() - initialise the allocator of a process being opened
 * @alloc: the allocator, embedded in the driver's process
 *
 * Records current->mm (mmgrab). Does not allocate.
 */
void kb_alloc_init(struct kb_alloc *alloc);

/**
 * kb_alloc_mmap() - set up the area for a new mapping
 * @alloc: the allocator
 * @vma:   the vma being mapped (caller holds its mmap_lock for writing)
 *
 * The area is capped at KB_ALLOC_MAX_SIZE (larger mappings use only their
 * first 4 MiB). The caller has refused VM_WRITE and cleared VM_MAYWRITE;
 * this function sets VM_DONTCOPY and VM_MIXEDMAP. Pages are allocated
 * lazily. Takes @alloc->lock (mmap_lock is held: the documented order).
 *
 * Return: 0, -EBUSY if the process already mapped once, -EINVAL if @vma does
 * not belong to the mm recorded at kb_alloc_init(), -ENOMEM.
 */
int kb_alloc_mmap(struct kb_alloc *alloc, struct vm_area_struct *vma);

/**
 * kb_alloc_vma_close() - the area's vma (or a part of it) is going away
 * @alloc: the allocator
 *
 * For vm_ops->close. Later kb_alloc_new_buf() calls fail with -ESRCH.
 */
void kb_alloc_vma_close(struct kb_alloc *alloc);

/**
 * kb_alloc_new_buf() - allocate a buffer for an incoming transaction
 * @alloc:              the receiver's allocator
 * @data_size:          bytes of data
 * @offsets_size:       bytes of offsets (placed at ALIGN(@data_size, 8))
 * @extra_buffers_size: bytes of extra buffers (placed after the offsets)
 * @is_async:           a one-way transaction: charged to the async space
 * @pid:                sender pid (debug and spam detection)
 *
 * The backing pages are allocated and mapped into the user vma before
 * return. May sleep; never allocates under a spinlock. Must not be called
 * with @alloc->lock or any mmap_lock held.
 *
 * Return: the buffer (allow_user_free false, transaction and target_node
 * NULL), ERR_PTR(-ESRCH) if there is no mapping (or the mm is gone),
 * ERR_PTR(-EINVAL) if the sizes overflow, ERR_PTR(-ENOSPC) if there is no
 * room (including async space), ERR_PTR(-ENOMEM).
 */
struct kb_buffer *kb_alloc_new_buf(struct kb_alloc *alloc, size_t data_size,
				   size_t offsets_size,
				   size_t extra_buffers_size, bool is_async,
				   int pid);

/**
 * kb_alloc_prepare_to_free() - look up a buffer userspace wants to free
 * @alloc:    the allocator
 * @user_ptr: the user address BR_TRANSACTION reported
 *
 * For BC_FREE_BUFFER: clears allow_user_free so a second free fails.
 *
 * Return: the allocated buffer whose user_data is @user_ptr, or NULL if
 * there is none or userspace may not free it.
 */
struct kb_buffer *kb_alloc_prepare_to_free(struct kb_alloc *alloc,
					   unsigned long user_ptr);

/**
 * kb_alloc_prepare_to_free_locked() - kb_alloc_prepare_to_free() for a
 *	caller that holds the area's lock
 * @alloc:    the allocator, &kb_alloc.lock held
 * @user_ptr: the user address BR_TRANSACTION reported
 *
 * Return: as kb_alloc_prepare_to_free().
 */
struct kb_buffer *kb_alloc_prepare_to_free_locked(struct kb_alloc *alloc,
						  unsigned long user_ptr);

/**
 * kb_alloc_allow_user_free() - let userspace free a delivered buffer
 * @buffer: an allocated buffer, which the caller alone may free until now
 *	(the reader that delivered it)
 *
 * Without the area's lock: until this, nothing but the caller frees
 * @buffer or writes the flag, and the release orders the caller's view of
 * the buffer before a BC_FREE_BUFFER that sees the flag
 * (kb_alloc_prepare_to_free() reads it with acquire).
 */
static inline void kb_alloc_allow_user_free(struct kb_buffer *buffer)
{
	/* The rule that replaced the lock: an allocated buffer, set once. */
	if (IS_ENABLED(CONFIG_PROVE_LOCKING)) {
		/* @free changes under the lock, not while the caller owns it. */
		WARN_ON_ONCE(data_race(buffer->free) ||
			     READ_ONCE(buffer->allow_user_free));
	}
	/* Pairs with the acquire in kb_alloc_prepare_to_free_locked(). */
	smp_store_release(&buffer->allow_user_free, true);
}

/**
 * kb_alloc_free_buf() - free a buffer
 * @alloc:  the allocator
 * @buffer: an allocated buffer of @alloc
 *
 * Zeroes the contents first if clear_on_free; merges with free neighbours;
 * pages no longer used by any buffer go to the global LRU.
 */
void kb_alloc_free_buf(struct kb_alloc *alloc, struct kb_buffer *buffer);

/**
 * kb_alloc_free_buf_locked() - kb_alloc_free_buf() for a caller that holds
 *	the area's lock
 * @alloc:  the allocator, &kb_alloc.lock held
 * @buffer: an allocated buffer of @alloc
 */
void kb_alloc_free_buf_locked(struct kb_alloc *alloc, struct kb_buffer *buffer);

/**
 * kb_alloc_release() - free everything at process teardown
 * @alloc: the allocator (no vma can exist any more)
 *
 * Frees every remaining buffer and page (taking them off the LRU), waits
 * until no shrinker can still look at @alloc (an SRCU grace period, so call
 * it without holding locks), and drops the mm. After it returns, the memory
 * of @alloc may be freed; buffers of @alloc must not be used any more, and
 * kb_alloc_new_buf() on it fails with -ESRCH.
 *
 * Return: how many buffers were still allocated.
 */
unsigned int kb_alloc_release(struct kb_alloc *alloc);

/**
 * kb_alloc_copy_user_to_buffer() - copy from userspace into a buffer
 * @alloc:  the allocator
 * @buffer: an allocated buffer
 * @offset: offset in the buffer
 * @from:   source in the current task's memory
 * @bytes:  length
 *
 * Writes the backing pages (kmap_local_page), never the user mapping.
 *
 * Return: number of bytes NOT copied (all of them if the range is out of
 * the buffer's bounds).
 */
unsigned long kb_alloc_copy_user_to_buffer(struct kb_alloc *alloc,
					   struct kb_buffer *buffer,
					   size_t offset,
					   const void __user *from,
					   size_t bytes);

/**
 * kb_alloc_copy_to_buffer() - copy kernel memory into a buffer
 * @alloc:  the allocator
 * @buffer: an allocated buffer
 * @offset: offset in the buffer
 * @from:   source
 * @bytes:  length
 *
 * Return: 0, or -EINVAL if the range is outside the buffer.
 */
int kb_alloc_copy_to_buffer(struct kb_alloc *alloc, struct kb_buffer *buffer,
			    size_t offset, const void *from, size_t bytes);

/**
 * kb_alloc_copy_from_buffer() - copy from a buffer into kernel memory
 * @alloc:  the allocator
 * @to:     destination
 * @buffer: an allocated buffer
 * @offset: offset in the buffer
 * @bytes:  length
 *
 * Return: 0, or -EINVAL if the range is outside the buffer.
 */
int kb_alloc_copy_from_buffer(struct kb_alloc *alloc, void *to,
			      struct kb_buffer *buffer, size_t offset,
			      size_t bytes);

/**
 * kb_alloc_free_async_space() - bytes still available to async allocations
 * @alloc: the allocator
 *
 * Return: the free async space in bytes (a snapshot).
 */
size_t kb_alloc_free_async_space(struct kb_alloc *alloc);

#ifdef KBINDER_SELFTEST
/**
 * kb_alloc_selftest() - run the allocator self-test (test builds only)
 *
 * Context: module init when the module parameter selftest=1 is set, after
 * kb_alloc_shrinker_register(). Needs a process context with an mm (insmod
 * has one): a kernel thread borrows that mm, maps a private 16-page area
 * into it, runs the tests and unmaps it again. Leaves nothing behind, also
 * when it fails. Logs its summary lines (numbers only, never an address).
 *
 * Return: 0 if every check passed, else -errno (-EINVAL for a failed check).
 */
int kb_alloc_selftest(void);
#endif

#endif /* _KB_ALLOC_H */
