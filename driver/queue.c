// SPDX-License-Identifier: GPL-2.0-only
/*
 * Queueing work and waking the thread that must take it. This file owns
 * the todo lists (the process's and each thread's), the list of idle
 * loopers waiting for process work, and the reader's side of both: what
 * a read waits for, sleeps on and takes next.
 *
 * The one wake rule. Work is queued under the inner_lock of the process
 * that owns the list; the queueing function chooses whom to wake and
 * writes it into a &struct kb_wake (kb_queue_choose_locked()), and the
 * caller wakes with kb_queue_wake() once it dropped that lock. Woken under
 * the lock, the thread ran at once on another CPU and spun on the lock,
 * its first step. The chosen thread's memory is held across the gap by a
 * reference of the caller's or by an RCU read section that began before
 * the unlock (a thread is freed a grace period after its last put); its
 * task's by a reference the choice takes.
 *
 * A read sleeps on no wait queue: the thread marks itself waiting
 * (KB_LOOPER_WAITING) and sets its task's state under the inner_lock,
 * and its waker, which sees the mark under the same lock, wakes the task
 * itself (the call or the reply handed to the thread that waits for it,
 * without a wait queue's lock and walk on either side). thread->wait is
 * left to poll() and epoll.
 *
 * Why no wakeup is lost: before every look for work that may end in
 * sleep, a reader sets its task's state and marks itself waiting, and
 * looks, all under the inner_lock (kb_queue_sleep_locked()). A queue
 * before its look is seen by the look; a queue after it sees the mark,
 * and the wake after the unlock makes the task runnable, whether or not
 * it reached schedule() yet.
 *
 * A wake can come late: between the waker's unlock and its wake, the
 * thread may leave its read (woken by a signal, a flush or another waker)
 * and go to sleep somewhere else, which then sees a spurious wakeup. The
 * kernel's deferred wakes (wake_q: futex, rwsem, message queues) have the
 * same window, and the rule that goes with them: a sleep must loop until
 * its condition holds. One that does not is rt_sigtimedwait(), which
 * returns EINTR when woken without a signal; a wait queue would not reach
 * a reader that has left it, but its lock on both sides is what this
 * design saves (docs/design.md). Who is woken, for each waiter:
 *
 *  - a read: work on the thread's own list wakes it (process_todo);
 *    process work wakes the idle looper taken off the waiting list in the
 *    queueing critical section. Off that list, no other queue picks it; if
 *    it wakes early anyway (a signal, a flush), its read ends with
 *    kb_queue_read_end_locked(), which wakes another looper for the
 *    process work still queued;
 *  - thread->wait, poll(): with no idle looper, the threads that poll and
 *    may take process work are woken by a walk of the process's threads in
 *    a critical section of its own (it queues nothing), only for a process
 *    one of whose threads ever polled. poll() registers on the wait queue
 *    before it looks for work under the lock, so it sees the work or is
 *    woken by the walk;
 *  - a flush() sets need_return and wakes the threads waiting in a read,
 *    in one critical section (kb_queue_flush()): it queues no work;
 *  - thread->wait, a thread that ever polled: every wake chosen for the
 *    thread wakes its wait queue too, as a poll() or an epoll set may be
 *    on it;
 *  - proc->freeze_wait (BINDER_FREEZE) is woken when the last transaction
 *    counted to the process is freed (proc.h), not by queueing;
 *  - BR_SPAWN_LOOPER is asked for by a read that ends while no looper is
 *    idle (kb_queue_read_end_locked()), in the critical section that ends
 *    it: the waiting list it looks at is the one the queueing empties.
 */
#include "internal.h"

#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/wait.h>

#include "proc.h"
#include "queue.h"
#include "thread.h"

/* ---- queueing (under the inner_lock of the list's process) ---- */

/*
 * Choose @thread for the wake after the unlock: its task if it waits in a
 * read (a reference taken: the task may leave the read, and exit, before
 * the wake), its wait queue if it ever polled.
 */
