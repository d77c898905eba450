/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libkbinder, thread: one binder thread's event queue and the calls made
 * on it (kbinder_thread_*): transact and wait for the outcome, reply, free
 * buffers, looper state, reference counts, death notifications.
 */
#ifndef KBINDER_THREAD_H
#define KBINDER_THREAD_H

#include "common.h"
#include "parcel.h"
#include "reader.h"
#include "writer.h"

KBINDER_BEGIN_DECLS

#define KBINDER_THREAD_RBUF 512

/**
 * struct kbinder_thread - one binder thread (the calling OS thread) on one fd.
 * @fd:   binder fd
 * @len:  bytes in @buf (last read)
 * @pos:  next unparsed byte in @buf
 * @buf:  last read
 *
 * Keep one per OS thread per fd: the driver keys its thread state on the
 * calling task. Nothing in it is shared with other threads, and the
 * library keeps no state of its own beside it.
 */
struct kbinder_thread {
	int fd;
	size_t len;
	size_t pos;
	uint64_t reserved[4];
	uint8_t buf[KBINDER_THREAD_RBUF];
};

/** kbinder_thread_init() - a thread on @fd; touches neither the fd nor @t->buf. */
void kbinder_thread_init(struct kbinder_thread *t, int fd);
/**
 * kbinder_thread_next() - the next return command, reading from the driver if needed.
 * @timeout_ms: -1 waits forever; otherwise -ETIMEDOUT after that long.
 *
 * BR_NOOP is returned like any other command. A timed read waits in
 * poll() and reads only once the driver says this thread has work; the
 * read starts the stream itself, so a driver that finds nothing to say
 * (a node update that changes no count, work another thread took) returns
 * at once instead of waiting again, and the wait goes back to poll() with
 * what is left of the deadline. The file's flags are never changed: other
 * threads' reads block as they always do. The kbinder_thread man page says the one
 * wait a blocking file cannot bound, and KBINDER_PROC_NONBLOCK.
 * Return: 0 or -errno.
 */
int kbinder_thread_next(struct kbinder_thread *t, struct kbinder_return *ret,
			int timeout_ms);

/** kbinder_thread_pending() - true if parsed-but-unreturned commands are queued. */
static inline bool kbinder_thread_pending(const struct kbinder_thread *t)
{
	return t->pos < t->len;
}

/**
 * typedef kbinder_event_fn - called for every command a call does not
 * consume itself. Return 0 to go on, a negative errno to abort the call.
 */
typedef int (*kbinder_event_fn)(struct kbinder_thread *t,
				const struct kbinder_return *ret, void *arg);

/**
 * kbinder_thread_handle_default() - default handling of an unexpected
 * command: ack BR_INCREFS/BR_ACQUIRE, ignore BR_RELEASE/DECREFS/NOOP/
 * SPAWN_LOOPER, BC_DEAD_BINDER_DONE a BR_DEAD_BINDER,
 * BC_FREEZE_NOTIFICATION_DONE a BR_FROZEN_BINDER, free the buffer of a
 * BR_TRANSACTION and reply empty to a synchronous one; -EPROTO for
 * anything else.
 */
int kbinder_thread_handle_default(struct kbinder_thread *t,
				  const struct kbinder_return *ret, void *arg);

/**
 * struct kbinder_reply - outcome of a transaction.
 * @status: BR_REPLY, BR_TRANSACTION_COMPLETE (one-way),
 *          BR_TRANSACTION_PENDING_FROZEN (one-way, target frozen: queued
 *          until it thaws; mainline 6.7+), BR_DEAD_REPLY, BR_FAILED_REPLY
 *          or BR_FROZEN_REPLY
 * @txn:    the reply when @status is BR_REPLY; free its buffer with
 *          kbinder_thread_free_buffer()
 */
struct kbinder_reply {
	uint32_t status;
	struct binder_transaction_data txn;
	uint64_t reserved[2];
};

/**
 * kbinder_thread_transact() - send a transaction and wait for its outcome.
 * @handle:  target handle
 * @code:    transaction code
 * @data:    payload (NULL for none)
 * @flags:   TF_* flags; with TF_ONE_WAY returns after BR_TRANSACTION_COMPLETE
 * @reply:   outcome (@reply->status says which)
 * @other:   handler for other commands (NULL = kbinder_thread_handle_default)
 * @arg:     passed to @other
 * @timeout_ms: bound on each wait for the driver (-1 = none)
 * Return: 0 whatever the outcome, or -errno if there is none.
 */
