// SPDX-License-Identifier: GPL-2.0-only
/*
 * Death notifications.
 *
 * A request hangs off its ref (ref->death, written under the ref's
 * process refs_lock and the node's lock). When the node's owner dies, the
 * request's work is queued on the requesting process as BR_DEAD_BINDER;
 * once delivered it waits on delivered_death for BC_DEAD_BINDER_DONE.
 * Clearing a request that has not fired queues
 * BR_CLEAR_DEATH_NOTIFICATION_DONE at once; clearing one that fired sends
 * it after BC_DEAD_BINDER_DONE.
 */
#include "internal.h"

#include <linux/slab.h>

#include "death.h"
#include "node.h"
#include "proc.h"
#include "ref.h"
#include "stats.h"
#include "thread.h"

static const struct kb_work_ops kb_death_dead_ops;
static const struct kb_work_ops kb_death_clear_ops;

static void kb_death_destroy(struct kb_death *death)
{
	if (death->cleared)
		atomic_dec(&death->proc->notes_cleared);
	kfree(death);
	kb_stats_destroyed(KB_OBJ_DEATH);
}

static int kb_death_put(struct kb_wbuf *out, u32 cmd, binder_uintptr_t cookie)
{
	int ret = kb_wbuf_put_u32(out, cmd);

	return ret ? ret : kb_wbuf_put(out, &cookie, sizeof(cookie));
}

/*
 * Atomic with the dequeue: the notice goes straight onto delivered_death.
 * Off every list for a moment, a concurrent BC_CLEAR_DEATH_NOTIFICATION
 * (kb_death_clear() sees it not queued) would queue its "clear done" on
 * the same list_head. The cookie is copied here: once the lock is
 * dropped, the notice may be freed (BC_DEAD_BINDER_DONE of a cleared one,
 * or its ref going away: kb_death_free()).
 */
static void kb_death_dead_take(struct kb_work *work, struct kb_thread *thread,
			       union kb_work_snap *snap)
	__must_hold(&thread->proc->inner_lock)
{
	struct kb_death *death = container_of(work, struct kb_death, work);
	struct kb_proc *proc = thread->proc;

	lockdep_assert_held(&proc->inner_lock);
	list_add_tail(&work->entry, &proc->inner.delivered_death);
	kb_cookie_insert_locked(proc, &proc->inner.death_by_cookie,
				&death->delivered);
	snap->cookie = death->cookie;
}

static int kb_death_dead_deliver(struct kb_work *work, struct kb_thread *thread,
				 struct kb_wbuf *out,
				 const union kb_work_snap *snap)
{
	int ret = kb_death_put(out, BR_DEAD_BINDER, snap->cookie);

	/* The handler may call out in reaction: end this read here. */
	return ret ? ret : KB_READ_STOP;
}

static void kb_death_dead_cancel(struct kb_work *work)
{
	struct kb_death *death = container_of(work, struct kb_death, work);
	struct kb_proc *proc = death->proc;
	bool destroy;

	spin_lock(&proc->inner_lock);
	kb_cookie_erase_locked(proc, &proc->inner.death_by_cookie,
			       &death->delivered);
	/* Still owned by its ref unless the request was cleared meanwhile. */
	destroy = death->clear_pending;
	spin_unlock(&proc->inner_lock);
	if (destroy)
		kb_death_destroy(death);
}

static const struct kb_work_ops kb_death_dead_ops = {
	.name = "dead binder",
	.take = kb_death_dead_take,
	.deliver = kb_death_dead_deliver,
	.cancel = kb_death_dead_cancel,
};

/*
 * No take: a "clear done" belongs to no ref, so once off its list it
 * belongs to the reader alone, and its cookie is constant.
 */
static int kb_death_clear_deliver(struct kb_work *work,
				  struct kb_thread *thread,
				  struct kb_wbuf *out,
				  const union kb_work_snap *snap)
{
	struct kb_death *death = container_of(work, struct kb_death, work);
	binder_uintptr_t cookie = death->cookie;

	kb_death_destroy(death);
	return kb_death_put(out, BR_CLEAR_DEATH_NOTIFICATION_DONE, cookie);
}

static void kb_death_clear_cancel(struct kb_work *work)
{
	kb_death_destroy(container_of(work, struct kb_death, work));
}

static const struct kb_work_ops kb_death_clear_ops = {
	.name = "clear death notification done",
	.deliver = kb_death_clear_deliver,
	.cancel = kb_death_clear_cancel,
};

/* Queue "clear done" for a looper thread itself, else for the process. */
static void kb_death_queue_clear_done(struct kb_thread *thread,
				      struct kb_death *death)
	__must_hold(&thread->proc->inner_lock)
{
	struct kb_proc *proc = thread->proc;

	lockdep_assert_held(&proc->inner_lock);
	death->work.ops = &kb_death_clear_ops;
	if (kb_thread_is_looper_locked(thread)) {
		kb_enqueue_thread(thread, &death->work);
	} else {
		kb_enqueue_proc(proc, &death->work);
		kb_proc_wake(proc, NULL, false);
	}
}

/**
 * kb_death_new() - allocate a death notification request
 * @proc: the requesting process
 * @cookie: returned with BR_DEAD_BINDER
 *
 * Allocated before the caller takes @proc->refs_lock for
 * kb_death_request(), which takes it over.
 *
 * Return: the request, or NULL (out of memory).
 */
struct kb_death *kb_death_new(struct kb_proc *proc, binder_uintptr_t cookie)
{
	struct kb_death *death;

