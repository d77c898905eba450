// SPDX-License-Identifier: GPL-2.0-only
/*
 * Transactions: their life (allocation, delivery to the reader, release of
 * their buffers, failure replies, freeing), their links on the threads'
 * transaction stacks, and the sender's BR_TRANSACTION_COMPLETE. Sending
 * them is in send.c.
 *
 * A synchronous call is pushed on the sender's transaction stack before
 * the receiver can see it, and on the receiving thread's stack when it is
 * read; the reply pops both. A one-way call is queued on its node: while a
 * previous one-way buffer of that node is not freed, the next waits in the
 * node's async_todo. BR_TRANSACTION_COMPLETE of a synchronous call is
 * queued without waking the sender, which reads it with the reply.
 */
#include "internal.h"

#include <linux/cred.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "alloc.h"
#include "node.h"
#include "objects.h"
#include "proc.h"
#include "queue.h"
#include "stats.h"
#include "thread.h"
#include "transaction.h"

static const struct kb_work_ops kb_transaction_ops;

/*
 * Transactions come from their own cache, SLAB_ACCOUNT: a queued call is
 * charged to the memory cgroup of the sender, which makes the receiver
 * hold it.
 *
 * Reuse (KB_REUSE_OBJECTS builds only): a thread that frees a transaction
 * on the hot path (the call it answers, the reply or one-way call it read)
 * keeps it as its spare, and so does it with its completion notices; its
 * next send takes them, zeroed, instead of two slab allocations. Only the
 * thread's own task touches its spares, so they need no lock; its exit
 * frees them. A spare stays charged to the memory cgroup that allocated it,
 * often another process's: so a one-way call, which may stay queued for
 * good, never takes one (it is charged to its sender), and a synchronous
 * call or reply that does is one per thread at most. Under KASAN or
 * kmemleak nothing is kept (kb_reuse_objects()): every freed transaction
 * is really freed, so they see every use after free and every leak of the
 * objects binder's CVEs are about.
 */
static struct kmem_cache *kb_transaction_cache;

/* ---- BR_TRANSACTION_COMPLETE ---- */

/**
 * struct kb_tcomplete - BR_TRANSACTION_COMPLETE for a sender
 * @work: queued on the sending thread
 * @spam: the one-way call was suspected of spamming the receiver
 * @pending_frozen: the one-way call was queued to a frozen process
 *	(protected by the sender process's inner_lock once queued)
 */
struct kb_tcomplete {
	struct kb_work work;
	bool spam;
	bool pending_frozen;
};

/*
 * Atomic with the dequeue: the answer is chosen from @pending_frozen and
 * the process's spam_detection, both protected by its inner_lock. Once
 * off the list the notice belongs to the reader alone.
 */
static void kb_tcomplete_take(struct kb_work *work, struct kb_thread *thread,
			      union kb_work_snap *snap)
	__must_hold(&thread->proc->inner_lock)
{
	struct kb_tcomplete *tc = container_of(work, struct kb_tcomplete, work);

	lockdep_assert_held(&thread->proc->inner_lock);
	if (tc->pending_frozen)
		snap->cmd = BR_TRANSACTION_PENDING_FROZEN;
	else if (tc->spam && kb_proc_spam_detection_locked(thread->proc))
		snap->cmd = BR_ONEWAY_SPAM_SUSPECT;
	else
		snap->cmd = BR_TRANSACTION_COMPLETE;
}

/**
 * kb_tcomplete_recycle() - a notice that is not queued, done with by the
 *	thread that sent: it may keep it for its next send
 * @thread: the sending thread, the caller's own
 * @work: the notice
 */
void kb_tcomplete_recycle(struct kb_thread *thread, struct kb_work *work)
{
	kb_thread_assert_own(thread);
	if (kb_reuse_objects() && !thread->spare_notice) {
		thread->spare_notice = work;
		kb_stats_destroyed(KB_OBJ_WORK);
		kb_stats_created(KB_OBJ_SPARE);
	} else {
		kb_tcomplete_free(work);
	}
}

/* Read by the thread that sent, in its own ioctl. */
static int kb_tcomplete_deliver(struct kb_work *work, struct kb_thread *thread,
				struct kb_wbuf *out,
				const union kb_work_snap *snap)
{
	kb_tcomplete_recycle(thread, work);
	return kb_wbuf_put_u32(out, snap->cmd);
}

