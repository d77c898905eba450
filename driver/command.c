// SPDX-License-Identifier: GPL-2.0-only
/*
 * The BC_ command stream of BINDER_WRITE_READ.
 *
 * Commands are read strictly inside the write buffer: a command whose
 * argument would run past the end fails the ioctl with -EINVAL. Protocol
 * errors of a single command (unknown handle, nothing pending) are logged
 * and the stream goes on, as the protocol expects; failed transactions are
 * reported through BR_ replies.
 */
#include "internal.h"

#include <linux/uaccess.h>

#include "command.h"
#include "context.h"
#include "counts.h"
#include "death.h"
#include "freeze_notify.h"
#include "node.h"
#include "notice.h"
#include "proc.h"
#include "profile.h"
#include "ref.h"
#include "thread.h"
#include "transaction.h"

/**
 * struct kb_rbuf - the part of the write buffer still to read
 * @ptr: next byte
 * @end: end of the write buffer
 */
struct kb_rbuf {
	const u8 __user *ptr;
	const u8 __user *end;
};

static inline int kb_rbuf_get(struct kb_rbuf *in, void *dst, size_t len)
{
	if (unlikely(in->end - in->ptr < len))
		return -EINVAL;
	if (unlikely(copy_from_user(dst, in->ptr, len)))
		return -EFAULT;
	in->ptr += len;
	return 0;
}

/*
 * A command code or a one-word argument: get_user() is a few inline
 * instructions where copy_from_user() is two calls and a string copy
 * (measured in docs/performance.md).
 */
static inline int kb_rbuf_get_u32(struct kb_rbuf *in, u32 *dst)
{
	if (unlikely(in->end - in->ptr < sizeof(*dst)))
		return -EINVAL;
	if (unlikely(get_user(*dst, (const u32 __user *)in->ptr)))
		return -EFAULT;
	in->ptr += sizeof(*dst);
	return 0;
}

static inline int kb_rbuf_get_u64(struct kb_rbuf *in, u64 *dst)
{
	if (unlikely(in->end - in->ptr < sizeof(*dst)))
		return -EINVAL;
	if (unlikely(get_user(*dst, (const u64 __user *)in->ptr)))
		return -EFAULT;
	in->ptr += sizeof(*dst);
	return 0;
}

static void kb_command_error(struct kb_thread *thread, u32 cmd, int err)
{
	pr_debug("%d:%d command %x failed: %d\n", thread->proc->pid,
		 thread->pid, cmd, err);
}

static int kb_command_refs(struct kb_thread *thread, u32 cmd,
			   struct kb_rbuf *in)
{
	u32 desc;
	int ret = kb_rbuf_get_u32(in, &desc);

	if (ret)
		return ret;
	ret = kb_ref_update(thread->proc, desc,
			    cmd == BC_INCREFS || cmd == BC_ACQUIRE,
			    cmd == BC_ACQUIRE || cmd == BC_RELEASE);
	if (ret)
		kb_command_error(thread, cmd, ret);
	return 0;
}

static int kb_command_ref_done(struct kb_thread *thread, u32 cmd,
			       struct kb_rbuf *in)
{
	struct binder_ptr_cookie pc;
	int ret = kb_rbuf_get(in, &pc, sizeof(pc));

	if (ret)
		return ret;
	ret = kb_node_ref_done(thread->proc, pc.ptr, pc.cookie,
			       cmd == BC_ACQUIRE_DONE);
	if (ret)
		kb_command_error(thread, cmd, ret);
	return 0;
}

static int kb_command_transaction(struct kb_thread *thread, u32 cmd,
				  struct kb_rbuf *in)
{
	struct binder_transaction_data_sg sg = {};
	int ret;

	if (cmd == BC_TRANSACTION_SG || cmd == BC_REPLY_SG) {
		kb_cnt_handled(thread->proc->ctx->counts,
			       cmd == BC_REPLY_SG ? KB_CNT_REF_REPLY_SG :
			       KB_CNT_REF_TRANSACTION_SG);
		ret = kb_rbuf_get(in, &sg, sizeof(sg));
	} else {
		ret = kb_rbuf_get(in, &sg.transaction_data,
				  sizeof(sg.transaction_data));
	}
	if (ret)
		return ret;
	kb_cnt_tf(thread->proc->ctx->counts, sg.transaction_data.flags);
	kb_transaction_send(thread, &sg.transaction_data,
			    cmd == BC_REPLY || cmd == BC_REPLY_SG,
			    sg.buffers_size);
	return 0;
}

