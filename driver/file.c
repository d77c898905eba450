// SPDX-License-Identifier: GPL-2.0-only
/*
 * The binder file: open, mmap, poll, ioctl, flush and release, and the
 * order of a process's teardown. The top of the driver: it calls every
 * layer below, and none calls it (main.c hands its file operations to the
 * devices, and to the process layer, which recognises a binder file by
 * them).
 */
#include "internal.h"

#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#include "command.h"
#include "context.h"
#include "context_mgr.h"
#include "file.h"
#include "freeze.h"
#include "node.h"
#include "proc.h"
#include "queue.h"
#include "read.h"
#include "ref.h"
#include "thread.h"
#include "transaction.h"

/*
 * A thread exits (BINDER_THREAD_EXIT, or its process's teardown), in
 * dependency order: it is taken off its process first, so nothing new is
 * queued or stacked on it; then its transaction stack is unwound (the
 * innermost call it received is answered with BR_DEAD_REPLY); then it
 * leaves any epoll set, its queued work is cancelled and the process's
 * reference on it is dropped. The caller keeps its own reference, if any.
 */
static void kb_file_thread_exit(struct kb_thread *thread)
{
	bool polled;

	if (!kb_thread_detach(thread, &polled))
		return;
	kb_transaction_thread_exit(thread);
	kb_thread_release(thread, polled);
}

/*
 * The calling thread's state (kb_thread_current(), or with @get a
 * reference of the caller's own, kb_thread_get_current()). The states of
 * exited threads are released here: the one under the pid number the
 * caller has now, and, whenever a new state is made, up to KB_THREAD_REAP
 * states of threads that are gone. A thread need not make
 * BINDER_THREAD_EXIT: a process cycling through short-lived threads keeps
 * about as many states as it has live threads.
 */
static struct kb_thread *kb_file_thread(struct kb_proc *proc, bool get)
{
	struct kb_thread_lookup l;
	struct kb_thread *thread, *gone;
	int i;

	for (;;) {
		thread = get ? kb_thread_get_current(proc, &l) :
			       kb_thread_current(proc, &l);
		if (!l.gone)
			break;
		kb_file_thread_exit(l.gone);
		kb_thread_put(l.gone);
	}
	for (i = 0; thread && l.created && i < KB_THREAD_REAP; i++) {
		gone = kb_thread_next_gone(proc);
		if (!gone)
			break;
		kb_file_thread_exit(gone);
		kb_thread_put(gone);
	}
	return thread;
}

/*
 * Release every thread of a dying process: one lookup (O(log n) under the
 * lock) per thread, and a chance to reschedule after each.
 */
static void kb_file_release_threads(struct kb_proc *proc)
{
	struct kb_thread *thread;

	/* A released thread leaves the tree: the first is always a new one. */
	while ((thread = kb_thread_next(proc, INT_MIN))) {
		kb_file_thread_exit(thread);
		kb_thread_put(thread);
		cond_resched();
	}
}

/* Cancel what is queued to each thread of a process nobody reads. */
static void kb_file_cancel_thread_work(struct kb_proc *proc)
{
	struct kb_thread *thread;
	pid_t after = INT_MIN;

	while ((thread = kb_thread_next(proc, after))) {
		after = thread->pid;
		kb_queue_discard_thread(thread);
		kb_thread_put(thread);
		cond_resched();
	}
}

/*
 * Work nobody can read any more: the transactions queued to the process,
 * its threads and its nodes. Cancelling answers the senders and drops what
 * the work held (files of fd objects among them). Notices are left to the
 * teardown: a thread of another process holding the file (a forked child)
 * may still free them through their refs.
 */
static void kb_file_discard_incoming(struct kb_proc *proc)
{
	kb_queue_discard_proc(proc);
	kb_file_cancel_thread_work(proc);
	kb_proc_cancel_async(proc);
}

/*
 * The discard work (queued by the process layer once the area is gone, or
 * when the last sender towards a dying process leaves).
 */
