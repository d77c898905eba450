// SPDX-License-Identifier: GPL-2.0-only
/*
 * Threads: lookup and creation, looper state, priority, exit; a thread's
 * own return code (queue.c queues it and wakes the thread).
 */
#include "internal.h"

#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "proc.h"
#include "stats.h"
#include "thread.h"

/* ---- a BR_ code for one thread (failed transactions, dead replies) ---- */

/*
 * Atomic with the dequeue: the code is read and the item disarmed in the
 * critical section that took it off the list. Right after it, another
 * thread may re-arm it with a new code and queue it again
 * (kb_queue_return() queues it whenever it is off the list).
 */
static void kb_return_take(struct kb_work *work, struct kb_thread *thread,
			   union kb_work_snap *snap)
	__must_hold(&thread->proc->inner_lock)
{
	struct kb_return_work *rw = container_of(work, struct kb_return_work,
						 work);

	lockdep_assert_held(&thread->proc->inner_lock);
	snap->cmd = rw->cmd;
	rw->cmd = BR_OK;
}

static int kb_return_deliver(struct kb_work *work, struct kb_thread *thread,
			     struct kb_wbuf *out,
			     const union kb_work_snap *snap)
{
	return kb_wbuf_put_u32(out, snap->cmd);
}

/*
 * The item is embedded in its thread, which outlives the list: it is
 * reset in the critical section that took it off, and never the
 * canceller's.
 */
static bool kb_return_claim(struct kb_work *work)
{
	struct kb_return_work *rw = container_of(work, struct kb_return_work,
						 work);

	rw->cmd = BR_OK;
	return false;
}

static const struct kb_work_ops kb_return_ops = {
	.name = "return",
	.take = kb_return_take,
	.deliver = kb_return_deliver,
	.claim = kb_return_claim,
};

/**
 * kb_return_work_init() - prepare a thread's embedded return code
 * @rw: the item
 */
void kb_return_work_init(struct kb_return_work *rw)
{
	kb_work_init(&rw->work, &kb_return_ops);
	rw->cmd = BR_OK;
}

/* ---- lookup and creation ---- */

static struct kb_thread *kb_thread_find(struct kb_proc *proc, pid_t pid,
					struct kb_thread *insert)
	__must_hold(&proc->inner_lock)
{
	struct rb_root *root = kb_proc_threads_locked(proc);
	struct rb_node **p = &root->rb_node, *parent = NULL;
	struct kb_thread *thread;

	while (*p) {
		parent = *p;
		thread = rb_entry(parent, struct kb_thread, rb);
		if (pid < thread->pid)
			p = &parent->rb_left;
		else if (pid > thread->pid)
			p = &parent->rb_right;
		else
			return thread;
	}
	if (insert) {
		rb_link_node(&insert->rb, parent, p);
		rb_insert_color(&insert->rb, root);
	}
	return insert;
}

static struct kb_thread *kb_thread_new(struct kb_proc *proc)
{
	struct kb_thread *thread = kzalloc(sizeof(*thread), GFP_KERNEL_ACCOUNT);

	if (!thread)
		return NULL;
	thread->proc = proc;
	thread->pid = current->pid;
	thread->tid = get_pid(task_pid(current));
	refcount_set(&thread->mem, 1);
	INIT_LIST_HEAD(&thread->waiting_entry);
	init_waitqueue_head(&thread->wait);
	INIT_LIST_HEAD(&thread->inner.todo);
	/* The first read returns at once, so a new thread sees BR_NOOP. */
	thread->inner.need_return = true;
	thread->inner.ee.command = BR_OK;
	kb_return_work_init(&thread->return_error);
	kb_return_work_init(&thread->reply_error);
	return thread;
}

/* A spare that was never inserted. */
static void kb_thread_free_spare(struct kb_thread *thread)
{
	put_pid(thread->tid);
	kfree(thread);
}

/**
 * kb_thread_get_current() - find or create the calling thread's state
 * @proc: the process
 * @l: out: a state to release first, or whether the state is new
 *
 * Allocates outside the lock and inserts under it; a spare is freed. A
 * state found under the caller's pid number but made by another task (an
 * exited thread whose number was reused) is not the caller's: it is
 * handed back in @l->gone.
 *
 * Return: the thread with a memory reference for the caller, or NULL (out
 * of memory, or @l->gone set).
 */
