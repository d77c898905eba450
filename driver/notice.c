// SPDX-License-Identifier: GPL-2.0-only
/*
 * Notices: the life cycle that death notifications (death.c) and freeze
 * notifications (freeze_notify.c) share. What differs is in their
 * &struct kb_notice_ops: what they deliver, when a new request fires, and
 * where a "clear done" goes.
 *
 *   request    BC_REQUEST_*_NOTIFICATION: the ref layer hangs the notice
 *              off its ref, under the node's lock (kb_notice_requested())
 *   fire       the node's owner died or was frozen or thawed: the notice
 *              is queued on the requesting process, unless it is queued
 *              or delivered already or the process is dead
 *              (kb_notice_fire())
 *   take       a reader takes it: it is marked sent and goes straight
 *              onto the process's delivered list and index
 *              (kb_notice_take())
 *   done       BC_DEAD_BINDER_DONE, BC_FREEZE_NOTIFICATION_DONE: off the
 *              delivered list; a state that changed meanwhile is sent
 *              again, a request cleared meanwhile answers its "clear done"
 *              (kb_notice_done())
 *   clear      BC_CLEAR_*_NOTIFICATION: the ref lets go of it; its "clear
 *              done" is queued at once, or after the DONE if it is out
 *              (kb_notice_clear())
 *   free       its ref goes away (kb_notice_free()); a cleared one, which
 *              no ref holds, once its "clear done" is read or the process
 *              is torn down (kb_notice_claim() says which notices a
 *              teardown may free)
 *
 * Locks: a notice's state is protected by the requesting process's
 * inner_lock; the ref's pointer to it by the ref's process's refs_lock and
 * the node's lock (either is enough to read it). Firing and clearing take
 * the inner_lock under the node's lock.
 */
#include "internal.h"

#include <linux/slab.h>

#include "notice.h"
#include "proc.h"
#include "queue.h"
#include "stats.h"
#include "thread.h"

/**
 * kb_notice_new() - allocate a notification request
 * @ops: its kind
 * @proc: the requesting process
 * @cookie: returned with the notice
 *
 * Allocated before the caller takes @proc->refs_lock to hang it off a
 * ref, which takes it over.
 *
 * Return: the request, or NULL (out of memory).
 */
struct kb_notice *kb_notice_new(const struct kb_notice_ops *ops,
				struct kb_proc *proc, binder_uintptr_t cookie)
{
	struct kb_notice *n;

	n = kzalloc(sizeof(*n), GFP_KERNEL_ACCOUNT);
	if (!n)
		return NULL;
	kb_work_init(&n->work, &ops->notice);
	kb_delivered_init(&n->delivered, ops->kind, cookie);
	n->ops = ops;
	n->proc = proc;
	return n;
}

/**
 * kb_notice_discard() - free a request that was never hung off a ref
 * @n: the request from kb_notice_new()
 */
void kb_notice_discard(struct kb_notice *n)
{
	kfree(n);
}

/**
 * kb_notice_destroy() - free a request that nothing holds any more
 * @n: the request, on no list
 */
void kb_notice_destroy(struct kb_notice *n)
{
	enum kb_obj stats = n->ops->stats;

	if (n->cleared)
		atomic_dec(&n->proc->notes_cleared);
	kfree(n);
	kb_stats_destroyed(stats);
}

/*
 * Queue @n (as it is: a notice or a "clear done") for any looper of its
 * process. Returns false if the process is dead: nothing is queued to it
 * any more, and a cleared notice that is not queued belongs to nobody
 * (the caller frees it).
 */
static bool kb_notice_queue_locked(struct kb_notice *n, struct kb_wake *wake)
	__must_hold(&n->proc->inner_lock)
{
	struct kb_proc *proc = n->proc;

	lockdep_assert_held(&proc->inner_lock);
	if (kb_proc_is_dead_locked(proc))
		return false;
	kb_queue_proc_locked(proc, &n->work, wake);
	return true;
}

/*
 * Turn @n into its "clear done" and queue it; @thread is the thread that
 * cleared it or acknowledged it. Returns false if it belongs to nobody
 * (see kb_notice_queue_locked()).
 */
static bool kb_notice_queue_clear_locked(struct kb_notice *n,
					 struct kb_thread *thread,
					 struct kb_wake *wake)
	__must_hold(&n->proc->inner_lock)
{
	struct kb_proc *proc = n->proc;

	lockdep_assert_held(&proc->inner_lock);
	n->work.ops = &n->ops->clear_done;
	if (!n->ops->clear_done_to_caller)
		return kb_notice_queue_locked(n, wake);
	/* The caller's own thread, which reads before it sleeps. */
	if (kb_thread_is_looper_locked(thread))
		kb_queue_thread_locked(thread, &n->work, NULL);
	else
		kb_queue_proc_locked(proc, &n->work, wake);
	return true;
}

