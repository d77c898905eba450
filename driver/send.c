// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sending a transaction: BC_TRANSACTION and BC_REPLY.
 *
 * kb_transaction_send() finds the target (the node's owner for a call, the
 * waiting caller for a reply), builds the transaction, copies the payload
 * into the receiver's area and translates its objects, then commits: a
 * synchronous call is pushed on the sender's transaction stack before the
 * receiver can see it, a reply pops it, a one-way call is queued on its
 * node. Any failure undoes what was done and answers the sender with the
 * BR_ code, an extended error and (when someone listens) a netlink report.
 */
#include "internal.h"

#include <linux/cred.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "alloc.h"
#include "context.h"
#include "logs.h"
#include "netlink.h"
#include "node.h"
#include "objects.h"
#include "proc.h"
#include "queue.h"
#include "ref.h"
#include "stats.h"
#include "thread.h"
#include "transaction.h"

/**
 * struct kb_send - one BC_TRANSACTION or BC_REPLY being set up
 * @thread: the sending thread
 * @proc: its process
 * @tr: the user's transaction data
 * @reply: a BC_REPLY
 * @in_reply_to: for a reply, the call being answered (popped from the
 *	sender's stack)
 * @target_proc: the receiving process (memory reference, counted as a
 *	sender in it)
 * @target_thread: the receiving thread if it is known (memory reference)
 * @target_node: the called node, with a memory reference and a local
 *	strong count that the buffer takes over
 * @node_id: the called node's debug id, for the log
 * @t: the new transaction
 * @tcomplete: the sender's BR_TRANSACTION_COMPLETE
 * @complete_flag: it is pending as the thread's flag instead
 *	(kb_send_queue_complete_locked()), @tcomplete is not queued
 * @buffer: the payload in the receiver's area
 * @objects: the object translation state
 * @debug_id: the transaction's id (also reported as extended error id)
 * @pending_frozen: a one-way call queued to a frozen process: the sender
 *	gets BR_TRANSACTION_PENDING_FROZEN (mainline 6.7)
 * @target_known: the target was found (a netlink report names it)
 * @spam_suspect: the one-way call's buffer was flagged as spam
 * @node_held: the strong count on @target_node that the buffer takes over
 *	was taken
 * @exited: no longer counted as a sender in @target_proc (done in the
 *	critical section that queues the transaction)
 * @exit_wake: that was the last sender of a dying @target_proc
 */
struct kb_send {
	struct kb_thread *thread;
	struct kb_proc *proc;
	const struct binder_transaction_data *tr;
	bool reply;
	struct kb_transaction *in_reply_to;
	struct kb_proc *target_proc;
	struct kb_thread *target_thread;
	struct kb_node *target_node;
	int node_id;
	struct kb_transaction *t;
	struct kb_work *tcomplete;
	bool complete_flag;
	struct kb_buffer *buffer;
	struct kb_objects_ctx objects;
	int debug_id;
	bool pending_frozen;
	bool target_known;
	bool spam_suspect;
	bool node_held;
	bool exited;
	bool exit_wake;
};

/*
 * Stop counting as a sender in the target, in the critical section that
 * queued the transaction (saves a lock round trip on the target, whose
 * thread is waking up and taking that lock). Only once nothing of the send
 * touches the target's buffer area any more: a failed send frees its
 * buffer first, and exits at the end.
 */
static void kb_send_exit_locked(struct kb_send *s)
	__must_hold(&s->target_proc->inner_lock)
{
	lockdep_assert_held(&s->target_proc->inner_lock);
	s->exited = true;
	s->exit_wake = kb_proc_exit_send_locked(s->target_proc);
}

/* After kb_send_exit_locked(), with the lock dropped. */
static void kb_send_exit_wake(struct kb_send *s)
{
	if (unlikely(s->exit_wake))
		kb_proc_last_sender_gone(s->target_proc);
}

/*
 * Count in a sender; a dying process accepts none. Takes over the caller's
 * memory reference on @target (dropped on failure).
 */
static struct kb_status kb_send_set_target_proc(struct kb_send *s,
						struct kb_proc *target)
{
	if (unlikely(!kb_proc_enter_send(target))) {
		kb_proc_put(target);
		return kb_fail(BR_DEAD_REPLY, -ESRCH);
	}
	s->target_proc = target;
	return KB_OK;
}

