// SPDX-License-Identifier: GPL-2.0-only
/*
 * Freezing a process's binder state.
 *
 * A frozen process refuses synchronous calls (BR_FROZEN_REPLY) and
 * accepts one-way calls (queued as usual); both are recorded so that
 * BINDER_GET_FROZEN_INFO can tell the freezer what arrived. Freezing waits
 * up to the given time for the transactions already sent to the process to
 * finish, and fails with -EAGAIN while a call is still pending.
 *
 * Processes are found by pid through a list used only by these ioctls
 * (kb_freeze_lock), never on the transaction path. The pid is read in the
 * caller's pid namespace, and the caller must be allowed to signal the
 * process (same real or effective uid as its real or saved uid, or
 * CAP_KILL in its user namespace), as for kill(2): freezing is the
 * binder side of a process freezer.
 *
 * While the process is frozen, a one-way call flagged TF_UPDATE_TXN
 * replaces a call still waiting on the same node that has the same code,
 * the same flags and the same sending process (as upstream since 5.19;
 * the node does it as the call is queued, kb_node_take_outdated_locked()).
 */
#include "internal.h"

#include <linux/cred.h>
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/wait.h>

#include "freeze.h"
#include "freeze_notify.h"
#include "node.h"
#include "proc.h"
#include "thread.h"
#include "transaction.h"

static DEFINE_MUTEX(kb_freeze_lock);
static LIST_HEAD(kb_freeze_procs);

/**
 * kb_freeze_add_proc() - make a new process findable by pid
 * @proc: the process
 */
void kb_freeze_add_proc(struct kb_proc *proc)
{
	mutex_lock(&kb_freeze_lock);
	list_add_tail(&proc->freeze_entry, &kb_freeze_procs);
	mutex_unlock(&kb_freeze_lock);
}

/**
 * kb_freeze_remove_proc() - a process is being torn down
 * @proc: the process
 */
void kb_freeze_remove_proc(struct kb_proc *proc)
{
	mutex_lock(&kb_freeze_lock);
	list_del_init(&proc->freeze_entry);
	mutex_unlock(&kb_freeze_lock);
}

/**
 * kb_freeze_visit_procs() - visit every process not yet torn down
 * @v: its visit() is called with kb_freeze_lock held (it may sleep, and
 *	may take any lock of the process)
 *
 * For the logs; never on the transaction path.
 */
void kb_freeze_visit_procs(struct kb_proc_visitor *v)
{
	struct kb_proc *proc;

	mutex_lock(&kb_freeze_lock);
	list_for_each_entry(proc, &kb_freeze_procs, freeze_entry)
		v->visit(proc, v);
	mutex_unlock(&kb_freeze_lock);
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
		kb_freeze_notify_changed(proc, false);
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
	kb_freeze_notify_changed(proc, true);
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

/* Every process opened by @task, each with a memory reference. */
static struct kb_proc **kb_freeze_find(struct task_struct *task, int *count)
{
	struct kb_proc *proc, **procs;
	int n = 0;

	mutex_lock(&kb_freeze_lock);
	list_for_each_entry(proc, &kb_freeze_procs, freeze_entry)
		n += proc->tsk == task;
	procs = n ? kcalloc(n, sizeof(*procs), GFP_KERNEL) : NULL;
	if (procs) {
		n = 0;
		list_for_each_entry(proc, &kb_freeze_procs, freeze_entry) {
			if (proc->tsk != task)
				continue;
			kb_proc_get(proc);
			procs[n++] = proc;
		}
	}
	mutex_unlock(&kb_freeze_lock);
	*count = n;
	return procs;
}

/**
 * kb_freeze_ioctl() - BINDER_FREEZE
 * @info: pid, enable, timeout
 *
 * Return: 0, -EINVAL (no such process), -EPERM (the caller may not signal
 * it), -EAGAIN (calls still pending), -ENOMEM, or -ERESTARTSYS.
 */
int kb_freeze_ioctl(const struct binder_freeze_info *info)
{
	struct task_struct *task = kb_freeze_task(info->pid);
	struct kb_proc **procs;
	int count, i, ret = 0;

	if (IS_ERR(task))
		return PTR_ERR(task);
	procs = kb_freeze_find(task, &count);
	put_task_struct(task);
	if (!procs)
		return count ? -ENOMEM : -EINVAL;
	for (i = 0; i < count; i++) {
		if (!ret)
			ret = kb_freeze_one(procs[i], info);
		kb_proc_put(procs[i]);
	}
	kfree(procs);
	return ret;
}

/**
 * kb_freeze_get_info() - BINDER_GET_FROZEN_INFO
 * @info: in: the pid; out: what the frozen process received (sync_recv
 *	bit 1: calls still pending)
 *
 * Return: 0, -EINVAL (no such process) or -EPERM (the caller may not
 * signal it).
 */
int kb_freeze_get_info(struct binder_frozen_status_info *info)
{
	struct task_struct *task = kb_freeze_task(info->pid);
	struct kb_proc *proc;
	bool found = false;

	if (IS_ERR(task))
		return PTR_ERR(task);
	info->sync_recv = 0;
	info->async_recv = 0;
	mutex_lock(&kb_freeze_lock);
	list_for_each_entry(proc, &kb_freeze_procs, freeze_entry) {
		if (proc->tsk != task)
			continue;
		found = true;
		spin_lock(&proc->inner_lock);
		info->sync_recv |= kb_proc_sync_recv_locked(proc) |
				   (kb_freeze_txns_pending(proc) << 1);
		info->async_recv |= kb_proc_async_recv_locked(proc);
		spin_unlock(&proc->inner_lock);
	}
	mutex_unlock(&kb_freeze_lock);
	put_task_struct(task);
	return found ? 0 : -EINVAL;
}
