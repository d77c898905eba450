/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kbinder: definitions shared by every file of the driver.
 *
 * Include this header first in every .c file: it sets pr_fmt and pulls in
 * our own UAPI header (include/uapi/linux/android/binder.h of this tree),
 * never the kernel's copy.
 *
 * Object model (one file each): a kb_context per binder world, one per
 * device and IPC namespace or binderfs device (context.c; its context
 * manager in context_mgr.c); a kb_proc per open file (proc.c; the file
 * operations and the order of its teardown in file.c); a kb_thread per
 * thread that used the file (thread.c); a kb_node per object a process
 * exports (node.c); a kb_ref per handle a process holds on someone's node
 * (ref.c); kb_transaction for calls in flight (transaction.c); kb_work
 * items on todo lists (their interface in work.h, the lists their
 * process's and threads'); kb_notice for death and freeze notifications
 * (notice.c, death.c, freeze_notify.c); object translation in objects.c.
 * scripts/layers.txt lists the files' layers, lowest first, and
 * scripts/owners.txt who may touch each object's inner state.
 *
 * Locking overview. Locks are listed outermost first; a lock may only be
 * taken while holding locks that come earlier in this list:
 *
 *  1. kb_context.mgr_lock (mutex): setting and clearing the context manager
 *     of one device (calls to handle 0 read it under RCU instead).
 *  2. kb_proc.refs_lock (mutex): the handle tables of one process (its refs
 *     and their notification requests). Never two processes' refs_lock at
 *     once.
 *  3. kb_node.lock (spinlock): counts, flags, ref list and async queue of one
 *     node. Never two node locks at once.
 *  4. kb_proc.inner_lock (spinlock): the todo lists of the process and of its
 *     threads, its thread and node trees, thread looper state and
 *     transaction stacks. Never two processes' inner_lock at once.
 *  5. kb_transaction.lock (spinlock): the sender thread of a transaction.
 *     A leaf: nothing is taken under it.
 *
 * The allocator's own mutex (kb_alloc.lock) is taken by the alloc functions
 * only; the driver never calls them with a spinlock held. Nothing allocates
 * memory while holding a spinlock: we allocate first, then lock and insert,
 * and free the spare if someone else won the race.
 *
 * Each structure documents in its kernel-doc which lock protects each field;
 * functions that expect a lock assert it with lockdep_assert_held().
 *
 * Memory lifetime is separate from protocol counts: procs, threads and nodes
 * carry a refcount_t @mem that only keeps the memory alive; the binder
 * strong/weak counts decide when a node is retired from its process.
 */
#ifndef _KB_INTERNAL_H
#define _KB_INTERNAL_H

#undef pr_fmt
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/types.h>
#include <linux/printk.h>

/*
 * Our UAPI header, by explicit path: the kernel's include/uapi comes before
 * ccflags in the search order, so <linux/android/binder.h> would be the
 * kernel's copy.
 */
#include "../include/uapi/linux/android/binder.h"

/*
 * The protocol version this driver speaks (64-bit layout: binder_uintptr_t
 * and binder_size_t are 64-bit for 32-bit processes too).
 */
#define KB_PROTOCOL_VERSION 8

/*
 * Freed objects kept for reuse (a thread's last transaction and completion
 * notice, a receive area's buffer struct) save an allocation per call, but
 * hide a use after free from KASAN and a leak from kmemleak: with either
 * built in, every object is really freed and nothing is reused.
 */
#define KB_REUSE_OBJECTS (!IS_ENABLED(CONFIG_KASAN) && \
			  !IS_ENABLED(CONFIG_DEBUG_KMEMLEAK))

/**
 * kb_reuse_objects() - whether a thread may keep freed objects for reuse
 *
 * Return: true unless KB_REUSE_OBJECTS's memory debuggers are built in or
 * the kernel clears freed memory (init_on_free=1: a kept object would keep
 * its contents).
 */
static inline bool kb_reuse_objects(void)
{
	return KB_REUSE_OBJECTS && !want_init_on_free();
}

/**
 * struct kb_status - outcome of a step on the transaction path
 * @reply: BR_OK on success, else the protocol reply the sender receives
 *	(BR_FAILED_REPLY, BR_DEAD_REPLY, or BR_FROZEN_REPLY from a frozen
 *	receiver); the ioctl itself succeeds
 * @err: the errno that explains @reply (for the log and extended error),
 *	or, with @reply == BR_OK, a real ioctl failure (e.g. -EFAULT)
 *
 * Keeping both in one value means an error path cannot report a protocol
 * failure as an ioctl failure or the other way round.
 */
struct kb_status {
	u32 reply;
	int err;
};

#define KB_OK ((struct kb_status){ .reply = BR_OK, .err = 0 })

/**
 * kb_fail() - a protocol failure the sender sees as a BR_ reply
 * @reply: BR_FAILED_REPLY, BR_DEAD_REPLY or BR_FROZEN_REPLY
 * @err: the reason, a negative errno
 *
 * Return: the status value.
 */
static inline struct kb_status kb_fail(u32 reply, int err)
{
	return (struct kb_status){ .reply = reply, .err = err };
}

/**
 * kb_ok() - whether a status is a success
 * @s: the status
 *
 * Return: true if neither a reply nor an errno is set.
 */
static inline bool kb_ok(struct kb_status s)
{
	return s.reply == BR_OK && !s.err;
}

#endif /* _KB_INTERNAL_H */
