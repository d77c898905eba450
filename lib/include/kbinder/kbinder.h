/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libkbinder: a small C library that speaks the binder protocol (version 8)
 * to a binder device (/dev/binder, or a kbinder/binderfs device).
 *
 * Layers, from the bottom up:
 *   - device:  open + mmap + version check, thin ioctl wrappers
 *   - writer:  builds a BC_ command stream into a caller-provided buffer
 *   - reader:  parses a BR_ return stream, never reading past its end
 *   - parcel:  a data builder that records the offsets of binder objects,
 *              and a bounds-checked view over received transaction data
 *   - thread:  per-thread event queue and convenience calls (transact and
 *              wait for the reply, one-way, reply, free buffer, looper,
 *              reference counts, death notifications)
 *
 * Error convention: functions returning int return 0 (or a documented
 * positive value) on success and a negative errno on failure. They never
 * set or rely on errno for their result.
 */
#ifndef KBINDER_KBINDER_H
#define KBINDER_KBINDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/android/binder.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* device                                                               */
/* ------------------------------------------------------------------ */

/** Default size of the receive mapping (what libbinder uses, ~1 MiB). */
#define KB_DEFAULT_MAP_SIZE ((size_t)(1024 * 1024 - 2 * 4096))

/**
 * struct kb_proc - one binder "process": an open binder fd and its mapping.
 * @fd:       the binder file descriptor, -1 when closed
 * @map:      start of the read-only receive mapping, NULL if not mapped
 * @map_size: size of @map in bytes
 */
struct kb_proc {
	int fd;
	void *map;
	size_t map_size;
};

/**
 * kb_open() - open a binder device, check its protocol version, map it.

 * @p:        filled in on success; on failure p->fd is -1
 * @path:     device path; NULL means $BINDER_DEVICE or "/dev/binder"
 * @map_size: bytes to mmap read-only; 0 means no mapping
 *
 * Return: 0, or -errno (-EPROTO if the protocol version is not ours).
 */
int kb_open(struct kb_proc *p, const char *path, size_t map_size);

/** kb_close() - unmap and close; safe to call twice. */
void kb_close(struct kb_proc *p);

/** kb_default_device() - $BINDER_DEVICE or "/dev/binder". */
const char *kb_default_device(void);

int kb_version(int fd, int32_t *version);
int kb_set_max_threads(int fd, uint32_t max_threads);
int kb_set_context_mgr(int fd);
int kb_set_context_mgr_ext(int fd, const struct flat_binder_object *obj);
int kb_thread_exit(int fd);
int kb_get_node_debug_info(int fd, struct binder_node_debug_info *info);
int kb_get_node_info_for_ref(int fd, struct binder_node_info_for_ref *info);

/**
 * kb_write_read() - one BINDER_WRITE_READ ioctl.
 *
 * Retries on EINTR only when nothing was consumed. Return: 0 or -errno; the
 * consumed fields of @bwr are valid in both cases.
 */
int kb_write_read(int fd, struct binder_write_read *bwr);

/**
 * kb_write() - write a whole command stream, no read.
 * @consumed: if not NULL, receives write_consumed (also on error)
 */
int kb_write(int fd, const void *buf, size_t size, size_t *consumed);

/**
 * kb_read() - one read; waits (with poll()) until something was read, also
 * on a non-blocking fd.
 * @consumed: receives read_consumed
 */
int kb_read(int fd, void *buf, size_t size, size_t *consumed);

/* ------------------------------------------------------------------ */
/* writer: BC_ command streams                                          */
/* ------------------------------------------------------------------ */

/**
 * struct kb_writer - appends BC_ commands to a caller-owned buffer.
 * @buf: the buffer
 * @cap: its capacity in bytes
 * @len: bytes written so far
 * @err: first error (sticky): -ENOSPC when a command did not fit,
 *       -EINVAL for a command that is not a BC_ code of the right size
 *
 * A command that does not fit is not written at all (no partial command).
 */
struct kb_writer {
	uint8_t *buf;
	size_t cap;
	size_t len;
	int err;
};

void kb_writer_init(struct kb_writer *w, void *buf, size_t cap);
/** kb_writer_put() - append @cmd and its @size-byte argument. */
int kb_writer_put(struct kb_writer *w, uint32_t cmd, const void *arg,
		  size_t size);
