// SPDX-License-Identifier: GPL-2.0-only
/*
 * References (handles): lookup, creation, counting and teardown.
 *
 * A ref lives in its process's two trees (by handle and by node) under the
 * process's refs_lock, and in its node's refs list under the node's lock.
 * Its strong count holds one internal strong count on the node while
 * non-zero; its mere existence holds the node weakly. It is freed when
 * both counts reach zero.
 */
#include "internal.h"

#include <linux/idr.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "context.h"
#include "node.h"
#include "notice.h"
#include "proc.h"
#include "ref.h"
#include "stats.h"
#include "thread.h"
#include "work.h"

/**
 * kb_ref_lookup_locked() - find a ref by handle
 * @proc: the process
 * @desc: the handle
 * @need_strong: only a ref with a strong count will do
 *
 * Return: the ref or NULL.
 */
struct kb_ref *kb_ref_lookup_locked(struct kb_proc *proc, u32 desc,
				    bool need_strong)
	__must_hold(&proc->refs_lock)
{
	struct rb_node *n = proc->refs_by_desc.rb_node;
	struct kb_ref *ref;

	lockdep_assert_held(&proc->refs_lock);
	while (n) {
		ref = rb_entry(n, struct kb_ref, rb_desc);
		if (desc < ref->desc) {
			n = n->rb_left;
		} else if (desc > ref->desc) {
			n = n->rb_right;
		} else {
			if (need_strong && !ref->strong)
				return NULL;
			return ref;
		}
	}
	return NULL;
}

/**
 * kb_ref_hold_node_for_call() - kb_node_hold_for_call() on the node behind
 *	a handle with a strong count
 * @proc: the calling process
 * @desc: the handle
 * @node: out: the node (valid only on success: then the caller holds its
 *	strong count and a memory reference)
 * @node_id: out: the node's debug id, also on failure (0: no such ref)
 * @owner: out: as kb_node_hold_for_call()
 *
 * Return: -ENOENT if @proc has no such ref, else as kb_node_hold_for_call().
 */
int kb_ref_hold_node_for_call(struct kb_proc *proc, u32 desc,
			      struct kb_node **node, int *node_id,
			      struct kb_proc **owner)
{
	struct kb_ref *ref;
	int ret = -ENOENT;

	*node_id = 0;
	mutex_lock(&proc->refs_lock);
	ref = kb_ref_lookup_locked(proc, desc, true);
	if (ref) {
		*node = ref->node;
		*node_id = ref->node->debug_id;
		ret = kb_node_hold_for_call(ref->node, proc, owner);
	}
	mutex_unlock(&proc->refs_lock);
	return ret;
}

/**
 * kb_ref_get_node() - the node behind a handle, pinned
 * @proc: the process
 * @desc: the handle
 * @need_strong: only a ref with a strong count will do
 *
 * Return: the node with a tmp pin, or NULL.
 */
struct kb_node *kb_ref_get_node(struct kb_proc *proc, u32 desc,
				bool need_strong)
{
	struct kb_node *node = NULL;
	struct kb_ref *ref;

	mutex_lock(&proc->refs_lock);
	ref = kb_ref_lookup_locked(proc, desc, need_strong);
	if (ref) {
		node = ref->node;
		kb_node_pin(node);
	}
	mutex_unlock(&proc->refs_lock);
	return node;
}

static struct kb_ref *kb_ref_find_by_node(struct kb_proc *proc,
					  struct kb_node *node,
					  struct rb_node ***link,
					  struct rb_node **parent)
	__must_hold(&proc->refs_lock)
{
	struct rb_node **p = &proc->refs_by_node.rb_node;
	struct kb_ref *ref;

	lockdep_assert_held(&proc->refs_lock);
	*parent = NULL;
	while (*p) {
		*parent = *p;
		ref = rb_entry(*p, struct kb_ref, rb_node);
		if (node < ref->node)
			p = &(*p)->rb_left;
		else if (node > ref->node)
			p = &(*p)->rb_right;
		else
			return ref;
	}
	*link = p;
	return NULL;
}

/*
 * Give @ref the lowest free handle (0 is kept for the context manager),
 * from the process's handle allocator: O(log n), where walking the tree
 * for the first gap was O(n) per new ref.
 *
 * Return: 0 or -ENOMEM/-ENOSPC.
 */
