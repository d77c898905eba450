// SPDX-License-Identifier: GPL-2.0-only
/*
 * Processes: the object behind one open binder file. Its creation and
 * free, the senders towards it, its todo list, the notices delivered to
 * it, and the steps of its death that move its stage (proc.h draws them).
 * The file layer (file.c) orders those steps and runs the teardown; this
 * file only queues its work items, on the release workqueue that lives
 * here.
 */
#include "internal.h"

#include <linux/fs.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "context.h"
#include "proc.h"
#include "stats.h"

static struct workqueue_struct *kb_release_wq;
/* The file operations of a binder file: a misc device's, a binderfs one's. */
static const struct file_operations *kb_proc_misc_fops;
static const struct file_operations *kb_proc_fs_fops;

/**
 * kb_proc_create() - a new process for an opener
 * @ctx: the world it is opened in; the process takes over the caller's
 *	reference (dropped here on failure)
 * @cred: the opener's credentials (the file's)
 *
 * The discard and release work functions are the file layer's: it sets
 * them up before anything can queue them.
 *
 * Return: the process with one memory reference (the file's), or NULL.
 */
struct kb_proc *kb_proc_create(struct kb_context *ctx,
			       const struct cred *cred)
{
	struct kb_proc *proc;

	proc = kzalloc(sizeof(*proc), GFP_KERNEL_ACCOUNT);
	if (!proc) {
		kb_context_put(ctx);
		return NULL;
	}
	proc->ctx = ctx;
	proc->pid = current->group_leader->pid;
	get_task_struct(current->group_leader);
	proc->tsk = current->group_leader;
	proc->cred = get_cred(cred);
	proc->default_nice = task_nice(current);
	refcount_set(&proc->mem, 1);
	mutex_init(&proc->refs_lock);
	mutex_init(&proc->teardown_lock);
	proc->refs_by_desc = RB_ROOT;
	proc->refs_by_node = RB_ROOT;
	ida_init(&proc->descs);
	spin_lock_init(&proc->inner_lock);
	INIT_LIST_HEAD(&proc->inner.todo);
	proc->inner.threads = RB_ROOT;
	proc->inner.nodes = RB_ROOT;
	INIT_LIST_HEAD(&proc->inner.waiting_threads);
	INIT_LIST_HEAD(&proc->inner.delivered);
	proc->inner.delivered_index = RB_ROOT;
	init_waitqueue_head(&proc->freeze_wait);
	kb_alloc_init(&proc->alloc);
	kb_stats_created(KB_OBJ_PROC);
	return proc;
}

/**
 * kb_proc_free() - free a process whose last memory reference was dropped
 * @proc: the process, its teardown done; called by kb_proc_put() only
 */
void kb_proc_free(struct kb_proc *proc)
{
	/* The file's reference goes last but for memory references. */
	WARN_ON_ONCE(proc->inner.stage != KB_PROC_AREA_FREED ||
		     proc->inner.senders);
	ida_destroy(&proc->descs);
	put_cred(proc->cred);
	put_task_struct(proc->tsk);
	kb_context_put(proc->ctx);
	kfree(proc);
	kb_stats_destroyed(KB_OBJ_PROC);
}

/**
 * kb_proc_from_file() - the process behind a binder file
 * @file: any open file
 *
 * Return: the process (valid while @file is held), or NULL if @file is
 * not a binder file of this module.
 */
struct kb_proc *kb_proc_from_file(struct file *file)
{
	if (file->f_op != kb_proc_misc_fops && file->f_op != kb_proc_fs_fops)
		return NULL;
	return file->private_data;
}

/**
 * kb_proc_set_max_threads() - BINDER_SET_MAX_THREADS
 * @proc: the process
 * @max_threads: how many looper threads the driver may ask it to spawn
 */
void kb_proc_set_max_threads(struct kb_proc *proc, u32 max_threads)
{
	spin_lock(&proc->inner_lock);
	proc->inner.max_threads = max_threads;
	spin_unlock(&proc->inner_lock);
}

