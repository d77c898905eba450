/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Work items: everything a thread reads from the driver (BR_ commands) is a
 * kb_work queued on a todo list. Each kind of work brings its own ops, so
 * the read loop does not know the kinds.
 *
 * The interface only, the lowest layer of the objects: the todo lists
 * belong to their process and threads, which queue and take items
 * (proc.h, thread.h); the kinds are the files of their objects
 * (transactions and completions in transaction.c, a thread's return code
 * in thread.c, node notices in node.c, notices in notice.c).
 */
#ifndef _KB_WORK_H
#define _KB_WORK_H

#include <linux/list.h>
#include <linux/types.h>
#include <linux/uaccess.h>

#include "internal.h"

struct kb_buffer;
struct kb_thread;
struct kb_work;

/**
 * struct kb_wbuf - the part of the read buffer still to fill
 * @start: start of the whole read buffer (BR_SPAWN_LOOPER goes there)
 * @ptr: next byte to write
 * @end: end of the read buffer
 */
struct kb_wbuf {
	u8 __user *start;
	u8 __user *ptr;
	u8 __user *end;
};

/**
 * kb_wbuf_put() - append bytes to the read buffer
 * @out: the read buffer
 * @data: what to write
 * @len: how many bytes
 *
 * Inline, so that a constant @len lets the compiler drop the hardened
 * usercopy check, which costs more than these small copies.
 *
 * Return: 0, or -EFAULT if the user memory is not writable or full.
 */
static inline int kb_wbuf_put(struct kb_wbuf *out, const void *data,
			      size_t len)
{
	if (unlikely(out->ptr > out->end || out->end - out->ptr < len))
		return -EFAULT;
	if (unlikely(copy_to_user(out->ptr, data, len)))
		return -EFAULT;
	out->ptr += len;
	return 0;
}

/**
 * kb_wbuf_put_u32() - append a BR_ code or another 32-bit value
 * @out: the read buffer
 * @val: the value
 *
 * Return: 0 or -EFAULT.
 */
static inline int kb_wbuf_put_u32(struct kb_wbuf *out, u32 val)
{
	if (unlikely(out->ptr > out->end ||
		     out->end - out->ptr < sizeof(val)))
		return -EFAULT;
	if (unlikely(put_user(val, (u32 __user *)out->ptr)))
		return -EFAULT;
	out->ptr += sizeof(val);
	return 0;
}

/*
 * Teardown walks take at most this many items per critical section, and
 * offer to reschedule after each batch: what they walk is as long as an
 * attacker made it.
 */
#define KB_WORK_BATCH 64

/* Returned by &kb_work_ops.deliver: stop reading after this item. */
#define KB_READ_STOP 1

/**
 * union kb_work_snap - what a work item's take saw under the lock, for its
 *	deliver (each kind uses its own member, if any)
 * @cmd: the BR_ code to write (a thread's return code, a completion)
 * @notice: a notice (death, freeze): @notice.cookie, the requester's
 *	cookie; @notice.state, the state it reports
 * @call: a transaction: @call.buffer, its buffer; @call.refuse, the reader
 *	must refuse it (see kb_transaction_take())
 */
union kb_work_snap {
	u32 cmd;
	struct {
		binder_uintptr_t cookie;
		u32 state;
	} notice;
	struct {
		struct kb_buffer *buffer;
		bool refuse;
	} call;
};

/**
 * struct kb_work_ops - what a kind of work does
 * @name: printed for a pending item in the debugfs state files (logs.c)
 * @take: optional; called by the reading @thread right after it took
 *	@work off its list, in the same critical section of its process's
 *	inner_lock (held; must not be dropped): the state changes that must
 *	be atomic with the dequeue, and a copy in @snap of what @deliver
 *	needs that the lock protects
 * @deliver: called by the reading @thread without locks, after @take:
 *	write the item's BR_ command(s) to @out; return 0, KB_READ_STOP or
 *	a negative errno. An item that @take put on another list may have
 *	changed kind or been freed by then: its deliver uses only @snap
 *	(the read loop read @deliver itself under the lock)
 * @claim: optional; called under the inner_lock of the list's process
 *	right after a teardown took @work off a list that is going away
 *	(kb_proc_cancel_list()): undo, under the lock, what ties the item to
 *	that process, and say whether the item now belongs to the teardown.
 *	One that does not (a notice its ref still holds, a node's or a
 *	thread's own item) is never touched again once the lock is dropped:
 *	its owner may free it at any moment. Without @claim an item belongs
 *	to whoever takes it off its list
 * @cancel: called without locks on an item that a teardown took off its
 *	list and claimed (see @claim): answer the sender or free it; may be
 *	NULL for a kind whose @claim never gives the item away
 * @outdated_by: optional: whether @work, waiting on a node's one-way
 *	queue, is superseded by @newer, an item about to join that queue
 *	(TF_UPDATE_TXN, kb_node_take_outdated_locked()); called under the
 *	node's lock, must not take any
 * @needs_area: the item delivers a buffer in the receive area (a call):
 *	once the area is gone nobody can read it, and the discard cancels it
 *	while the process's other threads may still run
 *	(kb_proc_discard_list()); other items (notices) wait for the
 *	teardown
 */
struct kb_work_ops {
	const char *name;
	void (*take)(struct kb_work *work, struct kb_thread *thread,
		     union kb_work_snap *snap);
	int (*deliver)(struct kb_work *work, struct kb_thread *thread,
		       struct kb_wbuf *out, const union kb_work_snap *snap);
	bool (*claim)(struct kb_work *work);
	void (*cancel)(struct kb_work *work);
	bool (*outdated_by)(const struct kb_work *work,
			    const struct kb_work *newer);
	bool needs_area;
};

/**
 * struct kb_work - one queued item
 * @entry: in a todo list, or empty (protected by the inner_lock of the
 *	process that owns the list)
 * @ops: what this item does (may change only while it is not queued)
 */
struct kb_work {
	struct list_head entry;
	const struct kb_work_ops *ops;
};

/**
 * kb_work_init() - prepare a work item
 * @work: the item
 * @ops: its kind
 */
static inline void kb_work_init(struct kb_work *work,
				const struct kb_work_ops *ops)
{
	INIT_LIST_HEAD(&work->entry);
	work->ops = ops;
}

#endif /* _KB_WORK_H */