static void kb_file_discard_work(struct work_struct *work)
{
	struct kb_proc *proc = container_of(work, struct kb_proc,
					    discard_work);
	bool take;

	/* Queued only once the process is dead (proc.h's diagram). */
	WARN_ON_ONCE(!kb_proc_is_dead(proc));
	/* Never beside the teardown: both cancel work, both may free the area. */
	mutex_lock(&proc->teardown_lock);
	kb_file_discard_incoming(proc);
	take = kb_proc_take_area(proc);
	mutex_unlock(&proc->teardown_lock);
	if (take)
		kb_proc_free_area(proc);
	kb_proc_put(proc);
}

/* Open on @ctx, whose reference the process takes over. */
static int kb_file_open_ctx(struct file *file, struct kb_context *ctx)
{
	struct kb_proc *proc;
	int ret;

	proc = kb_proc_create(ctx, file->f_cred);
	if (!proc)
		return -ENOMEM;
	INIT_WORK(&proc->discard_work, kb_file_discard_work);
	ret = kb_freeze_add_proc(proc);
	if (ret) {
		/* Never mapped: this just drops the opener's mm and the proc. */
		kb_proc_abort(proc);
		return ret;
	}
	file->private_data = proc;
	return 0;
}

/* A misc device: the world of the opener's IPC namespace. */
static int kb_file_open_misc(struct inode *inode, struct file *file)
{
	struct kb_context *ctx = kb_device_context(file->private_data);

	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	return kb_file_open_ctx(file, ctx);
}

/*
 * A binderfs device: its world hangs off the inode, which the open file
 * keeps alive (unlinked or not) until it is closed.
 */
static int kb_file_open_fs(struct inode *inode, struct file *file)
{
	return kb_file_open_ctx(file, kb_context_get(inode->i_private));
}

/*
 * Teardown, in dependency order: refuse new work; give up the context
 * manager; fail the calls the threads were in; cancel queued work
 * (answering its senders); detach the nodes (firing death notifications);
 * drop the refs; free the receive area. Nothing here waits for userspace:
 * a sender still filling a buffer in the area (stalled in a user copy, on
 * a FUSE or userfaultfd page) keeps only the area, which the last such
 * sender frees (kb_proc_last_sender_gone()).
 */
static void kb_file_release_work(struct work_struct *work)
{
	struct kb_proc *proc = container_of(work, struct kb_proc, release_work);
	bool take;

	mutex_lock(&proc->teardown_lock);
	kb_freeze_remove_proc(proc);
	kb_proc_set_dead(proc);

	kb_context_release_mgr(proc);
	kb_file_release_threads(proc);
	kb_proc_cancel_todo(proc);
	kb_proc_release_nodes(proc);
	kb_proc_release_refs(proc);
	kb_proc_cancel_delivered(proc);
	/* Only now may the area go: the steps above free buffers in it. */
	kb_proc_set_released(proc);
	take = kb_proc_take_area(proc);
	mutex_unlock(&proc->teardown_lock);
	/* Unlocked: this drops the file's reference, maybe the last one. */
	if (take)
		kb_proc_free_area(proc);
}

static int kb_file_release(struct inode *inode, struct file *file)
{
	struct kb_proc *proc = file->private_data;

	INIT_WORK(&proc->release_work, kb_file_release_work);
	kb_proc_queue_release(proc);
	return 0;
}

static int kb_file_flush(struct file *file, fl_owner_t id)
{
	kb_queue_flush(file->private_data);
	return 0;
}

static void kb_vma_close(struct vm_area_struct *vma)
{
	struct kb_proc *proc = vma->vm_private_data;

	kb_alloc_vma_close(&proc->alloc);
	/*
	 * The area is gone for good (it cannot be mapped again), whether
	 * the opener exited, exec'd or called munmap(): nothing queued to the
	 * process can ever be read. A munmap() before exit must not keep a
	 * binder file in flight alive (issue 10, defect 5).
	 */
	kb_proc_opener_exit(proc);
}