static void kb_tcomplete_cancel(struct kb_work *work)
{
	kb_tcomplete_free(work);
}

static const struct kb_work_ops kb_tcomplete_ops = {
	.name = "transaction complete",
	.take = kb_tcomplete_take,
	.deliver = kb_tcomplete_deliver,
	.cancel = kb_tcomplete_cancel,
};

/*
 * Notices come from their own cache, like transactions (below), charged
 * to the sender's memory cgroup (SLAB_ACCOUNT).
 */
static struct kmem_cache *kb_tcomplete_cache;

/**
 * kb_tcomplete_cache_init() - create the cache of completion notices
 *
 * Return: 0 or -ENOMEM.
 */
static int kb_tcomplete_cache_init(void)
{
	kb_tcomplete_cache = KMEM_CACHE(kb_tcomplete, SLAB_ACCOUNT);
	return kb_tcomplete_cache ? 0 : -ENOMEM;
}

/**
 * kb_tcomplete_cache_exit() - destroy it (every notice is freed by then)
 */
static void kb_tcomplete_cache_exit(void)
{
	kmem_cache_destroy(kb_tcomplete_cache);
}

/**
 * kb_tcomplete_new() - a BR_TRANSACTION_COMPLETE notice for a sender
 * @thread: the sending thread, the caller's own (its spare is taken)
 *
 * Return: the item or NULL.
 */
struct kb_work *kb_tcomplete_new(struct kb_thread *thread)
{
	struct kb_tcomplete *tc;

	kb_thread_assert_own(thread);
	if (thread->spare_notice) {
		tc = container_of(thread->spare_notice, struct kb_tcomplete, work);
		thread->spare_notice = NULL;
		memset(tc, 0, sizeof(*tc));
		kb_stats_destroyed(KB_OBJ_SPARE);
		kb_stats_reused();
	} else {
		tc = kmem_cache_zalloc(kb_tcomplete_cache, GFP_KERNEL);
		if (!tc)
			return NULL;
	}
	kb_work_init(&tc->work, &kb_tcomplete_ops);
	kb_stats_created(KB_OBJ_WORK);
	return &tc->work;
}

/**
 * kb_tcomplete_set_spam() - answer BR_ONEWAY_SPAM_SUSPECT if the sender
 *	asked for spam detection
 * @work: a notice from kb_tcomplete_new(), not queued yet
 */
void kb_tcomplete_set_spam(struct kb_work *work)
{
	container_of(work, struct kb_tcomplete, work)->spam = true;
}

/**
 * kb_tcomplete_set_pending_frozen() - answer BR_TRANSACTION_PENDING_FROZEN
 *	(mainline 6.7): the one-way call waits in a frozen process
 * @work: a notice from kb_tcomplete_new(), queued on the sending thread
 *	that calls this
 */
void kb_tcomplete_set_pending_frozen(struct kb_work *work)
{
	container_of(work, struct kb_tcomplete, work)->pending_frozen = true;
}

/**
 * kb_tcomplete_free() - free a notice that is not queued
 * @work: the item
 */
void kb_tcomplete_free(struct kb_work *work)
{
	kmem_cache_free(kb_tcomplete_cache,
			container_of(work, struct kb_tcomplete, work));
	kb_stats_destroyed(KB_OBJ_WORK);
}

/**
 * kb_transaction_module_init() - create the caches of transactions and
 *	their completion notices
 *
 * Return: 0 or -ENOMEM.
 */
int kb_transaction_module_init(void)
{
	kb_transaction_cache = KMEM_CACHE(kb_transaction, SLAB_ACCOUNT);
	if (!kb_transaction_cache)
		return -ENOMEM;
	if (kb_tcomplete_cache_init()) {
		kmem_cache_destroy(kb_transaction_cache);
		return -ENOMEM;
	}
	return 0;
}

/**
 * kb_transaction_module_exit() - destroy the caches (every transaction and
 *	notice is freed by then)
 */
void kb_transaction_module_exit(void)
{
	kb_tcomplete_cache_exit();
	kmem_cache_destroy(kb_transaction_cache);
}

/**
 * kb_transaction_new() - a zeroed transaction, ready to be filled in
 * @thread: the sending thread, the caller's own, whose spare is taken; or
 *	NULL for a one-way call, which always comes from the slab: it may stay
 *	queued for good, and must be charged to its sender's memory cgroup,
 *	while a spare is charged to whoever allocated it first
 * @debug_id: the transaction's id
 *
 * Return: the transaction (counted in the live statistics), or NULL.
 */
