/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libkbinder, object: local binder objects with an interface
 * (kbinder_object_*), answering the standard transactions every Android
 * binder object answers (PING, INTERFACE, DUMP, DEBUG_PID, EXTENSION,
 * SYSPROPS) the way libbinder's BBinder does, and checking the interface
 * token before a user code reaches them, as AIDL's stubs do.
 */
#ifndef KBINDER_OBJECT_H
#define KBINDER_OBJECT_H

#include "android.h"
#include "thread.h"

KBINDER_BEGIN_DECLS

/**
 * struct kbinder_call - one incoming transaction, as a local object's
 * handler sees it.
 * @thread: the thread serving it (make nested calls on it)
 * @txn:    the transaction as the driver delivered it
 * @in:     a view over its data, after the interface token for user codes
 * @reply:  the reply payload to fill (sent after the handler returns)
 * @wire:   the conventions of the object
 */
struct kbinder_call {
	struct kbinder_thread *thread;
	const struct binder_transaction_data *txn;
	struct kbinder_view in;
	struct kbinder_parcel *reply;
	const struct kbinder_wire *wire;
	uint64_t reserved[4];
};

/**
 * struct kbinder_object - a local binder object with an interface.
 * @descriptor: its interface descriptor (INTERFACE_TRANSACTION answers it)
 * @wire:       the conventions its callers use
 * @handle:     user codes (FIRST..LAST_CALL_TRANSACTION) whose token
 *              matched; returns 0 to send @reply, a negative status_t to
 *              send a status-code reply (KBINDER_STATUS_UNKNOWN_TRANSACTION
 *              for codes it does not know). NULL: every user code is
 *              unknown.
 * @dump:       DUMP_TRANSACTION: write a description to @fd; NULL writes
 *              the descriptor and the pid
 * @arg:        for the callbacks
 * @n_codes:    the interface's user codes are 1..@n_codes: others are
 *              UNKNOWN_TRANSACTION before any token check, as AIDL stubs
 *              answer them (0: every user code reaches @handle)
 * @reserved:   zero
 */
struct kbinder_object {
	const char *descriptor;
	const struct kbinder_wire *wire;
	int (*handle)(struct kbinder_object *obj, uint32_t code,
		      struct kbinder_call *call);
	int (*dump)(struct kbinder_object *obj, int fd, int argc,
		    char **argv);
	void *arg;
	uint32_t n_codes;
	uint64_t reserved[4];
};

/**
 * kbinder_object_dispatch() - answer one BR_TRANSACTION for @obj the way
 * libbinder's BBinder does: PING (empty reply), INTERFACE (the
 * descriptor), DUMP (the fd and String16 arguments, then an empty reply),
 * DEBUG_PID (the pid), EXTENSION (the null binder), SYSPROPS (empty); a
 * user code after checking the interface token (BAD_TYPE on a mismatch,
 * as AIDL's generated code answers); any other code UNKNOWN_TRANSACTION. Sends the reply unless the call is one-way; does
 * not free the transaction's buffer.
 * Return: as kbinder_thread_reply() (0 for a one-way call).
 */
int kbinder_object_dispatch(struct kbinder_object *obj,
			    struct kbinder_thread *t,
			    const struct binder_transaction_data *tr);
/**
 * kbinder_thread_reply_status() - a TF_STATUS_CODE reply carrying @status.
 * Return: as kbinder_thread_reply().
 */
int kbinder_thread_reply_status(struct kbinder_thread *t, int32_t status,
				int timeout_ms);

KBINDER_END_DECLS

#endif /* KBINDER_OBJECT_H */
