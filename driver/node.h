/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Nodes: the objects a process exports, with the strong/weak counts that
 * keep them alive and the BR_INCREFS/ACQUIRE/RELEASE/DECREFS protocol that
 * tells the owner about them.
 */
#ifndef _KB_NODE_H
#define _KB_NODE_H

#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>

#include "internal.h"
#include "notice.h"
#include "work.h"

struct kb_proc;
struct kb_thread;

/**
 * struct kb_ref_link - a ref as its node sees it
 * @entry: in the node's refs (protected by the node's lock)
 * @notice: the notification requests on the ref, by kind, or NULL
 *	(written under the ref's process's refs_lock and the node's lock;
 *	read under either: the node's walks hold only its lock)
 *
 * Part of &struct kb_ref (ref.c links and unlinks it): what the node
 * walks when its owner dies or is frozen, without knowing refs.
 */
struct kb_ref_link {
	struct hlist_node entry;
	struct kb_notice *notice[KB_NOTICE_KINDS];
};

/**
 * struct kb_node - an object exported by a process
 * @lock: protects the fields below it that say so
 * @mem: keeps the memory alive
 * @rb: in the owner's nodes tree (protected by owner->inner_lock)
 * @work: the owner's notice to update its reference state (queued on the
 *	owner's or a thread's todo under owner->inner_lock)
 * @ptr: the owner's pointer for the object (constant)
 * @cookie: the owner's cookie (constant)
 * @debug_id: unique id for debug output (constant)
 * @min_nice: synchronous calls to the node run at this nice level or a
 *	higher priority (0..255, as FLAT_BINDER_FLAG_PRIORITY_MASK) (constant)
 * @accept_fds: the owner accepts file descriptors (constant)
 * @txn_security_ctx: the owner wants the sender's security context
 *	(constant)
 * @has_strong_ref: userspace was told to hold a strong reference (@lock)
 * @pending_strong_ref: BR_ACQUIRE delivered, BC_ACQUIRE_DONE not yet seen
 *	(@lock)
 * @has_weak_ref: userspace was told to hold a weak reference (@lock)
 * @pending_weak_ref: BR_INCREFS delivered, BC_INCREFS_DONE not yet seen
 *	(@lock)
 * @has_async_transaction: a one-way transaction to this node is queued or
 *	its buffer is not yet freed; the next ones wait in @async_todo (@lock)
 * @is_mgr: the node is its device's context manager (@lock)
 * @retired: removed from its owner (or dead and unreferenced); no count may
 *	be taken any more, the memory goes when @mem drops to zero (@lock)
 * @owner: the process that exports the node, NULL once it died (@lock)
 * @refs: the link of every &kb_ref on this node (&struct kb_ref_link)
 *	(@lock)
 * @async_todo: one-way transactions waiting for the previous one's buffer
 *	to be freed (@lock)
 * @internal_strong: number of refs with a strong count (@lock)
 * @local_strong: strong references held by the kernel (transactions,
 *	buffers, the context manager) and by a pending BR_ACQUIRE (@lock)
 * @local_weak: weak references held by the kernel and a pending BR_INCREFS
 *	(@lock)
 * @tmp: short-lived pins taken while a node is being used (@lock)
 *
 * A process can export nodes by the hundred thousand, so the layout is
 * packed into 128 bytes on a kernel without lock debugging (the size of
 * the upstream driver's node, and a kmalloc size): the flags are bits of
 * one byte, written only under @lock, and no other field shares that byte.
 * Only node.c and the helpers below touch the fields under @lock.
 */
struct kb_node {
	spinlock_t lock; /* protects the fields marked (@lock) */
	refcount_t mem;
	struct rb_node rb;
	struct kb_work work;
	binder_uintptr_t ptr;
	binder_uintptr_t cookie;
	int debug_id;
	u8 min_nice;
	bool accept_fds;
	bool txn_security_ctx;
	u8 has_strong_ref:1;
	u8 pending_strong_ref:1;
	u8 has_weak_ref:1;
	u8 pending_weak_ref:1;
	u8 has_async_transaction:1;
	u8 is_mgr:1;
	u8 retired:1;
	struct kb_proc *owner;
	struct hlist_head refs;
	struct list_head async_todo;
	int internal_strong;
	int local_strong;
	int local_weak;
	int tmp;
};

struct kb_node *kb_node_get_or_create(struct kb_proc *proc,
				      const struct flat_binder_object *fbo);
struct kb_node *kb_node_lookup(struct kb_proc *proc, binder_uintptr_t ptr);
void kb_node_pin(struct kb_node *node);
int kb_node_hold_for_call(struct kb_node *node, struct kb_proc *sender,
			  struct kb_proc **owner);
void kb_node_unpin(struct kb_node *node);
void kb_node_put_mem(struct kb_node *node);

int kb_node_inc_locked(struct kb_node *node, bool strong, bool internal,
		       struct kb_thread *thread);
bool kb_node_dec_locked(struct kb_node *node, bool strong, bool internal);
void kb_node_finish(struct kb_node *node, bool retire);
void kb_node_dec(struct kb_node *node, bool strong, bool internal);

int kb_node_ref_done(struct kb_proc *proc, binder_uintptr_t ptr,
		     binder_uintptr_t cookie, bool strong);
void kb_proc_release_nodes(struct kb_proc *proc);
struct kb_node *kb_node_next_locked(struct kb_proc *proc, bool any_after,
				    binder_uintptr_t after);
