/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Transactions: BC_TRANSACTION/BC_REPLY, their delivery as
 * BR_TRANSACTION/BR_REPLY, the transaction stack, one-way ordering and
 * BC_FREE_BUFFER.
 */
#ifndef _KB_TRANSACTION_H
#define _KB_TRANSACTION_H

#include <linux/list.h>
#include <linux/pid.h>
#include <linux/spinlock.h>
#include <linux/uidgid.h>

#include "internal.h"
#include "thread.h"
#include "work.h"

struct kb_buffer;
struct kb_proc;
struct kb_thread;

/**
 * struct kb_transaction - a call or reply in flight
 * @debug_id: unique id for debug output
 * @work: queued on the target's todo (or a node's async_todo) until read
 * @lock: protects @from
 * @from: the sending thread of a synchronous call, NULL for one-way calls,
 *	replies, and once the sender died (a thread memory reference is
 *	held) (protected by @lock; a reply's or a one-way call's stays NULL
 *	from creation on, so for those it is read without @lock:
 *	kb_transaction_may_have_from())
 * @from_parent: the next older transaction on the sender's stack
 *	(protected by the sender process's inner_lock)
 * @to_parent: the next older transaction on the receiving thread's stack
 *	(protected by @to_proc's inner_lock)
 * @to_proc: the receiving process (a memory reference is held; constant)
 * @to_thread: the thread that must or did receive a synchronous call, or
 *	NULL (protected by @to_proc's inner_lock)
 * @buffer: the buffer in @to_proc's area holding the payload, NULL once
 *	freed (protected by @to_proc's inner_lock)
 * @sender_tgid: the sending process (pid reference held; constant)
 * @sender_euid: the sending process's effective uid at call time (constant)
 * @code: the user's transaction code (constant)
 * @flags: TF_* flags (constant)
 * @nice: the sender's nice level (constant)
 * @saved_nice: the receiver's nice level before it took the call
 *	(set and used by the receiving thread only)
 * @is_reply: a BC_REPLY (constant)
 * @counted: counted in @to_proc's outstanding transactions (protected by
 *	@to_proc's inner_lock)
 * @security_ctx: user address of the sender's security context in the
 *	buffer, or 0 (constant)
 * @fd_fixups: files to install in the receiver when it reads the
 *	transaction (&struct kb_fd_fixup; filled while sending, then used
 *	only by the thread that owns the transaction)
 */
struct kb_transaction {
	int debug_id;
	struct kb_work work;
	spinlock_t lock; /* protects a synchronous call's @from */
	struct kb_thread *from;
	struct kb_transaction *from_parent;
	struct kb_transaction *to_parent;
	struct kb_proc *to_proc;
	struct kb_thread *to_thread;
	struct kb_buffer *buffer;
	struct pid *sender_tgid;
	kuid_t sender_euid;
	u32 code;
	u32 flags;
	long nice;
	long saved_nice;
	bool is_reply;
	bool counted;
	binder_uintptr_t security_ctx;
	struct list_head fd_fixups;
};

struct kb_work *kb_tcomplete_new(struct kb_thread *thread);
void kb_tcomplete_set_spam(struct kb_work *work);
void kb_tcomplete_set_pending_frozen(struct kb_work *work);
void kb_tcomplete_free(struct kb_work *work);
void kb_tcomplete_recycle(struct kb_thread *thread, struct kb_work *work);

int kb_transaction_module_init(void);
void kb_transaction_module_exit(void);
struct kb_transaction *kb_transaction_new(struct kb_thread *thread,
					  int debug_id);
void kb_transaction_free(struct kb_transaction *t);
void kb_transaction_free_to(struct kb_transaction *t, struct kb_thread *thread);
bool kb_transaction_queued_on(struct kb_thread *thread);
struct kb_thread *kb_transaction_get_from(struct kb_transaction *t);
bool kb_transaction_sent_by_locked(struct kb_transaction *t,
				   struct kb_thread *from);