/**
 * kb_proc_set_spam_detection() - BINDER_ENABLE_ONEWAY_SPAM_DETECTION
 * @proc: the process
 * @enable: whether one-way calls that hog its async space are reported
 */
void kb_proc_set_spam_detection(struct kb_proc *proc, bool enable)
{
	spin_lock(&proc->inner_lock);
	proc->inner.spam_detection = enable;
	spin_unlock(&proc->inner_lock);
}

/* Queue @proc's discard work, holding a memory reference while queued. */
static void kb_proc_queue_discard(struct kb_proc *proc)
{
	kb_proc_get(proc);
	if (!queue_work(kb_release_wq, &proc->discard_work))
		kb_proc_put(proc);
}

/**
 * kb_proc_enter_send() - count a transaction being set up towards @proc
 * @proc: the receiving process
 *
 * While counted, the receive area of @proc stays allocated (its teardown
 * leaves freeing it to the last sender), so the buffer being filled in
 * it stays valid. Nothing waits for the count: a sender may be stalled
 * in a user copy for as long as userspace wants.
 *
 * Return: false if the process is dying (the call gets BR_DEAD_REPLY).
 */
bool kb_proc_enter_send(struct kb_proc *proc)
{
	bool ok;

	spin_lock(&proc->inner_lock);
	ok = kb_proc_enter_send_locked(proc);
	spin_unlock(&proc->inner_lock);
	return ok;
}

/**
 * kb_proc_exit_send() - the transaction set-up towards @proc is over
 * @proc: the receiving process
 */
void kb_proc_exit_send(struct kb_proc *proc)
{
	bool last;

	spin_lock(&proc->inner_lock);
	last = kb_proc_exit_send_locked(proc);
	spin_unlock(&proc->inner_lock);
	if (last)
		kb_proc_last_sender_gone(proc);
}

/**
 * kb_proc_last_sender_gone() - the last sender towards a dying process left
 * @proc: the process (the caller still holds a memory reference on it)
 *
 * What that sender queued after the process died is discarded, and if
 * the file was released meanwhile, the receive area is freed now (both on
 * the release workqueue).
 */
void kb_proc_last_sender_gone(struct kb_proc *proc)
{
	kb_proc_queue_discard(proc);
}

/**
 * kb_proc_is_dead() - whether a process takes no more work
 * @proc: the process
 *
 * For the teardown's assertions; the transaction path asks under the lock
 * it holds anyway (kb_proc_is_dead_locked()).
 *
 * Return: true once it is DEAD or further down its teardown.
 */
bool kb_proc_is_dead(struct kb_proc *proc)
{
	bool dead;

	spin_lock(&proc->inner_lock);
	dead = kb_proc_is_dead_locked(proc);
	spin_unlock(&proc->inner_lock);
	return dead;
}

/**
 * kb_proc_set_dead() - refuse new work: the teardown's first step
 * @proc: the process, LIVE or DEAD already (its opener exited)
 */
void kb_proc_set_dead(struct kb_proc *proc)
{
	spin_lock(&proc->inner_lock);
	WARN_ON_ONCE(proc->inner.stage > KB_PROC_DEAD);
	proc->inner.stage = KB_PROC_DEAD;
	spin_unlock(&proc->inner_lock);
}

/**
 * kb_proc_opener_exit() - the receive area is unmapped for good
 * @proc: the process
 *
 * The opener exited, exec'd or unmapped it; it cannot be mapped again, so
 * no one can ever read what is queued to the process. Mark it dead now and
 * drop that work (on the release workqueue), instead of when the file is
 * released: a file in flight in that work (a unix socket or io_uring that
 * carries this or another binder file) may be what keeps the file from
 * being released at all.
 */