struct kb_transaction *kb_transaction_new(struct kb_thread *thread,
					  int debug_id)
{
	struct kb_transaction *t;

	if (thread)
		kb_thread_assert_own(thread);
	if (thread && thread->spare_txn) {
		t = thread->spare_txn;
		thread->spare_txn = NULL;
		memset(t, 0, sizeof(*t));
		kb_stats_destroyed(KB_OBJ_SPARE);
		kb_stats_reused();
	} else {
		t = kmem_cache_zalloc(kb_transaction_cache, GFP_KERNEL);
		if (!t)
			return NULL;
	}
	kb_stats_created(KB_OBJ_TRANSACTION);
	t->debug_id = debug_id;
	kb_work_init(&t->work, &kb_transaction_ops);
	spin_lock_init(&t->lock);
	INIT_LIST_HEAD(&t->fd_fixups);
	return t;
}

/*
 * Whether @t may have a waiting sender (&kb_transaction.from): only a
 * synchronous call gets one, when it is set up. A reply's and a one-way
 * call's stays NULL, and is read without its lock.
 */
static bool kb_transaction_may_have_from(const struct kb_transaction *t)
{
	return !t->is_reply && !(t->flags & TF_ONE_WAY);
}

/* Drop what @t holds; its memory is the caller's to free or keep. */
static void kb_transaction_release(struct kb_transaction *t)
{
	struct kb_proc *to = t->to_proc;
	struct kb_thread *from = NULL;

	spin_lock(&to->inner_lock);
	if (t->buffer)
		t->buffer->transaction = NULL;
	t->buffer = NULL;
	if (t->counted)
		kb_proc_uncount_txn_locked(to);
	t->counted = false;
	spin_unlock(&to->inner_lock);

	if (kb_transaction_may_have_from(t)) {
		spin_lock(&t->lock);
		from = t->from;
		t->from = NULL;
		spin_unlock(&t->lock);
	}
	if (from)
		kb_thread_put(from);
	kb_objects_free_fd_fixups(&t->fd_fixups);
	put_pid(t->sender_tgid);
	kb_proc_put(to);
	kb_stats_destroyed(KB_OBJ_TRANSACTION);
}

/**
 * kb_transaction_free() - free a transaction
 * @t: the transaction, on no list and no thread's stack any more
 */
void kb_transaction_free(struct kb_transaction *t)
{
	kb_transaction_release(t);
	kmem_cache_free(kb_transaction_cache, t);
}

/**
 * kb_transaction_free_to() - free a transaction, or keep it for a thread's
 *	next send
 * @t: the transaction, on no list and no thread's stack any more
 * @thread: the caller's own thread
 */
void kb_transaction_free_to(struct kb_transaction *t, struct kb_thread *thread)
{
	kb_thread_assert_own(thread);
	kb_transaction_release(t);
	if (kb_reuse_objects() && !thread->spare_txn) {
		thread->spare_txn = t;
		kb_stats_created(KB_OBJ_SPARE);
	} else {
		kmem_cache_free(kb_transaction_cache, t);
	}
}

/**
 * kb_transaction_get_from() - the waiting sender of a synchronous call
 * @t: the call
 *
 * Return: the sending thread with a memory reference, or NULL if it is
 * gone (or @t is not a synchronous call).
 */
struct kb_thread *kb_transaction_get_from(struct kb_transaction *t)
{
	struct kb_thread *from;

	spin_lock(&t->lock);
	from = t->from;
	if (from)
		kb_thread_get(from);
	spin_unlock(&t->lock);
	return from;
}

/**
 * kb_transaction_sent_by_locked() - whether @from still waits for @t
 * @t: a synchronous call
 * @from: its sender as kb_transaction_get_from() read it
 *
 * The sender's exit (kb_transaction_thread_exit()) clears t->from under
 * its process's inner_lock, which the caller holds: a sender read before
 * it exited is seen gone here.
 *
 * Return: true if @from is still the sender of @t.
 */
bool kb_transaction_sent_by_locked(struct kb_transaction *t,
				   struct kb_thread *from)
	__must_hold(&from->proc->inner_lock)
{
	bool sent;

	lockdep_assert_held(&from->proc->inner_lock);
	spin_lock(&t->lock);
	sent = t->from == from;
	spin_unlock(&t->lock);
	return sent;
}

