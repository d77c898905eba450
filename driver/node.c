// SPDX-License-Identifier: GPL-2.0-only
/*
 * Nodes: creation, lookup, strong/weak counting, and the work item that
 * tells the owner to take or drop its references
 * (BR_INCREFS/BR_ACQUIRE/BR_RELEASE/BR_DECREFS).
 *
 * Counts (protected by node->lock): internal_strong counts refs holding a
 * strong count, local_strong/local_weak count kernel holders, tmp counts
 * short pins, and the refs list holds the weak references of handles. The
 * node is "strong" while any strong count is held and "weak" while
 * anything at all is held. When the owner has been told about a reference
 * it no longer needs, the node's work is queued; once nothing holds the
 * node and the owner holds nothing either, the node is retired: removed
 * from its owner's tree, its memory freed when the last memory reference
 * goes.
 */
#include "internal.h"

#include <linux/sched.h>
#include <linux/slab.h>

#include "node.h"
#include "notice.h"
#include "proc.h"
#include "queue.h"
#include "stats.h"
#include "thread.h"

/* The packed layout of struct kb_node (node.h), where spinlock_t is a word. */
static_assert(sizeof(spinlock_t) != sizeof(u32) ||
	      sizeof(struct kb_node) <= 128);

static const struct kb_work_ops kb_node_work_ops;

/**
 * kb_node_put_mem() - drop a memory reference; the last one frees the node
 * @node: the node
 */
void kb_node_put_mem(struct kb_node *node)
{
	if (!refcount_dec_and_test(&node->mem))
		return;
	kfree(node);
	kb_stats_destroyed(KB_OBJ_NODE);
}

static struct kb_node *kb_node_find(struct kb_proc *proc,
				    binder_uintptr_t ptr,
				    struct kb_node *insert)
	__must_hold(&proc->inner_lock)
{
	struct rb_root *root = kb_proc_nodes_locked(proc);
	struct rb_node **p = &root->rb_node, *parent = NULL;
	struct kb_node *node;

	while (*p) {
		parent = *p;
		node = rb_entry(parent, struct kb_node, rb);
		if (ptr < node->ptr)
			p = &parent->rb_left;
		else if (ptr > node->ptr)
			p = &parent->rb_right;
		else
			return node;
	}
	if (insert) {
		rb_link_node(&insert->rb, parent, p);
		rb_insert_color(&insert->rb, root);
	}
	return insert;
}

/**
 * kb_node_hold_for_call() - take the strong count a call's buffer holds on
 *	the node it calls, with the node's owner
 * @node: the called node, kept from being freed by the caller (an RCU
 *	read-side section, or the caller's ref on it under its refs_lock)
 * @sender: the calling process
 * @owner: out: on success the owner, with a memory reference
 *
 * One critical section of the node's lock, no pin around the whole send.
 * The count does not keep the node's memory: the owner's death zeroes the
 * kernel's counts and may retire and free a node nothing else holds while
 * the sender is still stalled in its copy. So on success the caller also
 * gets a memory reference, which it drops with kb_node_put_mem() after its
 * last use of the node.
 *
 * Return: 0; -ESRCH if the owner died (or the node is retired); -EINVAL
 * if @sender owns the node.
 */
int kb_node_hold_for_call(struct kb_node *node, struct kb_proc *sender,
			  struct kb_proc **owner)
{
	int ret;

	spin_lock(&node->lock);
	if (!node->owner)
		ret = -ESRCH;
	else if (node->owner == sender)
		ret = -EINVAL;
	else
		ret = kb_node_inc_locked(node, true, false, NULL) ? -ESRCH : 0;
	if (!ret) {
		refcount_inc(&node->mem);
		*owner = node->owner;
		kb_proc_get(*owner);
	}
	spin_unlock(&node->lock);
	return ret;
}

/**
 * kb_node_lookup() - find a node of a process and pin it
 * @proc: the owner
 * @ptr: the owner's pointer
 *
 * Return: the node with a tmp pin (kb_node_unpin()), or NULL.
 */
struct kb_node *kb_node_lookup(struct kb_proc *proc, binder_uintptr_t ptr)
{
	struct kb_node *node;
	bool retired;

	do {
		spin_lock(&proc->inner_lock);
		node = kb_node_find(proc, ptr, NULL);
		if (node)
			refcount_inc(&node->mem);
		spin_unlock(&proc->inner_lock);
		if (!node)
			return NULL;
		spin_lock(&node->lock);
		retired = node->retired;
		if (!retired)
			node->tmp++;
		spin_unlock(&node->lock);
		/* The pin keeps the node (and its memory) alive from here. */
		kb_node_put_mem(node);
	} while (retired);
	return node;
}

