// SPDX-License-Identifier: GPL-2.0-only
/*
 * Freezing a process's binder state.
 *
 * A frozen process refuses synchronous calls (BR_FROZEN_REPLY) and
 * accepts one-way calls (queued as usual); both are recorded so that
 * BINDER_GET_FROZEN_INFO can tell the freezer what arrived. Freezing waits
 * up to the given time for the transactions already sent to the process to
 * finish, and fails with -EAGAIN while a call is still pending. A
 * freeze or thaw that succeeds is sent to every holder of a ref on the
 * process's nodes that asked for freeze notifications
 * (kb_node_fire_notices(), freeze_notify.c).
 *
 * Processes are found by pid through an array of every process, used
 * by these ioctls and the logs only, never on the transaction path. The
 * pid is read in the caller's pid namespace, and the caller must be
 * allowed to signal the process (same real or effective uid as its real
 * or saved uid, or CAP_KILL in its user namespace), as for kill(2):
 * freezing is the binder side of a process freezer. Only the target's
 * processes in the caller's worlds are frozen (those of its binderfs
 * mount, or of its IPC namespace for the plain devices): a freezer in one
 * container does not reach the binder state another world gave the task.
 *
 * While the process is frozen, a one-way call flagged TF_UPDATE_TXN
 * replaces a call still waiting on the same node that has the same code,
 * the same flags and the same sending process (as upstream since 5.19;
 * the node does it as the call is queued, kb_node_take_outdated_locked()).
 */
#include "internal.h"

#include <linux/cred.h>
#include <linux/jiffies.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/xarray.h>

#include "context.h"
#include "freeze.h"
#include "node.h"
#include "notice.h"
#include "proc.h"
#include "thread.h"

/*
 * Every process not yet torn down, by an id of its own: found with a
 * lookup of O(log n) under the array's own lock, never a walk under a
 * global lock (a walk takes one process at a time, with a reference, and
 * holds nothing between them).
 */
static DEFINE_XARRAY_ALLOC(kb_freeze_procs);
static u32 kb_freeze_next_id;

/**
 * kb_freeze_add_proc() - make a new process findable
 * @proc: the process
 *
 * Return: 0 or -ENOMEM.
 */
int kb_freeze_add_proc(struct kb_proc *proc)
{
	int ret = xa_alloc_cyclic(&kb_freeze_procs, &proc->freeze_id, proc,
				  xa_limit_32b, &kb_freeze_next_id,
				  GFP_KERNEL_ACCOUNT);

	return ret < 0 ? ret : 0;
}

/**
 * kb_freeze_remove_proc() - a process is being torn down
 * @proc: the process
 */
void kb_freeze_remove_proc(struct kb_proc *proc)
{
	xa_erase(&kb_freeze_procs, proc->freeze_id);
}

/*
 * The process with the lowest id at or above *@index, with a memory
 * reference (a listed process still has its file's), or NULL; *@index is
 * set to its id.
 */
static struct kb_proc *kb_freeze_next_proc(unsigned long *index)
{
	struct kb_proc *proc;

	xa_lock(&kb_freeze_procs);
	proc = xa_find(&kb_freeze_procs, index, ULONG_MAX, XA_PRESENT);
	if (proc)
		kb_proc_get(proc);
	xa_unlock(&kb_freeze_procs);
	return proc;
}

/**
 * kb_freeze_visit_procs() - visit every process not yet torn down
 * @v: its visit() is called with no lock held and a memory reference on
 *	the process (it may sleep and take any lock of the process; the
 *	process may be torn down meanwhile)
 *
 * For the logs and the freeze ioctls; never on the transaction path. A
 * process that comes or goes during the walk may or may not be visited.
 */
void kb_freeze_visit_procs(struct kb_proc_visitor *v)
{
	unsigned long index = 0;
	struct kb_proc *proc;

	while ((proc = kb_freeze_next_proc(&index))) {
		v->visit(proc, v);
		kb_proc_put(proc);
		if (index == ULONG_MAX)
			break;
		index++;
		cond_resched();
	}
}

/* Calls sent to the process and not finished, or calls it is in. */
static bool kb_freeze_txns_pending(struct kb_proc *proc)
	__must_hold(&proc->inner_lock)
{
	lockdep_assert_held(&proc->inner_lock);
	return kb_proc_outstanding_locked(proc) ||
	       kb_proc_threads_in_call_locked(proc);
}

static bool kb_freeze_drained(struct kb_proc *proc)
{
	bool drained;

	spin_lock(&proc->inner_lock);
	drained = !kb_proc_outstanding_locked(proc);
	spin_unlock(&proc->inner_lock);
	return drained;
}

static int kb_freeze_one(struct kb_proc *proc,
			 const struct binder_freeze_info *info)
{
	long ret = 0;

	spin_lock(&proc->inner_lock);
	kb_proc_set_frozen_locked(proc, info->enable);
	spin_unlock(&proc->inner_lock);
	if (!info->enable) {
		kb_node_fire_notices(proc, KB_NOTICE_FREEZE, false);
		return 0;
	}

	if (info->timeout_ms > 0)
		ret = wait_event_interruptible_timeout(proc->freeze_wait,
						       kb_freeze_drained(proc),
						       msecs_to_jiffies(info->timeout_ms));
	spin_lock(&proc->inner_lock);
	if (ret >= 0 && kb_freeze_txns_pending(proc))
		ret = -EAGAIN;
	if (ret < 0)
		kb_proc_freeze_failed_locked(proc);
	spin_unlock(&proc->inner_lock);
	if (ret < 0)
		return ret;
	kb_node_fire_notices(proc, KB_NOTICE_FREEZE, true);
	return 0;
}