static int kb_ref_insert_desc(struct kb_proc *proc, struct kb_ref *ref,
			      bool is_mgr)
	__must_hold(&proc->refs_lock)
{
	struct rb_node **p, *parent = NULL;
	struct kb_ref *other;
	int desc;

	lockdep_assert_held(&proc->refs_lock);
	desc = ida_alloc_range(&proc->descs, is_mgr ? 0 : 1, INT_MAX,
			       GFP_KERNEL_ACCOUNT);
	if (desc < 0)
		return desc;
	ref->desc = desc;
	p = &proc->refs_by_desc.rb_node;
	while (*p) {
		parent = *p;
		other = rb_entry(parent, struct kb_ref, rb_desc);
		p = ref->desc < other->desc ? &parent->rb_left :
					      &parent->rb_right;
	}
	rb_link_node(&ref->rb_desc, parent, p);
	rb_insert_color(&ref->rb_desc, &proc->refs_by_desc);
	return 0;
}

static struct kb_ref *kb_ref_create_locked(struct kb_proc *proc,
					   struct kb_node *node)
	__must_hold(&proc->refs_lock)
{
	struct rb_node **link, *parent;
	struct kb_ref *ref;
	bool is_mgr;

	lockdep_assert_held(&proc->refs_lock);
	ref = kb_ref_find_by_node(proc, node, &link, &parent);
	if (ref)
		return ref;
	/* A sender still translating into a torn-down process adds none. */
	if (proc->refs_dead)
		return NULL;
	ref = kzalloc(sizeof(*ref), GFP_KERNEL_ACCOUNT);
	if (!ref)
		return NULL;
	ref->debug_id = kb_new_debug_id();
	ref->proc = proc;
	ref->node = node;
	spin_lock(&node->lock);
	is_mgr = kb_node_is_mgr_locked(node);
	spin_unlock(&node->lock);
	if (kb_ref_insert_desc(proc, ref, is_mgr)) {
		kfree(ref);
		return NULL;
	}
	rb_link_node(&ref->rb_node, parent, link);
	rb_insert_color(&ref->rb_node, &proc->refs_by_node);

	spin_lock(&node->lock);
	kb_node_link_ref_locked(node, &ref->link);
	spin_unlock(&node->lock);
	kb_stats_created(KB_OBJ_REF);
	return ref;
}

/* Unlink and free a ref, dropping what it held on its node. */
static void kb_ref_destroy_locked(struct kb_ref *ref)
	__must_hold(&ref->proc->refs_lock)
{
	struct kb_notice *notice[KB_NOTICE_KINDS];
	struct kb_proc *proc = ref->proc;
	struct kb_node *node = ref->node;
	bool retire;
	int kind;

	lockdep_assert_held(&proc->refs_lock);
	rb_erase(&ref->rb_desc, &proc->refs_by_desc);
	rb_erase(&ref->rb_node, &proc->refs_by_node);
	ida_free(&proc->descs, ref->desc);

	spin_lock(&node->lock);
	kb_node_unlink_ref_locked(node, &ref->link);
	for (kind = 0; kind < KB_NOTICE_KINDS; kind++) {
		notice[kind] = ref->link.notice[kind];
		ref->link.notice[kind] = NULL;
	}
	if (ref->strong)
		retire = kb_node_dec_locked(node, true, true);
	else
		retire = kb_node_dec_locked(node, false, true);
	spin_unlock(&node->lock);
	kb_node_finish(node, retire);

	for (kind = 0; kind < KB_NOTICE_KINDS; kind++)
		if (notice[kind])
			kb_notice_free(notice[kind]);
	kfree(ref);
	kb_stats_destroyed(KB_OBJ_REF);
}

static int kb_ref_inc_locked(struct kb_ref *ref, bool strong,
			     struct kb_thread *thread)
	__must_hold(&ref->proc->refs_lock)
{
	struct kb_node *node = ref->node;
	int *count = strong ? &ref->strong : &ref->weak;
	int ret = 0;

	lockdep_assert_held(&ref->proc->refs_lock);
	if (*count == 0) {
		spin_lock(&node->lock);
		ret = kb_node_inc_locked(node, strong, true, thread);
		spin_unlock(&node->lock);
	}
	if (!ret)
		(*count)++;
	return ret;
}