/**
 * struct kb_command_notice - the commands of one kind of notice
 * @request: BC_REQUEST_*_NOTIFICATION
 * @clear: BC_CLEAR_*_NOTIFICATION
 * @done: its DONE command
 * @new: allocates a request of the kind
 * @errors_fail_write: an error fails the write (freeze, as mainline);
 *	else it is only logged, and only -ENOMEM fails it (death, as
 *	upstream)
 */
struct kb_command_notice {
	u32 request;
	u32 clear;
	u32 done;
	struct kb_notice *(*new)(struct kb_proc *proc, binder_uintptr_t cookie);
	bool errors_fail_write;
};

static const struct kb_command_notice kb_command_notices[KB_NOTICE_KINDS] = {
	[KB_NOTICE_DEATH] = {
		.request = BC_REQUEST_DEATH_NOTIFICATION,
		.clear = BC_CLEAR_DEATH_NOTIFICATION,
		.done = BC_DEAD_BINDER_DONE,
		.new = kb_death_new,
	},
	[KB_NOTICE_FREEZE] = {
		.request = BC_REQUEST_FREEZE_NOTIFICATION,
		.clear = BC_CLEAR_FREEZE_NOTIFICATION,
		.done = BC_FREEZE_NOTIFICATION_DONE,
		.new = kb_freeze_notify_new,
		.errors_fail_write = true,
	},
};

/*
 * A request or a clear: the handle is looked up here and the ref passed
 * down, under the refs_lock held across both (the ref must stay in the
 * tree while its request changes).
 */
static int kb_command_notice_handle(struct kb_thread *thread, u32 cmd,
				    enum kb_notice_kind kind,
				    const struct binder_handle_cookie *hc)
{
	struct kb_proc *proc = thread->proc;
	struct kb_notice *n = NULL;
	struct kb_ref *ref;
	int ret;

	if (cmd == kb_command_notices[kind].request) {
		n = kb_command_notices[kind].new(proc, hc->cookie);
		if (!n)
			return -ENOMEM;
	}
	mutex_lock(&proc->refs_lock);
	ref = kb_ref_lookup_locked(proc, hc->handle, false);
	if (n)
		ret = kb_ref_request_notice(ref, n);
	else
		ret = kb_ref_clear_notice(thread, ref, kind, hc->cookie);
	mutex_unlock(&proc->refs_lock);
	return ret;
}

/* The commands of death and freeze notifications (notice.c). */
static int kb_command_notice(struct kb_thread *thread, u32 cmd,
			     enum kb_notice_kind kind, struct kb_rbuf *in)
{
	const struct kb_command_notice *c = &kb_command_notices[kind];
	struct binder_handle_cookie hc;
	binder_uintptr_t cookie;
	int ret;

	if (cmd == c->done) {
		ret = kb_rbuf_get_u64(in, &cookie);
		if (ret)
			return ret;
		ret = kb_notice_done(thread, kind, cookie);
	} else {
		ret = kb_rbuf_get(in, &hc, sizeof(hc));
		if (ret)
			return ret;
		ret = kb_command_notice_handle(thread, cmd, kind, &hc);
	}
	if (ret == -ENOMEM && !c->errors_fail_write)
		return ret;
	if (ret)
		kb_command_error(thread, cmd, ret);
	return c->errors_fail_write ? ret : 0;
}

static int kb_command_free_buffer(struct kb_thread *thread, u32 cmd,
				  struct kb_rbuf *in)
{
	binder_uintptr_t data_ptr;
	int ret = kb_rbuf_get_u64(in, &data_ptr);

	if (ret)
		return ret;
	ret = kb_transaction_free_user_buffer(thread, data_ptr);
	if (ret)
		kb_command_error(thread, cmd, ret);
	return 0;
}