/*
 * A reply that cannot be committed because the caller's stack top is not
 * the call it answers: the call goes back on top of the replier's stack,
 * untouched (nothing may free it while the caller's stack links it), and
 * the replier gets BR_FAILED_REPLY, as from the upstream driver.
 */
static void kb_send_unpop_reply(struct kb_send *s)
{
	struct kb_transaction *t = s->in_reply_to;
	struct kb_thread *thread = s->thread;

	spin_lock(&s->proc->inner_lock);
	kb_transaction_push_incoming_locked(thread, t);
	spin_unlock(&s->proc->inner_lock);
	s->in_reply_to = NULL;
}

static struct kb_status kb_send_find_reply_target(struct kb_send *s)
{
	struct kb_thread *thread = s->thread;
	struct kb_transaction *t;
	struct kb_thread *from;
	bool ok, live;

	spin_lock(&s->proc->inner_lock);
	t = kb_transaction_pop_incoming_locked(thread);
	spin_unlock(&s->proc->inner_lock);
	if (!t)
		return kb_fail(BR_FAILED_REPLY, -EPROTO);
	s->in_reply_to = t;
	kb_set_nice(t->saved_nice);

	from = kb_transaction_get_from(t);
	if (!from)
		return kb_fail(BR_DEAD_REPLY, -ESRCH);
	s->target_thread = from;
	/*
	 * One critical section: the caller still waits (it may have exited
	 * since it was read: a dead reply, whose failure goes on down the
	 * chain), the call is on top of its stack, and we count us in.
	 */
	spin_lock(&from->proc->inner_lock);
	live = kb_transaction_sent_by_locked(t, from);
	ok = !live || kb_thread_stack_top_locked(from) == t;
	live = live && ok && kb_proc_enter_send_locked(from->proc);
	spin_unlock(&from->proc->inner_lock);
	if (!ok) {
		/* Refused; the call stays where it is, on both stacks. */
		kb_send_unpop_reply(s);
		return kb_fail(BR_FAILED_REPLY, -EPROTO);
	}
	if (!live)
		return kb_fail(BR_DEAD_REPLY, -ESRCH);
	kb_proc_get(from->proc);
	s->target_proc = from->proc;
	if (security_binder_transaction(s->proc->cred, s->target_proc->cred))
		return kb_fail(BR_FAILED_REPLY, -EPERM);
	return KB_OK;
}

/*
 * The thread of the target that waits, further down the sender's
 * transaction stack, for the call the sender is handling: a nested call
 * goes to it. With a memory reference, or NULL. *@bad_stack: the top of the
 * stack is not a call to the sender (a protocol error).
 */
static struct kb_thread *kb_send_stack_waiter(const struct kb_send *s,
					      bool *bad_stack)
	__must_hold(&s->proc->inner_lock)
{
	struct kb_transaction *t = kb_thread_stack_top_locked(s->thread);
	struct kb_thread *found = NULL;

	lockdep_assert_held(&s->proc->inner_lock);
	*bad_stack = t && t->to_thread != s->thread;
	if (*bad_stack)
		return NULL;
	for (; t && !found; t = t->from_parent) {
		spin_lock(&t->lock);
		if (t->from && t->from->proc == s->target_proc) {
			found = t->from;
			kb_thread_get(found);
		}
		spin_unlock(&t->lock);
	}
	return found;
}

/*
 * For a nested call, the thread of the target that waits on us takes it.
 * Called in the critical section that pushes the call on our stack, which
 * is refused if the stack or the todo list is not in a state to take it.
 */
static struct kb_status kb_send_find_waiting_thread(struct kb_send *s)
	__must_hold(&s->proc->inner_lock)
{
	struct kb_thread *waiter;
	bool bad_stack;

	/*
	 * A call waits on this thread's own todo (its read buffer was too
	 * small for it, or the read was interrupted): the thread must take it
	 * before it calls out, or its next read would stack that call above
	 * its own (the upstream driver refuses this too).
	 */
	if (kb_transaction_queued_on(s->thread))
		return kb_fail(BR_FAILED_REPLY, -EPROTO);
	waiter = kb_send_stack_waiter(s, &bad_stack);
	if (bad_stack)
		return kb_fail(BR_FAILED_REPLY, -EPROTO);
	if (waiter)
		s->target_thread = waiter;
	return KB_OK;
}

