/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Processes: the state behind one open binder file (its creation, memory
 * reference, the senders towards it and the steps of its death). The file
 * operations and the order of the teardown are the file layer's (file.c).
 *
 * The teardown, written down once. A process's stage (&kb_proc_inner.stage,
 * under inner_lock) only goes down this diagram; each arrow is one
 * function, which asserts the stage it starts from (WARN_ON_ONCE):
 *
 *     kb_proc_create()                         (open, file.c)
 *          |
 *          v
 *        LIVE      senders count themselves in (kb_proc_enter_send(): only
 *          |       here) and out (kb_proc_exit_send(): in any stage before
 *          |       AREA_FREED), @senders
 *          |
 *          |-- the area's vma closes (file.c): kb_proc_opener_exit(),
 *          |   which queues @discard_work on the way
 *          |-- the file is released (file.c): kb_proc_queue_release()
 *          |   queues @release_work, once; it starts with kb_proc_set_dead()
 *          v
 *        DEAD      nothing is queued to it, no sender enters. @discard_work
 *          |       cancels the transactions queued to it, its threads and
 *          |       its nodes; @release_work gives up the manager role,
 *          |       releases the threads, cancels the todo list, releases
 *          |       the nodes (firing deaths) and the refs (refs_dead: none
 *          |       is made any more), cancels the delivered notices. The
 *          |       two never run at once (@teardown_lock).
 *          |
 *          |-- kb_proc_set_released(): @release_work's steps are done
 *          v
 *      RELEASED    only the receive area is left, kept by the senders still
 *          |       filling a buffer in it; the last of them to leave
 *          |       (kb_proc_last_sender_gone()) queues @discard_work
 *          |
 *          |-- kb_proc_take_area(): no sender is left, in @release_work or
 *          |   in @discard_work after the last one: true exactly once
 *          v
 *     AREA_FREED   kb_proc_free_area(): kb_alloc_release() (the allocator
 *          |       takes no new buffer since its vma closed,
 *          |       kb_alloc_vma_close()) and the file's reference goes
 *          |
 *          |-- the last kb_proc_put() (threads, transactions, workers)
 *          v
 *        freed     kb_proc_free()
 *
 * An open that fails after kb_proc_create() goes from LIVE to AREA_FREED
 * at once (kb_proc_abort()): nothing was queued to it, nothing mapped.
 *
 * The rule of every cancel: an item a teardown takes off a list is
 * either the teardown's or someone else's, and which is decided in the
 * critical section that takes it off (&kb_work_ops.claim,
 * kb_proc_cancel_list()). A notice whose ref still holds it, a node's or
 * a thread's own item, is not the list's: its owner frees it whenever it
 * likes (another process's failed call may drop the ref at any moment),
 * so the teardown leaves it once the lock is dropped and never touches it
 * again. Only an item it claimed reaches its cancel. Kernels with lock
 * proving check both halves for notices (kb_notice_cancel(),
 * kb_notice_free()).
 */
#ifndef _KB_PROC_H
#define _KB_PROC_H

#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rbtree.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "alloc.h"
#include "internal.h"
#include "work.h"

struct kb_context;
struct kb_thread;

/**
 * enum kb_proc_stage - how far a process's teardown went (the diagram at
 *	the top of proc.h)
 * @KB_PROC_LIVE: open: work is queued to it, senders enter
 * @KB_PROC_DEAD: no new work or sender; what is queued is being cancelled
 * @KB_PROC_RELEASED: the teardown's steps are done, but for the receive
 *	area, which senders still in it keep
 * @KB_PROC_AREA_FREED: the area is freed and the file's reference dropped:
 *	only memory references are left
 */
enum kb_proc_stage {
	KB_PROC_LIVE,
	KB_PROC_DEAD,
	KB_PROC_RELEASED,
	KB_PROC_AREA_FREED,
};

/**
 * struct kb_delivered - a notice delivered to a process and not yet
 *	acknowledged, in the process's index, where BC_DEAD_BINDER_DONE and
 *	BC_FREEZE_NOTIFICATION_DONE find it in O(log n) (upstream walks a
 *	list, under its lock)
 * @rb: in the index, or cleared (protected by the process's inner_lock)
 * @kind: the kind of notice, which its DONE command names (constant)
 * @cookie: the requester's cookie (constant)
 *
 * Keyed by kind, then cookie. Equal keys are kept in the order they were
 * indexed: a lookup finds the first one delivered, as upstream's walk does.
 */
struct kb_delivered {
	struct rb_node rb;
	unsigned int kind;
	binder_uintptr_t cookie;
};

/**
 * struct kb_proc_inner - state of a process protected by @kb_proc.inner_lock
 * @todo: work any looper thread of the process may take
 * @threads: the process's live threads, by pid
 * @nodes: the process's live nodes, by userspace pointer
 * @waiting_threads: idle looper threads waiting for process work, the
 *	first is woken first
 * @polled: one of its threads used poll(): with no idle looper, process
 *	work wakes the polling threads (queue.c)
 * @delivered: notices (death and freeze) delivered and not yet
 *	acknowledged with their DONE command
 * @delivered_index: the same, by kind and cookie (&struct kb_delivered)
 * @stage: how far its teardown went (&enum kb_proc_stage)
 * @max_threads: BINDER_SET_MAX_THREADS
 * @requested_threads: BR_SPAWN_LOOPER sent and not yet registered
 * @requested_threads_started: threads registered after a spawn request
 * @senders: transactions being set up towards this process; the receive
 *	area is freed only when none is left (nothing waits for it)
 * @spam_detection: BINDER_ENABLE_ONEWAY_SPAM_DETECTION is on: one-way
 *	calls that hog the receiver's async space are answered with
 *	BR_ONEWAY_SPAM_SUSPECT
 * @outstanding: transactions queued to this process and not yet freed
 * @is_frozen: BINDER_FREEZE: synchronous calls get BR_FROZEN_REPLY
 * @sync_recv: a synchronous call was refused while frozen
 * @async_recv: a one-way call arrived while frozen
 * @reap_after: where the look for the states of gone threads goes on
 *	(the thread id it looked at last; kb_thread_next_gone())
 */
struct kb_proc_inner {
	struct list_head todo;
	struct rb_root threads;
	struct rb_root nodes;
	struct list_head waiting_threads;
	bool polled;
	struct list_head delivered;
	struct rb_root delivered_index;
	enum kb_proc_stage stage;
	u32 max_threads;
	u32 requested_threads;
	u32 requested_threads_started;
	u32 senders;
	bool spam_detection;
	u32 outstanding;
	bool is_frozen;
	bool sync_recv;
	bool async_recv;
	pid_t reap_after;
};

/**
 * struct kb_proc - one open binder file
 * @ctx: the world this file was opened in (a reference held; constant)
 * @pid: tgid of the opener, in the initial pid namespace (debug only)
 * @tsk: the opener's group leader (reference held; constant)
 * @cred: the opener's credentials (reference held; constant)
 * @default_nice: nice level of the opener; loopers waiting for process work
 *	return to it (constant)
 * @mem: keeps the memory alive (file, deferred release, transactions)
 * @refs_lock: protects @refs_by_desc, @refs_by_node and the refs in them
 * @refs_by_desc: this process's refs by handle (protected by @refs_lock)
 * @refs_by_node: the same refs by node (protected by @refs_lock)
 * @descs: the handle numbers in use, for the lowest free one (its own lock)
 * @notes_cleared: death and freeze notification requests that were
 *	cleared and are not freed yet (their "clear done" is unread);
 *	bounded by KB_MAX_CLEARED_NOTES, checked under @refs_lock
 * @refs_dead: the refs were dropped by the teardown; no new ref is made
 *	(protected by @refs_lock)
 * @inner_lock: protects @inner and the todo lists and state of the threads
 * @inner: see &struct kb_proc_inner (protected by @inner_lock)
 * @cached_thread: the thread that last made an ioctl, or NULL (set under
 *	@inner_lock, cleared under it when that thread is released; read
 *	under RCU, see kb_thread_current())
 * @teardown_lock: serialises @discard_work and @release_work, which both
 *	cancel work and may free the receive area
 * @discard_work: drops the work queued to a process nobody can read
 *	any more (its opener exited, or senders that were in flight when it
 *	died are done); frees the area if that is all its teardown waits for
 *	(its function is the file layer's, set at open; queued here)
 * @freeze_wait: BINDER_FREEZE waits here for @inner.outstanding to drop
 * @freeze_id: the process's index in the array BINDER_FREEZE and the logs
 *	search (constant once added; the array has its own lock)
 * @release_work: the deferred teardown after the file is released (the
 *	file layer's, queued on the same workqueue as @discard_work)
 * @alloc: the receive area (its own lock)
 */
struct kb_proc {
	struct kb_context *ctx;
	pid_t pid;
	struct task_struct *tsk;
	const struct cred *cred;
	int default_nice;
	refcount_t mem;

	struct mutex refs_lock; /* protects the refs trees */
	struct rb_root refs_by_desc;
	struct rb_root refs_by_node;
	struct ida descs;
	atomic_t notes_cleared;
	bool refs_dead;

	spinlock_t inner_lock; /* protects @inner, see internal.h */
	struct kb_proc_inner inner;
	struct kb_thread __rcu *cached_thread;

	struct mutex teardown_lock; /* see kernel-doc above */
	struct work_struct discard_work;
	wait_queue_head_t freeze_wait;
	u32 freeze_id;
	struct work_struct release_work;
	struct kb_alloc alloc;
};

int kb_proc_module_init(const struct file_operations *misc_fops,
			const struct file_operations *fs_fops);
void kb_proc_module_exit(void);

struct kb_proc *kb_proc_create(struct kb_context *ctx,
			       const struct cred *cred);
void kb_proc_free(struct kb_proc *proc);
struct kb_proc *kb_proc_from_file(struct file *file);

void kb_proc_set_max_threads(struct kb_proc *proc, u32 max_threads);
void kb_proc_set_spam_detection(struct kb_proc *proc, bool enable);
bool kb_proc_is_dead(struct kb_proc *proc);
void kb_proc_set_dead(struct kb_proc *proc);
void kb_proc_opener_exit(struct kb_proc *proc);
void kb_proc_queue_release(struct kb_proc *proc);
void kb_proc_set_released(struct kb_proc *proc);
bool kb_proc_take_area(struct kb_proc *proc);
void kb_proc_free_area(struct kb_proc *proc);
void kb_proc_abort(struct kb_proc *proc);

/*
 * kb_proc_get() and kb_proc_put() are inline: every transaction takes and
 * drops a reference on its receiver, and under emulation the call and the
 * return thunk cost more than the atomic itself.
 */

/**
 * kb_proc_get() - take a memory reference on a process
 * @proc: the process
 */
static inline void kb_proc_get(struct kb_proc *proc)
{
	refcount_inc(&proc->mem);
}

/**
 * kb_proc_put() - drop a memory reference; the last one frees it
 * @proc: the process (its teardown has run if this is the last reference)
 */
static inline void kb_proc_put(struct kb_proc *proc)
{
	if (refcount_dec_and_test(&proc->mem))
		kb_proc_free(proc);
}

/**
 * KB_MAX_CLEARED_NOTES - cleared notification requests a process may leave
 * unread (each is a 96-byte allocation until its "clear done" is read)
 */
#define KB_MAX_CLEARED_NOTES 4096

/**
 * kb_proc_may_request_note() - whether a new death or freeze notification
 * request is allowed
 * @proc: the requesting process
 *
 * Every request can be cleared at once, leaving a "clear done" notice
 * queued until read; without a bound, request/clear cycles would queue
 * one each. Checked under @proc->refs_lock, which every clear holds when
 * it adds to the count: at most KB_MAX_CLEARED_NOTES cleared requests
 * plus one live request per ref exist.
 *
 * Return: true if the process has fewer than KB_MAX_CLEARED_NOTES
 * cleared requests whose notice it has not read.
 */
static inline bool kb_proc_may_request_note(struct kb_proc *proc)
	__must_hold(&proc->refs_lock)
{
	lockdep_assert_held(&proc->refs_lock);
	return atomic_read(&proc->notes_cleared) < KB_MAX_CLEARED_NOTES;
}

bool kb_proc_enter_send(struct kb_proc *proc);
void kb_proc_exit_send(struct kb_proc *proc);
void kb_proc_last_sender_gone(struct kb_proc *proc);

void kb_proc_cancel_list(struct kb_proc *proc, struct list_head *list);
void kb_proc_cancel_todo(struct kb_proc *proc);
void kb_proc_cancel_delivered(struct kb_proc *proc);
bool kb_proc_discard_list(struct kb_proc *proc, struct list_head *list,
			  u32 *calls);
bool kb_proc_discard_todo(struct kb_proc *proc);

void kb_delivered_init(struct kb_delivered *d, unsigned int kind,
		       binder_uintptr_t cookie);
void kb_proc_deliver_notice_locked(struct kb_proc *proc, struct kb_work *work,
				   struct kb_delivered *d);
struct kb_delivered *kb_proc_take_delivered_locked(struct kb_proc *proc,
						   unsigned int kind,
						   binder_uintptr_t cookie);
void kb_proc_forget_delivered_locked(struct kb_proc *proc,
				     struct kb_delivered *d);

/*
 * The process's own helpers for its @inner state: other files read and
 * change it only through these, with @inner_lock held. They are inline:
 * most run on every transaction, inside critical sections that must stay
 * as short (and as atomic) as they are.
 */

/**
 * kb_proc_is_dead_locked() - whether a process takes no more work
 * @proc: the process
 *
 * Return: true once its file was released or its opener exited.
 */
static inline bool kb_proc_is_dead_locked(struct kb_proc *proc)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	return proc->inner.stage != KB_PROC_LIVE;
}