int kbinder_thread_transact(struct kbinder_thread *t, uint32_t handle, uint32_t code,
			    const struct kbinder_parcel *data, uint32_t flags,
			    struct kbinder_reply *reply, kbinder_event_fn other,
			    void *arg, int timeout_ms);
/**
 * kbinder_thread_reply() - BC_REPLY and wait for its outcome.
 * Return: 0 (BR_TRANSACTION_COMPLETE), BR_DEAD_REPLY (the caller is gone),
 * BR_FAILED_REPLY or BR_FROZEN_REPLY (positive: the driver's answer), or
 * a negative errno when there is no answer.
 */
int kbinder_thread_reply(struct kbinder_thread *t, const struct kbinder_parcel *data,
			 uint32_t flags, int timeout_ms);
/**
 * kbinder_thread_check_reply() - what @reply says, for a call that wants a
 * normal reply: 0 for a BR_REPLY with data (whose buffer the caller still
 * owns); its BR_ code (positive) for BR_DEAD_REPLY, BR_FAILED_REPLY,
 * BR_FROZEN_REPLY; for a status-code reply, the status_t it carries
 * (negative, Android's -errno values), and then the buffer was freed.
 */
int kbinder_thread_check_reply(struct kbinder_thread *t,
			       const struct kbinder_reply *reply);
/**
 * kbinder_thread_wait_for() - handle commands until one with code @cmd arrives.
 * Return: 0 with @ret filled, or -errno.
 */
int kbinder_thread_wait_for(struct kbinder_thread *t, uint32_t cmd,
			    struct kbinder_return *ret, kbinder_event_fn other,
			    void *arg, int timeout_ms);

/** kbinder_thread_write() - send @w's stream now (its sticky error if it has one). */
int kbinder_thread_write(struct kbinder_thread *t, const struct kbinder_writer *w);
/** kbinder_thread_command() - send one BC_ command with its argument now. */
int kbinder_thread_command(struct kbinder_thread *t, uint32_t cmd,
			   const void *arg, size_t size);
/** kbinder_thread_ref() - BC_INCREFS / BC_ACQUIRE / BC_RELEASE / BC_DECREFS on @handle. */
int kbinder_thread_ref(struct kbinder_thread *t, uint32_t cmd, uint32_t handle);
/** kbinder_thread_ref_done() - BC_INCREFS_DONE / BC_ACQUIRE_DONE. */
int kbinder_thread_ref_done(struct kbinder_thread *t, uint32_t cmd,
			    binder_uintptr_t ptr, binder_uintptr_t cookie);
/** kbinder_thread_request_death() - BC_REQUEST_DEATH_NOTIFICATION. */
int kbinder_thread_request_death(struct kbinder_thread *t, uint32_t handle,
				 binder_uintptr_t cookie);
/** kbinder_thread_clear_death() - BC_CLEAR_DEATH_NOTIFICATION. */
int kbinder_thread_clear_death(struct kbinder_thread *t, uint32_t handle,
			       binder_uintptr_t cookie);

static inline int kbinder_thread_free_buffer(struct kbinder_thread *t,
					     binder_uintptr_t buffer)
{
	return kbinder_thread_command(t, BC_FREE_BUFFER, &buffer, sizeof(buffer));
}

static inline int kbinder_thread_enter_looper(struct kbinder_thread *t)
{
	return kbinder_thread_command(t, BC_ENTER_LOOPER, NULL, 0);
}

static inline int kbinder_thread_register_looper(struct kbinder_thread *t)
{
	return kbinder_thread_command(t, BC_REGISTER_LOOPER, NULL, 0);
}

static inline int kbinder_thread_exit_looper(struct kbinder_thread *t)
{
	return kbinder_thread_command(t, BC_EXIT_LOOPER, NULL, 0);
}

static inline int kbinder_thread_dead_binder_done(struct kbinder_thread *t,
						  binder_uintptr_t cookie)
{
	return kbinder_thread_command(t, BC_DEAD_BINDER_DONE, &cookie, sizeof(cookie));
}

KBINDER_END_DECLS

#endif /* KBINDER_THREAD_H */