/* The buffer is about to be freed: its transaction no longer points at it. */
static void kb_transaction_detach_buffer(struct kb_proc *proc,
					 struct kb_buffer *buffer)
{
	spin_lock(&proc->inner_lock);
	if (buffer->transaction)
		buffer->transaction->buffer = NULL;
	buffer->transaction = NULL;
	spin_unlock(&proc->inner_lock);
}

/*
 * A buffer that called @node (or none) was freed: the node's next one-way
 * call is handed over (unless the buffer's send failed, @how 0), and the
 * buffer's strong count on the node goes.
 */
static void kb_transaction_buffer_freed(struct kb_proc *proc,
					struct kb_node *node, bool async,
					unsigned int how)
{
	if (node && async && how)
		kb_node_oneway_done(node, proc);
	if (node)
		kb_node_dec(node, true, false);
	kb_stats_destroyed(KB_OBJ_BUFFER);
}

/**
 * kb_transaction_release_buffer() - free a transaction buffer
 * @proc: the process owning the buffer
 * @buffer: the buffer
 * @objects: how many of its objects were translated (SIZE_MAX: all)
 * @how: KB_BUF_DELIVERED if the receiver read it (BC_FREE_BUFFER),
 *	KB_BUF_QUEUED if it was queued for the receiver (then, for a one-way
 *	call, the node's next one-way call is handed over), or 0 for a
 *	buffer of a send that failed
 *
 * Detaches it from its transaction, drops what the objects and the target
 * node held, and returns the space.
 */
void kb_transaction_release_buffer(struct kb_proc *proc,
				   struct kb_buffer *buffer, size_t objects,
				   unsigned int how)
{
	struct kb_node *node = buffer->target_node;
	bool async = buffer->async_transaction;

	kb_transaction_detach_buffer(proc, buffer);
	kb_objects_release(proc, buffer, objects, how == KB_BUF_DELIVERED);
	buffer->target_node = NULL;
	kb_alloc_free_buf(&proc->alloc, buffer);
	kb_transaction_buffer_freed(proc, node, async, how);
}

/**
 * kb_transaction_free_user_buffer() - BC_FREE_BUFFER
 * @thread: the calling thread
 * @data_ptr: the buffer's user address, as BR_TRANSACTION/BR_REPLY gave it
 *
 * A buffer without objects, as most are, is looked up, detached and freed
 * in one critical section of the area's lock; one with objects releases
 * them (which takes other processes' locks) between the lookup and the
 * free, without it.
 *
 * Return: 0, or -EINVAL if there is no such buffer or it may not be freed.
 */
int kb_transaction_free_user_buffer(struct kb_thread *thread,
				    binder_uintptr_t data_ptr)
{
	struct kb_proc *proc = thread->proc;
	struct kb_alloc *alloc = &proc->alloc;
	struct kb_node *node = NULL;
	struct kb_buffer *buffer;
	bool async = false, freed = false;

	mutex_lock(&alloc->lock);
	buffer = kb_alloc_prepare_to_free_locked(alloc, data_ptr);
	if (buffer && !buffer->offsets_size) {
		node = buffer->target_node;
		async = buffer->async_transaction;
		kb_transaction_detach_buffer(proc, buffer);
		buffer->target_node = NULL;
		/* @buffer may be merged away: not touched after this. */
		kb_alloc_free_buf_locked(alloc, buffer);
		freed = true;
	}
	mutex_unlock(&alloc->lock);
	if (!buffer)
		return -EINVAL;
	if (freed)
		kb_transaction_buffer_freed(proc, node, async,
					    KB_BUF_DELIVERED);
	else
		kb_transaction_release_buffer(proc, buffer, SIZE_MAX,
					      KB_BUF_DELIVERED);
	return 0;
}

/**
 * kb_transaction_queued_on() - whether a transaction waits on a thread's
 *	own todo list
 * @thread: the thread
 *
 * While one does, the thread may not send a synchronous call: its next
 * read would stack the queued call above its own outgoing call, and the
 * reply to that call would find the stack in the wrong order.
 *
 * Return: true if one does.
 */
bool kb_transaction_queued_on(struct kb_thread *thread)
	__must_hold(&thread->proc->inner_lock)
{
	return kb_queue_calls_pending_locked(thread);
}