static void kb_queue_choose_locked(struct kb_thread *thread,
				   struct kb_wake *wake)
	__must_hold(&thread->proc->inner_lock)
{
	lockdep_assert_held(&thread->proc->inner_lock);
	if (WARN_ON_ONCE(wake->task || wake->thread))
		return;
	if (thread->inner.looper & KB_LOOPER_WAITING) {
		wake->task = thread->inner.sleeper;
		get_task_struct(wake->task);
	}
	if (thread->inner.looper & KB_LOOPER_POLL)
		wake->thread = thread;
}

/**
 * kb_queue_thread_locked() - queue work for one thread
 * @thread: the thread
 * @work: the item, not queued
 * @wake: set to wake @thread; NULL if @thread is the caller's own, which
 *	reads before it sleeps
 */
void kb_queue_thread_locked(struct kb_thread *thread, struct kb_work *work,
			    struct kb_wake *wake)
	__must_hold(&thread->proc->inner_lock)
{
	lockdep_assert_held(&thread->proc->inner_lock);
	list_add_tail(&work->entry, &thread->inner.todo);
	thread->inner.calls += work->ops->needs_area;
	thread->inner.process_todo = true;
	if (wake)
		kb_queue_choose_locked(thread, wake);
}

/**
 * kb_queue_thread_quiet_locked() - queue work that does not wake a thread
 * @thread: the thread, the caller's own
 * @work: the item, not queued, which is no call (&kb_work_ops.needs_area)
 *
 * The BR_TRANSACTION_COMPLETE of a synchronous call: the caller reads it
 * together with the reply instead of returning twice. A node's own notice
 * moved to the thread that changed the node: it reads it in this ioctl.
 */
void kb_queue_thread_quiet_locked(struct kb_thread *thread,
				  struct kb_work *work)
	__must_hold(&thread->proc->inner_lock)
{
	lockdep_assert_held(&thread->proc->inner_lock);
	WARN_ON_ONCE(work->ops->needs_area);
	list_add_tail(&work->entry, &thread->inner.todo);
}

/* An idle looper, taken off the waiting list: the last to come is first. */
static struct kb_thread *kb_queue_pick_locked(struct kb_proc *proc)
	__must_hold(&proc->inner_lock)
{
	struct kb_thread *thread;

	lockdep_assert_held(&proc->inner_lock);
	thread = list_first_entry_or_null(&proc->inner.waiting_threads,
					  struct kb_thread, waiting_entry);
	if (thread)
		list_del_init(&thread->waiting_entry);
	return thread;
}

/**
 * kb_queue_kick_locked() - choose whom to wake for the work queued to a
 *	process
 * @proc: the process
 * @wake: if work is queued to @proc, the idle looper taken off the
 *	waiting list is chosen in it, or with none, @proc's polling threads if
 *	one of its threads ever polled; else it is left as it is
 */
void kb_queue_kick_locked(struct kb_proc *proc, struct kb_wake *wake)
	__must_hold(&proc->inner_lock)
{
	struct kb_thread *thread;

	lockdep_assert_held(&proc->inner_lock);
	if (list_empty(&proc->inner.todo))
		return;
	thread = kb_queue_pick_locked(proc);
	if (thread)
		kb_queue_choose_locked(thread, wake);
	else if (proc->inner.polled)
		wake->pollers = proc;
}

/**
 * kb_queue_proc_locked() - queue work for any looper of a process
 * @proc: the process
 * @work: the item, not queued (a call here is a one-way call the node
 *	held back; new calls go through kb_queue_call_locked())
 * @wake: set as kb_queue_kick_locked() does
 */
void kb_queue_proc_locked(struct kb_proc *proc, struct kb_work *work,
			  struct kb_wake *wake)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	list_add_tail(&work->entry, &proc->inner.todo);
	kb_queue_kick_locked(proc, wake);
}