void kb_proc_opener_exit(struct kb_proc *proc)
{
	bool first;

	spin_lock(&proc->inner_lock);
	/* The vma holds the file: it closes before the file's release. */
	WARN_ON_ONCE(proc->inner.stage > KB_PROC_DEAD);
	first = proc->inner.stage == KB_PROC_LIVE;
	proc->inner.stage = KB_PROC_DEAD;
	spin_unlock(&proc->inner_lock);
	if (first)
		kb_proc_queue_discard(proc);
}

/**
 * kb_proc_queue_release() - queue the teardown of a released file
 * @proc: the process, its @release_work set up by the file layer
 */
void kb_proc_queue_release(struct kb_proc *proc)
{
	/* A file is released once. */
	WARN_ON_ONCE(!queue_work(kb_release_wq, &proc->release_work));
}

/**
 * kb_proc_set_released() - the teardown's steps are done, but for the area
 * @proc: the process, DEAD
 */
void kb_proc_set_released(struct kb_proc *proc)
{
	spin_lock(&proc->inner_lock);
	WARN_ON_ONCE(proc->inner.stage != KB_PROC_DEAD);
	proc->inner.stage = KB_PROC_RELEASED;
	spin_unlock(&proc->inner_lock);
}

/**
 * kb_proc_take_area() - whether to take the last step of a teardown
 * @proc: the process
 *
 * True exactly once: the teardown's other steps are done and no sender is
 * filling a buffer in the area any more. The caller then frees it with
 * kb_proc_free_area().
 *
 * Return: true if the caller must free the area.
 */
bool kb_proc_take_area(struct kb_proc *proc)
{
	bool take;

	spin_lock(&proc->inner_lock);
	take = proc->inner.stage == KB_PROC_RELEASED && !proc->inner.senders;
	if (take)
		proc->inner.stage = KB_PROC_AREA_FREED;
	spin_unlock(&proc->inner_lock);
	return take;
}

/**
 * kb_proc_free_area() - free the receive area, drop the file's reference
 * @proc: the process, AREA_FREED: kb_proc_take_area() said so, or its
 *	open failed (kb_proc_abort()); maybe freed here
 */
void kb_proc_free_area(struct kb_proc *proc)
{
	unsigned int left;

	spin_lock(&proc->inner_lock);
	WARN_ON_ONCE(proc->inner.stage != KB_PROC_AREA_FREED);
	spin_unlock(&proc->inner_lock);
	left = kb_alloc_release(&proc->alloc);
	kb_stats_destroyed_n(KB_OBJ_BUFFER, left);
	kb_proc_put(proc);
}

/**
 * kb_proc_abort() - the open of a process failed after kb_proc_create()
 * @proc: the process, LIVE and never seen by anyone: nothing was queued
 *	to it, nothing mapped; freed here
 */
void kb_proc_abort(struct kb_proc *proc)
{
	spin_lock(&proc->inner_lock);
	WARN_ON_ONCE(proc->inner.stage != KB_PROC_LIVE || proc->inner.senders);
	proc->inner.stage = KB_PROC_AREA_FREED;
	spin_unlock(&proc->inner_lock);
	kb_proc_free_area(proc);
}

/* ---- cancelling queued work ---- */

/*
 * Take @work off its list for a teardown, and decide under the lock whose
 * it is (&kb_work_ops.claim). Return the ops whose cancel the caller
 * calls once it dropped the lock, or NULL: the item is someone else's
 * (a notice its ref holds, a node's or a thread's own item), who may free
 * it as soon as the lock is dropped, and the caller must not touch it.
 * The ops are read here too: a node's item leaves with its node.
 */
static const struct kb_work_ops *kb_proc_claim_locked(struct kb_proc *proc,
						      struct kb_work *work)
	__must_hold(&proc->inner_lock)
{
	const struct kb_work_ops *ops = work->ops;

	lockdep_assert_held(&proc->inner_lock);
	list_del_init(&work->entry);
	if (ops->claim && !ops->claim(work))
		return NULL;
	return ops;
}