/**
 * kb_proc_is_frozen_locked() - whether a process is frozen (BINDER_FREEZE)
 * @proc: the process
 *
 * Return: true while it is.
 */
static inline bool kb_proc_is_frozen_locked(struct kb_proc *proc)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	return proc->inner.is_frozen;
}

/**
 * kb_proc_accept_call_locked() - whether a process takes an incoming call
 * @proc: the receiving process
 * @oneway: the call is one-way
 *
 * A frozen process records that a call arrived (for
 * BINDER_GET_FROZEN_INFO) and refuses a synchronous one; a dead process
 * refuses any. Called in the critical section that queues the call, so
 * that the answer still holds when it is queued.
 *
 * Return: KB_OK, or BR_FROZEN_REPLY (-EAGAIN) or BR_DEAD_REPLY (-ESRCH).
 */
static inline struct kb_status kb_proc_accept_call_locked(struct kb_proc *proc,
							  bool oneway)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	if (proc->inner.is_frozen) {
		proc->inner.sync_recv |= !oneway;
		proc->inner.async_recv |= oneway;
		if (!oneway)
			return kb_fail(BR_FROZEN_REPLY, -EAGAIN);
	}
	if (proc->inner.stage != KB_PROC_LIVE)
		return kb_fail(BR_DEAD_REPLY, -ESRCH);
	return KB_OK;
}