/** kb_put_txn() - BC_TRANSACTION or BC_REPLY. */
int kb_put_txn(struct kb_writer *w, uint32_t cmd,
	       const struct binder_transaction_data *tr);
/** kb_put_txn_sg() - BC_TRANSACTION_SG or BC_REPLY_SG. */
int kb_put_txn_sg(struct kb_writer *w, uint32_t cmd,
		  const struct binder_transaction_data_sg *tr);
int kb_put_free_buffer(struct kb_writer *w, binder_uintptr_t buffer);
/** kb_put_handle_cmd() - BC_INCREFS, BC_ACQUIRE, BC_RELEASE, BC_DECREFS. */
int kb_put_handle_cmd(struct kb_writer *w, uint32_t cmd, uint32_t handle);
/** kb_put_ptr_cookie() - BC_INCREFS_DONE, BC_ACQUIRE_DONE. */
int kb_put_ptr_cookie(struct kb_writer *w, uint32_t cmd,
		      binder_uintptr_t ptr, binder_uintptr_t cookie);
/** kb_put_death() - BC_REQUEST_DEATH_NOTIFICATION / CLEAR_DEATH_NOTIFICATION. */
int kb_put_death(struct kb_writer *w, uint32_t cmd, uint32_t handle,
		 binder_uintptr_t cookie);
int kb_put_dead_binder_done(struct kb_writer *w, binder_uintptr_t cookie);
/** kb_put_looper() - BC_REGISTER_LOOPER, BC_ENTER_LOOPER, BC_EXIT_LOOPER. */
int kb_put_looper(struct kb_writer *w, uint32_t cmd);

/** kb_command_size() - argument size of a BC_ code, or -EINVAL if unknown. */
int kb_command_size(uint32_t cmd);
/** kb_command_name() - "BC_TRANSACTION" etc, or "BC_?" if unknown. */
const char *kb_command_name(uint32_t cmd);

/* ------------------------------------------------------------------ */
/* reader: BR_ return streams                                           */
/* ------------------------------------------------------------------ */

/**
 * struct kb_return - one parsed return command.
 * @cmd: the BR_ code
 * @u:   its argument; which member is valid depends on @cmd
 */
struct kb_return {
	uint32_t cmd;
	union {
		int32_t error;                            /* BR_ERROR */
		struct binder_transaction_data txn;       /* BR_TRANSACTION, BR_REPLY */
		struct binder_transaction_data_secctx txn_secctx; /* BR_TRANSACTION_SEC_CTX */
		struct binder_ptr_cookie ptr_cookie;      /* BR_INCREFS..BR_DECREFS */
		struct binder_pri_ptr_cookie pri_ptr_cookie; /* BR_ATTEMPT_ACQUIRE */
		binder_uintptr_t cookie;   /* BR_DEAD_BINDER, BR_CLEAR_DEATH_NOTIFICATION_DONE,
					      BR_CLEAR_FREEZE_NOTIFICATION_DONE */
		struct binder_frozen_state_info frozen;  /* BR_FROZEN_BINDER */
	} u;
};

/**
 * struct kb_reader - cursor over a BR_ stream.
 * @buf:  stream start
 * @size: valid bytes (read_consumed)
 * @pos:  offset of the next command
 */
struct kb_reader {
	const uint8_t *buf;
	size_t size;
	size_t pos;
};

void kb_reader_init(struct kb_reader *r, const void *buf, size_t size);
/**
 * kb_reader_next() - parse the next command.
 *
 * Return: 1 and @ret filled, 0 at the end of the stream, -EPROTO for an
 * unknown command, -EBADMSG for a command truncated by the end of the
 * stream. On error @r->pos is left at the bad command.
 */
int kb_reader_next(struct kb_reader *r, struct kb_return *ret);
/** kb_return_size() - argument size of a BR_ code, or -EPROTO if unknown. */
int kb_return_size(uint32_t cmd);
/** kb_return_name() - "BR_REPLY" etc, or "BR_?" if unknown. */
const char *kb_return_name(uint32_t cmd);

/* ------------------------------------------------------------------ */
/* parcel: transaction data with object offsets                         */
/* ------------------------------------------------------------------ */