static int kb_ref_dec_locked(struct kb_ref *ref, bool strong)
	__must_hold(&ref->proc->refs_lock)
{
	lockdep_assert_held(&ref->proc->refs_lock);
	if (strong) {
		if (!ref->strong)
			return -EINVAL;
		if (--ref->strong == 0 && ref->weak)
			kb_node_dec(ref->node, true, true);
	} else {
		if (!ref->weak)
			return -EINVAL;
		--ref->weak;
	}
	if (!ref->strong && !ref->weak) {
		/* The last strong count is dropped by the destroy. */
		if (strong)
			ref->strong = 1;
		kb_ref_destroy_locked(ref);
	}
	return 0;
}

/**
 * kb_ref_inc_for_node() - take a count on a node through a process's ref
 * @proc: the process that gets (or has) the handle
 * @node: the node, pinned by the caller
 * @strong: a strong count (else weak)
 * @thread: the node owner's thread to notify, or NULL
 * @desc: out: the handle
 *
 * Creates the ref if the process has none on @node yet.
 *
 * Return: 0, -ENOMEM, or -EINVAL if the count may not be taken.
 */
int kb_ref_inc_for_node(struct kb_proc *proc, struct kb_node *node,
			bool strong, struct kb_thread *thread, u32 *desc)
{
	struct kb_ref *ref;
	int ret;

	mutex_lock(&proc->refs_lock);
	ref = kb_ref_create_locked(proc, node);
	if (!ref) {
		mutex_unlock(&proc->refs_lock);
		return -ENOMEM;
	}
	ret = kb_ref_inc_locked(ref, strong, thread);
	if (!ret)
		*desc = ref->desc;
	else if (!ref->strong && !ref->weak)
		kb_ref_destroy_locked(ref);
	mutex_unlock(&proc->refs_lock);
	return ret;
}

static int kb_ref_inc_mgr(struct kb_proc *proc, bool strong)
{
	struct kb_context *ctx = proc->ctx;
	struct kb_node *node;
	u32 desc;
	int ret;

	mutex_lock(&ctx->mgr_lock);
	node = rcu_dereference_protected(ctx->mgr_node,
					 lockdep_is_held(&ctx->mgr_lock));
	if (node && !kb_node_pin_foreign(node, proc))
		node = NULL;
	mutex_unlock(&ctx->mgr_lock);
	if (!node)
		return -EINVAL;
	ret = kb_ref_inc_for_node(proc, node, strong, NULL, &desc);
	kb_node_unpin(node);
	return ret;
}

/**
 * kb_ref_update() - BC_INCREFS, BC_ACQUIRE, BC_RELEASE, BC_DECREFS
 * @proc: the process
 * @desc: the handle
 * @increment: take a count (else drop one)
 * @strong: a strong count (else weak)
 *
 * Taking a count on handle 0 creates the ref to the context manager.
 *
 * Return: 0, or -EINVAL for an unknown handle or a count not held.
 */
int kb_ref_update(struct kb_proc *proc, u32 desc, bool increment, bool strong)
{
	struct kb_ref *ref;
	int ret = -EINVAL;

	if (increment && desc == 0 && rcu_access_pointer(proc->ctx->mgr_node))
		return kb_ref_inc_mgr(proc, strong);
	mutex_lock(&proc->refs_lock);
	ref = kb_ref_lookup_locked(proc, desc, strong);
	if (ref)
		ret = increment ? kb_ref_inc_locked(ref, strong, NULL) :
				  kb_ref_dec_locked(ref, strong);
	mutex_unlock(&proc->refs_lock);
	return ret;
}

/* Destroy up to KB_WORK_BATCH refs of a dying process; false when none is left. */
static bool kb_ref_release_batch(struct kb_proc *proc)
{
	struct rb_node *n = NULL;
	unsigned int i;

	mutex_lock(&proc->refs_lock);
	proc->refs_dead = true;
	for (i = 0; i < KB_WORK_BATCH; i++) {
		n = rb_first(&proc->refs_by_desc);
		if (!n)
			break;
		kb_ref_destroy_locked(rb_entry(n, struct kb_ref, rb_desc));
	}
	mutex_unlock(&proc->refs_lock);
	return n;
}

/**
 * kb_proc_release_refs() - drop every ref of a dying process
 * @proc: the process
 *
 * In batches, with a chance to reschedule between them: a process may
 * hold as many refs as it was sent. No ref is made meanwhile (refs_dead).
 */
void kb_proc_release_refs(struct kb_proc *proc)
{
	/* A step of the teardown of a dead process (proc.h's diagram). */
	WARN_ON_ONCE(!kb_proc_is_dead(proc));
	while (kb_ref_release_batch(proc))
		cond_resched();
}

