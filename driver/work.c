// SPDX-License-Identifier: GPL-2.0-only
/*
 * Todo lists, waking the right thread, and the generic work items: a BR_
 * code for one thread and BR_TRANSACTION_COMPLETE. The read loop that
 * takes the items off the lists is in read.c.
 */
#include "internal.h"

#include <linux/sched.h>
#include <linux/slab.h>

#include "proc.h"
#include "stats.h"
#include "thread.h"
#include "work.h"

/* ---- a BR_ code for one thread (failed transactions, dead replies) ---- */

/*
 * Atomic with the dequeue: the code is read and the item disarmed in the
 * critical section that took it off the list. Right after it, another
 * thread may re-arm it with a new code and queue it again
 * (kb_thread_return() queues it whenever it is off the list).
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

static void kb_return_cancel(struct kb_work *work)
{
	struct kb_return_work *rw = container_of(work, struct kb_return_work,
						 work);

	/* The thread is dead: nobody else looks at it. */
	rw->cmd = BR_OK;
}

static const struct kb_work_ops kb_return_ops = {
	.name = "return",
	.take = kb_return_take,
	.deliver = kb_return_deliver,
	.cancel = kb_return_cancel,
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

/**
 * kb_thread_return() - report a BR_ code to a thread and wake it
 * @thread: the thread
 * @rw: its return_error or reply_error
 * @cmd: BR_FAILED_REPLY, BR_DEAD_REPLY or BR_TRANSACTION_COMPLETE
 *
 * If the thread is dead, nothing is queued.
 */
void kb_thread_return(struct kb_thread *thread, struct kb_return_work *rw,
		      u32 cmd)
{
	struct kb_proc *proc = thread->proc;

	spin_lock(&proc->inner_lock);
	if (!thread->inner.is_dead) {
		rw->cmd = cmd;
		if (list_empty(&rw->work.entry))
			kb_enqueue_thread(thread, &rw->work);
		wake_up_interruptible(&thread->wait);
	}
	spin_unlock(&proc->inner_lock);
}

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
	else if (tc->spam && thread->proc->inner.spam_detection)
		snap->cmd = BR_ONEWAY_SPAM_SUSPECT;
	else
		snap->cmd = BR_TRANSACTION_COMPLETE;
}

static int kb_tcomplete_deliver(struct kb_work *work, struct kb_thread *thread,
				struct kb_wbuf *out,
				const union kb_work_snap *snap)
{
	kb_tcomplete_free(work);
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
 * Notices come from their own cache, like transactions (transaction.c),
 * charged to the sender's memory cgroup (SLAB_ACCOUNT).
 */
static struct kmem_cache *kb_tcomplete_cache;

/**
 * kb_tcomplete_cache_init() - create the cache of completion notices
 *
 * Return: 0 or -ENOMEM.
 */
int kb_tcomplete_cache_init(void)
{
	kb_tcomplete_cache = KMEM_CACHE(kb_tcomplete, SLAB_ACCOUNT);
	return kb_tcomplete_cache ? 0 : -ENOMEM;
}

/**
 * kb_tcomplete_cache_exit() - destroy it (every notice is freed by then)
 */
void kb_tcomplete_cache_exit(void)
{
	kmem_cache_destroy(kb_tcomplete_cache);
}

/**
 * kb_tcomplete_new() - a BR_TRANSACTION_COMPLETE notice for a sender
 *
 * Return: the item or NULL.
 */
struct kb_work *kb_tcomplete_new(void)
{
	struct kb_tcomplete *tc;

	tc = kmem_cache_zalloc(kb_tcomplete_cache, GFP_KERNEL);
	if (!tc)
		return NULL;
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

/* ---- queues ---- */

/**
 * kb_work_queued() - whether a work item is on a list
 * @proc: the process whose inner_lock protects the item
 * @work: the item
 *
 * Return: true if queued.
 */
bool kb_work_queued(struct kb_proc *proc, struct kb_work *work)
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
void kb_work_dequeue(struct kb_proc *proc, struct kb_work *work)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	list_del_init(&work->entry);
}

/**
 * kb_enqueue_proc() - queue work for any looper of a process
 * @proc: the process
 * @work: the item, not queued
 *
 * The caller wakes a thread (kb_proc_wake()).
 */
void kb_enqueue_proc(struct kb_proc *proc, struct kb_work *work)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	list_add_tail(&work->entry, &proc->inner.todo);
}