void kb_transaction_discard(struct kb_transaction *t);
struct kb_transaction *kb_transaction_from_work(struct kb_work *work);
void kb_transaction_send(struct kb_thread *thread,
			 const struct binder_transaction_data *tr,
			 bool reply, u64 extra_buffers_size);
int kb_transaction_free_user_buffer(struct kb_thread *thread,
				    binder_uintptr_t data_ptr);
/* How a buffer ends, for kb_transaction_release_buffer() */
#define KB_BUF_QUEUED		1	/* queued for the receiver, not read */
#define KB_BUF_DELIVERED	2	/* read by the receiver */

void kb_transaction_release_buffer(struct kb_proc *proc,
				   struct kb_buffer *buffer, size_t objects,
				   unsigned int how);
void kb_transaction_failed_reply(struct kb_transaction *t, u32 cmd);
void kb_transaction_thread_exit(struct kb_thread *thread);

/*
 * The transaction stacks (under the inner_lock of the thread's process):
 * a thread holds its top (kb_thread_stack_top_locked()); each
 * transaction links to the next older one of the thread that sent it
 * (@from_parent) and of the thread that received it (@to_parent); a
 * transaction whose @to_thread is the thread is one it received. Inline:
 * pushed and popped on every synchronous call, inside the critical
 * sections the sender needs anyway.
 */

/**
 * kb_transaction_below() - the link to the next older transaction of a
 *	thread's stack
 * @t: a transaction on @thread's stack
 * @thread: the thread
 *
 * Return: @t's @to_parent if @thread received @t, else its @from_parent.
 */
static inline struct kb_transaction **
kb_transaction_below(struct kb_transaction *t, struct kb_thread *thread)
{
	return t->to_thread == thread ? &t->to_parent : &t->from_parent;
}

/**
 * kb_transaction_push_call_locked() - push a call the thread sends
 * @thread: the sending thread
 * @t: the synchronous call, not on any stack yet
 */
static inline void kb_transaction_push_call_locked(struct kb_thread *thread,
						   struct kb_transaction *t)
	__must_hold(&thread->proc->inner_lock)
{
	t->from_parent = kb_thread_stack_top_locked(thread);
	kb_thread_stack_set_top_locked(thread, t);
}

/**
 * kb_transaction_pop_call_locked() - pop the call a reply answers from
 *	the stack of the thread that sent it
 * @thread: the thread that sent @t and waits for the reply
 * @t: the call being answered
 *
 * Return: true if @t was the top and is popped; false (nothing changes)
 * if anything was stacked above it.
 */
static inline bool kb_transaction_pop_call_locked(struct kb_thread *thread,
						  struct kb_transaction *t)
	__must_hold(&thread->proc->inner_lock)
{
	if (kb_thread_stack_top_locked(thread) != t)
		return false;
	kb_thread_stack_set_top_locked(thread, t->from_parent);
	return true;
}

/**
 * kb_transaction_push_incoming_locked() - push a call the thread received
 * @thread: the receiving thread (@t->to_thread)
 * @t: the call
 */
static inline void
kb_transaction_push_incoming_locked(struct kb_thread *thread,
				    struct kb_transaction *t)
	__must_hold(&thread->proc->inner_lock)
{
	t->to_parent = kb_thread_stack_top_locked(thread);
	kb_thread_stack_set_top_locked(thread, t);
}

/**
 * kb_transaction_pop_incoming_locked() - pop the call the thread answers
 * @thread: the replying thread
 *
 * Return: the top of the stack, popped, if it is a call the thread
 * received; else NULL (nothing to reply to) and nothing changes.
 */
static inline struct kb_transaction *
kb_transaction_pop_incoming_locked(struct kb_thread *thread)
	__must_hold(&thread->proc->inner_lock)
{
	struct kb_transaction *t = kb_thread_stack_top_locked(thread);

	if (!t || t->to_thread != thread)
		return NULL;
	kb_thread_stack_set_top_locked(thread, t->to_parent);
	return t;
}

bool kb_transaction_unlink_locked(struct kb_thread *thread,
				  struct kb_transaction *t);

#endif /* _KB_TRANSACTION_H */