struct kb_thread *kb_thread_get_current(struct kb_proc *proc,
					struct kb_thread_lookup *l)
{
	struct kb_thread *thread, *spare = NULL;
	struct pid *me = task_pid(current);

	l->gone = NULL;
	l->created = false;
	for (;;) {
		spin_lock(&proc->inner_lock);
		thread = kb_thread_find(proc, current->pid, spare);
		if (thread && thread->tid != me) {
			kb_thread_get(thread);
			l->gone = thread;
			thread = NULL;
			spin_unlock(&proc->inner_lock);
			break;
		}
		if (thread) {
			refcount_inc(&thread->mem);
			spin_unlock(&proc->inner_lock);
			break;
		}
		spin_unlock(&proc->inner_lock);
		spare = kb_thread_new(proc);
		if (!spare)
			return NULL;
	}
	if (spare && spare != thread) {
		kb_thread_free_spare(spare);
	} else if (spare) {
		kb_proc_get(proc);
		kb_stats_created(KB_OBJ_THREAD);
		l->created = true;
	}
	return thread;
}

/**
 * kb_thread_current() - the calling thread's state, for one ioctl
 * @proc: the process of the file the ioctl is on
 * @l: out: as for kb_thread_get_current()
 *
 * No reference is taken: during an ioctl on the file, only the thread
 * itself can release its state (BINDER_THREAD_EXIT; other threads release
 * only the states of threads that are gone; the process teardown runs
 * after the file's release, which cannot happen while an ioctl holds the
 * file). The last thread found is cached in @proc and checked without the
 * lock (its memory outlives an RCU grace period after its exit, and
 * kb_thread_detach() clears the cache first), so a process whose one
 * thread calls again and again takes neither the inner_lock nor a
 * reference per ioctl.
 *
 * Return: the thread, valid until the ioctl returns, or NULL.
 */
struct kb_thread *kb_thread_current(struct kb_proc *proc,
				    struct kb_thread_lookup *l)
{
	struct kb_thread *thread;

	rcu_read_lock();
	thread = rcu_dereference(proc->cached_thread);
	if (likely(thread && thread->tid == task_pid(current) &&
		   !READ_ONCE(thread->inner.is_dead))) {
		rcu_read_unlock();
		l->gone = NULL;
		l->created = false;
		return thread;
	}
	rcu_read_unlock();

	thread = kb_thread_get_current(proc, l);
	if (!thread)
		return NULL;
	spin_lock(&proc->inner_lock);
	if (!thread->inner.is_dead)
		rcu_assign_pointer(proc->cached_thread, thread);
	spin_unlock(&proc->inner_lock);
	/* The process's tree holds it for the rest of the ioctl. */
	kb_thread_put(thread);
	return thread;
}

/**
 * kb_thread_task_alive() - whether a thread's task still exists
 * @thread: the thread
 *
 * Return: false once the task exited and was released (its pid number
 * may belong to another task by now).
 */
bool kb_thread_task_alive(struct kb_thread *thread)
{
	bool alive;

	rcu_read_lock();
	alive = pid_task(thread->tid, PIDTYPE_PID);
	rcu_read_unlock();
	return alive;
}

/**
 * kb_thread_next_gone() - a live state whose thread is gone, to reap
 * @proc: the process
 *
 * Looks at up to KB_THREAD_REAP_SCAN states, going round the process's
 * threads from where the last call stopped (kb_proc_reap_after_locked()), so
 * that each state is looked at again after as many calls as there are
 * states. Called for each new state, this keeps the states of exited
 * threads (which made no BINDER_THREAD_EXIT) to about as many as there
 * are live ones: O(log n) per look, under the lock.
 *
 * Return: the state with a memory reference (the caller releases it:
 * the file layer's thread exit), or NULL.
 */
struct kb_thread *kb_thread_next_gone(struct kb_proc *proc)
{
	struct kb_thread *thread, *found = NULL, *cur;
	struct rb_root *threads;
	struct rb_node *n;
	pid_t after;
	int i;