static int kb_command_one(struct kb_thread *thread, u32 cmd,
			  struct kb_rbuf *in)
{
	switch (cmd) {
	case BC_INCREFS:
	case BC_ACQUIRE:
	case BC_RELEASE:
	case BC_DECREFS:
		return kb_command_refs(thread, cmd, in);
	case BC_INCREFS_DONE:
	case BC_ACQUIRE_DONE:
		return kb_command_ref_done(thread, cmd, in);
	case BC_FREE_BUFFER:
		return kb_command_free_buffer(thread, cmd, in);
	case BC_TRANSACTION:
	case BC_REPLY:
	case BC_TRANSACTION_SG:
	case BC_REPLY_SG:
		return kb_command_transaction(thread, cmd, in);
	case BC_REGISTER_LOOPER:
		kb_thread_register_looper(thread);
		return 0;
	case BC_ENTER_LOOPER:
		kb_thread_enter_looper(thread);
		return 0;
	case BC_EXIT_LOOPER:
		kb_thread_exit_looper(thread);
		return 0;
	case BC_REQUEST_DEATH_NOTIFICATION:
	case BC_CLEAR_DEATH_NOTIFICATION:
	case BC_DEAD_BINDER_DONE:
		return kb_command_notice(thread, cmd, KB_NOTICE_DEATH, in);
	case BC_REQUEST_FREEZE_NOTIFICATION:
	case BC_CLEAR_FREEZE_NOTIFICATION:
	case BC_FREEZE_NOTIFICATION_DONE:
		return kb_command_notice(thread, cmd, KB_NOTICE_FREEZE, in);
	case BC_ATTEMPT_ACQUIRE:
		/* Unsupported everywhere, as upstream: answered as unknown. */
		kb_cnt_handled(thread->proc->ctx->counts,
			       KB_CNT_REF_ATTEMPT_ACQUIRE);
		return -EINVAL;
	case BC_ACQUIRE_RESULT:
		kb_cnt_handled(thread->proc->ctx->counts,
			       KB_CNT_REF_ACQUIRE_RESULT);
		return -EINVAL;
	default:
		return -EINVAL;
	}
}

/*
 * Count the command in its world, or refuse it there as an unknown one
 * (-EINVAL) with the extended error that names the profile (-EOPNOTSUPP,
 * no transaction id). Nothing is logged: a refusal cannot flood the log.
 */
static int kb_command_counted(struct kb_thread *thread, u32 cmd,
			      struct kb_rbuf *in)
{
	struct kb_context *ctx = thread->proc->ctx;
	int item = kb_cnt_bc(cmd);

	if (unlikely(kb_profile_refuses_bc(ctx->profile, cmd))) {
		kb_cnt_refused(ctx->counts, item);
		kb_thread_set_error(thread, 0, BR_FAILED_REPLY, -EOPNOTSUPP);
		return -EINVAL;
	}
	kb_cnt_used(ctx->counts, item);
	return kb_command_one(thread, cmd, in);
}

/*
 * A thread's return_error is set (kb_transaction_send()) and cleared (when
 * read) only by the thread itself, so it can look without the lock.
 */
static bool kb_thread_error_pending(struct kb_thread *thread)
{
	return READ_ONCE(thread->return_error.cmd) != BR_OK;
}

/**
 * kb_thread_write() - run the BC_ commands of a write buffer
 * @thread: the calling thread
 * @buffer: user address of the write buffer
 * @size: its size
 * @consumed: bytes already consumed; advanced past each completed command
 *
 * Stops early, without error, when a transaction failed and its BR_ reply
 * has not been read yet.
 *
 * Return: 0, -EFAULT, -EINVAL (unknown or truncated command) or -ENOMEM.
 */
int kb_thread_write(struct kb_thread *thread, u64 buffer, u64 size,
		    u64 *consumed)
{
	const u8 __user *start = u64_to_user_ptr(buffer);
	struct kb_rbuf in = { .ptr = start + *consumed, .end = start + size };
	u32 cmd;
	int ret;

	if (*consumed > size)
		return -EINVAL;
	while (in.ptr < in.end && !kb_thread_error_pending(thread)) {
		ret = kb_rbuf_get_u32(&in, &cmd);
		if (!ret)
			ret = kb_command_counted(thread, cmd, &in);
		if (ret)
			return ret;
		*consumed = in.ptr - start;
	}
	return 0;
}