/*
 * The node a call goes to, its owner as the target process, and the strong
 * count its buffer will hold, taken in one critical section of the node's
 * lock (a failed send drops the count again in kb_send_cleanup()), with a
 * memory reference that kb_transaction_send() drops last: the owner's
 * death may retire the node under a stalled send. Handle 0 is read under
 * RCU, not the device-wide mgr_lock: the context's reference on the node
 * is dropped only a grace period after it stopped pointing there.
 */
static struct kb_status kb_send_find_call_target(struct kb_send *s)
{
	struct kb_node *node = NULL;
	struct kb_proc *owner;
	struct kb_status st;
	int ret;

	if (s->tr->target.handle == 0) {
		rcu_read_lock();
		node = rcu_dereference(s->proc->ctx->mgr_node);
		ret = -ENOENT;
		if (node) {
			s->node_id = node->debug_id;
			ret = kb_node_hold_for_call(node, s->proc, &owner);
		}
		rcu_read_unlock();
		if (ret == -ENOENT)
			return kb_fail(BR_DEAD_REPLY, -EINVAL);
	} else {
		ret = kb_ref_hold_node_for_call(s->proc, s->tr->target.handle,
						&node, &s->node_id, &owner);
		if (ret == -ENOENT)
			return kb_fail(BR_FAILED_REPLY, -EINVAL);
	}
	if (ret == -ESRCH)
		return kb_fail(BR_DEAD_REPLY, -ESRCH);
	if (ret)
		return kb_fail(BR_FAILED_REPLY, -EINVAL);
	s->target_node = node;
	s->node_held = true;
	st = kb_send_set_target_proc(s, owner);
	if (!kb_ok(st))
		return st;
	if (security_binder_transaction(s->proc->cred, s->target_proc->cred))
		return kb_fail(BR_FAILED_REPLY, -EPERM);
	return KB_OK;
}

static struct kb_status kb_send_prepare(struct kb_send *s, u64 extra)
{
	const struct binder_transaction_data *tr = s->tr;
	struct kb_transaction *t;
	bool oneway = !s->reply && (tr->flags & TF_ONE_WAY);

	if (!IS_ALIGNED(tr->offsets_size, sizeof(binder_size_t)) ||
	    !IS_ALIGNED(extra, sizeof(u64)))
		return kb_fail(BR_FAILED_REPLY, -EINVAL);
	s->tcomplete = kb_tcomplete_new(s->thread);
	if (unlikely(!s->tcomplete))
		return kb_fail(BR_FAILED_REPLY, -ENOMEM);
	t = kb_transaction_new(oneway ? NULL : s->thread, s->debug_id);
	if (unlikely(!t))
		return kb_fail(BR_FAILED_REPLY, -ENOMEM);
	if (!s->reply && !oneway) {
		kb_thread_get(s->thread);
		t->from = s->thread;
	}
	kb_proc_get(s->target_proc);
	t->to_proc = s->target_proc;
	/* A reply's receiver; a call's is found when it is committed. */
	t->to_thread = s->target_thread;
	/* The binder process is the file's opener, as upstream reports it. */
	t->sender_tgid = get_pid(task_tgid(s->proc->tsk));
	t->sender_euid = task_euid(s->proc->tsk);
	t->code = tr->code;
	t->flags = tr->flags;
	t->nice = task_nice(current);
	t->is_reply = s->reply;
	s->t = t;
	return KB_OK;
}

/*
 * A node that asked for FLAT_BINDER_FLAG_TXN_SECURITY_CTX gets the sender's
 * LSM context, copied at the end of the extra buffers area.
 */
static struct kb_status kb_send_get_secctx(struct kb_send *s, u64 *extra,
					   char **secctx, u32 *secctx_sz)
{
	u32 secid;
	u64 added;
	int ret;

	if (s->reply || !s->target_node->txn_security_ctx)
		return KB_OK;
	security_cred_getsecid(s->proc->cred, &secid);
	ret = security_secid_to_secctx(secid, secctx, secctx_sz);
	if (ret)
		return kb_fail(BR_FAILED_REPLY, ret);
	added = ALIGN((u64)*secctx_sz, sizeof(u64));
	if (*extra + added < added) {
		security_release_secctx(*secctx, *secctx_sz);
		*secctx = NULL;
		return kb_fail(BR_FAILED_REPLY, -EINVAL);
	}
	*extra += added;
	s->objects.sg_reserved = added;
	return KB_OK;
}

