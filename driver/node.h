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
#include "work.h"

struct kb_proc;
struct kb_thread;

/**
 * struct kb_node_inner - node state protected by &kb_node.lock
 * @owner: the process that exports the node, NULL once it died
 * @refs: every &kb_ref on this node (their node_entry)
 * @internal_strong: number of refs with a strong count
 * @local_strong: strong references held by the kernel (transactions,
 *	buffers, the context manager) and by a pending BR_ACQUIRE
 * @local_weak: weak references held by the kernel and a pending BR_INCREFS
 * @tmp: short-lived pins taken while a node is being used
 * @has_strong_ref: userspace was told to hold a strong reference
 * @pending_strong_ref: BR_ACQUIRE delivered, BC_ACQUIRE_DONE not yet seen
 * @has_weak_ref: userspace was told to hold a weak reference
 * @pending_weak_ref: BR_INCREFS delivered, BC_INCREFS_DONE not yet seen
 * @has_async_transaction: a one-way transaction to this node is queued or
 *	its buffer is not yet freed; the next ones wait in @async_todo
 * @async_todo: one-way transactions waiting for the previous one's buffer
 *	to be freed
 * @is_mgr: the node is its device's context manager
 * @retired: removed from its owner (or dead and unreferenced); no count may
 *	be taken any more, the memory goes when @kb_node.mem drops to zero
 */
struct kb_node_inner {
	struct kb_proc *owner;
	struct hlist_head refs;
	int internal_strong;
	int local_strong;
	int local_weak;
	int tmp;
	bool has_strong_ref;
	bool pending_strong_ref;
	bool has_weak_ref;
	bool pending_weak_ref;
	bool has_async_transaction;
	struct list_head async_todo;
	bool is_mgr;
	bool retired;
};

/**
 * struct kb_node - an object exported by a process
 * @debug_id: unique id for debug output
 * @lock: protects @inner
 * @mem: keeps the memory alive
 * @rb: in the owner's nodes tree (protected by owner->inner_lock)
 * @work: the owner's notice to update its reference state (queued on the
 *	owner's or a thread's todo under owner->inner_lock)
 * @ptr: the owner's pointer for the object (constant)
 * @cookie: the owner's cookie (constant)
 * @min_nice: synchronous calls to the node run at this nice level or a
 *	higher priority (0..255, as FLAT_BINDER_FLAG_PRIORITY_MASK) (constant)
 * @accept_fds: the owner accepts file descriptors (constant)
 * @txn_security_ctx: the owner wants the sender's security context
 *	(constant)
 * @inner: see &struct kb_node_inner (protected by @lock)
 */
struct kb_node {
	int debug_id;
	spinlock_t lock; /* protects @inner */
	refcount_t mem;
	struct rb_node rb;
	struct kb_work work;
	binder_uintptr_t ptr;
	binder_uintptr_t cookie;
	u8 min_nice;
	bool accept_fds;
	bool txn_security_ctx;
	struct kb_node_inner inner;
};

struct kb_node *kb_node_get_or_create(struct kb_proc *proc,
				      const struct flat_binder_object *fbo);
struct kb_node *kb_node_lookup(struct kb_proc *proc, binder_uintptr_t ptr);
void kb_node_pin(struct kb_node *node);
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
void kb_proc_cancel_async(struct kb_proc *proc);
void kb_node_debug_info(struct kb_proc *proc,
			struct binder_node_debug_info *info);

#endif /* _KB_NODE_H */