/**
 * kb_queue_call_locked() - queue a call (or a reply) on its receiver
 * @proc: the receiving process
 * @thread: the thread that must take it (a reply, a nested call), or NULL
 * @work: the transaction's item, not queued
 * @wake: set to the thread that got it
 *
 * Without @thread the call goes straight to the todo list of an idle
 * looper, which alone is woken; with none idle, to the process's list.
 */
void kb_queue_call_locked(struct kb_proc *proc, struct kb_thread *thread,
			  struct kb_work *work, struct kb_wake *wake)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	if (!thread)
		thread = kb_queue_pick_locked(proc);
	if (thread)
		kb_queue_thread_locked(thread, work, wake);
	else
		kb_queue_proc_locked(proc, work, wake);
}

/*
 * The BR_TRANSACTION_COMPLETE of kb_queue_complete_locked(): the read
 * hands this item out, never on a list, for the thread's flag.
 */
static int kb_queue_complete_deliver(struct kb_work *work,
				     struct kb_thread *thread,
				     struct kb_wbuf *out,
				     const union kb_work_snap *snap)
{
	return kb_wbuf_put_u32(out, BR_TRANSACTION_COMPLETE);
}

static const struct kb_work_ops kb_queue_complete_ops = {
	.name = "transaction complete",
	.deliver = kb_queue_complete_deliver,
};

static struct kb_work kb_queue_complete_work = {
	.entry = LIST_HEAD_INIT(kb_queue_complete_work.entry),
	.ops = &kb_queue_complete_ops,
};

/**
 * kb_queue_complete_locked() - queue a sender's BR_TRANSACTION_COMPLETE
 *	without a work item, if it can be
 * @thread: the sending thread, the caller's own
 * @now: the thread reads it at once (a reply's); else together with the
 *	answer (a synchronous call's, which does not wake the thread)
 *
 * A thread's pending completion is read before everything on its todo
 * list, so this is done only while that list is empty (and not set aside
 * by a discard, which puts notices back in front) and no completion is
 * pending: what is queued after it comes after it, as with an item. A
 * one-way call's completion, which may change into another code, is always
 * an item.
 *
 * Return: true if it is pending now; false if the caller queues its item.
 */
bool kb_queue_complete_locked(struct kb_thread *thread, bool now)
	__must_hold(&thread->proc->inner_lock)
{
	lockdep_assert_held(&thread->proc->inner_lock);
	if (thread->inner.complete || thread->inner.aside ||
	    !list_empty(&thread->inner.todo))
		return false;
	thread->inner.complete = true;
	if (now)
		thread->inner.process_todo = true;
	return true;
}

/**
 * kb_queue_uncomplete_locked() - the send failed after
 *	kb_queue_complete_locked(): its completion is not read
 * @thread: the sending thread, the caller's own (in the same ioctl, so it
 *	has not read the completion)
 */
void kb_queue_uncomplete_locked(struct kb_thread *thread)
	__must_hold(&thread->proc->inner_lock)
{
	lockdep_assert_held(&thread->proc->inner_lock);
	WARN_ON_ONCE(!thread->inner.complete);
	thread->inner.complete = false;
}

/**
 * kb_queue_calls_pending_locked() - whether a call or reply waits on the
 *	thread's own todo list (or is set aside from it by a discard)
 * @thread: the thread
 *
 * Counted (&kb_thread_inner.calls), not looked for: the list is as long as
 * the unread completions of the thread's one-way calls. Kernels with lock
 * proving check the count against the first KB_WORK_BATCH items.
 *
 * Return: true if one does.
 */
bool kb_queue_calls_pending_locked(struct kb_thread *thread)
	__must_hold(&thread->proc->inner_lock)
{
	struct kb_work *work;
	unsigned int n = 0;

	lockdep_assert_held(&thread->proc->inner_lock);
	if (IS_ENABLED(CONFIG_PROVE_LOCKING) && !thread->inner.calls) {
		list_for_each_entry(work, &thread->inner.todo, entry) {
			WARN_ON_ONCE(work->ops->needs_area);
			if (++n == KB_WORK_BATCH)
				break;
		}
	}
	return thread->inner.calls;
}