static void kb_send_put_secctx(struct kb_send *s, char *secctx, u32 secctx_sz)
{
	struct kb_buffer *buffer = s->buffer;
	size_t off = ALIGN(buffer->data_size, sizeof(u64)) +
		     ALIGN(buffer->offsets_size, sizeof(u64)) +
		     buffer->extra_buffers_size - s->objects.sg_reserved;

	if (!kb_alloc_copy_to_buffer(&s->target_proc->alloc, buffer, off,
				     secctx, secctx_sz))
		s->t->security_ctx = buffer->user_data + off;
}

static struct kb_status kb_send_copy_payload(struct kb_send *s, u64 extra)
{
	const struct binder_transaction_data *tr = s->tr;
	struct kb_alloc *alloc = &s->target_proc->alloc;
	bool oneway = !s->reply && (tr->flags & TF_ONE_WAY);
	struct kb_buffer *buffer;
	char *secctx = NULL;
	u32 secctx_sz = 0;
	struct kb_status st;

	st = kb_send_get_secctx(s, &extra, &secctx, &secctx_sz);
	if (!kb_ok(st))
		return st;
	buffer = kb_alloc_new_buf(alloc, tr->data_size, tr->offsets_size,
				  extra, oneway, current->tgid);
	if (IS_ERR(buffer)) {
		if (secctx)
			security_release_secctx(secctx, secctx_sz);
		return kb_fail(PTR_ERR(buffer) == -ESRCH ? BR_DEAD_REPLY :
			       BR_FAILED_REPLY, PTR_ERR(buffer));
	}
	kb_stats_created(KB_OBJ_BUFFER);
	s->buffer = buffer;
	if (secctx) {
		kb_send_put_secctx(s, secctx, secctx_sz);
		security_release_secctx(secctx, secctx_sz);
	}
	/* A new buffer is not cleared on free, and only one-way is spam. */
	if (unlikely((tr->flags & TF_CLEAR_BUF) || oneway)) {
		mutex_lock(&alloc->lock);
		buffer->clear_on_free = !!(tr->flags & TF_CLEAR_BUF);
		if (buffer->oneway_spam_suspect) {
			kb_tcomplete_set_spam(s->tcomplete);
			s->spam_suspect = true;
		}
		mutex_unlock(&alloc->lock);
	}
	buffer->transaction = s->t;
	s->t->buffer = buffer;
	if (!s->reply) {
		/* The count taken in kb_send_find_call_target() moves here. */
		buffer->target_node = s->target_node;
	}

	if (kb_alloc_copy_user_to_buffer(alloc, buffer, 0,
					 u64_to_user_ptr(tr->data.ptr.buffer),
					 tr->data_size) ||
	    kb_alloc_copy_user_to_buffer(alloc, buffer,
					 ALIGN(tr->data_size, sizeof(u64)),
					 u64_to_user_ptr(tr->data.ptr.offsets),
					 tr->offsets_size))
		return kb_fail(BR_FAILED_REPLY, -EFAULT);

	s->objects.proc = s->proc;
	s->objects.thread = s->thread;
	s->objects.target = s->target_proc;
	s->objects.buffer = buffer;
	s->objects.user_data = tr->data.ptr.buffer;
	s->objects.fd_fixups = &s->t->fd_fixups;
	s->objects.accept_fds = s->reply ?
		!!(s->in_reply_to->flags & TF_ACCEPT_FDS) :
		s->target_node->accept_fds;
	return kb_objects_translate(&s->objects);
}

/*
 * Queue a call on the receiver: its thread, an idle looper, or (a one-way
 * call behind another one) the node. Under the receiver's inner_lock, and
 * for a one-way call the node's lock too. *@wake: the thread to wake once
 * the locks are dropped; *@outdated: a one-way call this one replaces
 * (TF_UPDATE_TXN), to discard then.
 */
