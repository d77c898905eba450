/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libkbinder, writer: BC_ command streams built in a caller's buffer
 * (kbinder_writer_*), and what the BC_ codes are (kbinder_command_*).
 */
#ifndef KBINDER_WRITER_H
#define KBINDER_WRITER_H

#include "common.h"

KBINDER_BEGIN_DECLS

/**
 * struct kbinder_writer - appends BC_ commands to a caller-owned buffer.
 * @buf: the buffer
 * @cap: its capacity in bytes
 * @len: bytes written so far
 * @err: first error (sticky): -ENOSPC when a command did not fit,
 *       -EINVAL for a command that is not a BC_ code of the right size
 *
 * A command that does not fit is not written at all (no partial command).
 */
struct kbinder_writer {
	uint8_t *buf;
	size_t cap;
	size_t len;
	int err;
	uint64_t reserved[2];
};

void kbinder_writer_init(struct kbinder_writer *w, void *buf, size_t cap);
/** kbinder_writer_put() - append any known BC_ @cmd and its @size-byte argument. */
int kbinder_writer_put(struct kbinder_writer *w, uint32_t cmd, const void *arg,
		       size_t size);
/** kbinder_writer_put_txn() - BC_TRANSACTION or BC_REPLY. */
int kbinder_writer_put_txn(struct kbinder_writer *w, uint32_t cmd,
			   const struct binder_transaction_data *tr);
/** kbinder_writer_put_txn_sg() - BC_TRANSACTION_SG or BC_REPLY_SG. */
int kbinder_writer_put_txn_sg(struct kbinder_writer *w, uint32_t cmd,
			      const struct binder_transaction_data_sg *tr);
/** kbinder_writer_put_handle() - BC_INCREFS, BC_ACQUIRE, BC_RELEASE, BC_DECREFS. */
int kbinder_writer_put_handle(struct kbinder_writer *w, uint32_t cmd, uint32_t handle);
/** kbinder_writer_put_ptr_cookie() - BC_INCREFS_DONE, BC_ACQUIRE_DONE. */
int kbinder_writer_put_ptr_cookie(struct kbinder_writer *w, uint32_t cmd,
				  binder_uintptr_t ptr, binder_uintptr_t cookie);
/** kbinder_writer_put_death() - BC_REQUEST_DEATH_NOTIFICATION / CLEAR_DEATH_NOTIFICATION. */
int kbinder_writer_put_death(struct kbinder_writer *w, uint32_t cmd, uint32_t handle,
			     binder_uintptr_t cookie);
/** kbinder_writer_put_looper() - BC_REGISTER_LOOPER, BC_ENTER_LOOPER, BC_EXIT_LOOPER. */
int kbinder_writer_put_looper(struct kbinder_writer *w, uint32_t cmd);

/** kbinder_writer_put_free_buffer() - BC_FREE_BUFFER. */
static inline int kbinder_writer_put_free_buffer(struct kbinder_writer *w,
						 binder_uintptr_t buffer)
{
	return kbinder_writer_put(w, BC_FREE_BUFFER, &buffer, sizeof(buffer));
}

/** kbinder_writer_put_dead_binder_done() - BC_DEAD_BINDER_DONE. */
static inline int kbinder_writer_put_dead_binder_done(struct kbinder_writer *w,
						      binder_uintptr_t cookie)
{
	return kbinder_writer_put(w, BC_DEAD_BINDER_DONE, &cookie, sizeof(cookie));
}

/** kbinder_command_size() - argument size of a BC_ code, or -EINVAL if unknown. */
int kbinder_command_size(uint32_t cmd);
/** kbinder_command_name() - "BC_TRANSACTION" etc, or "BC_?" if unknown. */
const char *kbinder_command_name(uint32_t cmd);

KBINDER_END_DECLS

#endif /* KBINDER_WRITER_H */