/**
 * kb_notice_requested() - a request now hangs off its ref
 * @n: the request, taken over by the ref
 * @owner: the owner of the ref's node, or NULL once it died
 *
 * Called under the node's lock, so that the node's owner cannot die
 * unseen: either it is gone here, or its death walk finds the request.
 */
void kb_notice_requested(struct kb_notice *n, struct kb_proc *owner)
{
	kb_stats_created(n->ops->stats);
	n->ops->requested(n, owner);
}

/**
 * kb_notice_queue() - queue a notice on its process, dead or not
 * @n: a request that has just been hung off its ref (death: the node's
 *	owner is gone already)
 */
void kb_notice_queue(struct kb_notice *n)
{
	struct kb_proc *proc = n->proc;
	struct kb_wake wake = {};

	rcu_read_lock();
	spin_lock(&proc->inner_lock);
	kb_queue_proc_locked(proc, &n->work, &wake);
	spin_unlock(&proc->inner_lock);
	kb_queue_wake(&wake);
	rcu_read_unlock();
}

/**
 * kb_notice_fire() - the node's owner changed: tell the requester
 * @n: a request hanging off its ref (called under the ref's node's lock)
 * @state: what the notice reports now
 *
 * A notice that is queued goes out with the new state; one that is
 * delivered sends it after its DONE if it differs from the one it sent.
 */
void kb_notice_fire(struct kb_notice *n, u32 state)
{
	struct kb_proc *proc = n->proc;
	struct kb_wake wake = {};

	rcu_read_lock();
	spin_lock(&proc->inner_lock);
	/* Only a clear changes a request's kind, and takes it off its ref. */
	WARN_ON_ONCE(n->work.ops != &n->ops->notice);
	n->state = state;
	if (!n->sent && !kb_work_queued(proc, &n->work))
		kb_notice_queue_locked(n, &wake);
	spin_unlock(&proc->inner_lock);
	kb_queue_wake(&wake);
	rcu_read_unlock();
}

/**
 * kb_notice_clear() - BC_CLEAR_*_NOTIFICATION: the ref let go of a request
 * @n: the request, no longer its ref's (called under the ref's node's
 *	lock)
 * @thread: the clearing thread, of the requesting process
 *
 * A request that was not delivered answers its "clear done" at once (one
 * that is queued may first be delivered, see
 * &kb_notice_ops.clear_replaces_queued); one that is delivered answers it
 * after its DONE command.
 *
 * Return: true if nothing holds @n any more: the caller frees it with
 * kb_notice_destroy() once it dropped the node's lock.
 */
bool kb_notice_clear(struct kb_notice *n, struct kb_thread *thread)
{
	struct kb_proc *proc = n->proc;
	struct kb_wake wake = {};
	bool orphan = false;

	rcu_read_lock();
	spin_lock(&proc->inner_lock);
	n->cleared = true;
	atomic_inc(&proc->notes_cleared);
	if (!n->sent) {
		if (!kb_work_queued(proc, &n->work))
			orphan = !kb_notice_queue_clear_locked(n, thread,
							       &wake);
		else if (n->ops->clear_replaces_queued)
			n->work.ops = &n->ops->clear_done;
	}
	spin_unlock(&proc->inner_lock);
	kb_queue_wake(&wake);
	rcu_read_unlock();
	return orphan;
}

/**
 * kb_notice_done() - BC_DEAD_BINDER_DONE, BC_FREEZE_NOTIFICATION_DONE
 * @thread: the acknowledging thread
 * @kind: the kind the command names
 * @cookie: the cookie of a delivered notice
 *
 * The first notice delivered with this kind and cookie is found in the
 * process's index: O(log n) under the lock, however many are delivered.
 *
 * Return: 0, or -EINVAL if no delivered notice has this cookie.
 */
int kb_notice_done(struct kb_thread *thread, enum kb_notice_kind kind,
		   binder_uintptr_t cookie)
{
	struct kb_proc *proc = thread->proc;
	struct kb_notice *n = NULL;
	struct kb_wake wake = {};
	struct kb_delivered *d;
	bool orphan = false;

	rcu_read_lock();
	spin_lock(&proc->inner_lock);
	d = kb_proc_take_delivered_locked(proc, kind, cookie);
	if (d) {
		n = container_of(d, struct kb_notice, delivered);
		kb_work_dequeue(proc, &n->work);
		n->sent = false;
		if (n->cleared)
			orphan = !kb_notice_queue_clear_locked(n, thread,
							       &wake);
		else if (n->state != n->sent_state)
			kb_notice_queue_locked(n, &wake);
	}
	spin_unlock(&proc->inner_lock);
	kb_queue_wake(&wake);
	rcu_read_unlock();
	if (orphan)
		kb_notice_destroy(n);
	return n ? 0 : -EINVAL;
}

