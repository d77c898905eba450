// SPDX-License-Identifier: GPL-2.0-only
/*
 * Freeze notifications (mainline 6.12).
 *
 * A process asks, per handle, to be told when the process owning the
 * handle's node is frozen or thawed. The request hangs off its ref
 * (ref->freeze, written under the ref's process refs_lock and the node's
 * lock). The current state is sent at once (unless the node's owner is
 * gone), then again after every successful BINDER_FREEZE or thaw of the
 * owner, as BR_FROZEN_BINDER. A delivered notice waits on delivered_freeze
 * for BC_FREEZE_NOTIFICATION_DONE; a change that happens meanwhile is sent
 * after it. Clearing a request answers BR_CLEAR_FREEZE_NOTIFICATION_DONE,
 * after BC_FREEZE_NOTIFICATION_DONE if a notice is out.
 *
 * Locks: the note's state is protected by the requesting process's
 * inner_lock; ref->freeze by refs_lock and node->lock (either is enough
 * to read it). Walking a frozen process's nodes takes node->lock, then the
 * requesting process's inner_lock, never the frozen process's inner_lock
 * at the same time.
 */
#include "internal.h"

#include <linux/rbtree.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "freeze_notify.h"
#include "node.h"
#include "proc.h"
#include "ref.h"
#include "stats.h"
#include "thread.h"

static const struct kb_work_ops kb_freeze_note_ops;
static const struct kb_work_ops kb_freeze_clear_ops;

static void kb_freeze_note_destroy(struct kb_freeze_note *note)
{
	if (note->cleared)
		atomic_dec(&note->proc->notes_cleared);
	kfree(note);
	kb_stats_destroyed(KB_OBJ_WORK);
}

/*
 * Atomic with the dequeue: the notice is marked sent with the state it
 * carries and goes straight onto delivered_freeze (off every list for a
 * moment, a concurrent state change or clear would queue it again, see
 * kb_freeze_notify_ref() and kb_freeze_notify_clear()). The cookie and
 * state are copied here: once the lock is dropped, the state may change,
 * and BC_FREEZE_NOTIFICATION_DONE or the ref going away may free the
 * notice.
 */
static void kb_freeze_note_take(struct kb_work *work, struct kb_thread *thread,
				union kb_work_snap *snap)
	__must_hold(&thread->proc->inner_lock)
{
	struct kb_freeze_note *note = container_of(work, struct kb_freeze_note,
						   work);
	struct kb_proc *proc = thread->proc;

	lockdep_assert_held(&proc->inner_lock);
	note->sent = true;
	note->sent_frozen = note->is_frozen;
	list_add_tail(&work->entry, &proc->inner.delivered_freeze);
	kb_cookie_insert_locked(proc, &proc->inner.freeze_by_cookie,
				&note->delivered);
	snap->frozen = (struct binder_frozen_state_info){
		.cookie = note->cookie,
		.is_frozen = note->is_frozen,
	};
}

static int kb_freeze_note_deliver(struct kb_work *work,
				  struct kb_thread *thread,
				  struct kb_wbuf *out,
				  const union kb_work_snap *snap)
{
	int ret = kb_wbuf_put_u32(out, BR_FROZEN_BINDER);

	return ret ? ret : kb_wbuf_put(out, &snap->frozen,
				       sizeof(snap->frozen));
}

static void kb_freeze_note_cancel(struct kb_work *work)
{
	struct kb_freeze_note *note = container_of(work, struct kb_freeze_note,
						   work);
	struct kb_proc *proc = note->proc;
	bool destroy;

	spin_lock(&proc->inner_lock);
	kb_cookie_erase_locked(proc, &proc->inner.freeze_by_cookie,
			       &note->delivered);
	/* Still owned by its ref unless the request was cleared meanwhile. */
	destroy = note->cleared;
	spin_unlock(&proc->inner_lock);
	if (destroy)
		kb_freeze_note_destroy(note);
}

static const struct kb_work_ops kb_freeze_note_ops = {
	.name = "frozen binder",
	.take = kb_freeze_note_take,
	.deliver = kb_freeze_note_deliver,
	.cancel = kb_freeze_note_cancel,
};

/*
 * No take: a cleared note belongs to no ref, so once its clear is off the
 * list it belongs to the reader alone, and its cookie is constant.
 */
static int kb_freeze_clear_deliver(struct kb_work *work,
				   struct kb_thread *thread,
				   struct kb_wbuf *out,
				   const union kb_work_snap *snap)
{
	struct kb_freeze_note *note = container_of(work, struct kb_freeze_note,
						   work);
	binder_uintptr_t cookie = note->cookie;
	int ret;

	kb_freeze_note_destroy(note);
	ret = kb_wbuf_put_u32(out, BR_CLEAR_FREEZE_NOTIFICATION_DONE);
	return ret ? ret : kb_wbuf_put(out, &cookie, sizeof(cookie));
}