/**
 * kb_ref_node_info() - BINDER_GET_NODE_INFO_FOR_REF (context manager only)
 * @proc: the calling process
 * @info: in: the handle; out: the node's strong and weak counts
 *
 * Return: 0, -EINVAL (bad request or handle) or -EPERM (not the manager).
 */
int kb_ref_node_info(struct kb_proc *proc,
		     struct binder_node_info_for_ref *info)
{
	struct kb_context *ctx = proc->ctx;
	struct kb_node *node;
	bool is_mgr = false;

	if (info->strong_count || info->weak_count || info->reserved1 ||
	    info->reserved2 || info->reserved3)
		return -EINVAL;
	mutex_lock(&ctx->mgr_lock);
	node = rcu_dereference_protected(ctx->mgr_node,
					 lockdep_is_held(&ctx->mgr_lock));
	if (node) {
		spin_lock(&node->lock);
		is_mgr = kb_node_owner_locked(node) == proc;
		spin_unlock(&node->lock);
	}
	mutex_unlock(&ctx->mgr_lock);
	if (!is_mgr)
		return -EPERM;

	node = kb_ref_get_node(proc, info->handle, true);
	if (!node)
		return -EINVAL;
	spin_lock(&node->lock);
	info->strong_count = kb_node_strong_count_locked(node);
	info->weak_count = kb_node_weak_count_locked(node);
	spin_unlock(&node->lock);
	kb_node_unpin(node);
	return 0;
}

/**
 * kb_ref_request_notice() - BC_REQUEST_DEATH_NOTIFICATION,
 *	BC_REQUEST_FREEZE_NOTIFICATION: hang a request off a ref
 * @ref: the ref the caller looked the handle up to, or NULL if there is
 *	none (a ref of @n's process, whose refs_lock the caller holds from
 *	the lookup on)
 * @n: the request from kb_death_new() or kb_freeze_notify_new(); taken
 *	over (freed on failure)
 *
 * A process with KB_MAX_CLEARED_NOTES cleared requests whose "clear done"
 * it has not read yet gets no new one: request/clear cycles cannot pile
 * up memory. The request may fire at once (kb_notice_requested()).
 *
 * Return: 0, -ENOSPC (too many cleared requests unread), or -EINVAL (no
 * such handle, or one of this kind is requested already).
 */
int kb_ref_request_notice(struct kb_ref *ref, struct kb_notice *n)
	__must_hold(&n->proc->refs_lock)
{
	struct kb_notice **slot;
	struct kb_node *node;

	lockdep_assert_held(&n->proc->refs_lock);
	if (!kb_proc_may_request_note(n->proc)) {
		kb_notice_discard(n);
		return -ENOSPC;
	}
	slot = ref ? &ref->link.notice[n->ops->kind] : NULL;
	if (!slot || *slot) {
		kb_notice_discard(n);
		return -EINVAL;
	}
	node = ref->node;
	spin_lock(&node->lock);
	*slot = n;
	kb_notice_requested(n, kb_node_owner_locked(node));
	spin_unlock(&node->lock);
	return 0;
}

/**
 * kb_ref_clear_notice() - BC_CLEAR_DEATH_NOTIFICATION,
 *	BC_CLEAR_FREEZE_NOTIFICATION: take a request off a ref
 * @thread: the clearing thread
 * @ref: the ref the caller looked the handle up to, or NULL if there is
 *	none (the caller holds its process's refs_lock)
 * @kind: the kind of request
 * @cookie: must match the request's
 *
 * Return: 0, or -EINVAL if there is no matching request.
 */
int kb_ref_clear_notice(struct kb_thread *thread, struct kb_ref *ref,
			enum kb_notice_kind kind, binder_uintptr_t cookie)
	__must_hold(&thread->proc->refs_lock)
{
	struct kb_notice *n;
	struct kb_node *node;
	bool orphan;

	lockdep_assert_held(&thread->proc->refs_lock);
	n = ref ? ref->link.notice[kind] : NULL;
	if (!n || kb_notice_cookie(n) != cookie)
		return -EINVAL;
	node = ref->node;
	spin_lock(&node->lock);
	ref->link.notice[kind] = NULL;
	orphan = kb_notice_clear(n, thread);
	spin_unlock(&node->lock);
	if (orphan)
		kb_notice_destroy(n);
	return 0;
}