/**
 * kb_notice_free() - free a request whose ref is going away
 * @n: the request, no longer its ref's
 */
void kb_notice_free(struct kb_notice *n)
{
	struct kb_proc *proc = n->proc;

	spin_lock(&proc->inner_lock);
	/* The other half of kb_notice_claim()'s rule: a ref frees its own. */
	if (IS_ENABLED(CONFIG_PROVE_LOCKING))
		WARN_ON_ONCE(n->cleared);
	kb_proc_forget_delivered_locked(proc, &n->delivered);
	kb_work_dequeue(proc, &n->work);
	spin_unlock(&proc->inner_lock);
	kb_notice_destroy(n);
}

/**
 * kb_notice_take() - &kb_work_ops.take of a notice
 * @work: the notice's work, just taken off a todo list
 * @thread: the reading thread (its process's inner_lock held)
 * @snap: out: the cookie and the state delivered
 *
 * Atomic with the dequeue: the notice is marked sent with the state it
 * carries and goes straight onto the delivered list (off every list for
 * a moment, a concurrent fire or clear would queue it again). What
 * deliver needs is copied here: once the lock is dropped the state may
 * change, and the DONE command or the ref going away may free the notice.
 */
void kb_notice_take(struct kb_work *work, struct kb_thread *thread,
		    union kb_work_snap *snap)
	__must_hold(&thread->proc->inner_lock)
{
	struct kb_notice *n = container_of(work, struct kb_notice, work);

	lockdep_assert_held(&thread->proc->inner_lock);
	n->sent = true;
	n->sent_state = n->state;
	kb_proc_deliver_notice_locked(thread->proc, work, &n->delivered);
	snap->notice.cookie = kb_notice_cookie(n);
	snap->notice.state = n->state;
}

/**
 * kb_notice_claim() - &kb_work_ops.claim of a notice and of its "clear
 *	done"
 * @work: the notice's work, just taken off a list of a process that is
 *	going away (its inner_lock held)
 *
 * Whose the notice is, is decided here, under the lock that its ref's
 * free takes too. A request that was not cleared belongs to its ref, and
 * the ref may go as soon as the lock is dropped (a sender's failed call
 * releasing the last count of a ref of this process, say): it only leaves
 * the index of delivered notices here, and the teardown never touches it
 * again; kb_notice_free() frees it. A cleared one belongs to the list it
 * was on: to the teardown now.
 *
 * Return: true if @work is the teardown's, to free with kb_notice_cancel().
 */
bool kb_notice_claim(struct kb_work *work)
{
	struct kb_notice *n = container_of(work, struct kb_notice, work);

	lockdep_assert_held(&n->proc->inner_lock);
	kb_proc_forget_delivered_locked(n->proc, &n->delivered);
	return n->cleared;
}

/**
 * kb_notice_cancel() - &kb_work_ops.cancel of a notice and of its "clear
 *	done"
 * @work: the work of a cleared notice that kb_notice_claim() gave to a
 *	teardown: nothing else reaches it
 */
void kb_notice_cancel(struct kb_work *work)
{
	struct kb_notice *n = container_of(work, struct kb_notice, work);

	/*
	 * The rule of kb_notice_claim(): a request its ref holds is not ours.
	 * @cleared is written once, under the lock the claim held.
	 */
	if (IS_ENABLED(CONFIG_PROVE_LOCKING))
		WARN_ON_ONCE(!n->cleared);
	kb_notice_destroy(n);
}

/**
 * kb_notice_clear_deliver() - &kb_work_ops.deliver of a "clear done"
 * @work: the notice's work
 * @thread: the reading thread
 * @out: the read buffer
 * @snap: unused: a cleared notice belongs to no ref, so once off its list
 *	it belongs to the reader alone, and its cookie is constant
 *
 * Return: 0 or -EFAULT.
 */
int kb_notice_clear_deliver(struct kb_work *work, struct kb_thread *thread,
			    struct kb_wbuf *out,
			    const union kb_work_snap *snap)
{
	struct kb_notice *n = container_of(work, struct kb_notice, work);
	binder_uintptr_t cookie = kb_notice_cookie(n);
	u32 cmd = n->ops->clear_cmd;
	int ret;

	kb_notice_destroy(n);
	ret = kb_wbuf_put_u32(out, cmd);
	return ret ? ret : kb_wbuf_put(out, &cookie, sizeof(cookie));
}