static struct kb_node *kb_node_new(struct kb_proc *proc,
				   const struct flat_binder_object *fbo)
{
	struct kb_node *node = kzalloc(sizeof(*node), GFP_KERNEL_ACCOUNT);

	if (!node)
		return NULL;
	node->debug_id = kb_new_debug_id();
	spin_lock_init(&node->lock);
	refcount_set(&node->mem, 1);
	RB_CLEAR_NODE(&node->rb);
	kb_work_init(&node->work, &kb_node_work_ops);
	node->ptr = fbo->binder;
	node->cookie = fbo->cookie;
	node->min_nice = fbo->flags & FLAT_BINDER_FLAG_PRIORITY_MASK;
	node->accept_fds = !!(fbo->flags & FLAT_BINDER_FLAG_ACCEPTS_FDS);
	node->txn_security_ctx =
		!!(fbo->flags & FLAT_BINDER_FLAG_TXN_SECURITY_CTX);
	node->owner = proc;
	INIT_HLIST_HEAD(&node->refs);
	INIT_LIST_HEAD(&node->async_todo);
	node->tmp = 1;
	return node;
}

/**
 * kb_node_get_or_create() - the node for an object a process sends
 * @proc: the owner
 * @fbo: the object (binder pointer, cookie and flags)
 *
 * Return: the node with a tmp pin, or NULL on allocation failure.
 */
struct kb_node *kb_node_get_or_create(struct kb_proc *proc,
				      const struct flat_binder_object *fbo)
{
	struct kb_node *node, *spare = NULL;

	for (;;) {
		node = kb_node_lookup(proc, fbo->binder);
		if (node)
			break;
		if (!spare) {
			spare = kb_node_new(proc, fbo);
			if (!spare)
				return NULL;
			continue;
		}
		spin_lock(&proc->inner_lock);
		node = kb_node_find(proc, fbo->binder, spare);
		spin_unlock(&proc->inner_lock);
		if (node == spare) {
			kb_stats_created(KB_OBJ_NODE);
			return spare;
		}
	}
	kfree(spare);
	return node;
}

/**
 * kb_node_pin() - take a tmp pin on a node that is known to be alive
 * @node: the node (held by a ref or another pin)
 */
void kb_node_pin(struct kb_node *node)
{
	spin_lock(&node->lock);
	node->tmp++;
	spin_unlock(&node->lock);
}

/*
 * Decide what a node needs after its counts changed: tell the owner to drop
 * a reference it no longer needs, or retire the node when nothing holds it.
 * Returns true if the node was retired; the caller calls kb_node_finish()
 * after dropping node->lock.
 */
static bool kb_node_settle_locked(struct kb_node *node)
	__must_hold(&node->lock)
{
	struct kb_proc *owner = node->owner;
	bool strong = node->internal_strong || node->local_strong;
	bool weak = strong || node->local_weak || node->tmp ||
		    !hlist_empty(&node->refs);
	struct kb_wake wake = {};

	lockdep_assert_held(&node->lock);
	if (node->retired)
		return false;
	if (owner && (node->has_strong_ref || node->has_weak_ref)) {
		if ((!strong && node->has_strong_ref) ||
		    (!weak && node->has_weak_ref)) {
			rcu_read_lock();
			spin_lock(&owner->inner_lock);
			if (!kb_proc_is_dead_locked(owner) &&
			    !kb_work_queued(owner, &node->work))
				kb_queue_proc_locked(owner, &node->work,
						     &wake);
			spin_unlock(&owner->inner_lock);
			kb_queue_wake(&wake);
			rcu_read_unlock();
		}
		return false;
	}
	if (weak)
		return false;
	if (owner) {
		spin_lock(&owner->inner_lock);
		kb_work_dequeue(owner, &node->work);
		if (!RB_EMPTY_NODE(&node->rb)) {
			rb_erase(&node->rb, kb_proc_nodes_locked(owner));
			RB_CLEAR_NODE(&node->rb);
		}
		spin_unlock(&owner->inner_lock);
	}
	node->retired = true;
	return true;
}

/**
 * kb_node_finish() - complete a retirement decided under node->lock
 * @node: the node
 * @retire: what kb_node_dec_locked() returned
 */