/**
 * kb_transaction_unlink_locked() - take a transaction off a thread's stack
 * @thread: the thread
 * @t: the transaction
 *
 * Normally @t is the top. Wherever it is, the entry above it is linked to
 * the one below, so that @t can be freed without leaving the stack pointing
 * at it.
 *
 * Return: true if @t was on the stack.
 */
bool kb_transaction_unlink_locked(struct kb_thread *thread,
				  struct kb_transaction *t)
	__must_hold(&thread->proc->inner_lock)
{
	struct kb_transaction *top = kb_thread_stack_top_locked(thread);
	struct kb_transaction **link;

	if (!top)
		return false;
	if (top == t) {
		kb_thread_stack_set_top_locked(thread,
					       *kb_transaction_below(t, thread));
		return true;
	}
	for (link = kb_transaction_below(top, thread); *link && *link != t;
	     link = kb_transaction_below(*link, thread))
		;
	if (!*link)
		return false;
	*link = *kb_transaction_below(t, thread);
	return true;
}

/*
 * Give @cmd to the sender of @t if it is still there (checked again under
 * its process's lock). On success @t is off the sender's stack.
 */
static bool kb_transaction_answer_sender(struct kb_transaction *t, u32 cmd)
{
	struct kb_thread *from = kb_transaction_get_from(t);
	bool alive, top = true;

	if (!from)
		return false;
	spin_lock(&from->proc->inner_lock);
	alive = kb_transaction_sent_by_locked(t, from);
	if (alive) {
		top = kb_thread_stack_top_locked(from) == t;
		if (!kb_transaction_unlink_locked(from, t))
			top = true;
	}
	spin_unlock(&from->proc->inner_lock);
	if (!top)
		pr_warn_ratelimited("thread %d: failed call %d was not on top of its stack\n",
				    from->pid, t->debug_id);
	if (alive)
		kb_queue_return(from, &from->reply_error, cmd);
	kb_thread_put(from);
	return alive;
}

/**
 * kb_transaction_failed_reply() - a synchronous call cannot be answered
 * @t: the call, no longer on any todo list or receiving stack
 * @cmd: BR_DEAD_REPLY or BR_FAILED_REPLY
 *
 * The waiting sender gets @cmd. If the sender is gone too (or goes while
 * this runs), the call it was itself handling fails in turn, as upstream
 * does. Frees @t (and the walked transactions), each only once it is off
 * the sender's stack.
 */
void kb_transaction_failed_reply(struct kb_transaction *t, u32 cmd)
{
	struct kb_transaction *next;

	while (t) {
		if (kb_transaction_answer_sender(t, cmd)) {
			kb_transaction_free(t);
			return;
		}
		/* The sender exited: nothing changes its stack links any more. */
		next = t->from_parent;
		kb_transaction_free(t);
		t = next;
	}
}

/**
 * kb_transaction_thread_exit() - unwind the stack of an exiting thread
 * @thread: the thread, already marked dead
 *
 * Calls it sent will find no sender to reply to; calls it received lose
 * their receiver, and the innermost one is answered with BR_DEAD_REPLY.
 */
void kb_transaction_thread_exit(struct kb_thread *thread)
{
	struct kb_proc *proc = thread->proc;
	struct kb_transaction *t, *next, *send_reply = NULL;
	bool sent;

	spin_lock(&proc->inner_lock);
	t = kb_thread_stack_top_locked(thread);
	kb_thread_stack_set_top_locked(thread, NULL);
	if (t && t->to_thread == thread)
		send_reply = t;
	while (t) {
		if (t->to_thread == thread) {
			t->to_thread = NULL;
			if (t->buffer)
				t->buffer->transaction = NULL;
			t->buffer = NULL;
			next = t->to_parent;
		} else {
			spin_lock(&t->lock);
			sent = t->from == thread;
			next = t->from_parent;
			if (sent)
				t->from = NULL;
			spin_unlock(&t->lock);
			if (!sent) {
				pr_err("thread %d: corrupt transaction stack\n",
				       thread->pid);
				break;
			}
			/* The exiting thread's own reference is still held. */
			kb_thread_put(thread);
		}
		t = next;
	}
	spin_unlock(&proc->inner_lock);
	if (send_reply)
		kb_transaction_failed_reply(send_reply, BR_DEAD_REPLY);
	/* Nothing can take the spares any more: the thread is detached. */
	if (thread->spare_txn) {
		kmem_cache_free(kb_transaction_cache, thread->spare_txn);
		kb_stats_destroyed(KB_OBJ_SPARE);
	}
	thread->spare_txn = NULL;
	if (thread->spare_notice) {
		kmem_cache_free(kb_tcomplete_cache,
				container_of(thread->spare_notice,
					     struct kb_tcomplete, work));
		kb_stats_destroyed(KB_OBJ_SPARE);
	}
	thread->spare_notice = NULL;
}