/**
 * struct kb_parcel - growable transaction payload.
 * @data:      payload bytes
 * @size:      payload size (always a multiple of 4)
 * @cap:       allocated bytes for @data
 * @offsets:   offsets of binder objects within @data
 * @n_offsets: number of entries in @offsets
 * @offsets_cap: allocated entries
 * @err:       first error (sticky), -ENOMEM
 */
struct kb_parcel {
	uint8_t *data;
	size_t size;
	size_t cap;
	binder_size_t *offsets;
	size_t n_offsets;
	size_t offsets_cap;
	int err;
};

void kb_parcel_init(struct kb_parcel *p);
void kb_parcel_reset(struct kb_parcel *p);
void kb_parcel_fini(struct kb_parcel *p);
/** kb_parcel_write() - append bytes, zero-padded to a multiple of 4. */
int kb_parcel_write(struct kb_parcel *p, const void *data, size_t size);
int kb_parcel_write_u32(struct kb_parcel *p, uint32_t v);
int kb_parcel_write_u64(struct kb_parcel *p, uint64_t v);
/** kb_parcel_write_object() - append an object and record its offset. */
int kb_parcel_write_object(struct kb_parcel *p, const void *obj, size_t size);
/** kb_parcel_write_binder() - a local object (BINDER_TYPE_BINDER or WEAK_BINDER). */
int kb_parcel_write_binder(struct kb_parcel *p, binder_uintptr_t ptr,
			   binder_uintptr_t cookie, uint32_t flags, bool weak);
/** kb_parcel_write_handle() - a remote object (BINDER_TYPE_HANDLE or WEAK_HANDLE). */
int kb_parcel_write_handle(struct kb_parcel *p, uint32_t handle,
			   uint32_t flags, bool weak);
/** kb_parcel_write_fd() - a BINDER_TYPE_FD object. */
int kb_parcel_write_fd(struct kb_parcel *p, int fd, binder_uintptr_t cookie);
/** kb_parcel_to_txn() - point @tr's data/offsets (and sizes) at @p. */
void kb_parcel_to_txn(const struct kb_parcel *p,
		      struct binder_transaction_data *tr);

/**
 * struct kb_parcel_view - bounds-checked reader over received data.
 * @data, @size:         the payload
 * @offsets, @n_offsets: its object offsets
 * @pos:                 read cursor in @data
 */
struct kb_parcel_view {
	const uint8_t *data;
	size_t size;
	const binder_size_t *offsets;
	size_t n_offsets;
	size_t pos;
};

void kb_view_init(struct kb_parcel_view *v,
		  const struct binder_transaction_data *tr);
/** kb_view_read() - copy @size bytes, advance by size rounded up to 4. */
int kb_view_read(struct kb_parcel_view *v, void *out, size_t size);
int kb_view_read_u32(struct kb_parcel_view *v, uint32_t *out);
int kb_view_read_u64(struct kb_parcel_view *v, uint64_t *out);
/**
 * kb_view_object() - copy the @index-th object (a flat_binder_object or
 * binder_fd_object, both 24 bytes). Return: 0, or -ERANGE if out of bounds.
 */
int kb_view_object(const struct kb_parcel_view *v, size_t index,
		   struct flat_binder_object *out);

/* ------------------------------------------------------------------ */
/* thread: event queue and convenience calls                            */
/* ------------------------------------------------------------------ */

#define KB_THREAD_RBUF 512

/**
 * struct kb_thread - one binder thread (the calling OS thread) on one fd.
 * @fd:   binder fd
 * @len:  bytes in @buf (last read_consumed)
 * @pos:  next unparsed byte in @buf
 * @buf:  last read
 *
 * Keep one per OS thread per fd; the driver keys its thread state on the
 * calling task.
 */
struct kb_thread {
	int fd;
	size_t len;
	size_t pos;
	uint8_t buf[KB_THREAD_RBUF];
};

void kb_thread_init(struct kb_thread *t, int fd);
/**
 * kb_next() - the next return command, reading from the driver if needed.
 * @timeout_ms: -1 waits forever; otherwise -ETIMEDOUT after that long.
 *
 * A timed wait polls, then reads with the file briefly O_NONBLOCK (so it
 * cannot sleep in the driver past its deadline); blocking readers of the
 * same fd that meet -EAGAIN meanwhile simply wait again (kb_read()).
 *
 * BR_NOOP is returned like any other command. Return: 0 or -errno.
 */