void kb_node_finish(struct kb_node *node, bool retire)
{
	if (retire)
		kb_node_put_mem(node);
}

/**
 * kb_node_unpin() - drop a tmp pin
 * @node: the node
 */
void kb_node_unpin(struct kb_node *node)
{
	bool retire;

	spin_lock(&node->lock);
	node->tmp--;
	retire = kb_node_settle_locked(node);
	spin_unlock(&node->lock);
	kb_node_finish(node, retire);
}

/**
 * kb_node_inc_locked() - take a strong or weak count on a node
 * @node: the node
 * @strong: a strong count (else weak)
 * @internal: held by a ref (else by the kernel)
 * @thread: the owner's thread that reads the node's notice next (the
 *	sender of the object), or NULL
 *
 * A ref may only become strong while the node is already strongly held
 * (or is the context manager), unless the owner is being told right now
 * (@thread).
 *
 * Return: 0, or -EINVAL when the count may not be taken.
 */
int kb_node_inc_locked(struct kb_node *node, bool strong, bool internal,
		       struct kb_thread *thread)
	__must_hold(&node->lock)
{
	bool notify;

	lockdep_assert_held(&node->lock);
	if (node->retired)
		return -EINVAL;
	if (strong) {
		if (internal) {
			if (!thread && !node->internal_strong &&
			    !(node->is_mgr && node->has_strong_ref))
				return -EINVAL;
			node->internal_strong++;
		} else {
			node->local_strong++;
		}
		notify = !node->has_strong_ref;
	} else {
		if (!internal)
			node->local_weak++;
		notify = !node->has_weak_ref;
	}
	if (notify && thread && node->owner == thread->proc) {
		spin_lock(&thread->proc->inner_lock);
		if (!kb_thread_is_dead_locked(thread)) {
			kb_work_dequeue(thread->proc, &node->work);
			kb_queue_thread_quiet_locked(thread, &node->work);
		}
		spin_unlock(&thread->proc->inner_lock);
	}
	return 0;
}

/**
 * kb_node_dec_locked() - drop a strong or weak count
 * @node: the node
 * @strong: a strong count (else weak)
 * @internal: held by a ref (else by the kernel)
 *
 * The kernel's counts on a dead node were dropped when its owner died;
 * dropping them again is ignored.
 *
 * Return: true if the node was retired (call kb_node_finish() unlocked).
 */
bool kb_node_dec_locked(struct kb_node *node, bool strong, bool internal)
	__must_hold(&node->lock)
{
	int *count = NULL;

	lockdep_assert_held(&node->lock);
	if (strong)
		count = internal ? &node->internal_strong : &node->local_strong;
	else if (!internal)
		count = &node->local_weak;
	if (count) {
		if (*count > 0)
			(*count)--;
		else if (node->owner)
			pr_warn_ratelimited("node %d: count underflow\n",
					    node->debug_id);
	}
	return kb_node_settle_locked(node);
}

/**
 * kb_node_dec() - kb_node_dec_locked() taking the lock
 * @node: the node
 * @strong: a strong count (else weak)
 * @internal: held by a ref (else by the kernel)
 */
void kb_node_dec(struct kb_node *node, bool strong, bool internal)
{
	bool retire;

	spin_lock(&node->lock);
	retire = kb_node_dec_locked(node, strong, internal);
	spin_unlock(&node->lock);
	kb_node_finish(node, retire);
}

static int kb_node_put_cmd(struct kb_wbuf *out, u32 cmd, struct kb_node *node)
{
	struct binder_ptr_cookie pc = { .ptr = node->ptr, .cookie = node->cookie };
	int ret = kb_wbuf_put_u32(out, cmd);

	return ret ? ret : kb_wbuf_put(out, &pc, sizeof(pc));
}

/*
 * Atomic with the dequeue: the notice is embedded in its node, which may
 * be retired and freed as soon as the notice is off the list and the lock
 * is dropped, so the memory reference deliver uses is taken here.
 */
static void kb_node_take(struct kb_work *work, struct kb_thread *thread,
			 union kb_work_snap *snap)
	__must_hold(&thread->proc->inner_lock)
{
	struct kb_node *node = container_of(work, struct kb_node, work);

	lockdep_assert_held(&thread->proc->inner_lock);
	refcount_inc(&node->mem);
}

