/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Queueing work and waking the thread that must take it: the todo lists
 * of a process and of its threads, the idle loopers waiting for process
 * work, and the reader's side of the same lists (what it waits for, what
 * it takes next). The one wake rule is written down at the top of
 * queue.c.
 */
#ifndef _KB_QUEUE_H
#define _KB_QUEUE_H

#include <linux/types.h>

#include "internal.h"

struct kb_proc;
struct kb_return_work;
struct kb_thread;
struct kb_work;

/**
 * struct kb_wake - whom to wake once the lock that queued work is dropped
 *	(kb_queue_wake(); start from an all-zero one, and choose once)
 * @task: the task of the thread chosen for the work, if it sleeps in a
 *	read: woken directly (a task reference held until the wake), or NULL
 * @thread: the thread chosen, if it ever polled: its wait queue is woken
 *	for poll() and epoll; else NULL
 * @pollers: no looper was idle and threads poll the file: the process
 *	whose polling threads are woken (its memory held by the caller), or
 *	NULL
 * @sync: the waker will soon sleep waiting for the answer
 */
struct kb_wake {
	struct task_struct *task;
	struct kb_thread *thread;
	struct kb_proc *pollers;
	bool sync;
};

/* Whether kb_queue_wake() has anything to do. */
static inline bool kb_wake_needed(const struct kb_wake *wake)
{
	return wake->task || wake->thread || wake->pollers;
}

/* Queueing, under the inner_lock of the list's process. */
void kb_queue_thread_locked(struct kb_thread *thread, struct kb_work *work,
			    struct kb_wake *wake);
void kb_queue_thread_quiet_locked(struct kb_thread *thread,
				  struct kb_work *work);
void kb_queue_proc_locked(struct kb_proc *proc, struct kb_work *work,
			  struct kb_wake *wake);
void kb_queue_call_locked(struct kb_proc *proc, struct kb_thread *thread,
			  struct kb_work *work, struct kb_wake *wake);
void kb_queue_kick_locked(struct kb_proc *proc, struct kb_wake *wake);
bool kb_queue_complete_locked(struct kb_thread *thread, bool now);
void kb_queue_uncomplete_locked(struct kb_thread *thread);
bool kb_queue_calls_pending_locked(struct kb_thread *thread);

/* Waking, after the lock is dropped. */
void kb_queue_wake(struct kb_wake *wake);
void kb_queue_yield(void);

/* Queueing and waking in one call, for callers that hold no lock. */
void kb_queue_return(struct kb_thread *thread, struct kb_return_work *rw,
		     u32 cmd);
void kb_queue_discard_proc(struct kb_proc *proc);
void kb_queue_discard_thread(struct kb_thread *thread);
void kb_queue_flush(struct kb_proc *proc);

/* The reader's side, under the inner_lock of its process. */
bool kb_queue_wants_proc_work_locked(struct kb_thread *thread);
bool kb_queue_has_work_locked(struct kb_thread *thread, bool proc_work);
struct kb_work *kb_queue_next_locked(struct kb_thread *thread,
				     bool proc_work, bool take);
int kb_queue_wait_locked(struct kb_thread *thread, bool non_block,
			 bool *proc_work);
bool kb_queue_read_end_locked(struct kb_thread *thread, bool ok,
			      struct kb_wake *wake);
void kb_queue_set_polled_locked(struct kb_thread *thread);

#endif /* _KB_QUEUE_H */