static struct kb_status kb_send_enqueue_call_locked(struct kb_send *s,
						    struct kb_wake *wake,
						    struct kb_work **outdated)
	__must_hold(&s->target_proc->inner_lock)
{
	struct kb_transaction *t = s->t;
	struct kb_node *node = s->target_node;
	struct kb_proc *proc = s->target_proc;
	struct kb_thread *thread = s->target_thread;
	bool oneway = t->flags & TF_ONE_WAY;
	struct kb_status st;

	lockdep_assert_held(&proc->inner_lock);
	st = kb_proc_accept_call_locked(proc, oneway);
	if (kb_ok(st) && thread && kb_thread_is_dead_locked(thread))
		st = kb_fail(BR_DEAD_REPLY, -ESRCH);
	if (!kb_ok(st))
		return st;
	/* Looked for before @t joins the queue, which it would match. */
	if (oneway && (t->flags & TF_UPDATE_TXN) &&
	    kb_proc_is_frozen_locked(proc))
		*outdated = kb_node_take_outdated_locked(node, &t->work);
	if (!oneway || !kb_node_queue_oneway_locked(node, &t->work))
		kb_queue_call_locked(proc, thread, &t->work, wake);
	t->counted = true;
	kb_proc_count_txn_locked(proc);
	s->pending_frozen = oneway && kb_proc_is_frozen_locked(proc);
	/* The outdated call's buffer is freed below: still a sender then. */
	if (!*outdated)
		kb_send_exit_locked(s);
	return st;
}

/*
 * A synchronous call touches nothing of its node's state here, so only a
 * one-way call, which may join the node's queue, takes the node's lock.
 */
static struct kb_status kb_send_queue_call(struct kb_send *s)
{
	struct kb_node *node = s->target_node;
	struct kb_proc *proc = s->target_proc;
	bool oneway = s->t->flags & TF_ONE_WAY;
	struct kb_wake wake = { .sync = !oneway };
	struct kb_work *outdated = NULL;
	struct kb_status st;

	/* The woken thread's memory: see the wake rule in queue.c. */
	rcu_read_lock();
	if (oneway) {
		spin_lock(&node->lock);
		spin_lock(&proc->inner_lock);
		st = kb_send_enqueue_call_locked(s, &wake, &outdated);
		spin_unlock(&proc->inner_lock);
		spin_unlock(&node->lock);
	} else {
		spin_lock(&proc->inner_lock);
		st = kb_send_enqueue_call_locked(s, &wake, &outdated);
		spin_unlock(&proc->inner_lock);
	}
	kb_queue_wake(&wake);
	rcu_read_unlock();
	kb_send_exit_wake(s);
	if (outdated)
		kb_transaction_discard(kb_transaction_from_work(outdated));
	return st;
}

/*
 * Queue the sender's BR_TRANSACTION_COMPLETE of a synchronous call or a
 * reply: a flag on the thread when nothing else is queued to it
 * (kb_queue_complete_locked()), else its item. @now: the thread reads it
 * at once (a reply's); else with the answer.
 */
static void kb_send_queue_complete_locked(struct kb_send *s, bool now)
	__must_hold(&s->proc->inner_lock)
{
	lockdep_assert_held(&s->proc->inner_lock);
	s->complete_flag = kb_queue_complete_locked(s->thread, now);
	if (s->complete_flag)
		return;
	if (now)
		kb_queue_thread_locked(s->thread, s->tcomplete, NULL);
	else
		kb_queue_thread_quiet_locked(s->thread, s->tcomplete);
}

/* The send failed: its BR_TRANSACTION_COMPLETE is not to be read. */
static void kb_send_unqueue_complete_locked(struct kb_send *s)
	__must_hold(&s->proc->inner_lock)
{
	lockdep_assert_held(&s->proc->inner_lock);
	if (s->complete_flag)
		kb_queue_uncomplete_locked(s->thread);
	else
		kb_work_dequeue(s->proc, s->tcomplete);
}

/* The send is committed: the item is the list's, or unused (the flag). */
static void kb_send_complete_committed(struct kb_send *s)
{
	if (s->complete_flag)
		kb_tcomplete_recycle(s->thread, s->tcomplete);
	s->tcomplete = NULL;
}

static struct kb_status kb_send_commit_reply(struct kb_send *s)
{
	struct kb_thread *target = s->target_thread;
	struct kb_proc *proc = s->target_proc;
	struct kb_wake wake = { .sync = true };
	struct kb_status st = KB_OK;