	spin_lock(&proc->inner_lock);
	threads = kb_proc_threads_locked(proc);
	for (i = 0; i < KB_THREAD_REAP_SCAN && !found; i++) {
		thread = NULL;
		after = kb_proc_reap_after_locked(proc);
		for (n = threads->rb_node; n;) {
			cur = rb_entry(n, struct kb_thread, rb);
			if (cur->pid > after) {
				thread = cur;
				n = n->rb_left;
			} else {
				n = n->rb_right;
			}
		}
		if (!thread) {
			n = rb_first(threads);
			if (!n)
				break;
			thread = rb_entry(n, struct kb_thread, rb);
		}
		kb_proc_set_reap_after_locked(proc, thread->pid);
		if (!kb_thread_task_alive(thread)) {
			kb_thread_get(thread);
			found = thread;
		}
	}
	spin_unlock(&proc->inner_lock);
	return found;
}

/**
 * kb_thread_free() - free a thread whose last memory reference was dropped
 * @thread: the thread; called by kb_thread_put() only
 *
 * The free is RCU-delayed: an epoll set may still look at the wait queue
 * until a grace period after wake_up_pollfree().
 */
void kb_thread_free(struct kb_thread *thread)
{
	struct kb_proc *proc = thread->proc;

	/* Its exit emptied them (kb_transaction_thread_exit()). */
	WARN_ON_ONCE(thread->spare_txn || thread->spare_notice);
	put_pid(thread->tid);
	kfree_rcu(thread, rcu);
	kb_stats_destroyed(KB_OBJ_THREAD);
	kb_proc_put(proc);
}

/**
 * kb_thread_detach() - a thread exits: take it off its process
 * @thread: the thread (BINDER_THREAD_EXIT or the process teardown)
 * @polled: set to whether poll() was used on it, for kb_thread_release()
 *
 * Marks it dead (nothing is queued to it any more) and removes it from
 * the process's tree, its waiting list and the ioctl cache. The caller
 * then unwinds its transaction stack and calls kb_thread_release().
 *
 * Return: false if it was detached already (nothing more to do).
 */
bool kb_thread_detach(struct kb_thread *thread, bool *polled)
{
	struct kb_proc *proc = thread->proc;

	spin_lock(&proc->inner_lock);
	if (thread->inner.is_dead) {
		spin_unlock(&proc->inner_lock);
		return false;
	}
	thread->inner.is_dead = true;
	/* Nothing reads it any more (its item, if any, was freed at commit). */
	thread->inner.complete = false;
	if (rcu_access_pointer(proc->cached_thread) == thread)
		RCU_INIT_POINTER(proc->cached_thread, NULL);
	rb_erase(&thread->rb, kb_proc_threads_locked(proc));
	list_del_init(&thread->waiting_entry);
	*polled = thread->inner.looper & KB_LOOPER_POLL;
	spin_unlock(&proc->inner_lock);
	return true;
}

/**
 * kb_thread_release() - the last step of a thread's exit
 * @thread: the thread, detached and its transaction stack unwound; the
 *	caller keeps its own memory reference
 * @polled: what kb_thread_detach() said
 *
 * Detaches it from any epoll set, cancels its queued work and drops the
 * reference its process's tree held.
 */
void kb_thread_release(struct kb_thread *thread, bool polled)
{
	/* CVE-2019-2215: no epoll entry may outlive the wait queue. */
	if (polled)
		wake_up_pollfree(&thread->wait);
	kb_proc_cancel_list(thread->proc, &thread->inner.todo);
	kb_thread_put(thread);
}

/**
 * kb_thread_next() - walk a process's live threads by id
 * @proc: the process
 * @after: the id of the thread seen last (INT_MIN for the first)
 *
 * The tree is searched from the top each time, so the caller may drop the
 * lock between steps (to cancel work, or release the thread it got).
 *
 * Return: the first live thread of @proc whose id is above @after, with a
 * memory reference, or NULL.
 */
struct kb_thread *kb_thread_next(struct kb_proc *proc, pid_t after)
{
	struct kb_thread *thread, *found = NULL;
	struct rb_node *n;

	spin_lock(&proc->inner_lock);
	n = kb_proc_threads_locked(proc)->rb_node;
	while (n) {
		thread = rb_entry(n, struct kb_thread, rb);
		if (thread->pid > after) {
			found = thread;
			n = n->rb_left;
		} else {
			n = n->rb_right;
		}
	}
	if (found)
		kb_thread_get(found);
	spin_unlock(&proc->inner_lock);
	return found;
}