static vm_fault_t kb_vma_fault(struct vm_fault *vmf)
{
	return VM_FAULT_SIGBUS;
}

static const struct vm_operations_struct kb_vm_ops = {
	.close = kb_vma_close,
	.fault = kb_vma_fault,
};

static int kb_file_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct kb_proc *proc = file->private_data;

	if (proc->tsk != current->group_leader)
		return -EINVAL;
	if (vma->vm_flags & VM_WRITE)
		return -EPERM;
	vm_flags_clear(vma, VM_MAYWRITE);
	/* Never grown by mremap() (the CVE-2019-2213 family). */
	vm_flags_set(vma, VM_DONTEXPAND);
	vma->vm_ops = &kb_vm_ops;
	vma->vm_private_data = proc;
	return kb_alloc_mmap(&proc->alloc, vma);
}

static __poll_t kb_file_poll(struct file *file, poll_table *wait)
{
	struct kb_proc *proc = file->private_data;
	struct kb_thread *thread;
	bool proc_work, has_work;

	thread = kb_file_thread(proc, true);
	if (!thread)
		return EPOLLERR;
	spin_lock(&proc->inner_lock);
	kb_queue_set_polled_locked(thread);
	proc_work = kb_queue_wants_proc_work_locked(thread);
	spin_unlock(&proc->inner_lock);

	poll_wait(file, &thread->wait, wait);

	spin_lock(&proc->inner_lock);
	has_work = kb_queue_has_work_locked(thread, proc_work);
	spin_unlock(&proc->inner_lock);
	kb_thread_put(thread);
	return has_work ? EPOLLIN : 0;
}

static int kb_ioctl_write_read(struct file *file, struct kb_thread *thread,
			       void __user *ubuf)
{
	struct binder_write_read bwr;
	int ret = 0;

	if (copy_from_user(&bwr, ubuf, sizeof(bwr)))
		return -EFAULT;
	if (bwr.write_size > 0) {
		ret = kb_thread_write(thread, bwr.write_buffer, bwr.write_size,
				      &bwr.write_consumed);
		if (ret < 0) {
			bwr.read_consumed = 0;
			goto out;
		}
	}
	if (bwr.read_size > 0) {
		/* It wakes another thread for process work it left. */
		ret = kb_thread_read(thread, bwr.read_buffer, bwr.read_size,
				     &bwr.read_consumed,
				     file->f_flags & O_NONBLOCK);
	}
out:
	if (copy_to_user(ubuf, &bwr, sizeof(bwr)))
		return -EFAULT;
	return ret;
}

static int kb_ioctl_set_mgr(struct kb_proc *proc, void __user *ubuf,
			    bool ext)
{
	struct flat_binder_object fbo = {};

	if (ext && copy_from_user(&fbo, ubuf, sizeof(fbo)))
		return -EFAULT;
	return kb_context_set_mgr(proc, &fbo);
}

static int kb_ioctl_node_info(struct kb_proc *proc, void __user *ubuf)
{
	struct binder_node_info_for_ref info;
	int ret;

	if (copy_from_user(&info, ubuf, sizeof(info)))
		return -EFAULT;
	ret = kb_ref_node_info(proc, &info);
	if (ret)
		return ret;
	return copy_to_user(ubuf, &info, sizeof(info)) ? -EFAULT : 0;
}

static int kb_ioctl_node_debug(struct kb_proc *proc, void __user *ubuf)
{
	struct binder_node_debug_info info;

	if (copy_from_user(&info, ubuf, sizeof(info)))
		return -EFAULT;
	kb_node_debug_info(proc, &info);
	return copy_to_user(ubuf, &info, sizeof(info)) ? -EFAULT : 0;
}

static int kb_ioctl_extended_error(struct kb_thread *thread, void __user *ubuf)
{
	struct binder_extended_error ee = kb_thread_take_error(thread);

	return copy_to_user(ubuf, &ee, sizeof(ee)) ? -EFAULT : 0;
}