/* ---- delivery ---- */

static u32 kb_transaction_sender_pid(struct kb_transaction *t)
{
	u32 pid = 0;

	if (!kb_transaction_may_have_from(t))
		return 0;
	spin_lock(&t->lock);
	if (t->from)
		pid = pid_nr_ns(t->sender_tgid, task_active_pid_ns(current));
	spin_unlock(&t->lock);
	return pid;
}

/* Run the receiving thread at the caller's priority, within the node's bound. */
static void kb_transaction_inherit_nice(struct kb_transaction *t,
					struct kb_node *node)
{
	bool oneway = t->flags & TF_ONE_WAY;

	t->saved_nice = task_nice(current);
	if (!oneway && t->nice < node->min_nice)
		kb_set_nice(t->nice);
	else if (!oneway || t->saved_nice > node->min_nice)
		kb_set_nice(node->min_nice);
}

/*
 * The reader cannot take the transaction (its descriptors cannot be
 * installed): the sender of a call gets BR_FAILED_REPLY, the reader of a
 * reply reads BR_FAILED_REPLY instead.
 */
static int kb_transaction_undeliverable(struct kb_transaction *t, u32 cmd,
					struct kb_wbuf *out)
{
	struct kb_proc *to = t->to_proc;
	struct kb_buffer *buffer;
	bool needs_reply = cmd == BR_TRANSACTION && !(t->flags & TF_ONE_WAY);

	spin_lock(&to->inner_lock);
	buffer = t->buffer;
	spin_unlock(&to->inner_lock);
	if (buffer)
		kb_transaction_release_buffer(to, buffer, SIZE_MAX, KB_BUF_QUEUED);
	if (needs_reply)
		kb_transaction_failed_reply(t, BR_FAILED_REPLY);
	else
		kb_transaction_free(t);
	if (cmd != BR_REPLY)
		return 0;
	return kb_wbuf_put_u32(out, BR_FAILED_REPLY) ?: KB_READ_STOP;
}

/*
 * Atomic with the dequeue: whether the reader may take a synchronous call
 * depends on its transaction stack, which the lock protects (a call is
 * stacked above the thread's own outgoing call only if it is a nested call
 * sent to this thread because it waits; anything else would break the
 * order the reply unwinds in). The buffer is read under the lock that
 * protects it. Once off the list the transaction belongs to the reader.
 */
static void kb_transaction_take(struct kb_work *work, struct kb_thread *thread,
				union kb_work_snap *snap)
	__must_hold(&thread->proc->inner_lock)
{
	struct kb_transaction *t = container_of(work, struct kb_transaction,
						work);
	struct kb_transaction *top = kb_thread_stack_top_locked(thread);

	snap->call.buffer = t->buffer;
	snap->call.refuse = !t->is_reply && !(t->flags & TF_ONE_WAY) &&
			    top && top->to_thread != thread &&
			    t->to_thread != thread;
}