/**
 * kb_enqueue_thread() - queue work for one thread, waking it on its next wait
 * @thread: the thread
 * @work: the item, not queued
 */
void kb_enqueue_thread(struct kb_thread *thread, struct kb_work *work)
	__must_hold(&thread->proc->inner_lock)
{
	lockdep_assert_held(&thread->proc->inner_lock);
	list_add_tail(&work->entry, &thread->inner.todo);
	thread->inner.process_todo = true;
}

/**
 * kb_enqueue_thread_deferred() - queue work that should not wake the thread
 * @thread: the thread
 * @work: the item, not queued
 *
 * Used for the BR_TRANSACTION_COMPLETE of a synchronous call: the caller
 * reads it together with the reply instead of returning twice.
 */
void kb_enqueue_thread_deferred(struct kb_thread *thread, struct kb_work *work)
	__must_hold(&thread->proc->inner_lock)
{
	lockdep_assert_held(&thread->proc->inner_lock);
	list_add_tail(&work->entry, &thread->inner.todo);
}

/**
 * kb_proc_select_thread() - take an idle looper off the waiting list
 * @proc: the process
 *
 * Return: the thread that will get the next process work, or NULL.
 */
struct kb_thread *kb_proc_select_thread(struct kb_proc *proc)
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
 * kb_thread_wake() - wake a thread chosen for new work, after the lock
 * @thread: the thread (its memory held by a reference or an RCU read
 *	section that began while its process's inner_lock was held)
 * @sync: the waker will soon sleep waiting for the result
 *
 * Waking while holding the inner_lock made the woken thread, running at
 * once on another CPU, spin on that lock until the waker let go of it. The
 * work is queued under the lock first, so the sleeper cannot miss it: it
 * checks for work after prepare_to_wait().
 */
void kb_thread_wake(struct kb_thread *thread, bool sync)
{
	if (sync)
		wake_up_interruptible_sync(&thread->wait);
	else
		wake_up_interruptible(&thread->wait);
}

/**
 * kb_proc_wake() - wake the thread that must handle new work
 * @proc: the process
 * @thread: the chosen thread, or NULL to pick an idle looper
 * @sync: the waker will soon sleep waiting for the result
 *
 * Without an idle looper, threads that poll the file and could take
 * process work are woken instead.
 */
void kb_proc_wake(struct kb_proc *proc, struct kb_thread *thread, bool sync)
	__must_hold(&proc->inner_lock)
{
	struct rb_node *n;

	lockdep_assert_held(&proc->inner_lock);
	if (!thread)
		thread = kb_proc_select_thread(proc);
	if (thread) {
		if (sync)
			wake_up_interruptible_sync(&thread->wait);
		else
			wake_up_interruptible(&thread->wait);
		return;
	}
	for (n = rb_first(&proc->inner.threads); n; n = rb_next(n)) {
		thread = rb_entry(n, struct kb_thread, rb);
		if ((thread->inner.looper & KB_LOOPER_POLL) &&
		    kb_thread_wants_proc_work(thread))
			wake_up_interruptible(&thread->wait);
	}
}

/**
 * kb_work_cancel_list() - cancel every item of a list that is going away
 * @proc: the process whose inner_lock protects the list
 * @list: the list
 *
 * One item per critical section (a notice may leave the list, and its
 * memory, as soon as the lock is dropped, so no batch is kept outside
 * it), and a chance to reschedule after every KB_WORK_BATCH: the list is
 * as long as an attacker made it, and this runs in the release kworker.
 */
void kb_work_cancel_list(struct kb_proc *proc, struct list_head *list)
{
	const struct kb_work_ops *ops;
	struct kb_work *work;
	unsigned int n = 0;

	for (;;) {
		spin_lock(&proc->inner_lock);
		work = list_first_entry_or_null(list, struct kb_work, entry);
		if (work) {
			list_del_init(&work->entry);
			/*
			 * Read under the lock: a node's notice is embedded in
			 * the node, which may be retired and freed as soon as
			 * its notice is off the list (its cancel does nothing).
			 */
			ops = work->ops;
		}
		spin_unlock(&proc->inner_lock);
		if (!work)
			return;
		ops->cancel(work);
		if (!(++n % KB_WORK_BATCH))
			cond_resched();
	}
}

/**
 * kb_work_discard_owned() - cancel the items of a list that the list owns
 * @proc: the process whose inner_lock protects @list
 * @list: a todo list
 *
 * For a process whose other threads may still make ioctls: only items
 * that belong to whoever takes them off the list (transactions, see
 * &kb_work_ops.owned_by_list) are cancelled; notices stay for the
 * teardown, which runs when no thread is left.
 *
 * One pass over the list, however long: the list is moved aside at once,
 * and taken from the head, at most KB_WORK_BATCH items per critical
 * section; a notice goes onto a kept list and the whole kept list back in
 * front of @list at the end, in its order (anything queued meanwhile
 * stays behind it). While aside, both lists are only touched under the
 * lock, like @list: a notice freed meanwhile (its ref went away) just
 * leaves them. Walking from the head of @list for every transaction, as
 * before, cost notices x transactions steps under the lock.
 *
 * While the items are aside, @list looks empty: a reader may go to sleep,
 * and the list's owner may go (a thread's exit cancels its list). The
 * caller wakes the owner's readers when notices were put back, and cancels
 * them if the owner went meanwhile (kb_thread_discard_owned()).
 *
 * Return: whether notices were put back on @list.
 */
bool kb_work_discard_owned(struct kb_proc *proc, struct list_head *list)
{
	const struct kb_work_ops *ops = NULL;
	struct kb_work *work, *found;
	LIST_HEAD(pending);
	LIST_HEAD(kept);
	bool done, put_back = false;
	unsigned int n;

	spin_lock(&proc->inner_lock);
	list_splice_init(list, &pending);
	spin_unlock(&proc->inner_lock);
	do {
		found = NULL;
		spin_lock(&proc->inner_lock);
		for (n = 0; n < KB_WORK_BATCH && !found; n++) {
			work = list_first_entry_or_null(&pending,
							struct kb_work, entry);
			if (!work)
				break;
			if (work->ops->owned_by_list) {
				list_del_init(&work->entry);
				ops = work->ops;
				found = work;
			} else {
				list_move_tail(&work->entry, &kept);
			}
		}
		done = list_empty(&pending);
		if (done) {
			put_back = !list_empty(&kept);
			list_splice_init(&kept, list);
		}
		spin_unlock(&proc->inner_lock);
		if (found)
			ops->cancel(found);
		cond_resched();
	} while (!done);
	return put_back;
}

/**
 * kb_work_discard_proc_owned() - cancel the transactions queued to a process
 * @proc: the process, whose teardown has not begun (it is serialised with
 *	this by the caller), so its todo list stays
 *
 * kb_work_discard_owned() on @proc's todo list; its readers are woken if
 * notices were put back, in case one slept while the list was aside.
 */
void kb_work_discard_proc_owned(struct kb_proc *proc)
{
	if (!kb_work_discard_owned(proc, &proc->inner.todo))
		return;
	spin_lock(&proc->inner_lock);
	kb_proc_wake(proc, NULL, false);
	spin_unlock(&proc->inner_lock);
}

/* ---- delivered notices by cookie ---- */

/**
 * kb_cookie_init() - prepare an index entry, not indexed
 * @cn: the entry
 * @cookie: its key (constant)
 */
void kb_cookie_init(struct kb_cookie_node *cn, binder_uintptr_t cookie)
{
	RB_CLEAR_NODE(&cn->rb);
	cn->cookie = cookie;
}

/**
 * kb_cookie_insert_locked() - index a notice being delivered
 * @proc: the process whose inner_lock protects @root
 * @root: its index (of death or of freeze notices)
 * @cn: the notice's entry, not indexed; after every equal cookie
 */
void kb_cookie_insert_locked(struct kb_proc *proc, struct rb_root *root,
			     struct kb_cookie_node *cn)
	__must_hold(&proc->inner_lock)
{
	struct rb_node **p = &root->rb_node, *parent = NULL;
	struct kb_cookie_node *other;

	lockdep_assert_held(&proc->inner_lock);
	while (*p) {
		parent = *p;
		other = rb_entry(parent, struct kb_cookie_node, rb);
		p = cn->cookie < other->cookie ? &parent->rb_left :
						 &parent->rb_right;
	}
	rb_link_node(&cn->rb, parent, p);
	rb_insert_color(&cn->rb, root);
}

/**
 * kb_cookie_take_locked() - find the first notice indexed with a cookie
 *	and take it out of the index
 * @proc: the process whose inner_lock protects @root
 * @root: its index
 * @cookie: the cookie
 *
 * Return: the entry, no longer indexed, or NULL.
 */
struct kb_cookie_node *kb_cookie_take_locked(struct kb_proc *proc,
					     struct rb_root *root,
					     binder_uintptr_t cookie)
	__must_hold(&proc->inner_lock)
{
	struct rb_node *n = root->rb_node;
	struct kb_cookie_node *cn, *found = NULL;

	lockdep_assert_held(&proc->inner_lock);
	while (n) {
		cn = rb_entry(n, struct kb_cookie_node, rb);
		if (cookie <= cn->cookie) {
			if (cookie == cn->cookie)
				found = cn;
			n = n->rb_left;
		} else {
			n = n->rb_right;
		}
	}
	if (found)
		kb_cookie_erase_locked(proc, root, found);
	return found;
}

/**
 * kb_cookie_erase_locked() - take a notice out of the index, if it is in
 * @proc: the process whose inner_lock protects @root
 * @root: its index
 * @cn: the entry
 */
void kb_cookie_erase_locked(struct kb_proc *proc, struct rb_root *root,
			    struct kb_cookie_node *cn)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	if (RB_EMPTY_NODE(&cn->rb))
		return;
	rb_erase(&cn->rb, root);
	RB_CLEAR_NODE(&cn->rb);
}

