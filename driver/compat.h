/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kbinder: every difference between the kernels it builds for, in one place.
 *
 * The driver is written against the newest kernel API it supports (Linux
 * 6.12); this header gives that API to the older kernels (Debian 12's
 * 6.1) under the new names, or, where that cannot be done (a function the
 * old kernel declares but does not export, an object with another
 * lifetime), hides the difference in a kb_ helper. No other file tests a
 * kernel version or a probe. Kbuild includes it first in every file (-include) and defines a
 * KB_HAVE_<feature> for each feature it found in the kernel's headers
 * (the probes are at the top of driver/Kbuild): a feature test, never a
 * version number, because distributions backport (Debian's 6.1 has 6.6's
 * inode_set_ctime_current(), for one).
 *
 * Only what the kernel exports is used: no kallsyms, no kprobes. A header
 * can declare a function its kernel does not export (6.1 declares
 * zap_page_range_single() and exports only zap_page_range()), so each
 * probe below names the exported function it chooses; docs/design.md
 * lists the symbols each series must export.
 */
#ifndef _KBINDER_COMPAT_H
#define _KBINDER_COMPAT_H

/*
 * printk.h defines a default pr_fmt unless one is defined already, and
 * this header now comes before any other in every file: the module's
 * prefix, the same definition internal.h and the allocator's files make
 * (an identical redefinition is allowed).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/fdtable.h>
#include <linux/fs.h>
#include <linux/list_lru.h>
#include <linux/mm.h>
#include <linux/shrinker.h>
#include <linux/slab.h>
#include <linux/user_namespace.h>

#ifndef KB_HAVE_SIMPLE_INODE_INIT_TS
/*
 * 6.6 and 6.7 hid the inode's timestamps behind accessors; 6.7 added this
 * one for a new inode: atime, mtime and ctime all set to now.
 */
static inline struct timespec64 simple_inode_init_ts(struct inode *inode)
{
	inode->i_mtime = current_time(inode);
	inode->i_atime = inode->i_mtime;
	inode->i_ctime = inode->i_mtime;
	return inode->i_mtime;
}
#endif

#ifndef KB_HAVE_VM_FLAGS_SET
/*
 * 6.3 made vma->vm_flags read-only: its writers take the VMA's write lock
 * (vma_start_write()), which 6.1 does not have. Our callers run in
 * ->mmap(), with mmap_lock held for writing, as 6.3's helpers require.
 */
static inline void vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags |= flags;
}

static inline void vm_flags_clear(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags &= ~flags;
}
#endif

#ifndef KB_HAVE_MNT_IDMAP
/*
 * 6.3 replaced the user namespace of a mount by its idmapping in the
 * inode operations (.rename, simple_rename()); the identity idmapping
 * nop_mnt_idmap is what init_user_ns was.
 */
#define mnt_idmap user_namespace
#define nop_mnt_idmap init_user_ns
#endif

#ifndef KB_HAVE_FILE_CLOSE_FD
/*
 * 6.8 renamed close_fd_get_file() (take an fd out of the caller's table,
 * keep the table's reference on the file for the caller); Debian's 6.1
 * exports it under the old name.
 */
static inline struct file *file_close_fd(unsigned int fd)
{
	return close_fd_get_file(fd);
}
#endif

#ifndef KB_HAVE_LIST_LRU_ADD_OBJ
/*
 * 6.8 gave list_lru_add() and list_lru_del() a node id and a memory cgroup
 * and kept the old behaviour (both taken from the item's own page) as
 * list_lru_add_obj() and list_lru_del_obj().
 */
static inline bool list_lru_add_obj(struct list_lru *lru,
				    struct list_head *item)
{
	return list_lru_add(lru, item);
}

static inline bool list_lru_del_obj(struct list_lru *lru,
				    struct list_head *item)
{
	return list_lru_del(lru, item);
}
#endif

/**
 * kb_zap_page_range() - remove the PTEs of a range inside one VMA.
 * @vma: the VMA.
 * @address: the start of the range.
 * @size: its length.
 *
 * The zapper exported until 6.2 is zap_page_range() (6.3 removed it);
 * since then it is zap_page_range_single(). 6.1 declares that one too,
 * but does not export it. For a range inside one VMA the two do the same.
 */
static inline void kb_zap_page_range(struct vm_area_struct *vma,
				     unsigned long address, unsigned long size)
{
#ifdef KB_HAVE_ZAP_PAGE_RANGE
	zap_page_range(vma, address, size);
#else
	zap_page_range_single(vma, address, size, NULL);
#endif
}

/**
 * kb_shrinker_create() - allocate and register a shrinker.
 * @name: its name (in debugfs's shrinker/ where the kernel has it).
 * @count: its count_objects callback.
 * @scan: its scan_objects callback.
 *
 * 6.7 made shrinkers objects the kernel allocates and frees itself, after
 * an RCU grace period (shrinker_alloc(), shrinker_register(),
 * shrinker_free()); before, the caller owned the struct and
 * register_shrinker() could fail. This pair hides both, for a shrinker
 * that is neither NUMA- nor memcg-aware and uses the default seeks.
 *
 * Return: the registered shrinker, or an ERR_PTR().
 */
static inline struct shrinker *
kb_shrinker_create(const char *name,
		   unsigned long (*count)(struct shrinker *,
					  struct shrink_control *),
		   unsigned long (*scan)(struct shrinker *,
					 struct shrink_control *))
{
	struct shrinker *shrinker;

#ifdef KB_HAVE_SHRINKER_ALLOC
	shrinker = shrinker_alloc(0, "%s", name);
	if (!shrinker)
		return ERR_PTR(-ENOMEM);
	shrinker->count_objects = count;
	shrinker->scan_objects = scan;
	shrinker->seeks = DEFAULT_SEEKS;
	shrinker_register(shrinker);
#else
	int ret;

	shrinker = kzalloc(sizeof(*shrinker), GFP_KERNEL);
	if (!shrinker)
		return ERR_PTR(-ENOMEM);
	shrinker->count_objects = count;
	shrinker->scan_objects = scan;
	shrinker->seeks = DEFAULT_SEEKS;
	ret = register_shrinker(shrinker, "%s", name);
	if (ret) {
		kfree(shrinker);
		return ERR_PTR(ret);
	}
#endif
	return shrinker;
}

/**
 * kb_shrinker_destroy() - unregister and free a kb_shrinker_create() one.
 * @shrinker: the shrinker.
 *
 * When this returns, no callback of @shrinker runs or will run.
 */
static inline void kb_shrinker_destroy(struct shrinker *shrinker)
{
#ifdef KB_HAVE_SHRINKER_ALLOC
	shrinker_free(shrinker);
#else
	/* Takes shrinker_rwsem for writing: every scan has left. */
	unregister_shrinker(shrinker);
	kfree(shrinker);
#endif
}

/*
 * The scheduler's "the waker goes to sleep after this wakeup" flag, which
 * wake_up_interruptible_sync() passes to a wait queue's entries and
 * default_wake_function() accepts (6.1 accepts no other flag, 6.12 also
 * WF_CURRENT_CPU; any other makes it warn on kernels with
 * CONFIG_SCHED_DEBUG, as Debian's are, and the test suites fail on a
 * kernel warning). The scheduler keeps it in its private header
 * (kernel/sched/sched.h), where it is 0x10 in both series this builds for
 * (6.1 and 6.12); queue.c wakes a sleeping reader with it directly.
 */
#define KB_WF_SYNC 0x10

#endif /* _KBINDER_COMPAT_H */