static void kb_freeze_clear_cancel(struct kb_work *work)
{
	kb_freeze_note_destroy(container_of(work, struct kb_freeze_note, work));
}

static const struct kb_work_ops kb_freeze_clear_ops = {
	.name = "clear freeze notification done",
	.deliver = kb_freeze_clear_deliver,
	.cancel = kb_freeze_clear_cancel,
};

/*
 * Queue @note (as it is: a notice or a clear) for any looper of @proc.
 * Returns false if @proc is dead: nothing is queued to it any more, and a
 * cleared note that is not queued belongs to nobody (the caller frees it).
 */
static bool kb_freeze_note_queue(struct kb_proc *proc,
				 struct kb_freeze_note *note)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	if (kb_proc_is_dead_locked(proc))
		return false;
	kb_enqueue_proc(proc, &note->work);
	kb_proc_wake(proc, NULL, false);
	return true;
}

/**
 * kb_freeze_notify_new() - allocate a freeze notification request
 * @proc: the requesting process
 * @cookie: returned with BR_FROZEN_BINDER
 *
 * Allocated before the caller takes @proc->refs_lock for
 * kb_freeze_notify_request(), which takes it over.
 *
 * Return: the request, or NULL (out of memory).
 */
struct kb_freeze_note *kb_freeze_notify_new(struct kb_proc *proc,
					    binder_uintptr_t cookie)
{
	struct kb_freeze_note *note;

	note = kzalloc(sizeof(*note), GFP_KERNEL_ACCOUNT);
	if (!note)
		return NULL;
	kb_work_init(&note->work, &kb_freeze_note_ops);
	kb_cookie_init(&note->delivered, cookie);
	note->cookie = cookie;
	note->proc = proc;
	return note;
}

/**
 * kb_freeze_notify_request() - BC_REQUEST_FREEZE_NOTIFICATION
 * @ref: the ref the caller looked the handle up to, or NULL if there is
 *	none (a ref of @note's process)
 * @note: the request from kb_freeze_notify_new(); taken over (freed on
 *	failure)
 *
 * Bounded like death notifications (kb_proc_may_request_note()). The
 * caller holds the process's refs_lock from the handle lookup on.
 *
 * Return: 0, -ENOSPC (too many cleared requests unread), or -EINVAL (no
 * such handle, or already requested).
 */
int kb_freeze_notify_request(struct kb_ref *ref, struct kb_freeze_note *note)
	__must_hold(&note->proc->refs_lock)
{
	struct kb_proc *proc = note->proc;
	struct kb_proc *owner;
	struct kb_node *node;
	bool frozen = false;

	lockdep_assert_held(&proc->refs_lock);
	if (!kb_proc_may_request_note(proc)) {
		kfree(note);
		return -ENOSPC;
	}
	if (!ref || ref->freeze) {
		kfree(note);
		return -EINVAL;
	}
	kb_stats_created(KB_OBJ_WORK);
	node = ref->node;
	spin_lock(&node->lock);
	ref->freeze = note;
	owner = kb_node_owner_locked(node);
	if (owner) {
		spin_lock(&owner->inner_lock);
		frozen = kb_proc_is_frozen_locked(owner);
		spin_unlock(&owner->inner_lock);
		spin_lock(&proc->inner_lock);
		note->is_frozen = frozen;
		kb_freeze_note_queue(proc, note);
		spin_unlock(&proc->inner_lock);
	}
	spin_unlock(&node->lock);
	return 0;
}

/**
 * kb_freeze_notify_clear() - BC_CLEAR_FREEZE_NOTIFICATION
 * @thread: the requesting thread
 * @ref: the ref the caller looked the handle up to, or NULL if there is
 *	none (the caller holds its process's refs_lock)
 * @cookie: must match the request
 *
 * Return: 0, or -EINVAL if there is no matching request.
 */
int kb_freeze_notify_clear(struct kb_thread *thread, struct kb_ref *ref,
			   binder_uintptr_t cookie)
	__must_hold(&thread->proc->refs_lock)
{
	struct kb_proc *proc = thread->proc;
	struct kb_freeze_note *note;
	struct kb_node *node;
	bool orphan = false;

	lockdep_assert_held(&proc->refs_lock);
	note = ref ? ref->freeze : NULL;
	if (!note || note->cookie != cookie)
		return -EINVAL;
	node = ref->node;
	spin_lock(&node->lock);
	ref->freeze = NULL;
	spin_lock(&proc->inner_lock);
	note->cleared = true;
	atomic_inc(&proc->notes_cleared);
	if (!note->sent) {
		/* A queued notice turns into the clear, in place. */
		note->work.ops = &kb_freeze_clear_ops;
		if (!kb_work_queued(proc, &note->work))
			orphan = !kb_freeze_note_queue(proc, note);
	}
	/* Else BC_FREEZE_NOTIFICATION_DONE queues the clear. */
	spin_unlock(&proc->inner_lock);
	spin_unlock(&node->lock);
	if (orphan)
		kb_freeze_note_destroy(note);
	return 0;
}

