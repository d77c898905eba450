/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Threads: the per-thread state of a process (looper state, todo list,
 * transaction stack).
 */
#ifndef _KB_THREAD_H
#define _KB_THREAD_H

#include <linux/list.h>
#include <linux/pid.h>
#include <linux/rbtree.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/wait.h>

#include "internal.h"
#include "proc.h"
#include "work.h"

struct kb_proc;
struct kb_transaction;

/* Looper state bits (kb_thread_inner.looper) */
#define KB_LOOPER_REGISTERED	BIT(0)	/* BC_REGISTER_LOOPER */
#define KB_LOOPER_ENTERED	BIT(1)	/* BC_ENTER_LOOPER */
#define KB_LOOPER_EXITED	BIT(2)	/* BC_EXIT_LOOPER */
#define KB_LOOPER_INVALID	BIT(3)	/* inconsistent looper commands */
#define KB_LOOPER_WAITING	BIT(4)	/* inside a read's wait for work */
#define KB_LOOPER_POLL		BIT(5)	/* used poll(): wait queue may be in an epoll set */

/**
 * struct kb_return_work - a BR_ code reported to one thread
 * @work: queued on the thread's todo list
 * @cmd: the code (BR_OK when not pending) (protected by the inner_lock
 *	of the thread's process)
 */
struct kb_return_work {
	struct kb_work work;
	u32 cmd;
};

/**
 * struct kb_thread_inner - thread state protected by the process inner_lock
 * @todo: work for this thread only
 * @calls: calls and replies (&kb_work_ops.needs_area) on @todo, or set
 *	aside from it by a discard that has not cancelled them yet: while
 *	there are, the thread may not send a synchronous call
 *	(kb_transaction_queued_on()); counted, as @todo is as long as the
 *	unread completions of one-way calls make it (not kept up once the
 *	thread is released: nothing reads it then)
 * @process_todo: @todo holds work that should wake the thread (deferred
 *	transaction-complete notices do not)
 * @complete: a BR_TRANSACTION_COMPLETE is pending without a work item,
 *	read before everything on @todo (kb_queue_complete_locked())
 * @aside: discards that have @todo's items set aside
 *	(kb_queue_discard_thread()); none may become @complete meanwhile
 * @need_return: the next read returns even without work
 * @looper: KB_LOOPER_* bits
 * @sleeper: the task inside this thread's wait for work in a read, set
 *	while KB_LOOPER_WAITING is (no reference held: it is in the read; a
 *	waker that chose it takes one under the lock). Not a task kept from
 *	the state's creation: an exec by another thread of the process gives
 *	that thread the leader's pid, and with it the leader's state.
 * @transaction_stack: the innermost transaction this thread sends or
 *	handles; the older ones follow via from_parent/to_parent
 * @is_dead: the thread exited; nothing is queued to it any more
 * @ee: the outcome of the thread's last transaction, for
 *	BINDER_GET_EXTENDED_ERROR (read and written only by the thread
 *	itself, without the lock)
 */
struct kb_thread_inner {
	struct list_head todo;
	u32 calls;
	bool process_todo;
	bool complete;
	u8 aside;
	bool need_return;
	u32 looper;
	struct task_struct *sleeper;
	struct kb_transaction *transaction_stack;
	bool is_dead;
	struct binder_extended_error ee;
};

/**
 * struct kb_thread - one thread of a process that uses the binder file
 * @proc: the process (constant; the thread holds a memory reference)
 * @pid: the thread id in the initial pid namespace (constant; the key in
 *	the process's tree, and the id in the kernel log)
 * @tid: the thread's struct pid (a reference held; constant): which task
 *	this is, even after its number went to another one; its task is
 *	gone once pid_task() finds none
 * @mem: keeps the memory alive; freed after an RCU grace period
 * @rb: in the process's threads tree (protected by proc->inner_lock)
 * @waiting_entry: in the process's waiting_threads list while idle and
 *	willing to take process work (protected by proc->inner_lock)
 * @wait: what poll() watches (a read sleeps without a wait queue: its
 *	waker wakes &kb_thread_inner.sleeper, queue.c)
 * @inner: see &struct kb_thread_inner (protected by proc->inner_lock)
 * @return_error: the result of this thread's own failed transaction (set
 *	and cleared under proc->inner_lock, by this thread only, which may
 *	therefore read it without the lock)
 * @reply_error: a dead or failed reply for the call this thread waits on
 * @spare_txn: a transaction this thread freed, kept for its next send, and
 * @spare_notice: the same for a completion notice (transaction.c; only
 *	with KB_REUSE_OBJECTS). Both are touched only by the thread's own
 *	task in its ioctls, and emptied when the thread exits.
 * @rcu: for the RCU-delayed free (poll users may still see @wait)
 */