static int kb_transaction_deliver(struct kb_work *work,
				  struct kb_thread *thread,
				  struct kb_wbuf *out,
				  const union kb_work_snap *snap)
{
	struct kb_transaction *t = container_of(work, struct kb_transaction,
						work);
	struct kb_proc *proc = thread->proc;
	struct binder_transaction_data_secctx trs = {};
	struct binder_transaction_data *tr = &trs.transaction_data;
	struct kb_buffer *buffer = snap->call.buffer;
	bool oneway = t->flags & TF_ONE_WAY;
	u32 cmd = BR_REPLY;

	if (unlikely(snap->call.refuse)) {
		pr_warn_ratelimited("thread %d: call %d not stacked above its own call\n",
				    thread->pid, t->debug_id);
		return kb_transaction_undeliverable(t, BR_TRANSACTION, out);
	}
	if (buffer->target_node) {
		tr->target.ptr = buffer->target_node->ptr;
		tr->cookie = buffer->target_node->cookie;
		kb_transaction_inherit_nice(t, buffer->target_node);
		cmd = BR_TRANSACTION;
	}
	tr->code = t->code;
	tr->flags = t->flags;
	tr->sender_euid = from_kuid(current_user_ns(), t->sender_euid);
	tr->sender_pid = kb_transaction_sender_pid(t);
	tr->data_size = buffer->data_size;
	tr->offsets_size = buffer->offsets_size;
	tr->data.ptr.buffer = buffer->user_data;
	tr->data.ptr.offsets = buffer->user_data +
			      ALIGN(buffer->data_size, sizeof(u64));

	if (kb_objects_install_fds(proc, buffer, &t->fd_fixups))
		return kb_transaction_undeliverable(t, cmd, out);
	if (t->security_ctx) {
		cmd = BR_TRANSACTION_SEC_CTX;
		trs.secctx = t->security_ctx;
	}
	/* Constant sizes: no hardened usercopy check (see kb_wbuf_put()). */
	if (kb_wbuf_put_u32(out, cmd) ||
	    (t->security_ctx ? kb_wbuf_put(out, &trs, sizeof(trs)) :
	     kb_wbuf_put(out, tr, sizeof(*tr)))) {
		t->work.ops->cancel(&t->work);
		return -EFAULT;
	}

	kb_alloc_allow_user_free(buffer);

	if (cmd != BR_REPLY && !oneway) {
		spin_lock(&proc->inner_lock);
		t->to_thread = thread;
		kb_transaction_push_incoming_locked(thread, t);
		spin_unlock(&proc->inner_lock);
	} else {
		kb_transaction_free_to(t, thread);
	}
	return KB_READ_STOP;
}

/**
 * kb_transaction_from_work() - the transaction a work item is
 * @work: a queued item
 *
 * Return: the transaction, or NULL if @work is another kind of work.
 */
struct kb_transaction *kb_transaction_from_work(struct kb_work *work)
{
	if (work->ops != &kb_transaction_ops)
		return NULL;
	return container_of(work, struct kb_transaction, work);
}

/**
 * kb_transaction_discard() - drop a one-way call replaced by a newer one
 * (TF_UPDATE_TXN); it was never read
 * @t: the call, taken off its queue
 */
void kb_transaction_discard(struct kb_transaction *t)
{
	struct kb_proc *to = t->to_proc;
	struct kb_buffer *buffer;

	spin_lock(&to->inner_lock);
	buffer = t->buffer;
	spin_unlock(&to->inner_lock);
	if (buffer)
		kb_transaction_release_buffer(to, buffer, SIZE_MAX, 0);
	kb_transaction_free(t);
}

/*
 * TF_UPDATE_TXN: a newer one-way call supersedes a waiting one with the
 * same code, the same flags and the same sending process, to the same
 * process (as upstream since 5.19). Both are one-way calls to one node.
 */
static bool kb_transaction_outdated_by(const struct kb_work *work,
				       const struct kb_work *newer)
{
	const struct kb_transaction *old, *t;

	if (newer->ops != &kb_transaction_ops)
		return false;
	old = container_of(work, struct kb_transaction, work);
	t = container_of(newer, struct kb_transaction, work);
	return old->code == t->code && old->flags == t->flags &&
	       old->sender_tgid == t->sender_tgid && old->to_proc == t->to_proc;
}

/* The receiver went away before reading the call. */
static void kb_transaction_cancel(struct kb_work *work)
{
	struct kb_transaction *t = container_of(work, struct kb_transaction,
						work);
	struct kb_proc *to = t->to_proc;
	struct kb_buffer *buffer;
	bool needs_reply = !t->is_reply && !(t->flags & TF_ONE_WAY);

	spin_lock(&to->inner_lock);
	buffer = t->buffer;
	spin_unlock(&to->inner_lock);
	if (buffer)
		kb_transaction_release_buffer(to, buffer, SIZE_MAX, KB_BUF_QUEUED);
	if (needs_reply)
		kb_transaction_failed_reply(t, BR_DEAD_REPLY);
	else
		kb_transaction_free(t);
}

static const struct kb_work_ops kb_transaction_ops = {
	.name = "transaction",
	.take = kb_transaction_take,
	.deliver = kb_transaction_deliver,
	.cancel = kb_transaction_cancel,
	.outdated_by = kb_transaction_outdated_by,
	.needs_area = true,
};