/**
 * kb_proc_count_txn_locked() - count a transaction queued to a process
 * @proc: the receiving process
 *
 * Counted until the transaction is freed (kb_proc_uncount_txn_locked()):
 * BINDER_FREEZE waits for the count to drop to zero.
 */
static inline void kb_proc_count_txn_locked(struct kb_proc *proc)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	proc->inner.outstanding++;
}

/**
 * kb_proc_uncount_txn_locked() - a counted transaction is freed
 * @proc: the process it was queued to
 *
 * Wakes a BINDER_FREEZE waiting for the last one.
 */
static inline void kb_proc_uncount_txn_locked(struct kb_proc *proc)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	if (!--proc->inner.outstanding && proc->inner.is_frozen)
		wake_up_interruptible_all(&proc->freeze_wait);
}

/**
 * kb_proc_enter_send_locked() - kb_proc_enter_send() inside a critical
 *	section of @proc the sender is in anyway
 * @proc: the receiving process
 *
 * Return: false if the process is dying.
 */
static inline bool kb_proc_enter_send_locked(struct kb_proc *proc)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	if (proc->inner.stage != KB_PROC_LIVE)
		return false;
	proc->inner.senders++;
	return true;
}

/**
 * kb_proc_exit_send_locked() - kb_proc_exit_send() inside a critical
 *	section of @proc the sender is in anyway
 * @proc: the receiving process
 *
 * Return: true if that was the last sender of a dead process: the caller
 * calls kb_proc_last_sender_gone() once the lock is dropped.
 */