/* ---- waking (after the lock) ---- */

/*
 * The threads of @proc that poll and may take process work: the tree is
 * walked under the lock, in a critical section that queues nothing.
 */
static void kb_queue_wake_pollers(struct kb_proc *proc)
{
	struct kb_thread *thread;
	struct rb_node *n;

	spin_lock(&proc->inner_lock);
	for (n = rb_first(kb_proc_threads_locked(proc)); n; n = rb_next(n)) {
		thread = rb_entry(n, struct kb_thread, rb);
		if ((thread->inner.looper & KB_LOOPER_POLL) &&
		    kb_queue_wants_proc_work_locked(thread))
			wake_up_interruptible(&thread->wait);
	}
	spin_unlock(&proc->inner_lock);
}

/*
 * Wake a task that sleeps in a read (kb_queue_sleep_locked()), with the
 * wait queues' own hint when the waker will soon sleep for the answer
 * (default_wake_function() is how a wait queue wakes its sleeper and
 * takes that one flag only; KB_WF_SYNC in compat.h).
 */
static void kb_queue_wake_task(struct task_struct *task, bool sync)
{
	struct wait_queue_entry entry = { .private = task };

	default_wake_function(&entry, TASK_INTERRUPTIBLE,
			      sync ? KB_WF_SYNC : 0, NULL);
}

/**
 * kb_queue_wake() - wake whom a queueing chose, once its lock is dropped
 * @wake: what one queueing set (the rule at the top of queue.c); its task
 *	reference is dropped and the task cleared, so that it cannot be
 *	dropped twice. A &struct kb_wake serves one queueing and one wake.
 */
void kb_queue_wake(struct kb_wake *wake)
{
	if (wake->task) {
		kb_queue_wake_task(wake->task, wake->sync);
		put_task_struct(wake->task);
		wake->task = NULL;
	}
	if (wake->thread) {
		if (wake->sync)
			wake_up_interruptible_sync(&wake->thread->wait);
		else
			wake_up_interruptible(&wake->thread->wait);
	} else if (wake->pollers) {
		kb_queue_wake_pollers(wake->pollers);
	}
}

/**
 * kb_queue_yield() - a synchronous call or a reply was sent: let the thread
 *	it woke run first, if the scheduler says it should
 *
 * The sender sleeps next, waiting for the answer or for its next call. If
 * the wake made the scheduler want the woken thread on this CPU now (it
 * set need_resched), the switch happens here instead of at the sender's
 * sleep: the woken thread answers while the sender is still runnable, so
 * the answer finds it awake and wakes nobody, and the sender's read finds
 * the answer without sleeping; a round trip then costs one sleep and one
 * wakeup instead of two. Where the scheduler preempts anyway (PREEMPT_RT,
 * preempt=full) this does nothing, and after a one-way call nothing
 * waits: its sender goes on sending, and the receiver reads in batches.
 * Called with no lock held and outside RCU read sections.
 */
void kb_queue_yield(void)
{
	cond_resched();
}

/* ---- queueing and waking in one call ---- */

/**
 * kb_queue_return() - report a BR_ code to a thread and wake it
 * @thread: the thread (the caller holds a memory reference)
 * @rw: its return_error or reply_error
 * @cmd: BR_FAILED_REPLY, BR_DEAD_REPLY or BR_TRANSACTION_COMPLETE
 *
 * If the thread is dead, nothing is queued. An item still queued keeps
 * its place and takes the new code.
 */