int kb_next(struct kb_thread *t, struct kb_return *ret, int timeout_ms);
/** kb_pending() - true if parsed-but-unreturned commands are queued. */
bool kb_pending(const struct kb_thread *t);

/**
 * typedef kb_event_fn - called for every command a convenience call does not
 * consume itself. Return 0 to go on, a negative errno to abort the call.
 */
typedef int (*kb_event_fn)(struct kb_thread *t, const struct kb_return *ret,
			   void *arg);

/**
 * kb_handle_default() - default handling of an unexpected command: ack
 * BR_INCREFS/BR_ACQUIRE, ignore BR_RELEASE/DECREFS/NOOP/SPAWN_LOOPER,
 * BC_DEAD_BINDER_DONE a BR_DEAD_BINDER, BC_FREEZE_NOTIFICATION_DONE a
 * BR_FROZEN_BINDER, free the buffer of a BR_TRANSACTION
 * and reply empty to a synchronous one; -EPROTO for anything else.
 */
int kb_handle_default(struct kb_thread *t, const struct kb_return *ret,
		      void *arg);

/**
 * struct kb_reply - outcome of a transaction.
 * @status: BR_REPLY, BR_TRANSACTION_COMPLETE (one-way),
 *          BR_TRANSACTION_PENDING_FROZEN (one-way, target frozen: queued
 *          until it thaws; mainline 6.7+), BR_DEAD_REPLY, BR_FAILED_REPLY
 *          or BR_FROZEN_REPLY
 * @txn:    the reply when @status is BR_REPLY; free its buffer with
 *          kb_free_buffer()
 */
struct kb_reply {
	uint32_t status;
	struct binder_transaction_data txn;
};

/**
 * kb_transact() - send a transaction and wait for its outcome.
 * @handle:  target handle
 * @code:    transaction code
 * @data:    payload (NULL for none)
 * @flags:   TF_* flags; with TF_ONE_WAY returns after BR_TRANSACTION_COMPLETE
 * @reply:   outcome
 * @other:   handler for other commands (NULL = kb_handle_default)
 * @arg:     passed to @other
 * @timeout_ms: bound on each wait for the driver (-1 = none)
 */
int kb_transact(struct kb_thread *t, uint32_t handle, uint32_t code,
		const struct kb_parcel *data, uint32_t flags,
		struct kb_reply *reply, kb_event_fn other, void *arg,
		int timeout_ms);
/**
 * kb_send_reply() - BC_REPLY and wait for BR_TRANSACTION_COMPLETE.
 * Return: 0, -EPIPE on BR_DEAD_REPLY, -EIO on BR_FAILED_REPLY, or -errno.
 */
int kb_send_reply(struct kb_thread *t, const struct kb_parcel *data,
		  uint32_t flags, int timeout_ms);
/**
 * kb_wait_for() - handle commands until one with code @cmd arrives.
 * Return: 0 with @ret filled, or -errno.
 */
int kb_wait_for(struct kb_thread *t, uint32_t cmd, struct kb_return *ret,
		kb_event_fn other, void *arg, int timeout_ms);

int kb_free_buffer(struct kb_thread *t, binder_uintptr_t buffer);
int kb_enter_looper(struct kb_thread *t);
int kb_register_looper(struct kb_thread *t);
int kb_exit_looper(struct kb_thread *t);
/** kb_ref() - BC_INCREFS / BC_ACQUIRE / BC_RELEASE / BC_DECREFS on @handle. */
int kb_ref(struct kb_thread *t, uint32_t cmd, uint32_t handle);
/** kb_ref_done() - BC_INCREFS_DONE / BC_ACQUIRE_DONE. */
int kb_ref_done(struct kb_thread *t, uint32_t cmd, binder_uintptr_t ptr,
		binder_uintptr_t cookie);
int kb_request_death(struct kb_thread *t, uint32_t handle,
		     binder_uintptr_t cookie);
int kb_clear_death(struct kb_thread *t, uint32_t handle,
		   binder_uintptr_t cookie);
int kb_dead_binder_done(struct kb_thread *t, binder_uintptr_t cookie);

#ifdef __cplusplus
}
#endif

#endif /* KBINDER_KBINDER_H */
