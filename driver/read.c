// SPDX-License-Identifier: GPL-2.0-only
/*
 * The read half of BINDER_WRITE_READ (command.c is the write half): wait
 * for work, take items off the thread's and the process's todo lists and
 * write their BR_ commands to the read buffer, ask for more loopers.
 *
 * Every item is taken off its list and handed to its kind's take op in
 * one critical section of the process's inner_lock; its deliver op then
 * runs without locks (struct kb_work_ops).
 */
#include "internal.h"

#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#include "proc.h"
#include "queue.h"
#include "read.h"
#include "thread.h"

/*
 * Room a read buffer must still have before another item is taken: a BR_
 * code and the largest payload (a transaction with security context).
 */
#define KB_READ_MIN (sizeof(u32) + sizeof(struct binder_transaction_data_secctx))

/*
 * Take the next item off the thread's todo list, else off the process's
 * if the thread takes process work, and run its take op in the same
 * critical section. NULL if the buffer is full or nothing is left (then
 * *@empty is set). *@ops is read here, under the lock: a delivered notice
 * may change kind or be freed as soon as the lock is dropped (its take op
 * copied what its deliver needs).
 */
static struct kb_work *kb_read_take_locked(struct kb_thread *thread,
					   bool proc_work,
					   const struct kb_wbuf *out,
					   const struct kb_work_ops **ops,
					   union kb_work_snap *snap,
					   bool *empty)
	__must_hold(&thread->proc->inner_lock)
{
	bool room = out->ptr <= out->end && out->end - out->ptr >= KB_READ_MIN;
	struct kb_work *work;

	lockdep_assert_held(&thread->proc->inner_lock);
	work = kb_queue_next_locked(thread, proc_work, room);
	*empty = !work;
	if (!work || !room)
		return NULL;
	*ops = work->ops;
	if ((*ops)->take)
		(*ops)->take(work, thread, snap);
	return work;
}

/**
 * kb_thread_read() - fill a read buffer with BR_ commands
 * @thread: the reading thread, the caller's own
 * @buffer: user address of the read buffer
 * @size: its size
 * @consumed: bytes already filled; updated unless an error is returned
 * @non_block: return -EAGAIN instead of waiting
 *
 * Waits until there is work, then delivers items until the buffer is full,
 * an item asks to stop (a transaction, a death notice), or nothing is
 * left. Ends by asking for one more looper (BR_SPAWN_LOOPER at the start
 * of the buffer) if every looper is busy.
 *
 * Return: 0 or a negative errno.
 */
int kb_thread_read(struct kb_thread *thread, u64 buffer, u64 size,
		   u64 *consumed, bool non_block)
{
	struct kb_proc *proc = thread->proc;
	const struct kb_work_ops *ops;
	union kb_work_snap snap;
	struct kb_work *work;
	struct kb_wake wake = {};
	struct kb_wbuf out;
	bool proc_work, empty, spawn;
	int ret = 0;

	out.start = u64_to_user_ptr(buffer);
	out.ptr = out.start + *consumed;
	out.end = out.start + size;
	if (*consumed == 0 && kb_wbuf_put_u32(&out, BR_NOOP))
		ret = -EFAULT;

	spin_lock(&proc->inner_lock);
	if (!ret)
		ret = kb_queue_wait_locked(thread, non_block, &proc_work);
	while (!ret) {
		work = kb_read_take_locked(thread, proc_work, &out, &ops,
					   &snap, &empty);
		if (!work) {
			/* Woken for work another thread took: wait again. */
			if (empty && out.ptr - out.start == sizeof(u32) &&
			    !kb_thread_need_return_locked(thread)) {
				ret = kb_queue_wait_locked(thread, non_block,
							   &proc_work);
				continue;
			}
			break;
		}
		spin_unlock(&proc->inner_lock);
		ret = ops->deliver(work, thread, &out, &snap);
		spin_lock(&proc->inner_lock);
		if (ret == KB_READ_STOP) {
			ret = 0;
			break;
		}
	}
	/* BR_SPAWN_LOOPER, and a wake for process work left (rarely). */
	spawn = kb_queue_read_end_locked(thread, !ret, &wake);
	if (likely(!kb_wake_needed(&wake))) {
		spin_unlock(&proc->inner_lock);
	} else {
		rcu_read_lock();
		spin_unlock(&proc->inner_lock);
		kb_queue_wake(&wake);
		rcu_read_unlock();
	}

	if (ret)
		return ret;
	*consumed = out.ptr - out.start;
	if (spawn && put_user(BR_SPAWN_LOOPER, (u32 __user *)out.start))
		return -EFAULT;
	return 0;
}