struct kb_node *kb_node_next(struct kb_proc *proc, bool any_after,
			     binder_uintptr_t after);
void kb_proc_cancel_async(struct kb_proc *proc);
void kb_node_debug_info(struct kb_proc *proc,
			struct binder_node_debug_info *info);

/*
 * The node's own helpers for its state under @lock (one-way queue, manager
 * flag, owner): other files read and change it only through these and
 * node.c's functions. The inline ones run on every one-way call, inside
 * the critical section that queues it.
 */

/**
 * kb_node_owner_locked() - the process that exports a node
 * @node: the node
 *
 * Return: the owner, or NULL once it died (no reference is taken).
 */
static inline struct kb_proc *kb_node_owner_locked(struct kb_node *node)
	__must_hold(&node->lock)
{
	lockdep_assert_held(&node->lock);
	return node->owner;
}

/**
 * kb_node_queue_oneway_locked() - queue a one-way call behind the node's
 *	call in flight, if it has one
 * @node: the called node
 * @work: the new one-way call's work
 *
 * One-way calls to a node are delivered one at a time, in order: the next
 * one is handed over when the buffer of the previous one is freed
 * (kb_node_oneway_done()).
 *
 * Return: true if @work waits on the node's queue; false if none was in
 * flight: the node now has one, and the caller queues @work for delivery.
 */
static inline bool kb_node_queue_oneway_locked(struct kb_node *node,
					       struct kb_work *work)
	__must_hold(&node->lock)
{
	lockdep_assert_held(&node->lock);
	if (!node->has_async_transaction) {
		node->has_async_transaction = true;
		return false;
	}
	list_add_tail(&work->entry, &node->async_todo);
	return true;
}

struct kb_work *kb_node_take_outdated_locked(struct kb_node *node,
					     const struct kb_work *newer);
void kb_node_oneway_done(struct kb_node *node, struct kb_proc *proc);
void kb_node_set_mgr(struct kb_node *node);

/**
 * kb_node_is_mgr_locked() - whether a node is its device's context manager
 * @node: the node
 *
 * Return: true if it is (its refs get handle 0).
 */
static inline bool kb_node_is_mgr_locked(struct kb_node *node)
	__must_hold(&node->lock)
{
	lockdep_assert_held(&node->lock);
	return node->is_mgr;
}

/**
 * kb_node_link_ref_locked() - a new ref on the node joins its refs
 * @node: the node
 * @link: the ref's link, with no request yet
 */
static inline void kb_node_link_ref_locked(struct kb_node *node,
					   struct kb_ref_link *link)
	__must_hold(&node->lock)
{
	lockdep_assert_held(&node->lock);
	hlist_add_head(&link->entry, &node->refs);
}

/**
 * kb_node_unlink_ref_locked() - a ref on the node goes away
 * @node: the node
 * @link: the ref's link, linked by kb_node_link_ref_locked()
 */
static inline void kb_node_unlink_ref_locked(struct kb_node *node,
					     struct kb_ref_link *link)
	__must_hold(&node->lock)
{
	lockdep_assert_held(&node->lock);
	hlist_del(&link->entry);
}

/**
 * kb_node_refs_locked() - the links of the refs on a node, to look at
 * @node: the node
 *
 * For the logs; refs join and leave with kb_node_link_ref_locked() and
 * kb_node_unlink_ref_locked().
 *
 * Return: the list of &struct kb_ref_link.
 */
static inline const struct hlist_head *kb_node_refs_locked(struct kb_node *node)
	__must_hold(&node->lock)
{
	lockdep_assert_held(&node->lock);
	return &node->refs;
}

/**
 * struct kb_node_counts - a node's counts, as the logs print them
 * @internal_strong: refs with a strong count
 * @local_strong: strong counts the kernel holds
 * @local_weak: weak counts the kernel holds
 * @is_mgr: the node is its device's context manager
 * @retired: the node is retired
 */
struct kb_node_counts {
	int internal_strong;
	int local_strong;
	int local_weak;
	bool is_mgr;
	bool retired;
};

/**
 * kb_node_counts_locked() - read a node's counts
 * @node: the node
 * @c: out: the counts
 */
static inline void kb_node_counts_locked(struct kb_node *node,
					 struct kb_node_counts *c)
	__must_hold(&node->lock)
{
	lockdep_assert_held(&node->lock);
	c->internal_strong = node->internal_strong;
	c->local_strong = node->local_strong;
	c->local_weak = node->local_weak;
	c->is_mgr = node->is_mgr;
	c->retired = node->retired;
}

/**
 * kb_node_strong_count_locked() - strong counts held on a node
 * @node: the node
 *
 * Return: those of refs and of the kernel (BINDER_GET_NODE_INFO_FOR_REF).
 */
static inline int kb_node_strong_count_locked(struct kb_node *node)
	__must_hold(&node->lock)
{
	lockdep_assert_held(&node->lock);
	return node->local_strong + node->internal_strong;
}

/**
 * kb_node_weak_count_locked() - weak counts the kernel holds on a node
 * @node: the node
 *
 * Return: the count (BINDER_GET_NODE_INFO_FOR_REF).
 */
static inline int kb_node_weak_count_locked(struct kb_node *node)
	__must_hold(&node->lock)
{
	lockdep_assert_held(&node->lock);
	return node->local_weak;
}

bool kb_node_pin_foreign(struct kb_node *node, struct kb_proc *proc);
void kb_node_fire_notices(struct kb_proc *owner, enum kb_notice_kind kind,
			  u32 state);

#endif /* _KB_NODE_H */