static inline bool kb_proc_exit_send_locked(struct kb_proc *proc)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	/* A sender keeps the area: it cannot be freed while one is in. */
	WARN_ON_ONCE(!proc->inner.senders ||
		     proc->inner.stage == KB_PROC_AREA_FREED);
	return --proc->inner.senders == 0 &&
	       proc->inner.stage != KB_PROC_LIVE;
}

/**
 * kb_proc_outstanding_locked() - transactions queued to a process and not
 *	yet freed
 * @proc: the process
 *
 * Return: their number.
 */
static inline u32 kb_proc_outstanding_locked(struct kb_proc *proc)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	return proc->inner.outstanding;
}

/**
 * kb_proc_set_frozen_locked() - BINDER_FREEZE: freeze or thaw a process
 * @proc: the process
 * @frozen: freeze it (else thaw it)
 *
 * What arrives from now on is recorded anew (kb_proc_accept_call_locked()).
 */
static inline void kb_proc_set_frozen_locked(struct kb_proc *proc, bool frozen)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	proc->inner.sync_recv = false;
	proc->inner.async_recv = false;
	proc->inner.is_frozen = frozen;
}

/**
 * kb_proc_freeze_failed_locked() - a freeze did not complete: thaw
 * @proc: the process
 *
 * What arrived while the freeze waited stays recorded.
 */