void kb_queue_return(struct kb_thread *thread, struct kb_return_work *rw,
		     u32 cmd)
{
	struct kb_proc *proc = thread->proc;
	struct kb_wake wake = {};

	spin_lock(&proc->inner_lock);
	if (!thread->inner.is_dead) {
		rw->cmd = cmd;
		if (list_empty(&rw->work.entry))
			kb_queue_thread_locked(thread, &rw->work, &wake);
		else
			kb_queue_choose_locked(thread, &wake);
	}
	spin_unlock(&proc->inner_lock);
	kb_queue_wake(&wake);
}

/**
 * kb_queue_discard_proc() - cancel the transactions queued to a process
 *	and wake a reader for the notices put back
 * @proc: the process (a reference held), whose teardown has not begun
 *	(it is serialised with this by the caller), so its todo list stays
 *
 * kb_proc_discard_todo(); a reader is woken if notices were put back, in
 * case one slept while the list was aside.
 */
void kb_queue_discard_proc(struct kb_proc *proc)
{
	struct kb_wake wake = {};

	if (!kb_proc_discard_todo(proc))
		return;
	rcu_read_lock();
	spin_lock(&proc->inner_lock);
	kb_queue_kick_locked(proc, &wake);
	spin_unlock(&proc->inner_lock);
	kb_queue_wake(&wake);
	rcu_read_unlock();
}

/**
 * kb_queue_discard_thread() - cancel the transactions queued to a thread
 * @thread: the thread; the caller holds a memory reference
 *
 * kb_proc_discard_list() on the thread's todo list. The notices it keeps
 * are put back in front of it, before anything queued meanwhile; while
 * they are aside (&kb_thread_inner.aside), a completion of the thread's
 * is queued as an item, behind them, not as the flag read before the
 * list. A thread that exited meanwhile had its list cancelled by its own
 * release while they were aside, and nobody else would cancel them (a
 * node's own notice would stay linked to a freed thread): they are
 * cancelled here. is_dead is read under the lock the exit sets it under,
 * after the put-back, so one of the two cancels sees every item (both
 * take one item per critical section). A thread that is still there is
 * told it has work again and woken: it may have read its list while it
 * was aside, found it empty and gone to sleep.
 */
void kb_queue_discard_thread(struct kb_thread *thread)
{
	struct kb_proc *proc = thread->proc;
	struct kb_wake wake = {};
	bool dead, put_back;

	/* An empty list may not be empty now: no completion without item. */
	spin_lock(&proc->inner_lock);
	thread->inner.aside++;
	spin_unlock(&proc->inner_lock);
	put_back = kb_proc_discard_list(proc, &thread->inner.todo,
					&thread->inner.calls);
	spin_lock(&proc->inner_lock);
	thread->inner.aside--;
	dead = thread->inner.is_dead;
	/*
	 * A read while the list was aside found nothing and said so
	 * (process_todo): what was put back is for it.
	 */
	if (put_back && !dead) {
		thread->inner.process_todo = true;
		kb_queue_choose_locked(thread, &wake);
	}
	spin_unlock(&proc->inner_lock);
	if (put_back && dead)
		kb_proc_cancel_list(proc, &thread->inner.todo);
	kb_queue_wake(&wake);
}

/**
 * kb_queue_flush() - make every thread's read return (flush())
 * @proc: the process
 *
 * Queues no work: the threads waiting in a read are woken in the walk that
 * tells them to return.
 */
void kb_queue_flush(struct kb_proc *proc)
{
	struct kb_thread *thread;
	struct rb_node *n;

	spin_lock(&proc->inner_lock);
	for (n = rb_first(kb_proc_threads_locked(proc)); n; n = rb_next(n)) {
		thread = rb_entry(n, struct kb_thread, rb);
		thread->inner.need_return = true;
		/* In its read, so alive: no reference needed under the lock. */
		if (thread->inner.looper & KB_LOOPER_WAITING)
			kb_queue_wake_task(thread->inner.sleeper, false);
	}
	spin_unlock(&proc->inner_lock);
}