	death = kzalloc(sizeof(*death), GFP_KERNEL_ACCOUNT);
	if (!death)
		return NULL;
	kb_work_init(&death->work, &kb_death_dead_ops);
	kb_cookie_init(&death->delivered, cookie);
	death->cookie = cookie;
	death->proc = proc;
	return death;
}

/**
 * kb_death_request() - BC_REQUEST_DEATH_NOTIFICATION
 * @ref: the ref the caller looked the handle up to, or NULL if there is
 *	none (a ref of @death's process)
 * @death: the request from kb_death_new(); taken over (freed on failure)
 *
 * If the node is already dead, BR_DEAD_BINDER is queued at once. A process
 * with KB_MAX_CLEARED_NOTES cleared requests whose "clear done" it has not
 * read yet gets no new one: request/clear cycles cannot pile up memory.
 * The caller holds the process's refs_lock from the handle lookup on.
 *
 * Return: 0, -ENOSPC (too many cleared requests unread), or -EINVAL (no
 * such handle, or already requested).
 */
int kb_death_request(struct kb_ref *ref, struct kb_death *death)
	__must_hold(&death->proc->refs_lock)
{
	struct kb_proc *proc = death->proc;
	struct kb_node *node;

	lockdep_assert_held(&proc->refs_lock);
	if (!kb_proc_may_request_note(proc)) {
		kfree(death);
		return -ENOSPC;
	}
	if (!ref || ref->death) {
		kfree(death);
		return -EINVAL;
	}
	kb_stats_created(KB_OBJ_DEATH);
	node = ref->node;
	spin_lock(&node->lock);
	ref->death = death;
	if (!kb_node_owner_locked(node)) {
		spin_lock(&proc->inner_lock);
		kb_enqueue_proc(proc, &death->work);
		kb_proc_wake(proc, NULL, false);
		spin_unlock(&proc->inner_lock);
	}
	spin_unlock(&node->lock);
	return 0;
}

/**
 * kb_death_clear() - BC_CLEAR_DEATH_NOTIFICATION
 * @thread: the requesting thread
 * @ref: the ref the caller looked the handle up to, or NULL if there is
 *	none (the caller holds its process's refs_lock)
 * @cookie: must match the request
 *
 * Return: 0, or -EINVAL if there is no matching request.
 */
int kb_death_clear(struct kb_thread *thread, struct kb_ref *ref,
		   binder_uintptr_t cookie)
	__must_hold(&thread->proc->refs_lock)
{
	struct kb_proc *proc = thread->proc;
	struct kb_death *death;
	struct kb_node *node;

	lockdep_assert_held(&proc->refs_lock);
	death = ref ? ref->death : NULL;
	if (!death || death->cookie != cookie)
		return -EINVAL;
	node = ref->node;
	spin_lock(&node->lock);
	ref->death = NULL;
	spin_lock(&proc->inner_lock);
	death->cleared = true;
	atomic_inc(&proc->notes_cleared);
	if (!kb_work_queued(proc, &death->work))
		kb_death_queue_clear_done(thread, death);
	else
		death->clear_pending = true;
	spin_unlock(&proc->inner_lock);
	spin_unlock(&node->lock);
	return 0;
}

/**
 * kb_death_done() - BC_DEAD_BINDER_DONE
 * @thread: the acknowledging thread
 * @cookie: the cookie of a delivered BR_DEAD_BINDER
 *
 * The first notice delivered with this cookie is found in the process's
 * index: O(log n) under the lock, however many are delivered.
 *
 * Return: 0, or -EINVAL if no delivered notice has this cookie.
 */
int kb_death_done(struct kb_thread *thread, binder_uintptr_t cookie)
{
	struct kb_proc *proc = thread->proc;
	struct kb_cookie_node *cn;
	struct kb_death *found;

	spin_lock(&proc->inner_lock);
	cn = kb_cookie_take_locked(proc, &proc->inner.death_by_cookie, cookie);
	found = cn ? container_of(cn, struct kb_death, delivered) : NULL;
	if (found) {
		list_del_init(&found->work.entry);
		if (found->clear_pending)
			kb_death_queue_clear_done(thread, found);
	}
	spin_unlock(&proc->inner_lock);
	return found ? 0 : -EINVAL;
}

/**
 * kb_death_notify() - the node of @ref died: fire its death request
 * @ref: a ref on the node (called while walking node->inner.refs)
 */
void kb_death_notify(struct kb_ref *ref)
	__must_hold(&ref->node->lock)
{
	struct kb_death *death = ref->death;
	struct kb_proc *proc = ref->proc;

	lockdep_assert_held(&ref->node->lock);
	if (!death)
		return;
	spin_lock(&proc->inner_lock);
	if (!kb_proc_is_dead_locked(proc) &&
	    !kb_work_queued(proc, &death->work)) {
		death->work.ops = &kb_death_dead_ops;
		kb_enqueue_proc(proc, &death->work);
		kb_proc_wake(proc, NULL, false);
	}
	spin_unlock(&proc->inner_lock);
}

/**
 * kb_death_free() - free a request whose ref is going away
 * @proc: the requesting process
 * @death: the request, already detached from its ref
 */
void kb_death_free(struct kb_proc *proc, struct kb_death *death)
{
	spin_lock(&proc->inner_lock);
	kb_cookie_erase_locked(proc, &proc->inner.death_by_cookie,
			       &death->delivered);
	kb_work_dequeue(proc, &death->work);
	spin_unlock(&proc->inner_lock);
	kb_death_destroy(death);
}