static int kb_ioctl_spam_detection(struct kb_proc *proc, void __user *ubuf)
{
	u32 enable;

	if (copy_from_user(&enable, ubuf, sizeof(enable)))
		return -EFAULT;
	kb_proc_set_spam_detection(proc, enable);
	return 0;
}

static int kb_ioctl_freeze(struct kb_proc *proc, void __user *ubuf)
{
	struct binder_freeze_info info;

	if (copy_from_user(&info, ubuf, sizeof(info)))
		return -EFAULT;
	return kb_freeze_ioctl(proc, &info);
}

static int kb_ioctl_frozen_info(struct kb_proc *proc, void __user *ubuf)
{
	struct binder_frozen_status_info info;
	int ret;

	if (copy_from_user(&info, ubuf, sizeof(info)))
		return -EFAULT;
	ret = kb_freeze_get_info(proc, &info);
	if (ret)
		return ret;
	return copy_to_user(ubuf, &info, sizeof(info)) ? -EFAULT : 0;
}

static long kb_file_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	struct kb_proc *proc = file->private_data;
	void __user *ubuf = (void __user *)arg;
	struct kb_thread *thread;
	u32 max_threads;
	long ret;

	thread = kb_file_thread(proc, false);
	if (!thread)
		return -ENOMEM;
	switch (cmd) {
	case BINDER_WRITE_READ:
		ret = kb_ioctl_write_read(file, thread, ubuf);
		break;
	case BINDER_SET_MAX_THREADS:
		ret = -EFAULT;
		if (copy_from_user(&max_threads, ubuf, sizeof(max_threads)))
			break;
		kb_proc_set_max_threads(proc, max_threads);
		ret = 0;
		break;
	case BINDER_SET_CONTEXT_MGR_EXT:
	case BINDER_SET_CONTEXT_MGR:
		ret = kb_ioctl_set_mgr(proc, ubuf,
				       cmd == BINDER_SET_CONTEXT_MGR_EXT);
		break;
	case BINDER_THREAD_EXIT:
		/* The tree's reference goes: @thread must not be touched after. */
		kb_file_thread_exit(thread);
		return 0;
	case BINDER_VERSION:
		ret = put_user(KB_PROTOCOL_VERSION,
			       &((struct binder_version __user *)ubuf)->protocol_version);
		break;
	case BINDER_GET_NODE_INFO_FOR_REF:
		ret = kb_ioctl_node_info(proc, ubuf);
		break;
	case BINDER_GET_NODE_DEBUG_INFO:
		ret = kb_ioctl_node_debug(proc, ubuf);
		break;
	case BINDER_GET_EXTENDED_ERROR:
		ret = kb_ioctl_extended_error(thread, ubuf);
		break;
	case BINDER_ENABLE_ONEWAY_SPAM_DETECTION:
		ret = kb_ioctl_spam_detection(proc, ubuf);
		break;
	case BINDER_FREEZE:
		ret = kb_ioctl_freeze(proc, ubuf);
		break;
	case BINDER_GET_FROZEN_INFO:
		ret = kb_ioctl_frozen_info(proc, ubuf);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	kb_thread_ioctl_done(thread);
	return ret;
}

/* The file operations of a misc device, then of a binderfs device. */
const struct file_operations kb_file_fops = {
	.owner = THIS_MODULE,
	.open = kb_file_open_misc,
	.mmap = kb_file_mmap,
	.poll = kb_file_poll,
	.unlocked_ioctl = kb_file_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.flush = kb_file_flush,
	.release = kb_file_release,
};

const struct file_operations kb_file_fs_fops = {
	.owner = THIS_MODULE,
	.open = kb_file_open_fs,
	.mmap = kb_file_mmap,
	.poll = kb_file_poll,
	.unlocked_ioctl = kb_file_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.flush = kb_file_flush,
	.release = kb_file_release,
};