/* Whether current may signal @task, by the rules of kill(2). */
static bool kb_freeze_may_signal(struct task_struct *task)
{
	const struct cred *cred = current_cred();
	const struct cred *tcred;
	bool ok;

	rcu_read_lock();
	tcred = __task_cred(task);
	ok = uid_eq(cred->euid, tcred->suid) || uid_eq(cred->euid, tcred->uid) ||
	     uid_eq(cred->uid, tcred->suid) || uid_eq(cred->uid, tcred->uid) ||
	     ns_capable(tcred->user_ns, CAP_KILL);
	rcu_read_unlock();
	return ok;
}

/*
 * The process (thread group leader) with tgid @nr in the caller's pid
 * namespace, with a reference: ERR_PTR(-EINVAL) if there is none there,
 * ERR_PTR(-EPERM) if the caller may not signal it.
 */
static struct task_struct *kb_freeze_task(u32 nr)
{
	struct task_struct *task = NULL;

	if (nr > INT_MAX)
		return ERR_PTR(-EINVAL);
	rcu_read_lock();
	task = pid_task(find_vpid(nr), PIDTYPE_TGID);
	if (task)
		get_task_struct(task);
	rcu_read_unlock();
	if (!task)
		return ERR_PTR(-EINVAL);
	if (!kb_freeze_may_signal(task)) {
		put_task_struct(task);
		return ERR_PTR(-EPERM);
	}
	return task;
}

/*
 * Whether a process is a target of a freeze ioctl made in @ctx: opened by
 * @task, in one of the caller's worlds: those of its binderfs mount, or
 * the plain devices' worlds of its IPC namespace (kb_context_same_domain()).
 * Upstream reaches every process of the task, in any world.
 */
static bool kb_freeze_is_target(struct kb_proc *proc, struct task_struct *task,
				const struct kb_context *ctx)
{
	return proc->tsk == task && kb_context_same_domain(proc->ctx, ctx);
}

/**
 * struct kb_freeze_walk - one BINDER_FREEZE or BINDER_GET_FROZEN_INFO
 * @v: visits each process
 * @task: the target process's leader
 * @ctx: the caller's world
 * @freeze: the freeze to apply, or NULL (BINDER_GET_FROZEN_INFO)
 * @info: what BINDER_GET_FROZEN_INFO gathers
 * @found: a target was visited
 * @ret: the first error of a freeze (no further target is frozen then)
 */
struct kb_freeze_walk {
	struct kb_proc_visitor v;
	struct task_struct *task;
	const struct kb_context *ctx;
	const struct binder_freeze_info *freeze;
	struct binder_frozen_status_info *info;
	bool found;
	int ret;
};

static void kb_freeze_visit(struct kb_proc *proc, struct kb_proc_visitor *v)
{
	struct kb_freeze_walk *w = container_of(v, struct kb_freeze_walk, v);

	if (!kb_freeze_is_target(proc, w->task, w->ctx))
		return;
	w->found = true;
	if (w->freeze) {
		if (!w->ret)
			w->ret = kb_freeze_one(proc, w->freeze);
		return;
	}
	spin_lock(&proc->inner_lock);
	w->info->sync_recv |= kb_proc_sync_recv_locked(proc) |
			      (kb_freeze_txns_pending(proc) << 1);
	w->info->async_recv |= kb_proc_async_recv_locked(proc);
	spin_unlock(&proc->inner_lock);
}

/**
 * kb_freeze_ioctl() - BINDER_FREEZE
 * @caller: the calling process (its world bounds the search)
 * @info: pid, enable, timeout
 *
 * Return: 0, -EINVAL (no such process in the caller's worlds), -EPERM
 * (the caller may not signal it), -EAGAIN (calls still pending), or
 * -ERESTARTSYS.
 */
int kb_freeze_ioctl(struct kb_proc *caller,
		    const struct binder_freeze_info *info)
{
	struct kb_freeze_walk w = {
		.v.visit = kb_freeze_visit,
		.task = kb_freeze_task(info->pid),
		.ctx = caller->ctx,
		.freeze = info,
	};

	if (IS_ERR(w.task))
		return PTR_ERR(w.task);
	kb_freeze_visit_procs(&w.v);
	put_task_struct(w.task);
	return w.found ? w.ret : -EINVAL;
}

/**
 * kb_freeze_get_info() - BINDER_GET_FROZEN_INFO
 * @caller: the calling process (its world bounds the search)
 * @info: in: the pid; out: what the frozen process received (sync_recv
 *	bit 1: calls still pending)
 *
 * Return: 0, -EINVAL (no such process in the caller's worlds) or -EPERM
 * (the caller may not signal it).
 */
int kb_freeze_get_info(struct kb_proc *caller,
		       struct binder_frozen_status_info *info)
{
	struct kb_freeze_walk w = {
		.v.visit = kb_freeze_visit,
		.task = kb_freeze_task(info->pid),
		.ctx = caller->ctx,
		.info = info,
	};

	if (IS_ERR(w.task))
		return PTR_ERR(w.task);
	info->sync_recv = 0;
	info->async_recv = 0;
	kb_freeze_visit_procs(&w.v);
	put_task_struct(w.task);
	return w.found ? 0 : -EINVAL;
}
