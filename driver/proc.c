// SPDX-License-Identifier: GPL-2.0-only
/*
 * The binder file: open, mmap, poll, ioctl, flush and release, and the
 * deferred teardown of a process.
 */
#include "internal.h"

#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "command.h"
#include "context.h"
#include "freeze.h"
#include "node.h"
#include "proc.h"
#include "read.h"
#include "ref.h"
#include "stats.h"
#include "thread.h"
#include "transaction.h"
#include "work.h"

static struct workqueue_struct *kb_release_wq;

/**
 * kb_proc_free() - free a process whose last memory reference was dropped
 * @proc: the process, its teardown done; called by kb_proc_put() only
 */
void kb_proc_free(struct kb_proc *proc)
{
	ida_destroy(&proc->descs);
	put_cred(proc->cred);
	put_task_struct(proc->tsk);
	kb_context_put(proc->ctx);
	kfree(proc);
	kb_stats_destroyed(KB_OBJ_PROC);
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
	ok = !proc->inner.is_dead;
	if (ok)
		proc->inner.senders++;
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
	last = --proc->inner.senders == 0 && proc->inner.is_dead;
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

/*
 * Whether to take the last step of a teardown, true exactly once: the
 * teardown's other steps are done and no sender is filling a buffer in
 * the area any more.
 */
static bool kb_proc_take_area(struct kb_proc *proc)
{
	bool take;

	spin_lock(&proc->inner_lock);
	take = proc->inner.released && !proc->inner.area_freed &&
	       !proc->inner.senders;
	if (take)
		proc->inner.area_freed = true;
	spin_unlock(&proc->inner_lock);
	return take;
}

/* Free the receive area and drop the file's memory reference. */
static void kb_proc_free_area(struct kb_proc *proc)
{
	unsigned int left;

	left = kb_alloc_release(&proc->alloc);
	kb_stats_destroyed_n(KB_OBJ_BUFFER, left);
	kb_proc_put(proc);
}

/*
 * The first live thread of @proc whose id is above @after, with a memory
 * reference, or NULL. The tree is walked from the top each time: the lock
 * is dropped while each thread's work is cancelled.
 */
static struct kb_thread *kb_proc_next_thread(struct kb_proc *proc,
					     pid_t after)
{
	struct kb_thread *thread, *found = NULL;
	struct rb_node *n;

	spin_lock(&proc->inner_lock);
	n = proc->inner.threads.rb_node;
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

/* Cancel what is queued to each thread of a process nobody reads. */
static void kb_proc_cancel_thread_work(struct kb_proc *proc)
{
	struct kb_thread *thread;
	pid_t after = INT_MIN;

	while ((thread = kb_proc_next_thread(proc, after))) {
		after = thread->pid;
		kb_work_discard_owned(proc, &thread->inner.todo);
		kb_thread_put(thread);
	}
}

/*
 * Work nobody can read any more: the transactions queued to the process,
 * its threads and its nodes. Cancelling answers the senders and drops what
 * the work held (files of fd objects among them). Notices are left to the
 * teardown: a thread of another process holding the file (a forked child)
 * may still free them through their refs.
 */
static void kb_proc_discard_incoming(struct kb_proc *proc)
{
	kb_work_discard_owned(proc, &proc->inner.todo);
	kb_proc_cancel_thread_work(proc);
	kb_proc_cancel_async(proc);
}

static void kb_proc_discard_work(struct work_struct *work)
{
	struct kb_proc *proc = container_of(work, struct kb_proc,
					    discard_work);
	bool take;

	/* Never beside the teardown: both cancel work, both may free the area. */
	mutex_lock(&proc->teardown_lock);
	kb_proc_discard_incoming(proc);
	take = kb_proc_take_area(proc);
	mutex_unlock(&proc->teardown_lock);
	if (take)
		kb_proc_free_area(proc);
	kb_proc_put(proc);
}

/*
 * The receive area is unmapped for good (the opener exited, exec'd or
 * unmapped it; it cannot be mapped again), so no one can ever read what is
 * queued to the process. Mark it dead now and drop
 * that work, instead of when the file is released: a file in flight in
 * that work (a unix socket or io_uring that carries this or another binder
 * file) may be what keeps the file from being released at all.
 */
static void kb_proc_opener_exit(struct kb_proc *proc)
{
	bool first;

	spin_lock(&proc->inner_lock);
	first = !proc->inner.is_dead;
	proc->inner.is_dead = true;
	spin_unlock(&proc->inner_lock);
	if (first)
		kb_proc_queue_discard(proc);
}

/* Open on @ctx, whose reference the process takes over. */
static int kb_proc_open_ctx(struct file *file, struct kb_context *ctx)
{
	struct kb_proc *proc;

	proc = kzalloc(sizeof(*proc), GFP_KERNEL_ACCOUNT);
	if (!proc) {
		kb_context_put(ctx);
		return -ENOMEM;
	}
	proc->ctx = ctx;
	proc->pid = current->group_leader->pid;
	get_task_struct(current->group_leader);
	proc->tsk = current->group_leader;
	proc->cred = get_cred(file->f_cred);
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
	INIT_LIST_HEAD(&proc->inner.delivered_death);
	INIT_LIST_HEAD(&proc->inner.delivered_freeze);
	INIT_WORK(&proc->discard_work, kb_proc_discard_work);
	init_waitqueue_head(&proc->freeze_wait);
	kb_alloc_init(&proc->alloc);
	kb_stats_created(KB_OBJ_PROC);
	kb_freeze_add_proc(proc);
	file->private_data = proc;
	return 0;
}

/* A misc device: the world of the opener's IPC namespace. */
static int kb_proc_open_misc(struct inode *inode, struct file *file)
{
	struct kb_context *ctx = kb_device_context(file->private_data);

	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	return kb_proc_open_ctx(file, ctx);
}

/*
 * A binderfs device: its world hangs off the inode, which the open file
 * keeps alive (unlinked or not) until it is closed.
 */
static int kb_proc_open_fs(struct inode *inode, struct file *file)
{
	return kb_proc_open_ctx(file, kb_context_get(inode->i_private));
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
static void kb_proc_release_work(struct work_struct *work)
{
	struct kb_proc *proc = container_of(work, struct kb_proc, release_work);
	bool take;

	mutex_lock(&proc->teardown_lock);
	kb_freeze_remove_proc(proc);
	spin_lock(&proc->inner_lock);
	proc->inner.is_dead = true;
	spin_unlock(&proc->inner_lock);

	kb_context_release_mgr(proc);
	kb_proc_release_threads(proc);
	kb_work_cancel_list(proc, &proc->inner.todo);
	kb_proc_release_nodes(proc);
	kb_proc_release_refs(proc);
	kb_work_cancel_list(proc, &proc->inner.delivered_death);
	kb_work_cancel_list(proc, &proc->inner.delivered_freeze);
	/* Only now may the area go: the steps above free buffers in it. */
	spin_lock(&proc->inner_lock);
	proc->inner.released = true;
	spin_unlock(&proc->inner_lock);
	take = kb_proc_take_area(proc);
	mutex_unlock(&proc->teardown_lock);
	/* Unlocked: this drops the file's reference, maybe the last one. */
	if (take)
		kb_proc_free_area(proc);
}

static int kb_proc_release(struct inode *inode, struct file *file)
{
	struct kb_proc *proc = file->private_data;

	INIT_WORK(&proc->release_work, kb_proc_release_work);
	queue_work(kb_release_wq, &proc->release_work);
	return 0;
}

static int kb_proc_flush(struct file *file, fl_owner_t id)
{
	kb_proc_flush_threads(file->private_data);
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

static int kb_proc_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct kb_proc *proc = file->private_data;

	if (proc->tsk != current->group_leader)
		return -EINVAL;
	if (vma->vm_flags & VM_WRITE)
		return -EPERM;
	vma->vm_flags &= ~VM_MAYWRITE;
	vma->vm_ops = &kb_vm_ops;
	vma->vm_private_data = proc;
	return kb_alloc_mmap(&proc->alloc, vma);
}

static __poll_t kb_proc_poll(struct file *file, poll_table *wait)
{
	struct kb_proc *proc = file->private_data;
	struct kb_thread *thread;
	bool proc_work, has_work;

	thread = kb_thread_get_current(proc);
	if (!thread)
		return EPOLLERR;
	spin_lock(&proc->inner_lock);
	thread->inner.looper |= KB_LOOPER_POLL;
	proc_work = kb_thread_wants_proc_work(thread);
	spin_unlock(&proc->inner_lock);

	poll_wait(file, &thread->wait, wait);

	spin_lock(&proc->inner_lock);
	has_work = kb_thread_has_work(thread, proc_work);
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
	spin_lock(&proc->inner_lock);
	proc->inner.spam_detection = enable;
	spin_unlock(&proc->inner_lock);
	return 0;
}

static int kb_ioctl_freeze(void __user *ubuf)
{
	struct binder_freeze_info info;

	if (copy_from_user(&info, ubuf, sizeof(info)))
		return -EFAULT;
	return kb_freeze_ioctl(&info);
}

static int kb_ioctl_frozen_info(void __user *ubuf)
{
	struct binder_frozen_status_info info;
	int ret;

	if (copy_from_user(&info, ubuf, sizeof(info)))
		return -EFAULT;
	ret = kb_freeze_get_info(&info);
	if (ret)
		return ret;
	return copy_to_user(ubuf, &info, sizeof(info)) ? -EFAULT : 0;
}

static long kb_proc_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	struct kb_proc *proc = file->private_data;
	void __user *ubuf = (void __user *)arg;
	struct kb_thread *thread;
	u32 max_threads;
	long ret;

	thread = kb_thread_current(proc);
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
		spin_lock(&proc->inner_lock);
		proc->inner.max_threads = max_threads;
		spin_unlock(&proc->inner_lock);
		ret = 0;
		break;
	case BINDER_SET_CONTEXT_MGR_EXT:
	case BINDER_SET_CONTEXT_MGR:
		ret = kb_ioctl_set_mgr(proc, ubuf,
				       cmd == BINDER_SET_CONTEXT_MGR_EXT);
		break;
	case BINDER_THREAD_EXIT:
		kb_thread_release(thread);
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
		ret = kb_ioctl_freeze(ubuf);
		break;
	case BINDER_GET_FROZEN_INFO:
		ret = kb_ioctl_frozen_info(ubuf);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	/*
	 * Only a new thread or a flush sets need_return: peek first, so the
	 * common ioctl does not take the lock again.
	 */
	if (unlikely(data_race(thread->inner.need_return))) {
		spin_lock(&proc->inner_lock);
		thread->inner.need_return = false;
		spin_unlock(&proc->inner_lock);
	}
	return ret;
}

/* The file operations of a misc device, then of a binderfs device. */
const struct file_operations kb_proc_fops = {
	.owner = THIS_MODULE,
	.open = kb_proc_open_misc,
	.mmap = kb_proc_mmap,
	.poll = kb_proc_poll,
	.unlocked_ioctl = kb_proc_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.flush = kb_proc_flush,
	.release = kb_proc_release,
};

const struct file_operations kb_proc_fs_fops = {
	.owner = THIS_MODULE,
	.open = kb_proc_open_fs,
	.mmap = kb_proc_mmap,
	.poll = kb_proc_poll,
	.unlocked_ioctl = kb_proc_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.flush = kb_proc_flush,
	.release = kb_proc_release,
};

/**
 * kb_proc_module_init() - create the workqueue of deferred teardowns
 *
 * Return: 0 or -ENOMEM.
 */
int kb_proc_module_init(void)
{
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