static inline void kb_proc_freeze_failed_locked(struct kb_proc *proc)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	proc->inner.is_frozen = false;
}

/**
 * kb_proc_take_spawn_request_locked() - a spawned looper registers
 * @proc: the process
 *
 * Return: true if a BR_SPAWN_LOOPER was outstanding: it is now counted as
 * started; false if none was (the registration is invalid).
 */
static inline bool kb_proc_take_spawn_request_locked(struct kb_proc *proc)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	if (!proc->inner.requested_threads)
		return false;
	proc->inner.requested_threads--;
	proc->inner.requested_threads_started++;
	return true;
}

/**
 * kb_proc_sync_recv_locked() - whether a synchronous call was refused
 *	since the process was last frozen or thawed
 * @proc: the process
 *
 * Return: true if one was (BINDER_GET_FROZEN_INFO).
 */
static inline bool kb_proc_sync_recv_locked(struct kb_proc *proc)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	return proc->inner.sync_recv;
}

/**
 * kb_proc_async_recv_locked() - whether a one-way call arrived since the
 *	process was last frozen or thawed
 * @proc: the process
 *
 * Return: true if one did (BINDER_GET_FROZEN_INFO).
 */
static inline bool kb_proc_async_recv_locked(struct kb_proc *proc)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	return proc->inner.async_recv;
}

/**
 * kb_proc_spam_detection_locked() - whether the process asked to hear of
 *	one-way calls suspected of spamming their receiver
 * @proc: the process
 *
 * Return: true after BINDER_ENABLE_ONEWAY_SPAM_DETECTION turned it on.
 */
static inline bool kb_proc_spam_detection_locked(struct kb_proc *proc)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	return proc->inner.spam_detection;
}

/*
 * Work items on a todo list: queue.c queues and takes them; their owners
 * may look whether one is queued, and take it back off.
 */

/**
 * kb_work_queued() - whether a work item is on a list
 * @proc: the process whose inner_lock protects the item
 * @work: the item
 *
 * Return: true if queued.
 */
static inline bool kb_work_queued(struct kb_proc *proc, struct kb_work *work)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	return !list_empty(&work->entry);
}

/**
 * kb_work_dequeue() - take a work item off its list, if it is on one
 * @proc: the process whose inner_lock protects the item
 * @work: the item
 */
static inline void kb_work_dequeue(struct kb_proc *proc, struct kb_work *work)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	list_del_init(&work->entry);
}

/**
 * kb_proc_todo_locked() - the process's todo list, to look at
 * @proc: the process
 *
 * For the logs: only queue.c changes it.
 *
 * Return: the list.
 */
static inline const struct list_head *kb_proc_todo_locked(struct kb_proc *proc)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	return &proc->inner.todo;
}

/*
 * Indexes of other objects in the process, protected by its inner_lock:
 * its threads by pid and its nodes by pointer (the idle loopers' list is
 * queue.c's). The element's file links and unlinks them (thread.c,
 * node.c), through these accessors, which assert the lock; other files
 * only look.
 */

/**
 * kb_proc_threads_locked() - the process's threads, by pid
 * @proc: the process
 *
 * Return: the tree (of &kb_thread.rb; thread.c links and unlinks).
 */
static inline struct rb_root *kb_proc_threads_locked(struct kb_proc *proc)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	return &proc->inner.threads;
}

/**
 * kb_proc_nodes_locked() - the process's nodes, by pointer
 * @proc: the process
 *
 * Return: the tree (of &kb_node.rb; node.c links and unlinks).
 */
static inline struct rb_root *kb_proc_nodes_locked(struct kb_proc *proc)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	return &proc->inner.nodes;
}

/**
 * kb_proc_reap_after_locked() - where the look for gone threads goes on
 * @proc: the process
 *
 * Return: the id of the thread it looked at last (kb_thread_next_gone()).
 */
static inline pid_t kb_proc_reap_after_locked(struct kb_proc *proc)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	return proc->inner.reap_after;
}

/**
 * kb_proc_set_reap_after_locked() - the look for gone threads moved on
 * @proc: the process
 * @pid: the id of the thread it looked at
 */
static inline void kb_proc_set_reap_after_locked(struct kb_proc *proc,
						 pid_t pid)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	proc->inner.reap_after = pid;
}

#endif /* _KB_PROC_H */
