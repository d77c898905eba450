/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kbinder buffer allocator, inside view: what alloc.c (buffers and pages),
 * alloc_lru.c (the global LRU of idle pages and its shrinker) and the
 * self-test share. Nothing outside the allocator includes this.
 */
#ifndef _KB_ALLOC_INTERNAL_H
#define _KB_ALLOC_INTERNAL_H

#include <linux/list.h>
#include <linux/mm_types.h>

#include "alloc.h"

/**
 * struct kb_alloc_page - one page of an area
 * @lru:   in the global LRU whenever @users is 0 and @page is set; may stay
 *         there while the page is used again, until the shrinker or the
 *         release takes it off (added and removed only under &kb_alloc.lock,
 *         so list_empty() on it is stable under that lock; the list linkage
 *         itself is protected by the list_lru's internal spinlock)
 * @page:  the backing page, or NULL (protected by &kb_alloc.lock; stable and
 *         readable without the lock while @users > 0 and the reader holds an
 *         allocated buffer covering this page)
 * @alloc: the owning allocator (constant)
 * @users: number of allocated buffers touching this page (protected by
 *         &kb_alloc.lock)
 */
struct kb_alloc_page {
	struct list_head lru;
	struct page *page;
	struct kb_alloc *alloc;
	unsigned int users;
};

/**
 * kb_alloc_page_index() - index of the page holding a user address
 * @alloc: the allocator (mapped)
 * @addr:  a user address inside the area
 *
 * Return: the index into &kb_alloc.pages.
 */
static inline size_t kb_alloc_page_index(struct kb_alloc *alloc,
					 unsigned long addr)
{
	return (addr - alloc->start) >> PAGE_SHIFT;
}

/**
 * kb_alloc_page_addr() - user address of one page of an area
 * @alloc: the allocator (mapped)
 * @desc:  a descriptor in &kb_alloc.pages
 *
 * Return: the page's user address.
 */
static inline unsigned long kb_alloc_page_addr(struct kb_alloc *alloc,
					       struct kb_alloc_page *desc)
{
	return alloc->start + ((unsigned long)(desc - alloc->pages) << PAGE_SHIFT);
}

/* ---- alloc_lru.c: the global LRU of idle pages and its shrinker -------- */

/**
 * kb_alloc_lru_add() - park an idle resident page on the global LRU
 * @desc: the page (caller holds its &kb_alloc.lock; @desc is off the LRU)
 */
void kb_alloc_lru_add(struct kb_alloc_page *desc);

/**
 * kb_alloc_lru_del() - take a page off the global LRU
 * @desc: the page (caller holds its &kb_alloc.lock; @desc is on the LRU)
 *
 * Return: true if it was on the LRU.
 */
bool kb_alloc_lru_del(struct kb_alloc_page *desc);

/**
 * kb_alloc_lru_sync() - wait until no shrinker pass can still see an area
 *
 * For kb_alloc_release(), after it took its pages off the LRU and dropped
 * its lock: a shrinker pass that isolated one of them may still be inside
 * mutex_unlock() of that area's lock. Sleeps (an SRCU grace period).
 */
void kb_alloc_lru_sync(void);

/**
 * kb_alloc_lru_count() - number of pages on the global LRU
 *
 * Return: the count (a snapshot).
 */
unsigned long kb_alloc_lru_count(void);

/**
 * kb_alloc_shrink() - reclaim idle pages from the global LRU
 * @nr_to_scan: how many LRU entries to look at
 *
 * The shrinker's scan; the self-test calls it directly. Takes the areas'
 * locks and mmap_locks only with a trylock; call it without holding any
 * &kb_alloc.lock.
 *
 * Return: the number of pages freed.
 */
unsigned long kb_alloc_shrink(unsigned long nr_to_scan);

#endif /* _KB_ALLOC_INTERNAL_H */