/* ---- the reader's side (under the inner_lock of its process) ---- */

/**
 * kb_queue_wants_proc_work_locked() - whether a thread may take process
 *	work
 * @thread: the thread
 *
 * Threads that are not in a call and have nothing of their own to do take
 * work queued for the whole process. Like the reference, this does not
 * require BC_ENTER_LOOPER or BC_REGISTER_LOOPER (clients that only read
 * rely on it); the looper state only matters for BR_SPAWN_LOOPER.
 *
 * Return: true if it may.
 */
bool kb_queue_wants_proc_work_locked(struct kb_thread *thread)
	__must_hold(&thread->proc->inner_lock)
{
	lockdep_assert_held(&thread->proc->inner_lock);
	return !thread->inner.transaction_stack &&
	       !thread->inner.complete && list_empty(&thread->inner.todo);
}

/**
 * kb_queue_has_work_locked() - whether a read by this thread returns now
 * @thread: the thread
 * @proc_work: the thread takes process work too
 *
 * Return: true if there is something to read.
 */
bool kb_queue_has_work_locked(struct kb_thread *thread, bool proc_work)
	__must_hold(&thread->proc->inner_lock)
{
	lockdep_assert_held(&thread->proc->inner_lock);
	return thread->inner.process_todo || thread->inner.need_return ||
	       (proc_work && !list_empty(&thread->proc->inner.todo));
}

/**
 * kb_queue_next_locked() - the item a read takes next
 * @thread: the reading thread
 * @proc_work: the thread takes process work too
 * @take: take the item off its list (else leave it there)
 *
 * A pending completion first (kb_queue_complete_locked(): a static item
 * on no list), then its own todo list, then the process's. With nothing
 * left, the thread has no work to be woken for any more (items may have
 * been taken back off its list).
 *
 * Return: the item, or NULL.
 */
struct kb_work *kb_queue_next_locked(struct kb_thread *thread,
				     bool proc_work, bool take)
	__must_hold(&thread->proc->inner_lock)
{
	struct list_head *todo = &thread->inner.todo;
	struct kb_work *work;

	lockdep_assert_held(&thread->proc->inner_lock);
	if (thread->inner.complete) {
		if (take) {
			thread->inner.complete = false;
			if (list_empty(todo))
				thread->inner.process_todo = false;
		}
		return &kb_queue_complete_work;
	}
	work = list_first_entry_or_null(todo, struct kb_work, entry);
	if (work) {
		if (!take)
			return work;
		thread->inner.calls -= work->ops->needs_area;
		list_del_init(&work->entry);
		if (list_empty(todo))
			thread->inner.process_todo = false;
		return work;
	}
	thread->inner.process_todo = false;
	if (!proc_work)
		return NULL;
	work = list_first_entry_or_null(&thread->proc->inner.todo,
					struct kb_work, entry);
	if (work && take)
		list_del_init(&work->entry);
	return work;
}

/*
 * Sleep until the thread has something to read; with @proc_work, on the
 * idle loopers' list, where process work finds it. The inner_lock is held
 * on entry and on return; it is dropped only around schedule(). The task's
 * state is set and the thread marked waiting under the lock, before each
 * look for work (the rule at the top of this file); whoever queues work
 * for it or flushes wakes the task. 0, or -EINTR if a signal is pending.
 */
static int kb_queue_sleep_locked(struct kb_thread *thread, bool proc_work)
	__must_hold(&thread->proc->inner_lock)
{
	struct kb_proc *proc = thread->proc;
	int ret = 0;

	lockdep_assert_held(&proc->inner_lock);
	thread->inner.looper |= KB_LOOPER_WAITING;
	thread->inner.sleeper = current;
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE | TASK_FREEZABLE);
		if (kb_queue_has_work_locked(thread, proc_work))
			break;
		if (proc_work)
			list_add(&thread->waiting_entry,
				 &proc->inner.waiting_threads);
		spin_unlock(&proc->inner_lock);
		schedule();
		spin_lock(&proc->inner_lock);
		/* Taken off already, unless woken by something else. */
		if (!list_empty(&thread->waiting_entry))
			list_del_init(&thread->waiting_entry);
		if (signal_pending(current)) {
			ret = -EINTR;
			break;
		}
	}
	__set_current_state(TASK_RUNNING);
	thread->inner.looper &= ~KB_LOOPER_WAITING;
	thread->inner.sleeper = NULL;
	return ret;
}