/* Tell the owner which references to take or drop now. */
static int kb_node_deliver(struct kb_work *work, struct kb_thread *thread,
			   struct kb_wbuf *out, const union kb_work_snap *snap)
{
	struct kb_node *node = container_of(work, struct kb_node, work);
	bool strong, weak, inc_weak, inc_strong, dec_strong, dec_weak;
	bool retire;
	int ret = 0;

	spin_lock(&node->lock);
	if (node->retired || node->owner != thread->proc) {
		spin_unlock(&node->lock);
		kb_node_put_mem(node);
		return 0;
	}
	strong = node->internal_strong || node->local_strong;
	weak = strong || node->local_weak || node->tmp || !hlist_empty(&node->refs);
	inc_weak = weak && !node->has_weak_ref;
	inc_strong = strong && !node->has_strong_ref;
	dec_strong = !strong && node->has_strong_ref;
	dec_weak = !weak && node->has_weak_ref;
	if (inc_weak) {
		node->has_weak_ref = true;
		node->pending_weak_ref = true;
		node->local_weak++;
	}
	if (inc_strong) {
		node->has_strong_ref = true;
		node->pending_strong_ref = true;
		node->local_strong++;
	}
	if (dec_strong)
		node->has_strong_ref = false;
	if (dec_weak)
		node->has_weak_ref = false;
	retire = kb_node_settle_locked(node);
	spin_unlock(&node->lock);
	kb_node_finish(node, retire);

	if (inc_weak)
		ret = kb_node_put_cmd(out, BR_INCREFS, node);
	if (!ret && inc_strong)
		ret = kb_node_put_cmd(out, BR_ACQUIRE, node);
	if (!ret && dec_strong)
		ret = kb_node_put_cmd(out, BR_RELEASE, node);
	if (!ret && dec_weak)
		ret = kb_node_put_cmd(out, BR_DECREFS, node);
	kb_node_put_mem(node);
	return ret;
}

/*
 * The item is embedded in the node, which its owner's teardown releases
 * on its own (and may free once the item is off its list): never the
 * canceller's.
 */
static bool kb_node_claim(struct kb_work *work)
{
	return false;
}

static const struct kb_work_ops kb_node_work_ops = {
	.name = "node",
	.take = kb_node_take,
	.deliver = kb_node_deliver,
	.claim = kb_node_claim,
};

/**
 * kb_node_ref_done() - BC_INCREFS_DONE / BC_ACQUIRE_DONE
 * @proc: the owner
 * @ptr: the node's pointer
 * @cookie: the node's cookie
 * @strong: BC_ACQUIRE_DONE (else BC_INCREFS_DONE)
 *
 * Return: 0, or -EINVAL if no such node or nothing was pending.
 */
int kb_node_ref_done(struct kb_proc *proc, binder_uintptr_t ptr,
		     binder_uintptr_t cookie, bool strong)
{
	struct kb_node *node = kb_node_lookup(proc, ptr);
	bool pending, retire = false;
	int ret = -EINVAL;

	if (!node)
		return -EINVAL;
	spin_lock(&node->lock);
	pending = strong ? node->pending_strong_ref : node->pending_weak_ref;
	if (node->cookie == cookie && pending) {
		if (strong)
			node->pending_strong_ref = false;
		else
			node->pending_weak_ref = false;
		retire = kb_node_dec_locked(node, strong, false);
		ret = 0;
	}
	spin_unlock(&node->lock);
	kb_node_finish(node, retire);
	kb_node_unpin(node);
	return ret;
}

/*
 * The owner died: detach the node and fire the death requests of its refs,
 * in the critical section that clears its owner (a request made meanwhile
 * sees either the owner, and is found here, or none, and fires itself).
 */
static void kb_node_release(struct kb_proc *proc, struct kb_node *node)
{
	struct kb_ref_link *link;
	LIST_HEAD(async);
	bool retire;

	/* Queued one-way calls first: they hold counts on the node. */
	spin_lock(&node->lock);
	list_splice_init(&node->async_todo, &async);
	node->has_async_transaction = false;
	spin_unlock(&node->lock);
	kb_proc_cancel_list(proc, &async);

	spin_lock(&node->lock);
	spin_lock(&proc->inner_lock);
	kb_work_dequeue(proc, &node->work);
	if (!RB_EMPTY_NODE(&node->rb)) {
		rb_erase(&node->rb, kb_proc_nodes_locked(proc));
		RB_CLEAR_NODE(&node->rb);
	}
	spin_unlock(&proc->inner_lock);
	node->owner = NULL;
	/* Kernel-held counts die with the owner (buffers, pending acks). */
	node->local_strong = 0;
	node->local_weak = 0;
	node->pending_strong_ref = false;
	node->pending_weak_ref = false;
	node->has_strong_ref = false;
	node->has_weak_ref = false;
	hlist_for_each_entry(link, &node->refs, entry)
		if (link->notice[KB_NOTICE_DEATH])
			kb_notice_fire(link->notice[KB_NOTICE_DEATH], 0);
	retire = kb_node_settle_locked(node);
	spin_unlock(&node->lock);
	kb_node_finish(node, retire);
}