	/*
	 * The replier's BR_TRANSACTION_COMPLETE goes first: once the reply is
	 * queued, the caller may answer an outer call of this thread at once,
	 * and that answer must come after it.
	 */
	spin_lock(&s->proc->inner_lock);
	kb_send_queue_complete_locked(s, true);
	spin_unlock(&s->proc->inner_lock);

	/*
	 * The caller's stack was checked before the payload copy; look again
	 * in the critical section that pops it: whatever was stacked above the
	 * call meanwhile must not be dropped.
	 */
	spin_lock(&proc->inner_lock);
	if (kb_thread_is_dead_locked(target)) {
		st = kb_fail(BR_DEAD_REPLY, -ESRCH);
	} else if (!kb_transaction_pop_call_locked(target, s->in_reply_to)) {
		st = kb_fail(BR_FAILED_REPLY, -EPROTO);
	} else {
		s->t->counted = true;
		kb_proc_count_txn_locked(proc);
		kb_queue_thread_locked(target, &s->t->work, &wake);
		kb_send_exit_locked(s);
	}
	spin_unlock(&proc->inner_lock);
	/* The target's memory is held by s->target_thread's reference. */
	kb_queue_wake(&wake);
	kb_send_exit_wake(s);
	if (!kb_ok(st)) {
		spin_lock(&s->proc->inner_lock);
		kb_send_unqueue_complete_locked(s);
		spin_unlock(&s->proc->inner_lock);
		if (st.err == -EPROTO)
			kb_send_unpop_reply(s);
		return st;
	}
	kb_send_complete_committed(s);
	kb_transaction_free_to(s->in_reply_to, s->thread);
	s->in_reply_to = NULL;
	return KB_OK;
}

static struct kb_status kb_send_commit_call(struct kb_send *s)
{
	struct kb_thread *thread = s->thread;
	struct kb_transaction *t = s->t;
	bool oneway = t->flags & TF_ONE_WAY;
	struct kb_status st;

	spin_lock(&s->proc->inner_lock);
	if (oneway) {
		kb_queue_thread_locked(thread, s->tcomplete, NULL);
	} else {
		st = kb_send_find_waiting_thread(s);
		if (!kb_ok(st)) {
			spin_unlock(&s->proc->inner_lock);
			return st;
		}
		t->to_thread = s->target_thread;
		kb_transaction_push_call_locked(thread, t);
		kb_send_queue_complete_locked(s, false);
	}
	spin_unlock(&s->proc->inner_lock);

	st = kb_send_queue_call(s);
	if (kb_ok(st)) {
		if (s->pending_frozen) {
			spin_lock(&s->proc->inner_lock);
			kb_tcomplete_set_pending_frozen(s->tcomplete);
			spin_unlock(&s->proc->inner_lock);
		}
		kb_send_complete_committed(s);
		return st;
	}
	spin_lock(&s->proc->inner_lock);
	kb_send_unqueue_complete_locked(s);
	/* Off the stack before kb_send_cleanup() frees it, wherever it is. */
	if (!oneway)
		kb_transaction_unlink_locked(thread, t);
	spin_unlock(&s->proc->inner_lock);
	return st;
}

/* Undo whatever a failed send had set up. */
static void kb_send_cleanup(struct kb_send *s)
{
	if (s->buffer) {
		kb_transaction_release_buffer(s->target_proc, s->buffer,
					      s->objects.done, 0);
	} else if (s->node_held) {
		kb_node_dec(s->target_node, true, false);
	}
	if (s->t) {
		s->t->to_thread = NULL;
		kb_transaction_free(s->t);
	}
	if (s->tcomplete)
		kb_tcomplete_free(s->tcomplete);
}

/*
 * For a report: the target's thread that waits on the sender of a nested
 * synchronous call, even if the send failed before it was looked up
 * (mainline names it then too). With a memory reference, or NULL.
 */
static struct kb_thread *kb_send_report_waiter(const struct kb_send *s)
{
	struct kb_thread *found;
	bool bad_stack;

	if (s->reply || (s->tr->flags & TF_ONE_WAY))
		return NULL;
	spin_lock(&s->proc->inner_lock);
	found = kb_send_stack_waiter(s, &bad_stack);
	spin_unlock(&s->proc->inner_lock);
	return found;
}