struct kb_thread {
	struct kb_proc *proc;
	pid_t pid;
	struct pid *tid;
	refcount_t mem;
	struct rb_node rb;
	struct list_head waiting_entry;
	wait_queue_head_t wait;
	struct kb_thread_inner inner;
	struct kb_return_work return_error;
	struct kb_return_work reply_error;
	struct kb_transaction *spare_txn;
	struct kb_work *spare_notice;
	struct rcu_head rcu;
};

/**
 * struct kb_thread_lookup - what finding the calling thread's state found
 * @gone: the state of an exited thread whose pid number the caller has
 *	now, with a reference: nothing was returned, the caller releases
 *	it (the file layer's thread exit) and looks again
 * @created: the returned state is new (the caller may reap the states
 *	of threads that are gone, kb_thread_next_gone())
 */
struct kb_thread_lookup {
	struct kb_thread *gone;
	bool created;
};

/* States of gone threads looked at, and reaped, per new thread state. */
#define KB_THREAD_REAP_SCAN 4
#define KB_THREAD_REAP 2

struct kb_thread *kb_thread_get_current(struct kb_proc *proc,
					struct kb_thread_lookup *l);
struct kb_thread *kb_thread_current(struct kb_proc *proc,
				    struct kb_thread_lookup *l);
struct kb_thread *kb_thread_next_gone(struct kb_proc *proc);
bool kb_thread_task_alive(struct kb_thread *thread);
void kb_thread_free(struct kb_thread *thread);

/**
 * kb_thread_assert_own() - @thread is the calling task's own state
 * @thread: the thread
 *
 * Its spares (&struct kb_thread) rely on it; checked on lockdep kernels.
 */
static inline void kb_thread_assert_own(const struct kb_thread *thread)
{
	if (IS_ENABLED(CONFIG_PROVE_LOCKING))
		WARN_ON_ONCE(thread->tid != task_pid(current));
}

/* Inline for the same reason as kb_proc_get(): on every transaction. */

/**
 * kb_thread_get() - take a memory reference on a thread
 * @thread: the thread
 */
static inline void kb_thread_get(struct kb_thread *thread)
{
	refcount_inc(&thread->mem);
}

/**
 * kb_thread_put() - drop a memory reference; the last one frees it
 * @thread: the thread
 *
 * The free is RCU-delayed: an epoll set may still look at the wait queue
 * until a grace period after wake_up_pollfree().
 */
static inline void kb_thread_put(struct kb_thread *thread)
{
	if (refcount_dec_and_test(&thread->mem))
		kb_thread_free(thread);
}

/**
 * kb_thread_tid_nr() - a thread's id as a pid namespace numbers it
 * @thread: the thread
 * @ns: the namespace
 *
 * Return: the id, or 0 if @ns cannot see the thread or its task is gone
 * (the number may name another task by now).
 */
static inline pid_t kb_thread_tid_nr(struct kb_thread *thread,
				     struct pid_namespace *ns)
{
	pid_t nr = 0;

	rcu_read_lock();
	if (pid_task(thread->tid, PIDTYPE_PID))
		nr = pid_nr_ns(thread->tid, ns);
	rcu_read_unlock();
	return nr;
}

bool kb_thread_detach(struct kb_thread *thread, bool *polled);
void kb_thread_release(struct kb_thread *thread, bool polled);
struct kb_thread *kb_thread_next(struct kb_proc *proc, pid_t after);

void kb_return_work_init(struct kb_return_work *rw);

void kb_thread_register_looper(struct kb_thread *thread);
void kb_thread_enter_looper(struct kb_thread *thread);
void kb_thread_exit_looper(struct kb_thread *thread);
void kb_set_nice(long nice);
void kb_thread_set_error(struct kb_thread *thread, u32 id, u32 command,
			 s32 param);
struct binder_extended_error kb_thread_take_error(struct kb_thread *thread);

/*
 * The thread's own helpers for its @inner state: other files read and
 * change it only through these, with the process's inner_lock held.
 * Inline: most run on every transaction, inside critical sections that
 * must stay as they are.
 *
 * The transaction stack: the thread holds its top; each transaction links
 * to the next older one of its sender and of its receiver, links that are
 * the transaction's (transaction.h pushes and pops).
 */