/**
 * kb_proc_cancel_list() - cancel every item of a list that is going away
 * @proc: the process whose inner_lock protects the list
 * @list: the list
 *
 * One item per critical section, and a chance to reschedule after every
 * KB_WORK_BATCH: the list is as long as an attacker made it, and this runs
 * in the release kworker. Whether an item is the caller's to cancel is
 * decided in the critical section that takes it off the list
 * (kb_proc_claim_locked()); one that is not, is not touched after it.
 */
void kb_proc_cancel_list(struct kb_proc *proc, struct list_head *list)
{
	const struct kb_work_ops *ops;
	struct kb_work *work;
	unsigned int n = 0;

	for (;;) {
		spin_lock(&proc->inner_lock);
		work = list_first_entry_or_null(list, struct kb_work, entry);
		ops = work ? kb_proc_claim_locked(proc, work) : NULL;
		spin_unlock(&proc->inner_lock);
		if (!work)
			return;
		if (ops)
			ops->cancel(work);
		if (!(++n % KB_WORK_BATCH))
			cond_resched();
	}
}

/**
 * kb_proc_discard_list() - cancel the calls queued on a list
 * @proc: the process whose inner_lock protects @list
 * @list: a todo list (the process's or one of its threads')
 * @calls: the count of calls on @list, if it keeps one (a thread's,
 *	&kb_thread_inner.calls; protected by the same lock), or NULL
 *
 * For a process whose other threads may still make ioctls: only the items
 * that need the receive area, which is gone (calls, see
 * &kb_work_ops.needs_area), are cancelled; notices stay for the teardown,
 * which runs when no thread is left.
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
 * them if the owner went meanwhile (kb_queue_discard_thread()).
 *
 * Return: whether notices were put back on @list.
 */
bool kb_proc_discard_list(struct kb_proc *proc, struct list_head *list,
			  u32 *calls)
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
			if (work->ops->needs_area) {
				ops = kb_proc_claim_locked(proc, work);
				found = work;
				if (calls)
					(*calls)--;
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
		if (found && ops)
			ops->cancel(found);
		cond_resched();
	} while (!done);
	return put_back;
}

/**
 * kb_proc_cancel_todo() - cancel the work queued to a dying process
 * @proc: the process, dead, its threads released
 */
void kb_proc_cancel_todo(struct kb_proc *proc)
{
	WARN_ON_ONCE(!kb_proc_is_dead(proc));
	kb_proc_cancel_list(proc, &proc->inner.todo);
}

/**
 * kb_proc_cancel_delivered() - free the notices a dying process was sent
 *	and never acknowledged
 * @proc: the process, dead, its refs released
 */
void kb_proc_cancel_delivered(struct kb_proc *proc)
{
	WARN_ON_ONCE(!kb_proc_is_dead(proc));
	kb_proc_cancel_list(proc, &proc->inner.delivered);
}

/**
 * kb_proc_discard_todo() - cancel the transactions queued to a process
 * @proc: the process, whose teardown has not begun (it is serialised with
 *	this by the caller), so its todo list stays
 *
 * kb_proc_discard_list() on @proc's todo list.
 *
 * Return: whether notices were put back: the caller wakes a reader, in
 * case one slept while the list was aside.
 */
bool kb_proc_discard_todo(struct kb_proc *proc)
{
	return kb_proc_discard_list(proc, &proc->inner.todo, NULL);
}

/* ---- delivered notices, by kind and cookie ---- */

/**
 * kb_delivered_init() - prepare an index entry, not indexed
 * @d: the entry
 * @kind: the kind of notice
 * @cookie: the requester's cookie
 */
void kb_delivered_init(struct kb_delivered *d, unsigned int kind,
		       binder_uintptr_t cookie)
{
	RB_CLEAR_NODE(&d->rb);
	d->kind = kind;
	d->cookie = cookie;
}