/* ---- what a reading thread may take ---- */

/**
 * kb_thread_wants_proc_work() - whether a thread may take process work
 * @thread: the thread
 *
 * Threads that are not in a call and have nothing of their own to do take
 * work queued for the whole process. Like the reference, this does not
 * require BC_ENTER_LOOPER or BC_REGISTER_LOOPER (clients that only read
 * rely on it); the looper state only matters for BR_SPAWN_LOOPER.
 *
 * Return: true if it may.
 */
bool kb_thread_wants_proc_work(struct kb_thread *thread)
	__must_hold(&thread->proc->inner_lock)
{
	lockdep_assert_held(&thread->proc->inner_lock);
	return !thread->inner.transaction_stack &&
	       list_empty(&thread->inner.todo);
}

/**
 * kb_thread_has_work() - whether a read by this thread returns now
 * @thread: the thread
 * @proc_work: the thread takes process work too
 *
 * Return: true if there is something to read.
 */
bool kb_thread_has_work(struct kb_thread *thread, bool proc_work)
	__must_hold(&thread->proc->inner_lock)
{
	lockdep_assert_held(&thread->proc->inner_lock);
	return thread->inner.process_todo || thread->inner.need_return ||
	       (proc_work && !list_empty(&thread->proc->inner.todo));
}