/**
 * kb_proc_release_nodes() - release every node of a dying process
 * @proc: the process, marked dead, its threads and todo already gone
 */
void kb_proc_release_nodes(struct kb_proc *proc)
{
	struct kb_node *node;
	struct rb_node *rb;

	WARN_ON_ONCE(!kb_proc_is_dead(proc));
	/* One node per critical section, a chance to reschedule after each. */
	for (;; cond_resched()) {
		spin_lock(&proc->inner_lock);
		rb = rb_first(kb_proc_nodes_locked(proc));
		node = rb ? rb_entry(rb, struct kb_node, rb) : NULL;
		if (node)
			refcount_inc(&node->mem);
		spin_unlock(&proc->inner_lock);
		if (!node)
			return;
		kb_node_release(proc, node);
		kb_node_put_mem(node);
	}
}

/**
 * kb_node_next_locked() - walk a process's nodes by pointer
 * @proc: the owner
 * @any_after: false for the first node; true for the first above @after
 * @after: the pointer of the node seen last
 *
 * The tree is searched from the top each time, so the caller may drop the
 * lock between steps.
 *
 * Return: the node, with a memory reference, or NULL.
 */
struct kb_node *kb_node_next_locked(struct kb_proc *proc, bool any_after,
				    binder_uintptr_t after)
	__must_hold(&proc->inner_lock)
{
	struct kb_node *node, *found = NULL;
	struct rb_node *rb = kb_proc_nodes_locked(proc)->rb_node;

	while (rb) {
		node = rb_entry(rb, struct kb_node, rb);
		if (!any_after || node->ptr > after) {
			found = node;
			rb = rb->rb_left;
		} else {
			rb = rb->rb_right;
		}
	}
	if (found)
		refcount_inc(&found->mem);
	return found;
}

/**
 * kb_node_next() - kb_node_next_locked() taking the lock
 * @proc: the owner
 * @any_after: false for the first node; true for the first above @after
 * @after: the pointer of the node seen last
 *
 * Return: the node, with a memory reference, or NULL.
 */
struct kb_node *kb_node_next(struct kb_proc *proc, bool any_after,
			     binder_uintptr_t after)
{
	struct kb_node *node;

	spin_lock(&proc->inner_lock);
	node = kb_node_next_locked(proc, any_after, after);
	spin_unlock(&proc->inner_lock);
	return node;
}

/**
 * kb_proc_cancel_async() - cancel the one-way calls queued on every node
 * @proc: a process that is dead (nobody will ever read them)
 *
 * The call being delivered (its buffer not freed yet) stays; freeing it
 * finds the queue empty.
 */
void kb_proc_cancel_async(struct kb_proc *proc)
{
	struct kb_node *node;
	binder_uintptr_t after = 0;
	bool any_after = false;
	LIST_HEAD(async);

	while ((node = kb_node_next(proc, any_after, after))) {
		after = node->ptr;
		any_after = true;
		spin_lock(&node->lock);
		list_splice_init(&node->async_todo, &async);
		spin_unlock(&node->lock);
		kb_proc_cancel_list(proc, &async);
		kb_node_put_mem(node);
		cond_resched();
	}
}

/**
 * kb_node_debug_info() - BINDER_GET_NODE_DEBUG_INFO
 * @proc: the process
 * @info: in: a pointer; out: the first node with a larger pointer (all
 *	zero if none)
 */
void kb_node_debug_info(struct kb_proc *proc,
			struct binder_node_debug_info *info)
{
	/* One O(log n) search, however many nodes there are. */
	struct kb_node *node = kb_node_next(proc, true, info->ptr);

	memset(info, 0, sizeof(*info));
	if (!node)
		return;
	info->ptr = node->ptr;
	info->cookie = node->cookie;
	spin_lock(&node->lock);
	info->has_strong_ref = node->has_strong_ref;
	info->has_weak_ref = node->has_weak_ref;
	spin_unlock(&node->lock);
	kb_node_put_mem(node);
}