/* The order of the index: by kind, then by cookie. */
static int kb_delivered_cmp(unsigned int kind, binder_uintptr_t cookie,
			    const struct kb_delivered *d)
{
	if (kind != d->kind)
		return kind < d->kind ? -1 : 1;
	if (cookie != d->cookie)
		return cookie < d->cookie ? -1 : 1;
	return 0;
}

/**
 * kb_proc_deliver_notice_locked() - a notice is being delivered: it waits
 *	for its DONE command
 * @proc: the process it is delivered to
 * @work: the notice's work, off every list
 * @d: its index entry, not indexed; goes after every equal key
 */
void kb_proc_deliver_notice_locked(struct kb_proc *proc, struct kb_work *work,
				   struct kb_delivered *d)
	__must_hold(&proc->inner_lock)
{
	struct rb_node **p = &proc->inner.delivered_index.rb_node;
	struct rb_node *parent = NULL;
	struct kb_delivered *other;

	lockdep_assert_held(&proc->inner_lock);
	list_add_tail(&work->entry, &proc->inner.delivered);
	while (*p) {
		parent = *p;
		other = rb_entry(parent, struct kb_delivered, rb);
		p = kb_delivered_cmp(d->kind, d->cookie, other) < 0 ?
			&parent->rb_left : &parent->rb_right;
	}
	rb_link_node(&d->rb, parent, p);
	rb_insert_color(&d->rb, &proc->inner.delivered_index);
}

/**
 * kb_proc_take_delivered_locked() - find the first delivered notice of a
 *	kind with a cookie, and take it out of the index
 * @proc: the process
 * @kind: the kind the DONE command names
 * @cookie: the cookie
 *
 * Its work stays on the delivered list: the caller takes it off.
 *
 * Return: the entry, no longer indexed, or NULL.
 */
struct kb_delivered *kb_proc_take_delivered_locked(struct kb_proc *proc,
						   unsigned int kind,
						   binder_uintptr_t cookie)
	__must_hold(&proc->inner_lock)
{
	struct rb_node *n = proc->inner.delivered_index.rb_node;
	struct kb_delivered *d, *found = NULL;
	int cmp;

	lockdep_assert_held(&proc->inner_lock);
	while (n) {
		d = rb_entry(n, struct kb_delivered, rb);
		cmp = kb_delivered_cmp(kind, cookie, d);
		if (cmp <= 0) {
			if (!cmp)
				found = d;
			n = n->rb_left;
		} else {
			n = n->rb_right;
		}
	}
	if (found)
		kb_proc_forget_delivered_locked(proc, found);
	return found;
}

/**
 * kb_proc_forget_delivered_locked() - take a notice out of the index, if
 *	it is in
 * @proc: the process
 * @d: the entry
 */
void kb_proc_forget_delivered_locked(struct kb_proc *proc,
				     struct kb_delivered *d)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	if (RB_EMPTY_NODE(&d->rb))
		return;
	rb_erase(&d->rb, &proc->inner.delivered_index);
	RB_CLEAR_NODE(&d->rb);
}

/**
 * kb_proc_module_init() - create the workqueue of deferred teardowns
 * @misc_fops: the file operations of a misc device's binder file
 * @fs_fops: the same of a binderfs device's (both the file layer's; what
 *	kb_proc_from_file() recognises)
 *
 * Return: 0 or -ENOMEM.
 */
int kb_proc_module_init(const struct file_operations *misc_fops,
			const struct file_operations *fs_fops)
{
	kb_proc_misc_fops = misc_fops;
	kb_proc_fs_fops = fs_fops;
	kb_release_wq = alloc_workqueue("kbinder_release", 0, 0);
	return kb_release_wq ? 0 : -ENOMEM;
}

/**
 * kb_proc_module_exit() - wait for every teardown and destroy the workqueue
 */
void kb_proc_module_exit(void)
{
	destroy_workqueue(kb_release_wq);
}