/*
 * A netlink report about this send (mainline 6.18), from what the sender
 * gave and the target it resolved; never from s->t, which the receiver may
 * already own. The target is numbered as the sender's pid namespace
 * numbers it (0: not visible there).
 */
static void kb_send_report(const struct kb_send *s, u32 error)
{
	struct pid_namespace *ns = task_active_pid_ns(current);
	struct kb_thread *to_thread, *waiter = NULL;
	struct kb_netlink_txn r = {
		.context = s->proc->ctx->name,
		.error = error,
		.is_reply = s->reply,
		.flags = s->tr->flags,
		.code = s->tr->code,
		.data_size = s->tr->data_size,
	};

	if (!kb_netlink_listening())
		return;
	if (s->target_known) {
		r.to_pid = ns == &init_pid_ns ? s->target_proc->pid :
			   task_tgid_nr_ns(s->target_proc->tsk, ns);
		to_thread = s->target_thread;
		if (!to_thread) {
			waiter = kb_send_report_waiter(s);
			to_thread = waiter;
		}
		if (to_thread)
			r.to_tid = kb_thread_tid_nr(to_thread, ns);
	}
	kb_netlink_report(&r);
	if (waiter)
		kb_thread_put(waiter);
}

/**
 * kb_transaction_send() - BC_TRANSACTION or BC_REPLY
 * @thread: the sending thread
 * @tr: the user's transaction data
 * @reply: a BC_REPLY
 * @extra_buffers_size: room for the scatter-gather buffers of its
 *	BINDER_TYPE_PTR objects (BC_TRANSACTION_SG, BC_REPLY_SG; 0 otherwise)
 *
 * Failures are reported to the sender as BR_FAILED_REPLY or BR_DEAD_REPLY;
 * a failed reply is reported to the caller waiting for it instead, and the
 * replier gets BR_TRANSACTION_COMPLETE.
 */
void kb_transaction_send(struct kb_thread *thread,
			 const struct binder_transaction_data *tr,
			 bool reply, u64 extra_buffers_size)
{
	struct kb_send s = {
		.thread = thread,
		.proc = thread->proc,
		.tr = tr,
		.reply = reply,
		.debug_id = kb_new_debug_id(),
	};
	struct kb_status st;

	kb_thread_set_error(thread, s.debug_id, BR_OK, 0);
	st = reply ? kb_send_find_reply_target(&s) :
		     kb_send_find_call_target(&s);
	s.target_known = kb_ok(st);
	if (kb_ok(st))
		st = kb_send_prepare(&s, extra_buffers_size);
	if (kb_ok(st))
		st = kb_send_copy_payload(&s, extra_buffers_size);
	if (kb_ok(st))
		st = reply ? kb_send_commit_reply(&s) : kb_send_commit_call(&s);
	if (unlikely(s.spam_suspect))
		kb_send_report(&s, BR_ONEWAY_SPAM_SUSPECT);
	if (kb_ok(st)) {
		if (unlikely(s.pending_frozen))
			kb_send_report(&s, BR_TRANSACTION_PENDING_FROZEN);
		s.t = NULL;
		s.buffer = NULL;
	} else {
		pr_debug("%d:%d transaction failed: %u, %d\n",
			 s.proc->pid, thread->pid, st.reply, st.err);
		kb_send_cleanup(&s);
		kb_send_report(&s, st.reply);
	}

	kb_logs_record(s.debug_id, thread, s.target_known ? s.target_proc : NULL,
		       s.target_thread, s.node_id, tr, reply, st);
	if (s.target_node)
		kb_node_put_mem(s.target_node);
	if (s.target_thread)
		kb_thread_put(s.target_thread);
	if (s.target_proc) {
		if (!s.exited)
			kb_proc_exit_send(s.target_proc);
		kb_proc_put(s.target_proc);
	}
	if (kb_ok(st)) {
		/* The other side runs now: the call's receiver, the caller. */
		if (reply || !(tr->flags & TF_ONE_WAY))
			kb_queue_yield();
		return;
	}
	kb_thread_set_error(thread, s.debug_id, st.reply, st.err);
	if (s.in_reply_to) {
		kb_queue_return(thread, &thread->return_error,
				BR_TRANSACTION_COMPLETE);
		kb_transaction_failed_reply(s.in_reply_to, st.reply);
	} else {
		kb_queue_return(thread, &thread->return_error, st.reply);
	}
}
