// SPDX-License-Identifier: GPL-2.0-only
/*
 * kbinder buffer allocator: the global LRU of idle pages and its shrinker.
 *
 * A page of a receive area that no allocated buffer uses any more stays
 * resident and mapped, parked on one list_lru shared by every area (see
 * the top of alloc.c for why it is not taken off on reuse). Under memory
 * pressure the shrinker walks that LRU and, for each idle page, zaps its
 * PTE and frees it. It runs inside the page allocator, below every lock
 * of the driver, so it only ever *tries* an area's lock and its mmap_lock.
 * An SRCU read section around each walk lets kb_alloc_release() wait until
 * no walk can still touch an area it is about to free. docs/allocator.md
 * has the protocol.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/list_lru.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/shrinker.h>
#include <linux/srcu.h>

#include "alloc_internal.h"

/* Unused resident pages of every area, reclaimed by kb_alloc_shrinker. */
static struct list_lru kb_alloc_lru;

/*
 * Readers: every shrinker pass. kb_alloc_release() waits for a grace period
 * after taking its pages off kb_alloc_lru, so no shrinker pass can still be
 * touching the kb_alloc (not even inside mutex_unlock()) once it returns.
 */
static struct srcu_struct kb_alloc_srcu;

void kb_alloc_lru_add(struct kb_alloc_page *desc)
	__must_hold(&desc->alloc->lock)
{
	lockdep_assert_held(&desc->alloc->lock);
	list_lru_add_obj(&kb_alloc_lru, &desc->lru);
}

bool kb_alloc_lru_del(struct kb_alloc_page *desc)
	__must_hold(&desc->alloc->lock)
{
	lockdep_assert_held(&desc->alloc->lock);
	return list_lru_del_obj(&kb_alloc_lru, &desc->lru);
}

void kb_alloc_lru_sync(void)
{
	synchronize_srcu(&kb_alloc_srcu);
}

unsigned long kb_alloc_lru_count(void)
{
	return list_lru_count(&kb_alloc_lru);
}

/*
 * Called by list_lru_walk() with the LRU spinlock @lock held. Everything
 * taken here is a trylock. The page is taken off the LRU only while
 * alloc->lock is held, and alloc->lock is held until the page is freed and
 * desc->page cleared, so alloc.c, counting a new user of the page, either
 * finds it still on the LRU or finds no page at all.
 */
static enum lru_status kb_alloc_lru_isolate(struct list_head *item,
					    struct list_lru_one *lru,
					    spinlock_t *lock, void *arg)
	__must_hold(lock)
{
	struct kb_alloc_page *desc = container_of(item, struct kb_alloc_page,
						  lru);
	struct kb_alloc *alloc = desc->alloc;
	struct mm_struct *mm;
	unsigned long addr;

	/* On the LRU, so kb_alloc_release() has not finished: alloc is alive. */
	if (!mutex_trylock(&alloc->lock))
		return LRU_SKIP;
	if (desc->users) {
		/* In use again: off the LRU, and back on when idle. */
		list_lru_isolate(lru, item);
		mutex_unlock(&alloc->lock);
		(*(unsigned long *)arg)++;
		return LRU_REMOVED;
	}
	addr = kb_alloc_page_addr(alloc, desc);
	mm = alloc->mm;
	if (mm && !mmget_not_zero(mm))
		mm = NULL;	/* exiting: no new PTE can appear */
	if (mm && !mmap_read_trylock(mm)) {
		mmput_async(mm);
		mutex_unlock(&alloc->lock);
		return LRU_SKIP;
	}
	list_lru_isolate(lru, item);
	spin_unlock(lock);

	if (mm) {
		/* Never a cached vma: look it up under mmap_lock, check it. */
		struct vm_area_struct *vma = vma_lookup(mm, addr);

		if (vma && vma->vm_file == alloc->file)
			kb_zap_page_range(vma, addr, PAGE_SIZE);
		mmap_read_unlock(mm);
		mmput_async(mm);
	}
	/* A PTE we could not zap holds its own reference on the page. */
	__free_page(desc->page);
	desc->page = NULL;
	mutex_unlock(&alloc->lock);

	spin_lock(lock);
	return LRU_REMOVED_RETRY;
}

unsigned long kb_alloc_shrink(unsigned long nr_to_scan)
{
	unsigned long isolated, in_use = 0;
	int idx;

	idx = srcu_read_lock(&kb_alloc_srcu);
	isolated = list_lru_walk(&kb_alloc_lru, kb_alloc_lru_isolate, &in_use,
				 nr_to_scan);
	srcu_read_unlock(&kb_alloc_srcu, idx);
	/* Pages taken off because they were in use again were not freed. */
	return isolated - in_use;
}

static unsigned long kb_alloc_shrink_count(struct shrinker *shrinker,
					   struct shrink_control *sc)
{
	return list_lru_count(&kb_alloc_lru);
}

static unsigned long kb_alloc_shrink_scan(struct shrinker *shrinker,
					  struct shrink_control *sc)
{
	unsigned long freed = kb_alloc_shrink(sc->nr_to_scan);

	pr_debug("alloc shrinker: %lu pages reclaimed, %lu left idle\n",
		 freed, list_lru_count(&kb_alloc_lru));
	return freed;
}

/* The shrinker of kb_alloc_lru, from kb_alloc_shrinker_register() on. */
static struct shrinker *kb_alloc_shrinker;

int kb_alloc_shrinker_register(void)
{
	struct shrinker *shrinker;
	int ret;

	ret = init_srcu_struct(&kb_alloc_srcu);
	if (ret)
		return ret;
	ret = list_lru_init(&kb_alloc_lru);
	if (ret)
		goto err_srcu;
	shrinker = kb_shrinker_create("kbinder-alloc", kb_alloc_shrink_count,
				      kb_alloc_shrink_scan);
	if (IS_ERR(shrinker)) {
		ret = PTR_ERR(shrinker);
		goto err_lru;
	}
	kb_alloc_shrinker = shrinker;
	return 0;

err_lru:
	list_lru_destroy(&kb_alloc_lru);
err_srcu:
	cleanup_srcu_struct(&kb_alloc_srcu);
	return ret;
}

void kb_alloc_shrinker_unregister(void)
{
	kb_shrinker_destroy(kb_alloc_shrinker);
	kb_alloc_shrinker = NULL;
	WARN_ON(list_lru_count(&kb_alloc_lru));
	list_lru_destroy(&kb_alloc_lru);
	cleanup_srcu_struct(&kb_alloc_srcu);
}