/**
 * kb_queue_wait_locked() - wait for work as the caller's thread
 * @thread: the reading thread, the caller's own
 * @non_block: return -EAGAIN instead of sleeping
 * @proc_work: set to whether the thread takes process work too; it runs at
 *	the process's default nice level then
 *
 * The inner_lock is held on entry and on return; it is dropped around the
 * nice change and the sleep, which is only entered when there is nothing
 * to read yet.
 *
 * Return: 0, -EAGAIN (@non_block, nothing to read) or -EINTR.
 */
int kb_queue_wait_locked(struct kb_thread *thread, bool non_block,
			 bool *proc_work)
	__must_hold(&thread->proc->inner_lock)
{
	struct kb_proc *proc = thread->proc;

	lockdep_assert_held(&proc->inner_lock);
	*proc_work = kb_queue_wants_proc_work_locked(thread);
	if (*proc_work && task_nice(current) != proc->default_nice) {
		spin_unlock(&proc->inner_lock);
		kb_set_nice(proc->default_nice);
		spin_lock(&proc->inner_lock);
	}
	if (kb_queue_has_work_locked(thread, *proc_work))
		return 0;
	if (non_block)
		return -EAGAIN;
	return kb_queue_sleep_locked(thread, *proc_work);
}

/*
 * Whether to ask for one more looper: yes when no request is outstanding,
 * no looper is idle and fewer than BINDER_SET_MAX_THREADS were started on
 * request; the request is counted then (kb_proc_take_spawn_request_locked()
 * takes it back).
 */
static bool kb_queue_ask_spawn_locked(struct kb_proc *proc)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	if (proc->inner.requested_threads ||
	    !list_empty(&proc->inner.waiting_threads) ||
	    proc->inner.requested_threads_started >= proc->inner.max_threads)
		return false;
	proc->inner.requested_threads++;
	return true;
}

/**
 * kb_queue_read_end_locked() - the end of a read, in the critical section
 *	that ends it
 * @thread: the reading thread
 * @ok: the read succeeded
 * @wake: set as kb_queue_kick_locked() does, if process work is left
 *	(this thread may have been woken for it and not taken it)
 *
 * Return: true if the caller writes BR_SPAWN_LOOPER: the read succeeded,
 * the thread is a looper and one more looper is wanted.
 */
bool kb_queue_read_end_locked(struct kb_thread *thread, bool ok,
			      struct kb_wake *wake)
	__must_hold(&thread->proc->inner_lock)
{
	struct kb_proc *proc = thread->proc;
	bool spawn;

	lockdep_assert_held(&proc->inner_lock);
	spawn = ok && kb_thread_is_looper_locked(thread) &&
		kb_queue_ask_spawn_locked(proc);
	kb_queue_kick_locked(proc, wake);
	return spawn;
}

/**
 * kb_queue_set_polled_locked() - the thread uses poll() on the file
 * @thread: the thread
 *
 * Its wait queue may be in an epoll set from now on: its exit detaches it
 * (kb_thread_release()), and process work wakes it when no looper is idle
 * (kb_queue_kick_locked()).
 */
void kb_queue_set_polled_locked(struct kb_thread *thread)
	__must_hold(&thread->proc->inner_lock)
{
	lockdep_assert_held(&thread->proc->inner_lock);
	thread->inner.looper |= KB_LOOPER_POLL;
	thread->proc->inner.polled = true;
}