/**
 * kb_thread_register_looper() - BC_REGISTER_LOOPER: a spawned looper starts
 * @thread: the thread
 */
void kb_thread_register_looper(struct kb_thread *thread)
{
	struct kb_proc *proc = thread->proc;

	spin_lock(&proc->inner_lock);
	if ((thread->inner.looper & KB_LOOPER_ENTERED) ||
	    !kb_proc_take_spawn_request_locked(proc))
		thread->inner.looper |= KB_LOOPER_INVALID;
	thread->inner.looper |= KB_LOOPER_REGISTERED;
	spin_unlock(&proc->inner_lock);
}

/**
 * kb_thread_enter_looper() - BC_ENTER_LOOPER: a thread joins the pool
 * @thread: the thread
 */
void kb_thread_enter_looper(struct kb_thread *thread)
{
	struct kb_proc *proc = thread->proc;

	spin_lock(&proc->inner_lock);
	if (thread->inner.looper & KB_LOOPER_REGISTERED)
		thread->inner.looper |= KB_LOOPER_INVALID;
	thread->inner.looper |= KB_LOOPER_ENTERED;
	spin_unlock(&proc->inner_lock);
}

/**
 * kb_thread_exit_looper() - BC_EXIT_LOOPER
 * @thread: the thread
 */
void kb_thread_exit_looper(struct kb_thread *thread)
{
	struct kb_proc *proc = thread->proc;

	spin_lock(&proc->inner_lock);
	thread->inner.looper |= KB_LOOPER_EXITED;
	spin_unlock(&proc->inner_lock);
}

/**
 * kb_set_nice() - run the current thread at a nice level, as far as allowed
 * @nice: the wanted level
 *
 * Without the right to raise the priority that far, the thread goes as
 * high as RLIMIT_NICE permits.
 */
void kb_set_nice(long nice)
{
	long min_nice;

	/* Most calls change nothing: skip the capability check then. */
	if (task_nice(current) == nice)
		return;
	if (can_nice(current, nice)) {
		set_user_nice(current, nice);
		return;
	}
	min_nice = rlimit_to_nice(rlimit(RLIMIT_NICE));
	if (min_nice <= MAX_NICE)
		set_user_nice(current, min_nice);
}

/**
 * kb_thread_set_error() - record the outcome of a thread's transaction
 * @thread: the thread, the caller's own
 * @id: the transaction's debug id
 * @command: BR_OK, or the BR_ reply it failed with
 * @param: the errno that explains @command
 */
void kb_thread_set_error(struct kb_thread *thread, u32 id, u32 command,
			 s32 param)
{
	/* Only the thread itself reads and writes @ee: no lock needed. */
	thread->inner.ee.id = id;
	thread->inner.ee.command = command;
	thread->inner.ee.param = param;
}

/**
 * kb_thread_take_error() - BINDER_GET_EXTENDED_ERROR: read and reset
 * @thread: the thread, the caller's own
 *
 * Return: the last recorded outcome.
 */
struct binder_extended_error kb_thread_take_error(struct kb_thread *thread)
{
	struct binder_extended_error ee = thread->inner.ee;

	thread->inner.ee.id = 0;
	thread->inner.ee.command = BR_OK;
	thread->inner.ee.param = 0;
	return ee;
}

/**
 * kb_proc_threads_in_call_locked() - whether a thread of a process is in a
 *	transaction
 * @proc: the process
 *
 * For BINDER_FREEZE and BINDER_GET_FROZEN_INFO, never on the transaction
 * path.
 *
 * Return: true if any thread's transaction stack is not empty (it sent a
 * call or handles one).
 */
bool kb_proc_threads_in_call_locked(struct kb_proc *proc)
	__must_hold(&proc->inner_lock)
{
	struct kb_thread *thread;
	struct rb_node *n;

	for (n = rb_first(kb_proc_threads_locked(proc)); n; n = rb_next(n)) {
		thread = rb_entry(n, struct kb_thread, rb);
		if (thread->inner.transaction_stack)
			return true;
	}
	return false;
}