/**
 * kb_freeze_notify_done() - BC_FREEZE_NOTIFICATION_DONE
 * @thread: the acknowledging thread
 * @cookie: the cookie of a delivered BR_FROZEN_BINDER
 *
 * Return: 0, or -EINVAL if no delivered notice has this cookie.
 */
int kb_freeze_notify_done(struct kb_thread *thread, binder_uintptr_t cookie)
{
	struct kb_proc *proc = thread->proc;
	struct kb_freeze_note *found;
	struct kb_cookie_node *cn;
	bool orphan = false;

	/* Found in O(log n), as kb_death_done() finds a death notice. */
	spin_lock(&proc->inner_lock);
	cn = kb_cookie_take_locked(proc, &proc->inner.freeze_by_cookie, cookie);
	found = cn ? container_of(cn, struct kb_freeze_note, delivered) : NULL;
	if (found) {
		list_del_init(&found->work.entry);
		found->sent = false;
		if (found->cleared) {
			found->work.ops = &kb_freeze_clear_ops;
			orphan = !kb_freeze_note_queue(proc, found);
		} else if (found->is_frozen != found->sent_frozen) {
			kb_freeze_note_queue(proc, found);
		}
	}
	spin_unlock(&proc->inner_lock);
	if (orphan)
		kb_freeze_note_destroy(found);
	return found ? 0 : -EINVAL;
}

/* Tell the holder of @ref, if it asked, that the owner is now @frozen. */
static void kb_freeze_notify_ref(struct kb_ref *ref, bool frozen)
	__must_hold(&ref->node->lock)
{
	struct kb_freeze_note *note = ref->freeze;
	struct kb_proc *proc = ref->proc;

	lockdep_assert_held(&ref->node->lock);
	if (!note)
		return;
	spin_lock(&proc->inner_lock);
	note->is_frozen = frozen;
	/*
	 * Queued: it goes out with the new state. Sent: the DONE sends the
	 * new state if it differs from the one sent.
	 */
	if (!note->sent && !kb_work_queued(proc, &note->work))
		kb_freeze_note_queue(proc, note);
	spin_unlock(&proc->inner_lock);
}

/* The first node of @proc whose pointer is >= @ptr, with a memory ref. */
static struct kb_node *kb_freeze_next_node(struct kb_proc *proc,
					   binder_uintptr_t ptr)
{
	struct kb_node *node, *found = NULL;
	struct rb_node *n;

	spin_lock(&proc->inner_lock);
	n = proc->inner.nodes.rb_node;
	while (n) {
		node = rb_entry(n, struct kb_node, rb);
		if (node->ptr < ptr) {
			n = n->rb_right;
		} else {
			found = node;
			n = n->rb_left;
		}
	}
	if (found)
		refcount_inc(&found->mem);
	spin_unlock(&proc->inner_lock);
	return found;
}

/**
 * kb_freeze_notify_changed() - @proc was frozen or thawed
 * @proc: the process
 * @frozen: its new state
 *
 * Queues BR_FROZEN_BINDER for every freeze notification request on a
 * node of @proc.
 */
void kb_freeze_notify_changed(struct kb_proc *proc, bool frozen)
{
	binder_uintptr_t next = 0;
	struct kb_node *node;
	struct kb_ref *ref;

	while ((node = kb_freeze_next_node(proc, next))) {
		spin_lock(&node->lock);
		hlist_for_each_entry(ref, &node->inner.refs, node_entry)
			kb_freeze_notify_ref(ref, frozen);
		spin_unlock(&node->lock);
		next = node->ptr + 1;
		kb_node_put_mem(node);
		if (!next)
			break;
		cond_resched();
	}
}

/**
 * kb_freeze_notify_free() - free a request whose ref is going away
 * @proc: the requesting process
 * @note: the request, already detached from its ref
 */
void kb_freeze_notify_free(struct kb_proc *proc, struct kb_freeze_note *note)
{
	spin_lock(&proc->inner_lock);
	kb_cookie_erase_locked(proc, &proc->inner.freeze_by_cookie,
			       &note->delivered);
	kb_work_dequeue(proc, &note->work);
	spin_unlock(&proc->inner_lock);
	kb_freeze_note_destroy(note);
}