/**
 * kb_node_take_outdated_locked() - TF_UPDATE_TXN: take the waiting call a
 *	new one-way call supersedes
 * @node: the called node
 * @newer: the work of a one-way call with TF_UPDATE_TXN to a frozen
 *	process, not queued yet
 *
 * Takes the first item of @node's one-way queue that its kind says
 * @newer makes outdated (&kb_work_ops.outdated_by: a call with the same
 * code, flags and sending process, as upstream since 5.19). The caller
 * frees it after dropping the locks.
 *
 * Return: the item taken, or NULL.
 */
struct kb_work *kb_node_take_outdated_locked(struct kb_node *node,
					     const struct kb_work *newer)
	__must_hold(&node->lock)
{
	struct kb_work *w;

	lockdep_assert_held(&node->lock);
	list_for_each_entry(w, &node->async_todo, entry) {
		if (!w->ops->outdated_by || !w->ops->outdated_by(w, newer))
			continue;
		list_del_init(&w->entry);
		return w;
	}
	return NULL;
}

/**
 * kb_node_oneway_done() - the node's one-way call in flight is done (its
 *	buffer is freed): hand the next one over
 * @node: the node
 * @proc: its owner, which received the call
 *
 * The next call waiting on the node goes to @proc's todo list, unless
 * @proc is dead (its teardown cancels the node's queue); with none
 * waiting, the node has no one-way call in flight any more.
 */
void kb_node_oneway_done(struct kb_node *node, struct kb_proc *proc)
{
	struct kb_wake wake = {};
	struct kb_work *next;

	rcu_read_lock();
	spin_lock(&node->lock);
	next = list_first_entry_or_null(&node->async_todo,
					struct kb_work, entry);
	if (!next) {
		node->has_async_transaction = false;
	} else {
		spin_lock(&proc->inner_lock);
		if (!kb_proc_is_dead_locked(proc)) {
			list_del_init(&next->entry);
			kb_queue_proc_locked(proc, next, &wake);
		}
		spin_unlock(&proc->inner_lock);
	}
	spin_unlock(&node->lock);
	kb_queue_wake(&wake);
	rcu_read_unlock();
}

/**
 * kb_node_set_mgr() - make a node its device's context manager
 * @node: the node, pinned by the caller
 *
 * The manager role holds the node strongly (a local strong and weak
 * count, and a memory reference for the context's pointer), and its owner
 * is taken to hold it already: no BR_INCREFS/BR_ACQUIRE is sent.
 */
void kb_node_set_mgr(struct kb_node *node)
{
	spin_lock(&node->lock);
	node->local_strong++;
	node->local_weak++;
	node->has_strong_ref = true;
	node->has_weak_ref = true;
	node->is_mgr = true;
	spin_unlock(&node->lock);
	refcount_inc(&node->mem);
}

/**
 * kb_node_pin_foreign() - pin a node for a process that may take a ref on
 *	it
 * @node: the node (kept alive by the caller)
 * @proc: the process
 *
 * Return: true with a tmp pin taken; false if @proc owns the node (no ref
 * on one's own node) or it is retired.
 */
bool kb_node_pin_foreign(struct kb_node *node, struct kb_proc *proc)
{
	bool usable;

	spin_lock(&node->lock);
	usable = node->owner != proc && !node->retired;
	if (usable)
		node->tmp++;
	spin_unlock(&node->lock);
	return usable;
}

/**
 * kb_node_fire_notices() - tell the holders of refs on a process's nodes
 *	that asked for one kind of notice
 * @owner: the process whose state changed (frozen or thawed)
 * @kind: the kind of notice
 * @state: what it reports now
 *
 * One node per critical section of its lock, found by pointer under the
 * owner's lock with only its memory held: the owner's lock is never held
 * with a requester's (kb_notice_fire() takes that one).
 */
void kb_node_fire_notices(struct kb_proc *owner, enum kb_notice_kind kind,
			  u32 state)
{
	binder_uintptr_t after = 0;
	bool any_after = false;
	struct kb_ref_link *link;
	struct kb_node *node;

	while ((node = kb_node_next(owner, any_after, after))) {
		spin_lock(&node->lock);
		hlist_for_each_entry(link, &node->refs, entry)
			if (link->notice[kind])
				kb_notice_fire(link->notice[kind], state);
		spin_unlock(&node->lock);
		after = node->ptr;
		any_after = true;
		kb_node_put_mem(node);
		cond_resched();
	}
}