/**
 * kb_thread_is_dead_locked() - whether a thread exited
 * @thread: the thread
 *
 * Return: true once nothing may be queued to it any more.
 */
static inline bool kb_thread_is_dead_locked(struct kb_thread *thread)
	__must_hold(&thread->proc->inner_lock)
{
	lockdep_assert_held(&thread->proc->inner_lock);
	return thread->inner.is_dead;
}

/**
 * kb_thread_is_looper_locked() - whether a thread is a looper
 * @thread: the thread
 *
 * Return: true after BC_REGISTER_LOOPER or BC_ENTER_LOOPER.
 */
static inline bool kb_thread_is_looper_locked(struct kb_thread *thread)
	__must_hold(&thread->proc->inner_lock)
{
	lockdep_assert_held(&thread->proc->inner_lock);
	return thread->inner.looper &
	       (KB_LOOPER_REGISTERED | KB_LOOPER_ENTERED);
}

/**
 * kb_thread_stack_top_locked() - the innermost transaction of a thread
 * @thread: the thread
 *
 * Return: the top of its transaction stack, or NULL.
 */
static inline struct kb_transaction *
kb_thread_stack_top_locked(struct kb_thread *thread)
	__must_hold(&thread->proc->inner_lock)
{
	lockdep_assert_held(&thread->proc->inner_lock);
	return thread->inner.transaction_stack;
}

/**
 * kb_thread_stack_set_top_locked() - a transaction was pushed on the
 *	thread's stack, or the top popped
 * @thread: the thread
 * @t: the new top (linked to the rest by the caller), or NULL
 */
static inline void kb_thread_stack_set_top_locked(struct kb_thread *thread,
						  struct kb_transaction *t)
	__must_hold(&thread->proc->inner_lock)
{
	lockdep_assert_held(&thread->proc->inner_lock);
	thread->inner.transaction_stack = t;
}

/**
 * kb_thread_looper_locked() - a thread's looper state, to look at
 * @thread: the thread
 *
 * Return: its KB_LOOPER_* bits (the logs print them).
 */
static inline u32 kb_thread_looper_locked(struct kb_thread *thread)
	__must_hold(&thread->proc->inner_lock)
{
	lockdep_assert_held(&thread->proc->inner_lock);
	return thread->inner.looper;
}

/**
 * kb_thread_need_return_locked() - whether the thread's read must return
 *	even without work
 * @thread: the thread
 *
 * Return: true for a new thread's first read, and after a flush().
 */
static inline bool kb_thread_need_return_locked(struct kb_thread *thread)
	__must_hold(&thread->proc->inner_lock)
{
	lockdep_assert_held(&thread->proc->inner_lock);
	return thread->inner.need_return;
}

/**
 * kb_thread_ioctl_done() - the thread's ioctl ends: its next read may wait
 * @thread: the calling thread
 *
 * Only a new thread or a flush sets need_return: it is peeked at first,
 * so the common ioctl does not take the lock again.
 */
static inline void kb_thread_ioctl_done(struct kb_thread *thread)
{
	/* Set only by a new thread or a flush: a racy peek is enough. */
	if (likely(!data_race(thread->inner.need_return)))
		return;
	spin_lock(&thread->proc->inner_lock);
	thread->inner.need_return = false;
	spin_unlock(&thread->proc->inner_lock);
}

/**
 * kb_thread_complete_pending_locked() - whether a BR_TRANSACTION_COMPLETE
 *	is pending without a work item (kb_queue_complete_locked())
 * @thread: the thread
 *
 * For the logs, which print it before the todo list: it is read first.
 *
 * Return: true if one is.
 */
static inline bool kb_thread_complete_pending_locked(struct kb_thread *thread)
	__must_hold(&thread->proc->inner_lock)
{
	lockdep_assert_held(&thread->proc->inner_lock);
	return thread->inner.complete;
}

/**
 * kb_thread_todo_locked() - a thread's own todo list, to look at
 * @thread: the thread
 *
 * For the logs: only queue.c changes it.
 *
 * Return: the list.
 */
static inline const struct list_head *
kb_thread_todo_locked(struct kb_thread *thread)
	__must_hold(&thread->proc->inner_lock)
{
	lockdep_assert_held(&thread->proc->inner_lock);
	return &thread->inner.todo;
}

bool kb_proc_threads_in_call_locked(struct kb_proc *proc);

#endif /* _KB_THREAD_H */
